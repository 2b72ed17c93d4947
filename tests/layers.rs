//! The layer check of `build.rs` (`build/layers.rs`): it finds a higher layer however the
//! path is written, ignores comments and strings, and the real tree passes it.

#[path = "../build/layers.rs"]
mod layers;

use layers::{check_source, check_tree, module_path, root_names};
use std::collections::HashMap;
use std::path::Path;

const LIB: &str = "
pub mod learning;
pub mod players;
pub mod rules;
pub use learning::{actions, observation, vecenv};
pub use players::{bots, sim};
pub use rules::{board, game, hex};
#[cfg(feature = \"python\")]
mod python;
pub use board::Board;
pub use game::{End, Game as Match};
";

fn roots() -> HashMap<String, usize> {
    root_names(LIB)
}

fn found(file: &str, src: &str) -> Vec<(usize, String)> {
    check_source(file, src, &roots()).into_iter().map(|v| (v.line, v.path)).collect()
}

#[test]
fn lib_re_exports_are_mapped_to_their_layers() {
    let r = roots();
    assert_eq!(r["bots"], 1);
    assert_eq!(r["sim"], 1);
    assert_eq!(r["vecenv"], 2);
    assert_eq!(r["game"], 0);
    assert_eq!(r["Board"], 0);
    assert_eq!(r["Match"], 0);
    assert_eq!(r["python"], 3);
    assert!(!r.contains_key("End") || r["End"] == 0);
}

#[test]
fn module_paths() {
    assert_eq!(module_path("rust/players/bots/search.rs"), ["players", "bots", "search"]);
    assert_eq!(module_path("rust/players/bots/mod.rs"), ["players", "bots"]);
    assert_eq!(module_path("rust/lib.rs"), Vec::<String>::new());
}

#[test]
fn a_higher_layer_is_found_however_it_is_written() {
    let src = "use crate::game::Game;\nuse crate::bots::Bot;\nfn f() { crate::sim::random_game(); }\n";
    assert_eq!(found("rust/rules/board.rs", src), [(2, "crate::bots".into()), (3, "crate::sim".into())]);
    // Through a group, through the layer's own folder, through `super`.
    assert_eq!(found("rust/rules/x.rs", "use crate::{hex::Cell, actions::KEEP};"), [(1, "crate::{actions}".into())]);
    assert_eq!(found("rust/players/sim.rs", "use crate::learning::vecenv::VecEnv;"), [(1, "crate::learning".into())]);
    assert_eq!(
        found("rust/players/bots/x.rs", "use super::super::super::python::Py;"),
        [(1, "super::super::super::python".into())]
    );
    assert_eq!(found("rust/rules/game.rs", "use super::super::players::sim;"), [(1, "super::super::players".into())]);
    assert_eq!(found("rust/rules/game.rs", "use super::super::sim;"), [(1, "super::super::sim".into())]);
    assert_eq!(found("rust/learning/vecenv.rs", "use crate::python::convert;"), [(1, "crate::python".into())]);
    // In an inline module, `super` is the file's module.
    let tests = "mod tests {\n    use super::super::sim;\n}\nuse super::super::sim;\n";
    assert_eq!(found("rust/rules/game.rs", tests), [(4, "super::super::sim".into())]);
    let tests = "mod tests {\n    use super::super::super::players::Bot;\n}\n";
    assert_eq!(found("rust/rules/game.rs", tests), [(2, "super::super::super::players".into())]);
}

#[test]
fn lower_and_own_layers_comments_and_strings_pass() {
    let src = r##"
//! Uses `crate::bots` in a comment only.
/* and crate::sim here, /* nested */ crate::actions */
use crate::game::Game;
use crate::{board, Board};
use super::hex::Cell;
pub(crate) fn f<'a>(x: &'a str) -> char { let _ = "crate::bots::x"; let _ = r#"crate::sim"#; '"' }
"##;
    assert_eq!(found("rust/rules/record.rs", src), Vec::<(usize, String)>::new());
    // Upward is fine: the bindings use everything.
    let up = "use crate::bots::Bot;\nuse crate::vecenv::VecEnv;\nuse crate::game::Game;";
    assert!(found("rust/python/x.rs", up).is_empty());
    assert!(found("rust/learning/x.rs", "use crate::sim::MAX_THREADS;").is_empty());
}

#[test]
fn the_real_tree_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = check_tree(root).expect("the sources are readable");
    assert!(found.is_empty(), "{}", found.iter().map(|v| v.to_string()).collect::<Vec<_>>().join("\n"));
}

#[test]
fn binding_modules_form_no_cycle() {
    let graph = |edges: &[(&str, &[&str])]| -> Vec<(String, Vec<String>)> {
        edges.iter().map(|(n, uses)| (n.to_string(), uses.iter().map(|u| u.to_string()).collect())).collect()
    };
    // The finder finds a cycle, however long, and none where there is none.
    let cycle = layers::find_cycle(&graph(&[("a", &["b"]), ("b", &["c"]), ("c", &["a"])]));
    assert_eq!(cycle, Some(vec!["a".to_string(), "b".into(), "c".into(), "a".into()]));
    assert_eq!(layers::find_cycle(&graph(&[("a", &["b", "c"]), ("b", &["c"]), ("c", &[])])), None);
    // Uses are read from code, not from comments or strings.
    let siblings = vec!["game".to_string(), "types".to_string()];
    let src = "use super::types::PyMove; // super::game\nlet s = \"super::game\";";
    assert_eq!(layers::sibling_uses(src, &siblings), vec!["types".to_string()]);
    // The real bindings.
    assert_eq!(layers::binding_cycle(Path::new(env!("CARGO_MANIFEST_DIR"))), Ok(None));
}

fn strings(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|x| x.to_string()).collect()
}

#[test]
fn paths_are_made_absolute_and_groups_expanded() {
    let here = strings(&["players", "bots", "search"]);
    let src = "use super::{eval::MoveScorer, tree::{self, Node as N}, Bot};\n\
               use crate::game::Game;\n\
               fn f() { let c = super::OnePlyConfig { never_swap: true, ..c }; crate::sim::f::<u8>(); }\n\
               // super::mcts in a comment\n\
               mod tests {\n    use super::*;\n    use super::super::levels::level;\n}\n";
    let got: Vec<(usize, Vec<String>)> = layers::absolute_paths(&here, src);
    let want = [
        (1, vec!["players", "bots", "eval", "MoveScorer"]),
        (1, vec!["players", "bots", "tree"]),
        (1, vec!["players", "bots", "tree", "Node"]),
        (1, vec!["players", "bots", "Bot"]),
        (2, vec!["game", "Game"]),
        (3, vec!["players", "bots", "OnePlyConfig"]),
        (3, vec!["sim", "f"]),
        (6, vec!["players", "bots", "search"]),
        (7, vec!["players", "bots", "levels", "level"]),
    ];
    let want: Vec<(usize, Vec<String>)> = want.iter().map(|(l, p)| (*l, strings(p))).collect();
    assert_eq!(got, want);
}

#[test]
fn re_exports_are_followed_to_the_module_that_defines_the_name() {
    let mut exports = layers::re_exports(&[], "pub use players::{bots, sim};\npub use game::{Game as Match};\n");
    exports.extend(layers::re_exports(&strings(&["players", "sim"]), "pub use crate::bots::{bot_seed, BotSpec};"));
    exports.extend(layers::re_exports(
        &strings(&["players", "bots"]),
        "mod spec;\npub use spec::{bot_seed, BotSpec};\npub(crate) use super::stop::Stop;\nuse eval::NotExported;",
    ));
    assert!(exports.contains(&(strings(&["Match"]), strings(&["game", "Game"]))));
    assert!(exports.contains(&(strings(&["players", "bots", "Stop"]), strings(&["players", "stop", "Stop"]))));
    assert!(!exports.iter().any(|(k, _)| k.last().is_some_and(|n| n == "NotExported")));
    assert_eq!(
        layers::resolve(&strings(&["sim", "BotSpec", "build"]), &exports),
        strings(&["players", "bots", "spec", "BotSpec", "build"])
    );
    assert_eq!(layers::resolve(&strings(&["rng", "Rng"]), &exports), strings(&["rng", "Rng"]));
}

#[test]
fn a_cycle_among_the_bots_or_a_seam_that_reaches_a_search_is_found() {
    let graph = |edges: &[(&str, &[&str])]| -> Vec<(String, Vec<String>)> {
        edges.iter().map(|(n, uses)| (n.to_string(), strings(uses))).collect()
    };
    // The seam below both searches, the searches side by side: nothing wrong.
    let good = graph(&[
        ("evaluator", &["eval", "learned"]),
        ("learned", &["eval"]),
        ("search", &["evaluator", "endgame", "analysis"]),
        ("endgame", &["analysis"]),
        ("mcts", &["evaluator"]),
    ]);
    assert!(layers::bots_problems(&good).is_empty());
    // The seam reaching a search through another module (which also closes a cycle).
    let bad = graph(&[("evaluator", &["learned"]), ("learned", &["spec"]), ("spec", &["mcts"]), ("mcts", &[])]);
    let found = layers::bots_problems(&bad);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("reaches the search `mcts`"), "{found:?}");
    let cycle = graph(&[("search", &["endgame"]), ("endgame", &["search"])]);
    let found = layers::bots_problems(&cycle);
    assert_eq!(found, ["the modules of rust/players/bots use each other in a cycle: search -> endgame -> search"]);
}

#[test]
fn a_folders_graph_follows_every_spelling_of_a_sibling() {
    let root = std::env::temp_dir().join(format!("genial-layers-{}", std::process::id()));
    let bots = root.join("rust/players/bots");
    std::fs::create_dir_all(&bots).unwrap();
    let write = |path: &str, text: &str| std::fs::write(root.join(path), text).unwrap();
    write("rust/lib.rs", "pub mod players;\npub use players::{bots, sim};\n");
    write("rust/players/mod.rs", "pub mod bots;\npub mod sim;\n");
    write("rust/players/sim.rs", "pub use crate::bots::Spec;\n");
    write("rust/players/bots/mod.rs", "mod a;\nmod b;\npub mod c;\nmod d;\npub use c::Spec;\npub trait Bot {}\n");
    // Through `crate::sim`'s re-export, `mod.rs`'s, a group, and a test module.
    write("rust/players/bots/a.rs", "use crate::sim::Spec;\nuse super::{Bot, b::X};\n");
    write("rust/players/bots/b.rs", "// super::d\nmod tests {\n    use super::super::d::Y;\n}\n");
    write("rust/players/bots/c.rs", "pub struct Spec;\nfn f() { crate::players::bots::c::g(); }\n");
    write("rust/players/bots/d.rs", "use crate::bots::Bot;\n");
    let graph = layers::folder_graph(&root, "players/bots");
    std::fs::remove_dir_all(&root).unwrap();
    let want = [("a", vec!["c", "b"]), ("b", vec!["d"]), ("c", vec![]), ("d", vec![])];
    let want: Vec<(String, Vec<String>)> = want.iter().map(|(n, u)| (n.to_string(), strings(u))).collect();
    assert_eq!(graph.unwrap(), want);
}

#[test]
fn the_bots_form_no_cycle_and_their_evaluator_seam_is_a_leaf_below_the_searches() {
    let graph = layers::folder_graph(Path::new(env!("CARGO_MANIFEST_DIR")), "players/bots").unwrap();
    let shown = graph.iter().map(|(n, u)| format!("{n} -> {}", u.join(", "))).collect::<Vec<_>>().join("\n");
    assert!(graph.len() >= 20, "{shown}");
    let problems = layers::bots_problems(&graph);
    assert!(problems.is_empty(), "{}\n{shown}", problems.join("\n"));
    // Below both searches: each of them uses it.
    for search in ["search", "mcts"] {
        assert!(layers::reaches(&graph, search).iter().any(|m| m == layers::SEAM), "{search}\n{shown}");
    }
}

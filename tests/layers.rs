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

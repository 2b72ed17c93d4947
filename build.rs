//! Fails the build when a lower layer of the crate uses a higher one (see
//! `build/layers.rs`): `rust/rules` ← `rust/players` ← `rust/learning` ← `rust/python`,
//! when the binding modules of `rust/python` use each other in a cycle, or when the modules
//! of `rust/players/bots` do, or its evaluator seam reaches a search.

#[path = "build/layers.rs"]
mod layers;

use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=rust");
    println!("cargo:rerun-if-changed=build/layers.rs");
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let found = match layers::check_tree(Path::new(&root)) {
        Ok(found) => found,
        Err(e) => {
            eprintln!("error: the layer check cannot read the sources: {e}");
            std::process::exit(1);
        }
    };
    if !found.is_empty() {
        for v in &found {
            eprintln!("error: {v}");
        }
        eprintln!("error: {} use(s) of a higher layer; see ARCHITECTURE.md, \"The layers\"", found.len());
        std::process::exit(1);
    }
    match layers::binding_cycle(Path::new(&root)) {
        Ok(None) => {}
        Ok(Some(cycle)) => {
            eprintln!("error: the binding modules of rust/python use each other in a cycle: {}", cycle.join(" -> "));
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("error: the cycle check cannot read the sources: {e}");
            std::process::exit(1);
        }
    }
    match layers::folder_graph(Path::new(&root), "players/bots") {
        Ok(graph) => {
            let problems = layers::bots_problems(&graph);
            if !problems.is_empty() {
                for p in &problems {
                    eprintln!("error: {p}");
                }
                eprintln!("error: see ARCHITECTURE.md, \"The layers\"");
                std::process::exit(1);
            }
        }
        Err(e) => {
            eprintln!("error: the bots' module check cannot read the sources: {e}");
            std::process::exit(1);
        }
    }
}

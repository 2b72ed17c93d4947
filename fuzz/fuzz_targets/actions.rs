//! A game driven by fuzz bytes: rule set, seed and deal, then legal and arbitrary moves,
//! move text, swaps, copies and determinizations, with every invariant checked after each
//! step (`genial::invariants::run_actions`). Any panic or broken invariant is a finding;
//! keep the input in `fuzz/regressions/` so `cargo test` replays it.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = genial::invariants::run_actions(data) {
        panic!("invariant broken: {e}");
    }
});

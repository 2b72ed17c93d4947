//! The fuzzer's invariant checker as a plain, fast test: seeded random games of every rule
//! set, with illegal moves thrown in, and the byte-driven driver on seeded random inputs.
//! Inputs that once broke an invariant are kept in `fuzz/regressions/` and replayed here.

use genial::bots::{Bot, RandomBot};
use genial::hex::{Cell, BOARD_RADIUS};
use genial::invariants::{all_configs, check_determinized, check_generation, check_state, run_actions, try_move};
use genial::rng::{derive_seed, Rng};
use genial::{Game, Move, Placement};
use std::path::PathBuf;

/// Games per rule set, and driver inputs: fewer in unoptimized builds, which run them 20x
/// slower (`make test` uses `--release`).
const GAMES_PER_RULE_SET: u64 = if cfg!(debug_assertions) { 4 } else { 14 };
const DRIVER_INPUTS: usize = if cfg!(debug_assertions) { 200 } else { 1500 };

fn random_cell(rng: &mut Rng) -> Cell {
    loop {
        let q = rng.below(2 * BOARD_RADIUS as u32 + 1) as i32 - BOARD_RADIUS;
        let r = rng.below(2 * BOARD_RADIUS as u32 + 1) as i32 - BOARD_RADIUS;
        if let Some(c) = Cell::new(q, r) {
            return c;
        }
    }
}

/// A placement that is usually illegal: random cells (often not adjacent), random colours.
fn random_placement(rng: &mut Rng) -> Move {
    let a = random_cell(rng);
    let b = if rng.below(2) == 0 { a.neighbour(rng.below(6) as usize).unwrap_or(a) } else { random_cell(rng) };
    Move::Place(Placement { a, b, ca: rng.below(6) as u8, cb: rng.below(6) as u8 })
}

#[test]
fn seeded_random_games_of_every_rule_set_keep_every_invariant() {
    let mut games = 0;
    let mut moves = Vec::new();
    for (ci, config) in all_configs().into_iter().enumerate() {
        for i in 0..GAMES_PER_RULE_SET {
            let seed = derive_seed(0xF022, ci as u64 * 1000 + i);
            let mut g = Game::new(config, seed);
            let mut bot = RandomBot::new(seed);
            let mut rng = Rng::new(seed ^ 1);
            check_state(&g).unwrap();
            let mut step = 0;
            while !g.is_over() {
                // Refused moves must leave the game as it was; accepted ones must be legal.
                for m in [random_placement(&mut rng), Move::Swap, Move::Keep] {
                    let mut copy = g;
                    try_move(&mut copy, &m).unwrap_or_else(|e| panic!("{config:?} seed {seed}: {e}"));
                }
                if step % 7 == 0 {
                    check_generation(&g).unwrap_or_else(|e| panic!("{config:?} seed {seed}: {e}"));
                    let observer = rng.below(config.players() as u32) as usize;
                    check_determinized(&g, &g.determinize(observer, seed + step), observer).unwrap();
                }
                g.legal_moves(&mut moves);
                let m = moves[bot.choose(&g, &moves)];
                assert!(try_move(&mut g, &m).unwrap_or_else(|e| panic!("{config:?} seed {seed}: {e}")));
                step += 1;
            }
            check_generation(&g).unwrap();
            assert!(g.end().is_some());
            games += 1;
        }
    }
    assert_eq!(games, all_configs().len() as u64 * GAMES_PER_RULE_SET);
}

#[test]
fn the_fuzz_driver_holds_on_seeded_random_inputs() {
    let mut rng = Rng::new(2026);
    for _ in 0..DRIVER_INPUTS {
        let len = rng.below(700) as usize;
        let data: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        if let Err(e) = run_actions(&data) {
            panic!("input {data:?}: {e}");
        }
    }
}

#[test]
fn inputs_that_once_failed_pass() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{dir:?}: {e}")) {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        run_actions(&data).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        n += 1;
    }
    assert!(n > 0, "no regression inputs in {dir:?}");
}

//! The core's workloads for the instruction-count guard (`benches/instructions.py`,
//! BENCHMARKS.md, "The instruction-count guard"). A plain program, not a timing: the guard runs it
//! under `valgrind --tool=callgrind --toggle-collect='*instructions::measured*'`, so only the
//! work inside `measured` is counted (not start-up, not building the positions, not the
//! warm-up), and divides by the units it prints.
//!
//! `instructions WORKLOAD` with WORKLOAD one of `game_2p`, `game_3p`, `game_4p` (whole random
//! games, `sim::random_game`, fixed seeds) or `legal_moves` (`Game::legal_moves` over every
//! position of fixed random games of 2, 3 and 4 players). Prints one JSON object: the workload,
//! its unit and how many units the measured region did.
use genial::sim::random_game;
use genial::{Config, Game, Move};
use std::hint::black_box;

#[path = "support/real_games.rs"]
mod real_games;

/// Games per player count in the whole-game workloads.
const GAMES: u64 = 40;

/// The measured region: callgrind collects inside this function only. Never inlined, so that
/// the symbol exists; `work` is the only thing it does.
#[inline(never)]
fn measured<T>(work: impl FnOnce() -> T) -> T {
    black_box(work())
}

fn whole_games(players: usize) -> (&'static str, u64) {
    let config = Config::standard(players).unwrap();
    let mut buf: Vec<Move> = Vec::with_capacity(8192);
    // Warm-up outside the region: the first game touches the buffer and the code.
    black_box(random_game(config, 1_000_000, &mut buf));
    measured(|| {
        for seed in 1..=GAMES {
            black_box(random_game(config, black_box(seed), &mut buf));
        }
    });
    ("game", GAMES)
}

fn legal_moves() -> (&'static str, u64) {
    let games: Vec<Game> = [2usize, 3, 4].into_iter().flat_map(real_games::all_positions).collect();
    let mut buf: Vec<Move> = Vec::with_capacity(8192);
    for g in &games {
        g.legal_moves(&mut buf);
    }
    let listed = measured(|| {
        let mut listed = 0u64;
        for g in &games {
            black_box(g).legal_moves(&mut buf);
            listed += black_box(buf.len()) as u64;
        }
        listed
    });
    ("listed move", listed)
}

fn main() {
    let workload = std::env::args().nth(1).unwrap_or_default();
    let (unit, units) = match workload.as_str() {
        "game_2p" => whole_games(2),
        "game_3p" => whole_games(3),
        "game_4p" => whole_games(4),
        "legal_moves" => legal_moves(),
        _ => {
            eprintln!("usage: instructions game_2p|game_3p|game_4p|legal_moves");
            std::process::exit(2);
        }
    };
    println!("{{\"workload\": \"{workload}\", \"unit\": \"{unit}\", \"units\": {units}}}");
}

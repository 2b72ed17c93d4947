//! The core's workloads for the instruction-count guard (`benches/instructions.py`,
//! BENCHMARKS.md, "Instruction-count guard"). A plain program, not a timing: the guard runs it
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

/// Games per player count in the whole-game workloads.
const GAMES: u64 = 40;
/// Games per player count whose positions the `legal_moves` workload lists.
const POSITION_GAMES: u64 = 6;

/// The measured region: callgrind collects inside this function only. Never inlined, so that
/// the symbol exists; `work` is the only thing it does.
#[inline(never)]
fn measured<T>(work: impl FnOnce() -> T) -> T {
    black_box(work())
}

/// Every position of a random game (seeded), as the player to move saw it.
fn positions(players: usize, seed: u64) -> Vec<Game> {
    let config = Config::standard(players).unwrap();
    let mut game = Game::new(config, seed);
    let mut rng = genial::rng::Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 7);
    let mut moves = Vec::new();
    let mut out = Vec::new();
    while !game.is_over() {
        out.push(game);
        game.legal_moves(&mut moves);
        let i = rng.below(moves.len() as u32) as usize;
        game.play_unchecked(&moves[i]);
    }
    out
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
    let mut games = Vec::new();
    for players in [2usize, 3, 4] {
        for seed in 1..=POSITION_GAMES {
            games.extend(positions(players, 100 * players as u64 + seed));
        }
    }
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

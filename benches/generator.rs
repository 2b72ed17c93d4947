//! Instructions of the move generator: `Game::legal_moves` over fixed positions of 2, 3 and
//! 4 players (openings and midgames), many times. A plain program, not a timing: count its
//! instructions with `valgrind --tool=callgrind` or `perf stat -e instructions`
//! (benches/results/HISTORY.md, "The generator without unsafe"). Argument: repetitions (default 20000).
use genial::{Config, Game, Move};
use std::hint::black_box;

fn midgame(players: usize, plies: usize, seed: u64) -> Game {
    let mut g = Game::new(Config::standard(players).unwrap(), seed);
    let mut moves = Vec::new();
    let mut rng = genial::rng::Rng::new(seed + 5);
    for _ in 0..plies {
        g.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len() as u32) as usize];
        g.play_unchecked(&m);
    }
    g
}

fn main() {
    let reps: usize = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(20000);
    let mut games = Vec::new();
    for players in [2usize, 3, 4] {
        for plies in [0usize, 10, 20, 30] {
            games.push(midgame(players, plies, 11 + plies as u64));
        }
    }
    let mut buf: Vec<Move> = Vec::with_capacity(8192);
    let mut total = 0usize;
    for _ in 0..reps {
        for g in &games {
            black_box(g).legal_moves(&mut buf);
            total += black_box(buf.len());
        }
    }
    println!("{total}");
}

//! The positions of real games that the generator's workloads list: the instruction guard's
//! `legal_moves` (benches/instructions.rs) and the criterion bench of its time per move
//! (benches/core.rs), so that both measure the same positions.
use genial::{Config, Game};

/// Games per player count whose positions are listed.
pub const GAMES: u64 = 6;

/// Every position of a random game (seeded), as the player to move saw it.
pub fn positions(players: usize, seed: u64) -> Vec<Game> {
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

/// The positions of `GAMES` games of `players` players (seeds `100 * players + 1..`).
pub fn all_positions(players: usize) -> Vec<Game> {
    (1..=GAMES).flat_map(|seed| positions(players, 100 * players as u64 + seed)).collect()
}

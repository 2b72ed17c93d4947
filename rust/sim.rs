//! Whole games played inside Rust.

use crate::game::Game;
use crate::moves::Move;
use crate::rng::Rng;
use crate::variants::Config;

/// Plays one game to the end, every decision uniformly at random among all legal moves
/// (enumerated in full each time). `moves` is a reusable buffer: no allocation per decision.
pub fn random_game(config: Config, seed: u64, moves: &mut Vec<Move>) -> Game {
    let mut game = Game::new(config, seed);
    // The deal used the game's own stream; decisions use a separate one from the same seed.
    let mut rng = Rng::new(seed ^ 0x5DEE_CE66_D1CE_F00D);
    while !game.is_over() {
        game.legal_moves(moves);
        let i = rng.below(moves.len() as u32) as usize;
        game.play_unchecked(&moves[i]);
    }
    game
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Phase;
    use crate::variants::{SwapTiming, Variant};

    #[test]
    fn random_games_of_every_variant_end_and_conserve_tiles() {
        let mut buf = Vec::new();
        for v in Variant::ALL {
            for &p in v.player_counts() {
                for timing in [SwapTiming::AfterPlacement, SwapTiming::InsteadOfPlacement] {
                    for contact in [false, true] {
                        let Ok(cfg) = Config::new(v, p, timing, contact) else { continue };
                        for seed in 0..20 {
                            let g = random_game(cfg, seed, &mut buf);
                            assert_eq!(g.phase(), Phase::Over);
                            assert_eq!(g.tile_total(), 120);
                            assert!(g.end().is_some());
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn same_seed_same_game() {
        let cfg = Config::standard(3).unwrap();
        let mut buf = Vec::new();
        assert_eq!(random_game(cfg, 9, &mut buf), random_game(cfg, 9, &mut buf));
        assert_ne!(random_game(cfg, 9, &mut buf), random_game(cfg, 10, &mut buf));
    }
}

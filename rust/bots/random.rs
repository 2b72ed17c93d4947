use super::Bot;
use crate::game::Game;
use crate::moves::Move;
use crate::rng::Rng;

/// Uniformly random among all legal moves.
pub struct RandomBot {
    rng: Rng,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: Rng::new(seed) }
    }
}

impl Bot for RandomBot {
    #[inline]
    fn choose(&mut self, _game: &Game, moves: &[Move]) -> usize {
        self.rng.below(moves.len() as u32) as usize
    }

    fn name(&self) -> &'static str {
        "random"
    }
}

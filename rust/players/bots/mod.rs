//! Built-in players. A bot sees only what its seat may see: the board, every track, its own
//! rack (through the legal moves), tile counts. Search bots get hidden information only by
//! resampling it (`Game::determinize`).

mod greedy;
mod mcts;
mod random;

pub use greedy::GreedyBot;
pub use mcts::{MctsBot, MctsConfig, Playout, SearchInfo, MAX_DEPTH, MAX_ITERATIONS, MAX_TIME_MS, MAX_WIDTH};
pub use random::RandomBot;

use crate::game::Game;
use crate::moves::Move;

/// A player: picks one of the legal moves of the seat to move.
pub trait Bot: Send + Sync {
    /// Index into `moves` (the legal moves of `game`, never empty).
    fn choose(&mut self, game: &Game, moves: &[Move]) -> usize;
    /// The chosen move, listing the legal moves into `moves` only if the bot needs them
    /// (the same choice as `choose` from the same state). For loops that play many games.
    fn choose_move(&mut self, game: &Game, moves: &mut Vec<Move>) -> Move {
        game.legal_moves(moves);
        moves[self.choose(game, moves)]
    }
    /// Short name for tables (`random`, `greedy`, ...).
    fn name(&self) -> &'static str;
}

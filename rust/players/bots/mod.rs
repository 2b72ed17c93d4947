//! Built-in players. A bot sees only what its seat may see: the board, every track, its own
//! rack (through the legal moves), tile counts. Search bots get hidden information only by
//! resampling it (`Game::determinize`).

mod analysis;
pub mod catalogue;
mod endgame;
pub mod eval;
pub mod evaluator;
mod greedy;
pub mod inference;
pub mod learned;
pub mod learned_training;
pub mod levels;
mod mcts;
mod oneply;
pub mod policy;
mod random;
mod scarcity;
pub mod search;
pub mod search_targets;
mod spec;
pub mod training;
mod tree;

pub use analysis::{Analysis, Candidate};
pub use evaluator::{Evaluation, Evaluator, Fitted, Playout, Rollout};
pub use greedy::GreedyBot;
pub use mcts::{MctsBot, MctsConfig, SearchInfo, MAX_DEPTH, MAX_ITERATIONS, MAX_TIME_MS, MAX_WIDTH};
pub use oneply::{OnePlyBot, OnePlyConfig};
pub use policy::PolicyBot;
pub use random::RandomBot;
pub use scarcity::{scarcity_value, ScarcityBot};
pub use search::{Prior, SearchBot, SearchConfig};
pub use spec::{bot_seed, AnyBot, BotSpec, Plain};

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
    /// The same choice, told the public moves of the game so far (`history[i]` played by
    /// seat `movers[i]`, from the start): a bot that infers the hidden racks from them
    /// (`inference`) reads them; the others ignore them.
    fn choose_move_seen(&mut self, game: &Game, history: &[Move], movers: &[u8], moves: &mut Vec<Move>) -> Move {
        let _ = (history, movers);
        self.choose_move(game, moves)
    }
    /// Whether `choose_move_seen` reads the moves it is told (a loop that plays many games
    /// records them only for a bot that does).
    fn reads_history(&self) -> bool {
        false
    }
    /// Short name for tables (`random`, `greedy`, ...).
    fn name(&self) -> &'static str;
}

/// Any bot, made to decline every swap: an offer is answered `keep`, and the
/// `instead_of_placement` swap is never chosen. For measurements "with swaps declined".
pub struct NeverSwap<B: Bot>(pub B);

impl<B: Bot> Bot for NeverSwap<B> {
    fn choose(&mut self, game: &Game, moves: &[Move]) -> usize {
        if let Some(k) = moves.iter().position(|m| *m == Move::Keep) {
            return k;
        }
        match moves.iter().position(|m| *m == Move::Swap) {
            // `instead_of_placement`: the swap is listed last; the bot picks among the rest.
            Some(s) if moves.len() > 1 => {
                let rest: Vec<Move> = moves.iter().copied().filter(|m| *m != Move::Swap).collect();
                let i = self.0.choose(game, &rest);
                let mv = rest[i];
                moves.iter().position(|m| *m == mv).unwrap_or(if s == 0 { 1 } else { 0 })
            }
            _ => self.0.choose(game, moves),
        }
    }

    fn name(&self) -> &'static str {
        self.0.name()
    }
}

//! What a built-in bot is built from (`BotSpec`, read from the catalogue) and the bot it
//! builds (`AnyBot`, dispatched without a virtual call in the simulation loops).

use super::levels::LevelKind;
use super::{Bot, GreedyBot, MctsBot, MctsConfig, NeverSwap, OnePlyBot, PolicyBot, RandomBot, ScarcityBot, SearchBot};
use crate::game::Game;
use crate::moves::Move;
use crate::rng::{derive_seed, salt};
use crate::stop::Stop;
use std::sync::Arc;

/// A built-in bot and its settings: what a simulation builds afresh for every game.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum BotSpec {
    Random,
    Greedy,
    Mcts(MctsConfig),
    /// The one-ply reference player (`bots::scarcity`).
    Scarcity,
    /// The learned policy network alone (`bots::policy`); `true`: declining every swap.
    Policy(bool),
    /// A named level (`easy` ... `expert`, or `search`/`oneply` with custom settings).
    Level(&'static str, LevelKind),
    /// One of the bots above, declining every swap (`swap=never`; the levels carry the
    /// option in their own settings, so that their search knows it too).
    NeverSwap(Plain),
}

/// The bots whose settings do not carry a swap policy.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Plain {
    Random,
    Greedy,
    Mcts(MctsConfig),
    Scarcity,
}

impl Plain {
    pub fn spec(self) -> BotSpec {
        match self {
            Plain::Random => BotSpec::Random,
            Plain::Greedy => BotSpec::Greedy,
            Plain::Mcts(c) => BotSpec::Mcts(c),
            Plain::Scarcity => BotSpec::Scarcity,
        }
    }
}

impl BotSpec {
    pub fn name(&self) -> &'static str {
        match self {
            BotSpec::Random => "random",
            BotSpec::Greedy => "greedy",
            BotSpec::Mcts(_) => "mcts",
            BotSpec::Scarcity => "scarcity",
            BotSpec::Policy(_) => "policy",
            BotSpec::Level(name, _) => name,
            BotSpec::NeverSwap(p) => p.spec().name(),
        }
    }

    /// Whether the bot searches (milliseconds or more a move), read from its settings.
    pub fn searches(&self) -> bool {
        matches!(self, BotSpec::Mcts(_) | BotSpec::Level(_, LevelKind::Search(_)) | BotSpec::NeverSwap(Plain::Mcts(_)))
    }

    /// Whether the bot declines every swap.
    pub fn never_swaps(&self) -> bool {
        match self {
            BotSpec::NeverSwap(_) => true,
            BotSpec::Policy(never) => *never,
            BotSpec::Level(_, LevelKind::OnePly(c)) => c.never_swap,
            BotSpec::Level(_, LevelKind::Search(c)) => c.never_swap,
            _ => false,
        }
    }

    /// Checks the settings; the error names the problem.
    pub fn validate(&self) -> Result<(), String> {
        match self {
            BotSpec::Mcts(c) | BotSpec::NeverSwap(Plain::Mcts(c)) => c.validate(),
            BotSpec::Level(_, LevelKind::Search(c)) => c.validate(),
            BotSpec::Level(_, LevelKind::OnePly(c)) if !(c.temperature.is_finite() && c.temperature >= 0.0) => {
                Err(format!("temperature must be a finite number >= 0, not {}", c.temperature))
            }
            _ => Ok(()),
        }
    }

    pub fn build(&self, seed: u64) -> AnyBot {
        match *self {
            BotSpec::Random => AnyBot::Random(RandomBot::new(seed)),
            BotSpec::Greedy => AnyBot::Greedy(GreedyBot::new(seed)),
            BotSpec::Mcts(c) => AnyBot::Mcts(Box::new(MctsBot::new(c, seed))),
            BotSpec::Scarcity => AnyBot::Scarcity(ScarcityBot::new(seed)),
            BotSpec::Policy(never) => AnyBot::Policy(PolicyBot::new(seed, never)),
            BotSpec::Level(_, LevelKind::OnePly(c)) => AnyBot::OnePly(Box::new(OnePlyBot::new(c, seed))),
            BotSpec::Level(name, LevelKind::Search(c)) => AnyBot::Search(Box::new(SearchBot::new(c, seed).named(name))),
            BotSpec::NeverSwap(p) => AnyBot::NeverSwap(Box::new(NeverSwap(p.spec().build(seed)))),
        }
    }
}

impl AnyBot {
    /// Lets a searching bot end its search early once `stop` is set (see `MctsBot::set_stop`);
    /// the other bots decide in microseconds and ignore it.
    pub fn set_stop(&mut self, stop: &Arc<Stop>) {
        match self {
            AnyBot::Mcts(b) => b.set_stop(Arc::clone(stop)),
            AnyBot::Search(b) => b.set_stop(Arc::clone(stop)),
            AnyBot::NeverSwap(b) => b.0.set_stop(stop),
            AnyBot::Random(_) | AnyBot::Greedy(_) | AnyBot::Scarcity(_) | AnyBot::Policy(_) | AnyBot::OnePly(_) => {}
        }
    }

    /// Whether the bot searches (takes long enough per move that Ctrl-C must reach it).
    pub fn searches(&self) -> bool {
        match self {
            AnyBot::Mcts(_) | AnyBot::Search(_) => true,
            AnyBot::NeverSwap(b) => b.0.searches(),
            AnyBot::Random(_) | AnyBot::Greedy(_) | AnyBot::Scarcity(_) | AnyBot::Policy(_) | AnyBot::OnePly(_) => {
                false
            }
        }
    }
}

/// One of the built-in bots, dispatched without a virtual call in the simulation loop.
pub enum AnyBot {
    Random(RandomBot),
    Greedy(GreedyBot),
    Mcts(Box<MctsBot>),
    Scarcity(ScarcityBot),
    Policy(PolicyBot),
    OnePly(Box<OnePlyBot>),
    Search(Box<SearchBot>),
    NeverSwap(Box<NeverSwap<AnyBot>>),
}

impl Bot for AnyBot {
    #[inline]
    fn choose(&mut self, game: &Game, moves: &[Move]) -> usize {
        match self {
            AnyBot::Random(b) => b.choose(game, moves),
            AnyBot::Greedy(b) => b.choose(game, moves),
            AnyBot::Mcts(b) => b.choose(game, moves),
            AnyBot::Scarcity(b) => b.choose(game, moves),
            AnyBot::Policy(b) => b.choose(game, moves),
            AnyBot::OnePly(b) => b.choose(game, moves),
            AnyBot::Search(b) => b.choose(game, moves),
            AnyBot::NeverSwap(b) => b.choose(game, moves),
        }
    }

    #[inline]
    fn choose_move(&mut self, game: &Game, moves: &mut Vec<Move>) -> Move {
        match self {
            AnyBot::Random(b) => b.choose_move(game, moves),
            AnyBot::Greedy(b) => b.choose_move(game, moves),
            AnyBot::Mcts(b) => b.choose_move(game, moves),
            AnyBot::Scarcity(b) => b.choose_move(game, moves),
            AnyBot::Policy(b) => b.choose_move(game, moves),
            AnyBot::OnePly(b) => b.choose_move(game, moves),
            AnyBot::Search(b) => b.choose_move(game, moves),
            AnyBot::NeverSwap(b) => b.choose_move(game, moves),
        }
    }

    fn choose_move_seen(&mut self, game: &Game, history: &[Move], movers: &[u8], moves: &mut Vec<Move>) -> Move {
        match self {
            AnyBot::Search(b) => b.choose_move_seen(game, history, movers, moves),
            other => other.choose_move(game, moves),
        }
    }

    fn reads_history(&self) -> bool {
        matches!(self, AnyBot::Search(b) if b.reads_history())
    }

    fn name(&self) -> &'static str {
        match self {
            AnyBot::Random(b) => b.name(),
            AnyBot::Greedy(b) => b.name(),
            AnyBot::Mcts(b) => b.name(),
            AnyBot::Scarcity(b) => b.name(),
            AnyBot::Policy(b) => b.name(),
            AnyBot::OnePly(b) => b.name(),
            AnyBot::Search(b) => b.name(),
            AnyBot::NeverSwap(b) => b.name(),
        }
    }
}

/// The seed of the bot in `seat` of a game dealt from `game_seed`.
pub fn bot_seed(game_seed: u64, seat: usize) -> u64 {
    derive_seed(game_seed ^ salt::BOT_SEATS, seat as u64)
}

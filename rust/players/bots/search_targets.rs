//! Self-play data from search, for expert iteration: games played entirely by a searching
//! level, and at each decision what its search made of it -- the visit counts over the
//! root's moves (the policy's target) and the root's value (the value's target) -- beside
//! how the game ended. Learning from visit counts and values rather than from results
//! alone takes most of the luck of the draw out of the targets.
//!
//! Each decision is searched from the mover's view, hidden tiles dealt anew in every
//! iteration (`SearchBot`); nothing here reads another seat's rack or the bag to make a
//! target. A game is deterministic for its number and the run's seed, whatever the threads.

use super::eval::win_shares;
use super::policy::{MoveFeatures, PF};
use super::search::{SearchBot, SearchConfig};
use super::{bot_seed, Bot};
use crate::game::Game;
use crate::moves::Move;
use crate::rng::{derive_seed, salt, Rng};
use crate::stop::Stop;
use crate::variants::Config;
use rayon::prelude::*;
use std::sync::Arc;

/// Decisions of a run, with the moves recorded for each.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Targets {
    /// Features of every recorded move (`PF` numbers a row).
    pub features: Vec<f32>,
    /// The decision each row belongs to (an index into the per-decision columns).
    pub decision: Vec<u32>,
    /// The row's share of its decision's root visits (0 for moves the search left out).
    pub visits: Vec<f32>,
    /// Per decision: the searched moves' visit-weighted mean value for the mover.
    pub value: Vec<f32>,
    /// Per decision: the mover's share of the win at the end of the game.
    pub result: Vec<f32>,
    /// Per decision: the game's number and the number of legal moves.
    pub game: Vec<u64>,
    pub legal: Vec<u32>,
}

impl Targets {
    fn append(&mut self, mut other: Targets) {
        let base = self.value.len() as u32;
        self.features.append(&mut other.features);
        self.decision.extend(other.decision.iter().map(|d| d + base));
        self.visits.append(&mut other.visits);
        self.value.append(&mut other.value);
        self.result.append(&mut other.result);
        self.game.append(&mut other.game);
        self.legal.append(&mut other.legal);
    }
}

/// A search self-play run: the rules, the searching level that plays every seat, the
/// run's seed, and how many unsearched moves to record beside the searched ones.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SelfPlay {
    pub config: Config,
    pub search: SearchConfig,
    pub seed: u64,
    pub extra: usize,
}

impl SelfPlay {
    /// Plays games `first..first + count` of the run (game `g` dealt from
    /// `derive_seed(seed, g)`) and records every decision with more than one legal move:
    /// the searched moves and up to `extra` other legal moves drawn at random (targets 0).
    /// `None` when `stop` was set before the games were done (the partial data are dropped).
    pub fn play(
        &self,
        first: u64,
        count: usize,
        pool: &rayon::ThreadPool,
        stop: &Arc<Stop>,
    ) -> Result<Option<Targets>, String> {
        self.search.validate()?;
        let parts: Vec<Option<Targets>> =
            pool.install(|| (first..first + count as u64).into_par_iter().map(|g| self.game(g, stop)).collect());
        if stop.is_flagged() || parts.iter().any(Option::is_none) {
            return Ok(None);
        }
        let mut out = Targets::default();
        for p in parts.into_iter().flatten() {
            out.append(p);
        }
        Ok(Some(out))
    }

    fn game(&self, g: u64, stop: &Arc<Stop>) -> Option<Targets> {
        if stop.is_flagged() {
            return None;
        }
        let game_seed = derive_seed(self.seed, g);
        let mut game = Game::new(self.config, game_seed);
        let n = self.config.players();
        let mut bots: Vec<SearchBot> = (0..n)
            .map(|s| {
                let mut b = SearchBot::new(self.search, bot_seed(game_seed, s));
                b.set_stop(Arc::clone(stop));
                b
            })
            .collect();
        let mut rng = Rng::new(game_seed ^ salt::SEARCH_TARGETS);
        let mut moves = Vec::new();
        let mut out = Targets::default();
        let mut movers = Vec::new();
        let mut x = [0.0f32; PF];
        while !game.is_over() {
            let p = game.current_player();
            game.legal_moves(&mut moves);
            let i = bots[p].choose(&game, &moves);
            let mv = moves[i];
            // A decision of one legal move is not searched (`last_search` is then the
            // previous decision's): nothing to learn there.
            if let Some(a) = bots[p].last_search().filter(|_| moves.len() > 1) {
                let d = out.value.len() as u32;
                let total: u32 = a.candidates.iter().map(|c| c.visits).sum::<u32>().max(1);
                let features = MoveFeatures::new(&game);
                let mut value = 0.0;
                for c in &a.candidates {
                    features.of(&c.mv, &mut x);
                    out.features.extend_from_slice(&x);
                    out.decision.push(d);
                    out.visits.push(c.visits as f32 / total as f32);
                    value += c.value * c.visits as f64 / total as f64;
                }
                // Moves the search did not consider: the policy learns to rank them low.
                let searched = |m: &Move| a.candidates.iter().any(|c| c.mv == *m);
                let others = moves.len() - a.candidates.len();
                for _ in 0..self.extra.min(others) {
                    let m = loop {
                        let m = moves[rng.below(moves.len() as u32) as usize];
                        if !searched(&m) {
                            break m;
                        }
                    };
                    features.of(&m, &mut x);
                    out.features.extend_from_slice(&x);
                    out.decision.push(d);
                    out.visits.push(0.0);
                }
                out.value.push(value as f32);
                out.game.push(g);
                out.legal.push(moves.len() as u32);
                movers.push(p);
            }
            game.play_unchecked(&mv);
        }
        if stop.is_flagged() {
            return None;
        }
        let shares = win_shares(&game);
        out.result = movers.iter().map(|&p| shares[p] as f32).collect();
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
    }

    #[test]
    fn data_do_not_depend_on_threads_and_targets_are_distributions() {
        let cfg = Config::standard(2).unwrap();
        let search = SearchConfig { iterations: 24, ..SearchConfig::default() };
        let stop = Arc::new(Stop::new());
        let a = SelfPlay { config: cfg, search, seed: 7, extra: 4 }.play(0, 2, &pool(1), &stop).unwrap().unwrap();
        let b = SelfPlay { config: cfg, search, seed: 7, extra: 4 }.play(0, 2, &pool(2), &stop).unwrap().unwrap();
        assert_eq!(a, b);
        let decisions = a.value.len();
        assert!(decisions > 20);
        assert_eq!(a.features.len(), a.decision.len() * PF);
        assert_eq!((a.result.len(), a.game.len(), a.legal.len()), (decisions, decisions, decisions));
        let mut sums = vec![0.0f32; decisions];
        for (d, v) in a.decision.iter().zip(&a.visits) {
            sums[*d as usize] += v;
        }
        assert!(sums.iter().all(|s| (s - 1.0).abs() < 1e-4), "{sums:?}");
        assert!(a.value.iter().all(|v| (0.0..=1.0).contains(v)));
        // Both seats' results: shares of one game sum to one.
        assert!(a.result.iter().all(|r| [0.0, 0.5, 1.0].contains(r)));
    }

    #[test]
    fn a_stopped_run_returns_nothing() {
        let cfg = Config::standard(2).unwrap();
        let stop = Arc::new(Stop::new());
        stop.set();
        let search = SearchConfig { iterations: 8, ..SearchConfig::default() };
        assert_eq!(SelfPlay { config: cfg, search, seed: 1, extra: 2 }.play(0, 2, &pool(1), &stop).unwrap(), None);
    }
}

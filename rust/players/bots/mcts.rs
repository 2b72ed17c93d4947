//! Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).
//!
//! One tree per decision, over the moves of every seat. Each iteration deals what the
//! searching seat cannot see anew (`Game::determinize` from its own view, which depends only
//! on what that seat sees), walks down the tree among the moves legal in that deal, adds one
//! node, and scores the position with its `Evaluator` (by default `Rollout`: plays the game
//! out with a cheap policy and values every seat by its rank) and backs the values up. Children are scored with UCB1 over their *availability* count (how often they were
//! legal when their parent was visited), as ISMCTS requires.
//!
//! The branching factor is large (hundreds of placements), so each node only considers its
//! `width` best moves under the greedy evaluation (`placement_key`), widest first searched
//! best-first. The root's candidates are the same in every deal (they depend only on the
//! searcher's own rack), so they are ranked once per decision.

use super::evaluator::{Evaluator, Playout, Rollout};
use super::greedy::PlacementKeys;
use super::tree::{backup, select, Budget, Node, MAX_CANDIDATES, NONE};
use super::Bot;
use crate::game::{Game, Phase};
use crate::moves::Move;
use crate::rng::Rng;
use crate::stop::Stop;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Search settings. The budget is `iterations` (deterministic for a seed), `time_ms` per
/// decision (not deterministic), or both (whichever runs out first); `0` means no limit of
/// that kind, and at least one must be set.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MctsConfig {
    pub iterations: u32,
    pub time_ms: u32,
    /// UCB1 exploration constant (returns lie in 0..1).
    pub exploration: f64,
    /// Moves considered per node, best first under the greedy evaluation.
    pub width: u32,
    pub playout: Playout,
    /// Placements a playout makes before the position is scored as it stands (ranks by the
    /// current markers); `0` plays to the end.
    pub depth: u32,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig { iterations: 300, time_ms: 0, exploration: 0.5, width: 6, playout: Playout::Greedy, depth: 10 }
    }
}

impl MctsConfig {
    pub fn validate(&self) -> Result<(), String> {
        if self.iterations == 0 && self.time_ms == 0 {
            return Err("mcts needs a budget: iterations > 0 or time_ms > 0".into());
        }
        if !(self.exploration.is_finite() && self.exploration >= 0.0) {
            return Err(format!("exploration must be a finite number >= 0, not {}", self.exploration));
        }
        if !(1..=MAX_WIDTH).contains(&self.width) {
            return Err(format!("width must be 1..={MAX_WIDTH}, not {}", self.width));
        }
        if self.iterations > MAX_ITERATIONS {
            return Err(format!("iterations must be 0..={MAX_ITERATIONS}, not {}", self.iterations));
        }
        if self.time_ms > MAX_TIME_MS {
            return Err(format!("time_ms must be 0..={MAX_TIME_MS} (an hour), not {}", self.time_ms));
        }
        if self.depth > MAX_DEPTH {
            return Err(format!("depth must be 0..={MAX_DEPTH}, not {}", self.depth));
        }
        Ok(())
    }
}

/// Most candidates a node may consider.
pub const MAX_WIDTH: u32 = MAX_CANDIDATES as u32;
/// Most iterations of one search, also with a time budget alone: the tree grows by a
/// node (40 bytes) an iteration, so a search stays within 400 MB.
pub const MAX_ITERATIONS: u32 = 10_000_000;
/// Longest time budget of one decision: an hour.
pub const MAX_TIME_MS: u32 = 3_600_000;
/// Longest playout cut-off (a game has fewer than 200 placements).
pub const MAX_DEPTH: u32 = 10_000;

/// What one search saw, for tests and diagnostics.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchInfo {
    pub iterations: u32,
    pub nodes: u32,
    pub root_children: u32,
}

/// The search, scoring the end of each iteration with `E` (by default the playout and
/// rank values of the config's `playout` and `depth`).
pub struct MctsBot<E: Evaluator = Rollout> {
    config: MctsConfig,
    evaluator: E,
    rng: Rng,
    nodes: Vec<Node>,
    moves: Vec<Move>,
    ranked: Vec<(Key, u32)>,
    path: Vec<u32>,
    last: SearchInfo,
    /// Set from another thread to end the search early (it then returns its best so far).
    stop: Option<Arc<Stop>>,
}

type Key = (u64, u32);

impl MctsBot {
    /// Panics on an invalid config; check it with `MctsConfig::validate` first.
    pub fn new(config: MctsConfig, seed: u64) -> MctsBot {
        MctsBot::with_evaluator(config, seed, Rollout::new(config.playout, config.depth))
    }
}

impl<E: Evaluator> MctsBot<E> {
    /// The search with another evaluation of its iterations' ends (the config's `playout`
    /// and `depth` are then the evaluator's business).
    pub fn with_evaluator(config: MctsConfig, seed: u64, evaluator: E) -> MctsBot<E> {
        config.validate().expect("invalid mcts config");
        MctsBot {
            config,
            evaluator,
            rng: Rng::new(seed),
            nodes: Vec::new(),
            moves: Vec::new(),
            ranked: Vec::new(),
            path: Vec::new(),
            last: SearchInfo::default(),
            stop: None,
        }
    }

    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Statistics of the last search.
    pub fn last_search(&self) -> SearchInfo {
        self.last
    }

    /// A flag that another thread may set to end a search early: the search then returns
    /// its best move so far (after at least one iteration). Used to stop work on Ctrl-C.
    pub fn set_stop(&mut self, stop: Arc<Stop>) {
        self.stop = Some(stop);
    }

    /// The `width` best of `moves` for the mover of `game`, best first, into `out`
    /// (ties broken at random so that no region of the board is favoured).
    fn rank_moves(
        rng: &mut Rng,
        game: &Game,
        moves: &[Move],
        width: usize,
        ranked: &mut Vec<(Key, u32)>,
        out: &mut Vec<Move>,
    ) {
        ranked.clear();
        out.clear();
        if game.phase() == Phase::SwapOffer || moves.len() <= 1 {
            out.extend_from_slice(moves);
            return;
        }
        let mut eval = PlacementKeys::new(game);
        for (i, m) in moves.iter().enumerate() {
            ranked.push(((eval.key(game, m), rng.next_u64() as u32), i as u32));
        }
        let w = width.min(ranked.len());
        if w < ranked.len() {
            ranked.select_nth_unstable_by(w - 1, |x, y| y.0.cmp(&x.0));
            ranked.truncate(w);
        }
        ranked.sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
        out.extend(ranked.iter().map(|&(_, i)| moves[i as usize]));
    }

    fn search(&mut self, root_game: &Game, root_moves: &[Move]) -> Move {
        let me = root_game.current_player();
        let width = self.config.width as usize;
        let c = self.config.exploration;
        let deadline =
            (self.config.time_ms > 0).then(|| Instant::now() + Duration::from_millis(self.config.time_ms as u64));
        let max_iter = if self.config.iterations == 0 { MAX_ITERATIONS } else { self.config.iterations };
        self.evaluator.start(root_game, me);

        self.nodes.clear();
        self.nodes.push(Node {
            mv: Move::Keep,
            first_child: NONE,
            next_sibling: NONE,
            player: 0,
            visits: 0,
            avail: 0,
            reward: 0.0,
        });
        // Root candidates: own rack and public board only, so the same in every deal.
        let mut root_cands = Vec::new();
        let mut ranked = std::mem::take(&mut self.ranked);
        Self::rank_moves(&mut self.rng, root_game, root_moves, width, &mut ranked, &mut root_cands);
        let mut cands: Vec<Move> = Vec::with_capacity(width.max(2));
        let mut moves = std::mem::take(&mut self.moves);

        let mut iterations = 0;
        let stop = self.stop.clone();
        let budget = Budget { iterations: max_iter, deadline, stop: stop.as_deref() };
        while budget.allows(iterations) {
            iterations += 1;
            let mut game = root_game.determinize(me, self.rng.next_u64());
            let mut node = 0u32;
            self.path.clear();
            self.path.push(0);
            while !game.is_over() {
                let mover = game.current_player() as u8;
                let list: &[Move] = if node == 0 {
                    &root_cands
                } else {
                    game.legal_moves(&mut moves);
                    Self::rank_moves(&mut self.rng, &game, &moves, width, &mut ranked, &mut cands);
                    &cands
                };
                let (mv, id, expanded) = select(&mut self.nodes, node, list, mover, c);
                game.play_unchecked(&mv);
                self.path.push(id);
                if expanded {
                    break;
                }
                node = id;
            }
            let r = self.evaluator.evaluate(&mut game, me, &mut self.rng);
            backup(&mut self.nodes, &self.path, &r);
        }
        self.moves = moves;
        self.ranked = ranked;

        // The most visited root move (ties: the better mean, then the better-ranked move).
        let mut best = NONE;
        let mut child = self.nodes[0].first_child;
        let mut root_children = 0;
        while child != NONE {
            root_children += 1;
            let n = &self.nodes[child as usize];
            let better = best == NONE || {
                let b = &self.nodes[best as usize];
                (n.visits, n.reward) >= (b.visits, b.reward)
            };
            if better {
                best = child;
            }
            child = n.next_sibling;
        }
        self.last = SearchInfo { iterations, nodes: self.nodes.len() as u32, root_children };
        if best == NONE {
            root_cands[0]
        } else {
            self.nodes[best as usize].mv
        }
    }
}

impl<E: Evaluator> Bot for MctsBot<E> {
    fn choose(&mut self, game: &Game, moves: &[Move]) -> usize {
        if moves.len() == 1 {
            return 0;
        }
        let mv = self.search(game, moves);
        moves.iter().position(|m| *m == mv).expect("the search returns a root move")
    }

    fn name(&self) -> &'static str {
        "mcts"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{Config, SwapTiming, Variant};

    fn small() -> MctsConfig {
        MctsConfig { iterations: 60, ..MctsConfig::default() }
    }

    #[test]
    fn budget_is_required() {
        assert!(MctsConfig { iterations: 0, time_ms: 0, ..MctsConfig::default() }.validate().is_err());
        assert!(MctsConfig { width: 0, ..MctsConfig::default() }.validate().is_err());
    }

    #[test]
    fn same_seed_same_choice_and_iterations_are_spent() {
        let g = Game::new(Config::standard(2).unwrap(), 11);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let a = MctsBot::new(small(), 5).choose(&g, &moves);
        let mut bot = MctsBot::new(small(), 5);
        assert_eq!(bot.choose(&g, &moves), a);
        assert_eq!(bot.last_search().iterations, 60);
        assert!(bot.last_search().root_children >= 2);
    }

    #[test]
    fn choice_does_not_depend_on_hidden_tiles() {
        let cfg = Config::standard(3).unwrap();
        let mut buf = Vec::new();
        for seed in 0..4u64 {
            // A position some moves in, with bonus/swap phases possibly pending.
            let mut g = Game::new(cfg, seed);
            let mut rng = Rng::new(seed);
            for _ in 0..(10 + seed as usize * 7) {
                g.legal_moves(&mut buf);
                g.play_unchecked(&buf[rng.below(buf.len() as u32) as usize]);
            }
            let me = g.current_player();
            let other = g.determinize(me, 1000 + seed);
            assert_eq!(other.rack(me), g.rack(me));
            assert_ne!(
                (0..3).map(|p| *other.rack(p)).collect::<Vec<_>>(),
                (0..3).map(|p| *g.rack(p)).collect::<Vec<_>>()
            );
            g.legal_moves(&mut buf);
            let mut other_moves = Vec::new();
            other.legal_moves(&mut other_moves);
            assert_eq!(buf, other_moves);
            let a = MctsBot::new(small(), seed).choose(&g, &buf);
            let b = MctsBot::new(small(), seed).choose(&other, &other_moves);
            assert_eq!(a, b, "seed {seed}");
        }
    }

    #[test]
    fn plays_every_variant_to_the_end() {
        let mut buf = Vec::new();
        for v in Variant::ALL {
            let p = v.player_counts()[0];
            let cfg = Config::new(v, p, SwapTiming::AfterPlacement, false).unwrap();
            let mut g = Game::new(cfg, 3);
            let mut bot = MctsBot::new(MctsConfig { iterations: 8, ..MctsConfig::default() }, 1);
            while !g.is_over() {
                g.legal_moves(&mut buf);
                let i = bot.choose(&g, &buf);
                g.play_unchecked(&buf[i]);
            }
            assert_eq!(g.tile_total(), 120);
        }
    }

    #[test]
    fn time_budget_stops_the_search() {
        let g = Game::new(Config::standard(2).unwrap(), 2);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let mut bot = MctsBot::new(MctsConfig { iterations: 0, time_ms: 5, ..MctsConfig::default() }, 0);
        bot.choose(&g, &moves);
        assert!(bot.last_search().iterations >= 1);
    }
}

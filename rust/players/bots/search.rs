//! The levels' search: information-set MCTS guided by the fitted evaluation (`eval`).
//!
//! Differences from `mcts` (which it otherwise follows: one tree over every seat's moves,
//! hidden tiles dealt anew from the searcher's view in each iteration, UCB1 over
//! availability counts):
//!
//! - Returns are per seat: the win probability of every seat (softmax of the evaluation at
//!   the leaf, the exact result at the end of a game), each node backing up the return of
//!   the seat that moved into it. Nothing assumes two players; in the team game partners
//!   share their team's probability.
//! - Candidates per node are ranked by the evaluation's move score (the prior) and widened
//!   progressively: a node visited `n` times considers the best `1 + widen·√n` of them.
//!   Swap decisions are nodes like any other (both answers are searched).
//! - The end of an iteration is scored by an `Evaluator`, by default the one the config
//!   names (`evaluation`: `Fitted`, or `Learned` for `master`): playouts are
//!   short (the evaluation's best cheap move, `depth` placements) and then cut by the
//!   evaluation; when few free pairs remain (`endgame`), playouts run to the end of the
//!   game, so the last moves are judged by exact results.

use super::analysis::{Analysis, Candidate};
use super::endgame;
use super::eval::MoveScorer;
use super::evaluator::{Evaluation, Evaluator, Levels};
use super::inference::Inference;
use super::policy;
use super::tree::{add_child, backup, select, select_puct, Budget, Node, MAX_CANDIDATES, NONE};
use super::Bot;
use crate::game::{Game, Phase};
use crate::moves::Move;
use crate::rng::Rng;
use crate::stop::Stop;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// Iterations per decision (deterministic for a seed); 0: no limit of this kind.
    pub iterations: u32,
    /// Milliseconds per decision (play then depends on machine speed); 0: no limit.
    pub time_ms: u32,
    pub exploration: f64,
    /// Most candidates per node.
    pub width: u32,
    /// Progressive widening: candidates = 1 + widen·√visits (capped at `width`).
    pub widen: f64,
    /// Placements of a playout before the evaluation cuts it.
    pub depth: u32,
    /// Free pairs at or below which playouts run to the end of the game.
    pub endgame: u32,
    /// Decline every swap offer (and never choose an `instead_of_placement` swap).
    pub never_swap: bool,
    /// The levels' budgets for 2, 3 and 4 players (solo and duel count as 2, the team game
    /// as 4), used instead of `iterations` when set and no time budget is given: a 4-player
    /// iteration costs about twice a 2-player one (larger board, more moves), and a level
    /// is calibrated to the same time per move at every table size.
    pub iterations_by_players: Option<[u32; 3]>,
    /// What judges a position where a playout stops.
    pub evaluation: Evaluation,
    /// Free pairs at or below which the decision is solved exhaustively (every legal
    /// placement to the end of the game, averaged over sampled deals; `endgame` module),
    /// 0: never. Falls back to the search when the game tree is too large.
    pub exact: u32,
    /// Time management (still counted in iterations, so deterministic): 0 spends exactly
    /// the budget. Otherwise the search stops early once no other move can catch up with
    /// the most visited one, and when the two most visited are close at the end of the
    /// budget it goes on for up to `extend` × the budget more.
    pub extend: f64,
    /// Deal the other seats' racks by how likely they are given their public moves
    /// (`inference`), when the bot is told the moves (`Bot::choose_move_seen`); otherwise
    /// uniformly from the unseen tiles.
    pub infer: bool,
    /// What orders the root's candidates (and weighs them, with `puct`).
    pub prior: Prior,
    /// 0: the root selects by UCB1 like every node; above 0, by PUCT with this constant,
    /// weighing each candidate by the prior's probability (the policy's, or the softmax of
    /// the fitted scores over the kept candidates).
    pub puct: f64,
}

/// What ranks the root's moves before the search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Prior {
    /// The fitted evaluation's cheap score of the mover after the move (`eval::MoveScorer`).
    Fitted,
    /// The learned policy network's probabilities (`policy`), trained on this search's visits.
    Policy,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            iterations: 400,
            time_ms: 0,
            exploration: 0.35,
            width: 12,
            widen: 1.0,
            depth: 2,
            endgame: 12,
            never_swap: false,
            iterations_by_players: None,
            evaluation: Evaluation::Fitted,
            exact: 0,
            extend: 0.0,
            infer: false,
            prior: Prior::Fitted,
            puct: 0.0,
        }
    }
}

pub const MAX_SEARCH_WIDTH: u32 = MAX_CANDIDATES as u32;
/// Deals the exhaustive endgame averages over (2, 3, 4 players) and the most positions it
/// may visit in all before it gives way to the search (about the time of the search's budget).
const EXACT_SAMPLES: [u32; 3] = [16, 12, 8];
const EXACT_NODES: [u64; 3] = [30_000, 20_000, 15_000];
/// Most free pairs at which the exhaustive endgame may be asked for.
pub const MAX_EXACT: u32 = 8;

impl SearchConfig {
    /// The iterations one decision of a `players`-player game gets (0: a time budget only).
    pub fn budget(&self, players: usize) -> u32 {
        match self.iterations_by_players {
            Some(t) if self.time_ms == 0 => t[players.clamp(2, 4) - 2],
            _ => self.iterations,
        }
    }

    pub fn validate(&self) -> Result<(), String> {
        if self.iterations == 0 && self.time_ms == 0 {
            return Err("the search needs a budget: iterations > 0 or time_ms > 0".into());
        }
        if !(self.exploration.is_finite() && self.exploration >= 0.0) {
            return Err(format!("exploration must be a finite number >= 0, not {}", self.exploration));
        }
        if !(self.widen.is_finite() && self.widen > 0.0) {
            return Err(format!("widen must be a finite number > 0, not {}", self.widen));
        }
        if self.iterations_by_players.is_some_and(|t| t.contains(&0)) {
            return Err("iterations_by_players must all be > 0".into());
        }
        if !(self.extend.is_finite() && (0.0..=4.0).contains(&self.extend)) {
            return Err(format!("extend must be a number in 0..=4, not {}", self.extend));
        }
        if !(self.puct.is_finite() && (0.0..=100.0).contains(&self.puct)) {
            return Err(format!("puct must be a number in 0..=100, not {}", self.puct));
        }
        if self.exact > MAX_EXACT {
            return Err(format!("exact must be 0..={MAX_EXACT}, not {}", self.exact));
        }
        if !(1..=MAX_SEARCH_WIDTH).contains(&self.width) {
            return Err(format!("width must be 1..={MAX_SEARCH_WIDTH}, not {}", self.width));
        }
        Ok(())
    }
}

/// Root moves searched side by side over the same sampled deals (`SearchBot::compare`).
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Each move's mean return for the mover (its estimated win probability), in the order
    /// the moves were given.
    pub values: Vec<f64>,
    /// Deals every move was searched on (each move got one iteration per deal).
    pub rounds: u32,
    /// The mover's return of each move on each deal (`rounds` rows of one per move).
    pub returns: Vec<f64>,
}

impl Comparison {
    /// The standard error of `values[a] - values[b]`, from the spread of their per-deal
    /// differences (0 when the difference was the same on every deal).
    pub fn std_error(&self, a: usize, b: usize) -> f64 {
        let k = self.values.len();
        let diffs: Vec<f64> = self.returns.chunks(k).map(|r| r[a] - r[b]).collect();
        std_error(&diffs)
    }
}

/// The levels' search, scoring the end of each iteration with `E` (by default the evaluator
/// the config names, `evaluator::Levels`: the fitted or the learned evaluation after a short
/// playout).
pub struct SearchBot<E: Evaluator = Levels> {
    config: SearchConfig,
    evaluator: E,
    rng: Rng,
    tree: Tree,
    name: &'static str,
    last: Option<Analysis>,
    /// Set by another thread to end the search early (Ctrl-C): the best move so far is played.
    stop: Option<Arc<Stop>>,
    /// The public moves and their seats, while a decision told them is made (`infer`).
    seen: Option<(Vec<Move>, Vec<u8>)>,
    /// Bench only (`benches/ceiling.rs`): search the true position, every rack and the
    /// bag's draw order seen, to measure what hidden information costs. Never a level.
    #[cfg(feature = "oracle")]
    oracle: bool,
}

impl SearchBot {
    /// Panics on an invalid config; check it with `SearchConfig::validate` first.
    pub fn new(config: SearchConfig, seed: u64) -> SearchBot {
        let evaluator = Levels::new(config.evaluation, config.depth, config.endgame, config.never_swap);
        SearchBot::with_evaluator(config, seed, evaluator)
    }
}

impl<E: Evaluator> SearchBot<E> {
    /// The search with another evaluation of its iterations' ends (a learned one); the
    /// config's `depth` and `endgame` are then the evaluator's business.
    pub fn with_evaluator(config: SearchConfig, seed: u64, evaluator: E) -> SearchBot<E> {
        config.validate().expect("invalid search config");
        SearchBot {
            config,
            evaluator,
            rng: Rng::new(seed),
            tree: Tree::default(),
            name: "search",
            last: None,
            stop: None,
            seen: None,
            #[cfg(feature = "oracle")]
            oracle: false,
        }
    }

    /// Bench only: the same search on the true position (every rack and the bag's draw
    /// order) instead of deals sampled from the mover's view; the ceiling of what better
    /// guesses about hidden tiles could give (`benches/ceiling.rs`).
    #[cfg(feature = "oracle")]
    pub fn seeing_everything(mut self) -> SearchBot<E> {
        self.oracle = true;
        self
    }

    /// One iteration's deal: the hidden tiles dealt anew from the mover's view (or by
    /// their inferred likelihood); the true position for the bench's oracle.
    fn deal(&mut self, root: &Game, me: usize, inference: Option<&Inference>) -> Game {
        #[cfg(feature = "oracle")]
        if self.oracle {
            return *root;
        }
        match inference {
            Some(deals) => deals.deal(root, me, &mut self.rng),
            None => root.determinize(me, self.rng.next_u64()),
        }
    }

    /// A flag that, once set, ends a search after the iteration under way; the bot then
    /// plays its best move so far (after at least one iteration). Used to stop work on Ctrl-C.
    pub fn set_stop(&mut self, stop: Arc<Stop>) {
        self.stop = Some(stop);
    }

    /// The same bot under a level's name (for tables).
    pub fn named(mut self, name: &'static str) -> SearchBot<E> {
        self.name = name;
        self
    }

    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// What the last decision's search saw (`None` before the first, or when the decision
    /// needed no search: a single legal move, or a declined swap).
    pub fn last_search(&self) -> Option<&Analysis> {
        self.last.as_ref()
    }

    /// Runs the search from `root` (the seat to move's decision) and returns what it saw.
    pub fn analyse(&mut self, root: &Game, root_moves: &[Move]) -> Analysis {
        let me = root.current_player();
        let cfg = self.config;
        let deadline = (cfg.time_ms > 0).then(|| Instant::now() + Duration::from_millis(cfg.time_ms as u64));
        let budget = cfg.budget(root.config().players());
        let max_iter = if budget == 0 { u32::MAX } else { budget };
        if cfg.exact > 0 && root.board().free_pairs() <= cfg.exact as usize && root.config().players() > 1 {
            let k = root.config().players().clamp(2, 4) - 2;
            let seed = self.rng.next_u64();
            if let Some(a) = endgame::solve(root, root_moves, cfg.never_swap, EXACT_SAMPLES[k], EXACT_NODES[k], seed) {
                return a;
            }
        }
        self.evaluator.start(root, me);
        let inference = match (&self.seen, cfg.infer) {
            (Some((history, movers)), true) => Inference::new(root, me, history, movers, &mut self.rng),
            _ => None,
        };

        self.tree.reset(me);
        // Root candidates depend only on the public board and the searcher's own rack.
        let scored = &mut self.tree.scored;
        // The policy ranks the root only at the table sizes it learned: elsewhere the fitted
        // score does, as without the prior.
        let nets = (cfg.prior == Prior::Policy).then(policy::active);
        let policy = nets.as_deref().and_then(|n| n.learned_at(root.config().players()));
        match policy {
            None => rank(&mut self.rng, root, root_moves, cfg.never_swap, cfg.width as usize, scored),
            Some(p) => rank_by_policy(p, &mut self.rng, root, root_moves, cfg.never_swap, cfg.width as usize, scored),
        }
        let mut root_ranked: Vec<(f64, Move)> = scored.iter().map(|&(s, _, i)| (s, root_moves[i as usize])).collect();
        if cfg.puct > 0.0 && policy.is_none() {
            // The fitted scores are utilities of a conditional logit: their softmax over the
            // kept candidates is the fitted evaluation's own policy.
            let top = root_ranked.first().map_or(0.0, |x| x.0);
            let total: f64 = root_ranked.iter().map(|x| (x.0 - top).exp()).sum();
            for x in root_ranked.iter_mut() {
                x.0 = (x.0 - top).exp() / total;
            }
        }
        let mut iterations = 0;
        let stop = self.stop.clone();
        // Time management by iterations: up to `extend` × the budget more when it is close.
        let managed = cfg.extend > 0.0 && budget > 0;
        let cap = if managed { max_iter.saturating_add((max_iter as f64 * cfg.extend) as u32) } else { max_iter };
        let budget = Budget { iterations: cap, deadline, stop: stop.as_deref() };
        while budget.allows(iterations) {
            if managed && iterations % 16 == 0 && iterations > 0 && self.settled(iterations, max_iter) {
                break;
            }
            iterations += 1;
            let mut game = self.deal(root, me, inference.as_ref());
            self.tree.path.clear();
            self.tree.path.push(0);
            self.tree.descend(&mut game, 0, &root_ranked, &cfg, me, &mut self.rng);
            let r = self.evaluator.evaluate(&mut game, me, &mut self.rng);
            backup(&mut self.tree.nodes, &self.tree.path, &r);
        }

        let mut candidates = Vec::new();
        let mut child = self.tree.nodes[0].first_child;
        while child != NONE {
            let n = self.tree.nodes[child as usize];
            let prior = root_ranked.iter().find(|x| x.1 == n.mv).map_or(0.0, |x| x.0);
            candidates.push(Candidate {
                mv: n.mv,
                visits: n.visits,
                value: n.reward / n.visits.max(1) as f64,
                prior,
                line: self.line(child),
            });
            child = n.next_sibling;
        }
        // Most visited first; then the better mean, then the better prior (deterministic).
        candidates.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(b.value.total_cmp(&a.value))
                .then(b.prior.total_cmp(&a.prior))
                .then(a.mv.cmp(&b.mv))
        });
        if candidates.is_empty() {
            // No iteration reached a child (impossible with a budget ≥ 1, kept for safety).
            let (prior, mv) = root_ranked.first().copied().unwrap_or((0.0, root_moves[0]));
            candidates.push(Candidate { mv, visits: 0, value: 0.0, prior, line: Vec::new() });
        }
        Analysis { iterations, nodes: self.tree.nodes.len() as u32, candidates }
    }

    /// Searches the root moves `arms` side by side with common random numbers: each of
    /// `rounds` deals of what the mover cannot see is searched once after each move, the
    /// playout and tie-breaks of every iteration of a deal drawn from the same stream, all
    /// in one tree. The differences of the values are then free of the luck of the deals,
    /// and their standard errors come from the per-deal differences. Where the config
    /// solves the endgame exactly, the moves are solved on the same deals as `analyse`
    /// solves them (the same seed gives the same deals). Ends early when the stop flag is
    /// set (after one round).
    pub fn compare(&mut self, root: &Game, arms: &[Move], rounds: u32) -> Comparison {
        assert!(!arms.is_empty() && arms.len() <= MAX_CANDIDATES, "compare needs 1..=64 moves");
        let me = root.current_player();
        let cfg = self.config;
        if cfg.exact > 0 && root.board().free_pairs() <= cfg.exact as usize && root.config().players() > 1 {
            let k = root.config().players().clamp(2, 4) - 2;
            let seed = self.rng.next_u64();
            if let Some((values, returns)) = endgame::compare(root, arms, EXACT_SAMPLES[k], EXACT_NODES[k], seed) {
                return Comparison { values, rounds: EXACT_SAMPLES[k], returns };
            }
        }
        self.evaluator.start(root, me);
        self.tree.reset(me);
        let ids: Vec<u32> = arms.iter().map(|&mv| add_child(&mut self.tree.nodes, 0, mv, me as u8)).collect();
        let mut returns = Vec::with_capacity(rounds as usize * arms.len());
        let stop = self.stop.clone();
        let budget = Budget { iterations: rounds.max(1), deadline: None, stop: stop.as_deref() };
        let mut done = 0;
        while budget.allows(done) {
            done += 1;
            let deal = root.determinize(me, self.rng.next_u64());
            let stream = self.rng.next_u64();
            for (k, &arm) in ids.iter().enumerate() {
                let mut rng = Rng::new(stream);
                let mut game = deal;
                game.play_unchecked(&arms[k]);
                self.tree.path.clear();
                self.tree.path.push(0);
                self.tree.path.push(arm);
                // Below the arm: the root's candidates are the arms, never selected here.
                self.tree.descend(&mut game, arm, &[], &cfg, me, &mut rng);
                let v = self.evaluator.evaluate(&mut game, me, &mut rng);
                backup(&mut self.tree.nodes, &self.tree.path, &v);
                returns.push(v[me]);
            }
        }
        let value = |id: u32| {
            let n = &self.tree.nodes[id as usize];
            n.reward / n.visits.max(1) as f64
        };
        Comparison { values: ids.iter().map(|&id| value(id)).collect(), rounds: done, returns }
    }

    /// Whether the search may stop after `done` iterations of a budget of `budget`: before
    /// the budget, once no other root move can catch up with the most visited one in the
    /// iterations left; after it, unless the two most visited are within 15 %.
    fn settled(&self, done: u32, budget: u32) -> bool {
        let (mut first, mut second) = (0u32, 0u32);
        let mut c = self.tree.nodes[0].first_child;
        while c != NONE {
            let v = self.tree.nodes[c as usize].visits;
            if v > first {
                second = first;
                first = v;
            } else if v > second {
                second = v;
            }
            c = self.tree.nodes[c as usize].next_sibling;
        }
        if done < budget {
            first - second > budget - done
        } else {
            (first as f64) > 1.15 * second as f64
        }
    }

    /// The most visited path below `node` (at least two visits per step).
    fn line(&self, node: u32) -> Vec<Move> {
        let mut out = Vec::new();
        let mut at = node;
        loop {
            let mut best = NONE;
            let mut c = self.tree.nodes[at as usize].first_child;
            while c != NONE {
                let n = &self.tree.nodes[c as usize];
                if n.visits >= 2 && (best == NONE || n.visits > self.tree.nodes[best as usize].visits) {
                    best = c;
                }
                c = n.next_sibling;
            }
            if best == NONE || out.len() >= 12 {
                return out;
            }
            out.push(self.tree.nodes[best as usize].mv);
            at = best;
        }
    }
}

/// The levels' search tree, and the buffers its descents reuse (so that an iteration
/// allocates nothing once they have grown).
#[derive(Default)]
struct Tree {
    nodes: Vec<Node>,
    /// The nodes of the iteration under way, from the root (what the backup updates).
    path: Vec<u32>,
    /// At the node being left: the moves legal in the deal, their ranking, and the
    /// candidates kept.
    moves: Vec<Move>,
    scored: Vec<(f64, u32, u32)>,
    list: Vec<Move>,
}

impl Tree {
    /// Empties the tree to its root, a decision of seat `me`.
    fn reset(&mut self, me: usize) {
        self.nodes.clear();
        self.nodes.push(Node {
            mv: Move::Keep,
            first_child: NONE,
            next_sibling: NONE,
            player: me as u8,
            visits: 0,
            avail: 0,
            reward: 0.0,
        });
    }

    /// The one descent of the levels' search, for `analyse`'s iterations and `compare`'s:
    /// from `node` (where `path` ends) down the tree in this iteration's deal `game`, played
    /// along, to the node it adds or to the end of the game, pushing every node it passes on
    /// `path`. A node visited `n` times chooses among its best `1 + widen·√n` candidates (at
    /// most `width`): at the root, the prior's ranking `root`, by PUCT when `puct` > 0;
    /// elsewhere, the moves legal in the deal ranked by the fitted score (ties from `rng`;
    /// no swap for seat `me` with `never_swap`), by UCB1 over availability counts.
    ///
    /// Always inlined: the hot loop of both callers, compiled into each as when each had
    /// its own copy (the instruction counts of the searches stay as they were).
    #[inline(always)]
    fn descend(
        &mut self,
        game: &mut Game,
        mut node: u32,
        root: &[(f64, Move)],
        cfg: &SearchConfig,
        me: usize,
        rng: &mut Rng,
    ) {
        while !game.is_over() {
            let mover = game.current_player() as u8;
            let visits = self.nodes[node as usize].visits;
            let allowed = ((1.0 + cfg.widen * (visits as f64).sqrt()) as usize).min(cfg.width as usize);
            self.list.clear();
            if node == 0 {
                self.list.extend(root.iter().take(allowed).map(|x| x.1));
            } else {
                game.legal_moves(&mut self.moves);
                let never = cfg.never_swap && mover as usize == me;
                if self.moves.len() <= 2 && !never {
                    self.list.extend_from_slice(&self.moves);
                } else {
                    rank(rng, game, &self.moves, never, allowed, &mut self.scored);
                    self.list.extend(self.scored.iter().take(allowed).map(|x| self.moves[x.2 as usize]));
                }
            }
            let (mv, id, expanded) = if node == 0 && cfg.puct > 0.0 {
                select_puct(&mut self.nodes, &root[..self.list.len()], cfg.puct)
            } else {
                select(&mut self.nodes, node, &self.list, mover, cfg.exploration)
            };
            game.play_unchecked(&mv);
            self.path.push(id);
            if expanded {
                break;
            }
            node = id;
        }
    }
}

/// Ranks `moves` by the evaluation's score for the mover, best first, into `out` as
/// `(score, tie-break, move index)`; ties at random. Only the best `keep` are kept and
/// sorted (a node looks at a dozen of hundreds of moves; sorting them all dominated the
/// cost of an iteration). Swaps are dropped when `never_swap`.
///
/// Hinted inline as the method of the generic `SearchBot` it was: without the hint the
/// compiler stops inlining the move scorer into this loop, 1.2 % more instructions an
/// iteration.
#[inline]
fn rank(rng: &mut Rng, game: &Game, moves: &[Move], never_swap: bool, keep: usize, out: &mut Vec<(f64, u32, u32)>) {
    out.clear();
    let mut scorer = MoveScorer::new(game);
    for (i, m) in moves.iter().enumerate() {
        if never_swap && *m == Move::Swap {
            continue;
        }
        out.push((scorer.score_cached(m), rng.next_u64() as u32, i as u32));
    }
    keep_best(out, keep);
}

/// As `rank`, by the policy network's probabilities (the scores are the probabilities
/// over all of `moves`, so that PUCT can weigh the kept ones).
fn rank_by_policy(
    policy: &policy::Policy,
    rng: &mut Rng,
    game: &Game,
    moves: &[Move],
    never_swap: bool,
    keep: usize,
    out: &mut Vec<(f64, u32, u32)>,
) {
    let mut logits = Vec::with_capacity(moves.len());
    policy.logits(game, moves, &mut logits);
    policy::softmax(&mut logits);
    out.clear();
    for (i, m) in moves.iter().enumerate() {
        if never_swap && *m == Move::Swap {
            continue;
        }
        out.push((logits[i] as f64, rng.next_u64() as u32, i as u32));
    }
    keep_best(out, keep);
}

/// Keeps the best `keep` of `(score, tie-break, index)` rows (all of them for 0), sorted
/// best first: higher score, then higher tie-break.
#[inline]
fn keep_best(out: &mut Vec<(f64, u32, u32)>, keep: usize) {
    let by = |a: &(f64, u32, u32), b: &(f64, u32, u32)| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1));
    if keep > 0 && keep < out.len() {
        out.select_nth_unstable_by(keep - 1, by);
        out.truncate(keep);
    }
    out.sort_unstable_by(by);
}

/// The standard error of the mean of `xs` (0 for fewer than two).
pub(super) fn std_error(xs: &[f64]) -> f64 {
    let n = xs.len();
    if n < 2 {
        return 0.0;
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
    (var / n as f64).sqrt()
}

impl<E: Evaluator> Bot for SearchBot<E> {
    fn choose(&mut self, game: &Game, moves: &[Move]) -> usize {
        if self.config.never_swap && game.phase() == Phase::SwapOffer {
            return moves.iter().position(|m| *m == Move::Keep).unwrap_or(0);
        }
        if moves.len() == 1 {
            return 0;
        }
        let a = self.analyse(game, moves);
        let mv = a.candidates[0].mv;
        self.last = Some(a);
        moves.iter().position(|m| *m == mv).expect("the search returns a root move")
    }

    fn choose_move_seen(&mut self, game: &Game, history: &[Move], movers: &[u8], moves: &mut Vec<Move>) -> Move {
        if self.config.infer {
            let (mut h, mut m) = self.seen.take().unwrap_or_default();
            h.clear();
            h.extend_from_slice(history);
            m.clear();
            m.extend_from_slice(movers);
            self.seen = Some((h, m));
        }
        let mv = self.choose_move(game, moves);
        if let Some((h, m)) = &mut self.seen {
            // Kept for their buffers; an empty history tells nothing.
            h.clear();
            m.clear();
        }
        mv
    }

    fn reads_history(&self) -> bool {
        self.config.infer
    }

    fn name(&self) -> &'static str {
        self.name
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Config;

    fn small() -> SearchConfig {
        SearchConfig { iterations: 40, ..SearchConfig::default() }
    }

    #[test]
    fn legal_moves_in_every_rule_set_and_to_the_end() {
        let mut buf = Vec::new();
        for cfg in Config::all() {
            let mut g = Game::new(cfg, 3);
            let mut bot = SearchBot::new(SearchConfig { iterations: 6, ..SearchConfig::default() }, 1);
            while !g.is_over() {
                g.legal_moves(&mut buf);
                let i = bot.choose(&g, &buf);
                assert!(g.check(&buf[i]).is_ok());
                g.play_unchecked(&buf[i]);
            }
            assert_eq!(g.tile_total(), 120);
        }
    }

    #[test]
    fn choice_does_not_depend_on_hidden_tiles() {
        let mut buf = Vec::new();
        for (seed, players) in [(0u64, 2usize), (1, 3), (2, 4), (3, 2)] {
            let cfg = Config::standard(players).unwrap();
            let mut g = Game::new(cfg, seed);
            let mut rng = Rng::new(seed);
            for _ in 0..(8 + seed as usize * 5) {
                g.legal_moves(&mut buf);
                g.play_unchecked(&buf[rng.below(buf.len() as u32) as usize]);
            }
            let me = g.current_player();
            let other = g.determinize(me, 500 + seed);
            assert_ne!(other, g);
            g.legal_moves(&mut buf);
            let mut other_moves = Vec::new();
            other.legal_moves(&mut other_moves);
            assert_eq!(buf, other_moves);
            let a = SearchBot::new(small(), seed).analyse(&g, &buf);
            let b = SearchBot::new(small(), seed).analyse(&other, &other_moves);
            assert_eq!(a, b, "seed {seed}");
        }
    }

    #[test]
    fn rack_inference_reads_only_public_facts() {
        use crate::record::Record;
        let mut buf = Vec::new();
        let cfg = SearchConfig { infer: true, ..small() };
        let mut used = 0;
        for (seed, players) in [(0u64, 2usize), (1, 3), (2, 4), (3, 2), (4, 2), (5, 4)] {
            let mut r = Record::new(Config::standard(players).unwrap(), seed);
            let mut rng = Rng::new(seed);
            for _ in 0..(10 + seed as usize * 4) {
                r.game().legal_moves(&mut buf);
                r.play(&buf[rng.below(buf.len() as u32) as usize]).unwrap();
            }
            let me = r.game().current_player();
            // The same public history, other hidden racks and bag.
            let other = r.determinize(me, 900 + seed);
            assert_ne!(other.game(), r.game());
            assert_eq!((other.history(), other.movers()), (r.history(), r.movers()));
            if Inference::new(r.game(), me, r.history(), &r.movers(), &mut Rng::new(0)).is_some() {
                used += 1;
            }
            let decide = |rec: &Record| {
                let mut bot = SearchBot::new(cfg, seed);
                let mv = bot.choose_move_seen(rec.game(), rec.history(), &rec.movers(), &mut Vec::new());
                (mv, bot.last_search().cloned())
            };
            let a = decide(&r);
            assert_eq!(a, decide(&other), "seed {seed}");
            // The inference is in play: told nothing, the same bot searches otherwise.
            let mut blind = SearchBot::new(cfg, seed);
            r.game().legal_moves(&mut buf);
            let i = blind.choose(r.game(), &buf);
            if a.1.is_some() && Inference::new(r.game(), me, r.history(), &r.movers(), &mut Rng::new(0)).is_some() {
                assert_ne!(blind.last_search().cloned(), a.1, "seed {seed}");
            }
            let _ = i;
        }
        assert!(used >= 4, "the inference found evidence in {used} positions only");
    }

    #[test]
    fn same_seed_same_analysis_and_candidates_are_ordered() {
        let g = Game::new(Config::standard(2).unwrap(), 11);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let a = SearchBot::new(small(), 5).analyse(&g, &moves);
        assert_eq!(a, SearchBot::new(small(), 5).analyse(&g, &moves));
        assert_eq!(a.iterations, 40);
        assert!(a.candidates.len() >= 2);
        assert!(a.candidates.windows(2).all(|w| w[0].visits >= w[1].visits));
        assert!(a.candidates.iter().all(|c| moves.contains(&c.mv) && (0.0..=1.0).contains(&c.value)));
        assert_eq!(a.candidates.iter().map(|c| c.visits).sum::<u32>(), 40);
    }

    #[test]
    fn never_swap_keeps() {
        let mut buf = Vec::new();
        let cfg = Config::standard(2).unwrap();
        let mut g = Game::new(cfg, 1);
        let mut bot = SearchBot::new(SearchConfig { iterations: 4, never_swap: true, ..SearchConfig::default() }, 1);
        while !g.is_over() {
            g.legal_moves(&mut buf);
            let i = bot.choose(&g, &buf);
            assert_ne!(buf[i], Move::Swap);
            g.play_unchecked(&buf[i]);
        }
        assert_eq!(g.stats().swaps, 0);
    }

    #[test]
    fn budgets_by_player_count() {
        let cfg = SearchConfig { iterations_by_players: Some([30, 20, 10]), ..small() };
        for (players, want) in [(2, 30), (3, 20), (4, 10)] {
            let g = Game::new(Config::standard(players).unwrap(), 1);
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            assert_eq!(SearchBot::new(cfg, 1).analyse(&g, &moves).iterations, want);
        }
        assert!(SearchConfig { iterations_by_players: Some([1, 0, 1]), ..small() }.validate().is_err());
    }

    #[test]
    fn the_policy_prior_picks_the_roots_candidates() {
        let mut g = Game::new(Config::standard(2).unwrap(), 6);
        let mut moves = Vec::new();
        let mut rng = Rng::new(3);
        for _ in 0..6 {
            g.legal_moves(&mut moves);
            g.play_unchecked(&moves[rng.below(moves.len() as u32) as usize]);
        }
        g.legal_moves(&mut moves);
        let mut logits = Vec::new();
        policy::active().logits(&g, &moves, &mut logits);
        let mut order: Vec<usize> = (0..moves.len()).collect();
        order.sort_by(|&a, &b| logits[b].total_cmp(&logits[a]));
        let cutoff = logits[order[2]];
        for puct in [0.0, 1.5] {
            let cfg = SearchConfig { iterations: 60, width: 3, prior: Prior::Policy, puct, ..SearchConfig::default() };
            let a = SearchBot::new(cfg, 1).analyse(&g, &moves);
            assert_eq!(a.candidates.iter().map(|c| c.visits).sum::<u32>(), 60);
            for c in &a.candidates {
                let i = moves.iter().position(|m| *m == c.mv).unwrap();
                assert!(logits[i] >= cutoff, "{:?} is not among the policy's top 3", c.mv);
                assert!(c.prior > 0.0 && c.prior <= 1.0);
            }
        }
    }

    #[test]
    fn time_budget_stops_the_search() {
        let g = Game::new(Config::standard(2).unwrap(), 2);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let mut bot = SearchBot::new(SearchConfig { iterations: 0, time_ms: 3, ..SearchConfig::default() }, 0);
        assert!(bot.analyse(&g, &moves).iterations >= 1);
    }
}

//! The evaluator seam of the searches: how the end of an iteration is scored.
//!
//! Both searches (`mcts` and the levels' ISMCTS in `search`) walk down their tree in a deal
//! of what the searching seat cannot see, then hand the position reached to an
//! [`Evaluator`], which gives every seat a value in 0..1 (higher is better for that seat)
//! and backs it up the tree. An evaluator may play the position on first (a rollout).
//!
//! - [`Rollout`] (`mcts`): a cheap policy plays `depth` placements (or to the end), then
//!   the seats are valued by their ranks as the markers stand ([`rank_values`]).
//! - [`Fitted`] (the levels): the fitted evaluation's best cheap move for a few placements
//!   (to the end near the end of the game), then the evaluation's win probabilities, or the
//!   exact result of a finished game.
//! - [`Learned`] (`master`): the same playouts, then the learned evaluation (`learned`).
//!
//! A new evaluation (a learned one) is another implementation, given to
//! `SearchBot::with_evaluator` or `MctsBot::with_evaluator`.
//!
//! The seam is a leaf below both searches: it uses nothing of `search`, `mcts` or
//! `endgame`, so the choices its implementations take ([`Playout`], [`Evaluation`]) are
//! defined here and the searches' configs name them (`build/layers.rs` checks it).

use super::eval::{win_probabilities, win_shares, MoveScorer};
use super::greedy::{placement_key, PlacementKeys};
use super::learned;
use crate::game::{Game, Phase};
use crate::moves::Move;
use crate::rng::Rng;

/// How a [`Rollout`] picks its moves (`MctsConfig::playout`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Playout {
    /// Uniformly at random among all legal moves.
    Random,
    /// The best of `n` legal moves drawn at random (greedy evaluation); swaps taken.
    Sample(u8),
    /// The greedy bot's choice (every legal move evaluated).
    Greedy,
}

impl Playout {
    pub fn name(self) -> String {
        match self {
            Playout::Random => "random".into(),
            Playout::Sample(n) => format!("sample{n}"),
            Playout::Greedy => "greedy".into(),
        }
    }

    /// `random`, `greedy` or `sampleN` (N in 1..=64).
    pub fn parse(text: &str) -> Option<Playout> {
        match text {
            "random" => Some(Playout::Random),
            "greedy" => Some(Playout::Greedy),
            _ => {
                let n: u8 = text.strip_prefix("sample")?.parse().ok()?;
                (1..=64).contains(&n).then_some(Playout::Sample(n))
            }
        }
    }
}

/// The evaluation at the leaves of the levels' search ([`Levels`], `SearchConfig::evaluation`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The 22 fitted features (`eval`).
    Fitted,
    /// The pattern network trained by self-play (`learned`).
    Learned,
}

/// Scores the position at the end of a search iteration.
pub trait Evaluator: Send + Sync {
    /// Called once per decision before the first iteration, with the decision's position
    /// and the searching seat.
    fn start(&mut self, _root: &Game, _me: usize) {}

    /// The value of `game` for every seat, in 0..1 (seats past the player count: 0), for a
    /// search by seat `me`. `game` is a deal of what `me` cannot see, never the real one;
    /// the evaluator may play it on. `rng` is the search's own stream.
    fn evaluate(&mut self, game: &mut Game, me: usize, rng: &mut Rng) -> [f64; 4];
}

impl Evaluator for Box<dyn Evaluator> {
    fn start(&mut self, root: &Game, me: usize) {
        (**self).start(root, me)
    }

    fn evaluate(&mut self, game: &mut Game, me: usize, rng: &mut Rng) -> [f64; 4] {
        (**self).evaluate(game, me, rng)
    }
}

/// Rank-based values per seat: the share of the other seats it stands ahead of (a tie
/// counts half), so 1 for a sole leader and 0 for a sole last. Team partners share their
/// team's rank, so they share values too. Solo: the result as a share of the track
/// (`Game::result_fraction`).
pub fn rank_values(game: &Game) -> [f64; 4] {
    let n = game.config().players();
    let mut out = [0.0; 4];
    if n == 1 {
        out[0] = game.result_fraction(0);
        return out;
    }
    let ranks = game.ranks();
    for p in 0..n {
        let mut s = 0.0;
        for q in 0..n {
            if q != p {
                s += if ranks[p] < ranks[q] {
                    1.0
                } else if ranks[p] == ranks[q] {
                    0.5
                } else {
                    0.0
                };
            }
        }
        out[p] = s / (n - 1) as f64;
    }
    out
}

/// `mcts`'s evaluation: a playout by a cheap policy, then [`rank_values`].
pub struct Rollout {
    pub playout: Playout,
    /// Placements a playout makes before the position is valued as it stands; 0: to the end.
    pub depth: u32,
    moves: Vec<Move>,
}

impl Rollout {
    pub fn new(playout: Playout, depth: u32) -> Rollout {
        Rollout { playout, depth, moves: Vec::new() }
    }

    fn play_out(&mut self, game: &mut Game, rng: &mut Rng) {
        let moves = &mut self.moves;
        let mut left = if self.depth == 0 { u32::MAX } else { self.depth };
        while !game.is_over() && left > 0 {
            if game.phase() != Phase::SwapOffer {
                left -= 1;
            }
            game.legal_moves(moves);
            let i = match self.playout {
                Playout::Random => rng.below(moves.len() as u32) as usize,
                _ if game.phase() == Phase::SwapOffer => 0, // [Swap, Keep]: take it
                Playout::Sample(n) => {
                    let len = moves.len() as u32;
                    let mut best = rng.below(len) as usize;
                    let mut best_key = placement_key(game, &moves[best]);
                    for _ in 1..n {
                        let j = rng.below(len) as usize;
                        let k = placement_key(game, &moves[j]);
                        if k > best_key {
                            best = j;
                            best_key = k;
                        }
                    }
                    best
                }
                Playout::Greedy => {
                    let mut keys = PlacementKeys::new(game);
                    let mut best = 0;
                    let mut best_key = keys.key(game, &moves[0]);
                    for (j, m) in moves.iter().enumerate().skip(1) {
                        let k = keys.key(game, m);
                        if k > best_key {
                            best = j;
                            best_key = k;
                        }
                    }
                    best
                }
            };
            game.play_unchecked(&moves[i]);
        }
    }
}

impl Evaluator for Rollout {
    #[inline]
    fn evaluate(&mut self, game: &mut Game, _me: usize, rng: &mut Rng) -> [f64; 4] {
        self.play_out(game, rng);
        rank_values(game)
    }
}

/// The levels' evaluation: the fitted evaluation's best cheap move for `depth` placements
/// (to the end once at most `endgame` free pairs remain at the decision), then the
/// evaluation's win probabilities for every seat, or the exact result of a finished game.
pub struct Fitted {
    pub depth: u32,
    pub endgame: u32,
    /// The searching seat declines every swap in playouts too.
    pub never_swap: bool,
    /// Placements of this decision's playouts (set by `start`).
    cut: u32,
    moves: Vec<Move>,
}

impl Fitted {
    pub fn new(depth: u32, endgame: u32, never_swap: bool) -> Fitted {
        Fitted { depth, endgame, never_swap, cut: depth.max(1), moves: Vec::new() }
    }

    /// Plays the cheap evaluation's best move for `self.cut` placements (or to the end).
    fn play_out(&mut self, game: &mut Game, me: usize) {
        let mut left = self.cut;
        while !game.is_over() && left > 0 {
            if game.phase() != Phase::SwapOffer {
                left -= 1;
            }
            game.legal_moves(&mut self.moves);
            let never = self.never_swap && game.current_player() == me;
            let i = if self.moves.len() == 1 {
                0
            } else {
                let mut scorer = MoveScorer::new(game);
                let mut best = 0;
                let mut best_v = f64::NEG_INFINITY;
                for (j, m) in self.moves.iter().enumerate() {
                    if never && *m == Move::Swap {
                        continue;
                    }
                    let v = scorer.score_cached(m);
                    if v > best_v {
                        best_v = v;
                        best = j;
                    }
                }
                best
            };
            let mv = self.moves[i];
            game.play_unchecked(&mv);
        }
    }
}

impl Evaluator for Fitted {
    fn start(&mut self, root: &Game, _me: usize) {
        self.cut = if root.board().free_pairs() <= self.endgame as usize { u32::MAX } else { self.depth.max(1) };
    }

    #[inline]
    fn evaluate(&mut self, game: &mut Game, me: usize, _rng: &mut Rng) -> [f64; 4] {
        if !game.is_over() {
            self.play_out(game, me);
        }
        if game.is_over() {
            win_shares(game)
        } else {
            win_probabilities(game, me)
        }
    }
}

/// The `master` level's evaluation: the same short playouts as [`Fitted`], then the learned
/// evaluation's win probabilities (`learned`), or the exact result of a finished game.
pub struct Learned {
    playout: Fitted,
}

impl Learned {
    pub fn new(depth: u32, endgame: u32, never_swap: bool) -> Learned {
        Learned { playout: Fitted::new(depth, endgame, never_swap) }
    }
}

impl Evaluator for Learned {
    fn start(&mut self, root: &Game, me: usize) {
        self.playout.start(root, me);
    }

    #[inline]
    fn evaluate(&mut self, game: &mut Game, me: usize, _rng: &mut Rng) -> [f64; 4] {
        if !game.is_over() {
            self.playout.play_out(game, me);
        }
        if game.is_over() {
            win_shares(game)
        } else {
            learned::win_probabilities(game, me)
        }
    }
}

/// The levels' evaluators, chosen by `SearchConfig::evaluation` (one type, so that every
/// level is the same `SearchBot`).
pub enum Levels {
    Fitted(Fitted),
    Learned(Learned),
}

impl Levels {
    /// The evaluator of `evaluation` with a search config's `depth`, `endgame` and
    /// `never_swap` (given one by one: the seam knows nothing of the searches' configs).
    pub fn new(evaluation: Evaluation, depth: u32, endgame: u32, never_swap: bool) -> Levels {
        match evaluation {
            Evaluation::Fitted => Levels::Fitted(Fitted::new(depth, endgame, never_swap)),
            Evaluation::Learned => Levels::Learned(Learned::new(depth, endgame, never_swap)),
        }
    }
}

impl Evaluator for Levels {
    fn start(&mut self, root: &Game, me: usize) {
        match self {
            Levels::Fitted(e) => e.start(root, me),
            Levels::Learned(e) => e.start(root, me),
        }
    }

    #[inline]
    fn evaluate(&mut self, game: &mut Game, me: usize, rng: &mut Rng) -> [f64; 4] {
        match self {
            Levels::Fitted(e) => e.evaluate(game, me, rng),
            Levels::Learned(e) => e.evaluate(game, me, rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Config;

    #[test]
    fn playout_names_round_trip() {
        for p in [Playout::Random, Playout::Greedy, Playout::Sample(4)] {
            assert_eq!(Playout::parse(&p.name()), Some(p));
        }
        assert_eq!(Playout::parse("sample0"), None);
        assert_eq!(Playout::parse("best"), None);
    }

    #[test]
    fn values_lie_in_0_1_and_rank_values_follow_the_ranks() {
        let mut buf = Vec::new();
        for cfg in Config::all() {
            let mut g = crate::sim::random_game(cfg, 3, &mut buf);
            let v = rank_values(&g);
            let n = cfg.players();
            assert!(v[..n].iter().all(|x| (0.0..=1.0).contains(x)), "{v:?}");
            if n > 1 {
                let ranks = g.ranks();
                for p in 0..n {
                    for q in 0..n {
                        assert_eq!(ranks[p] < ranks[q], v[p] > v[q], "{cfg:?} {p} {q}");
                    }
                }
            } else {
                assert_eq!(v[0], g.result(0) as f64 / cfg.variant.track_max() as f64);
            }
            // A finished game is valued as it stands by both evaluators.
            let mut rng = Rng::new(1);
            let before = g;
            assert_eq!(Rollout::new(Playout::Greedy, 10).evaluate(&mut g, 0, &mut rng), v);
            assert_eq!(g, before);
            assert_eq!(Fitted::new(2, 12, false).evaluate(&mut g, 0, &mut rng), win_shares(&g));
        }
    }

    #[test]
    fn rollouts_play_their_depth_and_a_boxed_evaluator_is_the_same() {
        let root = Game::new(Config::standard(3).unwrap(), 5);
        let mut g = root;
        let mut rng = Rng::new(2);
        let v = Rollout::new(Playout::Random, 4).evaluate(&mut g, 0, &mut rng);
        assert_eq!(g.stats().placements, 4);
        let mut g2 = root;
        let mut boxed: Box<dyn Evaluator> = Box::new(Rollout::new(Playout::Random, 4));
        assert_eq!(boxed.evaluate(&mut g2, 0, &mut Rng::new(2)), v);
        assert_eq!(g, g2);
        // The levels' evaluation plays to the end in the endgame only.
        let mut f = Fitted::new(2, 0, false);
        f.start(&root, 0);
        let mut g3 = root;
        let p = f.evaluate(&mut g3, 0, &mut rng);
        assert_eq!(g3.stats().placements, 2);
        assert!((p[..3].iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let mut f = Fitted::new(2, u32::MAX, false);
        f.start(&root, 0);
        let mut g4 = root;
        f.evaluate(&mut g4, 0, &mut rng);
        assert!(g4.is_over());
    }
}

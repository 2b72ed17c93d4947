//! Reviewing a decision: what the levels' search thinks of the move a seat played, from
//! that seat's information set only.
//!
//! The search deals what the mover cannot see (other racks, the bag's order) anew in every
//! iteration, so a review never depends on the real hidden tiles: the same decision, seen
//! the same way by the mover, gets the same review whatever the others held.

use crate::bots::eval::win_probabilities;
use crate::bots::{Candidate, SearchBot, SearchConfig};
use crate::calibration::{self, ChanceMap};
use crate::game::Game;
use crate::moves::Move;
use crate::stop::Stop;
use std::sync::Arc;

/// How many standard errors of the loss its noise is: the loss's interval is the loss ±
/// `NOISE_Z` standard errors, about 99 % (a review makes some 40 verdicts a game: at 95 %,
/// two of them would be named a class higher by chance alone).
pub const NOISE_Z: f64 = 2.58;

/// What the search thinks of one decision.
///
/// The engine's choice is the first candidate of one search of the decision (exactly what
/// `analyse` with the same level, budget and seed shows). When the move played is another
/// one, the engine's first two choices and the move played are then searched side by side
/// over the same sampled deals (`SearchBot::compare`, common random numbers), each with
/// half the budget's iterations: the reference is the engine's choice, or its second choice
/// when that did better on those deals, the loss is the reference's value minus the move
/// played's, and its noise comes from the spread of their per-deal differences.
///
/// The chances shown come from the full search, through the level's chance map
/// (`calibration`): the mover's chance before the decision is its first candidate's, the
/// same number `analyse` shows, and the chance after another move is that less the
/// compared difference. The comparison gives the difference only: its own values run high
/// (the reference is the better of two noisy values), and a chance taken from it would
/// not agree with the analysis's.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionReview {
    /// Root candidates of the full search, best first, their values the shown chances.
    pub candidates: Vec<Candidate>,
    /// The reference: the full search's first candidate (the move played when forced), or
    /// its second when the comparison found that better.
    pub best: Move,
    /// The mover's win chance before the decision, which best play keeps: the full
    /// search's shown chance of its first candidate (the evaluation's when forced).
    pub best_value: f64,
    /// The mover's win chance after the move played: `best_value` less `difference`,
    /// within 0 and 1.
    pub played_value: f64,
    /// The reference's value minus the move played's over the same deals (negative: the
    /// move played did better there); 0 when the move played is the engine's choice or
    /// forced. The loss is this, when positive.
    pub difference: f64,
    /// Half the width of the loss's interval (`NOISE_Z` standard errors of the compared
    /// difference); 0 when the move played is the engine's choice or forced.
    pub noise: f64,
    /// Deals the comparison searched both moves on (0: no comparison).
    pub rounds: u32,
    /// Every seat's win chance before the decision, as the mover sees it: the mover's side
    /// gets `best_value`, the other sides share the rest in proportion to the evaluation's
    /// estimates.
    pub seats: [f64; 4],
    /// Legal moves at the decision (1: forced, nothing searched).
    pub legal: usize,
}

/// Reviews the decision in front of the player to move of `game`, who played `played`
/// (a legal move), searching with `seed` (the review's seed: every decision searches with
/// it, so its first candidate is what `analyse` with that seed shows), its values shown
/// through `map` (`calibration::chance_map` of the level). `stop` ends the searches early
/// (Ctrl-C).
pub fn review_decision(
    game: &Game,
    played: Move,
    config: SearchConfig,
    map: Option<ChanceMap>,
    seed: u64,
    stop: Option<Arc<Stop>>,
) -> DecisionReview {
    let mover = game.current_player();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let bot = || {
        let mut bot = SearchBot::new(config, seed);
        if let Some(s) = &stop {
            bot.set_stop(Arc::clone(s));
        }
        bot
    };
    let (candidates, best, best_value, difference, noise, rounds) = if moves.len() <= 1 {
        // Forced: nothing to choose, the evaluation's estimate stands for the search's.
        let v = win_probabilities(game, mover)[mover];
        (vec![Candidate { mv: played, visits: 0, value: v, prior: 0.0, line: Vec::new() }], played, v, 0.0, 0.0, 0)
    } else {
        let search = bot().analyse(game, &moves);
        let mut full = search.candidates;
        calibration::show(map, search.iterations, &mut full);
        let top = full[0].clone();
        if top.mv == played {
            (full, played, top.value, 0.0, 0.0, 0)
        } else {
            // The engine's first two choices and the move played, half the budget's
            // iterations each, on the same deals.
            let mut arms = vec![top.mv];
            arms.extend(full.iter().skip(1).map(|c| c.mv).find(|&m| m != played));
            arms.push(played);
            let p = arms.len() - 1;
            let rounds = (config.budget(game.config().players()).max(2) / 2).max(1);
            let c = bot().compare(game, &arms, rounds);
            let r = if p == 2 && c.values[1] > c.values[0] { 1 } else { 0 };
            (full, arms[r], top.value, c.values[r] - c.values[p], NOISE_Z * c.std_error(r, p), c.rounds)
        }
    };
    let played_value = (best_value - difference).clamp(0.0, 1.0);
    let seats = share(game, mover, best_value);
    DecisionReview { candidates, best, best_value, played_value, difference, noise, rounds, seats, legal: moves.len() }
}

/// Every seat's win chance when the mover's side has `mine`: the other sides share the
/// rest in proportion to the evaluation's estimates (partners share their team's).
pub fn share(game: &Game, mover: usize, mine: f64) -> [f64; 4] {
    let config = game.config();
    let n = config.players();
    let e = win_probabilities(game, mover);
    let me = config.side_of(mover);
    let mut others = 0.0;
    let mut counted = [false; 4];
    for (p, &ep) in e.iter().enumerate().take(n) {
        let s = config.side_of(p);
        if s != me && !counted[s] {
            counted[s] = true;
            others += ep;
        }
    }
    let sides = config.sides().max(1);
    let mut out = [0.0; 4];
    for (p, o) in out.iter_mut().enumerate().take(n) {
        *o = if config.side_of(p) == me {
            mine
        } else if others > 0.0 {
            (1.0 - mine) * e[p] / others
        } else {
            (1.0 - mine) / (sides - 1) as f64
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Config;

    fn small() -> SearchConfig {
        SearchConfig { iterations: 30, ..SearchConfig::default() }
    }

    #[test]
    fn a_review_does_not_depend_on_hidden_tiles_and_sides_share_one() {
        for cfg in Config::all() {
            let mut g = Game::new(cfg, 2);
            let mut moves = Vec::new();
            for i in 0..14 {
                g.legal_moves(&mut moves);
                g.play_unchecked(&moves[(i * 31) % moves.len()]);
            }
            g.legal_moves(&mut moves);
            let played = moves[moves.len() / 2];
            let me = g.current_player();
            let a = review_decision(&g, played, small(), None, 9, None);
            let b = review_decision(&g.determinize(me, 4), played, small(), None, 9, None);
            assert_eq!(a, b, "{cfg:?}");
            let sides: f64 =
                (0..cfg.sides()).map(|s| a.seats[(0..cfg.players()).find(|&p| cfg.side_of(p) == s).unwrap()]).sum();
            if cfg.players() > 1 {
                assert!((sides - 1.0).abs() < 1e-9, "{cfg:?} {:?}", a.seats);
            }
            assert!(a.candidates.iter().all(|c| g.check(&c.mv).is_ok()));
        }
    }

    /// A standard two-player game after `plies` moves picked by `step`, and its legal moves.
    fn played(seed: u64, plies: usize, step: usize) -> (Game, Vec<Move>) {
        let mut g = Game::new(Config::standard(2).unwrap(), seed);
        let mut moves = Vec::new();
        for i in 0..plies {
            g.legal_moves(&mut moves);
            g.play_unchecked(&moves[(i * step) % moves.len()]);
        }
        g.legal_moves(&mut moves);
        (g, moves)
    }

    #[test]
    fn the_engines_choice_has_no_loss_and_another_move_is_compared_on_the_same_deals() {
        let (g, mut moves) = played(3, 10, 17);
        let top = SearchBot::new(small(), 4).analyse(&g, &{
            g.legal_moves(&mut moves);
            moves.clone()
        });
        let r = review_decision(&g, top.candidates[0].mv, small(), None, 4, None);
        assert_eq!(
            (r.best, r.best_value, r.played_value, r.difference, r.noise),
            (top.candidates[0].mv, r.played_value, top.candidates[0].value, 0.0, 0.0)
        );
        assert_eq!(r.candidates, top.candidates);
        let other = *moves.iter().find(|m| **m != top.candidates[0].mv).unwrap();
        let r = review_decision(&g, other, small(), None, 4, None);
        assert!(top.candidates[..2].iter().any(|c| c.mv == r.best), "{:?}", r.best);
        assert_eq!(r.rounds, 15);
        assert!(r.noise >= 0.0 && (0.0..=1.0).contains(&r.best_value) && (0.0..=1.0).contains(&r.played_value));
        // The chance before is the search's first candidate's; after, that less the difference.
        assert_eq!(r.best_value, top.candidates[0].value);
        assert_eq!(r.played_value, (r.best_value - r.difference).clamp(0.0, 1.0));
        // The same move against itself: the same deals give the same value, no noise.
        let c = SearchBot::new(small(), 4).compare(&g, &[other, other], 20);
        assert_eq!((c.values[0], c.std_error(0, 1)), (c.values[1], 0.0));
    }

    #[test]
    fn the_map_shows_the_searchs_values_and_leaves_the_comparison_as_it_is() {
        let (g, moves) = played(5, 12, 13);
        let map = calibration::EXPERT_TWO_PLAYERS;
        let top = SearchBot::new(small(), 4).analyse(&g, &moves).candidates[0].mv;
        let other = *moves.iter().find(|m| **m != top).unwrap();
        for played in [top, other] {
            let raw = review_decision(&g, played, small(), None, 4, None);
            let shown = review_decision(&g, played, small(), Some(map), 4, None);
            let mapped: Vec<f64> = raw.candidates.iter().map(|c| map.apply(c.value, 30)).collect();
            assert_eq!(shown.candidates.iter().map(|c| c.value).collect::<Vec<_>>(), mapped);
            assert_ne!(shown.candidates[0].value, raw.candidates[0].value);
            // The chance before is the analysis's shown chance, mapped or not; the comparison
            // (the reference, the difference, its noise) does not depend on the map.
            assert_eq!((shown.best_value, raw.best_value), (mapped[0], raw.candidates[0].value));
            assert_eq!(
                (shown.best, shown.difference, shown.noise, shown.rounds),
                (raw.best, raw.difference, raw.noise, raw.rounds)
            );
            assert_eq!(shown.played_value, (mapped[0] - shown.difference).clamp(0.0, 1.0));
            assert_eq!(played == top, shown.difference == 0.0 && shown.rounds == 0);
            assert_eq!(shown.seats[g.current_player()], shown.best_value);
        }
    }
}

//! Reviewing a decision: what the levels' search thinks of the move a seat played, from
//! that seat's information set only.
//!
//! The search deals what the mover cannot see (other racks, the bag's order) anew in every
//! iteration, so a review never depends on the real hidden tiles: the same decision, seen
//! the same way by the mover, gets the same review whatever the others held.

use crate::bots::eval::win_probabilities;
use crate::bots::{Candidate, SearchBot, SearchConfig};
use crate::game::Game;
use crate::moves::Move;
use crate::rng::derive_seed;
use crate::stop::Stop;
use std::sync::Arc;

/// What the search thinks of one decision.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionReview {
    /// Root candidates of the full search, best first.
    pub candidates: Vec<Candidate>,
    /// The mover's win chance after the move played: the full search's estimate when the
    /// move is its best, else a search of that move alone with the same budget.
    pub played_value: f64,
    /// Every seat's win chance before the decision, as the mover sees it: the mover's side
    /// gets the search's best estimate, the other sides share the rest in proportion to the
    /// evaluation's estimates.
    pub seats: [f64; 4],
    /// Legal moves at the decision (1: forced, nothing searched).
    pub legal: usize,
}

/// The search seed of decision `ply` of a review with seed `seed` (one per decision, so a
/// decision's review does not depend on which others were reviewed).
pub fn decision_seed(seed: u64, ply: u64) -> u64 {
    derive_seed(seed ^ 0x7265_7669_6577, ply)
}

/// Reviews the decision in front of the player to move of `game`, who played `played`
/// (a legal move). `stop` ends the searches early (Ctrl-C).
pub fn review_decision(
    game: &Game,
    played: Move,
    config: SearchConfig,
    seed: u64,
    stop: Option<Arc<Stop>>,
) -> DecisionReview {
    let mover = game.current_player();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let search = |root: &[Move], salt: u64| {
        let mut bot = SearchBot::new(config, derive_seed(seed, salt));
        if let Some(s) = &stop {
            bot.set_stop(Arc::clone(s));
        }
        bot.analyse(game, root)
    };
    let (candidates, played_value) = if moves.len() <= 1 {
        // Forced: nothing to choose, the evaluation's estimate stands for the search's.
        let v = win_probabilities(game, mover)[mover];
        (vec![Candidate { mv: played, visits: 0, value: v, prior: 0.0, line: Vec::new() }], v)
    } else {
        let full = search(&moves, 0).candidates;
        let played_value = if full[0].mv == played { full[0].value } else { search(&[played], 1).candidates[0].value };
        (full, played_value)
    };
    let best = candidates[0].value.max(played_value);
    DecisionReview { seats: share(game, mover, best), played_value, candidates, legal: moves.len() }
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
            let a = review_decision(&g, played, small(), 9, None);
            let b = review_decision(&g.determinize(me, 4), played, small(), 9, None);
            assert_eq!(a, b, "{cfg:?}");
            let sides: f64 =
                (0..cfg.sides()).map(|s| a.seats[(0..cfg.players()).find(|&p| cfg.side_of(p) == s).unwrap()]).sum();
            if cfg.players() > 1 {
                assert!((sides - 1.0).abs() < 1e-9, "{cfg:?} {:?}", a.seats);
            }
            assert!(a.candidates.iter().all(|c| g.check(&c.mv).is_ok()));
        }
    }
}

//! One ply with the fitted evaluation (`eval`): every legal move is scored by the mover's
//! utility after it (cheap: markers, kept rack, bonuses), then the best few are played on a
//! determinized copy and re-ranked by the full evaluation, which also sees what the move
//! leaves open for the opponents. With a temperature it samples instead of maximising
//! (the `easy` level).

use super::eval::{win_probabilities, MoveScorer};
use super::scarcity::pick_best;
use super::Bot;
use crate::game::{Game, Phase};
use crate::moves::Move;
use crate::rng::Rng;

#[derive(Copy, Clone, Debug, PartialEq)]
pub struct OnePlyConfig {
    /// Candidates re-ranked by the full evaluation (0: the cheap score decides).
    pub rerank: u32,
    /// 0: the best move; above 0, moves are drawn with probability ∝ exp(score / temperature)
    /// over the cheap scores.
    pub temperature: f64,
    /// Decline every swap offer and never choose an `instead_of_placement` swap.
    pub never_swap: bool,
}

impl Default for OnePlyConfig {
    fn default() -> Self {
        OnePlyConfig { rerank: 6, temperature: 0.0, never_swap: false }
    }
}

pub struct OnePlyBot {
    config: OnePlyConfig,
    rng: Rng,
    scores: Vec<f64>,
    order: Vec<u32>,
}

impl OnePlyBot {
    pub fn new(config: OnePlyConfig, seed: u64) -> OnePlyBot {
        OnePlyBot { config, rng: Rng::new(seed), scores: Vec::new(), order: Vec::new() }
    }
}

impl Bot for OnePlyBot {
    fn choose(&mut self, game: &Game, moves: &[Move]) -> usize {
        if moves.len() == 1 {
            return 0;
        }
        let mut scorer = MoveScorer::new(game);
        self.scores.clear();
        for m in moves {
            let s = if self.config.never_swap && *m == Move::Swap { f64::NEG_INFINITY } else { scorer.score_cached(m) };
            self.scores.push(s);
        }
        if self.config.never_swap && game.phase() == Phase::SwapOffer {
            return moves.iter().position(|m| *m == Move::Keep).unwrap_or(0);
        }
        if self.config.temperature > 0.0 {
            let t = self.config.temperature;
            let m = self.scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let total: f64 = self.scores.iter().map(|s| ((s - m) / t).exp()).sum();
            let mut x = self.rng.unit() * total;
            for (i, s) in self.scores.iter().enumerate() {
                x -= ((s - m) / t).exp();
                if x <= 0.0 {
                    return i;
                }
            }
            return moves.len() - 1;
        }
        let k = self.config.rerank as usize;
        if k <= 1 || game.phase() == Phase::SwapOffer {
            return pick_best(&mut self.rng, &self.scores);
        }
        // The best k by the cheap score (ties at random), then the full evaluation on a copy
        // in which what the mover cannot see is dealt anew: playing a move draws tiles, and
        // the true bag must not decide anything.
        self.order.clear();
        self.order.extend(0..moves.len() as u32);
        let tie: Vec<u32> = (0..moves.len()).map(|_| self.rng.next_u64() as u32).collect();
        let scores = &self.scores;
        let by = |a: &u32, b: &u32| {
            scores[*b as usize].total_cmp(&scores[*a as usize]).then(tie[*b as usize].cmp(&tie[*a as usize]))
        };
        let k = k.min(moves.len());
        if k < moves.len() {
            self.order.select_nth_unstable_by(k - 1, by);
            self.order.truncate(k);
        }
        self.order.sort_unstable_by(by);
        let me = game.current_player();
        let base = game.determinize(me, self.rng.next_u64());
        let mut best = self.order[0] as usize;
        let mut best_v = f64::NEG_INFINITY;
        for &i in &self.order {
            // A declined swap (never_swap) scores −∞ and is never played.
            if self.scores[i as usize] == f64::NEG_INFINITY {
                continue;
            }
            let mut g = base;
            g.play_unchecked(&moves[i as usize]);
            let v = win_probabilities(&g, me)[me];
            if v > best_v {
                best_v = v;
                best = i as usize;
            }
        }
        best
    }

    fn name(&self) -> &'static str {
        "oneply"
    }
}

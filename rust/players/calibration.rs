//! What a shown win chance means: the map from the search's value of a candidate move to
//! the chance shown to people (the analysis, the hint, the review's candidates).
//!
//! The value of a move the search ranks first is the largest of several noisy means, so it
//! is biased upward; and the evaluation's chances are too timid near the ends (shown 0.15
//! won 0.04 of the time in two-player games). Measured against the results of thousands of
//! held-out games (BENCHMARKS.md, "Do shown win chances mean what they say?"), a Platt map
//! `σ(a·logit(p) + b)` fitted on 4,000 two-player games took the expected calibration error
//! of 2,000 games played after it from 0.041 to 0.025. It is applied only where it was
//! measured: the `expert` level's search in the standard two-player game. Elsewhere the
//! search's value is shown as it is (three and four players were within 0.03 unmapped).
//!
//! The upward bias shrinks as the search runs longer, like the noise of the means it is the
//! largest of (as 1/√iterations), so `b` is scaled by `√(fitted / iterations)` above the
//! budget it was fitted at: fitted alone at sixteen times the budget, so that the mean
//! mapped chance does not move from the default budget's, `b` came out at −0.071 (−0.060
//! and −0.082 on halves of the games), where the scaling gives −0.064. Below that budget
//! `b` is held (no measurement there to extrapolate from).
//!
//! The map is for the search's own candidate values. A review's comparison of two moves
//! over common deals gives only their difference (the loss), which the map never touches:
//! the chance after a move is the shown chance before it less that difference.

use crate::bots::Candidate;
use crate::variants::Config;

/// `σ(a·logit(p) + b·√(iterations / n))` for a search of `n ≥ iterations` iterations (`b`
/// as it is below): a monotone map of `[0, 1]` onto itself, fixing 0 and 1.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ChanceMap {
    pub a: f64,
    pub b: f64,
    /// The search's budget the map was fitted at.
    pub iterations: u32,
}

/// Fitted on the `expert` level's top-move chances of 4,000 two-player games (seeds
/// derived from 61000 and 71000, every fourth decision, 42,150 positions) against the
/// movers' results, at the expert's two-player budget.
pub const EXPERT_TWO_PLAYERS: ChanceMap = ChanceMap { a: 1.320, b: -0.255, iterations: 800 };

impl ChanceMap {
    /// The shown chance for the value `p` (a chance, clamped into `[0, 1]`) of a search of
    /// `iterations` iterations.
    pub fn apply(&self, p: f64, iterations: u32) -> f64 {
        if p.is_nan() {
            return p;
        }
        if p <= 0.0 {
            return 0.0;
        }
        if p >= 1.0 {
            return 1.0;
        }
        let z = self.a * (p / (1.0 - p)).ln() + self.bias(iterations);
        1.0 / (1.0 + (-z).exp())
    }

    /// `b` for a search of `iterations` iterations.
    pub fn bias(&self, iterations: u32) -> f64 {
        self.b * (self.iterations as f64 / iterations.max(self.iterations) as f64).sqrt()
    }
}

/// The map for the chances a search like `level` shows in a game of `rules`, or `None`
/// where the values are shown as they are (no map was measured there).
pub fn chance_map(level: &str, rules: &Config) -> Option<ChanceMap> {
    (level == "expert" && Config::standard(2).is_ok_and(|s| s == *rules)).then_some(EXPERT_TWO_PLAYERS)
}

/// The candidates' values, from a search of `iterations` iterations, replaced by the
/// chances shown for them (the order unchanged: the map is monotone, and candidates are
/// ranked by visits first).
pub fn show(map: Option<ChanceMap>, iterations: u32, candidates: &mut [Candidate]) {
    if let Some(map) = map {
        for c in candidates {
            c.value = map.apply(c.value, iterations);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_map_is_monotone_fixes_the_ends_and_corrects_the_measured_bias() {
        let m = EXPERT_TWO_PLAYERS;
        for n in [1, 800, 12_800, u32::MAX] {
            assert_eq!((m.apply(0.0, n), m.apply(1.0, n), m.apply(-0.1, n), m.apply(1.5, n)), (0.0, 1.0, 0.0, 1.0));
            let mut last = 0.0;
            for i in 1..1000 {
                let q = m.apply(i as f64 / 1000.0, n);
                assert!(q > last && q < 1.0, "{n} {i}: {q}");
                last = q;
            }
        }
        // What the fit was measured on (4,000 games, by bin of the value): a value of 0.554
        // won 0.516 of the time, 0.153 won 0.040, 0.846 won 0.891.
        for (value, won) in [(0.554, 0.516), (0.153, 0.040), (0.846, 0.891)] {
            assert!((m.apply(value, 800) - won).abs() < (value - won).abs(), "{value}: {}", m.apply(value, 800));
        }
        // The bias term: held below the fitted budget, a quarter of it at sixteen times.
        assert_eq!((m.bias(1), m.bias(800)), (m.b, m.b));
        assert!((m.bias(12_800) - m.b / 4.0).abs() < 1e-12);
        assert!(m.apply(0.55, 12_800) > m.apply(0.55, 800));
    }

    #[test]
    fn only_the_expert_search_of_the_standard_two_player_game_is_mapped() {
        let two = Config::standard(2).unwrap();
        assert_eq!(chance_map("expert", &two), Some(EXPERT_TWO_PLAYERS));
        for bot in crate::bots::catalogue::CATALOGUE.iter().filter(|b| b.name != "expert") {
            assert_eq!(chance_map(bot.name, &two), None, "{}", bot.name);
        }
        for cfg in Config::all() {
            if cfg != two {
                assert_eq!(chance_map("expert", &cfg), None, "{cfg:?}");
            }
        }
    }
}

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
//! The map is for the search's own candidate values, never for a comparison of two moves
//! over common deals (the review's losses): those take no maximum over noisy estimates and
//! were measured calibrated as they are.

use crate::bots::Candidate;
use crate::variants::Config;

/// `σ(a·logit(p) + b)`: a monotone map of `[0, 1]` onto itself, fixing 0 and 1.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ChanceMap {
    pub a: f64,
    pub b: f64,
}

/// Fitted on the `expert` level's top-move chances of 4,000 two-player games (seeds
/// derived from 61000 and 71000, every fourth decision, 42,150 positions) against the
/// movers' results.
pub const EXPERT_TWO_PLAYERS: ChanceMap = ChanceMap { a: 1.320, b: -0.255 };

impl ChanceMap {
    /// The shown chance for the search's value `p` (a chance, clamped into `[0, 1]`).
    pub fn apply(&self, p: f64) -> f64 {
        if p.is_nan() {
            return p;
        }
        if p <= 0.0 {
            return 0.0;
        }
        if p >= 1.0 {
            return 1.0;
        }
        let z = self.a * (p / (1.0 - p)).ln() + self.b;
        1.0 / (1.0 + (-z).exp())
    }
}

/// The map for the chances a search like `level` shows in a game of `rules`, or `None`
/// where the values are shown as they are (no map was measured there).
pub fn chance_map(level: &str, rules: &Config) -> Option<ChanceMap> {
    (level == "expert" && Config::standard(2).is_ok_and(|s| s == *rules)).then_some(EXPERT_TWO_PLAYERS)
}

/// The candidates' values replaced by the chances shown for them (the order unchanged: the
/// map is monotone, and candidates are ranked by visits first).
pub fn show(map: Option<ChanceMap>, candidates: &mut [Candidate]) {
    if let Some(map) = map {
        for c in candidates {
            c.value = map.apply(c.value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_map_is_monotone_fixes_the_ends_and_corrects_the_measured_bias() {
        let m = EXPERT_TWO_PLAYERS;
        assert_eq!((m.apply(0.0), m.apply(1.0), m.apply(-0.1), m.apply(1.5)), (0.0, 1.0, 0.0, 1.0));
        let mut last = 0.0;
        for i in 1..1000 {
            let q = m.apply(i as f64 / 1000.0);
            assert!(q > last && q < 1.0, "{i}: {q}");
            last = q;
        }
        // What the fit was measured on (4,000 games, by bin of the value): a value of 0.554
        // won 0.516 of the time, 0.153 won 0.040, 0.846 won 0.891.
        for (value, won) in [(0.554, 0.516), (0.153, 0.040), (0.846, 0.891)] {
            assert!((m.apply(value) - won).abs() < (value - won).abs(), "{value}: {}", m.apply(value));
        }
    }

    #[test]
    fn only_the_expert_search_of_the_standard_two_player_game_is_mapped() {
        let two = Config::standard(2).unwrap();
        assert_eq!(chance_map("expert", &two), Some(EXPERT_TWO_PLAYERS));
        for level in ["hard", "master", "easy"] {
            assert_eq!(chance_map(level, &two), None, "{level}");
        }
        for cfg in Config::all() {
            if cfg != two {
                assert_eq!(chance_map("expert", &cfg), None, "{cfg:?}");
            }
        }
    }
}

//! Named playing levels. Every level's budget is a number of iterations, not a time, so
//! that a level plays the same moves for the same seed on any machine (a `time_ms` option
//! exists, but then play depends on the machine's speed and load). The budgets were
//! calibrated on the reference machine (2 cores, BENCHMARKS.md) so that `expert` thinks at
//! most 50 ms per move (median) in 2- and 4-player games.

use super::catalogue::level_budget;
use super::{Evaluation, OnePlyConfig, Prior, SearchConfig};

/// What a level plays with.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum LevelKind {
    OnePly(OnePlyConfig),
    Search(SearchConfig),
}

/// The settings of a named level, or `None` for an unknown name (the levels' names,
/// descriptions, options and budgets are in the catalogue).
pub fn level(name: &str) -> Option<LevelKind> {
    // A searching level's budget by player count, from the catalogue.
    let budget = |name: &str| {
        let by_players = level_budget(name).expect("the catalogue gives every searching level a budget");
        SearchConfig { iterations: by_players[0], iterations_by_players: Some(by_players), ..SearchConfig::default() }
    };
    Some(match name {
        // Samples moves by the evaluation's cheap score: sensible, beatable.
        "easy" => LevelKind::OnePly(OnePlyConfig { rerank: 0, temperature: 0.15, never_swap: false }),
        // The evaluation's best move, one ply, its best few re-ranked by the full evaluation.
        "medium" => LevelKind::OnePly(OnePlyConfig::default()),
        "hard" => LevelKind::Search(budget("hard")),
        "expert" => LevelKind::Search(budget("expert")),
        // The expert's search with the learned policy ranking the root's moves, the learned
        // evaluation at its leaves, the exhaustive endgame and time management, within the
        // same time per move (BENCHMARKS.md).
        "master" => LevelKind::Search(SearchConfig {
            prior: Prior::Policy,
            evaluation: Evaluation::Learned,
            exact: 3,
            extend: 0.5,
            ..budget("master")
        }),
        _ => return None,
    })
}

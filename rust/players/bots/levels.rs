//! Named playing levels. Every level's budget is a number of iterations, not a time, so
//! that a level plays the same moves for the same seed on any machine (a `time_ms` option
//! exists, but then play depends on the machine's speed and load). The budgets were
//! calibrated on the reference machine (2 cores, BENCHMARKS.md) so that `expert` thinks at
//! most 50 ms per move (median) in 2- and 4-player games.

use super::{Evaluation, OnePlyConfig, Prior, SearchConfig};

/// What a level plays with.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum LevelKind {
    OnePly(OnePlyConfig),
    Search(SearchConfig),
}

/// How a named level plays, its budget aside, or `None` for an unknown name. The levels'
/// names, descriptions, options and budgets are in the catalogue, whose `catalogue::level`
/// gives a level with its budget (this module stays below the catalogue, which reads it).
pub fn settings(name: &str) -> Option<LevelKind> {
    Some(match name {
        // Samples moves by the evaluation's cheap score: sensible, beatable.
        "easy" => LevelKind::OnePly(OnePlyConfig { rerank: 0, temperature: 0.15, never_swap: false }),
        // The evaluation's best move, one ply, its best few re-ranked by the full evaluation.
        "medium" => LevelKind::OnePly(OnePlyConfig::default()),
        "hard" | "expert" => LevelKind::Search(SearchConfig::default()),
        // The expert's search with the learned policy ranking the root's moves, the learned
        // evaluation at its leaves, the exhaustive endgame and time management, within the
        // same time per move (BENCHMARKS.md).
        "master" => LevelKind::Search(SearchConfig {
            prior: Prior::Policy,
            evaluation: Evaluation::Learned,
            exact: 3,
            extend: 0.5,
            ..SearchConfig::default()
        }),
        _ => return None,
    })
}

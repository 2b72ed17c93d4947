//! What a decision's search saw, as the levels' search (`search`) and the exhaustive
//! endgame (`endgame`) both answer it: the root's moves with their visits, values, priors
//! and expected lines. Its own module, below both, so that neither answers in the other's
//! types.

use crate::moves::Move;

/// One root move as the search saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub mv: Move,
    pub visits: u32,
    /// Mean return of the mover after this move (its estimated win probability).
    pub value: f64,
    /// The evaluation's prior score of the move (higher is better).
    pub prior: f64,
    /// The most visited continuation after the move (the expected line of play).
    pub line: Vec<Move>,
}

/// Result of one search from the view of the seat to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub iterations: u32,
    pub nodes: u32,
    /// Root moves searched, best first (most visits, then value).
    pub candidates: Vec<Candidate>,
}

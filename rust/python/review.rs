//! Reviewing a played decision for Python (`genial.review`): the search from the mover's
//! view, GIL released, Ctrl-C honoured.

use super::analysis::{candidate_row, search_config, CandidateRow};
use super::game::PyGameState;
use super::interrupt;
use super::types::{extract_move, PyMove};
use crate::calibration::chance_map;
use crate::review::{review_decision as core_review_decision, NOISE_Z};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::Arc;

/// `(candidates, best, best_value, played_value, difference, noise, seats, legal)`: see
/// `crate::review::DecisionReview`.
type DecisionRow = (Vec<CandidateRow>, PyMove, f64, f64, f64, f64, Vec<f64>, usize);

/// Reviews the decision of the player to move of `state`, who played `played`: the
/// search's candidates (best first, with the chances shown for them), the engine's choice,
/// the mover's win chance before the decision (the first candidate's) and after the move
/// played, the reference's value minus the move played's over the same deals and the noise
/// of that difference, every seat's win chance before, and the number of legal moves. The
/// search uses `seed` as `analyse_state` does, so it is deterministic and agrees with it.
#[pyfunction]
#[pyo3(signature = (state, played, seed = 0, iterations = None, level_name = "expert"))]
fn review_decision(
    py: Python<'_>,
    state: &Bound<'_, PyGameState>,
    played: &Bound<'_, PyAny>,
    seed: u64,
    iterations: Option<u32>,
    level_name: &str,
) -> PyResult<DecisionRow> {
    let game = *state.borrow().game();
    let mv = extract_move(played)?;
    if game.is_over() {
        return Err(PyValueError::new_err("the game is over: there is no decision to review"));
    }
    game.check(&mv)?;
    let config = search_config(level_name, iterations, None)?;
    let map = chance_map(level_name, game.config());
    let (stop, raised) = interrupt::polling_stop();
    let flag = Arc::clone(&stop);
    let r =
        interrupt::here(py, &stop, &raised, move || core_review_decision(&game, mv, config, map, seed, Some(flag)))?;
    let n = game.config().players();
    Ok((
        r.candidates.into_iter().map(candidate_row).collect(),
        PyMove(r.best),
        r.best_value,
        r.played_value,
        r.difference,
        r.noise,
        r.seats[..n].to_vec(),
        r.legal,
    ))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(review_decision, m)?)?;
    m.add("REVIEW_NOISE_Z", NOISE_Z)?;
    Ok(())
}

//! Analysis and evaluation for Python: `analyse` (the levels' search from the view of the
//! seat to move, GIL released), the evaluation's features and win probabilities, and the
//! self-play data that `training/fit_eval.py` fits the evaluation to.

use super::bots::{check_turn, PyBuiltinBot};
use super::game::PyGameState;
use super::interrupt;
use super::rules::{config_of, PyRules};
use super::types::PyMove;
use crate::bots::catalogue::level;
use crate::bots::catalogue::{self, CATALOGUE};
use crate::bots::eval::{all_features, win_probabilities as core_win_probabilities, FEATURE_NAMES, NF, WEIGHTS};
use crate::bots::levels::LevelKind;
use crate::bots::training::self_play;
use crate::bots::{learned, learned_training};
use crate::bots::{Candidate, SearchBot, SearchConfig};
use crate::calibration::{self, show};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::Arc;

/// One root move: `(move, visits, win_probability, prior, line)`.
pub(super) type CandidateRow = (PyMove, u32, f64, f64, Vec<PyMove>);

/// The search's view of the decision of the seat to move: `(iterations, candidates)`,
/// candidates best first, their values the chances shown for them (`calibration`). The
/// search deals what the mover cannot see anew in every
/// iteration, so hidden racks never influence it.
#[pyfunction]
#[pyo3(signature = (state, seed = 0, iterations = None, time_ms = None, level_name = "expert", seat = None))]
fn analyse_state(
    py: Python<'_>,
    state: &Bound<'_, PyGameState>,
    seed: u64,
    iterations: Option<u32>,
    time_ms: Option<u32>,
    level_name: &str,
    seat: Option<usize>,
) -> PyResult<(u32, Vec<CandidateRow>)> {
    let game = *state.borrow().game();
    if game.is_over() {
        return Err(PyValueError::new_err("the game is over: there is no move to analyse"));
    }
    check_turn(&game, seat)?;
    let config = search_config(level_name, iterations, time_ms)?;
    // Stopped by Ctrl-C, like a searching bot's `choose`.
    let (stop, raised) = interrupt::polling_stop();
    let flag = Arc::clone(&stop);
    let analysis = interrupt::here(py, &stop, &raised, move || {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut bot = SearchBot::new(config, seed);
        bot.set_stop(flag);
        bot.analyse(&game, &moves)
    })?;
    let mut candidates = analysis.candidates;
    show(calibration::chance_map(level_name, game.config()), analysis.iterations, &mut candidates);
    let rows = candidates.into_iter().map(candidate_row).collect();
    Ok((analysis.iterations, rows))
}

/// `(a, b, iterations)` of the map `σ(a·logit(p) + b·√(iterations / n))` (for a search of
/// `n ≥ iterations` iterations; `b` as it is below) from the search's values to the
/// chances shown by a search like `level_name` in a game of `rules`, or `None` where they
/// are shown as they are (`calibration::chance_map`).
#[pyfunction]
fn chance_map(level_name: &str, rules: PyRef<'_, PyRules>) -> Option<(f64, f64, u32)> {
    calibration::chance_map(level_name, &rules.0).map(|m| (m.a, m.b, m.iterations))
}

/// A candidate as Python sees it.
pub(super) fn candidate_row(c: Candidate) -> CandidateRow {
    (PyMove(c.mv), c.visits, c.value, c.prior, c.line.into_iter().map(PyMove).collect())
}

/// The search settings of a searching level, with its budget replaced by `iterations`
/// and/or `time_ms` when given.
pub(super) fn search_config(level_name: &str, iterations: Option<u32>, time_ms: Option<u32>) -> PyResult<SearchConfig> {
    let mut config = match level(level_name) {
        Some(LevelKind::Search(c)) => c,
        _ => {
            let searching: Vec<&str> = CATALOGUE.iter().filter(|e| e.level && e.searches).map(|e| e.name).collect();
            return Err(PyValueError::new_err(format!(
                "analysis searches like a searching level ({}), not {level_name:?}",
                searching.join(" or ")
            )));
        }
    };
    match (iterations, time_ms) {
        (None, None) => {}
        (i, Some(t)) => {
            config.time_ms = t;
            config.iterations = i.unwrap_or(0);
        }
        (Some(i), None) => config.iterations = i,
    }
    if iterations.is_some() || time_ms.is_some() {
        config.iterations_by_players = None;
    }
    config.validate().map_err(PyValueError::new_err)?;
    Ok(config)
}

/// The evaluation's feature rows of every seat as `observer` sees the position
/// (players × features, float64).
#[pyfunction]
fn eval_features<'py>(py: Python<'py>, state: &Bound<'_, PyGameState>, observer: usize) -> PyResult<Bound<'py, PyAny>> {
    let game = *state.borrow().game();
    let n = game.config().players();
    if observer >= n {
        return Err(PyValueError::new_err(format!("observer {observer} is not a seat of a {n}-player game")));
    }
    let mut f = [[0.0; NF]; 4];
    all_features(&game, observer, &mut f);
    let flat: Vec<f64> = f[..n].iter().flatten().copied().collect();
    Ok(PyArray1::from_vec(py, flat).reshape([n, NF])?.into_any())
}

/// Each seat's win probability as `observer` sees the position (team game: the team's).
#[pyfunction]
fn win_probabilities(state: &Bound<'_, PyGameState>, observer: usize) -> PyResult<Vec<f64>> {
    let game = *state.borrow().game();
    let n = game.config().players();
    if observer >= n {
        return Err(PyValueError::new_err(format!("observer {observer} is not a seat of a {n}-player game")));
    }
    Ok(core_win_probabilities(&game, observer)[..n].to_vec())
}

/// `(feature names, weights per player count 2, 3, 4)` of the evaluation.
#[pyfunction]
fn eval_weights() -> (Vec<&'static str>, Vec<Vec<f64>>) {
    (FEATURE_NAMES.to_vec(), WEIGHTS.iter().map(|w| w.to_vec()).collect())
}

/// Self-play positions: `(features[positions, players, NF], outcome[positions, players],
/// game[positions])`. Seat `s` of game `g` is played by `bots[(g + s) % len(bots)]`.
#[pyfunction]
#[pyo3(signature = (players, bots, seed, first_game, games, keep, threads, variant = "standard"))]
#[allow(clippy::too_many_arguments)]
fn self_play_positions<'py>(
    py: Python<'py>,
    players: i64,
    bots: Vec<PyRef<'py, PyBuiltinBot>>,
    seed: u64,
    first_game: u64,
    games: usize,
    keep: f64,
    threads: usize,
    variant: &str,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let config = config_of(players, variant)?;
    let specs: Vec<_> = bots.iter().map(|b| b.spec).collect();
    let n = config.players();
    let pos = py
        .detach(|| self_play(config, &specs, seed, first_game, games, keep, threads))
        .map_err(PyRuntimeError::new_err)?;
    let m = pos.features.len();
    let feats: Vec<f64> = pos.features.iter().flat_map(|f| f[..n].iter().flatten().copied()).collect();
    let outcome: Vec<f64> = pos.outcome.iter().flat_map(|o| o[..n].iter().copied()).collect();
    Ok((
        PyArray1::from_vec(py, feats).reshape([m, n, NF])?.into_any(),
        PyArray1::from_vec(py, outcome).reshape([m, n])?.into_any(),
        PyArray1::from_vec(py, pos.game).into_any(),
    ))
}

/// Each seat's win probability by the learned evaluation (the `master` level's), as
/// `observer` sees the position: other racks enter only as tiles `observer` has not seen.
#[pyfunction]
fn evaluate_state(state: &Bound<'_, PyGameState>, observer: usize) -> PyResult<Vec<f64>> {
    let game = *state.borrow().game();
    let n = game.config().players();
    if observer >= n {
        return Err(PyValueError::new_err(format!("observer {observer} is not a seat of a {n}-player game")));
    }
    Ok(learned::win_probabilities(&game, observer)[..n].to_vec())
}

/// `(version, FNV-1a 64 checksum, weight count)` of the shipped learned weights.
#[pyfunction]
fn evaluation_weights_info() -> (u32, u64, usize) {
    (learned::WEIGHTS_VERSION, learned::checksum(), learned::shipped().0.len())
}

/// One point of a learning curve: `(players, games, held-out loss)`.
type CurveRow = (usize, usize, f64);

/// Trains the learned evaluation by self-play: `(weight file bytes, curve)`, the curve as
/// `(players, games, held-out loss)` rows. `teachers`: the bots whose games it learns from
/// (specs; empty: the one-ply mixture); `start`: a weight file to go on from (`None`: from
/// zero); `values`: learn the teachers' root values instead of the results (the teachers
/// must search). Ctrl-C stops it (between rounds).
#[pyfunction]
#[pyo3(signature = (games, round, holdout, keep, rate, lambda_, seed, players, threads, teachers=Vec::new(), start=None, values=false))]
#[allow(clippy::too_many_arguments)]
fn train_evaluation<'py>(
    py: Python<'py>,
    games: usize,
    round: usize,
    holdout: usize,
    keep: f64,
    rate: f64,
    lambda_: f64,
    seed: u64,
    players: Vec<usize>,
    threads: usize,
    teachers: Vec<String>,
    start: Option<&[u8]>,
    values: bool,
) -> PyResult<(Bound<'py, PyBytes>, Vec<CurveRow>)> {
    let teachers = teachers
        .iter()
        .map(|t| catalogue::parse(t).map_err(|e| PyValueError::new_err(format!("teachers: {e}"))))
        .collect::<PyResult<Vec<_>>>()?;
    let start = start
        .map(|b| learned::Weights::from_bytes(b).map_err(|e| PyValueError::new_err(format!("start weights: {e}"))))
        .transpose()?;
    let tc = learned_training::TrainConfig {
        games,
        round,
        holdout,
        keep,
        rate,
        lambda: lambda_,
        seed,
        players,
        threads,
        teachers,
        start,
        values,
    };
    tc.validate().map_err(PyValueError::new_err)?;
    // Ctrl-C ends the training after the round under way.
    let (stop, raised) = interrupt::polling_stop();
    let out = interrupt::here(py, &stop, &raised, || learned_training::train(&tc, |_| !stop.is_set()))?;
    let (w, curve) = out.map_err(PyRuntimeError::new_err)?;
    let rows = curve.iter().map(|c| (c.players, c.games, c.holdout_loss)).collect();
    Ok((PyBytes::new(py, &w.to_bytes()), rows))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(evaluate_state, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation_weights_info, m)?)?;
    m.add_function(wrap_pyfunction!(train_evaluation, m)?)?;
    m.add_function(wrap_pyfunction!(analyse_state, m)?)?;
    m.add_function(wrap_pyfunction!(chance_map, m)?)?;
    m.add_function(wrap_pyfunction!(eval_features, m)?)?;
    m.add_function(wrap_pyfunction!(win_probabilities, m)?)?;
    m.add_function(wrap_pyfunction!(eval_weights, m)?)?;
    m.add_function(wrap_pyfunction!(self_play_positions, m)?)?;
    Ok(())
}

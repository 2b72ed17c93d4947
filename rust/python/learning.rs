//! Expert iteration for Python: search self-play data (visit counts, root values, results)
//! and the learned policy's features, logits and weights.

use super::bots::PyBuiltinBot;
use super::game::PyGameState;
use super::interrupt;
use super::rules::config_of;
use super::types::PyMove;
use crate::bots::levels::LevelKind;
use crate::bots::policy::{self, MoveFeatures, Policy, FEATURE_NAMES, PF};
use crate::bots::search_targets::SelfPlay;
use crate::bots::BotSpec;
use crate::stop::Stop;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::sync::Arc;

/// Search self-play: games `first_game..first_game + games` dealt from `seed`, every seat
/// played by the searching level `bot`. Returns a dict of numpy arrays: per recorded move
/// `features` (rows × PF), `decision`, `visits`; per decision `value`, `result`, `game`,
/// `legal`. Ctrl-C stops it (the games under way are dropped, the exception raised).
#[pyfunction]
#[pyo3(signature = (bot, seed, first_game, games, extra, threads, players = 2, variant = "standard"))]
#[allow(clippy::too_many_arguments)]
fn search_self_play<'py>(
    py: Python<'py>,
    bot: PyRef<'py, PyBuiltinBot>,
    seed: u64,
    first_game: u64,
    games: usize,
    extra: usize,
    threads: usize,
    players: i64,
    variant: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let config = config_of(players, variant)?;
    let BotSpec::Level(_, LevelKind::Search(search)) = bot.spec else {
        return Err(PyValueError::new_err(format!(
            "search self-play needs a searching level (hard, expert, master), not {}",
            bot.spec.name()
        )));
    };
    if threads == 0 {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start {threads} threads: {e}")))?;
    let stop = Arc::new(Stop::new());
    let (out, raised) = interrupt::on_pool(py, &pool, &stop, None, || {
        SelfPlay { config, search, seed, extra }.play(first_game, games, &pool, &stop)
    })?;
    if let Some(e) = raised {
        return Err(e);
    }
    let t =
        out.map_err(PyValueError::new_err)?.ok_or_else(|| PyRuntimeError::new_err("search self-play was stopped"))?;
    let rows = t.decision.len();
    let d = PyDict::new(py);
    d.set_item("features", PyArray1::from_vec(py, t.features).reshape([rows, PF])?)?;
    d.set_item("decision", PyArray1::from_vec(py, t.decision))?;
    d.set_item("visits", PyArray1::from_vec(py, t.visits))?;
    d.set_item("value", PyArray1::from_vec(py, t.value))?;
    d.set_item("result", PyArray1::from_vec(py, t.result))?;
    d.set_item("game", PyArray1::from_vec(py, t.game))?;
    d.set_item("legal", PyArray1::from_vec(py, t.legal))?;
    Ok(d)
}

/// The legal moves of the seat to move and their policy features (moves × PF, float32).
#[pyfunction]
fn policy_features<'py>(py: Python<'py>, state: &Bound<'_, PyGameState>) -> PyResult<(Vec<PyMove>, Bound<'py, PyAny>)> {
    let game = *state.borrow().game();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let features = MoveFeatures::new(&game);
    let mut x = [0.0f32; PF];
    let mut flat = Vec::with_capacity(moves.len() * PF);
    for m in &moves {
        features.of(m, &mut x);
        flat.extend_from_slice(&x);
    }
    let n = moves.len();
    Ok((moves.into_iter().map(PyMove).collect(), PyArray1::from_vec(py, flat).reshape([n, PF])?.into_any()))
}

/// The active policy's logits of the legal moves of the seat to move, in `legal_moves` order.
#[pyfunction]
fn policy_logits<'py>(py: Python<'py>, state: &Bound<'_, PyGameState>) -> Bound<'py, PyArray1<f32>> {
    let game = *state.borrow().game();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut out = Vec::new();
    policy::active().logits(&game, &moves, &mut out);
    PyArray1::from_vec(py, out)
}

/// `(feature names, version, FNV-1a 64 checksum of the shipped files, hidden units of the
/// two-player network)`.
#[pyfunction]
fn policy_info() -> (Vec<&'static str>, u32, u64, usize) {
    (FEATURE_NAMES.to_vec(), policy::WEIGHTS_VERSION, policy::checksum(), policy::shipped().for_table(2).hidden())
}

/// The shipped policy weight file of the network for `players` players.
#[pyfunction]
#[pyo3(signature = (players = 2))]
fn policy_shipped_weights(py: Python<'_>, players: usize) -> PyResult<Bound<'_, PyBytes>> {
    let file = policy::shipped_file(players)
        .ok_or_else(|| PyValueError::new_err(format!("no shipped policy network learned {players}-player games")))?;
    Ok(PyBytes::new(py, file))
}

/// Puts the policy weight file `data` in use for this process at the table sizes it
/// learned, the shipped networks staying at the others (`None`: the shipped weights
/// everywhere); a malformed file raises ValueError and changes nothing.
#[pyfunction]
#[pyo3(signature = (data = None))]
fn use_policy_weights(data: Option<&[u8]>) -> PyResult<()> {
    let weights = data.map(Policy::from_bytes).transpose().map_err(PyValueError::new_err)?;
    policy::set_active(weights);
    Ok(())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(search_self_play, m)?)?;
    m.add_function(wrap_pyfunction!(policy_features, m)?)?;
    m.add_function(wrap_pyfunction!(policy_logits, m)?)?;
    m.add_function(wrap_pyfunction!(policy_info, m)?)?;
    m.add_function(wrap_pyfunction!(policy_shipped_weights, m)?)?;
    m.add_function(wrap_pyfunction!(use_policy_weights, m)?)?;
    Ok(())
}

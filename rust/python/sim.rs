//! Many games at once for Python: `simulate_games` plays a range of games in Rust over a
//! thread pool with the GIL released and returns columnar numpy arrays.

use super::bots::PyBuiltinBot;
use super::game::config_from;
use crate::rng::derive_seed as core_derive_seed;
use crate::sim::{bot_seed as core_bot_seed, GameResult, Run};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The seed of game number `index` of a run started from `base` (independent of threads).
#[pyfunction]
fn derive_seed(base: u64, index: u64) -> u64 {
    core_derive_seed(base, index)
}

/// The seed of the bot in `seat` of a game dealt from `game_seed`.
#[pyfunction]
fn bot_seed(game_seed: u64, seat: usize) -> u64 {
    core_bot_seed(game_seed, seat)
}

fn column<'py, T: numpy::Element, const N: usize>(
    py: Python<'py>,
    out: &Bound<'py, PyDict>,
    name: &str,
    data: Vec<T>,
    shape: [usize; N],
) -> PyResult<()>
where
    [usize; N]: numpy::ndarray::IntoDimension,
{
    let a = PyArray1::from_vec(py, data);
    out.set_item(name, a.reshape(shape)?)
}

/// Games `first_game .. first_game + games` of a run: seat `s` of game `g` is played by
/// `bots[lineups[g % len(lineups)][s]]`; the deal comes from `derive_seed(seed, g)` (with
/// `paired`, from `derive_seed(seed, g // len(lineups))`). Returns a dict of numpy arrays.
#[pyfunction]
#[pyo3(signature = (players, variant, swap_timing, require_contact, bots, lineups, seed, paired, first_game, games, threads))]
#[allow(clippy::too_many_arguments)]
fn simulate_games<'py>(
    py: Python<'py>,
    players: i64,
    variant: &str,
    swap_timing: &str,
    require_contact: bool,
    bots: Vec<PyRef<'py, PyBuiltinBot>>,
    lineups: Vec<Vec<u8>>,
    seed: u64,
    paired: bool,
    first_game: u64,
    games: usize,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let config = config_from(players, variant, swap_timing, require_contact)?;
    let n = config.players();
    let mut lines = Vec::with_capacity(lineups.len());
    for l in &lineups {
        if l.len() != n {
            return Err(PyValueError::new_err(format!("a lineup names {} bots for {n} seats", l.len())));
        }
        let mut a = [0u8; 4];
        a[..n].copy_from_slice(l);
        lines.push(a);
    }
    let run = Run { config, bots: bots.iter().map(|b| b.spec).collect(), lineups: lines, seed, paired };
    run.validate().map_err(PyValueError::new_err)?;
    let results: Vec<GameResult> =
        py.detach(|| run.simulate(first_game, games, threads)).map_err(PyRuntimeError::new_err)?;

    let tracks = config.variant.track_count(n);
    let mut seeds = Vec::with_capacity(games);
    let mut scores = Vec::with_capacity(games * n * 6);
    let mut track_values = Vec::with_capacity(games * tracks * 6);
    let mut ranks = Vec::with_capacity(games * n);
    let mut lineup = Vec::with_capacity(games * n);
    let (mut placements, mut bonus, mut lost, mut swaps, mut turns, mut end) = (
        Vec::with_capacity(games),
        Vec::with_capacity(games),
        Vec::with_capacity(games),
        Vec::with_capacity(games),
        Vec::with_capacity(games),
        Vec::with_capacity(games),
    );
    for r in &results {
        seeds.push(r.seed);
        for p in 0..n {
            scores.extend_from_slice(&r.scores[p]);
        }
        for t in 0..tracks {
            track_values.extend_from_slice(&r.tracks[t]);
        }
        ranks.extend_from_slice(&r.ranks[..n]);
        lineup.extend_from_slice(&r.lineup[..n]);
        placements.push(r.placements);
        bonus.push(r.bonus_placements);
        lost.push(r.bonuses_lost);
        swaps.push(r.swaps);
        turns.push(r.turns);
        end.push(r.end);
    }
    drop(results);
    let out = PyDict::new(py);
    column(py, &out, "seed", seeds, [games])?;
    column(py, &out, "scores", scores, [games, n, 6])?;
    column(py, &out, "tracks", track_values, [games, tracks, 6])?;
    column(py, &out, "ranks", ranks, [games, n])?;
    column(py, &out, "bots", lineup, [games, n])?;
    column(py, &out, "placements", placements, [games])?;
    column(py, &out, "bonus_placements", bonus, [games])?;
    column(py, &out, "bonuses_lost", lost, [games])?;
    column(py, &out, "swaps", swaps, [games])?;
    column(py, &out, "turns", turns, [games])?;
    column(py, &out, "end", end, [games])?;
    Ok(out)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(simulate_games, m)?)?;
    m.add_function(wrap_pyfunction!(derive_seed, m)?)?;
    m.add_function(wrap_pyfunction!(bot_seed, m)?)?;
    Ok(())
}

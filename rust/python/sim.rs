//! Many games at once for Python: `simulate_games` plays a range of games in Rust over a
//! thread pool with the GIL released (stopped by Ctrl-C) and returns columnar numpy arrays.

use super::bots::PyBuiltinBot;
use super::convert::{extract_int_in, Text};
use super::game::config_from;
use super::interrupt;
use crate::rng::derive_seed as core_derive_seed;
use crate::sim::{bot_seed as core_bot_seed, GameResult, Run, MAX_THREADS};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

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

/// A run's per-game columns, reserved in full before any game is played (`MemoryError`
/// then, not an abort later) and filled chunk by chunk.
struct Columns {
    players: usize,
    tracks: usize,
    seeds: Vec<u64>,
    scores: Vec<i8>,
    track_values: Vec<i8>,
    ranks: Vec<u8>,
    lineup: Vec<u8>,
    placements: Vec<u16>,
    bonus: Vec<u16>,
    lost: Vec<u16>,
    swaps: Vec<u16>,
    turns: Vec<u16>,
    end: Vec<u8>,
}

fn reserved<T>(n: Option<usize>) -> PyResult<Vec<T>> {
    let mut v = Vec::new();
    let n = n.ok_or_else(|| PyMemoryError::new_err("the results of this many games do not fit in memory"))?;
    v.try_reserve_exact(n).map_err(|_| {
        PyMemoryError::new_err(format!(
            "cannot reserve memory for the results ({n} entries of {} bytes): play fewer games per call",
            std::mem::size_of::<T>()
        ))
    })?;
    Ok(v)
}

impl Columns {
    fn new(games: usize, players: usize, tracks: usize) -> PyResult<Columns> {
        let per = |k: usize| games.checked_mul(k);
        Ok(Columns {
            players,
            tracks,
            seeds: reserved(per(1))?,
            scores: reserved(per(players * 6))?,
            track_values: reserved(per(tracks * 6))?,
            ranks: reserved(per(players))?,
            lineup: reserved(per(players))?,
            placements: reserved(per(1))?,
            bonus: reserved(per(1))?,
            lost: reserved(per(1))?,
            swaps: reserved(per(1))?,
            turns: reserved(per(1))?,
            end: reserved(per(1))?,
        })
    }

    fn push(&mut self, results: &[GameResult]) {
        let n = self.players;
        for r in results {
            self.seeds.push(r.seed);
            for p in 0..n {
                self.scores.extend_from_slice(&r.scores[p]);
            }
            for t in 0..self.tracks {
                self.track_values.extend_from_slice(&r.tracks[t]);
            }
            self.ranks.extend_from_slice(&r.ranks[..n]);
            self.lineup.extend_from_slice(&r.lineup[..n]);
            self.placements.push(r.placements);
            self.bonus.push(r.bonus_placements);
            self.lost.push(r.bonuses_lost);
            self.swaps.push(r.swaps);
            self.turns.push(r.turns);
            self.end.push(r.end);
        }
    }

    fn into_dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let (games, n, tracks) = (self.seeds.len(), self.players, self.tracks);
        let out = PyDict::new(py);
        column(py, &out, "seed", self.seeds, [games])?;
        column(py, &out, "scores", self.scores, [games, n, 6])?;
        column(py, &out, "tracks", self.track_values, [games, tracks, 6])?;
        column(py, &out, "ranks", self.ranks, [games, n])?;
        column(py, &out, "bots", self.lineup, [games, n])?;
        column(py, &out, "placements", self.placements, [games])?;
        column(py, &out, "bonus_placements", self.bonus, [games])?;
        column(py, &out, "bonuses_lost", self.lost, [games])?;
        column(py, &out, "swaps", self.swaps, [games])?;
        column(py, &out, "turns", self.turns, [games])?;
        column(py, &out, "end", self.end, [games])?;
        Ok(out)
    }
}

/// Most games of one call (the results are held in memory; split bigger runs into seed
/// ranges with `first_game`, as `genial simulate` does).
pub const MAX_GAMES: u64 = (1 << 32) - 1;

/// Games `first_game .. first_game + games` of a run: seat `s` of game `g` is played by
/// `bots[lineups[g % len(lineups)][s]]`; the deal comes from `derive_seed(seed, g)` (with
/// `paired`, from `derive_seed(seed, g // len(lineups))`). Returns a dict of numpy arrays.
///
/// Runs on a worker thread (GIL released) that Ctrl-C stops within a fraction of a
/// second: the `KeyboardInterrupt` (or a signal handler's exception) is raised here.
#[pyfunction]
#[pyo3(signature = (players, variant, swap_timing, require_contact, bots, lineups, seed, paired, first_game, games, threads))]
#[allow(clippy::too_many_arguments)]
fn simulate_games<'py>(
    py: Python<'py>,
    players: i64,
    variant: Text,
    swap_timing: Text,
    require_contact: bool,
    bots: Vec<PyRef<'py, PyBuiltinBot>>,
    lineups: Vec<Vec<u8>>,
    seed: u64,
    paired: bool,
    first_game: u64,
    games: &Bound<'py, PyAny>,
    threads: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let config = config_from(players, &variant, &swap_timing, require_contact)?;
    let games = extract_int_in(games, "games", 0, MAX_GAMES as i64, &format!("0..{MAX_GAMES} per call"))? as usize;
    let threads =
        extract_int_in(threads, "threads", 0, MAX_THREADS as i64, &format!("1..{MAX_THREADS} (or 0: one per core)"))?
            as usize;
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
    if first_game.checked_add(games as u64).is_none() {
        return Err(PyValueError::new_err("game numbers overflow 2**64: first_game + games must be below 2**64"));
    }
    let mut columns = Columns::new(games, n, config.variant.track_count(n))?;
    let stop = Arc::new(AtomicBool::new(false));
    let finished = interrupt::run(py, &stop, || {
        run.simulate_chunks(first_game, games, threads, Some(&stop), |part| columns.push(part))
    })?
    .map_err(PyRuntimeError::new_err)?;
    if !finished {
        // Stopped without a signal handler raising (cannot happen: only `run` sets `stop`).
        return Err(PyRuntimeError::new_err("the simulation was stopped"));
    }
    columns.into_dict(py)
}

/// The limits every count is checked against, by name.
#[pyfunction]
fn limits() -> Vec<(&'static str, u64)> {
    vec![
        ("games", MAX_GAMES),
        ("threads", MAX_THREADS as u64),
        ("envs", crate::vecenv::MAX_ENVS as u64),
        ("iterations", crate::bots::MAX_ITERATIONS as u64),
        ("time_ms", crate::bots::MAX_TIME_MS as u64),
        ("width", crate::bots::MAX_WIDTH as u64),
        ("depth", crate::bots::MAX_DEPTH as u64),
        ("bots", 255),
    ]
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(simulate_games, m)?)?;
    m.add_function(wrap_pyfunction!(derive_seed, m)?)?;
    m.add_function(wrap_pyfunction!(bot_seed, m)?)?;
    m.add_function(wrap_pyfunction!(limits, m)?)?;
    Ok(())
}

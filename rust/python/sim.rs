//! Many games at once for Python: a `Run` (rules, bots, seatings, seed) owns the one run
//! loop, its seeding, its chunking policy and the result columns. `Run.play` plays a range
//! of games in Rust over a thread pool with the GIL released, reporting progress and stopped
//! by Ctrl-C (keeping every finished game); `Run.record` turns games played elsewhere (by
//! Python bots) into the same columns.

use super::bots::PyBuiltinBot;
use super::convert::extract_int_in;
use super::game::PyGameState;
use super::interrupt::{self, Progress};
use super::rules::PyRules;
use crate::rng::derive_seed as core_derive_seed;
use crate::sim::{
    bot_seed as core_bot_seed, forfeit_ranks as core_forfeit_ranks, pool, GameResult, Run, END_NAMES, MAX_THREADS,
};
use crate::stop::Stop;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::AtomicU64;
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
    games: Vec<u64>,
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
            games: reserved(per(1))?,
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
            self.games.push(r.game);
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
        column(py, &out, "game_index", self.games, [games])?;
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

/// The result columns, in order (each a numpy array with one row per game).
pub const COLUMNS: [&str; 12] = [
    "game_index",
    "seed",
    "scores",
    "tracks",
    "ranks",
    "bots",
    "placements",
    "bonus_placements",
    "bonuses_lost",
    "swaps",
    "turns",
    "end",
];

/// Most games of one call (the results are held in memory; split bigger runs into seed
/// ranges with `first_game`, as `genial simulate` does).
pub const MAX_GAMES: u64 = (1 << 32) - 1;

/// A run: the rules, the built-in bots, the seatings and the seed. Game `g` is dealt from
/// `derive_seed(seed, g)` (with `paired`, from `derive_seed(seed, g // len(lineups))`), seat
/// `s` played by `bots[lineups[g % len(lineups)][s]]` seeded with `bot_seed(deal, s)`.
#[pyclass(name = "Run", module = "genial._core", frozen)]
pub struct PyRun {
    run: Run,
}

#[pymethods]
impl PyRun {
    #[new]
    #[pyo3(signature = (rules, bots, lineups, seed, paired = false))]
    fn new(
        rules: PyRef<'_, PyRules>,
        bots: Vec<PyRef<'_, PyBuiltinBot>>,
        lineups: Vec<Vec<u8>>,
        seed: u64,
        paired: bool,
    ) -> PyResult<Self> {
        let n = rules.0.players();
        let mut lines = Vec::with_capacity(lineups.len());
        for l in &lineups {
            if l.len() != n {
                return Err(PyValueError::new_err(format!("a lineup names {} bots for {n} seats", l.len())));
            }
            let mut a = [0u8; 4];
            a[..n].copy_from_slice(l);
            lines.push(a);
        }
        let run = Run { config: rules.0, bots: bots.iter().map(|b| b.spec).collect(), lineups: lines, seed, paired };
        run.validate().map_err(PyValueError::new_err)?;
        Ok(PyRun { run })
    }

    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(self.run.config)
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.run.seed
    }
    #[getter]
    fn paired(&self) -> bool {
        self.run.paired
    }
    #[getter]
    fn lineups(&self) -> Vec<Vec<usize>> {
        let n = self.run.config.players();
        self.run.lineups.iter().map(|l| l[..n].iter().map(|&b| b as usize).collect()).collect()
    }

    /// Whether some bot searches (milliseconds or more a move).
    fn searches(&self) -> bool {
        self.run.searches()
    }

    /// How many of `games` games to play, hold and write at a time (the one chunking policy).
    fn chunk_size(&self, games: u64) -> usize {
        self.run.chunk_size(games)
    }

    /// The deal of game number `game` and its seating: `(seed, lineup)`.
    fn deal(&self, game: u64) -> (u64, Vec<usize>) {
        let (seed, lineup) = self.run.deal(game);
        (seed, lineup[..self.run.config.players()].iter().map(|&b| b as usize).collect())
    }

    /// Plays games `first_game .. first_game + games` on `threads` threads (0: one per
    /// core; when one thread is enough for the games, the calling thread: no thread is
    /// started), with the GIL released; `progress(done, total)` is called every 200 ms
    /// meanwhile. Returns `(columns, raised)`: a dict of numpy arrays (rows in game
    /// order), and `None` -- or, when a signal handler (Ctrl-C) or `progress` raised, its
    /// exception, for the caller to raise once it has kept the games finished before.
    #[pyo3(signature = (first_game, games, threads, progress = None))]
    fn play<'py>(
        &self,
        py: Python<'py>,
        first_game: u64,
        games: &Bound<'py, PyAny>,
        threads: &Bound<'py, PyAny>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<(Bound<'py, PyDict>, Option<Py<PyAny>>)> {
        let games = extract_int_in(games, "games", 0, MAX_GAMES as i64, &format!("0..{MAX_GAMES} per call"))? as usize;
        let threads = extract_int_in(
            threads,
            "threads",
            0,
            MAX_THREADS as i64,
            &format!("1..{MAX_THREADS} (or 0: one per core)"),
        )? as usize;
        if first_game.checked_add(games as u64).is_none() {
            return Err(PyValueError::new_err("game numbers overflow 2**64: first_game + games must be below 2**64"));
        }
        let run = &self.run;
        run.check(first_game, games).map_err(PyValueError::new_err)?;
        let n = run.config.players();
        let mut columns = Columns::new(games, n, run.config.track_count())?;
        let pool = pool(threads, games).map_err(PyValueError::new_err)?;
        let done = Arc::new(AtomicU64::new(0));
        let report = progress.map(|callback| Progress { callback, done: Arc::clone(&done), total: games as u64 });
        let sink = |part: &[GameResult]| columns.push(part);
        let (_, raised) = match &pool {
            // One thread plays: the calling thread itself (no thread started per call).
            None => interrupt::on_caller(py, report, |stop| {
                run.play_range(first_game, games, None, Some(stop), Some(&done), sink)
            })?,
            Some(pool) => {
                let stop = Arc::new(Stop::new());
                interrupt::on_pool(py, pool, &stop, report, || {
                    run.play_range(first_game, games, Some(pool), Some(&stop), Some(&done), sink)
                })?
            }
        };
        Ok((columns.into_dict(py)?, raised.map(|e| e.into_value(py).into_any())))
    }

    /// The columns of games played elsewhere (by Python bots and engines): `states[i]` is
    /// game number `games[i]` of this run, dealt and seated as `deal` says, and finished --
    /// unless `forfeits[i]` names the seat that forfeited it: then it stands where that
    /// seat's bot failed, the seat's side ranks last and its end is `"forfeit"`.
    #[pyo3(signature = (games, states, forfeits = None))]
    fn record<'py>(
        &self,
        py: Python<'py>,
        games: Vec<u64>,
        states: Vec<PyRef<'py, PyGameState>>,
        forfeits: Option<Vec<Option<usize>>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        if games.len() != states.len() {
            return Err(PyValueError::new_err(format!("{} game numbers for {} games", games.len(), states.len())));
        }
        let forfeits = forfeits.unwrap_or_else(|| vec![None; games.len()]);
        if forfeits.len() != games.len() {
            return Err(PyValueError::new_err(format!("{} forfeits for {} games", forfeits.len(), games.len())));
        }
        let config = self.run.config;
        let mut columns = Columns::new(games.len(), config.players(), config.track_count())?;
        let mut rows = Vec::with_capacity(games.len());
        for ((&g, state), &forfeit) in games.iter().zip(&states).zip(&forfeits) {
            let (seed, lineup) = self.run.deal(g);
            let game = state.game();
            if *game.config() != config {
                return Err(PyValueError::new_err(format!("game {g} was not played by this run's rules")));
            }
            if state.record.origin().map(|o| o.seed) != Some(seed) {
                return Err(PyValueError::new_err(format!("game {g} of this run is dealt from seed {seed}")));
            }
            rows.push(match forfeit {
                Some(seat) if seat >= config.players() => {
                    return Err(PyValueError::new_err(format!(
                        "game {g}: seat {seat} forfeited, but there are {} seats",
                        config.players()
                    )));
                }
                Some(seat) => GameResult::forfeited(g, seed, game, &lineup, seat),
                None if !game.is_over() => {
                    return Err(PyValueError::new_err(format!("game {g} is not over (and no seat forfeited it)")));
                }
                None => GameResult::of(g, seed, game, &lineup),
            });
        }
        columns.push(&rows);
        columns.into_dict(py)
    }

    /// The names of the result columns, in order.
    #[staticmethod]
    fn columns() -> Vec<&'static str> {
        COLUMNS.to_vec()
    }

    /// The names of the `end` column's codes: the game's end reasons, then `"forfeit"`.
    #[staticmethod]
    fn end_names() -> Vec<&'static str> {
        END_NAMES.to_vec()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Run {} bots, {} lineups, seed {}{}>",
            self.run.bots.len(),
            self.run.lineups.len(),
            self.run.seed,
            if self.run.paired { ", paired" } else { "" }
        )
    }
}

/// The ranking of `state` when `seat` forfeits it: its side ranks last, the other seats
/// keep their order in the position as it stands.
#[pyfunction]
fn forfeit_ranks(state: PyRef<'_, PyGameState>, seat: usize) -> PyResult<Vec<u8>> {
    let game = state.game();
    let n = game.config().players();
    if seat >= n {
        return Err(PyValueError::new_err(format!("seat {seat} is not one of the {n} seats")));
    }
    Ok(core_forfeit_ranks(game, seat)[..n].to_vec())
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
    m.add_class::<PyRun>()?;
    m.add_function(wrap_pyfunction!(derive_seed, m)?)?;
    m.add_function(wrap_pyfunction!(bot_seed, m)?)?;
    m.add_function(wrap_pyfunction!(limits, m)?)?;
    m.add_function(wrap_pyfunction!(forfeit_ranks, m)?)?;
    Ok(())
}

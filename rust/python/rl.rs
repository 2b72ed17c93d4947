//! Bindings for learning agents: the flat action space, observations and the batched
//! `VecEnv`. Arrays are numpy arrays written by Rust with the GIL released.

use super::convert::{extract_int_in, extract_seat, BusyError, IllegalMoveError};
use super::game::PyGameState;
use super::rules::PyRules;
use super::types::extract_move;
use super::types::PyMove;
use crate::actions::{
    action_to_move as core_action_to_move, legal_action_mask as core_legal_action_mask, legal_action_mask_vec,
    legal_actions as core_legal_actions, move_actions, Action, ActionError, ACTION_COUNT, KEEP_ACTION,
    PLACEMENT_ACTIONS, SWAP_ACTION,
};
use crate::bots::policy::PF;
use crate::game::Game;
use crate::observation::{layout, observe as core_observe, observe_zeroed, OBS_SIZE, VERSION as OBSERVATION_VERSION};
use crate::record::Record;
use crate::vecenv::{Outputs, VecEnv, MAX_ENVS, MAX_THREADS};
use numpy::ndarray::Dimension;
use numpy::{Element, PyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use std::sync::{Mutex, MutexGuard, TryLockError};

/// `VecEnv.move_features`: rows of features, their envs and their actions.
type MoveRows<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>);

/// An action index from a Python int (numpy integers included, bools and floats not);
/// `ValueError` out of range, however large.
fn extract_action(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err("an action is an int, not a bool"));
    }
    // 64 bits first: that conversion is a single C call, where i128's goes through
    // Python's shift operator under the stable ABI (a fifth of a PettingZoo step's core).
    if let Ok(a) = obj.extract::<i64>() {
        return match usize::try_from(a) {
            Ok(a) if a < ACTION_COUNT => Ok(a),
            _ => Err(ActionError::OutOfRange(a as i128).into()),
        };
    }
    let a: i128 = match obj.extract::<i128>() {
        Ok(a) => a,
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) => {
            let shown = obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into());
            return Err(PyValueError::new_err(format!(
                "action {shown} is out of range: actions are 0..{}",
                ACTION_COUNT - 1
            )));
        }
        Err(_) => {
            return Err(PyTypeError::new_err(format!(
                "an action is an int, not {}",
                obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
            )))
        }
    };
    if !(0..ACTION_COUNT as i128).contains(&a) {
        return Err(ActionError::OutOfRange(a).into());
    }
    Ok(a as usize)
}

/// The position of a game, copied (a `Game` is small and `Copy`) so that nothing of the
/// Python object stays borrowed while the GIL is released: other threads may play on.
fn position(state: &Bound<'_, PyGameState>) -> Game {
    *state.borrow().game()
}

/// A new uninitialised numpy array, or `MemoryError` when it cannot be allocated (numpy's
/// own allocator reports failure as `MemoryError`; rust-numpy's constructors would panic).
fn empty_array<'py, T: Element, D: Dimension>(py: Python<'py>, shape: &[usize]) -> PyResult<Bound<'py, PyArray<T, D>>> {
    let np = py.import("numpy")?;
    let arr = np.getattr("empty")?.call1((shape.to_vec(), T::get_dtype(py)))?;
    Ok(arr.cast_into::<PyArray<T, D>>()?)
}

/// A writable C-contiguous `out` array of the expected element type and shape.
fn out_array<'py, T: Element, D: Dimension>(
    obj: &Bound<'py, PyAny>,
    what: &str,
    dtype: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyArray<T, D>>> {
    let arr = obj
        .cast::<PyArray<T, D>>()
        .map_err(|_| PyTypeError::new_err(format!("{what} must be a numpy {dtype} array of shape {shape:?}")))?;
    if arr.shape() != shape {
        return Err(PyValueError::new_err(format!("{what} has shape {:?}, expected {shape:?}", arr.shape())));
    }
    if !arr.is_c_contiguous() {
        return Err(PyValueError::new_err(format!("{what} must be C-contiguous")));
    }
    Ok(arr.clone())
}

/// Runs `f` on the mutable contents of `arr` (checked contiguous and not borrowed elsewhere).
fn with_slice<T: Element, D: Dimension, R>(
    arr: &Bound<'_, PyArray<T, D>>,
    what: &str,
    f: impl FnOnce(&mut [T]) -> R,
) -> PyResult<R> {
    let mut rw = arr.try_readwrite().map_err(|e| PyValueError::new_err(format!("{what} cannot be written: {e}")))?;
    let slice = rw.as_slice_mut().map_err(|e| PyValueError::new_err(format!("{what} cannot be written: {e}")))?;
    Ok(f(slice))
}

/// `(ACTION_COUNT, PLACEMENT_ACTIONS, SWAP_ACTION, KEEP_ACTION, OBS_SIZE)`.
#[pyfunction]
fn rl_constants() -> (usize, usize, usize, usize, usize) {
    (ACTION_COUNT, PLACEMENT_ACTIONS, SWAP_ACTION, KEEP_ACTION, OBS_SIZE)
}

/// The observation's blocks as `(name, offset, shape)`, in order.
#[pyfunction]
fn observation_layout() -> Vec<(&'static str, usize, Vec<usize>)> {
    layout::BLOCKS.iter().map(|&(n, o, s)| (n, o, s.to_vec())).collect()
}

/// The version of the observation's layout and meaning: a fingerprint that changes with
/// either (compare it for equality only).
#[pyfunction]
fn observation_version() -> u32 {
    OBSERVATION_VERSION
}

/// `(slot, (q, r), direction)` of a placement action, or `"swap"` / `"keep"`.
#[pyfunction]
fn decode_action(py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let a = extract_action(action)?;
    Ok(match Action::decode(a).expect("checked in range") {
        Action::Place { slot, cell, dir } => (slot, (cell.q(), cell.r()), dir).into_pyobject(py)?.into_any().unbind(),
        Action::Swap => "swap".into_pyobject(py)?.into_any().unbind(),
        Action::Keep => "keep".into_pyobject(py)?.into_any().unbind(),
    })
}

/// The move `action` stands for in `state` (not checked for legality).
#[pyfunction]
fn action_to_move(state: &PyGameState, action: &Bound<'_, PyAny>) -> PyResult<PyMove> {
    let a = extract_action(action)?;
    core_action_to_move(state.game(), a).map(PyMove).map_err(PyErr::from)
}

/// Every action that stands for `mv` in `state`, ascending (empty if the mover holds no
/// such tile).
#[pyfunction]
fn move_to_actions(state: &PyGameState, mv: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
    let m = extract_move(mv)?;
    Ok(move_actions(state.game(), &m).iter().map(|&a| a as usize).collect())
}

/// The legal actions of the seat to move, ascending.
#[pyfunction]
fn legal_actions<'py>(py: Python<'py>, state: &Bound<'py, PyGameState>) -> Bound<'py, PyArray1<i64>> {
    let game = position(state);
    let v: Vec<i64> = py.detach(|| {
        let mut out = Vec::new();
        core_legal_actions(&game, &mut out);
        out.into_iter().map(i64::from).collect()
    });
    PyArray1::from_vec(py, v)
}

fn write_mask<T: Element + From<bool> + Copy>(games: &[Game], out: &mut [T]) {
    let fill = |(g, row): (&Game, &mut [T])| core_legal_action_mask(g, row);
    if games.len() >= 64 {
        games.par_iter().zip(out.par_chunks_mut(ACTION_COUNT)).with_min_len(16).for_each(fill);
    } else {
        games.iter().zip(out.chunks_mut(ACTION_COUNT)).for_each(fill);
    }
}

/// Writes masks for `games` into `out` (bool, int8 or uint8, `len(games) × ACTION_COUNT`).
fn masks_into(py: Python<'_>, games: &[Game], out: &Bound<'_, PyAny>, shape: &[usize]) -> PyResult<()> {
    const WHAT: &str = "out";
    const DTYPES: &str = "bool, int8 or uint8";
    macro_rules! try_dtype {
        ($t:ty) => {
            if out.cast::<PyArray<$t, numpy::ndarray::IxDyn>>().is_ok() {
                let arr = out_array::<$t, numpy::ndarray::IxDyn>(out, WHAT, DTYPES, shape)?;
                return with_slice(&arr, WHAT, |s| py.detach(|| write_mask(games, s)));
            }
        };
    }
    try_dtype!(bool);
    try_dtype!(i8);
    try_dtype!(u8);
    Err(PyTypeError::new_err(format!("{WHAT} must be a numpy {DTYPES} array of shape {shape:?}")))
}

/// The legal-action mask of the seat to move: `mask[a]` is true when action `a` is legal.
/// Written into `out` (bool, int8 or uint8, length `ACTION_COUNT`) when given.
#[pyfunction]
#[pyo3(signature = (state, out = None))]
fn legal_action_mask<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyGameState>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let out = match out {
        Some(o) => o.clone(),
        None => PyArray1::<bool>::zeros(py, ACTION_COUNT, false).into_any(),
    };
    masks_into(py, &[position(state)], &out, &[ACTION_COUNT])?;
    Ok(out)
}

/// Legal-action masks of many games into `out` (`len(states) × ACTION_COUNT`).
#[pyfunction]
fn legal_action_mask_batch<'py>(
    py: Python<'py>,
    states: Vec<Bound<'py, PyGameState>>,
    out: &Bound<'py, PyAny>,
) -> PyResult<()> {
    let games: Vec<Game> = states.iter().map(position).collect();
    masks_into(py, &games, out, &[games.len(), ACTION_COUNT])
}

fn observe_into(games: &[(Game, usize)], out: &mut [f32]) {
    let fill = |(&(g, p), row): (&(Game, usize), &mut [f32])| core_observe(&g, p, row);
    if games.len() >= 64 {
        games.par_iter().zip(out.par_chunks_mut(OBS_SIZE)).with_min_len(16).for_each(fill);
    } else {
        games.iter().zip(out.chunks_mut(OBS_SIZE)).for_each(fill);
    }
}

/// What seat `player` sees of `state`, as `float32[OBS_SIZE]` (written into `out` when given).
#[pyfunction]
#[pyo3(signature = (state, player, out = None))]
fn observe<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyGameState>,
    player: &Bound<'py, PyAny>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<f32>>> {
    let game = position(state);
    let p = extract_seat(player, game.config().players())?;
    let arr = match out {
        Some(o) => out_array::<f32, numpy::ndarray::Ix1>(o, "out", "float32", &[OBS_SIZE])?,
        None => PyArray1::<f32>::zeros(py, OBS_SIZE, false),
    };
    with_slice(&arr, "out", |s| py.detach(|| core_observe(&game, p, s)))?;
    Ok(arr)
}

/// Observations of many games into `out` (`float32`, `len(states) × OBS_SIZE`), row `i`
/// seen by seat `players[i]`.
#[pyfunction]
fn observe_batch<'py>(
    py: Python<'py>,
    states: Vec<Bound<'py, PyGameState>>,
    players: PyReadonlyArray1<'py, i64>,
    out: &Bound<'py, PyAny>,
) -> PyResult<()> {
    let players = players.as_slice().map_err(|e| PyValueError::new_err(format!("players: {e}")))?;
    if players.len() != states.len() {
        return Err(PyValueError::new_err(format!(
            "{} states but {} players: give one observer per state",
            states.len(),
            players.len()
        )));
    }
    let mut items = Vec::with_capacity(states.len());
    for (i, (s, &p)) in states.iter().zip(players).enumerate() {
        let game = position(s);
        let n = game.config().players() as i64;
        if !(0..n).contains(&p) {
            return Err(PyValueError::new_err(format!("players[{i}]: player must be 0..{}, not {p}", n - 1)));
        }
        items.push((game, p as usize));
    }
    let arr = out_array::<f32, numpy::ndarray::Ix2>(out, "out", "float32", &[items.len(), OBS_SIZE])?;
    with_slice(&arr, "out", |s| py.detach(|| observe_into(&items, s)))
}

type ObsAndMask<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>);
type RewardsDones<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<bool>>);
type ObsMaskPlayers<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<bool>>, Bound<'py, PyArray1<i64>>);
type StepResult<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<i64>>,
);

/// Plays `action` in `state` (checked first: `ValueError` out of range, `IllegalMoveError`
/// when it is not legal now, and then nothing changes). Returns the seat to move next, or
/// `None` once the game is over: the environments' step needs both, and reading the seat
/// here saves it a second call into the extension (a tenth of a PettingZoo `step()`).
#[pyfunction]
fn play_action(mut state: PyRefMut<'_, PyGameState>, action: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    let a = extract_action(action)?;
    let mv = core_action_to_move(state.game(), a)?;
    state.record.play(&mv)?;
    let game = state.game();
    Ok(if game.is_over() { None } else { Some(game.current_player()) })
}

/// What seat `player` sees (`float32[OBS_SIZE]`) and its legal-action mask (`int8`,
/// all zeros unless `player` is to move), in one call: the pair an environment returns.
#[pyfunction]
fn observe_with_mask<'py>(
    py: Python<'py>,
    state: &PyGameState,
    player: &Bound<'py, PyAny>,
) -> PyResult<ObsAndMask<'py>> {
    let p = extract_seat(player, state.game().config().players())?;
    let game = state.game();
    // Built in vectors that the arrays then own, without `unsafe` (benches/results/HISTORY.md,
    // "No unsafe in the bindings") and without borrowing numpy arrays to write into, which goes through
    // rust-numpy's borrow registry: the observation zeroed once with only what is not 0
    // written, the mask with each entry written once.
    let mut obs = vec![0.0f32; OBS_SIZE];
    observe_zeroed(game, p, &mut obs);
    let mask = if game.current_player() == p { legal_action_mask_vec(game) } else { vec![0i8; ACTION_COUNT] };
    Ok((PyArray1::from_vec(py, obs), PyArray1::from_vec(py, mask)))
}

/// Many games of one configuration stepped together in Rust (wrapped by `genial.VecEnv`).
///
/// Frozen, with the envs behind a lock taken without waiting: a second thread using the
/// same `VecEnv` while a call runs (with the GIL released) gets `genial.BusyError`, the
/// same for every method, instead of PyO3's bare "Already borrowed".
#[pyclass(name = "VecEnv", module = "genial._core", frozen)]
pub struct PyVecEnv {
    env: Mutex<VecEnv>,
}

impl PyVecEnv {
    fn lock(&self) -> PyResult<MutexGuard<'_, VecEnv>> {
        match self.env.try_lock() {
            Ok(guard) => Ok(guard),
            Err(TryLockError::WouldBlock) => Err(BusyError::new_err(
                "this VecEnv is in use by another thread: a VecEnv is used by one thread at a time",
            )),
            Err(TryLockError::Poisoned(_)) => {
                Err(PyRuntimeError::new_err("this VecEnv stopped in an internal error and cannot be used"))
            }
        }
    }

    /// Fresh output arrays (`MemoryError` if they do not fit); every entry is written by
    /// the env before they are returned.
    fn arrays<'py>(
        env: &VecEnv,
        py: Python<'py>,
        with_step: bool,
    ) -> PyResult<(ObsMaskPlayers<'py>, Option<RewardsDones<'py>>)> {
        let n = env.num_envs();
        let seats = env.config().players();
        let obs = empty_array(py, &[n, OBS_SIZE])?;
        let mask = empty_array(py, &[n, ACTION_COUNT])?;
        let players = empty_array(py, &[n])?;
        let step = if with_step { Some((empty_array(py, &[n, seats])?, empty_array(py, &[n])?)) } else { None };
        Ok(((obs, mask, players), step))
    }

    /// Fresh `(observations, masks, players)` arrays, written slice by slice after `prepare`
    /// (both with the GIL released).
    fn fill<'py>(&self, py: Python<'py>, prepare: impl FnOnce(&mut VecEnv) + Send) -> PyResult<ObsMaskPlayers<'py>> {
        let mut env = self.lock()?;
        let ((obs, mask, players), _) = Self::arrays(&env, py, false)?;
        {
            let (mut o, mut m, mut p) = (obs.readwrite(), mask.readwrite(), players.readwrite());
            let out = Outputs {
                obs: o.as_slice_mut()?,
                mask: m.as_slice_mut()?,
                players: p.as_slice_mut()?,
                rewards: &mut [],
                dones: &mut [],
            };
            let env = &mut *env;
            py.detach(|| prepare(env));
            run_in_slices(py, env, out)?;
        }
        Ok((obs, mask, players))
    }
}

/// Envs per slice of a `VecEnv` call: Ctrl-C is looked for between slices, so a call on
/// the most envs answers it within a slice's time (a few tens of milliseconds; the call
/// as a whole takes up to about 2 s). Small batches are one slice, as before.
const SLICE: usize = 4096;

/// Runs the prepared call (`VecEnv::prepare_*`) over every env, `SLICE` envs at a time with
/// the GIL released, running Python's signal handlers between slices. When one raises
/// (Ctrl-C), the envs not reached yet take their actions without writing results
/// (`VecEnv::settle_rows`), so that every env has moved once, and the exception propagates:
/// the arrays of this call are dropped, and `observe()` gives the current ones.
fn run_in_slices(py: Python<'_>, env: &mut VecEnv, out: Outputs<'_>) -> PyResult<()> {
    let n = env.num_envs();
    let seats = env.config().players();
    let Outputs { mut obs, mut mask, mut players, mut rewards, mut dones } = out;
    let stepping = !dones.is_empty(); // rewards and dones are written by a step only
    let mut lo = 0;
    while lo < n {
        let hi = (lo + SLICE).min(n);
        let rows = hi - lo;
        // Each output's first `rows` rows for this slice; the rest for the next ones.
        let (o, o_rest) = std::mem::take(&mut obs).split_at_mut(rows * OBS_SIZE);
        let (m, m_rest) = std::mem::take(&mut mask).split_at_mut(rows * ACTION_COUNT);
        let (p, p_rest) = std::mem::take(&mut players).split_at_mut(rows);
        let (r, r_rest) = std::mem::take(&mut rewards).split_at_mut(if stepping { rows * seats } else { 0 });
        let (d, d_rest) = std::mem::take(&mut dones).split_at_mut(if stepping { rows } else { 0 });
        (obs, mask, players, rewards, dones) = (o_rest, m_rest, p_rest, r_rest, d_rest);
        let slice = Outputs { obs: o, mask: m, players: p, rewards: r, dones: d };
        py.detach(|| env.run_rows(lo..hi, slice));
        lo = hi;
        if lo < n {
            if let Err(stop) = py.check_signals() {
                py.detach(|| env.settle_rows(lo..n));
                return Err(stop);
            }
        }
    }
    Ok(())
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(signature = (num_envs, rules, seed, threads))]
    fn new(
        num_envs: &Bound<'_, PyAny>,
        rules: PyRef<'_, PyRules>,
        seed: u64,
        threads: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let config = rules.0;
        let range = format!("1..{MAX_ENVS}");
        let num_envs = extract_int_in(num_envs, "num_envs", 1, MAX_ENVS as i64, &range)? as usize;
        let range = format!("1..{MAX_THREADS}");
        let threads = extract_int_in(threads, "threads", 1, MAX_THREADS as i64, &range)? as usize;
        let env = VecEnv::new(config, num_envs, seed, threads).map_err(PyValueError::new_err)?;
        Ok(PyVecEnv { env: Mutex::new(env) })
    }

    #[getter]
    fn num_envs(&self) -> PyResult<usize> {
        Ok(self.lock()?.num_envs())
    }

    #[getter]
    fn players(&self) -> PyResult<usize> {
        Ok(self.lock()?.config().players())
    }

    #[getter]
    fn variant(&self) -> PyResult<&'static str> {
        Ok(self.lock()?.config().variant.name())
    }

    #[getter]
    fn threads(&self) -> PyResult<usize> {
        Ok(self.lock()?.threads())
    }

    /// Restarts every env from `seed`: `(observations, masks, players)`.
    fn reset<'py>(&self, py: Python<'py>, seed: u64) -> PyResult<ObsMaskPlayers<'py>> {
        self.fill(py, |env| env.prepare_reset(seed))
    }

    /// The current `(observations, masks, players)`, changing nothing.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<ObsMaskPlayers<'py>> {
        self.fill(py, |env| env.prepare_observe())
    }

    /// Plays one action per env: `(observations, masks, rewards, dones, players)`.
    fn step<'py>(&self, py: Python<'py>, actions: PyReadonlyArray1<'py, i64>) -> PyResult<StepResult<'py>> {
        let mut env = self.lock()?;
        let actions = actions.as_slice().map_err(|e| PyValueError::new_err(format!("actions: {e}")))?;
        if actions.len() != env.num_envs() {
            return Err(PyValueError::new_err(format!(
                "{} actions for {} envs: give one action per env",
                actions.len(),
                env.num_envs()
            )));
        }
        // Every action is checked before anything is played: a refused batch changes nothing.
        let checking = &mut *env;
        py.detach(|| checking.prepare_step(actions)).map_err(|e| {
            if e.out_of_range {
                PyValueError::new_err(e.to_string())
            } else {
                IllegalMoveError::new_err(e.to_string())
            }
        })?;
        let ((obs, mask, players), step) = Self::arrays(&env, py, true)?;
        let (rewards, dones) = step.expect("step arrays requested");
        {
            let (mut o, mut m, mut p) = (obs.readwrite(), mask.readwrite(), players.readwrite());
            let (mut r, mut d) = (rewards.readwrite(), dones.readwrite());
            let out = Outputs {
                obs: o.as_slice_mut()?,
                mask: m.as_slice_mut()?,
                players: p.as_slice_mut()?,
                rewards: r.as_slice_mut()?,
                dones: d.as_slice_mut()?,
            };
            run_in_slices(py, &mut env, out)?;
        }
        Ok((obs, mask, rewards, dones, players))
    }

    /// The legal moves of every env's seat to move for a policy that scores moves:
    /// `(features[rows, PF] float32, env[rows], action[rows])`, envs in order, each env's
    /// moves in `legal_moves` order, each move as the lowest action that stands for it.
    fn move_features<'py>(&self, py: Python<'py>) -> PyResult<MoveRows<'py>> {
        let env = self.lock()?;
        let (mut f, mut e, mut a) = (Vec::new(), Vec::new(), Vec::new());
        py.detach(|| env.move_features(&mut f, &mut e, &mut a));
        let rows = e.len();
        Ok((PyArray1::from_vec(py, f).reshape([rows, PF])?, PyArray1::from_vec(py, e), PyArray1::from_vec(py, a)))
    }

    /// A uniformly random legal action per env, from each env's own seeded generator.
    fn sample_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let mut env = self.lock()?;
        let mut out = vec![0i64; env.num_envs()];
        env.sample_actions(&mut out);
        Ok(PyArray1::from_vec(py, out))
    }

    /// A snapshot of the game in env `index` (no move history).
    fn state(&self, index: &Bound<'_, PyAny>) -> PyResult<PyGameState> {
        let env = self.lock()?;
        let last = env.num_envs() as i64 - 1;
        let i = extract_int_in(index, "env index", 0, last, &format!("in 0..{last} (out of range)"))? as usize;
        Ok(PyGameState { record: Record::without_origin(*env.game(i), Vec::new(), Vec::new()), setup: None })
    }

    /// Games finished by each env since the last reset.
    fn episodes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let env = self.lock()?;
        let v: Vec<u64> = (0..env.num_envs()).map(|i| env.episodes(i)).collect();
        Ok(PyArray1::from_vec(py, v))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVecEnv>()?;
    m.add_function(wrap_pyfunction!(rl_constants, m)?)?;
    m.add_function(wrap_pyfunction!(observation_layout, m)?)?;
    m.add_function(wrap_pyfunction!(observation_version, m)?)?;
    m.add_function(wrap_pyfunction!(decode_action, m)?)?;
    m.add_function(wrap_pyfunction!(action_to_move, m)?)?;
    m.add_function(wrap_pyfunction!(move_to_actions, m)?)?;
    m.add_function(wrap_pyfunction!(legal_actions, m)?)?;
    m.add_function(wrap_pyfunction!(legal_action_mask, m)?)?;
    m.add_function(wrap_pyfunction!(legal_action_mask_batch, m)?)?;
    m.add_function(wrap_pyfunction!(observe, m)?)?;
    m.add_function(wrap_pyfunction!(observe_batch, m)?)?;
    m.add_function(wrap_pyfunction!(play_action, m)?)?;
    m.add_function(wrap_pyfunction!(observe_with_mask, m)?)?;
    Ok(())
}

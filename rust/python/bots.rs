//! Built-in bots for Python: `choose(state)` with the GIL released (searches stopped by
//! Ctrl-C).

use super::convert::{extract_int_in, BusyError, Text};
use super::game::PyGameState;
use super::interrupt;
use super::types::PyMove;
use crate::bots::levels::{level, level_name, LevelKind};
use crate::bots::{Bot, MctsConfig, Playout, MAX_DEPTH, MAX_ITERATIONS, MAX_TIME_MS, MAX_WIDTH};
use crate::sim::{AnyBot, BotSpec, Plain};
use crate::stop::Stop;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

/// Names of the built-in bots.
pub const BOT_NAMES: [&str; 8] = ["random", "greedy", "mcts", "scarcity", "easy", "medium", "hard", "expert"];

/// The names of the built-in bots.
#[pyfunction]
pub fn bot_names() -> Vec<&'static str> {
    BOT_NAMES.to_vec()
}

/// Search options of the `mcts` bot, as given from Python (`None`: the default).
#[derive(Default)]
pub struct MctsOptions {
    pub iterations: Option<u32>,
    pub time_ms: Option<u32>,
    pub exploration: Option<f64>,
    pub width: Option<u32>,
    pub playout: Option<String>,
    pub depth: Option<u32>,
    /// Every bot: `"auto"` (the bot decides) or `"never"` (decline every swap).
    pub swap: Option<String>,
    /// Levels `hard`/`expert`: progressive widening and endgame threshold.
    pub widen: Option<f64>,
    pub endgame: Option<u32>,
    /// Levels `easy`/`medium`: sampling temperature and candidates re-ranked.
    pub temperature: Option<f64>,
    pub rerank: Option<u32>,
}

impl MctsOptions {
    fn any(&self) -> bool {
        self.iterations.is_some()
            || self.time_ms.is_some()
            || self.exploration.is_some()
            || self.width.is_some()
            || self.playout.is_some()
            || self.depth.is_some()
    }

    fn config(&self) -> PyResult<MctsConfig> {
        let mut c = MctsConfig::default();
        // A time budget alone means: search until the time is up.
        if let Some(t) = self.time_ms {
            c.time_ms = t;
            c.iterations = self.iterations.unwrap_or(0);
        } else if let Some(i) = self.iterations {
            c.iterations = i;
        }
        if let Some(e) = self.exploration {
            c.exploration = e;
        }
        if let Some(w) = self.width {
            c.width = w;
        }
        if let Some(p) = &self.playout {
            c.playout = Playout::parse(p).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "unknown playout {p:?}: use \"random\", \"greedy\" or \"sampleN\" (N in 1..64)"
                ))
            })?;
        }
        if let Some(d) = self.depth {
            c.depth = d;
        }
        if c.width > MAX_WIDTH {
            return Err(PyValueError::new_err(format!("width must be 1..={MAX_WIDTH}, not {}", c.width)));
        }
        c.validate().map_err(PyValueError::new_err)?;
        Ok(c)
    }
}

/// Whether swaps are declined, from the `swap` option.
fn never_swap(options: &MctsOptions) -> PyResult<bool> {
    match options.swap.as_deref() {
        None | Some("auto") => Ok(false),
        Some("never") => Ok(true),
        Some(other) => Err(PyValueError::new_err(format!(
            "unknown swap option {other:?}: use \"auto\" (the bot decides) or \"never\" (decline every swap)"
        ))),
    }
}

/// The options a level accepts, checked: naming one it does not take is an error.
fn level_spec(name: &'static str, kind: LevelKind, o: &MctsOptions) -> PyResult<BotSpec> {
    let never = never_swap(o)?;
    let bad = |key: &str, allowed: &str| {
        Err(PyValueError::new_err(format!("the {name} level takes no option {key}: it takes {allowed}")))
    };
    match kind {
        LevelKind::OnePly(mut c) => {
            let allowed = "swap, temperature, rerank";
            for (key, set) in [
                ("iterations", o.iterations.is_some()),
                ("time_ms", o.time_ms.is_some()),
                ("exploration", o.exploration.is_some()),
                ("width", o.width.is_some()),
                ("playout", o.playout.is_some()),
                ("depth", o.depth.is_some()),
                ("widen", o.widen.is_some()),
                ("endgame", o.endgame.is_some()),
            ] {
                if set {
                    return bad(key, allowed);
                }
            }
            if let Some(t) = o.temperature {
                c.temperature = t;
            }
            if let Some(r) = o.rerank {
                c.rerank = r;
            }
            c.never_swap = never;
            let spec = BotSpec::Level(name, LevelKind::OnePly(c));
            spec.validate().map_err(PyValueError::new_err)?;
            Ok(spec)
        }
        LevelKind::Search(mut c) => {
            let allowed = "iterations, time_ms, exploration, width, depth, widen, endgame, swap";
            for (key, set) in [
                ("playout", o.playout.is_some()),
                ("temperature", o.temperature.is_some()),
                ("rerank", o.rerank.is_some()),
            ] {
                if set {
                    return bad(key, allowed);
                }
            }
            // A time budget alone means: search until the time is up.
            // A time budget alone means: search until the time is up; `time_ms=0` means no
            // time limit. An explicit budget replaces the level's budgets by player count.
            match (o.time_ms, o.iterations) {
                (Some(t), i) if t > 0 => {
                    c.time_ms = t;
                    c.iterations = i.unwrap_or(0);
                    c.iterations_by_players = None;
                }
                (_, Some(i)) => {
                    c.iterations = i;
                    c.iterations_by_players = None;
                }
                _ => {}
            }
            if let Some(e) = o.exploration {
                c.exploration = e;
            }
            if let Some(w) = o.width {
                c.width = w;
            }
            if let Some(d) = o.depth {
                c.depth = d;
            }
            if let Some(w) = o.widen {
                c.widen = w;
            }
            if let Some(e) = o.endgame {
                c.endgame = e;
            }
            c.never_swap = never;
            c.validate().map_err(PyValueError::new_err)?;
            Ok(BotSpec::Level(name, LevelKind::Search(c)))
        }
    }
}

pub fn make_spec(name: &str, options: &MctsOptions) -> PyResult<BotSpec> {
    if let (Some(canonical), Some(kind)) = (level_name(name), level(name)) {
        return level_spec(canonical, kind, options);
    }
    let level_only = [
        ("widen", options.widen.is_some()),
        ("endgame", options.endgame.is_some()),
        ("temperature", options.temperature.is_some()),
        ("rerank", options.rerank.is_some()),
    ];
    if let Some((key, _)) = level_only.iter().find(|x| x.1) {
        return Err(PyValueError::new_err(format!(
            "the {name} bot takes no option {key}: only the levels easy, medium, hard, expert do"
        )));
    }
    let never = never_swap(options)?;
    let plain = match name {
        "random" => Plain::Random,
        "greedy" => Plain::Greedy,
        "scarcity" => Plain::Scarcity,
        "mcts" => Plain::Mcts(options.config()?),
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown bot {name:?}: built-in bots are {}",
                BOT_NAMES.join(", ")
            )))
        }
    };
    if !matches!(plain, Plain::Mcts(_)) && options.any() {
        return Err(PyTypeError::new_err(format!(
            "the {name} bot takes no search options (iterations, time_ms, ...): only mcts does"
        )));
    }
    Ok(if never { BotSpec::NeverSwap(plain) } else { plain.spec() })
}

/// An MCTS option: an int in `0..=max` (`lo..=max`), as a `ValueError` naming the limit
/// however large, `TypeError` for anything but an int (numpy integers are ints).
fn int_option(obj: Option<&Bound<'_, PyAny>>, what: &str, lo: u32, max: u32) -> PyResult<Option<u32>> {
    obj.map(|o| extract_int_in(o, what, lo as i64, max as i64, &format!("{lo}..={max}")).map(|v| v as u32)).transpose()
}

fn exploration_option(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<f64>> {
    let Some(o) = obj else { return Ok(None) };
    let bad = || {
        let shown = o.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into());
        PyValueError::new_err(format!("exploration must be a finite number >= 0, not {shown}"))
    };
    if o.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err("exploration must be a number, not bool"));
    }
    match o.extract::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(Some(v)),
        Ok(_) => Err(bad()),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(o.py()) => Err(bad()),
        Err(_) => Err(PyTypeError::new_err(format!("exploration must be a number, not {}", o.get_type().name()?))),
    }
}

/// A built-in bot running in Rust.
///
/// Frozen, with the bot itself behind a lock taken without waiting: its settings may be
/// read (`repr`, `options`) while it thinks in another thread, and a second `choose` at
/// the same time raises `genial.BusyError`.
#[pyclass(name = "BuiltinBot", module = "genial._core", frozen)]
pub struct PyBuiltinBot {
    pub spec: BotSpec,
    seed: u64,
    bot: Mutex<AnyBot>,
    /// Ends a search early (Ctrl-C while a searching bot thinks), and the exception that
    /// ended it.
    stop: Arc<Stop>,
    raised: interrupt::Raised,
}

impl PyBuiltinBot {
    fn lock(&self) -> PyResult<MutexGuard<'_, AnyBot>> {
        match self.bot.try_lock() {
            Ok(guard) => Ok(guard),
            Err(TryLockError::WouldBlock) => Err(BusyError::new_err(format!(
                "this {} bot is thinking in another thread: a bot is used by one thread at a time",
                self.spec.name()
            ))),
            Err(TryLockError::Poisoned(_)) => {
                Err(PyRuntimeError::new_err("this bot stopped in an internal error and cannot be used"))
            }
        }
    }
}

#[pymethods]
impl PyBuiltinBot {
    #[new]
    #[pyo3(signature = (name, seed = 0, *, iterations = None, time_ms = None, exploration = None, width = None, playout = None, depth = None, swap = None, widen = None, endgame = None, temperature = None, rerank = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        name: Text,
        seed: u64,
        iterations: Option<&Bound<'_, PyAny>>,
        time_ms: Option<&Bound<'_, PyAny>>,
        exploration: Option<&Bound<'_, PyAny>>,
        width: Option<&Bound<'_, PyAny>>,
        playout: Option<Text>,
        depth: Option<&Bound<'_, PyAny>>,
        swap: Option<Text>,
        widen: Option<f64>,
        endgame: Option<&Bound<'_, PyAny>>,
        temperature: Option<f64>,
        rerank: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let options = MctsOptions {
            iterations: int_option(iterations, "iterations", 0, MAX_ITERATIONS)?,
            time_ms: int_option(time_ms, "time_ms", 0, MAX_TIME_MS)?,
            exploration: exploration_option(exploration)?,
            width: int_option(width, "width", 1, MAX_WIDTH)?,
            playout: playout.map(|p| p.0),
            depth: int_option(depth, "depth", 0, MAX_DEPTH)?,
            swap: swap.map(|s| s.0),
            widen,
            endgame: int_option(endgame, "endgame", 0, u32::MAX)?,
            temperature,
            rerank: int_option(rerank, "rerank", 0, u32::MAX)?,
        };
        let spec = make_spec(&name, &options)?;
        let (stop, raised) = interrupt::polling_stop();
        let mut bot = spec.build(seed);
        bot.set_stop(&stop);
        Ok(PyBuiltinBot { spec, seed, bot: Mutex::new(bot), stop, raised })
    }

    #[getter]
    fn name(&self) -> &'static str {
        self.spec.name()
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The bot's settings (`mcts`: iterations, time_ms, exploration, width, playout, depth).
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        if let BotSpec::Mcts(c) = self.spec {
            d.set_item("iterations", c.iterations)?;
            d.set_item("time_ms", c.time_ms)?;
            d.set_item("exploration", c.exploration)?;
            d.set_item("width", c.width)?;
            d.set_item("playout", c.playout.name())?;
            d.set_item("depth", c.depth)?;
        }
        match self.spec {
            BotSpec::Level(_, LevelKind::OnePly(c)) => {
                d.set_item("temperature", c.temperature)?;
                d.set_item("rerank", c.rerank)?;
            }
            BotSpec::Level(_, LevelKind::Search(c)) => {
                // The level's own budgets (by player count) are not an option one can write
                // back: listed only when set explicitly, so that `spec` round-trips.
                if c.iterations_by_players.is_none() {
                    d.set_item("iterations", c.iterations)?;
                }
                d.set_item("time_ms", c.time_ms)?;
                d.set_item("exploration", c.exploration)?;
                d.set_item("width", c.width)?;
                d.set_item("depth", c.depth)?;
                d.set_item("widen", c.widen)?;
                d.set_item("endgame", c.endgame)?;
            }
            BotSpec::NeverSwap(Plain::Mcts(c)) => {
                d.set_item("iterations", c.iterations)?;
                d.set_item("time_ms", c.time_ms)?;
                d.set_item("exploration", c.exploration)?;
                d.set_item("width", c.width)?;
                d.set_item("playout", c.playout.name())?;
                d.set_item("depth", c.depth)?;
            }
            _ => {}
        }
        // Only the non-default answer is listed, so that existing specs read as before.
        if self.spec.never_swaps() {
            d.set_item("swap", "never")?;
        }
        Ok(d)
    }

    /// `(iterations, nodes, root_children)` of the last search (`mcts` only, else `None`).
    fn last_search(&self) -> PyResult<Option<(u32, u32, u32)>> {
        Ok(match &*self.lock()? {
            AnyBot::Mcts(b) => {
                let s = b.last_search();
                Some((s.iterations, s.nodes, s.root_children))
            }
            AnyBot::Search(b) => b.last_search().map(|a| (a.iterations, a.nodes, a.candidates.len() as u32)),
            _ => None,
        })
    }

    /// The bot's move for the seat to move in `state`, decided with the GIL released. A
    /// search runs Python's signal handlers every 50 ms, so that Ctrl-C stops it (the
    /// `KeyboardInterrupt` is raised here).
    fn choose(&self, py: Python<'_>, state: &Bound<'_, PyGameState>) -> PyResult<PyMove> {
        // Copy the position and let go of the state before releasing the GIL, so that other
        // threads may use the game while the bot thinks.
        let game = *state.borrow().game();
        if game.is_over() {
            return Err(PyValueError::new_err("the game is over: there is no move to choose"));
        }
        let mut guard = self.lock()?;
        let bot = &mut *guard;
        let mv = if bot.searches() {
            interrupt::here(py, &self.stop, &self.raised, || bot.choose_move(&game, &mut Vec::new()))?
        } else {
            py.detach(|| bot.choose_move(&game, &mut Vec::new()))
        };
        Ok(PyMove(mv))
    }
}

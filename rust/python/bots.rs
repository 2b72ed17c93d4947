//! Built-in bots for Python: `choose(state)` with the GIL released (searches stopped by
//! Ctrl-C).

use super::convert::{BotOptionError, BusyError, NotYourTurnError, Text};
use super::game::PyGameState;
use super::interrupt;
use super::types::PyMove;
use crate::bots::catalogue::{self, Default, Kind, SpecError, Value, CATALOGUE};
use crate::bots::{AnyBot, Bot, BotSpec};
use crate::stop::Stop;
use pyo3::exceptions::{PyOverflowError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

/// The one place a refused bot spec becomes an exception: an unknown bot is a `ValueError`,
/// a value of the wrong type a `TypeError`, anything else a `BotOptionError` (a `ValueError`).
pub fn spec_error(e: SpecError) -> PyErr {
    match e {
        SpecError::UnknownBot(_) => PyValueError::new_err(e.to_string()),
        SpecError::WrongType { .. } => PyTypeError::new_err(e.to_string()),
        _ => BotOptionError::new_err(e.to_string()),
    }
}

fn value_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Int(i) => i.into_pyobject(py)?.into_any(),
        Value::Float(x) => x.into_pyobject(py)?.into_any(),
        Value::Text(t) => t.into_pyobject(py)?.into_any(),
    })
}

/// Every built-in bot from the core's catalogue: a dict per bot (`name`, `description`,
/// `strength`, `level`, `searches`, `options`), each option a dict (`name`, `kind`,
/// `default`, `by_players`, `min`, `max`, `bounds`, `choices`, `help`).
#[pyfunction]
pub fn bot_catalogue(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for e in CATALOGUE {
        let options = PyList::empty(py);
        for o in e.options {
            let d = PyDict::new(py);
            d.set_item("name", o.name)?;
            d.set_item("kind", o.kind.name())?;
            match o.default {
                Default::Int(i) => d.set_item("default", i)?,
                Default::Float(x) => d.set_item("default", x)?,
                Default::Text(t) => d.set_item("default", t)?,
                Default::ByPlayers(_) => d.set_item("default", py.None())?,
            }
            // A level's budget: its iterations with 2, 3 and 4 players.
            match o.default {
                Default::ByPlayers(budget) => d.set_item("by_players", budget.to_vec())?,
                _ => d.set_item("by_players", py.None())?,
            }
            match o.kind {
                Kind::Int => {
                    d.set_item("min", o.min as i64)?;
                    d.set_item("max", o.max as i64)?;
                }
                Kind::Float => {
                    d.set_item("min", o.min)?;
                    d.set_item("max", o.max)?;
                }
                Kind::Choice => {
                    d.set_item("min", py.None())?;
                    d.set_item("max", py.None())?;
                }
            }
            d.set_item("min_open", o.min_open)?;
            d.set_item("bounds", o.bounds())?;
            d.set_item("choices", o.choices.to_vec())?;
            d.set_item("help", o.help)?;
            options.append(d)?;
        }
        let d = PyDict::new(py);
        d.set_item("name", e.name)?;
        d.set_item("description", e.description)?;
        d.set_item("strength", e.strength)?;
        d.set_item("level", e.level)?;
        d.set_item("searches", e.searches)?;
        d.set_item("options", options)?;
        out.append(d)?;
    }
    Ok(out)
}

/// A bot's text form `name:key=value,...` read by the catalogue: `(name, options)`.
#[pyfunction]
pub fn parse_bot_spec(py: Python<'_>, text: Text) -> PyResult<(&'static str, Bound<'_, PyDict>)> {
    let (name, options) = catalogue::parse_text(&text).map_err(spec_error)?;
    let d = PyDict::new(py);
    for (k, v) in &options {
        d.set_item(*k, value_to_py(py, v)?)?;
    }
    Ok((name, d))
}

/// A Python value as the value of option `key` of bot `bot` (typed by the catalogue; an
/// int too large for any option is out of its bounds, not an `OverflowError`).
fn option_value(bot: &catalogue::BotEntry, key: &str, obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    let Some(o) = bot.option(key) else {
        return Err(spec_error(SpecError::UnknownOption {
            bot: bot.name,
            option: key.to_string(),
            takes: bot.options.iter().map(|o| o.name).collect::<Vec<_>>().join(", "),
        }));
    };
    let type_name = || obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into());
    let shown = || obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into());
    let out_of_range = || {
        spec_error(SpecError::OutOfRange {
            bot: bot.name.to_string(),
            option: o.name,
            bounds: o.bounds(),
            value: shown(),
        })
    };
    let wrong = |what: &str, got: String| PyTypeError::new_err(format!("{key} must be {what}, not {got}"));
    match o.kind {
        Kind::Int => {
            if obj.is_instance_of::<PyBool>() {
                return Err(wrong("an int", "bool".into()));
            }
            match obj.extract::<i64>() {
                Ok(v) => Ok(Value::Int(v)),
                Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(out_of_range()),
                Err(_) => Err(wrong("an int", type_name())),
            }
        }
        Kind::Float => {
            if obj.is_instance_of::<PyBool>() {
                return Err(wrong("a number", "bool".into()));
            }
            match obj.extract::<f64>() {
                Ok(v) => Ok(Value::Float(v)),
                Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(out_of_range()),
                Err(_) => Err(wrong("a number", type_name())),
            }
        }
        Kind::Choice => match obj.extract::<Text>() {
            Ok(t) => Ok(Value::Text(t.0)),
            Err(_) => Err(wrong("a str", type_name())),
        },
    }
}

/// The spec of bot `name` with options from Python keywords (`None`: not given).
pub fn make_spec(name: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<BotSpec> {
    let entry = catalogue::entry(name).ok_or_else(|| spec_error(SpecError::UnknownBot(name.to_string())))?;
    let mut values: Vec<(String, Value)> = Vec::new();
    if let Some(options) = options {
        for (k, v) in options.iter() {
            if v.is_none() {
                continue;
            }
            let key: String = k.extract::<Text>()?.0;
            let value = option_value(entry, &key, &v)?;
            values.push((key, value));
        }
    }
    let borrowed: Vec<(&str, Value)> = values.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    catalogue::build(name, &borrowed).map_err(spec_error)
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
    /// Bot `name` of the catalogue, with its options as keywords (checked against the
    /// catalogue; `None` means the default).
    #[new]
    #[pyo3(signature = (name, seed = 0, **options))]
    fn new(name: Text, seed: u64, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let spec = make_spec(&name, options)?;
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

    /// The bot's settings as options that build the same bot, in catalogue order (`swap`
    /// only when `"never"`).
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in catalogue::options_of(&self.spec) {
            d.set_item(k, value_to_py(py, &v)?)?;
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

    /// Asks a search running in another thread to end now: it returns the best move found
    /// so far (after at least one iteration). Quick bots finish on their own; a call while
    /// the bot is idle does nothing (the next `choose` starts afresh).
    fn stop(&self) {
        self.stop.set();
    }

    /// The bot's move for the seat to move in `state`; given `seat` (a view's seat), it
    /// refuses with `NotYourTurnError` unless that seat is to move. The bot decides with the
    /// GIL released; a search runs Python's signal handlers every 50 ms, so that Ctrl-C
    /// stops it (the `KeyboardInterrupt` is raised here).
    #[pyo3(signature = (state, seat = None))]
    fn choose(&self, py: Python<'_>, state: &Bound<'_, PyGameState>, seat: Option<usize>) -> PyResult<PyMove> {
        // Copy the position and let go of the state before releasing the GIL, so that other
        // threads may use the game while the bot thinks.
        let (game, history, movers) = {
            let s = state.borrow();
            (*s.game(), s.record.history().to_vec(), s.record.movers())
        };
        if game.is_over() {
            return Err(PyValueError::new_err("the game is over: there is no move to choose"));
        }
        check_turn(&game, seat)?;
        let mut guard = self.lock()?;
        let bot = &mut *guard;
        let mv = if bot.searches() {
            interrupt::here(py, &self.stop, &self.raised, || {
                bot.choose_move_seen(&game, &history, &movers, &mut Vec::new())
            })?
        } else {
            py.detach(|| bot.choose_move_seen(&game, &history, &movers, &mut Vec::new()))
        };
        Ok(PyMove(mv))
    }
}

/// Refuses a decision for `seat` when another seat is to move: a view of that seat holds
/// the mover's rack only as a guess, and a move chosen from it could be illegal.
pub fn check_turn(game: &crate::game::Game, seat: Option<usize>) -> PyResult<()> {
    match seat {
        Some(s) if s != game.current_player() => Err(NotYourTurnError::new_err(format!(
            "seat {s} is not to move (seat {} is): a bot chooses only for the seat to move, from that seat's view",
            game.current_player()
        ))),
        _ => Ok(()),
    }
}

//! Built-in bots for Python: `choose(state)` with the GIL released.

use super::game::PyGameState;
use super::types::PyMove;
use crate::bots::{Bot, MctsConfig, Playout, MAX_WIDTH};
use crate::sim::{AnyBot, BotSpec};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Names of the built-in bots.
pub const BOT_NAMES: [&str; 3] = ["random", "greedy", "mcts"];

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

pub fn make_spec(name: &str, options: &MctsOptions) -> PyResult<BotSpec> {
    let spec = match name {
        "random" => BotSpec::Random,
        "greedy" => BotSpec::Greedy,
        "mcts" => return Ok(BotSpec::Mcts(options.config()?)),
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown bot {name:?}: built-in bots are {}",
                BOT_NAMES.join(", ")
            )))
        }
    };
    if options.any() {
        return Err(PyTypeError::new_err(format!(
            "the {name} bot takes no search options (iterations, time_ms, ...): only mcts does"
        )));
    }
    Ok(spec)
}

/// A built-in bot running in Rust.
#[pyclass(name = "BuiltinBot", module = "genial._core")]
pub struct PyBuiltinBot {
    pub spec: BotSpec,
    seed: u64,
    bot: AnyBot,
}

#[pymethods]
impl PyBuiltinBot {
    #[new]
    #[pyo3(signature = (name, seed = 0, *, iterations = None, time_ms = None, exploration = None, width = None, playout = None, depth = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        name: &str,
        seed: u64,
        iterations: Option<u32>,
        time_ms: Option<u32>,
        exploration: Option<f64>,
        width: Option<u32>,
        playout: Option<String>,
        depth: Option<u32>,
    ) -> PyResult<Self> {
        let options = MctsOptions { iterations, time_ms, exploration, width, playout, depth };
        let spec = make_spec(name, &options)?;
        Ok(PyBuiltinBot { spec, seed, bot: spec.build(seed) })
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
        Ok(d)
    }

    /// `(iterations, nodes, root_children)` of the last search (`mcts` only, else `None`).
    fn last_search(&self) -> Option<(u32, u32, u32)> {
        match &self.bot {
            AnyBot::Mcts(b) => {
                let s = b.last_search();
                Some((s.iterations, s.nodes, s.root_children))
            }
            _ => None,
        }
    }

    /// The bot's move for the seat to move in `state`.
    fn choose(&mut self, py: Python<'_>, state: &Bound<'_, PyGameState>) -> PyResult<PyMove> {
        // Copy the position and let go of the state before releasing the GIL, so that other
        // threads may use the game while the bot thinks.
        let game = *state.borrow().game();
        if game.is_over() {
            return Err(PyValueError::new_err("the game is over: there is no move to choose"));
        }
        let bot = &mut self.bot;
        let mv = py.detach(|| bot.choose_move(&game, &mut Vec::new()));
        Ok(PyMove(mv))
    }
}

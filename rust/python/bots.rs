//! Built-in bots for Python: `choose(state)` with the GIL released.

use super::game::PyGameState;
use super::types::PyMove;
use crate::bots::levels::{level, level_name, LevelKind};
use crate::bots::{Bot, MctsConfig, Playout, MAX_WIDTH};
use crate::sim::{AnyBot, BotSpec, Plain};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Names of the built-in bots.
pub const BOT_NAMES: [&str; 8] = ["random", "greedy", "mcts", "scarcity", "easy", "medium", "hard", "expert"];

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
            for (key, set) in [("playout", o.playout.is_some()), ("temperature", o.temperature.is_some()), ("rerank", o.rerank.is_some())] {
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
    #[pyo3(signature = (name, seed = 0, *, iterations = None, time_ms = None, exploration = None, width = None, playout = None, depth = None, swap = None, widen = None, endgame = None, temperature = None, rerank = None))]
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
        swap: Option<String>,
        widen: Option<f64>,
        endgame: Option<u32>,
        temperature: Option<f64>,
        rerank: Option<u32>,
    ) -> PyResult<Self> {
        let options =
            MctsOptions { iterations, time_ms, exploration, width, playout, depth, swap, widen, endgame, temperature, rerank };
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
    fn last_search(&self) -> Option<(u32, u32, u32)> {
        match &self.bot {
            AnyBot::Mcts(b) => {
                let s = b.last_search();
                Some((s.iterations, s.nodes, s.root_children))
            }
            AnyBot::Search(b) => b.last_search().map(|a| (a.iterations, a.nodes, a.candidates.len() as u32)),
            _ => None,
        }
    }

    /// The bot's move for the seat to move in `state`.
    fn choose(&mut self, py: Python<'_>, state: &Bound<'_, PyGameState>) -> PyResult<PyMove> {
        // Copy the position and let go of the state before releasing the GIL, so that other
        // threads may use the game while the bot thinks.
        let game = state.borrow().game;
        if game.is_over() {
            return Err(PyValueError::new_err("the game is over: there is no move to choose"));
        }
        let bot = &mut self.bot;
        let mv = py.detach(|| bot.choose_move(&game, &mut Vec::new()));
        Ok(PyMove(mv))
    }
}

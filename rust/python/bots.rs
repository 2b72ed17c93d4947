//! Built-in bots for Python: `choose(state)` with the GIL released.

use super::game::PyGameState;
use super::types::PyMove;
use crate::bots::{Bot, GreedyBot, RandomBot};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Names of the built-in bots.
pub const BOT_NAMES: [&str; 2] = ["random", "greedy"];

pub fn make_bot(name: &str, seed: u64) -> PyResult<Box<dyn Bot>> {
    match name {
        "random" => Ok(Box::new(RandomBot::new(seed))),
        "greedy" => Ok(Box::new(GreedyBot::new(seed))),
        _ => Err(PyValueError::new_err(format!(
            "unknown bot {name:?}: built-in bots are {}",
            BOT_NAMES.join(", ")
        ))),
    }
}

/// A built-in bot running in Rust.
#[pyclass(name = "BuiltinBot", module = "genial._core")]
pub struct PyBuiltinBot {
    bot: Box<dyn Bot>,
}

#[pymethods]
impl PyBuiltinBot {
    #[new]
    #[pyo3(signature = (name, seed = 0))]
    fn new(name: &str, seed: u64) -> PyResult<Self> {
        Ok(PyBuiltinBot { bot: make_bot(name, seed)? })
    }

    #[getter]
    fn name(&self) -> &'static str {
        self.bot.name()
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
        let mv = py.detach(|| {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            moves[bot.choose(&game, &moves)]
        });
        Ok(PyMove(mv))
    }
}

//! PyO3 bindings: the private extension module `genial._core`.
//!
//! Thin wrappers over the core; `convert` is the one place core errors become Python
//! exceptions. The public API is re-exported by `python/genial/__init__.py`.

mod analysis;
mod bots;
mod convert;
mod game;
mod interrupt;
mod learning;
mod review;
mod rl;
mod rules;
mod sim;
mod types;

use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // numpy's C API is loaded now, with errors as exceptions: loaded lazily after a long
    // GIL-free call, a pending Ctrl-C would fire inside the load and rust-numpy would panic.
    m.py().import("numpy")?;
    let _ = numpy::PyArray1::<u8>::zeros(m.py(), 0, false);
    m.add("IllegalMoveError", m.py().get_type::<convert::IllegalMoveError>())?;
    m.add("BusyError", m.py().get_type::<convert::BusyError>())?;
    m.add("BotOptionError", m.py().get_type::<convert::BotOptionError>())?;
    m.add("NotYourTurnError", m.py().get_type::<convert::NotYourTurnError>())?;
    m.add_class::<types::PyTile>()?;
    m.add_class::<types::PyMove>()?;
    m.add_class::<types::PyBoard>()?;
    m.add_class::<game::PyGameState>()?;
    m.add_class::<game::LegalMoves>()?;
    m.add_class::<game::PyPlayResult>()?;
    m.add_class::<game::PyPreview>()?;
    m.add_class::<bots::PyBuiltinBot>()?;
    m.add_function(wrap_pyfunction!(bots::bot_catalogue, m)?)?;
    m.add_function(wrap_pyfunction!(bots::parse_bot_spec, m)?)?;
    rules::register(m)?;
    rl::register(m)?;
    sim::register(m)?;
    analysis::register(m)?;
    review::register(m)?;
    learning::register(m)?;
    Ok(())
}

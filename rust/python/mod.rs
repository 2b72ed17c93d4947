//! PyO3 bindings: the private extension module `genial._core`.
//!
//! Thin wrappers over the core; `convert` is the one place core errors become Python
//! exceptions. The public API is re-exported by `python/genial/__init__.py`.

mod analysis;
mod bots;
mod convert;
mod game;
mod rl;
mod sim;
mod types;
mod svg;

use crate::variants::Variant;
use pyo3::prelude::*;

/// `(name, player_counts, track_max)` for every variant.
#[pyfunction]
fn variant_table() -> Vec<(&'static str, Vec<usize>, i8)> {
    Variant::ALL
        .iter()
        .map(|v| (v.name(), v.player_counts().to_vec(), v.track_max()))
        .collect()
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("IllegalMoveError", m.py().get_type::<convert::IllegalMoveError>())?;
    m.add_class::<types::PyTile>()?;
    m.add_class::<types::PyMove>()?;
    m.add_class::<types::PyBoard>()?;
    m.add_class::<game::PyGameState>()?;
    m.add_class::<game::LegalMoves>()?;
    m.add_class::<game::PlayResult>()?;
    m.add_class::<bots::PyBuiltinBot>()?;
    m.add_function(wrap_pyfunction!(variant_table, m)?)?;
    rl::register(m)?;
    sim::register(m)?;
    analysis::register(m)?;
    Ok(())
}

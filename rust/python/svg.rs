//! `Board.to_svg` and `Board._repr_svg_`: the picture is drawn in Python (`genial.svg`);
//! these methods only make it reachable from the board itself, as notebooks expect.

use super::types::PyBoard;
use pyo3::prelude::*;
use pyo3::types::PyDict;

#[pymethods]
impl PyBoard {
    /// An SVG picture of the board; keyword arguments as for `genial.svg.board_svg`.
    #[pyo3(signature = (**options))]
    fn to_svg(slf: &Bound<'_, Self>, options: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
        let draw = slf.py().import("genial.svg")?.getattr("board_svg")?;
        draw.call((slf,), options)?.extract()
    }

    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        Self::to_svg(slf, None)
    }
}

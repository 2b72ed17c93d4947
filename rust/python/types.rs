//! Value types: `Tile`, `Move`, and the analysis `Board`.

use super::convert::{
    cell_to_py, color_to_py, colors_tuple, extract_cell, extract_color, parse_tile, IllegalMoveError, Text,
};
use crate::board::{Board, BoardError, EMPTY, SYMBOLS};
use crate::hex::{zone, Cell};
use crate::moves::{Move, Placement};
use crate::tiles::Tile;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{PyBool, PyList, PyString, PyTuple};
use pyo3::PyTypeInfo;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

fn hash_of<T: Hash>(x: &T) -> u64 {
    let mut h = DefaultHasher::new();
    x.hash(&mut h);
    h.finish()
}

/// `__richcmp__` of a value wrapper: the core's order against a value of the same kind,
/// `NotImplemented` against anything else (`None`).
fn compared<T: Ord>(py: Python<'_>, mine: &T, theirs: Option<T>, op: CompareOp) -> Py<PyAny> {
    match theirs {
        Some(o) => PyBool::new(py, op.matches(mine.cmp(&o))).to_owned().into_any().unbind(),
        None => py.NotImplemented(),
    }
}

/// `__reduce__` of a value with a text form: pickled as its text, read back by `parse`.
fn by_text<'py, W: PyTypeInfo>(py: Python<'py>, text: String) -> PyResult<(Bound<'py, PyAny>, (String,))> {
    Ok((py.get_type::<W>().getattr("parse")?, (text,)))
}

/// A two-hex tile: two colours, unordered (`Tile(RED, BLUE) == Tile(BLUE, RED)`).
#[pyclass(name = "Tile", module = "genial", frozen)]
#[derive(Clone, Copy)]
pub struct PyTile(pub Tile);

#[pymethods]
impl PyTile {
    #[new]
    fn new(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyTile(Tile::new(extract_color(a)?, extract_color(b)?)))
    }

    /// Reads `"RB"`, `"R/B"` or `"red/blue"`.
    #[staticmethod]
    fn parse(text: Text) -> PyResult<Self> {
        Ok(PyTile(parse_tile(&text)?))
    }

    /// The two colours, lower first.
    #[getter]
    fn colors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let (a, b) = self.0.colors();
        colors_tuple(py, a, b)
    }

    #[getter]
    fn is_double(&self) -> bool {
        self.0.is_double()
    }

    /// Index 0..21 of the tile's kind.
    #[getter]
    fn kind(&self) -> usize {
        self.0.kind()
    }

    fn shows(&self, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.0.shows(extract_color(color)?))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Tile.parse({:?})", self.0.to_string())
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.0)
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        compared(other.py(), &self.0, other.cast::<PyTile>().ok().map(|o| o.get().0), op)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        by_text::<PyTile>(py, self.0.to_string())
    }
}

/// A move: a placement of a tile on two adjacent cells, `swap`, or `keep` (decline a swap).
///
/// Immutable and hashable; `Move.parse(str(m)) == m`.
#[pyclass(name = "Move", module = "genial", frozen)]
#[derive(Clone, Copy)]
pub struct PyMove(pub Move);

#[pymethods]
impl PyMove {
    /// Reads the text form: `"R0,-4+B1,-4"`, `"swap"`, `"keep"`.
    #[staticmethod]
    fn parse(text: Text) -> PyResult<Self> {
        text.parse::<Move>().map(PyMove).map_err(|e| IllegalMoveError::new_err(e.0))
    }

    /// The placement of `color_a` on `cell_a` and `color_b` on `cell_b`.
    #[staticmethod]
    fn place(
        cell_a: &Bound<'_, PyAny>,
        color_a: &Bound<'_, PyAny>,
        cell_b: &Bound<'_, PyAny>,
        color_b: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let a = extract_cell(cell_a)?;
        let b = extract_cell(cell_b)?;
        if a.direction_to(b).is_none() {
            return Err(IllegalMoveError::new_err(BoardError::NotAdjacent(a, b).to_string()));
        }
        Ok(PyMove(Move::Place(Placement::new(a, extract_color(color_a)?, b, extract_color(color_b)?))))
    }

    #[staticmethod]
    fn swap() -> Self {
        PyMove(Move::Swap)
    }

    #[staticmethod]
    fn keep() -> Self {
        PyMove(Move::Keep)
    }

    /// `"place"`, `"swap"` or `"keep"`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.0 {
            Move::Place(_) => "place",
            Move::Swap => "swap",
            Move::Keep => "keep",
        }
    }

    #[getter]
    fn is_placement(&self) -> bool {
        matches!(self.0, Move::Place(_))
    }

    /// The two cells of a placement (in canonical order), else `None`.
    #[getter]
    fn cells<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        match self.0 {
            Move::Place(p) => Ok(Some(PyTuple::new(py, [cell_to_py(py, p.a)?, cell_to_py(py, p.b)?])?)),
            _ => Ok(None),
        }
    }

    /// The colours put on `cells`, in the same order, else `None`.
    #[getter]
    fn colors<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        match self.0 {
            Move::Place(p) => Ok(Some(colors_tuple(py, p.ca, p.cb)?)),
            _ => Ok(None),
        }
    }

    /// The tile a placement uses, else `None`.
    #[getter]
    fn tile(&self) -> Option<PyTile> {
        match self.0 {
            Move::Place(p) => Some(PyTile(p.tile())),
            _ => None,
        }
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move.parse({:?})", self.0.to_string())
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.0)
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        compared(other.py(), &self.0, other.cast::<PyMove>().ok().map(|o| o.get().0), op)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        by_text::<PyMove>(py, self.0.to_string())
    }
}

/// A position without turn flow, for analysis and tests: the zone of a player count with
/// its printed symbols; colours can be put on any free cells and placements scored.
#[pyclass(name = "Board", module = "genial")]
#[derive(Clone)]
pub struct PyBoard(pub Board);

fn placement_args(
    board: &Board,
    cell_a: &Bound<'_, PyAny>,
    color_a: &Bound<'_, PyAny>,
    cell_b: &Bound<'_, PyAny>,
    color_b: &Bound<'_, PyAny>,
) -> PyResult<(Cell, u8, Cell, u8, usize)> {
    let a = extract_cell(cell_a)?;
    let b = extract_cell(cell_b)?;
    let ca = extract_color(color_a)?;
    let cb = extract_color(color_b)?;
    let dir = board.check_pair(a, b)?;
    Ok((a, ca, b, cb, dir))
}

#[pymethods]
impl PyBoard {
    /// An SVG picture of the board; keyword arguments as for `genial.svg.board_svg` (drawn
    /// in Python; reachable from the board itself, as notebooks expect).
    #[pyo3(signature = (**options))]
    fn to_svg(slf: &Bound<'_, Self>, options: Option<&Bound<'_, pyo3::types::PyDict>>) -> PyResult<String> {
        let draw = slf.py().import("genial.svg")?.getattr("board_svg")?;
        draw.call((slf,), options)?.extract()
    }

    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        Self::to_svg(slf, None)
    }

    #[new]
    #[pyo3(signature = (players = None))]
    fn new(players: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let players = match players {
            None => 2,
            Some(obj) => super::convert::extract_players(obj)?,
        };
        Ok(PyBoard(Board::for_players(players)))
    }

    /// Zone radius: 5 (1–2 players), 6 (3) or 7 (4).
    #[getter]
    fn radius(&self) -> i32 {
        self.0.radius()
    }

    /// Puts `color_a` on `cell_a` and `color_b` on `cell_b` (two adjacent free cells of the
    /// zone) and returns the points of each half, `(points_a, points_b)`.
    fn place(
        &mut self,
        cell_a: &Bound<'_, PyAny>,
        color_a: &Bound<'_, PyAny>,
        cell_b: &Bound<'_, PyAny>,
        color_b: &Bound<'_, PyAny>,
    ) -> PyResult<(u8, u8)> {
        let (a, ca, b, cb, dir) = placement_args(&self.0, cell_a, color_a, cell_b, color_b)?;
        let pts = self.0.placement_points(a, ca, b, cb, dir);
        self.0.place_unchecked(a, ca, b, cb);
        Ok(pts)
    }

    /// The points `place` would score, without changing the board.
    fn preview(
        &self,
        cell_a: &Bound<'_, PyAny>,
        color_a: &Bound<'_, PyAny>,
        cell_b: &Bound<'_, PyAny>,
        color_b: &Bound<'_, PyAny>,
    ) -> PyResult<(u8, u8)> {
        let (a, ca, b, cb, dir) = placement_args(&self.0, cell_a, color_a, cell_b, color_b)?;
        Ok(self.0.placement_points(a, ca, b, cb, dir))
    }

    /// Puts one colour on one free cell (to build arbitrary positions).
    fn set(&mut self, cell: &Bound<'_, PyAny>, color: &Bound<'_, PyAny>) -> PyResult<()> {
        let c = extract_cell(cell)?;
        self.0.set(c, extract_color(color)?)?;
        Ok(())
    }

    /// The colour at `cell` (a tile half or a printed symbol), or `None` if it is free.
    /// Raises `ValueError` for a cell outside the zone.
    fn __getitem__(&self, py: Python<'_>, cell: &Bound<'_, PyAny>) -> PyResult<Option<Py<PyAny>>> {
        let c = extract_cell(cell)?;
        if !self.0.in_zone(c) {
            return Err(PyValueError::new_err(format!("cell {:?} is outside the playing zone", c.axial())));
        }
        match self.0.get(c) {
            EMPTY => Ok(None),
            col => Ok(Some(color_to_py(py, col)?)),
        }
    }

    fn is_free(&self, cell: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.0.is_free(extract_cell(cell)?))
    }

    fn in_zone(&self, cell: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.0.in_zone(extract_cell(cell)?))
    }

    /// Every cell of the zone, by row.
    fn cells<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let cells: Vec<_> = zone(self.0.radius()).cells.iter().map(|&c| cell_to_py(py, c)).collect::<PyResult<_>>()?;
        PyList::new(py, cells)
    }

    fn free_cells<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let cells: Vec<_> = self.0.free_cells().map(|c| cell_to_py(py, c)).collect::<PyResult<_>>()?;
        PyList::new(py, cells)
    }

    /// Pairs of adjacent free cells.
    fn free_pairs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let pairs: Vec<_> = self
            .0
            .free_pair_list()
            .map(|(a, b)| PyTuple::new(py, [cell_to_py(py, a)?, cell_to_py(py, b)?]))
            .collect::<PyResult<_>>()?;
        PyList::new(py, pairs)
    }

    /// Number of pairs of adjacent free cells (the game ends at 0).
    #[getter]
    fn free_pair_count(&self) -> usize {
        self.0.free_pairs()
    }

    /// Occupied cells as `{(q, r): Color}`, printed symbols included.
    fn occupied<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let d = pyo3::types::PyDict::new(py);
        for &c in &zone(self.0.radius()).cells {
            let v = self.0.get(c);
            if v != EMPTY {
                d.set_item(cell_to_py(py, c)?, color_to_py(py, v)?)?;
            }
        }
        Ok(d)
    }

    /// The printed symbols as `((q, r), Color)` pairs.
    #[staticmethod]
    fn symbols<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items: Vec<_> = SYMBOLS
            .iter()
            .map(|&(q, r, col)| {
                PyTuple::new(py, [PyTuple::new(py, [q, r])?.into_any(), color_to_py(py, col)?.into_bound(py)])
            })
            .collect::<PyResult<_>>()?;
        PyList::new(py, items)
    }

    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyBoard>().map(|o| o.borrow().0 == self.0).unwrap_or(false)
    }

    fn __repr__(&self) -> String {
        let occupied = zone(self.0.radius()).cells.iter().filter(|&&c| self.0.get(c) != EMPTY).count();
        format!("<Board radius={} occupied={} free_pairs={}>", self.0.radius(), occupied, self.0.free_pairs())
    }
}

/// A tile from a `Tile`, a pair of colours, or text such as `"RB"` or `"red/blue"`.
pub fn extract_tile(obj: &Bound<'_, PyAny>) -> PyResult<Tile> {
    if let Ok(t) = obj.cast::<PyTile>() {
        return Ok(t.get().0);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return parse_tile(&s.to_string_lossy());
    }
    if let Ok((a, b)) = obj.extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>() {
        return Ok(Tile::new(extract_color(&a)?, extract_color(&b)?));
    }
    Err(PyTypeError::new_err(format!(
        "a tile is a genial.Tile, a pair of colours or text like \"RB\", not {}",
        obj.get_type().name()?
    )))
}

/// A move from a `Move` or its text.
pub fn extract_move(obj: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(m) = obj.cast::<PyMove>() {
        return Ok(m.get().0);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        // Lossy: a lone surrogate is unreadable text like any other, not a `UnicodeEncodeError`.
        return s.to_string_lossy().parse::<Move>().map_err(|e| IllegalMoveError::new_err(e.0));
    }
    Err(PyTypeError::new_err(format!(
        "a move is a genial.Move or its text (like \"R0,-4+B1,-4\"), not {}",
        obj.get_type().name()?
    )))
}

//! Conversions between Python values and core types, and the one place core errors become
//! Python exceptions.

use crate::actions::ActionError;
use crate::board::BoardError;
use crate::game::{MoveError, SetupError};
use crate::hex::Cell;
use crate::record::UndoError;
use crate::tiles::{parse_color, Color, Tile, COLORS};
use crate::variants::ConfigError;
use pyo3::exceptions::{PyIndexError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyString, PyTuple};

pyo3::create_exception!(
    genial,
    IllegalMoveError,
    PyValueError,
    "A move that the rules do not allow now; the game is left unchanged."
);

impl From<MoveError> for PyErr {
    fn from(e: MoveError) -> PyErr {
        IllegalMoveError::new_err(e.to_string())
    }
}

impl From<BoardError> for PyErr {
    fn from(e: BoardError) -> PyErr {
        IllegalMoveError::new_err(e.to_string())
    }
}

/// An impossible rule set (a variant with the wrong player count, ...): `ValueError`.
impl From<ConfigError> for PyErr {
    fn from(e: ConfigError) -> PyErr {
        PyValueError::new_err(e.0)
    }
}

/// A bag that is not the game's 120 tiles: `ValueError`.
impl From<SetupError> for PyErr {
    fn from(e: SetupError) -> PyErr {
        PyValueError::new_err(e.0)
    }
}

/// Nothing to take back (`IndexError`, as `list.pop`), or a copy without a start (`ValueError`).
impl From<UndoError> for PyErr {
    fn from(e: UndoError) -> PyErr {
        match e {
            UndoError::NothingToUndo => PyIndexError::new_err(e.to_string()),
            UndoError::NoOrigin => PyValueError::new_err(e.to_string()),
        }
    }
}

/// An action out of range is a `ValueError`; one that names no legal move, `IllegalMoveError`.
impl From<ActionError> for PyErr {
    fn from(e: ActionError) -> PyErr {
        match e {
            ActionError::OutOfRange(_) => PyValueError::new_err(e.to_string()),
            _ => IllegalMoveError::new_err(e.to_string()),
        }
    }
}

pyo3::create_exception!(
    genial,
    BotOptionError,
    PyValueError,
    "A bot option that the bot does not take, or a value outside the option's bounds."
);

pyo3::create_exception!(
    genial,
    NotYourTurnError,
    PyValueError,
    "A decision asked of a seat that is not to move (a bot or analysis given another seat's view)."
);

pyo3::create_exception!(
    genial,
    BusyError,
    pyo3::exceptions::PyRuntimeError,
    "An object that one thread at a time may use (a bot, a VecEnv) is in use by another thread."
);

/// Text from Python with any lone surrogate (such as JSON's `\ud800` escape can carry)
/// replaced by U+FFFD, so that such text reads as bad input with the usual error instead of
/// raising `UnicodeEncodeError`. Anything but a `str` is a `TypeError`.
pub struct Text(pub String);

impl<'a, 'py> FromPyObject<'a, 'py> for Text {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match obj.cast::<PyString>() {
            Ok(s) => Ok(Text(s.to_string_lossy().into_owned())),
            Err(_) => Err(PyTypeError::new_err(format!("expected a str, not {}", obj.get_type().name()?))),
        }
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Text {
        Text(text.to_owned())
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// The members of `genial.Color`, by value.
fn color_members(py: Python<'_>) -> PyResult<&Py<PyTuple>> {
    static MEMBERS: PyOnceLock<Py<PyTuple>> = PyOnceLock::new();
    MEMBERS.get_or_try_init(py, || {
        let cls = py.import("genial.colors")?.getattr("Color")?;
        let members: Vec<Bound<'_, PyAny>> = (0..COLORS).map(|i| cls.call1((i,))).collect::<PyResult<_>>()?;
        Ok(PyTuple::new(py, members)?.unbind())
    })
}

/// `genial.Color` member for a core colour.
pub fn color_to_py(py: Python<'_>, c: Color) -> PyResult<Py<PyAny>> {
    Ok(color_members(py)?.bind(py).get_item(c as usize)?.unbind())
}

/// A tuple of six values as `genial.Color`-indexed tuple (plain ints).
pub fn colors_tuple<'py>(py: Python<'py>, a: Color, b: Color) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, [color_to_py(py, a)?, color_to_py(py, b)?])
}

/// A colour from a `Color`, an int 0..5, or a name or letter.
pub fn extract_color(obj: &Bound<'_, PyAny>) -> PyResult<Color> {
    if let Ok(s) = obj.cast::<PyString>() {
        let text = s.to_string_lossy();
        let text: &str = &text;
        return parse_color(text).ok_or_else(|| {
            PyValueError::new_err(format!(
                "{text:?} is not a colour: use red, orange, yellow, green, blue, purple or R O Y G B P"
            ))
        });
    }
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err("a colour is a genial.Color, an int 0..5 or a name, not a bool"));
    }
    match obj.extract::<i64>() {
        Ok(v) if (0..COLORS as i64).contains(&v) => Ok(v as Color),
        Ok(v) => Err(PyValueError::new_err(format!("colour {v} is out of range 0..5"))),
        Err(_) => Err(PyTypeError::new_err(format!(
            "a colour is a genial.Color, an int 0..5 or a name, not {}",
            obj.get_type().name()?
        ))),
    }
}

/// An int argument that must lie in `lo..=hi` (`range` says so in words): a `TypeError`
/// naming `what` for anything but an int (bools included), a `ValueError` for an int out of
/// range, however large (PyO3's own conversion would raise `OverflowError` past 64 bits).
pub fn extract_int_in(obj: &Bound<'_, PyAny>, what: &str, lo: i64, hi: i64, range: &str) -> PyResult<i64> {
    let out_of_range = || {
        let shown = obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into());
        PyValueError::new_err(format!("{what} must be {range}, not {shown}"))
    };
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!("{what} must be an int, not bool")));
    }
    match obj.extract::<i64>() {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        Ok(_) => Err(out_of_range()),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(out_of_range()),
        Err(_) => Err(PyTypeError::new_err(format!("{what} must be an int, not {}", obj.get_type().name()?))),
    }
}

/// A seat number `0..players`.
pub fn extract_seat(obj: &Bound<'_, PyAny>, players: usize) -> PyResult<usize> {
    let n = players as i64;
    extract_int_in(obj, "player", 0, n - 1, &format!("0..{}", n - 1)).map(|v| v as usize)
}

/// A player count 1..4.
pub fn extract_players(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    extract_int_in(obj, "players", 1, 4, "1 to 4").map(|v| v as usize)
}

/// A cell from a `(q, r)` pair of ints (numpy integers too, bools not); must lie on the
/// board (distance ≤ 7). A coordinate of any size off the board is a `ValueError`.
pub fn extract_cell(obj: &Bound<'_, PyAny>) -> PyResult<Cell> {
    let shown = || obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into());
    let not_a_cell = || PyTypeError::new_err(format!("a cell is a (q, r) tuple of two ints, not {}", shown()));
    let (q, r): (Bound<'_, PyAny>, Bound<'_, PyAny>) = obj.extract().map_err(|_| not_a_cell())?;
    // `None`: an int too large for 64 bits, off the board like any far coordinate.
    let coordinate = |v: &Bound<'_, PyAny>| -> PyResult<Option<i64>> {
        if v.is_instance_of::<PyBool>() {
            return Err(not_a_cell());
        }
        match v.extract::<i64>() {
            Ok(x) => Ok(Some(x)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Ok(None),
            Err(_) => Err(not_a_cell()),
        }
    };
    match (coordinate(&q)?, coordinate(&r)?) {
        // `unsigned_abs`: `i64::MIN.abs()` overflows (and wrapped the cell onto the board).
        (Some(q), Some(r)) if q.unsigned_abs() <= 64 && r.unsigned_abs() <= 64 => Cell::new(q as i32, r as i32)
            .ok_or_else(|| PyValueError::new_err(format!("cell ({q}, {r}) is off the board (distance > 7)"))),
        _ => Err(PyValueError::new_err(format!("cell {} is off the board", shown()))),
    }
}

pub fn cell_to_py(py: Python<'_>, c: Cell) -> PyResult<Bound<'_, PyTuple>> {
    PyTuple::new(py, [c.q(), c.r()])
}

pub fn parse_tile(text: &str) -> PyResult<Tile> {
    let t = text.trim();
    let parts: Vec<&str> = if let Some(i) = t.find(['/', '-', '+', ' ', ',']) {
        vec![&t[..i], &t[i + 1..]]
    } else if t.chars().count() == 2 && t.is_ascii() {
        vec![&t[..1], &t[1..]]
    } else {
        vec![t]
    };
    if parts.len() == 2 {
        if let (Some(a), Some(b)) = (parse_color(parts[0]), parse_color(parts[1])) {
            return Ok(Tile::new(a, b));
        }
    }
    Err(PyValueError::new_err(format!(
        "cannot read tile {t:?}: use two colour letters like \"RB\" or names like \"red/blue\""
    )))
}

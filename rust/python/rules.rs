//! The facts of every rule set, for Python to read instead of restating them: players,
//! tracks, teams and sides, phase and end names, the board's cells and directions.

use super::convert::{extract_players, extract_seat, Text};
use super::game::config_from;
use crate::game::{End, Phase};
use crate::hex::{Cell, BOARD_CELLS, DIRECTIONS};
use crate::variants::{Config, SwapTiming, Variant};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A complete choice of rules: a variant, its player count and the edition options.
#[pyclass(name = "Rules", module = "genial", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyRules(pub Config);

#[pymethods]
impl PyRules {
    /// `players=None` takes the variant's default (its only or smallest player count).
    #[new]
    /// Names come as `Text`, so that one with a lone surrogate is refused as an unknown name;
    /// `None` takes the default.
    #[pyo3(signature = (variant = None, players = None, *, swap_timing = None, require_contact = false))]
    fn new(
        variant: Option<Text>,
        players: Option<&Bound<'_, PyAny>>,
        swap_timing: Option<Text>,
        require_contact: bool,
    ) -> PyResult<Self> {
        // Text: a lone surrogate is an unknown name, not a `UnicodeEncodeError`.
        let variant = variant.as_deref().unwrap_or("standard");
        let swap_timing = swap_timing.as_deref().unwrap_or("after_placement");
        let players = match players {
            Some(p) if !p.is_none() => extract_players(p)?,
            _ => Variant::parse(variant).map_or(2, Variant::default_players),
        };
        Ok(PyRules(config_from(players as i64, variant, swap_timing, require_contact)?))
    }

    /// Every valid rule set: each variant and player count with each edition option.
    #[staticmethod]
    fn all() -> Vec<PyRules> {
        Config::all().into_iter().map(PyRules).collect()
    }

    #[getter]
    fn variant(&self) -> &'static str {
        self.0.variant.name()
    }
    #[getter]
    fn players(&self) -> usize {
        self.0.players()
    }
    #[getter]
    fn swap_timing(&self) -> &'static str {
        self.0.swap_timing.name()
    }
    #[getter]
    fn require_contact(&self) -> bool {
        self.0.require_contact
    }
    /// One line on how the variant plays.
    #[getter]
    fn description(&self) -> &'static str {
        self.0.variant.description()
    }
    /// The player counts the variant is played with.
    #[getter]
    fn player_counts(&self) -> Vec<usize> {
        self.0.variant.player_counts().to_vec()
    }
    /// Tiles a player holds.
    #[getter]
    fn rack_size(&self) -> usize {
        self.0.rack_size()
    }
    /// Number of tracks: one per seat, per team, or one (solo, and the duel's shared track).
    #[getter]
    fn track_count(&self) -> usize {
        self.0.track_count()
    }
    /// Lowest marker value as stored in `Game.tracks` (−9 on the duel's signed track).
    #[getter]
    fn track_min(&self) -> i8 {
        self.0.variant.track_min()
    }
    /// Highest marker value, seen from a track's owner.
    #[getter]
    fn track_max(&self) -> i8 {
        self.0.variant.track_max()
    }
    /// The tracks are one shared tug of war, positive toward seat 0 (the duel).
    #[getter]
    fn shared_track(&self) -> bool {
        self.0.variant == Variant::Duel
    }
    /// `Game.rank_key` starts with the number of markers on the seat's side (the duel).
    #[getter]
    fn rank_key_counts_markers(&self) -> bool {
        self.0.variant == Variant::Duel
    }
    /// Competing sides: the two teams of the team game, else the seats.
    #[getter]
    fn sides(&self) -> usize {
        self.0.sides()
    }
    /// The variant has a swap.
    #[getter]
    fn has_swap(&self) -> bool {
        self.0.has_swap()
    }
    /// Reaching a track's goal earns bonus placements.
    #[getter]
    fn has_bonus(&self) -> bool {
        self.0.has_bonus()
    }
    /// The game's result is one seat's lowest score, not a ranking (the solo game).
    #[getter]
    fn scored_alone(&self) -> bool {
        self.0.sides() == 1
    }
    /// The team of a seat (0: seats 0 and 2, 1: seats 1 and 3), or `None` outside the team game.
    fn team_of(&self, player: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        Ok(self.0.team_of(extract_seat(player, self.0.players())?))
    }
    /// The side a seat competes for: its team in the team game, else the seat.
    fn side_of(&self, player: &Bound<'_, PyAny>) -> PyResult<usize> {
        Ok(self.0.side_of(extract_seat(player, self.0.players())?))
    }
    /// The track a seat scores on (an index into `Game.tracks`).
    fn track_of(&self, player: &Bound<'_, PyAny>) -> PyResult<usize> {
        Ok(self.0.track_of(extract_seat(player, self.0.players())?))
    }
    /// The seats scoring on a track.
    fn seats_of_track(&self, track: usize) -> PyResult<Vec<usize>> {
        if track >= self.0.track_count() {
            return Err(PyValueError::new_err(format!("track must be 0..{}, not {track}", self.0.track_count() - 1)));
        }
        Ok((0..self.0.players()).filter(|&p| self.0.track_of(p) == track).collect())
    }

    fn __repr__(&self) -> String {
        let mut s = format!("Rules({:?}, {}", self.0.variant.name(), self.0.players());
        if self.0.swap_timing != SwapTiming::AfterPlacement {
            s += &format!(", swap_timing={:?}", self.0.swap_timing.name());
        }
        if self.0.require_contact {
            s += ", require_contact=True";
        }
        s + ")"
    }

    /// Pickling: the constructor's arguments.
    fn __getnewargs_ex__<'py>(&self, py: Python<'py>) -> PyResult<((&'static str, usize), Bound<'py, PyDict>)> {
        let kwargs = PyDict::new(py);
        kwargs.set_item("swap_timing", self.0.swap_timing.name())?;
        kwargs.set_item("require_contact", self.0.require_contact)?;
        Ok(((self.0.variant.name(), self.0.players()), kwargs))
    }
}

/// Names of the phases, in the order of the observation's one-hot block.
#[pyfunction]
fn phase_names() -> Vec<&'static str> {
    Phase::ALL.iter().map(|p| p.name()).collect()
}

/// Names of the end reasons, by code (the `end` column of simulation results).
#[pyfunction]
fn end_names() -> Vec<&'static str> {
    End::NAMES.to_vec()
}

/// The names of the variants, in the core's order.
#[pyfunction]
fn variant_names() -> Vec<&'static str> {
    Variant::ALL.iter().map(|v| v.name()).collect()
}

/// Every board cell `(q, r)` in dense order (by `r`, then `q`; the index used by actions
/// and observations).
#[pyfunction]
fn board_cells() -> Vec<(i32, i32)> {
    (0..BOARD_CELLS).map(|i| Cell::from_dense(i).expect("169 board cells").axial()).collect()
}

/// The six neighbour directions `(dq, dr)`, in the engine's order.
#[pyfunction]
fn directions() -> Vec<(i32, i32)> {
    DIRECTIONS.to_vec()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRules>()?;
    m.add_function(wrap_pyfunction!(phase_names, m)?)?;
    m.add_function(wrap_pyfunction!(end_names, m)?)?;
    m.add_function(wrap_pyfunction!(variant_names, m)?)?;
    m.add_function(wrap_pyfunction!(board_cells, m)?)?;
    m.add_function(wrap_pyfunction!(directions, m)?)?;
    Ok(())
}

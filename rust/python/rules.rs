//! The facts of every rule set, for Python to read instead of restating them: players,
//! tracks, teams and sides, phase and end names, the board's cells and directions.

use super::convert::{extract_players, extract_seat, Text};
use crate::game::{End, Phase};
use crate::hex::{Cell, BOARD_CELLS, DIRECTIONS};
use crate::variants::{Config, ConfigError, RuleOption, Variant, RULE_OPTIONS};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString};

/// `variant` for `players` with every option at its default, from the loose arguments of a
/// call that takes no options (the self-play of training).
pub fn config_of(players: i64, variant: &str) -> PyResult<Config> {
    let players = players.to_string();
    Ok(Config::from_pairs([("variant", variant), ("players", players.as_str())])?)
}

/// An option's value from Python as the text form writes it: a bool for a flag, else a str.
fn option_text(option: &RuleOption, value: &Bound<'_, PyAny>) -> PyResult<String> {
    if option.is_flag() {
        let flag = value
            .cast::<PyBool>()
            .map_err(|_| PyTypeError::new_err(format!("{} must be a bool, not {}", option.name, type_name(value))))?;
        return Ok(if flag.is_true() { "true" } else { "false" }.to_string());
    }
    let text = value
        .cast::<PyString>()
        .map_err(|_| PyTypeError::new_err(format!("{} must be a str, not {}", option.name, type_name(value))))?;
    Ok(text.to_string_lossy().into_owned())
}

/// An option's value as Python sees it: a bool for a flag, else its text.
fn option_value<'py>(py: Python<'py>, option: &RuleOption, text: &str) -> PyResult<Bound<'py, PyAny>> {
    Ok(if option.is_flag() {
        PyBool::new(py, text == "true").to_owned().into_any()
    } else {
        text.into_pyobject(py)?.into_any()
    })
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

fn find_option(name: &str) -> Option<&'static RuleOption> {
    RULE_OPTIONS.iter().find(|o| o.name == name)
}

/// A complete choice of rules: a variant, its player count and the edition options. Its one
/// text form (`str(rules)`, `Rules.from_text`) is the core's (`Config::to_text`).
#[pyclass(name = "Rules", module = "genial", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyRules(pub Config);

#[pymethods]
impl PyRules {
    /// `players=None` takes the variant's default (its only or smallest player count); the
    /// edition options come as keywords (`swap_timing="instead_of_placement"`, ...), each at
    /// its default when left out.
    #[new]
    #[pyo3(signature = (variant = None, players = None, **options))]
    fn new(
        variant: Option<Text>,
        players: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        // Text: a lone surrogate is an unknown name, not a `UnicodeEncodeError`.
        let variant = variant.as_deref().unwrap_or("standard");
        let players = match players {
            Some(p) if !p.is_none() => Some(extract_players(p)?.to_string()),
            _ => None,
        };
        let mut texts: Vec<(String, String)> = vec![("variant".into(), variant.into())];
        texts.extend(players.map(|p| ("players".into(), p)));
        for (key, value) in options.into_iter().flatten() {
            let key: String = key.extract()?;
            let option = find_option(&key).ok_or_else(|| {
                let names: Vec<&str> = RULE_OPTIONS.iter().map(|o| o.name).collect();
                PyTypeError::new_err(format!(
                    "Rules() got an unknown rule option {key:?}: the options are {}",
                    names.join(", ")
                ))
            })?;
            texts.push((key, option_text(option, &value)?));
        }
        Ok(PyRules(Config::from_pairs(texts.iter().map(|(k, v)| (k.as_str(), v.as_str())))?))
    }

    /// Reads the text form, `version=1 variant=standard players=2 ...` (pairs in any order;
    /// a missing option takes its default; an unknown or repeated key is a `ValueError`).
    #[staticmethod]
    fn from_text(text: Text) -> PyResult<Self> {
        Ok(PyRules(Config::parse_text(&text)?))
    }

    /// The one text form, every key written.
    #[allow(clippy::wrong_self_convention)] // pyo3 methods take &self
    fn to_text(&self) -> String {
        self.0.to_text()
    }

    fn __str__(&self) -> String {
        self.0.to_text()
    }

    /// The rule set as a JSON-ready dict: `version`, `variant`, `players` (an int) and each
    /// option (a bool for a flag, else its text).
    #[allow(clippy::wrong_self_convention)] // pyo3 methods take &self
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("version", Config::TEXT_VERSION)?;
        d.set_item("variant", self.0.variant.name())?;
        d.set_item("players", self.0.players())?;
        for o in RULE_OPTIONS {
            d.set_item(o.name, option_value(py, o, o.value_in(&self.0))?)?;
        }
        Ok(d)
    }

    /// Reads `to_dict`'s form (keys may be missing, as in `from_text`); a value of the wrong
    /// type, an unknown key or a bad value is a `ValueError` naming it.
    #[staticmethod]
    fn from_dict(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let data = data.cast::<PyDict>().map_err(|_| {
            PyValueError::new_err(format!("a rule set is an object of key/value pairs, not {}", type_name(data)))
        })?;
        let mut texts: Vec<(String, String)> = Vec::new();
        for (key, value) in data.iter() {
            let key: String = key
                .extract()
                .map_err(|_| PyValueError::new_err(format!("a rule set's keys are text, not {}", type_name(&key))))?;
            let wrong = |kind: &str| {
                PyValueError::new_err(format!("rule set field {key:?} must be {kind}, not {}", type_name(&value)))
            };
            let text = match key.as_str() {
                "version" | "players" => {
                    if value.is_instance_of::<PyBool>() {
                        return Err(wrong("an int"));
                    }
                    match value.extract::<i64>() {
                        Ok(v) => v.to_string(),
                        // An int past 64 bits is still an int: the core refuses its value
                        // in its own words ("players must be 1 to 4, not ...").
                        Err(_) if value.is_instance_of::<PyInt>() => value.str()?.to_string(),
                        Err(_) => return Err(wrong("an int")),
                    }
                }
                "variant" => value.cast::<PyString>().map_err(|_| wrong("a str"))?.to_string_lossy().into_owned(),
                _ => match find_option(&key) {
                    Some(o) => option_text(o, &value).map_err(|e| PyValueError::new_err(e.to_string()))?,
                    None => String::new(), // the core refuses the unknown key, naming the known ones
                },
            };
            texts.push((key, text));
        }
        Ok(PyRules(Config::from_pairs(texts.iter().map(|(k, v)| (k.as_str(), v.as_str())))?))
    }

    /// The edition options, in the text form's order: each a dict of `name`, `values`,
    /// `default`, `help` and `flag` (values and default as `to_dict` gives them).
    #[staticmethod]
    fn options(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
        let out = PyList::empty(py);
        for o in RULE_OPTIONS {
            let d = PyDict::new(py);
            d.set_item("name", o.name)?;
            let values = o.values.iter().map(|v| option_value(py, o, v)).collect::<PyResult<Vec<_>>>()?;
            d.set_item("values", values)?;
            d.set_item("default", option_value(py, o, o.default_value())?)?;
            d.set_item("help", o.help)?;
            d.set_item("flag", o.is_flag())?;
            out.append(d)?;
        }
        Ok(out)
    }

    /// The value of the edition option `name` (a bool for a flag, else its text).
    fn option<'py>(&self, py: Python<'py>, name: Text) -> PyResult<Bound<'py, PyAny>> {
        let o =
            find_option(&name).ok_or_else(|| PyErr::from(ConfigError(format!("{:?} is no rule option", &*name))))?;
        option_value(py, o, o.value_in(&self.0))
    }

    /// The version of the text form this build writes (and the newest it reads).
    #[classattr]
    const TEXT_VERSION: u32 = Config::TEXT_VERSION;

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
        for o in RULE_OPTIONS {
            let value = o.value_in(&self.0);
            if value != o.default_value() {
                s += &match o.is_flag() {
                    true => format!(", {}={}", o.name, if value == "true" { "True" } else { "False" }),
                    false => format!(", {}={value:?}", o.name),
                };
            }
        }
        s + ")"
    }

    /// Pickling: the constructor's arguments.
    fn __getnewargs_ex__<'py>(&self, py: Python<'py>) -> PyResult<((&'static str, usize), Bound<'py, PyDict>)> {
        let kwargs = PyDict::new(py);
        for o in RULE_OPTIONS {
            kwargs.set_item(o.name, option_value(py, o, o.value_in(&self.0))?)?;
        }
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

//! The game with turn flow (`GameState`, wrapped by `genial.Game`), its lazy legal-move
//! sequence and the result of a move.

use super::convert::{color_to_py, extract_seat};
use super::rules::PyRules;
use super::types::{extract_move, extract_tile, PyBoard, PyMove, PyTile};
use crate::game::{Game, Phase, PlayResult, Preview};
use crate::moves::Move;
use crate::record::Record;
use crate::tiles::COLORS;
use crate::variants::NoBonus;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PySlice};
use std::sync::Arc;

/// The columns of `GameState.preview_table`.
const PREVIEW_COLUMNS: usize = 10 + COLORS;

/// A game with its start and history (`crate::record::Record`). `genial.Game` wraps one.
#[pyclass(name = "GameState", module = "genial._core")]
#[derive(Clone)]
pub struct PyGameState {
    pub record: Record,
    /// How a game set up by hand was written (`Game.from_setup`): its placements as text and
    /// its seed, for `genial.position.write_position` (the board keeps colours, not how its
    /// cells pair into tiles). Kept here rather than on `genial.Game` so that a copy costs
    /// a reference count, not a Python attribute store on every `Game.clone`.
    pub setup: Option<Arc<Setup>>,
}

/// The placements (as move text) a set-up game started from, and its seed (`None` when not
/// kept: a determinized copy's hidden tiles were dealt from another).
pub type Setup = (Vec<String>, Option<u64>);

impl PyGameState {
    #[inline]
    pub fn game(&self) -> &Game {
        self.record.game()
    }
}

/// One half of an explanation: `(cell, colour, toward_other, lines, points, line_cells)`.
type HalfRow = ((i32, i32), Py<PyAny>, u8, [u8; 6], u8, Vec<Vec<(i32, i32)>>);
/// One marker step: `(half, colour, points, from, to, cap, lost, bonuses, no_bonus)`.
type StepRow = (u8, Py<PyAny>, u8, i8, i8, i8, u8, u8, Option<&'static str>);
/// `GameState.explain`: `(player, halves, steps, bonuses, wins, scores_before, scores_after)`.
type ExplanationRow = (u8, Vec<HalfRow>, Vec<StepRow>, u8, bool, [i8; COLORS], [i8; COLORS]);

#[pymethods]
impl PyGameState {
    /// The seat number checked against the player count: any Python object, so that a
    /// non-int is a `TypeError` and an int of any size out of range a `ValueError`.
    pub fn check_seat(&self, player: &Bound<'_, PyAny>) -> PyResult<usize> {
        extract_seat(player, self.game().config().players())
    }

    /// A new game of `rules`, dealt from `seed` (or from `bag`, the full draw order).
    #[new]
    #[pyo3(signature = (rules, seed, bag = None))]
    fn new(rules: PyRef<'_, PyRules>, seed: u64, bag: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let config = rules.0;
        let record = match bag {
            None => Record::new(config, seed),
            Some(obj) => {
                let mut order = Vec::with_capacity(120);
                let items = obj.try_iter().map_err(|_| {
                    let kind = obj.get_type().name().map(|n| n.to_string()).unwrap_or_default();
                    PyTypeError::new_err(format!("bag must be an iterable of 120 tiles, not {kind}"))
                })?;
                for (i, item) in items.enumerate() {
                    if i >= 120 {
                        return Err(PyValueError::new_err("a bag must list exactly 120 tiles, this one lists more"));
                    }
                    // Keep the error's kind (TypeError for a non-tile, ValueError for bad text).
                    let t = extract_tile(&item?).map_err(|e| {
                        let py = obj.py();
                        let text = format!("bag item {i}: {}", e.value(py));
                        if e.is_instance_of::<PyTypeError>(py) {
                            PyTypeError::new_err(text)
                        } else {
                            PyValueError::new_err(text)
                        }
                    })?;
                    order.push(t);
                }
                Record::with_bag(config, &order, seed)?
            }
        };
        Ok(PyGameState { record, setup: None })
    }

    #[getter]
    fn players(&self) -> usize {
        self.game().config().players()
    }
    #[getter]
    fn variant(&self) -> &'static str {
        self.game().config().variant.name()
    }
    #[getter]
    fn swap_timing(&self) -> &'static str {
        self.game().config().swap_timing.name()
    }
    #[getter]
    fn require_contact(&self) -> bool {
        self.game().config().require_contact
    }
    /// The seed, or `None` for a determinized copy.
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.record.origin().map(|o| o.seed)
    }
    /// The initial draw order (120 tiles), or `None` for a determinized copy.
    #[getter]
    fn initial_bag(&self) -> Option<Vec<PyTile>> {
        self.record.origin().map(|o| o.draw_order.iter().map(|&t| PyTile(t)).collect())
    }
    #[getter]
    fn current_player(&self) -> usize {
        self.game().current_player()
    }
    #[getter]
    fn phase(&self) -> &'static str {
        self.game().phase().name()
    }
    #[getter]
    fn is_over(&self) -> bool {
        self.game().is_over()
    }
    /// Why the game ended (`board_full`, `no_placement`, `immediate_win`), or `None`.
    #[getter]
    fn end(&self) -> Option<&'static str> {
        self.game().end().map(|e| e.name())
    }
    #[getter]
    fn pending_bonuses(&self) -> usize {
        self.game().pending_bonuses()
    }
    #[getter]
    fn bag_size(&self) -> usize {
        self.game().bag().len()
    }
    #[getter]
    fn track_max(&self) -> i8 {
        self.game().config().variant.track_max()
    }

    fn rack(&self, player: &Bound<'_, PyAny>) -> PyResult<Vec<PyTile>> {
        let p = self.check_seat(player)?;
        Ok(self.game().rack(p).tiles().iter().map(|&t| PyTile(t)).collect())
    }

    fn rack_size(&self, player: &Bound<'_, PyAny>) -> PyResult<usize> {
        Ok(self.game().rack(self.check_seat(player)?).len())
    }

    fn has_placed(&self, player: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.game().has_placed(self.check_seat(player)?))
    }

    /// The variant's own tracks: one per seat (standard), per team (team), one shared
    /// signed track (duel, positive toward seat 0) or one (solo).
    fn tracks(&self) -> Vec<[i8; COLORS]> {
        let c = self.game().config();
        (0..c.variant.track_count(c.players())).map(|t| self.game().tracks().values[t]).collect()
    }

    /// The markers as `player` sees them (duel: distance toward that seat's 9).
    fn score_of(&self, player: &Bound<'_, PyAny>) -> PyResult<[i8; COLORS]> {
        let p = self.check_seat(player)?;
        Ok(self.game().tracks().view(self.game().config(), p))
    }

    /// Duel tokens: for each colour the seat holding it, or `None` in the supply.
    fn tokens(&self) -> Vec<Option<u8>> {
        self.game().tracks().tokens.iter().map(|&t| if t < 0 { None } else { Some(t as u8) }).collect()
    }

    fn ranks(&self) -> Vec<u8> {
        self.game().ranks()[..self.game().config().players()].to_vec()
    }

    #[getter]
    fn winner(&self) -> Option<usize> {
        self.game().winner()
    }

    /// The rules in force.
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(*self.game().config())
    }

    /// Per seat: +1 for a (shared) first place, −1 for the last, linear between, partners
    /// equal; solo: the lowest score ÷ 36. Zeros while the game runs.
    fn returns(&self) -> Vec<f64> {
        self.game().returns()[..self.game().config().players()].to_vec()
    }

    /// What each legal placement of the player to move would score (optionally only those of
    /// one rack tile), in the order of `legal_moves()`, without playing any.
    #[pyo3(signature = (tile = None))]
    fn previews(&self, tile: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<PyPreview>> {
        let only = tile.map(extract_tile).transpose()?;
        let game = self.game();
        let mut moves = Vec::new();
        if matches!(game.phase(), Phase::Place | Phase::Bonus) {
            game.legal_moves(&mut moves);
        }
        Ok(moves
            .iter()
            .filter_map(|m| match m {
                Move::Place(p) if only.map_or(true, |t| p.tile() == t) => Some(PyPreview::new(*m, game.preview(p))),
                _ => None,
            })
            .collect())
    }

    /// `previews()` as columns, for a whole list at once: the moves' texts and one int64 row
    /// per placement, `qa, ra, qb, rb, colour_a, colour_b, points_a, points_b, bonuses,
    /// wins, scores_after[0..6]` (halves in `move.cells` order), in the same order.
    #[pyo3(signature = (tile = None))]
    fn preview_table<'py>(
        &self,
        py: Python<'py>,
        tile: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(Vec<String>, Bound<'py, PyAny>)> {
        let only = tile.map(extract_tile).transpose()?;
        let game = self.game();
        let mut moves = Vec::new();
        if matches!(game.phase(), Phase::Place | Phase::Bonus) {
            game.legal_moves(&mut moves);
        }
        let mut texts = Vec::new();
        let mut rows: Vec<i64> = Vec::new();
        for m in &moves {
            let Move::Place(p) = m else { continue };
            if only.is_some_and(|t| p.tile() != t) {
                continue;
            }
            let v = game.preview(p);
            let ((qa, ra), (qb, rb)) = (p.a.axial(), p.b.axial());
            rows.extend([qa, ra, qb, rb].map(i64::from));
            rows.extend([p.ca, p.cb, v.points.0, v.points.1, v.bonuses, u8::from(v.wins)].map(i64::from));
            rows.extend(v.scores_after.map(i64::from));
            texts.push(m.to_string());
        }
        let n = texts.len();
        Ok((texts, PyArray1::from_vec(py, rows).reshape([n, PREVIEW_COLUMNS])?.into_any()))
    }

    /// Why a legal placement of the player to move scores what it does, without playing it:
    /// `(player, halves, steps, bonuses, wins, scores_before, scores_after)`. Each half is
    /// `(cell, colour, toward_other, lines, points, line_cells)`: the unbroken line of its
    /// colour in each of the six directions (0 toward the other half) and the cells of each
    /// line. Each step is `(half, colour, points, from, to, cap, lost, bonuses, no_bonus)`,
    /// in the order the halves were counted.
    fn explain(&self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<ExplanationRow> {
        let m = extract_move(mv)?;
        let game = self.game();
        game.check(&m)?;
        let Move::Place(p) = m else {
            return Err(PyValueError::new_err(format!("only a placement scores; {m} is not one")));
        };
        let e = game.explain(&p);
        let mut halves = Vec::with_capacity(2);
        for h in &e.halves {
            let cells: Vec<Vec<(i32, i32)>> = (0..6)
                .map(|d| {
                    let mut out = Vec::new();
                    let mut at = h.cell;
                    for _ in 0..h.lines[d] {
                        at = at.neighbour(d).expect("a counted line stays on the board");
                        out.push(at.axial());
                    }
                    out
                })
                .collect();
            halves.push((h.cell.axial(), color_to_py(py, h.color)?, h.toward_other, h.lines, h.points, cells));
        }
        let mut steps = Vec::with_capacity(2);
        for s in &e.steps {
            let why = match s.no_bonus {
                NoBonus::NotReached => None,
                NoBonus::NotInVariant => Some("no_bonus_in_variant"),
                NoBonus::TokenHeld => Some("token_held"),
            };
            steps.push((s.half, color_to_py(py, s.color)?, s.points, s.from, s.to, s.cap, s.lost, s.bonuses, why));
        }
        Ok((e.player, halves, steps, e.bonuses, e.wins, e.scores_before, e.scores_after))
    }

    /// What the ranking compares for a seat, most significant first (the higher key wins at
    /// its first difference): the six scores lowest first; in the duel, the number of
    /// markers on the seat's side, then their distances from 0, lowest first.
    fn rank_key(&self, player: &Bound<'_, PyAny>) -> PyResult<Vec<i8>> {
        let p = self.check_seat(player)?;
        Ok(self.game().tracks().rank_key(self.game().config(), p).as_slice().to_vec())
    }

    /// The colours a seat's swap rule looks at: its lowest colours (the duel: its markers
    /// on 9), as the indices of `Color`.
    fn swap_colors(&self, player: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
        let p = self.check_seat(player)?;
        let mask = self.game().tracks().swap_colors(self.game().config(), p);
        Ok((0..COLORS).filter(|c| mask & (1 << c) != 0).collect())
    }

    /// The lowest of a seat's scores (the solo game's result).
    fn result(&self, player: &Bound<'_, PyAny>) -> PyResult<i8> {
        Ok(self.game().result(self.check_seat(player)?))
    }

    /// `(placements, bonus_placements, bonuses_lost, swaps, turns)`.
    fn stats(&self) -> (u16, u16, u16, u16, u16) {
        let s = self.game().stats();
        (s.placements, s.bonus_placements, s.bonuses_lost, s.swaps, s.turns)
    }

    #[getter]
    fn board(&self) -> PyBoard {
        PyBoard(*self.game().board())
    }

    fn legal_moves(&self) -> LegalMoves {
        let mut moves = Vec::new();
        self.game().legal_moves(&mut moves);
        LegalMoves { moves }
    }

    fn legal_move_count(&self) -> usize {
        self.game().legal_move_count()
    }

    fn is_legal(&self, mv: &Bound<'_, PyAny>) -> bool {
        extract_move(mv).map(|m| self.game().check(&m).is_ok()).unwrap_or(false)
    }

    /// Raises `IllegalMoveError` naming why `mv` is not legal now.
    fn check(&self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = extract_move(mv)?;
        self.game().check(&m)?;
        Ok(())
    }

    fn play(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<PyPlayResult> {
        let m = extract_move(mv)?;
        let report = self.record.play(&m)?;
        Ok(PyPlayResult::new(report, m, self.game()))
    }

    #[getter]
    fn history(&self) -> Vec<PyMove> {
        self.record.history().iter().map(|&m| PyMove(m)).collect()
    }

    /// The seat that played each move of the history.
    #[getter]
    fn movers(&self) -> Vec<u8> {
        self.record.movers()
    }

    fn history_len(&self) -> usize {
        self.record.history().len()
    }

    /// Takes back the last move (replaying the game from its start) and returns it.
    fn pop(&mut self) -> PyResult<PyMove> {
        Ok(self.record.pop().map(PyMove)?)
    }

    fn clone(&self) -> Self {
        Clone::clone(self)
    }

    /// The game as `observer` sees it, rebuilt from public facts (`Game::from_public`):
    /// ``moves`` as ``(seat, move)`` pairs, the observer's ``rack``, every seat's rack size
    /// and the decision it faces; the unseen tiles are dealt from ``seed``.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (rules, moves, observer, rack, rack_sizes, phase, pending_bonuses, seed))]
    fn from_public(
        rules: PyRef<'_, PyRules>,
        moves: Vec<(usize, Bound<'_, PyAny>)>,
        observer: usize,
        rack: Vec<Bound<'_, PyAny>>,
        rack_sizes: Vec<usize>,
        phase: &str,
        pending_bonuses: u8,
        seed: u64,
    ) -> PyResult<Self> {
        let config = rules.0;
        let moves =
            moves.iter().map(|(seat, m)| Ok((*seat, extract_move(m)?))).collect::<PyResult<Vec<(usize, Move)>>>()?;
        let rack = rack.iter().map(extract_tile).collect::<PyResult<Vec<_>>>()?;
        let phase = match phase {
            "place" => Phase::Place,
            "bonus" => Phase::Bonus,
            "swap_offer" => Phase::SwapOffer,
            _ => return Err(PyValueError::new_err(format!("phase must be place, bonus or swap_offer, not {phase:?}"))),
        };
        let game = Game::from_public(config, &moves, observer, &rack, &rack_sizes, phase, pending_bonuses, seed)?;
        let movers = moves.iter().map(|&(seat, _)| seat as u8).collect();
        let history = moves.into_iter().map(|(_, m)| m).collect();
        Ok(PyGameState { record: Record::without_origin(game, history, movers), setup: None })
    }

    /// A position set up by hand (`Game::from_setup`): ``tiles`` (placements) on the
    /// board, the ``tracks`` (one list of six markers per track), ``seat`` to move with its
    /// ``rack``; the other racks and the bag are dealt from ``seed``. Bad facts raise
    /// ``ValueError`` naming what is wrong.
    #[staticmethod]
    #[pyo3(signature = (rules, tiles, tracks, seat, rack, seed))]
    fn from_setup(
        rules: PyRef<'_, PyRules>,
        tiles: Vec<Bound<'_, PyAny>>,
        tracks: Vec<Vec<i64>>,
        seat: usize,
        rack: Vec<Bound<'_, PyAny>>,
        seed: u64,
    ) -> PyResult<Self> {
        let config = rules.0;
        let mut placements = Vec::with_capacity(tiles.len());
        for (i, t) in tiles.iter().enumerate() {
            match extract_move(t)? {
                Move::Place(p) => placements.push(p),
                other => return Err(PyValueError::new_err(format!("tile {i} must be a placement, not {other}"))),
            }
        }
        let mut markers = Vec::with_capacity(tracks.len());
        for (t, values) in tracks.iter().enumerate() {
            if values.len() != COLORS {
                return Err(PyValueError::new_err(format!("track {t} has {COLORS} markers, not {}", values.len())));
            }
            let mut row = [0i8; COLORS];
            for (c, &v) in values.iter().enumerate() {
                row[c] = i8::try_from(v)
                    .map_err(|_| PyValueError::new_err(format!("track {t}: a marker on {v} is off the track")))?;
            }
            markers.push(row);
        }
        let rack = rack.iter().map(extract_tile).collect::<PyResult<Vec<_>>>()?;
        let game = Game::from_setup(config, &placements, &markers, seat, &rack, seed)?;
        Ok(PyGameState { record: Record::without_origin(game, Vec::new(), Vec::new()), setup: None })
    }

    /// A copy in which what `observer` cannot see is dealt anew from `seed`.
    fn determinize(&self, observer: &Bound<'_, PyAny>, seed: u64) -> PyResult<Self> {
        let p = self.check_seat(observer)?;
        // The set-up tiles are on the board for all to see; the seed is not this copy's.
        let setup = self.setup.as_ref().map(|s| Arc::new((s.0.clone(), None)));
        Ok(PyGameState { record: self.record.determinize(p, seed), setup })
    }

    /// The placements (move text) and seed a set-up game started from, or `None`.
    #[getter]
    fn get_setup(&self) -> Option<Setup> {
        self.setup.as_deref().cloned()
    }

    #[setter]
    fn set_setup(&mut self, setup: Option<Setup>) {
        self.setup = setup.map(Arc::new);
    }

    /// The tiles `observer` cannot see (bag and other racks), sorted.
    fn unseen_tiles(&self, observer: &Bound<'_, PyAny>) -> PyResult<Vec<PyTile>> {
        let p = self.check_seat(observer)?;
        let mut v = self.game().unseen_tiles(p);
        v.sort();
        Ok(v.into_iter().map(PyTile).collect())
    }

    fn tile_total(&self) -> usize {
        self.game().tile_total()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyGameState>().map(|o| o.borrow().game() == self.game()).unwrap_or(false)
    }
}

/// The legal moves of a position: a read-only sequence (`len`, indexing, iteration, `in`).
/// Moves are made into Python objects only when read.
#[pyclass(name = "LegalMoves", module = "genial", frozen, sequence)]
pub struct LegalMoves {
    pub moves: Vec<Move>,
}

#[pymethods]
impl LegalMoves {
    fn __len__(&self) -> usize {
        self.moves.len()
    }

    fn __getitem__<'py>(&self, py: Python<'py>, index: &Bound<'py, PyAny>) -> PyResult<Py<PyAny>> {
        if let Ok(slice) = index.cast::<PySlice>() {
            let ind = slice.indices(self.moves.len() as isize)?;
            let mut out = Vec::with_capacity(ind.slicelength);
            let mut i = ind.start;
            for _ in 0..ind.slicelength {
                out.push(PyMove(self.moves[i as usize]));
                i += ind.step;
            }
            return Ok(PyList::new(py, out)?.into_any().unbind());
        }
        let n = self.moves.len() as isize;
        let i: isize = index.extract().map_err(|e: PyErr| {
            if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(py) {
                PyIndexError::new_err(format!("legal move index {index} out of range (len {n})"))
            } else {
                PyTypeError::new_err("legal moves are indexed by int or slice")
            }
        })?;
        let j = if i < 0 { i + n } else { i };
        if !(0..n).contains(&j) {
            return Err(PyIndexError::new_err(format!("legal move index {i} out of range (len {n})")));
        }
        Ok(Py::new(py, PyMove(self.moves[j as usize]))?.into_any())
    }

    fn __contains__(&self, mv: &Bound<'_, PyAny>) -> bool {
        extract_move(mv).map(|m| self.moves.contains(&m)).unwrap_or(false)
    }

    fn __iter__(slf: Bound<'_, Self>) -> LegalMovesIter {
        LegalMovesIter { moves: slf.unbind(), next: 0 }
    }

    /// Position of `mv` in the sequence.
    fn index(&self, mv: &Bound<'_, PyAny>) -> PyResult<usize> {
        let m = extract_move(mv)?;
        self.moves
            .iter()
            .position(|&x| x == m)
            .ok_or_else(|| PyValueError::new_err(format!("{m} is not a legal move here")))
    }

    fn count(&self, mv: &Bound<'_, PyAny>) -> usize {
        self.__contains__(mv) as usize
    }

    /// The moves' text forms in order, joined by `sep`: what the engine protocol's
    /// `legalmoves` line lists, written in one pass instead of one `str()` a move.
    #[pyo3(signature = (sep = " "))]
    fn text(&self, sep: &str) -> String {
        use std::fmt::Write;
        let mut out = String::with_capacity(self.moves.len() * (12 + sep.len()));
        for (i, m) in self.moves.iter().enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            // Writing into a String cannot fail.
            let _ = write!(out, "{m}");
        }
        out
    }

    /// Equal to another `LegalMoves` listing the same moves in the same order (it compared
    /// by identity: `g.legal_moves() == g.legal_moves()` was false).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<LegalMoves>().map(|o| o.get().moves == self.moves).unwrap_or(false)
    }

    fn __repr__(&self) -> String {
        let head: Vec<String> = self.moves.iter().take(4).map(|m| m.to_string()).collect();
        let more = if self.moves.len() > 4 { ", ..." } else { "" };
        format!("<LegalMoves {} [{}{}]>", self.moves.len(), head.join(", "), more)
    }
}

#[pyclass(module = "genial._core")]
pub struct LegalMovesIter {
    moves: Py<LegalMoves>,
    next: usize,
}

#[pymethods]
impl LegalMovesIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> Option<PyMove> {
        let moves = &self.moves.bind(py).get().moves;
        let m = moves.get(self.next).copied()?;
        self.next += 1;
        Some(PyMove(m))
    }
}

/// What a placement would do for the player to move (`Game.previews`).
#[pyclass(name = "Preview", module = "genial", frozen, get_all)]
pub struct PyPreview {
    #[pyo3(name = "move")]
    pub mv: PyMove,
    /// Points of the two halves in `move.cells` order, before any cap.
    pub points: (u8, u8),
    /// Bonus placements it would earn.
    pub bonuses_earned: u8,
    /// It would win the game at once.
    pub wins: bool,
    /// The mover's six markers afterwards, as the mover sees them.
    pub scores_after: [i8; COLORS],
}

impl PyPreview {
    fn new(mv: Move, p: Preview) -> PyPreview {
        PyPreview {
            mv: PyMove(mv),
            points: p.points,
            bonuses_earned: p.bonuses,
            wins: p.wins,
            scores_after: p.scores_after,
        }
    }
}

#[pymethods]
impl PyPreview {
    fn __repr__(&self) -> String {
        format!(
            "Preview(move=Move.parse({:?}), points=({}, {}), bonuses_earned={}, wins={}, scores_after={:?})",
            self.mv.0.to_string(),
            self.points.0,
            self.points.1,
            self.bonuses_earned,
            if self.wins { "True" } else { "False" },
            self.scores_after
        )
    }
}

/// What a move did.
#[pyclass(name = "PlayResult", module = "genial", frozen, get_all)]
pub struct PyPlayResult {
    /// The seat that moved.
    pub player: u8,
    #[pyo3(name = "move")]
    pub mv: PyMove,
    /// Points of the placement's two halves in `move.cells` order, before any cap.
    pub points: (u8, u8),
    /// Raw points per colour (index by `Color`), before any cap.
    pub gains: [u16; COLORS],
    /// Bonus placements this placement earned ("Ingenious!").
    pub bonuses_earned: u8,
    /// This placement was itself a bonus placement.
    pub was_bonus: bool,
    /// Bonus placements lost because they could not be played.
    pub bonuses_lost: u8,
    pub swapped: bool,
    /// Tiles drawn when the turn ended.
    pub drawn: u8,
    /// Whose move it is now (`None` once the game is over).
    pub next_player: Option<usize>,
    /// `place`, `bonus`, `swap_offer` or `over`.
    pub phase: &'static str,
    pub game_over: bool,
}

impl PyPlayResult {
    fn new(r: PlayResult, mv: Move, game: &Game) -> PyPlayResult {
        PyPlayResult {
            player: r.player,
            mv: PyMove(mv),
            points: r.points,
            gains: r.gains.map(u16::from),
            bonuses_earned: r.bonuses_earned,
            was_bonus: r.was_bonus,
            bonuses_lost: r.bonuses_lost,
            swapped: r.swapped,
            drawn: r.drawn,
            next_player: (!game.is_over()).then(|| game.current_player()),
            phase: game.phase().name(),
            game_over: game.is_over(),
        }
    }
}

#[pymethods]
impl PyPlayResult {
    /// Raw points per colour as `{Color: points}`, non-zero only.
    fn gains_by_color<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let d = pyo3::types::PyDict::new(py);
        for (c, &g) in self.gains.iter().enumerate() {
            if g > 0 {
                d.set_item(color_to_py(py, c as u8)?, g)?;
            }
        }
        Ok(d)
    }

    /// Python syntax, fields as the attributes name them.
    fn __repr__(&self) -> String {
        let py_opt = |v: Option<usize>| v.map_or_else(|| "None".to_string(), |p| p.to_string());
        let py_bool = |b: bool| if b { "True" } else { "False" };
        let gains: Vec<String> = self.gains.iter().map(|g| g.to_string()).collect();
        format!(
            "PlayResult(player={}, move=Move.parse({:?}), points=({}, {}), gains=[{}], bonuses_earned={}, \
             was_bonus={}, bonuses_lost={}, swapped={}, drawn={}, next_player={}, phase={:?}, game_over={})",
            self.player,
            self.mv.0.to_string(),
            self.points.0,
            self.points.1,
            gains.join(", "),
            self.bonuses_earned,
            py_bool(self.was_bonus),
            self.bonuses_lost,
            py_bool(self.swapped),
            self.drawn,
            py_opt(self.next_player),
            self.phase,
            py_bool(self.game_over),
        )
    }
}

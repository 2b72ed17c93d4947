//! A game with its history: where it started (seed and the 120-tile draw order) and every
//! move played. This is what a game record holds, and taking a move back replays it.
//!
//! `Game` itself keeps no history (it is `Copy`, for search); a `Record` adds what a person
//! or a file needs. A copy made to hide information (`determinize`) has no faithful start,
//! so it keeps its moves but cannot take them back.

use crate::game::{Game, MoveError, PlayResult, SetupError};
use crate::moves::Move;
use crate::tiles::Tile;
use crate::variants::Config;
use std::fmt;
use std::sync::Arc;

/// Where a game came from: enough to play it again from the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// Drives the mixing of swapped tiles back into the bag.
    pub seed: u64,
    /// All 120 tiles in the order they are drawn, the deal included. Never changes once
    /// the game started, so copies of a record share it (a copy costs a reference count,
    /// not an allocation).
    pub draw_order: Arc<[Tile]>,
}

/// A game, its start and its moves.
#[derive(Debug)]
pub struct Record {
    game: Game,
    history: Vec<Move>,
    /// The seat that played each move of `history` (public, like the moves).
    movers: Movers,
    origin: Option<Origin>,
}

/// Moves a copy of a record has room for before its history grows: a copy is usually
/// played on at once (`Game.clone().play(...)`, search), and a vector copied to its
/// length would reallocate on the first move.
const HISTORY_HEADROOM: usize = 8;

impl Clone for Record {
    fn clone(&self) -> Record {
        let mut history = Vec::with_capacity(self.history.len() + HISTORY_HEADROOM);
        history.extend_from_slice(&self.history);
        Record { game: self.game, history, movers: self.movers.clone(), origin: self.origin.clone() }
    }
}

/// Movers a record keeps in its fixed array: more than any game of 2, 3 or 4 random
/// players has seen (at most 82 moves in 900 random games). The rules set no bound (a seat
/// may swap turn after turn), so the movers of later moves go to a `Vec`.
const PACKED_MOVERS: usize = 256;

/// The seat of each move, two bits a move (a seat is 0..=3) in a fixed array of 64 bytes,
/// then one byte a move in `spill`. A copy of a record copies the array: a `Vec` of seats
/// cost an allocation per copy, a reallocation on the copy's first move and a free, and a
/// byte a move would make `genial.GameState` too large for the allocator's fast path.
/// The record's history says how many movers there are; bits past it are stale.
#[derive(Clone, Debug, Default)]
struct Movers {
    /// The seat of move `i < PACKED_MOVERS` in bits `2 * (i % 32)` of `packed[i / 32]`.
    packed: [u64; PACKED_MOVERS / 32],
    /// The seats of moves `PACKED_MOVERS..`, in order.
    spill: Vec<u8>,
}

impl Movers {
    fn from_slice(seats: &[u8]) -> Movers {
        let mut m = Movers::default();
        seats.iter().enumerate().for_each(|(i, &s)| m.set(i, s));
        m
    }

    /// The seat of move `i`, which the movers before it are set for.
    #[inline]
    fn set(&mut self, i: usize, seat: u8) {
        debug_assert!(seat < 4, "a game has at most four seats");
        if i < PACKED_MOVERS {
            let (word, shift) = (i / 32, 2 * (i % 32));
            self.packed[word] = self.packed[word] & !(3 << shift) | u64::from(seat & 3) << shift;
        } else {
            self.spill.truncate(i - PACKED_MOVERS);
            self.spill.push(seat);
        }
    }

    fn get(&self, i: usize) -> u8 {
        if i < PACKED_MOVERS {
            (self.packed[i / 32] >> (2 * (i % 32)) & 3) as u8
        } else {
            self.spill[i - PACKED_MOVERS]
        }
    }

    /// The first `len` movers.
    fn to_vec(&self, len: usize) -> Vec<u8> {
        (0..len).map(|i| self.get(i)).collect()
    }
}

/// Why a move could not be taken back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UndoError {
    NothingToUndo,
    /// A determinized copy: its start is not known.
    NoOrigin,
}

impl fmt::Display for UndoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UndoError::NothingToUndo => f.write_str("no move to take back"),
            UndoError::NoOrigin => {
                f.write_str("a determinized copy cannot take moves back: it has no record of its start")
            }
        }
    }
}

/// Why a recorded game could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    Setup(SetupError),
    /// Move `index` (from 0) was refused.
    Move {
        index: usize,
        mv: Move,
        error: MoveError,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Setup(e) => e.fmt(f),
            ReplayError::Move { index, mv, error } => write!(f, "move {index} ({mv}) is illegal: {error}"),
        }
    }
}

impl Record {
    /// A new game whose bag is shuffled from `seed`.
    pub fn new(config: Config, seed: u64) -> Record {
        Record::started(Game::new(config, seed), seed)
    }

    /// A new game drawing its tiles in the order given (see [`Game::with_bag`]).
    pub fn with_bag(config: Config, order: &[Tile], seed: u64) -> Result<Record, SetupError> {
        Ok(Record::started(Game::with_bag(config, order, seed)?, seed))
    }

    /// Plays `moves` from the start given, checking each.
    pub fn replay(config: Config, order: &[Tile], seed: u64, moves: &[Move]) -> Result<Record, ReplayError> {
        let mut record = Record::with_bag(config, order, seed).map_err(ReplayError::Setup)?;
        for (index, &mv) in moves.iter().enumerate() {
            record.play(&mv).map_err(|error| ReplayError::Move { index, mv, error })?;
        }
        Ok(record)
    }

    /// A game whose start is unknown (a determinized copy, a game taken from a batch): it
    /// can be played on, but not taken back nor written as a record.
    /// `movers[i]` is the seat that played `history[i]`.
    pub fn without_origin(game: Game, history: Vec<Move>, movers: Vec<u8>) -> Record {
        assert_eq!(history.len(), movers.len(), "one mover per move");
        Record { game, history, movers: Movers::from_slice(&movers), origin: None }
    }

    /// Right after the deal: the racks hold the first tiles drawn, in seat order.
    fn started(game: Game, seed: u64) -> Record {
        let players = game.config().players();
        let mut draw_order = Vec::with_capacity(crate::tiles::TILE_COUNT);
        for p in 0..players {
            draw_order.extend_from_slice(game.rack(p).tiles());
        }
        draw_order.extend(game.bag().draw_order());
        let origin = Some(Origin { seed, draw_order: draw_order.into() });
        Record { game, history: Vec::new(), movers: Movers::default(), origin }
    }

    #[inline]
    pub fn game(&self) -> &Game {
        &self.game
    }

    #[inline]
    pub fn history(&self) -> &[Move] {
        &self.history
    }

    /// The seat that played each move of [`Record::history`] (built when asked: the
    /// record keeps them packed).
    pub fn movers(&self) -> Vec<u8> {
        self.movers.to_vec(self.history.len())
    }

    /// The start, or `None` when it is not known.
    #[inline]
    pub fn origin(&self) -> Option<&Origin> {
        self.origin.as_ref()
    }

    /// Plays a move after checking it; on error nothing changes.
    pub fn play(&mut self, mv: &Move) -> Result<PlayResult, MoveError> {
        let mover = self.game.current_player() as u8;
        let report = self.game.play(mv)?;
        self.movers.set(self.history.len(), mover);
        self.history.push(*mv);
        Ok(report)
    }

    /// Takes back the last move by replaying the game from its start, so the racks and the
    /// bag are exactly as they were; on error nothing changes.
    pub fn pop(&mut self) -> Result<Move, UndoError> {
        let origin = self.origin.as_ref().ok_or(UndoError::NoOrigin)?;
        let (&last, earlier) = self.history.split_last().ok_or(UndoError::NothingToUndo)?;
        let mut game = Game::with_bag(*self.game.config(), &origin.draw_order, origin.seed)
            .expect("a record's own draw order is a valid bag");
        for m in earlier {
            game.play_unchecked(m);
        }
        self.game = game;
        self.history.pop();
        Ok(last)
    }

    /// A copy in which what `observer` cannot see is dealt anew from `seed`
    /// ([`Game::determinize`]); it keeps the moves but has no start.
    pub fn determinize(&self, observer: usize, seed: u64) -> Record {
        let game = self.game.determinize(observer, seed);
        Record { game, history: self.history.clone(), movers: self.movers.clone(), origin: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn some_moves(record: &mut Record, n: usize) {
        let mut moves = Vec::new();
        for i in 0..n {
            record.game().legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[(i * 7919) % moves.len()];
            record.play(&mv).unwrap();
        }
    }

    #[test]
    fn pop_restores_the_game_exactly() {
        let mut r = Record::new(Config::standard(3).unwrap(), 11);
        let mut states = vec![*r.game()];
        for _ in 0..40 {
            some_moves(&mut r, 1);
            states.push(*r.game());
        }
        while r.pop().is_ok() {
            states.pop();
            assert_eq!(r.game(), states.last().unwrap());
        }
        assert_eq!(r.pop(), Err(UndoError::NothingToUndo));
        assert_eq!(r.game(), &Game::new(Config::standard(3).unwrap(), 11));
    }

    #[test]
    fn movers_are_the_seats_that_played_each_move() {
        let mut r = Record::new(Config::standard(3).unwrap(), 4);
        let mut seats = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..60 {
            r.game().legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            seats.push(r.game().current_player() as u8);
            r.play(&moves[0]).unwrap();
        }
        assert_eq!(r.movers(), seats);
        r.pop().unwrap();
        assert_eq!(r.movers(), &seats[..seats.len() - 1]);
        assert_eq!(r.determinize(0, 9).movers(), r.movers());
    }

    #[test]
    fn movers_past_the_packed_array_spill_and_come_back() {
        // A record's movers against a plain vector, through pushes, pops and copies on
        // both sides of the packed array's end.
        let mut m = Movers::default();
        let mut model: Vec<u8> = Vec::new();
        let mut rng = crate::rng::Rng::new(3);
        for step in 0..5_000 {
            let grow = model.len() < 40 || rng.below(100) < if step < 2_500 { 70 } else { 30 };
            if grow {
                let seat = rng.below(4) as u8;
                m.set(model.len(), seat);
                model.push(seat);
            } else {
                model.pop();
            }
            assert_eq!(m.to_vec(model.len()), model, "step {step}");
            assert_eq!(m.clone().to_vec(model.len()), model);
        }
        assert!(m.spill.capacity() > 0, "the test went past the packed array");
        assert_eq!(Movers::from_slice(&[3; 300]).to_vec(300), vec![3; 300]);
    }

    #[test]
    fn a_copy_keeps_moves_movers_and_start_and_plays_on_alone() {
        let mut r = Record::new(Config::standard(4).unwrap(), 8);
        some_moves(&mut r, 20);
        let mut c = r.clone();
        assert_eq!((c.game(), c.history(), c.movers(), c.origin()), (r.game(), r.history(), r.movers(), r.origin()));
        some_moves(&mut c, 5);
        assert_eq!(c.history().len(), r.history().len() + 5);
        assert_eq!(c.movers().len(), c.history().len());
        assert_eq!(&c.movers()[..r.movers().len()], r.movers());
        assert_eq!(r.history().len(), 20);
    }

    #[test]
    fn replay_of_the_draw_order_and_moves_is_the_same_game() {
        let config = Config::standard(2).unwrap();
        let mut r = Record::new(config, 5);
        some_moves(&mut r, 30);
        let o = r.origin().unwrap();
        let again = Record::replay(config, &o.draw_order, o.seed, r.history()).unwrap();
        assert_eq!(again.game(), r.game());
        let mut bad = r.history().to_vec();
        bad.insert(3, Move::Keep);
        assert!(matches!(Record::replay(config, &o.draw_order, o.seed, &bad), Err(ReplayError::Move { index: 3, .. })));
    }

    #[test]
    fn a_determinized_copy_cannot_take_moves_back() {
        let mut r = Record::new(Config::standard(2).unwrap(), 1);
        some_moves(&mut r, 3);
        let mut d = r.determinize(0, 9);
        assert_eq!(d.history(), r.history());
        assert_eq!(d.pop(), Err(UndoError::NoOrigin));
    }
}

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

/// Where a game came from: enough to play it again from the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// Drives the mixing of swapped tiles back into the bag.
    pub seed: u64,
    /// All 120 tiles in the order they are drawn, the deal included.
    pub draw_order: Vec<Tile>,
}

/// A game, its start and its moves.
#[derive(Clone, Debug)]
pub struct Record {
    game: Game,
    history: Vec<Move>,
    /// The seat that played each move of `history` (public, like the moves).
    movers: Vec<u8>,
    origin: Option<Origin>,
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
        Record { game, history, movers, origin: None }
    }

    /// Right after the deal: the racks hold the first tiles drawn, in seat order.
    fn started(game: Game, seed: u64) -> Record {
        let players = game.config().players();
        let mut draw_order = Vec::with_capacity(crate::tiles::TILE_COUNT);
        for p in 0..players {
            draw_order.extend_from_slice(game.rack(p).tiles());
        }
        draw_order.extend(game.bag().draw_order());
        Record { game, history: Vec::new(), movers: Vec::new(), origin: Some(Origin { seed, draw_order }) }
    }

    #[inline]
    pub fn game(&self) -> &Game {
        &self.game
    }

    #[inline]
    pub fn history(&self) -> &[Move] {
        &self.history
    }

    /// The seat that played each move of [`Record::history`].
    #[inline]
    pub fn movers(&self) -> &[u8] {
        &self.movers
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
        self.history.push(*mv);
        self.movers.push(mover);
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
        self.movers.pop();
        Ok(last)
    }

    /// A copy in which what `observer` cannot see is dealt anew from `seed`
    /// ([`Game::determinize`]); it keeps the moves but has no start.
    pub fn determinize(&self, observer: usize, seed: u64) -> Record {
        Record::without_origin(self.game.determinize(observer, seed), self.history.clone(), self.movers.clone())
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
        assert_eq!(r.movers(), seats.as_slice());
        r.pop().unwrap();
        assert_eq!(r.movers(), &seats[..seats.len() - 1]);
        assert_eq!(r.determinize(0, 9).movers(), r.movers());
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

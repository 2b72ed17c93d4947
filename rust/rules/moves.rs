//! Moves and their text notation.
//!
//! A placement is written as its two halves, colour letter then axial cell, joined by `+`:
//! `R0,-4+B1,-4`. The halves are stored in cell order, so a move has one canonical text.
//! `swap` takes the swap, `keep` declines it. Parsing also accepts colour names, spaces or
//! `/` between halves, and parentheses around cells: `red(0,-4) blue(1,-4)`.

use crate::hex::Cell;
use crate::tiles::{parse_color, Color, Tile, COLORS, COLOR_LETTERS};
use std::fmt;
use std::str::FromStr;

/// A tile put on two adjacent cells; halves ordered by cell (`a < b`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[repr(C)]
pub struct Placement {
    pub a: Cell,
    pub b: Cell,
    pub ca: Color,
    pub cb: Color,
}

impl Placement {
    /// The placement of colour `ca` on `a` and `cb` on `b`, in canonical half order.
    pub fn new(a: Cell, ca: Color, b: Cell, cb: Color) -> Placement {
        if a <= b {
            Placement { a, b, ca, cb }
        } else {
            Placement { a: b, b: a, ca: cb, cb: ca }
        }
    }

    #[inline]
    pub fn tile(&self) -> Tile {
        Tile::new(self.ca, self.cb)
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[repr(C, u8)]
pub enum Move {
    Place(Placement),
    /// Exchange tiles as the rules allow (base, team or duel swap).
    Swap,
    /// Decline an offered swap.
    Keep,
}

// The move generator builds placements as one 64-bit word (see `Move::place_word`).
const _: () = assert!(std::mem::size_of::<Move>() == 8 && std::mem::align_of::<Move>() == 2);

impl Move {
    /// The edge part of a placement's machine word: cells `a` and `b` (tag 0 = `Place`).
    /// The generator builds it from `a` and the step to `b` (`board::EdgeMasks`), and the
    /// tests check the two agree.
    #[cfg(test)]
    pub(crate) fn edge_word(a: Cell, b: Cell) -> u64 {
        (a.index() as u64) << 16 | (b.index() as u64) << 32
    }

    /// The colour part of a placement's machine word.
    #[inline(always)]
    pub(crate) fn colors_word(ca: Color, cb: Color) -> u64 {
        (ca as u64) << 48 | (cb as u64) << 56
    }

    /// The placement whose word is `edge_word(a, b) | colors_word(ca, cb)`.
    ///
    /// Built field by field, without `unsafe`: on little-endian targets the compiler turns
    /// this into the single store of the word (the fields sit where the word puts them:
    /// `Move` is `repr(C, u8)`, tag 0 for `Place`, then the `repr(C)` `Placement` at offset
    /// 2), as fast as the `transmute` it replaced (benches/results/HISTORY.md,
    /// "Hardening: before and after, one session"). The test
    /// `place_word_matches_the_enum` checks every cell pair and colour.
    #[inline(always)]
    pub(crate) fn from_place_word(word: u64) -> Move {
        Move::Place(Placement {
            a: Cell::from_index((word >> 16) as u16),
            b: Cell::from_index((word >> 32) as u16),
            ca: (word >> 48) as u8,
            cb: (word >> 56) as u8,
        })
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{},{}+{}{},{}",
            COLOR_LETTERS[self.ca as usize],
            self.a.q(),
            self.a.r(),
            COLOR_LETTERS[self.cb as usize],
            self.b.q(),
            self.b.r()
        )
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(p) => p.fmt(f),
            Move::Swap => f.write_str("swap"),
            Move::Keep => f.write_str("keep"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError(pub String);

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn err(text: &str, why: &str) -> ParseMoveError {
    ParseMoveError(format!("cannot read move {text:?}: {why}"))
}

/// One half: colour (letter or name), then `q,r`, optionally in parentheses.
fn parse_half(whole: &str, half: &str) -> Result<(Cell, Color), ParseMoveError> {
    let half = half.trim();
    let split = half
        .find(|ch: char| ch == '(' || ch == '-' || ch.is_ascii_digit() || ch.is_whitespace())
        .ok_or_else(|| err(whole, &format!("half {half:?} has no cell")))?;
    let (name, rest) = half.split_at(split);
    let color = parse_color(name)
        .ok_or_else(|| err(whole, &format!("{name:?} is not a colour (R O Y G B P or a colour name)")))?;
    let rest = rest.trim();
    let rest = rest.strip_prefix('(').map(|r| r.strip_suffix(')')).unwrap_or(Some(rest));
    let rest = rest.ok_or_else(|| err(whole, "unbalanced parenthesis"))?;
    let mut parts = rest.split(',');
    let (q, r) = match (parts.next(), parts.next(), parts.next()) {
        (Some(q), Some(r), None) => (q.trim(), r.trim()),
        _ => return Err(err(whole, &format!("{rest:?} is not a cell q,r"))),
    };
    let q: i32 = q.parse().map_err(|_| err(whole, &format!("{q:?} is not an integer")))?;
    let r: i32 = r.parse().map_err(|_| err(whole, &format!("{r:?} is not an integer")))?;
    let cell = Cell::new(q, r).ok_or_else(|| err(whole, &format!("cell ({q},{r}) is off the board")))?;
    debug_assert!((color as usize) < COLORS);
    Ok((cell, color))
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("swap") {
            return Ok(Move::Swap);
        }
        if t.eq_ignore_ascii_case("keep") {
            return Ok(Move::Keep);
        }
        if t.len() > 64 {
            // Cut on a character boundary: the text may be any Unicode.
            let cut = t.char_indices().nth(32).map_or(t.len(), |(i, _)| i);
            return Err(err(&t[..cut], "too long"));
        }
        // Halves are separated by '+', '/', ';' or whitespace after a cell.
        let halves: Vec<&str> = if let Some(i) = t.find(['+', '/', ';']) {
            vec![&t[..i], &t[i + 1..]]
        } else {
            split_on_space_between_halves(t)
        };
        if halves.len() != 2 {
            return Err(err(t, "expected two halves like R0,-4+B1,-4, or swap, or keep"));
        }
        let (a, ca) = parse_half(t, halves[0])?;
        let (b, cb) = parse_half(t, halves[1])?;
        if a == b {
            return Err(err(t, "both halves are on the same cell"));
        }
        // A tile covers two neighbours: `Move::place` (Python) refuses the same.
        if a.direction_to(b).is_none() {
            let ((qa, ra), (qb, rb)) = (a.axial(), b.axial());
            return Err(err(t, &format!("cells ({qa}, {ra}) and ({qb}, {rb}) are not adjacent")));
        }
        Ok(Move::Place(Placement::new(a, ca, b, cb)))
    }
}

/// `red 0,-4 blue 1,-4` or `R(0,-4) B(1,-4)`: split where a letter follows a cell.
fn split_on_space_between_halves(t: &str) -> Vec<&str> {
    // By characters, not bytes: a colour's name may start with a letter outside ASCII
    // (Polish `żółty`).
    let mut previous = ' ';
    for (i, ch) in t.char_indices() {
        if ch.is_alphabetic() && previous.is_whitespace() && i > 0 {
            let before = t[..i].trim_end();
            if before.ends_with(|c: char| c.is_ascii_digit() || c == ')') {
                return vec![&t[..i], &t[i..]];
            }
        }
        previous = ch;
    }
    vec![t]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn place_word_matches_the_enum() {
        let zone = crate::hex::zone(7);
        for e in &zone.edges {
            for ca in 0..6u8 {
                for cb in 0..6u8 {
                    let m = Move::from_place_word(Move::edge_word(e.a, e.b) | Move::colors_word(ca, cb));
                    assert_eq!(m, Move::Place(Placement { a: e.a, b: e.b, ca, cb }));
                }
            }
        }
    }

    #[test]
    fn text_round_trips() {
        let m = Move::Place(Placement::new(Cell::new(1, -4).unwrap(), 4, Cell::new(0, -4).unwrap(), 0));
        assert_eq!(m.to_string(), "R0,-4+B1,-4");
        assert_eq!("R0,-4+B1,-4".parse::<Move>().unwrap(), m);
        assert_eq!("blue(1,-4) red(0,-4)".parse::<Move>().unwrap(), m);
        assert_eq!("b 1,-4 / r 0,-4".parse::<Move>().unwrap(), m);
        // The colours' names of the boxes' languages, the letters unchanged.
        assert_eq!("rouge(0,-4) bleu(1,-4)".parse::<Move>().unwrap(), m);
        assert_eq!("rot(0,-4) blau(1,-4)".parse::<Move>().unwrap(), m);
        assert_eq!("czerwony(0,-4) niebieski(1,-4)".parse::<Move>().unwrap(), m);
        assert_eq!("Niebieska 1,-4 CZERWONA 0,-4".parse::<Move>().unwrap(), m);
        assert_eq!("SWAP".parse::<Move>().unwrap(), Move::Swap);
        assert_eq!("keep".parse::<Move>().unwrap(), Move::Keep);
    }

    #[test]
    fn bad_text_is_rejected_with_a_reason() {
        let long = "é".repeat(40);
        for bad in ["", "R0,0", "X0,0+R1,0", "R0,0+R0,0", "R9,0+R1,0", "R0,a+B1,0", "R(0,0+B1,0", "R0,0+B2,0", &long] {
            let e = bad.parse::<Move>().unwrap_err();
            assert!(e.0.contains("cannot read move"), "{bad}: {e}");
        }
    }
}

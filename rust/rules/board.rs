//! The board: which colour each cell shows, the printed symbols, and the free pairs left.

use crate::hex::{zone, Cell, Zone, GRID, OFFSET, SIDE, STEP};
use crate::tiles::{Color, COLORS};

/// Cell content: a colour `0..6`, or one of these.
pub const EMPTY: u8 = 6;
pub const BLOCKED: u8 = 7;

const FREE_WORDS: usize = GRID.div_ceil(64);

/// Grid steps of the three directions that lead to a higher index (0, 4 and 5), in the
/// order the zone's edge list uses for each cell.
const FORWARD_STEPS: [usize; 3] = [1, SIDE - 1, SIDE];

/// The printed symbols: `(q, r, colour)`, the same for every player count.
pub const SYMBOLS: [(i32, i32, Color); 6] = [
    (0, -5, 0), // red
    (5, -5, 3), // green
    (5, 0, 4),  // blue
    (0, 5, 1),  // orange
    (-5, 5, 2), // yellow
    (-5, 0, 5), // purple
];

/// For each grid index, the bit mask of printed symbols (by position in `SYMBOLS`) it
/// touches. Built by the compiler: a table read on every edge of a first placement, with no
/// run-time initialisation to check (the test `symbol_table_matches_the_geometry` compares
/// it with `Cell::neighbour`).
const SYMBOL_NEIGHBOURS: [u8; GRID] = {
    let mut t = [0u8; GRID];
    let mut i = 0;
    while i < SYMBOLS.len() {
        let (q, r, _) = SYMBOLS[i];
        let s = (r + OFFSET) as usize * SIDE + (q + OFFSET) as usize;
        let mut d = 0;
        while d < 6 {
            // Symbols lie 5 from the centre: every neighbour is on the board (radius 7).
            t[(s as isize + STEP[d]) as usize] |= 1 << i;
            d += 1;
        }
        i += 1;
    }
    t
};

/// The zone radius for a player count (1–4).
pub fn radius_for_players(players: usize) -> i32 {
    match players {
        0..=2 => 5,
        3 => 6,
        _ => 7,
    }
}

/// A position: the content of every cell in the playing zone. `Copy`, ~300 bytes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Board {
    cells: [u8; GRID],
    /// Bit per grid index: the cell is free (in the zone and empty). Drives move generation.
    free: [u64; FREE_WORDS],
    radius: u8,
    /// Number of pairs of adjacent free cells in the zone.
    free_pairs: u16,
    /// Bit mask (positions in `SYMBOLS`) of printed symbols that a tile touches.
    touched_symbols: u8,
}

/// Errors from building or changing a board directly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    OutsideZone(Cell),
    Occupied(Cell),
    NotAdjacent(Cell, Cell),
    BadColor(u8),
}

impl std::fmt::Display for BoardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoardError::OutsideZone(c) => write!(f, "cell {:?} is outside the playing zone", c.axial()),
            BoardError::Occupied(c) => write!(f, "cell {:?} is not free", c.axial()),
            BoardError::NotAdjacent(a, b) => {
                write!(f, "cells {:?} and {:?} are not adjacent", a.axial(), b.axial())
            }
            BoardError::BadColor(c) => write!(f, "colour {c} is not one of the six colours (0..5)"),
        }
    }
}

impl Board {
    /// The empty board for a zone radius (5, 6 or 7), printed symbols in place.
    pub fn new(radius: i32) -> Board {
        let z = zone(radius);
        let mut cells = [BLOCKED; GRID];
        for c in &z.cells {
            cells[c.index()] = EMPTY;
        }
        for &(q, r, col) in &SYMBOLS {
            cells[Cell::new(q, r).expect("symbols lie on the board").index()] = col;
        }
        let mut free = [0u64; FREE_WORDS];
        for (i, &v) in cells.iter().enumerate() {
            if v == EMPTY {
                free[i / 64] |= 1 << (i % 64);
            }
        }
        let mut b = Board { cells, free, radius: radius as u8, free_pairs: 0, touched_symbols: 0 };
        b.free_pairs = z.edges.iter().filter(|e| b.is_free(e.a) && b.is_free(e.b)).count() as u16;
        b
    }

    /// The empty board for a player count.
    pub fn for_players(players: usize) -> Board {
        Board::new(radius_for_players(players))
    }

    #[inline]
    pub fn radius(&self) -> i32 {
        self.radius as i32
    }

    #[inline]
    pub fn zone(&self) -> &'static Zone {
        zone(self.radius as i32)
    }

    /// Raw content of a cell: a colour, `EMPTY` or `BLOCKED` (outside the zone).
    #[inline]
    pub fn get(&self, c: Cell) -> u8 {
        self.cells[c.index()]
    }

    #[inline]
    pub fn in_zone(&self, c: Cell) -> bool {
        self.cells[c.index()] != BLOCKED
    }

    #[inline]
    pub fn is_free(&self, c: Cell) -> bool {
        self.cells[c.index()] == EMPTY
    }

    /// Whether `c` holds a printed symbol.
    pub fn is_symbol(c: Cell) -> bool {
        SYMBOLS.iter().any(|&(q, r, _)| c.axial() == (q, r))
    }

    #[inline]
    pub fn free_pairs(&self) -> usize {
        self.free_pairs as usize
    }

    /// Bit mask of the printed symbols (positions in `SYMBOLS`) that some tile touches.
    #[inline]
    pub fn touched_symbols(&self) -> u8 {
        self.touched_symbols
    }

    /// Mask of untouched printed symbols that `c` is adjacent to.
    #[inline]
    pub fn untouched_symbols_near(&self, c: Cell) -> u8 {
        SYMBOL_NEIGHBOURS[c.index()] & !self.touched_symbols
    }

    /// Whether `c` is adjacent to a tile or a printed symbol.
    #[inline]
    pub fn touches_occupied(&self, c: Cell) -> bool {
        let i = c.index() as isize;
        STEP.iter().any(|s| self.cells[(i + s) as usize] < COLORS as u8)
    }

    #[inline]
    fn free_neighbours(&self, c: Cell) -> u16 {
        let i = c.index() as isize;
        STEP.iter().filter(|s| self.cells[(i + **s) as usize] == EMPTY).count() as u16
    }

    /// Checks that `a` and `b` are two adjacent free cells of the zone.
    pub fn check_pair(&self, a: Cell, b: Cell) -> Result<usize, BoardError> {
        for c in [a, b] {
            if !self.in_zone(c) {
                return Err(BoardError::OutsideZone(c));
            }
            if !self.is_free(c) {
                return Err(BoardError::Occupied(c));
            }
        }
        a.direction_to(b).ok_or(BoardError::NotAdjacent(a, b))
    }

    /// Puts a colour on one free cell of the zone (for building arbitrary positions).
    pub fn set(&mut self, c: Cell, color: Color) -> Result<(), BoardError> {
        if color as usize >= COLORS {
            return Err(BoardError::BadColor(color));
        }
        if !self.in_zone(c) {
            return Err(BoardError::OutsideZone(c));
        }
        if !self.is_free(c) {
            return Err(BoardError::Occupied(c));
        }
        self.occupy(c, color);
        Ok(())
    }

    #[inline]
    fn occupy(&mut self, c: Cell, color: Color) {
        self.free_pairs -= self.free_neighbours(c);
        self.cells[c.index()] = color;
        self.free[c.index() / 64] &= !(1 << (c.index() % 64));
        self.touched_symbols |= SYMBOL_NEIGHBOURS[c.index()];
    }

    /// Places a tile's two halves on two adjacent free cells (checked by the caller).
    #[inline]
    pub fn place_unchecked(&mut self, a: Cell, ca: Color, b: Cell, cb: Color) {
        self.occupy(a, ca);
        self.occupy(b, cb);
    }

    /// Length of the unbroken line of `color` starting at the neighbour of `c` in direction `d`.
    #[inline]
    pub fn run(&self, c: Cell, d: usize, color: Color) -> u8 {
        let step = STEP[d];
        let mut i = c.index() as isize + step;
        let mut n = 0;
        // Border cells are BLOCKED, so the walk stops before leaving the grid.
        while self.cells[i as usize] == color {
            n += 1;
            i += step;
        }
        n
    }

    /// The lines one half counts, by direction: the run of `color` in each of the five
    /// directions other than `skip` (the tile's other half, whose line is always 0).
    #[inline]
    pub fn half_lines(&self, c: Cell, color: Color, skip: usize) -> [u8; 6] {
        let mut lines = [0; 6];
        for (d, n) in lines.iter_mut().enumerate() {
            if d != skip {
                *n = self.run(c, d, color);
            }
        }
        lines
    }

    /// Points of one half: the sum of its lines ([`Board::half_lines`]).
    #[inline]
    pub fn half_points(&self, c: Cell, color: Color, skip: usize) -> u8 {
        self.half_lines(c, color, skip).iter().sum()
    }

    /// Points of each half of a placement, `(a, b)`, on the current board (before placing;
    /// no line from one half can pass through the other, so before and after agree).
    #[inline]
    pub fn placement_points(&self, a: Cell, ca: Color, b: Cell, cb: Color, dir_ab: usize) -> (u8, u8) {
        let pa = self.half_points(a, ca, dir_ab);
        let pb = self.half_points(b, cb, crate::hex::opposite(dir_ab));
        (pa, pb)
    }

    /// Calls `f` on each pair of adjacent free cells `(a, b)`, `a < b`, in the order of the
    /// zone's edge list, until `f` returns `true`; tells whether it did.
    #[inline]
    // Word indices pair `free[w]` with `free[w + 1]` and three arrays at once.
    #[allow(clippy::needless_range_loop)]
    pub fn free_pairs_until(&self, mut f: impl FnMut(Cell, Cell) -> bool) -> bool {
        // Free pairs along a forward step s: free cells whose cell s further is free too.
        let mut along = [[0u64; FREE_WORDS]; 3];
        for (k, &s) in FORWARD_STEPS.iter().enumerate() {
            for w in 0..FREE_WORDS {
                let next = if w + 1 < FREE_WORDS { self.free[w + 1] << (64 - s) } else { 0 };
                along[k][w] = self.free[w] & ((self.free[w] >> s) | next);
            }
        }
        for w in 0..FREE_WORDS {
            let mut any = along[0][w] | along[1][w] | along[2][w];
            while any != 0 {
                let bit = any.trailing_zeros() as usize;
                any &= any - 1;
                let a = w * 64 + bit;
                for (k, &s) in FORWARD_STEPS.iter().enumerate() {
                    if along[k][w] >> bit & 1 == 1 && f(Cell::from_index(a as u16), Cell::from_index((a + s) as u16)) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Iterates over the free cells of the zone.
    pub fn free_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.zone().cells.iter().copied().filter(move |&c| self.is_free(c))
    }

    /// Iterates over the pairs of adjacent free cells of the zone.
    pub fn free_pair_list(&self) -> impl Iterator<Item = (Cell, Cell)> + '_ {
        self.zone().edges.iter().filter(move |e| self.is_free(e.a) && self.is_free(e.b)).map(|e| (e.a, e.b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbol_table_matches_the_geometry() {
        let mut want = [0u8; GRID];
        for (i, &(q, r, _)) in SYMBOLS.iter().enumerate() {
            let s = Cell::new(q, r).unwrap();
            for d in 0..6 {
                want[s.neighbour(d).unwrap().index()] |= 1 << i;
            }
        }
        assert_eq!(SYMBOL_NEIGHBOURS, want);
    }

    fn c(q: i32, r: i32) -> Cell {
        Cell::new(q, r).unwrap()
    }

    #[test]
    fn symbols_are_not_free_and_free_pairs_are_counted() {
        let b = Board::new(5);
        assert_eq!(b.free_cells().count(), 85);
        assert_eq!(b.free_pairs(), b.free_pair_list().count());
        assert_eq!(b.get(c(0, -5)), 0);
        assert_eq!(b.get(c(5, 0)), 4);
        assert!(!b.in_zone(c(6, 0)));
        assert!(Board::new(7).in_zone(c(6, 0)));
    }

    #[test]
    fn free_pair_count_is_maintained() {
        let mut b = Board::new(5);
        b.place_unchecked(c(0, 0), 1, c(1, 0), 2);
        b.set(c(0, 1), 3).unwrap();
        assert_eq!(b.free_pairs(), b.free_pair_list().count());
    }

    #[test]
    fn bit_scan_of_free_pairs_matches_the_edge_list() {
        for radius in [5, 6, 7] {
            let mut b = Board::new(radius);
            let mut rng = crate::rng::Rng::new(radius as u64);
            loop {
                let mut scanned = Vec::new();
                b.free_pairs_until(|a, c| {
                    scanned.push((a, c));
                    false
                });
                assert_eq!(scanned, b.free_pair_list().collect::<Vec<_>>());
                assert_eq!(scanned.len(), b.free_pairs());
                if scanned.is_empty() {
                    break;
                }
                let (a, c) = scanned[rng.below(scanned.len() as u32) as usize];
                b.place_unchecked(a, 0, c, 1);
            }
        }
    }

    #[test]
    fn symbol_touching_is_tracked() {
        let mut b = Board::new(5);
        assert_eq!(b.untouched_symbols_near(c(0, -4)), 1);
        b.place_unchecked(c(1, -5), 2, c(1, -4), 2);
        assert_eq!(b.touched_symbols(), 1);
        assert_eq!(b.untouched_symbols_near(c(0, -4)), 0);
    }

    #[test]
    fn set_rejects_bad_cells() {
        let mut b = Board::new(5);
        assert_eq!(b.set(c(0, -5), 1), Err(BoardError::Occupied(c(0, -5))));
        assert_eq!(b.set(c(6, 0), 1), Err(BoardError::OutsideZone(c(6, 0))));
        assert_eq!(b.set(c(0, 0), 6), Err(BoardError::BadColor(6)));
    }
}

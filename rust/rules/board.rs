//! The board: which colour each cell shows, the printed symbols, and the free pairs left.

use crate::hex::{zone, Cell, Edge, Zone, GRID, OFFSET, SIDE, STEP};
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

/// A set of grid cells: bit `i % 64` of word `i / 64` for grid index `i`.
pub(crate) type GridMask = [u64; FREE_WORDS];

/// `m` moved `s` cells down the grid: bit `i` of the result is bit `i + s` of `m`.
#[inline(always)]
// Word `w` of the result takes bits from words `w` and `w + 1`.
#[allow(clippy::needless_range_loop)]
fn shifted_down(m: &GridMask, s: usize) -> GridMask {
    let mut out = [0u64; FREE_WORDS];
    for w in 0..FREE_WORDS {
        let next = if w + 1 < FREE_WORDS { m[w + 1] << (64 - s) } else { 0 };
        out[w] = m[w] >> s | next;
    }
    out
}

/// `m` moved `s` cells up the grid: bit `i + s` of the result is bit `i` of `m`.
#[inline(always)]
#[allow(clippy::needless_range_loop)]
fn shifted_up(m: &GridMask, s: usize) -> GridMask {
    let mut out = [0u64; FREE_WORDS];
    for w in 0..FREE_WORDS {
        let previous = if w > 0 { m[w - 1] >> (64 - s) } else { 0 };
        out[w] = m[w] << s | previous;
    }
    out
}

/// The cells of the zones of radius 5, 6 and 7 as grid masks.
const ZONE_MASKS: [GridMask; 3] = {
    let mut t = [[0u64; FREE_WORDS]; 3];
    let mut z = 0;
    while z < 3 {
        let radius = 5 + z as i32;
        let mut i = 0;
        while i < GRID {
            let q = (i % SIDE) as i32 - OFFSET;
            let r = (i / SIDE) as i32 - OFFSET;
            let (aq, ar, aqr) = (q.abs(), r.abs(), (q + r).abs());
            let d = if aq > ar { aq } else { ar };
            if (if d > aqr { d } else { aqr }) <= radius {
                t[z][i / 64] |= 1 << (i % 64);
            }
            i += 1;
        }
        z += 1;
    }
    t
};

/// The empty boards of radius 5, 6 and 7.
const EMPTY_BOARDS: [Board; 3] = [Board::build(5), Board::build(6), Board::build(7)];

/// Edges as bits: bit `3 * a + k` (of word `/ 64`) stands for the edge from grid cell `a` to
/// the cell `FORWARD_STEPS[k]` further. In bit order the edges come as in the zone's edge
/// list (cells in index order, then the steps), so a scan of the set bits lists them in
/// that order with no test per cell or direction.
const EDGE_WORDS: usize = (3 * GRID).div_ceil(64);
pub(crate) type EdgeMask = [u64; EDGE_WORDS];

/// For each edge bit, its two cells as `a | b << 16`: the edge part of a placement's word
/// (`Move::edge_word`) shifted down 16 bits (shifted back up where used, so the compiler
/// knows the word's low bytes, where the move's tag goes, are zero). 0 where `b` is off the
/// grid (never an open edge).
const EDGE_CELLS: [u32; 1024] = {
    let mut t = [0u32; 1024];
    let mut a = 0;
    while a < GRID {
        let mut k = 0;
        while k < FORWARD_STEPS.len() {
            let b = a + FORWARD_STEPS[k];
            if b < GRID {
                t[3 * a + k] = a as u32 | (b as u32) << 16;
            }
            k += 1;
        }
        a += 1;
    }
    t
};

/// The edge word (`Move::edge_word(a, b)`) of edge bit `bit`.
#[inline(always)]
fn edge_word(bit: usize) -> u64 {
    // The table has 1024 entries: the mask drops the bounds check.
    (EDGE_CELLS[bit & 1023] as u64) << 16
}

/// For each printed symbol (by position in `SYMBOLS`), the edges with a cell next to it.
const SYMBOL_EDGES: [EdgeMask; 6] = {
    let mut t = [[0u64; EDGE_WORDS]; 6];
    let mut a = 0;
    while a < GRID {
        let mut k = 0;
        while k < FORWARD_STEPS.len() {
            let b = a + FORWARD_STEPS[k];
            if b < GRID {
                let near = SYMBOL_NEIGHBOURS[a] | SYMBOL_NEIGHBOURS[b];
                let mut i = 0;
                while i < SYMBOLS.len() {
                    if near >> i & 1 == 1 {
                        let bit = 3 * a + k;
                        t[i][bit / 64] |= 1 << (bit % 64);
                    }
                    i += 1;
                }
            }
            k += 1;
        }
        a += 1;
    }
    t
};

/// A set of edges, as [`Board::open_edges`] and the touch rules' variants find them.
#[derive(Copy, Clone, Debug)]
pub(crate) struct EdgeMasks(EdgeMask);

impl EdgeMasks {
    /// Number of edges.
    #[inline]
    pub(crate) fn count(&self) -> usize {
        self.0.iter().map(|m| m.count_ones() as usize).sum()
    }

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.iter().all(|&m| m == 0)
    }

    /// Calls `f` with the edge word (`Move::edge_word(a, b)`) of every edge, in the order
    /// of the zone's edge list: one bit scan, no test per cell or direction.
    #[inline(always)]
    pub(crate) fn for_each_word(&self, mut f: impl FnMut(u64)) {
        self.for_each_bit(|bit| f(edge_word(bit)));
    }

    /// Calls `f` with the bit (`3 * a + k`) of every edge, in the order of the zone's edge
    /// list.
    #[inline(always)]
    pub(crate) fn for_each_bit(&self, mut f: impl FnMut(usize)) {
        for (w, &word) in self.0.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let bit = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                f(w * 64 + bit);
            }
        }
    }

    /// A scan of the edges one at a time, in the order of [`EdgeMasks::for_each_word`].
    #[inline(always)]
    pub(crate) fn scan(&self) -> EdgeScan<'_> {
        EdgeScan { masks: &self.0, word: 0, bits: self.0[0] }
    }

    /// Calls `f(a, b)` for every edge, in the order of [`EdgeMasks::for_each_word`].
    #[inline]
    pub(crate) fn for_each(&self, mut f: impl FnMut(Cell, Cell)) {
        self.for_each_word(|word| f(Cell::from_index((word >> 16) as u16), Cell::from_index((word >> 32) as u16)));
    }
}

/// The edges of an [`EdgeMasks`], one at a time ([`EdgeScan::next_word`]).
pub(crate) struct EdgeScan<'a> {
    masks: &'a EdgeMask,
    word: usize,
    bits: u64,
}

impl EdgeScan<'_> {
    /// The next edge's word (`Move::edge_word`); 0 once every edge has been given (callers
    /// ask for exactly [`EdgeMasks::count`] edges).
    #[inline(always)]
    pub(crate) fn next_word(&mut self) -> u64 {
        while self.bits == 0 {
            if self.word + 1 >= EDGE_WORDS {
                return 0;
            }
            self.word += 1;
            self.bits = self.masks[self.word];
        }
        let bit = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        edge_word(self.word * 64 + bit)
    }
}

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
    /// The pairs of adjacent free cells of the zone, as edge bits (`EdgeMask`). Drives
    /// move generation.
    open: EdgeMask,
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
    /// The empty board for a zone radius (5, 6 or 7), printed symbols in place: a copy of
    /// one built by the compiler, so a new game does not walk the zone's cells and edges
    /// (the test `empty_boards_match_the_zones` builds them from the zones at run time).
    pub fn new(radius: i32) -> Board {
        match radius {
            5..=7 => EMPTY_BOARDS[radius as usize - 5],
            _ => panic!("zone radius must be 5, 6 or 7, got {radius}"),
        }
    }

    /// The empty board of radius `radius`, built at compile time for `EMPTY_BOARDS`.
    const fn build(radius: i32) -> Board {
        let mut cells = [BLOCKED; GRID];
        let mut free = [0u64; FREE_WORDS];
        let zone = ZONE_MASKS[radius as usize - 5];
        let mut i = 0;
        while i < GRID {
            if zone[i / 64] >> (i % 64) & 1 == 1 {
                cells[i] = EMPTY;
            }
            i += 1;
        }
        let mut k = 0;
        while k < SYMBOLS.len() {
            let (q, r, color) = SYMBOLS[k];
            cells[(r + OFFSET) as usize * SIDE + (q + OFFSET) as usize] = color;
            k += 1;
        }
        let mut free_pairs = 0;
        let mut open = [0u64; EDGE_WORDS];
        let mut i = 0;
        while i < GRID {
            if cells[i] == EMPTY {
                free[i / 64] |= 1 << (i % 64);
                let mut k = 0;
                while k < FORWARD_STEPS.len() {
                    // Zone cells are at most 7 from the centre: the grid holds every neighbour.
                    if cells[i + FORWARD_STEPS[k]] == EMPTY {
                        free_pairs += 1;
                        let bit = 3 * i + k;
                        open[bit / 64] |= 1 << (bit % 64);
                    }
                    k += 1;
                }
            }
            i += 1;
        }
        Board { cells, free, open, radius: radius as u8, free_pairs, touched_symbols: 0 }
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
        // The edges from `c` forward, and those that reach it from the cells behind (a
        // board cell has all its neighbours in the grid, so `c - s` is a grid index).
        let i = c.index();
        for (k, s) in FORWARD_STEPS.into_iter().enumerate() {
            for bit in [3 * i + k, 3 * (i - s) + k] {
                self.open[bit / 64] &= !(1 << (bit % 64));
            }
        }
        self.touched_symbols |= SYMBOL_NEIGHBOURS[c.index()];
    }

    /// Whether both cells of a zone edge are free: one bit of the open edges, where the
    /// two cells would take two loads and two hard-to-predict branches.
    #[inline]
    pub fn edge_open(&self, e: &Edge) -> bool {
        // A zone edge runs forward, in direction 0, 4 or 5 (STEP = 1, SIDE - 1, SIDE):
        // FORWARD_STEPS[0], [1] and [2].
        const K_OF_DIR: [usize; 6] = [0, 0, 0, 0, 1, 2];
        debug_assert!(matches!(e.dir, 0 | 4 | 5), "{e:?}");
        let bit = 3 * e.a.index() + K_OF_DIR[e.dir as usize];
        self.open[bit / 64] >> (bit % 64) & 1 == 1
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

    /// The pairs of adjacent free cells of the zone.
    #[inline]
    pub(crate) fn open_edges(&self) -> EdgeMasks {
        EdgeMasks(self.open)
    }

    /// The pairs of adjacent free cells with a cell next to a printed symbol that no tile
    /// touches yet.
    #[inline]
    pub(crate) fn open_edges_by_untouched_symbol(&self) -> EdgeMasks {
        let mut near = [0u64; EDGE_WORDS];
        let mut untouched = !self.touched_symbols & ((1 << SYMBOLS.len()) - 1);
        while untouched != 0 {
            let i = untouched.trailing_zeros() as usize;
            untouched &= untouched - 1;
            for (n, s) in near.iter_mut().zip(SYMBOL_EDGES[i]) {
                *n |= s;
            }
        }
        for (n, o) in near.iter_mut().zip(self.open) {
            *n &= o;
        }
        EdgeMasks(near)
    }

    /// The pairs of adjacent free cells with a cell next to a tile or a printed symbol.
    #[inline]
    pub(crate) fn open_edges_by_contact(&self) -> EdgeMasks {
        let near = self.occupied_neighbourhood();
        let mut edges = [0u64; EDGE_WORDS];
        for (w, &word) in near.iter().enumerate() {
            // Only free cells can be on an open edge.
            let mut bits = word & self.free[w];
            while bits != 0 {
                let c = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                for (k, s) in FORWARD_STEPS.into_iter().enumerate() {
                    // A free cell is a board cell: its neighbours are in the grid.
                    for bit in [3 * c + k, 3 * (c - s) + k] {
                        edges[bit / 64] |= 1 << (bit % 64);
                    }
                }
            }
        }
        for (e, o) in edges.iter_mut().zip(self.open) {
            *e &= o;
        }
        EdgeMasks(edges)
    }

    /// The cells next to a tile or a printed symbol (the cells of the zone that are not free
    /// hold a colour; the rest of the grid is blocked).
    #[inline]
    fn occupied_neighbourhood(&self) -> GridMask {
        let zone = &ZONE_MASKS[(self.radius as usize).saturating_sub(5).min(2)];
        let mut occupied = [0u64; FREE_WORDS];
        for w in 0..FREE_WORDS {
            occupied[w] = zone[w] & !self.free[w];
        }
        let mut near = [0u64; FREE_WORDS];
        for s in FORWARD_STEPS {
            let (down, up) = (shifted_down(&occupied, s), shifted_up(&occupied, s));
            for w in 0..FREE_WORDS {
                near[w] |= down[w] | up[w];
            }
        }
        near
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
    fn an_edge_is_open_exactly_when_both_its_cells_are_free() {
        // Fill each zone in a scrambled order, checking every edge after every cell.
        for radius in 5..=7 {
            let mut board = Board::new(radius);
            let zone = zone(radius);
            let mut order: Vec<Cell> = zone.cells.iter().copied().filter(|&c| board.is_free(c)).collect();
            crate::rng::Rng::new(radius as u64).shuffle(&mut order);
            for c in order {
                board.occupy(c, 2);
                for e in &zone.edges {
                    assert_eq!(board.edge_open(e), board.is_free(e.a) && board.is_free(e.b), "{e:?}");
                }
            }
        }
    }

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

    /// The empty boards the compiler builds, against the zones' cells and edges.
    #[test]
    fn empty_boards_match_the_zones() {
        for radius in [5, 6, 7] {
            let b = Board::new(radius);
            let z = zone(radius);
            for i in 0..GRID {
                let c = Cell::from_index(i as u16);
                let symbol = SYMBOLS.iter().find(|&&(q, r, _)| z.inside[i] && c.axial() == (q, r));
                let want = match symbol {
                    Some(&(_, _, color)) => color,
                    None if z.inside[i] => EMPTY,
                    None => BLOCKED,
                };
                assert_eq!(b.cells[i], want, "radius {radius}, grid index {i}");
                assert_eq!(b.free[i / 64] >> (i % 64) & 1 == 1, want == EMPTY);
            }
            let pairs = z.edges.iter().filter(|e| b.is_free(e.a) && b.is_free(e.b)).count();
            assert_eq!(b.free_pairs(), pairs);
            assert_eq!((b.radius(), b.touched_symbols()), (radius, 0));
        }
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

    /// A touch rule's name, its open edges, and its own test of one cell.
    type Case<'a> = (&'static str, EdgeMasks, &'a dyn Fn(Cell) -> bool);

    /// The open edges' masks against the edge list filtered by the touch rules' own tests,
    /// on boards filled pair by pair: the same edges, in the same order, with the words the
    /// generator writes.
    #[test]
    fn edge_masks_match_the_edge_list_and_the_touch_rules() {
        for radius in [5, 6, 7] {
            let mut b = Board::new(radius);
            let mut rng = crate::rng::Rng::new(40 + radius as u64);
            loop {
                let near_symbol = |x: Cell| b.untouched_symbols_near(x) != 0;
                let cases: [Case; 3] = [
                    ("any", b.open_edges(), &|_| true),
                    ("untouched symbol", b.open_edges_by_untouched_symbol(), &near_symbol),
                    ("contact", b.open_edges_by_contact(), &|x| b.touches_occupied(x)),
                ];
                for (near, edges, meets) in cases {
                    let mut listed = Vec::new();
                    edges.for_each(|x, y| listed.push((x, y)));
                    let mut words = Vec::new();
                    edges.for_each_word(|w| words.push(w));
                    let want: Vec<(Cell, Cell)> = b.free_pair_list().filter(|&(x, y)| meets(x) || meets(y)).collect();
                    assert_eq!(listed, want, "radius {radius}, rule {near}");
                    assert_eq!(edges.count(), want.len());
                    assert_eq!(edges.is_empty(), want.is_empty());
                    let want_words: Vec<u64> = want.iter().map(|&(x, y)| crate::moves::Move::edge_word(x, y)).collect();
                    assert_eq!(words, want_words);
                }
                let free: Vec<(Cell, Cell)> = b.free_pair_list().collect();
                if free.is_empty() {
                    break;
                }
                let (a, c) = free[rng.below(free.len() as u32) as usize];
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

//! Hexagonal geometry: axial coordinates, the padded cell grid, zones and edges.
//!
//! Cells live in a 17×17 grid indexed by `(r + 8) * 17 + (q + 8)`. The board reaches
//! distance 7, so every board cell has all six neighbours inside the grid: a walk along a
//! direction always meets a blocked border cell before it can leave the array.

use std::sync::OnceLock;

/// Side of the padded grid (q and r in -8..=8).
pub const SIDE: usize = 17;
/// Number of cells in the padded grid.
pub const GRID: usize = SIDE * SIDE;
pub(crate) const OFFSET: i32 = 8;
/// Largest distance from the centre of any board cell.
pub const BOARD_RADIUS: i32 = 7;
/// Number of cells on the whole board (distance ≤ 7).
pub const BOARD_CELLS: usize = 169;

/// The six neighbour directions in axial `(dq, dr)`, in the order of the rules.
pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// Index step in the padded grid for each direction.
pub const STEP: [isize; 6] = [1, 1 - SIDE as isize, -(SIDE as isize), -1, SIDE as isize - 1, SIDE as isize];

/// The direction opposite to `d`.
#[inline]
pub const fn opposite(d: usize) -> usize {
    (d + 3) % 6
}

/// A cell of the board: an index into the padded grid. Always a board cell (distance ≤ 7).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[repr(transparent)]
pub struct Cell(u16);

impl Cell {
    /// The cell at axial `(q, r)`, if it lies on the board (distance ≤ 7).
    pub fn new(q: i32, r: i32) -> Option<Cell> {
        if distance(q, r) > BOARD_RADIUS {
            return None;
        }
        Some(Cell(((r + OFFSET) as usize * SIDE + (q + OFFSET) as usize) as u16))
    }

    /// The cell at grid index `i`; the caller guarantees it is a board cell.
    #[inline]
    pub(crate) fn from_index(i: u16) -> Cell {
        debug_assert!((i as usize) < GRID);
        Cell(i)
    }

    /// The grid index (0..GRID).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub fn q(self) -> i32 {
        (self.0 as usize % SIDE) as i32 - OFFSET
    }

    #[inline]
    pub fn r(self) -> i32 {
        (self.0 as usize / SIDE) as i32 - OFFSET
    }

    /// `(q, r)`.
    #[inline]
    pub fn axial(self) -> (i32, i32) {
        (self.q(), self.r())
    }

    /// Distance from the centre.
    #[inline]
    pub fn distance(self) -> i32 {
        distance(self.q(), self.r())
    }

    /// The neighbour in direction `d`, if it is a board cell.
    pub fn neighbour(self, d: usize) -> Option<Cell> {
        let (dq, dr) = DIRECTIONS[d];
        Cell::new(self.q() + dq, self.r() + dr)
    }

    /// The direction from `self` to `other`, if they are neighbours.
    pub fn direction_to(self, other: Cell) -> Option<usize> {
        let diff = other.0 as isize - self.0 as isize;
        STEP.iter().position(|&s| s == diff)
    }

    /// Dense index 0..169 over the whole board, ordered by `r` then `q` (the ML cell index).
    #[inline]
    pub fn dense(self) -> usize {
        geometry().dense_of[self.index()] as usize
    }

    /// The cell with dense index `i` (0..169).
    pub fn from_dense(i: usize) -> Option<Cell> {
        geometry().board_cells.get(i).copied()
    }
}

/// Distance of axial `(q, r)` from the centre (saturating at `i32::MAX` for coordinates
/// far off the board, which text and Python callers can supply).
#[inline]
pub fn distance(q: i32, r: i32) -> i32 {
    let (q, r) = (q as i64, r as i64);
    q.abs().max(r.abs()).max((q + r).abs()).min(i32::MAX as i64) as i32
}

/// An edge: two adjacent cells with `a < b`, and the direction from `a` to `b`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub a: Cell,
    pub b: Cell,
    pub dir: u8,
}

/// The cells and edges of one playing zone (all cells within a radius).
#[derive(Debug)]
pub struct Zone {
    pub radius: i32,
    pub cells: Vec<Cell>,
    pub edges: Vec<Edge>,
    /// `inside[i]` tells whether grid index `i` is in the zone.
    pub inside: [bool; GRID],
}

impl Zone {
    fn build(radius: i32) -> Zone {
        let mut cells = Vec::new();
        let mut inside = [false; GRID];
        for r in -radius..=radius {
            for q in -radius..=radius {
                if distance(q, r) <= radius {
                    let c = Cell::new(q, r).expect("zone radius is at most the board radius");
                    inside[c.index()] = true;
                    cells.push(c);
                }
            }
        }
        let mut edges = Vec::new();
        for &a in &cells {
            for (d, step) in STEP.iter().enumerate() {
                let bi = (a.index() as isize + step) as usize;
                if bi > a.index() && inside[bi] {
                    edges.push(Edge { a, b: Cell(bi as u16), dir: d as u8 });
                }
            }
        }
        Zone { radius, cells, edges, inside }
    }
}

pub(crate) struct Geometry {
    zones: [Zone; 3],
    board_cells: Vec<Cell>,
    dense_of: [u8; GRID],
}

pub(crate) fn geometry() -> &'static Geometry {
    static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
    GEOMETRY.get_or_init(|| {
        let zones = [Zone::build(5), Zone::build(6), Zone::build(7)];
        let board_cells = zones[2].cells.clone();
        let mut dense_of = [u8::MAX; GRID];
        for (i, c) in board_cells.iter().enumerate() {
            dense_of[c.index()] = i as u8;
        }
        Geometry { zones, board_cells, dense_of }
    })
}

/// The zone of the given radius (5, 6 or 7).
pub fn zone(radius: i32) -> &'static Zone {
    let g = geometry();
    match radius {
        5 => &g.zones[0],
        6 => &g.zones[1],
        7 => &g.zones[2],
        _ => panic!("zone radius must be 5, 6 or 7, got {radius}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zone_sizes_match_the_rules() {
        assert_eq!(zone(5).cells.len(), 91);
        assert_eq!(zone(6).cells.len(), 127);
        assert_eq!(zone(7).cells.len(), 169);
        // Edges of a hexagon of radius n: 9n² + 3n.
        assert_eq!(zone(5).edges.len(), 9 * 25 + 15);
        assert_eq!(zone(7).edges.len(), 9 * 49 + 21);
    }

    #[test]
    fn axial_round_trip_and_neighbours() {
        for &c in &zone(7).cells {
            assert_eq!(Cell::new(c.q(), c.r()), Some(c));
            assert_eq!(Cell::from_dense(c.dense()), Some(c));
            for d in 0..6 {
                if let Some(n) = c.neighbour(d) {
                    assert_eq!(c.direction_to(n), Some(d));
                    assert_eq!(n.direction_to(c), Some(opposite(d)));
                }
            }
        }
        assert_eq!(Cell::new(8, 0), None);
        assert_eq!(Cell::new(4, 4), None);
    }
}

#[cfg(test)]
mod far_coordinates {
    use super::*;

    #[test]
    fn coordinates_far_off_the_board_are_refused_not_wrapped() {
        // Found by the fuzz driver: i32::MIN overflowed the distance (a panic in debug
        // builds, a bogus in-board cell after wrapping in release builds).
        for (q, r) in [(i32::MIN, 0), (0, i32::MIN), (i32::MIN, i32::MAX), (i32::MAX, i32::MAX), (i32::MAX, 1)] {
            assert_eq!(Cell::new(q, r), None, "({q}, {r})");
        }
        assert_eq!(distance(i32::MIN, 0), i32::MAX);
        assert_eq!(distance(3, -7), 7);
    }
}

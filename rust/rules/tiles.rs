//! Colours, tiles, racks and the bag.

use crate::rng::Rng;
use std::fmt;

/// One of the six colours, `0..6` in the order red, orange, yellow, green, blue, purple.
pub type Color = u8;

pub const COLORS: usize = 6;
/// The colour mask (as [`Tile::mask`]) with all six colours.
pub const ALL_COLORS: u8 = (1 << COLORS) - 1;
pub const COLOR_NAMES: [&str; COLORS] = ["red", "orange", "yellow", "green", "blue", "purple"];
pub const COLOR_LETTERS: [char; COLORS] = ['R', 'O', 'Y', 'G', 'B', 'P'];

/// The colours' names in the languages of the boxes, for text a player types (moves,
/// tiles): English, French (IELLO's *Génial*), German (Kosmos's *Einfach genial*) and Polish
/// (*Geniusz*), each with its common spellings (German `grün` also as `gruen` and `grun`,
/// Polish without its diacritics, the feminine and neuter forms that agree with *płytka*
/// and *pole*). The letters `R O Y G B P` stay English in every language: one notation for
/// records and engines.
pub const COLOR_WORDS: [&[&str]; COLORS] = [
    &["red", "rouge", "rot", "czerwony", "czerwona", "czerwone"],
    &["orange", "pomarańczowy", "pomarańczowa", "pomarańczowe", "pomaranczowy", "pomaranczowa", "pomaranczowe"],
    &["yellow", "jaune", "gelb", "żółty", "żółta", "żółte", "zolty", "zolta", "zolte"],
    &["green", "vert", "grün", "gruen", "grun", "zielony", "zielona", "zielone"],
    &["blue", "bleu", "blau", "niebieski", "niebieska", "niebieskie"],
    &["purple", "violet", "lila", "violett", "fioletowy", "fioletowa", "fioletowe"],
];

/// The colour named by a letter (`R`) or a name (`red`, `rouge`, `rot`, `czerwony`: see
/// [`COLOR_WORDS`]), in any case.
pub fn parse_color(text: &str) -> Option<Color> {
    let t = text.trim();
    if t.chars().count() == 1 {
        let c = t.chars().next()?.to_ascii_uppercase();
        return COLOR_LETTERS.iter().position(|&l| l == c).map(|i| i as Color);
    }
    if t.len() > 24 {
        return None; // longer than any name: no lowercase copy of a long text
    }
    let lower = t.to_lowercase();
    COLOR_WORDS.iter().position(|words| words.contains(&lower.as_str())).map(|i| i as Color)
}

/// A two-hex tile. Unordered: stored with `lo <= hi`. The default is the red double.
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Tile {
    lo: Color,
    hi: Color,
}

/// Number of distinct tile kinds (15 pairs + 6 doubles).
pub const TILE_KINDS: usize = 21;
/// Number of tiles in the game.
pub const TILE_COUNT: usize = 120;

impl Tile {
    /// The tile showing colours `a` and `b` (both `< 6`).
    pub fn new(a: Color, b: Color) -> Tile {
        assert!((a as usize) < COLORS && (b as usize) < COLORS, "colour out of range");
        Tile { lo: a.min(b), hi: a.max(b) }
    }

    #[inline]
    pub fn colors(self) -> (Color, Color) {
        (self.lo, self.hi)
    }

    #[inline]
    pub fn is_double(self) -> bool {
        self.lo == self.hi
    }

    #[inline]
    pub fn shows(self, c: Color) -> bool {
        self.lo == c || self.hi == c
    }

    /// Bit mask of the colours shown.
    #[inline]
    pub fn mask(self) -> u8 {
        (1 << self.lo) | (1 << self.hi)
    }

    /// Index 0..21 of the kind (lexicographic over `(lo, hi)`).
    #[inline]
    pub fn kind(self) -> usize {
        let lo = self.lo as usize;
        // Kinds before row `lo`: 6 + 5 + ... = lo*6 - lo*(lo-1)/2.
        lo * COLORS - lo * (lo.saturating_sub(1)) / 2 + (self.hi as usize - lo)
    }

    /// The tile of kind `k` (0..21).
    pub fn from_kind(k: usize) -> Tile {
        KINDS[k]
    }

    /// How many copies of this tile the game has.
    pub fn copies(self) -> usize {
        if self.is_double() {
            5
        } else {
            6
        }
    }
}

const KINDS: [Tile; TILE_KINDS] = {
    let mut out = [Tile { lo: 0, hi: 0 }; TILE_KINDS];
    let mut i = 0;
    let mut lo = 0;
    while lo < COLORS {
        let mut hi = lo;
        while hi < COLORS {
            out[i] = Tile { lo: lo as u8, hi: hi as u8 };
            i += 1;
            hi += 1;
        }
        lo += 1;
    }
    out
};

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", COLOR_LETTERS[self.lo as usize], COLOR_LETTERS[self.hi as usize])
    }
}

/// All 120 tiles in canonical order (kind by kind).
pub fn full_set() -> [Tile; TILE_COUNT] {
    let mut out = [Tile { lo: 0, hi: 0 }; TILE_COUNT];
    let mut i = 0;
    for t in KINDS {
        for _ in 0..t.copies() {
            out[i] = t;
            i += 1;
        }
    }
    out
}

/// A player's rack: up to six tiles in slot order (draws append, plays close the gap).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Rack {
    tiles: [Tile; 6],
    len: u8,
}

impl Rack {
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles[..self.len as usize]
    }

    pub fn push(&mut self, t: Tile) {
        assert!(self.len < 6, "rack is full");
        self.tiles[self.len as usize] = t;
        self.len += 1;
    }

    /// Slot of the first copy of `t`.
    #[inline]
    pub fn find(&self, t: Tile) -> Option<usize> {
        self.tiles().iter().position(|&x| x == t)
    }

    /// Removes and returns the tile in `slot`, keeping the order of the others.
    pub fn remove(&mut self, slot: usize) -> Tile {
        let t = self.tiles[slot];
        let n = self.len as usize;
        self.tiles.copy_within(slot + 1..n, slot);
        self.len -= 1;
        t
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Union of the colours shown by the rack's tiles.
    pub fn color_mask(&self) -> u8 {
        self.tiles().iter().fold(0, |m, t| m | t.mask())
    }

    /// The distinct tiles of the rack, in slot order of first appearance.
    #[inline]
    pub fn distinct(&self, out: &mut [Tile; 6]) -> usize {
        let mut n = 0;
        for &t in self.tiles() {
            if !out[..n].contains(&t) {
                out[n] = t;
                n += 1;
            }
        }
        n
    }
}

/// The bag: the tiles not yet drawn, in draw order (stored reversed so a draw is a pop).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Bag {
    tiles: [Tile; TILE_COUNT],
    len: u8,
}

impl Bag {
    /// A bag whose draws come in the order given (first element drawn first).
    pub fn from_draw_order(order: &[Tile]) -> Bag {
        assert!(order.len() <= TILE_COUNT);
        let mut tiles = [Tile::default(); TILE_COUNT];
        for (i, &t) in order.iter().rev().enumerate() {
            tiles[i] = t;
        }
        Bag { tiles, len: order.len() as u8 }
    }

    /// The full set, shuffled.
    pub fn shuffled(rng: &mut Rng) -> Bag {
        let mut tiles = full_set();
        rng.shuffle(&mut tiles);
        Bag { tiles, len: TILE_COUNT as u8 }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The next tile, if any.
    #[inline]
    pub fn draw(&mut self) -> Option<Tile> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.tiles[self.len as usize])
    }

    /// Puts tiles back and mixes the whole bag (a bag, not a stack).
    pub fn put_back(&mut self, returned: &[Tile], rng: &mut Rng) {
        for &t in returned {
            self.tiles[self.len as usize] = t;
            self.len += 1;
        }
        rng.shuffle(&mut self.tiles[..self.len as usize]);
    }

    /// The remaining tiles, next draw first.
    pub fn draw_order(&self) -> impl Iterator<Item = Tile> + '_ {
        self.tiles[..self.len as usize].iter().rev().copied()
    }

    /// Replaces the content (used by determinization), `tiles` in draw order.
    pub(crate) fn refill(&mut self, tiles: &[Tile]) {
        *self = Bag::from_draw_order(tiles);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_words_name_one_colour_each_in_any_case() {
        let mut seen = std::collections::HashSet::new();
        for (c, words) in COLOR_WORDS.iter().enumerate() {
            assert_eq!(words[0], COLOR_NAMES[c], "the English name comes first");
            for w in words.iter() {
                assert!(seen.insert(*w), "{w} names two colours");
                assert_eq!(w.to_lowercase(), *w);
                assert_eq!(parse_color(w), Some(c as Color), "{w}");
                assert_eq!(parse_color(&w.to_uppercase()), Some(c as Color), "{w}");
            }
        }
        assert_eq!(parse_color("rosso"), None);
        assert_eq!(parse_color(&"ż".repeat(40)), None);
    }

    #[test]
    fn distribution_is_exact() {
        let set = full_set();
        assert_eq!(set.len(), 120);
        for a in 0..6u8 {
            for b in a..6u8 {
                let n = set.iter().filter(|&&t| t == Tile::new(a, b)).count();
                assert_eq!(n, if a == b { 5 } else { 6 }, "{a} {b}");
            }
        }
        assert_eq!(set.iter().filter(|t| t.is_double()).count(), 30);
    }

    #[test]
    fn kinds_round_trip() {
        for k in 0..TILE_KINDS {
            assert_eq!(Tile::from_kind(k).kind(), k);
        }
        assert_eq!(Tile::new(4, 1), Tile::new(1, 4));
    }

    #[test]
    fn rack_keeps_slot_order() {
        let mut r = Rack::default();
        for k in [3, 1, 4, 1] {
            r.push(Tile::from_kind(k));
        }
        assert_eq!(r.remove(1), Tile::from_kind(1));
        assert_eq!(r.tiles(), &[Tile::from_kind(3), Tile::from_kind(4), Tile::from_kind(1)]);
        let mut d = [Tile::default(); 6];
        r.push(Tile::from_kind(4));
        assert_eq!(r.distinct(&mut d), 3);
    }

    #[test]
    fn bag_draws_in_order() {
        let order = [Tile::new(0, 1), Tile::new(2, 2), Tile::new(5, 3)];
        let mut bag = Bag::from_draw_order(&order);
        assert_eq!(bag.draw_order().collect::<Vec<_>>(), order.to_vec());
        assert_eq!(bag.draw(), Some(order[0]));
        assert_eq!(bag.draw(), Some(order[1]));
        assert_eq!(bag.len(), 1);
    }

    #[test]
    fn colour_parsing() {
        assert_eq!(parse_color("r"), Some(0));
        assert_eq!(parse_color("Purple"), Some(5));
        assert_eq!(parse_color("x"), None);
    }
}

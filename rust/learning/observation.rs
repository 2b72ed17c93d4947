//! What one seat may see, as a flat vector of `f32` for learning agents.
//!
//! The same size for every variant and player count ([`OBS_SIZE`]), every entry in
//! `-1..=1`. Seats are listed relative to the observer: row `k` is seat
//! `(observer + k) % players`. Hidden information stays hidden: other racks appear only
//! as sizes, the bag only as a count, and unseen tiles only as counts per kind (which the
//! observer could work out from the tiles played).
//!
//! The blocks, in order, are the constants of [`layout`] (board planes, rack, tracks, duel
//! tokens, swap colours, unseen tiles, rack sizes, first placements, bag, phase, pending
//! bonuses, seat to move, own seat, variant, players, options). What each holds is tabled
//! once, in the Python module `genial.observation`, whose test checks that table against
//! [`layout`].

use crate::board::{EMPTY, SYMBOLS};
use crate::game::{Game, Phase};
use crate::hex::{zone, Cell, BOARD_CELLS};
use crate::tiles::{Tile, COLORS, TILE_COUNT, TILE_KINDS};
use crate::variants::{RuleOption, Variant, RULE_OPTIONS};
use std::sync::OnceLock;

/// Offsets and sizes of the observation's blocks.
pub mod layout {
    use super::*;

    pub const BOARD_PLANES: usize = 10;
    /// Plane index of "free cell".
    pub const PLANE_FREE: usize = 6;
    /// Plane index of "in the playing zone".
    pub const PLANE_ZONE: usize = 7;
    /// Plane index of "printed symbol".
    pub const PLANE_SYMBOL: usize = 8;
    /// Plane index of "printed symbol no tile touches yet".
    pub const PLANE_UNTOUCHED: usize = 9;

    pub const BOARD: usize = 0;
    pub const RACK: usize = BOARD + BOARD_PLANES * BOARD_CELLS;
    pub const TRACKS: usize = RACK + 6 * TILE_KINDS;
    pub const TOKENS: usize = TRACKS + 4 * COLORS;
    pub const SWAP_COLORS: usize = TOKENS + 2 * COLORS;
    pub const UNSEEN: usize = SWAP_COLORS + COLORS;
    pub const RACK_SIZES: usize = UNSEEN + TILE_KINDS;
    pub const HAS_PLACED: usize = RACK_SIZES + 4;
    pub const BAG: usize = HAS_PLACED + 4;
    pub const PHASE: usize = BAG + 1;
    pub const PENDING: usize = PHASE + 4;
    pub const TO_MOVE: usize = PENDING + 1;
    pub const SEAT: usize = TO_MOVE + 4;
    pub const VARIANT: usize = SEAT + 4;
    pub const PLAYERS: usize = VARIANT + 4;
    pub const OPTIONS: usize = PLAYERS + 4;
    /// One entry per rule option (`RULE_OPTIONS`), so a new option reaches the agents.
    pub const OPTION_COUNT: usize = RULE_OPTIONS.len();
    pub const END: usize = OPTIONS + OPTION_COUNT;

    /// `(name, offset, shape)` of every block, in order.
    pub const BLOCKS: [(&str, usize, &[usize]); 16] = [
        ("board", BOARD, &[BOARD_PLANES, BOARD_CELLS]),
        ("rack", RACK, &[6, TILE_KINDS]),
        ("tracks", TRACKS, &[4, COLORS]),
        ("tokens", TOKENS, &[2, COLORS]),
        ("swap_colors", SWAP_COLORS, &[COLORS]),
        ("unseen", UNSEEN, &[TILE_KINDS]),
        ("rack_sizes", RACK_SIZES, &[4]),
        ("has_placed", HAS_PLACED, &[4]),
        ("bag", BAG, &[1]),
        ("phase", PHASE, &[4]),
        ("pending", PENDING, &[1]),
        ("to_move", TO_MOVE, &[4]),
        ("seat", SEAT, &[4]),
        ("variant", VARIANT, &[4]),
        ("players", PLAYERS, &[4]),
        ("options", OPTIONS, &[OPTION_COUNT]),
    ];
}

/// Length of an observation.
pub const OBS_SIZE: usize = layout::END;

/// Raised by hand when what an entry means changes while the layout stays the same (a new
/// scale, another order of a one-hot block's values). A change of the layout needs no edit
/// here: [`VERSION`] follows it.
const MEANING: u32 = 1;

/// The version of the observation's layout and meaning, so that an agent trained on one
/// knows it meets another: a fingerprint of [`MEANING`], every block's name, offset and
/// shape ([`layout::BLOCKS`]) and every rule option's name and values, in order (the
/// `options` entries are the values' places). A new rule option, which adds an entry, gives
/// another version with no edit here, as does any other change of the blocks.
pub const VERSION: u32 = fingerprint(MEANING, &layout::BLOCKS, RULE_OPTIONS);

/// FNV-1a (32 bits) over `meaning`, the blocks and the options, each text ended by a byte no
/// text holds (so that `ab`+`c` and `a`+`bc` differ). A `const fn`, so [`VERSION`] is a
/// constant of the build.
const fn fingerprint(meaning: u32, blocks: &[(&str, usize, &[usize])], options: &[RuleOption]) -> u32 {
    const fn bytes(mut hash: u32, data: &[u8]) -> u32 {
        let mut i = 0;
        while i < data.len() {
            hash = (hash ^ data[i] as u32).wrapping_mul(0x0100_0193);
            i += 1;
        }
        hash
    }
    const fn text(hash: u32, t: &str) -> u32 {
        bytes(bytes(hash, t.as_bytes()), &[0xFF])
    }
    const fn number(hash: u32, n: usize) -> u32 {
        bytes(hash, &(n as u64).to_le_bytes())
    }
    let mut hash = number(0x811C_9DC5, meaning as usize);
    let mut b = 0;
    while b < blocks.len() {
        let (name, offset, shape) = blocks[b];
        hash = number(number(text(hash, name), offset), shape.len());
        let mut d = 0;
        while d < shape.len() {
            hash = number(hash, shape[d]);
            d += 1;
        }
        b += 1;
    }
    let mut o = 0;
    while o < options.len() {
        hash = number(text(hash, options[o].name), options[o].values.len());
        let mut v = 0;
        while v < options[o].values.len() {
            hash = text(hash, options[o].values[v]);
            v += 1;
        }
        o += 1;
    }
    hash
}

/// Dense indices of the printed symbols, in `SYMBOLS` order.
fn symbol_dense() -> &'static [usize; 6] {
    static T: OnceLock<[usize; 6]> = OnceLock::new();
    T.get_or_init(|| SYMBOLS.map(|(q, r, _)| Cell::new(q, r).expect("symbols lie on the board").dense()))
}

fn variant_index(v: Variant) -> usize {
    match v {
        Variant::Standard => 0,
        Variant::Solo => 1,
        Variant::Team => 2,
        Variant::Duel => 3,
    }
}

/// Writes what seat `observer` sees of `game` into `out` (length [`OBS_SIZE`]); every
/// entry is written.
pub fn observe(game: &Game, observer: usize, out: &mut [f32]) {
    assert_eq!(out.len(), OBS_SIZE, "an observation has OBS_SIZE entries");
    out.fill(0.0);
    observe_zeroed(game, observer, out);
}

/// [`observe`] into an `out` that holds only zeros (a fresh `numpy.zeros`): the entries
/// that stay 0 are not written again, so a new observation is zeroed once, not twice.
pub fn observe_zeroed(game: &Game, observer: usize, out: &mut [f32]) {
    use layout::*;
    assert_eq!(out.len(), OBS_SIZE, "an observation has OBS_SIZE entries");
    debug_assert!(out.iter().all(|&x| x == 0.0), "observe_zeroed needs an all-zero buffer");
    let config = game.config();
    let players = config.players();
    assert!(observer < players, "observer {observer} is not a seat of a {players}-player game");

    // Board planes.
    let board = game.board();
    let plane = |p: usize, i: usize| BOARD + p * BOARD_CELLS + i;
    for &c in &zone(board.radius()).cells {
        let i = c.dense();
        out[plane(PLANE_ZONE, i)] = 1.0;
        match board.get(c) {
            EMPTY => out[plane(PLANE_FREE, i)] = 1.0,
            color => out[plane(color as usize, i)] = 1.0,
        }
    }
    let touched = board.touched_symbols();
    for (k, &i) in symbol_dense().iter().enumerate() {
        out[plane(PLANE_SYMBOL, i)] = 1.0;
        if touched >> k & 1 == 0 {
            out[plane(PLANE_UNTOUCHED, i)] = 1.0;
        }
    }

    // The observer's rack, and the tiles it has not seen.
    let mut unseen = [0u8; TILE_KINDS];
    for (slot, t) in game.rack(observer).tiles().iter().enumerate() {
        out[RACK + slot * TILE_KINDS + t.kind()] = 1.0;
    }
    for t in game.bag().draw_order() {
        unseen[t.kind()] += 1;
    }

    // Seats relative to the observer.
    let tracks = game.tracks();
    let max = config.variant.track_max() as f32;
    for k in 0..players {
        let seat = (observer + k) % players;
        let view = tracks.view(config, seat);
        for c in 0..COLORS {
            out[TRACKS + k * COLORS + c] = view[c] as f32 / max;
        }
        let rack = game.rack(seat);
        out[RACK_SIZES + k] = rack.len() as f32 / 6.0;
        out[HAS_PLACED + k] = game.has_placed(seat) as u8 as f32;
        if k > 0 {
            for t in rack.tiles() {
                unseen[t.kind()] += 1;
            }
        }
    }
    for (kind, &n) in unseen.iter().enumerate() {
        out[UNSEEN + kind] = n as f32 / Tile::from_kind(kind).copies() as f32;
    }
    if config.variant == Variant::Duel {
        for c in 0..COLORS {
            match tracks.tokens[c] {
                -1 => {}
                s if s as usize == observer => out[TOKENS + c] = 1.0,
                _ => out[TOKENS + COLORS + c] = 1.0,
            }
        }
    }
    if config.variant != Variant::Solo {
        let colors = tracks.swap_colors(config, observer);
        for c in 0..COLORS {
            out[SWAP_COLORS + c] = (colors >> c & 1) as f32;
        }
    }
    out[BAG] = game.bag().len() as f32 / TILE_COUNT as f32;

    // Turn.
    let phase = match game.phase() {
        Phase::Place => 0,
        Phase::Bonus => 1,
        Phase::SwapOffer => 2,
        Phase::Over => 3,
    };
    out[PHASE + phase] = 1.0;
    out[PENDING] = game.pending_bonuses().min(4) as f32 / 4.0;
    out[TO_MOVE + (game.current_player() + players - observer) % players] = 1.0;
    out[SEAT + observer] = 1.0;

    // Rules.
    out[VARIANT + variant_index(config.variant)] = 1.0;
    out[PLAYERS + players - 1] = 1.0;
    for (k, option) in RULE_OPTIONS.iter().enumerate() {
        // The value's place among the option's values, 0 (the default) to 1.
        out[OPTIONS + k] = option.index_in(config) as f32 / (option.values.len() - 1).max(1) as f32;
    }
}

#[cfg(test)]
mod tests {
    use super::layout::*;
    use super::*;
    use crate::variants::Config;

    fn at(out: &[f32], p: usize, q: i32, r: i32) -> f32 {
        out[BOARD + p * BOARD_CELLS + Cell::new(q, r).unwrap().dense()]
    }

    #[test]
    fn the_version_follows_the_layout_and_the_options() {
        // Agents trained on one layout must not silently read another: every input of the
        // fingerprint moves it (one option more or fewer, a block, a shape, the meaning).
        assert_eq!(VERSION, fingerprint(MEANING, &BLOCKS, RULE_OPTIONS));
        let mut seen = vec![VERSION, fingerprint(MEANING + 1, &BLOCKS, RULE_OPTIONS)];
        seen.push(fingerprint(MEANING, &BLOCKS, &RULE_OPTIONS[..RULE_OPTIONS.len() - 1]));
        seen.push(fingerprint(MEANING, &BLOCKS[..BLOCKS.len() - 1], RULE_OPTIONS));
        let mut wider = BLOCKS;
        wider[BLOCKS.len() - 1] = ("options", OPTIONS, &[9]);
        seen.push(fingerprint(MEANING, &wider, RULE_OPTIONS));
        let mut renamed = BLOCKS;
        renamed[0] = ("boards", BOARD, &[BOARD_PLANES, BOARD_CELLS]);
        seen.push(fingerprint(MEANING, &renamed, RULE_OPTIONS));
        let count = seen.len();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), count, "two layouts share a version");
    }

    #[test]
    fn options_are_written_from_the_option_table() {
        let mut out = vec![0.0; OBS_SIZE];
        for config in Config::all() {
            observe(&Game::new(config, 1), 0, &mut out);
            let expected: Vec<f32> =
                RULE_OPTIONS.iter().map(|o| if o.value_in(&config) == o.default_value() { 0.0 } else { 1.0 }).collect();
            assert_eq!(&out[OPTIONS..END], expected.as_slice(), "{config}");
        }
    }

    #[test]
    fn blocks_tile_the_vector() {
        let mut next = 0;
        for (_, offset, shape) in layout::BLOCKS {
            assert_eq!(offset, next);
            next += shape.iter().product::<usize>();
        }
        assert_eq!(next, OBS_SIZE);
    }

    #[test]
    fn a_fresh_two_player_game() {
        let g = Game::new(Config::standard(2).unwrap(), 3);
        let mut out = vec![9.0; OBS_SIZE];
        observe(&g, 1, &mut out);
        assert!(out.iter().all(|x| (-1.0..=1.0).contains(x)));
        // 91 zone cells, 85 free, the printed red at (0,-5), nothing outside the zone.
        let plane_sum = |p: usize| out[BOARD + p * BOARD_CELLS..][..BOARD_CELLS].iter().sum::<f32>();
        assert_eq!(plane_sum(PLANE_ZONE), 91.0);
        assert_eq!(plane_sum(PLANE_FREE), 85.0);
        assert_eq!(plane_sum(PLANE_SYMBOL), 6.0);
        assert_eq!(plane_sum(PLANE_UNTOUCHED), 6.0);
        assert_eq!(at(&out, 0, 0, -5), 1.0);
        assert_eq!(at(&out, PLANE_ZONE, 6, 0), 0.0);
        // The observer's rack, one-hot per slot.
        for (slot, t) in g.rack(1).tiles().iter().enumerate() {
            assert_eq!(out[RACK + slot * TILE_KINDS + t.kind()], 1.0);
        }
        assert_eq!(out[RACK..TRACKS].iter().sum::<f32>(), 6.0);
        // Seat 0 is to move: one seat after the observer.
        assert_eq!(out[TO_MOVE + 1], 1.0);
        assert_eq!(out[SEAT + 1], 1.0);
        assert_eq!(out[PHASE], 1.0);
        assert_eq!(out[PLAYERS + 1], 1.0);
        assert_eq!(out[BAG], 108.0 / 120.0);
        // Unseen: all 120 tiles but the observer's six.
        let unseen: f32 = (0..TILE_KINDS).map(|k| out[UNSEEN + k] * Tile::from_kind(k).copies() as f32).sum();
        assert_eq!(unseen, 114.0);
        // Every colour is lowest at the start.
        assert_eq!(out[SWAP_COLORS..SWAP_COLORS + 6], [1.0; 6]);
    }

    /// Into a zeroed buffer, the same observation as into a used one, on every position
    /// of random games of every configuration and for every seat.
    #[test]
    fn observe_zeroed_writes_what_observe_writes() {
        let mut moves = Vec::new();
        let mut used = vec![7.0; OBS_SIZE];
        for config in Config::all() {
            for seed in 0..3 {
                let mut g = Game::new(config, seed);
                let mut rng = crate::rng::Rng::new(seed);
                loop {
                    for seat in 0..config.players() {
                        let mut fresh = vec![0.0; OBS_SIZE];
                        observe(&g, seat, &mut used);
                        observe_zeroed(&g, seat, &mut fresh);
                        assert_eq!(fresh, used, "{config} seed {seed} seat {seat}");
                    }
                    if g.is_over() {
                        break;
                    }
                    g.legal_moves(&mut moves);
                    g.play_unchecked(&moves[rng.below(moves.len() as u32) as usize]);
                }
            }
        }
    }

    #[test]
    fn hidden_racks_do_not_show() {
        let g = Game::new(Config::standard(3).unwrap(), 8);
        let mut a = vec![0.0; OBS_SIZE];
        let mut b = vec![0.0; OBS_SIZE];
        for seed in 0..5 {
            let other = g.determinize(2, seed);
            assert_ne!(other.rack(0), g.rack(0));
            observe(&g, 2, &mut a);
            observe(&other, 2, &mut b);
            assert_eq!(a, b);
        }
    }
}

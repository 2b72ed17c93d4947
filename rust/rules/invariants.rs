//! Consistency checks of a game, and a driver that plays a game from arbitrary bytes while
//! checking them. The fuzzer (`fuzz/`) and `tests/invariants.rs` both run this code, so
//! that a failure found by one is reproduced by the other.
//!
//! Every check returns `Err(description)` instead of panicking, so the caller decides how to
//! report it; a panic inside the engine itself is what the fuzzer is looking for.

use crate::game::{Game, Phase};
use crate::hex::{zone, Cell, BOARD_RADIUS};
use crate::moves::{Move, Placement};
use crate::rng::Rng;
use crate::tiles::{full_set, Tile, COLORS, TILE_COUNT, TILE_KINDS};
use crate::variants::{Config, SwapTiming, Variant};

/// Every valid rule set (`Config::all`).
pub fn all_configs() -> Vec<Config> {
    Config::all()
}

macro_rules! ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(format!($($fmt)+));
        }
    };
}

/// The placement in canonical half order (`a < b`), as `legal_moves` lists it.
pub fn canonical(m: &Move) -> Move {
    match *m {
        Move::Place(p) => Move::Place(Placement::new(p.a, p.ca, p.b, p.cb)),
        other => other,
    }
}

/// Invariants of any reachable state: tiles conserved, markers on their tracks, racks full
/// where the rules say so, phase and end consistent, counters in step with the board.
pub fn check_state(g: &Game) -> Result<(), String> {
    let cfg = g.config();
    let n = cfg.players();
    ensure!(g.tile_total() == TILE_COUNT, "tile_total is {}, not 120", g.tile_total());
    ensure!(g.current_player() < n, "current player {} of {n}", g.current_player());
    ensure!(g.is_over() == g.end().is_some(), "phase {:?} with end {:?}", g.phase(), g.end());

    // Racks: never over-full; full between turns unless the bag ran dry (it never refills
    // once empty: a swap needs tiles in the bag).
    for p in 0..n {
        let len = g.rack(p).len();
        ensure!(len <= cfg.rack_size(), "seat {p} holds {len} tiles");
        let between_turns = p != g.current_player() || g.phase() == Phase::Place;
        ensure!(
            !between_turns || len == cfg.rack_size() || g.bag().is_empty(),
            "seat {p} holds {len} tiles while the bag holds {}",
            g.bag().len()
        );
    }
    for p in n..4 {
        ensure!(g.rack(p).is_empty(), "unused seat {p} holds tiles");
    }

    // Markers within their tracks; unused tracks untouched.
    let t = g.tracks();
    let (lo, hi) = match cfg.variant {
        Variant::Duel => (-9, 9),
        v => (0, v.track_max()),
    };
    let used = cfg.variant.track_count(n);
    for (i, track) in t.values.iter().enumerate() {
        for (c, &v) in track.iter().enumerate() {
            if i < used {
                ensure!((lo..=hi).contains(&v), "track {i} colour {c} at {v}, outside {lo}..{hi}");
            } else {
                ensure!(v == 0, "unused track {i} colour {c} at {v}");
            }
        }
    }
    for (c, &tok) in t.tokens.iter().enumerate() {
        if cfg.variant == Variant::Duel {
            ensure!((-1..2).contains(&tok), "duel token {c} held by {tok}");
        } else {
            ensure!(tok == -1, "token {c} held by {tok} outside the duel");
        }
    }
    if !g.is_over() {
        let full = match cfg.variant {
            Variant::Standard => (0..n).any(|p| t.values[p].iter().all(|&v| v == 18)),
            Variant::Team => (0..2).any(|p| t.values[p].iter().all(|&v| v == 36)),
            Variant::Duel => (0..2).any(|p| t.view(cfg, p).iter().all(|&v| v > 0)),
            Variant::Solo => false,
        };
        ensure!(!full, "a seat has won at once but the game goes on");
    }

    // Phase and pending bonuses.
    ensure!(
        g.phase() == Phase::Bonus || g.pending_bonuses() == 0,
        "{} pending bonuses in phase {:?}",
        g.pending_bonuses(),
        g.phase()
    );
    ensure!(cfg.variant != Variant::Solo || g.phase() != Phase::Bonus, "a bonus in the solo game");
    ensure!(
        cfg.swap_timing == SwapTiming::AfterPlacement || g.phase() != Phase::SwapOffer,
        "a swap offer with swap_timing instead_of_placement"
    );

    // The board: the incremental free-pair counter, and one tile per placement.
    let b = g.board();
    ensure!(
        b.free_pairs() == b.free_pair_list().count(),
        "free pair counter {} but {} free pairs",
        b.free_pairs(),
        b.free_pair_list().count()
    );
    let halves = b.zone().cells.iter().filter(|&&c| b.get(c) < COLORS as u8).count() - 6;
    ensure!(
        halves == 2 * g.stats().placements as usize,
        "{halves} tile halves on the board after {} placements",
        g.stats().placements
    );

    // Moves: none once over, some while running, the count agreeing with the list.
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    ensure!(moves.len() == g.legal_move_count(), "legal_move_count {} but {} moves", g.legal_move_count(), moves.len());
    if g.is_over() {
        ensure!(moves.is_empty(), "{} legal moves after the end", moves.len());
    } else {
        ensure!(!moves.is_empty(), "no legal move in phase {:?}", g.phase());
        ensure!(b.free_pairs() > 0, "the game goes on with no free pair");
    }
    let mut sorted = moves.clone();
    sorted.sort_unstable();
    sorted.dedup();
    ensure!(sorted.len() == moves.len(), "legal_moves lists a move twice");

    let ranks = g.ranks();
    ensure!(ranks[..n].iter().all(|&r| (r as usize) < n), "ranks {ranks:?}");
    ensure!(ranks[..n].contains(&0), "nobody ranks first: {ranks:?}");
    Ok(())
}

/// Move generation against the checker: every placement of every tile in the mover's rack
/// (and of `extra`, a tile kind usually not in it) on every pair of adjacent board cells
/// (outside the zone too), both orientations and both cell orders, plus `swap` and `keep`,
/// is accepted by `check` exactly when `legal_moves` lists it.
pub fn check_generation(g: &Game) -> Result<(), String> {
    check_generation_with(g, Tile::from_kind(g.stats().placements as usize % TILE_KINDS))
}

/// `check_generation` trying `extra` besides the rack's tiles.
pub fn check_generation_with(g: &Game, extra: Tile) -> Result<(), String> {
    let mut kinds: Vec<Tile> = g.rack(g.current_player()).tiles().to_vec();
    kinds.push(extra);
    kinds.sort_unstable();
    kinds.dedup();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut sorted = moves.clone();
    sorted.sort_unstable();
    let listed = |m: &Move| sorted.binary_search(m).is_ok();
    let mut found = 0usize;
    for e in &zone(BOARD_RADIUS).edges {
        for t in &kinds {
            let (x, y) = t.colors();
            // A double has one orientation; the other tiles two.
            let orientations: &[(u8, u8)] = if x == y { &[(x, y)] } else { &[(x, y), (y, x)] };
            for &(ca, cb) in orientations {
                // Both cell orders: `check` must not care which half comes first.
                let m = Move::Place(Placement::new(e.a, ca, e.b, cb));
                let reversed = Move::Place(Placement { a: e.b, b: e.a, ca: cb, cb: ca });
                let listed = listed(&m);
                for m in [m, reversed] {
                    let ok = g.check(&m).is_ok();
                    ensure!(ok == listed, "{m}: check says {ok}, legal_moves says {listed} ({:?})", g.check(&m));
                }
                found += listed as usize;
            }
        }
    }
    let placements = moves.iter().filter(|m| matches!(m, Move::Place(_))).count();
    ensure!(found == placements, "{placements} listed placements, {found} found on board edges");
    for m in [Move::Swap, Move::Keep] {
        let ok = g.check(&m).is_ok();
        let listed = moves.contains(&m);
        ensure!(ok == listed, "{m}: check says {ok}, legal_moves says {listed}");
    }
    Ok(())
}

/// Plays `m` through the checked path: a refused move must leave the game exactly as it was
/// and not be listed; an accepted one must be listed and lead to a consistent state.
/// Returns whether the move was played.
pub fn try_move(g: &mut Game, m: &Move) -> Result<bool, String> {
    let before = *g;
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let listed = moves.contains(&canonical(m));
    let checked = g.check(m);
    match g.play(m) {
        Err(e) => {
            ensure!(*g == before, "refused move {m} ({e}) changed the game");
            ensure!(Err(e.clone()) == checked, "play says {e}, check says {checked:?}");
            ensure!(!listed, "legal move {m} refused: {e}");
            Ok(false)
        }
        Ok(_) => {
            ensure!(checked.is_ok(), "play accepted {m}, check refused it: {checked:?}");
            ensure!(listed, "play accepted {m}, which legal_moves does not list");
            check_state(g)?;
            Ok(true)
        }
    }
}

/// Reads fuzz bytes; past the end it yields zeros, so every input is a complete program.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data, pos: 0 }
    }
    pub fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }
    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }
    pub fn u64(&mut self) -> u64 {
        (self.u32() as u64) | (self.u32() as u64) << 32
    }
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let start = self.pos.min(self.data.len());
        let end = (start + n).min(self.data.len());
        self.pos += n;
        &self.data[start..end]
    }
}

/// A coordinate: mostly near the board, sometimes anything an `i32` can hold.
fn coordinate(bytes: &mut Bytes<'_>) -> i32 {
    match bytes.u8() % 8 {
        0 => bytes.u32() as i32,
        1 => [i32::MIN, i32::MAX, i32::MIN + 1, -(1 << 16), 1 << 16][bytes.u8() as usize % 5],
        _ => (bytes.u8() as i8 as i32) % 10,
    }
}

/// Move text built from bytes: raw bytes, or the notation with arbitrary parts; for the
/// latter, the two `(q, r)` it names.
fn move_text(bytes: &mut Bytes<'_>) -> (String, Option<[(i32, i32); 2]>) {
    const LETTERS: [&str; 10] = ["R", "o", "Y", "green", "B", "P", "X", "", "purple ", "é"];
    const JOINS: [&str; 6] = ["+", "/", ";", " ", "++", ""];
    match bytes.u8() % 3 {
        0 => {
            let n = bytes.u8() as usize % 80;
            (String::from_utf8_lossy(bytes.take(n)).into_owned(), None)
        }
        _ => {
            let half = |bytes: &mut Bytes<'_>| {
                let l = LETTERS[bytes.u8() as usize % LETTERS.len()];
                let (q, r) = (coordinate(bytes), coordinate(bytes));
                let text = if bytes.u8() % 4 == 0 { format!("{l}({q},{r})") } else { format!("{l}{q},{r}") };
                (text, (q, r))
            };
            let (a, qa) = half(bytes);
            let j = JOINS[bytes.u8() as usize % JOINS.len()];
            let (b, qb) = half(bytes);
            (format!("{a}{j}{b}"), Some([qa, qb]))
        }
    }
}

/// A placement from bytes: any two board cells (adjacent or not, in or out of the zone,
/// in either order) with any colours.
fn any_placement(bytes: &mut Bytes<'_>) -> Option<Move> {
    let cell = |bytes: &mut Bytes<'_>| Cell::new(coordinate(bytes), coordinate(bytes));
    let a = cell(bytes)?;
    let b = if bytes.u8() % 2 == 0 { a.neighbour(bytes.u8() as usize % 6)? } else { cell(bytes)? };
    let (ca, cb) = (bytes.u8() % COLORS as u8, bytes.u8() % COLORS as u8);
    Some(Move::Place(Placement { a, b, ca, cb }))
}

/// Plays a game driven by `data`: the rule set, the seed and the deal first, then one
/// action per step (a legal move chosen by the bytes, an arbitrary placement, arbitrary
/// move text, swap or keep, copies and determinizations, a full move-generation check),
/// checking every invariant along the way. `Err` names the first broken one.
pub fn run_actions(data: &[u8]) -> Result<(), String> {
    let configs = all_configs();
    let mut bytes = Bytes::new(data);
    let config = configs[bytes.u8() as usize % configs.len()];
    let seed = bytes.u64();
    let mut g = match bytes.u8() % 4 {
        // A deal from bytes: a permutation of the full set, which must be accepted...
        0 => {
            let mut order = full_set();
            for i in (1..TILE_COUNT).rev() {
                order.swap(i, bytes.u8() as usize % (i + 1));
            }
            Game::with_bag(config, &order, seed).map_err(|e| format!("a valid bag was refused: {e}"))?
        }
        // ...or raw tiles, which must be refused unless they happen to be the full set.
        1 => {
            let n = bytes.u8() as usize;
            let order: Vec<Tile> = (0..n).map(|_| Tile::from_kind(bytes.u8() as usize % TILE_KINDS)).collect();
            let mut sorted = order.clone();
            sorted.sort_unstable();
            let valid = sorted == full_set().to_vec();
            match Game::with_bag(config, &order, seed) {
                Ok(g) if valid => g,
                Ok(_) => return Err(format!("a bag of {n} tiles that is not the full set was accepted")),
                Err(_) if valid => return Err("the full set was refused".into()),
                Err(_) => Game::new(config, seed),
            }
        }
        _ => Game::new(config, seed),
    };
    check_state(&g)?;
    let mut moves = Vec::new();
    for _step in 0..600 {
        if bytes.is_empty() {
            break;
        }
        if g.is_over() {
            // Nothing is legal any more, whatever it is.
            for m in [Move::Swap, Move::Keep] {
                ensure!(!try_move(&mut g, &m)?, "{m} accepted after the end");
            }
            if let Some(m) = any_placement(&mut bytes) {
                ensure!(!try_move(&mut g, &m)?, "{m} accepted after the end");
            }
            break;
        }
        match bytes.u8() % 10 {
            0..=3 => {
                g.legal_moves(&mut moves);
                let m = moves[bytes.u16() as usize % moves.len()];
                ensure!(try_move(&mut g, &m)?, "listed move {m} refused");
            }
            4 => {
                if let Some(m) = any_placement(&mut bytes) {
                    try_move(&mut g, &m)?;
                }
            }
            5 => {
                let (text, cells) = move_text(&mut bytes);
                if let Ok(m) = text.parse::<Move>() {
                    // Text reads as the very cells it names (none wrapped onto the board).
                    if let (Move::Place(p), Some([x, y])) = (m, cells) {
                        let (a, b) = (p.a.axial(), p.b.axial());
                        ensure!((a, b) == (x, y) || (a, b) == (y, x), "{text:?} reads as {m}");
                    }
                    let again: Move = m.to_string().parse().map_err(|e| format!("{m} does not read back: {e:?}"))?;
                    ensure!(again == m, "{text:?} reads as {m}, which reads back as {again}");
                    try_move(&mut g, &m)?;
                }
            }
            6 => {
                let m = if bytes.u8() % 2 == 0 { Move::Swap } else { Move::Keep };
                try_move(&mut g, &m)?;
            }
            7 => {
                let copy = g;
                ensure!(copy == g, "a copy differs from its original");
                let observer = bytes.u8() as usize % config.players();
                let d = g.determinize(observer, bytes.u64());
                check_determinized(&g, &d, observer)?;
            }
            8 => check_generation(&g)?,
            _ => {
                // A run of legal moves, to get deep into games cheaply.
                let mut rng = Rng::new(bytes.u64());
                for _ in 0..bytes.u8() % 64 {
                    if g.is_over() {
                        break;
                    }
                    g.legal_moves(&mut moves);
                    let m = moves[rng.below(moves.len() as u32) as usize];
                    ensure!(try_move(&mut g, &m)?, "listed move {m} refused");
                }
            }
        }
    }
    check_state(&g)
}

/// A determinized copy keeps everything `observer` sees and every count, and is itself a
/// consistent game.
pub fn check_determinized(g: &Game, d: &Game, observer: usize) -> Result<(), String> {
    check_state(d)?;
    ensure!(d.board() == g.board(), "determinize changed the board");
    ensure!(d.tracks() == g.tracks(), "determinize changed the tracks");
    ensure!(d.phase() == g.phase() && d.current_player() == g.current_player(), "determinize changed the turn");
    ensure!(d.rack(observer) == g.rack(observer), "determinize changed the observer's rack");
    ensure!(d.bag().len() == g.bag().len(), "determinize changed the bag size");
    for p in 0..g.config().players() {
        ensure!(d.rack(p).len() == g.rack(p).len(), "determinize changed rack {p}'s size");
    }
    let (mut a, mut b) = (g.unseen_tiles(observer), d.unseen_tiles(observer));
    a.sort_unstable();
    b.sort_unstable();
    ensure!(a == b, "determinize changed the unseen tiles");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::RULE_OPTIONS;

    #[test]
    fn every_config_is_listed_once() {
        let c = all_configs();
        for (i, a) in c.iter().enumerate() {
            assert!(!c[i + 1..].contains(a), "{a} twice");
        }
        // Each variant and player count with each combination of the options' values that
        // the books allow: the solo game has no swap to time, so it takes one timing.
        let combos: usize = RULE_OPTIONS.iter().map(|o| o.values.len()).product();
        let solo_timings = RULE_OPTIONS.iter().find(|o| o.name == "swap_timing").map_or(1, |o| o.values.len());
        let listed: usize = Variant::ALL.iter().map(|v| v.player_counts().len()).sum();
        assert_eq!(c.len(), (listed - 1) * combos + combos / solo_timings);
    }

    #[test]
    fn empty_and_short_inputs_run() {
        run_actions(&[]).unwrap();
        run_actions(&[7]).unwrap();
        run_actions(&[255; 40]).unwrap();
    }
}

//! A position evaluation: how likely each seat is to win, seen by one observer.
//!
//! Every seat gets a utility `U_p = w · φ(p)`, a linear function of features that the
//! observer can see (its own rack, every marker, the board, the multiset of tiles it has
//! not seen); the win probabilities are `softmax(U)` over the seats (a conditional logit,
//! which fits any number of players). `w` is fitted by self-play (`training/fit_eval.py`,
//! which writes `weights.rs`), one set per player count.
//!
//! Features of another seat never read its rack: where the rack matters, the expected value
//! over the tiles the observer has not seen stands in for it.

use crate::board::Board;
use crate::game::{Game, Phase};
use crate::hex::{Cell, GRID, STEP};
use crate::moves::Move;
use crate::tiles::{Tile, COLORS};
use crate::variants::{Config, Variant};
use std::sync::OnceLock;

/// Number of features per seat.
pub const NF: usize = 22;

/// Names of the features, in order (for the training script and tests).
pub const FEATURE_NAMES: [&str; NF] = [
    "pts0_3",
    "pts3_6",
    "pts6_9",
    "pts9_12",
    "pts12_15",
    "pts15_18", // Σ over colours of the marker's part in each sixth of the track: a concave value of a point per colour
    "lowest",
    "second",      // lowest and second-lowest marker ÷ track end
    "lowest_late", // lowest × progress of the game
    "deficit0_sq", // (1 − lowest)²
    "open_low",    // free cells where the lowest colour scores
    "best_low",    // most points one half of the lowest colour can score now
    "room",        // Σ need × open cells, per colour
    "unseen_low",  // tiles showing the lowest colour not seen by the observer
    "rack_low",    // rack tiles showing the lowest colour (expected for others)
    "rack_low2",   // rack tiles showing one of the two lowest colours
    "swap_ready",  // rack shows no lowest colour: a swap will be offered
    "wait",        // turns until the seat moves ÷ players
    "bonus",       // bonus placements the seat is about to play
    "best_low2",   // as best_low for the second-lowest colour
    "gap01",       // second lowest − lowest
    "maxed",       // colours at the track's end ÷ 6
];

mod weights {
    include!("weights.rs");
}
pub use weights::WEIGHTS;

/// The weight set for a rule set: by player count (the team game uses the 4-player set,
/// the duel and solo games the 2-player set, their markers scaled to 0..1 the same way).
pub fn weights_for(config: &Config) -> &'static [f64; NF] {
    match config.players() {
        3 => &WEIGHTS[1],
        4 => &WEIGHTS[2],
        _ => &WEIGHTS[0],
    }
}

/// Points a half of each colour would score on each free cell of a board, and summaries
/// per colour. Built once per position; the other half of a tile lies on a free cell, so
/// the points of a placement are the sum of its halves' entries.
pub struct PointTable {
    points: [[u8; COLORS]; GRID],
    /// Free cells where a half of the colour scores at least one point.
    pub open: [u16; COLORS],
    /// The most points one half of the colour can score anywhere.
    pub best: [u8; COLORS],
}

impl PointTable {
    pub fn new(board: &Board) -> PointTable {
        let mut points = [[0u8; COLORS]; GRID];
        let mut open = [0u16; COLORS];
        let mut best = [0u8; COLORS];
        for c in board.free_cells() {
            let row = &mut points[c.index()];
            for (d, step) in STEP.iter().enumerate() {
                let n = (c.index() as isize + step) as usize;
                let col = board.get(Cell::from_index(n as u16));
                if (col as usize) < COLORS {
                    row[col as usize] += board.run(c, d, col);
                }
            }
            for k in 0..COLORS {
                if row[k] > 0 {
                    open[k] += 1;
                    best[k] = best[k].max(row[k]);
                }
            }
        }
        PointTable { points, open, best }
    }

    #[inline(always)]
    pub fn points(&self, c: Cell, color: u8) -> u8 {
        self.points[c.index()][color as usize]
    }
}

/// Free pairs of the empty board of each zone radius (5, 6, 7): the game's length.
fn initial_pairs(board: &Board) -> usize {
    static T: OnceLock<[usize; 3]> = OnceLock::new();
    let t = T.get_or_init(|| [5, 6, 7].map(|r| Board::new(r).free_pairs()));
    t[(board.radius() - 5).clamp(0, 2) as usize]
}

/// What the observer knows that all seats' features share.
pub struct Context {
    pub table: PointTable,
    /// Tiles the observer has not seen (bag and other racks), by colour shown.
    pub unseen_by_color: [u16; COLORS],
    pub unseen_total: u16,
    /// Progress of the game, 0 at the start, 1 when the board is full.
    pub progress: f64,
    pub max: f64,
    pub players: usize,
    pub observer: usize,
}

impl Context {
    pub fn new(game: &Game, observer: usize) -> Context {
        let board = game.board();
        // The multiset of unseen tiles depends only on what the observer sees (every tile
        // placed was seen), so counting it does not read hidden information.
        let mut unseen_by_color = [0u16; COLORS];
        let mut unseen_total = 0u16;
        let mut count = |t: Tile| {
            unseen_total += 1;
            for (c, slot) in unseen_by_color.iter_mut().enumerate() {
                *slot += t.shows(c as u8) as u16;
            }
        };
        game.bag().draw_order().for_each(&mut count);
        for p in 0..game.config().players() {
            if p != observer {
                game.rack(p).tiles().iter().copied().for_each(&mut count);
            }
        }
        let init = initial_pairs(board) as f64;
        Context {
            table: PointTable::new(board),
            unseen_by_color,
            unseen_total,
            progress: 1.0 - board.free_pairs() as f64 / init.max(1.0),
            max: game.config().variant.track_max() as f64,
            players: game.config().players(),
            observer,
        }
    }
}

/// Colours with the lowest and second-lowest marker (the first such colour by index).
#[inline]
fn lowest_two(v: &[i8; COLORS]) -> (usize, usize) {
    let mut a = 0;
    for c in 1..COLORS {
        if v[c] < v[a] {
            a = c;
        }
    }
    let mut b = if a == 0 { 1 } else { 0 };
    for c in 0..COLORS {
        if c != a && v[c] < v[b] {
            b = c;
        }
    }
    (a, b)
}

/// What a seat's features need besides the context: its markers, its rack (the observer's
/// own only), how soon it moves and the bonuses it is about to play.
pub struct SeatState<'a> {
    pub markers: [i8; COLORS],
    /// `None` for a seat whose rack the observer cannot see.
    pub rack: Option<&'a [Tile]>,
    pub rack_len: usize,
    pub wait: usize,
    pub bonus: usize,
}

/// The features of one seat.
pub fn features(ctx: &Context, s: &SeatState, out: &mut [f64; NF]) {
    let max = ctx.max;
    let v = &s.markers;
    let mut sorted = *v;
    sorted.sort_unstable();
    // The part of each marker in each sixth of its track (a sixth is 3 points of 18),
    // summed over the colours and scaled so that a full sixth in all six colours is 1.
    let sixth = max / 6.0;
    out[..6].fill(0.0);
    for &x in v.iter() {
        let x = (x as f64).max(0.0);
        for (j, slot) in out[..6].iter_mut().enumerate() {
            *slot += ((x - j as f64 * sixth) / sixth).clamp(0.0, 1.0) / 6.0;
        }
    }
    out[6] = sorted[0] as f64 / max;
    out[7] = sorted[1] as f64 / max;
    out[8] = out[6] * ctx.progress;
    out[9] = (1.0 - out[6]).powi(2);
    let (lo, lo2) = lowest_two(v);
    let t = &ctx.table;
    out[10] = t.open[lo].min(30) as f64 / 30.0;
    out[11] = t.best[lo].min(10) as f64 / 10.0;
    let mut room = 0.0;
    for (&x, &open) in v.iter().zip(&t.open) {
        room += (1.0 - x as f64 / max).max(0.0) * open.min(30) as f64 / 30.0;
    }
    out[12] = room / COLORS as f64;
    let lowest = sorted[0];
    let low_mask: u8 = (0..COLORS).filter(|&c| v[c] == lowest).fold(0, |m, c| m | 1 << c);
    let two_mask: u8 = 1 << lo | 1 << lo2;
    let (rack_low, rack_low2, swap_ready);
    match s.rack {
        Some(tiles) => {
            let mut unseen_low = ctx.unseen_by_color[lo] as f64;
            for t in tiles {
                unseen_low += t.shows(lo as u8) as u8 as f64;
            }
            out[13] = unseen_low / 30.0;
            rack_low = tiles.iter().filter(|t| t.mask() & low_mask != 0).count() as f64;
            rack_low2 = tiles.iter().filter(|t| t.mask() & two_mask != 0).count() as f64;
            swap_ready = (!tiles.is_empty() && rack_low == 0.0) as u8 as f64;
        }
        None => {
            out[13] = ctx.unseen_by_color[lo] as f64 / 30.0;
            // Expected over the tiles the observer has not seen (an approximation: the
            // colours of one tile are counted as independent draws).
            let n = ctx.unseen_total.max(1) as f64;
            let f1 = (ctx.unseen_by_color[lo] as f64 / n).min(1.0);
            let f2 = ((ctx.unseen_by_color[lo] + ctx.unseen_by_color[lo2]) as f64 / n).min(1.0);
            rack_low = s.rack_len as f64 * f1;
            rack_low2 = s.rack_len as f64 * f2;
            swap_ready = (1.0 - f1).powi(s.rack_len as i32);
        }
    }
    out[14] = rack_low / 6.0;
    out[15] = rack_low2 / 6.0;
    out[16] = swap_ready;
    out[17] = s.wait as f64 / ctx.players as f64;
    out[18] = s.bonus as f64;
    out[19] = t.best[lo2].min(10) as f64 / 10.0;
    out[20] = (sorted[1] - sorted[0]) as f64 / max;
    out[21] = sorted.iter().filter(|&&x| x as f64 >= max).count() as f64 / 6.0;
}

#[inline]
pub fn dot(w: &[f64; NF], f: &[f64; NF]) -> f64 {
    w.iter().zip(f).map(|(a, b)| a * b).sum()
}

/// The state of every seat as `observer` sees it in `game`.
pub(super) fn seat_state<'a>(game: &'a Game, observer: usize, p: usize) -> SeatState<'a> {
    let config = game.config();
    let n = config.players();
    let cur = game.current_player();
    let mut wait = (p + n - cur) % n;
    // After a placement with a swap decision or bonus pending the mover still holds the turn;
    // otherwise the mover is "next" only when it is its own turn (wait 0).
    let bonus = if p == cur && game.phase() == Phase::Bonus { 1 + game.pending_bonuses() } else { 0 };
    if game.is_over() {
        wait = 0;
    }
    SeatState {
        markers: game.tracks().view(config, p),
        rack: (p == observer).then(|| game.rack(p).tiles()),
        rack_len: game.rack(p).len(),
        wait,
        bonus,
    }
}

/// Feature rows of every seat of `game` as `observer` sees it, into `out[p]`.
pub fn all_features(game: &Game, observer: usize, out: &mut [[f64; NF]; 4]) {
    let ctx = Context::new(game, observer);
    for (p, row) in out.iter_mut().enumerate().take(game.config().players()) {
        features(&ctx, &seat_state(game, observer, p), row);
    }
}

/// Win probability of each seat (team game: each partner gets the team's), as `observer`
/// sees the position. A finished game gets its exact result (ties split).
pub fn win_probabilities(game: &Game, observer: usize) -> [f64; 4] {
    let config = game.config();
    let n = config.players();
    if game.is_over() {
        return win_shares(game);
    }
    if n == 1 {
        let v = game.tracks().view(config, 0);
        return [*v.iter().min().expect("six colours") as f64 / config.variant.track_max() as f64, 0.0, 0.0, 0.0];
    }
    let mut f = [[0.0; NF]; 4];
    all_features(game, observer, &mut f);
    let w = weights_for(config);
    let mut u = [f64::NEG_INFINITY; 4];
    for p in 0..n {
        u[p] = dot(w, &f[p]);
    }
    softmax(config, &u)
}

/// `softmax(u)` over the seats; in the team game partners pool their probability.
pub fn softmax(config: &Config, u: &[f64; 4]) -> [f64; 4] {
    let n = config.players();
    let m = u[..n].iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut e = [0.0; 4];
    let mut s = 0.0;
    for p in 0..n {
        e[p] = (u[p] - m).exp();
        s += e[p];
    }
    for x in e.iter_mut().take(n) {
        *x /= s;
    }
    if config.variant == Variant::Team {
        let (a, b) = (e[0] + e[2], e[1] + e[3]);
        e = [a, b, a, b];
    }
    e
}

/// The result of a finished game per seat: 1 for a sole winner, split among tied firsts
/// (partners both get their team's), 0 otherwise; solo: the lowest marker ÷ 36.
pub fn win_shares(game: &Game) -> [f64; 4] {
    let config = game.config();
    let n = config.players();
    let mut out = [0.0; 4];
    if n == 1 {
        out[0] = game.result_fraction(0);
        return out;
    }
    let ranks = game.ranks();
    let firsts = (0..n).filter(|&p| ranks[p] == 0).count() as f64;
    for p in 0..n {
        if ranks[p] == 0 {
            out[p] = 1.0 / firsts;
        }
    }
    if config.variant == Variant::Team {
        // Both partners rank first together: the team has the whole point.
        let (a, b) = (out[0] + out[2], out[1] + out[3]);
        out = [a, b, a, b];
    }
    out
}

/// Scores the placements of one decision for the mover, cheaply: only the mover's own
/// features change (markers, rack, bonuses), the board summaries are those before the
/// move. Used to rank candidates, in playouts, and by the one-ply bot before its re-ranking.
pub struct MoveScorer {
    ctx: Context,
    w: &'static [f64; NF],
    me: usize,
    before: Game,
    /// The tracks before the move (a field of its own so that tests can set markers).
    tracks: crate::variants::Tracks,
    rack: [Tile; 6],
    rack_len: usize,
    /// Scores by (colours, points): a placement's score depends on nothing else, and most
    /// placements share few such keys. Direct-mapped; a slot holds `(tag, score)`, tag 0 empty.
    cache: [(u32, f64); 256],
}

impl MoveScorer {
    pub fn new(game: &Game) -> MoveScorer {
        let me = game.current_player();
        let rack_tiles = game.rack(me).tiles();
        let mut rack = [Tile::default(); 6];
        rack[..rack_tiles.len()].copy_from_slice(rack_tiles);
        MoveScorer {
            ctx: Context::new(game, me),
            w: weights_for(game.config()),
            me,
            before: *game,
            tracks: *game.tracks(),
            rack,
            rack_len: rack_tiles.len(),
            cache: [(0, 0.0); 256],
        }
    }

    /// `score`, memoised by the numbers the score depends on.
    #[inline]
    pub fn score_cached(&mut self, m: &Move) -> f64 {
        let Move::Place(p) = m else {
            return self.score(m);
        };
        let pa = self.ctx.table.points(p.a, p.ca);
        let pb = self.ctx.table.points(p.b, p.cb);
        let tag = (p.ca as u32 | (p.cb as u32) << 3 | (pa as u32) << 6 | (pb as u32) << 14) + 1;
        let slot = (tag.wrapping_mul(0x9E37_79B9) >> 24) as usize;
        if self.cache[slot].0 == tag {
            return self.cache[slot].1;
        }
        let v = self.score(m);
        self.cache[slot] = (tag, v);
        v
    }

    pub fn table(&self) -> &PointTable {
        &self.ctx.table
    }

    /// The mover's utility after `m` (higher is better). Swap decisions and the
    /// `instead_of_placement` swap are scored by the rack they lead to (expected).
    #[inline]
    pub fn score(&self, m: &Move) -> f64 {
        let mut f = [0.0; NF];
        match self.after(m, &mut f) {
            Some(e) if e.won => 1e6,
            _ => dot(self.w, &f),
        }
    }

    /// The mover's features after `m` into `f` (left untouched for a placement that wins
    /// the game at once), and for a placement what it did to the mover's markers.
    #[inline(always)]
    pub fn after(&self, m: &Move, f: &mut [f64; NF]) -> Option<Effect> {
        let config = self.before.config();
        let tracks = self.tracks;
        let mut st = SeatState {
            markers: tracks.view(config, self.me),
            rack: None,
            rack_len: self.rack_len,
            // After its move the mover waits for everyone else (unless it earned a bonus).
            wait: config.players().saturating_sub(1),
            bonus: 0,
        };
        let mut kept = [Tile::default(); 6];
        match m {
            Move::Place(p) => {
                let pa = self.ctx.table.points(p.a, p.ca);
                let pb = self.ctx.table.points(p.b, p.cb);
                let mut t = tracks;
                let applied = t.advance(config, self.me, [(p.ca, pa), (p.cb, pb)]);
                if applied.won {
                    return Some(Effect { won: true, bonuses: applied.bonuses, markers: st.markers });
                }
                st.markers = t.view(config, self.me);
                let tile = p.tile();
                let mut k = 0;
                let mut removed = false;
                for &x in &self.rack[..self.rack_len] {
                    if !removed && x == tile {
                        removed = true;
                    } else {
                        kept[k] = x;
                        k += 1;
                    }
                }
                let bonus = applied.bonuses as usize
                    + if self.before.phase() == Phase::Bonus { self.before.pending_bonuses() } else { 0 };
                if bonus > 0 {
                    st.bonus = bonus;
                    st.wait = 0;
                }
                st.rack = Some(&kept[..k]);
                st.rack_len = k;
                features(&self.ctx, &st, f);
                // The tile drawn after the move is unknown: the rack features count the
                // kept tiles only, so a move that keeps good tiles scores higher.
                Some(Effect { won: false, bonuses: applied.bonuses, markers: st.markers })
            }
            Move::Swap => {
                // A fresh rack: expected features of six unseen tiles.
                st.rack = None;
                st.rack_len = config.rack_size();
                features(&self.ctx, &st, f);
                None
            }
            Move::Keep => {
                st.rack = Some(&self.rack[..self.rack_len]);
                features(&self.ctx, &st, f);
                None
            }
        }
    }

    /// The mover's markers before the move, as the mover sees them.
    pub fn markers(&self) -> [i8; COLORS] {
        self.tracks.view(self.before.config(), self.me)
    }

    pub fn context(&self) -> &Context {
        &self.ctx
    }
}

/// What a placement does to its mover's markers (`MoveScorer::after`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Effect {
    /// The mover wins the game at once.
    pub won: bool,
    /// Bonus placements earned.
    pub bonuses: u8,
    /// The mover's markers after the move, as the mover sees them (before, when `won`).
    pub markers: [i8; COLORS],
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Placement;
    use crate::rng::Rng;
    use crate::variants::Variant;

    fn ctx_for(game: &Game) -> Context {
        Context::new(game, game.current_player())
    }

    #[test]
    fn point_table_matches_placement_points() {
        let mut buf = Vec::new();
        let mut g = Game::new(Config::standard(2).unwrap(), 3);
        let mut rng = Rng::new(1);
        for _ in 0..30 {
            g.legal_moves(&mut buf);
            let t = PointTable::new(g.board());
            for m in &buf {
                if let Move::Place(p) = m {
                    let d = p.a.direction_to(p.b).unwrap();
                    let (pa, pb) = g.board().placement_points(p.a, p.ca, p.b, p.cb, d);
                    assert_eq!((t.points(p.a, p.ca), t.points(p.b, p.cb)), (pa, pb));
                }
            }
            g.play_unchecked(&buf[rng.below(buf.len() as u32) as usize]);
            if g.is_over() {
                break;
            }
        }
    }

    #[test]
    fn features_on_a_crafted_position() {
        // The empty board: each colour scores next to its printed symbol only, on the
        // symbol's free neighbours (6 for the 2-player zone's inner symbols, fewer on the rim).
        let g = Game::new(Config::standard(2).unwrap(), 5);
        let ctx = ctx_for(&g);
        assert_eq!(ctx.progress, 0.0);
        assert!(ctx.table.best.iter().all(|&b| b == 1));
        assert!(ctx.table.open.iter().all(|&o| (1..=6).contains(&o)));
        // 120 tiles, 12 in racks, the observer's 6 seen: 114 unseen.
        assert_eq!(ctx.unseen_total, 114);
        let st = SeatState { markers: [3, 0, 5, 18, 7, 0], rack: None, rack_len: 6, wait: 1, bonus: 0 };
        let mut f = [0.0; NF];
        features(&ctx, &st, &mut f);
        // Markers 3, 0, 5, 18, 7, 0: the first sixth (0..3) is full in 4 colours.
        assert!((f[0] - 4.0 / 6.0).abs() < 1e-12);
        // 3..6: 5 → 2/3, 18 → 1, 7 → 1.
        assert!((f[1] - (2.0 / 3.0 + 2.0) / 6.0).abs() < 1e-12);
        assert!((f[5] - 1.0 / 6.0).abs() < 1e-12);
        assert_eq!((f[6], f[7]), (0.0, 0.0));
        assert_eq!(f[9], 1.0);
        assert!((f[17] - 0.5).abs() < 1e-12);
        assert!((f[20] - 0.0).abs() < 1e-12); // two colours at 0
        assert!((f[21] - 1.0 / 6.0).abs() < 1e-12);
        // A seen rack's features count its tiles. The lowest colours are orange (1) and
        // purple (5), both at 0: OY and PP show one of them, RG neither.
        let rack = [Tile::new(1, 2), Tile::new(5, 5), Tile::new(0, 3)];
        let st = SeatState { rack: Some(&rack), rack_len: 3, ..st };
        features(&ctx, &st, &mut f);
        assert!((f[14] - 2.0 / 6.0).abs() < 1e-12);
        assert_eq!(f[16], 0.0);
        let rack = [Tile::new(0, 2), Tile::new(3, 3)];
        let st = SeatState { rack: Some(&rack), rack_len: 2, ..st };
        features(&ctx, &st, &mut f);
        assert_eq!(f[14], 0.0);
        assert_eq!(f[16], 1.0);
    }

    #[test]
    fn a_line_of_a_colour_opens_cells_for_it() {
        let mut b = Board::for_players(2);
        // Two reds in a row from the red symbol at (0, -5) toward the centre.
        b.place_unchecked(Cell::new(0, -4).unwrap(), 0, Cell::new(0, -3).unwrap(), 0);
        let t = PointTable::new(&b);
        // (0, -2) continues the line of three reds (symbol + two halves).
        assert_eq!(t.points(Cell::new(0, -2).unwrap(), 0), 3);
        assert_eq!(t.best[0], 3);
    }

    #[test]
    fn probabilities_sum_to_one_and_finished_games_are_exact() {
        let mut buf = Vec::new();
        for cfg in Config::all() {
            let mut g = Game::new(cfg, 9);
            let mut rng = Rng::new(2);
            while !g.is_over() {
                let pr = win_probabilities(&g, g.current_player());
                let n = cfg.players();
                let s: f64 = pr[..n].iter().sum();
                match cfg.variant {
                    Variant::Solo => assert!((0.0..=1.0).contains(&s)),
                    Variant::Team => assert!((s - 2.0).abs() < 1e-9),
                    _ => assert!((s - 1.0).abs() < 1e-9, "{cfg:?} {pr:?}"),
                }
                g.legal_moves(&mut buf);
                g.play_unchecked(&buf[rng.below(buf.len() as u32) as usize]);
            }
            let r = win_probabilities(&g, 0);
            assert_eq!(r, win_shares(&g));
        }
    }

    #[test]
    fn scorer_prefers_points_in_the_lowest_colour() {
        // Seat 0 at [0, 10, 10, 10, 10, 10]: a red point beats a blue one.
        let g = Game::new(Config::standard(2).unwrap(), 4);
        let mut s = MoveScorer::new(&g);
        s.tracks.values[0] = [0, 10, 10, 10, 10, 10];
        let a = Cell::new(0, -4).unwrap(); // next to the red symbol
        let c = Cell::new(1, -4).unwrap();
        let red = Move::Place(Placement::new(a, 0, c, 2));
        let blue_side = Cell::new(4, 0).unwrap(); // next to the blue symbol
        let blue = Move::Place(Placement::new(blue_side, 4, Cell::new(3, 0).unwrap(), 2));
        assert!(s.score(&red) > s.score(&blue));
    }
}

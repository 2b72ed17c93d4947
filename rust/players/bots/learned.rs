//! The learned evaluation of the `master` level: a pattern network over the score track,
//! the board's opportunities per colour and the rack, trained by self-play
//! (`learned_training`, which `training/master.py` calls). The evaluation alone, so that
//! the searches' evaluator seam that reads it stays below the bots that train it.
//!
//! Like the fitted evaluation (`eval`), every seat gets a utility `U_p` and the win
//! probabilities are `softmax(U)` over the seats. Here `U_p` is a sum of table entries
//! (tuples of values looked up, as in the n-tuple networks of Othello or 2048) plus the 22
//! dense features of `eval` with weights of their own:
//!
//! - `A[phase][rank][marker]`: each of the seat's six markers by its rank among them;
//! - `B[phase][lowest][second]`: the lowest two markers together (the ranking reads them first);
//! - `C[rank][marker/3][open cells][best half]`: each colour's room on the board by its need;
//! - `D[phase][rank][rack tiles]`: rack tiles showing the lowest three colours (the expected
//!   count, split between the two nearest entries, for a rack the observer cannot see);
//! - `E[phase][wait][bonus]`: turn order and pending bonus placements;
//! - `F[phase][unseen tiles showing the lowest colour / 3]`.
//!
//! `phase` is the game's progress in quarters. Every entry reads only what the observer may
//! see: another seat's rack enters as an expectation over the tiles the observer has not seen.
//!
//! The weights ship inside the library (`master_weights.bin`, [`WEIGHTS_VERSION`], checked
//! by [`checksum`] in the tests and by SHA-256 in `training/master.json`).

use super::eval::{features, softmax, win_shares, Context, SeatState, NF};
use crate::game::Game;
use crate::tiles::COLORS;
use crate::variants::Config;
use std::sync::OnceLock;

const PHASES: usize = 4;
const MARKS: usize = 19;
const A: usize = 0;
const B: usize = A + PHASES * COLORS * MARKS;
const C: usize = B + PHASES * MARKS * MARKS;
const C_MARK: usize = 7;
const C_OPEN: usize = 6;
const C_BEST: usize = 5;
const D: usize = C + COLORS * C_MARK * C_OPEN * C_BEST;
const D_RANKS: usize = 3;
const D_COUNT: usize = 7;
const E: usize = D + PHASES * D_RANKS * D_COUNT;
const F: usize = E + PHASES * 4 * 4;
const F_BUCKETS: usize = 11;
pub(super) const DENSE: usize = F + PHASES * F_BUCKETS;
/// Weights per player-count class.
pub const LEN: usize = DENSE + NF;
/// Classes: 2, 3, 4 players (duel and solo use 2, the team game 4).
pub const CLASSES: usize = 3;
/// Most table entries one seat reads.
const MAX_ACTIVE: usize = 6 + 1 + 6 + 2 * D_RANKS + 1 + 1;

/// The version of the weight format and of the shipped weights; bump on any change of the
/// features or of the file.
pub const WEIGHTS_VERSION: u32 = 1;
const MAGIC: &[u8; 8] = b"GENIALPN";
static SHIPPED: &[u8] = include_bytes!("master_weights.bin");

/// A set of weights: `CLASSES` rows of `LEN`.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights(pub Vec<f32>);

impl Weights {
    pub fn zeros() -> Weights {
        Weights(vec![0.0; CLASSES * LEN])
    }

    pub(super) fn row(&self, config: &Config) -> &[f32] {
        let k = class(config);
        &self.0[k * LEN..(k + 1) * LEN]
    }

    /// The file form: magic, version, classes, length (u32 little-endian), then the f32s.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(20 + 4 * self.0.len());
        out.extend_from_slice(MAGIC);
        for x in [WEIGHTS_VERSION, CLASSES as u32, LEN as u32] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for w in &self.0 {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    pub fn from_bytes(b: &[u8]) -> Result<Weights, String> {
        let head = |i: usize| u32::from_le_bytes([b[8 + 4 * i], b[9 + 4 * i], b[10 + 4 * i], b[11 + 4 * i]]);
        if b.len() < 20 || &b[..8] != MAGIC {
            return Err("not a genial pattern-network weight file".into());
        }
        let (version, classes, len) = (head(0), head(1), head(2));
        if version != WEIGHTS_VERSION || classes as usize != CLASSES || len as usize != LEN {
            return Err(format!(
                "weight file version {version} with {classes}×{len} weights; this build reads version \
                 {WEIGHTS_VERSION} with {CLASSES}×{LEN}"
            ));
        }
        if b.len() != 20 + 4 * CLASSES * LEN {
            return Err(format!("weight file of {} bytes, expected {}", b.len(), 20 + 4 * CLASSES * LEN));
        }
        let w = b[20..].chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect::<Vec<_>>();
        if w.iter().any(|x| !x.is_finite()) {
            return Err("weight file holds a non-finite weight".into());
        }
        Ok(Weights(w))
    }
}

/// The shipped weights (the file is checked by the tests, so this cannot fail in a build
/// that passed them).
pub fn shipped() -> &'static Weights {
    static W: OnceLock<Weights> = OnceLock::new();
    W.get_or_init(|| Weights::from_bytes(SHIPPED).expect("the shipped master weights are valid"))
}

/// FNV-1a 64 of the shipped weight file (pinned by a test).
pub fn checksum() -> u64 {
    SHIPPED.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

pub(super) fn class(config: &Config) -> usize {
    match config.players() {
        3 => 1,
        4 => 2,
        _ => 0,
    }
}

/// The table entries one seat reads (`idx`, `val`) and its dense features.
pub struct Active {
    pub(super) idx: [u16; MAX_ACTIVE],
    pub(super) val: [f32; MAX_ACTIVE],
    pub(super) n: usize,
    pub(super) dense: [f64; NF],
}

impl Active {
    pub(super) fn new() -> Active {
        Active { idx: [0; MAX_ACTIVE], val: [0.0; MAX_ACTIVE], n: 0, dense: [0.0; NF] }
    }

    #[inline]
    fn push(&mut self, i: usize, v: f32) {
        debug_assert!(i < DENSE);
        self.idx[self.n] = i as u16;
        self.val[self.n] = v;
        self.n += 1;
    }

    pub(super) fn utility(&self, w: &[f32]) -> f64 {
        let mut u = 0.0f64;
        for k in 0..self.n {
            u += (w[self.idx[k] as usize] * self.val[k]) as f64;
        }
        for (i, x) in self.dense.iter().enumerate() {
            u += w[DENSE + i] as f64 * x;
        }
        u
    }
}

fn open_bucket(n: u16) -> usize {
    match n {
        0 => 0,
        1..=2 => 1,
        3..=5 => 2,
        6..=10 => 3,
        11..=20 => 4,
        _ => 5,
    }
}

/// The entries of one seat.
fn encode(ctx: &Context, s: &SeatState, out: &mut Active) {
    out.n = 0;
    let phase = ((ctx.progress * PHASES as f64) as usize).min(PHASES - 1);
    let scale = 18.0 / ctx.max;
    let mark = |x: i8| (((x.max(0) as f64) * scale).round() as usize).min(MARKS - 1);
    // Colours by marker, lowest first (ties by colour index, as `eval` does).
    let mut order = [0usize, 1, 2, 3, 4, 5];
    order.sort_by_key(|&c| (s.markers[c], c));
    for (r, &c) in order.iter().enumerate() {
        out.push(A + (phase * COLORS + r) * MARKS + mark(s.markers[c]), 1.0);
    }
    let (m0, m1) = (mark(s.markers[order[0]]), mark(s.markers[order[1]]));
    out.push(B + (phase * MARKS + m0) * MARKS + m1, 1.0);
    let t = &ctx.table;
    for (r, &c) in order.iter().enumerate() {
        let mb = mark(s.markers[c]) / 3;
        let ob = open_bucket(t.open[c]);
        let bb = (t.best[c] as usize).min(C_BEST - 1);
        out.push(C + ((r * C_MARK + mb) * C_OPEN + ob) * C_BEST + bb, 1.0);
    }
    for (r, &c) in order.iter().take(D_RANKS).enumerate() {
        let base = D + (phase * D_RANKS + r) * D_COUNT;
        match s.rack {
            Some(tiles) => {
                let n = tiles.iter().filter(|t| t.shows(c as u8)).count().min(D_COUNT - 1);
                out.push(base + n, 1.0);
            }
            None => {
                let f = (ctx.unseen_by_color[c] as f64 / ctx.unseen_total.max(1) as f64).min(1.0);
                let x = (s.rack_len as f64 * f).min((D_COUNT - 1) as f64);
                let lo = x.floor() as usize;
                let frac = (x - lo as f64) as f32;
                out.push(base + lo, 1.0 - frac);
                if lo + 1 < D_COUNT {
                    out.push(base + lo + 1, frac);
                }
            }
        }
    }
    out.push(E + (phase * 4 + s.wait.min(3)) * 4 + s.bonus.min(3), 1.0);
    let unseen_low = ctx.unseen_by_color[order[0]] as usize / 3;
    out.push(F + phase * F_BUCKETS + unseen_low.min(F_BUCKETS - 1), 1.0);
    features(ctx, s, &mut out.dense);
}

/// The entries of every seat of `game` as `observer` sees it.
pub(super) fn encode_all(game: &Game, observer: usize, out: &mut [Active; 4]) {
    let ctx = Context::new(game, observer);
    for (p, a) in out.iter_mut().enumerate().take(game.config().players()) {
        encode(&ctx, &super::eval::seat_state(game, observer, p), a);
    }
}

/// Win probability of each seat as `observer` sees `game`, by `weights` (team game: each
/// partner gets the team's; solo: the lowest marker ÷ track end; a finished game: its result).
pub fn win_probabilities_with(weights: &Weights, game: &Game, observer: usize) -> [f64; 4] {
    let config = game.config();
    let n = config.players();
    if game.is_over() {
        return win_shares(game);
    }
    if n == 1 {
        return super::eval::win_probabilities(game, observer);
    }
    let mut act = [Active::new(), Active::new(), Active::new(), Active::new()];
    encode_all(game, observer, &mut act);
    let w = weights.row(config);
    let mut u = [f64::NEG_INFINITY; 4];
    for p in 0..n {
        u[p] = act[p].utility(w);
    }
    softmax(config, &u)
}

/// [`win_probabilities_with`] the shipped weights.
pub fn win_probabilities(game: &Game, observer: usize) -> [f64; 4] {
    win_probabilities_with(shipped(), game, observer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::variants::Variant;

    #[test]
    fn shipped_weights_load_and_match_their_checksum() {
        let w = shipped();
        assert_eq!(w.0.len(), CLASSES * LEN);
        assert_eq!(Weights::from_bytes(&w.to_bytes()).unwrap(), *w);
        // Pinned: a change of the shipped file must update this on purpose (and
        // training/master.json's SHA-256).
        assert_eq!(checksum(), SHIPPED_FNV);
    }

    const SHIPPED_FNV: u64 = 8805007158007662300;

    #[test]
    fn bad_files_are_refused() {
        let good = Weights::zeros().to_bytes();
        assert!(Weights::from_bytes(&good).is_ok());
        assert!(Weights::from_bytes(&good[..30]).is_err());
        assert!(Weights::from_bytes(b"short").is_err());
        let mut v = good.clone();
        v[8] = 99;
        assert!(Weights::from_bytes(&v).unwrap_err().contains("version 99"));
        let mut nan = good.clone();
        nan[20..24].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(Weights::from_bytes(&nan).is_err());
    }

    #[test]
    fn entries_stay_in_their_tables_and_probabilities_sum_to_one() {
        let mut buf = Vec::new();
        for cfg in Config::all() {
            let mut g = Game::new(cfg, 4);
            let mut rng = Rng::new(3);
            while !g.is_over() {
                let obs = g.current_player();
                let mut act = [Active::new(), Active::new(), Active::new(), Active::new()];
                encode_all(&g, obs, &mut act);
                for a in act.iter().take(cfg.players()) {
                    assert!(a.n <= MAX_ACTIVE);
                    assert!(a.idx[..a.n].iter().all(|&i| (i as usize) < DENSE));
                    // Every table is read with a total weight of one (D: once per rank).
                    let total: f32 = a.val[..a.n].iter().sum();
                    assert!((total - (6.0 + 1.0 + 6.0 + 3.0 + 2.0)).abs() < 1e-4, "{total}");
                }
                let pr = win_probabilities(&g, obs);
                let s: f64 = pr[..cfg.players()].iter().sum();
                let want = match cfg.variant {
                    Variant::Solo => s,
                    Variant::Team => 2.0,
                    _ => 1.0,
                };
                assert!(s.is_finite() && (s - want).abs() < 1e-9, "{cfg:?} {pr:?}");
                g.legal_moves(&mut buf);
                g.play_unchecked(&buf[rng.below(buf.len() as u32) as usize]);
            }
            assert_eq!(win_probabilities(&g, 0), win_shares(&g));
        }
    }

    #[test]
    fn probabilities_do_not_read_hidden_racks() {
        let mut buf = Vec::new();
        for players in [2, 3, 4] {
            let mut g = Game::new(Config::standard(players).unwrap(), 8);
            let mut rng = Rng::new(1);
            for _ in 0..12 {
                g.legal_moves(&mut buf);
                g.play_unchecked(&buf[rng.below(buf.len() as u32) as usize]);
            }
            let me = g.current_player();
            let twin = g.determinize(me, 77);
            assert_ne!(twin, g);
            assert_eq!(win_probabilities(&g, me), win_probabilities(&twin, me));
        }
    }
}

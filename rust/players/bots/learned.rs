//! The learned evaluation of the `master` level: a pattern network over the score track,
//! the board's opportunities per colour and the rack, trained by self-play
//! (`training/master.py`, which calls [`train`]).
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
use crate::game::{Game, Phase};
use crate::sim::{bot_seed, BotSpec};
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
const DENSE: usize = F + PHASES * F_BUCKETS;
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

    fn row(&self, config: &Config) -> &[f32] {
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

fn class(config: &Config) -> usize {
    match config.players() {
        3 => 1,
        4 => 2,
        _ => 0,
    }
}

/// The table entries one seat reads (`idx`, `val`) and its dense features.
pub struct Active {
    idx: [u16; MAX_ACTIVE],
    val: [f32; MAX_ACTIVE],
    n: usize,
    dense: [f64; NF],
}

impl Active {
    fn new() -> Active {
        Active { idx: [0; MAX_ACTIVE], val: [0.0; MAX_ACTIVE], n: 0, dense: [0.0; NF] }
    }

    #[inline]
    fn push(&mut self, i: usize, v: f32) {
        debug_assert!(i < DENSE);
        self.idx[self.n] = i as u16;
        self.val[self.n] = v;
        self.n += 1;
    }

    fn utility(&self, w: &[f32]) -> f64 {
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
fn encode_all(game: &Game, observer: usize, out: &mut [Active; 4]) {
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

// ----- training --------------------------------------------------------------------------

/// How a training run plays and learns.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Games per player count, in rounds of `round` games (each round's positions are
    /// learned from once, then dropped: memory stays small).
    pub games: usize,
    pub round: usize,
    /// Held-out games per player count (other seeds), for the learning curve.
    pub holdout: usize,
    /// Chance that a position is kept for learning.
    pub keep: f64,
    /// Adam's step size.
    pub rate: f64,
    /// TD(λ) targets: 1 learns from the game's result only, less mixes in the model's own
    /// later predictions.
    pub lambda: f64,
    pub seed: u64,
    /// Player counts to train (each its own weight class).
    pub players: Vec<usize>,
    pub threads: usize,
    /// The bots whose games are learned from, rotated over the seats; empty: the one-ply
    /// mixture of [`teachers`].
    pub teachers: Vec<BotSpec>,
    /// Weights to start from (to go on learning from other games); `None`: from zero.
    pub start: Option<Weights>,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            games: 20_000,
            round: 1_000,
            holdout: 400,
            keep: 0.5,
            rate: 0.003,
            lambda: 1.0,
            seed: 8_000_000,
            players: vec![2, 3, 4],
            threads: 1,
            teachers: Vec::new(),
            start: None,
        }
    }
}

impl TrainConfig {
    pub fn validate(&self) -> Result<(), String> {
        if self.games == 0 || self.round == 0 {
            return Err("games and round must be > 0".into());
        }
        if !(self.keep > 0.0 && self.keep <= 1.0) {
            return Err(format!("keep must be in (0, 1], not {}", self.keep));
        }
        if !(self.rate.is_finite() && self.rate > 0.0) {
            return Err(format!("rate must be a finite number > 0, not {}", self.rate));
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return Err(format!("lambda must be in [0, 1], not {}", self.lambda));
        }
        if self.players.is_empty() || self.players.iter().any(|p| !(2..=4).contains(p)) {
            return Err("players must list counts among 2, 3, 4".into());
        }
        if !(1..=crate::sim::MAX_THREADS).contains(&self.threads) {
            return Err(format!("threads must be 1..={}", crate::sim::MAX_THREADS));
        }
        for t in &self.teachers {
            t.validate()?;
        }
        if let Some(w) = &self.start {
            if w.0.len() != CLASSES * LEN {
                return Err(format!("start weights must hold {} numbers, not {}", CLASSES * LEN, w.0.len()));
            }
        }
        Ok(())
    }
}

/// One point of the learning curve.
#[derive(Clone, Debug, PartialEq)]
pub struct CurvePoint {
    pub players: usize,
    pub games: usize,
    /// Mean cross-entropy of the held-out positions' results (uniform guess: ln players).
    pub holdout_loss: f64,
}

/// The bots whose games the evaluation learns from (the same mixture as the fitted
/// evaluation's data: strong and weak one-ply players, with and without swaps).
fn teachers() -> Vec<BotSpec> {
    use super::levels::{level, LevelKind};
    let lv = |n: &'static str, never: bool| match level(n).expect("a level") {
        LevelKind::OnePly(c) => BotSpec::Level(n, LevelKind::OnePly(super::OnePlyConfig { never_swap: never, ..c })),
        k => BotSpec::Level(n, k),
    };
    vec![lv("medium", false), BotSpec::Scarcity, BotSpec::Greedy, lv("easy", false), lv("medium", true)]
}

/// Positions of one game: every seat's entries as the mover sees them, and the result.
struct GameData {
    rows: Vec<[Active; 4]>,
    result: [f64; 4],
}

fn play_one(config: Config, bots: &[BotSpec], seed: u64, g: u64, keep: f64) -> GameData {
    let game_seed = crate::rng::derive_seed(seed, g);
    let mut game = Game::new(config, game_seed);
    let n = config.players();
    let mut seats: Vec<_> = (0..n).map(|s| bots[(g as usize + s) % bots.len()].build(bot_seed(game_seed, s))).collect();
    let mut rng = crate::rng::Rng::new(game_seed ^ 0x5EED_7EA1);
    let mut moves = Vec::new();
    let mut rows = Vec::new();
    while !game.is_over() {
        if game.phase() != Phase::SwapOffer && rng.unit() < keep {
            let mut a = [Active::new(), Active::new(), Active::new(), Active::new()];
            encode_all(&game, game.current_player(), &mut a);
            rows.push(a);
        }
        let p = game.current_player();
        let mv = super::Bot::choose_move(&mut seats[p], &game, &mut moves);
        game.play_unchecked(&mv);
    }
    GameData { rows, result: win_shares(&game) }
}

fn games(
    config: Config,
    bots: &[BotSpec],
    seed: u64,
    first: u64,
    count: usize,
    keep: f64,
    pool: &rayon::ThreadPool,
) -> Vec<GameData> {
    use rayon::prelude::*;
    pool.install(|| {
        (first..first + count as u64).into_par_iter().map(|g| play_one(config, bots, seed, g, keep)).collect()
    })
}

fn probabilities(act: &[Active; 4], w: &[f32], n: usize) -> [f64; 4] {
    let mut u = [f64::NEG_INFINITY; 4];
    for p in 0..n {
        u[p] = act[p].utility(w);
    }
    let m = u[..n].iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut e = [0.0; 4];
    let s: f64 = (0..n).map(|p| (u[p] - m).exp()).sum();
    for p in 0..n {
        e[p] = (u[p] - m).exp() / s;
    }
    e
}

fn loss(data: &[GameData], w: &[f32], n: usize) -> f64 {
    let (mut sum, mut count) = (0.0, 0usize);
    for g in data {
        for row in &g.rows {
            let pr = probabilities(row, w, n);
            sum -= (0..n).map(|p| g.result[p] * pr[p].max(1e-12).ln()).sum::<f64>();
            count += 1;
        }
    }
    sum / count.max(1) as f64
}

/// Adam over the entries a sample reads (lazy: untouched weights keep their moments).
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    t: Vec<u32>,
    grad: Vec<f64>,
    touched: Vec<usize>,
    rate: f64,
}

impl Adam {
    fn new(rate: f64) -> Adam {
        Adam { m: vec![0.0; LEN], v: vec![0.0; LEN], t: vec![0; LEN], grad: vec![0.0; LEN], touched: Vec::new(), rate }
    }

    fn add(&mut self, i: usize, g: f64) {
        if self.grad[i] == 0.0 {
            self.touched.push(i);
        }
        self.grad[i] += g;
    }

    fn step(&mut self, w: &mut [f32]) {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        for &i in &self.touched {
            let g = std::mem::take(&mut self.grad[i]);
            self.t[i] += 1;
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g;
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g * g;
            let mh = self.m[i] / (1.0 - B1.powi(self.t[i] as i32));
            let vh = self.v[i] / (1.0 - B2.powi(self.t[i] as i32));
            w[i] -= (self.rate * mh / (vh.sqrt() + 1e-8)) as f32;
        }
        self.touched.clear();
    }
}

/// Learns from one game's positions, last first (so TD(λ) targets chain back from the result).
fn learn(game: &GameData, w: &mut [f32], adam: &mut Adam, n: usize, lambda: f64) {
    let mut target = game.result;
    for row in game.rows.iter().rev() {
        let pr = probabilities(row, w, n);
        for p in 0..n {
            let g = pr[p] - target[p];
            let a = &row[p];
            for k in 0..a.n {
                adam.add(a.idx[k] as usize, g * a.val[k] as f64);
            }
            for (i, x) in a.dense.iter().enumerate() {
                if *x != 0.0 {
                    adam.add(DENSE + i, g * x);
                }
            }
        }
        adam.step(w);
        if lambda < 1.0 {
            let now = probabilities(row, w, n);
            for p in 0..n {
                target[p] = lambda * target[p] + (1.0 - lambda) * now[p];
            }
        }
    }
}

/// Trains weights from zero by self-play (deterministic for a config, whatever the thread
/// count: games are played in parallel, learned from in order). Returns the weights and the
/// learning curve (held-out loss after every round, and before the first).
/// `progress` sees every point of the curve; returning `false` stops the run (an error).
pub fn train(
    tc: &TrainConfig,
    mut progress: impl FnMut(&CurvePoint) -> bool,
) -> Result<(Weights, Vec<CurvePoint>), String> {
    tc.validate()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(tc.threads)
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", tc.threads))?;
    let bots = if tc.teachers.is_empty() { teachers() } else { tc.teachers.clone() };
    let mut weights = tc.start.clone().unwrap_or_else(Weights::zeros);
    let mut curve = Vec::new();
    for &players in &tc.players {
        let config = Config::standard(players).map_err(|e| e.to_string())?;
        let k = class(&config);
        let w = &mut weights.0[k * LEN..(k + 1) * LEN];
        // Held-out games come from another seed stream than the training games.
        let held = games(config, &bots, tc.seed ^ 0x0004_01D0, 0, tc.holdout, tc.keep, &pool);
        let point = CurvePoint { players, games: 0, holdout_loss: loss(&held, w, players) };
        if !progress(&point) {
            return Err("training stopped".into());
        }
        curve.push(point);
        let mut adam = Adam::new(tc.rate);
        let mut done = 0;
        while done < tc.games {
            let count = tc.round.min(tc.games - done);
            let data = games(config, &bots, tc.seed + players as u64, done as u64, count, tc.keep, &pool);
            for g in &data {
                learn(g, w, &mut adam, players, tc.lambda);
            }
            done += count;
            let point = CurvePoint { players, games: done, holdout_loss: loss(&held, w, players) };
            if !progress(&point) {
                return Err("training stopped".into());
            }
            curve.push(point);
        }
    }
    Ok((weights, curve))
}

/// Share of games (ties split) that a one-ply player of `weights` (each legal move judged
/// by the evaluation of the position after it, on a deal of the hidden tiles sampled from
/// the mover's view) wins against `opponent`, 2 players, seats alternated: how well the
/// weights play on their own.
pub fn one_ply_share(weights: &Weights, opponent: &BotSpec, games: usize, seed: u64) -> f64 {
    let config = Config::standard(2).expect("two players");
    let mut moves = Vec::new();
    let mut won = 0.0;
    for g in 0..games as u64 {
        let game_seed = crate::rng::derive_seed(seed, g);
        let mut game = Game::new(config, game_seed);
        let mut other = opponent.build(bot_seed(game_seed, 1));
        let mut rng = crate::rng::Rng::new(game_seed ^ 0x000E_91A7);
        let me = (g % 2) as usize;
        while !game.is_over() {
            game.legal_moves(&mut moves);
            let mv = if game.current_player() == me {
                let deal = game.determinize(me, rng.next_u64());
                let mut best = (f64::NEG_INFINITY, 0);
                for (i, m) in moves.iter().enumerate() {
                    let mut next = deal;
                    next.play_unchecked(m);
                    // Ties at random, so that an untrained evaluation plays at random.
                    let v = win_probabilities_with(weights, &next, me)[me] + 1e-9 * rng.unit();
                    if v > best.0 {
                        best = (v, i);
                    }
                }
                moves[best.1]
            } else {
                moves[super::Bot::choose(&mut other, &game, &moves)]
            };
            game.play_unchecked(&mv);
        }
        won += win_shares(&game)[me];
    }
    won / games as f64
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

    const SHIPPED_FNV: u64 = 1001946565674020289;

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

    #[test]
    #[ignore = "slow (about 5 CPU-s): `make test` runs it, `make test-fast` does not"]
    fn a_tiny_trained_model_beats_its_untrained_start_against_greedy() {
        // 300 games of self-play for the 2-player class, a few seconds. The untrained
        // weights (all zero) play at random and lose every game to greedy (0 of 60 here);
        // the trained ones, one ply deep, win some (7 of 60 when written: a one-ply player
        // of any evaluation is about greedy's equal at best). Deterministic; if learning
        // broke, the trained share would fall to the untrained one's.
        let tc =
            TrainConfig { games: 300, round: 100, holdout: 20, players: vec![2], rate: 0.01, ..TrainConfig::default() };
        let (trained, _) = train(&tc, |_| true).unwrap();
        let untrained = one_ply_share(&Weights::zeros(), &BotSpec::Greedy, 60, 12);
        let learned = one_ply_share(&trained, &BotSpec::Greedy, 60, 12);
        assert!(learned >= untrained + 0.08, "trained {learned}, untrained {untrained}");
    }

    #[test]
    fn training_is_deterministic_and_lowers_the_held_out_loss() {
        let tc =
            TrainConfig { games: 60, round: 30, holdout: 20, players: vec![2], rate: 0.01, ..TrainConfig::default() };
        let (a, curve) = train(&tc, |_| true).unwrap();
        let (b, _) = train(&TrainConfig { threads: 2, ..tc.clone() }, |_| true).unwrap();
        assert_eq!(a, b);
        assert_eq!(curve.len(), 3);
        assert!((curve[0].holdout_loss - 2f64.ln()).abs() < 1e-9);
        assert!(curve[2].holdout_loss < curve[0].holdout_loss - 0.02, "{curve:?}");
        assert!(train(&TrainConfig { players: vec![5], ..tc }, |_| true).is_err());
    }

    #[test]
    fn training_goes_on_from_given_weights_over_a_searching_teachers_games() {
        use super::super::levels::LevelKind;
        use super::super::SearchConfig;
        // A small search keeps the test quick (the pipeline's default teacher is `hard`).
        let search = SearchConfig { iterations: 8, ..SearchConfig::default() };
        let hard = BotSpec::Level("search", LevelKind::Search(search));
        let tc = TrainConfig {
            games: 4,
            round: 2,
            holdout: 2,
            players: vec![4],
            rate: 0.001,
            teachers: vec![hard],
            start: Some(shipped().clone()),
            ..TrainConfig::default()
        };
        let (w, curve) = train(&tc, |_| true).unwrap();
        // Started from the given weights (from zero, the loss before any game would be the
        // uniform guess's), and only the trained class moved.
        assert!((curve[0].holdout_loss - 4f64.ln()).abs() > 1e-3, "{curve:?}");
        let four = Config::standard(4).unwrap();
        let two = Config::standard(2).unwrap();
        assert_eq!(w.row(&two), shipped().row(&two));
        assert_ne!(w.row(&four), shipped().row(&four));
        // The teachers' games, not the one-ply mixture's: the held-out positions differ.
        let (_, one_ply) = train(&TrainConfig { teachers: Vec::new(), ..tc.clone() }, |_| true).unwrap();
        assert_ne!(one_ply[0].holdout_loss, curve[0].holdout_loss);
        assert_eq!(train(&tc, |_| true).unwrap().0, w);
        let short = TrainConfig { start: Some(Weights(vec![0.0; 3])), ..tc };
        assert!(train(&short, |_| true).unwrap_err().contains("start weights must hold"));
    }
}

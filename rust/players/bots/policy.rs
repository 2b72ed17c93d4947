//! The learned policy: a small network that scores every legal move of a decision from
//! the mover's view, trained by expert iteration on the visit counts of the levels' search
//! (`search_targets` makes the data, `training/policy.py` fits the network).
//!
//! Each move is described by [`PF`] numbers (`MoveFeatures`): the mover's 22 evaluation
//! features after the move (`eval::MoveScorer::after`), the points it gains in each colour
//! by that colour's rank among its markers (lowest first), what it loses past the caps,
//! bonuses, the kind of move, how open the cells it fills are, and what it opens next to
//! them in the lowest colours of the mover and of the seat that moves next. A one-hidden-
//! layer network maps them to a logit; a decision's probabilities are the softmax of its
//! moves' logits. Everything read is public or the mover's own rack: no other seat's rack
//! and nothing of the bag's order.
//!
//! The weights ship inside the library, one network per table size it learned
//! (`policy_2p.bin`, `policy_4p.bin`: [`WEIGHTS_VERSION`], checked by [`checksum`] in the
//! tests and by SHA-256 in `training/policy-2p.json` and `training/policy-4p.json`). The
//! moves of a two-player and a four-player game are worth different things (one opponent's
//! colours to block against three's), so each size has its own network ([`Policies`]).

use super::eval::{MoveScorer, NF};
use super::Bot;
use crate::game::{Game, Phase};
use crate::hex::{opposite, Cell};
use crate::moves::Move;
use crate::rng::Rng;
use crate::tiles::COLORS;
use std::sync::{Arc, OnceLock, RwLock};

/// Numbers describing one move.
pub const PF: usize = 44;

/// Names of the move features, in order (for the trainer and the docs).
pub const FEATURE_NAMES: [&str; PF] = [
    "pts0_3",
    "pts3_6",
    "pts6_9",
    "pts9_12",
    "pts12_15",
    "pts15_18",
    "lowest",
    "second",
    "lowest_late",
    "deficit0_sq",
    "open_low",
    "best_low",
    "room",
    "unseen_low",
    "rack_low",
    "rack_low2",
    "swap_ready",
    "wait",
    "bonus",
    "best_low2",
    "gap01",
    "maxed",
    "wins",
    "gain_rank0",
    "gain_rank1",
    "gain_rank2",
    "gain_rank3",
    "gain_rank4",
    "gain_rank5",
    "lost",
    "bonuses",
    "is_swap",
    "is_keep",
    "in_bonus",
    "double",
    "free_around",
    "opens_mine",
    "opens_next",
    "progress",
    "players2",
    "players3",
    "players4",
    "points",
    "bias",
];

/// The features of every move of one decision, sharing what the decision's moves share.
pub struct MoveFeatures<'a> {
    scorer: MoveScorer,
    game: &'a Game,
    before: [i8; COLORS],
    /// Rank of each colour among the mover's markers (0: the lowest; ties by colour).
    rank: [u8; COLORS],
    /// The mover's two lowest colours, and those of the seat that moves next.
    mine_low: u8,
    next_low: u8,
}

/// The colours in order of their markers, lowest first (ties by colour index).
fn ranks(v: &[i8; COLORS]) -> [u8; COLORS] {
    let mut order: [usize; COLORS] = [0, 1, 2, 3, 4, 5];
    order.sort_by_key(|&c| (v[c], c));
    let mut rank = [0u8; COLORS];
    for (r, &c) in order.iter().enumerate() {
        rank[c] = r as u8;
    }
    rank
}

fn two_lowest(v: &[i8; COLORS]) -> u8 {
    let r = ranks(v);
    (0..COLORS).filter(|&c| r[c] < 2).fold(0, |m, c| m | 1 << c)
}

impl<'a> MoveFeatures<'a> {
    pub fn new(game: &'a Game) -> MoveFeatures<'a> {
        let scorer = MoveScorer::new(game);
        let before = scorer.markers();
        let config = game.config();
        let next = (game.current_player() + 1) % config.players();
        MoveFeatures {
            before,
            rank: ranks(&before),
            mine_low: two_lowest(&before),
            next_low: two_lowest(&game.tracks().view(config, next)),
            scorer,
            game,
        }
    }

    /// The most points a half of `color` would score on a free neighbour of `at` once `at`
    /// shows `color` (what the placement opens), the tile's other half `other` excepted.
    fn opens(&self, at: Cell, color: u8, other: Cell) -> u8 {
        let board = self.game.board();
        let table = self.scorer.table();
        let mut best = 0;
        for d in 0..6 {
            let Some(n) = at.neighbour(d) else { continue };
            if n == other || !board.is_free(n) {
                continue;
            }
            // From `n` the line runs through `at` and on past it.
            let v = table.points(n, color) + 1 + board.run(at, opposite(d), color);
            best = best.max(v);
        }
        best
    }

    /// Free neighbours of `at`, the other half `other` excepted.
    fn free_around(&self, at: Cell, other: Cell) -> usize {
        let board = self.game.board();
        (0..6).filter_map(|d| at.neighbour(d)).filter(|&n| n != other && board.is_free(n)).count()
    }

    /// The features of `m` into `out`.
    pub fn of(&self, m: &Move, out: &mut [f32; PF]) {
        let mut f = [0.0f64; NF];
        let effect = self.scorer.after(m, &mut f);
        out.fill(0.0);
        for (o, x) in out.iter_mut().zip(f) {
            *o = x as f32;
        }
        let config = self.game.config();
        match m {
            Move::Place(p) => {
                let e = effect.expect("a placement has an effect");
                let table = self.scorer.table();
                let points = table.points(p.a, p.ca) as i32 + table.points(p.b, p.cb) as i32;
                if e.won {
                    out[22] = 1.0;
                }
                let mut gained = 0;
                for c in 0..COLORS {
                    let g = (e.markers[c] as i32 - self.before[c] as i32).max(0);
                    gained += g;
                    out[23 + self.rank[c] as usize] = g as f32 / 6.0;
                }
                if e.won {
                    gained = points;
                }
                out[29] = (points - gained).max(0) as f32 / 6.0;
                out[30] = e.bonuses as f32;
                out[34] = (p.ca == p.cb) as u8 as f32;
                out[35] = (self.free_around(p.a, p.b) + self.free_around(p.b, p.a)) as f32 / 10.0;
                let mut mine = 0u8;
                let mut next = 0u8;
                for (at, color, other) in [(p.a, p.ca, p.b), (p.b, p.cb, p.a)] {
                    let bit = 1u8 << color;
                    if (self.mine_low | self.next_low) & bit == 0 {
                        continue;
                    }
                    let o = self.opens(at, color, other);
                    if self.mine_low & bit != 0 {
                        mine = mine.max(o);
                    }
                    if self.next_low & bit != 0 {
                        next = next.max(o);
                    }
                }
                out[36] = mine.min(10) as f32 / 10.0;
                out[37] = next.min(10) as f32 / 10.0;
                out[42] = points as f32 / 10.0;
            }
            Move::Swap => out[31] = 1.0,
            Move::Keep => out[32] = 1.0,
        }
        out[33] = (self.game.phase() == Phase::Bonus) as u8 as f32;
        out[38] = self.scorer.context().progress as f32;
        out[39 + config.players().clamp(2, 4) - 2] = 1.0;
        out[43] = 1.0;
    }
}

/// The version of the weight format and of the shipped weights; bump on any change of the
/// features or of the file.
pub const WEIGHTS_VERSION: u32 = 2;
/// The header: magic, version, features, hidden units, the player counts learned from.
const HEAD: usize = 24;
const MAGIC: &[u8; 8] = b"GENIALPO";
/// The shipped weight files, one a table size, in the order [`Policies::for_table`] looks.
static SHIPPED: [&[u8]; 2] = [include_bytes!("policy_2p.bin"), include_bytes!("policy_4p.bin")];
/// Most hidden units a weight file may declare.
pub const MAX_HIDDEN: usize = 256;

/// The network: `logit = w2 · relu(W1 x + b1) + b2`, with `x` the move's features.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    hidden: usize,
    /// The table sizes the network learned from: bit `k` for `k + 2` players (solo and duel
    /// count as 2, the team game as 4). A search asks for its prior only at those.
    players: u8,
    /// `hidden` rows of `PF`.
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

impl Policy {
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Whether the network learned from games of `players` players: a network that never
    /// saw a table size ranks its moves by what it learned at another, which can mislead.
    pub fn learned_at(&self, players: usize) -> bool {
        self.players & 1 << (players.clamp(2, 4) - 2) != 0
    }

    /// The file form: magic, then version, features, hidden units and the player counts
    /// learned from (u32 little-endian), then W1 (row by row), b1, w2 and b2 as f32
    /// little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEAD + 4 * (self.w1.len() + 2 * self.hidden + 1));
        out.extend_from_slice(MAGIC);
        for x in [WEIGHTS_VERSION, PF as u32, self.hidden as u32, self.players as u32] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2).chain([&self.b2]) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    pub fn from_bytes(b: &[u8]) -> Result<Policy, String> {
        if b.len() < 16 || &b[..8] != MAGIC {
            return Err("not a genial policy weight file".into());
        }
        let head = |i: usize| u32::from_le_bytes([b[8 + 4 * i], b[9 + 4 * i], b[10 + 4 * i], b[11 + 4 * i]]);
        let version = head(0);
        if version != WEIGHTS_VERSION || b.len() < HEAD {
            return Err(format!("policy weight file version {version}; this build reads version {WEIGHTS_VERSION}"));
        }
        let (features, hidden, players) = (head(1) as usize, head(2) as usize, head(3));
        if features != PF || !(1..=MAX_HIDDEN).contains(&hidden) || players == 0 || players > 7 {
            return Err(format!(
                "policy weight file with {features} features, {hidden} hidden units and player counts {players:#b}; \
                 this build reads {PF} features, 1..={MAX_HIDDEN} hidden units and player counts 1..=0b111"
            ));
        }
        let count = hidden * PF + 2 * hidden + 1;
        if b.len() != HEAD + 4 * count {
            return Err(format!("policy weight file of {} bytes, expected {}", b.len(), HEAD + 4 * count));
        }
        let w: Vec<f32> = b[HEAD..].chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        if w.iter().any(|x| !x.is_finite()) {
            return Err("policy weight file holds a non-finite weight".into());
        }
        let (w1, rest) = w.split_at(hidden * PF);
        let (b1, rest) = rest.split_at(hidden);
        let (w2, b2) = rest.split_at(hidden);
        Ok(Policy { hidden, players: players as u8, w1: w1.to_vec(), b1: b1.to_vec(), w2: w2.to_vec(), b2: b2[0] })
    }

    /// The move's logit.
    #[inline]
    pub fn logit(&self, x: &[f32; PF]) -> f32 {
        let mut out = self.b2;
        for (j, row) in self.w1.chunks_exact(PF).enumerate() {
            let mut h = self.b1[j];
            for k in 0..PF {
                h += row[k] * x[k];
            }
            if h > 0.0 {
                out += self.w2[j] * h;
            }
        }
        out
    }

    /// The logits of `moves` (the legal moves of `game`) into `out`.
    pub fn logits(&self, game: &Game, moves: &[Move], out: &mut Vec<f32>) {
        out.clear();
        let features = MoveFeatures::new(game);
        let mut x = [0.0f32; PF];
        for m in moves {
            features.of(m, &mut x);
            out.push(self.logit(&x));
        }
    }
}

/// The networks in use, one for each table size it learned (the first that learned a size
/// serves it).
#[derive(Clone, Debug, PartialEq)]
pub struct Policies {
    nets: Vec<Policy>,
}

impl Policies {
    /// The network that learned games of `players` players, if one did: what a search's prior
    /// asks for (a network ranks the moves of a size it never saw by what it learned at
    /// another, which can mislead a search).
    pub fn learned_at(&self, players: usize) -> Option<&Policy> {
        self.nets.iter().find(|p| p.learned_at(players))
    }

    /// The network the `policy` bot plays `players` players with: the one that learned that
    /// size, else the first (the bot has nothing else to play by).
    pub fn for_table(&self, players: usize) -> &Policy {
        self.learned_at(players).unwrap_or(&self.nets[0])
    }

    /// The logits of `moves` (the legal moves of `game`) into `out`, by the network for the
    /// game's table size.
    pub fn logits(&self, game: &Game, moves: &[Move], out: &mut Vec<f32>) {
        self.for_table(game.config().players()).logits(game, moves, out)
    }

    /// `weights` for the table sizes it learned, and these networks for the others.
    fn with(&self, weights: Policy) -> Policies {
        let learned = weights.players;
        let mut nets = vec![weights];
        nets.extend(self.nets.iter().filter(|p| p.players & learned == 0).cloned());
        Policies { nets }
    }
}

/// The shipped networks (the files are checked by the tests, so this cannot fail in a build
/// that passed them).
pub fn shipped() -> &'static Policies {
    static W: OnceLock<Policies> = OnceLock::new();
    W.get_or_init(|| Policies {
        nets: SHIPPED.iter().map(|b| Policy::from_bytes(b).expect("the shipped policy weights are valid")).collect(),
    })
}

/// The shipped weight file of the network that learned `players` players, if one did.
pub fn shipped_file(players: usize) -> Option<&'static [u8]> {
    shipped().nets.iter().position(|p| p.learned_at(players)).map(|i| SHIPPED[i])
}

fn slot() -> &'static RwLock<Arc<Policies>> {
    static ACTIVE: OnceLock<RwLock<Arc<Policies>>> = OnceLock::new();
    ACTIVE.get_or_init(|| RwLock::new(Arc::new(shipped().clone())))
}

/// The networks the `policy` bot and the policy prior use: the shipped ones, unless
/// [`set_active`] put another in their place (training tries its candidates this way).
pub fn active() -> Arc<Policies> {
    Arc::clone(&slot().read().unwrap_or_else(|p| p.into_inner()))
}

/// Puts `weights` in use for this process at the table sizes it learned, the shipped
/// networks staying at the others (`None`: the shipped ones everywhere again). Games under
/// way pick them up at their next decision; a run that must not mix them sets them before
/// it starts.
pub fn set_active(weights: Option<Policy>) {
    let w = Arc::new(match weights {
        Some(w) => shipped().with(w),
        None => shipped().clone(),
    });
    *slot().write().unwrap_or_else(|p| p.into_inner()) = w;
}

/// FNV-1a 64 of the shipped weight files, one after the other (pinned by a test).
pub fn checksum() -> u64 {
    SHIPPED
        .iter()
        .flat_map(|f| f.iter())
        .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// Softmax of `logits` in place (probabilities of the moves).
pub fn softmax(logits: &mut [f32]) {
    let m = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut s = 0.0;
    for x in logits.iter_mut() {
        *x = (*x - m).exp();
        s += *x;
    }
    for x in logits.iter_mut() {
        *x /= s;
    }
}

/// The `policy` bot: the network alone, one forward pass a decision, the top legal move
/// (ties at random).
pub struct PolicyBot {
    rng: Rng,
    never_swap: bool,
    logits: Vec<f32>,
}

impl PolicyBot {
    pub fn new(seed: u64, never_swap: bool) -> PolicyBot {
        PolicyBot { rng: Rng::new(seed), never_swap, logits: Vec::new() }
    }
}

impl Bot for PolicyBot {
    fn choose(&mut self, game: &Game, moves: &[Move]) -> usize {
        if moves.len() == 1 {
            return 0;
        }
        if self.never_swap && game.phase() == Phase::SwapOffer {
            return moves.iter().position(|m| *m == Move::Keep).unwrap_or(0);
        }
        active().logits(game, moves, &mut self.logits);
        let mut best = usize::MAX;
        let mut best_v = f32::NEG_INFINITY;
        let mut ties = 0u32;
        for (i, (&v, m)) in self.logits.iter().zip(moves).enumerate() {
            if self.never_swap && *m == Move::Swap {
                continue;
            }
            if v > best_v {
                best_v = v;
                best = i;
                ties = 1;
            } else if v == best_v {
                // Reservoir choice among equals, so that ties do not favour the first listed.
                ties += 1;
                if self.rng.below(ties) == 0 {
                    best = i;
                }
            }
        }
        if best == usize::MAX {
            0
        } else {
            best
        }
    }

    fn name(&self) -> &'static str {
        "policy"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Config;

    #[test]
    fn shipped_weights_round_trip_and_bad_files_are_refused() {
        for (w, file) in shipped().nets.iter().zip(SHIPPED) {
            assert_eq!(&Policy::from_bytes(&w.to_bytes()).unwrap(), w);
            assert_eq!(w.to_bytes(), file);
        }
        let w = &shipped().nets[0];
        let mut bad = w.to_bytes();
        bad.pop();
        assert!(Policy::from_bytes(&bad).unwrap_err().contains("bytes"));
        assert!(Policy::from_bytes(b"GENIALPN").is_err());
        let mut nan = w.to_bytes();
        let at = nan.len() - 4;
        nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(Policy::from_bytes(&nan).unwrap_err().contains("non-finite"));
        let mut version = w.to_bytes();
        version[8] = 99;
        assert!(Policy::from_bytes(&version).unwrap_err().contains("version 99"));
        let mut none = w.to_bytes();
        none[20..24].copy_from_slice(&0u32.to_le_bytes());
        assert!(Policy::from_bytes(&none).unwrap_err().contains("player counts"));
        // One shipped network a table size: two players, then four; three players have none.
        let nets = &shipped().nets;
        assert!(nets[0].learned_at(2) && !nets[0].learned_at(3) && !nets[0].learned_at(4));
        assert!(nets[1].learned_at(4) && !nets[1].learned_at(2) && !nets[1].learned_at(3));
        assert!(shipped().learned_at(3).is_none());
        assert_eq!(shipped_file(4), Some(SHIPPED[1]));
    }

    #[test]
    fn a_network_put_in_use_serves_only_the_sizes_it_learned() {
        let (two, four) = (shipped().nets[0].clone(), shipped().nets[1].clone());
        let mut other = two.clone();
        other.b2 += 1.0;
        let mixed = shipped().with(other.clone());
        assert_eq!(mixed.learned_at(2), Some(&other));
        assert_eq!(mixed.learned_at(4), Some(&four));
        // A network of every size takes them all.
        let mut all = other.clone();
        all.players = 0b111;
        let every = shipped().with(all.clone());
        assert_eq!(
            (every.learned_at(2), every.learned_at(3), every.learned_at(4)),
            (Some(&all), Some(&all), Some(&all))
        );
        assert_eq!(every.nets.len(), 1);
        // The bot at a size nobody learned plays the first network.
        assert_eq!(mixed.for_table(3), &other);
        assert_eq!(shipped().with(four.clone()).for_table(2), &two);
    }

    #[test]
    fn features_read_no_hidden_tiles() {
        // The same decision with other hidden racks and another bag gives the same features.
        let mut buf = Vec::new();
        for (seed, players) in [(1u64, 2usize), (2, 3), (3, 4)] {
            let mut g = Game::new(Config::standard(players).unwrap(), seed);
            let mut rng = Rng::new(seed);
            for _ in 0..20 {
                g.legal_moves(&mut buf);
                g.play_unchecked(&buf[rng.below(buf.len() as u32) as usize]);
            }
            let me = g.current_player();
            let other = g.determinize(me, 77 + seed);
            assert_ne!(other, g);
            g.legal_moves(&mut buf);
            let (a, b) = (MoveFeatures::new(&g), MoveFeatures::new(&other));
            let (mut x, mut y) = ([0.0; PF], [0.0; PF]);
            for m in &buf {
                a.of(m, &mut x);
                b.of(m, &mut y);
                assert_eq!(x, y, "{m:?}");
            }
        }
    }

    #[test]
    fn gains_are_counted_by_the_colours_rank() {
        // On the empty board every placement next to a symbol scores there; the gain lands
        // in the slot of the colour's rank (all markers 0: ranks follow colour order).
        let g = Game::new(Config::standard(2).unwrap(), 4);
        let mut buf = Vec::new();
        g.legal_moves(&mut buf);
        let f = MoveFeatures::new(&g);
        let mut x = [0.0; PF];
        let mut seen = 0;
        for m in &buf {
            let Move::Place(p) = m else { continue };
            f.of(m, &mut x);
            let table = f.scorer.table();
            let points = table.points(p.a, p.ca) + table.points(p.b, p.cb);
            let gains: f32 = x[23..29].iter().sum::<f32>() * 6.0;
            assert!((gains - points as f32).abs() < 1e-4, "{m:?}");
            if points > 0 {
                seen += 1;
                let ranked = if table.points(p.a, p.ca) > 0 { p.ca } else { p.cb };
                assert!(x[23 + ranked as usize] > 0.0);
            }
            assert_eq!(x[43], 1.0);
            assert_eq!(x[39], 1.0);
        }
        assert!(seen > 0);
    }

    #[test]
    fn the_bot_plays_legal_moves_to_the_end_in_every_rule_set() {
        let mut buf = Vec::new();
        for cfg in Config::all() {
            let mut g = Game::new(cfg, 5);
            let mut bot = PolicyBot::new(1, false);
            while !g.is_over() {
                g.legal_moves(&mut buf);
                let i = bot.choose(&g, &buf);
                g.play(&buf[i]).unwrap();
            }
        }
    }
}

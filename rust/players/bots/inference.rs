//! Rack inference: the other seats' hidden racks dealt by how likely each is given what
//! those seats did in public, instead of uniformly from the unseen tiles.
//!
//! What a seat's last turn reveals about the rack it holds now (standard rules, swaps after
//! placing): it kept `kept` tiles through the turn and drew the rest afterwards, and
//!
//! - the swap offer: the rules offer a swap after the last placement exactly when the kept
//!   tiles show none of the seat's lowest colours (and the bag can refill a rack). A `keep`
//!   therefore says the kept tiles show no lowest colour; a turn that ended without an offer,
//!   that they show one. A swap deals a fresh rack and says nothing.
//! - the last placement: under a cheap policy (a softmax over the points it gains, the
//!   seat's lowest colours counted double, capped at what each colour can still use), the
//!   probability that the seat chose that placement rather than one with another of the
//!   tiles it held then (the kept ones).
//!
//! `CANDIDATES` deals are drawn from the unseen tiles, the swap evidence built in (kept
//! tiles drawn among those that fit it), each weighted by the product over seats of the
//! placement's probability and of the evidence of an offer; every iteration of the search
//! then takes one by weight (importance resampling) and deals the bag anew. Everything read
//! is public (the moves and who made them, the tracks, rack sizes, the bag's size, the
//! observer's own rack), and the unseen tiles are sorted before any draw, so that how they
//! truly lie cannot leak in (tested in `search`).

use crate::board::Board;
use crate::game::Game;
use crate::hex::opposite;
use crate::moves::Move;
use crate::rng::Rng;
use crate::tiles::{Rack, Tile, COLORS, TILE_KINDS};
use crate::variants::{SwapTiming, Variant};

/// Candidate deals weighed per decision.
const CANDIDATES: usize = 128;
/// Temperature of the policy's softmax, in (weighted) points.
const TEMPERATURE: f64 = 1.5;

/// What a turn's end says about the tiles kept through it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Offer {
    /// `keep`: no kept tile shows a lowest colour.
    Kept,
    /// No offer: some kept tile shows a lowest colour.
    NotOffered,
}

/// What one seat revealed in its last turn.
#[derive(Clone, Debug)]
struct Evidence {
    seat: usize,
    /// Tiles kept through the turn (the rest of the rack was drawn after it).
    kept: usize,
    /// The seat's lowest colours (a mask), as the swap offer read them.
    lowest: u8,
    offer: Option<Offer>,
    /// Per tile kind, the policy's total weight of that tile's placements on the board the
    /// seat last placed on, and the kind it placed.
    soft: Option<([f64; TILE_KINDS], usize)>,
}

/// Deals of the other seats' racks, weighted by how well they explain the public moves.
#[derive(Clone, Debug)]
pub struct Inference {
    racks: Vec<[Rack; 4]>,
    /// Cumulative weights of `racks` (the last is the total).
    cumulative: Vec<f64>,
}

impl Inference {
    /// The weighted deals for `me` deciding at `root`, after the public `history` (every
    /// move since the start, `movers[i]` the seat that played `history[i]`). `None` when
    /// nothing in it tells anything (then deal uniformly): other rules than the standard
    /// game with swaps after placing, a history that does not lead to `root`'s board, a bag
    /// too small to be sure of the refills, or no seat with evidence.
    pub fn new(root: &Game, me: usize, history: &[Move], movers: &[u8], rng: &mut Rng) -> Option<Inference> {
        let config = *root.config();
        let n = config.players();
        let size = config.rack_size();
        if n < 2
            || config.variant != Variant::Standard
            || config.swap_timing != SwapTiming::AfterPlacement
            || history.len() != movers.len()
            || root.bag().len() < size
        {
            return None;
        }
        // Each seat's last turn: the run of its moves that ends at its last move.
        let mut turns: Vec<(usize, usize, usize)> = Vec::new(); // (seat, first, last)
        for p in (0..n).filter(|&p| p != me) {
            let Some(last) = movers.iter().rposition(|&m| m as usize == p) else { continue };
            let mut first = last;
            while first > 0 && movers[first - 1] as usize == p {
                first -= 1;
            }
            turns.push((p, first, last));
        }
        // The board before each seat's last placement, replayed from the public moves.
        let mut wanted: Vec<(usize, usize)> = Vec::new(); // (index of the placement, seat)
        for &(p, first, last) in &turns {
            if let Some(i) = (first..=last).rev().find(|&i| matches!(history[i], Move::Place(_))) {
                // The first placement of a seat obeys another rule (next to a start symbol).
                let placed_before = (0..first).any(|j| movers[j] as usize == p && matches!(history[j], Move::Place(_)));
                if placed_before {
                    wanted.push((i, p));
                }
            }
        }
        let mut board = Board::for_players(n);
        let mut boards: Vec<(usize, Board)> = Vec::new();
        for (i, mv) in history.iter().enumerate() {
            if wanted.iter().any(|w| w.0 == i) {
                boards.push((i, board));
            }
            if let Move::Place(pl) = mv {
                if board.check_pair(pl.a, pl.b).is_err() || !board.is_free(pl.a) || !board.is_free(pl.b) {
                    return None;
                }
                board.place_unchecked(pl.a, pl.ca, pl.b, pl.cb);
            }
        }
        if board != *root.board() {
            return None;
        }

        let mut evidence = Vec::new();
        for &(p, first, last) in &turns {
            let block = &history[first..=last];
            let placed = block.iter().filter(|m| matches!(m, Move::Place(_))).count();
            if block.contains(&Move::Swap) || placed == 0 || placed >= size || root.rack(p).len() != size {
                continue; // a fresh rack, or nothing kept
            }
            let kept = size - placed;
            let lowest = root.tracks().swap_colors(&config, p);
            let offer = match block.last() {
                Some(Move::Keep) => Some(Offer::Kept),
                Some(Move::Place(_)) => Some(Offer::NotOffered),
                _ => None,
            };
            let soft = wanted.iter().find(|w| w.1 == p).and_then(|&(i, _)| {
                let b = boards.iter().find(|x| x.0 == i)?.1;
                let Move::Place(pl) = history[i] else { return None };
                let values = root.tracks().view(&config, p);
                Some((kind_weights(&b, &values, lowest), pl.tile().kind()))
            });
            evidence.push(Evidence { seat: p, kept, lowest, offer, soft });
        }
        if evidence.is_empty() {
            return None;
        }
        // The most constrained seats draw first.
        evidence.sort_by_key(|e| (e.offer != Some(Offer::Kept), e.seat));

        let mut unseen = root.unseen_tiles(me);
        unseen.sort_unstable();
        let mut racks = Vec::with_capacity(CANDIDATES);
        let mut weights = Vec::with_capacity(CANDIDATES);
        let mut pool = unseen.clone();
        let mut used = vec![false; unseen.len()];
        for _ in 0..CANDIDATES {
            pool.copy_from_slice(&unseen);
            rng.shuffle(&mut pool);
            used.iter_mut().for_each(|u| *u = false);
            let mut deal = [Rack::default(); 4];
            let mut w = 1.0;
            for e in &evidence {
                let p = e.seat;
                // The kept tiles: the first that fit a `keep` (all, if too few fit).
                let fits = |t: Tile| e.offer != Some(Offer::Kept) || t.mask() & e.lowest == 0;
                let mut take = |deal: &mut Rack, fit: &dyn Fn(Tile) -> bool, count: usize| {
                    let mut got = 0;
                    for (i, &t) in pool.iter().enumerate() {
                        if got == count {
                            break;
                        }
                        if !used[i] && fit(t) {
                            used[i] = true;
                            deal.push(t);
                            got += 1;
                        }
                    }
                    got
                };
                let mut rack = Rack::default();
                let got = take(&mut rack, &fits, e.kept);
                take(&mut rack, &|_| true, e.kept - got);
                let kept = rack;
                take(&mut rack, &|_| true, size - e.kept);
                deal[p] = rack;
                if e.offer == Some(Offer::NotOffered) && kept.color_mask() & e.lowest == 0 {
                    w = 0.0;
                }
                if let Some((z, chosen)) = &e.soft {
                    // P(the placement | kept tiles) ∝ 1 / the weight of every placement then.
                    let mut total = z[*chosen];
                    let mut seen = [false; TILE_KINDS];
                    seen[*chosen] = true;
                    for &t in kept.tiles() {
                        if !seen[t.kind()] {
                            seen[t.kind()] = true;
                            total += z[t.kind()];
                        }
                    }
                    w *= z[*chosen] / total;
                }
            }
            // Seats without evidence: what is left, in pool order.
            for p in (0..n).filter(|&p| p != me && !evidence.iter().any(|e| e.seat == p)) {
                let mut rack = Rack::default();
                for (i, &t) in pool.iter().enumerate() {
                    if rack.len() == root.rack(p).len() {
                        break;
                    }
                    if !used[i] {
                        used[i] = true;
                        rack.push(t);
                    }
                }
                deal[p] = rack;
            }
            racks.push(deal);
            weights.push(w);
        }
        let total: f64 = weights.iter().sum();
        if !(total > 0.0 && total.is_finite()) {
            return None;
        }
        let mut acc = 0.0;
        let cumulative = weights.iter().map(|w| {
            acc += w;
            acc
        });
        Some(Inference { cumulative: cumulative.collect(), racks })
    }

    /// One deal for an iteration: a candidate taken by weight, the bag shuffled anew.
    pub fn deal(&self, root: &Game, me: usize, rng: &mut Rng) -> Game {
        let total = *self.cumulative.last().expect("at least one candidate");
        let x = rng.unit() * total;
        let k = self.cumulative.partition_point(|&c| c <= x).min(self.racks.len() - 1);
        let seed = rng.next_u64();
        root.determinize_with(me, &self.racks[k], seed).unwrap_or_else(|| root.determinize(me, seed))
    }

    /// The effective number of distinct candidates (Kish's n of the weights), for tests.
    pub fn effective(&self) -> f64 {
        let mut prev = 0.0;
        let (mut s, mut s2) = (0.0, 0.0);
        for &c in &self.cumulative {
            let w = c - prev;
            prev = c;
            s += w;
            s2 += w * w;
        }
        s * s / s2
    }
}

/// Per tile kind, the sum over its placements on `board` (both ways round) of
/// `exp(value / TEMPERATURE)`, the value being the points of each half in its colour,
/// capped at what the colour can still use (18 − the marker), a lowest colour counted double.
fn kind_weights(board: &Board, track: &[i8; COLORS], lowest: u8) -> [f64; TILE_KINDS] {
    let value = |c: usize, points: u8| -> f64 {
        let room = (18 - track[c] as i32).max(0);
        let v = (points as i32).min(room) as f64;
        if lowest >> c & 1 == 1 {
            2.0 * v
        } else {
            v
        }
    };
    let mut z = [0.0; TILE_KINDS];
    board.free_pairs_until(|a, b| {
        let Some(dir) = a.direction_to(b) else { return false };
        let mut ea = [0.0; COLORS];
        let mut eb = [0.0; COLORS];
        for c in 0..COLORS {
            ea[c] = (value(c, board.half_points(a, c as u8, dir)) / TEMPERATURE).exp();
            eb[c] = (value(c, board.half_points(b, c as u8, opposite(dir))) / TEMPERATURE).exp();
        }
        for (k, zk) in z.iter_mut().enumerate() {
            let (x, y) = Tile::from_kind(k).colors();
            let (x, y) = (x as usize, y as usize);
            *zk += ea[x] * eb[y];
            if x != y {
                *zk += ea[y] * eb[x];
            }
        }
        false
    });
    z
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Record;
    use crate::variants::Config;

    /// A 2-player game after `plies` greedy-ish moves (the first legal move each time), and
    /// its public history.
    fn after(plies: usize, seed: u64) -> Record {
        let mut r = Record::new(Config::standard(2).unwrap(), seed);
        let mut moves = Vec::new();
        let mut rng = Rng::new(seed);
        for _ in 0..plies {
            r.game().legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len() as u32) as usize];
            r.play(&mv).unwrap();
        }
        r
    }

    #[test]
    fn a_keep_deals_no_lowest_colour_among_the_kept_tiles() {
        // Find positions where the other seat answered an offer with `keep`.
        let mut checked = 0;
        for seed in 0..200u64 {
            let mut r = Record::new(Config::standard(2).unwrap(), seed);
            let mut moves = Vec::new();
            let mut rng = Rng::new(seed);
            while !r.game().is_over() && checked < 20 {
                r.game().legal_moves(&mut moves);
                let keep = moves.iter().position(|m| *m == Move::Keep);
                let mv = keep.map_or_else(|| moves[rng.below(moves.len() as u32) as usize], |k| moves[k]);
                let kept_by = r.game().current_player();
                r.play(&mv).unwrap();
                let g = *r.game();
                if mv == Move::Keep && !g.is_over() && g.current_player() != kept_by && g.bag().len() >= 6 {
                    let me = g.current_player();
                    let lowest = g.tracks().swap_colors(g.config(), kept_by);
                    let inf = Inference::new(&g, me, r.history(), &r.movers(), &mut Rng::new(1)).expect("evidence");
                    // Only the tiles drawn after the turn may show a lowest colour.
                    let mut dealer = Rng::new(2);
                    for _ in 0..50 {
                        let d = inf.deal(&g, me, &mut dealer);
                        assert_eq!(d.rack(me), g.rack(me));
                        assert_eq!(d.rack(kept_by).len(), 6);
                        let showing = d.rack(kept_by).tiles().iter().filter(|t| t.mask() & lowest != 0).count();
                        assert!(showing <= 6 - inf_kept(&r, kept_by), "seed {seed}");
                        assert_eq!(d.tile_total(), 120);
                    }
                    checked += 1;
                }
            }
            if checked >= 20 {
                break;
            }
        }
        assert!(checked >= 5, "too few keeps seen: {checked}");
    }

    /// Tiles the seat kept through its last turn (the rack size less its placements).
    fn inf_kept(r: &Record, seat: usize) -> usize {
        let movers = r.movers();
        let last = movers.iter().rposition(|&m| m as usize == seat).unwrap();
        let mut first = last;
        while first > 0 && movers[first - 1] as usize == seat {
            first -= 1;
        }
        6 - r.history()[first..=last].iter().filter(|m| matches!(m, Move::Place(_))).count()
    }

    #[test]
    fn no_evidence_without_history_or_in_other_rules() {
        let r = after(12, 3);
        let g = *r.game();
        let me = g.current_player();
        assert!(Inference::new(&g, me, &[], &[], &mut Rng::new(1)).is_none());
        assert!(Inference::new(&g, me, r.history(), &r.movers(), &mut Rng::new(1)).is_some());
        // A history that does not lead to this board is ignored.
        let other = after(12, 4);
        assert!(Inference::new(&g, me, other.history(), &other.movers(), &mut Rng::new(1)).is_none());
    }

    #[test]
    fn placements_make_some_racks_likelier() {
        let r = after(20, 7);
        let g = *r.game();
        let inf = Inference::new(&g, g.current_player(), r.history(), &r.movers(), &mut Rng::new(1)).unwrap();
        let e = inf.effective();
        assert!(e < CANDIDATES as f64 && e > 1.0, "effective candidates {e}");
    }
}

use super::Bot;
use crate::game::{Game, Phase};
use crate::hex::{Cell, GRID};
use crate::moves::Move;
use crate::rng::Rng;
use crate::tiles::COLORS;
use crate::variants::{Tracks, Variant};
use std::sync::OnceLock;

/// One ply: the placement whose resulting markers are best for the mover under the game's
/// own ranking (sorted ascending, compared lexicographically: raise the lowest colour first).
/// Ties: more bonus placements earned, then more raw points, then uniformly at random.
/// Takes an offered swap (the rack lacks the colours it most needs).
pub struct GreedyBot {
    rng: Rng,
    /// Reused buffer: the key of every legal move of the current decision.
    keys: Vec<u64>,
}

impl GreedyBot {
    pub fn new(seed: u64) -> GreedyBot {
        // Sized once for the largest position: no allocation per decision.
        GreedyBot { rng: Rng::new(seed), keys: Vec::with_capacity(crate::game::MAX_LEGAL_MOVES) }
    }
}

/// Evaluation of a placement for the mover: higher is better.
#[inline]
pub(crate) fn placement_key(game: &Game, m: &Move) -> ([i8; COLORS], u8, u16) {
    let Move::Place(p) = m else {
        return ([i8::MIN; COLORS], 0, 0);
    };
    let player = game.current_player();
    let config = game.config();
    let board = game.board();
    let dir = p.a.direction_to(p.b).expect("legal placements are on adjacent cells");
    let (pa, pb) = board.placement_points(p.a, p.ca, p.b, p.cb, dir);
    let mut tracks = *game.tracks();
    let applied = tracks.advance(config, player, [(p.ca, pa), (p.cb, pb)]);
    let mut view = tracks.view(config, player);
    if applied.won {
        view = [i8::MAX; COLORS];
    }
    view.sort_unstable();
    (view, applied.bonuses, pa as u16 + pb as u16)
}

/// Neighbours of every board cell by dense index, per direction.
fn neighbours() -> &'static [[Option<Cell>; 6]; 169] {
    static TABLE: OnceLock<[[Option<Cell>; 6]; 169]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[None; 6]; 169];
        for (i, row) in t.iter_mut().enumerate() {
            let c = Cell::from_dense(i).expect("169 board cells");
            for (d, n) in row.iter_mut().enumerate() {
                *n = c.neighbour(d);
            }
        }
        t
    })
}

/// `placement_key` for every placement of one position, packed into a `u64` that orders
/// the same way, at a fraction of the cost: the points a colour would score on a free cell
/// are computed once per cell (the other half of a tile lies on a free cell, so the
/// direction it occupies adds nothing either way).
pub(crate) struct PlacementKeys {
    /// Per grid index, per colour: points a half of that colour would score there.
    points: [[u8; COLORS]; GRID],
    tracks: Tracks,
    player: usize,
    standard: bool,
    /// The key of a placement scoring nothing (the most common kind).
    zero: u64,
    /// Keys by (colours, points): many placements share them. Direct-mapped; a slot holds
    /// `(tag, key)` with tag 0 for empty.
    cache: [(u32, u64); CACHE],
}

const CACHE: usize = 256;

impl PlacementKeys {
    pub(crate) fn new(game: &Game) -> PlacementKeys {
        let board = game.board();
        let table = neighbours();
        let mut points = [[0u8; COLORS]; GRID];
        for c in board.free_cells() {
            for (d, n) in table[c.dense()].iter().enumerate() {
                if let Some(n) = *n {
                    let col = board.get(n);
                    if (col as usize) < COLORS {
                        points[c.index()][col as usize] += board.run(c, d, col);
                    }
                }
            }
        }
        let player = game.current_player();
        let config = game.config();
        let mut view = game.tracks().view(config, player);
        sort6(&mut view);
        PlacementKeys {
            points,
            tracks: *game.tracks(),
            player,
            standard: config.variant == Variant::Standard,
            zero: pack(&view) << 16,
            cache: [(0, 0); CACHE],
        }
    }

    /// The packed key of a move of the player to move in `game` (the position this
    /// evaluator was built from): sorted markers (one byte each, offset so that the byte
    /// order is the `i8` order), then bonuses, then raw points.
    #[inline(always)]
    pub(crate) fn key(&mut self, game: &Game, m: &Move) -> u64 {
        let Move::Place(p) = m else {
            return 0;
        };
        let pa = self.points[p.a.index()][p.ca as usize];
        let pb = self.points[p.b.index()][p.cb as usize];
        if pa == 0 && pb == 0 {
            return self.zero;
        }
        // The key depends on the move only through these four numbers.
        let tag = (p.ca as u32 | (p.cb as u32) << 3 | (pa as u32) << 6 | (pb as u32) << 14) + 1;
        let slot = (tag.wrapping_mul(0x9E37_79B9) >> 24) as usize;
        if self.cache[slot].0 == tag {
            return self.cache[slot].1;
        }
        let key = self.compute(game, p.ca, pa, p.cb, pb);
        self.cache[slot] = (tag, key);
        key
    }

    /// The key of a placement putting `ca` where it scores `pa` and `cb` where it scores `pb`.
    fn compute(&self, game: &Game, ca: u8, pa: u8, cb: u8, pb: u8) -> u64 {
        let (ca, cb) = (ca as usize, cb as usize);
        let mut view;
        let bonuses;
        let won;
        if self.standard {
            // Fast path of `Tracks::apply` for the base game (one track 0..18 per seat).
            view = self.tracks.values[self.player];
            let (oa, ob) = (view[ca], view[cb]);
            view[ca] = (oa as u8 + pa).min(18) as i8;
            view[cb] = (view[cb] as u8 + pb).min(18) as i8;
            let mut b = (oa < 18 && view[ca] == 18) as u8;
            if cb != ca {
                b += (ob < 18 && view[cb] == 18) as u8;
            }
            bonuses = b;
            won = view.iter().all(|&v| v == 18);
        } else {
            let config = game.config();
            let mut tracks = self.tracks;
            let applied = tracks.advance(config, self.player, [(ca as u8, pa), (cb as u8, pb)]);
            view = tracks.view(config, self.player);
            bonuses = applied.bonuses;
            won = applied.won;
        }
        let packed = if won {
            0xFFFF_FFFF_FFFF
        } else {
            sort6(&mut view);
            pack(&view)
        };
        packed << 16 | (bonuses as u64) << 8 | (pa as u64 + pb as u64).min(255)
    }
}

/// Six sorted markers as bytes, offset so that byte order is `i8` order.
#[inline]
fn pack(view: &[i8; COLORS]) -> u64 {
    view.iter().fold(0, |acc, &v| acc << 8 | (v as i16 + 128) as u64)
}

/// Insertion sort of six markers (faster than the general sort for so few).
#[inline]
fn sort6(v: &mut [i8; COLORS]) {
    for i in 1..COLORS {
        let x = v[i];
        let mut j = i;
        while j > 0 && v[j - 1] > x {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}

impl Bot for GreedyBot {
    fn choose(&mut self, game: &Game, moves: &[Move]) -> usize {
        if game.phase() == Phase::SwapOffer {
            return moves.iter().position(|m| *m == Move::Swap).unwrap_or(0);
        }
        let mut eval = PlacementKeys::new(game);
        let keys = &mut self.keys;
        keys.clear();
        keys.extend(moves.iter().map(|m| eval.key(game, m)));
        let best = *keys.iter().max().expect("at least one legal move");
        // A uniform choice among the equally good moves: one draw, not one per tie.
        let ties = keys.iter().filter(|&&k| k == best).count();
        let pick = self.rng.below(ties as u32) as usize;
        keys.iter().enumerate().filter(|&(_, &k)| k == best).nth(pick).expect("pick < ties").0
    }

    fn name(&self) -> &'static str {
        "greedy"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::RandomBot;
    use crate::variants::Config;

    fn play(config: Config, seed: u64, bots: &mut [Box<dyn Bot>]) -> Game {
        let mut g = Game::new(config, seed);
        let mut moves = Vec::new();
        while !g.is_over() {
            g.legal_moves(&mut moves);
            let i = bots[g.current_player()].choose(&g, &moves);
            g.play_unchecked(&moves[i]);
        }
        g
    }

    #[test]
    fn greedy_beats_random_clearly() {
        let config = Config::standard(2).unwrap();
        let mut wins = 0;
        for seed in 0..40u64 {
            let greedy_seat = (seed % 2) as usize;
            let mut bots: Vec<Box<dyn Bot>> = vec![Box::new(RandomBot::new(seed)), Box::new(RandomBot::new(seed + 1))];
            bots[greedy_seat] = Box::new(GreedyBot::new(seed));
            let g = play(config, seed, &mut bots);
            wins += (g.ranks()[greedy_seat] == 0 && g.ranks()[1 - greedy_seat] == 1) as u32;
        }
        assert!(wins >= 36, "greedy won only {wins} of 40");
    }

    #[test]
    fn packed_keys_order_moves_like_placement_key() {
        use crate::variants::{SwapTiming, Variant};
        let mut buf = Vec::new();
        for v in Variant::ALL {
            for &n in v.player_counts() {
                let cfg = Config::new(v, n, SwapTiming::AfterPlacement, false).unwrap();
                for seed in 0..6u64 {
                    let mut g = Game::new(cfg, seed);
                    let mut rng = Rng::new(seed);
                    let mut bot = GreedyBot::new(seed);
                    while !g.is_over() {
                        g.legal_moves(&mut buf);
                        let mut eval = PlacementKeys::new(&g);
                        let keys: Vec<(u64, _)> = buf.iter().map(|m| (eval.key(&g, m), placement_key(&g, m))).collect();
                        for _ in 0..50 {
                            let (x, y) = (
                                &keys[rng.below(keys.len() as u32) as usize],
                                &keys[rng.below(keys.len() as u32) as usize],
                            );
                            assert_eq!(x.0.cmp(&y.0), x.1.cmp(&y.1), "{v:?} seed {seed}");
                        }
                        // Greedy and random moves mixed, to reach late positions with high markers.
                        let i =
                            if rng.below(2) == 0 { bot.choose(&g, &buf) } else { rng.below(buf.len() as u32) as usize };
                        g.play_unchecked(&buf[i]);
                    }
                }
            }
        }
    }

    #[test]
    fn choose_move_matches_choose() {
        let mut buf = Vec::new();
        for timing in [crate::variants::SwapTiming::AfterPlacement, crate::variants::SwapTiming::InsteadOfPlacement] {
            let cfg = Config::new(crate::variants::Variant::Standard, 3, timing, false).unwrap();
            let mut g = Game::new(cfg, 8);
            let (mut a, mut b) = (GreedyBot::new(2), GreedyBot::new(2));
            while !g.is_over() {
                let m = a.choose_move(&g, &mut Vec::new());
                g.legal_moves(&mut buf);
                assert_eq!(buf[b.choose(&g, &buf)], m);
                g.play_unchecked(&m);
            }
        }
    }

    #[test]
    fn greedy_takes_the_best_immediate_gain() {
        let config = Config::standard(2).unwrap();
        let g = Game::new(config, 3);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let i = GreedyBot::new(0).choose(&g, &moves);
        let chosen = placement_key(&g, &moves[i]);
        assert!(moves.iter().all(|m| placement_key(&g, m) <= chosen));
    }
}

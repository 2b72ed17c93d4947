//! `scarcity`: a one-ply reference player, implemented from its published description so
//! that every strength claim of the other bots is measured against the same opponent.
//!
//! A placement is valued as the sum, over the colours it scores, of
//! `gain × (1 + 2·(max − before)/max)`, times 2.5 if that colour was one of the mover's
//! lowest, plus 6 for each colour that reaches `max` (18 in the base game). `gain` is the
//! colour's raw points from both halves (the description does not cap it at the track's
//! end), `before` the mover's marker before the placement, as the mover sees it.
//!
//! Swap answers (a decision the description leaves open): an offered swap is always taken,
//! as `greedy` does. The rules offer it only when the rack shows none of the mover's
//! lowest colours, so the rack cannot raise the colour that decides the ranking and fresh
//! tiles are worth more on average. With the older `instead_of_placement` timing the swap
//! is a move of its own; it is chosen only when no placement scores a single point.

use super::eval::PointTable;
use super::Bot;
use crate::game::{Game, Phase};
use crate::moves::Move;
use crate::rng::Rng;
use crate::tiles::COLORS;

pub struct ScarcityBot {
    rng: Rng,
    values: Vec<f64>,
}

impl ScarcityBot {
    pub fn new(seed: u64) -> ScarcityBot {
        ScarcityBot { rng: Rng::new(seed), values: Vec::with_capacity(crate::game::MAX_LEGAL_MOVES) }
    }
}

/// The formula for a placement that scores `gains[c]` raw points in colour `c`, from the
/// mover's markers `before` on a track ending at `max`.
pub fn scarcity_value(before: &[i8; COLORS], gains: &[u8; COLORS], max: i8) -> f64 {
    let lowest = *before.iter().min().expect("six colours");
    let m = max as f64;
    let mut v = 0.0;
    for c in 0..COLORS {
        let g = gains[c];
        if g == 0 {
            continue;
        }
        let b = before[c];
        let mut x = g as f64 * (1.0 + 2.0 * (m - b as f64) / m);
        if b == lowest {
            x *= 2.5;
        }
        if b < max && b as i16 + g as i16 >= max as i16 {
            x += 6.0;
        }
        v += x;
    }
    v
}

/// Scores every placement of one decision from a table of points per cell and colour.
pub(crate) struct ScarcityScorer {
    table: PointTable,
    before: [i8; COLORS],
    max: i8,
}

impl ScarcityScorer {
    pub(crate) fn new(game: &Game) -> ScarcityScorer {
        let config = game.config();
        ScarcityScorer {
            table: PointTable::new(game.board()),
            before: game.tracks().view(config, game.current_player()),
            max: config.variant.track_max(),
        }
    }

    #[inline]
    pub(crate) fn value(&self, m: &Move) -> f64 {
        match m {
            Move::Place(p) => {
                let mut gains = [0u8; COLORS];
                gains[p.ca as usize] += self.table.points(p.a, p.ca);
                gains[p.cb as usize] += self.table.points(p.b, p.cb);
                if gains == [0; COLORS] {
                    return 0.0;
                }
                scarcity_value(&self.before, &gains, self.max)
            }
            // An `instead_of_placement` swap: below any scoring placement, above none.
            Move::Swap => 0.0,
            Move::Keep => f64::NEG_INFINITY,
        }
    }
}

impl Bot for ScarcityBot {
    fn choose(&mut self, game: &Game, moves: &[Move]) -> usize {
        if game.phase() == Phase::SwapOffer {
            return moves.iter().position(|m| *m == Move::Swap).unwrap_or(0);
        }
        let scorer = ScarcityScorer::new(game);
        self.values.clear();
        self.values.extend(moves.iter().map(|m| scorer.value(m)));
        // Non-scoring placements and the swap all value 0: prefer the swap there (it is
        // only legal when the rack lacks the lowest colours), as documented above.
        if let Some(i) = moves.iter().position(|m| *m == Move::Swap) {
            if self.values.iter().all(|&v| v <= 0.0) {
                return i;
            }
            self.values[i] = -1.0;
        }
        pick_best(&mut self.rng, &self.values)
    }

    fn name(&self) -> &'static str {
        "scarcity"
    }
}

/// Index of the largest value, ties broken uniformly at random with one draw.
pub(crate) fn pick_best(rng: &mut Rng, values: &[f64]) -> usize {
    let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let ties = values.iter().filter(|&&v| v == best).count().max(1);
    let pick = rng.below(ties as u32) as usize;
    values.iter().enumerate().filter(|&(_, &v)| v == best).nth(pick).map_or(0, |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::hex::Cell;
    use crate::moves::Placement;
    use crate::variants::Config;

    #[test]
    fn formula_on_hand_checked_values() {
        // Red 0..5: markers [3, 5, 5, 10, 17, 18]; red (3) is the lowest.
        let before = [3, 5, 5, 10, 17, 18];
        // 2 red: 2 × (1 + 2·15/18) × 2.5 = 2 × 2.6667 × 2.5 = 13.3333.
        let v = scarcity_value(&before, &[2, 0, 0, 0, 0, 0], 18);
        assert!((v - 13.333_333).abs() < 1e-5, "{v}");
        // 3 orange (5, not lowest): 3 × (1 + 2·13/18) = 3 × 2.4444 = 7.3333.
        let v = scarcity_value(&before, &[0, 3, 0, 0, 0, 0], 18);
        assert!((v - 7.333_333).abs() < 1e-5, "{v}");
        // 2 blue reaching 18 from 17: 2 × (1 + 2/18) + 6 = 8.2222.
        let v = scarcity_value(&before, &[0, 0, 0, 0, 2, 0], 18);
        assert!((v - 8.222_222).abs() < 1e-5, "{v}");
        // Purple already at 18: 1 point per point, no bonus; plus 1 green (10): 1 × 1.8889.
        let v = scarcity_value(&before, &[0, 0, 0, 1, 0, 4], 18);
        assert!((v - (4.0 + 1.0 + 16.0 / 18.0)).abs() < 1e-9, "{v}");
        // Two lowest colours tied: both get the factor.
        let v = scarcity_value(&[0, 0, 4, 4, 4, 4], &[1, 1, 0, 0, 0, 0], 18);
        assert!((v - 2.0 * 3.0 * 2.5).abs() < 1e-9, "{v}");
    }

    #[test]
    fn scorer_matches_the_board_points() {
        // Blue symbol at (5, 0): a blue half on (4, 0) scores 1 there.
        let g = Game::new(Config::standard(2).unwrap(), 1);
        let s = ScarcityScorer::new(&g);
        let a = Cell::new(4, 0).unwrap();
        let b = Cell::new(3, 0).unwrap();
        let m = Move::Place(Placement::new(a, 4, b, 0));
        let (pa, pb) = Board::for_players(2).placement_points(a, 4, b, 0, a.direction_to(b).unwrap());
        assert_eq!((pa, pb), (1, 0));
        assert!((s.value(&m) - 1.0 * 3.0 * 2.5).abs() < 1e-9);
    }

    #[test]
    fn picks_the_highest_value_and_takes_swaps() {
        let mut buf = Vec::new();
        for seed in 0..5u64 {
            let mut g = Game::new(Config::standard(3).unwrap(), seed);
            let mut bot = ScarcityBot::new(seed);
            while !g.is_over() {
                g.legal_moves(&mut buf);
                let i = bot.choose(&g, &buf);
                if g.phase() == Phase::SwapOffer {
                    assert_eq!(buf[i], Move::Swap);
                } else {
                    let s = ScarcityScorer::new(&g);
                    let best = buf.iter().map(|m| s.value(m)).fold(f64::NEG_INFINITY, f64::max);
                    assert_eq!(s.value(&buf[i]), best);
                }
                g.play_unchecked(&buf[i]);
            }
        }
    }
}

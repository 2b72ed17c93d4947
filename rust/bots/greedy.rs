use super::Bot;
use crate::game::{Game, Phase};
use crate::moves::Move;
use crate::rng::Rng;
use crate::tiles::COLORS;

/// One ply: the placement whose resulting markers are best for the mover under the game's
/// own ranking (sorted ascending, compared lexicographically: raise the lowest colour first).
/// Ties: more bonus placements earned, then more raw points, then uniformly at random.
/// Takes an offered swap (the rack lacks the colours it most needs).
pub struct GreedyBot {
    rng: Rng,
}

impl GreedyBot {
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot { rng: Rng::new(seed) }
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
    let mut gains = [0u8; COLORS];
    gains[p.ca as usize] += pa;
    gains[p.cb as usize] += pb;
    let mut tracks = *game.tracks();
    let applied = tracks.apply(config, player, &gains);
    let mut view = tracks.view(config, player);
    if applied.won {
        view = [i8::MAX; COLORS];
    }
    view.sort_unstable();
    (view, applied.bonuses, pa as u16 + pb as u16)
}

impl Bot for GreedyBot {
    fn choose(&mut self, game: &Game, moves: &[Move]) -> usize {
        if game.phase() == Phase::SwapOffer {
            return moves.iter().position(|m| *m == Move::Swap).unwrap_or(0);
        }
        let mut best = 0;
        let mut best_key = placement_key(game, &moves[0]);
        let mut ties = 1u32;
        for (i, m) in moves.iter().enumerate().skip(1) {
            let key = placement_key(game, m);
            if key > best_key {
                best_key = key;
                best = i;
                ties = 1;
            } else if key == best_key {
                // Reservoir sampling: a uniform choice among equally good moves.
                ties += 1;
                if self.rng.below(ties) == 0 {
                    best = i;
                }
            }
        }
        best
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

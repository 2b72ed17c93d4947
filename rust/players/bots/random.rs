use super::Bot;
use crate::game::{Game, Phase};
use crate::moves::{Move, Placement};
use crate::rng::Rng;
use crate::tiles::Tile;

/// Uniformly random among all legal moves.
///
/// Listing every legal move costs far more than playing one (hundreds of placements early
/// in a game), so `choose_move` draws a random (edge, tile, orientation) and keeps it if the
/// core's own `Game::check` accepts it: rejection sampling, uniform over the legal
/// placements. When few pairs are free, or a swap is among the legal moves, it lists them.
/// `choose` (given the list) makes the same choice from the same generator state.
pub struct RandomBot {
    rng: Rng,
}

/// Draws before falling back to the list (also uniform, so the mixture stays uniform).
const TRIES: usize = 64;

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: Rng::new(seed) }
    }

    /// The random move, or `None` if it must be taken from the full list (`Err(index)`
    /// then is what the list gives). `list_len` gives the list's length on demand.
    fn draw(&mut self, game: &Game, list_len: &mut dyn FnMut() -> usize) -> Result<Move, usize> {
        match game.phase() {
            // The list is [Swap, Keep].
            Phase::SwapOffer | Phase::Over => return Err(self.rng.below(list_len() as u32) as usize),
            Phase::Place | Phase::Bonus => {}
        }
        let board = game.board();
        let edges = &board.zone().edges;
        let swap_possible = game.instead_swap_available();
        let mut kinds = [Tile::default(); 6];
        let k = game.rack(game.current_player()).distinct(&mut kinds);
        // Few free pairs: listing is cheap and drawing would mostly miss.
        if swap_possible || k == 0 || board.free_pairs() * 32 < edges.len() {
            return Err(self.rng.below(list_len() as u32) as usize);
        }
        let n = (edges.len() * k * 2) as u32;
        for _ in 0..TRIES {
            let x = self.rng.below(n) as usize;
            let (e, rest) = (x / (k * 2), x % (k * 2));
            let (t, flip) = (kinds[rest / 2], rest % 2 == 1);
            let (c0, c1) = t.colors();
            // A double has one placement per edge, not two.
            if flip && c0 == c1 {
                continue;
            }
            let edge = edges[e];
            if !(board.is_free(edge.a) && board.is_free(edge.b)) {
                continue;
            }
            let (ca, cb) = if flip { (c1, c0) } else { (c0, c1) };
            let mv = Move::Place(Placement { a: edge.a, b: edge.b, ca, cb });
            if game.check(&mv).is_ok() {
                return Ok(mv);
            }
        }
        Err(self.rng.below(list_len() as u32) as usize)
    }
}

impl Bot for RandomBot {
    #[inline]
    fn choose(&mut self, game: &Game, moves: &[Move]) -> usize {
        match self.draw(game, &mut || moves.len()) {
            Ok(mv) => moves.iter().position(|m| *m == mv).expect("a drawn move is legal"),
            Err(i) => i,
        }
    }

    #[inline]
    fn choose_move(&mut self, game: &Game, moves: &mut Vec<Move>) -> Move {
        let mut listed = false;
        let r = self.draw(game, &mut || {
            game.legal_moves(moves);
            listed = true;
            moves.len()
        });
        match r {
            Ok(mv) => mv,
            Err(i) => {
                debug_assert!(listed);
                moves[i]
            }
        }
    }

    fn name(&self) -> &'static str {
        "random"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Config;

    #[test]
    fn drawn_moves_are_legal_and_match_the_listed_choice() {
        let mut buf = Vec::new();
        for cfg in Config::all() {
            let mut g = Game::new(cfg, 4);
            let (mut a, mut b) = (RandomBot::new(9), RandomBot::new(9));
            while !g.is_over() {
                let m = a.choose_move(&g, &mut buf);
                g.legal_moves(&mut buf);
                assert_eq!(buf[b.choose(&g, &buf)], m);
                g.play(&m).expect("legal");
            }
        }
    }

    #[test]
    fn every_legal_move_is_equally_likely() {
        // First placement of a game: few legal moves, all of them must come up evenly.
        let g = Game::new(Config::standard(2).unwrap(), 1);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let mut bot = RandomBot::new(3);
        let mut counts = vec![0u32; moves.len()];
        let draws = 2000 * moves.len() as u32;
        let mut buf = Vec::new();
        for _ in 0..draws {
            let m = bot.choose_move(&g, &mut buf);
            counts[moves.iter().position(|x| *x == m).unwrap()] += 1;
        }
        // 2000 expected per move; 5 standard deviations is about 220.
        assert!(counts.iter().all(|&c| (1780..=2220).contains(&c)), "{counts:?}");
    }
}

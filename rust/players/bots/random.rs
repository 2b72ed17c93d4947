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

/// `DIV_MAGIC[d]` = ⌈2³² / d⌉: for `x` below 2¹⁶, `x / d` is `x * DIV_MAGIC[d] >> 32` (the
/// rounding error, under `d * x` parts in 2³², never reaches the next integer; the test
/// `division_by_magic_is_exact` checks every case the draw can meet).
const DIV_MAGIC: [u64; 13] = {
    let mut t = [0u64; 13];
    let mut d = 1;
    while d < 13 {
        t[d] = (1u64 << 32).div_ceil(d as u64);
        d += 1;
    }
    t
};

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
        let per_edge = (k * 2) as u32;
        let n = edges.len() as u32 * per_edge;
        let magic = DIV_MAGIC[per_edge as usize];
        for _ in 0..TRIES {
            let x = self.rng.below(n);
            // x / per_edge and x % per_edge, by a multiplication: a division per try was the
            // loop's slowest instruction.
            let e = ((x as u64 * magic) >> 32) as u32;
            let rest = (x - e * per_edge) as usize;
            let (t, flip) = (kinds[rest / 2], rest % 2 == 1);
            let (c0, c1) = t.colors();
            // A double has one placement per edge, not two.
            if flip && c0 == c1 {
                continue;
            }
            let edge = edges[e as usize];
            if !board.edge_open(&edge) {
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
    fn division_by_magic_is_exact() {
        // Two to twelve choices per edge (one to six distinct tiles, two ways round), and
        // far fewer than 2^16 draws (edges × choices) on the largest board.
        for d in 2..=12u32 {
            for x in 0..1u32 << 16 {
                let e = ((x as u64 * DIV_MAGIC[d as usize]) >> 32) as u32;
                assert_eq!((e, x - e * d), (x / d, x % d), "{x} / {d}");
            }
        }
        let largest = crate::hex::zone(7).edges.len() * 12;
        assert!(largest < 1 << 16, "{largest}");
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

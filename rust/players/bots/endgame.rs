//! The exhaustive endgame of the `master` level: with few free pairs left, every root move
//! is followed by every legal continuation to the end of the game, in each of several deals
//! of the hidden tiles sampled from the mover's view (`Game::determinize`), and the root
//! moves are ranked by their mean exact result over the deals.
//!
//! Within a deal every seat plays its best reply for itself (max-n); with two players that
//! is a zero-sum minimax, pruned by alpha-beta on the mover's result. A node limit keeps the
//! time bounded: when the tree is larger the caller searches instead.

use super::analysis::{Analysis, Candidate};
use super::eval::win_shares;
use crate::game::Game;
use crate::moves::Move;
use crate::rng::Rng;

struct Solver {
    me: usize,
    two: bool,
    nodes: u64,
    max_nodes: u64,
    /// Move lists by depth (reused across the nodes of one decision).
    stack: Vec<Vec<Move>>,
}

impl Solver {
    /// The exact result of every seat from `game` (in this deal), or `None` past the node limit.
    fn value(&mut self, game: &Game, depth: usize, alpha: f64, beta: f64) -> Option<[f64; 4]> {
        if game.is_over() {
            return Some(win_shares(game));
        }
        if self.stack.len() <= depth {
            self.stack.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut self.stack[depth]);
        game.legal_moves(&mut moves);
        let mover = game.current_player();
        let maximise = mover == self.me;
        let (mut alpha, mut beta) = (alpha, beta);
        let mut best: Option<[f64; 4]> = None;
        for m in &moves {
            self.nodes += 1;
            if self.nodes > self.max_nodes {
                self.stack[depth] = moves;
                return None;
            }
            let mut next = *game;
            next.play_unchecked(m);
            let Some(r) = self.value(&next, depth + 1, alpha, beta) else {
                self.stack[depth] = moves;
                return None;
            };
            let better = match best {
                None => true,
                Some(b) => r[mover] > b[mover],
            };
            if better {
                best = Some(r);
            }
            if self.two {
                // Zero-sum on the mover's result: the searcher's result is all that matters.
                let v = r[self.me];
                if maximise {
                    alpha = alpha.max(v);
                } else {
                    beta = beta.min(v);
                }
                if alpha >= beta {
                    break;
                }
            } else if r[mover] >= 1.0 {
                break; // a seat cannot do better than a sure win
            }
        }
        self.stack[depth] = moves;
        best.or_else(|| Some(win_shares(game)))
    }
}

/// Ranks `root_moves` (the legal moves of `root`'s mover, swaps left out when `never_swap`)
/// by their exact result averaged over `samples` deals, or `None` when that would visit more
/// than `max_nodes` positions in all.
pub fn solve(
    root: &Game,
    root_moves: &[Move],
    never_swap: bool,
    samples: u32,
    max_nodes: u64,
    seed: u64,
) -> Option<Analysis> {
    let me = root.current_player();
    let moves: Vec<Move> = root_moves.iter().copied().filter(|m| !(never_swap && *m == Move::Swap)).collect();
    if moves.is_empty() || samples == 0 {
        return None;
    }
    let mut solver = Solver { me, two: root.config().players() == 2, nodes: 0, max_nodes, stack: Vec::new() };
    let mut rng = Rng::new(seed);
    let mut total = vec![0.0; moves.len()];
    for _ in 0..samples {
        let deal = root.determinize(me, rng.next_u64());
        for (k, m) in moves.iter().enumerate() {
            let mut g = deal;
            g.play_unchecked(m);
            solver.nodes += 1;
            if solver.nodes > max_nodes {
                return None;
            }
            total[k] += solver.value(&g, 0, 0.0, 1.0)?[me];
        }
    }
    let mut candidates: Vec<Candidate> = moves
        .iter()
        .zip(&total)
        .map(|(&mv, &t)| Candidate { mv, visits: samples, value: t / samples as f64, prior: 0.0, line: Vec::new() })
        .collect();
    candidates.sort_by(|a, b| b.value.total_cmp(&a.value).then(a.mv.cmp(&b.mv)));
    Some(Analysis { iterations: samples, nodes: solver.nodes.min(u32::MAX as u64) as u32, candidates })
}

/// The exact results of the moves `arms` on the same `samples` deals as `solve` with the
/// same seed deals them: `(mean values, each deal's values one row per deal)`, or `None`
/// when that would visit more than `max_nodes` positions in all.
pub fn compare(root: &Game, arms: &[Move], samples: u32, max_nodes: u64, seed: u64) -> Option<(Vec<f64>, Vec<f64>)> {
    let me = root.current_player();
    if samples == 0 || arms.is_empty() {
        return None;
    }
    let mut solver = Solver { me, two: root.config().players() == 2, nodes: 0, max_nodes, stack: Vec::new() };
    let mut rng = Rng::new(seed);
    let mut total = vec![0.0; arms.len()];
    let mut returns = Vec::with_capacity(samples as usize * arms.len());
    for _ in 0..samples {
        let deal = root.determinize(me, rng.next_u64());
        for (k, m) in arms.iter().enumerate() {
            let mut g = deal;
            g.play_unchecked(m);
            solver.nodes += 1;
            if solver.nodes > max_nodes {
                return None;
            }
            let v = solver.value(&g, 0, 0.0, 1.0)?[me];
            total[k] += v;
            returns.push(v);
        }
    }
    Some((total.iter().map(|t| t / samples as f64).collect(), returns))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::{Bot, ScarcityBot};
    use crate::variants::Config;

    /// A game of scarcity self-play stopped at `pairs` free pairs or fewer.
    fn late(players: usize, seed: u64, pairs: usize) -> Game {
        let mut g = Game::new(Config::standard(players).unwrap(), seed);
        let mut bot = ScarcityBot::new(seed);
        let mut moves = Vec::new();
        while !g.is_over() && g.board().free_pairs() > pairs {
            let m = bot.choose_move(&g, &mut moves);
            g.play_unchecked(&m);
        }
        g
    }

    /// Plain max-n without pruning, for one deal.
    fn brute(game: &Game) -> [f64; 4] {
        if game.is_over() {
            return win_shares(game);
        }
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mover = game.current_player();
        let mut best: Option<[f64; 4]> = None;
        for m in &moves {
            let mut g = *game;
            g.play_unchecked(m);
            let r = brute(&g);
            if best.is_none_or(|b| r[mover] > b[mover]) {
                best = Some(r);
            }
        }
        best.unwrap()
    }

    #[test]
    fn pruned_values_match_plain_max_n() {
        let mut checked = 0;
        for seed in 0..12 {
            let g = late(2, seed, 3);
            if g.is_over() {
                continue;
            }
            let me = g.current_player();
            let mut s = Solver { me, two: true, nodes: 0, max_nodes: u64::MAX, stack: Vec::new() };
            assert_eq!(s.value(&g, 0, 0.0, 1.0).unwrap()[me], brute(&g)[me], "seed {seed}");
            checked += 1;
        }
        assert!(checked >= 6);
    }

    #[test]
    fn ranks_every_root_move_blind_to_hidden_tiles_or_gives_up() {
        for players in [2, 3, 4] {
            let g = late(players, 5, 3);
            if g.is_over() {
                continue;
            }
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            let a = solve(&g, &moves, false, 4, 1_000_000, 9).expect("small tree");
            assert_eq!(a.candidates.len(), moves.len());
            assert!(a.candidates.windows(2).all(|w| w[0].value >= w[1].value));
            assert!(a.candidates.iter().all(|c| (0.0..=1.0).contains(&c.value)));
            let twin = g.determinize(g.current_player(), 31);
            assert_eq!(Some(a), solve(&twin, &moves, false, 4, 1_000_000, 9));
            assert!(solve(&g, &moves, false, 4, 3, 9).is_none());
        }
    }
}

//! The search tree shared by the searching bots (`mcts`, and the levels' ISMCTS): nodes in
//! one vector, children as linked lists of indices, so a search allocates nothing per
//! node beyond the vector's growth and can be reused decision after decision.

use crate::moves::Move;
use crate::stop::Stop;
use std::time::Instant;

/// No node (the end of a child list).
pub(super) const NONE: u32 = u32::MAX;

/// Most candidates a node may consider (the searches' width limit).
pub(super) const MAX_CANDIDATES: usize = 64;

#[derive(Clone, Copy)]
pub(super) struct Node {
    pub mv: Move,
    pub first_child: u32,
    pub next_sibling: u32,
    /// The seat that played `mv` (whose return this node accumulates).
    pub player: u8,
    pub visits: u32,
    /// Iterations in which `mv` was legal (information-set search: availability counts).
    pub avail: u32,
    pub reward: f64,
}

/// The child of `node` reached by `mv`, or [`NONE`].
#[inline]
pub(super) fn child(nodes: &[Node], node: u32, mv: &Move) -> u32 {
    let mut c = nodes[node as usize].first_child;
    while c != NONE {
        let n = &nodes[c as usize];
        if n.mv == *mv {
            return c;
        }
        c = n.next_sibling;
    }
    NONE
}

/// Adds the child of `parent` reached by `mv`, played by `player`; returns its index.
#[inline]
pub(super) fn add_child(nodes: &mut Vec<Node>, parent: u32, mv: Move, player: u8) -> u32 {
    let id = nodes.len() as u32;
    let p = &mut nodes[parent as usize];
    let next = p.first_child;
    p.first_child = id;
    nodes.push(Node { mv, first_child: NONE, next_sibling: next, player, visits: 0, avail: 1, reward: 0.0 });
    id
}

/// One selection step of an information-set search at `node`, over the candidates `list`
/// that are legal in this iteration's deal: counts their availability, then expands the
/// first one without a node, or else picks the child with the best UCB1 score
/// (exploration `c`). Returns the move to play, its node, and whether it was just added
/// (the selection ends there).
#[inline]
pub(super) fn select(nodes: &mut Vec<Node>, node: u32, list: &[Move], mover: u8, c: f64) -> (Move, u32, bool) {
    let list = &list[..list.len().min(MAX_CANDIDATES)];
    let mut unexpanded = None;
    let mut ids = [NONE; MAX_CANDIDATES];
    for (k, mv) in list.iter().enumerate() {
        let id = child(nodes, node, mv);
        ids[k] = id;
        if id == NONE {
            if unexpanded.is_none() {
                unexpanded = Some(*mv);
            }
        } else {
            nodes[id as usize].avail += 1;
        }
    }
    if let Some(mv) = unexpanded {
        return (mv, add_child(nodes, node, mv, mover), true);
    }
    let mut best = NONE;
    let mut best_score = f64::NEG_INFINITY;
    for &id in &ids[..list.len()] {
        let n = &nodes[id as usize];
        let v = n.visits.max(1) as f64;
        let score = n.reward / v + c * ((n.avail as f64).ln() / v).sqrt();
        if score > best_score {
            best_score = score;
            best = id;
        }
    }
    (nodes[best as usize].mv, best, false)
}

/// One selection step at the root by PUCT (AlphaZero's rule): over the root's candidates
/// `ranked` (the prior's probability and the move, best first; at the root every candidate
/// is legal in every deal), expands the first one without a node, or else picks the child
/// maximising `Q + c·P·√N / (1 + n)`. Returns as [`select`].
#[inline]
pub(super) fn select_puct(nodes: &mut Vec<Node>, ranked: &[(f64, Move)], c: f64) -> (Move, u32, bool) {
    let root = 0u32;
    let mover = nodes[root as usize].player;
    let total = (nodes[root as usize].visits.max(1) as f64).sqrt();
    let mut best = NONE;
    let mut best_score = f64::NEG_INFINITY;
    for (p, mv) in ranked {
        let id = child(nodes, root, mv);
        if id == NONE {
            return (*mv, add_child(nodes, root, *mv, mover), true);
        }
        let n = &nodes[id as usize];
        let q = n.reward / n.visits.max(1) as f64;
        let score = q + c * p * total / (1.0 + n.visits as f64);
        if score > best_score {
            best_score = score;
            best = id;
        }
    }
    nodes[best as usize].avail += 1;
    (nodes[best as usize].mv, best, false)
}

/// Adds one iteration's values (per seat) to every node on its `path`, each for the
/// seat that played into it.
#[inline]
pub(super) fn backup(nodes: &mut [Node], path: &[u32], values: &[f64; 4]) {
    for &id in path {
        let n = &mut nodes[id as usize];
        n.visits += 1;
        n.reward += values[n.player as usize];
    }
}

/// When a search ends: after `iterations`, at the `deadline`, or once `stop` is set
/// (Ctrl-C) -- the last two only after a first iteration, so there is always a move.
pub(super) struct Budget<'a> {
    pub iterations: u32,
    pub deadline: Option<Instant>,
    pub stop: Option<&'a Stop>,
}

impl Budget<'_> {
    /// Whether another iteration may start after `done` of them.
    #[inline]
    pub fn allows(&self, done: u32) -> bool {
        if done >= self.iterations {
            return false;
        }
        done == 0 || !(self.deadline.is_some_and(|d| Instant::now() >= d) || self.stop.is_some_and(Stop::is_set))
    }
}

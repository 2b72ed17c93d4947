//! A flat integer action space for learning agents.
//!
//! Every decision of every variant is one integer in `0..ACTION_COUNT` (6086):
//!
//! * **placement** `a < 6084`: `a = (slot * 169 + cell) * 6 + dir`, where
//!   - `slot` (0..6) is a slot of the mover's rack (slot order: draws append, plays close
//!     the gap),
//!   - `cell` (0..169) is the dense index of a board cell ([`Cell::dense`]: ordered by `r`,
//!     then `q`, over the whole board whatever the zone),
//!   - `dir` (0..6) is the direction ([`crate::hex::DIRECTIONS`]) from `cell` to the cell of
//!     the tile's other half.
//!
//!   The tile's **first colour** — the lower colour of the [`Tile`](crate::tiles::Tile) (red < orange < yellow <
//!   green < blue < purple) — goes on `cell`, the second on its neighbour in `dir`.
//! * **`SWAP_ACTION`** (6084): [`Move::Swap`]; **`KEEP_ACTION`** (6085): [`Move::Keep`].
//!
//! One placement can have several actions, all legal together: a double can be laid from
//! either cell (`(cell, dir)` and `(neighbour, opposite(dir))`), and identical tiles in
//! several slots each give their own action. [`move_actions`] lists them all; the legal
//! mask sets every one of them.

use crate::game::{Game, Phase};
use crate::hex::{opposite, Cell, BOARD_CELLS};
use crate::moves::{Move, Placement};
use std::fmt;

/// Rack slots an action can name.
pub const SLOTS: usize = 6;
/// Directions an action can name.
pub const DIRS: usize = 6;
/// Placement actions of one rack slot: `169 * 6`.
pub const PLACEMENTS_PER_SLOT: usize = BOARD_CELLS * DIRS;
/// Number of placement actions: `6 * 169 * 6`.
pub const PLACEMENT_ACTIONS: usize = SLOTS * BOARD_CELLS * DIRS;
/// The action for [`Move::Swap`].
pub const SWAP_ACTION: usize = PLACEMENT_ACTIONS;
/// The action for [`Move::Keep`].
pub const KEEP_ACTION: usize = PLACEMENT_ACTIONS + 1;
/// Size of the action space.
pub const ACTION_COUNT: usize = PLACEMENT_ACTIONS + 2;

/// An action index taken apart.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    /// Put the tile in `slot` with its first colour on `cell`, its second on the neighbour
    /// in direction `dir`.
    Place {
        slot: u8,
        cell: Cell,
        dir: u8,
    },
    Swap,
    Keep,
}

impl Action {
    /// The action with index `a`, if `a < ACTION_COUNT`.
    pub fn decode(a: usize) -> Option<Action> {
        match a {
            SWAP_ACTION => Some(Action::Swap),
            KEEP_ACTION => Some(Action::Keep),
            _ if a < PLACEMENT_ACTIONS => {
                let dir = (a % DIRS) as u8;
                let rest = a / DIRS;
                let cell = Cell::from_dense(rest % BOARD_CELLS).expect("dense index below 169");
                Some(Action::Place { slot: (rest / BOARD_CELLS) as u8, cell, dir })
            }
            _ => None,
        }
    }

    /// The index of this action.
    #[inline]
    pub fn index(self) -> usize {
        match self {
            Action::Place { slot, cell, dir } => placement_action(slot as usize, cell, dir as usize),
            Action::Swap => SWAP_ACTION,
            Action::Keep => KEEP_ACTION,
        }
    }
}

/// The index of a placement action.
#[inline]
pub fn placement_action(slot: usize, cell: Cell, dir: usize) -> usize {
    debug_assert!(slot < SLOTS && dir < DIRS);
    (slot * BOARD_CELLS + cell.dense()) * DIRS + dir
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Place { slot, cell, dir } => {
                write!(f, "slot {slot}, first colour on ({},{}), direction {dir}", cell.q(), cell.r())
            }
            Action::Swap => f.write_str("swap"),
            Action::Keep => f.write_str("keep"),
        }
    }
}

/// Why an action index does not stand for a move in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    /// Not in `0..ACTION_COUNT`.
    OutOfRange(i128),
    /// The slot holds no tile.
    EmptySlot { action: usize, slot: u8, player: u8, rack_len: u8 },
    /// The neighbour in `dir` is off the board.
    OffBoard { action: usize, cell: Cell, dir: u8 },
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ActionError::OutOfRange(a) => {
                write!(f, "action {a} is out of range: actions are 0..{}", ACTION_COUNT - 1)
            }
            ActionError::EmptySlot { action, slot, player, rack_len } => {
                write!(f, "action {action} names rack slot {slot}, but player {player} holds {rack_len} tile(s)")
            }
            ActionError::OffBoard { action, cell, dir } => {
                write!(f, "action {action} points from ({},{}) in direction {dir}, off the board", cell.q(), cell.r())
            }
        }
    }
}

/// The move that action `a` stands for in `game` (for the player to move). Legality is not
/// checked here: `game.check(&mv)` or the legal mask says whether it may be played now.
pub fn action_to_move(game: &Game, a: usize) -> Result<Move, ActionError> {
    let action = Action::decode(a).ok_or(ActionError::OutOfRange(a as i128))?;
    match action {
        Action::Swap => Ok(Move::Swap),
        Action::Keep => Ok(Move::Keep),
        Action::Place { slot, cell, dir } => {
            let player = game.current_player();
            let rack = game.rack(player);
            let tile = *rack.tiles().get(slot as usize).ok_or(ActionError::EmptySlot {
                action: a,
                slot,
                player: player as u8,
                rack_len: rack.len() as u8,
            })?;
            let other = cell.neighbour(dir as usize).ok_or(ActionError::OffBoard { action: a, cell, dir })?;
            let (first, second) = tile.colors();
            Ok(Move::Place(Placement::new(cell, first, other, second)))
        }
    }
}

/// The actions of one move: at most 6 slots × 2 ways to lay a double.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveActions {
    items: [u16; 12],
    len: u8,
}

impl MoveActions {
    fn push(&mut self, a: usize) {
        self.items[self.len as usize] = a as u16;
        self.len += 1;
    }
}

impl std::ops::Deref for MoveActions {
    type Target = [u16];
    fn deref(&self) -> &[u16] {
        &self.items[..self.len as usize]
    }
}

/// Every action that stands for `mv` in `game`, ascending (empty when the mover holds no
/// such tile or the cells are not neighbours).
pub fn move_actions(game: &Game, mv: &Move) -> MoveActions {
    let mut out = MoveActions::default();
    match *mv {
        Move::Swap => out.push(SWAP_ACTION),
        Move::Keep => out.push(KEEP_ACTION),
        Move::Place(p) => {
            let Some(dir) = p.a.direction_to(p.b) else { return out };
            let tile = p.tile();
            let (first, _) = tile.colors();
            // (cell of the first colour, direction to the second), lower action first.
            let mut ways = [(p.a, dir), (p.b, opposite(dir))];
            ways.sort_by_key(|&(c, d)| c.dense() * DIRS + d);
            for (slot, &t) in game.rack(game.current_player()).tiles().iter().enumerate() {
                if t != tile {
                    continue;
                }
                for &(cell, d) in &ways {
                    let first_here = if cell == p.a { p.ca } else { p.cb };
                    if first_here == first {
                        out.push(placement_action(slot, cell, d));
                    }
                }
            }
        }
    }
    out
}

/// Calls `f` with every legal action of the player to move, each once (placements edge by
/// edge in the order of [`Game::for_each_placement_cells`], slot by slot; then swap / keep).
#[inline]
pub fn for_each_legal_action(game: &Game, mut f: impl FnMut(usize)) {
    let slots = game.rack(game.current_player()).len();
    let mut g = |a: usize| f(a);
    let mut edge = |ia: usize, ib: usize| {
        for slot in 0..slots {
            let base = slot * PLACEMENTS_PER_SLOT;
            g(base + ia);
            g(base + ib);
        }
    };
    let mut extras = [0usize; 2];
    let mut n = 0;
    for_each_legal_edge(game, &mut edge, |a| {
        extras[n] = a;
        n += 1;
    });
    for &a in &extras[..n] {
        g(a);
    }
}

/// The legal actions in compact form. Whether a tile may lie on two cells never depends on
/// its colours, so every edge that takes a legal placement takes every rack tile both ways
/// round: `edge(ia, ib)` is called once per such edge `a < b` with `ia = dense(a) * 6 +
/// dir(a→b)` and `ib = dense(b) * 6 + dir(b→a)`, and the legal placement actions are
/// `slot * PLACEMENTS_PER_SLOT + ia` and `... + ib` for every slot of the rack (for a
/// double, the same placement twice). `other` gets the swap / keep actions that are legal.
#[inline]
pub fn for_each_legal_edge(game: &Game, mut edge: impl FnMut(usize, usize), mut other: impl FnMut(usize)) {
    match game.phase() {
        Phase::Over => {}
        Phase::SwapOffer => {
            other(SWAP_ACTION);
            other(KEEP_ACTION);
        }
        Phase::Place | Phase::Bonus => {
            game.for_each_placement_cells(|a, b| {
                let dir = a.direction_to(b).expect("placement cells are neighbours");
                edge(a.dense() * DIRS + dir, b.dense() * DIRS + opposite(dir));
            });
            if game.instead_swap_available() {
                other(SWAP_ACTION);
            }
        }
    }
}

/// Writes the legal-action mask of the player to move: `mask[a]` is true (1) when action
/// `a` is legal, else false (0). `mask.len()` must be `ACTION_COUNT`.
#[inline]
pub fn legal_action_mask<T: From<bool> + Copy>(game: &Game, mask: &mut [T]) {
    legal_action_mask_with(game, mask, |_, _| {}, |_| {});
}

/// [`legal_action_mask`], also passing the compact form to `edge` and `other` as
/// [`for_each_legal_edge`] does.
///
/// Every slot of the rack takes the same edges, so the first slot's block is written edge
/// by edge and copied to the other slots' blocks.
#[inline]
pub fn legal_action_mask_with<T: From<bool> + Copy>(
    game: &Game,
    mask: &mut [T],
    edge: impl FnMut(usize, usize),
    other: impl FnMut(usize),
) {
    write_mask(game, mask, edge, other);
}

/// [`legal_action_mask`] as a new vector, each entry written once: the first slot's block
/// zeroed and then its edges, copies of it for the rack's other tiles, false for the rest.
/// Zeroing all of it first (a `vec![0; ACTION_COUNT]`) and then copying over most of it
/// wrote five sixths of a full rack's mask twice, a fifth of a PettingZoo step.
pub fn legal_action_mask_vec<T: From<bool> + Copy>(game: &Game) -> Vec<T> {
    let no = T::from(false);
    let mut mask = Vec::with_capacity(ACTION_COUNT);
    mask.resize(PLACEMENTS_PER_SLOT, no);
    let (copies, extras, n_extras) = first_block(game, &mut mask, |_, _| {}, |_| {});
    for _ in 0..copies {
        mask.extend_from_within(..PLACEMENTS_PER_SLOT);
    }
    mask.resize(ACTION_COUNT, no);
    for &a in &extras[..n_extras] {
        mask[a] = T::from(true);
    }
    mask
}

/// [`legal_action_mask_with`]'s work on any `mask` of `ACTION_COUNT` entries.
#[inline]
fn write_mask<T: From<bool> + Copy>(
    game: &Game,
    mask: &mut [T],
    edge: impl FnMut(usize, usize),
    other: impl FnMut(usize),
) {
    assert_eq!(mask.len(), ACTION_COUNT, "a legal-action mask has ACTION_COUNT entries");
    let no = T::from(false);
    let (slot0, rest) = mask.split_at_mut(PLACEMENTS_PER_SLOT);
    slot0.fill(no);
    let (copies, extras, n_extras) = first_block(game, slot0, edge, other);
    // Each byte of the other slots' blocks is written once: a copy of the first block for
    // the slots holding a tile, false for the rest.
    let (copied, cleared) = rest.split_at_mut(copies * PLACEMENTS_PER_SLOT);
    for block in copied.chunks_exact_mut(PLACEMENTS_PER_SLOT) {
        block.copy_from_slice(slot0);
    }
    cleared.fill(no);
    for &a in &extras[..n_extras] {
        mask[a] = T::from(true);
    }
}

/// Marks the legal edges in `slot0` (the first slot's block, all false on entry). Returns
/// how many of the other slots take the same block (the rack's other tiles; none when no
/// placement is legal) and the legal actions other than placements (a swap, a pass).
#[inline]
fn first_block<T: From<bool> + Copy>(
    game: &Game,
    slot0: &mut [T],
    mut edge: impl FnMut(usize, usize),
    mut other: impl FnMut(usize),
) -> (usize, [usize; 2], usize) {
    let yes = T::from(true);
    let slot0 = &mut slot0[..PLACEMENTS_PER_SLOT];
    let mut any_edge = false;
    let mut extras = [0usize; 2];
    let mut n_extras = 0;
    for_each_legal_edge(
        game,
        |ia, ib| {
            slot0[ia] = yes;
            slot0[ib] = yes;
            any_edge = true;
            edge(ia, ib);
        },
        |a| {
            extras[n_extras] = a;
            n_extras += 1;
            other(a);
        },
    );
    let copies = if any_edge { game.rack(game.current_player()).len().saturating_sub(1) } else { 0 };
    (copies, extras, n_extras)
}

/// The legal actions of the player to move, ascending, written into `out` (cleared first).
pub fn legal_actions(game: &Game, out: &mut Vec<u16>) {
    out.clear();
    for_each_legal_action(game, |a| out.push(a as u16));
    out.sort_unstable();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::variants::{Config, SwapTiming, Variant};
    use std::collections::BTreeSet;

    fn configs() -> Vec<Config> {
        Config::all()
    }

    #[test]
    fn layout_constants() {
        assert_eq!(PLACEMENT_ACTIONS, 6084);
        assert_eq!(ACTION_COUNT, 6086);
        for a in [0, 1, 5, 6, 1013, 1014, 6083, SWAP_ACTION, KEEP_ACTION] {
            assert_eq!(Action::decode(a).unwrap().index(), a);
        }
        assert_eq!(Action::decode(ACTION_COUNT), None);
        let c = Cell::new(0, 0).unwrap();
        assert_eq!(Action::decode(placement_action(2, c, 4)), Some(Action::Place { slot: 2, cell: c, dir: 4 }));
    }

    /// On random positions of every configuration: the actions of the legal moves are
    /// exactly the legal actions, each legal action converts to a legal move, and each
    /// move's actions convert back to it.
    #[test]
    #[ignore = "slow (about 2 CPU-s): `make test` runs it, `make test-fast` does not"]
    fn mask_matches_legal_moves_on_random_positions() {
        let mut moves = Vec::new();
        let mut actions = Vec::new();
        let mut mask = vec![0u8; ACTION_COUNT];
        for config in configs() {
            for seed in 0..6 {
                let mut g = Game::new(config, seed);
                let mut rng = Rng::new(seed + 100);
                while !g.is_over() {
                    g.legal_moves(&mut moves);
                    legal_actions(&g, &mut actions);
                    legal_action_mask(&g, &mut mask);
                    assert_eq!(legal_action_mask_vec::<u8>(&g), mask, "the mask as a new vector");
                    let from_moves: BTreeSet<u16> = moves.iter().flat_map(|m| move_actions(&g, m).to_vec()).collect();
                    let listed: BTreeSet<u16> = actions.iter().copied().collect();
                    assert_eq!(listed.len(), actions.len(), "an action listed twice");
                    assert_eq!(from_moves, listed, "{config:?} seed {seed}");
                    assert_eq!(mask.iter().map(|&x| x as usize).sum::<usize>(), actions.len());
                    for &a in &actions {
                        assert_eq!(mask[a as usize], 1);
                        let m = action_to_move(&g, a as usize).unwrap();
                        assert!(g.check(&m).is_ok(), "{m} from action {a}");
                        assert!(move_actions(&g, &m).contains(&a));
                    }
                    for m in &moves {
                        let acts = move_actions(&g, m);
                        assert!(!acts.is_empty(), "{m} has no action");
                        for &a in acts.iter() {
                            assert_eq!(action_to_move(&g, a as usize).unwrap(), *m);
                        }
                    }
                    let i = rng.below(moves.len() as u32) as usize;
                    g.play_unchecked(&moves[i]);
                }
                legal_actions(&g, &mut actions);
                assert!(actions.is_empty());
            }
        }
    }

    #[test]
    fn doubles_and_repeated_tiles_have_several_actions() {
        let config = Config::standard(2).unwrap();
        let g = Game::new(config, 5);
        let rack = g.rack(0).tiles().to_vec();
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        for m in &moves {
            let Move::Place(p) = m else { continue };
            let copies = rack.iter().filter(|&&t| t == p.tile()).count();
            let per_slot = if p.tile().is_double() { 2 } else { 1 };
            assert_eq!(move_actions(&g, m).len(), copies * per_slot);
        }
    }

    #[test]
    fn bad_actions_are_named() {
        let config = Config::standard(2).unwrap();
        let g = Game::new(config, 1);
        assert_eq!(action_to_move(&g, ACTION_COUNT), Err(ActionError::OutOfRange(ACTION_COUNT as i128)));
        // (7,0) direction 0 leads to (8,0), off the board.
        let edge = Cell::new(7, 0).unwrap();
        let a = placement_action(0, edge, 0);
        assert!(matches!(action_to_move(&g, a), Err(ActionError::OffBoard { .. })));
        // Solo: the rack holds one tile, slot 1 is empty.
        let solo = Game::new(Config::new(Variant::Solo, 1, SwapTiming::AfterPlacement, false).unwrap(), 1);
        let a = placement_action(1, Cell::new(0, 0).unwrap(), 0);
        let e = action_to_move(&solo, a).unwrap_err();
        assert!(e.to_string().contains("holds 1 tile"), "{e}");
    }
}

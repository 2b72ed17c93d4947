"""A flat integer action space for learning agents.

Every decision of every variant is one integer in ``range(ACTION_COUNT)`` (6086):

* a **placement** ``a < 6084`` is ``a = (slot * 169 + cell) * 6 + direction``: the tile in
  rack ``slot`` (0..5, the mover's rack in slot order) goes with its *first colour* — the
  lower colour of the `Tile` (red < orange < yellow < green < blue < purple) — on the board
  cell with dense index ``cell`` (0..168, cells ordered by ``r`` then ``q`` over the whole
  board), and its second colour on the neighbour in ``direction`` (0..5 in the order
  ``(+1,0) (+1,-1) (0,-1) (-1,0) (-1,+1) (0,+1)``);
* ``SWAP_ACTION`` (6084) is ``Move.swap()`` and ``KEEP_ACTION`` (6085) is ``Move.keep()``.

One placement can have several actions, all legal at once: a double can be laid from either
of its cells, and identical tiles in two slots each have their own action.
`move_to_actions` lists them all; `move_to_action` gives the lowest.

>>> import genial
>>> from genial.actions import ACTION_COUNT, action_to_move, legal_action_mask, move_to_action
>>> game = genial.Game(players=2, seed=3)
>>> mask = legal_action_mask(game)
>>> mask.shape, mask.dtype
((6086,), dtype('bool'))
>>> a = int(mask.nonzero()[0][0])
>>> move = action_to_move(game, a)
>>> move in game.legal_moves() and move_to_action(game, move) == a
True
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TypeVar, overload

import numpy as np
import numpy.typing as npt

from . import _core
from ._core import IllegalMoveError, Move
from .arguments import as_int
from .game import Game, core_state

__all__ = [
    "ACTION_COUNT",
    "PLACEMENT_ACTIONS",
    "SWAP_ACTION",
    "KEEP_ACTION",
    "CELLS",
    "SLOTS",
    "DIRECTIONS",
    "action_to_move",
    "move_to_action",
    "move_to_actions",
    "legal_action_mask",
    "legal_action_mask_batch",
    "legal_actions",
    "decode_action",
    "encode_placement",
    "cell_index",
    "cell_at",
]

_CONSTANTS = _core.rl_constants()
#: Every decision is one integer in ``range(ACTION_COUNT)`` (6086).
ACTION_COUNT: int = _CONSTANTS[0]
#: Placement actions come first: ``range(PLACEMENT_ACTIONS)`` (6084).
PLACEMENT_ACTIONS: int = _CONSTANTS[1]
#: The action of ``Move.swap()`` (6084).
SWAP_ACTION: int = _CONSTANTS[2]
#: The action of ``Move.keep()`` (6085).
KEEP_ACTION: int = _CONSTANTS[3]
SLOTS = 6
# The neighbour directions and the dense cell order (the whole board by r, then q), from the core.
DIRECTIONS: tuple[tuple[int, int], ...] = tuple(_core.directions())
_CELLS: tuple[tuple[int, int], ...] = tuple(_core.board_cells())
CELLS = len(_CELLS)
_DENSE = {c: i for i, c in enumerate(_CELLS)}

MoveLike = Move | str
MaskArray = TypeVar("MaskArray", npt.NDArray[np.bool_], npt.NDArray[np.int8], npt.NDArray[np.uint8])


def cell_index(cell: tuple[int, int]) -> int:
    """The dense index (0..168) of board cell ``(q, r)``."""
    try:
        q, r = cell
        if isinstance(q, bool) or isinstance(r, bool):
            raise TypeError("a cell's coordinates are ints")
        return _DENSE[(operator.index(q), operator.index(r))]
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"{cell!r} is not a board cell (q, r) within distance 7") from None


def cell_at(index: int) -> tuple[int, int]:
    """The board cell ``(q, r)`` with dense index ``index`` (0..168)."""
    index = as_int("cell index", index)
    if not 0 <= index < CELLS:
        raise ValueError(f"cell index {index} is out of range 0..{CELLS - 1}")
    return _CELLS[index]


def encode_placement(slot: int, cell: tuple[int, int], direction: int) -> int:
    """The action putting rack ``slot``'s first colour on ``cell`` and its second colour on
    the neighbour in ``direction``."""
    slot = as_int("slot", slot)
    direction = as_int("direction", direction)
    if not 0 <= slot < SLOTS:
        raise ValueError(f"slot {slot} is out of range 0..{SLOTS - 1}")
    if not 0 <= direction < 6:
        raise ValueError(f"direction {direction} is out of range 0..5")
    return (slot * CELLS + cell_index(cell)) * 6 + direction


def decode_action(action: int) -> tuple[int, tuple[int, int], int] | str:
    """``(slot, (q, r), direction)`` for a placement action, ``"swap"`` or ``"keep"``.

    Raises `ValueError` when ``action`` is not in ``range(ACTION_COUNT)``."""
    return _core.decode_action(action)


def action_to_move(game: Game, action: int) -> Move:
    """The move ``action`` stands for in ``game``, for the player to move.

    Raises `ValueError` for an action outside ``range(ACTION_COUNT)`` and `IllegalMoveError`
    when it names an empty rack slot or points off the board. Legality is not checked here
    (``game.play`` or `legal_action_mask` say whether the move may be played now)."""
    return _core.action_to_move(core_state(game), action)


def move_to_actions(game: Game, move: MoveLike) -> list[int]:
    """Every action that stands for ``move`` in ``game``, ascending; empty when the player
    to move holds no such tile."""
    return _core.move_to_actions(core_state(game), move)


def move_to_action(game: Game, move: MoveLike) -> int:
    """The lowest action that stands for ``move`` in ``game``.

    Raises `IllegalMoveError` when there is none (the player to move holds no such tile)."""
    actions = _core.move_to_actions(core_state(game), move)
    if not actions:
        raise IllegalMoveError(f"no action stands for {move} here: player {game.current_player} holds no such tile")
    return actions[0]


def legal_actions(game: Game) -> npt.NDArray[np.int64]:
    """The legal actions of the player to move, ascending (empty once the game is over)."""
    return _core.legal_actions(core_state(game))


@overload
def legal_action_mask(game: Game, out: None = None) -> npt.NDArray[np.bool_]: ...
@overload
def legal_action_mask(game: Game, out: MaskArray) -> MaskArray: ...
def legal_action_mask(game: Game, out: MaskArray | None = None) -> MaskArray | npt.NDArray[np.bool_]:
    """The legal-action mask of the player to move: ``mask[a]`` is true when action ``a`` is
    legal (all false once the game is over).

    Returns a new bool array of length `ACTION_COUNT`, or writes into ``out`` (bool, int8 or
    uint8, C-contiguous, that length) and returns it."""
    return _core.legal_action_mask(core_state(game), out)


def legal_action_mask_batch(games: Sequence[Game], out: MaskArray) -> MaskArray:
    """Masks of many games into ``out`` (bool, int8 or uint8, ``(len(games), ACTION_COUNT)``),
    computed in Rust with the GIL released; returns ``out``."""
    _core.legal_action_mask_batch([core_state(g) for g in games], out)
    return out

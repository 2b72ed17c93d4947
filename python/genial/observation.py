"""What one seat may see, as a flat ``float32`` vector for learning agents.

`observe` writes the vector in Rust. It has the same length, `OBS_SIZE`, for every
variant and player count, and every entry lies in ``-1..1`` (only the duel's tracks go
below 0). Seats are listed relative to the observer: row ``k`` is seat
``(observer + k) % players``. Hidden information stays hidden: other racks appear only as
sizes, the bag only as a count, unseen tiles only as counts per kind (which the observer
could work out from the tiles played).

Blocks, in order (`LAYOUT` gives ``name -> (offset, shape)``; `split` cuts a vector or a
batch into named views):

============== ========= =============================================================
block          shape     content
============== ========= =============================================================
board          (10, 169) planes over the dense cells (``genial.actions.cell_at``): 0–5
                         the cell shows colour c (tile half or printed symbol); 6 free
                         cell of the zone; 7 in the playing zone; 8 printed symbol;
                         9 printed symbol that no tile touches yet
rack           (6, 21)   the observer's rack: slot × tile kind (``Tile.kind``) one-hot
tracks         (4, 6)    markers as seat ``observer + k`` sees them ÷ the track's maximum
                         (18; 36 solo and team; 9 duel, −1..1); rows past the players 0
tokens         (2, 6)    duel tokens held by the observer, by the opponent
swap_colors    (6,)      colours the observer's swap rule looks at (its lowest colours;
                         duel: its markers on 9)
unseen         (21,)     tiles of each kind the observer has not seen ÷ that kind's copies
rack_sizes     (4,)      rack size of seat ``observer + k`` ÷ 6
has_placed     (4,)      seat ``observer + k`` has placed its first tile
bag            (1,)      tiles in the bag ÷ 120
phase          (4,)      one-hot: place, bonus, swap_offer, over
pending        (1,)      bonus placements owed after this one, min(n, 4) ÷ 4
to_move        (4,)      one-hot: the seat to move is ``observer + k``
seat           (4,)      one-hot: the observer's seat number
variant        (4,)      one-hot: standard, solo, team, duel
players        (4,)      one-hot: 1, 2, 3, 4 players
options        (R,)      one entry per rule option (R of them), in `genial.Rules.options()`
                         order: the value's place among the option's values, 0 (default)
                         to 1
============== ========= =============================================================

>>> import genial
>>> from genial.observation import OBS_SIZE, observe, split
>>> game = genial.Game(players=2, seed=3)
>>> obs = observe(game, 0)
>>> obs.shape == (OBS_SIZE,), obs.dtype
(True, dtype('float32'))
>>> split(obs)["board"].shape
(10, 169)
>>> int(split(obs)["board"][7].sum())     # 91 cells in the two-player zone
91

For convolutional networks, `to_grid` lays the board block out on the board's own
geometry: a ``(11, 15, 15)`` stack of planes, the axial embedding of the 169 cells (cell
``(q, r)`` at row ``r + 7``, column ``q + 7``, so a cell's six neighbours lie in the 3 x 3
window around it), the ten board planes above and an eleventh, ``outside``, that is 1 on
the 56 squares that are no cell of the board. The rest of the observation (`FEATURES`
entries, the blocks after ``board`` in order) comes back beside it as a vector; `from_grid` puts
the two together again:

>>> from genial.observation import FEATURES, from_grid, to_grid
>>> grid, features = to_grid(obs)
>>> grid.shape, features.shape == (FEATURES,)
((11, 15, 15), True)
>>> bool((from_grid(grid, features) == obs).all())
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from . import _core
from .game import Game, core_state

__all__ = [
    "VERSION",
    "OBS_SIZE",
    "LAYOUT",
    "BOARD_PLANES",
    "observe",
    "observe_batch",
    "split",
    "low_high",
    "GRID_PLANES",
    "GRID_SHAPE",
    "FEATURES",
    "to_grid",
    "from_grid",
    "grid_low_high",
]

#: The version of the layout and meaning of an observation (the core's): a fingerprint of
#: the blocks and the rule options, so it changes with either, such as when a rule option
#: adds an entry to ``options``; compare it for equality only. The learning environments
#: carry it as their ``version``.
VERSION: int = _core.observation_version()
OBS_SIZE: int = _core.rl_constants()[4]
LAYOUT: dict[str, tuple[int, tuple[int, ...]]] = {
    name: (offset, tuple(shape)) for name, offset, shape in _core.observation_layout()
}
BOARD_PLANES = (
    "red",
    "orange",
    "yellow",
    "green",
    "blue",
    "purple",
    "free",
    "zone",
    "symbol",
    "untouched_symbol",
)

FloatArray = npt.NDArray[np.float32]


def observe(game: Game, player: int, out: FloatArray | None = None) -> FloatArray:
    """What seat ``player`` sees of ``game``: a new ``float32`` array of `OBS_SIZE`, or
    written into ``out`` (C-contiguous ``float32`` of that length) and returned."""
    return _core.observe(core_state(game), player, out)


def observe_batch(
    games: Sequence[Game], players: Sequence[int] | npt.NDArray[np.integer], out: FloatArray
) -> FloatArray:
    """Observations of many games into ``out`` (``float32``, ``(len(games), OBS_SIZE)``),
    row ``i`` seen by seat ``players[i]``; Rust, GIL released. Returns ``out``."""
    seats = np.ascontiguousarray(players, dtype=np.int64)
    _core.observe_batch([core_state(g) for g in games], seats, out)
    return out


def split(obs: npt.NDArray[np.floating]) -> dict[str, npt.NDArray[np.floating]]:
    """Named views of an observation (or of a batch, leading axes kept), shaped as in the
    layout table: ``split(obs)["board"]`` is ``(..., 10, 169)``."""
    if obs.shape[-1] != OBS_SIZE:
        raise ValueError(f"an observation has {OBS_SIZE} entries on its last axis, not {obs.shape[-1]}")
    lead = obs.shape[:-1]
    return {
        name: obs[..., offset : offset + int(np.prod(shape))].reshape(*lead, *shape)
        for name, (offset, shape) in LAYOUT.items()
    }


def low_high() -> tuple[FloatArray, FloatArray]:
    """Bounds of every entry, for observation spaces: 0..1, the tracks -1..1."""
    low = np.zeros(OBS_SIZE, dtype=np.float32)
    high = np.ones(OBS_SIZE, dtype=np.float32)
    offset, shape = LAYOUT["tracks"]
    low[offset : offset + int(np.prod(shape))] = -1.0
    return low, high


# ----- the board as a grid ------------------------------------------------------------------

_BOARD_OFFSET, _BOARD_SHAPE = LAYOUT["board"]
_BOARD_SIZE = int(np.prod(_BOARD_SHAPE))
# The features are everything after the board, which the layout puts first.
assert _BOARD_OFFSET == 0, "the board block is the observation's first"
_CELLS = _core.board_cells()  # the dense cell order of the board block's columns
_RADIUS = max(max(abs(q), abs(r), abs(q + r)) for q, r in _CELLS)
_SIDE = 2 * _RADIUS + 1
_ROWS = np.array([r + _RADIUS for _, r in _CELLS], dtype=np.intp)
_COLS = np.array([q + _RADIUS for q, _ in _CELLS], dtype=np.intp)

#: The planes of `to_grid`'s grid: the board block's ten, then ``outside`` (1 on the squares
#: of the 15 x 15 embedding that are no cell of the board).
GRID_PLANES = (*BOARD_PLANES, "outside")
#: ``(planes, rows, columns)`` of one grid.
GRID_SHAPE = (len(GRID_PLANES), _SIDE, _SIDE)
#: Entries of the observation after the board block, returned beside the grid.
FEATURES = OBS_SIZE - _BOARD_SIZE
_OUTSIDE = np.ones((_SIDE, _SIDE), dtype=np.float32)
_OUTSIDE[_ROWS, _COLS] = 0.0


def to_grid(obs: npt.NDArray[np.floating]) -> tuple[npt.NDArray[np.floating], npt.NDArray[np.floating]]:
    """An observation (or a batch: leading axes kept) as ``(grid, features)``: the board
    block on the axial embedding, ``(..., 11, 15, 15)`` (`GRID_PLANES`), and the other
    blocks, ``(..., FEATURES)``, in the layout's order. Both are new arrays of ``obs``'s
    dtype. `from_grid` is the inverse."""
    obs = np.asarray(obs)
    if obs.ndim < 1 or obs.shape[-1] != OBS_SIZE:
        raise ValueError(f"an observation has {OBS_SIZE} entries on its last axis, not shape {obs.shape}")
    lead = obs.shape[:-1]
    grid = np.zeros((*lead, *GRID_SHAPE), dtype=obs.dtype)
    board = obs[..., _BOARD_OFFSET : _BOARD_OFFSET + _BOARD_SIZE].reshape(*lead, *_BOARD_SHAPE)
    grid[..., : _BOARD_SHAPE[0], _ROWS, _COLS] = board
    grid[..., -1, :, :] = _OUTSIDE
    return grid, obs[..., _BOARD_OFFSET + _BOARD_SIZE :].copy()


def from_grid(grid: npt.NDArray[np.floating], features: npt.NDArray[np.floating]) -> npt.NDArray[np.floating]:
    """The observation that `to_grid` split into ``grid`` and ``features`` (leading axes
    kept, the grid's dtype). Only the board's cells are read from the grid."""
    grid, features = np.asarray(grid), np.asarray(features)
    if grid.shape[-3:] != GRID_SHAPE:
        raise ValueError(f"a grid has shape (..., {', '.join(map(str, GRID_SHAPE))}), not {grid.shape}")
    lead = grid.shape[:-3]
    if features.shape != (*lead, FEATURES):
        raise ValueError(
            f"features for grids of shape {grid.shape} have shape {(*lead, FEATURES)}, not {features.shape}"
        )
    board = grid[..., : _BOARD_SHAPE[0], _ROWS, _COLS].reshape(*lead, _BOARD_SIZE)
    return np.concatenate([board, features.astype(grid.dtype, copy=False)], axis=-1)


def grid_low_high() -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Bounds for observation spaces of `to_grid`'s output: the grid's (0..1) and the
    features' (as `low_high`'s)."""
    low, high = low_high()
    start = _BOARD_OFFSET + _BOARD_SIZE
    return (
        np.zeros(GRID_SHAPE, dtype=np.float32),
        np.ones(GRID_SHAPE, dtype=np.float32),
        low[start:],
        high[start:],
    )

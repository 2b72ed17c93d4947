"""What one seat may see, as a flat ``float32`` vector for learning agents.

`observe` writes the vector in Rust. It has the same length, `OBS_SIZE` (1911), for every
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
options        (2,)      one entry per rule option, in `genial.Rules.options()` order: the
                         value's place among the option's values, 0 (default) to 1
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
]

#: The version of the layout and meaning of an observation (the core's): raised whenever
#: either changes, such as when a rule option adds an entry to ``options``. The learning
#: environments carry it as their ``version``.
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

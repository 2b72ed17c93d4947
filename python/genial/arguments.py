"""Arguments checked the same way everywhere, before any work starts.

Ints: anything with ``__index__`` is an int (Python ints, numpy integers), bools and floats
are not; a value out of range is a `ValueError` naming the argument and its limits. The
limits come from the core (`LIMITS`). Runs of many games: thread counts, player counts, and
whether the results can fit in memory at all."""

from __future__ import annotations

import enum
import functools
import operator
import os

from . import _core
from ._core import Rules

__all__ = [
    "type_name",
    "as_int",
    "int_in",
    "LIMITS",
    "check_seed",
    "check_threads",
    "check_players",
    "check_results_fit",
]

LIMITS: dict[str, int] = dict(_core.limits())
"""The limits every count is checked against (``games`` per call, ``threads``, ``envs``,
``iterations``, ``time_ms``, ``width``, ``depth``, ``bots``), from the core."""


def type_name(value: object) -> str:
    """The name of ``value``'s type for a message: ``str``, ``numpy.bool``, ``genial.Color``.
    A type from outside the builtins is named with its package, so that a message never
    reads "must be a bool, not bool"."""
    kind = type(value)
    module = kind.__module__.split(".")[0]
    return kind.__qualname__ if module == "builtins" else f"{module}.{kind.__qualname__}"


def as_int(name: str, value: object) -> int:
    """``value`` as a plain int; `TypeError` naming ``name`` for a bool, an enum member (a
    `genial.Color` is not a count) or a non-integer."""
    if type(value).__name__ in ("bool", "bool_") or isinstance(value, enum.Enum):  # numpy's bool too
        raise TypeError(f"{name} must be an int, not {type_name(value)}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be an int, not {type_name(value)}") from None


def int_in(name: str, value: object, low: int, high: int | None = None) -> int:
    """``value`` as an int in ``low..high`` (no upper limit for ``None``)."""
    v = as_int(name, value)
    if v < low or (high is not None and v > high):
        limits = f">= {low}" if high is None else f"in {low}..{high}"
        raise ValueError(f"{name} must be {limits}, not {v}")
    return v


_SEED_LIMIT = 1 << 64


def check_seed(seed: object) -> int:
    """A seed as an int in 0..2**64-1 (numpy integers too); `TypeError`/`ValueError` naming
    the problem."""
    value = as_int("seed", seed)
    if not 0 <= value < _SEED_LIMIT:
        raise ValueError(f"seed must be in 0..2**64-1, not {value}")
    return value


def check_threads(threads: object) -> int:
    """Threads of a pool (numpy integers too): 1..LIMITS["threads"], or 0 for ``None`` (one
    per core)."""
    if threads is None:
        return 0
    limit = LIMITS["threads"]
    try:
        value = as_int("threads", threads)
    except TypeError:
        raise ValueError(f"threads must be an int in 1..{limit} or None (one per core), not {threads!r}") from None
    if not 1 <= value <= limit:
        raise ValueError(f"threads must be an int in 1..{limit} or None (one per core), not {value}")
    return value


def check_players(players: object) -> int:
    """A player count, checked before anything is built for it."""
    value = as_int("players", players)
    if not 1 <= value <= 4:
        raise ValueError(f"players must be 1 to 4, not {value}")
    return value


def _bytes_per_game(rules: Rules) -> int:
    """Bytes of results per game: the game number and seed, per seat six scores, a rank and
    a bot, per track six markers, five counters and the end code
    (`genial.results.SimulationResult`)."""
    return 16 + rules.players * 8 + rules.track_count * 6 + 5 * 2 + 1


@functools.cache
def _physical_memory() -> int | None:
    """This machine's memory in bytes (asked once per process), or None when not known."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def check_results_fit(games: int, rules: Rules) -> None:
    """`MemoryError` before any game is played when the results cannot fit in this
    machine's memory (rather than after hours of play, or an abort)."""
    total = _physical_memory()
    if total is None:  # not known here: the core's reservation decides
        return
    need = games * _bytes_per_game(rules)
    if need > total:
        raise MemoryError(
            f"the results of {games} games need {need / 2**30:.1f} GiB, more than this machine's "
            f"{total / 2**30:.1f} GiB: split the run into seed ranges with first_game= "
            f"(genial simulate --out FILE does, writing each range as it goes)"
        )

"""Int arguments checked the same way everywhere: anything with ``__index__`` is an int
(Python ints, numpy integers), bools and floats are not; a value out of range is a
`ValueError` naming the argument and its limits."""

from __future__ import annotations

import operator

from . import _core

__all__ = ["as_int", "int_in", "LIMITS"]

LIMITS: dict[str, int] = dict(_core.limits())
"""The limits every count is checked against (``games`` per call, ``threads``, ``envs``,
``iterations``, ``time_ms``, ``width``, ``depth``, ``bots``), from the core."""


def as_int(name: str, value: object) -> int:
    """``value`` as a plain int; `TypeError` naming ``name`` for a bool or a non-integer."""
    if type(value).__name__ in ("bool", "bool_"):  # Python's and numpy's
        raise TypeError(f"{name} must be an int, not bool")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be an int, not {type(value).__name__}") from None


def int_in(name: str, value: object, low: int, high: int | None = None) -> int:
    """``value`` as an int in ``low..high`` (no upper limit for ``None``)."""
    v = as_int(name, value)
    if v < low or (high is not None and v > high):
        limits = f">= {low}" if high is None else f"in {low}..{high}"
        raise ValueError(f"{name} must be {limits}, not {v}")
    return v

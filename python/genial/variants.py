"""The ways the books play, discoverable at run time."""

from __future__ import annotations

from dataclasses import dataclass

from . import _core

__all__ = ["VariantInfo", "variants"]


@dataclass(frozen=True)
class VariantInfo:
    """A variant's name, the player counts it is played with, and its track length."""

    name: str
    player_counts: tuple[int, ...]
    track_max: int
    description: str


_DESCRIPTIONS = {
    "standard": "Base game: a rack of six, a track 0..18 per player, bonus placements at 18.",
    "solo": "One player places the tile just drawn; tracks 0..36 stop at 18 on the way; result is the lowest colour.",
    "team": "Seats 0+2 against 1+3, one track 0..36 per team, bonus placements at 18 and 36.",
    "duel": "Two players pull shared markers -9..+9 toward themselves; duel tokens; most markers on your side wins.",
}


def variants() -> tuple[VariantInfo, ...]:
    """Every variant with its player counts, e.g. ``[v.name for v in variants()]``."""
    return tuple(
        VariantInfo(name, tuple(counts), track_max, _DESCRIPTIONS[name])
        for name, counts, track_max in _core.variant_table()
    )

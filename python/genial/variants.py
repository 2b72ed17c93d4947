"""The ways the books play, discoverable at run time (the facts come from the core)."""

from __future__ import annotations

from dataclasses import dataclass

from . import _core
from ._core import Rules

__all__ = ["Rules", "VariantInfo", "variants", "track_titles"]


@dataclass(frozen=True)
class VariantInfo:
    """A variant's name, the player counts it is played with, and its track length."""

    name: str
    player_counts: tuple[int, ...]
    track_max: int
    description: str


def variants() -> tuple[VariantInfo, ...]:
    """Every variant with its player counts, e.g. ``[v.name for v in variants()]``."""
    out = []
    for name in _core.variant_names():
        rules = Rules(name)
        out.append(VariantInfo(name, tuple(rules.player_counts), rules.track_max, rules.description))
    return tuple(out)


def track_titles(rules: Rules) -> list[str]:
    """A short title for each track of ``rules`` (in the order of `Game.tracks`), built from
    the core's facts: whose track it is, or that it is shared."""
    titles = []
    for t in range(rules.track_count):
        seats = rules.seats_of_track(t)
        if rules.shared_track:
            titles.append(f"shared: seat {seats[-1]} \u2190 0 \u2192 seat {seats[0]}")
        elif rules.scored_alone:
            titles.append("solo")
        elif len(seats) > 1:
            titles.append(f"team {'AB'[t]} (seats {' + '.join(map(str, seats))})")
        else:
            titles.append(f"player {seats[0]}")
    return titles

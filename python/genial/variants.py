"""The ways the books play, discoverable at run time (the facts come from the core)."""

from __future__ import annotations

from dataclasses import dataclass

from . import _core
from ._core import Rules
from .arguments import as_int, type_name
from .translation import tr

__all__ = ["Rules", "VariantInfo", "variants", "track_titles", "as_rules"]


def as_rules(
    rules: Rules | None = None,
    *,
    players: object = None,
    variant: object = "standard",
    swap_timing: object = "after_placement",
    require_contact: object = False,
) -> Rules:
    """The door through which a rule set enters: a `Rules`, or the loose keyword arguments
    that public functions keep for convenience (``players=None``: the variant's own count),
    checked once and made into one `Rules`. Giving both is refused."""
    defaults = (
        variant == "standard" and swap_timing == "after_placement"
        if isinstance(variant, str) and isinstance(swap_timing, str)
        else False
    )
    if isinstance(rules, Rules) and players is None and require_contact is False and defaults:
        return rules  # the common case, checked at once
    if type_name(require_contact) in ("numpy.bool", "numpy.bool_"):
        require_contact = bool(require_contact)  # numpy's bool, as the core's Rules takes it
    if rules is not None:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a genial.Rules, not {type_name(rules)}")
        loose = (
            players is not None,
            variant != "standard",
            swap_timing != "after_placement",
            require_contact is not False,
        )
        if any(loose):
            raise ValueError("give either rules= or players/variant/swap_timing/require_contact, not both")
        return rules
    if not isinstance(variant, str):
        raise TypeError(f"variant must be a str, not {type_name(variant)}")
    if not isinstance(swap_timing, str):
        raise TypeError(f"swap_timing must be a str, not {type_name(swap_timing)}")
    if not isinstance(require_contact, bool):
        raise TypeError(f"require_contact must be a bool, not {type_name(require_contact)}")
    count = None if players is None else as_int("players", players)
    if count is not None and not 1 <= count <= 4:
        raise ValueError(f"players must be 1 to 4, not {count}")
    return Rules(variant, count, swap_timing=swap_timing, require_contact=require_contact)


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
            titles.append(tr("shared: seat {a} \u2190 0 \u2192 seat {b}").format(a=seats[-1], b=seats[0]))
        elif rules.scored_alone:
            titles.append(tr("solo"))
        elif len(seats) > 1:
            titles.append(tr("team {team} (seats {seats})").format(team="AB"[t], seats=" + ".join(map(str, seats))))
        else:
            titles.append(tr("player {seat}").format(seat=seats[0]))
    return titles

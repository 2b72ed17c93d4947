"""Words the page is shown in several payloads: counts, titles, sides and seats' names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .._core import Rules
from ..translation import mark, ntr, tr

if TYPE_CHECKING:
    from .tables import Table

__all__ = ["names_of", "players", "side_label", "variant_title"]


def players(n: int) -> str:
    """``n`` players, in the language in use."""
    return ntr("{n} player", "{n} players", n).format(n=n)


_VARIANT_TITLES = {"standard": mark("Standard"), "solo": mark("Solo"), "team": mark("Team"), "duel": mark("Duel")}


def variant_title(name: str) -> str:
    """A variant's name as a title, in the language in use (a variant not named here: its
    own name, capitalised)."""
    title = _VARIANT_TITLES.get(name)
    return tr(title) if title is not None else name.capitalize()


def side_label(rules: Rules, side: int, names: Sequence[str]) -> str:
    """A side's name: the team and its players where partners rank together, else the seat's name."""
    if rules.sides < rules.players:
        seats = [p for p in range(rules.players) if rules.side_of(p) == side]
        return tr("Team {letter} ({names})").format(letter="AB"[side], names=" & ".join(names[p] for p in seats))
    return names[side]


def names_of(table: Table) -> list[str]:
    """The seats' names, in seat order."""
    return [s["name"] for s in table.seats]

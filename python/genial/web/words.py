"""Words the page is shown in several payloads, in the language in use: counts, titles,
sides, seats' names, colours and a move's gains."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .._core import Rules
from ..colors import Color
from ..translation import current, mark, ntr, tr

if TYPE_CHECKING:
    from .tables import Table

__all__ = ["colour_list", "entry_text", "names_of", "players", "side_label", "tile_label", "variant_title"]


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


def colour_list(colors: Sequence[int]) -> str:
    """Colours' names as a list in words: "red, blue and green"."""
    words = [Color(c).title for c in colors]
    if len(words) == 1:
        return words[0]
    return tr("{list} and {last}").format(list=", ".join(words[:-1]), last=words[-1])


def entry_text(e: dict[str, Any]) -> str:
    """A move of the log in words: its gains, or the swap answered (the log keeps the
    facts, so that each page reads them in its own language)."""
    if "gains" in e:
        return _gains_words(current(), tuple(e["gains"]))
    return tr("swapped the rack") if e.get("swapped") else tr("kept the rack")


@functools.lru_cache(maxsize=4096)
def _gains_words(language: str, gains: tuple[int, ...]) -> str:
    """A move's gains in words, in ``language``: the one in use, passed as the cache's key
    (a log's entries are written anew in every state made, and their words are few)."""
    return ", ".join(f"{Color(c).title} +{g}" for c, g in enumerate(gains) if g) or tr("no points")


@functools.lru_cache(maxsize=256)
def tile_label(language: str, first: int, second: int) -> str:
    """A rack tile's colours in words ("red and blue"), in ``language``: the one in use,
    passed as the cache's key (every state made names the rack's tiles)."""
    return tr("{first} and {second}").format(first=Color(first).title, second=Color(second).title)

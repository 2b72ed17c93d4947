"""How a game ended, in words: why it ended, who won and by what, for the end screen,
the lobby and the replays (`views`, `study`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..colors import Color
from ..game import Game
from ..render import explain_ranking, ranking_step_text
from ..translation import mark, ntr, tr
from .words import names_of, side_label

if TYPE_CHECKING:
    from .tables import Table

__all__ = ["ending", "game_ending", "ranking_groups"]

#: Why a game ends, by the core's end names (`genial.Game.end`).
_END_TEXT = {
    "board_full": mark("no free pair of cells is left"),
    "no_placement": mark("the player to move could not place a tile"),
}


def game_ending(game: Game, names: Sequence[str]) -> dict[str, Any]:
    """The end of a finished game: why it ended, the result or the ranking, and for each
    step down the ranking what decided it (`genial.render.explain_ranking`)."""
    rules = game.rules
    reason = tr(_END_TEXT[game.end]) if game.end in _END_TEXT else game.end or ""
    if game.end == "immediate_win":
        reason = (
            tr("every marker stood on one player's side")
            if rules.shared_track
            else tr("a player reached {max} in every colour").format(max=rules.track_max)
        )
    if rules.scored_alone:
        result = game.lowest_score()
        return {
            "title": tr("Result: {result}").format(result=result),
            "reason": tr("The game ended: {reason}.").format(reason=reason),
            "summary": tr("Your result is {result}: the score of your lowest colour.").format(result=result),
            "ranking": [],
            "steps": [],
        }
    ranking = game.ranking()
    sides = [sorted({rules.side_of(p) for p in group}) for group in ranking]
    places = []
    for place, group in enumerate(sides, start=1):
        label = " = ".join(side_label(rules, s, names) for s in group)
        shared = len(group) > 1
        places.append({"place": place, "label": label, "shared": shared})
    summary = _summary(places[0])
    steps = []
    for step in explain_ranking(game):
        above = sorted({rules.side_of(p) for p in step["above"]})
        below = sorted({rules.side_of(p) for p in step["below"]})
        if above == below:
            continue  # partners of one side
        count = step["count"]
        width = 0 if count else len(Color)
        rows: list[dict[str, Any]] = []
        labels: list[str] = []
        for side, key in ((above, step["rows"][0]), (below, step["rows"][1])):
            values = key[1:] if count else key
            cells = [str(v) for v in values] + ["–"] * (width - len(values))
            if count:
                cells.append(ntr("{n} marker", "{n} markers", key[0]).format(n=key[0]))
            labels.append(" = ".join(side_label(rules, s, names) for s in side))
            rows.append({"label": labels[-1], "cells": cells})
        decided = step["decided_at"]
        column = None
        if decided is not None:
            column = (len(rows[0]["cells"]) - 1 if decided == 0 else decided - 1) if count else decided
        steps.append(
            {
                "caption": tr("Markers on each side, nearest to the middle first")
                if count
                else tr("Scores from the lowest colour up"),
                "rows": rows,
                "decided": column,
                "text": ranking_step_text(step, labels[0], labels[1]),
            }
        )
    return {
        "title": tr("Game over"),
        "reason": tr("The game ended: {reason}.").format(reason=reason),
        "summary": summary,
        "ranking": places,
        "steps": steps,
    }


def _summary(first: dict[str, Any]) -> str:
    if first["shared"]:
        return tr("First place shared: {label}").format(label=first["label"])
    return tr("Winner: {label}").format(label=first["label"])


def _forfeit_ending(table: Table, names: Sequence[str]) -> dict[str, Any]:
    """The end of a game a seat forfeited: the reason, and the ranking with that seat's side
    last (`Table.ranks`)."""
    forfeit = table.forfeit
    assert forfeit is not None
    rules = table.game.rules
    ranks = table.ranks()
    reason = tr("The game ended by forfeit: {reason}.").format(reason=_forfeit_reason(forfeit, names))
    title = tr("Game over")
    if rules.scored_alone:
        return {"title": title, "reason": reason, "summary": tr("The game was lost."), "ranking": [], "steps": []}
    sides: dict[int, list[int]] = {}
    for p, r in enumerate(ranks):
        side = rules.side_of(p)
        if side not in sides.setdefault(r, []):
            sides[r].append(side)
    places = []
    for place, (_, group) in enumerate(sorted(sides.items()), start=1):
        label = " = ".join(side_label(rules, s, names) for s in sorted(group))
        places.append({"place": place, "label": label, "shared": len(group) > 1})
    return {"title": title, "reason": reason, "summary": _summary(places[0]), "ranking": places, "steps": []}


def _forfeit_reason(forfeit: dict[str, Any], names: Sequence[str]) -> str:
    """Why a seat forfeited, in the language in use (a forfeit stored without its ``kind``:
    the English it was stored with)."""
    name = names[forfeit["seat"]]
    if forfeit.get("kind") == "time":
        return tr("{name} ran out of time").format(name=name)
    if forfeit.get("kind") == "engine":  # the engine's own words after the name
        return tr("{name}'s engine {why}").format(name=name, why=tr(str(forfeit.get("why", ""))))
    return str(forfeit["reason"])


def ending(table: Table) -> dict[str, Any]:
    """How a finished game of the server ended: by the rules (`_ending`) or by a forfeit."""
    names = names_of(table)
    return _forfeit_ending(table, names) if table.forfeit is not None else game_ending(table.game, names)


def ranking_groups(ranks: Sequence[int]) -> list[list[int]]:
    """Seats grouped by place, first place first (as `Game.ranking`)."""
    return [[p for p, r in enumerate(ranks) if r == place] for place in sorted(set(ranks))]

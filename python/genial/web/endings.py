"""How a game ended, in words: why it ended, who won and by what, for the end screen,
the lobby and the replays (`views`, `study`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..colors import Color
from ..game import Game
from ..render import explain_ranking, ranking_step_text
from .words import names_of, plural, side_label

if TYPE_CHECKING:
    from .tables import Table

__all__ = ["ending", "game_ending", "ranking_groups"]

#: Why a game ends, by the core's end names (`genial.Game.end`).
_END_TEXT = {
    "board_full": "no free pair of cells is left",
    "no_placement": "the player to move could not place a tile",
}


def game_ending(game: Game, names: Sequence[str]) -> dict[str, Any]:
    """The end of a finished game: why it ended, the result or the ranking, and for each
    step down the ranking what decided it (`genial.render.explain_ranking`)."""
    rules = game.rules
    reason = _END_TEXT.get(game.end or "", game.end or "")
    if game.end == "immediate_win":
        reason = (
            "every marker stood on one player's side"
            if rules.shared_track
            else f"a player reached {rules.track_max} in every colour"
        )
    if rules.scored_alone:
        result = game.lowest_score()
        return {
            "title": f"Result: {result}",
            "reason": f"The game ended: {reason}.",
            "summary": f"Your result is {result}: the score of your lowest colour.",
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
    first = places[0]
    summary = f"First place shared: {first['label']}" if first["shared"] else f"Winner: {first['label']}"
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
                cells.append(plural(key[0], "marker"))
            labels.append(" = ".join(side_label(rules, s, names) for s in side))
            rows.append({"label": labels[-1], "cells": cells})
        decided = step["decided_at"]
        column = None
        if decided is not None:
            column = (len(rows[0]["cells"]) - 1 if decided == 0 else decided - 1) if count else decided
        steps.append(
            {
                "caption": "Markers on each side, nearest to the middle first"
                if count
                else "Scores from the lowest colour up",
                "rows": rows,
                "decided": column,
                "text": ranking_step_text(step, labels[0], labels[1]),
            }
        )
    return {
        "title": "Game over",
        "reason": f"The game ended: {reason}.",
        "summary": summary,
        "ranking": places,
        "steps": steps,
    }


def _forfeit_ending(table: Table, names: Sequence[str]) -> dict[str, Any]:
    """The end of a game a seat forfeited: the reason, and the ranking with that seat's side
    last (`Table.ranks`)."""
    forfeit = table.forfeit
    assert forfeit is not None
    rules = table.game.rules
    ranks = table.ranks()
    reason = f"The game ended by forfeit: {forfeit['reason']}."
    if rules.scored_alone:
        return {"title": "Game over", "reason": reason, "summary": "The game was lost.", "ranking": [], "steps": []}
    sides: dict[int, list[int]] = {}
    for p, r in enumerate(ranks):
        side = rules.side_of(p)
        if side not in sides.setdefault(r, []):
            sides[r].append(side)
    places = []
    for place, (_, group) in enumerate(sorted(sides.items()), start=1):
        label = " = ".join(side_label(rules, s, names) for s in sorted(group))
        places.append({"place": place, "label": label, "shared": len(group) > 1})
    first = places[0]
    summary = f"First place shared: {first['label']}" if first["shared"] else f"Winner: {first['label']}"
    return {"title": "Game over", "reason": reason, "summary": summary, "ranking": places, "steps": []}


def ending(table: Table) -> dict[str, Any]:
    """How a finished game of the server ended: by the rules (`_ending`) or by a forfeit."""
    names = names_of(table)
    return _forfeit_ending(table, names) if table.forfeit is not None else game_ending(table.game, names)


def ranking_groups(ranks: Sequence[int]) -> list[list[int]]:
    """Seats grouped by place, first place first (as `Game.ranking`)."""
    return [[p for p, r in enumerate(ranks) if r == place] for place in sorted(set(ranks))]

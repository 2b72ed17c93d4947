"""Explained scoring: why a placement scores what it does, in the rulebooks' words.

The core computes every number (`Game.explain`); this module only names them. The books
(French edition, translated):

- "Each of its symbols is then adjacent to 5 cells [...] These 5 adjacent cells give the 5
  directions to check to count the points." "Look at each of the 5 directions and check
  the number of symbols identical and adjacent to yours, in a straight line and without
  interruption [...] Score 1 point per identical adjacent symbol."
- "The 2nd symbol of a tile is not considered adjacent: you score no point in the
  direction of the tile's 2nd symbol, even if both symbols of your tile are identical."
- "Count separately the points of each of the symbols of your tile (even if it shows 2
  identical symbols)."
- "Each time one of your markers reaches column 18 of its track, shout: 'Ingenious!' You
  automatically get a bonus turn and must immediately choose one of your tiles, place it
  on the board and count the points it brings you. This can bring further bonus turns."
- On 18 the marker "stays there until the end of the game, the points in excess being
  lost."

>>> import genial
>>> game = genial.Game(players=2, seed=4)
>>> e = game.explain(game.legal_moves()[0])
>>> sum(h.points for h in e.halves) == sum(game.previews()[0].points)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .colors import Color
from .geometry import DIRECTION_NAMES
from .translation import mark, ntr, tr

__all__ = ["RULEBOOK", "HalfScore", "MarkerMove", "ScoreExplanation"]

#: The rulebooks' sentences (French edition, translated) behind each part of a placement's
#: score, as `ScoreExplanation.rules` quotes them.
RULEBOOK = {
    "count": mark(
        "Look at each of the 5 directions and check the number of symbols identical and adjacent "
        "to yours, in a straight line and without interruption. Score 1 point per identical adjacent symbol."
    ),
    "halves": mark(
        "Count separately the points of each of the symbols of your tile (even if it shows 2 identical "
        "symbols). The 2nd symbol of a tile is not considered adjacent: you score no point in the direction "
        "of the tile's 2nd symbol."
    ),
    "cap": mark("The marker stays on 18 until the end of the game, the points in excess being lost."),
    "bonus": mark(
        'Each time one of your markers reaches column 18 of its track, shout: "Ingenious!" You get a bonus '
        "turn and must immediately place one of your tiles and count its points. This can bring further "
        "bonus turns."
    ),
}

Cell = tuple[int, int]


@dataclass(frozen=True)
class HalfScore:
    """One half of a placement and the lines it counts."""

    cell: Cell
    color: Color
    #: The direction (index into `genial.actions.DIRECTIONS`) of the tile's other half,
    #: which is never counted.
    toward_other: int
    #: Per direction, the unbroken line of the half's colour starting with the neighbour.
    lines: tuple[int, ...]
    #: Per direction, the cells of that line.
    line_cells: tuple[tuple[Cell, ...], ...]
    #: The sum of the lines.
    points: int

    def counted(self) -> list[tuple[int, int]]:
        """``(direction, length)`` of the five directions counted (all but the one toward
        the other half), including the empty ones."""
        return [(d, n) for d, n in enumerate(self.lines) if d != self.toward_other]


@dataclass(frozen=True)
class MarkerMove:
    """How one half moved its colour's marker, as the mover sees the track."""

    half: int
    color: Color
    points: int
    start: int
    end: int
    #: Where the marker stops on this half (18; 36 on the double-length tracks after 18;
    #: the duel's 9).
    cap: int
    #: Points beyond the cap, lost.
    lost: int
    #: Bonus placements ("Ingenious!") this half earned.
    bonuses: int
    #: Why reaching the cap earned no bonus: ``"no_bonus_in_variant"`` (solo),
    #: ``"token_held"`` (duel: the token already lies in front of the mover), else ``None``.
    no_bonus: str | None

    def describe(self) -> str:
        """The move of the marker in words."""
        if self.points == 0:
            return tr("{color} marker stays on {start} (no point)").format(color=self.color.title, start=self.start)
        text = tr("{color} marker {start} → {end}").format(color=self.color.title, start=self.start, end=self.end)
        if self.lost:
            text += " " + ntr(
                "(stops on {cap}: {n} point lost)", "(stops on {cap}: {n} points lost)", self.lost
            ).format(cap=self.cap, n=self.lost)
        if self.bonuses:
            text += " — " + tr('"Ingenious!": a bonus placement') + (f" ×{self.bonuses}" if self.bonuses > 1 else "")
        elif self.no_bonus == "token_held":
            text += ": " + tr("no bonus, the token already lies in front of you")
        elif self.no_bonus == "no_bonus_in_variant":
            text += ": " + tr("no bonus placement in this game")
        return text


@dataclass(frozen=True)
class ScoreExplanation:
    """Why a placement scores what it does (`Game.explain`): the lines of each half, the
    markers' moves with the cap and the bonus placements, and the mover's markers."""

    player: int
    halves: tuple[HalfScore, HalfScore]
    #: In the order the halves were counted.
    steps: tuple[MarkerMove, MarkerMove]
    bonuses: int
    wins: bool
    scores_before: tuple[int, ...]
    scores_after: tuple[int, ...]

    @property
    def points(self) -> tuple[int, int]:
        """The points of the two halves, as `Preview.points`."""
        return self.halves[0].points, self.halves[1].points

    @classmethod
    def _from_core(cls, row: Any) -> ScoreExplanation:
        player, halves, steps, bonuses, wins, before, after = row
        hs = tuple(
            HalfScore(
                cell=tuple(cell),
                color=Color(color),
                toward_other=int(toward),
                lines=tuple(lines),
                line_cells=tuple(tuple(tuple(c) for c in line) for line in cells),
                points=int(points),
            )
            for cell, color, toward, lines, points, cells in halves
        )
        ms = tuple(
            MarkerMove(
                half=int(h),
                color=Color(c),
                points=int(p),
                start=int(a),
                end=int(b),
                cap=int(cap),
                lost=int(lost),
                bonuses=int(bon),
                no_bonus=why,
            )
            for h, c, p, a, b, cap, lost, bon, why in steps
        )
        return cls(
            player=int(player),
            halves=(hs[0], hs[1]),
            steps=(ms[0], ms[1]),
            bonuses=int(bonuses),
            wins=bool(wins),
            scores_before=tuple(before),
            scores_after=tuple(after),
        )

    def lines_text(self) -> list[str]:
        """One line of text per half: its counted lines and their points."""
        out = []
        for i, h in enumerate(self.halves):
            parts = [f"{tr(DIRECTION_NAMES[d])} {n}" for d, n in h.counted() if n]
            detail = " + ".join(parts) if parts else tr("no line")
            out.append(
                tr("half {half}, {color} at {cell}: {detail} = {points}").format(
                    half=i + 1, color=h.color.title, cell=h.cell, detail=detail, points=h.points
                )
            )
        return out

    def rules(self) -> list[str]:
        """The rulebooks' sentences (`RULEBOOK`) this placement's score rests on: the count
        and the halves always; the cap and the bonus when they apply."""
        out = [tr(RULEBOOK["count"]), tr(RULEBOOK["halves"])]
        if any(s.lost for s in self.steps):
            out.append(tr(RULEBOOK["cap"]))
        if self.bonuses:
            out.append(tr(RULEBOOK["bonus"]))
        return out

    def __str__(self) -> str:
        lines = self.lines_text() + [s.describe() for s in self.steps]
        if self.wins:
            lines.append(tr("every marker at its end: an immediate win"))
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (colours by name)."""
        return {
            "player": self.player,
            "halves": [
                {
                    "cell": list(h.cell),
                    "color": str(h.color),
                    "toward_other": h.toward_other,
                    "lines": list(h.lines),
                    "line_cells": [[list(c) for c in line] for line in h.line_cells],
                    "points": h.points,
                }
                for h in self.halves
            ],
            "steps": [
                {
                    "half": s.half,
                    "color": str(s.color),
                    "points": s.points,
                    "from": s.start,
                    "to": s.end,
                    "cap": s.cap,
                    "lost": s.lost,
                    "bonuses": s.bonuses,
                    "no_bonus": s.no_bonus,
                    "text": s.describe(),
                }
                for s in self.steps
            ],
            "bonuses": self.bonuses,
            "wins": self.wins,
            "scores_before": list(self.scores_before),
            "scores_after": list(self.scores_after),
            "text": str(self),
        }

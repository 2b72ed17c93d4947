"""The moves a person chooses from, best first: one ranking for the terminal's list and
hint (`genial play`) and the browser's placements (`genial serve`).

What each move would do comes from the core (`Game.previews`); which one is best comes
from the expert level's search (`ordered_choices`) or, without a search, from
`rank_choices`: the mover's scores after the move compared as the ranking compares them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ._core import Move, Preview, Tile
from .analysis import analyse
from .colors import Color
from .game import Game
from .translation import tr

__all__ = [
    "Choice",
    "Placements",
    "hint_seed",
    "placement_key",
    "placement_order",
    "rank_choices",
    "ranked_placements",
    "ordered_choices",
]


@dataclass(frozen=True)
class Choice:
    """A legal move with what it would do for the mover (and, for the moves the expert's
    search looked at, its estimated win chance)."""

    move: Move
    gains: dict[Color, int]
    bonuses: int
    key: tuple[Any, ...]
    win: float | None = None
    #: The core's preview of a placement (points of each half, scores after); None for
    #: swap and keep.
    preview: Preview | None = None

    def describe(self) -> str:
        chance = "  " + tr("(win {percent}%)").format(percent=f"{100 * self.win:.0f}") if self.win is not None else ""
        if not self.move.is_placement:
            return f"{self.move}{chance}"
        pts = " ".join(f"{c.letter}+{v}" for c, v in sorted(self.gains.items())) or tr("0 points")
        bonus = "  " + tr("Ingenious!") if self.bonuses else ""
        return f"{self.move!s:<14} {pts}{bonus}{chance}"


def rank_choices(game: Game, tile: Tile | None = None) -> list[Choice]:
    """Every legal move (with ``tile``: that tile's placements only), best first for the
    player to move.

    Best means: the mover's scores after the move, lowest first, compared as the ranking
    does (an immediate win first of all); then bonus placements earned; then raw points;
    then the move's text, so the order is fully determined. Swap and keep come after the
    placements, in the rules' order.
    """
    previews = game.previews(tile)
    choices = []
    for i in placement_order(previews):
        preview = previews[i]
        move = preview.move
        assert move.colors is not None
        gains: dict[Color, int] = {}
        for c, p in zip(move.colors, preview.points):
            if p:
                gains[c] = gains.get(c, 0) + p
        choices.append(Choice(move, gains, preview.bonuses_earned, placement_key(preview), preview=preview))
    if tile is None:
        for index, move in enumerate(game.legal_moves()):
            if not move.is_placement:
                choices.append(Choice(move, {}, 0, (1, (), 0, 0, f"{index:06d}")))
    return choices


def placement_key(preview: Preview) -> tuple[Any, ...]:
    """The sort key of a placement in `rank_choices`' order (smallest first): an immediate
    win, then the mover's scores after the move, lowest first, compared as the ranking
    does, then bonus placements earned, then raw points, then the move's text."""
    first = 0 if not preview.wins else -1  # an immediate win beats everything
    neg = tuple(sorted([-v for v in preview.scores_after], reverse=True))
    return (first, neg, -preview.bonuses_earned, -sum(preview.points), str(preview.move))


def placement_order(previews: Sequence[Preview]) -> list[int]:
    """The indices of ``previews`` best first: `placement_key`'s order, computed for the
    whole list at once (the browser asks for a tile's few hundred placements on every pick)."""
    order: list[int] = _order(
        [p.wins for p in previews],
        [p.scores_after for p in previews],
        [p.bonuses_earned for p in previews],
        [sum(p.points) for p in previews],
        [str(p.move) for p in previews],
    ).tolist()
    return order


def _order(wins: Any, scores_after: Any, bonuses: Any, points: Any, texts: Sequence[str]) -> npt.NDArray[np.intp]:
    """`placement_key`'s order of columns (sequences or arrays, one entry per placement)."""
    if not texts:
        return np.zeros(0, dtype=np.intp)
    lowest_first = np.sort(np.asarray(scores_after, dtype=np.int64), axis=1)
    # np.lexsort sorts by its last key first: the keys of `placement_key`, reversed.
    keys = [
        np.asarray(texts),
        -np.asarray(points, dtype=np.int64),
        -np.asarray(bonuses, dtype=np.int64),
        *(-lowest_first[:, k] for k in range(lowest_first.shape[1] - 1, -1, -1)),
        -np.asarray(wins, dtype=np.int64),
    ]
    return np.lexsort(keys)


@dataclass(frozen=True)
class Placements:
    """The placements of the player to move (`ranked_placements`) as columns, best first:
    the moves' texts, their cells and colours (``move.cells`` / ``move.colors`` order),
    the points of each half, the bonus placements each earns and whether it wins at once."""

    moves: list[str]
    cells: np.ndarray  # (n, 2, 2) int: q, r of each half
    colors: np.ndarray  # (n, 2) int
    points: np.ndarray  # (n, 2) int
    bonuses: np.ndarray  # (n,) int
    wins: np.ndarray  # (n,) bool


def ranked_placements(game: Game, tile: Tile | None = None) -> Placements:
    """`rank_choices`' placements (of ``tile`` only, if given) as columns, best first, from
    the core's `Game.preview_table`: what the browser's placements list is built from."""
    texts, rows = game.preview_table(tile)
    order = _order(rows[:, 9], rows[:, 10:], rows[:, 8], rows[:, 6] + rows[:, 7], texts)
    rows = rows[order]
    return Placements(
        moves=[texts[i] for i in order.tolist()],
        cells=rows[:, 0:4].reshape(-1, 2, 2),
        colors=rows[:, 4:6],
        points=rows[:, 6:8],
        bonuses=rows[:, 8],
        wins=rows[:, 9].astype(bool),
    )


def hint_seed(game: Game) -> int:
    """The search seed of a game's hints: its own seed, so that the terminal and the
    browser give the same hint in the same position."""
    return (game.seed or 0) & ((1 << 64) - 1)


def ordered_choices(game: Game, seed: int | None = None) -> list[Choice]:
    """The list a human picks from, one ranking for the list and the hint: the moves the
    expert level's search looked at (from the mover's view, hidden racks unread), best
    first with their win chance, then every other move as `rank_choices` orders them.
    The first is the hint. ``seed``: the search's (default `hint_seed`)."""
    if seed is None:
        seed = hint_seed(game)
    choices = rank_choices(game)
    analysis = analyse(game, seed=seed)
    by_move = {c.move: c for c in choices}
    first = [
        dataclasses.replace(by_move[c.move], win=c.win_probability) for c in analysis.candidates if c.move in by_move
    ]
    seen = {c.move for c in first}
    return first + [c for c in choices if c.move not in seen]

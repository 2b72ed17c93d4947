"""The moves a person chooses from, best first: one ranking for the terminal's list and
hint (`genial play`) and the browser's placements (`genial serve`).

What each move would do comes from the core (`Game.previews`); which one is best comes
from the expert level's search (`ordered_choices`) or, without a search, from
`rank_choices`: the mover's scores after the move compared as the ranking compares them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ._core import Move, Preview, Tile
from .analysis import analyse
from .colors import Color
from .game import Game

__all__ = ["Choice", "hint_seed", "rank_choices", "ordered_choices"]


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
        chance = f"  (win {100 * self.win:.0f}%)" if self.win is not None else ""
        if not self.move.is_placement:
            return f"{self.move}{chance}"
        pts = " ".join(f"{c.letter}+{v}" for c, v in sorted(self.gains.items())) or "0 points"
        bonus = "  Ingenious!" if self.bonuses else ""
        return f"{self.move!s:<14} {pts}{bonus}{chance}"


def rank_choices(game: Game, tile: Tile | None = None) -> list[Choice]:
    """Every legal move (with ``tile``: that tile's placements only), best first for the
    player to move.

    Best means: the mover's scores after the move, lowest first, compared as the ranking
    does (an immediate win first of all); then bonus placements earned; then raw points;
    then the move's text, so the order is fully determined. Swap and keep come after the
    placements, in the rules' order.
    """
    choices = []
    for preview in game.previews(tile):
        move = preview.move
        assert move.colors is not None
        gains: dict[Color, int] = {}
        for c, p in zip(move.colors, preview.points):
            if p:
                gains[c] = gains.get(c, 0) + p
        neg = tuple(-v for v in sorted(preview.scores_after))
        first = 0 if not preview.wins else -1  # an immediate win beats everything
        key = (first, neg, -preview.bonuses_earned, -sum(preview.points), str(move))
        choices.append(Choice(move, gains, preview.bonuses_earned, key, preview=preview))
    if tile is None:
        for index, move in enumerate(game.legal_moves()):
            if not move.is_placement:
                choices.append(Choice(move, {}, 0, (1, (), 0, 0, f"{index:06d}")))
    choices.sort(key=lambda c: c.key)
    return choices


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

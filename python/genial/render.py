"""Text rendering of boards and games (plain or with ANSI colours)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._core import Board
from .colors import Color

if TYPE_CHECKING:
    from .game import Game

__all__ = ["board_text", "text"]

_ANSI = {
    Color.RED: "\x1b[31m",
    Color.ORANGE: "\x1b[38;5;208m",
    Color.YELLOW: "\x1b[33m",
    Color.GREEN: "\x1b[32m",
    Color.BLUE: "\x1b[34m",
    Color.PURPLE: "\x1b[35m",
}
_RESET = "\x1b[0m"


def board_text(board: Board, *, color: bool = False) -> str:
    """The zone as a hexagon of characters, one row per ``r``.

    ``.`` free cell, a capital letter (R O Y G B P) a tile half, a lowercase letter a
    printed symbol.
    """
    radius = board.radius
    occupied = board.occupied()
    symbols = {cell for cell, _ in Board.symbols()}
    lines = []
    for r in range(-radius, radius + 1):
        q_lo, q_hi = max(-radius, -radius - r), min(radius, radius - r)
        chars = []
        for q in range(q_lo, q_hi + 1):
            c = occupied.get((q, r))
            if c is None:
                chars.append(".")
                continue
            ch = Color(c).letter.lower() if (q, r) in symbols else Color(c).letter
            chars.append(f"{_ANSI[Color(c)]}{ch}{_RESET}" if color else ch)
        # Axial x = 2q + r; shift so the widest row starts at column 0.
        lines.append(" " * (2 * q_lo + r + 2 * radius) + " ".join(chars))
    return "\n".join(lines)


def _scores_line(game: Game, track: tuple[int, ...]) -> str:
    return " ".join(f"{Color(i).letter}{v:>3}" for i, v in enumerate(track))


def text(game: Game, *, color: bool = False) -> str:
    """Board, tracks, the rack of the player to move, and the game's state."""
    out = [board_text(game.board, color=color), ""]
    names = {
        "standard": [f"player {p}" for p in range(game.players)],
        "team": ["team A (0+2)", "team B (1+3)"],
        "duel": ["duel (+ toward 0)"],
        "solo": ["solo"],
    }[game.variant]
    for name, track in zip(names, game.tracks):
        out.append(f"{name:>18}: {_scores_line(game, track)}")
    if game.variant == "duel":
        tokens = " ".join(f"{Color(i).letter}:{'-' if s is None else s}" for i, s in enumerate(game.duel_tokens))
        out.append(f"{'tokens':>18}: {tokens}")
    if game.is_over:
        ranking = " > ".join("=".join(str(p) for p in group) for group in game.ranking())
        out.append(f"game over ({game.end}); ranking {ranking}")
    else:
        rack = " ".join(str(t) for t in game.rack())
        out.append(f"player {game.current_player} to {game.phase.replace('_', ' ')}; rack {rack}; bag {game.bag_size}")
    return "\n".join(out)

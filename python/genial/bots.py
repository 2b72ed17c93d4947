"""Players: the built-in Rust bots and the protocol any Python bot follows.

A bot is any object with ``choose(game) -> Move`` (or the move's text). Built-in bots run in
Rust with the GIL released and see only what their seat may see.
"""

from __future__ import annotations

from typing import Protocol, Union, runtime_checkable

from . import _core
from ._core import Move
from .game import Game, check_seed

__all__ = ["Bot", "BuiltinBot", "RandomBot", "GreedyBot", "make", "BUILTIN_BOTS"]

BUILTIN_BOTS = ("random", "greedy")


@runtime_checkable
class Bot(Protocol):
    """Anything that can sit at the table: picks a legal move for the seat to move."""

    def choose(self, game: Game) -> Union[Move, str]: ...


class BuiltinBot:
    """A bot implemented in Rust (``random`` or ``greedy``)."""

    __slots__ = ("_bot",)

    def __init__(self, name: str, seed: int = 0) -> None:
        self._bot = _core.BuiltinBot(name, check_seed(seed))

    @property
    def name(self) -> str:
        return self._bot.name

    def choose(self, game: Game) -> Move:
        return self._bot.choose(game._state)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class RandomBot(BuiltinBot):
    """Uniformly random among all legal moves."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__("random", seed)


class GreedyBot(BuiltinBot):
    """One ply: the placement whose resulting scores rank best for the mover (raise the
    lowest colour first); ties broken by bonuses, raw points, then at random."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__("greedy", seed)


def make(name: str, seed: int = 0) -> BuiltinBot:
    """A built-in bot by name (see `BUILTIN_BOTS`)."""
    if name not in BUILTIN_BOTS:
        raise ValueError(f"unknown bot {name!r}: built-in bots are {', '.join(BUILTIN_BOTS)}")
    return BuiltinBot(name, seed)

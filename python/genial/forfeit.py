"""`Forfeit`: a seat lost the game because its player (an engine) failed, and the ranking
such a game gets. Below both `bots` (whose `play_game` raises it) and `engine.host`
(whose engines cause it), so that neither imports the other for it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _core

if TYPE_CHECKING:
    from .game import Game

__all__ = ["Forfeit", "forfeit_ranks"]


class Forfeit(Exception):
    """A seat lost the game by forfeit: its engine hung, crashed, wrote garbage or chose an
    illegal move. `genial.play_game` raises it with ``game`` (the game as it stood) and
    ``seat`` set; tournaments record the game with the forfeiting side ranked last.
    ``reason`` is for the operator (it may name the engine's command and log); ``public``
    says the same for anyone ("did not answer in time")."""

    def __init__(
        self, reason: str, *, seat: int | None = None, game: Game | None = None, public: str | None = None
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.seat = seat
        self.game = game
        # What may be shown to anyone (a web page): the reason without commands or paths.
        self.public = public or "it failed"

    def __str__(self) -> str:
        who = f"seat {self.seat} forfeits: " if self.seat is not None else "forfeit: "
        return who + self.reason


def forfeit_ranks(game: Game, seat: int) -> tuple[int, ...]:
    """The ranking of a game that ``seat`` forfeited: its side (its team in the team game)
    ranks last; the other seats keep their order in the position as it stands (the core's
    rule, the one result rows of forfeited games carry)."""
    return tuple(_core.forfeit_ranks(game._state, seat))

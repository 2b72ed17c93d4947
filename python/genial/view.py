"""`GameView`: what one seat may see of a game, the only thing a bot is handed. It lives
below both the bots (`genial.bots`, which re-exports it) and the engine host
(`genial.engine`, which writes a view as protocol lines), so that neither imports the other
for it.

>>> from genial import Game
>>> view = GameView(Game(players=2, seed=1), seat=0)
>>> view.rack_sizes
(6, 6)
"""

from __future__ import annotations

from ._core import Board, LegalMoves, Move, Rules, Tile
from .game import Game, MoveLike, Phase, check_seed

__all__ = ["GameView", "HiddenInformationError"]


class HiddenInformationError(LookupError):
    """Raised when a `GameView` is asked for what its seat cannot see (another seat's rack,
    the order of the bag)."""


class GameView:
    """What one seat may see of a game: the board, every score and track, its own rack,
    how many tiles the others hold and the bag holds, the moves played, its legal moves.

    Other racks are not merely hidden behind an error: the view holds a copy of the game in
    which everything the seat cannot see has been dealt anew (`Game.determinize`, which
    depends only on what the seat sees), so even poking at private attributes reveals
    nothing. Asking for another seat's rack raises `HiddenInformationError`.

    >>> game = Game(players=2, seed=1)
    >>> view = GameView(game, seat=0)
    >>> view.rack() == game.rack(0), view.rack_sizes, view.bag_size
    (True, (6, 6), 108)
    >>> view.rack(1)
    Traceback (most recent call last):
    ...
    genial.view.HiddenInformationError: seat 0 cannot see the rack of seat 1: use rack_sizes
    """

    __slots__ = ("_game", "_seat")

    def __init__(self, game: Game, seat: int | None = None) -> None:
        if not isinstance(game, Game):
            raise TypeError(f"a GameView looks at a genial.Game, not {type(game).__name__}")
        seat = game.current_player if seat is None else seat
        game._state.check_seat(seat)
        self._seat = seat
        # Any seed gives a fair copy: the deal depends only on what `seat` sees.
        self._game = game.determinize(seat, len(game._state.history))

    @property
    def seat(self) -> int:
        """The seat this view belongs to."""
        return self._seat

    @property
    def players(self) -> int:
        return self._game.players

    @property
    def variant(self) -> str:
        return self._game.variant

    @property
    def rules(self) -> Rules:
        """The game's whole rule set (public: every seat plays by it)."""
        return self._game.rules

    @property
    def swap_timing(self) -> str:
        return self._game.swap_timing

    @property
    def require_contact(self) -> bool:
        return self._game.require_contact

    @property
    def current_player(self) -> int:
        return self._game.current_player

    @property
    def phase(self) -> Phase:
        """``"place"``, ``"bonus"``, ``"swap_offer"`` or ``"over"``."""
        return self._game.phase

    @property
    def is_over(self) -> bool:
        return self._game.is_over

    @property
    def pending_bonuses(self) -> int:
        return self._game.pending_bonuses

    @property
    def board(self) -> Board:
        return self._game.board

    @property
    def bag_size(self) -> int:
        return self._game.bag_size

    @property
    def scores(self) -> tuple[tuple[int, ...], ...]:
        """Per seat, per colour, as that seat sees its markers (see `Game.scores`)."""
        return self._game.scores

    @property
    def tracks(self) -> tuple[tuple[int, ...], ...]:
        return self._game.tracks

    @property
    def track_max(self) -> int:
        return self._game.track_max

    @property
    def duel_tokens(self) -> tuple[int | None, ...]:
        return self._game.duel_tokens

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move played so far (public: placements, swaps and keeps)."""
        return self._game.moves

    @property
    def movers(self) -> tuple[int, ...]:
        """The seat that played each move of `moves` (public, like the moves)."""
        return tuple(self._game._state.movers)

    @property
    def stats(self) -> dict[str, int]:
        return self._game.stats

    def rack(self, player: int | None = None) -> tuple[Tile, ...]:
        """The viewing seat's tiles; any other seat raises `HiddenInformationError`."""
        if player is not None and player != self._seat:
            self._game._state.check_seat(player)
            raise HiddenInformationError(f"seat {self._seat} cannot see the rack of seat {player}: use rack_sizes")
        return self._game.rack(self._seat)

    @property
    def rack_sizes(self) -> tuple[int, ...]:
        """How many tiles each seat holds."""
        return tuple(self._game._state.rack_size(p) for p in range(self.players))

    def has_placed(self, player: int) -> bool:
        return self._game._state.has_placed(player)

    def unseen_tiles(self) -> tuple[Tile, ...]:
        """The tiles this seat cannot see (bag and other racks together), sorted."""
        return self._game.unseen_tiles(self._seat)

    def legal_moves(self) -> LegalMoves:
        """The legal moves of the seat to move (the viewing seat, when it is its turn)."""
        self._own_turn("legal_moves")
        return self._game.legal_moves()

    def legal_move_count(self) -> int:
        self._own_turn("legal_move_count")
        return self._game.legal_move_count()

    def is_legal(self, move: MoveLike) -> bool:
        self._own_turn("is_legal")
        return self._game.is_legal(move)

    def ranks(self) -> tuple[int, ...]:
        return self._game.ranks()

    def determinize(self, seed: int) -> Game:
        """A complete game consistent with this view: what the seat cannot see is dealt
        anew from ``seed``. For search (`Game.clone`, `Game.play` on the copy)."""
        return self._game.determinize(self._seat, check_seed(seed))

    def _own_turn(self, what: str) -> None:
        # Another seat's legal moves would reveal its rack.
        if not self._game.is_over and self._game.current_player != self._seat:
            raise HiddenInformationError(
                f"{what}: seat {self._game.current_player} is to move, and seat {self._seat} cannot see its rack"
            )

    def __repr__(self) -> str:
        return f"<GameView seat={self._seat} of {self._game!r}>"

"""`Game`: a game of Ingenious with turn flow, for play, analysis, bots and records."""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import _core
from ._core import Board, IllegalMoveError, LegalMoves, Move, PlayResult, Preview, Rules, Tile
from .arguments import check_seed
from .colors import Color
from .variants import as_rules

if TYPE_CHECKING:
    from typing import Self

    from .scoring import ScoreExplanation

__all__ = ["Game", "Outcome", "MoveLike", "TileLike", "check_seed"]

MoveLike = Move | str
TileLike = Tile | str | tuple[Color | int | str, Color | int | str]

Sequence.register(LegalMoves)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is the single best seat (in the team game, the lower seat of the winning
    team), or ``None`` for a shared first place. ``ranking`` lists groups of seats, best
    first; tied seats share a group.
    """

    end: str
    winner: int | None
    ranking: tuple[tuple[int, ...], ...]
    scores: tuple[tuple[int, ...], ...]


class Game:
    """A game with turn flow.

    >>> game = Game(players=2, seed=7)
    >>> move = game.legal_moves()[0]
    >>> result = game.play(move)
    >>> result.player, game.current_player in (0, 1)
    (0, True)

    The rules: ``rules=`` one `Rules`, or ``players`` with ``variant``, ``swap_timing`` and
    ``require_contact`` (made into one `Rules` at once). ``players`` defaults to the
    variant's count (2 for standard and duel, 1 for solo, 4 for team). ``bag`` fixes the full draw order (all 120 tiles, first drawn first; the deal gives six
    to each seat in seat order) to replay games from elsewhere; ``seed`` then only drives
    the mixing of swapped tiles back into the bag.

    Games pickle (as their record, replayed on loading), so they can be sent to
    `multiprocessing` workers; a determinized copy has no record and does not pickle.

    Threads: every call on a game runs whole while holding the GIL, so a game shared by
    threads stays consistent, but which thread moves first is up to the scheduler: a move
    read from `legal_moves` may be stale when played, and is then refused with
    `IllegalMoveError`, leaving the game unchanged. Whatever releases the GIL (built-in
    bots, the `genial.actions` and `genial.observation` helpers) copies the position first
    (a few hundred bytes), so other threads may use the game meanwhile. Bots and `VecEnv`s
    are used by one thread at a time: a second thread calling one that is busy gets
    `genial.BusyError` (a `RuntimeError`); reading a bot's settings is always allowed.
    """

    __slots__ = ("__weakref__", "_state")

    _state: _core.GameState

    def __init__(
        self,
        players: int | None = None,
        seed: int | None = None,
        bag: Iterable[TileLike] | None = None,
        *,
        variant: str = "standard",
        swap_timing: str = "after_placement",
        require_contact: bool = False,
        rules: Rules | None = None,
    ) -> None:
        rules = as_rules(
            rules, players=players, variant=variant, swap_timing=swap_timing, require_contact=require_contact
        )
        if seed is None:
            seed = 0 if bag is not None else secrets.randbits(64)
        seed = check_seed(seed)
        if isinstance(bag, (str, bytes)):
            raise TypeError("bag must be a sequence of 120 tiles, not a string")
        self._state = _core.GameState(rules, seed, bag)

    @classmethod
    def _wrap(cls, state: _core.GameState) -> Self:
        game = cls.__new__(cls)
        game._state = state
        return game

    # ----- rules and setup ---------------------------------------------------------------

    @property
    def players(self) -> int:
        return self._state.players

    @property
    def variant(self) -> str:
        return self._state.variant

    @property
    def swap_timing(self) -> str:
        return self._state.swap_timing

    @property
    def require_contact(self) -> bool:
        return self._state.require_contact

    @property
    def rules(self) -> Rules:
        """The rules in force: the variant's facts (tracks, teams, sides, ...) from the core."""
        return self._state.rules

    @property
    def seed(self) -> int | None:
        """The seed (``None`` for a determinized copy)."""
        return self._state.seed

    # ----- the position ---------------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat to move (the last mover once the game is over)."""
        return self._state.current_player

    @property
    def phase(self) -> str:
        """``"place"``, ``"bonus"`` (a bonus placement), ``"swap_offer"`` or ``"over"``."""
        return self._state.phase

    @property
    def is_over(self) -> bool:
        return self._state.is_over

    @property
    def end(self) -> str | None:
        """Why the game ended: ``"board_full"``, ``"no_placement"``, ``"immediate_win"``."""
        return self._state.end

    @property
    def pending_bonuses(self) -> int:
        """Bonus placements still owed after the current one."""
        return self._state.pending_bonuses

    @property
    def board(self) -> Board:
        """A snapshot of the board (changing it does not change the game)."""
        return self._state.board

    @property
    def bag_size(self) -> int:
        return self._state.bag_size

    def rack(self, player: int | None = None) -> tuple[Tile, ...]:
        """The tiles of ``player`` (default: the player to move), in slot order."""
        return tuple(self._state.rack(self.current_player if player is None else player))

    @property
    def scores(self) -> tuple[tuple[int, ...], ...]:
        """Per seat, per colour (index with `Color`), as that seat sees its markers.

        Team partners share one track; in the duel a seat's value is the marker's distance
        toward its own 9 (negative on the opponent's side). See `tracks` for the variant's
        own tracks.
        """
        return tuple(tuple(self._state.score_of(p)) for p in range(self.players))

    @property
    def tracks(self) -> tuple[tuple[int, ...], ...]:
        """The variant's own tracks: per seat (standard), per team (team: A = seats 0+2,
        B = 1+3), one shared signed track (duel, positive toward seat 0) or one (solo)."""
        return tuple(tuple(t) for t in self._state.tracks())

    @property
    def track_max(self) -> int:
        return self._state.track_max

    @property
    def duel_tokens(self) -> tuple[int | None, ...]:
        """Duel: for each colour, the seat holding its token, or ``None`` in the supply."""
        return tuple(self._state.tokens())

    def team_of(self, player: int) -> int:
        """Team game: 0 for seats 0 and 2 (team A), 1 for seats 1 and 3 (team B)."""
        team = self.rules.team_of(player)
        if team is None:
            raise ValueError(f"teams exist only in the team variant, not in {self.variant}")
        return team

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move played so far, in order."""
        return tuple(self._state.history)

    @property
    def stats(self) -> dict[str, int]:
        """Counters: placements, bonus placements, bonuses lost, swaps, turns."""
        names = ("placements", "bonus_placements", "bonuses_lost", "swaps", "turns")
        return dict(zip(names, self._state.stats()))

    # ----- moves -----------------------------------------------------------------------

    def legal_moves(self) -> LegalMoves:
        """The legal moves: a sequence supporting ``len``, indexing, iteration and ``in``.

        Placements first; while a swap is offered, ``[swap, keep]``."""
        return self._state.legal_moves()

    def previews(self, tile: Tile | str | None = None) -> list[Preview]:
        """What each legal placement would do for the player to move -- points of each
        half, bonus placements earned, an immediate win, the mover's scores afterwards --
        computed by the core without playing anything. In the order of `legal_moves`;
        ``tile`` keeps only the placements of that rack tile. Empty while a swap is offered."""
        return self._state.previews(tile)

    def explain(self, move: MoveLike) -> ScoreExplanation:
        """Why a legal placement of the player to move scores what it does, without playing
        it: the line counted from each half in its five directions (away from the other
        half) and the points each gives, how each marker moves, where it stops and the
        points lost, and the bonus placements earned ("Ingenious!"). The same numbers as
        `previews` (one core computation). Raises `IllegalMoveError` for an illegal move and
        `ValueError` for ``swap``/``keep``, which score nothing."""
        from .scoring import ScoreExplanation

        return ScoreExplanation._from_core(self._state.explain(move))

    def legal_move_count(self) -> int:
        return self._state.legal_move_count()

    def is_legal(self, move: MoveLike) -> bool:
        return self._state.is_legal(move)

    def check(self, move: MoveLike) -> None:
        """Raises `IllegalMoveError` saying why ``move`` is not legal now."""
        self._state.check(move)

    def play(self, move: MoveLike) -> PlayResult:
        """Plays a move (a `Move` or its text) and returns what happened.

        Raises `IllegalMoveError` (a `ValueError`) and leaves the game unchanged when the
        move is not legal now."""
        return self._state.play(move)

    def pop(self) -> Move:
        """Takes back the last move and returns it (python-chess style). The game is rebuilt
        from its start, so the position, racks and bag are exactly as before that move."""
        return self._state.pop()

    def peek(self) -> Move | None:
        """The last move played, or ``None``."""
        history = self._state.history
        return history[-1] if history else None

    # ----- results -----------------------------------------------------------------------

    def ranks(self) -> tuple[int, ...]:
        """Rank of each seat now (0 = first; ties share a rank)."""
        return tuple(self._state.ranks())

    def rank_key(self, player: int) -> tuple[int, ...]:
        """What the ranking compares for ``player``, most significant first: the higher key
        wins at its first difference, equal keys share a rank. The six scores lowest first
        (the books' tie-break); in the duel, the number of markers on the seat's side, then
        their distances from 0, lowest first. `explain_ranking` reads it."""
        return tuple(self._state.rank_key(player))

    def ranking(self) -> list[list[int]]:
        """Seats grouped by rank, best first (the books' tie-break: lowest colour first,
        then the next lowest, ...; in the duel, markers on your side first)."""
        ranks = self.ranks()
        return [[p for p in range(self.players) if ranks[p] == r] for r in sorted(set(ranks))]

    @property
    def winner(self) -> int | None:
        """The single best seat once the game is over, else ``None`` (also on a shared
        first place). Team game: the lower seat of the winning team."""
        return self._state.winner

    def result(self, player: int = 0) -> int:
        """The lowest of a seat's six scores: the solo game's result."""
        return self._state.result(player)

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it runs."""
        if not self.is_over:
            return None
        return Outcome(
            end=self.end or "",
            winner=self.winner,
            ranking=tuple(tuple(g) for g in self.ranking()),
            scores=self.scores,
        )

    def returns(self) -> tuple[float, ...]:
        """Per seat: +1 for a (shared) first place, -1 for last, linear between (OpenSpiel
        style), team partners equal; solo: the lowest score / 36. All zeros while the game
        runs. The same numbers `VecEnv` and the environments pay."""
        return tuple(self._state.returns())

    # ----- copies, hidden information, records -------------------------------------------

    def clone(self) -> Game:
        """An independent copy with the same future."""
        return Game._wrap(self._state.clone())

    __copy__ = clone

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.clone()

    def determinize(self, player: int, seed: int) -> Game:
        """A copy in which all that ``player`` cannot see (other racks, the bag's order) is
        dealt anew from ``seed``, keeping every count. For search bots."""
        return Game._wrap(self._state.determinize(player, check_seed(seed)))

    def unseen_tiles(self, player: int) -> tuple[Tile, ...]:
        """The tiles ``player`` cannot see: the bag and the other racks (sorted)."""
        return tuple(self._state.unseen_tiles(player))

    def to_json(self, *, indent: int | None = None) -> str:
        """A versioned JSON record (rules, seed, bag, every move) that `from_json` replays."""
        from .records import to_json

        return to_json(self, indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Replays a record written by `to_json`; raises `RecordError` naming the problem."""
        from .records import from_json

        return from_json(text)

    def __reduce__(self) -> tuple[Any, ...]:
        from .records import from_record, to_record

        return (from_record, (to_record(self),))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._state == other._state

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        from .render import text

        return text(self)

    def to_svg(self, racks: bool | int | Iterable[int] = False, **options: Any) -> str:
        """An SVG picture: board, score tracks and the racks asked for (none by default:
        racks are hidden information). Options as for `genial.svg.game_svg`."""
        from .svg import game_svg

        return game_svg(self, racks, **options)

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def __repr__(self) -> str:
        state = f"over ({self.end})" if self.is_over else f"player {self.current_player} to {self.phase}"
        return f"<Game {self.variant} players={self.players} seed={self.seed} moves={len(self._state.history)} {state}>"


__all__ += ["IllegalMoveError"]

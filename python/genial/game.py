"""`Game`: a game of Ingenious with turn flow, for play, analysis, bots and records."""

from __future__ import annotations

import json
import secrets
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from . import _core
from ._core import Board, IllegalMoveError, LegalMoves, Move, PlayResult, Preview, Rules, Tile
from .arguments import check_seed, int_in, type_name
from .colors import Color
from .variants import as_rules

if TYPE_CHECKING:
    from typing import Self

    import numpy as np
    import numpy.typing as npt

    from .reviews import Review
    from .scoring import ScoreExplanation

__all__ = [
    "Game",
    "Outcome",
    "MoveLike",
    "TileLike",
    "check_seed",
    "core_state",
    "RecordError",
    "to_record",
    "from_record",
    "to_json",
    "from_json",
    "parse_record",
]

MoveLike: TypeAlias = Move | str
TileLike: TypeAlias = Tile | str | tuple[Color | int | str, Color | int | str]

Sequence.register(LegalMoves)


def core_state(game: object) -> _core.GameState:
    """The core's state behind a `Game`, for the modules that hand games to the core
    (`genial.actions`, `genial.observation`, ...); `TypeError` for anything else."""
    if not isinstance(game, Game):
        raise TypeError(f"expected a genial.Game, not {type_name(game)}")
    return game._state


#: The phases of a turn, as `Game.phase` names them (the core's `phase_names()`, checked
#: by tests/test_types.py).
Phase: TypeAlias = Literal["place", "bonus", "swap_offer", "over"]
#: Why a game ended, as `Game.end` names them (the core's `end_names()`).
End: TypeAlias = Literal["board_full", "no_placement", "immediate_win"]


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is the single best seat (in the team game, the lower seat of the winning
    team), or ``None`` for a shared first place. ``ranking`` lists groups of seats, best
    first; tied seats share a group.
    """

    end: End
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

    @property
    def _setup(self) -> tuple[tuple[str, ...], int | None] | None:
        """The placements a game set up by `from_setup` (or `genial.position.read_position`)
        started from, and its seed: what `genial.position.write_position` needs to write it
        again (the core keeps the board's colours, not how its cells were paired into
        tiles). The core's state carries it, so copies keep it at no cost; a determinized
        copy keeps the placements only."""
        setup = self._state.setup
        return None if setup is None else (tuple(setup[0]), setup[1])

    @_setup.setter
    def _setup(self, setup: tuple[Sequence[str], int | None] | None) -> None:
        self._state.setup = None if setup is None else (list(setup[0]), setup[1])

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
    def phase(self) -> Phase:
        """``"place"``, ``"bonus"`` (a bonus placement), ``"swap_offer"`` or ``"over"``."""
        return self._state.phase

    @property
    def is_over(self) -> bool:
        return self._state.is_over

    @property
    def end(self) -> End | None:
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
        """Counters: placements, bonus placements, bonuses lost, swaps, turns (those played,
        the one that ends the game included; docs/simulation.md defines each)."""
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

    def preview_table(self, tile: Tile | str | None = None) -> tuple[list[str], npt.NDArray[np.int64]]:
        """`previews` as columns, for a whole list at once: the moves' texts and one int64
        row per placement, ``qa, ra, qb, rb, colour_a, colour_b, points_a, points_b,
        bonuses, wins`` and the six ``scores_after`` (halves in ``move.cells`` order)."""
        return self._state.preview_table(tile)

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

    def swap_colors(self, player: int | None = None) -> list[Color]:
        """The colours the swap rule looks at for ``player`` (default: the seat to move):
        its lowest colours, or in the duel the colours whose marker stands on its 9. A seat
        may swap when no tile of its rack shows one of them (public: every seat sees the
        tracks)."""
        seat = self.current_player if player is None else player
        return [Color(c) for c in self._state.swap_colors(seat)]

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

    def lowest_score(self, player: int = 0) -> int:
        """The lowest of a seat's six scores: what the ranking looks at first, and the solo
        game's result."""
        return self._state.result(player)

    def result(self, player: int = 0) -> int:
        """Deprecated: `lowest_score` (``result()`` reads like python-chess's result of the
        game, "1-0", which it is not). Kept, with a `DeprecationWarning`, for one release."""
        warnings.warn(
            "Game.result() is renamed Game.lowest_score() (the lowest of a seat's six scores); "
            "result() will be removed in the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.lowest_score(player)

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it runs."""
        if not self.is_over:
            return None
        end = self.end
        assert end is not None  # a game that is over has ended for a reason
        return Outcome(
            end=end,
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
        return to_json(self, indent=indent)

    @classmethod
    def from_setup(
        cls,
        tiles: Iterable[Move | str],
        tracks: Iterable[Iterable[int]],
        seat: int,
        rack: Iterable[Tile | str],
        *,
        players: int | None = None,
        variant: str = "standard",
        swap_timing: str = "after_placement",
        require_contact: bool = False,
        rules: Rules | None = None,
        seed: int = 0,
    ) -> Game:
        """A position set up by hand, to analyse: ``tiles`` (placements such as
        ``"R0,-4+B1,-4"``) on the board, each track's six markers in colour order, the
        ``seat`` to move (it places next) and its ``rack``. The core checks every fact (cells
        on the board and free, tiles not used more often than the game has them, markers on
        their track, a placement left to make) and raises ``ValueError`` naming the first
        that is wrong. The other racks and the bag are dealt from ``seed`` out of the tiles
        nobody listed: the game has no record of its own (`to_record` refuses it).

        >>> import genial
        >>> g = genial.Game.from_setup(["R0,-1+R0,0"], [[1, 0, 0, 0, 0, 0], [0] * 6], 1, ["RB", "GG"], players=2)
        >>> g.current_player, len(g.rack(1)), g.board[(0, 0)]
        (1, 2, <Color.RED: 0>)
        """
        rules = as_rules(
            rules, players=players, variant=variant, swap_timing=swap_timing, require_contact=require_contact
        )
        tiles = list(tiles)
        game = cls._wrap(
            _core.GameState.from_setup(
                rules, tiles, [list(t) for t in tracks], int_in("seat", seat, 0, 3), list(rack), check_seed(seed)
            )
        )
        # The tiles' pairing, for `genial.position.write_position` (the core checked them).
        placed = tuple(str(t if isinstance(t, Move) else Move.parse(t)) for t in tiles)
        game._setup = (placed, seed or None)
        return game

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Replays a record written by `to_json`; raises `RecordError` naming the problem."""
        return from_json(text)

    def __reduce__(self) -> tuple[Any, ...]:
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


# ----- records -----------------------------------------------------------------------------
# A game's record, the JSON form `Game.to_json` writes and `Game.from_json` replays. The
# format is documented in `genial.records`, which also reads record files; the code lives
# here, beside the `Game` it builds, so that neither module needs the other at run time.

FORMAT = "genial.game"
#: Version 2 stores the rule set as its one text form (``"rules"``); version 1 kept each
#: field at the top level, and still reads (a missing option at its default).
VERSION = 2
#: Largest record accepted, in characters: far above any real game (a game has < 200 moves).
MAX_RECORD_CHARS = 1_000_000
MAX_MOVES = 2_000


class RecordError(ValueError):
    """A game record that is malformed, inconsistent or not replayable."""


def to_record(game: Game, *, review: Review | None = None) -> dict[str, Any]:
    """The record of ``game`` as a JSON-ready dict; with ``review`` (of this game's moves),
    its optional ``review`` section."""
    state = game._state
    bag = state.initial_bag
    if bag is None or game.seed is None:
        raise RecordError("a determinized copy has no faithful record: record the original game")
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_text(),
        "seed": game.seed,
        "bag": [str(t) for t in bag],
        "moves": [str(m) for m in state.history],
    }
    result: dict[str, Any] = {"over": game.is_over, "scores": [list(s) for s in game.tracks]}
    if game.is_over:
        result["end"] = game.end
        result["ranking"] = game.ranking()
    record["result"] = result
    if review is not None:
        if tuple(str(m) for m in review.moves) != tuple(str(m) for m in state.history):
            raise RecordError("the review is of other moves than the game's")
        record["review"] = review.to_dict()
    return record


def to_json(game: Game, *, indent: int | None = None) -> str:
    return json.dumps(to_record(game), indent=indent)


def _field(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    if name not in data:
        if default is ...:
            raise RecordError(f"record has no {name!r} field")
        return default
    value = data[name]
    if isinstance(value, bool) and kind is not bool:
        raise RecordError(f"record field {name!r} must be {getattr(kind, '__name__', kind)}, not a bool")
    if not isinstance(value, kind):
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise RecordError(f"record field {name!r} must be {expected}, not {type(value).__name__}")
    return value


def from_record(data: Mapping[str, Any]) -> Game:
    """Replays a record dict; raises `RecordError` naming what is wrong."""
    if not isinstance(data, Mapping):
        raise RecordError(f"a record is a JSON object, not {type(data).__name__}")
    fmt = _field(data, "format", str)
    if fmt != FORMAT:
        raise RecordError(f"record format is {fmt!r}, expected {FORMAT!r}")
    version = _field(data, "version", int)
    if version not in (1, VERSION):
        raise RecordError(f"record version {version} is not supported (this genial reads versions 1 to {VERSION})")
    rules = _record_rules(data, version)
    seed = _field(data, "seed", int)
    bag = _field(data, "bag", list)
    moves = _field(data, "moves", list)
    if len(moves) > MAX_MOVES:
        raise RecordError(f"record lists {len(moves)} moves, more than any game can have")
    for i, t in enumerate(bag):
        if not isinstance(t, str):
            raise RecordError(f"bag item {i} must be a tile text like 'RB', not {type(t).__name__}")
    try:
        game = Game(seed=seed, bag=bag, rules=rules)
    except (ValueError, TypeError, OverflowError) as e:  # OverflowError: an int too large for the core
        raise RecordError(f"record cannot be set up: {e}") from None
    for i, m in enumerate(moves):
        if not isinstance(m, str):
            raise RecordError(f"move {i} must be text like 'R0,-4+B1,-4', not {type(m).__name__}")
        try:
            game.play(m)
        except IllegalMoveError as e:
            raise RecordError(f"move {i} ({m!r}) cannot be played: {e}") from None
    if "result" in data:
        _check_result(data["result"], game)
    return game


def _record_rules(data: Mapping[str, Any], version: int) -> Rules:
    """The record's rule set: version 2's ``rules`` text, read by the core (an unknown option
    is refused: replaying under other rules would give another game), or version 1's
    top-level fields, whatever of them the record has."""
    try:
        if version == 1:  # its fields, each checked as version 1 wrote it
            return Rules.from_dict(
                {
                    "variant": _field(data, "variant", str, "standard"),
                    "players": _field(data, "players", int),
                    "swap_timing": _field(data, "swap_timing", str, "after_placement"),
                    "require_contact": _field(data, "require_contact", bool, False),
                }
            )
        return Rules.from_text(_field(data, "rules", str))
    except ValueError as e:
        if isinstance(e, RecordError):
            raise
        raise RecordError(f"record field 'rules': {e}") from None


def _check_result(stored: Any, game: Game) -> None:
    """Refuses a stored ``result`` that differs from what the replay gives, field by field."""
    if not isinstance(stored, Mapping):
        raise RecordError(f"record field 'result' must be an object, not {type(stored).__name__}")
    replayed = to_record(game)["result"] if game.seed is not None else {}
    for name in ("over", "scores", "end", "ranking"):
        if name not in stored:
            continue
        if name not in replayed:  # end and ranking exist only once the game is over
            raise RecordError(f"record's result gives {name!r}, but the replayed game is not over")
        if stored[name] != replayed[name] or type(stored[name]) is not type(replayed[name]):
            raise RecordError(
                f"record's result {name!r} is {stored[name]!r}, but replaying the moves gives {replayed[name]!r}"
            )


def from_json(text: str | bytes) -> Game:
    """Replays a JSON record; raises `RecordError` naming what is wrong."""
    return from_record(parse_record(text))


def parse_record(text: str | bytes) -> Any:
    """The JSON value of a record's text, checked for size and encoding first; `RecordError`
    for text that is not JSON. `from_record` then checks and replays it."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RecordError(f"record is not UTF-8: {e}") from None
    if not isinstance(text, str):
        raise RecordError(f"a record is JSON text, not {type(text).__name__}")
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(f"record is {len(text)} characters long, more than the {MAX_RECORD_CHARS} accepted")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"record is not valid JSON: {e}") from None
    except RecursionError:
        # json's decoder recurses once per level of nesting; no record nests beyond three.
        raise RecordError("record is not a game record: its JSON is nested too deeply") from None
    except ValueError as e:  # e.g. an integer with more digits than Python converts
        raise RecordError(f"record has an unreadable value: {e}") from None


__all__ += ["IllegalMoveError"]

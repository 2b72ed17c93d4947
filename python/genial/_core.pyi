"""The Rust extension: core types of genial. Use them through `genial`."""

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, ClassVar, TypeVar, final, overload

import numpy as np
import numpy.typing as npt

# The extension's names, as `_core.__all__` lists them (stubtest checks the two agree).
__all__ = [
    "Board",
    "BotOptionError",
    "BuiltinBot",
    "BusyError",
    "GameState",
    "IllegalMoveError",
    "LegalMoves",
    "Move",
    "NotYourTurnError",
    "PlayResult",
    "Preview",
    "REVIEW_NOISE_Z",
    "Rules",
    "Run",
    "Tile",
    "VecEnv",
    "action_to_move",
    "analyse_state",
    "chance_map",
    "board_cells",
    "bot_catalogue",
    "bot_seed",
    "decode_action",
    "derive_seed",
    "directions",
    "end_names",
    "eval_features",
    "eval_weights",
    "evaluate_state",
    "evaluation_weights_info",
    "forfeit_ranks",
    "legal_action_mask",
    "legal_action_mask_batch",
    "legal_actions",
    "limits",
    "move_to_actions",
    "observation_layout",
    "observation_version",
    "observe",
    "observe_batch",
    "observe_with_mask",
    "parse_bot_spec",
    "phase_names",
    "play_action",
    "policy_features",
    "policy_info",
    "policy_logits",
    "policy_shipped_weights",
    "review_decision",
    "rl_constants",
    "search_self_play",
    "self_play_positions",
    "train_evaluation",
    "use_policy_weights",
    "variant_names",
    "win_probabilities",
]

from .colors import Color
from .game import End, Phase

class IllegalMoveError(ValueError):
    """A move that the rules do not allow now; the game is left unchanged."""

class BotOptionError(ValueError):
    """A bot option that the bot does not take, or a value outside the option's bounds."""

class NotYourTurnError(ValueError):
    """A decision asked of a seat that is not to move."""

class BusyError(RuntimeError):
    """An object that one thread at a time may use (a bot, a VecEnv) is in use by another thread."""

@final
class Tile:
    """A two-hex tile: two colours, unordered (``Tile(RED, BLUE) == Tile(BLUE, RED)``)."""

    def __new__(cls, a: Color | int | str, b: Color | int | str) -> Tile: ...
    @staticmethod
    def parse(text: str) -> Tile:
        """Reads ``"RB"``, ``"R/B"`` or ``"red/blue"``."""
    @property
    def colors(self) -> tuple[Color, Color]:
        """The two colours, lower first."""
    @property
    def is_double(self) -> bool:
        """Both halves show the same colour."""
    @property
    def kind(self) -> int:
        """Index 0..21 of the tile's kind."""
    def shows(self, color: Color | int | str) -> bool:
        """One of the tile's halves shows ``color``."""
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __lt__(self, other: Tile, /) -> bool: ...
    def __le__(self, other: Tile, /) -> bool: ...
    def __gt__(self, other: Tile, /) -> bool: ...
    def __ge__(self, other: Tile, /) -> bool: ...
    def __reduce__(self) -> tuple[Any, tuple[str]]: ...

@final
class Move:
    """A move: a placement of a tile on two adjacent cells, ``swap``, or ``keep``.

    Immutable and hashable; ``Move.parse(str(m)) == m``.
    """

    @staticmethod
    def parse(text: str) -> Move:
        """Reads the text form: ``"R0,-4+B1,-4"``, ``"swap"``, ``"keep"``."""
    @staticmethod
    def place(
        cell_a: tuple[int, int], color_a: Color | int | str, cell_b: tuple[int, int], color_b: Color | int | str
    ) -> Move:
        """The placement of ``color_a`` on ``cell_a`` and ``color_b`` on ``cell_b``."""
    @staticmethod
    def swap() -> Move:
        """The move that takes an offered (or, with ``instead_of_placement``, an open) swap."""
    @staticmethod
    def keep() -> Move:
        """The move that declines an offered swap."""
    @property
    def kind(self) -> str:
        """``"place"``, ``"swap"`` or ``"keep"``."""
    @property
    def is_placement(self) -> bool:
        """The move lays a tile (not ``swap`` or ``keep``)."""
    @property
    def cells(self) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """The two cells of a placement (in canonical order), else ``None``."""
    @property
    def colors(self) -> tuple[Color, Color] | None:
        """The colours put on ``cells``, in the same order, else ``None``."""
    @property
    def tile(self) -> Tile | None:
        """The tile a placement uses, else ``None``."""
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __lt__(self, other: Move, /) -> bool: ...
    def __le__(self, other: Move, /) -> bool: ...
    def __gt__(self, other: Move, /) -> bool: ...
    def __ge__(self, other: Move, /) -> bool: ...
    def __reduce__(self) -> tuple[Any, tuple[str]]: ...

@final
class Board:
    """A position without turn flow, for analysis and tests: the zone of a player count with
    its printed symbols; colours can be put on any free cells and placements scored."""

    def __new__(cls, players: int | None = None) -> Board:
        """The empty zone for ``players`` (1–4, default 2) with its printed symbols."""
    @property
    def radius(self) -> int:
        """Zone radius: 5 (1–2 players), 6 (3) or 7 (4)."""
    def place(
        self, cell_a: tuple[int, int], color_a: Color | int | str, cell_b: tuple[int, int], color_b: Color | int | str
    ) -> tuple[int, int]:
        """Puts ``color_a`` on ``cell_a`` and ``color_b`` on ``cell_b`` (two adjacent free cells of the
        zone) and returns the points of each half, ``(points_a, points_b)``."""
    def preview(
        self, cell_a: tuple[int, int], color_a: Color | int | str, cell_b: tuple[int, int], color_b: Color | int | str
    ) -> tuple[int, int]:
        """The points ``place`` would score, without changing the board."""
    def set(self, cell: tuple[int, int], color: Color | int | str) -> None:
        """Puts one colour on one free cell (to build arbitrary positions)."""
    def __getitem__(self, cell: tuple[int, int], /) -> Color | None:
        """The colour at ``cell`` (a tile half or a printed symbol), or ``None`` if it is free.
        Raises ``ValueError`` for a cell outside the zone."""
    def is_free(self, cell: tuple[int, int]) -> bool:
        """The cell is in the zone and holds nothing."""
    def in_zone(self, cell: tuple[int, int]) -> bool:
        """The cell belongs to the playing zone of this board."""
    def cells(self) -> list[tuple[int, int]]:
        """Every cell of the zone, by row."""
    def free_cells(self) -> list[tuple[int, int]]:
        """Every free cell of the zone."""
    def free_pairs(self) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        """Pairs of adjacent free cells."""
    @property
    def free_pair_count(self) -> int:
        """Number of pairs of adjacent free cells (the game ends at 0)."""
    def occupied(self) -> dict[tuple[int, int], Color]:
        """Occupied cells as ``{(q, r): Color}``, printed symbols included."""
    @staticmethod
    def symbols() -> list[tuple[tuple[int, int], Color]]:
        """The printed symbols as ``((q, r), Color)`` pairs."""
    def copy(self) -> Board:
        """An independent copy."""
    def to_svg(self, **options: Any) -> str:
        """An SVG picture of the board; keyword arguments as for `genial.svg.board_svg`."""
    def _repr_svg_(self) -> str: ...
    def __copy__(self) -> Board: ...
    def __deepcopy__(self, memo: Any) -> Board: ...
    def __eq__(self, other: object, /) -> bool: ...

@final
class LegalMoves:
    """The legal moves of a position: a read-only sequence (``len``, indexing, iteration, ``in``).
    Moves are made into Python objects only when read."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int, /) -> Move: ...
    @overload
    def __getitem__(self, index: slice, /) -> list[Move]: ...
    def __contains__(self, mv: object, /) -> bool: ...
    def __iter__(self) -> Iterator[Move]: ...
    def index(self, mv: Move | str) -> int:
        """Position of ``mv`` in the sequence."""
    def count(self, mv: Move | str) -> int:
        """How many times ``mv`` is listed (0 or 1)."""
    def text(self, sep: str = " ") -> str:
        """The moves' text forms in order, joined by ``sep`` (as the engine protocol's
        ``legalmoves`` line lists them): ``sep.join(map(str, moves))`` in one pass."""
    def __eq__(self, other: object, /) -> bool:
        """Equal to another `LegalMoves` of the same moves in the same order."""

@final
class PlayResult:
    """What a move did."""

    @property
    def player(self) -> int:
        """The seat that moved."""
    @property
    def move(self) -> Move:
        """The move played."""
    @property
    def points(self) -> tuple[int, int]:
        """Points of the placement's two halves in ``move.cells`` order, before any cap."""
    @property
    def gains(self) -> list[int]:
        """Raw points per colour (index with `Color`), before any cap."""
    @property
    def bonuses_earned(self) -> int:
        """Bonus placements this placement earned (\"Ingenious!\")."""
    @property
    def was_bonus(self) -> bool:
        """This placement was itself a bonus placement."""
    @property
    def bonuses_lost(self) -> int:
        """Bonus placements lost because they could not be played."""
    @property
    def swapped(self) -> bool:
        """The move took the swap."""
    @property
    def drawn(self) -> int:
        """Tiles the mover drew when the turn ended."""
    @property
    def next_player(self) -> int | None:
        """Whose move it is now (``None`` once the game is over)."""
    @property
    def phase(self) -> Phase:
        """The phase now: ``place``, ``bonus``, ``swap_offer`` or ``over``."""
    @property
    def game_over(self) -> bool:
        """The move ended the game."""
    def gains_by_color(self) -> dict[Color, int]:
        """Raw points per colour as ``{Color: points}``, non-zero only."""

@final
class Preview:
    """What a placement would do for the player to move (`Game.previews`)."""

    @property
    def move(self) -> Move:
        """The placement."""
    @property
    def points(self) -> tuple[int, int]:
        """Points of the two halves in ``move.cells`` order, before any cap."""
    @property
    def bonuses_earned(self) -> int:
        """Bonus placements it would earn."""
    @property
    def wins(self) -> bool:
        """It would win the game at once."""
    @property
    def scores_after(self) -> list[int]:
        """The mover's six markers afterwards, as the mover sees them."""

@final
class GameState:
    """A game with its start and history (the core's record). ``genial.Game`` wraps one."""

    def __new__(cls, rules: Rules, seed: int, bag: Iterable[Any] | None = None) -> GameState: ...
    @property
    def players(self) -> int: ...
    @property
    def variant(self) -> str: ...
    @property
    def swap_timing(self) -> str: ...
    @property
    def require_contact(self) -> bool: ...
    @property
    def seed(self) -> int | None:
        """The seed, or ``None`` for a determinized copy."""
    @property
    def initial_bag(self) -> list[Tile] | None:
        """The initial draw order (120 tiles), or ``None`` for a determinized copy."""
    @property
    def current_player(self) -> int: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def end(self) -> End | None:
        """Why the game ended (``board_full``, ``no_placement``, ``immediate_win``), or ``None``."""
    @property
    def pending_bonuses(self) -> int: ...
    @property
    def bag_size(self) -> int: ...
    @property
    def track_max(self) -> int: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def rules(self) -> Rules:
        """The rules in force."""
    def returns(self) -> list[float]:
        """Per seat: +1 for a (shared) first place, −1 for the last, linear between, partners
        equal; solo: the lowest score ÷ 36. Zeros while the game runs."""
    def swap_colors(self, player: int) -> list[int]:
        """The colours (indices of `Color`) a seat's swap rule looks at: its lowest colours,
        or in the duel its markers on 9."""
    def rank_key(self, player: int) -> list[int]:
        """What the ranking compares for a seat, most significant first (the higher key wins at
        its first difference): the six scores lowest first; in the duel, the number of
        markers on the seat's side, then their distances from 0, lowest first."""
    def result(self, player: int) -> int:
        """The lowest of a seat's scores (the solo game's result)."""
    def previews(self, tile: Tile | str | None = None) -> list[Preview]:
        """What each legal placement of the player to move would score (optionally only those
        of one rack tile), in the order of ``legal_moves()``, without playing any."""
    def preview_table(self, tile: Tile | str | None = None) -> tuple[list[str], npt.NDArray[np.int64]]:
        """``previews()`` as columns: the moves' texts and one int64 row per placement,
        ``qa, ra, qb, rb, colour_a, colour_b, points_a, points_b, bonuses, wins,
        scores_after[0..6]`` (halves in ``move.cells`` order), in the same order."""
    def explain(
        self, mv: Move | str
    ) -> tuple[
        int,
        list[
            tuple[
                tuple[int, int],
                Color,
                int,
                tuple[int, int, int, int, int, int],
                int,
                list[list[tuple[int, int]]],
            ]
        ],
        list[tuple[int, Color, int, int, int, int, int, int, str | None]],
        int,
        bool,
        tuple[int, int, int, int, int, int],
        tuple[int, int, int, int, int, int],
    ]:
        """Why a legal placement of the player to move scores what it does (`Game.explain`)."""
    @property
    def board(self) -> Board: ...
    @property
    def history(self) -> list[Move]: ...
    def check_seat(self, player: object) -> int:
        """The seat number checked against the player count."""
    def rack(self, player: int) -> list[Tile]: ...
    def rack_size(self, player: int) -> int: ...
    def has_placed(self, player: int) -> bool: ...
    def tracks(self) -> list[list[int]]:
        """The variant's own tracks: one per seat (standard), per team (team), one shared
        signed track (duel, positive toward seat 0) or one (solo)."""
    def score_of(self, player: int) -> list[int]:
        """The markers as ``player`` sees them (duel: distance toward that seat's 9)."""
    def tokens(self) -> list[int | None]:
        """Duel tokens: for each colour the seat holding it, or ``None`` in the supply."""
    def ranks(self) -> list[int]: ...
    def stats(self) -> tuple[int, int, int, int, int]:
        """``(placements, bonus_placements, bonuses_lost, swaps, turns)``."""
    def legal_moves(self) -> LegalMoves: ...
    def legal_move_count(self) -> int: ...
    def is_legal(self, mv: object) -> bool: ...
    def check(self, mv: Move | str) -> None:
        """Raises ``IllegalMoveError`` naming why ``mv`` is not legal now."""
    def play(self, mv: Move | str) -> PlayResult: ...
    @property
    def movers(self) -> list[int]:
        """The seat that played each move of the history."""
    def history_len(self) -> int: ...
    def pop(self) -> Move:
        """Takes back the last move (replaying the game from its start) and returns it."""
    def clone(self) -> GameState: ...
    @staticmethod
    def from_public(
        rules: Rules,
        moves: list[tuple[int, Move | str]],
        observer: int,
        rack: list[Tile | str],
        rack_sizes: list[int],
        phase: str,
        pending_bonuses: int,
        seed: int,
    ) -> GameState:
        """The game as ``observer`` sees it, rebuilt from public facts: ``(seat, move)``
        pairs, its own rack, every rack size and the decision it faces; unseen tiles dealt
        from ``seed``. Inconsistent facts raise ``ValueError``."""
    @staticmethod
    def from_setup(
        rules: Rules,
        tiles: list[Move | str],
        tracks: list[list[int]],
        seat: int,
        rack: list[Tile | str],
        seed: int,
    ) -> GameState:
        """A position set up by hand: placements on the board, every track's markers, the
        seat to move and its rack; the other racks and the bag dealt from ``seed``. Bad
        facts raise ``ValueError``."""
    def determinize(self, observer: int, seed: int) -> GameState:
        """A copy in which what ``observer`` cannot see is dealt anew from ``seed``."""
    setup: tuple[list[str], int | None] | None
    """The placements (move text) and seed a set-up game started from (``genial.Game``'s
    ``_setup``), kept by copies; a determinized copy keeps the placements, not the seed."""
    def unseen_tiles(self, observer: int) -> list[Tile]:
        """The tiles ``observer`` cannot see (bag and other racks), sorted."""
    def tile_total(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...

#: An edition option's value as Python sees it: a bool for a flag, else its text.
_RuleValue = str | bool

@final
class Rules:
    """A complete choice of rules: a variant, its player count and the edition options.

    ``variant=None``: standard; ``players=None``: the variant's default (its only or
    smallest player count); each edition option (`Rules.options`) is a keyword, at its
    default when left out. ``str(rules)`` is the rule set's one text form."""

    TEXT_VERSION: ClassVar[int]
    def __new__(cls, variant: str | None = None, players: int | None = None, **options: _RuleValue) -> Rules: ...
    @staticmethod
    def all() -> list[Rules]:
        """Every valid rule set: each variant and player count with each edition option."""
    @staticmethod
    def from_text(text: str) -> Rules:
        """Reads the text form, ``version=1 variant=standard players=2 ...``."""
    def to_text(self) -> str:
        """The one text form, every key written."""
    @staticmethod
    def from_dict(data: object) -> Rules:
        """Reads `to_dict`'s form; a wrong type, unknown key or bad value is a `ValueError`."""
    def to_dict(self) -> dict[str, int | _RuleValue]:
        """``version``, ``variant``, ``players`` and each option, JSON-ready."""
    @staticmethod
    def options() -> list[dict[str, Any]]:
        """The edition options: each ``name``, ``values``, ``default``, ``help``, ``flag``."""
    def option(self, name: str) -> _RuleValue:
        """The value of the edition option ``name``."""
    @property
    def variant(self) -> str:
        """The variant's name: ``standard``, ``solo``, ``team`` or ``duel``."""
    @property
    def players(self) -> int:
        """Number of seats."""
    @property
    def swap_timing(self) -> str:
        """``after_placement`` or ``instead_of_placement``."""
    @property
    def require_contact(self) -> bool:
        """Every tile after a player's first must touch a tile or a printed symbol."""
    @property
    def description(self) -> str:
        """One line on how the variant plays."""
    @property
    def player_counts(self) -> list[int]:
        """The player counts the variant is played with."""
    @property
    def rack_size(self) -> int:
        """Tiles a player holds."""
    @property
    def track_count(self) -> int:
        """Number of tracks: one per seat, per team, or one (solo, and the duel's shared track)."""
    @property
    def track_min(self) -> int:
        """Lowest marker value as stored in `Game.tracks` (−9 on the duel's signed track)."""
    @property
    def track_max(self) -> int:
        """Highest marker value, seen from a track's owner."""
    @property
    def shared_track(self) -> bool:
        """The tracks are one shared tug of war, positive toward seat 0 (the duel)."""
    @property
    def rank_key_counts_markers(self) -> bool:
        """`Game.rank_key` starts with the number of markers on the seat's side (the duel)."""
    @property
    def sides(self) -> int:
        """Competing sides: the two teams of the team game, else the seats."""
    @property
    def has_swap(self) -> bool:
        """The variant has a swap."""
    @property
    def has_bonus(self) -> bool:
        """Reaching a track's goal earns bonus placements."""
    @property
    def scored_alone(self) -> bool:
        """The game's result is one seat's lowest score, not a ranking (the solo game)."""
    def team_of(self, player: int) -> int | None:
        """The team of a seat (0: seats 0 and 2, 1: seats 1 and 3), or `None` outside the team game."""
    def side_of(self, player: int) -> int:
        """The side a seat competes for: its team in the team game, else the seat."""
    def track_of(self, player: int) -> int:
        """The track a seat scores on (an index into `Game.tracks`)."""
    def seats_of_track(self, track: int) -> list[int]:
        """The seats scoring on a track."""
    def __getnewargs_ex__(self) -> tuple[tuple[str, int], dict[str, Any]]:
        """Pickling: the constructor's arguments."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def phase_names() -> list[str]:
    """Names of the phases, in the order of the observation's one-hot block."""

def end_names() -> list[str]:
    """Names of the game's end reasons, by code (`Run.end_names` adds ``"forfeit"``)."""

def variant_names() -> list[str]:
    """The names of the variants, in the core's order."""

def board_cells() -> list[tuple[int, int]]:
    """Every board cell ``(q, r)`` in dense order (by ``r``, then ``q``; the index used by actions
    and observations)."""

def directions() -> list[tuple[int, int]]:
    """The six neighbour directions ``(dq, dr)``, in the engine's order."""

def bot_catalogue() -> list[dict[str, Any]]:
    """Every built-in bot from the core's catalogue: name, description, strength, level,
    searches, and its options (name, kind, default, by_players, min, max, min_open, bounds,
    choices, help)."""

def parse_bot_spec(text: str) -> tuple[str, dict[str, Any]]:
    """A bot's text form ``name:key=value,...`` read by the catalogue: ``(name, options)``."""

@final
class BuiltinBot:
    """A built-in bot running in Rust."""

    def __new__(cls, name: str, seed: int = 0, **options: Any) -> BuiltinBot: ...
    @property
    def name(self) -> str: ...
    @property
    def seed(self) -> int: ...
    def options(self) -> dict[str, Any]:
        """The bot's settings as options that build the same bot, in catalogue order."""
    def last_search(self) -> tuple[int, int, int] | None:
        """``(iterations, nodes, root_children)`` of the last search (``mcts`` only, else ``None``)."""
    def stop(self) -> None:
        """Ends a search running in another thread now: it returns its best move so far."""
    def choose(self, state: GameState, seat: int | None = None) -> Move:
        """The bot's move for the seat to move in ``state`` (searches: stopped by Ctrl-C);
        `NotYourTurnError` when ``seat`` is given and is not to move."""

# ----- analysis and the evaluation (rust/python/analysis.rs) -----

def analyse_state(
    state: GameState,
    seed: int = 0,
    iterations: int | None = None,
    time_ms: int | None = None,
    level_name: str = "expert",
    seat: int | None = None,
) -> tuple[int, list[tuple[Move, int, float, float, list[Move]]]]:
    """The search's view of the decision of the seat to move: ``(iterations, candidates)``,
    candidates ``(move, visits, win_probability, prior, line)`` best first, each
    ``win_probability`` the chance shown for it (the level's chance map, where one was
    measured)."""

def chance_map(level_name: str, rules: Rules) -> tuple[float, float, int] | None:
    """``(a, b, iterations)`` of the map ``σ(a·logit(p) + b·√(iterations / n))`` (a search of
    ``n ≥ iterations`` iterations; ``b`` as it is below) from the search's values to the
    chances shown by a search like ``level_name`` in a game of ``rules``; ``None``: shown as
    they are."""

#: How many standard errors of a review's loss its noise is (`genial.reviews.NOISE_Z`).
REVIEW_NOISE_Z: float

def review_decision(
    state: GameState,
    played: Move | str,
    seed: int = 0,
    iterations: int | None = None,
    level_name: str = "expert",
) -> tuple[list[tuple[Move, int, float, float, list[Move]]], Move, float, float, float, float, list[float], int]:
    """Reviews the decision of the seat to move, who played ``played``, from its view only:
    ``(candidates, best, win_before, win_after, difference, noise, seats_before,
    legal_moves)``: the chance before is the first candidate's (as ``analyse_state`` shows
    it), the chance after is that less ``difference``, the reference's value minus the move
    played's over the same deals (0 for the engine's choice)."""

def eval_features(state: GameState, observer: int) -> npt.NDArray[np.float64]:
    """The evaluation's feature rows of every seat as ``observer`` sees the position."""

def win_probabilities(state: GameState, observer: int) -> list[float]:
    """Each seat's win probability as ``observer`` sees the position."""

def evaluate_state(state: GameState, observer: int) -> list[float]:
    """Each seat's win probability by the learned evaluation, as ``observer`` sees it."""

def evaluation_weights_info() -> tuple[int, int, int]:
    """``(version, FNV-1a 64 checksum, weight count)`` of the shipped learned weights."""

def train_evaluation(
    games: int,
    round: int,
    holdout: int,
    keep: float,
    rate: float,
    lambda_: float,
    seed: int,
    players: list[int],
    threads: int,
    teachers: list[str] = ...,
    start: bytes | None = None,
    values: bool = False,
) -> tuple[bytes, list[tuple[int, int, float]]]:
    """Trains the learned evaluation by self-play (the games of ``teachers``, bot specs; by
    default a mixture of one-ply bots), from zero or from the weight file ``start``: the
    weight file and the learning curve. ``values``: learn each search's root value for the
    mover instead of the game's result (the teachers must search)."""

def eval_weights() -> tuple[list[str], list[list[float]]]:
    """``(feature names, weights for 2, 3, 4 players)`` of the evaluation."""

def search_self_play(
    bot: BuiltinBot,
    seed: int,
    first_game: int,
    games: int,
    extra: int,
    threads: int,
    players: int = 2,
    variant: str = "standard",
) -> dict[str, npt.NDArray[Any]]:
    """Search self-play: per recorded move ``features``, ``decision``, ``visits``; per
    decision ``value``, ``result``, ``game``, ``legal`` (numpy arrays)."""

def policy_features(state: GameState) -> tuple[list[Move], npt.NDArray[np.float32]]:
    """The legal moves of the seat to move and their policy features (moves × PF)."""

def policy_logits(state: GameState) -> npt.NDArray[np.float32]:
    """The active policy's logits of the legal moves of the seat to move."""

def policy_info() -> tuple[list[str], int, int, int]:
    """``(feature names, version, FNV-1a 64 checksum of the shipped files, hidden units of
    the two-player network)``."""

def policy_shipped_weights(players: int = 2) -> bytes:
    """The shipped policy weight file of the network for ``players`` players (ValueError
    where none learned that size)."""

def use_policy_weights(data: bytes | None = None) -> None:
    """Puts a policy weight file in use for this process at the table sizes it learned, the
    shipped networks staying at the others (``None``: the shipped ones everywhere)."""

def self_play_positions(
    players: int,
    bots: list[BuiltinBot],
    seed: int,
    first_game: int,
    games: int,
    keep: float,
    threads: int,
    variant: str = "standard",
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.uint64]]:
    """Self-play positions: ``(features[positions, players, NF], outcome[positions, players],
    game[positions])``."""

# ----- learning agents: flat actions, observations, VecEnv (rust/python/rl.rs) -----

_Mask = TypeVar("_Mask", npt.NDArray[np.bool_], npt.NDArray[np.int8], npt.NDArray[np.uint8])

def rl_constants() -> tuple[int, int, int, int, int]:
    """``(ACTION_COUNT, PLACEMENT_ACTIONS, SWAP_ACTION, KEEP_ACTION, OBS_SIZE)``."""

def observation_layout() -> list[tuple[str, int, list[int]]]:
    """The observation's blocks as ``(name, offset, shape)``, in order."""

def observation_version() -> int:
    """The version of the observation's layout and meaning: a fingerprint that changes with
    either (compare it for equality only)."""

def decode_action(action: int) -> tuple[int, tuple[int, int], int] | str:
    """``(slot, (q, r), direction)`` of a placement action, or ``"swap"`` / ``"keep"``."""

def action_to_move(state: GameState, action: int) -> Move:
    """The move ``action`` stands for in ``state`` (not checked for legality)."""

def move_to_actions(state: GameState, mv: Move | str) -> list[int]:
    """Every action that stands for ``mv`` in ``state``, ascending (empty if the mover holds no
    such tile)."""

def legal_actions(state: GameState) -> npt.NDArray[np.int64]:
    """The legal actions of the seat to move, ascending."""

@overload
def legal_action_mask(state: GameState, out: None = None) -> npt.NDArray[np.bool_]:
    """The legal-action mask of the seat to move: ``mask[a]`` is true when action ``a`` is legal.
    Written into ``out`` (bool, int8 or uint8, length ``ACTION_COUNT``) when given."""

@overload
def legal_action_mask(state: GameState, out: _Mask) -> _Mask: ...
def legal_action_mask_batch(states: Sequence[GameState], out: _Mask) -> None:
    """Legal-action masks of many games into ``out`` (``len(states) × ACTION_COUNT``)."""

def observe(state: GameState, player: int, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
    """What seat ``player`` sees of ``state``, as ``float32[OBS_SIZE]`` (written into ``out`` when given)."""

def observe_batch(states: Sequence[GameState], players: npt.NDArray[np.int64], out: npt.NDArray[np.float32]) -> None:
    """Observations of many games into ``out`` (``float32``, ``len(states) × OBS_SIZE``), row ``i``
    seen by seat ``players[i]``."""

def play_action(state: GameState, action: int) -> int | None:
    """Plays ``action`` in ``state`` (checked first: ``ValueError`` out of range, ``IllegalMoveError``
    when it is not legal now, and then nothing changes). Returns the seat to move next, or
    ``None`` once the game is over."""

def observe_with_mask(state: GameState, player: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
    """What seat ``player`` sees (``float32[OBS_SIZE]``) and its legal-action mask (``int8``,
    all zeros unless ``player`` is to move), in one call: the pair an environment returns."""

@final
class VecEnv:
    """Many games of one configuration stepped together in Rust (wrapped by ``genial.VecEnv``)."""

    def __new__(cls, num_envs: int, rules: Rules, seed: int, threads: int) -> VecEnv: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def variant(self) -> str: ...
    @property
    def threads(self) -> int: ...
    def reset(self, seed: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
        """Restarts every env from ``seed``: ``(observations, masks, players)``."""
    def observe(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
        """The current ``(observations, masks, players)``, changing nothing."""
    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.int64],
    ]:
        """Plays one action per env: ``(observations, masks, rewards, dones, players)``."""
    def move_features(
        self,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The legal moves of every env's seat to move: ``(features[rows, PF], env[rows],
        action[rows])``, for a policy that scores moves."""
    def sample_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per env, from each env's own seeded generator."""
    def state(self, index: int) -> GameState:
        """A snapshot of the game in env ``index`` (no move history)."""
    def episodes(self) -> npt.NDArray[np.uint64]:
        """Games finished by each env since the last reset."""

@final
class Run:
    """A run: rules, built-in bots, seatings and a seed; the one run loop of the core."""

    def __new__(
        cls, rules: Rules, bots: list[BuiltinBot], lineups: list[list[int]], seed: int, paired: bool = False
    ) -> Run: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def seed(self) -> int: ...
    @property
    def paired(self) -> bool: ...
    @property
    def lineups(self) -> list[list[int]]: ...
    def searches(self) -> bool:
        """Whether some bot searches (milliseconds or more a move)."""
    def chunk_size(self, games: int) -> int:
        """How many of ``games`` games to play, hold and write at a time."""
    def deal(self, game: int) -> tuple[int, list[int]]:
        """The deal of game number ``game`` and its seating: ``(seed, lineup)``."""
    def play(
        self, first_game: int, games: int, threads: int, progress: Callable[[int, int], object] | None = None
    ) -> tuple[dict[str, Any], BaseException | None]:
        """Games ``first_game .. first_game + games``: ``(columns, raised)``."""
    def record(
        self, games: list[int], states: list[GameState], forfeits: list[int | None] | None = None
    ) -> dict[str, Any]:
        """The columns of games of this run played elsewhere: each finished, or forfeited by
        the seat ``forfeits[i]`` names (that side ranked last, its end ``"forfeit"``)."""
    @staticmethod
    def columns() -> list[str]:
        """The names of the result columns, in order."""
    @staticmethod
    def end_names() -> list[str]:
        """The names of the ``end`` column's codes: the game's end reasons, then ``"forfeit"``."""

def derive_seed(base: int, index: int) -> int:
    """The seed of game number ``index`` of a run started from ``base`` (independent of threads)."""

def forfeit_ranks(state: GameState, seat: int) -> list[int]:
    """The ranking of ``state`` when ``seat`` forfeits: its side ranks last, the others keep their order."""

def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of a game dealt from ``game_seed``."""

def limits() -> list[tuple[str, int]]:
    """The limits every count is checked against, by name."""

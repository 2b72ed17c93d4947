"""Many games at once: `simulate` plays whole games in Rust over a thread pool (GIL
released) and returns columnar numpy arrays; `Summary` turns them into win rates with
confidence intervals, score distributions and the first player's advantage.

Game ``g`` of a run is dealt from ``derive_seed(seed, g)``: the result is the same for any
number of threads, and a run split into seed ranges (``first_game``) merges back into exactly
the single run (`SimulationResult.concat`), on one machine or many (`genial.distributed`).

>>> import genial
>>> res = genial.simulate(200, players=2, bots=("greedy", "random"), seed=1, threads=1)
>>> res.scores.shape, res.ranks.shape
((200, 2, 6), (200, 2))
>>> res.summary().win_rate[0] > 0.9
True
"""

from __future__ import annotations

import csv
import importlib
import json
import math
import operator
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Union

import numpy as np
import numpy.typing as npt

from . import _core
from ._core import Rules
from ._ints import LIMITS, as_int, int_in
from .bots import BUILTIN_BOTS, BuiltinBot, parse_bot, play_game
from .colors import Color
from .game import Game, check_seed

__all__ = [
    "simulate",
    "SimulationResult",
    "Summary",
    "Rate",
    "ResultWriter",
    "shards",
    "derive_seed",
    "END_NAMES",
    "resolve_bots",
]

END_NAMES: tuple[str, ...] = tuple(_core.end_names())
_COLOR_NAMES = tuple(c.name.lower() for c in Color)
MAX_SHARDS = 65536
_Z95 = 1.959963984540054

BotSpecLike = Union[str, BuiltinBot]


def derive_seed(base: int, index: int) -> int:
    """The seed of game number ``index`` in a run started from ``base``."""
    return _core.derive_seed(check_seed(base), check_seed(index))


def resolve_bots(bots: BotSpecLike | Sequence[BotSpecLike]) -> list[BuiltinBot]:
    """Built-in bots from names, text forms (``"mcts:iterations=100"``) or `BuiltinBot`s."""
    items: Sequence[BotSpecLike] = [bots] if isinstance(bots, (str, BuiltinBot)) else bots
    out = []
    for b in items:
        if isinstance(b, BuiltinBot):
            out.append(b)
        elif isinstance(b, str):
            out.append(parse_bot(b))
        else:
            raise TypeError(
                f"simulate runs built-in bots (names like 'greedy' or BuiltinBot objects), not "
                f"{type(b).__name__}; Python bots play through genial.play_game or genial.tournament"
            )
    return out


def _unique(bots: Sequence[BuiltinBot]) -> tuple[list[BuiltinBot], list[str], list[int]]:
    """Distinct bots by label, and each input's index among them."""
    labels: list[str] = []
    kept: list[BuiltinBot] = []
    index = []
    for b in bots:
        if b.label not in labels:
            labels.append(b.label)
            kept.append(b)
        index.append(labels.index(b.label))
    return kept, labels, index


def _threads(threads: object) -> int:
    """Threads of a pool (numpy integers too): 1..LIMITS["threads"], or 0 for ``None`` (one
    per core)."""
    if threads is None:
        return 0
    limit = LIMITS["threads"]
    try:
        value = as_int("threads", threads)
    except TypeError:
        raise ValueError(f"threads must be an int in 1..{limit} or None (one per core), not {threads!r}") from None
    if not 1 <= value <= limit:
        raise ValueError(f"threads must be an int in 1..{limit} or None (one per core), not {value}")
    return value


def _count(name: str, value: object, minimum: int = 0, maximum: int | None = None) -> int:
    return int_in(name, value, minimum, maximum)


def _players(players: object) -> int:
    """A player count, checked before anything is built for it."""
    value = as_int("players", players)
    if not 1 <= value <= 4:
        raise ValueError(f"players must be 1 to 4, not {value}")
    return value


# Bytes of results per game: seed, per seat six scores, a rank and a bot, per track six
# markers, five counters and the end code (`SimulationResult`).
def _bytes_per_game(players: int, variant: str) -> int:
    tracks = {"standard": players, "team": 2}.get(variant, 1)
    return 8 + players * 8 + tracks * 6 + 5 * 2 + 1


def _check_memory(games: int, players: int, variant: str) -> None:
    """`MemoryError` before any game is played when the results cannot fit in this
    machine's memory (rather than after hours of play, or an abort)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # not known here: the core's reservation decides
        return
    need = games * _bytes_per_game(players, variant)
    if need > total:
        raise MemoryError(
            f"the results of {games} games need {need / 2**30:.1f} GiB, more than this machine's "
            f"{total / 2**30:.1f} GiB: split the run into seed ranges with first_game= "
            f"(genial simulate --out FILE does, writing each range as it goes)"
        )


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """Per-game columns of a run (numpy arrays, one row per game, in game order).

    ``seed`` (uint64), ``scores`` (games × players × 6, int8: each seat's markers as it
    sees them), ``tracks`` (games × tracks × 6: the variant's own tracks), ``ranks`` (games ×
    players, 0 = first, ties share), ``bots`` (games × players: index into ``bot_names``),
    ``placements``, ``bonus_placements``, ``bonuses_lost``, ``swaps``, ``turns`` (uint16),
    ``end`` (uint8 code into `END_NAMES`).
    """

    seed: npt.NDArray[np.uint64]
    scores: npt.NDArray[np.int8]
    tracks: npt.NDArray[np.int8]
    ranks: npt.NDArray[np.uint8]
    bots: npt.NDArray[np.uint8]
    placements: npt.NDArray[np.uint16]
    bonus_placements: npt.NDArray[np.uint16]
    bonuses_lost: npt.NDArray[np.uint16]
    swaps: npt.NDArray[np.uint16]
    turns: npt.NDArray[np.uint16]
    end: npt.NDArray[np.uint8]
    players: int
    variant: str
    swap_timing: str
    require_contact: bool
    bot_names: tuple[str, ...]
    run_seed: int
    first_game: int = 0

    _columns: ClassVar[tuple[str, ...]] = (
        "seed", "scores", "tracks", "ranks", "bots", "placements", "bonus_placements",
        "bonuses_lost", "swaps", "turns", "end",
    )

    def __len__(self) -> int:
        return int(self.seed.shape[0])

    @property
    def games(self) -> int:
        return len(self)

    @property
    def game_index(self) -> npt.NDArray[np.uint64]:
        """The run's game number of each row."""
        return np.arange(self.first_game, self.first_game + len(self), dtype=np.uint64)

    @property
    def rules(self) -> Rules:
        """The rules these games were played by."""
        return Rules(self.variant, self.players, swap_timing=self.swap_timing, require_contact=self.require_contact)

    @property
    def sides(self) -> int:
        """Competing sides: seats, or the two teams of the team game."""
        return self.rules.sides

    def win_credit(self) -> npt.NDArray[np.float64]:
        """Per game and seat, its share of first place: 1 for a sole winner, 1/k when k
        sides share first place (team partners count as one side), else 0. Rows sum to 1
        (to 2 in the team game, where both partners get their team's share)."""
        first = self.ranks == 0
        # Seats sharing first place, counted as sides (partners are one side).
        k = first.sum(axis=1, keepdims=True).astype(np.float64) * self.sides / self.players
        return np.where(first, 1.0 / np.maximum(k, 1.0), 0.0)

    def lowest(self) -> npt.NDArray[np.int8]:
        """Per game and seat, the lowest marker (what the ranking looks at first)."""
        return np.asarray(self.scores.min(axis=2), dtype=np.int8)

    def end_reasons(self) -> npt.NDArray[np.str_]:
        return np.asarray(END_NAMES)[self.end]

    def summary(self) -> Summary:
        return Summary.of(self)

    def column_dict(self) -> dict[str, npt.NDArray[Any]]:
        """Flat columns, one row per game, as files and data frames hold them: ``game, seed,
        end, placements, ..., bot_<s>, place_<s>, score_<s>_<colour>`` (and
        ``track_<t>_<colour>`` for the team and duel games, whose tracks differ from the
        seats' scores). ``place_<s>`` is the seat's place as a person reads it: 1 for
        first, ties sharing (the ``ranks`` array counts from 0)."""
        cols: dict[str, npt.NDArray[Any]] = {
            "game": self.game_index,
            "seed": self.seed,
            "end": self.end_reasons(),
            "placements": self.placements,
            "bonus_placements": self.bonus_placements,
            "bonuses_lost": self.bonuses_lost,
            "swaps": self.swaps,
            "turns": self.turns,
        }
        names = np.asarray(self.bot_names)
        for s in range(self.players):
            cols[f"bot_{s}"] = names[self.bots[:, s]]
            cols[f"place_{s}"] = self.ranks[:, s].astype(np.uint8) + 1
            for c, color in enumerate(_COLOR_NAMES):
                cols[f"score_{s}_{color}"] = self.scores[:, s, c]
        if self.rules.track_count != self.players:  # tracks are not the seats' own
            for t in range(self.tracks.shape[1]):
                for c, color in enumerate(_COLOR_NAMES):
                    cols[f"track_{t}_{color}"] = self.tracks[:, t, c]
        return cols

    def metadata(self) -> dict[str, Any]:
        """What a results file records about its games: the rules, the bots, the run's seed,
        the first game and how many, and the genial version that played them."""
        from . import __version__

        return {
            "format": "genial-results",
            "version": 1,
            "genial_version": __version__,
            "variant": self.variant,
            "players": self.players,
            "swap_timing": self.swap_timing,
            "require_contact": self.require_contact,
            "bots": list(self.bot_names),
            "run_seed": self.run_seed,
            "first_game": self.first_game,
            "games": len(self),
        }

    def game(self, index: int) -> Game:
        """Row ``index`` (negative counts from the end) played again as a full `Game`, with
        its moves, racks and record: ``play_game(bots, seed=result.seed[index])`` with the
        row's bots in their seats. Works for built-in bots that play by iterations; a bot
        on a time budget, or a Python bot of a tournament, cannot be replayed."""
        n = len(self)
        i = operator.index(index)
        if not -n <= i < n:
            raise IndexError(f"game index {index} is out of range for {n} games")
        i %= n
        specs = [_spec_of_label(self.bot_names[b]) for b in self.bots[i]]
        game = play_game(
            specs, self.players, int(self.seed[i]), self.variant,
            swap_timing=self.swap_timing, require_contact=self.require_contact,
        )
        if list(game.ranks()) != self.ranks[i].tolist() or [list(s) for s in game.scores] != self.scores[i].tolist():
            raise ValueError(
                f"game {index} does not replay: its bots ({', '.join(specs)}) do not play the same "
                "moves again (a time budget makes play depend on the machine)"
            )
        return game

    def to_pandas(self) -> Any:
        """A `pandas.DataFrame` of `column_dict` (needs pandas)."""
        try:
            pd = importlib.import_module("pandas")
        except ImportError:
            raise ImportError("to_pandas needs pandas: pip install pandas") from None
        return pd.DataFrame(self.column_dict())

    def to_arrow(self) -> Any:
        """A `pyarrow.Table` of `column_dict` (needs pyarrow)."""
        try:
            pa = importlib.import_module("pyarrow")
        except ImportError:
            raise ImportError("to_arrow needs pyarrow: pip install pyarrow") from None
        return pa.table(self.column_dict())

    def write(self, path: str | os.PathLike[str]) -> None:
        """Writes `column_dict` as Parquet (``.parquet``, needs pyarrow) or CSV (else)."""
        with ResultWriter(path) as w:
            w.write(self)

    @classmethod
    def concat(cls, parts: Sequence[SimulationResult]) -> SimulationResult:
        """Joins consecutive parts of one run (as split by `shards`) into one result."""
        if not parts:
            raise ValueError("concat needs at least one part")
        head = parts[0]
        expected = head.first_game
        for p in parts:
            same = (p.players, p.variant, p.swap_timing, p.require_contact, p.bot_names, p.run_seed)
            if same != (head.players, head.variant, head.swap_timing, head.require_contact, head.bot_names, head.run_seed):
                raise ValueError("concat joins parts of one run: rules, bots and seed must agree")
            if p.first_game != expected:
                raise ValueError(f"parts are not consecutive: expected game {expected}, got {p.first_game}")
            expected += len(p)
        arrays = {name: np.concatenate([getattr(p, name) for p in parts]) for name in head._columns}
        return cls(
            **arrays,
            players=head.players,
            variant=head.variant,
            swap_timing=head.swap_timing,
            require_contact=head.require_contact,
            bot_names=head.bot_names,
            run_seed=head.run_seed,
            first_game=head.first_game,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SimulationResult):
            return NotImplemented
        meta = ("players", "variant", "swap_timing", "require_contact", "bot_names", "run_seed", "first_game")
        return all(getattr(self, m) == getattr(other, m) for m in meta) and all(
            np.array_equal(getattr(self, c), getattr(other, c)) for c in self._columns
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<SimulationResult {len(self)} {self.variant} games, {self.players} players, "
            f"bots {list(self.bot_names)}, seed {self.run_seed}, first game {self.first_game}>"
        )


def _result(raw: dict[str, Any], meta: dict[str, Any]) -> SimulationResult:
    return SimulationResult(**raw, **meta)


def shards(games: int, parts: int, first_game: int = 0) -> list[tuple[int, int]]:
    """Splits games ``first_game .. first_game + games`` into ``parts`` consecutive
    ``(first_game, games)`` ranges of nearly equal size: run each anywhere with
    ``simulate(..., first_game=f, games=n)`` and join them with `SimulationResult.concat`.

    >>> shards(10, 3)
    [(0, 4), (4, 3), (7, 3)]
    """
    games = _count("games", games)
    parts = _count("parts", parts, 1, MAX_SHARDS)
    first_game = _count("first_game", first_game)
    base, extra = divmod(games, parts)
    out = []
    start = first_game
    for i in range(parts):
        n = base + (1 if i < extra else 0)
        if n:
            out.append((start, n))
        start += n
    return out


def simulate(
    games: int,
    players: int = 2,
    bots: BotSpecLike | Sequence[BotSpecLike] = "random",
    seed: int = 0,
    threads: int | None = None,
    variant: str = "standard",
    swap_timing: str = "after_placement",
    require_contact: bool = False,
    *,
    first_game: int = 0,
    rotate: bool = False,
    backend: str = "local",
    shards: int | None = None,
) -> SimulationResult:
    """Plays games ``first_game .. first_game + games`` of a run between built-in bots.

    ``bots``: one per seat (a name, a text form like ``"mcts:iterations=100"``, or a
    `BuiltinBot`), or a single one for every seat. Each game builds fresh bots from their
    settings, seeded from the game (`genial.play_game` with the same seed plays the same
    game). ``rotate`` shifts the bots one seat per game, so that each sits in each seat
    equally often over ``players`` consecutive games. ``threads``: the size of the thread
    pool built for this call (``None``: one per core); the result does not depend on it.
    ``backend="ray"`` fans ``shards`` seed ranges out over a Ray cluster (see
    `genial.distributed`) and merges them; the result is identical.

    Every count is checked before any game is played (``ValueError`` naming the limit; at
    most ``LIMITS["games"]`` games a call, and `MemoryError` when their results cannot fit
    in memory). Ctrl-C stops the run within a fraction of a second, raising
    ``KeyboardInterrupt`` (a signal handler's own exception likewise).
    """
    games = _count("games", games, 0, LIMITS["games"])
    first_game = _count("first_game", first_game, 0, 2**64 - 1)
    seed = check_seed(seed)
    n_threads = _threads(threads)
    players = _players(players)
    if not isinstance(variant, str):
        raise TypeError(f"variant must be a str, not {type(variant).__name__}")
    if backend == "ray":
        from .distributed import simulate_ray

        return simulate_ray(
            games, players, bots, seed, variant=variant, swap_timing=swap_timing,
            require_contact=require_contact, first_game=first_game, rotate=rotate, shards=shards,
        )
    if backend != "local":
        raise ValueError(f"unknown backend {backend!r}: use 'local' or 'ray'")
    if shards is not None:
        _count("shards", shards, 1, MAX_SHARDS)
    _check_memory(games, players, variant)
    if not isinstance(bots, (str, BuiltinBot)) and isinstance(bots, Sequence) and len(bots) not in (1, players):
        raise ValueError(f"{players} players need {players} bots (or one for all seats), not {len(bots)}")
    seat_bots = resolve_bots(bots)
    if len(seat_bots) == 1:
        seat_bots = seat_bots * players
    if len(seat_bots) != players:
        raise ValueError(f"{players} players need {players} bots (or one for all seats), not {len(seat_bots)}")
    kept, labels, index = _unique(seat_bots)
    if rotate:
        lineups = [[index[(s + r) % players] for s in range(players)] for r in range(players)]
    else:
        lineups = [index]
    return _run(games, players, kept, labels, lineups, seed, False, first_game, n_threads, variant, swap_timing, require_contact)


def _run(
    games: int,
    players: int,
    bots: Sequence[BuiltinBot],
    labels: Sequence[str],
    lineups: Sequence[Sequence[int]],
    seed: int,
    paired: bool,
    first_game: int,
    threads: int,
    variant: str,
    swap_timing: str,
    require_contact: bool,
) -> SimulationResult:
    raw = _core.simulate_games(
        players, variant, swap_timing, require_contact, [b._bot for b in bots],
        [list(l) for l in lineups], seed, paired, first_game, games, threads,
    )
    return _result(
        raw,
        dict(
            players=players, variant=variant, swap_timing=swap_timing, require_contact=require_contact,
            bot_names=tuple(labels), run_seed=seed, first_game=first_game,
        ),
    )


# ----- summaries ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Rate:
    """A proportion with its 95% Wilson score interval."""

    value: float
    low: float
    high: float
    n: float

    @classmethod
    def wilson(cls, successes: float, n: float, z: float = _Z95) -> Rate:
        if n <= 0:
            return cls(math.nan, math.nan, math.nan, 0.0)
        p = successes / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
        # The interval always contains the estimate (rounding at p = 0 or 1 aside).
        return cls(p, min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)), n)

    def __str__(self) -> str:
        return f"{100 * self.value:5.1f}% [{100 * self.low:5.1f}, {100 * self.high:5.1f}]"


_LOW_MIN = -9  # lowest possible marker (duel); histograms of the lowest marker start here
_LOW_BINS = 46  # -9 .. 36


@dataclass
class Summary:
    """Totals of a run that add up across chunks and shards (``a + b``), and what follows
    from them: win rates per seat and per bot with 95% Wilson intervals, the distribution of
    the lowest marker (what decides the ranking), the first player's advantage, end reasons.
    """

    players: int
    sides: int
    bot_names: tuple[str, ...]
    games: int
    seat_wins: npt.NDArray[np.float64]  # players
    bot_wins: npt.NDArray[np.float64]  # bots
    bot_seats: npt.NDArray[np.int64]  # bots: seat appearances
    low_hist: npt.NDArray[np.int64]  # players × bins
    total_sum: npt.NDArray[np.float64]  # players: sum of the six markers
    bot_low_sum: npt.NDArray[np.float64]  # bots
    ends: npt.NDArray[np.int64]  # END_NAMES
    placements: int
    bonus_placements: int
    swaps: int

    @classmethod
    def of(cls, res: SimulationResult) -> Summary:
        credit = res.win_credit()
        low = res.lowest().astype(np.int64)
        nb = len(res.bot_names)
        hist = np.zeros((res.players, _LOW_BINS), dtype=np.int64)
        for s in range(res.players):
            hist[s] = np.bincount(low[:, s] - _LOW_MIN, minlength=_LOW_BINS)[:_LOW_BINS]
        flat_bots = res.bots.astype(np.int64).ravel()
        return cls(
            players=res.players,
            sides=res.sides,
            bot_names=res.bot_names,
            games=len(res),
            seat_wins=credit.sum(axis=0),
            bot_wins=np.bincount(flat_bots, weights=credit.ravel(), minlength=nb).astype(np.float64),
            bot_seats=np.bincount(flat_bots, minlength=nb).astype(np.int64),
            low_hist=hist,
            total_sum=res.scores.astype(np.int64).sum(axis=(0, 2)).astype(np.float64),
            bot_low_sum=np.bincount(flat_bots, weights=low.ravel().astype(np.float64), minlength=nb).astype(np.float64),
            ends=np.bincount(res.end, minlength=len(END_NAMES)).astype(np.int64),
            placements=int(res.placements.sum(dtype=np.int64)),
            bonus_placements=int(res.bonus_placements.sum(dtype=np.int64)),
            swaps=int(res.swaps.sum(dtype=np.int64)),
        )

    def __add__(self, other: Summary) -> Summary:
        if (self.players, self.bot_names) != (other.players, other.bot_names):
            raise ValueError("summaries of different runs (players or bots differ) do not add up")
        return Summary(
            players=self.players,
            sides=self.sides,
            bot_names=self.bot_names,
            games=self.games + other.games,
            seat_wins=self.seat_wins + other.seat_wins,
            bot_wins=self.bot_wins + other.bot_wins,
            bot_seats=self.bot_seats + other.bot_seats,
            low_hist=self.low_hist + other.low_hist,
            total_sum=self.total_sum + other.total_sum,
            bot_low_sum=self.bot_low_sum + other.bot_low_sum,
            ends=self.ends + other.ends,
            placements=self.placements + other.placements,
            bonus_placements=self.bonus_placements + other.bonus_placements,
            swaps=self.swaps + other.swaps,
        )

    @property
    def win_rate(self) -> tuple[float, ...]:
        """Per seat: its share of first places (ties split)."""
        return tuple(float(w) / self.games if self.games else math.nan for w in self.seat_wins)

    def seat_rates(self) -> list[Rate]:
        return [Rate.wilson(float(w), self.games) for w in self.seat_wins]

    def bot_rates(self) -> dict[str, Rate]:
        """Per bot: share of first places over the seats it played."""
        return {
            name: Rate.wilson(float(self.bot_wins[i]), float(self.bot_seats[i]))
            for i, name in enumerate(self.bot_names)
            if self.bot_seats[i] > 0
        }

    def first_player_advantage(self) -> Rate:
        """Seat 0's win rate minus a fair share (1 / sides), with its interval."""
        r = Rate.wilson(float(self.seat_wins[0]), self.games)
        fair = 1.0 / self.sides
        return Rate(r.value - fair, r.low - fair, r.high - fair, r.n)

    def lowest_mean(self) -> npt.NDArray[np.float64]:
        """Per seat, the mean lowest marker."""
        values = np.arange(_LOW_BINS) + _LOW_MIN
        return np.asarray(self.low_hist @ values, dtype=np.float64) / max(self.games, 1)

    def lowest_quantiles(self, qs: Sequence[float] = (0.1, 0.5, 0.9)) -> npt.NDArray[np.int64]:
        """Per seat, quantiles of the lowest marker (from the exact histogram)."""
        cum = np.cumsum(self.low_hist, axis=1)
        out = np.zeros((self.players, len(qs)), dtype=np.int64)
        for s in range(self.players):
            for j, q in enumerate(qs):
                out[s, j] = int(np.searchsorted(cum[s], q * cum[s, -1], side="left")) + _LOW_MIN
        return out

    def lowest_std(self) -> npt.NDArray[np.float64]:
        values = np.arange(_LOW_BINS) + _LOW_MIN
        mean = self.lowest_mean()
        sq = np.asarray(self.low_hist @ (values.astype(np.float64) ** 2)) / max(self.games, 1)
        return np.sqrt(np.maximum(sq - mean**2, 0.0))

    def end_counts(self) -> dict[str, int]:
        return {name: int(n) for name, n in zip(END_NAMES, self.ends) if n}

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "seat_win_rate": [r.__dict__ for r in self.seat_rates()],
            "bot_win_rate": {k: r.__dict__ for k, r in self.bot_rates().items()},
            "first_player_advantage": self.first_player_advantage().__dict__,
            "lowest_mean": self.lowest_mean().tolist(),
            "lowest_std": self.lowest_std().tolist(),
            "lowest_quantiles_10_50_90": self.lowest_quantiles().tolist(),
            "mean_total": (self.total_sum / max(self.games, 1)).tolist(),
            "ends": self.end_counts(),
            "placements_per_game": self.placements / max(self.games, 1),
            "bonus_placements_per_game": self.bonus_placements / max(self.games, 1),
            "swaps_per_game": self.swaps / max(self.games, 1),
        }

    def table(self) -> str:
        """The summary as a text table."""
        lines = [f"{self.games} games, {self.players} players"]
        if self.games == 0:
            return lines[0]
        lines.append(f"{'seat':<6}{'win rate [95% CI]':<26}{'lowest: mean':>13}{'sd':>6}{'p10/p50/p90':>14}{'total':>8}")
        qs = self.lowest_quantiles()
        mean, sd = self.lowest_mean(), self.lowest_std()
        tot = self.total_sum / max(self.games, 1)
        for s, r in enumerate(self.seat_rates()):
            q = "/".join(str(int(x)) for x in qs[s])
            lines.append(f"{s:<6}{str(r):<26}{mean[s]:>13.2f}{sd[s]:>6.2f}{q:>14}{tot[s]:>8.1f}")
        rates = self.bot_rates()
        if len(rates) > 1 or len(self.bot_names) > 1:
            lines.append("")
            lines.append(f"{'bot':<40}{'seats':>8}  {'win rate [95% CI]':<26}{'lowest':>7}")
            for i, name in enumerate(self.bot_names):
                if self.bot_seats[i]:
                    low = self.bot_low_sum[i] / self.bot_seats[i]
                    lines.append(f"{name[:39]:<40}{int(self.bot_seats[i]):>8}  {str(rates[name]):<26}{low:>7.2f}")
        adv = self.first_player_advantage()
        lines.append("")
        lines.append(
            f"first player advantage: {100 * adv.value:+.1f} points [{100 * adv.low:+.1f}, {100 * adv.high:+.1f}] over a fair {100 / self.sides:.1f}%"
        )
        ends = ", ".join(f"{k} {v}" for k, v in self.end_counts().items())
        g = max(self.games, 1)
        lines.append(
            f"per game: {self.placements / g:.1f} placements, {self.bonus_placements / g:.2f} bonus placements, "
            f"{self.swaps / g:.2f} swaps; ends: {ends}"
        )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


# ----- writing -----------------------------------------------------------------------------


def _spec_of_label(label: str) -> str:
    """The text form of a built-in bot from its table label: ``mcts(iterations=100)`` ->
    ``mcts:iterations=100``; a tournament's ``#2`` suffix for a repeated bot is dropped."""
    label = label.split("#", 1)[0]
    if label.endswith(")") and "(" in label:
        name, options = label[:-1].split("(", 1)
        label = f"{name}:{options}"
    name = label.split(":", 1)[0]
    if name not in BUILTIN_BOTS:
        raise ValueError(f"{label!r} is not a built-in bot: only games of built-in bots can be replayed")
    return label


class ResultWriter:
    """Writes results chunk by chunk to one file: Parquet for ``.parquet`` (needs
    pyarrow), CSV otherwise. Memory stays flat however many chunks are written.

    The file is opened (created or emptied) at once, so an unwritable path or a missing
    pyarrow fails before any game is played (`OSError`, `ImportError`). After `close` the
    file is complete and valid for what was written; a Parquet file nothing was written to
    is removed.

    The file carries `SimulationResult.metadata` of its first chunk: in Parquet as the
    schema's ``genial`` key (JSON), in CSV as a first line ``# genial: {...}`` (read the
    rows with ``pandas.read_csv(path, comment="#")``)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.parquet = self.path.suffix.lower() in (".parquet", ".pq")
        self.rows = 0
        self._writer: Any = None
        self._pa: Any = None
        self._pq: Any = None
        self._csv: Any = None
        self._schema = False
        if self.parquet:
            try:
                self._pa = importlib.import_module("pyarrow")
                self._pq = importlib.import_module("pyarrow.parquet")
            except ImportError:
                raise ImportError("writing Parquet needs pyarrow: pip install pyarrow (or write .csv)") from None
        self._file: Any = open(self.path, "wb" if self.parquet else "w", newline=None if self.parquet else "")

    def write(self, res: SimulationResult) -> None:
        if self._file is None:
            raise ValueError(f"{self.path} is closed")
        cols = res.column_dict()
        meta = json.dumps(res.metadata(), separators=(",", ":"))
        if self.parquet:
            table = self._pa.table(cols)
            if self._writer is None:
                schema = table.schema.with_metadata({"genial": meta})
                self._writer = self._pq.ParquetWriter(self._file, schema)
                self._schema = True
            self._writer.write_table(table.cast(self._writer.schema))
        else:
            if self._csv is None:
                self._file.write(f"# genial: {meta}\n")
                self._csv = csv.writer(self._file)
                self._csv.writerow(cols.keys())
            self._csv.writerows(zip(*(c.tolist() for c in cols.values())))
            self._file.flush()
        self.rows += len(res)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self._file is not None:
            self._file.close()
            self._file = None
            if self.parquet and not self._schema:
                self.path.unlink(missing_ok=True)  # nothing in it: not a Parquet file

    def __enter__(self) -> ResultWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def chunks(games: int, size: int, first_game: int = 0) -> Iterator[tuple[int, int]]:
    """Consecutive ``(first_game, games)`` ranges of at most ``size`` games."""
    start, stop = first_game, first_game + games
    while start < stop:
        n = min(size, stop - start)
        yield start, n
        start += n


ProgressFn = Callable[[int, int], None]
__all__ += ["chunks", "ProgressFn"]

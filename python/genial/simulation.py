"""Many games at once: `simulate` plays whole games in Rust over a thread pool (GIL
released) and returns a `SimulationResult` of numpy columns (`genial.results`), whose
`summary()` gives win rates with confidence intervals (`genial.stats`).

`simulate` and `genial.tournament` share one run loop: a `Run` (the rules, the bots, who
sits where, the seed) whose games the core plays, seeds, chunks and records in one layout;
this module adds only the Python face (bots by name, labels, chunks as an iterator).

Game ``g`` of a run is dealt from ``derive_seed(seed, g)``: the result is the same for any
number of threads, and a run split into seed ranges (``first_game``) merges back into exactly
the single run (`SimulationResult.concat`), on one machine or many (`genial.distributed`
runs the ranges on a Ray cluster).

>>> import genial
>>> res = genial.simulate(200, players=2, bots=("greedy", "random"), seed=1, threads=1)
>>> res.scores.shape, res.ranks.shape
((200, 2, 6), (200, 2))
>>> res.summary().bot_rates()["greedy"].value > 0.9
True
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from . import _core
from ._core import Rules
from .arguments import LIMITS, check_results_fit, check_seed, check_threads, int_in, type_name
from .bots import Bot, BuiltinBot, Forfeit, parse_bot, play_game
from .progress import ProgressBar
from .results import SimulationResult
from .variants import as_rules

__all__ = [
    "simulate",
    "Run",
    "shards",
    "chunks",
    "derive_seed",
    "resolve_bots",
    "bot_label",
    "BotSpecLike",
    "ProgressFn",
    "MAX_SHARDS",
]

MAX_SHARDS = 65536
BotSpecLike = str | BuiltinBot
ProgressFn = Callable[[int, int], None]
"""``progress(done, total)``: games finished so far of the games asked."""

# How often a run of Python bots reports progress (the core's runs: every 200 ms too).
_PROGRESS_S = 0.2


def derive_seed(base: int, index: int) -> int:
    """The seed of game number ``index`` in a run started from ``base``."""
    return _core.derive_seed(check_seed(base), check_seed(index))


def resolve_bots(bots: BotSpecLike | Sequence[BotSpecLike]) -> list[Any]:
    """Built-in bots from names, text forms (``"mcts:iterations=100"``) or `BuiltinBot`s;
    ``"engine:COMMAND"`` gives a `genial.engine.EngineBot` (not started yet)."""
    if not isinstance(bots, (str, BuiltinBot, Sequence)):
        raise TypeError(
            f"bots must be a bot (a name like 'greedy', a text form like 'mcts:iterations=100', a BuiltinBot) "
            f"or a sequence of them, one per seat, not {type_name(bots)}"
        )
    items: Sequence[BotSpecLike] = [bots] if isinstance(bots, (str, BuiltinBot)) else bots
    out: list[Any] = []
    for b in items:
        if isinstance(b, BuiltinBot):
            out.append(b)
        elif isinstance(b, str):
            out.append(parse_bot(b))
        else:
            raise TypeError(
                f"simulate runs built-in bots (names like 'greedy' or BuiltinBot objects), not "
                f"{type_name(b)}; Python bots play through genial.play_game or genial.tournament"
            )
    return out


_UNSAFE = re.compile(r"[#,;\"'`\x00-\x1f\x7f]+")


def bot_label(bot: BuiltinBot | Bot) -> str:
    """A bot's name in tables and result files: the built-in bot's name and the settings
    that differ from the defaults (``mcts(iterations=100 width=6)``), an engine's
    ``engine:COMMAND``, or a Python bot's ``label`` or ``name`` (else its class name).
    Never holds ``#``, commas, semicolons, quotes or line breaks (they become ``-``), so
    that every CSV reader reads it as one plain field.

    >>> class Mine:
    ...     name = 'my "best", #1'
    >>> bot_label(Mine())
    'my -best- -1'
    """
    if isinstance(bot, BuiltinBot):
        return _UNSAFE.sub("-", bot.label.replace(",", " "))
    label = getattr(bot, "label", None)
    text = label if isinstance(label, str) and label else str(getattr(bot, "name", None) or type(bot).__name__)
    return _UNSAFE.sub("-", text).strip("- ") or type(bot).__name__


def _unique(labels: Sequence[str]) -> list[str]:
    """Labels made unique: a repeated ``random`` becomes ``random-2``, ``random-3``, ..."""
    out: list[str] = []
    for label in labels:
        base, k = label, 2
        while label in out:
            label = f"{base}-{k}"
            k += 1
        out.append(label)
    return out


def shards(games: int, parts: int, first_game: int = 0) -> list[tuple[int, int]]:
    """Splits games ``first_game .. first_game + games`` into ``parts`` consecutive
    ``(first_game, games)`` ranges of nearly equal size: run each anywhere with
    ``simulate(..., first_game=f, games=n)`` and join them with `SimulationResult.concat`.

    >>> shards(10, 3)
    [(0, 4), (4, 3), (7, 3)]
    """
    games = int_in("games", games, 0)
    parts = int_in("parts", parts, 1, MAX_SHARDS)
    first_game = int_in("first_game", first_game, 0)
    base, extra = divmod(games, parts)
    out = []
    start = first_game
    for i in range(parts):
        n = base + (1 if i < extra else 0)
        if n:
            out.append((start, n))
        start += n
    return out


def chunks(games: int, size: int, first_game: int = 0) -> Iterator[tuple[int, int]]:
    """Consecutive ``(first_game, games)`` ranges of at most ``size`` games."""
    start, stop = first_game, first_game + games
    while start < stop:
        n = min(size, stop - start)
        yield start, n
        start += n


class Run:
    """A run of games: the rules, the bots, who sits where, and the seed -- what `simulate`
    and `genial.tournament` both play. The core deals, seeds and records every game
    (`genial._core.Run`); game ``g`` sits ``lineups[g % len(lineups)]``.

    ``bots`` are built-in bots, or any objects with ``choose(view) -> Move`` such as engines
    (then every game is played through `play_game`, with the same deals, bot seeds and
    columns; a game a bot forfeits (`genial.bots.Forfeit`) is recorded as it stood, its side
    ranked last and its end ``"forfeit"``). ``labels`` name them in tables and files
    (default: `bot_label`, made unique). ``owned``: the bots this run started (engines
    from their text form), which `close` stops. Every argument is checked here; no game
    is played.
    """

    def __init__(
        self,
        rules: Rules,
        bots: Sequence[BuiltinBot | Bot],
        lineups: Sequence[Sequence[int]],
        seed: int = 0,
        *,
        paired: bool = False,
        labels: Sequence[str] | None = None,
        owned: Sequence[Any] = (),
    ) -> None:
        self.rules = as_rules(rules)
        self.bots = list(bots)
        self._owned = list(owned)
        self.seed = check_seed(seed)
        self.native = all(isinstance(b, BuiltinBot) for b in self.bots)
        self.labels = tuple(_unique([bot_label(b) for b in self.bots] if labels is None else list(labels)))
        self.specs = tuple(b.spec if isinstance(b, BuiltinBot) else label for b, label in zip(self.bots, self.labels))
        # A run of Python bots still asks the core for its deals and its columns; the
        # placeholders only fill the bot list (none of them plays).
        core_bots = [b._bot if isinstance(b, BuiltinBot) else parse_bot("random")._bot for b in self.bots]
        self._core = _core.Run(self.rules, core_bots, [list(lineup) for lineup in lineups], self.seed, paired)
        self.lineups = tuple(tuple(lineup) for lineup in self._core.lineups)
        self.paired = paired

    def close(self) -> None:
        """Stops the engines this run started (see ``owned``); they start again if the run
        plays on."""
        for bot in self._owned:
            close = getattr(bot, "close", None)
            if callable(close):
                close()

    def __enter__(self) -> Run:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def chunk_size(self, games: int) -> int:
        """How many games are played, held and handed over at a time (the core's policy:
        small for searching bots and Python bots)."""
        return 64 if not self.native else int(self._core.chunk_size(games))

    def empty(self) -> SimulationResult:
        """A result with no games (the header of a file)."""
        return self._result(self._core.record([], []))

    def _result(self, columns: dict[str, Any]) -> SimulationResult:
        return SimulationResult(
            **columns,
            rules=self.rules,
            bot_names=self.labels,
            run_seed=self.seed,
            bot_specs=self.specs,
            paired=self.paired,
            lineups=self.lineups,
        )

    def chunks(
        self,
        first_game: int,
        games: int,
        threads: int | None = None,
        *,
        chunk: int | None = None,
        progress: ProgressFn | None = None,
    ) -> Iterator[SimulationResult]:
        """Games ``first_game .. first_game + games``, chunk by chunk, in game order.

        ``progress(done, total)`` comes from the core every 200 ms while games are played
        (and after each chunk). Ctrl-C -- or any exception a signal handler or ``progress``
        raises -- stops the run within a fraction of a second: the games finished by then,
        those of the unfinished chunk included, come as a last chunk, and then the
        exception is raised."""
        games = int_in("games", games, 0, LIMITS["games"])
        first_game = int_in("first_game", first_game, 0, 2**64 - 1)
        if first_game + games > 2**64:
            raise ValueError("game numbers overflow 2**64: first_game + games must not pass 2**64")
        n_threads = check_threads(threads)
        size = self.chunk_size(games) if chunk is None else int_in("chunk", chunk, 1)
        done = 0

        def report(finished: int, _total: int) -> None:
            if progress is not None:
                progress(done + finished, games)

        for first, count in chunks(games, size, first_game):
            if self.native:
                columns, raised = self._core.play(first, count, n_threads, report if progress is not None else None)
            else:
                columns, raised = self._python_games(first, count, report)
            part = self._result(columns)
            done += len(part)
            if len(part):
                yield part
            if raised is not None:
                raise raised
            if progress is not None:
                progress(done, games)

    def play(
        self,
        first_game: int,
        games: int,
        threads: int | None = None,
        *,
        chunk: int | None = None,
        progress: ProgressFn | None = None,
    ) -> SimulationResult:
        """All of `chunks` as one result. Built-in bots play the whole range in one call of
        the core (unless ``chunk`` is given), which fills the result's final arrays: no
        parts to join, whose freed memory the process would keep (a million random games
        held 108 bytes of memory a game, for 55 bytes of results)."""
        if chunk is None and self.native:
            chunk = max(int_in("games", games, 0, LIMITS["games"]), 1)
        parts = list(self.chunks(first_game, games, threads, chunk=chunk, progress=progress))
        if len(parts) == 1:
            return parts[0]  # most calls: one chunk, nothing to join
        return SimulationResult.concat(parts) if parts else self.empty()

    def _python_games(self, first: int, count: int, report: ProgressFn) -> tuple[dict[str, Any], BaseException | None]:
        """Games of a run with Python bots, played through `play_game` with the core's deals
        and bot seeds, recorded by the core. A game a bot forfeits stops there and is
        recorded as a forfeit. Ctrl-C, or any other error (an engine that fails its
        handshake on a restart, say), keeps the games finished: they are recorded and the
        error is handed back with them."""
        numbers: list[int] = []
        states: list[_core.GameState] = []
        forfeits: list[int | None] = []
        raised: BaseException | None = None
        last = time.monotonic()
        try:
            for g in range(first, first + count):
                seed, lineup = self._core.deal(g)
                seats: list[Any] = []
                for s, b in enumerate(lineup):
                    bot = self.bots[b]
                    if isinstance(bot, BuiltinBot):
                        seats.append(BuiltinBot(bot.name, _core.bot_seed(seed, s), **bot.options))
                    else:
                        seats.append(bot)
                forfeit: int | None = None
                try:
                    game = play_game(seats, seed=seed, rules=self.rules)
                except Forfeit as e:
                    # The game stands where the bot failed; the core ranks its side last.
                    if e.game is None or e.seat is None:
                        raise
                    game, forfeit = e.game, e.seat
                numbers.append(g)
                states.append(game._state)
                forfeits.append(forfeit)
                if time.monotonic() - last >= _PROGRESS_S:
                    last = time.monotonic()
                    report(len(numbers), count)
        except (KeyboardInterrupt, Exception) as e:
            raised = e
        return self._core.record(numbers, states, forfeits), raised


def simulate(
    games: int,
    players: int | None = None,
    bots: BotSpecLike | Sequence[BotSpecLike] = "random",
    seed: int = 0,
    threads: int | None = None,
    variant: str = "standard",
    swap_timing: str = "after_placement",
    require_contact: bool = False,
    *,
    rules: Rules | None = None,
    first_game: int = 0,
    rotate: bool = True,
    chunk: int | None = None,
    progress: ProgressFn | bool | None = None,
) -> SimulationResult:
    """Plays games ``first_game .. first_game + games`` of a run between built-in bots.

    The rules: ``rules=`` a `genial.Rules`, or ``players``, ``variant``, ``swap_timing`` and
    ``require_contact`` as in `genial.Rules` (``players=None``: the variant's own count, 2
    in the standard game).

    ``bots``: one per seat (a name, a text form like ``"mcts:iterations=100"``, or a
    `BuiltinBot`), or a single one for every seat. Each game builds fresh bots from their
    settings, seeded from the game (`genial.play_game` with the same seed plays the same
    game). An ``"engine:COMMAND"`` seat is an engine subprocess (`genial.engine`): its
    games run through `play_game`, a game it forfeits is recorded as ``"forfeit"``, and it
    is stopped when this call returns. ``rotate`` (the default) shifts the bots one seat
    per game, so that each sits in each seat equally often over ``players`` consecutive
    games and a seat's win rate is the seat's, not its bot's; ``rotate=False`` keeps
    ``bots[s]`` in seat ``s``. ``threads``: the size of the thread pool built for this call
    (``None``: one per core; no pool when one thread plays the games -- ``threads=1`` or
    fewer than 32 games -- they run on the calling thread); the result does not depend on it. ``progress(done, total)``
    is called every 200 ms; ``progress=True`` shows a progress bar
    (`genial.progress.ProgressBar`: tqdm, a widget in a notebook). To spread a run
    over a Ray cluster, `genial.distributed.simulate_ray` takes the same arguments and
    returns the identical result.

    Every count is checked before any game is played (``ValueError`` naming the limit; at
    most ``LIMITS["games"]`` games a call, and `MemoryError` when their results cannot fit
    in memory). Ctrl-C stops the run within a fraction of a second, raising
    ``KeyboardInterrupt`` (a signal handler's own exception likewise); `Run.chunks` also
    hands over the games finished by then.
    """
    run, games, first_game = simulation_run(
        games,
        bots,
        seed,
        rules=as_rules(
            rules, players=players, variant=variant, swap_timing=swap_timing, require_contact=require_contact
        ),
        first_game=first_game,
        rotate=rotate,
    )
    with run:  # engines started from their text form stop with this call
        if progress is True:
            with ProgressBar(games, "simulate", enabled=True) as bar:
                return run.play(first_game, games, threads, chunk=chunk, progress=bar)
        return run.play(first_game, games, threads, chunk=chunk, progress=progress or None)


def simulation_run(
    games: int,
    bots: BotSpecLike | Sequence[BotSpecLike],
    seed: int,
    *,
    rules: Rules,
    first_game: int = 0,
    rotate: bool = True,
) -> tuple[Run, int, int]:
    """The `Run` of `simulate` (checked, no game played), with ``games`` and ``first_game``
    checked: what ``genial simulate`` and `simulate_ray` play."""
    games = int_in("games", games, 0, LIMITS["games"])
    first_game = int_in("first_game", first_game, 0, 2**64 - 1)
    if first_game + games > 2**64:
        raise ValueError("game numbers overflow 2**64: first_game + games must not pass 2**64")
    seed = check_seed(seed)
    if not isinstance(rotate, bool):
        raise TypeError(f"rotate must be True or False, not {type(rotate).__name__}")
    players = rules.players
    check_results_fit(games, rules)
    if not isinstance(bots, (str, BuiltinBot)) and isinstance(bots, Sequence) and len(bots) not in (1, players):
        raise ValueError(f"{players} players need {players} bots (or one for all seats), not {len(bots)}")
    seat_bots = resolve_bots(bots)
    if len(seat_bots) == 1:
        seat_bots = seat_bots * players
    if len(seat_bots) != players:
        raise ValueError(f"{players} players need {players} bots (or one for all seats), not {len(seat_bots)}")
    # The same bot in several seats is one bot of the run.
    labels: list[str] = []
    kept: list[Any] = []
    index = []
    named: dict[int, str] = {}  # one bot given for every seat is labelled once
    for b in seat_bots:
        label = named.get(id(b))
        if label is None:
            label = named[id(b)] = bot_label(b)
        if label not in labels:
            labels.append(label)
            kept.append(b)
        index.append(labels.index(label))
    if rotate and len(kept) > 1:
        lineups = [[index[(s + r) % players] for s in range(players)] for r in range(players)]
    else:
        lineups = [index]
    # Every bot that is not a `BuiltinBot` is an engine started from its text form here.
    owned = [b for b in kept if not isinstance(b, BuiltinBot)]
    return Run(rules, kept, lineups, seed, labels=labels, owned=owned), games, first_game

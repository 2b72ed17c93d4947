"""Many games at once: `simulate` plays whole games in Rust over a thread pool (GIL
released) and returns a `SimulationResult` of numpy columns (`genial.results`), whose
`summary()` gives win rates with confidence intervals (`genial.stats`).

Game ``g`` of a run is dealt from ``derive_seed(seed, g)``: the result is the same for any
number of threads, and a run split into seed ranges (``first_game``) merges back into exactly
the single run (`SimulationResult.concat`), on one machine or many (`genial.distributed`
runs the ranges on a Ray cluster).

>>> import genial
>>> res = genial.simulate(200, players=2, bots=("greedy", "random"), seed=1, threads=1)
>>> res.scores.shape, res.ranks.shape
((200, 2, 6), (200, 2))
>>> res.summary().win_rate[0] > 0.9
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from . import _core
from ._core import Rules
from .arguments import LIMITS, check_players, check_results_fit, check_seed, check_threads, int_in
from .bots import BuiltinBot, Forfeit, forfeit_ranks, parse_bot, play_game
from .results import END_NAMES, SimulationResult

__all__ = [
    "simulate",
    "run_games",
    "python_games",
    "shards",
    "chunks",
    "derive_seed",
    "resolve_bots",
    "unique_bots",
    "BotSpecLike",
    "ProgressFn",
    "MAX_SHARDS",
]

MAX_SHARDS = 65536
BotSpecLike = str | BuiltinBot
ProgressFn = Callable[[int, int], None]


def derive_seed(base: int, index: int) -> int:
    """The seed of game number ``index`` in a run started from ``base``."""
    return _core.derive_seed(check_seed(base), check_seed(index))


def resolve_bots(bots: BotSpecLike | Sequence[BotSpecLike]) -> list[Any]:
    """Built-in bots from names, text forms (``"mcts:iterations=100"``) or `BuiltinBot`s;
    ``"engine:COMMAND"`` gives a `genial.engine.EngineBot` (not started yet)."""
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
                f"{type(b).__name__}; Python bots play through genial.play_game or genial.tournament"
            )
    return out


def unique_bots(bots: Sequence[Any]) -> tuple[list[Any], list[str], list[int]]:
    """Distinct bots by label, and each input's index among them."""
    labels: list[str] = []
    kept: list[Any] = []
    index = []
    for b in bots:
        if b.label not in labels:
            labels.append(b.label)
            kept.append(b)
        index.append(labels.index(b.label))
    return kept, labels, index


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
) -> SimulationResult:
    """Plays games ``first_game .. first_game + games`` of a run between built-in bots.

    ``bots``: one per seat (a name, a text form like ``"mcts:iterations=100"``, or a
    `BuiltinBot`), or a single one for every seat. Each game builds fresh bots from their
    settings, seeded from the game (`genial.play_game` with the same seed plays the same
    game). ``rotate`` shifts the bots one seat per game, so that each sits in each seat
    equally often over ``players`` consecutive games. ``threads``: the size of the thread
    pool built for this call (``None``: one per core); the result does not depend on it.
    To spread a run over a Ray cluster, `genial.distributed.simulate_ray` takes the same
    arguments and returns the identical result.

    Every count is checked before any game is played (``ValueError`` naming the limit; at
    most ``LIMITS["games"]`` games a call, and `MemoryError` when their results cannot fit
    in memory). Ctrl-C stops the run within a fraction of a second, raising
    ``KeyboardInterrupt`` (a signal handler's own exception likewise).
    """
    games = int_in("games", games, 0, LIMITS["games"])
    first_game = int_in("first_game", first_game, 0, 2**64 - 1)
    seed = check_seed(seed)
    n_threads = check_threads(threads)
    players = check_players(players)
    if not isinstance(variant, str):
        raise TypeError(f"variant must be a str, not {type(variant).__name__}")
    check_results_fit(games, players, variant)
    if not isinstance(bots, (str, BuiltinBot)) and isinstance(bots, Sequence) and len(bots) not in (1, players):
        raise ValueError(f"{players} players need {players} bots (or one for all seats), not {len(bots)}")
    seat_bots = resolve_bots(bots)
    if len(seat_bots) == 1:
        seat_bots = seat_bots * players
    if len(seat_bots) != players:
        raise ValueError(f"{players} players need {players} bots (or one for all seats), not {len(seat_bots)}")
    kept, labels, index = unique_bots(seat_bots)
    if rotate:
        lineups = [[index[(s + r) % players] for s in range(players)] for r in range(players)]
    else:
        lineups = [index]
    if all(isinstance(b, BuiltinBot) for b in kept):
        return run_games(
            games,
            players,
            kept,
            labels,
            lineups,
            seed,
            False,
            first_game,
            n_threads,
            variant,
            swap_timing,
            require_contact,
        )
    # Engines play through the Python table, game by game, and stop with this call.
    Rules(variant, players, swap_timing=swap_timing, require_contact=require_contact)  # checks the rules
    try:
        return python_games(
            kept,
            [tuple(lineup) for lineup in lineups],
            players,
            seed,
            False,
            first_game,
            games,
            variant,
            swap_timing,
            require_contact,
            tuple(labels),
        )
    finally:
        for b in kept:
            if not isinstance(b, BuiltinBot):
                b.close()


def run_games(
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
        players,
        variant,
        swap_timing,
        require_contact,
        [b._bot for b in bots],
        [list(lineup) for lineup in lineups],
        seed,
        paired,
        first_game,
        games,
        threads,
    )
    return SimulationResult.from_columns(
        raw,
        players=players,
        variant=variant,
        swap_timing=swap_timing,
        require_contact=require_contact,
        bot_names=tuple(labels),
        run_seed=seed,
        first_game=first_game,
    )


def python_games(
    entries: Sequence[Any],
    lineups: Sequence[tuple[int, ...]],
    players: int,
    seed: int,
    paired: bool,
    first: int,
    count: int,
    variant: str,
    swap_timing: str,
    require_contact: bool,
    labels: tuple[str, ...],
) -> SimulationResult:
    """Games ``first .. first + count`` of a run, played through `play_game` (for Python
    bots and engines): the same deals, lineups and bot seeds as `run_games`. A game an
    engine forfeits stops there, its side ranked last and its end ``"forfeit"``."""
    L = len(lineups)
    tracks_n = Rules(variant, players, swap_timing=swap_timing, require_contact=require_contact).track_count
    cols: dict[str, list[Any]] = {k: [] for k in SimulationResult._columns}
    for g in range(first, first + count):
        lineup = lineups[g % L]
        game_seed = derive_seed(seed, g // L if paired else g)
        seats: list[Any] = []
        for s, b in enumerate(lineup):
            e = entries[b]
            if isinstance(e, BuiltinBot):
                seats.append(BuiltinBot(e.name, _core.bot_seed(game_seed, s), **e.options))
            else:
                seats.append(e)
        try:
            game = play_game(
                seats, players, game_seed, variant, swap_timing=swap_timing, require_contact=require_contact
            )
            ranks, end = game.ranks(), game.end or "board_full"
        except Forfeit as e:
            # The game stops where the engine failed; its side ranks last (see `Forfeit`).
            if e.game is None or e.seat is None:
                raise
            game, ranks, end = e.game, forfeit_ranks(e.game, e.seat), "forfeit"
        st = game.stats
        cols["seed"].append(game_seed)
        cols["scores"].append(game.scores)
        cols["tracks"].append(game.tracks[:tracks_n])
        cols["ranks"].append(ranks)
        cols["bots"].append(lineup)
        for k in ("placements", "bonus_placements", "bonuses_lost", "swaps", "turns"):
            cols[k].append(st[k])
        cols["end"].append(END_NAMES.index(end))
    dtypes = dict(
        seed=np.uint64,
        scores=np.int8,
        tracks=np.int8,
        ranks=np.uint8,
        bots=np.uint8,
        placements=np.uint16,
        bonus_placements=np.uint16,
        bonuses_lost=np.uint16,
        swaps=np.uint16,
        turns=np.uint16,
        end=np.uint8,
    )
    shapes = dict(
        scores=(count, players, 6), tracks=(count, tracks_n, 6), ranks=(count, players), bots=(count, players)
    )
    arrays = {k: np.asarray(v, dtype=dtypes[k]).reshape(shapes.get(k, (count,))) for k, v in cols.items()}
    return SimulationResult(
        **arrays,
        players=players,
        variant=variant,
        swap_timing=swap_timing,
        require_contact=require_contact,
        bot_names=labels,
        run_seed=seed,
        first_game=first,
    )


def chunks(games: int, size: int, first_game: int = 0) -> Iterator[tuple[int, int]]:
    """Consecutive ``(first_game, games)`` ranges of at most ``size`` games."""
    start, stop = first_game, first_game + games
    while start < stop:
        n = min(size, stop - start)
        yield start, n
        start += n

"""Tournaments: every bot in every seat equally often, win rates, and Elo ratings with
standard errors from a Bradley–Terry fit.

>>> import genial
>>> t = genial.tournament(["greedy", "random"], games=40, seed=1, threads=1)
>>> t.games, t.seat_counts.tolist()
(40, [[20, 20], [20, 20]])
>>> t.ratings["greedy"][0] > t.ratings["random"][0]
True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .arguments import LIMITS, check_players, check_results_fit, check_seed, check_threads, int_in
from .bots import SEARCHING_BOTS, Bot, BuiltinBot, parse_bot
from .game import Game
from .results import SimulationResult
from .simulation import ProgressFn, chunks, python_games, run_games
from .stats import Summary

__all__ = ["tournament", "TournamentResult", "lineups_for", "lineups_count", "bradley_terry", "MAX_LINEUPS"]

_ELO = 400.0 / math.log(10.0)
MAX_LINEUPS = 100_000
"""Most seatings in one round of a tournament (`lineups_count`): every round plays each."""

TournamentBot = str | BuiltinBot | Bot


def lineups_for(bots: int, players: int) -> list[tuple[int, ...]]:
    """Seatings of a tournament: every ordered choice of distinct bots when there are enough,
    else every seating using at least two different bots. Either way, over all lineups each
    bot sits in each seat equally often.

    >>> lineups_for(2, 2)
    [(0, 1), (1, 0)]
    >>> len(lineups_for(3, 2)), len(lineups_for(2, 3))
    (6, 6)
    """
    if bots >= players:
        return list(itertools.permutations(range(bots), players))
    return [seats for seats in itertools.product(range(bots), repeat=players) if len(set(seats)) > 1]


def lineups_count(bots: int, players: int) -> int:
    """``len(lineups_for(bots, players))``, without listing them."""
    if bots >= players:
        return math.perm(bots, players)
    return int(bots**players) - bots


def bradley_terry(
    wins: npt.NDArray[np.float64], games: npt.NDArray[np.float64], prior: float = 1.0
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Elo ratings (mean 0) and their standard errors from pairwise results.

    ``wins[a, b]``: points ``a`` scored against ``b`` (a draw is half a point);
    ``games[a, b]``: their encounters (symmetric). ``prior`` virtual draws are added to every pair that
    met, so that a bot that never lost keeps a finite rating. Fitted by minorization–
    maximization (Hunter 2004); errors from the inverse Fisher information.
    """
    n = wins.shape[0]
    games = (games + games.T) / 2.0
    met = games > 0
    np.fill_diagonal(met, False)
    w = wins + prior * 0.5 * met
    g = games + prior * met
    total_wins = w.sum(axis=1)
    gamma = np.ones(n)
    for _ in range(10_000):
        denom = (g / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = np.where(denom > 0, total_wins / np.where(denom > 0, denom, 1.0), 1.0)
        new = np.maximum(new, 1e-300)
        new /= math.exp(float(np.log(new).mean()))
        done = float(np.max(np.abs(np.log(new) - np.log(gamma)))) < 1e-10
        gamma = new
        if done:
            break
    theta = np.log(gamma)
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    info_off = g * p * (1 - p)
    info = np.diag(info_off.sum(axis=1)) - info_off
    cov = np.linalg.pinv(info)
    se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    return theta * _ELO, se * _ELO


@dataclass(frozen=True, eq=False)
class TournamentResult:
    """A finished tournament: the games (`SimulationResult`, ``bots`` column indexing
    ``names``), how often each bot sat in each seat, win rates and Elo ratings."""

    names: tuple[str, ...]
    result: SimulationResult
    summary: Summary
    seat_counts: npt.NDArray[np.int64]  # bots × seats
    elo: npt.NDArray[np.float64]
    elo_se: npt.NDArray[np.float64]
    pair_wins: npt.NDArray[np.float64]  # bots × bots: points scored by row against column
    pair_games: npt.NDArray[np.float64]

    @property
    def games(self) -> int:
        return len(self.result)

    @property
    def ratings(self) -> dict[str, tuple[float, float]]:
        """``{bot: (elo, standard error)}``, Elo with mean 0."""
        return {n: (float(e), float(s)) for n, e, s in zip(self.names, self.elo, self.elo_se)}

    @property
    def win_rates(self) -> dict[str, float]:
        return {k: r.value for k, r in self.summary.bot_rates().items()}

    def table(self) -> str:
        rates = self.summary.bot_rates()
        order = np.argsort(-self.elo, kind="stable")
        width = max(12, max(len(n) for n in self.names) + 2)
        lines = [
            f"{self.games} games, {self.result.players} players, {self.result.variant}",
            f"{'bot':<{width}}{'elo':>7}{'± se':>7}  {'win rate [95% CI]':<26}{'seats':>7}{'lowest':>8}",
        ]
        low = self.result.lowest().astype(np.float64)
        for i in order:
            name = self.names[i]
            mask = self.result.bots == i
            mean_low = float(low[mask].mean()) if mask.any() else math.nan
            lines.append(
                f"{name:<{width}}{self.elo[i]:>7.0f}{self.elo_se[i]:>7.0f}  {rates[name]!s:<26}"
                f"{int(self.seat_counts[i].sum()):>7}{mean_low:>8.2f}"
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        return (
            f"<TournamentResult {self.games} games: "
            + ", ".join(f"{n} {e:.0f}" for n, e in zip(self.names, self.elo))
            + ">"
        )


def _pairwise(res: SimulationResult, nbots: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    wins = np.zeros((nbots, nbots))
    games = np.zeros((nbots, nbots))
    ranks = res.ranks.astype(np.int64)
    bots = res.bots.astype(np.int64)
    rules = res.rules
    for i in range(res.players):
        for j in range(res.players):
            # Partners of the team game are one side; they are not compared.
            if rules.side_of(i) == rules.side_of(j):
                continue
            a, b = bots[:, i], bots[:, j]
            diff = a != b
            score = np.where(ranks[:, i] < ranks[:, j], 1.0, np.where(ranks[:, i] == ranks[:, j], 0.5, 0.0))
            np.add.at(wins, (a[diff], b[diff]), score[diff])
            np.add.at(games, (a[diff], b[diff]), 1.0)
    # Each encounter was visited from both sides: `games[a, b] == games[b, a]` encounters.
    return wins, games


def tournament(
    bots: Sequence[TournamentBot],
    players: int = 2,
    games: int = 1000,
    seed: int = 0,
    threads: int | None = None,
    variant: str = "standard",
    swap_timing: str = "after_placement",
    require_contact: bool = False,
    *,
    chunk: int | None = None,
    progress: ProgressFn | None = None,
    on_chunk: Callable[[SimulationResult], None] | None = None,
    on_start: Callable[[int], None] | None = None,
) -> TournamentResult:
    """Plays ``games`` games (rounded up to a whole number of rounds through `lineups_for`)
    in which every bot sits in every seat equally often. One deal is played once in each
    lineup of a round (paired deals: luck of the draw cancels out). Built-in bots run in Rust
    over ``threads`` threads; any Python bot (``choose(view) -> Move``) makes the whole
    tournament run through `play_game` instead, with the same deals and bot seeds.

    ``on_start(total)`` is called once every argument is checked, before the first game;
    ``progress(done, total)`` after each ``chunk`` of games, and ``on_chunk(part)`` before
    it with that chunk's games (to write them as they come: a run stopped by Ctrl-C keeps
    what it finished).

    Every count is checked before any game is played (``ValueError`` naming the limit: 1 to
    4 players, at most ``LIMITS["bots"]`` bots and `MAX_LINEUPS` seatings a round). Ctrl-C
    stops a tournament within a fraction of a second, raising ``KeyboardInterrupt``.
    """
    if isinstance(bots, (str, bytes)) or len(bots) < 2:
        raise ValueError("a tournament needs at least two bots")
    if len(bots) > LIMITS["bots"]:
        raise ValueError(f"a tournament takes at most {LIMITS['bots']} bots, not {len(bots)}")
    players = check_players(players)
    rounds = lineups_count(len(bots), players)
    if rounds > MAX_LINEUPS:
        raise ValueError(
            f"{len(bots)} bots in {players} seats make {rounds} seatings a round, more than the limit "
            f"{MAX_LINEUPS}: use fewer bots"
        )
    games = int_in("games", games, 1, LIMITS["games"])
    seed = check_seed(seed)
    n_threads = check_threads(threads)
    if chunk is not None:
        chunk = int_in("chunk", chunk, 1)
    Game(players, seed, variant=variant, swap_timing=swap_timing, require_contact=require_contact)  # the rules
    entries: list[Any] = []
    labels: list[str] = []
    for b in bots:
        e = parse_bot(b) if isinstance(b, str) else b
        if not isinstance(e, BuiltinBot) and not callable(getattr(e, "choose", None)):
            raise TypeError(f"a tournament bot is a name, a BuiltinBot or has choose(view); not {type(b).__name__}")
        label = getattr(e, "label", None) or getattr(e, "name", type(e).__name__)
        base, k = str(label), 2
        while label in labels:
            label = f"{base}#{k}"
            k += 1
        labels.append(str(label))
        entries.append(e)
    lineups = lineups_for(len(entries), players)
    L = len(lineups)
    total = -(-games // L) * L
    check_results_fit(total, players, variant)
    # Searching bots take milliseconds a move: smaller chunks keep the progress moving.
    searching = any(
        (isinstance(e, BuiltinBot) and e.name in SEARCHING_BOTS) or not isinstance(e, BuiltinBot) for e in entries
    )
    step = chunk or (64 if searching else 10_000)
    step = max(L, -(-step // L) * L)
    native = all(isinstance(e, BuiltinBot) for e in entries)
    if native:  # the bots' settings together (no game is played)
        run_games(0, players, entries, labels, lineups, seed, True, 0, n_threads, variant, swap_timing, require_contact)
    if on_start is not None:
        on_start(total)
    parts = []
    done = 0
    try:
        for first, count in chunks(total, step):
            if native:
                part = run_games(
                    count,
                    players,
                    entries,
                    labels,
                    lineups,
                    seed,
                    True,
                    first,
                    n_threads,
                    variant,
                    swap_timing,
                    require_contact,
                )
            else:
                part = python_games(
                    entries,
                    lineups,
                    players,
                    seed,
                    True,
                    first,
                    count,
                    variant,
                    swap_timing,
                    require_contact,
                    tuple(labels),
                )
            parts.append(part)
            done += count
            if on_chunk is not None:
                on_chunk(part)
            if progress is not None:
                progress(done, total)
    finally:
        # Engines this call started from their text form are stopped with it.
        for given, e in zip(bots, entries):
            if isinstance(given, str) and not isinstance(e, BuiltinBot) and callable(getattr(e, "close", None)):
                e.close()
    res = SimulationResult.concat(parts)
    nb = len(entries)
    seat_counts = np.zeros((nb, players), dtype=np.int64)
    for s in range(players):
        seat_counts[:, s] = np.bincount(res.bots[:, s].astype(np.int64), minlength=nb)
    wins, met = _pairwise(res, nb)
    elo, se = bradley_terry(wins, met)
    return TournamentResult(tuple(labels), res, res.summary(), seat_counts, elo, se, wins, met)

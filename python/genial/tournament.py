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

import contextlib
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ._core import Rules
from .arguments import LIMITS, check_results_fit, check_threads, int_in
from .bots import Bot, BuiltinBot, parse_bot
from .progress import ProgressBar
from .results import SimulationResult
from .simulation import ProgressFn, Run
from .stats import Summary
from .variants import as_rules

__all__ = [
    "tournament",
    "TournamentResult",
    "lineups_for",
    "lineups_count",
    "bradley_terry",
    "MAX_LINEUPS",
    "DEFAULT_GAMES",
    "tournament_run",
]

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

    def head_to_head(self) -> npt.NDArray[np.float64]:
        """``[a, b]``: the share of points bot ``a`` scored against bot ``b`` where they met
        (a draw is half a point); NaN where they never met."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(
                self.pair_games > 0, self.pair_wins / np.where(self.pair_games > 0, self.pair_games, 1), np.nan
            )

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


DEFAULT_GAMES = 1000
"""Games of a tournament when none are asked: rounded up to whole rounds."""


def tournament_run(
    bots: Sequence[TournamentBot], rules: Rules, seed: int = 0, games: int | None = None
) -> tuple[Run, int]:
    """The `Run` of a tournament and its number of games, every argument checked (no game
    is played): what `tournament` plays."""
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence) or len(bots) < 2:
        raise ValueError("a tournament needs a list of at least two bots")
    if len(bots) > LIMITS["bots"]:
        raise ValueError(f"a tournament takes at most {LIMITS['bots']} bots, not {len(bots)}")
    n = rules.players
    rounds = lineups_count(len(bots), n)
    if rounds > MAX_LINEUPS:
        raise ValueError(
            f"{len(bots)} bots in {n} seats make {rounds} seatings a round, more than the limit "
            f"{MAX_LINEUPS}: use fewer bots"
        )
    if games is None:
        total = -(-DEFAULT_GAMES // rounds) * rounds
    else:
        total = int_in("games", games, 1, LIMITS["games"])
        if total % rounds:
            low, high = total // rounds * rounds, -(-total // rounds) * rounds
            nearest = f"{low} or {high}" if low else f"{high}"
            raise ValueError(
                f"a tournament plays whole rounds of {rounds} seatings, so that every bot sits in every "
                f"seat equally often; {total} games is not a whole number of rounds: ask for {nearest}"
            )
    check_results_fit(total, rules)
    entries: list[Any] = []
    owned: list[Any] = []  # engines started from their text form: stopped with the run
    for b in bots:
        e = parse_bot(b) if isinstance(b, str) else b
        if not isinstance(e, BuiltinBot) and not callable(getattr(e, "choose", None)):
            raise TypeError(f"a tournament bot is a name, a BuiltinBot or has choose(view); not {type(b).__name__}")
        entries.append(e)
        if isinstance(b, str) and not isinstance(e, BuiltinBot):
            owned.append(e)
    return Run(rules, entries, lineups_for(len(entries), n), seed, paired=True, owned=owned), total


def tournament(
    bots: Sequence[TournamentBot],
    players: int | None = None,
    games: int | None = None,
    seed: int = 0,
    threads: int | None = None,
    variant: str = "standard",
    swap_timing: str = "after_placement",
    require_contact: bool = False,
    *,
    rules: Rules | None = None,
    chunk: int | None = None,
    progress: ProgressFn | bool | None = None,
    on_chunk: Callable[[SimulationResult], None] | None = None,
    on_start: Callable[[int], None] | None = None,
) -> TournamentResult:
    """Plays ``games`` games in which every bot sits in every seat equally often: whole
    rounds of the seatings `lineups_for` lists, so ``games`` must be a multiple of their
    number (a `ValueError` says the nearest counts); without ``games``, about
    `DEFAULT_GAMES`, rounded up to whole rounds. One deal is played once in each seating of
    a round (paired deals: luck of the draw cancels out). The rules: ``rules=`` one `Rules`,
    or ``players`` (default: the variant's count) and the options, as for `genial.Game`.

    Built-in bots run in Rust over ``threads`` threads; any Python bot (``choose(view) ->
    Move``) or engine (``"engine:COMMAND"``) makes every game run through `play_game`
    instead, with the same deals, bot seeds and result columns: the run loop is
    `genial.simulation.Run`'s, shared with `simulate`. A game a bot forfeits
    (`genial.bots.Forfeit`: an engine hung, crashed, wrote garbage or chose an illegal move) is
    recorded as it stood, its side ranked last, its end ``"forfeit"``; the tournament plays
    on. Engines started here from their text form are stopped when it returns.

    ``on_start(total)`` is called once every argument is checked, before the first game;
    ``progress(done, total)`` every 200 ms while games are played (``progress=True``: a
    progress bar, `genial.progress.ProgressBar`); ``on_chunk(part)`` with
    each chunk of games as it is finished (to write them as they come). Ctrl-C stops a
    tournament within a fraction of a second, raising ``KeyboardInterrupt`` after handing
    the games finished by then to ``on_chunk``.

    Every count is checked before any game is played (``ValueError`` naming the limit: 1 to
    4 players, at most ``LIMITS["bots"]`` bots and `MAX_LINEUPS` seatings a round).
    """
    rules = as_rules(rules, players=players, variant=variant, swap_timing=swap_timing, require_contact=require_contact)
    run, total = tournament_run(bots, rules, seed, games)
    if chunk is not None:
        chunk = int_in("chunk", chunk, 1)
    check_threads(threads)
    if on_start is not None:
        on_start(total)
    parts = []
    with contextlib.ExitStack() as stack:
        stack.enter_context(run)  # engines started from their text form stop with this call
        report = stack.enter_context(ProgressBar(total, "tournament", enabled=True)) if progress is True else progress
        for part in run.chunks(0, total, threads, chunk=chunk, progress=report or None):
            parts.append(part)
            if on_chunk is not None:
                on_chunk(part)
    res = SimulationResult.concat(parts)
    nb, n = len(run.bots), rules.players
    seat_counts = np.zeros((nb, n), dtype=np.int64)
    for s in range(n):
        seat_counts[:, s] = np.bincount(res.bots[:, s].astype(np.int64), minlength=nb)
    wins, met = _pairwise(res, nb)
    elo, se = bradley_terry(wins, met)
    return TournamentResult(run.labels, res, res.summary(), seat_counts, elo, se, wins, met)

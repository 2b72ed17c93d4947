"""The rating ladder: how strong each bot is, as Elo ratings with confidence intervals.

A pool of bots (the built-in bots, the levels and any ``engine:`` entries) plays the
2-player and the 4-player base game, swaps on. Games come in **matches**: one deal played
once in every rotation of the match's bots over the seats, so that neither the deal nor
the seat favours anyone. A round of the 2-player ladder is every pair of the pool; a round
of the 4-player ladder is as many matches as the pool has bots, each of four bots drawn
from the run's seed.

Ratings come from a Bradley–Terry fit (maximum likelihood, as BayesElo and Ordo fit
them) of the pairwise results: in a 4-player game each pair of seats is one encounter
(the better placed wins, equal places draw). They are anchored at ``random`` = 0, and
their 95% intervals come from a bootstrap over matches (the games of a match, and the
pairs of a 4-player game, are resampled together, so their correlation is kept).

Every finished match is appended to a results file as one JSON line; a run that stops
(Ctrl-C, a crash) resumes from it and plays only what is missing.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from ._core import Rules
from .arguments import int_in
from .bots import BuiltinBot, catalogue, parse_bot
from .files import replacing, write_atomic
from .simulation import Run, bot_label, derive_seed
from .tournament import bradley_terry

__all__ = [
    "default_pool",
    "Match",
    "schedule",
    "LadderRun",
    "Ratings",
    "fit",
    "FORMAT",
    "VERSION",
    "play_match",
]

FORMAT = "genial.ladder"
VERSION = 1
ANCHOR = "random"
#: The most matches a run schedules: the schedule, the results file's rows and the fit all
#: hold every match (the fit, pool² pairs of each), so a count past this is refused before anything is played (a billion
#: rounds once filled the machine's memory building the schedule, with no output).
MAX_MATCHES = 100_000
#: The most bootstrap resamplings of the fit (each one refits every match).
MAX_BOOTSTRAP = 100_000


def default_pool() -> list[str]:
    """Every built-in bot of the catalogue (``random``, ``greedy``, ``scarcity``, ``mcts``
    and the levels), weakest first by the catalogue's strength rank."""
    return [b.name for b in sorted(catalogue(), key=lambda b: b.strength)]


@dataclass(frozen=True)
class Match:
    """One deal played in every rotation of ``bots`` (indices into the pool) over the seats."""

    players: int
    index: int  # the match's number within its format: it fixes the deal
    bots: tuple[int, ...]

    @property
    def key(self) -> str:
        return f"{self.players}p-{self.index}"

    def lineups(self) -> list[tuple[int, ...]]:
        n = len(self.bots)
        return [tuple(self.bots[(s + r) % n] for s in range(n)) for r in range(n)]


def schedule(pool_size: int, rounds2: int, rounds4: int, seed: int) -> list[Match]:
    """The matches of a run, in playing order: the rounds of both formats interleaved,
    so that a run stopped early has a little of everything."""
    rounds2 = int_in("rounds2", rounds2, 0)
    rounds4 = int_in("rounds4", rounds4, 0)
    if pool_size < 2:
        raise ValueError("a ladder needs at least two bots")
    if rounds4 and pool_size < 4:
        raise ValueError("the 4-player ladder needs at least four bots")
    count = rounds2 * (pool_size * (pool_size - 1) // 2) + rounds4 * pool_size
    if count > MAX_MATCHES:
        raise ValueError(
            f"{rounds2} 2-player and {rounds4} 4-player rounds of {pool_size} bots make {count:,} matches, "
            f"more than the {MAX_MATCHES:,} a ladder plays: give fewer rounds"
        )
    pairs = [(a, b) for a in range(pool_size) for b in range(a + 1, pool_size)]
    out: list[Match] = []
    m2 = m4 = 0
    for r in range(max(rounds2, rounds4)):
        if r < rounds2:
            for pair in pairs:
                out.append(Match(2, m2, pair))
                m2 += 1
        if r < rounds4:
            for _ in range(pool_size):
                out.append(Match(4, m4, _draw4(pool_size, seed, m4)))
                m4 += 1
    return out


def _draw4(n: int, seed: int, index: int) -> tuple[int, ...]:
    """Four distinct bots for 4-player match ``index``, drawn from the run's seed."""
    chosen: list[int] = []
    k = 0
    while len(chosen) < 4:
        b = _core.derive_seed(derive_seed(seed ^ 0x4C41_4444_4552, index), k) % n
        if b not in chosen:
            chosen.append(b)
        k += 1
    return tuple(chosen)


# ----- playing and the results file --------------------------------------------------------


class LadderRun:
    """A ladder run bound to its results file (JSON lines: a header, then one line per
    finished match). Opening an existing file resumes it when its header matches."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        pool: Sequence[str],
        *,
        rounds2: int = 2,
        rounds4: int = 1,
        seed: int = 0,
    ) -> None:
        if len(set(pool)) != len(pool):
            raise ValueError("the pool lists a bot twice")
        self.path = Path(path)
        self.pool = list(pool)
        self.bots = [parse_bot(spec) for spec in self.pool]  # checks every spec now
        self.names = [b.label if isinstance(getattr(b, "label", None), str) else bot_label(b) for b in self.bots]
        if ANCHOR not in self.names:
            raise ValueError(f"the ladder is anchored at {ANCHOR!r}: put it in the pool")
        self.seed = seed
        self.matches = schedule(len(self.pool), rounds2, rounds4, seed)
        self.header = {
            "format": FORMAT,
            "version": VERSION,
            "pool": self.pool,
            "names": self.names,
            "rounds2": rounds2,
            "rounds4": rounds4,
            "seed": seed,
            "rules": [match_rules(players).to_text() for players in (2, 4)],
        }
        self.done: dict[str, dict[str, Any]] = {}
        self._read()

    def _read(self) -> None:
        """Reads the matches the file holds. A line that is not a valid match of this run
        (half-written by a run that was killed, damaged, a match twice) is set aside: moved
        to ``PATH.bad`` and listed in `set_aside`, while every valid line, before and after
        it, is kept. A wrong header is a one-line `ValueError`."""
        self.set_aside: list[str] = []
        if self.path.is_dir():
            raise ValueError(f"{self.path} is a folder, not a ladder results file")
        if not self.path.exists() or self.path.stat().st_size == 0:
            return
        raw = self.path.read_bytes()
        lines = raw.split(b"\n")
        if lines[-1] == b"":
            lines.pop()  # after the final newline
        header = _json_line(lines[0])
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise ValueError(f"{self.path} is not a ladder results file: its first line is not a {FORMAT} header")
        if header != self.header:
            diff = [k for k in self.header if header.get(k) != self.header[k]]
            raise ValueError(
                f"{self.path} holds another ladder run (its {', '.join(diff) or 'format'} differ): "
                "give the same settings to resume it, or another results file"
            )
        matches = {m.key: m for m in self.matches}
        good = [lines[0]]
        bad: list[bytes] = []
        for number, line in enumerate(lines[1:], start=2):
            row = _json_line(line)
            why = _invalid_row(row, matches, set(self.names))
            if why is None and row["match"] in self.done:
                why = f"match {row['match']} a second time"
            if why is not None:
                bad.append(line)
                self.set_aside.append(f"line {number}: {why}")
                continue
            self.done[row["match"]] = row
            good.append(line)
        if bad or not raw.endswith(b"\n"):
            if bad:
                with open(self.bad_path, "ab") as f:
                    f.write(b"".join(line + b"\n" for line in bad))
                    f.flush()
                    os.fsync(f.fileno())
            write_atomic(self.path, b"".join(line + b"\n" for line in good))

    @property
    def bad_path(self) -> Path:
        """Where lines that could not be read are set aside: ``PATH.bad``."""
        return self.path.with_name(self.path.name + ".bad")

    @property
    def remaining(self) -> list[Match]:
        return [m for m in self.matches if m.key not in self.done]

    def play(
        self,
        progress: Callable[[int, int], None] | None = None,
        *,
        ray: str | None = None,
        nodes: Callable[[int], None] | None = None,
    ) -> None:
        """Plays every match not yet in the file, appending each as it finishes.

        ``ray``: play the matches as tasks on the Ray cluster at that address (``"auto"``:
        the one this machine belongs to; `genial.distributed`); they arrive, and are
        appended, in the order they finish, and ``nodes(count)`` hears how many nodes have
        played so far. The ratings do not depend on that order (`ratings` reads the
        matches in schedule order), so the result is the same as here."""
        new = not self.path.exists() or self.path.stat().st_size == 0
        self.path.parent.mkdir(parents=True, exist_ok=True)
        total = len(self.matches)
        try:
            with open(self.path, "a", encoding="utf-8") as f:
                if new:
                    f.write(json.dumps(self.header) + "\n")
                    f.flush()

                def finished(m: Match, row: dict[str, Any]) -> None:
                    f.write(json.dumps(row) + "\n")
                    f.flush()
                    self.done[m.key] = row
                    if progress is not None:
                        progress(len(self.done), total)

                if ray is None:
                    for m in self.remaining:
                        finished(m, _match_row(self.bots, self.names, self.seed, m))
                else:
                    from .distributed import run_tasks

                    seen: set[str] = set()
                    jobs = [
                        {"pool": self.pool, "names": self.names, "seed": self.seed, "match": m} for m in self.remaining
                    ]

                    def arrived(job: dict[str, Any], row: dict[str, Any], node: str) -> None:
                        finished(job["match"], row)
                        seen.add(node)
                        if nodes is not None:
                            nodes(len(seen))

                    run_tasks(play_match, jobs, arrived, address=ray)
        finally:
            for b in self.bots:
                if not isinstance(b, BuiltinBot) and callable(getattr(b, "close", None)):
                    b.close()

    def ratings(self, bootstrap: int = 200) -> Ratings:
        """The fit of the matches played so far, taken in schedule order (not the order
        they finished in), so that the intervals do not depend on where they were played."""
        rows = [self.done[m.key] for m in self.matches if m.key in self.done]
        return fit(self.names, rows, bootstrap=bootstrap, seed=self.seed)


def match_rules(players: int) -> Rules:
    """The rules of the ladder's matches of ``players`` seats: the standard game as the
    current books play it."""
    return Rules("standard", players)


def _json_line(line: bytes) -> Any:
    """One line's JSON value, or ``None`` when it is not JSON (cut short, nested too deeply,
    not UTF-8)."""
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def _invalid_row(row: Any, matches: dict[str, Match], names: set[str]) -> str | None:
    """Why ``row`` is not a finished match of this run's schedule (``None``: it is one)."""
    if not isinstance(row, dict):
        return "not a JSON object (cut short or damaged)"
    key = row.get("match")
    if not isinstance(key, str) or key not in matches:
        return "'match' is not a match of this run"
    m = matches[key]
    if row.get("players") != m.players or isinstance(row.get("players"), bool):
        return f"'players' is not {m.players}"
    games = row.get("games")
    if not isinstance(games, list) or len(games) != m.players:
        return f"'games' is not a list of {m.players} games"
    for game in games:
        if not isinstance(game, dict):
            return "a game is not a JSON object"
        seats, ranks = game.get("seats"), game.get("ranks")
        if not isinstance(seats, list) or len(seats) != m.players or not all(s in names for s in seats):
            return f"a game's 'seats' are not {m.players} bots of the pool"
        if (
            not isinstance(ranks, list)
            or len(ranks) != m.players
            or not all(type(r) is int and 0 <= r < m.players for r in ranks)
        ):
            return f"a game's 'ranks' are not {m.players} places"
        if not isinstance(game.get("end"), str):
            return "a game's 'end' is not a string"
    return None


def _match_row(bots: Sequence[Any], names: Sequence[str], seed: int, m: Match) -> dict[str, Any]:
    """Plays match ``m`` (its deal in every rotation of its bots): its line of the results file."""
    kept = [bots[b] for b in m.bots]
    labels = [names[b] for b in m.bots]
    local = [tuple(range(m.players))[r:] + tuple(range(m.players))[:r] for r in range(m.players)]
    deals = derive_seed(seed, m.players)  # one stream of deals per format
    run = Run(match_rules(m.players), kept, local, deals, paired=True, labels=labels)
    res = run.play(m.index * m.players, m.players, threads=1)
    games = []
    for g in range(len(res)):
        games.append(
            {
                "seats": [names[m.bots[int(i)]] for i in res.bots[g]],
                "ranks": [int(r) for r in res.ranks[g]],
                "end": str(res.end_reasons()[g]),
            }
        )
    return {"match": m.key, "players": m.players, "games": games}


def play_match(job: dict[str, Any]) -> dict[str, Any]:
    """One match of ``genial ladder --ray``, on a worker: the pool's bots built from their
    text forms there (engines started there, and stopped after the match)."""
    bots = [parse_bot(spec) for spec in job["pool"]]
    try:
        return _match_row(bots, job["names"], job["seed"], job["match"])
    finally:
        for b in bots:
            if not isinstance(b, BuiltinBot) and callable(getattr(b, "close", None)):
                b.close()


# ----- the fit ---------------------------------------------------------------------------------


def _pairwise(names: Sequence[str], rows: Sequence[dict[str, Any]]) -> Iterator[npt.NDArray[np.float64]]:
    """Per match, a (bots × bots × 2) array: points of row against column, encounters."""
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    for row in rows:
        acc = np.zeros((k, k, 2))
        for game in row["games"]:
            seats, ranks = game["seats"], game["ranks"]
            for i in range(len(seats)):
                for j in range(len(seats)):
                    a, b = index[seats[i]], index[seats[j]]
                    if i == j or a == b:
                        continue
                    acc[a, b, 0] += 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                    acc[a, b, 1] += 1.0
        yield acc


@dataclass(frozen=True)
class Ratings:
    """Fitted ratings: Elo anchored at ``random`` = 0, 95% bootstrap intervals, and the
    pairwise results they come from."""

    names: tuple[str, ...]
    elo: npt.NDArray[np.float64]
    low: npt.NDArray[np.float64]
    high: npt.NDArray[np.float64]
    points: npt.NDArray[np.float64]  # row's points against column
    encounters: npt.NDArray[np.float64]
    games: dict[int, int]  # players -> games played
    matches: int

    def order(self) -> list[int]:
        return sorted(range(len(self.names)), key=lambda i: -self.elo[i])

    def table(self) -> str:
        """The ladder as a Markdown table, strongest first."""
        lines = [
            "| rank | bot | Elo | 95% interval | encounters | score |",
            "|---:|---|---:|---|---:|---:|",
        ]
        for r, i in enumerate(self.order(), 1):
            met = self.encounters[i].sum()
            score = 100 * self.points[i].sum() / met if met else math.nan
            interval = f"[{self.low[i]:+.0f}, {self.high[i]:+.0f}]"
            lines.append(f"| {r} | {self.names[i]} | {self.elo[i]:+.0f} | {interval} | {met:.0f} | {score:.1f}% |")
        return "\n".join(lines)

    def matrix(self) -> str:
        """Head to head: the row bot's score against the column bot (encounters below)."""
        order = self.order()
        head = "| | " + " | ".join(self.names[j] for j in order) + " |"
        lines = [head, "|---|" + "---:|" * len(order)]
        for i in order:
            cells = []
            for j in order:
                met = self.encounters[i, j]
                cells.append("" if i == j or not met else f"{100 * self.points[i, j] / met:.0f}% ({met:.0f})")
            lines.append(f"| {self.names[i]} | " + " | ".join(cells) + " |")
        return "\n".join(lines)

    def plot(self, path: str | os.PathLike[str]) -> bool:
        """The ratings with their intervals as a PNG; ``False`` when matplotlib is missing."""
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            return False
        order = self.order()[::-1]
        fig, ax = plt.subplots(figsize=(7, 0.45 * len(order) + 1.2))
        y = np.arange(len(order))
        elo = self.elo[order]
        # A percentile interval from few resamplings may miss the estimate itself: no negative bar.
        below, above = np.maximum(elo - self.low[order], 0), np.maximum(self.high[order] - elo, 0)
        ax.errorbar(elo, y, xerr=[np.nan_to_num(below), np.nan_to_num(above)], fmt="o", capsize=4)
        ax.set_yticks(y, [self.names[i] for i in order])
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_xlabel("Elo (random = 0), 95% interval")
        ax.set_title(f"genial ladder: {sum(self.games.values())} games ({self.matches} matches)")
        fig.tight_layout()
        try:
            with replacing(path, "wb") as f:
                fig.savefig(f, dpi=110, format="png")
        finally:
            plt.close(fig)
        return True


def fit(names: Sequence[str], rows: Sequence[dict[str, Any]], *, bootstrap: int = 200, seed: int = 0) -> Ratings:
    """Bradley–Terry ratings of the matches ``rows`` (as the results file holds them),
    anchored at ``random``, with percentile intervals from ``bootstrap`` resamplings of
    the matches (a fixed generator seeded from ``seed``; at most `MAX_BOOTSTRAP`)."""
    bootstrap = int_in("bootstrap", bootstrap, 0, MAX_BOOTSTRAP)
    names = tuple(names)
    per_match = np.stack(list(_pairwise(names, rows))) if rows else np.zeros((0, len(names), len(names), 2))
    anchor = names.index(ANCHOR)

    def solve(total: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        elo, _ = bradley_terry(total[..., 0], total[..., 1])
        return np.asarray(elo - elo[anchor], dtype=np.float64)

    total = per_match.sum(axis=0)
    elo = solve(total)
    rng = np.random.Generator(np.random.PCG64(seed))
    samples = []
    for _ in range(bootstrap if len(rows) > 1 else 0):
        pick = rng.integers(0, len(rows), len(rows))
        samples.append(solve(per_match[pick].sum(axis=0)))
    if samples:
        low, high = np.percentile(np.stack(samples), [2.5, 97.5], axis=0)
    else:
        low = high = np.full(len(names), math.nan)
    games: dict[int, int] = {}
    for row in rows:
        games[row["players"]] = games.get(row["players"], 0) + len(row["games"])
    return Ratings(names, elo, low, high, total[..., 0], total[..., 1], games, len(rows))

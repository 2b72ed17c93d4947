"""Strength of the levels against fixed opponents (BENCHMARKS.md, "The levels: strength and
time per move" and "The master level and the ceiling").

Runs 0-4 (`expert`'s table) use the report seed (default 2026), disjoint from the seeds used
in tuning (tournament seed 999) and training (7_000_000 and up, training/fit_eval.py). Two-player
runs are tournaments (paired deals, seats alternated; a tie counts half a win); the
one-against-three runs rotate the bots one seat per game (each seat equally often) and
count first places (shared firsts split).

Runs 5-7 (`master`'s targets) default to seed 4_000_000: never used in training
(training/master.py: 8_000_000 and up; training/fit_eval.py: 7_000_000 and up), tuning (999)
or an earlier report (2026, and every tournament seed below 10_000); game seeds 5_100_000 and
up are the ceiling bench's deals (benches/ceiling.rs). They play paired deals: two players,
one deal with the bots in both seats; four players, one deal four times, the master in each
seat against three of the other. The score is the master's share of first
places (a tie shared by k seats counts 1/k). Every finished chunk of games is appended to
``--log`` (JSON lines), and a run started again with the same log goes on where it stopped:
games are deterministic for a seed at the levels' fixed iteration budgets.

    python benches/strength.py                 # every run
    python benches/strength.py --only 0 --games 40
    python benches/strength.py --only 5 --only 6 --only 7 --threads 1 --log master.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Sequence

import genial
from genial.bots import parse_bot
from genial.simulation import Run
from genial.stats import Rate
from genial.variants import as_rules

RUNS = [
    ("expert vs scarcity, 2 players", 2, ["expert", "scarcity"]),
    ("expert vs scarcity, 2 players, swaps declined", 2, ["expert:swap=never", "scarcity:swap=never"]),
    ("expert vs mcts (300 iterations), 2 players", 2, ["expert", "mcts"]),
    ("one expert vs three scarcity, 4 players", 4, ["expert", "scarcity", "scarcity", "scarcity"]),
    ("one expert vs three mcts, 4 players", 4, ["expert", "mcts", "mcts", "mcts"]),
]

# The master's targets (issue 22): (title, players, [the bot, its opponent]).
MASTER_RUNS = [
    ("master vs expert, 2 players", 2, ["master", "expert"]),
    ("one master vs three experts, 4 players", 4, ["master", "expert"]),
    ("master vs scarcity, 2 players", 2, ["master", "scarcity"]),
]
MASTER_SEED = 4_000_000


def lineups(players: int) -> list[list[int]]:
    """One bot (0) in every seat in turn, the other (1) in the rest."""
    return [[0 if s == k else 1 for s in range(players)] for k in range(players)]


def done_chunks(log: str | None, title: str, seed: int) -> dict[int, tuple[int, float]]:
    """The chunks of a run already in the log: first game -> (games, credit)."""
    out: dict[int, tuple[int, float]] = {}
    if log is None or not os.path.exists(log):
        return out
    with open(log, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            if r["run"] == title and r["seed"] == seed:
                out[int(r["first"])] = (int(r["games"]), float(r["credit"]))
    return out


def one_against(
    title: str, players: int, bots: Sequence[str], games: int, seed: int, threads: int, log: str | None
) -> Rate:
    """Bot 0's share of first places in paired deals against bot 1 (see the module's text),
    appending each chunk to ``log`` and skipping the chunks already there."""
    seats = lineups(players)
    run = Run(as_rules(None, players=players), [parse_bot(b) for b in bots], seats, seed, paired=True)
    # Whole rounds of paired deals, enough of them that every thread gets games (a run
    # splits its games over threads only in shares of at least 16).
    rounds = 2 * len(seats)
    chunk = rounds * max(1, -(-16 * max(threads, 1) // rounds))
    games = -(-games // len(seats)) * len(seats)
    done = done_chunks(log, title, seed)
    credit, n = 0.0, 0
    for first in range(0, games, chunk):
        count = min(chunk, games - first)
        if first in done and done[first][0] == count:
            c = done[first][1]
        else:
            part = run.play(first, count, threads)
            if len(part) != count:  # stopped (Ctrl-C): what finished is not a whole chunk
                raise KeyboardInterrupt
            mine = part.bots == 0
            c = float((part.win_credit() * mine).sum())
            if log is not None:
                with open(log, "a", encoding="utf-8") as f:
                    row = {"run": title, "seed": seed, "first": first, "games": count, "credit": c}
                    f.write(json.dumps(row) + "\n")
        credit += c
        n += count
        print(f"  {title}: {n} games: {Rate.wilson(credit, n)}", flush=True)
    return Rate.wilson(credit, n)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=None, help=f"default 2026 (runs 0-4), {MASTER_SEED} (runs 5-7)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", type=int, action="append", default=None, help="run number (repeatable)")
    ap.add_argument("--log", default=None, help="JSON lines of finished chunks (runs 5-7); resumes from it")
    args = ap.parse_args()
    for k, (title, players, bots) in enumerate(RUNS):
        if args.only is not None and k not in args.only:
            continue
        seed = 2026 if args.seed is None else args.seed
        t = time.perf_counter()
        if players == 2:
            res = genial.tournament(bots, players=2, games=args.games, seed=seed, threads=args.threads)
            rate = res.summary.bot_rates()[res.names[0]]
            n = res.games
        else:
            sim = genial.simulate(args.games, players=players, bots=bots, seed=seed, threads=args.threads, rotate=True)
            rate = sim.summary().bot_rates()[sim.bot_names[0]]
            n = len(sim)
        print(
            f"{k}: {title}: {bots[0]} {rate} over {n} games ({time.perf_counter() - t:.0f} s, seed {seed})",
            flush=True,
        )
    for j, (title, players, bots) in enumerate(MASTER_RUNS):
        k = len(RUNS) + j
        if args.only is not None and k not in args.only:
            continue
        seed = MASTER_SEED if args.seed is None else args.seed
        t = time.perf_counter()
        rate = one_against(title, players, bots, args.games, seed, args.threads, args.log)
        print(
            f"{k}: {title}: {bots[0]} {rate} over {int(rate.n)} games "
            f"({time.perf_counter() - t:.0f} s this session, seed {seed})",
            flush=True,
        )


if __name__ == "__main__":
    main()

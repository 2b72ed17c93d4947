"""Strength of the levels against fixed opponents (BENCHMARKS.md, "Levels and analysis").

Every run uses the report seed (default 2026), disjoint from the seeds used in tuning
(tournament seed 999) and training (7_000_000 and up, training/fit_eval.py). Two-player
runs are tournaments (paired deals, seats alternated; a tie counts half a win); the
one-against-three runs rotate the bots one seat per game (each seat equally often) and
count first places (shared firsts split).

    python benches/strength.py                 # every run (about 35 minutes on 2 cores)
    python benches/strength.py --only 0 --games 40
"""

from __future__ import annotations

import argparse
import time

import genial

RUNS = [
    ("expert vs scarcity, 2 players", 2, ["expert", "scarcity"]),
    ("expert vs scarcity, 2 players, swaps declined", 2, ["expert:swap=never", "scarcity:swap=never"]),
    ("expert vs mcts (300 iterations), 2 players", 2, ["expert", "mcts"]),
    ("one expert vs three scarcity, 4 players", 4, ["expert", "scarcity", "scarcity", "scarcity"]),
    ("one expert vs three mcts, 4 players", 4, ["expert", "mcts", "mcts", "mcts"]),
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", type=int, action="append", default=None, help="run number (repeatable)")
    args = ap.parse_args()
    for k, (title, players, bots) in enumerate(RUNS):
        if args.only is not None and k not in args.only:
            continue
        t = time.perf_counter()
        if players == 2:
            res = genial.tournament(bots, players=2, games=args.games, seed=args.seed, threads=args.threads)
            rate = res.summary.bot_rates()[res.names[0]]
            n = res.games
        else:
            sim = genial.simulate(
                args.games, players=players, bots=bots, seed=args.seed, threads=args.threads, rotate=True
            )
            rate = sim.summary().bot_rates()[sim.bot_names[0]]
            n = len(sim)
        print(
            f"{k}: {title}: {bots[0]} {rate} over {n} games ({time.perf_counter() - t:.0f} s, seed {args.seed})",
            flush=True,
        )


if __name__ == "__main__":
    main()

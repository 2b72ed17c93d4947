"""Time to review a whole game (BENCHMARKS.md, "Reviews and calibration").

Plays ``--games`` 2-player games between the medium level and the greedy bot (seeds
2000..), then reviews each at the default strength (the expert level's budget) and
reports the wall-clock and process CPU time of `genial.review` per game and per decision. The
review searches in one thread (the GIL released), so the CPU time is that of one core.

    python benches/review_time.py
    python benches/review_time.py --games 5 --level hard
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import genial


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--level", choices=("hard", "expert"), default="expert")
    args = ap.parse_args()
    walls, cpus, decisions = [], [], []
    for g in range(args.games):
        game = genial.play_game((["medium", "greedy"] * 2)[: args.players], args.players, 2000 + g)
        w, c = time.perf_counter(), time.process_time()
        r = genial.review(game, args.level, seed=g)
        cpus.append(time.process_time() - c)
        walls.append(time.perf_counter() - w)
        decisions.append(len(r.decisions))
        print(f"game {g}: {len(r.decisions)} decisions, {walls[-1]:.2f} s wall, {cpus[-1]:.2f} s CPU", flush=True)
    print(
        f"{args.players} players, {args.level}: median {statistics.median(walls):.2f} s wall, "
        f"{statistics.median(cpus):.2f} s CPU per game; "
        f"{1000 * sum(walls) / sum(decisions):.0f} ms wall per decision; "
        f"load average before/after {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()

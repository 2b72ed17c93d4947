"""Time per move and games per second of every built-in bot and level (BENCHMARKS.md,
"The levels: strength and time per move").

Time per move: each bot plays every seat of ``--games`` games (its own self-play, seeds
1000..), timed per decision around ``BuiltinBot.choose``: wall clock, and the CPU time of
the whole process. Not the calling thread's: the search may run on a worker thread while
the calling thread waits for it (and runs Python's signal handlers), so the caller's own
CPU time says nothing about the search. Nothing else runs in this process meanwhile, so its
CPU time is the bot's (plus the waiting thread's wake-ups, microseconds). Games/s:
``genial.simulate`` of self-play games with one thread.

    python benches/levels_report.py                  # 2 and 4 players
    python benches/levels_report.py --players 2 --games 2
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import genial
from genial.bots import catalogue, parse_bot

# Every built-in bot of the catalogue: the plain ones, then the levels, each weakest first;
# MCTS, the raw search under the levels, last.
BOTS = tuple(sorted(catalogue(), key=lambda b: (b.searches and not b.level, b.level, b.strength)))


def per_move(spec: str, players: int, games: int) -> tuple[list[float], list[float]]:
    wall, cpu = [], []
    for g in range(games):
        game = genial.Game(players=players, seed=1000 + g)
        bots = [parse_bot(spec, seed=g * 10 + s) for s in range(players)]
        while not game.is_over:
            w, c = time.perf_counter(), time.process_time()
            move = bots[game.current_player].choose(game)
            cpu.append(time.process_time() - c)
            wall.append(time.perf_counter() - w)
            game.play(move)
    return wall, cpu


def q(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(p * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, action="append", default=None)
    ap.add_argument("--games", type=int, default=4, help="games per bot for the time per move")
    ap.add_argument("--sim-games", type=int, default=20, help="games per bot for games/s (searching bots)")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(
        "| bot | players | decisions | wall median ms | wall p90 ms | CPU median ms | CPU p90 ms | games/s (1 thread) |"
    )
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for players in args.players or [2, 4]:
        for bot in BOTS:
            spec = bot.name
            wall, cpu = per_move(spec, players, args.games)
            searching = bot.searches
            n = args.sim_games if searching else 2000
            t = time.perf_counter()
            genial.simulate(n, players=players, bots=spec, seed=5, threads=1)
            rate = n / (time.perf_counter() - t)
            print(
                f"| {spec} | {players} | {len(wall)} | {1000 * statistics.median(wall):.2f} | {1000 * q(wall, 0.9):.2f} "
                f"| {1000 * statistics.median(cpu):.2f} | {1000 * q(cpu, 0.9):.2f} | {rate:,.1f} |",
                flush=True,
            )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

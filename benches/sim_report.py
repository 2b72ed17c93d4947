"""Throughput, strength and memory of bots and simulation: the numbers of BENCHMARKS.md.

    nice .venv/bin/python benches/sim_report.py speed      # games/s, 1 and 2 threads
    nice .venv/bin/python benches/sim_report.py mcts-time  # ms per MCTS decision
    nice .venv/bin/python benches/sim_report.py strength   # mcts vs greedy, greedy vs random
    nice .venv/bin/python benches/sim_report.py memory     # peak RSS, 100k vs 1M games, RSS trace

Wall times depend on what else the machine runs; CPU seconds (user + system, all threads)
are reported beside them as the load-independent figure.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import time
from typing import Any

import genial
from genial.bots import BuiltinBot, GameView, play_game


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def speed() -> None:
    cases = [(2, "random", 100_000), (3, "random", 50_000), (4, "random", 50_000), (2, "greedy", 10_000)]
    print("| bots | players | threads | games | wall games/s (median of 3) | games per CPU-second |")
    print("|---|---|---|---|---|---|")
    for players, bot, games in cases:
        for threads in (1, 2):
            walls, cpus = [], []
            for rep in range(3):
                c0, t0 = cpu(), time.perf_counter()
                genial.simulate(games, players=players, bots=bot, seed=rep, threads=threads)
                walls.append(time.perf_counter() - t0)
                cpus.append(cpu() - c0)
            w, c = statistics.median(walls), statistics.median(cpus)
            print(f"| {bot} | {players} | {threads} | {games:,} | {games / w:,.0f} | {games / c:,.0f} |", flush=True)


class Timed:
    """Wraps a built-in bot and records the time of each decision."""

    def __init__(self, bot: BuiltinBot) -> None:
        self.bot = bot
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def choose(self, view: GameView) -> Any:
        c0, t0 = time.process_time(), time.perf_counter()
        move = self.bot.choose(view)
        self.wall.append(time.perf_counter() - t0)
        self.cpu.append(time.process_time() - c0)
        return move


def mcts_time(spec: str = "mcts", games: int = 10) -> None:
    timed = Timed(genial.bots.parse_bot(spec, seed=1))
    for g in range(games):
        seats: list[Any] = [timed, "greedy"] if g % 2 == 0 else ["greedy", timed]
        play_game(seats, seed=g)
    n = len(timed.wall)
    wall = sorted(timed.wall)
    cpu = sorted(timed.cpu)
    print(
        f"{spec}: {n} decisions over {games} games: wall median {1000 * statistics.median(wall):.1f} ms, "
        f"p95 {1000 * wall[int(0.95 * (n - 1))]:.1f} ms, max {1000 * wall[-1]:.1f} ms; "
        f"CPU mean {1000 * statistics.mean(cpu):.1f} ms, median {1000 * statistics.median(cpu):.1f} ms, "
        f"p95 {1000 * cpu[int(0.95 * (n - 1))]:.1f} ms"
    )


def strength(pairs: list[tuple[str, str]], games: int, seed: int = 2026) -> None:
    for a, b in pairs:
        t0 = time.perf_counter()
        t = genial.tournament([a, b], players=2, games=games, seed=seed, threads=2)
        rates = t.summary.bot_rates()
        ra = rates[t.names[0]]
        print(f"#### {t.names[0]} vs {t.names[1]}: {t.games} games, seats alternated, {time.perf_counter() - t0:.0f} s")
        print(f"{t.names[0]} win rate {ra} (95% Wilson)")
        print("```")
        print(t.table())
        print("```", flush=True)


def memory() -> None:
    for games in (100_000, 1_000_000):
        t0 = time.perf_counter()
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "genial",
                "simulate",
                "--games",
                str(games),
                "--threads",
                "2",
                "--chunk",
                "100000",
                "--no-progress",
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        # ru_maxrss of the children so far: runs go from small to large, so this is the new run's peak.
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(
            f"{games:,} games (chunks of 100,000, summary only): peak RSS {peak:.0f} MiB, {time.perf_counter() - t0:.0f} s"
        )
        print("   " + proc.stdout.strip().splitlines()[-1])
    # In this process: resident memory after each chunk of a 1,000,000-game run.
    summary = None
    trace = []
    for k in range(10):
        part = genial.simulate(100_000, seed=0, first_game=k * 100_000, threads=2)
        summary = part.summary() if summary is None else summary + part.summary()
        del part
        trace.append(_rss_mib())
    print(f"RSS (MiB) after each 100,000-game chunk of 1,000,000 games in one process: {trace}")


def _rss_mib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) // 1024
    return -1


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "speed"
    if what == "speed":
        speed()
    elif what == "mcts-time":
        mcts_time(*(sys.argv[2:3] or ["mcts"]))
    elif what == "strength":
        n = int(sys.argv[2]) if len(sys.argv) > 2 else 400
        strength([("greedy", "random"), ("mcts", "greedy")], n)
    elif what == "memory":
        memory()
    else:
        raise SystemExit(f"unknown report {what!r}: speed, mcts-time, strength, memory")

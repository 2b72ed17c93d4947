"""Resident memory over long runs of the Python API: whole games through `genial.Game` and a
built-in bot, then millions of `clone()` and `determinize()` calls, legal-move lists, records
and pickles. Memory must stay flat; the numbers go to BENCHMARKS.md.

    .venv/bin/python benches/memory_python.py [--scale 1.0]

Linux only (reads /proc/self/status).
"""

from __future__ import annotations

import argparse
import gc
import pickle
import time
from collections.abc import Callable

from genial import Game
from genial.bots import RandomBot


def rss_kib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def phase(name: str, count: int, step: Callable[[int], object], samples: int = 10) -> None:
    """Runs `step(i)` for i in range(count), sampling RSS `samples` times."""
    gc.collect()
    start = rss_kib()
    seen = []
    clock = time.perf_counter()
    chunk = max(count // samples, 1)
    for i in range(count):
        step(i)
        if (i + 1) % chunk == 0:
            seen.append(rss_kib())
    gc.collect()
    end = rss_kib()
    peak = max([start, end, *seen])
    print(f"{name:<32} {count:>10} {start:>10} {peak:>10} {end:>10} {time.perf_counter() - clock:>8.1f}s   {seen}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every count")
    args = parser.parse_args()
    n = lambda base: max(int(base * args.scale), 10)  # noqa: E731

    variants = [
        dict(players=2),
        dict(players=3),
        dict(players=4),
        dict(players=1, variant="solo"),
        dict(players=4, variant="team"),
        dict(players=2, variant="duel"),
    ]

    def whole_game(i: int) -> None:
        game = Game(seed=i, **variants[i % len(variants)])  # type: ignore[arg-type]
        bot = RandomBot(i)
        while not game.is_over:
            game.play(bot.choose(game))

    mid = Game(4, seed=5)
    bot = RandomBot(5)
    for _ in range(30):
        mid.play(bot.choose(mid))

    print(f"{'phase':<32} {'count':>10} {'start KiB':>10} {'peak KiB':>10} {'end KiB':>10} {'time':>9}")
    phase("whole games (Game + RandomBot)", n(20_000), whole_game)
    phase("Game.clone", n(2_000_000), lambda i: mid.clone())
    phase("Game.determinize", n(1_000_000), lambda i: mid.determinize(i % 4, i))
    phase("legal_moves + iterate", n(100_000), lambda i: sum(1 for _ in mid.legal_moves()))
    phase("to_json + from_json", n(5_000), lambda i: Game.from_json(mid.to_json()))
    phase("pickle round trip", n(5_000), lambda i: pickle.loads(pickle.dumps(mid)))
    print(f"final VmRSS {rss_kib()} KiB")


if __name__ == "__main__":
    main()

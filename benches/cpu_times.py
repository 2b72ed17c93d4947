"""Issue 32's CPU-time targets on one thread: random 2-player games per CPU-second
(`genial.simulate`) and Python's `Game.clone()` and `Game.clone().play()` per call (the
play alone is their difference). CPU time (`time.process_time`), the median of repeats, so
a machine's load moves it less than wall time; run it on a quiet machine all the same::

    python benches/cpu_times.py
"""

from __future__ import annotations

import os

# OpenBLAS's threads spin for a while after numpy starts, and process_time counts them
# (4 % of a short run here); genial's measured work uses no BLAS.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import statistics
import time
from collections.abc import Callable

import genial


def per(fn: Callable[[int], None], n: int, reps: int = 7) -> float:
    """CPU seconds per unit of ``fn(n)``, the median of ``reps`` runs."""
    xs = []
    for _ in range(reps):
        t = time.process_time()
        fn(n)
        xs.append((time.process_time() - t) / n)
    return statistics.median(xs)


def games(n: int) -> None:
    genial.simulate(n, threads=1)


g0 = genial.Game(players=2, seed=1)
mv = g0.legal_moves()[0]


def clone(n: int) -> None:
    for _ in range(n):
        g0.clone()


def clone_play(n: int) -> None:
    for _ in range(n):
        g0.clone().play(mv)


def main() -> None:
    print(f"random 2p games per CPU-second, one thread: {1 / per(games, 200_000, 5):,.0f}")
    c = per(clone, 200_000)
    cp = per(clone_play, 200_000)
    print(f"clone: {c * 1e6:.3f} us, clone+play: {cp * 1e6:.3f} us, play alone: {(cp - c) * 1e6:.3f} us")


if __name__ == "__main__":
    main()

"""Agent decisions per second of `genial.VecEnv`, observations and masks included.

Random legal actions, sampled in Rust (``VecEnv.sample_actions``) or by numpy from the
returned masks. Each setting runs ``--rounds`` times for ``--seconds``; the median is
reported, with the process's CPU use (below 100% × threads when the machine is shared).

    python benches/vecenv_throughput.py --envs 256 --threads 1 2 --rounds 5 --seconds 2
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import genial
import numpy as np


def sample_from_masks(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per row, with numpy only."""
    legal = np.flatnonzero(mask)
    counts = np.count_nonzero(mask, axis=1)
    starts = np.cumsum(counts) - counts
    pick = starts + (rng.random(len(counts)) * counts).astype(np.int64)
    return legal[pick] - np.arange(len(counts)) * mask.shape[1]


def run(env: genial.VecEnv, sampler: str, seconds: float) -> tuple[float, float]:
    """(decisions per second, CPU use in % of one core)."""
    rng = np.random.default_rng(0)
    mask = env.reset().mask
    decisions = 0
    cpu0, start = time.process_time(), time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = env.sample_actions() if sampler == "rust" else sample_from_masks(rng, mask)
        mask = env.step(actions).mask
        decisions += env.num_envs
    wall = time.perf_counter() - start
    return decisions / wall, 100 * (time.process_time() - cpu0) / wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, nargs="+", default=[256])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    for n in args.envs:
        for threads in args.threads:
            env = genial.VecEnv(n, players=args.players, variant=args.variant, seed=1, threads=threads)
            for sampler in ("rust", "numpy"):
                runs = [run(env, sampler, args.seconds) for _ in range(args.rounds)]
                rate = statistics.median(r for r, _ in runs)
                cpu = statistics.median(c for _, c in runs)
                print(
                    f"{env.variant} players={env.players} envs={n:5d} threads={threads} "
                    f"sampling={sampler:5s}: {rate:10,.0f} decisions/s (median of {args.rounds}), CPU {cpu:.0f}%"
                )


if __name__ == "__main__":
    main()

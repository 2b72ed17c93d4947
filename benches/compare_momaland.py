"""Side-by-side: genial's PettingZoo environment and its MOMAland drop-in
(``genial.envs.momaland``) against MOMAland's pure-Python Ingenious, ``moingenious_v0``.

All three play whole two-player games through the PettingZoo AEC API in the same loop
(``reset()``, then ``last()``, a uniformly random legal action from ``obs["action_mask"]``,
``step()``), in one process, alternating rounds so that all see the same machine load.
Reports the median decisions per second of each (wall clock, and per second of the
process's CPU time, which a shared machine disturbs less) and their ratios to MOMAland's.
The drop-in answers MOMAland's own observations (board array, racks, scores, its action
numbers) from genial's core, so its row is the cost of running MOMAland code unchanged.

    pip install --no-deps momaland  # beside genial, pettingzoo and gymnasium
    python benches/compare_momaland.py --rounds 7 --seconds 2

(``moingenious_v0`` needs only numpy, gymnasium and pettingzoo; ``pip install momaland``
with its dependencies also works but brings wandb, pygame, box2d and more.)

MOMAland's environment (``momaland.envs.ingenious.moingenious_v0``, two agents, its
default board of side 6 = our two-player zone of 91 cells, racks of 6, 6 colours) plays
its own reading of the rules and reports vector rewards; the drop-in plays the books' rules
with the same spaces and vector rewards (docs/momaland.md); only the loop is compared.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def play(env: Any, seed: int) -> int:
    """One game of random legal actions; the number of decisions taken."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    decisions = 0
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        # Both masks are int8 0/1: read as bool, numpy finds the ones several times faster.
        legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
        env.step(int(legal[int(rng.random() * len(legal))]))
        decisions += 1
    return decisions


def measure(make: Callable[[], Any], seconds: float, first_seed: int) -> tuple[float, float, float]:
    """Whole games for at least ``seconds``: decisions per wall second, per CPU second,
    and wall seconds per game."""
    env = make()
    decisions = games = 0
    cpu, start = time.process_time(), time.perf_counter()
    while games == 0 or time.perf_counter() - start < seconds:
        decisions += play(env, first_seed + games)
        games += 1
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return decisions / wall, decisions / cpu, wall / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="alternating rounds (median taken)")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per round for each env")
    args = parser.parse_args()

    from genial.envs.momaland import env as drop_in_env
    from genial.envs.pettingzoo import env as genial_env

    try:
        from momaland.envs.ingenious import moingenious_v0
    except ImportError as e:
        raise SystemExit(f"MOMAland is not installed here ({e}): pip install momaland") from e

    contenders: dict[str, Callable[[], Any]] = {
        "genial (PettingZoo AEC, Rust core)": lambda: genial_env(players=2),
        "genial.envs.momaland (the drop-in)": lambda: drop_in_env(num_agents=2),
        "MOMAland moingenious_v0 (pure Python)": lambda: moingenious_v0.env(num_agents=2),
    }
    results: dict[str, list[tuple[float, float, float]]] = {name: [] for name in contenders}
    for r in range(args.rounds):
        for name, make in contenders.items():
            results[name].append(measure(make, args.seconds, first_seed=100_000 * r))

    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, "
        f"python {platform.python_version()}"
    )
    print(f"{args.rounds} rounds of >= {args.seconds:g} s of two-player games each, one thread, median of rounds")
    medians = {}
    for name, runs in results.items():
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        per_game = statistics.median(r[2] for r in runs)
        medians[name] = (wall, cpu)
        print(f"  {name:40s} {wall:10,.0f} decisions/s  {cpu:10,.0f} per CPU-s  {per_game * 1e3:8.1f} ms/game")
    *ours, (theirs_wall, theirs_cpu) = medians.values()
    for name, (wall, cpu) in zip(medians, ours):
        print(f"  {name} / MOMAland: {wall / theirs_wall:.1f}x wall clock, {cpu / theirs_cpu:.1f}x CPU time")


if __name__ == "__main__":
    main()

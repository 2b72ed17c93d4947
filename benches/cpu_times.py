"""Issue 32's CPU-time targets on one thread: random 2-player games per CPU-second
(`genial.simulate`), Python's `Game.clone()` and `Game.clone().play()` per call (the play
alone is their difference), and the PettingZoo environment's `step()`, alone and with
`last()` (which builds the observation and mask), per step. CPU time
(`time.process_time`), the median of repeats, so a machine's load moves it less than wall
time; run it on a quiet machine all the same::

    python benches/cpu_times.py

To compare builds (another commit's wheel in its own virtual environment, say), give each
one's interpreter: the script runs itself under each in turn, round after round, so that a
change in the machine's load falls on every arm alike, and prints each arm's medians over
the rounds and its ratio to the first arm::

    python benches/cpu_times.py --compare old=/tmp/old/bin/python new=.venv/bin/python --rounds 9
"""

from __future__ import annotations

import os

# OpenBLAS's threads spin for a while after numpy starts, and process_time counts them
# (4 % of a short run here); genial's measured work uses no BLAS.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import genial

# Each figure's label and unit (none: a count a second).
FIGURES = {
    "games": ("random 2p games per CPU-second, one thread", ""),
    "clone": ("clone", "us"),
    "clone_play": ("clone + play", "us"),
    "play": ("play alone", "us"),
    "pz_step": ("PettingZoo step()", "us"),
    "pz_step_last": ("PettingZoo step() + last()", "us"),
}


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


def pettingzoo_games(count: int = 150) -> tuple[Any, list[list[int | None]]]:
    """The PettingZoo environment and ``count`` recorded games of masked random actions
    (seeded by ``random.Random``, so every build that lists the same legal actions records
    the same games), ``None`` where an ended agent steps out."""
    import numpy as np
    from genial.envs.pettingzoo import env as make_env

    env = make_env(players=2)
    recorded = []
    for seed in range(count):
        env.reset(seed=seed)
        rng = random.Random(seed)
        actions: list[int | None] = []
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            actions.append(action)
            env.step(action)
        recorded.append(actions)
    return env, recorded


def pettingzoo_times(reps: int = 5, count: int = 150) -> tuple[float, float]:
    """CPU seconds per step of replaying the recorded games: ``step()`` alone, and ``last()``
    then ``step()``, each the median of ``reps`` replays. A game's ``reset`` is not counted."""
    env, recorded = pettingzoo_games(count)
    steps = sum(map(len, recorded))

    def replay(with_last: bool) -> float:
        spent = 0.0
        for seed, actions in enumerate(recorded):
            env.reset(seed=seed)
            t = time.process_time()
            for action in actions:
                if with_last:
                    env.last()
                env.step(action)
            spent += time.process_time() - t
        return spent / steps

    return (
        statistics.median(replay(False) for _ in range(reps)),
        statistics.median(replay(True) for _ in range(reps)),
    )


def measure() -> dict[str, float]:
    c = per(clone, 200_000)
    cp = per(clone_play, 200_000)
    step, step_last = pettingzoo_times()
    return {
        "games": 1 / per(games, 200_000, 5),
        "clone": c * 1e6,
        "clone_play": cp * 1e6,
        "play": (cp - c) * 1e6,
        "pz_step": step * 1e6,
        "pz_step_last": step_last * 1e6,
    }


def show(name: str, value: float) -> str:
    label, unit = FIGURES[name]
    return f"{label}: {value:,.0f}" if not unit else f"{label}: {value:.3f} {unit}"


def compare(arms: list[tuple[str, str]], rounds: int) -> None:
    """Runs this script under each arm's interpreter, ``rounds`` times in turn, and prints
    the medians over rounds with their ratio to the first arm."""
    runs: dict[str, list[dict[str, float]]] = {name: [] for name, _ in arms}
    for r in range(rounds):
        for name, python in arms:
            out = subprocess.run([python, __file__, "--json"], check=True, capture_output=True, text=True).stdout
            runs[name].append(json.loads(out))
            print(f"round {r + 1}/{rounds} {name}: {out.strip()}", file=sys.stderr, flush=True)
    first = arms[0][0]
    for key, (label, unit) in FIGURES.items():
        base = statistics.median(x[key] for x in runs[first])
        print(f"{label}{f' ({unit})' if unit else ''}:")
        for name, _ in arms:
            xs = [x[key] for x in runs[name]]
            m = statistics.median(xs)
            print(f"  {name:>12} {m:12.3f}  ratio {m / base:.3f}  (min {min(xs):.3f}, max {max(xs):.3f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object of the figures")
    parser.add_argument("--compare", nargs="+", metavar="NAME=PYTHON", help="arms to alternate")
    parser.add_argument("--rounds", type=int, default=7, help="rounds of --compare (default 7)")
    args = parser.parse_args()
    if args.compare:
        if not all("=" in a for a in args.compare):
            parser.error("each --compare arm is NAME=PYTHON")
        arms = [a.partition("=") for a in args.compare]
        compare([(name, python) for name, _, python in arms], args.rounds)
        return
    figures = measure()
    if args.json:
        print(json.dumps(figures))
        return
    for name, value in figures.items():
        print(show(name, value))


if __name__ == "__main__":
    main()

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

On a machine whose speed swings from one second to the next (a shared host), ``--pingpong``
alternates the builds chunk by chunk instead (`pingpong`)::

    python benches/cpu_times.py --pingpong old=/tmp/old/bin/python new=.venv/bin/python --rounds 600
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


def replay(env: Any, recorded: list[list[int | None]], with_last: bool, games: range | None = None) -> float:
    """CPU seconds per step of replaying recorded games (all, or those of ``games``):
    ``step()`` alone, or ``last()`` then ``step()``. A game's ``reset`` is not counted."""
    spent = 0.0
    steps = 0
    for seed in games if games is not None else range(len(recorded)):
        actions = recorded[seed]
        env.reset(seed=seed)
        t = time.process_time()
        for action in actions:
            if with_last:
                env.last()
            env.step(action)
        spent += time.process_time() - t
        steps += len(actions)
    return spent / steps


def pettingzoo_times(reps: int = 5, count: int = 150) -> tuple[float, float]:
    """CPU seconds per step of replaying the recorded games: ``step()`` alone, and ``last()``
    then ``step()``, each the median of ``reps`` replays."""
    env, recorded = pettingzoo_games(count)
    return (
        statistics.median(replay(env, recorded, False) for _ in range(reps)),
        statistics.median(replay(env, recorded, True) for _ in range(reps)),
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
    what `report` prints of the rounds."""
    runs: dict[str, dict[str, list[float]]] = {name: {f: [] for f in FIGURES} for name, _ in arms}
    for r in range(rounds):
        for name, python in arms:
            out = subprocess.run([python, __file__, "--json"], check=True, capture_output=True, text=True).stdout
            for key, value in json.loads(out).items():
                runs[name][key].append(value)
            print(f"round {r + 1}/{rounds} {name}: {out.strip()}", file=sys.stderr, flush=True)
    report(runs, list(FIGURES), rounds)


def worker(count: int = 150) -> None:
    """Serves `pingpong`: after recording ``count`` PettingZoo games, reads one figure's
    name a line and answers with one short measurement of it (CPU microseconds a unit, or
    games a CPU-second), each taking some 10-30 ms."""
    env, recorded = pettingzoo_games(count)
    chunk = {
        "games": lambda: 1 / per(games, 2_000, 1),
        "clone": lambda: per(clone, 20_000, 1) * 1e6,
        "clone_play": lambda: per(clone_play, 20_000, 1) * 1e6,
        "pz_step": lambda: replay(env, recorded, False, range(0, count, 3)) * 1e6,
        "pz_step_last": lambda: replay(env, recorded, True, range(0, count, 15)) * 1e6,
    }
    print("ready", flush=True)
    for line in sys.stdin:
        print(json.dumps(chunk[line.strip()]()), flush=True)


def median_interval(xs: list[float]) -> tuple[float, float, float]:
    """The median of ``xs`` and a distribution-free 95 % interval for it (the order
    statistics that the binomial distribution of counts below the median gives)."""
    ys = sorted(xs)
    n = len(ys)
    half = 1.96 * (n**0.5) / 2
    lo = max(0, int(n / 2 - half))
    hi = min(n - 1, int(n / 2 + half))
    return statistics.median(ys), ys[lo], ys[hi]


def pingpong(arms: list[tuple[str, str]], rounds: int, figures: list[str]) -> None:
    """One long-lived worker per arm; every round asks each arm in turn (the order rotating
    from round to round) for one short measurement of each figure, so the two sides of a
    round's ratio are taken within a few tens of milliseconds of each other. Prints each
    arm's median and the median of the rounds' ratios to the first arm, with its 95 %
    interval. This is the comparison for a machine whose speed swings by 2x from one
    second to the next (a shared host): a drift slower than a round falls on both sides."""
    procs = {
        name: subprocess.Popen(
            [python, __file__, "--worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        for name, python in arms
    }
    for name, proc in procs.items():
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready", name
    asked = [f for f in figures if f != "play"]
    runs: dict[str, dict[str, list[float]]] = {name: {f: [] for f in asked} for name, _ in arms}
    names = [name for name, _ in arms]
    try:
        for r in range(rounds):
            for f in asked:
                for name in names[r % len(names) :] + names[: r % len(names)]:
                    proc = procs[name]
                    assert proc.stdin is not None and proc.stdout is not None
                    proc.stdin.write(f + "\n")
                    runs[name][f].append(json.loads(proc.stdout.readline()))
            if (r + 1) % 50 == 0:
                print(f"round {r + 1}/{rounds}", file=sys.stderr, flush=True)
    finally:
        for proc in procs.values():
            proc.kill()
            proc.wait()
    if "clone" in asked and "clone_play" in asked:
        for arm in runs.values():
            arm["play"] = [cp - c for c, cp in zip(arm["clone"], arm["clone_play"])]
    report(runs, figures, rounds)


def report(runs: dict[str, dict[str, list[float]]], figures: list[str], rounds: int) -> None:
    """Each arm's median of each figure over the rounds, and the median of the rounds' own
    ratios to the first arm with its 95 % interval (the play alone, a difference of two
    measurements, gets the ratio of the medians only)."""
    names = list(runs)
    first = runs[names[0]]
    for key in [f for f in FIGURES if f in figures and f in first]:
        label, unit = FIGURES[key]
        print(f"{label}{f' ({unit})' if unit else ''}, {rounds} rounds:")
        for name in names:
            xs = runs[name][key]
            m = statistics.median(xs)
            if key == "play":
                print(f"  {name:>12} {m:10.4f}  ratio of medians {m / statistics.median(first[key]):.3f}")
                continue
            ratio, lo, hi = median_interval([x / f for x, f in zip(xs, first[key])])
            print(f"  {name:>12} {m:10.4f}  paired ratio {ratio:.3f} [{lo:.3f}, {hi:.3f}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object of the figures")
    parser.add_argument("--compare", nargs="+", metavar="NAME=PYTHON", help="arms to alternate")
    parser.add_argument("--rounds", type=int, default=7, help="rounds of --compare or --pingpong (default 7)")
    parser.add_argument("--pingpong", nargs="+", metavar="NAME=PYTHON", help="arms to alternate chunk by chunk")
    parser.add_argument(
        "--figures", nargs="+", choices=list(FIGURES), default=list(FIGURES), help="what --pingpong measures"
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    given = args.pingpong or args.compare
    if given:
        if not all("=" in a for a in given):
            parser.error("each arm is NAME=PYTHON")
        arms = [(name, python) for name, _, python in (a.partition("=") for a in given)]
        if args.pingpong:
            pingpong(arms, args.rounds, args.figures)
        else:
            compare(arms, args.rounds)
        return
    figures = measure()
    if args.json:
        print(json.dumps(figures))
        return
    for name, value in figures.items():
        print(show(name, value))


if __name__ == "__main__":
    main()

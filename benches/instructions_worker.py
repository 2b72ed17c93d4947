"""The Python workloads of the instruction-count guard (benches/instructions.py), one per
process, run by the guard inside valgrind: ``python benches/instructions_worker.py NAME``.

Builds its inputs, runs the work once to warm up, then runs it inside ``operator.call`` (the
region callgrind counts, through ``--toggle-collect=_operator_call``) and prints the units it
did as JSON. Kept apart from the guard's driver, whose changes would otherwise move the heap
the region starts on: change this file, and update the baselines with the reason.
"""

from __future__ import annotations

import gc
import json
import operator
import sys
from typing import Any

CALLS = 8  # simulate_10: the same call this many times, each counted on its own; the least is kept
REPEATS = 8  # rounds over the positions of the clone workloads: a rare costly event weighs less


def _positions(players: int, seed: int) -> list[tuple[Any, Any]]:
    """(position, the move then played) for every decision of a seeded random game."""
    import random

    import genial

    rng = random.Random(seed)
    game = genial.Game(players, seed=seed)
    pairs = []
    while not game.is_over:
        moves = game.legal_moves()
        move = moves[rng.randrange(len(moves))]
        pairs.append((game.clone(), move))
        game.play(move)
    return pairs


def run(name: str) -> None:
    pairs = _positions(2, 7) + _positions(4, 8)  # 112 positions
    regions = 1

    if name == "python_clone":
        games = [g for g, _ in pairs]

        def work() -> int:
            for _ in range(REPEATS):
                for g in games:
                    g.clone()
            return REPEATS * len(games)

        unit = "call"
    elif name == "python_clone_play":

        def work() -> int:
            for _ in range(REPEATS):
                for g, m in pairs:
                    g.clone().play(m)
            return REPEATS * len(pairs)

        unit = "call"
    elif name == "pettingzoo_step":
        import numpy as np
        from genial.envs.pettingzoo import env as make_env

        env = make_env(players=2)

        def work() -> int:
            decisions = 0
            for seed in (1, 2, 3):
                env.reset(seed=seed)
                rng = np.random.default_rng(seed)
                for _agent in env.agent_iter():
                    obs, _reward, terminated, truncated, _info = env.last()
                    if terminated or truncated:
                        env.step(None)
                        continue
                    legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
                    env.step(int(legal[int(rng.random() * len(legal))]))
                    decisions += 1
            return decisions

        unit = "decision"
    elif name == "simulate_10":
        import genial

        def work() -> int:
            genial.simulate(10, seed=3, threads=1)
            return 1

        unit = "call"
        regions = CALLS
    else:
        raise SystemExit(f"unknown Python workload {name}")

    work()  # warm-up: lazy imports, caches, the allocator's first arenas
    # The cyclic collector would run inside the region at points, and at a cost, that depend
    # on everything allocated before it (this script's own code included): off while counting.
    gc.collect()
    gc.disable()
    for _ in range(regions):
        units = operator.call(work)  # the measured region (callgrind collects inside _operator_call)
    gc.enable()
    print(json.dumps({"workload": name, "unit": unit, "units": units, "regions": regions}))


if __name__ == "__main__":
    run(sys.argv[1])

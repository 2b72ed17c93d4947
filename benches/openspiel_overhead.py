"""What one step costs through OpenSpiel's API: the ``genial`` game against OpenSpiel's own
Python games (``python_tic_tac_toe``, ``python_kuhn_poker``) and, for scale, a C++ game
(``tic_tac_toe``) and genial's own API on the same games.

    python benches/openspiel_overhead.py [--steps 20000] [--repeats 5]

A step is what a random player does: ``state.legal_actions()``, a uniform choice,
``state.apply_action(a)`` (chance nodes: ``chance_outcomes()`` and a sample); games are
played to the end and restarted until ``--steps`` steps are counted. Reported: CPU time per
step (median of ``--repeats`` runs, with the lowest and highest), and per game. "genial
(core)" is the same random play through ``genial.actions`` on a ``genial.Game``, without
OpenSpiel: the difference is the cost of the OpenSpiel adapter.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

import genial
import genial.envs.openspiel
import pyspiel
from genial import _core
from open_spiel.python.games import kuhn_poker, tic_tac_toe  # noqa: F401 (registers python_* games)


def spiel_steps(name: str, steps: int, rng: random.Random) -> tuple[float, int]:
    game = pyspiel.load_game(name)
    done = games = 0
    start = time.process_time()
    while done < steps:
        state = game.new_initial_state()
        games += 1
        while not state.is_terminal() and done < steps:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            done += 1
    return time.process_time() - start, games


def core_steps(steps: int, rng: random.Random) -> tuple[float, int]:
    done = games = 0
    start = time.process_time()
    while done < steps:
        game = genial.Game(players=2, seed=rng.getrandbits(64))
        games += 1
        state = game._state
        while not state.is_over and done < steps:
            legal = _core.legal_actions(state)
            _core.play_action(state, int(legal[rng.randrange(len(legal))]))
            done += 1
    return time.process_time() - start, games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    cases: list[tuple[str, Callable[[int, random.Random], tuple[float, int]]]] = [
        ("genial(players=2) (OpenSpiel)", lambda n, r: spiel_steps("genial(players=2)", n, r)),
        ("genial (core, no OpenSpiel)", core_steps),
        ("python_tic_tac_toe", lambda n, r: spiel_steps("python_tic_tac_toe", n, r)),
        ("python_kuhn_poker", lambda n, r: spiel_steps("python_kuhn_poker", n, r)),
        ("tic_tac_toe (C++)", lambda n, r: spiel_steps("tic_tac_toe", n, r)),
    ]
    times: dict[str, list[float]] = {name: [] for name, _ in cases}
    per_game: dict[str, float] = {}
    # Interleaved repeats, so that a change of load touches every case alike.
    for rep in range(args.repeats):
        for name, run in cases:
            seconds, games = run(args.steps, random.Random(rep))
            times[name].append(seconds / args.steps)
            per_game[name] = args.steps / games
    print(f"{'game':32} {'µs/step (median [min, max])':>30} {'steps/game':>11}")
    for name, _ in cases:
        t = [1e6 * x for x in times[name]]
        print(f"{name:32} {statistics.median(t):12.1f} [{min(t):.1f}, {max(t):.1f}] {per_game[name]:11.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

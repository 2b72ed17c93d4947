"""Per-call CPU time of the Python API's hot calls, as JSON (µs per call).

Run it under two installed builds alternately -- say the abi3 wheel and a build for one
CPython version, each in its own virtual environment -- and compare the medians:

    for i in 1 2 3 4 5; do for env in venv-cp311 venv-abi3; do
        $env/bin/python benches/abi_compare.py; done; done

CPU time (`time.process_time`) rather than wall time, since the machine is shared.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable

import genial
from genial.actions import legal_action_mask
from genial.observation import observe


def midgame(players: int, plies: int, seed: int = 11) -> genial.Game:
    game = genial.Game(players=players, seed=seed)
    chooser = random.Random(seed)
    while len(game.moves) < plies or game.phase != "place" or len(game.rack()) < 6:
        moves = game.legal_moves()
        game.play(moves[chooser.randrange(len(moves))])
    return game


def per_call(fn: Callable[[], object], n: int) -> float:
    start = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - start) / n * 1e6


def full_game() -> None:
    game = genial.Game(players=2, seed=1)
    chooser = random.Random(1)
    while not game.is_over:
        moves = game.legal_moves()
        game.play(moves[chooser.randrange(len(moves))])


def main() -> None:
    g4, g2 = midgame(4, 32), midgame(2, 16)
    move = g4.legal_moves()[len(g4.legal_moves()) // 2]
    cases: dict[str, tuple[Callable[[], object], int]] = {
        "legal_moves 4p": (g4.legal_moves, 20000),
        "clone+play 4p": (lambda: g4.clone().play(move), 20000),
        "legal_moves()[i] 2p": (lambda: g2.legal_moves()[5], 20000),
        "action mask 4p": (lambda: legal_action_mask(g4), 10000),
        "observe 4p": (lambda: observe(g4, 0), 10000),
        "full random game from Python": (full_game, 30),
    }
    print(json.dumps({name: per_call(fn, n) for name, (fn, n) in cases.items()}))


if __name__ == "__main__":
    main()

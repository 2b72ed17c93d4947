"""pytest-benchmark timings of whole-game simulation and bot decisions.

Run with ``make bench`` (or ``.venv/bin/python -m pytest benches --benchmark-enable``).
Games per second = games per call x calls per second (the ``OPS`` column). The full report
with strength runs is ``benches/sim_report.py``; numbers in BENCHMARKS.md.
"""

from __future__ import annotations

from typing import Any

import genial
import pytest
from genial.bots import make


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("threads", [1, 2])
def test_simulate_random(benchmark: Any, players: int, threads: int) -> None:
    games = 5000
    res = benchmark(genial.simulate, games, players=players, bots="random", seed=1, threads=threads)
    assert len(res) == games


@pytest.mark.parametrize("threads", [1, 2])
def test_simulate_greedy(benchmark: Any, threads: int) -> None:
    games = 500
    res = benchmark(genial.simulate, games, players=2, bots="greedy", seed=1, threads=threads)
    assert len(res) == games


def test_mcts_decision(benchmark: Any) -> None:
    game = genial.Game(players=2, seed=5)
    rnd = make("random", seed=5)
    for _ in range(12):
        game.play(rnd.choose(game))
    bot = make("mcts", seed=1)
    move = benchmark(bot.choose, game)
    assert move in game.legal_moves()

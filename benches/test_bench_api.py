"""Benchmarks of the Python API (run: `make bench`, or
`.venv/bin/python -m pytest benches/test_bench_api.py --benchmark-enable`)."""

from __future__ import annotations

import random

import genial
import pytest


def midgame(players: int, plies: int, seed: int = 11) -> genial.Game:
    """A position after `plies` random decisions, with the mover's rack full."""
    game = genial.Game(players=players, seed=seed)
    chooser = random.Random(seed)
    while len(game.moves) < plies or game.phase != "place" or len(game.rack()) < 6:
        moves = game.legal_moves()
        game.play(moves[chooser.randrange(len(moves))])
    return game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_moves(benchmark, players: int) -> None:
    game = midgame(players, 8 * players)
    moves = benchmark(game.legal_moves)
    benchmark.extra_info["moves"] = len(moves)
    assert len(moves) > 0


@pytest.mark.parametrize("players", [2, 4])
def test_play(benchmark, players: int) -> None:
    game = midgame(players, 8 * players)
    move = game.legal_moves()[len(game.legal_moves()) // 2]

    def setup():
        return (game.clone(),), {}

    benchmark.pedantic(lambda g: g.play(move), setup=setup, rounds=5000, iterations=1)


def test_play_text(benchmark) -> None:
    game = midgame(4, 32)
    move = str(game.legal_moves()[0])

    def setup():
        return (game.clone(),), {}

    benchmark.pedantic(lambda g: g.play(move), setup=setup, rounds=5000, iterations=1)


def test_clone(benchmark) -> None:
    game = midgame(4, 32)
    benchmark(game.clone)


def test_full_game_from_python(benchmark) -> None:
    """A whole 2-player game driven move by move from Python (random legal moves)."""
    seeds = iter(range(10**9))

    def run() -> genial.Game:
        seed = next(seeds)
        game = genial.Game(players=2, seed=seed)
        chooser = random.Random(seed)
        while not game.is_over:
            moves = game.legal_moves()
            game.play(moves[chooser.randrange(len(moves))])
        return game

    assert benchmark(run).is_over

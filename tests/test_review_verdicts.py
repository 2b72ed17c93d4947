"""The review's verdicts agree with the engine's own advice and do not hang on the seed.

A review's verdict on a decision compares the move played with the engine's choice in one
search over the same sampled deals, and names a class only when the loss is larger than
that search's own measured noise (`genial.reviews`). These tests hold it to that: the
engine's top move, asked with the review's settings, is never graded below "best", and
two seeds give (nearly) the same classes. Small budgets keep them quick; both properties
must hold at any budget.
"""

from __future__ import annotations

import genial
from genial import Game

ITERATIONS = 60
SEVERE = ("mistake", "blunder")
AT_LEAST_INACCURATE = ("inaccuracy", "mistake", "blunder")


def test_a_seat_that_follows_the_analysis_is_never_graded_below_best() -> None:
    # Seat 0 plays `genial.analyse`'s top move with the review's level, budget and seed
    # (the seed the review searches every decision with); seat 1 plays greedily. The whole
    # game, so swap offers and the exact endgame are reviewed too.
    for players, seed, review_seed in ((2, 7, 3), (3, 11, 5)):
        game = Game(players=players, seed=seed)
        other = genial.bots.make("greedy", seed=seed)
        while not game.is_over:
            if game.current_player == 0:
                a = genial.analyse(game, iterations=ITERATIONS, seed=review_seed, level="expert")
                game.play(a.best.move)
            else:
                game.play(other.choose(game))
        r = genial.review(game, "expert", iterations=ITERATIONS, seed=review_seed)
        mine = [d for d in r.decisions if d.player == 0]
        assert len(mine) >= 10
        wrong = [(d.ply, str(d.move), d.classification, round(d.loss, 3)) for d in mine if d.classification != "best"]
        assert not wrong, f"{players} players: the engine's own choice graded {wrong}"
        assert all(d.best == d.move and d.loss == 0.0 for d in mine)


def test_two_seeds_give_the_same_classes() -> None:
    # A game between two greedy seats: close calls, where a verdict from noise shows.
    game = Game(players=2, seed=13)
    bots = [genial.bots.make("greedy", seed=1), genial.bots.make("greedy", seed=2)]
    while not game.is_over:
        game.play(bots[game.current_player].choose(game))
    a, b = (genial.review(game, "expert", iterations=200, seed=s) for s in (1, 2))
    pairs = [(x.classification, y.classification) for x, y in zip(a.decisions, b.decisions) if not x.forced]
    assert len(pairs) >= 30
    same = sum(x == y for x, y in pairs)
    assert same >= 0.9 * len(pairs), f"{same} of {len(pairs)} decisions got the same class: {pairs}"
    for x, y in pairs:
        if x in SEVERE:
            assert y in AT_LEAST_INACCURATE, (x, y)
        if y in SEVERE:
            assert x in AT_LEAST_INACCURATE, (x, y)

"""The same seed gives the same game: run twice, after `clone()`, after pickling, and in a
`multiprocessing` pool started with ``spawn`` (fresh interpreters, games sent pickled)."""

from __future__ import annotations

import multiprocessing
import pickle

from _workers import finish, finish_pickled
from genial import Game
from genial.bots import GreedyBot, RandomBot

RULE_SETS = [
    dict(players=2),
    dict(players=3, swap_timing="instead_of_placement"),
    dict(players=4, variant="team"),
    dict(players=2, variant="duel", require_contact=True),
    dict(players=1, variant="solo"),
]


def _halfway(seed: int, options: dict[str, object]) -> Game:
    game = Game(seed=seed, **options)  # type: ignore[arg-type]
    bot = GreedyBot(seed)
    for _ in range(15):
        game.play(bot.choose(game))
    return game


def test_same_seed_same_game_and_different_seeds_differ() -> None:
    for options in RULE_SETS:
        first = finish(Game(seed=31, **options), 5)  # type: ignore[arg-type]
        again = finish(Game(seed=31, **options), 5)  # type: ignore[arg-type]
        assert first == again
        assert finish(Game(seed=32, **options), 5) != first  # type: ignore[arg-type]


def test_a_clone_has_the_same_future() -> None:
    for seed, options in enumerate(RULE_SETS):
        game = _halfway(seed, options)
        assert finish(game.clone(), seed) == finish(game, seed)


def test_a_pickled_game_has_the_same_future() -> None:
    for seed, options in enumerate(RULE_SETS):
        game = _halfway(seed, options)
        copy = pickle.loads(pickle.dumps(game))
        assert copy == game and copy.moves == game.moves and copy.seed == game.seed
        assert finish(copy, seed) == finish(game, seed)


def test_a_determinized_copy_follows_its_own_seed() -> None:
    game = _halfway(3, RULE_SETS[0])
    a, b = game.determinize(0, 99), game.determinize(0, 99)
    assert a == b
    assert finish(a, 1) == finish(b, 1)


def test_a_spawned_pool_plays_pickled_games_as_this_process_does() -> None:
    jobs = [(pickle.dumps(_halfway(seed, options)), seed) for seed, options in enumerate(RULE_SETS)]
    here = [finish(pickle.loads(data), seed) for data, seed in jobs]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        there = pool.starmap(finish_pickled, jobs)
        # Games themselves travel too: the pool pickles them on its own.
        direct = pool.starmap(finish, [(pickle.loads(data), seed) for data, seed in jobs])
    assert there == here
    assert direct == here


def test_the_random_bot_draws_the_same_moves() -> None:
    game = Game(2, seed=8)
    a, b = RandomBot(5), RandomBot(5)
    for _ in range(30):
        move = a.choose(game)
        assert b.choose(game) == move
        game.play(move)

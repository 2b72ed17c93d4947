"""Functions run in other processes and threads by the determinism and thread tests; in a
module of their own so that a ``spawn`` child can import them by name."""

from __future__ import annotations

import pickle

from genial import Game
from genial.bots import RandomBot

Summary = tuple[tuple[str, ...], tuple[tuple[int, ...], ...], "str | None", tuple[int, ...]]


def finish(game: Game, bot_seed: int) -> Summary:
    """Plays `game` to the end with a seeded random bot; what happened, comparably."""
    bot = RandomBot(bot_seed)
    while not game.is_over:
        game.play(bot.choose(game))
    return tuple(str(m) for m in game.moves), game.tracks, game.end, game.ranks()


def finish_pickled(data: bytes, bot_seed: int) -> Summary:
    game = pickle.loads(data)
    assert isinstance(game, Game)
    return finish(game, bot_seed)


def play_seed(seed: int) -> Summary:
    return finish(Game(2, seed=seed), seed)

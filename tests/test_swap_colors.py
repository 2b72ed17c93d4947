"""`Game.swap_colors`: the colours the swap rule looks at, read from the tracks as the
books say -- a seat's lowest colours, and in the duel the colours whose marker stands on
the seat's 9 -- for every seat along whole games of each variant."""

from __future__ import annotations

import genial
import pytest
from genial import Color, GameView, Rules
from genial.bots import make


@pytest.mark.parametrize("variant", ["standard", "team", "duel"])
def test_swap_colors_are_what_the_tracks_say(variant: str) -> None:
    rules = Rules(variant)
    game = genial.Game(seed=3, rules=rules)
    bot = make("greedy", seed=3)
    while not game.is_over:
        for seat in range(rules.players):
            view = game.tracks[rules.track_of(seat)]
            if rules.shared_track:  # positive toward seat 0
                mine = [v if seat == 0 else -v for v in view]
                expected = [Color(c) for c in range(6) if mine[c] == rules.track_max]
            else:
                expected = [Color(c) for c in range(6) if view[c] == min(view)]
            assert game.swap_colors(seat) == expected, (seat, view)
        game.play(bot.choose(GameView(game)))
    assert game.swap_colors() == game.swap_colors(game.current_player)

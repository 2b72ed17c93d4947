"""`Game.from_setup`: a position set up by hand (the analysis board's editor) is the real
position's board, tracks and rack, and every bad fact is a `ValueError` naming it."""

from __future__ import annotations

import genial
import pytest


def test_a_real_position_set_up_by_hand_has_its_legal_moves() -> None:
    game = genial.Game(players=3, seed=11)
    for _ in range(9):
        game.play(game.legal_moves()[0])
    tiles = [m for m in game.moves if m.is_placement]
    seat = game.current_player
    setup = genial.Game.from_setup(tiles, game.tracks, seat, game.rack(seat), players=3, seed=4)
    assert setup.board == game.board and setup.tracks == game.tracks
    assert setup.current_player == seat and setup.rack(seat) == game.rack(seat)
    assert set(setup.legal_moves()) == set(game.legal_moves())
    assert [len(setup.rack(p)) for p in range(3)] == [6, 6, 6]
    # Explained scoring holds on it as on any game.
    for p in setup.previews():
        assert setup.explain(p.move).points == p.points


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"seat": 3}, "seat 3 does not exist"),
        ({"tracks": [[0] * 6]}, "tracks"),
        ({"tracks": [[0, 0, 0, 0, 0, 19], [0] * 6]}, "off the track"),
        ({"tracks": [[0, 0, 0, 0, 0, 300], [0] * 6]}, "off the track"),
        ({"tracks": [[18] * 6, [0] * 6]}, "would be over"),
        ({"tracks": [[0] * 5, [0] * 6]}, "6 markers"),
        ({"tiles": ["R0,-1+R0,0", "R0,-1+R0,0"]}, "tile 1"),
        ({"tiles": ["R0,0+R2,0"]}, "not adjacent"),
        ({"tiles": ["R6,0+R6,-1"]}, "tile 0"),
        ({"tiles": ["swap"]}, "must be a placement"),
        ({"rack": ["RB"] * 7}, "at most 6"),
        ({"rack": ["RR"] * 4, "tiles": ["R0,-1+R0,0", "R1,-1+R1,0"]}, "no further"),
        ({"rack": []}, "cannot place"),
    ],
)
def test_bad_facts_are_refused_by_name(change: dict[str, object], words: str) -> None:
    args: dict[str, object] = {"tiles": ["R0,-1+R0,0"], "tracks": [[1, 0, 0, 0, 0, 0], [0] * 6], "seat": 1}
    args["rack"] = ["RB", "GG"]
    args.update(change)
    with pytest.raises(ValueError, match=words):
        genial.Game.from_setup(args["tiles"], args["tracks"], args["seat"], args["rack"], players=2)  # type: ignore[arg-type]

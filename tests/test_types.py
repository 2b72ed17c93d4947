"""The names Python's types spell out are the core's: `Phase` and `End` list exactly the
phases and end reasons the core reports, the learning interface carries the
observation's version, and `LegalMoves.text` writes what ``str`` writes of each move."""

from __future__ import annotations

import typing

import genial
from genial import _core
from genial.game import End, Phase


def test_phase_and_end_are_the_cores_names() -> None:
    assert typing.get_args(Phase) == tuple(_core.phase_names())
    assert typing.get_args(End) == tuple(_core.end_names())


def test_the_environments_carry_the_observation_version() -> None:
    assert genial.observation.VERSION == _core.observation_version() >= 1
    assert genial.VecEnv.version == genial.observation.VERSION
    # The observation has one entry per rule option, in the option table's order.
    offset, shape = genial.observation.LAYOUT["options"]
    assert shape == (len(genial.Rules.options()),)
    rules = genial.Rules("standard", 2, require_contact=True)
    obs = genial.observation.observe(genial.Game(seed=1, rules=rules), 0)
    names = [o["name"] for o in genial.Rules.options()]
    assert obs[offset + names.index("require_contact")] == 1.0
    assert obs[offset + names.index("swap_timing")] == 0.0


def test_legal_moves_text_is_each_moves_text_in_order() -> None:
    game = genial.Game(players=2, seed=3)  # offers a swap when played by the first move
    kinds = set()
    while not game.is_over:
        moves = game.legal_moves()
        kinds.update(m.kind for m in moves)
        assert moves.text() == " ".join(str(m) for m in moves)
        assert moves.text(sep=";") == ";".join(str(m) for m in moves)
        game.play(moves[0])
    assert game.legal_moves().text() == ""
    assert kinds == {"place", "swap", "keep"}


def test_legal_moves_compare_by_their_moves_in_order() -> None:
    game = genial.Game(players=2, seed=1)
    first = game.legal_moves()
    assert first == game.legal_moves()
    game.play(first[0])
    assert game.legal_moves() != first
    assert first != list(first)  # a list of the same moves is another type, as list != tuple
    game.pop()
    assert game.legal_moves() == first

"""Refusals that say what is wrong in words a user reads at once: the type that was given,
named so that it differs from the one wanted, and never a leaked AttributeError or
UnicodeEncodeError."""

from __future__ import annotations

import json

import genial
import numpy as np
import pytest
from genial import Color, Game, Rules
from genial.actions import legal_action_mask
from genial.bots import make, parse_bot
from genial.observation import observe


def test_require_contact_takes_numpy_bools_and_names_other_types() -> None:
    assert Game(players=2, seed=1, require_contact=np.True_).require_contact is True
    assert Game(players=2, seed=1, require_contact=np.bool_(False)).require_contact is False
    with pytest.raises(TypeError, match=r"^require_contact must be a bool, not int$"):
        Game(players=2, seed=1, require_contact=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^require_contact must be a bool, not numpy.int64$"):
        Game(players=2, seed=1, require_contact=np.int64(1))  # type: ignore[arg-type]


def test_a_count_given_as_a_numpy_bool_names_numpy() -> None:
    with pytest.raises(TypeError, match=r"^players must be an int, not numpy\.bool"):
        Game(np.True_)  # type: ignore[arg-type]


def test_a_colour_is_not_a_player_count() -> None:
    with pytest.raises(TypeError, match=r"^players must be an int, not genial\.Color$"):
        Game(Color.YELLOW)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^seed must be an int, not genial\.Color$"):
        Game(2, Color.RED)  # type: ignore[arg-type]


def test_simulate_without_bots_says_what_bots_are() -> None:
    with pytest.raises(TypeError, match=r"^bots must be a bot .* not NoneType$"):
        genial.simulate(10, bots=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^bots must be a bot .* not int$"):
        genial.simulate(10, bots=3)  # type: ignore[arg-type]


@pytest.mark.parametrize("spec", [None, 3, b"greedy"])
def test_parse_bot_wants_text(spec: object) -> None:
    with pytest.raises(TypeError, match=r"^a bot spec is a str like 'mcts:iterations=100', not (NoneType|int|bytes)$"):
        parse_bot(spec)  # type: ignore[arg-type]


@pytest.mark.parametrize("call", [lambda g: observe(g, 0), legal_action_mask])
def test_the_learning_helpers_want_a_game(call: object) -> None:
    for wrong, name in (("game", "str"), (None, "NoneType"), (Game(players=2, seed=1)._state, "genial.GameState")):
        with pytest.raises(TypeError, match=rf"^expected a genial\.Game, not {name}$"):
            call(wrong)  # type: ignore[operator]


@pytest.mark.parametrize("text", ["\ud800", "standard\udcff"])
def test_text_with_a_lone_surrogate_is_a_bad_name_not_an_encoding_crash(text: str) -> None:
    with pytest.raises(ValueError, match="variant") as raised:
        Rules(text)
    assert not isinstance(raised.value, UnicodeError)
    with pytest.raises(ValueError, match="swap"):
        Rules("standard", swap_timing=text)
    with pytest.raises(ValueError, match="variant"):
        Game(variant=text)


def finished() -> Game:
    return genial.play_game([make("greedy", seed=1), make("random", seed=2)], seed=3)


def test_a_record_keeps_its_result_and_reads_back() -> None:
    game = finished()
    data = json.loads(game.to_json())
    assert data["result"] == {
        "over": True,
        "scores": [list(t) for t in game.tracks],
        "end": game.end,
        "ranking": game.ranking(),
    }
    assert Game.from_json(json.dumps(data)) == game
    del data["result"]
    assert Game.from_json(json.dumps(data)) == game  # the result is optional


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("ranking", [[1], [0]], "record's result 'ranking' is [[1], [0]], but replaying the moves gives [[0], [1]]"),
        ("end", "bag_empty", "record's result 'end' is 'bag_empty'"),
        ("over", False, "record's result 'over' is False"),
        ("over", 1, "record's result 'over' is 1"),
        ("scores", [[18] * 6, [0] * 6], "record's result 'scores'"),
    ],
)
def test_a_record_whose_result_disagrees_with_its_moves_is_refused(field: str, value: object, says: str) -> None:
    data = json.loads(finished().to_json())
    data["result"][field] = value
    with pytest.raises(genial.RecordError) as raised:
        Game.from_json(json.dumps(data))
    assert says in str(raised.value)


def test_an_unfinished_record_cannot_claim_an_end() -> None:
    game = Game(players=2, seed=5)
    game.play(game.legal_moves()[0])
    data = json.loads(game.to_json())
    assert Game.from_json(json.dumps(data)) == game
    data["result"]["end"] = "board_full"
    with pytest.raises(genial.RecordError, match="gives 'end', but the replayed game is not over"):
        Game.from_json(json.dumps(data))
    data["result"] = "won"
    with pytest.raises(genial.RecordError, match="'result' must be an object, not str"):
        Game.from_json(json.dumps(data))


def test_the_start_of_a_finished_record_replays() -> None:
    """`start_record` drops the moves and the result that belongs to them."""
    from genial.records import from_record, start_record

    data = json.loads(finished().to_json())
    start = from_record(start_record(data))
    assert start.moves == () and not start.is_over and start.seed == 3
    assert "result" in data and len(data["moves"]) > 0  # the record itself is left as it was

"""Replays the recorded games of an independent engine (`tests/data/fixtures`, see its README)
through the public Python API: legal counts and hashes, scores, bonuses, draws, ranking."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from conftest import load_fixture_games
from genial import Color, Game, LegalMoves, Move, Tile
from rules_oracle import Referee, play_checked

GAMES = load_fixture_games()
COLOURS = [c.name.lower() for c in Color]


def legal_hash(moves: LegalMoves) -> tuple[int, str]:
    """FNV-1a 64 over the sorted `q1,r1,c1,q2,r2,c2` lines, as the fixtures' README defines it."""
    lines = []
    for m in moves:
        assert m.cells is not None and m.colors is not None
        (qa, ra), (qb, rb) = m.cells
        ca, cb = m.colors
        a, b = (qa, ra, int(ca)), (qb, rb, int(cb))
        lines.append(a + b if a <= b else b + a)
    lines.sort()
    data = "".join(",".join(str(x) for x in line) + "\n" for line in lines).encode()
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return len(lines), f"{h:016x}"


def test_hash_of_no_moves_is_the_offset_basis() -> None:
    game = Game(2, 1)
    while not game.is_over:
        game.play(game.legal_moves()[0])
    assert legal_hash(game.legal_moves()) == (0, "cbf29ce484222325")


def test_fixture_set_is_complete() -> None:
    assert Counter(g["players"] for g in GAMES) == {2: 6, 3: 4, 4: 4}


@pytest.mark.parametrize("record", GAMES, ids=[f"{g['players']}p-{g['seed']}" for g in GAMES])
def test_recorded_game_replays_exactly(record: dict[str, Any]) -> None:
    players = record["players"]
    bag = [(a, b) for a, b in record["bag"]]
    game = Game(players, 0, bag)
    referee = Referee()
    for i, turn in enumerate(record["turns"]):
        where = f"turn {i}"
        p = turn["player"]
        assert game.current_player == p, where
        assert sorted(str(t) for t in game.rack(p)) == sorted(str(_tile(t)) for t in turn["rack"]), where
        assert (game.phase == "bonus") == turn["bonus"], where
        legal = game.legal_moves()
        assert legal_hash(legal) == (turn["legal"], turn["legal_hash"]), where
        assert game.legal_move_count() == turn["legal"]
        q1, r1, c1, q2, r2, c2 = turn["move"]
        move = Move.place((q1, r1), c1, (q2, r2), c2)
        assert move in legal, where
        (result,) = play_checked(game, [move], referee)
        gains = {Color.parse(k): v for k, v in turn["gains"].items()}
        assert result.gains_by_color() == gains, where
        assert list(game.scores[p]) == turn["scores_after"], where
        assert result.bonuses_earned == turn["ingenious"], where
        assert (game.phase == "bonus") == turn["bonus_next"], where
        if game.phase == "swap_offer":
            (result,) = play_checked(game, ["keep"], referee)  # the recorded players never swap
        if not turn["bonus_next"] and not game.is_over:
            drawn = [str(_tile(t)) for t in turn["drawn"]]
            rack = [str(t) for t in game.rack(p)]
            assert result.drawn == len(drawn) and rack[len(rack) - len(drawn) :] == drawn, where
    assert game.is_over and game.end == record["end"]
    assert [list(s) for s in game.scores] == record["final_scores"]
    assert game.ranking() == record["ranking_groups"]


def _tile(pair: list[str]) -> Tile:
    return Tile(*pair)

"""Explained scoring (`Game.explain`) says exactly what `Game.previews` and playing say."""

from __future__ import annotations

import random
from collections import Counter

import genial
import pytest
from genial import Game, IllegalMoveError
from genial.actions import DIRECTIONS

# (variant, players): 200 positions in all, reached by mostly greedy play so that markers
# reach their caps and bonus placements chain.
SETUPS = [("standard", 2), ("standard", 3), ("standard", 4), ("solo", 1), ("team", 4), ("duel", 2)]
POSITIONS = 200


def positions() -> list[Game]:
    out: list[Game] = []
    rng = random.Random(2026)
    seed = 0
    while len(out) < POSITIONS:
        variant, players = SETUPS[seed % len(SETUPS)]
        game = Game(players=players, variant=variant, seed=seed)
        seed += 1
        while not game.is_over and len(out) < POSITIONS:
            previews = game.previews()
            if previews and rng.random() < 0.12:
                out.append(game.clone())
            if previews and rng.random() < 0.8:
                game.play(max(previews, key=lambda p: (sum(p.points), str(p.move))).move)
            else:
                game.play(rng.choice(list(game.legal_moves())))
    return out


def walk(game: Game, cell: tuple[int, int], d: int, color: genial.Color) -> int:
    """The unbroken line of ``color`` from ``cell`` in direction ``d``, walked on the board."""
    board, (dq, dr) = game.board, DIRECTIONS[d]
    zone = set(board.cells())
    n, (q, r) = 0, cell
    while (q + dq, r + dr) in zone and board[(q + dq, r + dr)] == color:
        n, q, r = n + 1, q + dq, r + dr
    return n


@pytest.mark.slow
def test_explanations_match_previews_for_every_placement_of_200_positions() -> None:
    seen: Counter[str] = Counter()
    for game in positions():
        seen[game.variant] += 1
        seen["bonus phase"] += game.phase == "bonus"
        for i, p in enumerate(game.previews()):
            e = game.explain(p.move)
            assert e.points == p.points, (game.variant, p.move)
            assert e.bonuses == p.bonuses_earned
            assert e.wins == p.wins
            assert list(e.scores_after) == list(p.scores_after)
            for h in e.halves:
                assert sum(h.lines) == h.points
                assert h.lines[h.toward_other] == 0
                assert len(h.counted()) == 5
                for d in range(6):
                    # Walking every line in Python is slow: every 7th placement.
                    if d != h.toward_other and i % 7 == 0:
                        assert h.lines[d] == walk(game, h.cell, d, h.color)
                    assert len(h.line_cells[d]) == h.lines[d]
            marks = list(e.scores_before)
            for s in e.steps:
                assert s.start == marks[s.color]
                assert s.end == min(s.start + s.points, s.cap) and s.lost == s.start + s.points - s.end
                marks[s.color] = s.end
            assert tuple(marks) == tuple(e.scores_after)
            assert sum(s.bonuses for s in e.steps) == e.bonuses
            seen["double"] += e.halves[0].color == e.halves[1].color
            seen["bonus"] += e.bonuses > 0
            seen["cap"] += any(s.lost for s in e.steps)
    # The sample covers what is easy to get wrong.
    assert {v for v, _ in SETUPS} <= set(seen)
    for what in ("double", "bonus", "cap", "bonus phase"):
        assert seen[what] > 0, (what, seen)


def test_explained_double_counts_both_halves_and_ingenious_words() -> None:
    game = Game(players=2, seed=11)
    doubles = [p for p in game.previews() if p.move.colors and p.move.colors[0] == p.move.colors[1]]
    e = game.explain((doubles or game.previews())[0].move)
    assert len(e.steps) == 2 and {s.half for s in e.steps} == {0, 1}
    assert "half 1" in str(e) and "half 2" in str(e)
    data = e.to_dict()
    assert data["steps"][0]["text"] and data["halves"][0]["lines"] == list(e.halves[0].lines)


def test_the_ingenious_bonus_and_the_cap_are_named() -> None:
    # Greedy play until a placement earns a bonus and loses points beyond the cap.
    for seed in range(40):
        game = Game(players=2, seed=seed)
        while not game.is_over:
            previews = game.previews()
            for p in previews:
                e = game.explain(p.move)
                if e.bonuses and any(s.lost for s in e.steps):
                    text = str(e)
                    assert '"Ingenious!"' in text
                    assert "stops on 18" in text and "lost" in text
                    return
            if not previews:
                game.play(game.legal_moves()[0])
                continue
            game.play(max(previews, key=lambda p: sum(p.points)).move)
    pytest.fail("no capped bonus placement found")


def test_explain_refuses_what_is_not_a_legal_placement() -> None:
    game = Game(players=2, seed=3)
    before = game.to_json()
    with pytest.raises(IllegalMoveError):
        game.explain("R0,0+R1,0" if not game.is_legal("R0,0+R1,0") else "O0,0+O1,0")
    with pytest.raises(TypeError):
        game.explain(42)  # type: ignore[arg-type]
    assert game.to_json() == before
    # A swap offer's "keep" is legal but scores nothing.
    rng = random.Random(0)
    while game.phase != "swap_offer":
        if game.is_over:
            game = Game(players=2, seed=rng.randrange(1000))
        game.play(rng.choice(list(game.legal_moves())))
    with pytest.raises(ValueError, match="only a placement"):
        game.explain("keep")

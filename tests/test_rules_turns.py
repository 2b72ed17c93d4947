"""RULES.md base game turn flow: caps, bonuses ("Ingenious!"), swap, end of game, and the
edition options `swap_timing` and `require_contact`.

Positions that need many moves come from crafted games in `data/rule_scenarios.json` (a
full draw order and every move); each move of them is judged by `rules_oracle.Referee`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from genial import Color, Game, IllegalMoveError, Move
from rules_oracle import Referee, load_scenarios, make_bag, neighbours, play_checked, scenario_game, swap_open

SCENARIOS = load_scenarios()


def replay(name: str, **kw: Any) -> tuple[Game, Referee, list[Any]]:
    s = SCENARIOS[name]
    game = scenario_game(s, **kw)
    referee = Referee()
    results = play_checked(game, s["moves"], referee)
    return game, referee, results


def test_caps_at_18_with_the_excess_lost_and_bonus_on_reaching_18() -> None:
    game, ref, results = replay("two_bonuses")
    assert ref.events["excess_lost"] >= 1 and ref.events["scored_at_cap"] >= 1
    assert ref.events["bonus_earned"] >= 1
    # Scoring in a colour already at 18 moves nothing and earns nothing.
    g = scenario_game(SCENARIOS["two_bonuses"])
    for m, r in zip(SCENARIOS["two_bonuses"]["moves"], results):
        before = g.scores[g.current_player]
        g.play(m)
        for c, gain in enumerate(r.gains):
            if gain and before[c] == 18:
                assert g.scores[r.player][c] == 18
    assert max(max(s) for s in game.scores) == 18


def test_a_bonus_placement_comes_before_the_draw_and_rack_shrinks() -> None:
    s = SCENARIOS["immediate_win"]
    game = scenario_game(s)
    seen = 0
    for m in s["moves"]:
        before = game.clone()
        r = game.play(m)
        if r.bonuses_earned and game.phase == "bonus":
            seen += 1
            p = r.player
            assert game.current_player == p and r.drawn == 0
            assert len(game.rack(p)) == len(before.rack(p)) - 1
            assert all(mv.is_placement for mv in game.legal_moves())
            for decision in ("swap", "keep"):
                with pytest.raises(IllegalMoveError):
                    game.clone().play(decision)
    assert seen >= 4


def test_two_bonuses_at_once() -> None:
    s = SCENARIOS["two_bonuses"]
    game = scenario_game(s)
    for i, m in enumerate(s["moves"]):
        before = game.scores[game.current_player]
        r = game.play(m)
        if r.bonuses_earned == 2:
            crossed = [c for c in range(6) if before[c] < 18 == game.scores[r.player][c]]
            assert len(crossed) == 2 and set(crossed) == {int(c) for c in Move.parse(m).colors or ()}
            assert game.phase == "bonus" and game.pending_bonuses == 1
            r1 = game.play(s["moves"][i + 1])
            assert r1.was_bonus and game.current_player == r.player
            assert game.phase == "bonus" or game.is_over, "the second bonus is still owed"
            return
    pytest.fail("scenario lost its double bonus")


def test_bonuses_chain() -> None:
    _, ref, results = replay("bonus_lost_at_end")
    assert ref.events["chain"] >= 3
    # Four placements in one turn, each a bonus earned by the one before.
    run = best = 0
    for r in results:
        run = run + 1 if r.was_bonus and r.bonuses_earned else 0
        best = max(best, run)
    assert best >= 3


def test_game_ends_when_no_two_adjacent_free_cells_remain_and_a_pending_bonus_is_lost() -> None:
    game, _ref, results = replay("bonus_lost_at_end")
    last = results[-1]
    assert game.is_over and game.end == "board_full"
    assert game.board.free_pair_count == 0
    assert last.bonuses_earned == 1 and last.bonuses_lost == 1 and game.pending_bonuses == 0
    assert game.stats["bonuses_lost"] == 1
    # Isolated free cells may remain.
    assert game.board.free_cells()
    assert list(game.legal_moves()) == [] and game.legal_move_count() == 0
    for m in (
        "keep",
        "swap",
        str(Move.place(game.board.free_cells()[0], Color.RED, neighbours(game.board.free_cells()[0])[0], Color.RED)),
    ):
        with pytest.raises(IllegalMoveError, match="over"):
            game.play(m)


def test_all_six_at_18_wins_at_once() -> None:
    game, ref, results = replay("immediate_win")
    assert ref.events["immediate_win"] == 1
    assert game.is_over and game.end == "immediate_win"
    assert game.scores[0] == (18,) * 6
    assert game.board.free_pair_count > 0, "the game ended before the board filled"
    assert game.ranking() == [[0], [1]] and game.winner == 0
    assert game.current_player == 0 and results[-1].game_over


def test_swap_after_placement_draws_the_next_six_then_returns_the_old_tiles() -> None:
    # Seat 0: a red/blue and five red doubles; after scoring a red, its lowest colours are
    # orange, yellow, green, blue and purple (all 0), and no tile left shows any of them.
    bag = make_bag("RB", "RR", "RR", "RR", "RR", "RR", "OY", "OY", "OY", "GP", "GP", "GP")
    game = Game(2, 7, bag)
    r = game.play("R0,-4+B1,-4")
    assert r.points == (1, 0) and game.scores[0] == (1, 0, 0, 0, 0, 0)
    assert game.phase == "swap_offer" and game.current_player == 0
    assert list(game.legal_moves()) == [Move.swap(), Move.keep()]
    with pytest.raises(IllegalMoveError, match="swap was offered"):
        game.play("R0,0+R1,0")
    kept = game.clone()
    r = game.play("swap")
    assert r.swapped and r.drawn == 6
    assert [str(t) for t in game.rack(0)] == bag[12:18], "the first six tiles of the remaining bag come in"
    assert game.bag_size == 120 - 12 - 6 + 5
    unseen = Counter(str(t) for t in game.unseen_tiles(0)) - Counter(str(t) for t in game.rack(1))
    assert unseen == Counter(bag[18:]) + Counter({"RR": 5}), "the five red doubles went back into the bag"
    # The swap ends the turn; it cannot be taken twice.
    assert game.current_player == 1 and game.phase == "place"
    assert game._state.tile_total() == 120
    # Declining keeps the rack and draws back up to six as usual.
    r = kept.play("keep")
    assert not r.swapped and r.drawn == 1
    assert [str(t) for t in kept.rack(0)] == ["RR"] * 5 + [bag[12]]
    assert kept.current_player == 1


def test_returned_tiles_are_mixed_with_the_games_own_seeded_generator() -> None:
    bag = make_bag("RB", "RR", "RR", "RR", "RR", "RR", "OY", "OY", "OY", "GP", "GP", "GP")

    def future(seed: int) -> list[str]:
        game = Game(2, seed, bag)
        game.play("R0,-4+B1,-4")
        game.play("swap")
        drawn = []
        for _ in range(12):
            game.play(game.legal_moves()[0])
            while game.phase != "place":
                game.play("keep" if game.phase == "swap_offer" else game.legal_moves()[0])
            drawn.append(str(game.rack(1 - game.current_player)[-1]))
        return drawn

    assert future(7) == future(7)
    assert future(7) != future(8)
    # Without a swap the seed plays no part: the draw order alone decides.
    plain = [Game(2, s, bag) for s in (7, 8)]
    for g in plain:
        g.play("R0,-4+B1,-4")
        g.play("keep")
    assert plain[0].rack(0) == plain[1].rack(0) and plain[0].rack(1) == plain[1].rack(1)
    assert plain[0].board == plain[1].board


def test_no_swap_while_a_tile_shows_one_of_the_tied_lowest_colours() -> None:
    # The red/orange left in the rack shows orange, one of five colours tied at 0.
    game = Game(2, 7, make_bag("RB", "RR", "RR", "RR", "RR", "RO"))
    r = game.play("R0,-4+B1,-4")
    assert game.phase == "place" and game.current_player == 1 and r.drawn == 1
    for m in ("swap", "keep"):
        with pytest.raises(IllegalMoveError):
            game.play(m)
    # A tile showing a colour above the lowest (red, at 1) does not prevent it: see the
    # swap test above, where every tile shows red.


def test_swap_is_judged_after_bonus_placements() -> None:
    _, ref, _ = replay("immediate_win")
    assert ref.events["swap_offer_after_bonus"] >= 1
    s = SCENARIOS["immediate_win"]
    game = scenario_game(s)
    for m in s["moves"]:
        before = game.clone()
        game.play(m)
        if before.phase == "bonus" and game.phase == "swap_offer":
            # Judged on the rack as it is after the last bonus placement.
            p = game.current_player
            assert swap_open(game, p)
            return
    pytest.fail("no swap offer after a bonus placement")


def _timing_game(timing: str) -> tuple[Game, list[str]]:
    # Seat 0 scores red, then blue; then it holds only red and blue doubles, and the six
    # tiles a swap would bring show only red and blue too.
    bag = make_bag(
        "RB",
        "RB",
        "RR",
        "RR",
        "RR",
        "RR",
        "OY",
        "OY",
        "OY",
        "GP",
        "GP",
        "GP",
        "BB",
        "OO",
        "BB",
        "PP",
        "RB",
        "RB",
        "RB",
        "RB",
        "RR",
        "BB",
    )
    return Game(2, 3, bag, swap_timing=timing), bag


def test_swap_instead_of_placement_is_judged_on_the_full_rack_and_is_the_whole_turn() -> None:
    game, bag = _timing_game("instead_of_placement")
    assert "swap" not in game.legal_moves()
    game.play("R0,-4+B1,-4")  # red 1; no swap offer with this timing
    assert game.phase == "place" and game.current_player == 1
    game.play("O-4,0+Y-4,-1")
    # Rack: RB, RR x4, BB. Blue (0) is among the lowest and shows: no swap.
    assert "swap" not in game.legal_moves()
    with pytest.raises(IllegalMoveError, match="swap not allowed"):
        game.check("swap")
    game.play("R3,0+B4,0")  # blue 1; now RR x4, BB, and lowest are orange/yellow/green/purple
    assert game.scores[0] == (1, 0, 0, 0, 1, 0)
    assert game.phase == "place" and game.current_player == 1
    game.play("O-3,0+Y-3,-1")
    # Turn start: the full rack RR x4 + BB x2 shows none of the lowest colours.
    assert [str(t) for t in game.rack(0)] == ["RR"] * 4 + ["BB", "BB"]
    assert Move.swap() in game.legal_moves()
    board = game.board
    r = game.play("swap")
    assert r.swapped and r.drawn == 6 and r.points == (0, 0)
    assert game.board == board, "the swap is the whole turn: nothing is placed"
    assert [str(t) for t in game.rack(0)] == bag[16:22]
    assert game.current_player == 1
    with pytest.raises(IllegalMoveError):
        game.play("keep")
    # The new tiles still lack the lowest colours: at most one swap a turn, so seat 0 waits
    # for its next turn, where the swap is open again.
    assert not {int(c) for t in game.rack(0) for c in t.colors} & {1, 2, 3, 5}
    game.play("O-2,0+Y-2,-1")
    assert game.current_player == 0 and Move.swap() in game.legal_moves()


def test_swap_after_placement_on_the_same_deal() -> None:
    game, _ = _timing_game("after_placement")
    game.play("R0,-4+B1,-4")
    assert game.phase == "place"  # RB, RR x4 after placing: blue still shows
    game.play("O-4,0+Y-4,-1")
    with pytest.raises(IllegalMoveError, match="offered after your placement"):
        game.play("swap")
    game.play("R3,0+B4,0")
    assert game.phase == "swap_offer"


def test_instead_of_placement_never_offers_a_swap_during_a_bonus() -> None:
    # The same crafted game as before, with the older timing: every placement stays legal,
    # the offers after placing disappear, and "swap" is never a bonus move.
    s = SCENARIOS["two_bonuses"]
    assert "swap" not in s["moves"]
    game = scenario_game(s, swap_timing="instead_of_placement")
    ref = Referee()
    moves = [m for m in s["moves"] if m != "keep"]
    bonus_phases = 0
    for m in moves:
        if game.phase == "bonus":
            bonus_phases += 1
            assert Move.swap() not in game.legal_moves()
            with pytest.raises(IllegalMoveError, match="bonus placement must be played"):
                game.check("swap")
        play_checked(game, [m], ref)
        assert game.phase != "swap_offer"
    assert bonus_phases == 3 and game.end == "board_full"


def test_require_contact_every_later_tile_touches_a_tile_or_a_symbol() -> None:
    game = Game(2, 4, require_contact=True)
    loose = Game(2, 4)
    for g in (game, loose):
        g.play(g.legal_moves()[0])
        if g.phase == "swap_offer":
            g.play("keep")
        g.play(g.legal_moves()[0])
        if g.phase == "swap_offer":
            g.play("keep")
    assert game.board == loose.board
    ca, cb = game.rack(0)[0].colors
    far = Move.place((0, 0), ca, (1, 0), cb)
    assert loose.is_legal(far)
    with pytest.raises(IllegalMoveError, match="must touch a tile or a printed symbol"):
        game.play(far)
    occupied = set(game.board.occupied())
    legal = list(game.legal_moves())
    assert legal and all(any(n in occupied for c in m.cells or () for n in neighbours(c)) for m in legal)
    touching = [p for p in game.board.free_pairs() if any(n in occupied for c in p for n in neighbours(c))]
    kinds = set(game.rack(0))
    assert len(legal) == len(touching) * sum(1 if t.is_double else 2 for t in kinds)
    # A printed symbol counts as something to touch, even one already touched.
    near_symbol = [
        m for m in legal if any(n in dict(game.board.symbols()) for c in m.cells or () for n in neighbours(c))
    ]
    assert near_symbol
    # The first tile of a player still follows the printed-symbol rule (seat 1 here).
    fresh = Game(2, 4, require_contact=True)
    fresh.play(fresh.legal_moves()[0])
    if fresh.phase == "swap_offer":
        fresh.play("keep")
    ca, cb = fresh.rack(1)[0].colors
    touching_tile = next(
        Move.place(a, ca, b, cb)
        for a, b in fresh.board.free_pairs()
        if any(n in fresh.board.occupied() for n in neighbours(a))
        and not any(n in dict(fresh.board.symbols()) for c in (a, b) for n in neighbours(c))
    )
    with pytest.raises(IllegalMoveError, match="first tile must touch a printed symbol"):
        fresh.play(touching_tile)


@pytest.mark.parametrize("contact", [False, True])
def test_random_games_with_each_option_follow_the_referee(contact: bool) -> None:
    import random

    for seed in range(3):
        for timing in ("after_placement", "instead_of_placement"):
            game = Game(3, seed, swap_timing=timing, require_contact=contact)
            rng = random.Random(seed)
            ref = Referee()
            while not game.is_over:
                legal = game.legal_moves()
                play_checked(game, [legal[rng.randrange(len(legal))]], ref)
            assert game.end == "board_full"

"""RULES.md "Solo", "Team" and "Duel", through the Python API.

Long positions come from crafted games in `data/rule_scenarios.json`, every move judged by
`rules_oracle.Referee` (which knows each variant's tracks, bonuses and swap)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from genial import Board, Game, GameView, IllegalMoveError, Move
from genial.bots import make
from rules_oracle import Referee, expected_ranks, load_scenarios, play_checked, scenario_game

SCENARIOS = load_scenarios()


def replay(name: str) -> tuple[Game, Referee, list[Any], list[Game]]:
    """The scenario's final game, its referee, each move's result, and the game before each
    move followed by the final game (so `states[i]` is before and `states[i + 1]` after move i)."""
    s = SCENARIOS[name]
    game = scenario_game(s)
    ref = Referee()
    results, states = [], []
    for m in s["moves"]:
        states.append(game.clone())
        results.extend(play_checked(game, [m], ref))
    states.append(game.clone())
    return game, ref, results, states


def random_game(players: int, seed: int, **kw: Any) -> tuple[Game, Referee]:
    game = Game(players, seed, **kw)
    rng = random.Random(seed)
    ref = Referee()
    while not game.is_over:
        legal = game.legal_moves()
        play_checked(game, [legal[rng.randrange(len(legal))]], ref)
    return game, ref


@pytest.mark.parametrize(
    ("variant", "players", "ok"),
    [
        ("solo", 1, True),
        ("solo", 2, False),
        ("team", 4, True),
        ("team", 2, False),
        ("team", 3, False),
        ("duel", 2, True),
        ("duel", 3, False),
        ("standard", 1, False),
        ("standard", 5, False),
    ],
)
def test_player_counts_per_variant(variant: str, players: int, ok: bool) -> None:
    if ok:
        assert Game(players, 1, variant=variant).players == players
    else:
        with pytest.raises(ValueError, match="player"):
            Game(players, 1, variant=variant)


# ----- solo ---------------------------------------------------------------------------------


def test_solo_rack_of_one_two_player_zone_first_tile_at_a_symbol() -> None:
    game = Game(1, 3, variant="solo")
    assert len(game.rack(0)) == 1 and game.bag_size == 119
    assert len(game.board.cells()) == len(Board(2).cells()) == 91
    symbols = dict(Board.symbols())
    legal = list(game.legal_moves())
    assert legal and all(
        any(
            (c[0] + dq, c[1] + dr) in symbols
            for c in m.cells or ()
            for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
        )
        for m in legal
    )
    tile = game.rack(0)[0]
    assert {m.tile for m in legal} == {tile}
    r = game.play(legal[0])
    assert r.drawn == 1 and len(game.rack(0)) == 1 and game.current_player == 0 and game.phase == "place"


def test_solo_has_no_swap_and_rejects_the_older_timing() -> None:
    with pytest.raises(ValueError, match="solo variant has no swap"):
        Game(1, 1, variant="solo", swap_timing="instead_of_placement")
    game = Game(1, 1, variant="solo")
    with pytest.raises(IllegalMoveError):
        game.play("swap")


def test_solo_track_stops_at_18_then_counts_to_36_without_bonus() -> None:
    game, ref, results, states = replay("solo_track")
    assert ref.events["excess_lost"] >= 2 and ref.events["past_18"] >= 2
    assert ref.events["bonus_earned"] == 0 and ref.events["swap_offer"] == 0
    crossed = counted_on = 0
    for i, r in enumerate(results):
        for c, g in enumerate(r.gains):
            old, new = states[i].scores[0][c], states[i + 1].scores[0][c]
            if old < 18 < old + g:
                crossed += 1
                assert new == 18, "crossing 18 stops the marker there; the rest is lost"
            if g and old >= 18:
                counted_on += 1
                assert new == min(old + g, 36)
            assert r.bonuses_earned == 0 and states[i + 1].phase != "bonus"
    assert crossed >= 2 and counted_on >= 2
    assert max(game.scores[0]) <= 36


def last_double(name: str) -> tuple[int, int, tuple[int, int], Any]:
    """The scenario's last placement, a double: marker before and after, points, result."""
    game, _ref, results, states = replay(name)
    last, before = results[-1], states[-2]
    ca, cb = last.move.colors
    assert ca == cb, "a double"
    team = before.team_of(last.player) if before.variant == "team" else 0
    return before.tracks[team][int(ca)], game.tracks[team][int(ca)], tuple(last.points), last


def test_solo_double_moves_its_marker_half_by_half() -> None:
    # The books: each symbol counts separately, even on a double, in the order the player
    # picks. Blue on 16, halves 4 and 3: 3 first stops on 18, then 4 more: 22, not 18.
    old, new, points, _ = last_double("solo_double_half_by_half")
    assert (old, points) == (16, (4, 3))
    assert new == 22


def test_solo_double_where_either_half_reaches_18_counts_the_larger_on() -> None:
    old, new, (a, b), _ = last_double("solo_double_crossing")
    assert old < 18 <= old + min(a, b), "either half alone would reach 18"
    assert new == 18 + max(a, b)


def test_team_double_earns_its_bonus_and_counts_on_past_18() -> None:
    old, new, points, result = last_double("team_double_half_by_half")
    assert (old, points) == (13, (5, 1))
    assert (new, result.bonuses_earned) == (19, 1)


def test_solo_game_ends_on_a_full_board_and_scores_the_lowest_colour() -> None:
    game, ref = random_game(1, 9, variant="solo")
    assert game.end == "board_full" and game.board.free_pair_count == 0
    assert game.lowest_score() == min(game.scores[0])
    assert game.ranking() == [[0]]
    assert ref.events["bonus_earned"] == 0


# ----- team ---------------------------------------------------------------------------------


def test_team_seats_and_shared_double_track() -> None:
    game = Game(4, 2, variant="team")
    assert [game.team_of(p) for p in range(4)] == [0, 1, 0, 1]
    assert len(game.board.cells()) == 169 and len(game.tracks) == 2 and game.track_max == 36
    with pytest.raises(ValueError):
        Game(2, 2).team_of(0)
    game, _ref, results, states = replay("team_immediate_win")
    for i, r in enumerate(results):
        team = r.player % 2
        # A seat scores on its team's track only; partners see the same markers.
        assert states[i].tracks[1 - team] == states[i + 1].tracks[1 - team]
        after = states[i + 1]
        assert after.scores[0] == after.scores[2] == after.tracks[0]
        assert after.scores[1] == after.scores[3] == after.tracks[1]
    by_seat = {r.player for r in results if r.move.is_placement and any(r.gains)}
    assert {0, 2} <= by_seat, "both partners scored on the team track"


def test_team_bonus_at_18_and_at_36_and_excess_lost() -> None:
    _game, ref, results, states = replay("team_immediate_win")
    at18 = at36 = 0
    for i, r in enumerate(results):
        old, new = states[i].scores[r.player], states[i + 1].scores[r.player]
        reached = [c for c in range(6) if r.gains[c] and (old[c] < 18 == new[c] or old[c] < 36 == new[c])]
        at18 += sum(old[c] < 18 for c in reached)
        at36 += sum(old[c] >= 18 for c in reached)
        # One bonus placement for each 18 and each 36 reached.
        assert r.bonuses_earned == len(reached)
    assert at18 >= 3 and at36 >= 3
    assert ref.events["excess_lost"] >= 3 and ref.events["two_bonuses"] >= 1
    assert ref.events["bonus_earned"] >= at18 // 2


def test_team_swap_uses_the_teams_lowest_colours() -> None:
    _game, _ref, results, states = replay("team_immediate_win")
    swaps = [(b, r) for b, r in zip(states, results) if r.swapped]
    assert swaps
    for before, r in swaps:
        team_track = before.tracks[r.player % 2]
        lowest = {c for c in range(6) if team_track[c] == min(team_track)}
        assert not any(lowest & {int(c) for c in t.colors} for t in before.rack(r.player))


def test_team_with_all_six_at_36_wins_at_once_and_ranks_by_team_track() -> None:
    game, _ref, _, _ = replay("team_immediate_win")
    assert game.end == "immediate_win" and game.tracks[0] == (36,) * 6
    assert game.ranking() == [[0, 2], [1, 3]] and game.winner == 0
    assert game.board.free_pair_count > 0


def test_team_ranking_compares_team_tracks() -> None:
    for seed in range(2):
        game, _ = random_game(4, seed, variant="team")
        ranks = game.ranks()
        assert ranks[0] == ranks[2] and ranks[1] == ranks[3]
        assert ranks == expected_ranks(game)


# ----- duel ---------------------------------------------------------------------------------


def test_duel_tug_of_war_track() -> None:
    game = Game(2, 4, variant="duel")
    assert len(game.tracks) == 1 and game.track_max == 9 and len(game.board.cells()) == 91
    game, ref, results, states = replay("duel_tokens")
    for i, r in enumerate(results):
        sign = 1 if r.player == 0 else -1
        for c, g in enumerate(r.gains):
            # Toward the scorer, that many steps, stopping at the scorer's 9.
            old, new = states[i].tracks[0][c] * sign, states[i + 1].tracks[0][c] * sign
            assert new == min(old + g, 9)
    assert ref.events["pulled_back"] >= 3
    # Each seat sees its own distance toward its 9.
    assert game.scores[0] == game.tracks[0] and game.scores[1] == tuple(-v for v in game.tracks[0])


def test_duel_tokens_from_the_supply_and_from_the_opponent() -> None:
    _game, _ref, results, states = replay("duel_tokens")
    from_supply = from_opponent = no_bonus_again = 0
    for i, r in enumerate(results):
        before, after = states[i], states[i + 1]
        sign = 1 if r.player == 0 else -1
        for c in range(6):
            reached = before.tracks[0][c] * sign < 9 == after.tracks[0][c] * sign
            if not reached:
                continue
            if before.duel_tokens[c] is None:
                from_supply += 1
                assert after.duel_tokens[c] == r.player and r.bonuses_earned >= 1
            elif before.duel_tokens[c] != r.player:
                from_opponent += 1
                assert after.duel_tokens[c] == r.player and r.bonuses_earned >= 1
            else:
                # No bonus for a colour whose token already lies in front of you.
                no_bonus_again += 1
                assert after.duel_tokens[c] == r.player
                assert r.bonuses_earned == 0 and after.phase != "bonus"
    assert from_supply >= 2 and from_opponent >= 1 and no_bonus_again >= 1


def test_duel_swap_exchanges_the_tiles_showing_a_colour_on_your_9() -> None:
    _game, _ref, results, states = replay("duel_swap")
    ((i, r),) = [(i, r) for i, r in enumerate(results) if r.swapped]
    before, after, p = states[i], states[i + 1], r.player
    nine = {c for c in range(6) if before.scores[p][c] == 9}
    rack = list(before.rack(p))
    out = [t for t in rack if nine & {int(c) for c in t.colors}]
    kept = [t for t in rack if t not in out]
    assert out and kept, "some tiles show a colour on the mover's 9, some do not"
    assert list(after.rack(p))[: len(kept)] == kept and len(after.rack(p)) == 6
    # Draw as many as set aside, then the usual draw back to six.
    assert r.drawn == len(out) + (6 - len(rack))
    assert before.bag_size - after.bag_size == r.drawn - len(out)
    assert after.current_player != p, "the swap ends the turn"


def test_duel_all_six_markers_on_your_side_wins_at_once() -> None:
    game, _ref, _, _ = replay("duel_immediate_win")
    assert game.end == "immediate_win" and all(v > 0 for v in game.tracks[0])
    assert max(game.tracks[0]) < 9, "no marker needs to reach 9"
    assert game.winner == 0 and game.ranking() == [[0], [1]]


def test_duel_ranking_follows_markers_on_each_side() -> None:
    for seed in range(3):
        game, _ = random_game(2, seed, variant="duel")
        assert game.ranks() == expected_ranks(game)


def test_duel_swap_with_the_older_timing_is_judged_at_turn_start() -> None:
    # Replay the duel swap scenario with the older timing, without its swap decision: the
    # swap becomes available at the mover's next turn start, judged on its full rack.
    s = SCENARIOS["duel_swap"]
    game = scenario_game(s, swap_timing="instead_of_placement")
    ref = Referee()
    moves = [m for m in s["moves"] if m not in ("swap", "keep")]
    play_checked(game, moves, ref)
    assert ref.events["swap_offer"] == 0
    # Play on with the first legal placement until seat 0 may swap.
    for _ in range(20):
        if Move.swap() in game.legal_moves():
            break
        play_checked(game, [game.legal_moves()[0]], ref)
    assert Move.swap() in game.legal_moves()
    p = game.current_player
    before = game.clone()
    play_checked(game, ["swap"], ref)
    assert game.board == before.board and game.current_player != p


@pytest.mark.parametrize("variant,players", [("solo", 1), ("team", 4)])
def test_greedy_games_meet_doubles_that_move_half_by_half(variant: str, players: int) -> None:
    # Every move is judged by the oracle, which moves markers half by half; greedy games
    # (which chase the 18) include doubles where that differs from adding the halves first.
    events = 0
    for seed in range(6):
        game, ref = Game(players, seed, variant=variant), Referee()
        seats = [make("greedy", seed=seed + p) for p in range(players)]
        while not game.is_over:
            move = seats[game.current_player].choose(GameView(game))
            play_checked(game, [move], ref)
        events += ref.events["double_half_by_half"]
    assert events >= 1

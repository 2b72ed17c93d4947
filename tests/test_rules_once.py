"""The rules live once, in the core: every Python-facing result agrees with the core's own
for every rule set (`Rules.all()`), and with the test oracle's independent reading.

A finished game is looked at through each door a user may take -- `Game`, a `GameView`,
`simulate` (Rust's batch path), `VecEnv`, the environments -- and every door must report
the same returns, outcome, ranking and tracks."""

from __future__ import annotations

import itertools

import genial
import numpy as np
import pytest
from genial import Game, GameView, Rules
from genial.actions import action_to_move
from genial.bots import make
from rules_oracle import expected_ranks

ALL = Rules.all()


def _id(r: Rules) -> str:
    return f"{r.variant}-{r.players}-{r.swap_timing}-{'contact' if r.require_contact else 'free'}"


def oracle_returns(game: Game) -> tuple[float, ...]:
    """The documented returns, computed here from the oracle's ranking."""
    if game.players == 1:
        return (min(game.scores[0]) / 36,)
    ranks = expected_ranks(game)
    worst = max(ranks)
    return tuple(0.0 if worst == 0 else 1.0 - 2.0 * r / worst for r in ranks)


def test_every_rule_set_is_listed_once() -> None:
    # Each variant and player count with each combination of option values the core takes.
    names = [o["name"] for o in Rules.options()]
    takes = 0
    for v in genial.variants():
        for players in v.player_counts:
            for values in itertools.product(*(o["values"] for o in Rules.options())):
                try:
                    Rules(v.name, players, **dict(zip(names, values, strict=True)))
                    takes += 1
                except ValueError:
                    pass
    assert len(ALL) == len(set(ALL)) == takes >= 22
    assert {r.variant for r in ALL} == {v.name for v in genial.variants()}
    for v in genial.variants():
        assert Rules(v.name).players == Game(variant=v.name, seed=0).players
        assert tuple(Rules(v.name).player_counts) == v.player_counts


@pytest.mark.parametrize("rules", ALL, ids=_id)
def test_seat_facts_agree_with_the_game(rules: Rules) -> None:
    game = Game(seed=1, rules=rules)
    assert game.rules == rules
    assert len(game.tracks) == rules.track_count
    assert sorted(s for t in range(rules.track_count) for s in rules.seats_of_track(t)) == list(range(rules.players))
    for p in range(rules.players):
        assert rules.track_of(p) in range(rules.track_count)
        assert p in rules.seats_of_track(rules.track_of(p))
        if rules.team_of(p) is None:
            with pytest.raises(ValueError, match="teams exist only"):
                game.team_of(p)
        else:
            assert game.team_of(p) == rules.team_of(p) == rules.side_of(p)
    assert rules.sides == len({rules.side_of(p) for p in range(rules.players)})


@pytest.mark.parametrize("rules", ALL, ids=_id)
def test_every_door_reports_the_same_finished_game(rules: Rules) -> None:
    seed = 7
    result = genial.simulate(1, bots="greedy", seed=seed, threads=1, rules=rules)
    row_seed = int(result.seed[0])
    game = genial.play_game(["greedy"] * rules.players, seed=row_seed, rules=rules)
    assert game.is_over

    # The core's ranking and returns, through Game, against the oracle.
    assert game.ranks() == expected_ranks(game)
    assert game.returns() == pytest.approx(oracle_returns(game))
    assert game.lowest_score() == min(game.scores[0])

    # Rust's batch path played the same game.
    assert result.ranks[0].tolist() == list(game.ranks())
    assert result.scores[0].tolist() == [list(s) for s in game.scores]
    assert result.tracks[0].tolist() == [list(t) for t in game.tracks]
    assert genial.results.END_NAMES[int(result.end[0])] == game.end

    # Outcome and ranking say the same as the ranks.
    outcome = game.outcome()
    assert outcome is not None and outcome.end == game.end
    assert [list(g) for g in outcome.ranking] == game.ranking()
    assert sorted(p for g in outcome.ranking for p in g) == list(range(rules.players))
    firsts = {rules.side_of(p) for p in outcome.ranking[0]}
    assert (outcome.winner is not None) == (len(firsts) == 1)
    if outcome.winner is not None:
        assert outcome.winner == min(outcome.ranking[0])

    # Win credit: one first place to share per game, counted by sides.
    credit = result.win_credit()[0]
    assert credit.sum() == pytest.approx(rules.players / rules.sides)

    # Every seat's view reports the same results.
    for p in range(rules.players):
        view = GameView(game, p)
        assert view.ranks() == game.ranks()
        assert view.scores == game.scores and view.tracks == game.tracks


@pytest.mark.parametrize("rules", ALL, ids=_id)
def test_vecenv_pays_the_games_returns(rules: Rules) -> None:
    env = genial.VecEnv(2, seed=3, threads=1, rules=rules)
    env.reset()
    paid = 0
    while paid < 2:
        before = [env.game(i) for i in range(env.num_envs)]
        actions = env.sample_actions()
        _, _, rewards, dones, _ = env.step(actions)
        for i, game in enumerate(before):
            game.play(action_to_move(game, int(actions[i])))
            if dones[i]:
                paid += 1
                np.testing.assert_allclose(rewards[i][: rules.players], game.returns(), rtol=1e-6)
                assert game.returns() == pytest.approx(oracle_returns(game))


def test_the_solo_game_returns_its_result_everywhere() -> None:
    # Once a restated rule: `Game.returns()` said 0.0 where the core paid the result / 36.
    game = genial.play_game([make("greedy", seed=0)], 1, 0, variant="solo")
    assert game.returns() == (game.lowest_score() / 36,)
    assert game.lowest_score() > 0


@pytest.mark.parametrize("rules", ALL, ids=_id)
def test_previews_say_what_playing_does(rules: Rules) -> None:
    game = Game(seed=4, rules=rules)
    bot = make("random", seed=4)
    for _ in range(25):
        if game.is_over:
            break
        previews = game.previews()
        placements = [m for m in game.legal_moves() if m.is_placement]
        assert [p.move for p in previews] == placements
        for p in previews[:: max(1, len(previews) // 15)]:
            copy = game.clone()
            result = copy.play(p.move)
            assert p.points == result.points and p.bonuses_earned == result.bonuses_earned
            assert p.scores_after == list(copy.scores[game.current_player])
            assert p.wins == (copy.end == "immediate_win")
        tile = game.rack()[0] if game.rack() else None
        if tile is not None and game.phase in ("place", "bonus"):
            assert all(p.move.tile == tile for p in game.previews(tile))
        game.play(bot.choose(GameView(game)))


@pytest.mark.slow
@pytest.mark.parametrize("rules", ALL, ids=_id)
def test_the_preview_table_is_the_previews_as_columns(rules: Rules) -> None:
    game = Game(seed=5, rules=rules)
    bot = make("random", seed=5)
    for _ in range(30):
        tiles = [None, *game.rack()] if game.phase in ("place", "bonus") else [None]
        for tile in tiles:
            texts, table = game.preview_table(tile)
            previews = game.previews(tile)
            assert table.dtype == np.int64 and table.shape == (len(previews), 16)
            rows = [
                [
                    *(x for cell in p.move.cells for x in cell),
                    *map(int, p.move.colors),
                    *p.points,
                    p.bonuses_earned,
                    int(p.wins),
                    *p.scores_after,
                ]
                for p in previews
            ]
            assert texts == [str(p.move) for p in previews] and table.tolist() == rows
        game.play(bot.choose(GameView(game)))
    while not game.is_over:
        game.play(bot.choose(GameView(game)))
    texts, table = game.preview_table()
    assert texts == [] and table.shape == (0, 16)

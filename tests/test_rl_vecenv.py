"""`genial.VecEnv`: agreement with the single-game API, determinism, auto-reset, errors."""

from __future__ import annotations

import genial
import numpy as np
import pytest
from genial.actions import ACTION_COUNT, KEEP_ACTION, action_to_move, legal_action_mask
from genial.observation import OBS_SIZE, observe


def run(env: genial.VecEnv, steps: int) -> list[np.ndarray]:
    """Random play; everything the env returned, concatenated per kind."""
    first = env.reset()
    outs: list[list[np.ndarray]] = [[first.obs], [first.mask], [], [], [first.player]]
    for _ in range(steps):
        step = env.step(env.sample_actions())
        for kind, arr in zip(outs, (step.obs, step.mask, step.rewards, step.dones, step.player)):
            kind.append(arr)
    return [np.stack(kind) for kind in outs]


def test_same_results_whatever_the_thread_count() -> None:
    one = run(genial.VecEnv(12, players=3, seed=5, threads=1), 60)
    for threads in (2, 3):
        other = run(genial.VecEnv(12, players=3, seed=5, threads=threads), 60)
        for a, b in zip(one, other):
            np.testing.assert_array_equal(a, b)
    different = run(genial.VecEnv(12, players=3, seed=6, threads=1), 2)
    assert not np.array_equal(one[0][:3], different[0])


def test_outputs_agree_with_the_single_game_api() -> None:
    env = genial.VecEnv(6, variant="duel", seed=3, threads=2)
    obs, mask, player = env.reset()
    assert obs.shape == (6, OBS_SIZE) and obs.dtype == np.float32
    assert mask.shape == (6, ACTION_COUNT) and mask.dtype == np.bool_
    for _ in range(40):
        for i in range(env.num_envs):
            game = env.game(i)
            assert player[i] == game.current_player
            np.testing.assert_array_equal(obs[i], observe(game, int(player[i])))
            np.testing.assert_array_equal(mask[i], legal_action_mask(game))
        actions = env.sample_actions()
        assert mask[np.arange(6), actions].all()
        obs, mask, _rewards, _dones, player = env.step(actions)


def test_finished_games_pay_and_restart() -> None:
    env = genial.VecEnv(4, players=2, seed=11, threads=1)
    env.reset()
    finished = 0
    while finished < 6:
        before = [env.game(i) for i in range(env.num_envs)]
        actions = env.sample_actions()
        obs, _mask, rewards, dones, _player = env.step(actions)
        for i, game in enumerate(before):
            game.play(action_to_move(game, int(actions[i])))
            assert dones[i] == game.is_over
            if dones[i]:
                finished += 1
                np.testing.assert_array_equal(rewards[i], np.array(game.returns(), dtype=np.float32))
                fresh = env.game(i)
                assert fresh.moves == () and fresh.bag_size == 120 - 12
                np.testing.assert_array_equal(obs[i], observe(fresh, fresh.current_player))
            else:
                assert not rewards[i].any()
                assert env.game(i) == game
    assert env.episodes().sum() == finished
    env.reset()
    assert not env.episodes().any()


def test_reset_replays_and_reseeds() -> None:
    env = genial.VecEnv(3, players=2, seed=8, threads=1)
    first = env.reset()
    env.step(env.sample_actions())
    np.testing.assert_array_equal(env.reset().obs, first.obs)
    assert not np.array_equal(env.reset(seed=9).obs, first.obs)
    assert env.seed == 9
    np.testing.assert_array_equal(env.observe().obs, env.reset().obs)


def test_bad_actions_raise_and_change_nothing() -> None:
    env = genial.VecEnv(3, players=2, seed=2, threads=1)
    env.reset()
    before = [env.game(i) for i in range(3)]
    good = env.sample_actions()
    for bad in (-2, ACTION_COUNT):  # -1 is SKIP (test_skip_leaves_an_env_as_it_is)
        actions = good.copy()
        actions[2] = bad
        with pytest.raises(ValueError, match=r"env 2: action .* out of range") as info:
            env.step(actions)
        assert not isinstance(info.value, genial.IllegalMoveError)
    actions = good.copy()
    actions[1] = KEEP_ACTION
    with pytest.raises(genial.IllegalMoveError, match=r"env 1: .*not legal"):
        env.step(actions)
    with pytest.raises(ValueError, match="shape"):
        env.step(good[:2])
    with pytest.raises(TypeError, match="integers"):
        env.step(good.astype(np.float64))
    assert [env.game(i) for i in range(3)] == before
    env.step(good.astype(np.int32))  # any integer dtype


def test_every_variant_runs() -> None:
    for variant, players in (("standard", 4), ("solo", 1), ("team", 4), ("duel", 2)):
        env = genial.VecEnv(4, players=players, variant=variant, seed=1, threads=2)
        _, _, rewards, dones, _ = (np.stack(k) for k in zip(*(env.step(env.sample_actions()) for _ in range(150))))
        assert rewards.shape == (150, 4, players) and dones.any(), variant
        if variant == "solo":
            # The lowest score ÷ 36, in steps of 1/36.
            lowest = rewards[dones] * 36
            assert (lowest >= 0).all() and lowest.max() > 0 and np.allclose(lowest, lowest.round())
        else:
            # Ranks: a first place +1 and a last place -1, or 0 for all on a full tie.
            done = rewards[dones]
            assert ((done.max(axis=-1) == 1) & (done.min(axis=-1) == -1) | (done == 0).all(axis=-1)).all()


def test_construction_errors() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        genial.VecEnv(0)
    with pytest.raises(ValueError, match="threads"):
        genial.VecEnv(2, threads=0)
    with pytest.raises(ValueError, match="duel"):
        genial.VecEnv(2, players=3, variant="duel")
    with pytest.raises(TypeError):
        genial.VecEnv(2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="out of range"):
        genial.VecEnv(2).game(2)
    assert "VecEnv standard" in repr(genial.VecEnv(2, threads=1))
    assert genial.Game(players=2, seed=1).returns() == (0.0, 0.0)


def test_skip_leaves_an_env_as_it_is() -> None:
    from genial.vecenv import SKIP

    env = genial.VecEnv(3, players=2, seed=8, threads=1)
    env.reset()
    for step in range(60):
        skipped = step % 3
        before = [env.game(i) for i in range(3)]
        shown = env.observe()
        actions = env.sample_actions()
        actions[skipped] = SKIP
        obs, mask, rewards, dones, player = env.step(actions)
        assert env.game(skipped) == before[skipped]
        assert not dones[skipped] and not rewards[skipped].any()
        np.testing.assert_array_equal(obs[skipped], shown.obs[skipped])
        np.testing.assert_array_equal(mask[skipped], shown.mask[skipped])
        assert player[skipped] == shown.player[skipped]
        assert all(env.game(i) != before[i] or dones[i] for i in range(3) if i != skipped)
    with pytest.raises(ValueError, match="out of range"):
        env.step(np.array([SKIP - 1, SKIP, SKIP]))

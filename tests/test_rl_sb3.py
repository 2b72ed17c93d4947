"""`genial.envs.sb3.VecEnv`: genial's VecEnv for Stable-Baselines3 and sb3-contrib's
MaskablePPO, against bots and in self-play. Needs the learn extra (stable-baselines3,
sb3-contrib, PyTorch), which `make test` leaves out; `.ci/run` installs it last and runs
this module again with GENIAL_REQUIRE_LEARN=1, under which it cannot skip."""

from __future__ import annotations

import os

import numpy as np
import pytest

try:
    import sb3_contrib  # noqa: F401
    import stable_baselines3  # noqa: F401
except ImportError as e:
    if os.environ.get("GENIAL_REQUIRE_LEARN"):
        raise
    pytest.skip(
        f"stable-baselines3 and sb3-contrib are not installed ({e}): pip install -r requirements-learn.txt",
        allow_module_level=True,
    )

import genial
from genial.actions import ACTION_COUNT, legal_action_mask
from genial.envs.sb3 import PASS_ACTION, VecEnv
from genial.observation import OBS_SIZE, observe


def random_steps(env: VecEnv, steps: int, seed: int) -> list[np.ndarray]:
    """Masked random play; everything the env returned."""
    rng = np.random.default_rng(seed)
    out = [env.reset()]
    for _ in range(steps):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = env.step(actions)
        assert len(infos) == env.num_envs
        out += [obs, rewards, dones, masks]
    return out


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2, "opponents": "random"},
        {"players": 3, "opponents": ["greedy", "random"], "seat": None},
        {"variant": "team", "opponents": "greedy", "seat": 1},
    ],
    ids=["2p-random", "3p-greedy-random-seat", "team-greedy"],
)
def test_against_bots_the_learner_is_to_move_in_every_game(options: dict) -> None:
    env = VecEnv(5, seed=3, **options)
    assert env.num_envs == 5 and env.observation_space.shape == (OBS_SIZE,)
    assert env.action_space.n == ACTION_COUNT
    obs = env.reset()
    rng = np.random.default_rng(0)
    finished, total = 0, 0.0
    for _ in range(150):
        assert obs.shape == (5, OBS_SIZE) and obs.dtype == np.float32
        assert all(env.observation_space.contains(row) for row in obs)
        masks = env.action_masks()
        for g in range(5):
            game = env.game(g)
            # The learner's seat is to move, and sees what that seat sees.
            assert game.current_player == env.seats[g]
            np.testing.assert_array_equal(obs[g], observe(game, int(env.seats[g])))
            np.testing.assert_array_equal(masks[g], legal_action_mask(game))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, _ = env.step(actions)
        assert rewards.dtype == np.float32 and dones.dtype == np.bool_
        assert not rewards[~dones].any()  # paid only when a game ends
        finished += int(dones.sum())
        total += float(rewards.sum())
    assert finished > 5
    if options.get("opponents") == "greedy":
        assert total < 0, "a random learner loses to greedy bots"


def test_self_play_every_seat_is_a_learner() -> None:
    env = VecEnv(4, players=3, opponents=None, seed=2)
    assert env.num_envs == 12
    obs = env.reset()
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(200):
        masks = env.action_masks()
        for g in range(4):
            game = env.game(g)
            for s in range(3):
                k = g * 3 + s
                np.testing.assert_array_equal(obs[k], observe(game, s))
                if s == game.current_player:
                    np.testing.assert_array_equal(masks[k], legal_action_mask(game))
                else:
                    assert np.flatnonzero(masks[k]).tolist() == [PASS_ACTION]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        before = [env.game(g) for g in range(4)]
        obs, rewards, dones, _ = env.step(actions)
        for g in range(4):
            seats = slice(g * 3, g * 3 + 3)
            assert dones[seats].all() or not dones[seats].any()
            if dones[g * 3]:
                finished += 1
                assert sorted(rewards[seats]) == [-1.0, 0.0, 1.0] or len(set(rewards[seats])) < 3
            else:
                assert not rewards[seats].any()
                # The mover's action was played (the others' were ignored).
                assert env.game(g) != before[g]
    assert finished > 0


def test_the_same_seed_gives_the_same_run_whatever_the_threads() -> None:
    one = random_steps(VecEnv(6, players=2, opponents="greedy", seat=None, seed=11, threads=1), 60, 0)
    two = random_steps(VecEnv(6, players=2, opponents="greedy", seat=None, seed=11, threads=2), 60, 0)
    for a, b in zip(one, two):
        np.testing.assert_array_equal(a, b)
    env = VecEnv(6, players=2, opponents="greedy", seat=None, seed=1)
    env.seed(11)  # SB3's way (MaskablePPO(seed=...) calls it), for the next reset
    for a, b in zip(one, random_steps(env, 60, 0)):
        np.testing.assert_array_equal(a, b)
    other = random_steps(VecEnv(6, players=2, opponents="greedy", seat=None, seed=12), 1, 0)
    assert not np.array_equal(one[0], other[0])


def test_sb3_s_checks_and_wrappers_accept_it() -> None:
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import VecCheckNan, VecMonitor
    from stable_baselines3.common.vec_env import VecEnv as SB3VecEnv

    env = VecEnv(3, players=2, seed=4)
    assert isinstance(env, SB3VecEnv)
    assert is_masking_supported(env)
    env.reset()
    np.testing.assert_array_equal(get_action_masks(env), env.action_masks())
    assert env.env_is_wrapped(object) == [False] * 3 and env.get_attr("render_mode") == [None] * 3
    with pytest.raises(AttributeError):
        env.get_attr("nothing")
    wrapped = VecMonitor(VecCheckNan(env, raise_exception=True))
    obs = wrapped.reset()
    episodes = 0
    rng = np.random.default_rng(4)
    for _ in range(120):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in get_action_masks(env)])
        obs, _, _, infos = wrapped.step(actions)
        episodes += sum("episode" in info for info in infos)
    assert episodes > 0 and obs.shape == (3, OBS_SIZE)
    with pytest.raises(ValueError, match="opponent"):
        VecEnv(2, players=3, opponents=["greedy"])
    with pytest.raises(ValueError, match="seat"):
        VecEnv(2, players=2, seat=2)
    with pytest.raises(ValueError, match="self-play"):
        VecEnv(2, opponents=None, seat=1)
    with pytest.raises(genial.IllegalMoveError):
        env.step(np.full(3, PASS_ACTION))  # keep, when no swap is offered


@pytest.mark.slow  # PyTorch's import and two short trainings: a few CPU-seconds
@pytest.mark.parametrize("opponents", ["random", None], ids=["against-random", "self-play"])
def test_maskable_ppo_trains_through_it_and_repeats(opponents: str | None) -> None:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import Logger

    torch.set_num_threads(1)

    def train() -> list[np.ndarray]:
        env = VecEnv(2, players=2, opponents=opponents, seed=5)
        model = MaskablePPO(
            "MlpPolicy",
            env,
            n_steps=16,
            batch_size=32,
            n_epochs=1,
            policy_kwargs={"net_arch": [16]},
            seed=7,
            device="cpu",
        )
        model.set_logger(Logger(folder=None, output_formats=[]))
        model.learn(total_timesteps=64)
        assert model.num_timesteps >= 64
        return [p.detach().numpy().copy() for p in model.policy.parameters()]

    first, second = train(), train()
    assert all(np.array_equal(a, b) for a, b in zip(first, second))

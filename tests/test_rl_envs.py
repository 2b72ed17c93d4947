"""PettingZoo and Gymnasium environments: the libraries' own checks, seeding, bad actions."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

import itertools

import genial
from genial.actions import ACTION_COUNT, KEEP_ACTION, legal_action_mask
from genial.envs import gymnasium as genial_gym
from genial.envs import pettingzoo as genial_pz
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

AEC_CONFIGS = [
    {"players": 2},
    {"players": 3, "swap_timing": "instead_of_placement", "require_contact": True},
    {"players": 4},
    {"variant": "team"},
    {"variant": "duel"},
    {"variant": "solo"},
]


@pytest.fixture(autouse=True)
def quiet() -> None:
    # The libraries' checks warn about dict observations, as they do for their own board games.
    warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
    warnings.filterwarnings("ignore", message="Observation space for each agent probably")
    warnings.filterwarnings("ignore", message=".*Not able to test alternative render modes")


@pytest.fixture
def global_rngs_untouched():
    """Nothing here may draw from or reseed Python's or numpy's global generators."""
    py_state, np_state = random.getstate(), np.random.get_state()
    yield
    assert random.getstate() == py_state
    after = np.random.get_state()
    assert after[0] == np_state[0] and np.array_equal(after[1], np_state[1]) and after[2:] == np_state[2:]


@pytest.mark.parametrize("options", AEC_CONFIGS, ids=lambda o: "-".join(f"{v}" for v in o.values()))
def test_pettingzoo_api_and_seed_tests(options: dict, global_rngs_untouched: None) -> None:
    api_test(genial_pz.env(**options), num_cycles=1000)
    api_test(genial_pz.raw_env(**options), num_cycles=1000)
    seed_test(lambda: genial_pz.env(**options), num_cycles=300)


def play_aec(env, seed: int) -> list[tuple[str, str]]:
    """A random game through the AEC API: (agent, phase) of every decision."""
    env.reset(seed=seed)
    chooser = np.random.default_rng(seed)
    trace = []
    for agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        trace.append((agent, env.unwrapped.game.phase))
        env.step(int(chooser.choice(np.flatnonzero(obs["action_mask"]))))
    return trace


def test_aec_bonus_placements_are_the_same_agent_again() -> None:
    # Duel markers reach 9 (a bonus) often even in random play.
    env = genial_pz.env(variant="duel")
    bonuses = 0
    for seed in range(10):
        trace = play_aec(env, seed)
        for (agent, _), (next_agent, phase) in itertools.pairwise(trace):
            if phase == "bonus":
                assert next_agent == agent
                bonuses += 1
    assert bonuses > 0


def test_aec_rewards_and_masks() -> None:
    env = genial_pz.raw_env(players=3)
    env.reset(seed=5)
    game = env.game
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.dtype == np.int8
        if agent == env.agent_selection:
            assert np.array_equal(mask.astype(bool), legal_action_mask(game))
        else:
            assert not mask.any()
    totals = dict.fromkeys(env.possible_agents, 0.0)
    chooser = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, terminated, _truncated, _ = env.last()
        totals[agent] += reward
        env.step(None if terminated else int(chooser.choice(np.flatnonzero(obs["action_mask"]))))
    assert tuple(totals.values()) == game.returns()
    assert sorted(totals.values()) == [-1.0, 0.0, 1.0] or len(set(game.ranks())) < 3


def test_aec_bad_actions_change_nothing() -> None:
    env = genial_pz.raw_env(players=2)
    env.reset(seed=3)
    before = env.game.clone()
    agent = env.agent_selection
    for bad in (-1, ACTION_COUNT):
        with pytest.raises(ValueError, match="out of range"):
            env.step(bad)
    with pytest.raises(genial.IllegalMoveError):
        env.step(KEEP_ACTION)
    with pytest.raises(TypeError):
        env.step(None)
    assert env.game == before and env.agent_selection == agent and not any(env.terminations.values())


def test_aec_step_before_reset_is_refused() -> None:
    with pytest.raises(RuntimeError, match="reset"):
        genial_pz.env(players=2).step(0)


def test_aec_seeding_repeats_and_differs() -> None:
    a, b = genial_pz.env(players=2), genial_pz.env(players=2)
    assert play_aec(a, 9) == play_aec(b, 9)
    a.reset(seed=9)
    b.reset(seed=10)
    assert a.unwrapped.game.rack(0) != b.unwrapped.game.rack(0)
    seeded = genial_pz.raw_env(players=2, seed=4)
    seeded.reset()
    again = genial_pz.raw_env(players=2, seed=4)
    again.reset()
    assert seeded.game == again.game


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"opponents": "greedy", "seat": None},
        {"variant": "team", "opponents": ["greedy", "random", "greedy"]},
        {"variant": "duel", "seat": 1},
        {"variant": "solo"},
    ],
    ids=["standard", "greedy", "team", "duel", "solo"],
)
def test_gymnasium_check_env(options: dict, global_rngs_untouched: None) -> None:
    check_env(genial_gym.IngeniousEnv(**options))
    check_env(gymnasium.make(genial_gym.ENV_ID, **options).unwrapped, skip_render_check=True)


def run_episode(env, seed: int) -> tuple[float, int]:
    obs, info = env.reset(seed=seed)
    chooser = np.random.default_rng(seed)
    steps, terminated, reward = 0, False, 0.0
    while not terminated:
        assert info["seat"] == env.unwrapped.seat and env.unwrapped.game.current_player == env.unwrapped.seat
        assert np.array_equal(obs["action_mask"].astype(bool), env.unwrapped.action_masks())
        obs, reward, terminated, truncated, info = env.step(int(chooser.choice(np.flatnonzero(obs["action_mask"]))))
        assert not truncated
        steps += 1
    return reward, steps


def test_gymnasium_episodes_against_bots() -> None:
    env = gymnasium.make(genial_gym.ENV_ID, opponents="greedy")
    results = [run_episode(env, seed) for seed in range(6)]
    assert all(r in (-1.0, 0.0, 1.0) for r, _ in results)
    assert sum(r for r, _ in results) < 0, "a random agent should lose to greedy bots"
    assert run_episode(env, 3) == results[3]
    solo = genial_gym.IngeniousEnv(variant="solo")
    reward, steps = run_episode(solo, 1)
    assert 0.0 <= reward <= 1.0 and reward == min(solo.game.scores[0]) / 36 and steps > 30


def test_gymnasium_illegal_actions() -> None:
    env = genial_gym.IngeniousEnv(illegal_action="raise")
    env.reset(seed=2)
    before = env.game.clone()
    with pytest.raises(genial.IllegalMoveError):
        env.step(KEEP_ACTION)
    with pytest.raises(ValueError, match="out of range"):
        env.step(ACTION_COUNT)
    assert env.game == before
    lose = genial_gym.IngeniousEnv()
    lose.reset(seed=2)
    obs, reward, terminated, truncated, info = lose.step(KEEP_ACTION)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert not obs["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        lose.step(0)
    with pytest.raises(ValueError, match="opponent"):
        genial_gym.IngeniousEnv(players=3, opponents=["random"])
    with pytest.raises(ValueError, match="unknown bot"):
        genial_gym.IngeniousEnv(opponents="clever")
    with pytest.raises(ValueError, match="seat"):
        genial_gym.IngeniousEnv(seat=2)


def test_rgb_array_frames_show_the_board() -> None:
    pytest.importorskip("resvg_py", reason='rgb_array needs the render extra: pip install "genial-engine[render]"')
    env = genial_gym.IngeniousEnv(render_mode="rgb_array")
    obs, _ = env.reset(seed=2)
    first = env.render()
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    for _ in range(6):
        obs, _, term, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if term:
            break
    frame = env.render()
    assert frame.shape == first.shape  # a video needs frames of one size (all of them: below)
    assert (frame != first).any(), "the picture follows the game"
    assert (frame < 250).any() and (frame == 255).any(), "drawn on white"
    with pytest.raises(ValueError, match="rgb_array"):
        genial_gym.IngeniousEnv(render_mode="png")


def test_svg_to_rgb_checks_its_input() -> None:
    pytest.importorskip("resvg_py")
    from genial.raster import svg_to_rgb

    with pytest.raises(TypeError):
        svg_to_rgb(b"<svg/>")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="width"):
        svg_to_rgb(genial.Board(2).to_svg(), width=0)
    assert svg_to_rgb(genial.Board(2).to_svg(), width=200).shape[1] == 200


@pytest.mark.parametrize(
    "options",
    [{"players": 2}, {"players": 4, "opponents": "greedy"}, {"variant": "duel"}, {"variant": "team"}],
    ids=["2p", "4p", "duel", "team"],
)
@pytest.mark.slow
def test_every_frame_of_an_episode_has_one_size(options: dict) -> None:
    # RecordVideo stacks every frame of an episode into one clip, which needs one size; the
    # status line used to grow at the end (the ranking), making the last frames wider.
    pytest.importorskip("resvg_py", reason='rgb_array needs the render extra: pip install "genial-engine[render]"')
    env = genial_gym.IngeniousEnv(render_mode="rgb_array", **options)
    obs, _ = env.reset(seed=4)
    frames = [env.render()]
    chooser = np.random.default_rng(4)
    terminated = False
    while not terminated:
        obs, _, terminated, _, _ = env.step(int(chooser.choice(np.flatnonzero(obs["action_mask"]))))
        frames.append(env.render())
    assert env.game.is_over and len(frames) > 10
    assert {f.shape for f in frames} == {frames[0].shape}


@pytest.mark.parametrize(
    "options",
    [{}, {"players": 4, "opponents": ["greedy", "random", "easy"], "seat": None}, {"variant": "team"}],
    ids=["2p", "4p", "team"],
)
def test_a_copy_after_reset_continues_as_the_original(options: dict) -> None:
    # Planners and some RLlib paths snapshot an env with deepcopy or pickle: the bots'
    # generators live in Rust, so the copy builds its bots again and replays their moves.
    import copy
    import pickle

    env = genial_gym.IngeniousEnv(**options)
    obs, _ = env.reset(seed=3)
    chooser = np.random.default_rng(0)
    for _ in range(4):
        obs, *_ = env.step(int(chooser.choice(np.flatnonzero(obs["action_mask"]))))
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    runs = []
    for e in [env, *copies]:
        chooser = np.random.default_rng(1)
        seen, terminated, mask = [], False, obs["action_mask"]
        while not terminated:
            o, reward, terminated, _, _ = e.step(int(chooser.choice(np.flatnonzero(mask))))
            mask = o["action_mask"]
            seen.append((o["observation"].tobytes(), reward))
        # ... and the next episode, from the env's own generator, too.
        seen.append(e.reset()[0]["observation"].tobytes())
        runs.append((seen, list(e.game.moves)))
    assert runs[1] == runs[0] and runs[2] == runs[0]


def test_an_env_with_a_builtin_bot_object_says_why_it_cannot_be_copied() -> None:
    import copy

    env = genial_gym.IngeniousEnv(opponents=genial.bots.make("greedy", 1))
    env.reset(seed=1)
    with pytest.raises(TypeError, match="by name"):
        copy.deepcopy(env)


# Runs in its own interpreter with resvg-py and Pillow hidden, as on an install of the `rl`
# extra alone: Gymnasium's check_env renders every mode the env declares.
RL_ONLY = """
import sys

class HideRenderExtra:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("resvg_py", "PIL"):
            raise ModuleNotFoundError(f"No module named {name!r} (hidden by the test)", name=name)
        return None

sys.meta_path.insert(0, HideRenderExtra())
import warnings
warnings.simplefilter("ignore")
import gymnasium
import genial
from gymnasium.utils.env_checker import check_env
from genial.envs.gymnasium import IngeniousEnv
check_env(gymnasium.make("genial/Ingenious-v0").unwrapped)
check_env(IngeniousEnv(players=3, opponents="greedy"))
assert "rgb_array" not in IngeniousEnv.metadata["render_modes"]
try:
    IngeniousEnv(render_mode="rgb_array")
except ImportError as e:
    assert "render" in str(e), e
else:
    raise AssertionError("rgb_array was accepted without resvg-py and pillow")
print("check_env passed")
"""


@pytest.mark.slow
def test_check_env_passes_without_the_render_extra() -> None:
    import os
    import signal
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-c", RL_ONLY],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 0 and "check_env passed" in out, out


def test_grid_observations_in_both_environments(global_rngs_untouched: None) -> None:
    from genial.observation import from_grid

    env = genial_gym.IngeniousEnv(observation="grid", opponents="greedy")
    check_env(env)
    obs, _ = env.reset(seed=5)
    assert set(obs) == {"observation", "features", "action_mask"} and obs["observation"].shape == (11, 15, 15)
    assert obs in env.observation_space
    np.testing.assert_array_equal(
        from_grid(obs["observation"], obs["features"]), genial.observation.observe(env.game, env.seat)
    )
    api_test(genial_pz.env(players=3, observation="grid"), num_cycles=200)
    seed_test(lambda: genial_pz.env(observation="grid"), num_cycles=100)
    with pytest.raises(ValueError, match="observation"):
        genial_gym.IngeniousEnv(observation="image")
    with pytest.raises(ValueError, match="observation"):
        genial_pz.env(observation="image")

"""The MOMAland drop-in (genial.envs.momaland): MOMAland's own API test, the same spaces and
action numbers as ``moingenious_v0``, the same episode as genial's PettingZoo environment for
the same seed, vector rewards that add up to the scores, and clear errors."""

from __future__ import annotations

import doctest
import os
import random
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import genial
import genial.envs.momaland as drop_in
from genial.actions import move_to_actions
from genial.envs import pettingzoo as genial_pz
from genial.envs.momaland import MOMALAND_COLORS, env

CONFIGS: list[dict[str, Any]] = [
    {},
    {"num_agents": 3},
    {"num_agents": 4},
    {"num_agents": 4, "reward_mode": "two_teams", "fully_obs": True},
    {"num_agents": 2, "reward_mode": "two_teams"},
    {"swap": False},
    {"num_agents": 3, "swap_timing": "instead_of_placement", "require_contact": True},
]


def _id(config: dict[str, Any]) -> str:
    return "-".join(f"{k}={v}" for k, v in config.items()) or "default"


def momaland_or_skip() -> Any:
    """MOMAland itself; ``make test`` installs it (requirements-nodeps.txt), so CI never skips."""
    try:
        import momaland.envs.ingenious.moingenious_v0 as moingenious_v0
    except ImportError as e:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"MOMAland is not installed ({e}): pip install --no-deps momaland==0.2.0")
    return moingenious_v0


@pytest.fixture(autouse=True)
def quiet() -> None:
    # MOMAland's API test warns about dict observations, as it does for its own environment.
    warnings.filterwarnings("ignore", message="Observation is not NumPy array")
    warnings.filterwarnings("ignore", message="Observation space for each agent probably")


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_momaland_api_test(config: dict[str, Any]) -> None:
    momaland_or_skip()
    from momaland.test.api_test import api_test

    api_test(env(**config), num_cycles=1000)
    api_test(drop_in.raw_env(**config), num_cycles=1000)


@pytest.mark.parametrize(
    "config", [{}, {"num_agents": 3}, {"num_agents": 4}, {"num_agents": 4, "reward_mode": "two_teams"}], ids=_id
)
def test_spaces_and_action_numbers_are_moingenious(config: dict[str, Any]) -> None:
    moingenious_v0 = momaland_or_skip()
    theirs, ours = moingenious_v0.env(**config), env(**config)
    assert ours.possible_agents == theirs.possible_agents
    for agent in theirs.possible_agents:
        assert ours.observation_space(agent) == theirs.observation_space(agent)
        assert ours.action_space(agent) == theirs.action_space(agent)
        assert ours.reward_space(agent) == theirs.unwrapped.reward_space(agent)
    # Action a is (first cell, second cell, rack slot) in both: the first colour of the
    # tile as the rack shows it goes on the first cell.
    table = theirs.unwrapped.game.action_index_map
    ours_table = [(h1, h2, slot) for h1, h2 in ours._pairs for slot in range(6)]
    theirs_table = [(tuple(h1), tuple(h2), slot) for h1, h2, slot in (table[a] for a in range(len(table)))]
    assert theirs_table == ours_table


def test_the_first_observation_is_moingenious_on_two_players() -> None:
    """Same board array (the printed symbols where MOMAland puts its corners), same first
    legal actions (next to a symbol), racks shown the same way (lower colour code first)."""
    moingenious_v0 = momaland_or_skip()
    for seed in range(3):
        theirs, ours = moingenious_v0.env(), env()
        theirs.reset(seed=seed)
        ours.reset(seed=seed)
        a, b = theirs.observe("agent_0"), ours.observe("agent_0")
        assert np.array_equal(a["observation"]["board"], b["observation"]["board"])
        assert np.array_equal(a["action_mask"], b["action_mask"])
        for obs in (a, b):
            racks = obs["observation"]["racks"]
            assert (racks[:, 0] <= racks[:, 1]).all() and racks.dtype == np.int32


def random_episode(e: Any, seed: int) -> list[tuple[str, Any, Any]]:
    """Random legal actions: (agent, observation, reward) of every `last` until the end."""
    rng = random.Random(seed)
    e.reset(seed=seed)
    seen = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        seen.append((agent, obs, reward))
        e.step(None if terminated or truncated else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        # Vector rewards, also once agents step out after the end (PettingZoo's clearing writes scalars).
        assert all(np.shape(r) == (6,) for r in e.rewards.values())
    return seen


def pz_options(config: dict[str, Any]) -> dict[str, Any]:
    players = config.get("num_agents", 2)
    team = config.get("reward_mode") == "two_teams" and players == 4
    return {
        "players": players,
        "variant": "team" if team else "standard",
        "swap_timing": config.get("swap_timing", "after_placement"),
        "require_contact": config.get("require_contact", False),
    }


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_the_same_seed_gives_the_same_episode_as_genials_pettingzoo(config: dict[str, Any]) -> None:
    for seed in (0, 11):
        ours = env(**config)
        random_episode(ours, seed)
        moves = ours.game.moves
        theirs = genial_pz.env(**pz_options(config))
        theirs.reset(seed=seed)
        # Replay the drop-in's moves (its swap decisions included) through genial's own environment.
        for move in moves:
            theirs.step(move_to_actions(theirs.game, move)[0])
        assert theirs.game == ours.game and theirs.game.is_over
        answer = genial.Move.swap() if config.get("swap", True) else genial.Move.keep()
        assert all(m == answer for m in moves if not m.is_placement)


@pytest.mark.parametrize("config", [{}, {"num_agents": 4, "reward_mode": "two_teams"}], ids=_id)
def test_pettingzoo_seed_test(config: dict[str, Any]) -> None:
    from pettingzoo.test import seed_test

    seed_test(lambda: env(**config), num_cycles=300)


def test_the_seed_deals_the_game_and_the_global_generators_are_left_alone() -> None:
    py_state, np_state = random.getstate(), np.random.get_state()
    deals = set()
    for seed in (1, 1, 2):
        e = env()
        e.reset(seed=seed)
        deals.add(tuple(map(tuple, e.observe("agent_0")["observation"]["racks"].tolist())))
        random_episode(e, seed)
    assert len(deals) == 2
    # MOMAland's reset reseeds both; genial draws from neither.
    assert random.getstate() == py_state
    after = np.random.get_state()
    assert after[0] == np_state[0] and np.array_equal(after[1], np_state[1]) and after[2:] == np_state[2:]


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_vector_rewards_add_up_to_the_scores_and_the_board_is_the_games(config: dict[str, Any]) -> None:
    e = env(**config)
    for seed in (3, 4):
        seen = random_episode(e, seed)
        totals = {a: np.zeros(6) for a in e.possible_agents}
        for agent, _, reward in seen:
            assert reward.shape == (6,)
            totals[agent] += reward
        final = e.observe_scores()
        for i, agent in enumerate(e.possible_agents):
            assert np.array_equal(totals[agent], final[i]), agent
            # MOMAland's colour order: red, green, blue, orange, yellow, purple.
            assert final[i].tolist() == [e.game.scores[i][c] for c in MOMALAND_COLORS]
        # The board array is MOMAland's layout of genial's board.
        board = np.zeros_like(seen[0][1]["observation"]["board"])
        side = e.board_size
        for (q, r), color in e.game.board.occupied().items():
            board[-r + side - 1, -q + side - 1] = MOMALAND_COLORS.index(color) + 1
        assert np.array_equal(e.observe("agent_0")["observation"]["board"], board)


def test_an_action_puts_the_tiles_colours_where_momaland_puts_them() -> None:
    """Action ``(h1, h2, slot)`` puts the first colour of the rack's tile in ``slot`` on
    ``h1``, which MOMAland's board array holds at ``[h1.q + side - 1, h1.r + side - 1]``."""
    for players in (2, 3, 4):
        e = env(num_agents=players)
        e.reset(seed=players)
        side = e.board_size
        rng = random.Random(players)
        for _ in range(12):
            obs = e.observe(e.agent_selection)
            action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            h1, h2 = e._pairs[action // 6]
            tile = obs["observation"]["racks"][action % 6]
            e.step(action)
            board = e.observe(e.possible_agents[0])["observation"]["board"]
            assert [board[h[0] + side - 1, h[1] + side - 1] for h in (h1, h2)] == tile.tolist()


def test_the_mover_alone_has_legal_actions_and_they_play() -> None:
    e = env(num_agents=3, fully_obs=True)
    e.reset(seed=5)
    for _ in range(20):
        mover = e.agent_selection
        for agent in e.agents:
            obs = e.observe(agent)
            assert obs["observation"]["racks"].shape == (3, 6, 2)
            assert (obs["action_mask"].sum() > 0) == (agent == mover)
        mask = e.observe(mover)["action_mask"]
        legal = np.flatnonzero(mask)
        e.step(int(legal[len(legal) // 2]))


def test_bad_actions_raise_clear_errors_and_change_nothing() -> None:
    e = env()
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)
    e.reset(seed=2)
    mask = e.observe("agent_0")["action_mask"]
    before = e.game.to_json()
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(genial.IllegalMoveError, match=rf"action {illegal} .* is not legal now"):
        e.step(illegal)
    with pytest.raises(ValueError, match="out of range"):
        e.step(len(mask))
    with pytest.raises(ValueError, match="out of range"):
        e.step(-1)
    with pytest.raises(ValueError, match="not a bool"):
        e.step(True)
    with pytest.raises(ValueError, match="not float"):
        e.step(1.5)
    with pytest.raises(TypeError, match="not None"):
        e.step(None)
    assert e.game.to_json() == before and e.agent_selection == "agent_0"
    # An action naming a cell that holds a tile, once one is placed.
    action = int(np.flatnonzero(mask)[0])
    e.step(np.array([action]))  # MOMAland's action shape (1,) is taken too
    with pytest.raises(genial.IllegalMoveError):
        e.step(action)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_agents": 5}, "2, 3 or 4"),
        ({"num_agents": 1}, "2, 3 or 4"),
        ({"rack_size": 4}, "rack_size must be 6"),
        ({"num_colors": 3}, "num_colors must be 6"),
        ({"board_size": 7}, "board_size must be None or 6"),
        ({"num_agents": 4, "board_size": 10}, "board_size must be None or 8"),
        ({"reward_mode": "collaborative"}, "no rule in the books"),
        ({"reward_mode": "teams"}, "reward_mode must be"),
        ({"num_agents": 3, "reward_mode": "two_teams"}, "even number"),
        ({"render_mode": "rgb_array"}, "render_mode"),
    ],
)
def test_arguments_the_books_have_no_rule_for_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        env(**kwargs)


def test_argument_types_are_checked() -> None:
    with pytest.raises(TypeError, match="num_agents must be an int"):
        env(num_agents=2.0)
    with pytest.raises(TypeError, match="fully_obs must be a bool"):
        env(fully_obs="yes")
    assert env(num_agents=np.int64(3), board_size=7).possible_agents == ["agent_0", "agent_1", "agent_2"]


def test_the_docstring_example_runs() -> None:
    result = doctest.testmod(drop_in, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_momaland_s_test_module_on_the_drop_in() -> None:
    # MOMAland's own test of each environment module, `tests/test_envs.py::test_module` of
    # its repository (momaland 0.2.0), restated here because it ships in the repository, not
    # in the package: the steps are its own, on the drop-in as the module. It is named
    # "ingenious/moingenious_v0" in MOMAland's `all_environments`.
    momaland_or_skip()
    import pickle

    from momaland.test.api_test import api_test
    from pettingzoo.test import parallel_api_test, seed_test

    name, env_module = "ingenious/moingenious_v0", drop_in
    _env = env_module.env(render_mode=None)
    assert str(_env) == os.path.basename(name)
    api_test(_env)
    if _env.metadata["is_parallelizable"]:
        parallel_api_test(env_module.parallel_env())
    seed_test(env_module.env, 50)
    recreated_env = pickle.loads(pickle.dumps(_env))
    api_test(recreated_env)
    # Not parallelizable in PettingZoo's sense (its AEC-to-parallel conversion would be
    # wrong: a bonus placement is the same agent again), as moingenious_v0 says; the
    # drop-in's own parallel_env() passes the parallel test (tests/test_rl_parallel.py).
    assert not _env.metadata["is_parallelizable"]
    parallel_api_test(env_module.parallel_env())

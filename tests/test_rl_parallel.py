"""PettingZoo's parallel API (`parallel_env`) and `state()` for genial's PettingZoo
environment and the MOMAland drop-in: PettingZoo's own checks, SuperSuit's vectorisation and
MOMAland's parallel wrappers run on them."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import genial
from genial.envs import momaland as drop_in
from genial.envs import pettingzoo as genial_pz
from genial.observation import OBS_SIZE, observe
from gymnasium import spaces
from pettingzoo.test import parallel_api_test, parallel_seed_test

GENIAL = [{"players": 2}, {"players": 3, "require_contact": True}, {"players": 4}, {"variant": "team"},
          {"variant": "duel"}, {"variant": "solo"}, {"players": 2, "observation": "grid"}]  # fmt: skip
MOMALAND = [{"num_agents": 2}, {"num_agents": 3}, {"num_agents": 4, "reward_mode": "two_teams"}, {"fully_obs": True}]


@pytest.fixture(autouse=True)
def quiet() -> None:
    warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
    warnings.filterwarnings("ignore", message=".*is not a NumPy array")


def _par(kind: str, config: dict[str, Any]) -> genial_pz.IngeniousParallel:
    return genial_pz.parallel_env(**config) if kind == "genial" else drop_in.parallel_env(**config)


CASES = [("genial", c) for c in GENIAL] + [("momaland", c) for c in MOMALAND]


@pytest.mark.parametrize(("kind", "config"), CASES, ids=lambda x: x if isinstance(x, str) else str(x))
def test_pettingzoo_parallel_api_test(kind: str, config: dict[str, Any]) -> None:
    parallel_api_test(_par(kind, config), num_cycles=1000)


class MaskedSampling:
    """The shim for PettingZoo's ``parallel_seed_test``, which samples each agent's action
    from its action space without the mask (the mover's would be illegal nearly always):
    the same env, whose action spaces sample with the agent's current mask. The env itself,
    its seeding and its observations are untouched."""

    class _Space(spaces.Discrete):
        def __init__(self, n: int, mask_of: Any) -> None:
            super().__init__(n)
            self._mask_of = mask_of

        def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
            return super().sample(mask=self._mask_of())

    def __init__(self, env: genial_pz.IngeniousParallel) -> None:
        self.env = env
        self.masks: dict[str, np.ndarray] = {}
        self._spaces = {a: self._Space(env.action_space(a).n, lambda a=a: self.masks[a]) for a in env.possible_agents}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.env, name)

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._spaces[agent]

    def _keep(self, obs: dict[str, Any]) -> None:
        self.masks = {a: o["action_mask"] for a, o in obs.items()}

    def reset(self, seed: int | None = None, options: Any = None) -> Any:
        obs, infos = self.env.reset(seed=seed, options=options)
        self._keep(obs)
        return obs, infos

    def step(self, actions: dict[str, Any]) -> Any:
        out = self.env.step(actions)
        self._keep(out[0])
        return out


@pytest.mark.parametrize(("kind", "config"), CASES[:3] + CASES[-3:], ids=lambda x: x if isinstance(x, str) else str(x))
def test_pettingzoo_parallel_seed_test(kind: str, config: dict[str, Any]) -> None:
    parallel_seed_test(lambda: MaskedSampling(_par(kind, config)), num_cycles=200)


class MaskedSamplingAEC:
    """The shim for PettingZoo's ``state_test``, whose AEC part samples actions without the
    mask: the same AEC env, whose action spaces sample with the agent's current mask."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self._spaces = {
            a: MaskedSampling._Space(env.action_space(a).n, lambda a=a: env.observe(a)["action_mask"])
            for a in env.possible_agents
        }

    def __getattr__(self, name: str) -> Any:
        return getattr(self.env, name)

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._spaces[agent]


@pytest.mark.parametrize(("kind", "config"), [CASES[0], CASES[2], CASES[-2]], ids=["genial", "genial-4p", "momaland"])
def test_pettingzoo_state_test(kind: str, config: dict[str, Any]) -> None:
    from pettingzoo.test.state_test import state_test

    aec = genial_pz.env(**config) if kind == "genial" else drop_in.env(**config)
    state_test(MaskedSamplingAEC(aec), _par(kind, config), num_cycles=50)


def test_one_agent_moves_and_the_others_pass() -> None:
    par = genial_pz.parallel_env(players=3)
    aec = genial_pz.env(players=3)
    obs, infos = par.reset(seed=9)
    aec.reset(seed=9)
    rng = np.random.default_rng(9)
    steps = 0
    while par.agents:
        mover = aec.agent_selection
        assert infos[mover]["active_agent"] == mover
        for agent, o in obs.items():
            if agent == mover:
                np.testing.assert_array_equal(o["action_mask"], aec.observe(agent)["action_mask"])
                np.testing.assert_array_equal(o["observation"], aec.observe(agent)["observation"])
            else:
                assert np.flatnonzero(o["action_mask"]).tolist() == [genial_pz.PASS_ACTION]
        action = int(rng.choice(np.flatnonzero(obs[mover]["action_mask"])))
        # The agents not to move give anything (here their pass); it is ignored.
        actions = {a: (action if a == mover else genial_pz.PASS_ACTION) for a in par.agents}
        obs, rewards, terms, truncs, infos = par.step(actions)
        aec.step(action)
        steps += 1
        assert par.game == aec.game
    assert steps > 20 and all(terms.values()) and not any(truncs.values())
    assert list(rewards.values()) == list(par.game.returns())


def test_bad_steps_change_nothing() -> None:
    par = genial_pz.parallel_env(players=2)
    with pytest.raises(RuntimeError, match="reset"):
        par.step({"player_0": 0})
    par.reset(seed=2)
    before = par.game.clone()
    with pytest.raises(ValueError, match="player_0 is to move"):
        par.step({"player_1": genial_pz.PASS_ACTION})
    with pytest.raises(ValueError, match="not in play"):
        par.step({"player_0": 0, "player_7": 0})
    with pytest.raises(genial.IllegalMoveError):
        par.step({"player_0": genial_pz.PASS_ACTION, "player_1": genial_pz.PASS_ACTION})
    assert par.game == before


@pytest.mark.parametrize("players", [2, 4])
def test_state_is_every_seat_s_view(players: int) -> None:
    for e in (genial_pz.env(players=players), genial_pz.parallel_env(players=players)):
        e.reset(seed=5)
        state = e.state()
        assert state.shape == (players * OBS_SIZE,) and state in e.state_space
        game = e.game if hasattr(e, "game") else e.unwrapped.game
        for seat in range(players):
            np.testing.assert_array_equal(state[seat * OBS_SIZE : (seat + 1) * OBS_SIZE], observe(game, seat))
    # The drop-in's too (genial's vectors, not MOMAland's arrays).
    moma = drop_in.parallel_env(num_agents=players)
    moma.reset(seed=5)
    assert moma.state().shape == (players * OBS_SIZE,)


def test_supersuit_vectorises_it() -> None:
    ss = pytest.importorskip("supersuit")
    vec = ss.pettingzoo_env_to_vec_env_v1(genial_pz.parallel_env(players=2))
    assert vec.num_envs == 2
    obs, _ = vec.reset(seed=3)
    rng = np.random.default_rng(3)
    finished = 0
    for _ in range(200):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terms, _, _ = vec.step(actions)
        finished += int(terms.all())
        assert rewards.shape == (2,) and obs["observation"].shape == (2, OBS_SIZE)
    assert finished >= 1  # games end and the vector env starts the next


def test_momaland_s_parallel_wrappers_run_on_the_drop_in() -> None:
    pytest.importorskip("momaland")
    from momaland.utils.parallel_wrappers import LinearizeReward, NormalizeReward, RecordEpisodeStatistics

    agents = ["agent_0", "agent_1"]
    env = drop_in.parallel_env(num_agents=2)
    env = RecordEpisodeStatistics(LinearizeReward(env, {a: np.full(6, 1 / 6) for a in agents}))
    env = NormalizeReward(env, agent="agent_0", idx=0)  # MOMAland's per-objective normaliser
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    episode = None
    while env.agents:
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs, _, _, _, infos = env.step(actions)
        episode = infos.get("episode", episode)
    assert episode is not None and set(episode["r"]) == set(agents)
    assert env.unwrapped.game.is_over


def test_the_drop_in_takes_rules() -> None:
    team = drop_in.env(rules=genial.Rules("team"))
    assert team.rules == genial.Rules("team") and team.reward_mode == "two_teams" and len(team.possible_agents) == 4
    three = drop_in.env(rules=genial.Rules("standard", 3, swap_timing="instead_of_placement"))
    assert three.rules.option("swap_timing") == "instead_of_placement" and len(three.possible_agents) == 3
    assert drop_in.env(num_agents=3, rules=genial.Rules("standard", 3)).rules.players == 3
    with pytest.raises(ValueError, match="num_agents"):
        drop_in.env(num_agents=2, rules=genial.Rules("standard", 3))
    with pytest.raises(ValueError, match="reward_mode"):
        drop_in.env(reward_mode="competitive", rules=genial.Rules("team"))
    with pytest.raises(ValueError, match="duel"):
        drop_in.env(rules=genial.Rules("duel"))
    with pytest.raises(ValueError, match="either"):
        drop_in.env(rules=genial.Rules(), require_contact=True)
    with pytest.raises(TypeError, match="Rules"):
        drop_in.env(rules="standard")
    assert drop_in.env().rules == genial.Rules("standard", 2)


def test_a_parallel_learner_trains_on_momaland_s_linearized_drop_in() -> None:
    # A learner of the parallel API, as MOMAland's examples are: one linear softmax policy
    # shared by both agents, trained by REINFORCE on the scalar reward of MOMAland's own
    # LinearizeReward (every colour weighted alike), numpy only.
    pytest.importorskip("momaland")
    from momaland.utils.parallel_wrappers import LinearizeReward

    agents = ["agent_0", "agent_1"]
    env = LinearizeReward(drop_in.parallel_env(num_agents=2), {a: np.full(6, 1 / 6) for a in agents})

    def features(o: dict[str, Any]) -> np.ndarray:
        inner = o["observation"]
        return np.concatenate([inner["board"].ravel() / 6, inner["racks"].ravel() / 6, inner["scores"].ravel() / 18])

    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    size = features(obs["agent_0"]).size
    weights = np.zeros((size, env.action_space("agent_0").n))
    start = weights.copy()
    returns = []
    for episode in range(3):
        obs, _ = env.reset(seed=episode)
        trace: dict[str, list[tuple[np.ndarray, np.ndarray, int]]] = {a: [] for a in agents}
        total = dict.fromkeys(agents, 0.0)
        while env.agents:
            actions = {}
            for a in env.agents:
                mask = obs[a]["action_mask"].astype(bool)
                x = features(obs[a])
                logits = np.where(mask, x @ weights, -np.inf)
                p = np.exp(logits - logits.max())
                p /= p.sum()
                actions[a] = int(rng.choice(len(p), p=p))
                if mask.sum() > 1:  # the mover's decision (the other agent only passes)
                    trace[a].append((x, p, actions[a]))
            obs, rewards, _, _, _ = env.step(actions)
            for a in agents:
                total[a] += float(rewards[a])
        for a in agents:
            for x, p, action in trace[a]:
                grad = -np.outer(x, p)
                grad[:, action] += x
                weights += 0.01 * total[a] * grad
        returns.append(total)
    assert len(returns) == 3 and all(r[a] > 0 for r in returns for a in agents)  # points were scored
    assert not np.array_equal(weights, start)

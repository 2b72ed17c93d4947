"""Ingenious as a PettingZoo AEC environment.

Agents are ``player_0`` ... ``player_{n-1}`` (seats in turn order). Each observation is a
dict: ``"observation"``, the `genial.observation` vector of that seat (``float32``,
``OBS_SIZE``), and ``"action_mask"``, its legal `genial.actions` (``int8``,
``ACTION_COUNT``; all zeros for a seat not to move). A bonus placement ("Ingenious!") is
the same agent moving again, and a swap offer is a decision of its own (actions ``swap``
and ``keep``). Rewards come when the game ends, for every seat at once: +1 for a (shared)
first place, -1 for the last, linear between (team partners share); solo: the lowest score
÷ 36. An action out of range raises `ValueError`, an illegal one `genial.IllegalMoveError`,
and neither changes the game.

>>> from genial.envs.pettingzoo import env
>>> e = env(players=2)
>>> e.reset(seed=7)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)
>>> e.game.is_over, e.agents      # every agent stepped out after the end
(True, [])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

try:
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]
except ImportError as e:  # pragma: no cover - depends on what is installed
    raise ImportError(
        f'genial.envs.pettingzoo needs pettingzoo and gymnasium ({e}): pip install "genial-engine[rl]"'
    ) from e

from .. import _core
from ..actions import ACTION_COUNT, KEEP_ACTION
from ..game import Game
from ..observation import OBS_SIZE, VERSION, low_high
from ..variants import Rules, as_rules
from .spaces import check_form, observation_space, pack

__all__ = ["env", "raw_env", "parallel_env", "IngeniousAEC", "IngeniousParallel", "PASS_ACTION"]

#: The one action of a seat that is not to move, in `parallel_env` (where every agent acts
#: at every step): ``keep``, which declines a swap offer, here means "pass".
PASS_ACTION = KEEP_ACTION

Observation = dict[str, npt.NDArray[Any]]


class _GenialAEC(AECEnv):  # type: ignore[misc]
    """What genial's AEC environments (this module's and `genial.envs.momaland`'s) share:
    agents named by seat, the seeding of each new game, the agents' bookkeeping at a reset,
    the checks before a step, and rendering."""

    _first_seed: int | None = None
    render_mode: str | None
    rules: Rules
    observation_spaces: dict[str, spaces.Space[Any]]
    action_spaces: dict[str, spaces.Space[Any]]

    def _take_render_mode(self, render_mode: str | None) -> None:
        modes = self.metadata["render_modes"]
        if render_mode is not None and render_mode not in modes:
            names = " or ".join(repr(m) for m in modes)
            raise ValueError(f"render_mode must be None, {names}, not {render_mode!r}")
        self.render_mode = render_mode

    def _set_up(self, rules: Rules, prefix: str) -> None:
        """Takes the rules and names an agent per seat (``prefix_0`` ...)."""
        self.rules = rules
        self.possible_agents: list[str] = [f"{prefix}_{i}" for i in range(rules.players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._np_random: np.random.Generator | None = None
        self.game = Game(seed=0, rules=rules)  # until the first reset
        self._started = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def np_random(self) -> np.random.Generator:
        """The generator that seeds each new game (created by the first `reset`)."""
        if self._np_random is None:
            self._np_random, _ = seeding.np_random(self._first_seed)
        return self._np_random

    def _new_game(self, seed: int | None) -> None:
        """A new game, its seed drawn from `np_random` (seeded again first by ``seed``)."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = int(self.np_random.integers(0, 2**64, dtype=np.uint64))
        self.game = Game(seed=game_seed, rules=self.rules)

    def _seat_everyone(self, zero: Callable[[], Any]) -> None:
        """Every agent in play again, none terminated, with ``zero()`` as its rewards."""
        self.agents = self.possible_agents[:]
        self.rewards = {a: zero() for a in self.agents}
        self._cumulative_rewards = {a: zero() for a in self.agents}
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}

    def _mover(self, action: Any) -> str | None:
        """The agent that ``action`` is for, or ``None`` once a finished agent's step has
        taken it out (PettingZoo's dead step); raises if the game has not started or an
        agent to move gives no action."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        agent: str = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return None
        if action is None:
            raise TypeError(f"{agent} is to move: give an action, not None")
        return agent

    @property
    def state_space(self) -> spaces.Box:
        """The space of `state`: every seat's `genial.observation` vector, one after another."""
        space: spaces.Box | None = self.__dict__.get("_state_space")
        if space is None:
            low, high = low_high()
            n = self.rules.players
            space = self.__dict__["_state_space"] = spaces.Box(np.tile(low, n), np.tile(high, n), dtype=np.float32)
        return space

    def state(self) -> npt.NDArray[np.float32]:
        """The whole position, for a centralised critic (MAPPO's ``state()``): every seat's
        `genial.observation` vector in seat order, so every rack, as ``players × OBS_SIZE``
        floats (the bag's order, which nobody may know, is left out).

        Privileged: it holds the other seats' racks, so it must never be shown to a seat's
        policy, only to a critic used in training."""
        n = self.rules.players
        out = np.empty(n * OBS_SIZE, dtype=np.float32)
        for seat in range(n):
            _core.observe(self.game._state, seat, out[seat * OBS_SIZE : (seat + 1) * OBS_SIZE])
        return out

    def render(self) -> str | None:
        """``ansi``: the text board; ``human``: prints it; no render mode: ``None``."""
        if self.render_mode == "human":
            print(self.game)
            return None
        return str(self.game) if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Nothing to release."""


def parallel_env(**kwargs: Any) -> IngeniousParallel:
    """The environment for PettingZoo's parallel API (keyword arguments as `IngeniousAEC`):
    every agent acts at every step, the seat not to move with its one action, `PASS_ACTION`."""
    return IngeniousParallel(IngeniousAEC(**kwargs), PASS_ACTION)


class IngeniousParallel(ParallelEnv):  # type: ignore[misc]
    """An AEC environment of genial's (`IngeniousAEC`, or `genial.envs.momaland`'s) for
    PettingZoo's parallel API, for SuperSuit's vectorisation, MOMAland's and MORL-baselines'
    learners and centralised critics.

    Ingenious is turn-based, so at every step one agent moves: its mask is its legal
    actions; every other agent's mask holds one action, ``pass_action``, and whatever such
    an agent gives (or leaves out of ``actions``) is ignored, as in PettingZoo's turn-based
    adapter. A bonus placement is the same
    agent moving again. Rewards, terminations and the observations' contents are the AEC
    environment's; once the game ends every agent leaves `agents`. ``infos[agent]
    ["active_agent"]`` names the agent to move next, as PettingZoo's turn-based adapter does.
    `state` is the AEC environment's privileged whole position.

    An action for an agent not in play, or a missing action of the agent to move, raises
    `ValueError`; an illegal move of the agent to move `genial.IllegalMoveError` (a
    `ValueError` too); none of them changes the game."""

    def __init__(self, aec: _GenialAEC, pass_action: int) -> None:
        self.aec = aec
        self.pass_action = pass_action
        self.possible_agents = aec.possible_agents
        self.agents: list[str] = []
        self.metadata = {**aec.metadata, "is_parallelizable": True}
        self.render_mode = aec.render_mode

    @property
    def game(self) -> Game:
        return self.aec.game

    @property
    def rules(self) -> Rules:
        return self.aec.rules

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.action_space(agent)

    @property
    def state_space(self) -> spaces.Box:
        return self.aec.state_space

    def state(self) -> npt.NDArray[np.float32]:
        """The whole position (privileged: never show it to a seat; see `IngeniousAEC.state`)."""
        return self.aec.state()

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = self.aec.possible_agents[:]
        return {a: self._observe(a) for a in self.agents}, self._infos()

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        if not self.agents:
            raise RuntimeError("the game is over (or not started): call reset() first")
        mover: str = self.aec.agent_selection
        for agent in actions:
            if agent not in self.agents:
                raise ValueError(f"{agent!r} is not in play: the agents are {', '.join(self.agents)}")
        if mover not in actions:
            raise ValueError(f"{mover} is to move: actions has no entry for it")
        self.aec.step(actions[mover])  # checked before anything changes
        agents = self.agents
        over = self.aec.game.is_over
        observations = {a: self._observe(a) for a in agents}
        rewards = {a: self.aec.rewards[a] for a in agents}
        terminations = {a: bool(self.aec.terminations[a]) for a in agents}
        truncations = {a: bool(self.aec.truncations[a]) for a in agents}
        infos = self._infos()
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _observe(self, agent: str) -> Any:
        obs = self.aec.observe(agent)
        if agent != self.aec.agent_selection and not self.aec.game.is_over:
            mask = np.zeros_like(obs["action_mask"])
            mask[self.pass_action] = 1
            obs["action_mask"] = mask
        return obs

    def _infos(self) -> dict[str, dict[str, Any]]:
        active = None if self.aec.game.is_over else self.aec.agent_selection
        return {a: {"active_agent": active} for a in self.agents}

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


def env(**kwargs: Any) -> IngeniousAEC:
    """The environment (keyword arguments as `IngeniousAEC`).

    Not wrapped: it checks call order itself (``step`` before ``reset`` raises) and action
    bounds (``ValueError``), which is what PettingZoo's usual wrappers add, at a fraction
    of their cost per step."""
    return IngeniousAEC(**kwargs)


class IngeniousAEC(_GenialAEC):
    """Ingenious for PettingZoo's AEC API (see the module docstring).

    The rules: ``rules=`` one `genial.Rules`, or ``players`` (default: the variant's count),
    ``variant`` and the edition options ``swap_timing`` and ``require_contact``, as
    `genial.Game` takes them. ``seed`` seeds the first `reset` when that is
    called without one. ``render_mode`` is ``None``, ``"ansi"`` (render returns the text
    board) or ``"human"`` (prints it after every step). ``observation="grid"`` gives the
    board as `genial.observation.to_grid`'s grid, with the other entries as ``"features"``
    (`genial.envs.spaces`).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's own attribute)
        "render_modes": ["ansi", "human"],
        "name": "genial_ingenious_v0",
        "is_parallelizable": False,
    }
    #: The version of what the agents see (`genial.observation.VERSION`), as pgx's
    #: ``Env.version``.
    version: ClassVar[int] = VERSION

    def __init__(
        self,
        players: int | None = None,
        variant: str = "standard",
        *,
        swap_timing: str = "after_placement",
        require_contact: bool = False,
        seed: int | None = None,
        render_mode: str | None = None,
        rules: Rules | None = None,
        observation: str = "vector",
    ) -> None:
        super().__init__()
        self.observation = check_form(observation)
        self._take_render_mode(render_mode)
        self._set_up(
            as_rules(rules, players=players, variant=variant, swap_timing=swap_timing, require_contact=require_contact),
            "player",
        )
        self._first_seed = seed
        self.observation_spaces = {a: observation_space(self.observation) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(ACTION_COUNT) for a in self.possible_agents}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._new_game(seed)
        self._seat_everyone(float)
        self.agent_selection = self.possible_agents[self.game.current_player]
        self._skip_agent_selection = None
        self._started = True

    def observe(self, agent: str) -> Observation:
        obs, mask = _core.observe_with_mask(self.game._state, self._seat[agent])
        return pack(self.observation, obs, mask)

    def step(self, action: Any) -> None:
        # `_mover`'s checks written out: a method call is a sixth of this step's cost.
        if not self._started:
            raise RuntimeError("call reset() before step()")
        agent: str = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError(f"{agent} is to move: give an action, not None")
        # Checked before anything changes: ValueError out of range, IllegalMoveError if illegal.
        state = self.game._state
        mover = _core.play_action(state, action)  # the next seat, None once the game is over
        # Rewards stay 0 until the end, so only the mover's running total needs resetting.
        self._cumulative_rewards[agent] = 0.0
        if mover is None:
            for a, r in zip(self.agents, state.returns()):
                self.rewards[a] = r
                self.terminations[a] = True
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[mover]
        if self.render_mode == "human":
            self.render()


raw_env = IngeniousAEC

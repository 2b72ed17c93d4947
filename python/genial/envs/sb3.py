"""`genial.VecEnv` as a Stable-Baselines3 ``VecEnv``, for SB3's algorithms and sb3-contrib's
``MaskablePPO``, at the speed of the Rust core.

`VecEnv` steps ``games`` games together in Rust (`genial.VecEnv`); SB3 sees the learner's
decisions only:

* **against bots** (``opponents`` a built-in bot's name, or one per other seat): one seat of
  each game is the learner's (``seat``, or ``None``: a seat drawn for every game); SB3's
  ``num_envs`` is ``games``. A step plays the learner's action in every game, then the
  bots' moves until the learner is to move again everywhere (``random`` draws in Rust, other
  bots choose in Python from a snapshot of each game's position, without its move history;
  the other games wait, stepped with `genial.vecenv.SKIP`). The reward is the learner's seat's return when its game ends, else 0.
* **self-play** (``opponents=None``): every seat of every game is the learner's, as an env
  of its own: ``num_envs`` is ``games × players``, env ``g * players + s`` being seat ``s``
  of game ``g``. At each step one seat per game moves; the other seats' envs have one legal
  action, `PASS_ACTION` (what they give is ignored), so each seat's trajectory holds its own
  decisions and, when the game ends, its own return.

Observations are `genial.observation` vectors (``float32``, ``OBS_SIZE``) of the env's seat;
`action_masks` gives the legal actions as bools, as ``MaskablePPO`` reads them
(``env_method("action_masks")`` too). A finished game is replaced at once (SB3's auto-reset:
the observation after ``done`` is the next game's). Games end and never truncate, so the
infos carry no ``terminal_observation``. Everything is seeded by ``seed`` (or by SB3's
``seed()``, as ``MaskablePPO(..., seed=...)`` calls it): the same seed gives the same games,
seats and bots' moves, whatever ``threads``.

Needs ``stable-baselines3`` (the ``learn`` extra: ``pip install -r requirements-learn.txt``).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    from gymnasium import spaces
    from stable_baselines3.common.vec_env import VecEnv as _SB3VecEnv  # type: ignore[import-not-found,unused-ignore]
except ImportError as e:  # pragma: no cover - depends on what is installed
    raise ImportError(f"genial.envs.sb3 needs stable-baselines3 ({e}): pip install -r requirements-learn.txt") from e

from ..actions import ACTION_COUNT, KEEP_ACTION, move_to_action
from ..bots import BUILTIN_BOTS, BuiltinBot, make
from ..game import Game, check_seed
from ..observation import OBS_SIZE, low_high, observe_batch
from ..variants import Rules, as_rules
from ..vecenv import SKIP
from ..vecenv import VecEnv as CoreVecEnv

__all__ = ["VecEnv", "PASS_ACTION"]

#: In self-play, the one legal action of a seat that is not to move (``keep``, which there
#: means "pass"; what such a seat gives is ignored).
PASS_ACTION = KEEP_ACTION

_RANDOM = "random"


class VecEnv(_SB3VecEnv):  # type: ignore[misc,unused-ignore]
    """Many games for SB3 (see the module docstring). ``games``: games stepped together;
    ``opponents``: a built-in bot's name, one per other seat (in seat order, skipping the
    learner's), or ``None`` for self-play; ``seat``: the learner's seat against bots, or
    ``None`` for a seat drawn per game; ``threads``: the core's threads (the results do not
    depend on them). The rules as `genial.VecEnv` takes them."""

    def __init__(
        self,
        games: int,
        players: int | None = None,
        variant: str = "standard",
        *,
        opponents: str | Sequence[str] | None = _RANDOM,
        seat: int | None = 0,
        seed: int | None = None,
        threads: int = 1,
        swap_timing: str = "after_placement",
        require_contact: bool = False,
        rules: Rules | None = None,
    ) -> None:
        self.rules = as_rules(
            rules, players=players, variant=variant, swap_timing=swap_timing, require_contact=require_contact
        )
        n = self.rules.players
        self._seed = check_seed(secrets.randbits(64) if seed is None else seed)
        self._core = CoreVecEnv(games, seed=self._seed, threads=threads, rules=self.rules)
        self.games = games
        self.self_play = opponents is None
        if opponents is None:
            self._opponents: list[str] = []
            if seat is not None and seat != 0:
                raise ValueError("in self-play (opponents=None) every seat is the learner's: leave seat out")
        else:
            if n == 1:
                raise ValueError("the solo game has no opponents: use opponents=None (self-play) for it")
            names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
            if len(names) != n - 1:
                raise ValueError(f"{n} players need {n - 1} opponent(s), not {len(names)}")
            for name in names:
                if not isinstance(name, str) or name not in BUILTIN_BOTS:
                    raise ValueError(f"an opponent is a built-in bot's name ({', '.join(BUILTIN_BOTS)}), not {name!r}")
            self._opponents = names
            if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
                raise ValueError(f"seat must be None or a seat 0..{n - 1}, not {seat!r}")
        self._fixed_seat = seat
        low, high = low_high()
        slots = games * n if self.self_play else games
        self._obs = np.zeros((slots, OBS_SIZE), dtype=np.float32)
        self._masks = np.zeros((slots, ACTION_COUNT), dtype=np.bool_)
        self._actions: npt.NDArray[np.int64] | None = None
        # Against bots: the learner's seat in each game, and the bots of the other seats.
        self._seats = np.zeros(games, dtype=np.int64)
        self._bots: list[dict[int, BuiltinBot]] = [{} for _ in range(games)]
        self._draw = np.random.default_rng(0)
        self._player = np.zeros(games, dtype=np.int64)
        super().__init__(slots, spaces.Box(low, high, dtype=np.float32), spaces.Discrete(ACTION_COUNT))

    # ----- SB3's VecEnv ---------------------------------------------------------------------

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """The seed of the next `reset` (``None``: one from the operating system)."""
        self._seed = check_seed(secrets.randbits(64) if seed is None else seed)
        return [self._seed] * self.num_envs

    def reset(self) -> npt.NDArray[np.float32]:
        obs, mask, player = self._core.reset(self._seed)
        # The seats and bots of each game come from the seed too, apart from the games'.
        self._draw = np.random.default_rng([self._seed, 0x5B3])
        if not self.self_play:
            for g in range(self.games):
                self._new_game(g)
        self._settle(obs, mask, player, np.zeros(self.games, np.float32), np.zeros(self.games, np.bool_))
        return self._obs

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs).astype(np.int64, copy=False)

    def step_wait(
        self,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_], list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async(): give the actions first")
        actions, self._actions = self._actions, None
        if self.self_play:
            n = self.rules.players
            # The seat to move in each game acts; the others' actions are ignored.
            movers = actions.reshape(self.games, n)[np.arange(self.games), self._player]
            obs, mask, rewards, dones, player = self._core.step(movers)
            slot_rewards = np.where(dones[:, None], rewards, 0.0).astype(np.float32).reshape(-1)
            slot_dones = np.repeat(dones, n)
            self._settle(obs, mask, player, slot_rewards, slot_dones)
            return self._obs, slot_rewards, slot_dones, [{} for _ in range(self.num_envs)]
        games = np.arange(self.games)
        obs, mask, rewards, dones, player = self._core.step(actions)
        reward = rewards[games, self._seats].astype(np.float32)
        done = dones.copy()
        for g in np.flatnonzero(dones):
            self._new_game(int(g))
        self._settle(obs, mask, player, reward, done)
        return self._obs, reward, done, [{} for _ in range(self.num_envs)]

    def close(self) -> None:
        """Nothing to release."""

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        count = len(list(self._get_indices(indices)))
        if attr_name == "render_mode":
            return [None] * count
        if attr_name == "action_masks":
            return [self.action_masks] * count
        raise AttributeError(f"genial's SB3 VecEnv has no per-env attribute {attr_name!r}")

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"genial's SB3 VecEnv has no per-env attribute {attr_name!r} to set")

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list[Any]:
        if method_name == "action_masks":
            return [self._masks[i] for i in self._get_indices(indices)]
        raise AttributeError(f"genial's SB3 VecEnv has no per-env method {method_name!r}")

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(list(self._get_indices(indices)))

    def _get_indices(self, indices: Any) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    # ----- genial's own -------------------------------------------------------------------

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every env, ``(num_envs, ACTION_COUNT)`` bools."""
        return self._masks.copy()

    def game(self, index: int) -> Game:
        """A snapshot of game ``index`` (without its move history)."""
        return self._core.game(index)

    @property
    def seats(self) -> npt.NDArray[np.int64]:
        """Against bots: the learner's seat in each game."""
        return self._seats.copy()

    def _new_game(self, g: int) -> None:
        """Against bots: the learner's seat and fresh seeded bots for the game now in ``g``."""
        n = self.rules.players
        seat = int(self._draw.integers(n)) if self._fixed_seat is None else self._fixed_seat
        self._seats[g] = seat
        others = [p for p in range(n) if p != seat]
        self._bots[g] = {
            p: make(name, int(self._draw.integers(0, 2**63)))
            for p, name in zip(others, self._opponents)
            if name != _RANDOM
        }

    def _settle(
        self,
        obs: npt.NDArray[np.float32],
        mask: npt.NDArray[np.bool_],
        player: npt.NDArray[np.int64],
        reward: npt.NDArray[np.float32],
        done: npt.NDArray[np.bool_],
    ) -> None:
        """Against bots: plays the bots until the learner is to move in every game (adding
        the learner's rewards of games that end meanwhile into ``reward`` and ``done``), then
        keeps what SB3 sees. Self-play: keeps every seat's view."""
        if self.self_play:
            self._player = player
            self._keep_self_play(obs, mask, player)
            return
        while True:
            waiting = player != self._seats
            if not waiting.any():
                break
            actions = self._bot_actions(waiting, player)
            obs, mask, rewards, dones, player = self._core.step(actions)
            games = np.flatnonzero(waiting)
            reward[games] += rewards[games, self._seats[games]]
            for g in np.flatnonzero(dones & waiting):
                done[g] = True
                self._new_game(int(g))
        # The core returns new arrays at every call, so they are kept and handed on as
        # they are: nothing writes into them later.
        self._obs = obs
        self._masks = mask

    def _bot_actions(self, waiting: npt.NDArray[np.bool_], player: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The bots' actions where a bot is to move, `SKIP` elsewhere."""
        actions = np.where(waiting, self._core.sample_actions(), SKIP)
        for g in np.flatnonzero(waiting):
            bot = self._bots[g].get(int(player[g]))
            if bot is not None:
                game = self._core.game(int(g))
                actions[g] = move_to_action(game, bot.choose(game))
        return actions

    def _keep_self_play(
        self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_], player: npt.NDArray[np.int64]
    ) -> None:
        n = self.rules.players
        # New arrays at every step (SB3 keeps the last observation while the next is made).
        self._obs = np.empty((self.games * n, OBS_SIZE), dtype=np.float32)
        self._masks = np.zeros((self.games * n, ACTION_COUNT), dtype=np.bool_)
        views = self._obs.reshape(self.games, n, OBS_SIZE)
        masks = self._masks.reshape(self.games, n, ACTION_COUNT)
        games = np.arange(self.games)
        masks[:, :, PASS_ACTION] = True
        masks[games, player] = mask
        views[games, player] = obs
        if n > 1:
            # The seats not to move see their own view of the same position.
            snapshots = [self._core.game(g) for g in range(self.games)]
            games_seen = [snapshots[g] for g in range(self.games) for _ in range(n - 1)]
            seats = np.array([s for g in range(self.games) for s in range(n) if s != player[g]], dtype=np.int64)
            out = observe_batch(games_seen, seats, np.empty((len(seats), OBS_SIZE), dtype=np.float32))
            rest = np.ones((self.games, n), dtype=np.bool_)
            rest[games, player] = False
            views[rest] = out

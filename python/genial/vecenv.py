"""`VecEnv`: many games stepped together in Rust, for training.

Actions go in and observations, legal masks, rewards, dones and the seat to move come out
as numpy arrays, for every env at once. A finished game is replaced by a new one in the
same step (auto-reset). Work runs with the GIL released, on ``threads`` threads, and the
results are the same for a seed whatever the thread count.

>>> import genial
>>> from genial.observation import OBS_SIZE
>>> env = genial.VecEnv(8, players=2, seed=1, threads=1)
>>> obs, mask, player = env.reset()
>>> obs.shape == (8, OBS_SIZE), mask.shape, player.shape
(True, (8, 6086), (8,))
>>> obs, mask, rewards, dones, player = env.step(env.sample_actions())
>>> rewards.shape, dones.dtype
((8, 2), dtype('bool'))
"""

from __future__ import annotations

import os
import secrets
from typing import ClassVar, NamedTuple

import numpy as np
import numpy.typing as npt

from . import _core
from ._core import Rules
from .arguments import LIMITS, int_in
from .game import Game, check_seed
from .variants import as_rules

__all__ = ["VecEnv", "VecStep", "VecReset", "SKIP"]

#: The action that leaves an env as it is in `VecEnv.step`: nothing played, a reward of 0,
#: not done, its observation written again (the core's ``vecenv::SKIP``). A caller that
#: plays some seats itself, with bots, steps the other envs with it.
SKIP: int = -1


class VecReset(NamedTuple):
    """What `VecEnv.reset` returns."""

    obs: npt.NDArray[np.float32]
    """``(num_envs, OBS_SIZE)``: what the seat to move sees (`genial.observation`)."""
    mask: npt.NDArray[np.bool_]
    """``(num_envs, ACTION_COUNT)``: its legal actions (`genial.actions`)."""
    player: npt.NDArray[np.int64]
    """``(num_envs,)``: the seat to move."""


class VecStep(NamedTuple):
    """What `VecEnv.step` returns."""

    obs: npt.NDArray[np.float32]
    """``(num_envs, OBS_SIZE)``: what the seat to move sees now (in the next game after a done)."""
    mask: npt.NDArray[np.bool_]
    """``(num_envs, ACTION_COUNT)``: its legal actions."""
    rewards: npt.NDArray[np.float32]
    """``(num_envs, players)``: per seat, the reward of the game this step finished, else 0:
    +1 for a (shared) first place, -1 for the last, linear between, 0 for all on a full
    tie; team partners share; solo: the lowest score ÷ 36."""
    dones: npt.NDArray[np.bool_]
    """``(num_envs,)``: this step finished the env's game (the row already shows the next)."""
    player: npt.NDArray[np.int64]
    """``(num_envs,)``: the seat to move now. After a bonus placement it is the same seat."""


class VecEnv:
    """``num_envs`` games of one variant, stepped together.

    Env ``i`` plays a sequence of games seeded from ``seed`` and ``i`` only, so the results
    do not depend on ``threads`` (default: all cores). ``seed=None`` draws one from the OS.
    Every call returns new arrays. At most ``LIMITS["envs"]`` (65,536) envs: a call at that
    size takes about 0.3 s of one core (the first ones up to about 2 s), so Ctrl-C, which
    takes effect as the call returns, is never held up for long. One thread at a time: a
    call while another thread's call runs raises `genial.BusyError`.
    """

    __slots__ = ("_env", "_seed")
    #: The version of what the agents see (`genial.observation.VERSION`), as pgx's
    #: ``Env.version``.
    version: ClassVar[int] = _core.observation_version()

    def __init__(
        self,
        num_envs: int,
        players: int | None = None,
        variant: str = "standard",
        seed: int | None = None,
        threads: int | None = None,
        *,
        swap_timing: str = "after_placement",
        require_contact: bool = False,
        rules: Rules | None = None,
    ) -> None:
        num_envs = int_in("num_envs", num_envs, 1, LIMITS["envs"])
        rules = as_rules(
            rules, players=players, variant=variant, swap_timing=swap_timing, require_contact=require_contact
        )
        if threads is None:
            threads = os.cpu_count() or 1
        threads = int_in("threads", threads, 1, LIMITS["threads"])
        self._seed = check_seed(secrets.randbits(64) if seed is None else seed)
        self._env = _core.VecEnv(num_envs, rules, self._seed, threads)

    @property
    def num_envs(self) -> int:
        return self._env.num_envs

    @property
    def players(self) -> int:
        return self._env.players

    @property
    def variant(self) -> str:
        return self._env.variant

    @property
    def threads(self) -> int:
        return self._env.threads

    @property
    def seed(self) -> int:
        """The seed of the last reset (or of construction)."""
        return self._seed

    def reset(self, seed: int | None = None) -> VecReset:
        """Starts every env afresh: from ``seed`` if given, else from the current seed (so
        that ``reset()`` after construction replays the same games)."""
        if seed is not None:
            self._seed = check_seed(seed)
        return VecReset(*self._env.reset(self._seed))

    def observe(self) -> VecReset:
        """The current observations, masks and seats to move, changing nothing."""
        return VecReset(*self._env.observe())

    def step(self, actions: npt.ArrayLike) -> VecStep:
        """Plays ``actions[i]`` (`genial.actions` index) in env ``i`` for every env;
        `SKIP` (-1) leaves env ``i`` as it is (reward 0, not done).

        All actions are checked before any is played: an action outside
        ``range(ACTION_COUNT)`` (other than `SKIP`) raises `ValueError`, one that is not
        legal in its env raises `genial.IllegalMoveError`; both name the env and leave every
        env unchanged."""
        arr = np.asarray(actions)
        if arr.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {arr.shape}")
        if arr.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, not {arr.dtype}")
        if arr.dtype.kind == "u" and arr.size and int(arr.max()) > np.iinfo(np.int64).max:
            raise ValueError(f"action {int(arr.max())} is out of range")
        return VecStep(*self._env.step(np.ascontiguousarray(arr, dtype=np.int64)))

    def sample_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action for every env, drawn in Rust from each env's
        own generator (seeded with the env, so runs repeat)."""
        return self._env.sample_actions()

    def move_features(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The legal moves of every env's seat to move, as rows for a policy that scores
        moves, the network of the ``policy`` bot (`genial.expert_iteration`):
        ``(features, env, action)``, one row per move with its features
        (``POLICY_FEATURES``), its env and the action to `step` with to play it. Envs come in
        order, each env's rows together. Nothing a seat may not see is read.

        >>> env = VecEnv(2, seed=3, threads=1)
        >>> _ = env.reset()
        >>> x, which, actions = env.move_features()
        >>> x.shape[1], sorted(set(which.tolist())), bool(env.observe().mask[0, actions[0]])
        (44, [0, 1], True)
        """
        return self._env.move_features()

    def game(self, index: int) -> Game:
        """A snapshot of the game in env ``index`` (without its move history)."""
        return Game._wrap(self._env.state(index))

    def episodes(self) -> npt.NDArray[np.uint64]:
        """Games finished by each env since the last reset."""
        return self._env.episodes()

    def __repr__(self) -> str:
        return f"<VecEnv {self.variant} players={self.players} num_envs={self.num_envs} threads={self.threads}>"

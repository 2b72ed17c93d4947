"""Ingenious as a Gymnasium single-agent environment: one seat against built-in bots.

`IngeniousEnv` (registered as ``genial/Ingenious-v0`` when this module is imported, so
``gymnasium.make("genial.envs.gymnasium:genial/Ingenious-v0")`` works without an import)
puts the agent in one seat; the other seats are played by `genial.bots` (``"random"``,
``"greedy"``, or any object with ``choose(view)``). A step is one decision of the agent,
then the bots' moves until the agent is to move again or the game ends; after a bonus
placement the agent simply moves again. Observations are dicts like PettingZoo's:
``"observation"`` (`genial.observation`, ``float32``) and ``"action_mask"`` (``int8``);
`IngeniousEnv.action_masks` gives the mask as bools (sb3-contrib's convention). The reward
is 0 until the end, then +1 for a (shared) first place, -1 for the last, linear between
(team partners share); solo: the lowest score ÷ 36.

An action outside ``range(ACTION_COUNT)`` raises `ValueError`. An illegal action ends the
episode as a loss (reward -1, ``info["illegal_action"] = True``) with
``illegal_action="lose"`` (the default, so that unmasked agents can learn), or raises
`genial.IllegalMoveError` and changes nothing with ``illegal_action="raise"``.

>>> import gymnasium
>>> import genial.envs.gymnasium
>>> env = gymnasium.make("genial/Ingenious-v0", opponents="greedy")
>>> obs, info = env.reset(seed=1)
>>> terminated = False
>>> while not terminated:
...     action = env.action_space.sample(obs["action_mask"])
...     obs, reward, terminated, truncated, info = env.step(action)
>>> reward in (-1.0, 0.0, 1.0)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as e:  # pragma: no cover - depends on what is installed
    raise ImportError(f'genial.envs.gymnasium needs gymnasium ({e}): pip install "genial-engine[rl]"') from e

from .. import _core
from ..actions import ACTION_COUNT, legal_action_mask
from ..bots import BUILTIN_BOTS, Bot, BuiltinBot, GameView, make
from ..game import Game
from ..observation import VERSION
from ..raster import available as _can_rasterise
from ..raster import svg_to_rgb
from ..variants import Rules, as_rules
from .registration import ENV_ID, register_gymnasium_envs
from .spaces import check_form, observation_space, pack

__all__ = ["IngeniousEnv", "ENV_ID"]


Observation = dict[str, Any]  # "observation": float32 vector, "action_mask": int8 vector
Opponent = str | Bot


class IngeniousEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of Ingenious against bots (see the module docstring).

    ``players`` defaults to the variant's count; ``opponents`` is one bot name or object
    for every other seat, or a sequence with one per other seat (in seat order, skipping
    the agent). ``seat`` is the agent's seat, or ``None`` for a random seat each episode.
    Named bots are seeded from the environment's ``np_random`` at each reset.
    ``observation="grid"`` gives the board as `genial.observation.to_grid`'s grid, with the
    other entries as ``"features"`` (`genial.envs.spaces`).
    """

    #: ``rgb_array`` only where the ``render`` extra (resvg-py, Pillow) is installed: Gymnasium's
    #: ``check_env`` renders every mode declared here.
    metadata = {  # noqa: RUF012 (Gymnasium's own attribute)
        "render_modes": ["ansi", "human", *(["rgb_array"] if _can_rasterise() else [])],
        "render_fps": 1,
    }
    #: The version of what the agent sees (`genial.observation.VERSION`), as pgx's
    #: ``Env.version``: an agent trained on one version is not fit for another.
    version: ClassVar[int] = VERSION

    def __init__(
        self,
        players: int | None = None,
        variant: str = "standard",
        opponents: Opponent | Sequence[Opponent] = "random",
        seat: int | None = 0,
        *,
        swap_timing: str = "after_placement",
        require_contact: bool = False,
        illegal_action: str = "lose",
        render_mode: str | None = None,
        rules: Rules | None = None,
        observation: str = "vector",
    ) -> None:
        self.observation = check_form(observation)
        self.rules = as_rules(
            rules, players=players, variant=variant, swap_timing=swap_timing, require_contact=require_contact
        )
        n = self.rules.players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"seat must be None or a seat 0..{n - 1}, not {seat!r}")
        if isinstance(opponents, (str, Bot)):
            opponents = [opponents] * (n - 1)
        opponents = list(opponents)
        if len(opponents) != n - 1:
            raise ValueError(f"{n} players need {n - 1} opponent(s), not {len(opponents)}")
        for o in opponents:
            if isinstance(o, str) and o not in BUILTIN_BOTS:
                raise ValueError(f"unknown bot {o!r}: built-in bots are {', '.join(BUILTIN_BOTS)}")
            if not isinstance(o, (str, Bot)):
                raise TypeError(f"an opponent is a bot name or an object with choose(view), not {type(o).__name__}")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', not {illegal_action!r}")
        if render_mode == "rgb_array" and "rgb_array" not in self.metadata["render_modes"]:
            raise ImportError('render_mode "rgb_array" needs resvg-py and pillow: pip install "genial-engine[render]"')
        if render_mode is not None and render_mode not in ("ansi", "human", "rgb_array"):
            raise ValueError(f"render_mode must be None, 'ansi', 'human' or 'rgb_array', not {render_mode!r}")
        self._opponents: list[Opponent] = opponents
        self._fixed_seat = seat
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.observation_space = observation_space(self.observation)
        self.action_space = spaces.Discrete(ACTION_COUNT)
        self.game = Game(seed=0, rules=self.rules)  # until the first reset
        self.seat = 0 if seat is None else seat
        self._bots: dict[int, Bot] = {}
        # The seeds of the bots this env built by name at the last reset, by seat: with the
        # game's record they rebuild those bots exactly where they are (`__setstate__`).
        self._bot_seeds: dict[int, int] = {}
        self._over = True

    # ----- gymnasium API ----------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        self.game = Game(seed=int(rng.integers(0, 2**64, dtype=np.uint64)), rules=self.rules)
        n = self.game.players
        self.seat = int(rng.integers(n)) if self._fixed_seat is None else self._fixed_seat
        others = [p for p in range(n) if p != self.seat]
        self._bots = {}
        self._bot_seeds = {}
        for p, o in zip(others, self._opponents):
            if isinstance(o, str):
                self._bot_seeds[p] = int(rng.integers(0, 2**64, dtype=np.uint64))
                self._bots[p] = make(o, self._bot_seeds[p])
            else:
                self._bots[p] = o
        self._over = False
        self._play_bots()
        self._over = self.game.is_over
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise RuntimeError("the episode is over: call reset() first")
        # ValueError out of range; IllegalMoveError when the action is not legal (nothing changes).
        try:
            _core.play_action(self.game._state, action)
        except _core.IllegalMoveError:
            if self.illegal_action == "raise":
                raise
            self._over = True
            return self._observation(), -1.0, True, False, {**self._info(), "illegal_action": True}
        self._play_bots()
        self._over = self.game.is_over
        reward = float(self.game.returns()[self.seat]) if self._over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self._over, False, self._info()

    def render(self) -> Any:  # str | None; gymnasium's own annotation differs across versions
        """``ansi``: the text board (a str); ``human``: prints it; ``rgb_array``: the board,
        tracks and the agent's rack as an ``(h, w, 3)`` uint8 array (needs the ``render``
        extra); no render mode: ``None``."""
        if self.render_mode == "rgb_array":
            return svg_to_rgb(self.game.to_svg(racks=self.seat))
        if self.render_mode == "human":
            print(self.game)
            return None
        return str(self.game) if self.render_mode == "ansi" else None

    # ----- copies -------------------------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        """What `copy.deepcopy` and pickle keep: everything but the bots built by name,
        which hold a generator in Rust that cannot be copied; `__setstate__` builds them
        again from their seeds and replays their decisions of this game, so that the copy
        continues exactly as the original (a copy costs those decisions again)."""
        state = self.__dict__.copy()
        state["_bots"] = {p: b for p, b in self._bots.items() if p not in self._bot_seeds}
        for bot in state["_bots"].values():
            if isinstance(bot, BuiltinBot):
                raise TypeError(
                    "an env whose opponents include a BuiltinBot object cannot be copied or pickled "
                    "(its generator lives in Rust): give that opponent by name, such as opponents='greedy'"
                )
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if not self._bot_seeds:
            return
        names = dict(zip([p for p in range(self.rules.players) if p != self.seat], self._opponents))
        bots = {p: make(str(names[p]), seed) for p, seed in self._bot_seeds.items()}
        # Each bot decides again every decision it took in this game, in order, which
        # brings its generator to where the original's is.
        replay = Game(seed=self.game.seed, rules=self.rules)
        for mover, move in zip(self.game._state.movers, self.game.moves):
            bot = bots.get(mover)
            if bot is not None and bot.choose(replay) != move:
                raise RuntimeError(f"the {names[mover]} bot of seat {mover} did not repeat its move {move}")
            replay.play(move)
        self._bots.update(bots)

    # ----- helpers ------------------------------------------------------------------------

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions as bools (all false once the episode is over)."""
        mask = np.zeros(ACTION_COUNT, dtype=np.bool_)
        if not self._over:
            legal_action_mask(self.game, out=mask)
        return mask

    def _play_bots(self) -> None:
        game = self.game
        while not game.is_over and game.current_player != self.seat:
            bot = self._bots[game.current_player]
            # Built-in bots read only what their seat may see; others get a fair view.
            view = game if isinstance(bot, BuiltinBot) else GameView(game, game.current_player)
            game.play(bot.choose(view))  # type: ignore[arg-type]

    def _observation(self) -> Observation:
        obs, mask = _core.observe_with_mask(self.game._state, self.seat)
        if self._over:
            mask[:] = 0
        return pack(self.observation, obs, mask)

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat, "phase": self.game.phase}


register_gymnasium_envs()

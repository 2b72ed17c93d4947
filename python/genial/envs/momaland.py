"""genial as a drop-in for MOMAland's ``moingenious_v0``.

`env` / `raw_env` / `MOIngenious` take ``moingenious_v0``'s constructor arguments and give
the same agents (``agent_0`` ...), observation and action spaces, action numbering and
vector rewards (one entry per colour, in MOMAland's colour order red, green, blue, orange,
yellow, purple), so MOMAland code that works with ``moingenious_v0.env(...)`` runs on
``genial.envs.momaland.env(...)`` unchanged. The game underneath is genial's Rust core and
plays the books' rules, not MOMAland's reading of them: docs/momaland.md lists where the two
differ. Arguments the books have no rule for (more than four players, racks or colour counts
other than six, other board sizes, the ``collaborative`` reward mode) raise `ValueError`.

The books' swap is a choice; MOMAland's action space has no action for it, so the drop-in
takes every swap the books offer (``swap=True``, MOMAland's environment also always swaps
when its own condition holds) or declines every one (``swap=False``).

An action out of range raises `ValueError`, an illegal one `genial.IllegalMoveError` (a
`ValueError`), and neither changes the game. Needs ``pettingzoo`` and ``gymnasium`` (the
``rl`` extra); MOMAland itself is not needed.

>>> from genial.envs.momaland import env
>>> e = env(num_agents=2)
>>> _ = e.reset(seed=7)
>>> total = {a: 0 for a in e.possible_agents}
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     total[agent] = total[agent] + reward
...     action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)
>>> e.game.is_over, all((total[a] == e.observe_scores()[i]).all() for i, a in enumerate(e.possible_agents))
(True, True)
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped]  # noqa: F401 (the guard)
except ImportError as e:  # pragma: no cover - depends on what is installed
    raise ImportError(
        f'genial.envs.momaland needs pettingzoo and gymnasium ({e}): pip install "genial-engine[rl]"'
    ) from e

from .. import _core
from .._core import IllegalMoveError, Tile
from ..actions import CELLS, DIRECTIONS, KEEP_ACTION, SWAP_ACTION, cell_index
from ..colors import Color
from ..variants import Rules, as_rules
from .pettingzoo import IngeniousParallel, _GenialAEC

__all__ = ["env", "raw_env", "parallel_env", "MOIngenious", "MOMALAND_COLORS", "BOARD_SIZES", "PASS_ACTION"]

#: The one action of an agent that is not to move, in `parallel_env`: MOMAland's action 0,
#: which there means "pass" (MOMAland's action space has no action to spare).
PASS_ACTION = 0

#: MOMAland's colour codes 1..6 (0 is an empty cell): red, green, blue, orange, yellow, purple.
MOMALAND_COLORS: tuple[Color, ...] = (Color.RED, Color.GREEN, Color.BLUE, Color.ORANGE, Color.YELLOW, Color.PURPLE)
#: MOMAland's default board side per player count, which is the books' playing zone
#: (radius 5, 6, 7: side 6, 7, 8).
BOARD_SIZES: dict[int, int] = {2: 6, 3: 7, 4: 8}
_CODE = {c: i + 1 for i, c in enumerate(MOMALAND_COLORS)}  # genial colour -> MOMAland code
_SCORE_ORDER = np.array([int(c) for c in MOMALAND_COLORS])  # genial score columns in MOMAland's order
# MOMAland's hex directions in cube coordinates (q, r, s), in its order.
_MOMALAND_DIRECTIONS = ((1, 0, -1), (1, -1, 0), (0, -1, 1), (-1, 0, 1), (-1, 1, 0), (0, 1, -1))
_RACK = 6
_COLORS = 6
_MAX_SCORE = 18

Observation = dict[str, Any]


def _momaland_pairs(board_size: int) -> list[tuple[tuple[int, int, int], tuple[int, int, int]]]:
    """MOMAland's ordered cell pairs, in the order its action numbers follow.

    MOMAland numbers its actions by iterating over a Python ``set`` of cube coordinates
    (``generate_board``), then over its six directions, then over the rack slots. The set is
    rebuilt here the same way (same elements, inserted in the same order; a tuple of ints
    hashes the same in every process), so it iterates in the same order."""
    n = board_size - 1
    cells: set[tuple[int, int, int]] = set()
    for q in range(-n, n + 1):
        for r in range(max(-n, -q - n), min(n, -q + n) + 1):
            cells.add((q, r, -q - r))
    pairs = []
    for loc in cells:
        for dq, dr, ds in _MOMALAND_DIRECTIONS:
            neighbour = (loc[0] + dq, loc[1] + dr, loc[2] + ds)
            if neighbour in cells:
                pairs.append((loc, neighbour))
    return pairs


def to_genial_cell(cube: tuple[int, int, int]) -> tuple[int, int]:
    """genial's cell ``(q, r)`` for MOMAland's cube coordinate ``(q, r, s)``.

    A reflection of the board: it puts each of MOMAland's corner colours on genial's printed
    symbol of the same colour (MOMAland's red corner ``(5, 0, -5)`` is genial's red ``(0, -5)``)."""
    return (-cube[1], -cube[0])


def _board_index(cell: tuple[int, int], board_size: int) -> tuple[int, int]:
    """Where genial's ``cell`` lies in MOMAland's board array (``[q + side - 1, r + side - 1]``)."""
    return (-cell[1] + board_size - 1, -cell[0] + board_size - 1)


def _tile_view(tile: Tile) -> tuple[int, int, bool]:
    """A tile as MOMAland shows it (lower colour code first) and whether that order is the
    reverse of genial's (genial's first colour is its lower one in genial's colour order)."""
    first, second = tile.colors
    a, b = _CODE[first], _CODE[second]
    return (a, b, False) if a <= b else (b, a, True)


_TILE_VIEWS = {Tile(a, b): _tile_view(Tile(a, b)) for a in Color for b in Color if a <= b}
_TILE_PAIRS = {tile: (a, b) for tile, (a, b, _) in _TILE_VIEWS.items()}


def env(**kwargs: Any) -> MOIngenious:
    """The environment (keyword arguments as `MOIngenious`).

    MOMAland's ``env`` wraps its environment in PettingZoo's ``AssertOutOfBoundsWrapper``;
    this one checks its actions itself and raises `ValueError` rather than ``AssertionError``."""
    return MOIngenious(**kwargs)


def parallel_env(**kwargs: Any) -> IngeniousParallel:
    """The drop-in for PettingZoo's parallel API (keyword arguments as `MOIngenious`), for
    MOMAland's and MORL-baselines' learners, which take parallel environments: every agent
    acts at every step, an agent not to move with its one action, `PASS_ACTION`
    (`genial.envs.pettingzoo.IngeniousParallel`). ``moingenious_v0`` itself has none."""
    return IngeniousParallel(MOIngenious(**kwargs), PASS_ACTION)


def raw_env(**kwargs: Any) -> MOIngenious:
    """The environment (keyword arguments as `MOIngenious`), as MOMAland's ``raw_env``."""
    return MOIngenious(**kwargs)


class MOIngenious(_GenialAEC):
    """``moingenious_v0`` on genial's core (see the module docstring).

    ``num_agents`` (2..4; ``None``: 2), ``rack_size`` (6), ``num_colors`` (6), ``board_size``
    (``None`` or the books' zone: 6, 7, 8 for 2, 3, 4 players), ``reward_mode``
    (``"competitive"``, the default, or ``"two_teams"``: with four agents the books' team
    game, seats 0 and 2 against 1 and 3 on shared tracks up to 36), ``fully_obs`` (every
    rack in the observation) and ``render_mode`` (``None``, ``"human"`` prints the board
    after every step, ``"ansi"`` makes `render` return it) are MOMAland's arguments.
    genial's own, keyword only: ``swap`` (take every swap offered, the default, or none), the
    edition options ``swap_timing`` and ``require_contact`` as `genial.Game` takes them, or
    instead ``rules``, one `genial.Rules` of the standard or team game (``num_agents`` and
    ``reward_mode`` then follow it; given as well, they must agree).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's own attribute)
        "render_modes": ["human", "ansi"],
        "name": "moingenious_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        num_agents: int | None = None,
        rack_size: int = 6,
        num_colors: int = 6,
        board_size: int | None = None,
        reward_mode: str | None = None,
        fully_obs: bool = False,
        render_mode: str | None = None,
        *,
        swap: bool = True,
        swap_timing: str = "after_placement",
        require_contact: bool = False,
        rules: Rules | None = None,
    ) -> None:
        super().__init__()
        if rules is not None:
            if not isinstance(rules, Rules):
                raise TypeError(f"rules must be a genial.Rules, not {type(rules).__name__}")
            if rules.variant not in ("standard", "team"):
                raise ValueError(
                    f"the MOMAland drop-in plays the standard and team games (six scores per agent), not {rules.variant}"
                )
            implied = "two_teams" if rules.variant == "team" else "competitive"
            if num_agents is not None and num_agents != rules.players:
                raise ValueError(f"num_agents={num_agents!r} disagrees with rules for {rules.players} players")
            if reward_mode is not None and reward_mode != implied:
                raise ValueError(f"reward_mode={reward_mode!r} disagrees with rules of the {rules.variant} game")
            if swap_timing != "after_placement" or require_contact is not False:
                raise ValueError("give either rules= or swap_timing/require_contact, not both")
            num_agents, reward_mode = rules.players, implied
        num_agents = 2 if num_agents is None else num_agents
        reward_mode = "competitive" if reward_mode is None else reward_mode
        players = _whole("num_agents", num_agents)
        if players not in BOARD_SIZES:
            raise ValueError(
                f"num_agents must be 2, 3 or 4 (the books' player counts), not {players}; "
                "MOMAland's own environment also allows 5 and 6"
            )
        for name, value in (("rack_size", rack_size), ("num_colors", num_colors)):
            if _whole(name, value) != 6:
                raise ValueError(f"{name} must be 6 (genial plays the books' game, with six), not {value}")
        side = BOARD_SIZES[players]
        if board_size is not None and _whole("board_size", board_size) != side:
            raise ValueError(
                f"board_size must be None or {side} for {players} players (the books' playing zone), not {board_size}"
            )
        if reward_mode not in ("competitive", "two_teams", "collaborative"):
            raise ValueError(
                f"reward_mode must be 'competitive' or 'two_teams' ('collaborative' is MOMAland's own), "
                f"not {reward_mode!r}"
            )
        if reward_mode == "collaborative":
            raise ValueError(
                "reward_mode 'collaborative' (every agent on one shared score) has no rule in the books; "
                "use 'competitive', or 'two_teams' with 4 agents for the books' team game"
            )
        if reward_mode == "two_teams" and players % 2:
            raise ValueError(f"reward_mode 'two_teams' needs an even number of agents, not {players}")
        if not isinstance(fully_obs, (bool, np.bool_)):
            raise TypeError(f"fully_obs must be a bool, not {type(fully_obs).__name__}")
        if not isinstance(swap, (bool, np.bool_)):
            raise TypeError(f"swap must be a bool, not {type(swap).__name__}")
        self._take_render_mode(render_mode)
        variant = "team" if reward_mode == "two_teams" and players == 4 else "standard"
        self._set_up(
            rules
            if rules is not None
            else as_rules(players=players, variant=variant, swap_timing=swap_timing, require_contact=require_contact),
            "agent",
        )
        self.reward_mode = reward_mode
        self.fully_obs = bool(fully_obs)
        self.swap = bool(swap)
        self.board_size = side
        self.num_colors = _COLORS
        # MOMAland's max_score: 18, times the team size in the team game.
        self.max_score = _MAX_SCORE * (players / 2) if variant == "team" else _MAX_SCORE

        pairs = _momaland_pairs(side)
        # For MOMAland's action p * 6 + slot, genial's action when the slot's tile, as MOMAland
        # shows it, starts with genial's first colour (_fwd), or with its second (_rev).
        fwd = np.empty((len(pairs), _RACK), dtype=np.int64)
        rev = np.empty((len(pairs), _RACK), dtype=np.int64)
        for p, (h1, h2) in enumerate(pairs):
            c1, c2 = to_genial_cell(h1), to_genial_cell(h2)
            d12 = DIRECTIONS.index((c2[0] - c1[0], c2[1] - c1[1]))
            d21 = DIRECTIONS.index((c1[0] - c2[0], c1[1] - c2[1]))
            for slot in range(_RACK):
                fwd[p, slot] = (slot * CELLS + cell_index(c1)) * 6 + d12
                rev[p, slot] = (slot * CELLS + cell_index(c2)) * 6 + d21
        self._fwd, self._rev = fwd, rev
        # The genial action of every MOMAland action for each pattern of reversed slots (a
        # bit per slot), built when first met: at most 64 of them.
        self._selections: dict[int, npt.NDArray[np.int64]] = {}
        self._pairs = pairs
        # Where each pair's two cells lie in the board array.
        self._pair_cells = [
            (_board_index(to_genial_cell(h1), side), _board_index(to_genial_cell(h2), side)) for h1, h2 in pairs
        ]
        self._action_count = len(pairs) * _RACK

        # The spaces exactly as moingenious_v0 builds them (bounds, shapes and dtypes).
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Dict(
                        {
                            "board": spaces.Box(0, _COLORS, shape=(2 * side - 1, 2 * side - 1), dtype=np.float32),
                            "racks": (
                                spaces.Box(0, _COLORS, shape=(players, _RACK, 2), dtype=np.int32)
                                if self.fully_obs
                                else spaces.Box(0, _COLORS, shape=(_RACK, 2), dtype=np.int32)
                            ),
                            "scores": spaces.Box(0, self.max_score, shape=(players, _COLORS), dtype=np.int32),
                        }
                    ),
                    "action_mask": spaces.Box(low=0, high=1, shape=(self._action_count,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self._action_count) for a in self.possible_agents}
        self.reward_spaces = {a: spaces.Box(0, self.max_score, shape=(_COLORS,)) for a in self.possible_agents}

        self._board = np.zeros((2 * side - 1, 2 * side - 1), dtype=np.float32)
        # What only a step changes, kept between steps: every seat's scores in MOMAland's
        # order, and each seat's rack as MOMAland shows it with its pattern of reversed slots.
        self._score_rows = np.zeros((players, _COLORS), dtype=np.int32)
        self._racks: dict[int, tuple[npt.NDArray[np.int32], int]] = {}
        self._seat_everyone(_zero_reward)
        self.agent_selection = self.possible_agents[0]

    # ----- spaces ---------------------------------------------------------------------------

    def reward_space(self, agent: str) -> spaces.Space[Any]:
        """The vector reward's space: one entry per colour (MOMAland's ``reward_space``)."""
        return self.reward_spaces[agent]

    # ----- the game ---------------------------------------------------------------------------

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """A new game; returns every agent's observation and the infos, as MOMAland's does.

        The game's seed is drawn as `genial.envs.pettingzoo` draws it, so the same ``seed``
        deals the same game in both environments."""
        self._new_game(seed)
        self._board[:] = 0
        for cell, color in _core.Board.symbols():
            self._board[_board_index(cell, self.board_size)] = _CODE[color]
        self._seat_everyone(_zero_reward)
        self._started = True
        self._settle()
        self._refresh()  # with swap_timing="instead_of_placement" a turn can open on a swap offer
        self.agent_selection = self.possible_agents[self.game.current_player]
        return {a: self.observe(a) for a in self.agents}, self.infos

    def _settle(self) -> None:
        """Answers the swap offers the books make (MOMAland's action space has no action for
        them): take each, or decline each, as ``swap`` says."""
        state = self.game._state
        while state.phase == "swap_offer":
            _core.play_action(state, SWAP_ACTION if self.swap else KEEP_ACTION)

    def _refresh(self) -> None:
        """Forgets the racks and reads the scores after the game moved."""
        state = self.game._state
        rows = np.array([state.score_of(seat) for seat in range(self.rules.players)], dtype=np.int32)
        self._score_rows = rows[:, _SCORE_ORDER]
        self._racks.clear()

    def step(self, action: Any) -> None:
        agent = self._mover(action)
        if agent is None:
            return
        index = _action_index(action, self._action_count)
        state = self.game._state
        seat = self._seat[agent]
        pair, slot = divmod(index, _RACK)
        rack = state.rack(seat)
        if slot >= len(rack):
            raise IllegalMoveError(f"action {index} plays rack slot {slot}, but {agent}'s rack holds {len(rack)} tiles")
        a, b, flipped = _TILE_VIEWS[rack[slot]]
        genial_action = int(self._rev[pair, slot] if flipped else self._fwd[pair, slot])
        h1, h2 = self._pairs[pair]
        before = self._score_rows[seat].astype(np.float64)
        try:
            over = _core.play_action(state, genial_action) is None
        except IllegalMoveError as e:
            raise IllegalMoveError(
                f"action {index} (tile {a}{b} from rack slot {slot}: colour {a} on cell {h1}, {b} on {h2}, "
                f"MOMAland's cube coordinates) is not legal now: {e}"
            ) from None
        cell1, cell2 = self._pair_cells[pair]
        self._board[cell1] = a
        self._board[cell2] = b
        if not over:
            self._settle()
            over = state.phase == "over"
        self._refresh()
        gain = self._score_rows[seat] - before
        self.rewards = {x: _zero_reward() for x in self.agents}
        self.rewards[agent] = gain
        if self.rules.variant == "team":
            # Partners share a track, so they share its gains (MOMAland's two_teams rewards).
            for x in self.agents:
                if x != agent and self._seat[x] % 2 == seat % 2:
                    self.rewards[x] = gain.copy()
        self._cumulative_rewards[agent] = _zero_reward()
        self._accumulate_rewards()
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[state.current_player]
        if self.render_mode == "human":
            self.render()

    def _clear_rewards(self) -> None:
        # PettingZoo's version writes scalar zeros; the rewards here are vectors (as MOMAland's).
        for agent in self.rewards:
            self.rewards[agent] = _zero_reward()

    def observe(self, agent: str) -> Observation:
        """MOMAland's observation of ``agent``: the board, its rack (every rack with
        ``fully_obs``), everyone's scores, and its legal actions (none unless it is to move)."""
        state = self.game._state
        seat = self._seat[agent]
        rack, reversed_slots = self._rack(seat)
        if self.fully_obs:
            racks = np.stack([self._rack(s)[0] for s in range(self.rules.players)])
        else:
            racks = rack.copy()
        if state.phase == "over" or state.current_player != seat:
            mask = np.zeros(self._action_count, dtype=np.int8)
        else:
            selection = self._selections.get(reversed_slots)
            if selection is None:
                reversed_mask = np.array([reversed_slots >> slot & 1 for slot in range(_RACK)], dtype=np.bool_)
                selection = np.where(reversed_mask, self._rev, self._fwd).reshape(-1)
                self._selections[reversed_slots] = selection
            mask = _core.legal_action_mask(state).view(np.int8)[selection]
        return {
            "observation": {"board": self._board.copy(), "racks": racks, "scores": self._score_rows.copy()},
            "action_mask": mask,
        }

    def observe_scores(self) -> npt.NDArray[np.int32]:
        """Every agent's scores, one row per agent in MOMAland's colour order (as in the observation)."""
        return self._score_rows.copy()

    def _rack(self, seat: int) -> tuple[npt.NDArray[np.int32], int]:
        """``seat``'s rack as MOMAland shows it (padded with ``(0, 0)``), and a bit per slot
        whose tile shows genial's colours in reverse; kept until the game moves."""
        kept = self._racks.get(seat)
        if kept is None:
            tiles = self.game._state.rack(seat)
            out = np.zeros((_RACK, 2), dtype=np.int32)
            if tiles:
                out[: len(tiles)] = [_TILE_PAIRS[t] for t in tiles]
            reversed_slots = sum(1 << slot for slot, t in enumerate(tiles) if _TILE_VIEWS[t][2])
            kept = self._racks[seat] = (out, reversed_slots)
        return kept


def _zero_reward() -> npt.NDArray[np.float64]:
    """No reward: one zero per colour."""
    return np.zeros(_COLORS)


def _whole(name: str, value: object) -> int:
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an int, not a bool")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be an int, not {type(value).__name__}") from None


def _action_index(action: object, count: int) -> int:
    if isinstance(action, np.ndarray) and action.shape in ((), (1,)):
        action = action.reshape(()).item()  # MOMAland's action shape is (1,)
    if isinstance(action, (bool, np.bool_)):
        raise ValueError(f"an action is an int in range({count}), not a bool")
    try:
        index = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"an action is an int in range({count}), not {type(action).__name__}") from None
    if not 0 <= index < count:
        raise ValueError(f"action {index} is out of range({count})")
    return index

"""genial as an OpenSpiel game: ``pyspiel.load_game("genial")``.

Importing this module registers the game ``genial`` with OpenSpiel (``pip install
"genial-engine[openspiel]"``). Its parameters are ``players`` (``-1``: the variant's own
count), ``variant`` (``standard``, ``solo``, ``team``, ``duel``) and every edition option of
`genial.Rules.options` under its own name (``swap_timing``, ``require_contact``):

>>> import pyspiel
>>> import genial.envs.openspiel
>>> game = pyspiel.load_game("genial(players=3,swap_timing=instead_of_placement)")
>>> game.num_players(), game.num_distinct_actions(), game.get_type().information.name
(3, 6086, 'IMPERFECT_INFORMATION')
>>> state = game.new_initial_state("7")       # the game of seed 7, as genial.Game(seed=7)
>>> state.current_player(), len(state.legal_actions()) > 0
(0, True)

What OpenSpiel is told, and why:

* **Actions** are `genial.actions` (``ACTION_COUNT`` = 6086: rack slot x cell x direction,
  then ``swap`` and ``keep``), the numbering of the Gymnasium and PettingZoo environments, so a
  policy moves between them unchanged. Legal actions, turn flow and scoring are the core's:
  this module restates no rule.
* **Chance is explicit, and happens once: the deal.** The first `SEED_BYTES` (8) nodes of
  every game are chance nodes, each drawing one byte of the game's 64-bit seed uniformly
  (256 outcomes); from then on the game is the core's ``genial.Game(seed=...)``, whose seed
  shuffles the bag and also drives the core's mixing of swapped tiles back into the bag. So
  the distribution of games is exactly genial's own, the history of actions fixes a state,
  and OpenSpiel's checks, serialization and replays work on it. A chance node per draw does
  not fit the bag: a draw happens inside a move (refilling the rack after a placement, a
  whole new rack after a swap) and a swap remixes the bag, so such nodes would stop the core
  in the middle of a move and restate the draw and swap rules in Python. Sampled chance
  (``SAMPLED_STOCHASTIC``) does not fit OpenSpiel's tools: a Python game of that kind cannot
  be serialized (``Game::GetRNGState`` cannot be given from Python), so it fails
  ``random_sim_test(serialize=True)``. As with a real bag, the state past the deal holds
  the order of every future draw; what a seat may see is only its observation and
  information state. Searches that must not read the future sample a world first:
  `GenialState.resample_from_infostate` deals everything the seat cannot see (the other
  racks, the bag's order and its future mixing) anew with the core's
  `genial.Game.determinize`. OpenSpiel's ISMCTS calls it at every simulation, and
  `DeterminizedMCTSBot` calls it before each MCTS search; plain MCTS on the true state
  would peek at the bag.
* **Information**: imperfect. The observation tensor of a seat is its
  `genial.observation` vector (``OBS_SIZE`` floats, named pieces as in
  `genial.observation.LAYOUT`): the board, every track, the seat's own rack and only counts of
  what it cannot see. The information-state tensor is the same vector (the core's view is
  nearly Markov: the board and tracks hold the public past; it forgets the order of the
  moves and the seat's earlier racks). The information-state *string* is perfect recall: the
  rule set, the seat, every move in order and each rack the seat has held, and nothing of
  the other racks or the bag, so it keys ISMCTS's tree.
* **Utility**: `genial.Game.returns`, paid once at the end (``TERMINAL`` reward model): +1
  for a (shared) first place, -1 for the last, linear between; solo: the lowest score ÷ 36.
  With two sides (two seats, or the two teams) the returns always sum to 0 (``ZERO_SUM``);
  with three or four seats shared places make them ``GENERAL_SUM``.
* **Length**: the deal's chance nodes and at most ``genial.game.MAX_MOVES`` decisions (what a
  record may hold; real games have fewer than 200).

`GenialBot` lets genial's built-in bots play in OpenSpiel's tools (``evaluate_bots``), and
`DeterminizedMCTSBot` runs OpenSpiel's MCTS on resampled worlds. A state made by
`resample_from_infostate` has no game record behind it and cannot be serialized; every other
state serializes (``pyspiel.serialize_game_and_state``) as its genial record.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

try:
    # Untyped (a compiled module, a package without py.typed), or absent where not installed.
    import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-not-found,import-untyped,unused-ignore]
except ImportError as e:  # pragma: no cover - depends on what is installed
    raise ImportError(f'genial.envs.openspiel needs open_spiel ({e}): pip install "genial-engine[openspiel]"') from e

from .. import _core
from ..actions import ACTION_COUNT, action_to_move
from ..bots import BuiltinBot, make
from ..game import MAX_MOVES, Game, check_seed
from ..observation import LAYOUT, OBS_SIZE, observe
from ..variants import Rules

__all__ = [
    "SHORT_NAME",
    "SEED_BYTES",
    "GAME_TYPE",
    "GenialGame",
    "GenialState",
    "GenialObserver",
    "PRIVATE_BLOCKS",
    "GenialBot",
    "DeterminizedMCTSBot",
    "ISMCTSBot",
    "rules_of",
]

SHORT_NAME = "genial"
#: The deal: this many chance nodes, each one byte of the game's seed (most significant first).
SEED_BYTES = 8


def _parameter_specification() -> dict[str, Any]:
    spec: dict[str, Any] = {"players": -1, "variant": "standard"}
    # Every edition option by its own name, so a new option of the core is a parameter here too.
    for option in Rules.options():
        spec[option["name"]] = option["default"]
    return spec


def _game_type(utility: Any) -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="genial (Reiner Knizia's Ingenious)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(max(Rules(v).player_counts) for v in _core.variant_names()),
        min_num_players=min(min(Rules(v).player_counts) for v in _core.variant_names()),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_specification(),
    )


#: The type registered with OpenSpiel. A loaded game reports its own type, the same but for
#: its utility (``ZERO_SUM`` where the rule set has two sides).
GAME_TYPE = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)


def rules_of(params: dict[str, Any]) -> Rules:
    """The `genial.Rules` of a game's parameters (as `pyspiel.load_game` passes them);
    a bad value raises `ValueError`."""
    known = _parameter_specification()
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(unknown)}: the game takes {', '.join(known)}")
    players = int(params.get("players", -1))
    options = {o["name"]: params.get(o["name"], o["default"]) for o in Rules.options()}
    return Rules(str(params.get("variant", "standard")), None if players == -1 else players, **options)


class GenialGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game (see the module docstring); made by ``pyspiel.load_game``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.rules = rules_of(params)
        rules = self.rules
        two_sides = rules.sides == 2
        utility = pyspiel.GameType.Utility.ZERO_SUM if two_sides else pyspiel.GameType.Utility.GENERAL_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT,
            max_chance_outcomes=256,
            num_players=rules.players,
            # The solo game pays the lowest score ÷ 36 (0..1), a ranking game -1..+1.
            min_utility=0.0 if rules.scored_alone else -1.0,
            max_utility=1.0,
            utility_sum=0.0 if two_sides else None,
            max_game_length=SEED_BYTES + MAX_MOVES,
        )
        full = _parameter_specification()
        full.update(params)
        full["players"] = rules.players  # the game's name says the count it has
        super().__init__(_game_type(utility), info, full)

    def new_initial_state(self, seed: str | int | None = None) -> GenialState:
        """A new game at its first chance node; or, with ``seed`` (an int, or its decimal text:
        OpenSpiel's ``NewInitialState(str)``), the game of that seed just after the deal, as
        ``genial.Game(seed=seed)``, its chance actions in its history."""
        state = GenialState(self)
        if seed is not None:
            try:
                value = check_seed(int(seed))
            except (TypeError, ValueError):
                raise ValueError(f"a genial game is named by its seed, 0 to 2**64 - 1, not {seed!r}") from None
            for byte in value.to_bytes(SEED_BYTES, "big"):
                state.apply_action(byte)
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> GenialObserver | None:
        """The observer OpenSpiel asks for (``open_spiel.python.observation.make_observation``):

        * public and one seat's private information (the default, and the information
          state): the seat's `genial.observation` vector; its string the observation, or with
          ``perfect_recall`` the information state;
        * public information only: that vector without the seat's own blocks (``rack``,
          ``unseen``), and the moves and counts every seat sees;
        * one seat's private information only: those two blocks, and the seat's rack (with
          ``perfect_recall``, every rack it has held);
        * anything else (every seat's private information, or none at all): ``None``, which
          OpenSpiel's tools read as "not provided"."""
        if params:
            raise ValueError(f"the genial observer takes no parameters, not {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        single = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        none = iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        if single and iig_obs_type.public_info:
            return GenialObserver(perfect_recall=iig_obs_type.perfect_recall)
        if none and iig_obs_type.public_info:
            return GenialObserver(perfect_recall=iig_obs_type.perfect_recall, part="public")
        if single:
            return GenialObserver(perfect_recall=iig_obs_type.perfect_recall, part="private")
        return None


class GenialState(pyspiel.State):  # type: ignore[misc]
    """A position: during the deal, the seed's bytes drawn so far; after it, a
    `genial.Game` (``state.game``, the whole truth: the observers show each seat its part)
    and what each seat has seen of its own rack."""

    def __init__(self, game: GenialGame) -> None:
        super().__init__(game)
        self.rules: Rules = game.rules
        self.seed_bytes: list[int] = []
        self._game: Game | None = None
        # Per seat: (moves played, rack text) whenever that seat's rack changed, for the
        # perfect-recall information state.
        self.racks_seen: list[list[tuple[int, str]]] = [[] for _ in range(self.rules.players)]

    @property
    def game(self) -> Game:
        """The genial game (after the deal; during it, `RuntimeError`)."""
        if self._game is None:
            raise RuntimeError("the tiles are not dealt yet: the state is at a chance node")
        return self._game

    @property
    def dealt(self) -> bool:
        """The deal is over: the state holds a genial game."""
        return self._game is not None

    def _note_racks(self, seats: range | tuple[int] | None = None) -> None:
        moves = self.game._state.history_len()
        for seat in range(len(self.racks_seen)) if seats is None else seats:
            seen = self.racks_seen[seat]
            rack = _rack_text(self.game, seat)
            if not seen or seen[-1][1] != rack:
                seen.append((moves, rack))

    # ----- OpenSpiel's State API ----------------------------------------------------------

    def current_player(self) -> int:
        if self._game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self._game.current_player

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(b, 1.0 / 256) for b in range(256)] if self._game is None else []

    def _legal_actions(self, player: int) -> list[int]:
        return _core.legal_actions(self.game._state).tolist()  # type: ignore[no-any-return]

    def _apply_action(self, action: int) -> None:
        action = int(action)
        if self._game is None:
            if not 0 <= action < 256:
                raise ValueError(f"a chance outcome of the deal is a byte, 0..255, not {action}")
            self.seed_bytes.append(action)
            if len(self.seed_bytes) == SEED_BYTES:
                self._game = Game(seed=int.from_bytes(bytes(self.seed_bytes), "big"), rules=self.rules)
                self._note_racks()
            return
        # The core checks the action (ValueError out of range, IllegalMoveError if illegal)
        # before anything changes. Only the mover's rack changes (placing, drawing, swapping).
        mover = self._game.current_player
        _core.play_action(self._game._state, action)
        self._note_racks((mover,))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        decoded = _core.decode_action(int(action))
        if isinstance(decoded, str):
            return decoded
        slot, (q, r), direction = decoded
        where = f"slot {slot}, cell {q},{r}, direction {direction}"
        # The tile's colours are known only for the seat to move, before the move.
        if player == self.current_player():
            try:
                return f"{action_to_move(self.game, int(action))} ({where})"
            except ValueError:
                pass
        return where

    def is_terminal(self) -> bool:
        return self._game is not None and self._game.is_over

    def returns(self) -> list[float]:
        if self._game is None:
            return [0.0] * self.rules.players
        return list(self._game.returns())

    def __str__(self) -> str:
        if self._game is None:
            return f"{self.rules.to_text()}\ndealing: seed bytes {self.seed_bytes}"
        g = self._game
        lines = [
            g.rules.to_text(),
            f"phase={g.phase} to_move={g.current_player} pending={g.pending_bonuses} bag={g.bag_size}",
            "moves=" + " ".join(f"{p}:{m}" for p, m in zip(g._state.movers, g.moves)),
            "racks=" + " ".join(_rack_text(g, p) for p in range(g.players)),
            "tracks=" + " ".join(".".join(map(str, t)) for t in g.tracks),
        ]
        return "\n".join(lines)

    def resample_from_infostate(self, player: int, sampler: Callable[[], float] | None = None) -> GenialState:
        """A state that ``player`` cannot tell from this one: everything it cannot see (the
        other racks, the bag and so every future draw) dealt anew with
        `genial.Game.determinize`, from a seed drawn from ``sampler`` (a callable giving
        floats in [0, 1), such as ``pyspiel.UniformProbabilitySampler``) or at random."""
        u = sampler() if sampler is not None else random.random()
        seed = int(u * 2.0**53)
        world: GenialState = self.clone()
        if self._game is None:
            # Nothing is dealt: another draw of the bytes so far is all there is to vary.
            world.seed_bytes = list(seed.to_bytes(7, "big")[: len(self.seed_bytes)])
            return world
        seat = self._game._state.check_seat(player)
        world._game = self._game.determinize(seat, seed)
        # The other seats' pasts are no longer known: each remembers only its current rack.
        moves = self.game._state.history_len()
        world.racks_seen = [
            list(seen) if p == seat else [(moves, _rack_text(world.game, p))] for p, seen in enumerate(self.racks_seen)
        ]
        return world

    # ----- the two views ------------------------------------------------------------------

    def information_state_text(self, player: int) -> str:
        """The perfect-recall information state of ``player`` (see the module docstring)."""
        if self._game is None:
            return f"{self.rules.to_text()}\nseat={player}\ndealing"
        g = self._game
        seat = g._state.check_seat(player)
        lines = [g.rules.to_text(), f"seat={seat}"]
        seen = self.racks_seen[seat]
        k = 0
        for i, (mover, move) in enumerate(zip(g._state.movers, g.moves)):
            while k < len(seen) and seen[k][0] <= i:
                lines.append(f"rack={seen[k][1]}")
                k += 1
            lines.append(f"{mover}:{move}")
        lines.extend(f"rack={text}" for _, text in seen[k:])
        lines.append(f"phase={g.phase} to_move={g.current_player if not g.is_over else '-'}")
        return "\n".join(lines)

    def observation_text(self, player: int) -> str:
        """What ``player`` sees now: the board, the tracks, its rack, the counts of the rest."""
        if self._game is None:
            return f"seat={player} dealing"
        seat = self._game._state.check_seat(player)
        return f"seat={seat} {self.public_observation_text()} rack={_rack_text(self._game, seat)}"

    def public_observation_text(self) -> str:
        """What every seat sees now: the board, the tracks, the turn and the counts (rack
        sizes, the bag), and no rack."""
        if self._game is None:
            return "dealing"
        g = self._game
        board = " ".join(f"{q},{r}={c.letter}" for (q, r), c in sorted(g.board.occupied().items()))
        tokens = "" if all(t is None for t in g.duel_tokens) else " tokens=" + ",".join(map(str, g.duel_tokens))
        return (
            f"phase={g.phase} to_move={g.current_player if not g.is_over else '-'} "
            f"pending={g.pending_bonuses} bag={g.bag_size} "
            f"rack_sizes={','.join(str(g._state.rack_size(p)) for p in range(g.players))} "
            f"tracks={'/'.join('.'.join(map(str, t)) for t in g.tracks)}{tokens} "
            f"board={board}"
        )

    def public_history_text(self) -> str:
        """Every seat's perfect recall of the public past: the rule set and every move in
        order (a move shows the tile it placed, which every seat sees), then the phase."""
        if self._game is None:
            return f"{self.rules.to_text()}\ndealing"
        g = self._game
        lines = [g.rules.to_text()]
        lines.extend(f"{mover}:{move}" for mover, move in zip(g._state.movers, g.moves))
        lines.append(f"phase={g.phase} to_move={g.current_player if not g.is_over else '-'}")
        return "\n".join(lines)

    def private_text(self, player: int, perfect_recall: bool) -> str:
        """What only ``player`` knows: its rack now, or (``perfect_recall``) every rack it
        has held, each with the number of moves played when it got it."""
        if self._game is None:
            return f"seat={self._check_seat(player)}"
        seat = self._game._state.check_seat(player)
        if perfect_recall:
            return f"seat={seat} " + " ".join(f"{moves}:{text}" for moves, text in self.racks_seen[seat])
        return f"seat={seat} rack={_rack_text(self._game, seat)}"

    def _check_seat(self, player: int) -> int:
        if not 0 <= player < self.rules.players:
            raise ValueError(f"a seat is 0..{self.rules.players - 1}, not {player}")
        return player


def _rack_text(game: Game, seat: int) -> str:
    return ",".join(str(t) for t in game.rack(seat)) or "-"


#: The blocks of `genial.observation` that only the observing seat knows: its rack, and the
#: tiles it has not seen (the tiles off the board less its own rack). Everything else is public.
PRIVATE_BLOCKS = ("rack", "unseen")


class GenialObserver:
    """OpenSpiel's Python observer, for one ``part`` of a seat's view:

    * ``"seat"`` (public and the seat's private information): ``tensor`` is the seat's
      `genial.observation` vector, ``dict`` its named blocks; the string is the information
      state (``perfect_recall``) or the observation;
    * ``"public"``: the blocks every seat could know (all but `PRIVATE_BLOCKS`), laid out
      from ``player``'s seat as the observation is (row ``k`` is seat ``player + k``); the
      string is the same for every seat: the public position, or with ``perfect_recall``
      every move in order;
    * ``"private"``: the `PRIVATE_BLOCKS`; the string is the seat's rack, or with
      ``perfect_recall`` every rack it has held.

    ``tensor`` is the concatenation of ``dict``'s blocks, in `genial.observation.LAYOUT`'s order."""

    def __init__(self, perfect_recall: bool, part: str = "seat") -> None:
        if part not in ("seat", "public", "private"):
            raise ValueError(f"part must be 'seat', 'public' or 'private', not {part!r}")
        self.perfect_recall = perfect_recall
        self.part = part
        names = [name for name in LAYOUT if part == "seat" or (name in PRIVATE_BLOCKS) == (part == "private")]
        self.tensor = np.zeros(sum(int(np.prod(LAYOUT[n][1])) for n in names), np.float32)
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        start = 0
        for name in names:
            shape = LAYOUT[name][1]
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[start : start + size].reshape(shape)
            start += size
        # Where each kept block lies in a whole observation (the same for every part).
        self._slices = [slice(LAYOUT[n][0], LAYOUT[n][0] + int(np.prod(LAYOUT[n][1]))) for n in names]
        self._whole = self.tensor if part == "seat" else np.zeros(OBS_SIZE, np.float32)

    def set_from(self, state: GenialState, player: int) -> None:
        if not state.dealt:
            state._check_seat(player)
            self.tensor.fill(0.0)  # nothing to see before the deal
            return
        observe(state.game, player, out=self._whole)
        if self.part != "seat":
            start = 0
            for where in self._slices:
                size = where.stop - where.start
                self.tensor[start : start + size] = self._whole[where]
                start += size

    def string_from(self, state: GenialState, player: int) -> str:
        if self.part == "public":
            state._check_seat(player)
            return state.public_history_text() if self.perfect_recall else state.public_observation_text()
        if self.part == "private":
            return state.private_text(player, self.perfect_recall)
        if self.perfect_recall:
            return state.information_state_text(player)
        return state.observation_text(player)


class GenialBot(pyspiel.Bot):  # type: ignore[misc]
    """One of genial's built-in bots (``make(name, seed, **options)``, or a `BuiltinBot`)
    as an OpenSpiel bot, for ``evaluate_bots`` and the like. It sees only what its seat may
    see, and answers with the lowest action of the move it chooses."""

    def __init__(self, bot: str | BuiltinBot, seed: int = 0, **options: Any) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = make(bot, seed=seed, **options) if isinstance(bot, str) else bot

    def step(self, state: GenialState) -> int:
        move = self.bot.choose(state.game)
        return int(_core.move_to_actions(state.game._state, move)[0])

    def restart_at(self, state: GenialState) -> None:
        """Nothing to forget: the bot reads the position afresh at each step."""

    def inform_action(self, state: GenialState, player_id: int, action: int) -> None:
        """Nothing to learn from others' moves beyond the position."""


class DeterminizedMCTSBot(pyspiel.Bot):  # type: ignore[misc]
    """OpenSpiel's MCTS with determinization: for each decision, ``worlds`` resampled
    states (`GenialState.resample_from_infostate`) are each searched with
    ``max_simulations`` ÷ ``worlds`` simulations; the action most visited over all worlds
    is played.

    ``search="python"`` searches with ``open_spiel.python.algorithms.mcts.MCTSBot``
    (``evaluator`` one of that module's, default one random rollout); ``search="cpp"`` with
    OpenSpiel's C++ ``pyspiel.MCTSBot`` (``evaluator`` a ``pyspiel.Evaluator``, default
    ``pyspiel.RandomRolloutEvaluator(1, seed)``), about twice as fast. The C++ bot is called
    only through ``mcts_search``, which holds the GIL: its ``step`` releases the GIL and then
    calls back into the Python game, which crashes the interpreter on every Python game
    (docs/openspiel.md, "OpenSpiel's C++ bots")."""

    def __init__(
        self,
        game: GenialGame,
        *,
        worlds: int = 4,
        max_simulations: int = 200,
        uct_c: float = 2.0,
        evaluator: Any = None,
        seed: int = 0,
        search: str = "python",
    ) -> None:
        pyspiel.Bot.__init__(self)
        if worlds < 1 or max_simulations < worlds:
            raise ValueError("need worlds >= 1 and max_simulations >= worlds")
        if search not in ("python", "cpp"):
            raise ValueError(f"search must be 'python' or 'cpp', not {search!r}")
        self._rng = np.random.RandomState(seed)
        self._worlds = worlds
        self._mcts: Any
        if search == "cpp":
            evaluator = evaluator or pyspiel.RandomRolloutEvaluator(1, seed)
            # (game, evaluator, uct_c, max_simulations, max_memory_mb, solve, seed, verbose)
            self._mcts = pyspiel.MCTSBot(game, evaluator, uct_c, max_simulations // worlds, 1000, False, seed, False)
        else:
            evaluator = evaluator or mcts.RandomRolloutEvaluator(1, self._rng)
            self._mcts = mcts.MCTSBot(
                game, uct_c, max_simulations // worlds, evaluator, solve=False, random_state=self._rng
            )

    def step(self, state: GenialState) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        visits: dict[int, int] = {}
        player = state.current_player()
        for _ in range(self._worlds):
            world = state.resample_from_infostate(player, self._rng.random_sample)
            root = self._mcts.mcts_search(world)
            for child in root.children:
                visits[child.action] = visits.get(child.action, 0) + child.explore_count
        return int(max(visits, key=lambda a: (visits[a], -a)))

    def restart_at(self, state: GenialState) -> None:
        """Each step searches afresh."""

    def inform_action(self, state: GenialState, player_id: int, action: int) -> None:
        """Each step searches afresh."""


class ISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's own ISMCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, the
    same arguments), ready for ``evaluate_bots``: that calls ``restart_at`` and
    ``inform_action``, which OpenSpiel's class leaves unimplemented though its search
    starts afresh at every step. Its worlds come from
    `GenialState.resample_from_infostate`, seeded from the bot's ``random_state`` (OpenSpiel's
    default sampler draws from the operating system, so a seeded search would not repeat)."""

    def resample_from_infostate(self, state: GenialState) -> GenialState:
        if self._resampler_cb:
            world: GenialState = self._resampler_cb(state, state.current_player())
            return world
        return state.resample_from_infostate(state.current_player(), self._random_state.random_sample)

    def restart_at(self, state: GenialState) -> None:
        """Each step searches afresh."""

    def inform_action(self, state: GenialState, player_id: int, action: int) -> None:
        """Each step searches afresh."""


def _register() -> None:
    # Registering twice is refused by OpenSpiel; a reloaded module keeps the first one.
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, GenialGame)


_register()

"""Players: the built-in Rust bots, the protocol any Python bot follows, and a table to
play them at.

A bot is any object with ``choose(view) -> Move`` (or the move's text). At the table
(`play_game`) every bot is handed a `GameView`: what its seat may see and nothing more.
Built-in bots run in Rust with the GIL released and see only what their seat may see.

>>> from genial.bots import play_game, make
>>> game = play_game([make("greedy", seed=1), "random"], seed=3)
>>> game.is_over
True
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from . import _core
from ._core import IllegalMoveError, Move, Rules
from .arguments import type_name
from .forfeit import Forfeit, forfeit_ranks
from .game import Game, check_seed
from .view import GameView, HiddenInformationError

__all__ = [
    "Bot",
    "BuiltinBot",
    "RandomBot",
    "GreedyBot",
    "MctsBot",
    "LEVELS",
    "BotInfo",
    "BotOption",
    "BotOptionError",
    "NotYourTurnError",
    "catalogue",
    "info",
    "names",
    "make",
    "parse_bot",
    "BUILTIN_BOTS",
    "GameView",
    "HiddenInformationError",
    "Forfeit",
    "forfeit_ranks",
    "play_game",
    "SEARCHING_BOTS",
]


@dataclass(frozen=True)
class BotOption:
    """One option of a built-in bot, from the core's catalogue."""

    name: str
    kind: str
    """``"int"``, ``"float"`` or ``"choice"``."""
    default: int | float | str | None
    """``None``: the bot decides (a level's iterations depend on the player count:
    `by_players`)."""
    by_players: tuple[int, ...] | None
    """A searching level's ``iterations``: its budget with 2, 3 and 4 players (solo and duel
    count as 2, the team game as 4), as the core's catalogue writes it; ``None`` elsewhere."""
    min: int | float | None
    max: int | float | None
    min_open: bool
    """The value must be above ``min``, not equal to it."""
    bounds: str
    """The bounds in words, as error messages give them: ``0..=462``, ``auto or never``."""
    choices: tuple[str, ...]
    """A choice's accepted texts (``sampleN`` stands for ``sample1`` ... ``sample64``)."""
    help: str

    @property
    def default_text(self) -> str:
        """The default as `genial bots` shows it: the value, or a level's budget by player
        count (``N2/N3/N4 with 2/3/4 players``)."""
        if self.by_players is not None:
            return "/".join(map(str, self.by_players)) + " with 2/3/4 players"
        return "auto" if self.default is None else str(self.default)


@dataclass(frozen=True)
class BotInfo:
    """A built-in bot as the core's catalogue describes it."""

    name: str
    description: str
    strength: int
    """Rank among the built-in bots by measured strength, 1 the weakest (BENCHMARKS.md)."""
    level: bool
    """One of the named playing levels (`LEVELS`)."""
    searches: bool
    """Searches, taking milliseconds a move rather than microseconds."""
    options: tuple[BotOption, ...]

    def option(self, name: str) -> BotOption:
        """The option called ``name``; `BotOptionError` naming the bot's options otherwise."""
        for o in self.options:
            if o.name == name:
                return o
        raise BotOptionError(
            f"the {self.name} bot takes no option {name}: its options are {', '.join(o.name for o in self.options)}"
        )


def _read_catalogue() -> tuple[BotInfo, ...]:
    out = []
    for e in _core.bot_catalogue():
        options = tuple(
            BotOption(
                **{
                    **o,
                    "choices": tuple(o["choices"]),
                    "by_players": None if o["by_players"] is None else tuple(o["by_players"]),
                }
            )
            for o in e["options"]
        )
        out.append(BotInfo(**{**e, "options": options}))
    return tuple(out)


_CATALOGUE = _read_catalogue()


def catalogue() -> tuple[BotInfo, ...]:
    """Every built-in bot, from the core's catalogue: name, description, strength rank,
    whether it searches, and each option with its type, default, bounds and help.

    >>> expert = next(b for b in catalogue() if b.name == "expert")
    >>> expert.name, expert.searches, expert.option("endgame").bounds
    ('expert', True, '0..=462')
    >>> catalogue()[0].option("swap").choices
    ('auto', 'never')
    """
    return _CATALOGUE


def names() -> tuple[str, ...]:
    """The names of the built-in bots, in catalogue order."""
    return tuple(b.name for b in _CATALOGUE)


def info(name: str) -> BotInfo:
    """The catalogue entry of bot ``name``; `ValueError` for an unknown name."""
    for b in _CATALOGUE:
        if b.name == name:
            return b
    raise ValueError(f"unknown bot {name!r}: built-in bots are {', '.join(names())}")


BUILTIN_BOTS: tuple[str, ...] = names()
"""The built-in bots, from the core's catalogue (see `catalogue`)."""

SEARCHING_BOTS: tuple[str, ...] = tuple(b.name for b in _CATALOGUE if b.searches)
"""The built-in bots that search, taking milliseconds a move rather than microseconds."""

LEVELS: tuple[str, ...] = tuple(b.name for b in sorted(_CATALOGUE, key=lambda b: b.strength) if b.level)
"""Playing levels, weakest first (from the catalogue): ``easy`` samples moves by the fitted
evaluation, ``medium`` plays its best move one ply deep, ``hard`` and ``expert`` search
(ISMCTS guided by the evaluation); ``master`` searches like ``expert`` with the learned
evaluation (`genial.evaluate`) at the leaves, an exhaustive endgame and time management.
Budgets are iteration counts, so a level plays the same
moves for a seed on any machine; ``iterations=`` sets one budget for every table size;
``time_ms=`` replaces the budget by a time (play then depends on machine speed and load)."""


BotOptionError = _core.BotOptionError
"""A bot option that the bot does not take, or a value outside the option's bounds (a
`ValueError`); the message names the option and its bounds."""

NotYourTurnError = _core.NotYourTurnError
"""A built-in bot or `genial.analyse` asked to decide for a seat that is not to move (a
`ValueError`): a view of another seat holds the mover's rack only as a guess."""


@runtime_checkable
class Bot(Protocol):
    """Anything that can sit at the table: picks a legal move for the seat to move, from
    what that seat may see."""

    def choose(self, view: GameView) -> Move | str:
        """A legal move for the seat to move (a `Move` or its text), from its `GameView`."""
        ...


class BuiltinBot:
    """A bot implemented in Rust, by its name in the catalogue (`catalogue`, `BUILTIN_BOTS`)
    with its options as keywords. Chooses with the GIL released."""

    __slots__ = ("_bot",)

    def __init__(self, name: str, seed: int = 0, **options: Any) -> None:
        if not isinstance(name, str):
            raise TypeError(f"a bot name is a str, not {type(name).__name__}")
        # Every option is checked against the core's catalogue (type, bounds, which bot).
        self._bot = _core.BuiltinBot(name, check_seed(seed), **options)

    @property
    def name(self) -> str:
        return self._bot.name

    @property
    def seed(self) -> int:
        return self._bot.seed

    @property
    def options(self) -> dict[str, Any]:
        """The settings (``mcts`` and the levels; ``swap: "never"`` when swaps are declined);
        empty for the other bots."""
        return self._bot.options()

    @property
    def label(self) -> str:
        """Name and the settings that differ from the defaults, for tables: ``greedy``,
        ``mcts``, ``mcts(iterations=100)``."""
        defaults = _default_options(self.name)
        changed = {k: v for k, v in self.options.items() if defaults.get(k) != v}
        if not changed:
            return self.name
        return f"{self.name}(" + ",".join(f"{k}={v}" for k, v in changed.items()) + ")"

    @property
    def spec(self) -> str:
        """The text form `parse_bot` reads back: ``greedy``, ``mcts:iterations=100,...``."""
        opts = self.options
        if not opts:
            return self.name
        return f"{self.name}:" + ",".join(f"{k}={v}" for k, v in opts.items())

    def choose(self, view: Game | GameView) -> Move:
        """The bot's move for the seat to move, thinking with the GIL released. A built-in
        bot never reads hidden tiles, so it may be given the `Game` itself. A `GameView` of
        a seat that is not to move raises `NotYourTurnError`."""
        if isinstance(view, GameView):
            return self._bot.choose(view._game._state, view.seat)
        if isinstance(view, Game):
            return self._bot.choose(view._state)
        raise TypeError(f"a bot chooses for a genial.Game or GameView, not {type(view).__name__}")

    def stop(self) -> None:
        """Ends a search that `choose` runs in another thread: it returns its best move so
        far at once (after at least one iteration). For servers and GUIs that must not wait;
        does nothing while the bot is idle or for the quick bots."""
        self._bot.stop()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.label} seed={self.seed}>"


_DEFAULTS: dict[str, dict[str, Any]] = {}


def _default_options(name: str) -> dict[str, Any]:
    if name not in _DEFAULTS:
        _DEFAULTS[name] = _core.BuiltinBot(name).options()
    return _DEFAULTS[name]


class RandomBot(BuiltinBot):
    """Uniformly random among all legal moves."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__("random", seed)


class GreedyBot(BuiltinBot):
    """One ply: the placement whose resulting scores rank best for the mover (raise the
    lowest colour first); ties broken by bonuses, raw points, then at random."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__("greedy", seed)


class MctsBot(BuiltinBot):
    """Information-set Monte Carlo tree search (single-observer ISMCTS).

    Each iteration deals the tiles this seat cannot see anew, so the search never reads
    hidden information. Budget: ``iterations`` per decision (deterministic for a seed), or
    ``time_ms`` per decision, or both (whichever ends first). ``width``: moves considered per
    node, best first under the greedy evaluation; ``playout``: ``"greedy"``, ``"random"`` or
    ``"sampleN"`` (best of N random moves); ``depth``: placements per playout before the
    position is ranked as it stands (0: to the end); ``exploration``: the UCB1 constant.
    Defaults: 300 iterations, width 6, greedy playouts of depth 10, exploration 0.5 (about
    30 ms of one core per decision in a 2-player game; see BENCHMARKS.md).
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int | None = None,
        time_ms: int | None = None,
        exploration: float | None = None,
        width: int | None = None,
        playout: str | None = None,
        depth: int | None = None,
    ) -> None:
        super().__init__(
            "mcts",
            seed,
            iterations=iterations,
            time_ms=time_ms,
            exploration=exploration,
            width=width,
            playout=playout,
            depth=depth,
        )

    def last_search(self) -> tuple[int, int, int]:
        """``(iterations, nodes, root_children)`` of the last decision's search."""
        info = self._bot.last_search()
        return info if info is not None else (0, 0, 0)


def make(name: str, seed: int = 0, **options: Any) -> BuiltinBot:
    """A built-in bot by name (see `catalogue`), with options as keywords:
    ``make("mcts", seed=1, iterations=200)``, ``make("expert")``, ``make("scarcity", swap="never")``.

    Each bot takes the options its catalogue entry lists (every bot takes ``swap="never"``:
    decline every swap offer). An option a bot does not take, or a value outside the
    option's bounds, raises `BotOptionError` (a `ValueError`) naming the option and its
    bounds; an unknown name raises `ValueError`.

    >>> make("greedy", iterations=5)
    Traceback (most recent call last):
    ...
    genial.BotOptionError: the greedy bot takes no option iterations: its options are swap
    """
    return BuiltinBot(name, seed, **options)


_PYTHON_BOT = re.compile(r"([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*):([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)")


def split_bot_specs(text: str) -> list[str]:
    """``"mcts:iterations=100,width=6,greedy"`` -> ``["mcts:iterations=100,width=6", "greedy"]``:
    a comma starts a new bot unless what follows is another ``key=value`` option. Every
    command reads bot lists this way (``--bots``, ``--seats``)."""
    out: list[str] = []
    for item in (p.strip() for p in text.split(",")):
        if not item:
            continue
        if "=" in item and ":" not in item and out:
            out[-1] += "," + item
        else:
            out.append(item)
    return out


def parse_bot(spec: str, seed: int = 0) -> Any:
    """A bot from its text form: a built-in bot (``"greedy"``,
    ``"mcts:iterations=200,time_ms=50"``, values typed by the catalogue: a `BuiltinBot`),
    an engine subprocess (``"engine:COMMAND"``: a `genial.engine.EngineBot`, started
    on its first decision) or a Python bot (``"package.module:Class"``: the module is
    imported and ``Class()`` made, or called with no arguments if it is a function that
    returns a bot; as with ``python -m``, the current directory is on the path)."""
    if not isinstance(spec, str):
        raise TypeError(f"a bot spec is a str like 'mcts:iterations=100', not {type_name(spec)}")
    name, _, rest = spec.strip().partition(":")
    if name.strip() == "engine":
        from .engine.host import EngineBot

        return EngineBot(rest.strip())
    python = _PYTHON_BOT.fullmatch(spec.strip())
    if python is not None and python.group(1) not in BUILTIN_BOTS:
        return _python_bot(spec.strip(), python.group(1), python.group(2))
    name, options = _core.parse_bot_spec(spec)
    return make(name, seed, **options)


def _python_bot(spec: str, module: str, attribute: str) -> Any:
    """The bot ``module:attribute`` names (`parse_bot`)."""
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # as `python -m` and `python -c` do
    try:
        target: Any = importlib.import_module(module)
    except ImportError as e:
        raise ValueError(f"bot {spec!r}: cannot import {module}: {e}") from None
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise ValueError(f"bot {spec!r}: {module} has no {attribute}") from None
    if not callable(target):
        raise ValueError(f"bot {spec!r}: {attribute} is not a class or function that makes a bot")
    try:
        bot = target()
    except Exception as e:
        raise ValueError(f"bot {spec!r}: {attribute}() failed: {type(e).__name__}: {e}") from None
    if not callable(getattr(bot, "choose", None)):
        raise ValueError(f"bot {spec!r}: {attribute}() made a {type_name(bot)}, which has no choose(view) method")
    return bot


BotLike = Bot | BuiltinBot | str


def play_game(
    bots: Sequence[BotLike],
    players: int | None = None,
    seed: int | None = None,
    variant: str = "standard",
    *,
    swap_timing: str = "after_placement",
    require_contact: bool = False,
    rules: Rules | None = None,
) -> Game:
    """Plays one game to the end and returns it. Seat ``s`` is played by ``bots[s]``: any
    object with ``choose(view) -> Move`` (it gets a `GameView` of its own seat), a built-in
    bot, or a built-in bot's name or text form (seeded from the game's seed as
    `genial.simulate` seeds it, so both play the same game). The rules: ``rules=`` one
    `Rules`, or ``players`` (default: one per bot) and the options, as for `Game`.

    An illegal or ill-typed choice raises `IllegalMoveError` / `TypeError` naming the seat.
    """
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence):
        raise TypeError("bots must be a sequence of bots, one per seat")
    if rules is None:
        players = len(bots) if players is None else players
    game = Game(players, seed, variant=variant, swap_timing=swap_timing, require_contact=require_contact, rules=rules)
    if len(bots) != game.players:
        raise ValueError(f"{game.players} players need {game.players} bots, not {len(bots)}")
    game_seed = game.seed if game.seed is not None else 0
    table: list[Any] = []
    owned: list[Any] = []  # engines started for this game only: stopped at its end
    try:
        for s, b in enumerate(bots):
            if isinstance(b, str):
                bot = parse_bot(b, _core.bot_seed(game_seed, s))
                table.append(bot)
                if not isinstance(bot, BuiltinBot):
                    owned.append(bot)
            elif callable(getattr(b, "choose", None)):
                table.append(b)
            else:
                raise TypeError(f"seat {s}: a bot needs a choose(view) method, and {type(b).__name__} has none")
        while not game.is_over:
            seat = game.current_player
            bot = table[seat]
            try:
                move = bot.choose(GameView(game, seat))
            except Exception as e:
                if isinstance(e, Forfeit):
                    e.seat, e.game = seat, game
                raise
            if not isinstance(move, (Move, str)):
                raise TypeError(f"seat {seat}: {bot!r} chose {move!r}; a bot returns a genial.Move or its text")
            try:
                game.play(move)
            except IllegalMoveError as e:
                raise IllegalMoveError(f"seat {seat}: {bot!r} chose an illegal move {move}: {e}") from None
    finally:
        for bot in owned:
            bot.close()
    return game

"""The genial engine protocol, version 2: the lines a host and an engine exchange.

Every message is one line of ASCII text ending in ``\\n``; words are separated by single
spaces. The full description, with an example exchange, is docs/engine-protocol.md. What
the host says about a game is written from one seat's `GameView` only (`position_lines`),
so it cannot carry another seat's rack or the bag: the view itself holds nothing else.

Version 2 adds one line, ``position notation TEXT [moves MOVE ...]``: a whole position in
the position notation (`genial.position`), for a game the history cannot tell (one set up
from a position rather than played from its start). A host and an engine agree on the
version in the handshake: the host says the highest it speaks, the engine answers the
highest both speak.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import _core
from .._core import Move, Rules, Tile
from ..game import Game
from ..position import PositionError, parse_position, read_position, write_position
from ..view import GameView
from .process import MAX_LINE

__all__ = [
    "VERSION",
    "VERSIONS",
    "ProtocolError",
    "EngineOption",
    "Position",
    "rules_line",
    "parse_rules",
    "position_lines",
    "notation_line",
    "PositionReader",
    "MAX_LINE",
]

VERSION = 2
"""The highest protocol version this genial speaks."""

VERSIONS = (1, 2)
"""Every version this genial speaks: 2 is 1 with the ``position notation`` line."""

# MAX_LINE (`genial.engine.process`): the longest line an engine may write, 65 536 bytes
# without its newline (a whole game's moves take about 3 KB); the host's lines may be longer.

PHASES = ("place", "bonus", "swap_offer")


class ProtocolError(ValueError):
    """A line that does not follow the protocol."""


@dataclass(frozen=True)
class EngineOption:
    """An option an engine announces in its handshake:
    ``option name NAME type int|float|bool|string|choice default V [min A max B] [var V]...``."""

    name: str
    type: str
    default: str
    min: str | None = None
    max: str | None = None
    choices: tuple[str, ...] = ()

    def line(self) -> str:
        out = f"option name {self.name} type {self.type} default {self.default}"
        if self.min is not None:
            out += f" min {self.min}"
        if self.max is not None:
            out += f" max {self.max}"
        for c in self.choices:
            out += f" var {c}"
        return out

    @classmethod
    def parse(cls, line: str) -> EngineOption:
        words = line.split()
        if len(words) < 7 or words[:2] != ["option", "name"] or words[3] != "type" or words[5] != "default":
            raise ProtocolError(f"an option line reads 'option name N type T default V ...', not {line!r}")
        name, kind, default = words[2], words[4], words[6]
        if kind not in ("int", "float", "bool", "string", "choice"):
            raise ProtocolError(f"option {name}: type must be int, float, bool, string or choice, not {kind!r}")
        lo = hi = None
        choices: list[str] = []
        rest = words[7:]
        if len(rest) % 2:
            raise ProtocolError(f"option {name}: 'min', 'max' and 'var' each take one value: {line!r}")
        for key, value in zip(rest[::2], rest[1::2]):
            if key == "min":
                lo = value
            elif key == "max":
                hi = value
            elif key == "var":
                choices.append(value)
            else:
                raise ProtocolError(f"option {name}: unknown field {key!r}")
        opt = cls(name, kind, default, lo, hi, tuple(choices))
        opt.check(default)
        return opt

    def check(self, value: str) -> str:
        """``value`` if it is one this option takes, else `ProtocolError`."""
        if self.type in ("int", "float"):
            conv: Any = int if self.type == "int" else float
            try:
                v = conv(value)
                lo = conv(self.min) if self.min is not None else None
                hi = conv(self.max) if self.max is not None else None
            except ValueError:
                kind = "an int" if conv is int else "a float"
                raise ProtocolError(f"option {self.name} takes {kind}, not {value!r}") from None
            if (lo is not None and v < lo) or (hi is not None and v > hi):
                raise ProtocolError(f"option {self.name} must be {self.min}..{self.max}, not {value}")
        elif self.type == "bool" and value not in ("true", "false"):
            raise ProtocolError(f"option {self.name} is true or false, not {value!r}")
        elif self.type == "choice" and value not in self.choices:
            raise ProtocolError(f"option {self.name} is one of {', '.join(self.choices)}, not {value!r}")
        return value


def rules_line(rules: Rules) -> str:
    """``rules `` and the rule set's one text form (`Rules.to_text`), every key written:
    ``rules version=1 variant=standard players=2 swap_timing=after_placement ...``."""
    return f"rules {rules.to_text()}"


def parse_rules(line: str) -> Rules:
    """The `Rules` of a ``rules ...`` line, read by the core: a missing option takes its
    default, and an unknown one is refused (it could change the game)."""
    words = line.split(maxsplit=1)
    if not words or words[0] != "rules":
        raise ProtocolError(f"not a rules line: {line!r}")
    try:
        return Rules.from_text(words[1] if len(words) > 1 else "")
    except ValueError as e:
        raise ProtocolError(f"bad rules line {line!r}: {e}") from None


def _scores(rows: Iterable[Iterable[int]]) -> str:
    return " ".join(",".join(str(v) for v in row) for row in rows)


def position_lines(view: GameView) -> list[str]:
    """What the host says before each ``go``: the public history (each move with the seat
    that played it), the seat's own rack, every rack's size, the bag's size, the scores as
    the seat sees them, and the decision it faces. Nothing else: no other rack, no bag."""
    movers = view.movers
    moves = " ".join(f"{s}:{m}" for s, m in zip(movers, view.moves))
    return [
        f"moves {moves}".rstrip(),
        "rack " + " ".join(str(t) for t in view.rack()),
        "racks " + " ".join(str(n) for n in view.rack_sizes),
        f"bag {view.bag_size}",
        f"scores {_scores(view.scores)}",
        f"decision {view.phase} {view.pending_bonuses}",
    ]


def notation_line(view: GameView, after: Sequence[Move] = ()) -> str:
    """``position notation TEXT [moves MOVE ...]`` (version 2): the position at the start
    of the view's seat's turn in the position notation, without the seed (it would tell
    the hidden tiles), then the moves the seat has made since in this turn (``after``:
    bonus placements, before a bonus placement or a swap offer). The view's game must be
    at the start of a placement when ``after`` is empty."""
    line = f"position notation {write_position(view._game, seed=False)}"
    return line + "".join(f" {m}" if i else f" moves {m}" for i, m in enumerate(after))


def read_notation(text: str, seed: int) -> tuple[Game, int]:
    """The game a ``position notation`` line's text sets up, the unseen tiles dealt from
    ``seed`` (a seed in the text is replaced), with the moves after ``moves`` played; and
    the seat it is for. `ProtocolError` naming the first bad character of the notation, or
    the move that cannot be played."""
    words = text.split(" ")
    cut = words.index("moves") if "moves" in words else len(words)
    notation, after = " ".join(words[:cut]), words[cut + 1 :]
    try:
        p = parse_position(notation)
        unseeded = notation if p.seed is None else notation[: p.starts[5] - 1]
        game = read_position(f"{unseeded} {seed}")
    except PositionError as e:  # its index counts from the notation's first character
        raise ProtocolError(str(e)) from None
    seat = game.current_player
    for i, word in enumerate(after, start=1):
        try:
            game.play(Move.parse(word))
        except ValueError as e:
            raise ProtocolError(f"position notation: move {i} after the notation ({word[:20]!r}): {e}") from None
        if game.is_over or game.current_player != seat:
            raise ProtocolError(
                f"position notation: move {i} after the notation ({word}) ends the turn: "
                "the moves after a notation are its seat's, in the turn the notation starts"
            )
    if not after and cut < len(words):
        raise ProtocolError("position notation: 'moves' is followed by the moves made since the notation")
    return game, seat


@dataclass
class Position:
    """A decision as an engine hears it (what `position_lines` or `notation_line` wrote)."""

    rules: Rules
    seat: int
    moves: list[tuple[int, Move]] = field(default_factory=list)
    rack: list[Tile] = field(default_factory=list)
    rack_sizes: list[int] = field(default_factory=list)
    bag: int = 0
    scores: list[list[int]] = field(default_factory=list)
    phase: str = "place"
    pending_bonuses: int = 0
    #: The text after ``position notation`` (version 2), which then holds the whole position.
    notation: str | None = None

    def game(self, seed: int = 0) -> Game:
        """A complete game consistent with the position: the tiles the seat cannot see are
        dealt from ``seed`` (`GameState.from_public`, or the notation read with that seed).
        Raises `ProtocolError` when the facts do not fit together."""
        if self.notation is not None:
            return read_notation(self.notation, seed)[0]
        try:
            state = _core.GameState.from_public(
                self.rules,
                [(s, m) for s, m in self.moves],
                self.seat,
                list(self.rack),
                list(self.rack_sizes),
                self.phase,
                self.pending_bonuses,
                seed,
            )
        except (ValueError, OverflowError) as e:
            raise ProtocolError(f"the position does not fit together: {e}") from None
        return Game._wrap(state)


class PositionReader:
    """Collects the host's game lines (``newgame``, ``rules``, ``seat``, ``moves``, ``rack``,
    ...) into a `Position`, for engines written in Python."""

    def __init__(self) -> None:
        self.rules: Rules | None = None
        self.seat: int | None = None
        self.position: Position | None = None

    def feed(self, line: str) -> bool:
        """Takes one line; returns whether it was one of the game lines."""
        word, _, rest = line.strip().partition(" ")
        args = rest.split()
        try:
            if word == "position":
                kind, _, text = rest.partition(" ")
                if kind != "notation":
                    raise ProtocolError(f"position reads 'position notation TEXT', not 'position {kind[:20]}'")
                # Read at once, so that a bad notation is answered now, naming its character;
                # a refused one leaves no position, so that a `go` is not answered from the last.
                self.position = None
                game, seat = read_notation(text, 0)
                self.rules, self.seat = game.rules, seat
                self.position = Position(game.rules, seat, phase=game.phase, notation=text)
                return True
            history = ("moves", "rack", "racks", "bag", "scores", "decision")
            if word in history and self.position is not None and self.position.notation is not None:
                self.position = None  # the lines of a history start afresh
            if word == "rules":
                self.rules = parse_rules(line)
            elif word == "seat":
                self.seat = int(rest)
            elif word == "moves":
                moves = []
                for item in args:
                    s, colon, m = item.partition(":")
                    if not colon:
                        raise ProtocolError(f"a history item is SEAT:MOVE, not {item!r}")
                    moves.append((int(s), Move.parse(m)))
                self._pos().moves = moves
            elif word == "rack":
                self._pos().rack = [Tile.parse(t) for t in args]
            elif word == "racks":
                self._pos().rack_sizes = [int(n) for n in args]
            elif word == "bag":
                self._pos().bag = int(rest)
            elif word == "scores":
                self._pos().scores = [[int(v) for v in row.split(",")] for row in args]
            elif word == "decision":
                phase, bonuses = args
                if phase not in PHASES:
                    raise ProtocolError(f"decision is one of {', '.join(PHASES)}, not {phase!r}")
                self._pos().phase = phase
                self._pos().pending_bonuses = int(bonuses)
            else:
                return False
        except ProtocolError:
            raise
        except ValueError as e:
            raise ProtocolError(f"cannot read {line.strip()!r}: {e}") from None
        return True

    def _pos(self) -> Position:
        if self.rules is None or self.seat is None:
            raise ProtocolError("a position comes after the 'rules' and 'seat' lines")
        if self.position is None or self.position.rules != self.rules or self.position.seat != self.seat:
            self.position = Position(self.rules, self.seat)
        return self.position


def parse_go(args: Sequence[str]) -> tuple[int | None, int | None]:
    """``go movetime MS iterations N`` (both optional) -> ``(movetime, iterations)``."""
    movetime = iterations = None
    if len(args) % 2:
        raise ProtocolError(f"go takes 'movetime MS' and/or 'iterations N', not {' '.join(args)!r}")
    for key, value in zip(args[::2], args[1::2]):
        try:
            n = int(value)
        except ValueError:
            raise ProtocolError(f"go {key} takes a whole number, not {value!r}") from None
        if n < 0:
            raise ProtocolError(f"go {key} must not be negative")
        if key == "movetime":
            movetime = n
        elif key == "iterations":
            iterations = n
        else:
            raise ProtocolError(f"go takes movetime and iterations, not {key!r}")
    return movetime, iterations

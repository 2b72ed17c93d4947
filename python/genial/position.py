"""A whole position in one line of text, as FEN is for chess: the rules, the tiles on the
board, every track, the seat to move and its rack (what a seat knows at its turn; the other
racks and the bag are dealt from a seed, out of the tiles nobody listed).

Grammar (ABNF; ``SP`` is one space, and nothing else separates the fields)::

    position  = rules SP board SP tracks SP seat SP rack [SP seed]
    rules     = variant "/" players *("," option)
    variant   = name                        ; a variant's name: standard, solo, team, duel
    players   = DIGIT                       ; the number of seats
    option    = name "=" value              ; an edition option (genial.Rules.options())
                                            ; not at its default, in the options' order
    name      = 1*(%x61-7A / "_")
    value     = 1*(%x61-7A / DIGIT / "_")   ; as the rule set's text form writes it
    board     = "-" / placement *(";" placement)
    placement = colour cell "+" colour cell ; a placement's text, as Move.parse reads it
    cell      = int "," int                 ; axial q,r
    tracks    = track *("/" track)          ; one per track, in track order
    track     = int 5("." int)              ; the six markers in colour order (R O Y G B P);
                                            ; the duel's one track is signed
    seat      = DIGIT                       ; the seat to place next
    rack      = "-" / tile *("," tile)      ; its tiles in slot order
    tile      = colour colour
    colour    = "R" / "O" / "Y" / "G" / "B" / "P"
    seed      = 1*DIGIT                     ; deals what is not listed (default 0)
    int       = ["-"] num
    num       = 1*DIGIT

Examples::

    standard/2 - 0.0.0.0.0.0/0.0.0.0.0.0 0 RB,GG,YP,OO,BP,RY
    standard/2 R0,-1+R0,0 1.0.0.0.0.0/0.0.0.0.0.0 1 RB,GG
    standard/3,swap_timing=instead_of_placement,require_contact=true R0,-1+R0,0;B1,-1+G1,0 1.2.0.0.0.0/0.0.0.0.0.0/0.0.0.0.0.0 2 RR 7

A position is one where a seat is about to place a tile at the start of its turn (no bonus
placement owed, no swap offered). `write_position` writes a game's position; `read_position`
sets it up with `Game.from_setup` (the core checks every fact: cells, tile counts, markers).
Text that does not follow the grammar is refused with `PositionError`, which names the
index of the first character that does not fit (``error.index``); a position that parses
but cannot be (a cell off the board, a tile used too often) is refused with the index of
the field the core found wrong.

>>> from genial.position import read_position, write_position
>>> game = read_position("standard/2 R0,-1+R0,0 1.0.0.0.0.0/0.0.0.0.0.0 1 RB,GG")
>>> game.current_player, [str(t) for t in game.rack(1)]
(1, ['RB', 'GG'])
>>> write_position(game)
'standard/2 R0,-1+R0,0 1.0.0.0.0.0/0.0.0.0.0.0 1 RB,GG'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ._core import Move
from .game import Game
from .variants import Rules

__all__ = ["PositionError", "read_position", "write_position", "Position"]

_COLOURS = "ROYGBP"


class PositionError(ValueError):
    """Text that is not a position: ``index`` is the first character that does not fit (or
    the start of the field the core refused)."""

    def __init__(self, text: str, index: int, why: str) -> None:
        self.text = text
        self.index = index
        self.why = why
        shown = repr(text[index]) if index < len(text) else "the end"
        super().__init__(f"position: character {index} ({shown}): {why}")


@dataclass(frozen=True)
class Position:
    """A position's fields, as read from its text (see the module's grammar)."""

    variant: str
    players: int
    #: The edition options given, as the rule set's text form writes them (name, value).
    options: tuple[tuple[str, str], ...]
    placements: tuple[str, ...]
    tracks: tuple[tuple[int, ...], ...]
    seat: int
    rack: tuple[str, ...]
    seed: int | None
    #: Where each field starts in the text: rules, board, tracks, seat, rack, seed.
    starts: tuple[int, ...]


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def fail(self, why: str, at: int | None = None) -> PositionError:
        return PositionError(self.text, self.i if at is None else at, why)

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def expect(self, char: str, what: str) -> None:
        if self.peek() != char:
            raise self.fail(f"expected {what}")
        self.i += 1

    def digits(self, what: str, most: int = 9) -> int:
        start = self.i
        while self.peek().isascii() and self.peek().isdigit():
            self.i += 1
        if self.i == start:
            raise self.fail(f"expected {what} (a digit)")
        if self.i - start > most:
            raise self.fail(f"{what} has more than {most} digits", start + most)
        return int(self.text[start : self.i])

    def integer(self, what: str) -> int:
        sign = -1 if self.peek() == "-" else 1
        if sign < 0:
            self.i += 1
        return sign * self.digits(what, 4)

    def colour(self, what: str) -> str:
        c = self.peek()
        if c == "" or c not in _COLOURS:
            raise self.fail(f"expected {what} (one of {', '.join(_COLOURS)})")
        self.i += 1
        return c


# The whole grammar as one expression: a text it matches is read from the match (a scan
# character by character costs twenty times as much); any other text goes to the scanner,
# which finds where it goes wrong. The two must accept the same texts with the same fields
# (tests/test_position.py compares them on valid and broken texts).
_INT = r"-?[0-9]{1,4}"
_CELL = rf"{_INT},{_INT}"
_PLACEMENT = rf"[ROYGBP]{_CELL}\+[ROYGBP]{_CELL}"
_TRACK = rf"{_INT}(?:\.{_INT}){{5}}"
_WHOLE = re.compile(
    r"(?P<variant>[a-z_]+)/(?P<players>[0-9])(?P<options>(?:,[a-z_]+=[a-z0-9_]+)*)"
    rf" (?P<board>-|{_PLACEMENT}(?:;{_PLACEMENT})*)"
    rf" (?P<tracks>{_TRACK}(?:/{_TRACK})*)"
    r" (?P<seat>[0-9])"
    r" (?P<rack>-|[ROYGBP]{2}(?:,[ROYGBP]{2})*)"
    r"(?: (?P<seed>[0-9]{1,20}))?"
)


def parse_position(text: str) -> Position:
    """The fields of a position's text, checked against the grammar only (`PositionError`
    with the index of the first character that does not fit)."""
    if not isinstance(text, str):
        raise TypeError(f"a position is a str, not {type(text).__name__}")
    m = _WHOLE.fullmatch(text)
    if m is not None:
        options = tuple((name, value) for name, _, value in (o.partition("=") for o in m["options"].split(",")[1:]))
        seed = None if m["seed"] is None else int(m["seed"])
        # A name given twice or a seed too large: the scanner says where.
        if len({name for name, _ in options}) == len(options) and (seed is None or seed < 2**64):
            board, rack = m["board"], m["rack"]
            return Position(
                variant=m["variant"],
                players=int(m["players"]),
                options=options,
                placements=() if board == "-" else tuple(board.split(";")),
                tracks=tuple(tuple(int(v) for v in t.split(".")) for t in m["tracks"].split("/")),
                seat=int(m["seat"]),
                rack=() if rack == "-" else tuple(rack.split(",")),
                seed=seed,
                starts=tuple(
                    m.start(g) for g in ("variant", "board", "tracks", "seat", "rack", "seed") if m[g] is not None
                ),
            )
    return _scan_position(text)


def _scan_position(text: str) -> Position:
    """`parse_position` character by character: the fields of a valid text, or where an
    invalid one first goes wrong."""
    s = _Scanner(text)
    starts = [0]
    # rules
    begin = s.i
    while s.peek() and ((s.peek().islower() and s.peek().isascii()) or s.peek() == "_"):
        s.i += 1
    if s.i == begin:
        raise s.fail("expected the variant's name (lower-case letters)")
    variant = text[begin : s.i]
    s.expect("/", "'/' and the number of players after the variant")
    players = s.digits("the number of players", 1)
    options: list[tuple[str, str]] = []
    while s.peek() == ",":
        s.i += 1
        begin = s.i
        while s.peek() and s.peek().isascii() and (s.peek().islower() or s.peek() == "_"):
            s.i += 1
        if s.i == begin:
            raise s.fail("expected an edition option's name (lower-case letters)")
        name = text[begin : s.i]
        s.expect("=", "'=' and the option's value after its name")
        value_at = s.i
        while s.peek() and s.peek().isascii() and (s.peek().islower() or s.peek().isdigit() or s.peek() == "_"):
            s.i += 1
        if s.i == value_at:
            raise s.fail("expected the option's value (lower-case letters, digits, '_')")
        if any(n == name for n, _ in options):
            raise s.fail(f"the option {name} is given twice", begin)
        options.append((name, text[value_at : s.i]))
    s.expect(" ", "one space before the board")
    # board
    starts.append(s.i)
    placements: list[str] = []
    if s.peek() == "-":
        s.i += 1
    else:
        while True:
            begin = s.i
            s.colour("a placement's first colour")
            s.integer("a cell's q")
            s.expect(",", "',' between a cell's q and r")
            s.integer("a cell's r")
            s.expect("+", "'+' between a placement's halves")
            s.colour("a placement's second colour")
            s.integer("a cell's q")
            s.expect(",", "',' between a cell's q and r")
            s.integer("a cell's r")
            placements.append(text[begin : s.i])
            if s.peek() != ";":
                break
            s.i += 1
    s.expect(" ", "one space before the tracks ('-' for an empty board)")
    # tracks
    starts.append(s.i)
    tracks: list[tuple[int, ...]] = []
    while True:
        track = [s.integer("a marker")]
        for _ in range(5):
            s.expect(".", "'.' and the next of a track's six markers")
            track.append(s.integer("a marker"))
        tracks.append(tuple(track))
        if s.peek() != "/":
            break
        s.i += 1
    s.expect(" ", "one space before the seat to move ('/' between tracks)")
    # seat
    starts.append(s.i)
    seat = s.digits("the seat to move", 1)
    s.expect(" ", "one space before the rack")
    # rack
    starts.append(s.i)
    rack: list[str] = []
    if s.peek() == "-":
        s.i += 1
    else:
        while True:
            a = s.colour("a tile's first colour")
            b = s.colour("a tile's second colour")
            rack.append(a + b)
            if s.peek() != ",":
                break
            s.i += 1
    # seed
    seed = None
    if s.peek() == " ":
        s.i += 1
        starts.append(s.i)
        seed = s.digits("the seed", 20)
        if seed >= 2**64:
            raise s.fail("the seed is more than 2**64 - 1", starts[-1])
    if s.i != len(text):
        raise s.fail("expected the end of the position" if seed is not None else "expected ' ' and a seed, or the end")
    return Position(
        variant=variant,
        players=players,
        options=tuple(options),
        placements=tuple(placements),
        tracks=tuple(tracks),
        seat=seat,
        rack=tuple(rack),
        seed=seed,
        starts=tuple(starts),
    )


def read_position(text: str) -> Game:
    """The game a position's text sets up (`Game.from_setup`): `PositionError` for text that
    is not a position, naming the index of the first bad character."""
    p = parse_position(text)
    try:  # read by the core, as any rule set's text: an unknown option is refused
        pairs = [("variant", p.variant), ("players", str(p.players)), *p.options]
        rules = Rules.from_text(" ".join(f"{k}={v}" for k, v in pairs))
    except ValueError as e:
        raise PositionError(text, 0, f"these rules cannot be: {e}") from None
    try:
        game = Game.from_setup(
            [Move.parse(m) for m in p.placements],
            [list(t) for t in p.tracks],
            p.seat,
            list(p.rack),
            rules=rules,
            seed=p.seed or 0,
        )
    except ValueError as e:
        raise PositionError(text, _field_of(str(e), p), f"this position cannot be: {e}") from None
    game._setup = (p.placements, p.seed)
    return game


def _field_of(message: str, p: Position) -> int:
    """Where in the text the field the core refused starts (its message names it)."""
    text = message.lower()
    rules, board, tracks, seat, rack = p.starts[:5]
    for words, start in (
        (("track", "tracks", "marker", "markers"), tracks),
        (("rack", "racks"), rack),
        (("seat", "seats"), seat),
        (("cell", "cells", "tile", "tiles", "placement", "placements", "move", "board"), board),
    ):
        if any(re.search(rf"\b{w}\b", text) for w in words):
            return start
    return rules


def write_position(game: Game, *, seed: bool = True) -> str:
    """The position of ``game``, in the one-line text of the module's grammar. The game
    must be at the start of a placement (not owing a bonus placement or answering a swap
    offer): a game played from its start, or one set up by `read_position` or
    `Game.from_setup` and played on, or a copy of one. The seed a set-up game was dealt
    from is written last unless ``seed=False`` (what the engine protocol sends: the seed
    would tell the hidden tiles)."""
    if game.phase != "place" or game.pending_bonuses:
        raise ValueError(
            f"a position is written where a seat is about to place at the start of its turn, not in phase {game.phase!r}"
        )
    setup = getattr(game, "_setup", None)
    known = list(setup[0]) if setup is not None else []
    placed = known + [str(m) for m in game.moves if m.is_placement]
    rules = game.rules
    # The options not at their default, as the rule set's text writes them.
    text_of = dict(pair.split("=", 1) for pair in rules.to_text().split())
    defaults = dict(pair.split("=", 1) for pair in Rules(rules.variant, rules.players).to_text().split())
    head = f"{rules.variant}/{rules.players}" + "".join(
        f",{o['name']}={text_of[o['name']]}" for o in Rules.options() if text_of[o["name"]] != defaults[o["name"]]
    )
    board = ";".join(placed) or "-"
    tracks = "/".join(".".join(str(v) for v in t) for t in game.tracks)
    seat = game.current_player
    rack = ",".join(str(t) for t in game.rack(seat)) or "-"
    text = f"{head} {board} {tracks} {seat} {rack}"
    dealt = setup[1] if setup is not None and seed else None
    return text if dealt is None else f"{text} {dealt}"

"""Bad input everywhere: each case names the exception class and a fragment of its message,
and the game it was tried on must be exactly as it was.

One table, one test. A case's ``on`` names the game it acts on (built once by `_games`);
set-up and record cases act on nothing but still run against a game so that the same
unchanged-state check covers them.
"""

from __future__ import annotations

import itertools
import json
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import pytest
from genial import Board, Color, Game, IllegalMoveError, Move, RecordError, Tile, VecEnv, _core, simulate, tournament
from genial.actions import action_to_move, cell_index, decode_action, encode_placement
from genial.analysis import analyse
from genial.bots import GreedyBot, RandomBot, parse_bot
from genial.bots import make as make_bot
from genial.distributed import simulate_ray
from genial.records import from_record, to_record
from genial.simulation import shards

# ----- games in the situations the cases need ------------------------------------------------


def _reach(phase: str, bot: type[RandomBot] | type[GreedyBot], **options: Any) -> Game:
    """The first position in `phase` met by `bot` playing games of seeds 0, 1, ..."""
    for seed in range(50):
        game, player = Game(2, seed=seed, **options), bot(seed)
        while not game.is_over:
            if game.phase == phase:
                return game
            game.play(player.choose(game))
    raise AssertionError(f"no {phase!r} reached")


def _free_pair_touching_nothing(game: Game) -> tuple[tuple[int, int], tuple[int, int]]:
    occupied = set(game.board.occupied())

    def touches(c: tuple[int, int]) -> bool:
        q, r = c
        return any((q + dq, r + dr) in occupied for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)))

    return next((a, b) for a, b in game.board.free_pairs() if not touches(a) and not touches(b))


@cache
def _games() -> dict[str, Game]:
    start = Game(2, seed=1)
    after_first = Game(2, seed=1)
    after_first.play(after_first.legal_moves()[0])
    contact = Game(2, seed=5, require_contact=True)
    for _ in range(2):  # both first placements, which must touch a printed symbol anyway
        contact.play(contact.legal_moves()[0])
    over = Game(1, seed=3, variant="solo")
    while not over.is_over:
        over.play(over.legal_moves()[0])
    games = {
        "start": start,
        "after_first": after_first,
        "contact": contact,
        "instead": Game(2, seed=1, swap_timing="instead_of_placement"),
        "team": Game(4, seed=1, variant="team"),
        "swap_offer": _reach("swap_offer", RandomBot),
        "bonus": _reach("bonus", GreedyBot),
        "instead_bonus": _reach("bonus", GreedyBot, swap_timing="instead_of_placement"),
        "over": over,
    }
    assert all(g.phase == "place" for k, g in games.items() if k in ("start", "after_first", "contact", "instead"))
    return games


def _rack_tile_at(game: Game, a: tuple[int, int], b: tuple[int, int]) -> Move:
    ca, cb = game.rack()[0].colors
    return Move.place(a, ca, b, cb)


def _tile_not_in_rack(game: Game) -> Move:
    """A placement on legal cells with a tile the mover does not hold."""
    rack = set(game.rack())
    tile = next(Tile(a, b) for a in Color for b in Color if Tile(a, b) not in rack)
    cells = next(m.cells for m in game.legal_moves() if m.cells is not None)
    return Move.place(cells[0], tile.colors[0], cells[1], tile.colors[1])


def _record(**changes: Any) -> str:
    """A record of six moves, in version 1's form (the rule set's fields at the top level)
    unless ``version=2`` is among the changes; then the changes."""
    game = Game(2, seed=9)
    for _ in range(6):
        game.play(game.legal_moves()[0])
    data = json.loads(game.to_json())
    if changes.get("version") != 2:
        fields = {k: v for k, v in game.rules.to_dict().items() if k != "version"}
        data = {"format": data["format"], "version": 1, **fields, **{k: v for k, v in data.items() if k != "rules"}}
        data["version"] = 1
    for key, value in changes.items():
        if value is _DELETE:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data)


_DELETE = object()


def _finished_record_with_one_more_move() -> str:
    over = _games()["over"]
    data = json.loads(over.to_json())
    data["moves"].append(data["moves"][-1])
    return json.dumps(data)


def _bag(**changes: Any) -> list[Any]:
    bag: list[Any] = [str(t) for t in Game(2, seed=1)._state.initial_bag or []]
    for index, value in changes.items():
        bag[int(index[1:])] = value
    return bag


# ----- the table -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    id: str
    on: str
    action: Callable[[Game], object]
    error: type[BaseException]
    fragment: str


CASES = [
    # Set-up: players.
    Case("players str", "start", lambda g: Game("2"), TypeError, "players must be an int"),  # type: ignore[arg-type]
    Case("players float", "start", lambda g: Game(2.0), TypeError, "players must be an int"),  # type: ignore[arg-type]
    Case("players bool", "start", lambda g: Game(True), TypeError, "players must be an int"),
    Case("players bytes", "start", lambda g: Game(b"2"), TypeError, "players must be an int"),  # type: ignore[arg-type]
    Case("players 0", "start", lambda g: Game(0), ValueError, "players must be 1 to 4, not 0"),
    Case("board players huge", "start", lambda g: Board(2**70), ValueError, "players must be 1 to 4"),
    Case("board players str", "start", lambda g: Board("2"), TypeError, "players must be an int"),  # type: ignore[arg-type]
    Case("board players bool", "start", lambda g: Board(True), TypeError, "players must be an int"),
    Case("players 5", "start", lambda g: Game(5), ValueError, "players must be 1 to 4, not 5"),
    Case("players -1", "start", lambda g: Game(-1), ValueError, "players must be 1 to 4"),
    Case("players 2**70", "start", lambda g: Game(2**70), ValueError, "players must be 1 to 4"),
    # A rule set's dict (the web API's body, a results file): an int past 64 bits is refused
    # for its value, not as "must be an int, not int".
    Case(
        "rules dict players 2**64",
        "start",
        lambda g: _core.Rules.from_dict({"players": 2**64}),
        ValueError,
        'players must be 1 to 4, not "18446744073709551616"',
    ),
    Case("standard solo", "start", lambda g: Game(1), ValueError, "standard variant is played by 2 or 3 or 4"),
    Case("duel for 3", "start", lambda g: Game(3, variant="duel"), ValueError, "duel variant is played by 2"),
    Case("team for 2", "start", lambda g: Game(2, variant="team"), ValueError, "team variant is played by 4"),
    Case("solo for 2", "start", lambda g: Game(2, variant="solo"), ValueError, "solo variant is played by 1"),
    # Set-up: seed.
    Case("seed -1", "start", lambda g: Game(2, -1), ValueError, "seed must be in 0..2**64-1"),
    Case("seed 2**64", "start", lambda g: Game(2, 2**64), ValueError, "seed must be in 0..2**64-1"),
    Case("seed float", "start", lambda g: Game(2, 1.5), TypeError, "seed must be an int, not float"),  # type: ignore[arg-type]
    Case("seed bool", "start", lambda g: Game(2, True), TypeError, "seed must be an int, not bool"),
    Case("seed bytes", "start", lambda g: Game(2, b"1"), TypeError, "seed must be an int, not bytes"),  # type: ignore[arg-type]
    Case("seed str", "start", lambda g: Game(2, "1"), TypeError, "seed must be an int, not str"),  # type: ignore[arg-type]
    # Set-up: variant and edition options.
    Case("variant unknown", "start", lambda g: Game(2, variant="chess"), ValueError, 'unknown variant "chess"'),
    Case("variant empty", "start", lambda g: Game(2, variant=""), ValueError, "unknown variant"),
    Case("variant case", "start", lambda g: Game(2, variant="Standard"), ValueError, "unknown variant"),
    Case("variant None", "start", lambda g: Game(2, variant=None), TypeError, "variant must be a str"),  # type: ignore[arg-type]
    Case("variant bytes", "start", lambda g: Game(2, variant=b"duel"), TypeError, "variant must be a str"),  # type: ignore[arg-type]
    Case("swap_timing unknown", "start", lambda g: Game(2, swap_timing="never"), ValueError, "unknown swap_timing"),
    Case("swap_timing None", "start", lambda g: Game(2, swap_timing=None), TypeError, "swap_timing must be a str"),  # type: ignore[arg-type]
    Case(
        "solo with instead_of_placement",
        "start",
        lambda g: Game(1, variant="solo", swap_timing="instead_of_placement"),
        ValueError,
        "solo variant has no swap",
    ),
    Case(
        "require_contact int",
        "start",
        lambda g: Game(2, require_contact=1),
        TypeError,
        "require_contact must be a bool",
    ),  # type: ignore[arg-type]
    Case("require_contact None", "start", lambda g: Game(2, require_contact=None), TypeError, "must be a bool"),  # type: ignore[arg-type]
    # Set-up: bag.
    Case("bag short", "start", lambda g: Game(2, bag=_bag()[:119]), ValueError, "lists 119"),
    Case("bag empty", "start", lambda g: Game(2, bag=[]), ValueError, "lists 0"),
    Case("bag long", "start", lambda g: Game(2, bag=[*_bag(), "RB"]), ValueError, "lists more"),
    Case("bag endless", "start", lambda g: Game(2, bag=itertools.repeat("RB")), ValueError, "lists more"),
    Case("bag distribution", "start", lambda g: Game(2, bag=_bag(i0="RR", i1="RR")), ValueError, "the game has"),
    Case(
        "bag all one tile", "start", lambda g: Game(2, bag=["RB"] * 120), ValueError, "has 0 RR tile(s), the game has 5"
    ),
    Case("bag item None", "start", lambda g: Game(2, bag=_bag(i7=None)), TypeError, "bag item 7: a tile is"),
    Case("bag item int", "start", lambda g: Game(2, bag=_bag(i0=5)), TypeError, "bag item 0"),
    Case("bag item bytes", "start", lambda g: Game(2, bag=_bag(i0=b"RB")), TypeError, "bag item 0"),
    Case("bag item triple", "start", lambda g: Game(2, bag=_bag(i3=("R", "B", "G"))), TypeError, "bag item 3"),
    Case(
        "bag item text", "start", lambda g: Game(2, bag=_bag(i9="XX")), ValueError, 'bag item 9: cannot read tile "XX"'
    ),
    Case("bag item colour", "start", lambda g: Game(2, bag=_bag(i2=(0, 9))), ValueError, "colour 9 is out of range"),
    Case("bag str", "start", lambda g: Game(2, bag="RB" * 120), TypeError, "not a string"),
    Case("bag bytes", "start", lambda g: Game(2, bag=b"RB" * 120), TypeError, "not a string"),
    Case("bag int", "start", lambda g: Game(2, bag=5), TypeError, "bag must be an iterable of 120 tiles, not int"),  # type: ignore[arg-type]
    # Moves: wrong types.
    Case("move None", "start", lambda g: g.play(None), TypeError, "a move is a genial.Move or its text"),  # type: ignore[arg-type]
    Case("move float", "start", lambda g: g.play(1.5), TypeError, "not float"),  # type: ignore[arg-type]
    Case("move bool", "start", lambda g: g.play(True), TypeError, "not bool"),  # type: ignore[arg-type]
    Case("move bytes", "start", lambda g: g.play(b"swap"), TypeError, "not bytes"),  # type: ignore[arg-type]
    Case("move tuple", "start", lambda g: g.play(("R0,-4", "B1,-4")), TypeError, "not tuple"),  # type: ignore[arg-type]
    Case("check None", "start", lambda g: g.check(None), TypeError, "a move is"),  # type: ignore[arg-type]
    # Moves: text.
    Case("text junk", "start", lambda g: g.play("hello"), IllegalMoveError, "expected two halves"),
    Case("text empty", "start", lambda g: g.play(""), IllegalMoveError, "cannot read move"),
    Case("text one half", "start", lambda g: g.play("R0,-4"), IllegalMoveError, "expected two halves"),
    Case("text colour", "start", lambda g: g.play("X0,-4+B1,-4"), IllegalMoveError, "is not a colour"),
    Case("text same cell", "start", lambda g: g.play("R0,-4+B0,-4"), IllegalMoveError, "same cell"),
    Case("text not a number", "start", lambda g: g.play("R0,a+B1,-4"), IllegalMoveError, "is not an integer"),
    Case("text off board", "start", lambda g: g.play("R9,0+B8,0"), IllegalMoveError, "(9,0) is off the board"),
    # Found by the fuzz driver: i32::MIN wrapped to the centre cell (0,0) in release builds.
    Case("text i32 min", "start", lambda g: g.play("R-2147483648,0+B1,0"), IllegalMoveError, "off the board"),
    Case("text i64", "start", lambda g: g.play("R99999999999,0+B1,0"), IllegalMoveError, "is not an integer"),
    Case("text nul", "start", lambda g: g.play("R0,0\x00+B1,0"), IllegalMoveError, "cannot read move"),
    # Found by the fuzz driver: cutting long text for the message inside a character panicked.
    Case("text long unicode", "start", lambda g: g.play("é" * 40), IllegalMoveError, "too long"),
    Case("text 10 MB", "start", lambda g: g.play("R" * 10_000_000), IllegalMoveError, "too long"),
    # Moves: cells and tiles.
    Case("outside the zone", "start", lambda g: g.play("R6,0+B6,-1"), IllegalMoveError, "outside the playing zone"),
    Case("not adjacent", "start", lambda g: g.play("R0,0+B2,0"), IllegalMoveError, "are not adjacent"),
    Case("printed symbol", "start", lambda g: g.play("R0,-5+B1,-5"), IllegalMoveError, "(0, -5) is not free"),
    Case(
        "occupied by a tile",
        "after_first",
        lambda g: g.play(_rack_tile_at(g, *g.moves[0].cells)),  # type: ignore[misc]
        IllegalMoveError,
        "is not free",
    ),
    Case("tile not in rack", "start", lambda g: g.play(_tile_not_in_rack(g)), IllegalMoveError, "tile in the rack"),
    Case(
        "first tile away from symbols",
        "start",
        lambda g: g.play(_rack_tile_at(g, (0, 0), (1, 0))),
        IllegalMoveError,
        "must touch a printed symbol",
    ),
    Case(
        "no contact",
        "contact",
        lambda g: g.play(_rack_tile_at(g, *_free_pair_touching_nothing(g))),
        IllegalMoveError,
        "must touch a tile or a printed symbol",
    ),
    Case(
        "Move.place not adjacent", "start", lambda g: Move.place((0, 0), 0, (2, 0), 1), IllegalMoveError, "not adjacent"
    ),
    Case("Move.place off board", "start", lambda g: Move.place((9, 0), 0, (8, 0), 1), ValueError, "off the board"),
    Case("Move.place huge cell", "start", lambda g: Move.place((2**70, 0), 0, (1, 0), 1), ValueError, "off the board"),
    Case("Move.place cell None", "start", lambda g: Move.place(None, 0, (1, 0), 1), TypeError, "a cell is a (q, r)"),  # type: ignore[arg-type]
    Case("Move.place cell floats", "start", lambda g: Move.place((0.0, 0), 0, (1, 0), 1), TypeError, "a cell is"),  # type: ignore[arg-type]
    Case("Move.place cell triple", "start", lambda g: Move.place((0, 0, 0), 0, (1, 0), 1), TypeError, "a cell is"),  # type: ignore[arg-type]
    Case("colour 6", "start", lambda g: Move.place((0, 0), 6, (1, 0), 1), ValueError, "colour 6 is out of range"),
    Case("colour -1", "start", lambda g: Move.place((0, 0), -1, (1, 0), 1), ValueError, "out of range"),
    Case("colour bool", "start", lambda g: Move.place((0, 0), True, (1, 0), 1), TypeError, "not a bool"),
    Case("colour float", "start", lambda g: Move.place((0, 0), 1.0, (1, 0), 1), TypeError, "not float"),  # type: ignore[arg-type]
    Case("colour bytes", "start", lambda g: Move.place((0, 0), b"R", (1, 0), 1), TypeError, "not bytes"),  # type: ignore[arg-type]
    Case("colour None", "start", lambda g: Move.place((0, 0), None, (1, 0), 1), TypeError, "not NoneType"),  # type: ignore[arg-type]
    Case("colour name", "start", lambda g: Move.place((0, 0), "teal", (1, 0), 1), ValueError, '"teal" is not a colour'),
    Case("tile colour", "start", lambda g: Tile(0, 9), ValueError, "colour 9 is out of range"),
    Case("tile text", "start", lambda g: Tile.parse("XY"), ValueError, 'cannot read tile "XY"'),
    # Moves: turn flow.
    Case("keep without offer", "start", lambda g: g.play("keep"), IllegalMoveError, "none is pending"),
    Case("swap after_placement", "start", lambda g: g.play("swap"), IllegalMoveError, "offered after your placement"),
    Case("swap with lowest colour", "instead", lambda g: g.play("swap"), IllegalMoveError, "shows one of your lowest"),
    Case("keep instead_of_placement", "instead", lambda g: g.play("keep"), IllegalMoveError, "none is pending"),
    Case(
        "swap in a bonus", "instead_bonus", lambda g: g.play("swap"), IllegalMoveError, "bonus placement must be played"
    ),
    Case("keep in a bonus", "bonus", lambda g: g.play("keep"), IllegalMoveError, "none is pending"),
    Case(
        "place while swap offered",
        "swap_offer",
        lambda g: g.play(_free_placement(g)),
        IllegalMoveError,
        "swap was offered",
    ),
    Case("place after the end", "over", lambda g: g.play("R0,0+B1,0"), IllegalMoveError, "the game is over"),
    Case("keep after the end", "over", lambda g: g.play("keep"), IllegalMoveError, "the game is over"),
    Case("swap after the end", "over", lambda g: g.play("swap"), IllegalMoveError, "the game is over"),
    Case("bot after the end", "over", lambda g: RandomBot(1).choose(g), ValueError, "the game is over"),
    # Seats and other arguments.
    Case("rack 2", "start", lambda g: g.rack(2), ValueError, "player must be 0..1, not 2"),
    Case("rack -1", "start", lambda g: g.rack(-1), ValueError, "player must be 0..1, not -1"),
    Case("rack 2**70", "start", lambda g: g.rack(2**70), ValueError, "player must be 0..1"),
    Case("rack str", "start", lambda g: g.rack("0"), TypeError, "player must be an int, not str"),  # type: ignore[arg-type]
    Case("rack float", "start", lambda g: g.rack(0.0), TypeError, "player must be an int, not float"),  # type: ignore[arg-type]
    Case("rack bool", "start", lambda g: g.rack(False), TypeError, "player must be an int, not bool"),
    Case("determinize seat", "start", lambda g: g.determinize(2, 1), ValueError, "player must be 0..1"),
    Case("determinize seat None", "start", lambda g: g.determinize(None, 1), TypeError, "player must be an int"),  # type: ignore[arg-type]
    Case("determinize seed", "start", lambda g: g.determinize(0, -1), ValueError, "seed must be in 0..2**64-1"),
    Case("determinize seed big", "start", lambda g: g.determinize(0, 2**64), ValueError, "seed must be in"),
    Case("unseen seat", "start", lambda g: g.unseen_tiles(5), ValueError, "player must be 0..1"),
    Case("team_of standard", "start", lambda g: g.team_of(0), ValueError, "only in the team variant"),
    Case("team_of seat", "team", lambda g: g.team_of(4), ValueError, "player must be 0..3, not 4"),
    Case("legal index", "start", lambda g: g.legal_moves()[10**6], IndexError, "out of range"),
    Case("legal index 2**70", "start", lambda g: g.legal_moves()[2**70], IndexError, "out of range"),
    Case("legal index str", "start", lambda g: g.legal_moves()["0"], TypeError, "indexed by int or slice"),  # type: ignore[call-overload]
    Case("legal .index", "start", lambda g: g.legal_moves().index("swap"), ValueError, "not a legal move here"),
    Case("bot seed", "start", lambda g: RandomBot(-1), ValueError, "seed must be in"),
    # Records.
    Case("json truncated", "start", lambda g: Game.from_json(_record()[:300]), RecordError, "not valid JSON"),
    Case("json empty", "start", lambda g: Game.from_json(""), RecordError, "not valid JSON"),
    Case("json array", "start", lambda g: Game.from_json("[]"), RecordError, "a JSON object, not list"),
    Case("json None", "start", lambda g: Game.from_json(None), RecordError, "JSON text, not NoneType"),  # type: ignore[arg-type]
    Case("json bad utf-8", "start", lambda g: Game.from_json(b"\xff\xfe{}"), RecordError, "not UTF-8"),
    Case("json 10 MB", "start", lambda g: Game.from_json('"' + "x" * 10_000_000 + '"'), RecordError, "characters long"),
    Case(
        "json nested", "start", lambda g: Game.from_json("[" * 50_000 + "]" * 50_000), RecordError, "nested too deeply"
    ),
    Case("json NaN", "start", lambda g: Game.from_json('{"format": NaN}'), RecordError, "'format' must be str"),
    Case("record format", "start", lambda g: Game.from_json(_record(format="pgn")), RecordError, "format is 'pgn'"),
    Case(
        "record version",
        "start",
        lambda g: Game.from_json(_record(version=3)),
        RecordError,
        "version 3 is not supported",
    ),
    Case(
        "record rules option unknown",
        "start",
        lambda g: Game.from_json(_record(version=2, rules="variant=standard players=2 no_such_option=false")),
        RecordError,
        "record field 'rules': unknown rule option \"no_such_option\"",
    ),
    Case(
        "record rules newer",
        "start",
        lambda g: Game.from_json(_record(version=2, rules="version=9 players=2")),
        RecordError,
        "rule set version 9",
    ),
    Case(
        "record rules object",
        "start",
        lambda g: Game.from_json(_record(version=2, rules={"players": 2})),
        RecordError,
        "'rules' must be str",
    ),
    Case(
        "record rules players",
        "start",
        lambda g: Game.from_json(_record(version=2, rules="players=3")),
        RecordError,
        "cannot be played",
    ),
    Case("record version str", "start", lambda g: Game.from_json(_record(version="1")), RecordError, "must be int"),
    Case(
        "record no format", "start", lambda g: Game.from_json(_record(format=_DELETE)), RecordError, "no 'format' field"
    ),
    Case("record no players", "start", lambda g: Game.from_json(_record(players=_DELETE)), RecordError, "no 'players'"),
    Case("record no seed", "start", lambda g: Game.from_json(_record(seed=_DELETE)), RecordError, "no 'seed' field"),
    Case("record no bag", "start", lambda g: Game.from_json(_record(bag=_DELETE)), RecordError, "no 'bag' field"),
    Case("record no moves", "start", lambda g: Game.from_json(_record(moves=_DELETE)), RecordError, "no 'moves' field"),
    Case("record players str", "start", lambda g: Game.from_json(_record(players="2")), RecordError, "must be int"),
    Case("record players bool", "start", lambda g: Game.from_json(_record(players=True)), RecordError, "not a bool"),
    Case(
        "record players 7", "start", lambda g: Game.from_json(_record(players=7)), RecordError, "players must be 1 to 4"
    ),
    Case("record players 3", "start", lambda g: Game.from_json(_record(players=3)), RecordError, "cannot be played"),
    Case("record seed float", "start", lambda g: Game.from_json(_record(seed=1.5)), RecordError, "'seed' must be int"),
    Case("record seed -1", "start", lambda g: Game.from_json(_record(seed=-1)), RecordError, "seed must be in"),
    Case("record seed 2**64", "start", lambda g: Game.from_json(_record(seed=2**64)), RecordError, "seed must be in"),
    Case(
        "record variant int",
        "start",
        lambda g: Game.from_json(_record(variant=5)),
        RecordError,
        "'variant' must be str",
    ),
    Case("record variant", "start", lambda g: Game.from_json(_record(variant="go")), RecordError, "unknown variant"),
    Case("record variant mismatch", "start", lambda g: Game.from_json(_record(variant="team")), RecordError, "team"),
    Case(
        "record contact str",
        "start",
        lambda g: Game.from_json(_record(require_contact="no")),
        RecordError,
        "must be bool",
    ),
    Case("record bag str", "start", lambda g: Game.from_json(_record(bag="RB")), RecordError, "'bag' must be list"),
    Case("record bag short", "start", lambda g: Game.from_json(_record(bag=_bag()[:-1])), RecordError, "lists 119"),
    Case("record bag junk", "start", lambda g: Game.from_json(_record(bag=_bag(i4=[1, 2]))), RecordError, "bag item 4"),
    Case("record bag text", "start", lambda g: Game.from_json(_record(bag=_bag(i4="QQ"))), RecordError, "bag item 4"),
    Case(
        "record bag mismatch",
        "start",
        lambda g: Game.from_json(_record(bag=_bag(i0="RR", i1="RR"))),
        RecordError,
        "cannot be set up",
    ),
    Case(
        "record moves dict", "start", lambda g: Game.from_json(_record(moves={})), RecordError, "'moves' must be list"
    ),
    Case("record move int", "start", lambda g: Game.from_json(_record(moves=[5])), RecordError, "move 0 must be text"),
    Case("record move junk", "start", lambda g: Game.from_json(_record(moves=["R0"])), RecordError, "move 0 ('R0')"),
    Case(
        "record illegal move",
        "start",
        lambda g: Game.from_json(_record(moves=["R0,0+B1,0"])),
        RecordError,
        "move 0 ('R0,0+B1,0') cannot be played",
    ),
    Case(
        "record too many moves",
        "start",
        lambda g: Game.from_json(_record(moves=["keep"] * 5000)),
        RecordError,
        "5000 moves",
    ),
    Case(
        "record move after the end",
        "start",
        lambda g: Game.from_json(_finished_record_with_one_more_move()),
        RecordError,
        "the game is over",
    ),
    Case("unpickle tampered", "start", lambda g: pickle.loads(_tampered_pickle()), RecordError, "cannot be played"),
    # ----- Hardening II (issue 10): each case below once slipped through. -----
    # A coordinate of -2**63 became 0 (`i64::MIN.abs()` overflowed).
    Case("cell i64 min", "start", lambda g: Move.place((-(2**63), -4), "R", (1, -4), "B"), ValueError, "off the board"),
    Case(
        "cell i64 min r", "start", lambda g: Move.place((0, -(2**63)), "R", (1, -4), "B"), ValueError, "off the board"
    ),
    Case("board cell i64 min", "start", lambda g: Board()[(-(2**63), -5)], ValueError, "off the board"),
    Case("board set i64 min", "start", lambda g: Board().set((-(2**63), 0), 0), ValueError, "off the board"),
    Case("cell bool", "start", lambda g: Move.place((True, 0), 0, (1, 0), 1), TypeError, "a cell is a (q, r) tuple"),
    Case("board cell bool", "start", lambda g: Board().is_free((0, False)), TypeError, "a cell is"),
    Case("cell numpy bool", "start", lambda g: Move.place((np.True_, 0), 0, (1, 0), 1), TypeError, "a cell is"),
    # Move text names a tile's two neighbouring cells, as Move.place does.
    Case("Move.parse not adjacent", "start", lambda g: Move.parse("R0,0+B2,0"), IllegalMoveError, "are not adjacent"),
    Case("Move.parse far apart", "start", lambda g: Move.parse("R-5,0+B5,0"), IllegalMoveError, "are not adjacent"),
    # Lone surrogates (which ASCII-escaped JSON can carry) raised UnicodeEncodeError.
    Case("text surrogate", "start", lambda g: g.play("\ud800"), IllegalMoveError, "cannot read move"),
    Case("text surrogate inside", "start", lambda g: g.play("R0,-4\udfff+B1,-4"), IllegalMoveError, "cannot read move"),
    Case("check surrogate", "start", lambda g: g.check("\ud800"), IllegalMoveError, "cannot read move"),
    Case("Move.parse surrogate", "start", lambda g: Move.parse("\ud800"), IllegalMoveError, "cannot read move"),
    Case("Tile.parse surrogate", "start", lambda g: Tile.parse("\ud800"), ValueError, "cannot read tile"),
    Case("colour surrogate", "start", lambda g: Move.place((0, 0), "\ud800", (1, 0), 1), ValueError, "is not a colour"),
    Case(
        "bag item surrogate",
        "start",
        lambda g: Game(2, bag=_bag(i5="\ud800")),
        ValueError,
        "bag item 5: cannot read tile",
    ),
    Case("variant surrogate", "start", lambda g: Game(2, variant="\ud800"), ValueError, "unknown variant"),
    Case("swap_timing surrogate", "start", lambda g: Game(2, swap_timing="\ud800"), ValueError, "unknown swap_timing"),
    Case("bot name surrogate", "start", lambda g: make_bot("\ud800"), ValueError, "unknown bot"),
    Case("record move surrogate", "start", lambda g: Game.from_json(_record(moves=["\ud800"])), RecordError, "move 0"),
    Case(
        "record bag surrogate",
        "start",
        lambda g: Game.from_json(_record(bag=_bag(i3="\ud800"))),
        RecordError,
        "bag item 3",
    ),
    Case(
        "record variant surrogate",
        "start",
        lambda g: Game.from_json(_record(variant="\ud800")),
        RecordError,
        "unknown variant",
    ),
    Case(
        "record escaped surrogate",
        "start",
        lambda g: Game.from_json(_escaped_surrogate_record()),
        RecordError,
        "move 0",
    ),
    # Numbers out of range named their limit, not an internal type.
    Case(
        "mcts iterations 2**33",
        "start",
        lambda g: make_bot("mcts", iterations=2**33),
        ValueError,
        "iterations must be 0..=10000000",
    ),
    Case(
        "mcts iterations 2**70",
        "start",
        lambda g: make_bot("mcts", iterations=2**70),
        ValueError,
        "iterations must be 0..=",
    ),
    Case(
        "mcts iterations -1", "start", lambda g: make_bot("mcts", iterations=-1), ValueError, "iterations must be 0..="
    ),
    Case(
        "mcts iterations float",
        "start",
        lambda g: make_bot("mcts", iterations=1.5),
        TypeError,
        "iterations must be an int",
    ),
    Case("mcts iterations bool", "start", lambda g: make_bot("mcts", iterations=True), TypeError, "not bool"),
    Case(
        "mcts time_ms 2**40",
        "start",
        lambda g: make_bot("mcts", time_ms=2**40),
        ValueError,
        "time_ms must be 0..=3600000",
    ),
    Case("mcts width 2**32", "start", lambda g: make_bot("mcts", width=2**32), ValueError, "width must be 1..=64"),
    Case("mcts width 0", "start", lambda g: make_bot("mcts", width=0), ValueError, "width must be 1..=64"),
    Case("mcts depth 2**32", "start", lambda g: make_bot("mcts", depth=2**32), ValueError, "depth must be 0..=10000"),
    Case(
        "mcts exploration 10**400",
        "start",
        lambda g: make_bot("mcts", exploration=10**400),
        ValueError,
        "exploration must be",
    ),
    Case(
        "mcts exploration nan", "start", lambda g: make_bot("mcts", exploration=float("nan")), ValueError, "exploration"
    ),
    Case(
        "mcts exploration str",
        "start",
        lambda g: make_bot("mcts", exploration="1"),
        TypeError,
        "exploration must be a number",
    ),
    Case(
        "parse_bot iterations",
        "start",
        lambda g: parse_bot("mcts:iterations=99999999999"),
        ValueError,
        "iterations must be",
    ),
    Case(
        "decode_action 2**200",
        "start",
        lambda g: decode_action(2**200),
        ValueError,
        "is out of range: actions are 0..6085",
    ),
    Case("decode_action -2**200", "start", lambda g: decode_action(-(2**200)), ValueError, "is out of range"),
    Case("decode_action float", "start", lambda g: decode_action(3.0), TypeError, "an action is an int, not float"),  # type: ignore[arg-type]
    Case("action_to_move float", "start", lambda g: action_to_move(g, 3.0), TypeError, "not float"),  # type: ignore[arg-type]
    Case("action_to_move 2**64", "start", lambda g: action_to_move(g, 2**64), ValueError, "out of range"),
    Case(
        "encode_placement float", "start", lambda g: encode_placement(0.0, (0, 0), 1), TypeError, "slot must be an int"
    ),  # type: ignore[arg-type]
    Case(
        "encode_placement cell float",
        "start",
        lambda g: encode_placement(0, (0.5, 0), 1),
        ValueError,
        "not a board cell",
    ),  # type: ignore[arg-type]
    Case("cell_index bool", "start", lambda g: cell_index((True, 0)), ValueError, "not a board cell"),
    Case("VecEnv.game -1", "start", lambda g: VecEnv(2, seed=1, threads=1).game(-1), ValueError, "out of range"),
    Case("VecEnv.game 2**70", "start", lambda g: VecEnv(2, seed=1, threads=1).game(2**70), ValueError, "out of range"),
    Case("VecEnv.game float", "start", lambda g: VecEnv(2, seed=1, threads=1).game(1.0), TypeError, "must be an int"),  # type: ignore[arg-type]
    # Sizes are checked before any work starts.
    Case("simulate 10**12", "start", lambda g: simulate(10**12), ValueError, "games must be in 0..4294967295"),
    Case("simulate 2**62", "start", lambda g: simulate(2**62), ValueError, "games must be in 0..4294967295"),
    Case(
        "simulate threads 10**9",
        "start",
        lambda g: simulate(1, threads=10**9),
        ValueError,
        "threads must be an int in 1..1024",
    ),
    Case(
        "simulate threads 0", "start", lambda g: simulate(1, threads=0), ValueError, "threads must be an int in 1..1024"
    ),
    Case("simulate players 10**8", "start", lambda g: simulate(1, players=10**8), ValueError, "players must be 1 to 4"),
    Case("simulate players float", "start", lambda g: simulate(1, players=2.0), TypeError, "players must be an int"),  # type: ignore[arg-type]
    Case("simulate bots 10**6", "start", lambda g: simulate(1, bots=["random"] * 10**6), ValueError, "need 2 bots"),
    Case("simulate first_game", "start", lambda g: simulate(10, first_game=2**64 - 5), ValueError, "overflow 2**64"),
    Case(
        "simulate first_game 2**64",
        "start",
        lambda g: simulate(1, first_game=2**64),
        ValueError,
        "first_game must be in 0..18446744073709551615",
    ),
    Case(
        "tournament players 30",
        "start",
        lambda g: tournament(["random", "greedy"], players=30),
        ValueError,
        "players must be 1 to 4",
    ),
    Case(
        "tournament threads 10**9",
        "start",
        lambda g: tournament(["random", "greedy"], threads=10**9),
        ValueError,
        "threads",
    ),
    Case(
        "tournament games 10**12",
        "start",
        lambda g: tournament(["random", "greedy"], games=10**12),
        ValueError,
        "games must be",
    ),
    Case(
        "tournament seatings",
        "start",
        lambda g: tournament(["random"] * 30, players=4, games=1),
        ValueError,
        "30 bots in 4 seats make 657720 seatings a round, more than the limit 100000",
    ),
    Case("tournament bots 300", "start", lambda g: tournament(["random"] * 300), ValueError, "at most 255 bots"),
    Case(
        "tournament variant",
        "start",
        lambda g: tournament(["random", "greedy"], variant="go"),
        ValueError,
        "unknown variant",
    ),
    Case(
        "tournament chunk 0", "start", lambda g: tournament(["random", "greedy"], chunk=0), ValueError, "chunk must be"
    ),
    Case("VecEnv 10**12", "start", lambda g: VecEnv(10**12), ValueError, "num_envs must be in 1..65536"),
    Case("VecEnv threads 10**9", "start", lambda g: VecEnv(2, threads=10**9), ValueError, "threads must be in 1..1024"),
    Case(
        "core VecEnv 10**12",
        "start",
        lambda g: _core.VecEnv(10**12, _core.Rules(), 0, 1),
        ValueError,
        "num_envs must be 1..65536",
    ),
    Case(
        "core simulate threads", "start", lambda g: _core_simulate(threads=10**9), ValueError, "threads must be 1..1024"
    ),
    Case(
        "core simulate games", "start", lambda g: _core_simulate(games=2**62), ValueError, "games must be 0..4294967295"
    ),
    Case("shards parts 0", "start", lambda g: shards(10, 0), ValueError, "parts must be in 1..65536"),
    # The Ray backend checks everything before it imports or starts Ray.
    Case("ray shards 0", "start", lambda g: simulate_ray(10, shards=0), ValueError, "shards must be in 1..65536"),
    Case("ray players 30", "start", lambda g: simulate_ray(10, players=30), ValueError, "players must be 1 to 4"),
    Case("ray bad bot", "start", lambda g: simulate_ray(10, bots="chess"), ValueError, "unknown bot"),
    Case("ray bad variant", "start", lambda g: simulate_ray(10, variant="go"), ValueError, "unknown variant"),
    Case("ray games", "start", lambda g: simulate_ray(10**12), ValueError, "games must be"),
    # Analysis budgets are counts like any other (no OverflowError from the binding).
    Case(
        "analyse budget huge",
        "start",
        lambda g: analyse(g, budget_ms=2**40),
        ValueError,
        "budget_ms must be in 1..3600000",
    ),
    Case(
        "analyse iterations huge",
        "start",
        lambda g: analyse(g, iterations=2**40),
        ValueError,
        "iterations must be in 1..10000000",
    ),
    Case("analyse iterations 0", "start", lambda g: analyse(g, iterations=0), ValueError, "iterations must be in 1.."),
    Case(
        "analyse budget bool",
        "start",
        lambda g: analyse(g, budget_ms=True),
        TypeError,
        "budget_ms must be an int, not bool",
    ),
    Case("analyse level", "start", lambda g: analyse(g, level="greedy"), ValueError, "hard or expert or master"),
]


def _escaped_surrogate_record() -> str:
    """A record whose first move is the JSON escape of a lone surrogate, as ASCII-escaped
    JSON carries it."""
    return _record(moves=["MOVE"]).replace('"MOVE"', '"\\ud800"')


def _core_simulate(games: int = 1, threads: int = 1) -> object:
    bot = _core.BuiltinBot("random")
    return _core.Run(_core.Rules(), [bot], [[0, 0]], 0).play(0, games, threads)


def _free_placement(game: Game) -> Move:
    a, b = game.board.free_pairs()[0]
    return Move.place(a, Color.RED, b, Color.BLUE)


class _Tampered:
    """Pickles as a game whose record holds a move its first player cannot make."""

    def __reduce__(self) -> tuple[Any, ...]:
        record = to_record(Game(2, seed=3))
        record["moves"] = ["R0,0+B1,0"]
        return (from_record, (record,))


def _tampered_pickle() -> bytes:
    return pickle.dumps(_Tampered())


def _snapshot(game: Game) -> tuple[Any, ...]:
    return (
        game._state.clone(),
        game.to_json(),
        game.moves,
        game.scores,
        tuple(game.rack(p) for p in range(game.players)),
    )


def test_case_ids_are_unique() -> None:
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input(case: Case) -> None:
    game = _games()[case.on]
    before = _snapshot(game)
    with pytest.raises(case.error) as info:
        case.action(game)
    # The class itself, not just a parent: a TypeError must not arrive as a ValueError.
    assert isinstance(info.value, case.error)
    assert type(info.value).__name__ != "PanicException"
    assert case.fragment in str(info.value), str(info.value)
    assert _snapshot(game) == before, "the game changed on a refused input"


def test_no_panic_reaches_python_from_any_case() -> None:
    """The guard: a Rust panic surfaces as `pyo3_runtime.PanicException`, a BaseException
    that `except Exception` misses. No case of the table may raise one (the interrupt tests
    check their child processes' output for it too)."""
    panics = []
    for case in CASES:
        try:
            case.action(_games()[case.on])
        except BaseException as e:
            if type(e).__name__ == "PanicException":
                panics.append(f"{case.id}: {e}")
    assert panics == []

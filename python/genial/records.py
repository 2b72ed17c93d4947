"""Game records: a documented, versioned JSON format that replays exactly.

Format ``genial.game`` version 1::

    {
      "format": "genial.game",
      "version": 1,
      "variant": "standard",            # standard | solo | team | duel
      "players": 2,
      "swap_timing": "after_placement", # or "instead_of_placement"
      "require_contact": false,
      "seed": 12345,                    # drives the mixing of swapped tiles into the bag
      "bag": ["YG", "YB", ...],         # the 120 tiles in draw order (deal included)
      "moves": ["Y5,-1+P4,-1", "keep", ...],
      "result": {...},                  # informational: end, scores, ranking (ignored on read)
      "seats": ["human", "greedy"],     # optional, informational: who sat where (written by
                                        # `genial play`, read by `genial play --resume`)
      "review": {"format": "genial.review", "version": 1, ...}
    }                                   # optional: the game's review (`genial.reviews`)

Unknown fields are ignored on read, so tools may add informational fields like ``seats``.
The optional ``review`` section has its own format and version (`genial.reviews.Review.to_dict`);
read it with `genial.reviews.Review.from_dict`, which checks it reviews the record's moves.

Reading replays every move through the rules; any inconsistency raises `RecordError`
naming the field or the move at fault.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ._core import IllegalMoveError

if TYPE_CHECKING:
    from .game import Game
    from .reviews import Review

__all__ = ["FORMAT", "VERSION", "RecordError", "to_record", "from_record", "to_json", "from_json", "read_record"]

FORMAT = "genial.game"
VERSION = 1
#: Largest record accepted, in characters: far above any real game (a game has < 200 moves).
MAX_RECORD_CHARS = 1_000_000
MAX_MOVES = 2_000


class RecordError(ValueError):
    """A game record that is malformed, inconsistent or not replayable."""


def to_record(game: Game, *, review: Review | None = None) -> dict[str, Any]:
    """The record of ``game`` as a JSON-ready dict; with ``review`` (of this game's moves),
    its optional ``review`` section."""
    state = game._state
    bag = state.initial_bag
    if bag is None or game.seed is None:
        raise RecordError("a determinized copy has no faithful record: record the original game")
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "variant": game.variant,
        "players": game.players,
        "swap_timing": game.swap_timing,
        "require_contact": game.require_contact,
        "seed": game.seed,
        "bag": [str(t) for t in bag],
        "moves": [str(m) for m in state.history],
    }
    result: dict[str, Any] = {"over": game.is_over, "scores": [list(s) for s in game.tracks]}
    if game.is_over:
        result["end"] = game.end
        result["ranking"] = game.ranking()
    record["result"] = result
    if review is not None:
        if tuple(str(m) for m in review.moves) != tuple(str(m) for m in state.history):
            raise RecordError("the review is of other moves than the game's")
        record["review"] = review.to_dict()
    return record


def to_json(game: Game, *, indent: int | None = None) -> str:
    return json.dumps(to_record(game), indent=indent)


def _field(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    if name not in data:
        if default is ...:
            raise RecordError(f"record has no {name!r} field")
        return default
    value = data[name]
    if isinstance(value, bool) and kind is not bool:
        raise RecordError(f"record field {name!r} must be {getattr(kind, '__name__', kind)}, not a bool")
    if not isinstance(value, kind):
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise RecordError(f"record field {name!r} must be {expected}, not {type(value).__name__}")
    return value


def from_record(data: Mapping[str, Any]) -> Game:
    """Replays a record dict; raises `RecordError` naming what is wrong."""
    from .game import Game

    if not isinstance(data, Mapping):
        raise RecordError(f"a record is a JSON object, not {type(data).__name__}")
    fmt = _field(data, "format", str)
    if fmt != FORMAT:
        raise RecordError(f"record format is {fmt!r}, expected {FORMAT!r}")
    version = _field(data, "version", int)
    if version != VERSION:
        raise RecordError(f"record version {version} is not supported (this genial reads version {VERSION})")
    players = _field(data, "players", int)
    variant = _field(data, "variant", str, "standard")
    swap_timing = _field(data, "swap_timing", str, "after_placement")
    require_contact = _field(data, "require_contact", bool, False)
    seed = _field(data, "seed", int)
    bag = _field(data, "bag", list)
    moves = _field(data, "moves", list)
    if len(moves) > MAX_MOVES:
        raise RecordError(f"record lists {len(moves)} moves, more than any game can have")
    for i, t in enumerate(bag):
        if not isinstance(t, str):
            raise RecordError(f"bag item {i} must be a tile text like 'RB', not {type(t).__name__}")
    try:
        game = Game(players, seed, bag, variant=variant, swap_timing=swap_timing, require_contact=require_contact)
    except (ValueError, TypeError, OverflowError) as e:  # OverflowError: an int too large for the core
        raise RecordError(f"record cannot be set up: {e}") from None
    for i, m in enumerate(moves):
        if not isinstance(m, str):
            raise RecordError(f"move {i} must be text like 'R0,-4+B1,-4', not {type(m).__name__}")
        try:
            game.play(m)
        except IllegalMoveError as e:
            raise RecordError(f"move {i} ({m!r}) cannot be played: {e}") from None
    return game


def from_json(text: str | bytes) -> Game:
    """Replays a JSON record; raises `RecordError` naming what is wrong."""
    return from_record(_parse(text))


def read_record(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The JSON object of a record file, read no further than the size limit (a huge file
    costs no memory). Raises `RecordError` for content that is not a record's JSON object,
    `OSError` when the file cannot be read. Replay it with `from_record`."""
    with open(path, "rb") as f:
        # UTF-8 takes at most 4 bytes a character: reading one more than the limit's worth
        # is enough to tell an oversized record.
        raw = f.read(4 * MAX_RECORD_CHARS + 1)
    if len(raw) > 4 * MAX_RECORD_CHARS:
        raise RecordError(f"record file is larger than {4 * MAX_RECORD_CHARS} bytes: not a game record")
    data = _parse(raw)
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, not {type(data).__name__}")
    return data


def _parse(text: str | bytes) -> Any:
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RecordError(f"record is not UTF-8: {e}") from None
    if not isinstance(text, str):
        raise RecordError(f"a record is JSON text, not {type(text).__name__}")
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(f"record is {len(text)} characters long, more than the {MAX_RECORD_CHARS} accepted")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"record is not valid JSON: {e}") from None
    except RecursionError:
        # json's decoder recurses once per level of nesting; no record nests beyond three.
        raise RecordError("record is not a game record: its JSON is nested too deeply") from None
    except ValueError as e:  # e.g. an integer with more digits than Python converts
        raise RecordError(f"record has an unreadable value: {e}") from None

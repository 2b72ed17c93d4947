"""The analysis board of `genial serve`: any position, its ranked candidate moves (the
levels' search on the bots' pool), variations played from it, and links that share them.

A position is one of:

- ``{"game": id, "upto": n}``: a game of this server after its first ``n`` moves, once the
  game is over (before, its record and so every rack is nobody's to see);
- ``{"review": id, "upto": n}``: the game of a finished review;
- ``{"record": {...}, "upto": n}``: a record the asker holds;
- ``{"setup": {...}}``: a position set up by hand (`genial.Game.from_setup`): ``players``,
  ``variant``, ``tiles`` (each ``{"cells": [[q, r], [q, r]], "colors": [a, b]}`` or a move's
  text), ``tracks`` (six markers per track), ``seat`` (to move) and ``rack`` (its tiles, as
  colour pairs or text); the other racks are dealt from the unseen tiles;
- ``{"notation": text}``: a position in the position notation (`genial.position`), as the
  board's ``/analysis?position=TEXT`` links give it; a text that is not one is refused with
  the index of its first bad character (``index`` beside ``error``).

The payload holds the notation of the position shown (after the variation), when one can
be written (at the start of a placement): what the notation holds is the board, the tracks,
the seat to move and its rack, the rack the board shows; never another rack.

A variation (``line``) is a list of moves played from the position. The search always
looks from the mover's information set (`genial.analyse`), never at the other racks.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._core import IllegalMoveError, Move, Tile
from ..analysis import analyse
from ..colors import Color
from ..game import Game
from ..position import PositionError, read_position
from ..records import to_record
from ..refusals import refusal_text
from ..translation import tr
from . import study, views
from .errors import ApiError
from .workers import Stopped

if TYPE_CHECKING:
    from .hub import Hub
    from .reviews import Reviews

__all__ = ["MAX_LINE", "MAX_NOTATION", "MAX_SHARED", "SHARES_PER_DAY", "Analyses", "notation_game", "position_key"]

#: The longest variation accepted (a game has fewer moves).
MAX_LINE = 300
#: The longest position notation accepted (a full board's is under 1,500 characters).
MAX_NOTATION = 4_000
_CACHE = 64
#: The largest shared position kept, as stored (its canonical JSON): a whole 4-player record
#: with a long variation fits several times over.
MAX_SHARED = 64_000
#: Positions one client address may share a day, and how many bytes of them.
SHARES_PER_DAY = 200
SHARED_BYTES_PER_DAY = 2_000_000
#: What a shared request and each kind of position may hold; anything else is refused.
_SHARE_FIELDS = {"position", "line"}
_POSITION_FIELDS = {
    "game": {"game", "upto"},
    "review": {"review", "upto"},
    "record": {"record", "upto"},
    "setup": {"setup"},
    "notation": {"notation"},
}
_SETUP_FIELDS = {"players", "variant", "tiles", "tracks", "seat", "rack"}


def position_key(position: dict[str, Any], line: list[str]) -> str:
    """The id of a shared position: the hash of the position and its variation."""
    return hashlib.sha256(json.dumps({"p": position, "l": line}, sort_keys=True).encode()).hexdigest()[:16]


def _upto(body: dict[str, Any], moves: int) -> int:
    upto = body.get("upto", moves)
    if isinstance(upto, bool) or not isinstance(upto, int) or not 0 <= upto <= moves:
        raise ApiError(400, tr("upto must be a move number 0..{moves}").format(moves=moves))
    return upto


def _pair(value: Any, what: str) -> tuple[Any, Any]:
    if not (isinstance(value, list) and len(value) == 2):
        raise ApiError(400, tr("{what} must be a pair").format(what=what))
    return value[0], value[1]


def _color(value: Any, what: str) -> Color:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(Color):
        raise ApiError(400, tr("{what} must be a colour number 0..{len}").format(what=what, len=len(Color) - 1))
    return Color(value)


def _cell(value: Any, what: str) -> tuple[int, int]:
    q, r = _pair(value, what)
    if any(isinstance(x, bool) or not isinstance(x, int) or not -20 <= x <= 20 for x in (q, r)):
        raise ApiError(400, tr("{what} must be [q, r] with small whole numbers").format(what=what))
    return q, r


def _setup_tile(t: Any, i: int) -> Move:
    try:
        if isinstance(t, str):
            return Move.parse(t)
        if isinstance(t, dict):
            a, b = _pair(t.get("cells"), f"tile {i}: cells")
            ca, cb = _pair(t.get("colors"), f"tile {i}: colors")
            return Move.place(
                _cell(a, f"tile {i}: cell"),
                _color(ca, f"tile {i}: colour"),
                _cell(b, f"tile {i}: cell"),
                _color(cb, f"tile {i}: colour"),
            )
    except ValueError as e:
        raise ApiError(400, tr("tile {i}: {why}").format(i=i, why=refusal_text(str(e)))) from None
    raise ApiError(
        400, tr('tile {i} must be {{"cells": [[q, r], [q, r]], "colors": [a, b]}} or a move\'s text').format(i=i)
    )


def _rack_tile(t: Any, i: int) -> Tile:
    try:
        if isinstance(t, str):
            return Tile.parse(t)
        a, b = _pair(t, f"rack tile {i}")
        return Tile(_color(a, f"rack tile {i}"), _color(b, f"rack tile {i}"))
    except ValueError as e:
        raise ApiError(400, tr("rack tile {i}: {why}").format(i=i, why=refusal_text(str(e)))) from None


def _only(value: Any, fields: set[str], what: str) -> None:
    if isinstance(value, dict):
        unknown = sorted(set(value) - fields)
        if unknown:
            raise ApiError(
                400,
                tr("{what} holds only {names}; unknown: {value}").format(
                    what=what, names=", ".join(sorted(fields)), value=", ".join(unknown)[:80]
                ),
            )


def _setup_rack(setup: dict[str, Any]) -> list[Tile]:
    return [_rack_tile(t, i) for i, t in enumerate(setup.get("rack") or [])]


def setup_game(setup: Any) -> tuple[Game, list[Move]]:
    """The game of a position set up by hand, and its tiles (for the drawing)."""
    if not isinstance(setup, dict):
        raise ApiError(400, tr("setup must be an object with players, tiles, tracks, seat and rack"))
    tiles, tracks, rack = setup.get("tiles", []), setup.get("tracks"), setup.get("rack")
    if not isinstance(tiles, list) or len(tiles) > 60:
        raise ApiError(400, tr("tiles must be a list of at most 60 tiles"))
    if not isinstance(tracks, list) or len(tracks) > 4 or not all(isinstance(t, list) for t in tracks):
        raise ApiError(400, tr("tracks must be a list with the six markers of each track"))
    if any(isinstance(v, bool) or not isinstance(v, int) for t in tracks for v in t):
        raise ApiError(400, tr("a marker is a whole number"))
    if not isinstance(rack, list) or len(rack) > 6:
        raise ApiError(400, tr("rack must be a list of at most six tiles"))
    placed = [_setup_tile(t, i) for i, t in enumerate(tiles)]
    held = [_rack_tile(t, i) for i, t in enumerate(rack)]
    players, variant, seat = setup.get("players"), setup.get("variant", "standard"), setup.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise ApiError(400, tr("seat must be the number of the seat to move"))
    try:
        game = Game.from_setup(placed, tracks, seat, held, players=players, variant=variant)
    except (ValueError, TypeError, OverflowError) as e:
        raise ApiError(400, tr("this position cannot be set up: {why}").format(why=refusal_text(str(e)))) from None
    return game, placed


def notation_game(text: Any) -> Game:
    """The game of a position in the notation; `ApiError` 400 naming the first bad
    character (its ``index`` in the answer too)."""
    if not isinstance(text, str) or len(text) > MAX_NOTATION:
        raise ApiError(
            400,
            tr("notation must be a position's text of at most {max_notation} characters").format(
                max_notation=MAX_NOTATION
            ),
        )
    try:
        return read_position(text)
    except PositionError as e:
        raise ApiError(400, tr("not a position: {why}").format(why=refusal_text(str(e))), index=e.index) from None


class Analyses:
    """Analysis requests and shared positions of the server."""

    def __init__(self, hub: Hub, reviews: Reviews, *, level: str = "expert", iterations: int | None = None):
        self.hub = hub
        self.reviews = reviews
        self.level = level
        self.iterations = iterations
        self._cache: dict[str, Any] = {}  # position key -> its search (None: game over)
        self._shares: dict[str, tuple[int, int, int]] = {}  # client -> (day, positions, bytes)

    def _record_game(self, record: Any, body: dict[str, Any]) -> tuple[Game, list[str], list[Move]]:
        """The recorded game after ``upto`` moves, its names, and the moves it went on with."""
        from .tables import posted_record, record_names

        whole, entries = posted_record(record, "loaded")
        upto = _upto(body, len(entries))
        game, _ = posted_record({**record, "moves": record["moves"][:upto]}, "loaded")
        return game, [n[:40] for n in record_names(record, game.players)], list(whole.moves[upto:])

    def position(self, body: Any) -> tuple[Game, list[str], list[Move], list[Move]]:
        """The game of a position (see the module), its seat names, the tiles it was set up
        with (none but a setup's: the others' tiles are in their moves) and the moves its
        game went on with (none for a setup)."""
        if not isinstance(body, dict):
            raise ApiError(
                400,
                tr('a position is an object: {{"game": id, "upto": n}}, {{"record": ...}}, {{"setup": ...}}').format(),
            )
        if "game" in body:
            table = self.hub.table(body["game"])
            if not table.over:  # over by the rules or by a forfeit: the bag is public then
                raise ApiError(
                    409, tr("a game is analysed once it is over: until then its record would show the hidden racks")
                )
            game, _, ahead = self._record_game(to_record(table.game), body)
            return game, [s["name"][:40] for s in table.seats], [], ahead
        if "review" in body:
            if not isinstance(body["review"], str) or len(body["review"]) > 64:
                raise ApiError(400, tr("review must be a review's id"))
            record = self.reviews.record_of(body["review"])
            game, names, ahead = self._record_game(record, body)
            return game, names, [], ahead
        if "record" in body:
            game, names, ahead = self._record_game(body["record"], body)
            return game, names, [], ahead
        if "setup" in body:
            game, tiles = setup_game(body["setup"])
            return game, [tr("Seat {n}").format(n=i + 1) for i in range(game.players)], tiles, []
        if "notation" in body:
            game = notation_game(body["notation"])
            setup = [Move.parse(m) for m in (game._setup[0] if game._setup is not None else ())]
            return game, [tr("Seat {n}").format(n=i + 1) for i in range(game.players)], setup, []
        raise ApiError(400, tr("a position names a game, a review, a record, a setup or a notation"))

    def played(self, body: Any) -> tuple[Game, list[str], list[Move], list[dict[str, Any]], Move | None]:
        """The position of ``body["position"]`` with the variation ``body["line"]`` played,
        and the move its game went on with from there (``None`` once the variation leaves
        the game, at the game's end, or for a setup)."""
        if not isinstance(body, dict):
            raise ApiError(400, tr('ask for {{"position": {{...}}, "line": ["R0,-4+B1,-4", ...]}}').format())
        line = body.get("line", [])
        if not isinstance(line, list) or len(line) > MAX_LINE or not all(isinstance(m, str) for m in line):
            raise ApiError(400, tr("line must be a list of at most {max_line} moves' texts").format(max_line=MAX_LINE))
        game, names, tiles, ahead = self.position(body.get("position"))
        entries = []
        follows = True
        for i, text in enumerate(line):
            seat = game.current_player
            if game.is_over:
                raise ApiError(
                    422, tr("move {i} of the line ({text}): the game is over").format(i=i + 1, text=repr(text[:20]))
                )
            try:
                move = Move.parse(text)
                follows = follows and i < len(ahead) and move == ahead[i]
                result = game.play(move)
            except IllegalMoveError as e:
                raise ApiError(
                    422,
                    tr("move {i} of the line ({text}) is not legal: {why}").format(
                        i=i + 1, text=repr(text[:20]), why=refusal_text(str(e))
                    ),
                ) from None
            except ValueError as e:
                raise ApiError(
                    400,
                    tr("move {i} of the line ({text}): {why}").format(
                        i=i + 1, text=repr(text[:20]), why=refusal_text(str(e))
                    ),
                ) from None
            entries.append(views.entry(i, seat, result))
        went_on = ahead[len(line)] if follows and len(line) < len(ahead) else None
        return game, names, tiles, entries, went_on

    async def analyse(self, body: Any) -> dict[str, Any]:
        """``POST /api/analysis``: the position with its variation, and the ranked candidate
        moves of the seat to move (searched on the bots' pool, once per position)."""
        game, names, tiles, entries, went_on = self.played(body)
        key = position_key(body["position"], body.get("line", []))
        # The search is kept, not the payload: its texts are made in each request's language.
        if key in self._cache:
            return study.analysis(game, names, tiles, entries, self._cache[key], went_on)
        its, level = self.iterations, self.level
        search: Callable[[], Any] | None = None
        if not game.is_over:
            clone = game.clone()

            def search() -> Any:
                return analyse(clone, iterations=its, seed=0, level=level)

        try:
            result = None if search is None else await self.hub.workers.run(f"analysis:{key}", "analysis", search)
        except Stopped:
            raise ApiError(503, tr("the server is shutting down")) from None
        finally:
            self.hub.workers.forget(f"analysis:{key}")
        if len(self._cache) >= _CACHE:
            self._cache.pop(next(iter(self._cache)))
        self._cache[key] = result
        return study.analysis(game, names, tiles, entries, result, went_on)

    def share(self, body: Any, client: str = "") -> dict[str, Any]:
        """``POST /api/positions``: keeps a position and its variation (checked by playing
        it) under an id for a link. What is kept is rebuilt from what was checked (the
        fields of the module's text, a record as the core writes it, a setup's tiles as
        text), never the body as sent; at most `MAX_SHARED` bytes, and per client address
        at most `SHARES_PER_DAY` positions and `SHARED_BYTES_PER_DAY` bytes a day."""
        _only(body, _SHARE_FIELDS, "a shared position")
        game, names, tiles, _, _ = self.played(body)
        data = {"position": self._canonical(body["position"], game, names, tiles), "line": body.get("line", [])}
        size = len(json.dumps(data, separators=(",", ":")))
        if size > MAX_SHARED:
            raise ApiError(
                413,
                tr("this position is {size} bytes as kept; a shared position is at most {max_shared}").format(
                    size=size, max_shared=MAX_SHARED
                ),
            )
        key = position_key(data["position"], data["line"])
        if self.hub.store.get_position(key) is None:
            self._count_share(client, size)
            self.hub.store.put_position(key, data)
        return {"id": key, "path": f"/analysis/{key}"}

    def _canonical(self, position: dict[str, Any], game: Game, names: list[str], tiles: list[Move]) -> dict[str, Any]:
        """A checked position rebuilt from its known fields only."""
        kind = next(k for k in _POSITION_FIELDS if k in position)
        _only(position, _POSITION_FIELDS[kind], f"a {kind} position")
        out: dict[str, Any] = {}
        if kind == "notation":
            return {"notation": position["notation"]}  # read by `played` above
        if kind == "setup":
            setup = position["setup"]
            _only(setup, _SETUP_FIELDS, "a setup")
            out["setup"] = {
                "players": game.players,
                "variant": game.variant,
                "tiles": [str(m) for m in tiles],
                "tracks": [list(t) for t in setup["tracks"]],
                "seat": setup["seat"],
                "rack": [str(t) for t in _setup_rack(setup)],
            }
            return out
        if kind == "record":
            from .tables import posted_record

            whole, _ = posted_record(position["record"], "loaded")
            out["record"] = to_record(whole)
            if "names" in position["record"]:
                out["record"]["names"] = names  # cleaned (`record_names`)
        else:
            out[kind] = position[kind]
        if "upto" in position:
            out["upto"] = position["upto"]
        return out

    def _count_share(self, client: str, size: int) -> None:
        day = int(time.time() // 86_400)
        got_day, count, used = self._shares.get(client, (day, 0, 0))
        if got_day != day:
            count, used = 0, 0
        if count + 1 > SHARES_PER_DAY or used + size > SHARED_BYTES_PER_DAY:
            raise ApiError(
                429,
                tr(
                    "your address has shared {count} positions ({used} bytes) today: at most {shares_per_day} positions and {shared_bytes_per_day} bytes a day"
                ).format(
                    count=count, used=used, shares_per_day=SHARES_PER_DAY, shared_bytes_per_day=SHARED_BYTES_PER_DAY
                ),
            )
        if len(self._shares) > 10_000:
            self._shares = {c: v for c, v in self._shares.items() if v[0] == day}
        self._shares[client] = (day, count + 1, used + size)

    def shared(self, key: str) -> dict[str, Any]:
        if not (isinstance(key, str) and 1 <= len(key) <= 64):
            raise ApiError(404, tr("no such position"))
        found = self.hub.store.get_position(key)
        if found is None:
            raise ApiError(404, tr("no position {key} on this server").format(key=repr(key)))
        return {"id": key, **found}

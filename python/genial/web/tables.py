"""Live games of `genial serve`: seats, secret tokens, actions checked by the engine, bots
thinking in worker threads, and what each seat is shown.

Every rule stays in the core: legal placements come from ``Game.legal_moves()``, the points
a candidate would score from playing it on a clone, the ranking from ``Game.ranks()``. A
seat's view is built from a `GameView` of that seat, so it cannot hold another seat's rack.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from .. import _core
from .._core import IllegalMoveError, Move
from ..bots import BUILTIN_BOTS, BuiltinBot, GameView, catalogue, make
from ..choices import ordered_choices
from ..game import Game
from ..records import RecordError, from_record, to_record
from ..variants import variants
from . import views
from .store import GameRow, Store, hash_token

__all__ = ["ApiError", "Hub", "Table", "bot_catalogue"]

log = logging.getLogger("genial.web")

#: Moves shown in a view's log (the whole game is in the record).
LOG_TAIL = 16
MAX_NAME = 40
MAX_GAMES_LISTED = 200


class ApiError(Exception):
    """An action refused: HTTP status and a message for the player. Nothing was changed."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def bot_catalogue() -> list[dict[str, Any]]:
    """The built-in bots from the core's catalogue, for the lobby: per bot its ``name``,
    ``description``, ``strength`` (1 the weakest), ``level``, ``searches``, ``options`` (the
    settings a bot made with no options reports, by name) and ``option_specs`` (every option
    the bot takes, with ``name``, ``kind``, ``default`` (``None`` where the bot decides),
    ``min``, ``max``, ``min_open``, ``bounds``, ``choices`` and ``help``)."""
    out = []
    for b in catalogue():
        out.append(
            {
                "name": b.name,
                "description": b.description,
                "strength": b.strength,
                "level": b.level,
                "searches": b.searches,
                "options": make(b.name).options,
                "option_specs": [dataclasses.asdict(o) | {"choices": list(o.choices)} for o in b.options],
            }
        )
    return out


# ----- seats --------------------------------------------------------------------------------


def _check_seats(raw: Any, players: int) -> list[dict[str, Any]]:
    if not isinstance(raw, list):
        raise ApiError(400, "seats must be a list with one entry per player")
    if len(raw) != players:
        raise ApiError(400, f"{players} players need {players} seats, not {len(raw)}")
    seats: list[dict[str, Any]] = []
    for i, s in enumerate(raw):
        if not isinstance(s, dict):
            raise ApiError(400, f'seat {i} must be an object like {{"kind": "human"}}')
        kind = s.get("kind")
        name = s.get("name")
        if name is not None and not isinstance(name, str):
            raise ApiError(400, f"seat {i}: name must be text")
        name = (name or "").strip()[:MAX_NAME]
        if kind == "human":
            seats.append({"kind": "human", "name": name or f"Player {i + 1}"})
        elif kind == "bot":
            bot = s.get("bot")
            options = s.get("options") or {}
            if not isinstance(bot, str):
                raise ApiError(400, f"seat {i}: a bot seat names its bot ({', '.join(BUILTIN_BOTS)})")
            if not isinstance(options, dict):
                raise ApiError(400, f"seat {i}: bot options must be an object")
            try:
                label = make(bot, 0, **options).label
            except (ValueError, TypeError) as e:
                raise ApiError(400, f"seat {i}: {e}") from None
            seats.append({"kind": "bot", "bot": bot, "options": options, "name": name or label, "label": label})
        else:
            raise ApiError(400, f'seat {i}: kind must be "human" or "bot", not {kind!r}')
    return seats


def _make_bot(seat_cfg: dict[str, Any], game: Game, seat: int) -> BuiltinBot:
    # A fresh bot per decision, seeded from the game's seed, the seat and the move number:
    # the same position always gets the same move, across restarts and undos.
    seed = _core.derive_seed(_core.bot_seed(game.seed or 0, seat), len(game.moves))
    return make(seat_cfg["bot"], seed, **seat_cfg.get("options", {}))


# ----- a live game ------------------------------------------------------------------------------


def replay_record(record: dict[str, Any]) -> tuple[Game, list[dict[str, Any]], list[dict[str, Any]]]:
    """Replays a record move by move: the game, its move log (who moved, what it scored)
    and the public frames of a replay (tracks after each move)."""
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise RecordError("record field 'moves' must be a list")
    game = from_record({**record, "moves": []})
    entries: list[dict[str, Any]] = []
    frames: list[dict[str, Any]] = [views.frame(game)]
    for i, m in enumerate(moves):
        if not isinstance(m, str):
            raise RecordError(f"move {i} must be text like 'R0,-4+B1,-4', not {type(m).__name__}")
        seat = game.current_player
        try:
            result = game.play(m)
        except IllegalMoveError as e:
            raise RecordError(f"move {i} ({m!r}) cannot be played: {e}") from None
        entries.append(views.entry(i, seat, result))
        frames.append(views.frame(game))
    return game, entries, frames


@dataclass(eq=False)
class Listener:
    """One open live connection: the seat it belongs to (None: a spectator)."""

    seat: int | None
    wake: asyncio.Event = field(default_factory=asyncio.Event)


class Table:
    """A game in memory with its seats, version counter and live listeners."""

    def __init__(self, row: GameRow) -> None:
        self.id = row.id
        self.seats = row.seats
        self.tokens = row.tokens
        self.version = row.version
        self.created = row.created
        self.updated = row.updated
        record = json.loads(row.record)
        self.game, self.log, _ = replay_record(record)
        self.lock = asyncio.Lock()
        self.listeners: set[Listener] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self._options: dict[tuple[int, str], list[dict[str, Any]]] = {}  # (version, tile) -> placements
        self.joined: set[int] = set()  # human seats that have opened the game
        self.hint: tuple[int, dict[str, Any]] | None = None  # (version, the hint)
        self.log_tail = LOG_TAIL

    # ----- who is who ----------------------------------------------------------------

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds; None without a token; 403 for a token of no seat."""
        if token is None or token == "":
            return None
        digest = hash_token(token)
        for seat, h in enumerate(self.tokens):
            if h is not None and secrets.compare_digest(h, digest):
                return seat
        raise ApiError(403, f"this token holds no seat in game {self.id}")

    def others_are_bots(self, seat: int) -> bool:
        return all(s["kind"] == "bot" for i, s in enumerate(self.seats) if i != seat)

    def can_undo(self, seat: int | None) -> bool:
        return seat is not None and self.others_are_bots(seat) and any(e["seat"] == seat for e in self.log)

    def can_download(self, seat: int | None) -> bool:
        """The record holds the bag's order and so every rack: it is public once the game is
        over, and open to a seat whose opponents are all bots."""
        return self.game.is_over or (seat is not None and self.others_are_bots(seat))

    # ----- what a seat sees ------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """Public facts for the lobby (no rack, no token)."""
        return views.summary(self)

    def view(self, seat: int | None) -> dict[str, Any]:
        """The state as ``seat`` may see it (None: a spectator, no rack at all)."""
        if seat is not None:
            self.joined.add(seat)
        return views.state(self, seat)

    def options(self, seat: int | None, tile_text: str | None, slot: str | None = None) -> dict[str, Any]:
        """Where the seat to move may lay one tile of its rack (by ``slot`` or text), with
        the points of each placement, best first."""
        if seat is None:
            raise ApiError(401, "send your seat's token (header X-Seat-Token) to see your placements")
        g = self.game
        if g.is_over:
            raise ApiError(409, "the game is over")
        if g.current_player != seat:
            raise ApiError(403, f"it is seat {g.current_player}'s turn, and your token holds seat {seat}")
        try:
            tile, index = views.tile_of(g, seat, tile=tile_text, slot=slot)
        except ValueError as e:
            raise ApiError(400, f"tile {tile_text or slot!r}: {e}") from None
        cache_key = (self.version, str(tile))
        rows = self._options.get(cache_key)
        if rows is None:
            if len(self._options) > 12:
                self._options.clear()
            rows = self._options[cache_key] = views.placements(g, tile, index)
        return {"version": self.version, "tile": str(tile), "slot": index, "placements": rows}

    def check_turn(self, seat: int | None, what: str) -> None:
        """Refuses (4xx) unless ``seat`` is the seat to move in a game still on."""
        if seat is None:
            raise ApiError(401, f"send your seat's token (header X-Seat-Token) to {what}")
        if self.game.is_over:
            raise ApiError(409, "the game is over")
        if self.game.current_player != seat:
            raise ApiError(403, f"it is seat {self.game.current_player}'s turn, and your token holds seat {seat}")


# ----- all games -------------------------------------------------------------------------------


class Hub:
    """Every game of the server: the store, the tables in memory, the bots' thread pool."""

    def __init__(self, store: Store, *, bot_threads: int = 1, bot_delay: float = 0.0) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}
        self.pool = ThreadPoolExecutor(max_workers=max(1, bot_threads), thread_name_prefix="genial-bot")
        self.bot_delay = bot_delay
        self._closing = False
        self.on_change: Callable[[Table], None] | None = None

    # ----- lifecycle --------------------------------------------------------------------

    def start(self) -> None:
        """Loads the unfinished games and lets their bots move (call inside the event loop)."""
        for game_id in self.store.unfinished_ids():
            try:
                table = self.table(game_id)
            except ApiError as e:
                log.error("game %s cannot be loaded: %s", game_id, e.message)
                continue
            self._kick_bots(table)

    async def close(self) -> None:
        self._closing = True
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None and not t.bot_task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for t in self.tables.values():
            for lis in t.listeners:
                lis.wake.set()
        self.pool.shutdown(wait=True, cancel_futures=True)

    # ----- finding games ----------------------------------------------------------------

    def table(self, game_id: str) -> Table:
        found = self.tables.get(game_id)
        if found is not None:
            return found
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 64:
            raise ApiError(404, "no such game")
        row = self.store.get(game_id)
        if row is None:
            raise ApiError(404, f"no game {game_id!r} on this server")
        try:
            table = Table(row)
        except (RecordError, ValueError) as e:
            raise ApiError(500, f"game {game_id} is stored but cannot be replayed: {e}") from None
        self.tables[game_id] = table
        return table

    def lobby(self) -> list[dict[str, Any]]:
        out = []
        for row in self.store.recent(MAX_GAMES_LISTED):
            live = self.tables.get(row.id)
            out.append(live.summary() if live is not None else row.summary)
        return out

    # ----- creating -----------------------------------------------------------------------

    def create(self, body: Any) -> dict[str, Any]:
        """A new game from the lobby's form, or from a record (``record``) to play on.
        Returns the game id and each human seat's secret token (given only here)."""
        if not isinstance(body, dict):
            raise ApiError(400, "a new game is described by a JSON object")
        record = body.get("record")
        if record is not None:
            if not isinstance(record, dict):
                raise ApiError(400, "record must be a game record object (Game.to_json)")
            try:
                game, entries, _ = replay_record(record)
            except RecordError as e:
                raise ApiError(400, f"record cannot be loaded: {e}") from None
            upto = body.get("upto")
            if upto is not None:
                if isinstance(upto, bool) or not isinstance(upto, int) or not 0 <= upto <= len(entries):
                    raise ApiError(400, f"upto must be a move number 0..{len(entries)}")
                trimmed = {**record, "moves": record["moves"][:upto]}
                game, entries, _ = replay_record(trimmed)
        else:
            variant = body.get("variant", "standard")
            players = body.get("players")
            swap_timing = body.get("swap_timing", "after_placement")
            require_contact = body.get("require_contact", False)
            seed = body.get("seed")
            if isinstance(seed, str):  # seeds travel as text: JavaScript rounds 63-bit numbers
                if not (seed.isascii() and seed.isdigit() and len(seed) <= 20):
                    raise ApiError(400, f"seed must be a whole number 0..2**64-1, not {seed[:24]!r}")
                seed = int(seed)
            if seed is None:
                seed = secrets.randbits(63)
            known = {v.name: v for v in variants()}
            if variant not in known:
                raise ApiError(400, f"unknown variant {variant!r}: use {', '.join(known)}")
            if players is None:
                players = known[variant].player_counts[0]
            try:
                game = Game(players, seed, variant=variant, swap_timing=swap_timing, require_contact=require_contact)
            except (ValueError, TypeError, OverflowError) as e:
                raise ApiError(400, f"cannot set up this game: {e}") from None
            entries = []
        seats = _check_seats(body.get("seats"), game.players)
        game_id = secrets.token_urlsafe(6)
        while self.store.get(game_id) is not None:
            game_id = secrets.token_urlsafe(6)
        tokens: list[str | None] = [secrets.token_urlsafe(18) if s["kind"] == "human" else None for s in seats]
        now = time.time()
        row = GameRow(
            id=game_id,
            created=now,
            updated=now,
            version=len(entries),
            seats=seats,
            tokens=[None if t is None else hash_token(t) for t in tokens],
            record=game.to_json(),
            over=game.is_over,
            summary={},
        )
        table = Table(row)
        row.summary = table.summary()
        self.store.insert(row)
        self.tables[game_id] = table
        self._kick_bots(table)
        return {
            "id": game_id,
            "version": table.version,
            "seats": [
                {"seat": i, "kind": s["kind"], "name": s["name"], "token": tokens[i]} for i, s in enumerate(seats)
            ],
        }

    # ----- acting -------------------------------------------------------------------------

    def _persist(self, table: Table) -> None:
        g = table.game
        table.updated = self.store.update(
            table.id, version=table.version, record=g.to_json(), over=g.is_over, summary=table.summary()
        )
        for lis in table.listeners:
            lis.wake.set()
        if self.on_change is not None:
            self.on_change(table)

    async def act(self, game_id: str, token: str | None, body: Any) -> dict[str, Any]:
        """A human's move. Checks, in order: the game, the token, the request, the
        version, whose turn it is, and (the engine) the move itself."""
        table = self.table(game_id)
        seat = table.seat_of(token)
        if seat is None:
            raise ApiError(401, "send your seat's token (header X-Seat-Token) to act in this game")
        if not isinstance(body, dict):
            raise ApiError(400, 'an action is a JSON object: {"version": n, "move": "..."}')
        version = body.get("version")
        move_text = body.get("move")
        if isinstance(version, bool) or not isinstance(version, int):
            raise ApiError(400, "version must be the game's version number (an int) you are answering")
        if not isinstance(move_text, str):
            raise ApiError(400, 'move must be a move\'s text, e.g. "R0,-4+B1,-4", "swap" or "keep"')
        if "seat" in body and body["seat"] != seat:
            raise ApiError(403, f"your token holds seat {seat}, not seat {body['seat']!r}")
        async with table.lock:
            g = table.game
            if version != table.version:
                raise ApiError(
                    409, f"stale action: you answered version {version}, the game is at version {table.version}"
                )
            if g.is_over:
                raise ApiError(409, "the game is over")
            if g.current_player != seat:
                raise ApiError(403, f"it is seat {g.current_player}'s turn, and your token holds seat {seat}")
            try:
                move = Move.parse(move_text)
                result = g.play(move)
            except IllegalMoveError as e:
                raise ApiError(422, f"illegal move {move_text!r}: {e}") from None
            entry = views.entry(len(table.log), seat, result)
            table.log.append(entry)
            table.version += 1
            self._persist(table)
        self._kick_bots(table)
        return {"ok": True, "version": table.version, "result": entry}

    async def undo(self, game_id: str, token: str | None, body: Any) -> dict[str, Any]:
        """Takes back the seat's last decision and every bot move after it (only when all
        other seats are bots)."""
        table = self.table(game_id)
        seat = table.seat_of(token)
        if seat is None:
            raise ApiError(401, "send your seat's token (header X-Seat-Token) to undo")
        if (
            not isinstance(body, dict)
            or isinstance(body.get("version"), bool)
            or not isinstance(body.get("version"), int)
        ):
            raise ApiError(400, 'undo is a JSON object with the game\'s version: {"version": n}')
        async with table.lock:
            if body["version"] != table.version:
                raise ApiError(
                    409, f"stale undo: you answered version {body['version']}, the game is at version {table.version}"
                )
            if not table.others_are_bots(seat):
                raise ApiError(403, "undo is only allowed when every other seat is a bot")
            if not any(e["seat"] == seat for e in table.log):
                raise ApiError(409, "nothing to undo: you have not moved yet")
            g = table.game
            while table.log:
                g.pop()
                entry = table.log.pop()
                if entry["seat"] == seat:
                    break
            table.version += 1
            self._persist(table)
        self._kick_bots(table)
        return {"ok": True, "version": table.version}

    async def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        """What the expert level would play for the seat to move, from that seat's view: the
        first of `genial.choices.ordered_choices`, as ``genial play``'s ``hint`` (searched in
        the bots' pool, once per version)."""
        table = self.table(game_id)
        seat = table.seat_of(token)
        table.check_turn(seat, "ask for a hint")
        assert seat is not None
        version = table.version
        if table.hint is None or table.hint[0] != version:
            game = table.game.clone()  # the live game may move on while the search runs
            try:
                choice = (await asyncio.get_running_loop().run_in_executor(self.pool, ordered_choices, game))[0]
            except RuntimeError:
                raise ApiError(503, "the server is shutting down") from None
            table.hint = (version, views.hint(game, seat, choice))
        return {"version": version, **table.hint[1]}

    # ----- bots ----------------------------------------------------------------------------

    def _kick_bots(self, table: Table) -> None:
        if self._closing or table.game.is_over:
            return
        if table.seats[table.game.current_player]["kind"] != "bot":
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        table.bot_task = asyncio.get_running_loop().create_task(self._bot_turns(table))

    async def _bot_turns(self, table: Table) -> None:
        loop = asyncio.get_running_loop()
        while not self._closing:
            g = table.game
            if g.is_over:
                return
            seat = g.current_player
            cfg = table.seats[seat]
            if cfg["kind"] != "bot":
                return
            version = table.version
            bot = _make_bot(cfg, g, seat)
            view = GameView(g, seat)
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            try:
                # The built-in bots release the GIL while they think.
                move = await loop.run_in_executor(self.pool, bot.choose, view)
            except RuntimeError:
                return  # the pool is shutting down
            async with table.lock:
                if table.version != version:
                    continue  # the game changed meanwhile (undo): think again
                try:
                    result = g.play(move)
                except IllegalMoveError:
                    log.exception("game %s: bot in seat %d chose an illegal move %s", table.id, seat, move)
                    return
                table.log.append(views.entry(len(table.log), seat, result))
                table.version += 1
                self._persist(table)

    # ----- records ------------------------------------------------------------------------------

    def record(self, game_id: str, token: str | None) -> dict[str, Any]:
        table = self.table(game_id)
        seat = table.seat_of(token)
        if not table.can_download(seat):
            raise ApiError(
                403,
                "the record holds the bag's order and every rack: it can be downloaded once the game is over "
                "(or by a player whose opponents are all bots)",
            )
        record = to_record(table.game)
        record["seats"] = [s.get("label", "human") if s["kind"] == "bot" else "human" for s in table.seats]
        record["names"] = [s["name"] for s in table.seats]
        return record


def replay_frames(record: Any) -> dict[str, Any]:
    """A replay of a record: every move with who played it and what it scored, and the
    tracks after each move (all from the engine). No rack is included."""
    if not isinstance(record, dict):
        raise ApiError(400, "a record is a JSON object (the file genial writes with Game.to_json)")
    try:
        game, entries, _ = replay_record(record)
    except RecordError as e:
        raise ApiError(400, f"record cannot be replayed: {e}") from None
    return views.replay(from_record({**record, "moves": []}), game, entries, record.get("names"))

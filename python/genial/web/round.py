"""The round of `genial serve`: what happens inside a game once it is made. One table's
moves (checked by the core), undo against bots, hints and placements, the bots' and the
operator's engines' turns, and the game clock with its forfeit; each change stored before
any page is told.

The lobby (`lobby`) makes tables and moves people between seats; the round only plays them.
Bots think in the bots' pool (`workers`), engines in threads of their own (`engines`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from .. import _core
from .._core import IllegalMoveError, Move
from ..bots import BuiltinBot, Forfeit, GameView, make
from ..choices import ordered_choices
from ..game import Game
from ..records import to_record
from ..refusals import refusal_text
from ..translation import tr
from . import views
from .engines import EngineSeats
from .errors import ApiError
from .store import Store
from .tables import Table, save_seats
from .workers import BotWorkers, Stopped

__all__ = ["Rounds", "check_turn"]

log = logging.getLogger("genial.web")


def _make_bot(seat_cfg: dict[str, Any], game: Game, seat: int) -> BuiltinBot:
    # A fresh bot per decision, seeded from the game's seed, the seat and the move number:
    # the same position always gets the same move, across restarts and undos.
    seed = _core.derive_seed(_core.bot_seed(game.seed or 0, seat), len(game.moves))
    return make(seat_cfg["bot"], seed, **seat_cfg.get("options", {}))


def check_turn(table: Table, seat: int | None, what: str) -> None:
    """Refuses (4xx) unless ``seat`` is the seat to move in a game still on."""
    if seat is None:
        raise ApiError(401, tr("send your seat's token (header X-Seat-Token) to {what}").format(what=what))
    if table.over:
        raise ApiError(409, tr("the game is over"))
    if table.game.current_player != seat:
        raise _not_your_turn(table.game.current_player, seat)


def _not_your_turn(current: int, seat: int) -> ApiError:
    return ApiError(
        403,
        tr("it is seat {current_player}'s turn, and your token holds seat {seat}").format(
            current_player=current, seat=seat
        ),
    )


def _stale(answered: object, now: int, undo: bool = False) -> ApiError:
    """An action (or undo) that answers a version of the game other than the current one."""
    if undo:
        text = tr("stale undo: you answered version {version}, the game is at version {version2}")
    else:
        text = tr("stale action: you answered version {version}, the game is at version {version2}")
    return ApiError(409, text.format(version=answered, version2=now))


class Rounds:
    """Every table's round: its moves, bots, engines and clock."""

    def __init__(
        self,
        store: Store,
        workers: BotWorkers,
        engines: EngineSeats,
        tables: Callable[[str], Table],
        *,
        bot_delay: float = 0.0,
    ) -> None:
        self.store = store
        self.workers = workers
        self.engines = engines
        self.tables = tables  # a table by its id (the lobby's), 404 for none
        self.bot_delay = bot_delay
        self.stopping = False

    def begin(self, table: Table) -> None:
        """A table made, dealt anew or loaded after a restart: its bot moves if it is to
        move, and its clock runs."""
        self.kick_bots(table)
        self.arm_clock(table)

    def persist(self, table: Table) -> None:
        g = table.game
        table.updated = self.store.update(
            table.id,
            version=table.version,
            record=g.to_json(),
            over=table.over,
            summary=table.summary(),
            forfeit=table.forfeit,
        )
        if table.end_invites():
            save_seats(self.store, table)
        if table.clock_s > 0:
            self.store.update_settings(table.id, table.settings)
            self.arm_clock(table)
        table.notify()

    async def act(self, game_id: str, token: str | None, body: Any) -> dict[str, Any]:
        """A human's move. Checks, in order: the game, the token, the request, the
        version, whose turn it is, and (the engine) the move itself."""
        table = self.tables(game_id)
        seat = table.seat_of(token)
        if seat is None:
            raise ApiError(401, tr("send your seat's token (header X-Seat-Token) to act in this game"))
        if not isinstance(body, dict):
            raise ApiError(400, tr('an action is a JSON object: {{"version": n, "move": "..."}}').format())
        version = body.get("version")
        move_text = body.get("move")
        if isinstance(version, bool) or not isinstance(version, int):
            raise ApiError(400, tr("version must be the game's version number (an int) you are answering"))
        if not isinstance(move_text, str):
            raise ApiError(400, tr('move must be a move\'s text, e.g. "R0,-4+B1,-4", "swap" or "keep"'))
        if "seat" in body and body["seat"] != seat:
            raise ApiError(
                403, tr("your token holds seat {seat}, not seat {seat2}").format(seat=seat, seat2=repr(body["seat"]))
            )
        async with table.lock:
            g = table.game
            if version != table.version:
                raise _stale(version, table.version)
            if table.over:
                raise ApiError(409, tr("the game is over"))
            if g.current_player != seat:
                raise _not_your_turn(g.current_player, seat)
            if table.clock_running() == seat and table.time_left(seat) <= 0:
                raise ApiError(409, tr("your time ran out"))
            try:
                move = Move.parse(move_text)
                g.check(move)
            except IllegalMoveError as e:
                raise ApiError(
                    422,
                    tr("illegal move {move_text}: {why}").format(move_text=repr(move_text), why=refusal_text(str(e))),
                ) from None
            table.charge()
            result = g.play(move)
            entry = views.entry(len(table.log), seat, result)
            table.log.append(entry)
            table.version += 1
            self.persist(table)
        self.kick_bots(table)
        return {"ok": True, "version": table.version, "result": entry}

    async def undo(self, game_id: str, token: str | None, body: Any) -> dict[str, Any]:
        """Takes back the seat's last decision and every bot move after it (only when all
        other seats are bots)."""
        table = self.tables(game_id)
        seat = table.seat_of(token)
        if seat is None:
            raise ApiError(401, tr("send your seat's token (header X-Seat-Token) to undo"))
        if (
            not isinstance(body, dict)
            or isinstance(body.get("version"), bool)
            or not isinstance(body.get("version"), int)
        ):
            raise ApiError(400, tr('undo is a JSON object with the game\'s version: {{"version": n}}').format())
        async with table.lock:
            if body["version"] != table.version:
                raise _stale(body["version"], table.version, undo=True)
            if not table.others_are_bots(seat):
                raise ApiError(403, tr("undo is only allowed when every other seat is a bot"))
            if table.forfeit is not None:
                raise ApiError(409, tr("the game ended by forfeit: it cannot be taken back"))
            if not any(e["seat"] == seat for e in table.log):
                raise ApiError(409, tr("nothing to undo: you have not moved yet"))
            g = table.game
            table.charge()
            while table.log:
                g.pop()
                entry = table.log.pop()
                if entry["seat"] == seat:
                    break
            table.version += 1
            self.persist(table)
        self.kick_bots(table)
        return {"ok": True, "version": table.version}

    async def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        """What the expert level would play for the seat to move, from that seat's view: the
        first of `genial.choices.ordered_choices`, as ``genial play``'s ``hint`` (searched in
        the bots' pool, once per version)."""
        table = self.tables(game_id)
        seat = table.seat_of(token)
        check_turn(table, seat, tr("ask for a hint"))
        if not table.hints:
            raise ApiError(403, tr("this table plays without hints: they were turned off when the game was made"))
        assert seat is not None
        version = table.version
        if table.hint is None or table.hint[0] != version:
            game = table.game.clone()  # the live game may move on while the search runs
            try:
                choice = (await self.workers.run(table.id, "hint", lambda: ordered_choices(game)))[0]
            except Stopped:
                raise ApiError(503, tr("the server is shutting down")) from None
            table.hint = (version, views.hint(game, seat, choice))
        return {"version": version, **table.hint[1]}

    def placements(self, game_id: str, token: str | None, tile_text: str | None, slot: str | None = None) -> bytes:
        """Where the seat to move may lay one tile of its rack (by ``slot`` or text), with
        the points of each placement, best first (`views.placements`), as the JSON text
        sent: encoded once per version and slot, as a page asks again when a tile is
        picked again."""
        table = self.tables(game_id)
        seat = table.seat_of(token)
        if seat is None:
            raise ApiError(401, tr("send your seat's token (header X-Seat-Token) to see your placements"))
        g = table.game
        if table.over:
            raise ApiError(409, tr("the game is over"))
        if g.current_player != seat:
            raise ApiError(
                403,
                tr("it is seat {current_player}'s turn, and your token holds seat {seat}").format(
                    current_player=g.current_player, seat=seat
                ),
            )
        try:
            tile, index = views.tile_of(g, seat, tile=tile_text, slot=slot)
        except ValueError as e:
            raise ApiError(
                400, tr("tile {value}: {why}").format(value=repr(tile_text or slot), why=refusal_text(str(e)))
            ) from None
        cache_key = (table.version, index)
        body = table.placements.get(cache_key)
        if body is None:
            if len(table.placements) > 12:
                table.placements.clear()
            payload = {"version": table.version, **views.placements(g, tile, index)}
            body = table.placements[cache_key] = json.dumps(payload, separators=(",", ":")).encode()
        return body

    # ----- the clock ----------------------------------------------------------------------------

    def arm_clock(self, table: Table) -> None:
        """Wakes up when the running clock would reach zero (`check_clock`)."""
        if table.clock_timer is not None:
            table.clock_timer.cancel()
            table.clock_timer = None
        seat = table.clock_running()
        if seat is None or self.stopping:
            return
        table.clock_timer = asyncio.get_running_loop().call_later(table.time_left(seat) + 0.05, self.check_clock, table)

    def check_clock(self, table: Table) -> None:
        """The person to move whose time has run out forfeits: the game ends there, their side
        ranked last, stored before anyone is told."""
        seat = table.clock_running()
        if seat is None:
            return
        if table.time_left(seat) > 0:
            self.arm_clock(table)
            return
        table.charge()
        name = table.seats[seat]["name"]
        # ``kind`` lets each page say the reason in its language (`endings`); ``reason``
        # is the log's and an old server's English.
        table.forfeit = {"seat": seat, "reason": f"{name} ran out of time", "kind": "time", "move": len(table.log)}
        table.version += 1
        self.persist(table)
        self.workers.forget(table.id)

    # ----- bots and engines ---------------------------------------------------------------------

    def kick_bots(self, table: Table) -> None:
        if self.stopping or table.over:
            return
        if table.seats[table.game.current_player]["kind"] != "bot":
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        table.bot_task = asyncio.get_running_loop().create_task(self._bot_turns(table))

    async def _bot_turns(self, table: Table) -> None:
        while not self.stopping:
            g = table.game
            if table.over:
                self.workers.forget(table.id)
                return
            seat = g.current_player
            cfg = table.seats[seat]
            if cfg["kind"] != "bot":
                return
            version = table.version
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            try:
                capped = False
                if "engine" in cfg:
                    move = await self.engines.move(table, seat, cfg["engine"])
                else:
                    # The built-in bots release the GIL while they think.
                    move, capped = await self.workers.choose_capped(
                        table.id, _make_bot(cfg, g, seat), GameView(g, seat)
                    )
            except Stopped:
                return  # the server is stopping: the bot thinks again after a restart
            except Forfeit as e:
                if self.stopping:
                    return  # stopped by the shutdown, not the engine's fault: it plays again after a restart
                await self._forfeit(table, seat, version, e.public)
                return
            async with table.lock:
                if table.version != version:
                    continue  # the game changed meanwhile (undo): think again
                table.charge()  # a bot has no clock: the next person's time starts now
                try:
                    result = g.play(move)
                except IllegalMoveError:
                    log.exception("game %s: bot in seat %d chose an illegal move %s", table.id, seat, move)
                    return
                entry = views.entry(len(table.log), seat, result)
                if capped:  # the search was stopped at the server's cap: the page says so
                    entry["cut_short"] = True
                table.log.append(entry)
                table.version += 1
                self.persist(table)

    async def _forfeit(self, table: Table, seat: int, version: int, why: str) -> None:
        """Ends the game by ``seat``'s forfeit, stored before anyone is told."""
        async with table.lock:
            if table.over or table.version != version:
                return  # the game changed meanwhile (an undo): its bot plays again
            name = table.seats[seat]["name"]
            reason = f"{name}'s engine {why}"
            table.forfeit = {"seat": seat, "reason": reason, "kind": "engine", "why": why, "move": len(table.log)}
            table.version += 1
            self.persist(table)
        log.warning("game %s: seat %d forfeits: %s", table.id, seat, table.forfeit["reason"])
        self.workers.forget(table.id)

    # ----- records -----------------------------------------------------------------------------

    def record(self, game_id: str, token: str | None) -> dict[str, Any]:
        table = self.tables(game_id)
        seat = table.seat_of(token)
        if not table.can_download(seat):
            raise ApiError(
                403,
                tr(
                    "the record holds the bag's order and every rack: it can be downloaded once the game is over (or by a player whose opponents are all bots)"
                ),
            )
        record = to_record(table.game)
        record["seats"] = [s.get("label", "human") if s["kind"] == "bot" else "human" for s in table.seats]
        record["names"] = [s["name"] for s in table.seats]
        if table.forfeit is not None:
            record["forfeit"] = table.forfeit  # the game ended here, by this seat's forfeit
        if table.commitment is not None:
            record["commitment"] = table.commitment
            record["salt"] = table.salt
        return record

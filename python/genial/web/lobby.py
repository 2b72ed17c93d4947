"""The lobby of `genial serve`: every table, made, found, listed and let go. New games
(from the lobby's form, a record or a rematch), seats claimed, handed on and left (the seat
security is `seats`'), old games pruned, idle ones evicted from memory.

A table keeps its rule set whole (`Table.rules`): a new deal and a rematch are made from it.
Once a table is made or dealt anew the round (`round.Rounds.begin`) takes it on.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from collections.abc import Callable, Collection
from typing import Any

from ..bots import catalogue, make
from ..game import Game
from ..records import RecordError
from ..refusals import refusal_text
from ..translation import tr
from ..variants import Rules
from . import seats
from .commitment import new_salt
from .errors import ApiError
from .seats import BotLimits, check_seats, new_invite, new_token
from .store import GameRow, Store, hash_token
from .tables import (
    DEFAULT_AWAY_S,
    FAIR_SEED_HUMANS,
    Table,
    humans,
    posted_record,
    replay_record,
    save_seats,
)
from .workers import BotWorkers

__all__ = [
    "MAX_AWAY_MINUTES",
    "MAX_CLOCK_MINUTES",
    "MIN_AWAY_MINUTES",
    "Lobby",
    "bot_catalogue",
    "posted_rules",
    "table_settings",
]

log = logging.getLogger("genial.web")

#: The away time is 0 (never) or whole minutes in MIN_AWAY_MINUTES..MAX_AWAY_MINUTES: a
#: creator who could set it to a fraction of a second would take a friend's seat between
#: two of the friend's requests, and read its rack.
MIN_AWAY_MINUTES = 5
MAX_AWAY_MINUTES = 24 * 60
#: The game clock is 0 (none) or whole minutes per person up to MAX_CLOCK_MINUTES: a clock
#: of milliseconds would make the second mover forfeit at once.
MAX_CLOCK_MINUTES = 24 * 60
#: A game nobody has asked for this long (no page open, no bot thinking) leaves memory.
EVICT_IDLE_S = 600.0
MAX_GAMES_LISTED = 200
#: Games waiting for a player (an invite open) that one client address may have at once: the
#: lobby lists them first, so an address could otherwise fill it with junk.
MAX_OPEN_PER_ADDRESS = 10


def joinable(summary: dict[str, Any], settings: dict[str, Any]) -> bool:
    """Whether a game (its lobby summary and the table's settings) waits for a player: not
    over, a person's seat not taken yet, and not a rematch, whose seats wait for their old
    holders (no invite link exists for them)."""
    if summary["over"] or settings.get("rematch_of"):
        return False
    return any(s["kind"] == "human" and not s.get("joined") for s in summary["seats"])


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


def _whole_minutes(value: Any, low: int, high: int) -> int | None:
    """``value`` as whole minutes: 0, or ``low..high``; None for anything else."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    minutes = int(value)
    return minutes if minutes == 0 or low <= minutes <= high else None


def _kept_minutes(seconds: float, low: int, high: int) -> int:
    minutes = round(seconds / 60)
    return 0 if minutes <= 0 else max(low, min(high, minutes))


def table_settings(body: dict[str, Any]) -> dict[str, Any]:
    """The table's choices from a new game's body, checked: how long a player must be away
    before their seat may be handed on, each person's clock (both whole minutes, or 0 for
    never and none), and whether hints and a seat's own review are on before the end."""
    away = _whole_minutes(body.get("away_minutes", DEFAULT_AWAY_S / 60), MIN_AWAY_MINUTES, MAX_AWAY_MINUTES)
    if away is None:
        raise ApiError(
            400,
            tr(
                "away_minutes must be 0 or {min_away_minutes}..{max_away_minutes} whole minutes: how long a player must be away before another may give their seat to someone else (0: never)"
            ).format(min_away_minutes=MIN_AWAY_MINUTES, max_away_minutes=MAX_AWAY_MINUTES),
        )
    clock = _whole_minutes(body.get("clock_minutes", 0), 1, MAX_CLOCK_MINUTES)
    if clock is None:
        raise ApiError(
            400,
            tr(
                "clock_minutes must be 0 or 1..{max_clock_minutes} whole minutes: each person's time for the game (0: no clock)"
            ).format(max_clock_minutes=MAX_CLOCK_MINUTES),
        )
    hints = body.get("hints", True)
    if not isinstance(hints, bool):
        raise ApiError(
            400,
            tr(
                "hints must be true or false: whether players may ask for hints and review their own moves before the end"
            ),
        )
    return {"away_s": float(away) * 60, "hints": hints, "clock_s": float(clock) * 60}


def posted_rules(body: dict[str, Any]) -> Rules:
    """The rule set a new game's body names: ``rules`` (the text form, or `Rules.to_dict`'s
    object), or ``variant``, ``players`` and each edition option (`Rules.options`) as
    fields. The core reads them: a bad value, or ``rules`` beside the loose fields, is a
    400 naming it."""
    loose = ("variant", "players", *(o["name"] for o in Rules.options()))
    given = {k: body[k] for k in loose if k in body and body[k] is not None}
    text = body.get("rules")
    try:
        if text is not None:
            if given:
                raise ValueError(f"give rules or {', '.join(given)}, not both")
            return Rules.from_text(text) if isinstance(text, str) else Rules.from_dict(text)
        return Rules.from_dict(given)
    except ValueError as e:
        raise ApiError(400, tr("cannot set up this game: {why}").format(why=refusal_text(str(e)))) from None


def game_from_record(
    body: dict[str, Any], limits: BotLimits, engines: Collection[str]
) -> tuple[Game, list[dict[str, Any]], list[dict[str, Any]]]:
    """A game to play on from a posted record (up to move ``upto``), its entries and its
    checked seats; refused between two or more people, who would all know the bag."""
    record = body["record"]
    game, entries = posted_record(record, "loaded")
    upto = body.get("upto")
    if upto is not None:
        if isinstance(upto, bool) or not isinstance(upto, int) or not 0 <= upto <= len(entries):
            raise ApiError(400, tr("upto must be a move number 0..{entries}").format(entries=len(entries)))
        trimmed = {**record, "moves": record["moves"][:upto]}
        game, entries, _ = replay_record(trimmed)
    seats = check_seats(body.get("seats"), game.players, limits, engines)
    if humans(seats) >= FAIR_SEED_HUMANS and not game.is_over:
        raise ApiError(
            400,
            tr(
                "a game between two or more people cannot start from a record: whoever has the file knows the bag. Start a new game (the server draws its seed)"
            ),
        )
    return game, entries, seats


def new_game(body: dict[str, Any], limits: BotLimits, engines: Collection[str]) -> tuple[Game, list[dict[str, Any]]]:
    """A new game of the posted rules and its checked seats; between two or more people
    the seed comes from the operating system's secure source, never from the client."""
    rules = posted_rules(body)
    seats = check_seats(body.get("seats"), rules.players, limits, engines)
    seed = body.get("seed")
    if seed is not None and humans(seats) >= FAIR_SEED_HUMANS:
        raise ApiError(
            400,
            tr(
                "a game between two or more people gets its seed from the server's secure random source, so that nobody knows the bag: leave the seed out"
            ),
        )
    if isinstance(seed, str):  # seeds travel as text: JavaScript rounds 63-bit numbers
        if not (seed.isascii() and seed.isdigit() and len(seed) <= 20):
            raise ApiError(400, tr("seed must be a whole number 0..2**64-1, not {seed}").format(seed=repr(seed[:24])))
        seed = int(seed)
    if seed is None:
        seed = secrets.randbits(63)
    try:
        game = Game(seed=seed, rules=rules)
    except (ValueError, TypeError, OverflowError) as e:
        raise ApiError(400, tr("cannot set up this game: {why}").format(why=refusal_text(str(e)))) from None
    return game, seats


def _check_open(mine: list[str], tables: dict[str, Table], store: Store) -> None:
    """Keeps in ``mine`` (an address's games) those still waiting for players, and refuses
    (429) another once they are `MAX_OPEN_PER_ADDRESS`."""
    still = []
    for game_id in mine:
        live = tables.get(game_id)
        row = None if live is not None else store.get(game_id)
        found = (live.summary(), live.settings) if live is not None else (row.summary, row.settings) if row else None
        if found is not None and joinable(*found):
            still.append(game_id)
    mine[:] = still
    if len(mine) >= MAX_OPEN_PER_ADDRESS:
        raise ApiError(
            429,
            tr(
                "your address has {max_open_per_address} open games waiting for players: play them, or wait until they are taken, before making more"
            ).format(max_open_per_address=MAX_OPEN_PER_ADDRESS),
        )


class Lobby:
    """Every table of the server: the store, the tables in memory, new games and seats."""

    def __init__(
        self,
        store: Store,
        workers: BotWorkers,
        begin: Callable[[Table], None],
        *,
        limits: BotLimits,
        engines: Collection[str] = (),
        keep_days: float = 0.0,
    ) -> None:
        self.store = store
        self.workers = workers
        self.begin = begin  # the round takes a table on (`round.Rounds.begin`)
        self.limits = limits
        self.engines = engines  # the operator's engines' names: a request names one
        self.keep_days = keep_days
        self.tables: dict[str, Table] = {}
        self._tasks: list[asyncio.Task[None]] = []
        # The games each client address made that may still wait for players (in memory:
        # a restart forgets them, which only lets an address make more).
        self._open: dict[str, list[str]] = {}

    def start(self) -> None:
        """Starts evicting idle tables and, with ``keep_days``, pruning old games (call
        inside the event loop)."""
        loop = asyncio.get_running_loop()
        self._tasks.append(loop.create_task(self._evict_idle()))
        if self.keep_days > 0:
            self.prune()
            self._tasks.append(loop.create_task(self._prune_hourly()))

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()

    # ----- finding games ------------------------------------------------------------------------

    def table(self, game_id: str) -> Table:
        if not isinstance(game_id, str):
            raise ApiError(400, tr("a game is named by its id (text), not {name}").format(name=type(game_id).__name__))
        found = self.tables.get(game_id)
        if found is not None:
            found.touched = time.monotonic()
            return found
        if not 1 <= len(game_id) <= 64:
            raise ApiError(404, tr("no such game"))
        row = self.store.get(game_id)
        if row is None:
            raise ApiError(404, tr("no game {game_id} on this server").format(game_id=repr(game_id)))
        try:
            table = Table(row)
        except (RecordError, ValueError) as e:
            why = tr("game {game_id} is stored but cannot be replayed: {why}").format(game_id=game_id, why=e)
            raise ApiError(500, why) from None
        self.tables[game_id] = table
        return table

    def evict(self, idle_s: float = EVICT_IDLE_S) -> list[str]:
        """Drops from memory the games nobody has asked for in ``idle_s`` seconds, with no
        live page, no bot thinking and no clock running (they stay in the database and come
        back when asked for); their ids."""
        now = time.monotonic()
        gone = [
            game_id
            for game_id, t in self.tables.items()
            if now - t.touched >= idle_s
            and not t.listeners
            and (t.bot_task is None or t.bot_task.done())
            and t.clock_running() is None  # its clock's timer holds it
        ]
        for game_id in gone:
            del self.tables[game_id]
        return gone

    async def _evict_idle(self) -> None:
        while True:
            await asyncio.sleep(EVICT_IDLE_S / 4)
            self.evict()

    def listing(self) -> list[dict[str, Any]]:
        """The lobby's list: the public summary of the newest games, those waiting for a
        player first (``joinable``)."""
        out = []
        for row in self.store.recent(MAX_GAMES_LISTED):
            live = self.tables.get(row.id)
            summary, settings = (live.summary(), live.settings) if live is not None else (row.summary, row.settings)
            out.append({**summary, "joinable": joinable(summary, settings)})
        out.sort(key=lambda g: not g["joinable"])  # stable: the newest first within each
        return out

    def prune(self) -> list[str]:
        """Deletes the games nobody has touched for ``keep_days`` days."""
        gone = self.store.delete_untouched_since(time.time() - self.keep_days * 86_400)
        for game_id in gone:
            table = self.tables.pop(game_id, None)
            if table is not None:
                if table.bot_task is not None:
                    table.bot_task.cancel()
                for lis in table.listeners:
                    lis.wake.set()
            self.workers.forget(game_id)
        if gone:
            log.info("deleted %d games untouched for %g days", len(gone), self.keep_days)
        return gone

    async def _prune_hourly(self) -> None:
        while True:
            await asyncio.sleep(3600)
            self.prune()

    # ----- making games -------------------------------------------------------------------------

    def create(self, body: Any, client: str | None = None) -> dict[str, Any]:
        """A new game from the lobby's form, or from a record (``record``) to play on.

        Returns the game id, the creator's seat (``creator_seat``, by default the first
        human seat; null to only watch) with its secret token, and a one-time invite code
        for every other human seat. A game between two or more people draws its seed from
        the operating system's secure source and refuses one chosen by the client. From a
        ``client`` address, a game that waits for players counts against its open games."""
        if not isinstance(body, dict):
            raise ApiError(400, tr("a new game is described by a JSON object"))
        if body.get("record") is not None:
            game, entries, seats = game_from_record(body, self.limits, self.engines)
        else:
            game, seats = new_game(body, self.limits, self.engines)
            entries = []
        humans = [i for i, s in enumerate(seats) if s["kind"] == "human"]
        settings = table_settings(body)
        creator = body.get("creator_seat", humans[0] if humans else None)
        if creator is not None and (isinstance(creator, bool) or creator not in humans):
            raise ApiError(
                400,
                tr("creator_seat must be one of the human seats {humans} or null, not {creator}").format(
                    humans=humans, creator=repr(creator)
                ),
            )
        game_id = secrets.token_urlsafe(6)
        while self.store.get(game_id) is not None:
            game_id = secrets.token_urlsafe(6)
        token = new_token() if creator is not None else None
        invites = {i: new_invite() for i in humans if i != creator}
        waits = client is not None and bool(invites) and not game.is_over  # for players to join
        if waits:
            _check_open(self._open.setdefault(client or "", []), self.tables, self.store)
        now = time.time()
        row = GameRow(
            id=game_id,
            created=now,
            updated=now,
            version=len(entries),
            seats=seats,
            tokens=[hash_token(token) if i == creator and token else None for i in range(len(seats))],
            record=game.to_json(),
            over=game.is_over,
            summary={},
            invites=[hash_token(invites[i]) if i in invites else None for i in range(len(seats))],
            salt=new_salt() if game.seed is not None else "",
            settings=settings,
        )
        table = Table(row)
        row.summary = table.summary()
        self.store.insert(row)
        self.tables[game_id] = table
        if waits:
            self._open.setdefault(client or "", []).append(game_id)
        self.begin(table)
        out_seats = []
        for i, s in enumerate(seats):
            entry: dict[str, Any] = {"seat": i, "kind": s["kind"], "name": s["name"]}
            if i in invites:
                entry["invite"] = invites[i]
            out_seats.append(entry)
        return {
            "id": game_id,
            "version": table.version,
            "seat": creator,
            "token": token,
            "seats": out_seats,
            "commitment": table.commitment,
        }

    def rematch(self, game_id: str, token: str | None) -> dict[str, Any]:
        """A player of a finished game asks for a rematch: the same table (variant, options,
        seats, the table's settings) with a new bag, made once; each player of the old game
        takes their own seat in it with their old seat's token, and nobody else can (the new
        game's human seats wait for them, as invites that no link holds). Returns the new
        game's id, the seat and its fresh token."""
        table = self.table(game_id)
        seat = table.seat_of(token)
        if seat is None:
            raise ApiError(401, tr("only a player of this game (header X-Seat-Token) can ask for a rematch"))
        if not table.over:
            raise ApiError(409, tr("a rematch follows a game that is over"))
        found = table.settings.get("rematch")
        if found is None:
            made = self.create(
                {
                    "rules": table.rules.to_text(),
                    "seats": [
                        {"kind": "human", "name": s["name"]}
                        if s["kind"] == "human"
                        else {"kind": "bot", "engine": s["engine"], "name": s["name"]}
                        if "engine" in s
                        else {"kind": "bot", "bot": s["bot"], "options": s.get("options") or {}, "name": s["name"]}
                        for s in table.seats
                    ],
                    # A table stored before whole minutes were required keeps its
                    # choice as near as they allow (a fraction of a minute: never, none).
                    "away_minutes": _kept_minutes(table.away_s, MIN_AWAY_MINUTES, MAX_AWAY_MINUTES),
                    "hints": table.hints,
                    "clock_minutes": _kept_minutes(table.clock_s, 1, MAX_CLOCK_MINUTES),
                    "creator_seat": seat,
                }
            )
            # The other seats' invites are handed to nobody: they keep the seats for their
            # old holders, who take them with their old tokens.
            table.settings["rematch"] = made["id"]
            self.store.update_settings(table.id, table.settings)
            new = self.tables[made["id"]]
            new.settings["rematch_of"] = table.id  # its seats wait for their old holders
            self.store.update_settings(new.id, new.settings)
            table.notify()
            return {"id": made["id"], "seat": seat, "token": made["token"]}
        new = self.table(found)
        if new.tokens[seat] is not None:
            raise ApiError(
                409, tr("your seat in the rematch is taken already (by this seat's holder on another page?)")
            )
        token = new_token()
        new.tokens[seat] = hash_token(token)
        new.invites[seat] = None
        new.seen_at[seat] = time.time()
        new.events.append({**new.event("joined", seat), "inherited": False})
        self._save_seats(new)
        return {"id": new.id, "seat": seat, "token": token}

    # ----- seats --------------------------------------------------------------------------------

    def claim(self, game_id: str, body: Any) -> dict[str, Any]:
        """``{"invite": code}`` -> the seat and its fresh token, for the claimer only."""
        table = self.table(game_id)
        if not isinstance(body, dict):
            raise ApiError(400, tr('claim a seat with {{"invite": "<the code of your invite link>"}}').format())
        seat, token = seats.claim(table, body.get("invite"))
        self._save_seats(table)
        return {"id": table.id, "seat": seat, "token": token, "version": table.version}

    def hand_on(self, game_id: str, token: str | None, body: Any) -> dict[str, Any]:
        """A player gives another human seat to someone new: ``{"seat": n}`` -> a new invite."""
        table = self.table(game_id)
        by = table.seat_of(token)
        if by is None:
            raise ApiError(401, tr("only a player of this game (header X-Seat-Token) can replace a player"))
        if not isinstance(body, dict):
            raise ApiError(400, tr('name the seat to give to someone new: {{"seat": n}}').format())
        code, redealt = seats.hand_on(table, by, body.get("seat"))
        self._save_seats(table, redealt)
        return {
            "id": table.id,
            "seat": body["seat"],
            "invite": code,
            "redealt": redealt,
            "commitment": table.commitment,
        }

    def leave(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The token's holder leaves their seat (resigns it): the token stops working and any
        player may then hand the seat on."""
        table = self.table(game_id)
        seat = table.seat_of(token)
        if seat is None:
            raise ApiError(401, tr("send your seat's token (header X-Seat-Token) to leave your seat"))
        redealt = seats.leave(table, seat)
        self._save_seats(table, redealt)
        return {"id": table.id, "seat": seat, "redealt": redealt, "commitment": table.commitment}

    def _save_seats(self, table: Table, redealt: bool = False) -> None:
        if redealt:  # a new deal: the game and its commitment's salt change with the seats
            table.version += 1
            table.updated = self.store.redeal(
                table.id,
                version=table.version,
                record=table.game.to_json(),
                salt=table.salt,
                tokens=table.tokens,
                invites=table.invites,
                events=table.events,
                summary=table.summary(),
            )
            table.notify()
            self.begin(table)
            return
        save_seats(self.store, table)

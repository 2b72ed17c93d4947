"""Live games of `genial serve`: seats, secret tokens, actions checked by the engine, bots
thinking in worker threads, and what each seat is shown.

Every rule stays in the core: legal placements come from ``Game.legal_moves()``, the points
a candidate would score from playing it on a clone, the ranking from ``Game.ranks()``. A
seat's view is built from a `GameView` of that seat, so it cannot hold another seat's rack.

Engines (``genial serve --engine NAME=COMMAND``) sit in bot seats by the operator's NAME. An
engine is started for each of its decisions in a thread of its own, outside the bots' pool
(`workers`), so that it costs only its own game: it runs only while it thinks, within the
operator's thinking-time cap (plus `ENGINE_GRACE_S`, enforced by the host, which then kills
it), and it is stopped with everything it started when it answers, fails or the server
stops. An engine that hangs, crashes, floods, breaks the protocol or chooses an illegal move
forfeits: the game ends there, stored with the forfeit, its side ranked last. After a
restart an unfinished game's engine simply thinks again.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import _core
from .._core import IllegalMoveError, Move
from ..bots import BuiltinBot, Forfeit, GameView, catalogue, forfeit_ranks, make
from ..choices import ordered_choices
from ..engine.host import MARGIN_MS, MOVETIME_MS, EngineBot, EngineError
from ..game import Game
from ..records import RecordError, from_record, start_record, to_record
from ..variants import Rules
from . import views
from .commitment import commitment, new_salt
from .errors import ApiError
from .seats import BotLimits, check_seats, clean_name, new_invite, new_token
from .store import GameRow, Store, hash_token
from .workers import BotWorkers, Stopped

__all__ = ["ApiError", "Hub", "Table", "bot_catalogue"]

log = logging.getLogger("genial.web")

ENGINE_GRACE_S = 2.0
"""What an engine seat's decision may take beyond the operator's thinking-time cap (for
starting and stopping the process) before the host kills the engine and it forfeits."""

ENGINE_NICE = 10
"""How much lower than the server's an engine seat's CPU priority is (it and all it
starts), so that an engine that spins cannot slow the server and the bots' pool."""

#: Moves shown in a view's log (the whole game is in the record).
LOG_TAIL = 16
#: From this many people at the table the server draws the seed itself and refuses one sent.
FAIR_SEED_HUMANS = 2
#: How long a held seat's holder must be away before another player may hand it on, unless
#: the table chose otherwise (``away_minutes``; 0: never).
DEFAULT_AWAY_S = 600.0
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
#: A seat's page opened or closed is told to the others at most this often (s).
PRESENCE_DELAY = 0.25
MAX_GAMES_LISTED = 200


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


# ----- bots ---------------------------------------------------------------------------------


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
    game = from_record(start_record(record))
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


def posted_record(record: Any, doing: str) -> tuple[Game, list[dict[str, Any]]]:
    """A record a page sent, replayed (`replay_record`): the game and its move log; anything
    else is a 400 saying why the record cannot be ``doing`` (loaded, reviewed)."""
    if not isinstance(record, dict):
        raise ApiError(400, "record must be a game record object (Game.to_json)")
    try:
        game, entries, _ = replay_record(record)
    except RecordError as e:
        raise ApiError(400, f"record cannot be {doing}: {e}") from None
    return game, entries


def record_names(record: dict[str, Any], players: int) -> list[str]:
    """The seats' names a record gives, or ``Seat 1`` ... when it gives none that fit."""
    names = record.get("names")
    if isinstance(names, list) and len(names) == players and all(isinstance(n, str) for n in names):
        return [clean_name(n) or f"Seat {i + 1}" for i, n in enumerate(names)]
    return [f"Seat {i + 1}" for i in range(players)]


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
        # Rows from before invites have none open: their creator was given every token.
        self.invites: list[str | None] = row.invites if len(row.invites) == len(row.seats) else [None] * len(row.seats)
        self.events = row.events
        self.forfeit: dict[str, Any] | None = row.forfeit
        self.salt = row.salt
        self.version = row.version
        self.created = row.created
        self.updated = row.updated
        record = json.loads(row.record)
        self.game, self.log, _ = replay_record(record)
        # The rule set, whole, as the game was made: a new deal and a rematch are made from
        # it, never from a list of its fields (an option left off such a list is lost).
        self.rules: Rules = self.game.rules
        self.bag: list[str] = [str(t) for t in record.get("bag", [])]
        self.commitment = (
            commitment(self.salt, self.game.seed, self.bag) if self.salt and self.game.seed is not None else None
        )
        self.lock = asyncio.Lock()
        self.listeners: set[Listener] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self._options: dict[tuple[int, int], bytes] = {}  # (version, rack slot) -> placements, encoded
        self.hint: tuple[int, dict[str, Any]] | None = None  # (version, the hint)
        self.log_tail = LOG_TAIL
        # How long a held seat's holder must be away before another player may hand the
        # seat on (0: never; only its holder can, or anyone once the holder has left).
        self.away_s = float(row.settings.get("away_s", DEFAULT_AWAY_S))
        # Whether a seat may ask for a hint, or review its own moves, before the end.
        self.hints = bool(row.settings.get("hints", True))
        self.settings = dict(row.settings)  # with "rematch": the id of the game played next
        # The game clock (0: none): each person's time for the whole game, from the first
        # move on; a person whose time runs out forfeits. Time left per seat, and when the
        # turn now running began (a restart gives the mover the time the server was down).
        self.clock_s = float(row.settings.get("clock_s", 0.0))
        self.clocks = [float(c) for c in row.settings.get("clocks", [self.clock_s] * len(self.seats))]
        self.turn_since = time.time()
        self._clock_timer: asyncio.TimerHandle | None = None
        now = time.time()
        # When each seat's holder was last seen (a request with its token, or a live page);
        # a server that restarts counts everybody as just seen.
        self.seen_at = [now] * len(self.seats)
        self.invited_at = [now] * len(self.seats)  # when each open invite was made
        self.touched = time.monotonic()  # when it was last asked for (`Hub.evict`)
        # Live updates: every change bumps the epoch and wakes the listeners; each state is
        # encoded once per epoch and seat (spectators share one), and presence alone (a page
        # opened or closed) is told at most once per PRESENCE_DELAY.
        self.epoch = 0
        self._texts: dict[int | None, str] = {}
        self._texts_epoch = -1
        self._presence: asyncio.TimerHandle | None = None

    @property
    def over(self) -> bool:
        """Whether the game has ended: by the rules, or by a forfeit."""
        return self.game.is_over or self.forfeit is not None

    def ranks(self) -> list[int]:
        """Each seat's place (0 = first): the game's, or with a forfeit the forfeiting side
        last and the others in their order as the game stood (the core's `forfeit_ranks`)."""
        if self.forfeit is not None:
            return list(forfeit_ranks(self.game, self.forfeit["seat"]))
        return list(self.game.ranks())

    # ----- who is who ----------------------------------------------------------------

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds; None without a token; 403 for a token of no seat."""
        if token is None or token == "":
            return None
        digest = hash_token(token)
        for seat, h in enumerate(self.tokens):
            if h is not None and secrets.compare_digest(h, digest):
                self.seen_at[seat] = time.time()
                return seat
        raise ApiError(403, f"this token holds no seat in game {self.id}")

    def claim(self, code: Any) -> tuple[int, str]:
        """Exchanges a one-time invite for its seat and a fresh token (the invite is spent).
        The ``joined`` event says whether the seat's rack was held by someone else before
        (``inherited``: it was handed on after the first move, so no new deal was possible)."""
        if not isinstance(code, str) or not code:
            raise ApiError(400, 'claim a seat with {"invite": "<the code of your invite link>"}')
        digest = hash_token(code)
        for seat, h in enumerate(self.invites):
            if h is not None and secrets.compare_digest(h, digest):
                token = new_token()
                self.invites[seat] = None
                self.tokens[seat] = hash_token(token)
                self.seen_at[seat] = time.time()
                self.events.append({**self._event("joined", seat), "inherited": self.inherited(seat)})
                return seat, token
        if self.over:
            raise ApiError(409, "the game is over: an invite not used before its end seats nobody")
        raise ApiError(409, "this invite is not valid (any more): an invite seats one person once; ask for a new one")

    def end_invites(self) -> bool:
        """The game has ended: the invites still open die with it (a stranger holding one
        would get a seat's token, and with it the rematch's seat). Whether any was open."""
        if not self.over or not any(self.invites):
            return False
        self.invites = [None] * len(self.invites)
        return True

    # ----- the clock --------------------------------------------------------------------------

    def clock_running(self) -> int | None:
        """The seat whose time runs now: a person to move, once the first move is made."""
        if self.clock_s <= 0 or self.over or not self.log:
            return None
        seat = self.game.current_player
        return seat if self.seats[seat]["kind"] == "human" else None

    def time_left(self, seat: int) -> float:
        left = self.clocks[seat]
        if self.clock_running() == seat:
            left -= time.time() - self.turn_since
        return max(0.0, left)

    def charge(self) -> None:
        """Charges the time since the turn began to the seat to move, and starts a new count
        (called before every move and undo)."""
        now = time.time()
        running = self.clock_running()
        if running is not None:
            self.clocks[running] = max(0.0, self.clocks[running] - (now - self.turn_since))
        self.turn_since = now
        if self.clock_s > 0:
            self.settings["clocks"] = self.clocks

    # ----- live updates --------------------------------------------------------------------

    def notify(self) -> None:
        """The game changed: every live page is sent its state (once, however many changes
        came meanwhile)."""
        self.epoch += 1
        if self._presence is not None:
            self._presence.cancel()
            self._presence = None
        for lis in self.listeners:
            lis.wake.set()

    def presence_changed(self) -> None:
        """A seat's page opened or closed: told to every page within `PRESENCE_DELAY`, in one
        update however many came meanwhile (a client cycling connections cannot make every
        spectator be sent a state each time)."""
        if self._presence is None:
            self._presence = asyncio.get_running_loop().call_later(PRESENCE_DELAY, self.notify)

    def view_text(self, seat: int | None) -> str:
        """`view` as the JSON text sent, made once per change and seat (each time while a
        clock runs: it shows the time left as of now)."""
        if self.clock_s > 0:
            return json.dumps(self.view(seat), separators=(",", ":"))
        if self._texts_epoch != self.epoch:
            self._texts.clear()
            self._texts_epoch = self.epoch
        text = self._texts.get(seat)
        if text is None:
            text = self._texts[seat] = json.dumps(self.view(seat), separators=(",", ":"))
        return text

    def spectators(self) -> int:
        return sum(lis.seat is None for lis in self.listeners)

    # ----- handing a seat on ---------------------------------------------------------------

    def present(self, seat: int) -> bool:
        return any(lis.seat == seat for lis in self.listeners)

    def away_for(self, seat: int) -> float:
        """Seconds since the seat's holder was last seen (0 while a page of theirs is open)."""
        return 0.0 if self.present(seat) else max(0.0, time.time() - self.seen_at[seat])

    def vacant(self, seat: int) -> bool:
        """Nobody holds the seat and no invite for it is open: its holder left."""
        return self.seats[seat]["kind"] == "human" and self.tokens[seat] is None and self.invites[seat] is None

    def hand_on_in(self, seat: int) -> float | None:
        """Seconds until another player may hand ``seat`` on (0: now; None: only its holder
        can, as this table never hands on a seat for being away)."""
        if self.seats[seat]["kind"] != "human" or self.over:
            return None
        if self.vacant(seat):
            return 0.0
        if self.away_s <= 0:
            return None
        since = self.away_for(seat) if self.tokens[seat] is not None else time.time() - self.invited_at[seat]
        return max(0.0, self.away_s - since)

    def can_redeal(self) -> bool:
        """A game between people (its seed the server's) in which no person has moved yet."""
        return self.commitment is not None and _humans(self.seats) >= FAIR_SEED_HUMANS and not self.humans_moved()

    def humans_moved(self) -> bool:
        return any(self.seats[e["seat"]]["kind"] == "human" for e in self.log)

    def inherited(self, seat: int) -> bool:
        """Whether someone held ``seat``'s present rack before its holder: the seat was handed
        on (or left) since the last deal while its rack had been seen."""
        for e in reversed(self.events):
            if e["type"] == "redealt":
                return False
            if e["seat"] == seat and e["type"] in ("handed", "left") and e.get("seen"):
                return True
        return False

    def replace(self, by: int, seat: Any) -> tuple[str, bool]:
        """``by`` hands ``seat`` on: its token stops working, and a fresh invite (returned)
        will seat the newcomer. A held seat is handed on by its holder, or by another player
        once the holder has been away for the table's ``away_s`` (never with 0); a seat
        whose holder left, by anyone; an invite still open, once it has been open that
        long. A seat whose rack was seen, handed on before any person has moved, gets a new
        deal from a new bag with a new commitment (every rack changes; `redeal`), so the
        rack its holder saw is never played; after that, the newcomer is told that the rack
        was held by someone else. Every seat sees the event. Returns the invite and whether
        the game was dealt anew."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise ApiError(400, f"seat must be a seat number 0..{len(self.seats) - 1}")
        if self.seats[seat]["kind"] != "human":
            raise ApiError(400, f"seat {seat} is a bot's")
        if self.over:
            raise ApiError(409, "the game is over")
        held = self.tokens[seat] is not None
        name = self.seats[seat]["name"]
        if seat == by:
            reason = "own"
        elif self.vacant(seat):
            reason = "left"
        else:
            wait = self.hand_on_in(seat)
            if wait is None or wait > 0:
                after = (
                    "this table never hands on a seat for being away"
                    if wait is None
                    else f"it can be handed on after {_duration(self.away_s)} away (in {_duration(wait)})"
                )
                what = f"{name} holds this seat" if held else f"{name}'s invite is still open"
                raise ApiError(409, f"{what}: only its holder can give it to someone else, or leave it; {after}")
            reason = "away" if held else "open"
        seen = held or self.inherited(seat)
        redeal = held and self.can_redeal()
        code = new_invite()
        self._vacate(seat)
        self.invites[seat] = hash_token(code)
        self.invited_at[seat] = time.time()
        self.events.append({**self._event("handed", seat), "by": by, "reason": reason, "seen": seen and not redeal})
        if redeal:
            self.redeal(seat)
        return code, redeal

    def leave(self, seat: int) -> bool:
        """The holder of ``seat`` leaves it (resigns the seat): its token stops working and
        any player may hand it on. Before any person has moved, the game is dealt anew, as
        for a seat handed on. Returns whether it was."""
        if self.over:
            raise ApiError(409, "the game is over")
        redeal = self.can_redeal()
        self._vacate(seat)
        self.events.append({**self._event("left", seat), "seen": not redeal})
        if redeal:
            self.redeal(seat)
        return redeal

    def _vacate(self, seat: int) -> None:
        self.tokens[seat] = None
        self.invites[seat] = None
        for lis in self.listeners:
            if lis.seat == seat:
                lis.seat = None  # the seat's open page now watches

    def redeal(self, seat: int) -> None:
        """A new deal from a new bag (a new secret seed) with a new salt and commitment,
        the game started again; every seat sees the new commitment in a ``redealt`` event."""
        self.game = Game(seed=secrets.randbits(63), rules=self.rules)
        self.log = []
        self.bag = [str(t) for t in json.loads(self.game.to_json()).get("bag", [])]
        self.salt = new_salt()
        assert self.game.seed is not None
        self.commitment = commitment(self.salt, self.game.seed, self.bag)
        self._options.clear()
        self.hint = None
        self.events.append({**self._event("redealt", seat), "commitment": self.commitment})

    def _event(self, kind: str, seat: int) -> dict[str, Any]:
        return {"type": kind, "seat": seat, "move": len(self.log), "time": time.time()}

    def others_are_bots(self, seat: int) -> bool:
        return all(s["kind"] == "bot" for i, s in enumerate(self.seats) if i != seat)

    def can_undo(self, seat: int | None) -> bool:
        return (
            seat is not None
            and self.forfeit is None  # a forfeit is final
            and self.others_are_bots(seat)
            and any(e["seat"] == seat for e in self.log)
        )

    def can_download(self, seat: int | None) -> bool:
        """The record holds the bag's order and so every rack: it is public once the game is
        over, and open to a seat whose opponents are all bots."""
        return self.over or (seat is not None and self.others_are_bots(seat))

    # ----- what a seat sees ------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """Public facts for the lobby (no rack, no token)."""
        return views.summary(self)

    def view(self, seat: int | None) -> dict[str, Any]:
        """The state as ``seat`` may see it (None: a spectator, no rack at all)."""
        return views.state(self, seat)

    def reveal(self) -> dict[str, Any]:
        """What the commitment was made of (see `genial.web.commitment`): only once the game
        is over. The seed travels as text (JavaScript numbers lose 63-bit integers). With it,
        every draw in order (`views.deal_steps`), for the page to check against the bag and
        the racks it was shown."""
        assert self.over and self.game.seed is not None
        record = json.loads(self.game.to_json())
        steps = views.deal_steps(from_record(start_record(record)), record["moves"])
        return {"salt": self.salt, "seed": str(self.game.seed), "bag": "".join(self.bag), "steps": steps}

    def options(self, seat: int | None, tile_text: str | None, slot: str | None = None) -> bytes:
        """Where the seat to move may lay one tile of its rack (by ``slot`` or text), with
        the points of each placement, best first (`views.placements`), as the JSON text
        sent: encoded once per version and slot, as a page asks again when a tile is
        picked again."""
        if seat is None:
            raise ApiError(401, "send your seat's token (header X-Seat-Token) to see your placements")
        g = self.game
        if self.over:
            raise ApiError(409, "the game is over")
        if g.current_player != seat:
            raise ApiError(403, f"it is seat {g.current_player}'s turn, and your token holds seat {seat}")
        try:
            tile, index = views.tile_of(g, seat, tile=tile_text, slot=slot)
        except ValueError as e:
            raise ApiError(400, f"tile {tile_text or slot!r}: {e}") from None
        cache_key = (self.version, index)
        body = self._options.get(cache_key)
        if body is None:
            if len(self._options) > 12:
                self._options.clear()
            payload = {"version": self.version, **views.placements(g, tile, index)}
            body = self._options[cache_key] = json.dumps(payload, separators=(",", ":")).encode()
        return body

    def check_turn(self, seat: int | None, what: str) -> None:
        """Refuses (4xx) unless ``seat`` is the seat to move in a game still on."""
        if seat is None:
            raise ApiError(401, f"send your seat's token (header X-Seat-Token) to {what}")
        if self.over:
            raise ApiError(409, "the game is over")
        if self.game.current_player != seat:
            raise ApiError(403, f"it is seat {self.game.current_player}'s turn, and your token holds seat {seat}")


# ----- all games -------------------------------------------------------------------------------


def _retrieved(future: asyncio.Future[Any]) -> None:
    """Marks a future's exception as seen (nobody waits for it any more)."""
    if not future.cancelled():
        future.exception()


class Hub:
    """Every game of the server: the store, the tables in memory, the bots' workers."""

    def __init__(
        self,
        store: Store,
        *,
        bot_threads: int = 1,
        bot_delay: float = 0.0,
        limits: BotLimits | None = None,
        keep_days: float = 0.0,
        engines: dict[str, str] | None = None,
    ) -> None:
        self.store = store
        # The operator's engines, NAME -> COMMAND: a request names one, never a command.
        self.engines = dict(engines or {})
        self._thinking: set[EngineBot] = set()  # engines running a decision now
        self._engine_threads: set[threading.Thread] = set()  # their threads
        self.keep_days = keep_days
        self._pruner: asyncio.Task[None] | None = None
        self._evictor: asyncio.Task[None] | None = None
        self.tables: dict[str, Table] = {}
        self.limits = limits or BotLimits()
        self.workers = BotWorkers(bot_threads, max_think=self.limits.max_think_ms / 1000)
        self.bot_delay = bot_delay
        self._stopping = False
        self.on_change: Callable[[Table], None] | None = None

    # ----- lifecycle --------------------------------------------------------------------

    @property
    def closing(self) -> bool:
        """The server is shutting down: live connections end, no new work starts."""
        return self._stopping

    def start(self) -> None:
        """Loads the unfinished games and lets their bots move (call inside the event loop)."""
        self.workers.start()
        self._evictor = asyncio.get_running_loop().create_task(self._evict_idle())
        if self.keep_days > 0:
            self.prune()
            self._pruner = asyncio.get_running_loop().create_task(self._prune_hourly())
        for game_id in self.store.unfinished_ids():
            try:
                table = self.table(game_id)
            except ApiError as e:
                log.error("game %s cannot be loaded: %s", game_id, e.message)
                continue
            self._kick_bots(table)
            self._arm_clock(table)

    async def close(self) -> None:
        """Stops every bot at once (a move not yet played is dropped: after a restart the bot
        thinks again) and wakes the live connections so that they end."""
        self._stopping = True
        if self._pruner is not None:
            self._pruner.cancel()
        if self._evictor is not None:
            self._evictor.cancel()
        for engine in list(self._thinking):
            engine.kill("the server stopped")  # its worker thread reaps it at once
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None and not t.bot_task.done()]
        for task in tasks:
            task.cancel()
        for t in self.tables.values():
            for lis in t.listeners:
                lis.wake.set()
        await asyncio.to_thread(self.workers.close)
        await asyncio.gather(*tasks, return_exceptions=True)
        # The engines were killed: their threads stop them (and all they started) at once.
        await asyncio.to_thread(self._join_engines, ENGINE_GRACE_S)

    def _join_engines(self, timeout: float) -> None:
        end = time.monotonic() + timeout
        for thread in list(self._engine_threads):
            thread.join(max(0.0, end - time.monotonic()))
        for engine in list(self._thinking):  # one that started after the kill above
            engine.kill("the server stopped")

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

    # ----- finding games ----------------------------------------------------------------

    def table(self, game_id: str) -> Table:
        if not isinstance(game_id, str):
            raise ApiError(400, f"a game is named by its id (text), not {type(game_id).__name__}")
        found = self.tables.get(game_id)
        if found is not None:
            found.touched = time.monotonic()
            return found
        if not 1 <= len(game_id) <= 64:
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

    def lobby(self) -> list[dict[str, Any]]:
        out = []
        for row in self.store.recent(MAX_GAMES_LISTED):
            live = self.tables.get(row.id)
            out.append(live.summary() if live is not None else row.summary)
        return out

    # ----- creating -----------------------------------------------------------------------

    def _game_from_record(self, body: dict[str, Any]) -> tuple[Game, list[dict[str, Any]], list[dict[str, Any]]]:
        """A game to play on from a posted record (up to move ``upto``), its entries and its
        checked seats; refused between two or more people, who would all know the bag."""
        record = body["record"]
        game, entries = posted_record(record, "loaded")
        upto = body.get("upto")
        if upto is not None:
            if isinstance(upto, bool) or not isinstance(upto, int) or not 0 <= upto <= len(entries):
                raise ApiError(400, f"upto must be a move number 0..{len(entries)}")
            trimmed = {**record, "moves": record["moves"][:upto]}
            game, entries, _ = replay_record(trimmed)
        seats = check_seats(body.get("seats"), game.players, self.limits, self.engines)
        if _humans(seats) >= FAIR_SEED_HUMANS and not game.is_over:
            raise ApiError(
                400,
                "a game between two or more people cannot start from a record: whoever has the file "
                "knows the bag. Start a new game (the server draws its seed)",
            )
        return game, entries, seats

    def _new_game(self, body: dict[str, Any]) -> tuple[Game, list[dict[str, Any]]]:
        """A new game of the posted rules and its checked seats; between two or more people
        the seed comes from the operating system's secure source, never from the client."""
        rules = posted_rules(body)
        seats = check_seats(body.get("seats"), rules.players, self.limits, self.engines)
        seed = body.get("seed")
        if seed is not None and _humans(seats) >= FAIR_SEED_HUMANS:
            raise ApiError(
                400,
                "a game between two or more people gets its seed from the server's secure random "
                "source, so that nobody knows the bag: leave the seed out",
            )
        if isinstance(seed, str):  # seeds travel as text: JavaScript rounds 63-bit numbers
            if not (seed.isascii() and seed.isdigit() and len(seed) <= 20):
                raise ApiError(400, f"seed must be a whole number 0..2**64-1, not {seed[:24]!r}")
            seed = int(seed)
        if seed is None:
            seed = secrets.randbits(63)
        try:
            game = Game(seed=seed, rules=rules)
        except (ValueError, TypeError, OverflowError) as e:
            raise ApiError(400, f"cannot set up this game: {e}") from None
        return game, seats

    def create(self, body: Any) -> dict[str, Any]:
        """A new game from the lobby's form, or from a record (``record``) to play on.

        Returns the game id, the creator's seat (``creator_seat``, by default the first
        human seat; null to only watch) with its secret token, and a one-time invite code
        for every other human seat. A game between two or more people draws its seed from
        the operating system's secure source and refuses one chosen by the client."""
        if not isinstance(body, dict):
            raise ApiError(400, "a new game is described by a JSON object")
        if body.get("record") is not None:
            game, entries, seats = self._game_from_record(body)
        else:
            game, seats = self._new_game(body)
            entries = []
        humans = [i for i, s in enumerate(seats) if s["kind"] == "human"]
        settings = table_settings(body)
        creator = body.get("creator_seat", humans[0] if humans else None)
        if creator is not None and (isinstance(creator, bool) or creator not in humans):
            raise ApiError(400, f"creator_seat must be one of the human seats {humans} or null, not {creator!r}")
        game_id = secrets.token_urlsafe(6)
        while self.store.get(game_id) is not None:
            game_id = secrets.token_urlsafe(6)
        token = new_token() if creator is not None else None
        invites = {i: new_invite() for i in humans if i != creator}
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
        self._kick_bots(table)
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

    def claim(self, game_id: str, body: Any) -> dict[str, Any]:
        """``{"invite": code}`` -> the seat and its fresh token, for the claimer only."""
        table = self.table(game_id)
        if not isinstance(body, dict):
            raise ApiError(400, 'claim a seat with {"invite": "<the code of your invite link>"}')
        seat, token = table.claim(body.get("invite"))
        self._persist_seats(table)
        return {"id": table.id, "seat": seat, "token": token, "version": table.version}

    def replace(self, game_id: str, token: str | None, body: Any) -> dict[str, Any]:
        """A player gives another human seat to someone new: ``{"seat": n}`` -> a new invite."""
        table = self.table(game_id)
        by = table.seat_of(token)
        if by is None:
            raise ApiError(401, "only a player of this game (header X-Seat-Token) can replace a player")
        if not isinstance(body, dict):
            raise ApiError(400, 'name the seat to give to someone new: {"seat": n}')
        code, redealt = table.replace(by, body.get("seat"))
        self._persist_seats(table, redealt)
        return {
            "id": table.id,
            "seat": body["seat"],
            "invite": code,
            "redealt": redealt,
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
            raise ApiError(401, "only a player of this game (header X-Seat-Token) can ask for a rematch")
        if not table.over:
            raise ApiError(409, "a rematch follows a game that is over")
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
            table.notify()
            return {"id": made["id"], "seat": seat, "token": made["token"]}
        new = self.table(found)
        if new.tokens[seat] is not None:
            raise ApiError(409, "your seat in the rematch is taken already (by this seat's holder on another page?)")
        token = new_token()
        new.tokens[seat] = hash_token(token)
        new.invites[seat] = None
        new.seen_at[seat] = time.time()
        new.events.append({**new._event("joined", seat), "inherited": False})
        self._persist_seats(new)
        return {"id": new.id, "seat": seat, "token": token}

    def leave(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The token's holder leaves their seat (resigns it): the token stops working and any
        player may then hand the seat on."""
        table = self.table(game_id)
        seat = table.seat_of(token)
        if seat is None:
            raise ApiError(401, "send your seat's token (header X-Seat-Token) to leave your seat")
        redealt = table.leave(seat)
        self._persist_seats(table, redealt)
        return {"id": table.id, "seat": seat, "redealt": redealt, "commitment": table.commitment}

    def _persist_seats(self, table: Table, redealt: bool = False) -> None:
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
            self._kick_bots(table)
            return
        table.updated = self.store.update_seats(
            table.id,
            version=table.version,
            tokens=table.tokens,
            invites=table.invites,
            events=table.events,
            summary=table.summary(),
        )
        table.notify()

    # ----- acting -------------------------------------------------------------------------

    def _persist(self, table: Table) -> None:
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
            self._persist_seats(table)
        if table.clock_s > 0:
            self.store.update_settings(table.id, table.settings)
            self._arm_clock(table)
        table.notify()
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
            if table.over:
                raise ApiError(409, "the game is over")
            if g.current_player != seat:
                raise ApiError(403, f"it is seat {g.current_player}'s turn, and your token holds seat {seat}")
            if table.clock_running() == seat and table.time_left(seat) <= 0:
                raise ApiError(409, "your time ran out")
            try:
                move = Move.parse(move_text)
                g.check(move)
            except IllegalMoveError as e:
                raise ApiError(422, f"illegal move {move_text!r}: {e}") from None
            table.charge()
            result = g.play(move)
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
            if table.forfeit is not None:
                raise ApiError(409, "the game ended by forfeit: it cannot be taken back")
            if not any(e["seat"] == seat for e in table.log):
                raise ApiError(409, "nothing to undo: you have not moved yet")
            g = table.game
            table.charge()
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
        if not table.hints:
            raise ApiError(403, "this table plays without hints: they were turned off when the game was made")
        assert seat is not None
        version = table.version
        if table.hint is None or table.hint[0] != version:
            game = table.game.clone()  # the live game may move on while the search runs
            try:
                choice = (await self.workers.run(table.id, "hint", lambda: ordered_choices(game)))[0]
            except Stopped:
                raise ApiError(503, "the server is shutting down") from None
            table.hint = (version, views.hint(game, seat, choice))
        return {"version": version, **table.hint[1]}

    # ----- the clock ---------------------------------------------------------------------------

    def _arm_clock(self, table: Table) -> None:
        """Wakes up when the running clock would reach zero (`check_clock`)."""
        if table._clock_timer is not None:
            table._clock_timer.cancel()
            table._clock_timer = None
        seat = table.clock_running()
        if seat is None or self._stopping:
            return
        table._clock_timer = asyncio.get_running_loop().call_later(
            table.time_left(seat) + 0.05, self.check_clock, table
        )

    def check_clock(self, table: Table) -> None:
        """The person to move whose time has run out forfeits: the game ends there, their side
        ranked last, stored before anyone is told."""
        seat = table.clock_running()
        if seat is None:
            return
        if table.time_left(seat) > 0:
            self._arm_clock(table)
            return
        table.charge()
        name = table.seats[seat]["name"]
        table.forfeit = {"seat": seat, "reason": f"{name} ran out of time", "move": len(table.log)}
        table.version += 1
        self._persist(table)
        self.workers.forget(table.id)

    # ----- bots ----------------------------------------------------------------------------

    def _kick_bots(self, table: Table) -> None:
        if self._stopping or table.over:
            return
        if table.seats[table.game.current_player]["kind"] != "bot":
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        table.bot_task = asyncio.get_running_loop().create_task(self._bot_turns(table))

    async def _bot_turns(self, table: Table) -> None:
        while not self._stopping:
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
                if "engine" in cfg:
                    move = await self._engine_move(table, seat, cfg["engine"])
                else:
                    # The built-in bots release the GIL while they think.
                    move = await self.workers.choose(table.id, _make_bot(cfg, g, seat), GameView(g, seat))
            except Stopped:
                return  # the server is stopping: the bot thinks again after a restart
            except Forfeit as e:
                if self._stopping:
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
                table.log.append(views.entry(len(table.log), seat, result))
                table.version += 1
                self._persist(table)

    async def _engine_move(self, table: Table, seat: int, name: str) -> Move:
        """The move of the operator's engine ``name`` for ``seat``: a process started for
        this decision in a thread of its own (never in the bots' pool, which it could
        hold), on a copy of the game, reaped when it answers or fails; `Forfeit` when it
        fails (or is no longer offered). The host enforces a hard deadline of the
        operator's thinking-time cap plus `ENGINE_GRACE_S`: past it the engine is killed
        and forfeits, whatever its thread is doing."""
        command = self.engines.get(name)
        if command is None:
            raise Forfeit(f"engine {name!r} is not offered by this server any more", public="is no longer offered")
        cap = self.limits.max_think_ms
        # The engine's own deadline (move time + margin) falls within the operator's cap.
        movetime = max(1, min(MOVETIME_MS, cap // 2))
        engine = EngineBot(
            command,
            movetime_ms=movetime,
            margin_ms=min(MARGIN_MS, cap - movetime),
            handshake_timeout=cap / 1000,
            nice=ENGINE_NICE,
        )
        view = GameView(table.game.clone(), seat)  # the live game may change while it thinks
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Move] = loop.create_future()

        def settle(result: Move | None, error: BaseException | None) -> None:
            if future.done():
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)  # type: ignore[arg-type]

        def decide() -> None:
            result: Move | None = None
            error: BaseException | None = None
            try:
                result = engine.choose(view)
            except EngineError as e:  # it does not start, or fails its handshake
                log.warning("game %s: seat %d: %s", table.id, seat, e)
                error = Forfeit(str(e), seat=seat, public="did not start")
            except BaseException as e:  # handed to the waiting task
                error = e
            finally:
                engine.close()
                self._thinking.discard(engine)
                self._engine_threads.discard(threading.current_thread())
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(settle, result, error)

        if self._stopping:
            raise Stopped
        self._thinking.add(engine)
        thread = threading.Thread(target=decide, name=f"genial-engine-{table.id[:8]}", daemon=True)
        self._engine_threads.add(thread)
        thread.start()
        try:
            return await asyncio.wait_for(asyncio.shield(future), cap / 1000 + ENGINE_GRACE_S)
        except TimeoutError:
            future.add_done_callback(_retrieved)  # its thread's outcome is no longer wanted
            engine.kill("did not answer in time")  # its thread forfeits and reaps it
            log.warning("game %s: seat %d: engine %s past the hard deadline: killed", table.id, seat, name)
            raise Forfeit(f"engine {name!r} passed the hard deadline", public="did not answer in time") from None
        except asyncio.CancelledError:
            future.add_done_callback(_retrieved)
            engine.kill("the server stopped")
            raise

    async def _forfeit(self, table: Table, seat: int, version: int, why: str) -> None:
        """Ends the game by ``seat``'s forfeit, stored before anyone is told."""
        async with table.lock:
            if table.over or table.version != version:
                return  # the game changed meanwhile (an undo): its bot plays again
            name = table.seats[seat]["name"]
            table.forfeit = {"seat": seat, "reason": f"{name}'s engine {why}", "move": len(table.log)}
            table.version += 1
            self._persist(table)
        log.warning("game %s: seat %d forfeits: %s", table.id, seat, table.forfeit["reason"])
        self.workers.forget(table.id)

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
        if table.forfeit is not None:
            record["forfeit"] = table.forfeit  # the game ended here, by this seat's forfeit
        if table.commitment is not None:
            record["commitment"] = table.commitment
            record["salt"] = table.salt
        return record


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
            f"away_minutes must be 0 or {MIN_AWAY_MINUTES}..{MAX_AWAY_MINUTES} whole minutes: how long a player "
            "must be away before another may give their seat to someone else (0: never)",
        )
    clock = _whole_minutes(body.get("clock_minutes", 0), 1, MAX_CLOCK_MINUTES)
    if clock is None:
        raise ApiError(
            400,
            f"clock_minutes must be 0 or 1..{MAX_CLOCK_MINUTES} whole minutes: each person's time for the game "
            "(0: no clock)",
        )
    hints = body.get("hints", True)
    if not isinstance(hints, bool):
        raise ApiError(
            400,
            "hints must be true or false: whether players may ask for hints and review their own moves before the end",
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
        raise ApiError(400, f"cannot set up this game: {e}") from None


def _duration(seconds: float) -> str:
    minutes = round(seconds / 60)
    if minutes >= 1:
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    return f"{max(1, round(seconds))} s"


def _humans(seats: list[dict[str, Any]]) -> int:
    return sum(s["kind"] == "human" for s in seats)


def replay_frames(record: Any) -> dict[str, Any]:
    """A replay of a record: every move with who played it and what it scored, and the
    tracks after each move (all from the engine). No rack is included."""
    game, entries = posted_record(record, "replayed")
    return views.replay(from_record(start_record(record)), game, entries, record.get("names"))

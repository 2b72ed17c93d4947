"""One live game of `genial serve` in memory: the `Table` holds the game, who sits where
(seat kinds and names, the hashes of the seats' tokens and open invites), the table's
settings (away time, clock, hints), the bag's commitment and the live pages listening.

Every rule stays in the core: legal placements come from ``Game.legal_moves()``, the points
a candidate would score from playing it on a clone, the ranking from ``Game.ranks()``. A
seat's view is built from a `GameView` of that seat (`views.state`), so it cannot hold
another seat's rack.

Who may take or hand on a seat is `seats`; tables are made, found and let go by the lobby
(`lobby`); their moves, bots, engines and clocks are the round's (`round`).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from .._core import IllegalMoveError
from ..bots import forfeit_ranks
from ..game import Game
from ..records import RecordError, from_record, start_record
from ..refusals import refusal_text
from ..translation import current, tr
from ..variants import Rules
from . import study, views
from .commitment import commitment
from .errors import ApiError
from .seats import clean_name
from .store import GameRow, Store, hash_token

__all__ = [
    "DEFAULT_AWAY_S",
    "FAIR_SEED_HUMANS",
    "Listener",
    "Table",
    "humans",
    "posted_record",
    "record_names",
    "replay_frames",
    "replay_record",
    "save_seats",
]

#: Moves shown in a view's log (the whole game is in the record).
LOG_TAIL = 16
#: From this many people at the table the server draws the seed itself and refuses one sent.
FAIR_SEED_HUMANS = 2
#: How long a held seat's holder must be away before another player may hand it on, unless
#: the table chose otherwise (``away_minutes``; 0: never).
DEFAULT_AWAY_S = 600.0
#: A seat's page opened or closed is told to the others at most this often (s).
PRESENCE_DELAY = 0.25
#: Spectators are sent the latest state at most this often (s): however many changes come
#: meanwhile, one state, so a crowd of spectators costs one serialization and one send each
#: per tick, and a slow one is due the latest state only, never a queue of them.
SPECTATOR_INTERVAL = 0.5
#: A state with a running clock is made anew for a page's first state once it is older.
CLOCK_FRESH_S = 1.0


def replay_record(record: dict[str, Any]) -> tuple[Game, list[dict[str, Any]], list[dict[str, Any]]]:
    """Replays a record move by move: the game, its move log (who moved, what it scored)
    and the public frames of a replay (tracks after each move)."""
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise RecordError(tr("record field 'moves' must be a list"))
    game = from_record(start_record(record))
    entries: list[dict[str, Any]] = []
    frames: list[dict[str, Any]] = [views.frame(game)]
    for i, m in enumerate(moves):
        if not isinstance(m, str):
            raise RecordError(
                tr("move {i} must be text like 'R0,-4+B1,-4', not {kind}").format(i=i, kind=type(m).__name__)
            )
        seat = game.current_player
        try:
            result = game.play(m)
        except IllegalMoveError as e:
            raise RecordError(
                tr("move {i} ({move}) cannot be played: {why}").format(i=i, move=repr(m), why=refusal_text(str(e)))
            ) from None
        entries.append(views.entry(i, seat, result))
        frames.append(views.frame(game))
    return game, entries, frames


def posted_record(record: Any, doing: str) -> tuple[Game, list[dict[str, Any]]]:
    """A record a page sent, replayed (`replay_record`): the game and its move log; anything
    else is a 400 saying why the record cannot be ``doing`` (loaded, reviewed)."""
    if not isinstance(record, dict):
        raise ApiError(400, tr("record must be a game record object (Game.to_json)"))
    try:
        game, entries, _ = replay_record(record)
    except RecordError as e:
        raise ApiError(
            400, tr("record cannot be {doing}: {why}").format(doing=doing, why=refusal_text(str(e)))
        ) from None
    return game, entries


def record_names(record: dict[str, Any], players: int) -> list[str]:
    """The seats' names a record gives, or ``Seat 1`` ... when it gives none that fit."""
    names = record.get("names")
    if isinstance(names, list) and len(names) == players and all(isinstance(n, str) for n in names):
        return [clean_name(n) or tr("Seat {n}").format(n=i + 1) for i, n in enumerate(names)]
    return [tr("Seat {n}").format(n=i + 1) for i in range(players)]


@dataclass(eq=False)
class Listener:
    """One open live connection: the seat it belongs to (None: a spectator)."""

    seat: int | None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    sent: int = 0  # states sent to it


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
        self.placements: dict[tuple[int, int], bytes] = {}  # (version, rack slot) -> placements, encoded
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
        self.clock_timer: asyncio.TimerHandle | None = None
        now = time.time()
        # When each seat's holder was last seen (a request with its token, or a live page);
        # a server that restarts counts everybody as just seen.
        self.seen_at = [now] * len(self.seats)
        self.invited_at = [now] * len(self.seats)  # when each open invite was made
        self.touched = time.monotonic()  # when it was last asked for (`Lobby.evict`)
        # Live updates: every change bumps the epoch and wakes the seats' pages at once and
        # the spectators at the next tick (`SPECTATOR_INTERVAL`); each state is encoded once
        # per epoch and audience (each seat, and the spectators together: `encoded` counts
        # them), and presence alone (a page opened or closed) is told at most once per
        # PRESENCE_DELAY.
        self.epoch = 0
        self.encoded = 0
        # (audience, language) -> (text, when made): a page reads its texts in its language.
        self._texts: dict[tuple[int | None, str], tuple[str, float]] = {}
        self._texts_epoch = -1
        self._tick: asyncio.TimerHandle | None = None
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

    # ----- who is who --------------------------------------------------------------------------

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds; None without a token; 403 for a token of no seat."""
        if token is None or token == "":
            return None
        digest = hash_token(token)
        for seat, h in enumerate(self.tokens):
            if h is not None and secrets.compare_digest(h, digest):
                self.seen_at[seat] = time.time()
                return seat
        raise ApiError(403, tr("this token holds no seat in game {id}").format(id=self.id))

    def end_invites(self) -> bool:
        """The game has ended: the invites still open die with it (a stranger holding one
        would get a seat's token, and with it the rematch's seat). Whether any was open."""
        if not self.over or not any(self.invites):
            return False
        self.invites = [None] * len(self.invites)
        return True

    # ----- the clock ---------------------------------------------------------------------------

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

    # ----- live updates ------------------------------------------------------------------------

    def notify(self) -> None:
        """The game changed: every seat's live page is sent its state now, and the
        spectators theirs at the next tick (once, however many changes came meanwhile)."""
        self.epoch += 1
        if self._presence is not None:
            self._presence.cancel()
            self._presence = None
        for lis in self.listeners:
            if lis.seat is not None:
                lis.wake.set()
        if self._tick is None and any(lis.seat is None for lis in self.listeners):
            self._tick = asyncio.get_running_loop().call_later(SPECTATOR_INTERVAL, self.tick_spectators)

    def tick_spectators(self) -> None:
        """The spectators are sent the latest state (`notify` arms this)."""
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
        for lis in self.listeners:
            if lis.seat is None:
                lis.wake.set()

    def presence_changed(self) -> None:
        """A seat's page opened or closed: told to every page within `PRESENCE_DELAY`, in one
        update however many came meanwhile (a client cycling connections cannot make every
        spectator be sent a state each time)."""
        if self._presence is None:
            self._presence = asyncio.get_running_loop().call_later(PRESENCE_DELAY, self.notify)

    def view_text(self, seat: int | None, first: bool = False) -> str:
        """`view` as the JSON text sent, made once per change, audience (a seat, or the
        spectators) and language (the one in use: the connection's, `genial.translation`). With a clock, the time left is as of when the text was made (the page
        counts down from there; the server keeps the time): a page's ``first`` state is made
        anew if that was over `CLOCK_FRESH_S` ago, so a page opened late in a turn shows
        the time left now."""
        if self._texts_epoch != self.epoch:
            self._texts.clear()
            self._texts_epoch = self.epoch
        now = time.monotonic()
        key = (seat, current())
        made = self._texts.get(key)
        stale = made is not None and first and self.clock_running() is not None and now - made[1] > CLOCK_FRESH_S
        if made is None or stale:
            self.encoded += 1
            made = self._texts[key] = (json.dumps(self.view(seat), separators=(",", ":")), now)
        return made[0]

    def spectators(self) -> int:
        return sum(lis.seat is None for lis in self.listeners)

    # ----- seats and their holders -------------------------------------------------------------

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
        return self.commitment is not None and humans(self.seats) >= FAIR_SEED_HUMANS and not self.humans_moved()

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

    def event(self, kind: str, seat: int) -> dict[str, Any]:
        """A seat's event (joined, handed, left, redealt) as every seat is shown it."""
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

    # ----- what a seat sees --------------------------------------------------------------------

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


def humans(seats: list[dict[str, Any]]) -> int:
    """How many of the seats are people's."""
    return sum(s["kind"] == "human" for s in seats)


def replay_frames(record: Any) -> dict[str, Any]:
    """A replay of a record: every move with who played it and what it scored, and the
    tracks after each move (all from the engine). No rack is included."""
    game, entries = posted_record(record, "replayed")
    return study.replay(from_record(start_record(record)), game, entries, record.get("names"))


def save_seats(store: Store, table: Table) -> None:
    """Stores the table's seats (tokens, invites, events) and tells every live page."""
    table.updated = store.update_seats(
        table.id,
        version=table.version,
        tokens=table.tokens,
        invites=table.invites,
        events=table.events,
        summary=table.summary(),
    )
    table.notify()

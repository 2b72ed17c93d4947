"""Who sits where in a game of `genial serve`: people, who claim their seat with a one-time
invite, and bots, within the operator's limits.

A seat's secret token is made when the seat is claimed and handed to the claimer only: the
creator of a game gets the token of the seat they sit in and an invite code for each other
human seat. An invite is exchanged once for a fresh token (`claim`); the server keeps
SHA-256 hashes of tokens and open invites, never the secrets themselves.

The seat security is here: a seat is claimed once (`claim`), handed on only by its holder,
by another player once its holder has been away for the table's time or has left
(`hand_on`, `leave`), and a seat whose rack was seen before any person moved makes a new
deal from the table's own rule set (`redeal`). These act on a `tables.Table`; the lobby
(`lobby.Lobby`) stores what they change.
"""

from __future__ import annotations

import json
import secrets
import time
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..bots import BUILTIN_BOTS, make
from ..game import Game
from ..refusals import refusal_text
from ..translation import ntr, tr
from .commitment import commitment, new_salt
from .errors import ApiError
from .store import hash_token

if TYPE_CHECKING:
    from .tables import Table

__all__ = [
    "MAX_NAME",
    "BotLimits",
    "check_seats",
    "claim",
    "clean_name",
    "hand_on",
    "leave",
    "new_invite",
    "new_token",
    "redeal",
]

MAX_NAME = 40


def clean_name(text: str) -> str:
    """A name as pages show it: without control and format characters (NUL, line breaks,
    bidi overrides such as U+202E, zero-width characters: Unicode's categories C*), with
    surrounding blanks stripped, at most `MAX_NAME` characters."""
    return "".join(ch for ch in text if unicodedata.category(ch)[0] != "C").strip()[:MAX_NAME]


def new_token() -> str:
    """A seat's secret token (144 random bits)."""
    return secrets.token_urlsafe(18)


def new_invite() -> str:
    """A one-time invite code (96 random bits)."""
    return secrets.token_urlsafe(12)


@dataclass(frozen=True)
class BotLimits:
    """What the operator lets a game's creator ask of a bot: the levels as they come, or,
    with ``options`` allowed, bot options up to ``max_iterations`` search iterations and
    ``max_think_ms`` thinking time per move. The thinking time is also enforced while a
    bot thinks (`workers.BotWorkers`)."""

    max_iterations: int = 20_000
    max_think_ms: int = 10_000
    options: bool = False

    def meta(self) -> dict[str, Any]:
        """What the lobby needs to know (sent in ``/api/meta``)."""
        return {"options": self.options, "max_iterations": self.max_iterations, "max_think_ms": self.max_think_ms}

    def check(self, i: int, bot: str, options: dict[str, Any]) -> None:
        if options and not self.options:
            raise ApiError(
                400,
                tr(
                    "seat {i}: this server offers the bots as they come (choose a level); bot options need the operator's --allow-bot-options"
                ).format(i=i),
            )
        for key, cap, flag in (
            ("iterations", self.max_iterations, "--max-iterations"),
            ("time_ms", self.max_think_ms, "--max-think-ms"),
        ):
            value = options.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value > cap:
                raise ApiError(
                    400,
                    tr("seat {i}: {key}={value} is above this server's cap of {cap} ({flag})").format(
                        i=i, key=key, value=value, cap=cap, flag=flag
                    ),
                )


def check_seats(raw: Any, players: int, limits: BotLimits, engines: Collection[str] = ()) -> list[dict[str, Any]]:
    """The seats of a new game, checked: ``{"kind": "human", "name": ...}``, ``{"kind":
    "bot", "bot": name, "options": {...}}`` or ``{"kind": "bot", "engine": NAME}`` (one of
    the ``engines`` the operator listed with ``--engine NAME=COMMAND``: a request names an
    engine, never a command), one per player."""
    if not isinstance(raw, list):
        raise ApiError(400, tr("seats must be a list with one entry per player"))
    if len(raw) != players:
        raise ApiError(
            400,
            tr("{players} players need {players2} seats, not {raw}").format(
                players=players, players2=players, raw=len(raw)
            ),
        )
    seats: list[dict[str, Any]] = []
    for i, s in enumerate(raw):
        if not isinstance(s, dict):
            raise ApiError(400, tr('seat {i} must be an object like {{"kind": "human"}}').format(i=i))
        kind = s.get("kind")
        name = s.get("name")
        if name is not None and not isinstance(name, str):
            raise ApiError(400, tr("seat {i}: name must be text").format(i=i))
        name = clean_name(name or "")
        if kind == "human":
            seats.append({"kind": "human", "name": name or tr("Player {n}").format(n=i + 1)})
        elif kind == "bot" and "engine" in s:
            engine = s.get("engine")
            if "bot" in s or s.get("options"):
                raise ApiError(
                    400, tr("seat {i}: an engine seat names its engine only (no bot, no options)").format(i=i)
                )
            if not isinstance(engine, str) or engine not in engines:
                offered = ", ".join(sorted(engines)) or "none on this server"
                shown = repr(engine[:40]) if isinstance(engine, str) else "?"
                raise ApiError(
                    400,
                    tr("seat {i}: unknown engine {shown}: this server offers {offered}").format(
                        i=i, shown=shown, offered=offered
                    ),
                )
            label = f"engine {engine}"
            seats.append({"kind": "bot", "engine": engine, "options": {}, "name": name or engine, "label": label})
        elif kind == "bot":
            bot = s.get("bot")
            options = s.get("options") or {}
            if not isinstance(bot, str):
                raise ApiError(
                    400, tr("seat {i}: a bot seat names its bot ({names})").format(i=i, names=", ".join(BUILTIN_BOTS))
                )
            if not isinstance(options, dict):
                raise ApiError(400, tr("seat {i}: bot options must be an object").format(i=i))
            if bot not in BUILTIN_BOTS:
                raise ApiError(
                    400,
                    tr("seat {i}: unknown bot {bot}: use {names}").format(
                        i=i, bot=repr(bot), names=", ".join(BUILTIN_BOTS)
                    ),
                )
            limits.check(i, bot, options)
            try:
                label = make(bot, 0, **options).label
            except (ValueError, TypeError, OverflowError) as e:
                raise ApiError(400, tr("seat {i}: {why}").format(i=i, why=refusal_text(str(e)))) from None
            seats.append({"kind": "bot", "bot": bot, "options": options, "name": name or label, "label": label})
        else:
            raise ApiError(400, tr('seat {i}: kind must be "human" or "bot", not {kind}').format(i=i, kind=repr(kind)))
    return seats


# ----- a table's seats changing hands --------------------------------------------------------


def claim(table: Table, code: Any) -> tuple[int, str]:
    """Exchanges a one-time invite for its seat and a fresh token (the invite is spent).
    The ``joined`` event says whether the seat's rack was held by someone else before
    (``inherited``: it was handed on after the first move, so no new deal was possible)."""
    if not isinstance(code, str) or not code:
        raise ApiError(400, tr('claim a seat with {{"invite": "<the code of your invite link>"}}').format())
    digest = hash_token(code)
    for seat, h in enumerate(table.invites):
        if h is not None and secrets.compare_digest(h, digest):
            token = new_token()
            table.invites[seat] = None
            table.tokens[seat] = hash_token(token)
            table.seen_at[seat] = time.time()
            table.events.append({**table.event("joined", seat), "inherited": table.inherited(seat)})
            return seat, token
    if table.over:
        raise ApiError(409, tr("the game is over: an invite not used before its end seats nobody"))
    raise ApiError(409, tr("this invite is not valid (any more): an invite seats one person once; ask for a new one"))


def hand_on(table: Table, by: int, seat: Any) -> tuple[str, bool]:
    """``by`` hands ``seat`` on: its token stops working, and a fresh invite (returned)
    will seat the newcomer. A held seat is handed on by its holder, or by another player
    once the holder has been away for the table's ``away_s`` (never with 0); a seat
    whose holder left, by anyone; an invite still open, once it has been open that
    long. A seat whose rack was seen, handed on before any person has moved, gets a new
    deal from a new bag with a new commitment (every rack changes; `redeal`), so the
    rack its holder saw is never played; after that, the newcomer is told that the rack
    was held by someone else. Every seat sees the event. Returns the invite and whether
    the game was dealt anew."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(table.seats):
        raise ApiError(400, tr("seat must be a seat number 0..{len}").format(len=len(table.seats) - 1))
    if table.seats[seat]["kind"] != "human":
        raise ApiError(400, tr("seat {seat} is a bot's").format(seat=seat))
    if table.over:
        raise ApiError(409, tr("the game is over"))
    held = table.tokens[seat] is not None
    name = table.seats[seat]["name"]
    if seat == by:
        reason = "own"
    elif table.vacant(seat):
        reason = "left"
    else:
        wait = table.hand_on_in(seat)
        if wait is None or wait > 0:
            after = (
                tr("this table never hands on a seat for being away")
                if wait is None
                else tr("it can be handed on after {away} away (in {wait})").format(
                    away=_duration(table.away_s), wait=_duration(wait)
                )
            )
            what = (tr("{name} holds this seat") if held else tr("{name}'s invite is still open")).format(name=name)
            raise ApiError(
                409,
                tr("{what}: only its holder can give it to someone else, or leave it; {after}").format(
                    what=what, after=after
                ),
            )
        reason = "away" if held else "open"
    seen = held or table.inherited(seat)
    anew = held and table.can_redeal()
    code = new_invite()
    _vacate(table, seat)
    table.invites[seat] = hash_token(code)
    table.invited_at[seat] = time.time()
    table.events.append({**table.event("handed", seat), "by": by, "reason": reason, "seen": seen and not anew})
    if anew:
        redeal(table, seat)
    return code, anew


def leave(table: Table, seat: int) -> bool:
    """The holder of ``seat`` leaves it (resigns the seat): its token stops working and
    any player may hand it on. Before any person has moved, the game is dealt anew, as
    for a seat handed on. Returns whether it was."""
    if table.over:
        raise ApiError(409, tr("the game is over"))
    anew = table.can_redeal()
    _vacate(table, seat)
    table.events.append({**table.event("left", seat), "seen": not anew})
    if anew:
        redeal(table, seat)
    return anew


def _vacate(table: Table, seat: int) -> None:
    table.tokens[seat] = None
    table.invites[seat] = None
    for lis in table.listeners:
        if lis.seat == seat:
            lis.seat = None  # the seat's open page now watches


def redeal(table: Table, seat: int) -> None:
    """A new deal from a new bag (a new secret seed) with a new salt and commitment,
    the game started again; every seat sees the new commitment in a ``redealt`` event."""
    table.game = Game(seed=secrets.randbits(63), rules=table.rules)
    table.log = []
    table.bag = [str(t) for t in json.loads(table.game.to_json()).get("bag", [])]
    table.salt = new_salt()
    assert table.game.seed is not None
    table.commitment = commitment(table.salt, table.game.seed, table.bag)
    table.placements.clear()
    table.hint = None
    table.events.append({**table.event("redealt", seat), "commitment": table.commitment})


def _duration(seconds: float) -> str:
    minutes = round(seconds / 60)
    if minutes >= 1:
        return ntr("{n} minute", "{n} minutes", minutes).format(n=minutes)
    return tr("{n} s").format(n=max(1, round(seconds)))

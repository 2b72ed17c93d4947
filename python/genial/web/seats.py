"""Who sits where in a game of `genial serve`: people, who claim their seat with a one-time
invite, and bots, within the operator's limits.

A seat's secret token is made when the seat is claimed and handed to the claimer only: the
creator of a game gets the token of the seat they sit in and an invite code for each other
human seat. An invite is exchanged once for a fresh token (`Table.claim`); the server keeps
SHA-256 hashes of tokens and open invites, never the secrets themselves.
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from ..bots import BUILTIN_BOTS, make
from .errors import ApiError

__all__ = ["MAX_NAME", "BotLimits", "check_seats", "clean_name", "new_invite", "new_token"]

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
                f"seat {i}: this server offers the bots as they come (choose a level); bot options "
                "need the operator's --allow-bot-options",
            )
        for key, cap, flag in (
            ("iterations", self.max_iterations, "--max-iterations"),
            ("time_ms", self.max_think_ms, "--max-think-ms"),
        ):
            value = options.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value > cap:
                raise ApiError(400, f"seat {i}: {key}={value} is above this server's cap of {cap} ({flag})")


def check_seats(raw: Any, players: int, limits: BotLimits, engines: Collection[str] = ()) -> list[dict[str, Any]]:
    """The seats of a new game, checked: ``{"kind": "human", "name": ...}``, ``{"kind":
    "bot", "bot": name, "options": {...}}`` or ``{"kind": "bot", "engine": NAME}`` (one of
    the ``engines`` the operator listed with ``--engine NAME=COMMAND``: a request names an
    engine, never a command), one per player."""
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
        name = clean_name(name or "")
        if kind == "human":
            seats.append({"kind": "human", "name": name or f"Player {i + 1}"})
        elif kind == "bot" and "engine" in s:
            engine = s.get("engine")
            if "bot" in s or s.get("options"):
                raise ApiError(400, f"seat {i}: an engine seat names its engine only (no bot, no options)")
            if not isinstance(engine, str) or engine not in engines:
                offered = ", ".join(sorted(engines)) or "none on this server"
                shown = repr(engine[:40]) if isinstance(engine, str) else "?"
                raise ApiError(400, f"seat {i}: unknown engine {shown}: this server offers {offered}")
            label = f"engine {engine}"
            seats.append({"kind": "bot", "engine": engine, "options": {}, "name": name or engine, "label": label})
        elif kind == "bot":
            bot = s.get("bot")
            options = s.get("options") or {}
            if not isinstance(bot, str):
                raise ApiError(400, f"seat {i}: a bot seat names its bot ({', '.join(BUILTIN_BOTS)})")
            if not isinstance(options, dict):
                raise ApiError(400, f"seat {i}: bot options must be an object")
            if bot not in BUILTIN_BOTS:
                raise ApiError(400, f"seat {i}: unknown bot {bot!r}: use {', '.join(BUILTIN_BOTS)}")
            limits.check(i, bot, options)
            try:
                label = make(bot, 0, **options).label
            except (ValueError, TypeError, OverflowError) as e:
                raise ApiError(400, f"seat {i}: {e}") from None
            seats.append({"kind": "bot", "bot": bot, "options": options, "name": name or label, "label": label})
        else:
            raise ApiError(400, f'seat {i}: kind must be "human" or "bot", not {kind!r}')
    return seats

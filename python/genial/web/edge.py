"""What `genial serve` checks before a request reaches a game: the Host it was sent to, the
Origin of a page that posts or opens a live connection, the content type and size of a
body, how fast one address creates games; and the access log.

- **Host**: ``localhost``, an IP address, or a name the operator serves (``--public-url``,
  ``--allowed-host``). Any other name is refused, so a hostile site whose name was made to
  point at this machine (DNS rebinding) gets nothing.
- **Origin** (every POST and WebSocket that carries one, as browsers do): the page's own
  origin (the Origin's host is the request's Host) or one the operator lists. Requests
  without an Origin come from programs, not from a page a person was lured to.
- **Body**: POSTs are ``application/json``, at most ``max_body`` bytes, refused by their
  ``Content-Length`` before reading and cut off at the limit when it is missing or wrong.
- **New games**: at most ``new_games_per_minute`` per client address (a token bucket, the
  same number as a burst).
- **Language**: each request is answered in the language it asks for (`request_language`:
  a live connection's ``?lang=``, else ``Accept-Language``), English for anything else; the
  texts the server makes for it (refusals, statuses, endings) are in that language.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ..translation import from_accept_language, language_of, tr, use
from .errors import ApiError

__all__ = ["SECURITY_HEADERS", "AccessLog", "Edge", "EdgeRules", "RateLimit", "host_name", "request_language"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

access_log = logging.getLogger("genial.access")

#: Sent with every HTTP response: the page runs only its own scripts and connects only to its
#: own server (seat tokens live in its localStorage), no other site may frame it, and no
#: response is read as another type than it says.
SECURITY_HEADERS = (
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)

_SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


@dataclass(frozen=True)
class EdgeRules:
    """The operator's choices: extra host names served, extra origins allowed, the largest
    body, and the pace of new games per client address (0: no limit)."""

    hosts: frozenset[str] = frozenset()
    origins: frozenset[str] = frozenset()
    max_body: int = 1_100_000
    new_games_per_minute: float = 20.0

    def host_allowed(self, host: str) -> bool:
        name = host_name(host)
        if name is None:
            return False
        if name == "localhost" or name in self.hosts or "*" in self.hosts:
            return True
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True

    def origin_allowed(self, origin: str, host: str) -> bool:
        if origin in self.origins:
            return True
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return False  # "null" (a sandboxed frame, a file) and the like
        return parts.netloc.lower() == host.lower()


def host_name(host: str) -> str | None:
    """The name in a Host header, without its port (``[::1]:8000`` -> ``::1``); None when
    it is not a valid host."""
    host = host.strip().lower()
    if not host:
        return None
    if host.startswith("["):
        end = host.find("]")
        if end < 0:
            return None
        rest = host[end + 1 :]
        if rest and not (rest.startswith(":") and rest[1:].isdigit()):
            return None
        return host[1:end]
    name, _, port = host.partition(":")
    if port and not port.isdigit():
        return None
    return name.rstrip(".") or None


def _headers(scope: Scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for k, v in scope.get("headers", []):
        out[k.decode("latin-1").lower()] = v.decode("latin-1")
    return out


@dataclass
class RateLimit:
    """A token bucket per client address: ``per_minute`` actions a minute, as a burst too."""

    per_minute: float
    #: What is counted, for the refusal's message.
    what: str = "new games"
    _buckets: dict[str, tuple[float, float]] = field(default_factory=dict)

    def take(self, client: str) -> None:
        """Counts one action of ``client``; a 429 when it has none left."""
        if self.per_minute <= 0:
            return
        now = time.monotonic()
        tokens, last = self._buckets.get(client, (self.per_minute, now))
        tokens = min(self.per_minute, tokens + (now - last) * self.per_minute / 60.0)
        if tokens < 1.0:
            wait = (1.0 - tokens) * 60.0 / self.per_minute
            raise ApiError(
                429,
                tr("too many {what} from your address: at most {per_minute} a minute; try again in {wait} s").format(
                    what=self.what, per_minute=format(self.per_minute, "g"), wait=format(wait, ".0f")
                ),
            )
        self._buckets[client] = (tokens - 1.0, now)
        if len(self._buckets) > 10_000:  # forget the addresses whose bucket is full again
            full = [
                c for c, (t, at) in self._buckets.items() if t + (now - at) * self.per_minute / 60 >= self.per_minute
            ]
            for c in full:
                del self._buckets[c]


class AccessLog:
    """One line per request, for the operator: time, client, request line (no query string:
    it may name a tile of a rack), status, bytes sent and milliseconds. Tokens travel in
    headers and invite codes in the page's address fragment, so neither is ever logged."""

    def line(self, scope: Scope, status: int, size: int, started: float) -> None:
        client = scope.get("client")
        addr = client[0] if client else "-"
        method = scope.get("method", "WS")
        ms = (time.perf_counter() - started) * 1000
        when = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())
        access_log.info('%sZ %s "%s %s" %d %d %.1fms', when, addr, method, scope.get("path", ""), status, size, ms)


class Edge:
    """The ASGI middleware that applies `EdgeRules` and writes the access log."""

    def __init__(self, app: App, rules: EdgeRules, log: AccessLog | None = None) -> None:
        self.app = app
        self.rules = rules
        self.log = log
        #: The wrapped app's state (Starlette's ``app.state``: ``.hub`` holds the games).
        self.state: Any = getattr(app, "state", None)

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """Why the request is refused (status, message), or None."""
        headers = _headers(scope)
        host = headers.get("host", "")
        if not self.rules.host_allowed(host):
            return (
                400,
                tr(
                    "this server does not serve the host {host} (the operator lists its names with --allowed-host)"
                ).format(host=repr(host)),
            )
        method = scope.get("method", "GET")
        if scope["type"] == "websocket" or method not in _SAFE_METHODS:
            origin = headers.get("origin")
            if origin is not None and not self.rules.origin_allowed(origin, host):
                return (
                    403,
                    tr(
                        "requests from pages at {origin} are refused (the operator lists origins with --allowed-origin)"
                    ).format(origin=repr(origin)),
                )
        if scope["type"] == "http" and method not in _SAFE_METHODS:
            media = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if media != "application/json":
                return 415, tr("send the body as JSON, with Content-Type: application/json")
            length = headers.get("content-length")
            if length is not None:
                if not length.strip().isdigit():
                    return 400, tr("Content-Length must be a number of bytes")
                if int(length) > self.rules.max_body:
                    return 413, tr("request body is larger than {limit} bytes").format(limit=self.rules.max_body)
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status, size = 0, 0

        async def logged(message: Message) -> None:
            nonlocal status, size
            kind = message["type"]
            if kind == "http.response.start":
                status = int(message["status"])
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            elif kind == "http.response.body":
                size += len(message.get("body", b""))
            elif kind == "websocket.accept":
                status = 101
            elif kind == "websocket.close" and status == 0:
                status = 403
            await send(message)

        try:
            # The language in use (genial.translation) for all this request does, a live
            # connection's whole life included: its states are made in it.
            with use(request_language(scope)):
                await self._checked(scope, receive, logged)
        finally:
            if self.log is not None:
                self.log.line(scope, status, size, started)

    async def _checked(self, scope: Scope, receive: Receive, logged: Send) -> None:
        refused = self.refusal(scope)
        if refused is None:
            await self.app(scope, receive, logged)
        elif scope["type"] == "websocket":
            # A close frame's reason is at most 123 bytes: cut as UTF-8 (a translation's accents).
            reason = refused[1].encode("utf-8")[:120].decode("utf-8", "ignore")
            await logged({"type": "websocket.close", "code": 4000 + refused[0], "reason": reason})
        else:
            await _json(logged, refused[0], {"error": refused[1]})


def request_language(scope: Scope) -> str:
    """The language a request asks for: a live connection's ``?lang=`` (a page cannot set a
    WebSocket's headers), else its ``Accept-Language`` (the page sends its chosen language
    with every request); English for anything unknown or malformed."""
    if scope["type"] == "websocket":
        query = scope.get("query_string", b"").decode("latin-1")
        asked = parse_qs(query[:200]).get("lang")
        if asked:
            return language_of(asked[0][:40])
    return from_accept_language(_headers(scope).get("accept-language"))


async def _json(send: Send, status: int, data: dict[str, Any]) -> None:
    body = json.dumps(data).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status in (400, 413, 415):
        headers.append((b"connection", b"close"))  # the unread body goes with the connection
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})

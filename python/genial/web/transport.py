"""The HTTP connections of `genial serve` (uvicorn's protocol, with two more timeouts).

uvicorn closes a keep-alive connection that stays idle after a response for
``timeout_keep_alive`` seconds, but a connection that never sends a request at all is kept
open for ever, and so is one that sends half a request (its headers or its body) and stops:
a few thousand such sockets exhaust the server's file descriptors and lock every visitor
out. Here a connection must begin its request within ``timeout_keep_alive`` seconds (5 by
default), as an idle one, and send the whole of it (headers and body) within
`REQUEST_TIMEOUT_S` of its first byte, or it is closed. Connections upgraded to WebSockets
leave both timers behind (the live route bounds their hello, uvicorn's pings the rest).
"""

from __future__ import annotations

import asyncio
from typing import Any

__all__ = ["REQUEST_TIMEOUT_S", "http_protocol"]

REQUEST_TIMEOUT_S = 10.0
"""How long a request may take to arrive whole, from its first byte (a record of a megabyte
takes under a second on any link that can play; a client trickling bytes holds a descriptor
for no longer than this)."""


def http_protocol(request_timeout: float = REQUEST_TIMEOUT_S, *, h11: bool = False) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools where installed and ``h11`` is false, else h11)
    whose connections must send their first request within ``timeout_keep_alive`` seconds
    and every request whole within ``request_timeout`` seconds of its first byte."""
    try:
        if h11:
            raise ImportError
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # httptools missing: uvicorn uses h11
        return _h11_protocol(request_timeout)

    class Timeouts(HttpToolsProtocol):
        request_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._unset_keepalive_if_required()
            self.timeout_keep_alive_task = self.loop.call_later(
                self.timeout_keep_alive, self.timeout_keep_alive_handler
            )

        def on_message_begin(self) -> None:
            super().on_message_begin()
            _cancel(self)
            self.request_timer = self.loop.call_later(request_timeout, _close, self)

        def on_message_complete(self) -> None:
            _cancel(self)
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            _cancel(self)
            super().handle_websocket_upgrade()

        def connection_lost(self, exc: Exception | None) -> None:
            _cancel(self)
            super().connection_lost(exc)

    return Timeouts


def _h11_protocol(request_timeout: float) -> type[asyncio.Protocol]:
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Timeouts(H11Protocol):
        request_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._unset_keepalive_if_required()
            self.timeout_keep_alive_task = self.loop.call_later(
                self.timeout_keep_alive, self.timeout_keep_alive_handler
            )

        def data_received(self, data: bytes) -> None:
            if self.request_timer is None and self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
                self.request_timer = self.loop.call_later(request_timeout, _close, self)
            super().data_received(data)
            if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):  # whole, upgraded or closed
                _cancel(self)

        def connection_lost(self, exc: Exception | None) -> None:
            _cancel(self)
            super().connection_lost(exc)

    return Timeouts


def _cancel(protocol: Any) -> None:
    if protocol.request_timer is not None:
        protocol.request_timer.cancel()
        protocol.request_timer = None


def _close(protocol: Any) -> None:
    """A request not received whole in time: its connection is closed."""
    protocol.request_timer = None
    if not protocol.transport.is_closing():
        protocol.transport.close()

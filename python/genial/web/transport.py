"""The HTTP connections of `genial serve` (uvicorn's protocol, with one more timeout).

uvicorn closes a keep-alive connection that stays idle after a response for
``timeout_keep_alive`` seconds, but a connection that never sends a request at all is kept
open for ever: a few thousand idle sockets exhaust the server's file descriptors and lock
every visitor out. `HandshakeTimeout` starts the same timer when the connection is made, so
a connection must begin its request within ``timeout_keep_alive`` seconds (5 by default).
Connections upgraded to WebSockets are kept alive by uvicorn's pings.
"""

from __future__ import annotations

import asyncio
from typing import Any

__all__ = ["http_protocol"]


def http_protocol() -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools where installed, else h11) whose connections must
    send their first request within ``timeout_keep_alive`` seconds."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as Base
    except ImportError:  # httptools missing: uvicorn uses h11
        from uvicorn.protocols.http.h11_impl import H11Protocol as Base  # type: ignore[assignment]

    class HandshakeTimeout(Base):
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._unset_keepalive_if_required()
            self.timeout_keep_alive_task = self.loop.call_later(
                self.timeout_keep_alive, self.timeout_keep_alive_handler
            )

    return HandshakeTimeout

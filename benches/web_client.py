"""What the web benches share (`web_load`, `web_attacks`, `web_bots`): a server of their own,
a minimal HTTP client, the scripted human's choice of move, and the percentiles they print."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: The colour letters of a tile in the API (``?tile=RO``), by colour index.
LETTERS = "ROYGBP"


class Http:
    """A minimal HTTP/1.1 keep-alive connection: each request leaves in one write (no Nagle
    wait between headers and body), so the timing measures the server, not the client."""

    def __init__(self, host: str, port: int, local: str | None = None) -> None:
        self.host, self.port = host, port
        self.local = local  # the loopback address to connect from (None: the system's choice)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.last_used = 0.0

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        if self.writer is not None and time.monotonic() - self.last_used > 3.0:
            self.writer.close()  # the server drops idle keep-alive connections after 5 s
            self.writer = None
        if self.writer is None:
            local_addr = None if self.local is None else (self.local, 0)
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port, local_addr=local_addr)
            sock = self.writer.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        assert self.reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
        if token:
            head += f"X-Seat-Token: {token}\r\n"
        for name, value in (headers or {}).items():
            head += f"{name}: {value}\r\n"
        head += f"Content-Length: {len(data)}\r\n\r\n"
        self.writer.write(head.encode() + data)
        status_line = await self.reader.readline()
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        payload = await self.reader.readexactly(length)
        self.last_used = time.monotonic()
        return int(status_line.split()[1]), payload

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def loopback(i: int) -> str:
    """The ``i``-th client address of 127.0.0.0/8 after 127.0.0.1 (Linux routes the whole
    block to the loopback interface), so that each simulated player has an address of its
    own, as players do, and the server's per-address caps apply to each alone."""
    n = i + 2
    return f"127.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}"


async def first_placement(http: Http, gid: str, token: str, state: dict[str, Any]) -> str | None:
    """As the page does: the placements of the first rack tile that fits (with their
    points, the best first) and the first of them; ``"keep"`` at a swap offer; ``None``
    when no rack tile fits."""
    if state["phase"] == "swap_offer":
        return "keep"
    for a, b in state["rack"]:
        status, raw = await http.request("GET", f"/api/games/{gid}/options?tile={LETTERS[a]}{LETTERS[b]}", None, token)
        moves = json.loads(raw)["moves"] if status == 200 else []
        if moves:
            return str(moves[0])  # the server's text of its best placement
    return None


def percentiles_ms(seconds: list[float]) -> dict[str, float]:
    """The median, p95, p99 and maximum of at least two times, in milliseconds."""
    ms = sorted(x * 1000 for x in seconds)
    q = statistics.quantiles(ms, n=100)
    return {"median": statistics.median(ms), "p95": q[94], "p99": q[98], "max": ms[-1]}


@contextlib.contextmanager
def local_server(
    db: Path, bot_threads: int, extra: tuple[str, ...] = (), max_files: int | None = None
) -> Iterator[str]:
    """Runs ``genial serve`` in its own process on 127.0.0.1 (a free port, the database
    ``db``, no bot delay, no limit on new games, and the ``extra`` arguments; with
    ``max_files``, that open-file limit, as systemd's default of 1024) for the length of the
    block, and yields its base URL; the load benches share it."""

    def limit_files() -> None:
        import resource

        if max_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (max_files, max_files))

    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "genial",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--db",
            str(db),
            "--quiet",
            "--bot-delay",
            "0",
            "--new-games-per-minute",
            "0",
            "--bot-threads",
            str(bot_threads),
            *extra,
        ],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=limit_files if max_files is not None else None,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        for _ in range(50):  # lines before the address (the engines checked, ...)
            if "http://" in line or not line:
                break
            line = server.stdout.readline()
        if "http://" not in line:
            raise SystemExit(f"server did not start: {line!r}")
        yield "http://" + line.split("http://", 1)[1].split("/", 1)[0]
    finally:
        server.terminate()
        server.wait(10)

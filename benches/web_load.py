"""Load test of `genial serve`: many concurrent games with bot seats, a human's action timed
from the request to its acknowledgement.

    .venv/bin/python benches/web_load.py --games 200 --actions 3000 --seconds 90

Starts ``genial serve`` on 127.0.0.1 (a free port, a temporary database) in its own
process, creates ``--games`` games (a scripted human in seat 0 against ``--bot`` in seat 1),
and plays them all at once: each human listens on the game's WebSocket and, when it is to
move, thinks for a while (``--think-min``..``--think-max`` seconds, seeded per game; 0 for a
stress test without pauses), then asks for the placements of its first rack tile that fits (as the page does when a tile
is picked) and posts the first one. The time from sending the POST
to receiving its answer is recorded; the bots think in the server's worker threads and
their thinking is not part of it. Stops after ``--actions`` timed actions or ``--seconds``,
whichever comes first, prints median / p95 / p99, and stops the server. Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import websockets

LETTERS = "ROYGBP"


class Http:
    """A minimal HTTP/1.1 keep-alive connection: each request leaves in one write (no Nagle
    wait between headers and body), so the timing measures the server, not the client."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
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
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
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


class Run:
    def __init__(self, base: str, actions: int, deadline: float, think: tuple[float, float]) -> None:
        self.base = base
        self.think = think
        self.limit = actions
        self.deadline = deadline
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.finished_games = 0
        self.games = 0
        self.connected = 0
        self.ready = asyncio.Event()  # every game created and listening: the timed part begins

    def stop_now(self) -> bool:
        return len(self.latencies) >= self.limit or time.monotonic() >= self.deadline

    async def game(self, seed: int, bot: str) -> None:
        host, port = self.base.removeprefix("http://").split(":")
        http = Http(host, int(port))
        try:
            await self._game(http, seed, bot)
        finally:
            await http.close()

    async def _game(self, http: Http, seed: int, bot: str) -> None:
        status, raw = await http.request(
            "POST",
            "/api/games",
            {
                "variant": "standard",
                "players": 2,
                "seed": seed,
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": bot}],
            },
        )
        if status != 201:
            self.errors.append(f"create: {status} {raw[:120]!r}")
            return
        made = json.loads(raw)
        gid, token = made["id"], made["token"]
        ws_url = self.base.replace("http://", "ws://") + f"/api/games/{gid}/ws"
        rng = random.Random(seed)  # this game's own thinking times
        async with websockets.connect(ws_url, max_size=2**22) as ws:
            await ws.send(json.dumps({"token": token}))
            self.connected += 1
            if self.connected == self.games:
                self.ready.set()
            await self.ready.wait()
            answered = -1
            while not self.stop_now():
                try:
                    state = json.loads(
                        await asyncio.wait_for(ws.recv(), timeout=max(0.1, self.deadline - time.monotonic()))
                    )
                except TimeoutError:
                    return
                if state.get("over"):
                    self.finished_games += 1
                    return
                if state["current"] != 0 or state["version"] <= answered or "others" not in state:
                    continue
                answered = state["version"]
                # As the page does: ask for the placements of a rack tile (with their points)
                # and take the first; "keep" when a swap is offered. Not timed.
                move = "keep" if state["phase"] == "swap_offer" else None
                for a, b in state["rack"] if move is None else []:
                    status, raw = await http.request(
                        "GET", f"/api/games/{gid}/options?tile={LETTERS[a]}{LETTERS[b]}", None, token
                    )
                    moves = json.loads(raw)["moves"] if status == 200 else []
                    if moves:
                        move = moves[0]  # the server's text of its best placement
                        break
                if move is None:
                    self.errors.append(f"game {gid}: no placement found for any rack tile")
                    return
                if self.think[1] > 0:
                    await asyncio.sleep(rng.uniform(*self.think))
                    if self.stop_now():
                        return
                body = {"version": state["version"], "move": move}
                t0 = time.perf_counter()
                status, raw = await http.request("POST", f"/api/games/{gid}/move", body, token)
                elapsed = time.perf_counter() - t0
                if status != 200:
                    self.errors.append(f"{status} {raw[:120]!r}")
                    return
                self.latencies.append(elapsed)


async def main_async(args: argparse.Namespace, base: str) -> Run:
    run = Run(base, args.actions, time.monotonic() + args.seconds, (args.think_min, args.think_max))
    run.games = args.games
    await asyncio.gather(*(run.game(args.seed + i, args.bot) for i in range(args.games)))
    return run


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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--actions", type=int, default=3000, help="stop after this many timed actions")
    ap.add_argument("--seconds", type=float, default=90.0, help="stop after this long")
    ap.add_argument("--bot", default="greedy", help="the bot in seat 1 (a genial.bots name)")
    ap.add_argument("--bot-threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think-min", type=float, default=1.0, help="a human thinks at least this long (s) before acting")
    ap.add_argument("--think-max", type=float, default=3.0, help="... and at most this long (0: act at once)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "load.sqlite3"
        with local_server(db, args.bot_threads) as base:
            started = time.monotonic()
            run = asyncio.run(main_async(args, base))
            wall = time.monotonic() - started
    lat = sorted(x * 1000 for x in run.latencies)
    if not lat:
        print("no action was timed", file=sys.stderr)
        return 1
    q = statistics.quantiles(lat, n=100)
    print(
        f"genial serve load: {args.games} concurrent games (human vs {args.bot}, humans think "
        f"{args.think_min:g}-{args.think_max:g} s), {len(lat)} actions in {wall:.1f} s ({len(lat) / wall:.0f}/s), "
        f"{run.finished_games} games finished, {len(run.errors)} errors, {os.cpu_count()} cores"
    )
    print(
        f"action -> acknowledgement: median {statistics.median(lat):.1f} ms, p95 {q[94]:.1f} ms, "
        f"p99 {q[98]:.1f} ms, max {lat[-1]:.1f} ms"
    )
    for e in run.errors[:5]:
        print("  error:", e)
    return 0 if not run.errors else 1


if __name__ == "__main__":
    sys.exit(main())

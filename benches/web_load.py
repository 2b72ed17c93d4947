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
whichever comes first, prints median / p95 / p99, and stops the server. Loopback only:
each game's client connects from an address of its own in 127.0.0.0/8 (`web_client.loopback`),
as players do, so the server's per-address caps (32 live connections, the pace of new games)
apply to each game alone and ``--games 200`` is not refused at the 33rd WebSocket.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import websockets
from web_client import Http, first_placement, local_server, loopback, percentiles_ms


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

    async def game(self, i: int, seed: int, bot: str) -> None:
        host, port = self.base.removeprefix("http://").split(":")
        http = Http(host, int(port), local=loopback(i))
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
        async with websockets.connect(ws_url, max_size=2**22, local_addr=(http.local, 0)) as ws:
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
                move = await first_placement(http, gid, token, state)  # not timed
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
    await asyncio.gather(*(run.game(i, args.seed + i, args.bot) for i in range(args.games)))
    return run


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
    lat = run.latencies
    if len(lat) < 2:
        print("no action was timed" if not lat else "one action was timed: no percentiles", file=sys.stderr)
        return 1
    p = percentiles_ms(lat)
    print(
        f"genial serve load: {args.games} concurrent games (human vs {args.bot}, humans think "
        f"{args.think_min:g}-{args.think_max:g} s), {len(lat)} actions in {wall:.1f} s ({len(lat) / wall:.0f}/s), "
        f"{run.finished_games} games finished, {len(run.errors)} errors, {os.cpu_count()} cores"
    )
    print(
        f"action -> acknowledgement: median {p['median']:.1f} ms, p95 {p['p95']:.1f} ms, "
        f"p99 {p['p99']:.1f} ms, max {p['max']:.1f} ms"
    )
    for e in run.errors[:5]:
        print("  error:", e)
    return 0 if not run.errors else 1


if __name__ == "__main__":
    sys.exit(main())

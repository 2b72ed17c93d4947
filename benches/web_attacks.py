"""The attacks of issue 29 beside a fresh game against the greedy bot: how fast the bot
answers and `/api/meta` responds, idle and under each attack.

    .venv/bin/python benches/web_attacks.py --seconds 15 --spectators 1000 --sockets 1100

Starts ``genial serve`` on 127.0.0.1 (`web_client.local_server`: its own process, a temporary
database, no bot delay). A probe plays a game against ``greedy`` (the human moves at once)
and times each move from the POST to the bot's answer arriving on the game's WebSocket, and
asks ``GET /api/meta`` every 50 ms; a game that ends is replaced by a new one. Phases, each
``--seconds`` long:

- ``idle``: the probe alone;
- ``amplification``: ``--spectators`` spectators on one game between two people (or spread
  over ``--watched-games`` games), and one client opening and closing spectator connections
  to the first as fast as it can;
- ``fanout`` (issue 44): ``--spectators`` spectators, each its own address, spread over
  ``--watched-games`` live games (a person moving at once against ``greedy`` in each, a new
  game when one ends), so that every move is sent to every spectator of its game;
- ``descriptors``: ``--sockets`` TCP connections opened to the server that never send a
  request (held until the server closes them); ``--server-files 1024`` gives the server
  systemd's default open-file limit, as the issue's hosting did;
- ``review flood``: one client address (``X-Forwarded-For``, which the server trusts from
  127.0.0.1) keeps 4 reviews of finished games under way, re-asking as they finish, while
  other addresses (a new one each time) ask for one review each: the time until it starts
  (its first decision reviewed) is timed.

Prints per phase the bot's answer and the meta request's median and p95, failures, and
what each attack saw. Loopback only; each attack runs in a process of its own (an attacker
is another machine, and its clients' work must not delay the probe), on the same cores.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
import genial
from web_client import Http, first_placement, local_server, percentiles_ms


def pct(xs: list[float]) -> str:
    if len(xs) < 2:
        return f"n={len(xs)}"
    p = percentiles_ms(xs)
    return f"median {p['median']:.1f} ms, p95 {p['p95']:.1f} ms (n={len(xs)})"


class Probe:
    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.answers: list[float] = []
        self.metas: list[float] = []
        # When each was timed (seconds into the phase), to tell the attack's arrival (thousands
        # of connections opening) from its steady state.
        self.answers_at: list[float] = []
        self.metas_at: list[float] = []
        self._failures = 0
        self.started = time.monotonic()
        self.first_failure: float | None = None
        self.last_failure = 0.0
        self.stop = asyncio.Event()

    @property
    def failures(self) -> int:
        return self._failures

    @failures.setter
    def failures(self, n: int) -> None:
        at = time.monotonic() - self.started
        if self.first_failure is None:
            self.first_failure = at
        self.last_failure = at
        self._failures = n

    async def meta(self) -> None:
        http = Http(self.host, self.port)
        while not self.stop.is_set():
            t0 = time.perf_counter()
            try:
                status, _ = await asyncio.wait_for(http.request("GET", "/api/meta"), 30)
                if status == 200:
                    self.metas.append(time.perf_counter() - t0)
                    self.metas_at.append(time.monotonic() - self.started)
                else:
                    self.failures += 1
            except (OSError, asyncio.IncompleteReadError, TimeoutError, IndexError, ValueError):
                self.failures += 1  # refused, reset, or closed before an answer
                http = Http(self.host, self.port)
                await asyncio.sleep(0.2)
            await asyncio.sleep(0.05)

    async def games(self, seed: int) -> None:
        while not self.stop.is_set():
            try:
                await self.game(seed)
            except (
                OSError,
                websockets.WebSocketException,
                TimeoutError,
                asyncio.IncompleteReadError,
                IndexError,
                ValueError,
            ):
                self.failures += 1
                await asyncio.sleep(0.2)
            seed += 1

    async def game(self, seed: int) -> None:
        http = Http(self.host, self.port)
        body = {
            "variant": "standard",
            "players": 2,
            "seed": seed,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
        }
        status, raw = await http.request("POST", "/api/games", body)
        if status != 201:
            self.failures += 1
            await asyncio.sleep(0.2)
            return
        made = json.loads(raw)
        gid, token = made["id"], made["token"]
        url = f"ws://{self.host}:{self.port}/api/games/{gid}/ws"
        async with websockets.connect(url, max_size=2**22) as ws:
            await ws.send(json.dumps({"token": token}))
            sent_at: float | None = None
            answered = -1
            while not self.stop.is_set():
                state = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if state.get("type") != "state" or state.get("over"):
                    return
                if state["current"] != 0 or "others" not in state or state["version"] <= answered:
                    continue
                if sent_at is not None:
                    self.answers.append(time.perf_counter() - sent_at)
                    self.answers_at.append(time.monotonic() - self.started)
                answered = state["version"]
                move = await first_placement(http, gid, token, state) or state["others"][0]
                sent_at = time.perf_counter() if move != "keep" else None
                status, _ = await http.request(
                    "POST", f"/api/games/{gid}/move", {"version": state["version"], "move": move}, token
                )
                if status != 200:
                    self.failures += 1
                    return


async def amplification(
    host: str, port: int, spectators: int, games: int, stop: asyncio.Event, seen: dict[str, Any]
) -> None:
    http = Http(host, port)
    urls = []
    for _ in range(games):
        _, raw = await http.request(
            "POST", "/api/games", {"variant": "standard", "players": 2, "seats": [{"kind": "human"}] * 2}
        )
        urls.append(f"ws://{host}:{port}/api/games/{json.loads(raw)['id']}/ws")
    url = urls[0]  # the cycling client's game
    received = 0
    refused = 0

    async def spectator(i: int) -> None:
        nonlocal received, refused
        # Each watcher speaks for its own address, so that the per-address cap does not apply.
        headers = {"X-Forwarded-For": f"10.1.{i // 250}.{i % 250 + 1}"}
        try:
            async with websockets.connect(urls[i % games], additional_headers=headers, max_size=2**22) as ws:
                await ws.send(json.dumps({"token": None}))
                # Waits for a message or the end, with no timer of its own (a thousand
                # watchers polling would load the machine the server runs on).
                stopped = asyncio.ensure_future(stop.wait())
                try:
                    while True:
                        recv = asyncio.ensure_future(ws.recv())
                        done, _ = await asyncio.wait({recv, stopped}, return_when=asyncio.FIRST_COMPLETED)
                        if recv not in done:
                            recv.cancel()
                            return
                        msg = json.loads(recv.result())
                        if msg.get("type") == "error":
                            refused += 1
                            return
                        received += 1
                finally:
                    stopped.cancel()
        except (OSError, websockets.WebSocketException):
            refused += 1

    async def cycler() -> None:
        n = 0
        while not stop.is_set():
            try:
                async with websockets.connect(url, additional_headers={"X-Forwarded-For": "10.9.9.9"}) as ws:
                    await ws.send(json.dumps({"token": None}))
                    await asyncio.wait_for(ws.recv(), 5)
                n += 1
            except (OSError, websockets.WebSocketException, TimeoutError):
                await asyncio.sleep(0.05)
        seen["cycles"] = n

    tasks = [asyncio.ensure_future(spectator(i)) for i in range(spectators)]
    tasks.append(asyncio.ensure_future(cycler()))
    await asyncio.gather(*tasks)
    seen["messages to spectators"] = received
    seen["spectators refused"] = refused


async def fanout(
    host: str, port: int, spectators: int, games: int, think: float, stop: asyncio.Event, seen: dict[str, Any]
) -> None:
    """Live games watched by many (each person thinks ``think`` s a move; the watchers follow
    their table's next game): the states spectators receive, and the moves made."""
    urls: list[str] = [""] * games
    ready = [asyncio.Event() for _ in range(games)]
    moves = 0
    received = 0
    refused = 0

    async def play(g: int) -> None:
        nonlocal moves
        seed = 7000 + 1000 * g
        http = Http(host, port)
        while not stop.is_set():
            body = {"players": 2, "seed": seed, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}
            status, raw = await http.request("POST", "/api/games", body, headers={"X-Forwarded-For": f"10.3.0.{g + 1}"})
            if status != 201:
                await asyncio.sleep(0.2)
                continue
            made = json.loads(raw)
            gid, token = made["id"], made["token"]
            urls[g] = f"ws://{host}:{port}/api/games/{gid}/ws"
            ready[g].set()
            headers = {"X-Forwarded-For": f"10.3.0.{g + 1}"}
            async with websockets.connect(urls[g], additional_headers=headers, max_size=2**22) as ws:
                await ws.send(json.dumps({"token": token}))
                answered = -1
                while not stop.is_set():
                    try:
                        state = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                    except TimeoutError:
                        continue
                    if state.get("type") != "state" or state.get("over"):
                        break
                    if state["current"] != 0 or "others" not in state or state["version"] <= answered:
                        continue
                    answered = state["version"]
                    move = await first_placement(http, gid, token, state) or state["others"][0]
                    await asyncio.sleep(think)  # a person's pace: the game stays live
                    await http.request(
                        "POST", f"/api/games/{gid}/move", {"version": state["version"], "move": move}, token
                    )
                    moves += 1
            seed += 1

    async def watch(i: int) -> None:
        nonlocal received, refused
        g = i % games
        await ready[g].wait()
        headers = {"X-Forwarded-For": f"10.4.{i // 250}.{i % 250 + 1}"}
        while not stop.is_set():  # each game of the table in turn, as a watcher follows it
            url = urls[g]
            try:
                async with websockets.connect(url, additional_headers=headers, max_size=2**22) as ws:
                    await ws.send(json.dumps({"token": None}))
                    while not stop.is_set():
                        try:
                            msg = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                        except TimeoutError:
                            if urls[g] != url:
                                break  # a new game at the table
                            continue
                        if msg.get("type") == "error":
                            refused += 1
                            return
                        received += 1
                        if msg.get("over"):
                            break
            except (OSError, websockets.WebSocketException):
                refused += 1
                return
            while urls[g] == url and not stop.is_set():
                await asyncio.sleep(0.1)

    tasks = [asyncio.ensure_future(play(g)) for g in range(games)]
    tasks += [asyncio.ensure_future(watch(i)) for i in range(spectators)]
    await asyncio.gather(*tasks)
    seen["moves in the watched games"] = moves
    seen["states received by spectators"] = received
    seen["spectators refused"] = refused


async def descriptors(host: str, port: int, count: int, stop: asyncio.Event, seen: dict[str, Any]) -> None:
    held: list[socket.socket] = []
    for _ in range(count):
        s = socket.socket()
        s.setblocking(False)
        with contextlib.suppress(BlockingIOError, OSError):
            s.connect((host, port))
        held.append(s)
    await stop.wait()
    closed = 0
    for s in held:
        with contextlib.suppress(BlockingIOError, OSError):
            closed += s.recv(1) == b""
        s.close()
    seen["idle sockets opened"] = count
    seen["closed by the server"] = closed


async def review_flood(host: str, port: int, stop: asyncio.Event, seen: dict[str, Any]) -> None:
    records = [json.loads(genial.play_game(["greedy", "greedy"], seed=1000 + i).to_json()) for i in range(40)]
    flood = Http(host, port)
    refused = 0
    asked = 0

    async def post(http: Http, record: dict[str, Any], address: str) -> tuple[int, dict[str, Any]]:
        status, raw = await http.request(
            "POST", "/api/reviews", {"record": record}, headers={"X-Forwarded-For": address}
        )
        return status, json.loads(raw)

    async def flooder() -> None:
        nonlocal refused, asked
        i = 0
        while not stop.is_set():
            status, _ = await post(flood, records[i % 20], "10.7.7.7")
            asked += 1
            if status != 202:
                refused += 1
            i += 1
            await asyncio.sleep(0.05)

    task = asyncio.ensure_future(flooder())
    await asyncio.sleep(1.0)
    other = Http(host, port)
    waits: list[float] = []
    j = 20
    while not stop.is_set():  # each time another address, asking for one review
        t0 = time.perf_counter()
        status, got = await post(other, records[j % 40], f"10.8.{j // 250}.{j % 250 + 1}")
        j += 1
        if status != 202:
            seen["other addresses refused"] = seen.get("other addresses refused", 0) + 1
            await asyncio.sleep(0.5)
            continue
        while not stop.is_set():
            _, raw = await other.request("GET", f"/api/reviews/{got['id']}")
            st = json.loads(raw)
            if st["status"] == "done" or st.get("done", 0) > 0:
                waits.append(time.perf_counter() - t0)
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.5)
    task.cancel()
    seen["flood: reviews asked"] = asked
    seen["flood: refused"] = refused
    seen["another address: its review started after"] = pct(waits)


def _attack(
    name: str, args: argparse.Namespace, host: str, port: int, stop: asyncio.Event, seen: dict[str, Any]
) -> Any:
    if name == "amplification":
        return amplification(host, port, args.spectators, args.watched_games, stop, seen)
    if name == "fanout":
        return fanout(host, port, args.spectators, args.watched_games, args.think, stop, seen)
    if name == "descriptors":
        return descriptors(host, port, args.sockets, stop, seen)
    return review_flood(host, port, stop, seen)


def _attacker(name: str, args: argparse.Namespace, host: str, port: int, out: Any) -> None:
    """The attack of a phase in a process of its own, as an attacker is another machine: its
    clients' work (thousands of sockets decoding states) does not delay the probe's event
    loop, so the probe times the server. It runs ``args.seconds``, then puts what it saw."""

    if args.attacker_nice:
        os.nice(args.attacker_nice)

    async def run() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        stop = asyncio.Event()
        task = asyncio.ensure_future(_attack(name, args, host, port, stop, seen))
        await asyncio.sleep(args.seconds)
        stop.set()
        await asyncio.wait([task], timeout=30)
        return seen

    out.put(asyncio.run(run()))


async def phase(name: str, args: argparse.Namespace, base: str) -> None:
    host, port = base.removeprefix("http://").split(":")
    probe = Probe(host, int(port))
    seen: dict[str, Any] = {}
    attacker = None
    if name != "idle":
        results: multiprocessing.Queue[dict[str, Any]] = multiprocessing.Queue()
        attacker = multiprocessing.Process(target=_attacker, args=(name, args, host, int(port), results))
        attacker.start()
    jobs = [asyncio.ensure_future(probe.meta()), asyncio.ensure_future(probe.games(args.seed))]
    await asyncio.sleep(args.seconds)
    probe.stop.set()
    await asyncio.wait(jobs, timeout=30)
    if attacker is not None:
        seen = await asyncio.get_running_loop().run_in_executor(None, results.get, True, 60)
        attacker.join(10)
    print(f"{name}:")
    print(f"  greedy answer: {pct(probe.answers)}")
    print(f"  /api/meta:     {pct(probe.metas)}")
    if name != "idle" and args.settle > 0:
        late = [x for x, at in zip(probe.answers, probe.answers_at) if at >= args.settle]
        late_meta = [x for x, at in zip(probe.metas, probe.metas_at) if at >= args.settle]
        print(f"  after the first {args.settle:g} s (the attack arrived):")
        print(f"    greedy answer: {pct(late)}")
        print(f"    /api/meta:     {pct(late_meta)}")
    print(f"  probe failures: {probe.failures}")
    if probe.first_failure is not None:
        print(f"  probe failed from {probe.first_failure:.1f} s to {probe.last_failure:.1f} s into the phase")
    for k, v in seen.items():
        print(f"  {k}: {v}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=15.0, help="length of each phase")
    ap.add_argument("--spectators", type=int, default=1000)
    ap.add_argument("--sockets", type=int, default=1100)
    ap.add_argument(
        "--watched-games",
        type=int,
        default=1,
        help="the spectators spread over this many games (the cycler on the first)",
    )
    ap.add_argument(
        "--attacker-nice",
        type=int,
        default=0,
        help="the attack's process at this niceness: the server and probe first, as with an attacker elsewhere",
    )
    ap.add_argument(
        "--settle",
        type=float,
        default=0.0,
        help="also report the probe from this many seconds into an attack on (its steady state)",
    )
    ap.add_argument("--think", type=float, default=0.5, help="fanout: seconds a watched game's person takes a move")
    ap.add_argument("--bot-threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--phases", default="idle,amplification,descriptors,review", help="which phases, in order")
    ap.add_argument("--server-files", type=int, default=None, help="the server's open-file limit (systemd: 1024)")
    args = ap.parse_args()
    phases = args.phases.split(",")
    unknown = set(phases) - {"idle", "amplification", "fanout", "descriptors", "review"}
    if unknown:
        ap.error(f"unknown phases: {', '.join(sorted(unknown))}")
    print(
        f"genial serve under attack: {os.cpu_count()} cores, {args.bot_threads} bot thread(s), {args.seconds:g} s a phase"
    )
    with (
        tempfile.TemporaryDirectory() as tmp,
        local_server(Path(tmp) / "attacks.sqlite3", args.bot_threads, max_files=args.server_files) as base,
    ):
        for name in phases:
            asyncio.run(phase(name, args, base))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Bots under load in `genial serve`: does a quick bot still answer at once while many games
of a searching bot keep every bot thread busy?

    .venv/bin/python benches/web_bots.py --busy 50 --seconds 60

Starts ``genial serve`` on 127.0.0.1 (a free port, a temporary database, no bot delay) in its
own process, creates ``--busy`` games in which ``--busy-bot`` plays itself (``expert`` by
default: they keep the bot threads saturated for the whole run), then one game of a scripted
person against ``--bot`` (``greedy``). The person moves as soon as it is their turn; each
answer of the bot is timed from sending the person's move to receiving, on the game's
WebSocket, the state in which the bot has moved. Prints median / p95 / max of those answers,
and how many decisions the busy games made meanwhile. Loopback only.

``--hostile`` also seats, for the whole run, one engine of each kind that wedged the
server before issue 28 (tests/engines/hostile.py: a wrapper without ``exec`` that hangs, a
background child holding stdout, a writer that never reads, stdout closed while alive,
SIGTERM ignored, a ``legal`` loop that never reads): each plays a game against a person who
never moves, and a new one starts when it forfeits. Compare greedy's p95 with a run
without them:

    .venv/bin/python benches/web_bots.py --busy 0 --seconds 60
    .venv/bin/python benches/web_bots.py --busy 0 --seconds 60 --hostile
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from web_client import LETTERS, local_server

HOSTILE = [
    "wrapper_no_exec_hanging",
    "background_child_then_hang",
    "writer_never_reads",
    "closes_stdout_and_stays",
    "ignores_sigterm_and_hangs",
    "legal_loop_never_reading",
]


def placement(moves: list[str]) -> str:
    return str(moves[0])  # the server's text of its best placement


async def person(base: str, bot: str, seconds: float, answers: list[float], errors: list[str]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        made = (
            await http.post(
                "/api/games",
                json={"players": 2, "seed": 1, "seats": [{"kind": "human"}, {"kind": "bot", "bot": bot}]},
            )
        ).json()
        gid, token = made["id"], made["token"]
        headers = {"X-Seat-Token": token}
        end = time.monotonic() + seconds
        async with websockets.connect(base.replace("http://", "ws://") + f"/api/games/{gid}/ws") as ws:
            await ws.send(json.dumps({"token": token}))
            sent_at: float | None = None
            while time.monotonic() < end:
                try:
                    state: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), end - time.monotonic()))
                except TimeoutError:
                    return
                if state.get("over"):
                    return
                if state["current"] != 0 or "others" not in state:
                    continue
                if sent_at is not None:
                    answers.append(time.perf_counter() - sent_at)
                    sent_at = None
                move = "keep" if state["phase"] == "swap_offer" else None
                for a, b in state["rack"] if move is None else []:
                    r = await http.get(
                        f"/api/games/{gid}/options", params={"tile": LETTERS[a] + LETTERS[b]}, headers=headers
                    )
                    if r.status_code == 200 and r.json()["moves"]:
                        move = placement(r.json()["moves"])
                        break
                if move is None:
                    move = state["others"][0]
                sent_at = time.perf_counter()
                r = await http.post(
                    f"/api/games/{gid}/move", json={"version": state["version"], "move": move}, headers=headers
                )
                if r.status_code != 200:
                    errors.append(f"{r.status_code} {r.text[:120]}")
                    return


async def hostile_games(base: str, name: str, end: float, forfeits: list[float]) -> None:
    """Games of the engine ``name`` against a person who never moves, one after another:
    each ends by the engine's forfeit (its time is recorded)."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while time.monotonic() < end:
            seats = [{"kind": "bot", "engine": name}, {"kind": "human"}]
            r = await http.post("/api/games", json={"players": 2, "seed": 1, "seats": seats})
            r.raise_for_status()
            gid, started = r.json()["id"], time.monotonic()
            while time.monotonic() < end:
                await asyncio.sleep(0.25)
                if (await http.get(f"/api/games/{gid}")).json()["over"]:
                    forfeits.append(time.monotonic() - started)
                    break


async def run(args: argparse.Namespace, base: str) -> tuple[list[float], list[str], int]:
    forfeits: list[float] = []
    hostile = [
        asyncio.create_task(hostile_games(base, f"h{i}", time.monotonic() + args.seconds + 1, forfeits))
        for i in range(len(HOSTILE) if args.hostile else 0)
    ]
    try:
        return await _run(args, base)
    finally:
        for task in hostile:
            task.cancel()
        await asyncio.gather(*hostile, return_exceptions=True)
        if args.hostile:
            ms = sorted(f * 1000 for f in forfeits)
            print(
                f"hostile engines: {len(ms)} games forfeited, from its creation: median "
                f"{statistics.median(ms) if ms else 0:.0f} ms, max {ms[-1] if ms else 0:.0f} ms "
                f"(--max-think-ms {args.max_think_ms})"
            )


async def _run(args: argparse.Namespace, base: str) -> tuple[list[float], list[str], int]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        busy = []
        for i in range(args.busy):
            seat = {"kind": "bot", "bot": args.busy_bot, "options": json.loads(args.busy_options)}
            r = await http.post("/api/games", json={"players": 2, "seed": 100 + i, "seats": [seat, seat]})
            r.raise_for_status()
            busy.append(r.json()["id"])
        await asyncio.sleep(1.0)  # the busy games fill the queue
        answers: list[float] = []
        errors: list[str] = []
        end = time.monotonic() + args.seconds
        while time.monotonic() < end and not errors:  # a new game when one ends
            await person(base, args.bot, end - time.monotonic(), answers, errors)
        decisions = 0
        for gid in busy:
            decisions += (await http.get(f"/api/games/{gid}")).json()["moves"]
    return answers, errors, decisions


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--busy", type=int, default=50, help="games of --busy-bot against itself")
    ap.add_argument("--busy-bot", default="expert")
    ap.add_argument(
        "--busy-options",
        default="{}",
        help="the busy bot's options as JSON, e.g. '{\"iterations\": 20000}' (serves with --allow-bot-options)",
    )
    ap.add_argument("--bot", default="greedy", help="the bot whose answers are timed")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--bot-threads", type=int, default=max(1, (os.cpu_count() or 2) - 1))
    ap.add_argument("--hostile", action="store_true", help="seat one engine of each wedging kind meanwhile")
    ap.add_argument("--max-think-ms", type=int, default=1000, help="the server's thinking-time cap (ms)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        extra = ["--max-think-ms", str(args.max_think_ms)]
        if json.loads(args.busy_options):
            extra.append("--allow-bot-options")
        if args.hostile:
            sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "engines"))
            from hostile import TABLE, write

            os.environ["HOSTILE_STATE"] = tmp
            os.environ["HOSTILE_LATE_S"] = "3600"
            for i, name in enumerate(HOSTILE):
                engine = next(h for h in TABLE if h.name == name)
                extra += ["--engine", f"h{i}={write(engine, Path(tmp))}"]
        with local_server(Path(tmp) / "bots.sqlite3", args.bot_threads, tuple(extra)) as base:
            answers, errors, decisions = asyncio.run(run(args, base))
    if len(answers) < 2:
        print(f"too few answers timed ({len(answers)}); errors: {errors[:3]}", file=sys.stderr)
        return 1
    ms = sorted(a * 1000 for a in answers)
    p95 = statistics.quantiles(ms, n=20)[18]
    print(
        f"genial serve bots: {args.busy} games of {args.busy_bot} vs itself + 1 person vs {args.bot}, "
        f"{args.bot_threads} bot thread(s), {os.cpu_count()} cores, {args.seconds:g} s"
        + (f", {len(HOSTILE)} hostile engines seated" if args.hostile else "")
    )
    print(
        f"{args.bot}'s answer: {len(ms)} answers, median {statistics.median(ms):.0f} ms, p95 {p95:.0f} ms, "
        f"max {ms[-1]:.0f} ms; the busy games made {decisions} decisions meanwhile"
    )
    for e in errors[:5]:
        print("  error:", e)
    return 0 if not errors else 1


if __name__ == "__main__":
    sys.exit(main())

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
from web_load import local_server

LETTERS = "ROYGBP"


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


async def run(args: argparse.Namespace, base: str) -> tuple[list[float], list[str], int]:
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
    args = ap.parse_args()
    with (
        tempfile.TemporaryDirectory() as tmp,
        local_server(
            Path(tmp) / "bots.sqlite3",
            args.bot_threads,
            ["--allow-bot-options"] if json.loads(args.busy_options) else [],
        ) as base,
    ):
        answers, errors, decisions = asyncio.run(run(args, base))
    if len(answers) < 2:
        print(f"too few answers timed ({len(answers)}); errors: {errors[:3]}", file=sys.stderr)
        return 1
    ms = sorted(a * 1000 for a in answers)
    p95 = statistics.quantiles(ms, n=20)[18]
    print(
        f"genial serve bots: {args.busy} games of {args.busy_bot} vs itself + 1 person vs {args.bot}, "
        f"{args.bot_threads} bot thread(s), {os.cpu_count()} cores, {args.seconds:g} s"
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

"""How long `genial serve` takes to stop on SIGTERM with reviews running.

    .venv/bin/python benches/web_shutdown.py --reviews 64

Starts ``genial serve`` (`web_client.local_server`: its own process, a temporary database,
``--review-iterations 3000`` so that every review is still running), asks for
``--reviews`` reviews of different finished games, four from each of as many loopback
addresses as it takes (an address may have four under way), waits until they run, then
sends SIGTERM and times the process's exit. The reviews are kept as pending and resume when
the server starts again (not timed here).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

import genial
from web_client import Http, local_server, loopback


async def ask(base: str, records: list[dict[str, object]]) -> list[int]:
    host, port = base.removeprefix("http://").split(":")
    statuses = []
    for i, record in enumerate(records):
        http = Http(host, int(port), local=loopback(i // 4))
        status, _ = await http.request("POST", "/api/reviews", {"record": record})
        statuses.append(status)
        await http.close()
    return statuses


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reviews", type=int, default=64)
    ap.add_argument("--settle", type=float, default=2.0, help="seconds the reviews run before SIGTERM")
    args = ap.parse_args()
    records = [json.loads(genial.play_game(["greedy", "greedy"], seed=s).to_json()) for s in range(args.reviews)]
    with (
        tempfile.TemporaryDirectory() as tmp,
        local_server(Path(tmp) / "g.sqlite3", 1, ("--review-iterations", "3000")) as base,
    ):
        statuses = asyncio.run(ask(base, records))
        time.sleep(args.settle)
        # The server is this process's only child (Linux: /proc lists it).
        me = os.getpid()
        pid = int(Path(f"/proc/{me}/task/{me}/children").read_text().split()[0])
        started = time.monotonic()
        os.kill(pid, signal.SIGTERM)
        while Path(f"/proc/{pid}").exists() and Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z":
            time.sleep(0.005)
        took = time.monotonic() - started
    accepted = sum(s == 202 for s in statuses)
    print(f"genial serve: SIGTERM with {accepted} reviews under way ({args.reviews} asked): exited in {took:.2f} s")
    return 0 if accepted == args.reviews else 1


if __name__ == "__main__":
    sys.exit(main())

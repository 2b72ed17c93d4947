"""The fixed cost of a call into the core, old build against new, measured interleaved.

Each arm is a genial importable from a folder (``--arm NAME=PATH``; an empty PATH is the
genial installed here). Every round starts one fresh process per arm, in alternating order,
and times in it:

- ``simulate10``: ``genial.simulate(10, threads=1)`` (random bots), wall and CPU per call;
- ``choose``: a searching bot's ``choose`` with one iteration (``mcts``), wall per call.

It prints the median over rounds of each arm's per-call figures, and each arm's difference
from the first arm. Usage (build the old commit's wheel and ``pip install --no-deps
--target /tmp/old-site`` it first):

    python benches/call_overhead.py --arm old=/tmp/old-site --arm new= --rounds 15
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CHILD = r"""
import json, time
import genial
from genial.bots import make

def per_call(fn, calls):
    for _ in range(max(calls // 10, 10)):
        fn()
    w, c = time.perf_counter(), time.process_time()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - w) / calls * 1e6, (time.process_time() - c) / calls * 1e6

calls = {calls}
sim_wall, sim_cpu = per_call(lambda: genial.simulate(10, threads=1), calls)
game = genial.Game(2, seed=1)
bot = make("mcts", seed=1, iterations=1, width=2)
choose_wall, choose_cpu = per_call(lambda: bot.choose(game), calls)
print(json.dumps(dict(sim_wall=sim_wall, sim_cpu=sim_cpu, choose_wall=choose_wall, choose_cpu=choose_cpu)))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arm", action="append", required=True, help="NAME=PATH (empty PATH: this genial)")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--calls", type=int, default=2000)
    args = ap.parse_args()
    arms = [tuple(a.split("=", 1)) for a in args.arm]
    runs: dict[str, list[dict[str, float]]] = {name: [] for name, _ in arms}
    for r in range(args.rounds):
        order = arms if r % 2 == 0 else arms[::-1]
        for name, path in order:
            env = dict(os.environ)
            if path:
                env["PYTHONPATH"] = path
            out = subprocess.run(
                [sys.executable, "-c", CHILD.format(calls=args.calls)],
                env=env,
                cwd="/",
                capture_output=True,
                text=True,
                check=True,
            )
            runs[name].append(json.loads(out.stdout))
    keys = ("sim_wall", "sim_cpu", "choose_wall", "choose_cpu")
    medians = {name: {k: statistics.median(x[k] for x in rs) for k in keys} for name, rs in runs.items()}
    first = arms[0][0]
    print(f"{args.rounds} rounds x {args.calls} calls, interleaved; median µs per call")
    print(f"{'arm':<10}" + "".join(f"{k:>14}" for k in keys))
    for name, m in medians.items():
        print(f"{name:<10}" + "".join(f"{m[k]:>14.1f}" for k in keys))
        if name != first:
            print(f"{'  - ' + first:<10}" + "".join(f"{m[k] - medians[first][k]:>+14.1f}" for k in keys))


if __name__ == "__main__":
    main()

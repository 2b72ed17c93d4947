"""How soon `VecEnv.step` answers a signal at the largest size (benches/results/
HISTORY.md, "`VecEnv` answers Ctrl-C").

A `VecEnv` of 65,536 envs steps in a loop; a timer signal at a random moment raises from
its handler (as Ctrl-C's `KeyboardInterrupt` would), and the time from the signal to the
exception reaching Python is recorded, ``--trials`` times. Also prints the time of a whole
step, for scale.

    python benches/vecenv_interrupt.py --trials 20 --threads 2
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import time

import genial


class Stop(Exception):
    pass


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--envs", type=int, default=65536)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--trials", type=int, default=20)
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    env = genial.VecEnv(args.envs, seed=1, threads=args.threads)
    env.reset()
    steps = []
    for _ in range(3):
        t = time.perf_counter()
        env.step(env.sample_actions())
        steps.append(time.perf_counter() - t)

    def handler(signum: int, frame: object) -> None:
        raise Stop

    signal.signal(signal.SIGALRM, handler)
    rng = random.Random(1)
    latencies = []
    for _ in range(args.trials):
        delay = rng.uniform(0.05, 1.0)
        due = time.perf_counter() + delay  # when the timer fires: the signal arrives then
        signal.setitimer(signal.ITIMER_REAL, delay)
        try:
            while True:
                env.step(env.sample_actions())
        except Stop:
            latencies.append(time.perf_counter() - due)
    print(
        f"{args.envs} envs, {args.threads} threads: a step takes {1000 * statistics.median(steps):.0f} ms (median of 3); "
        f"signal to exception over {args.trials} trials: median {1000 * statistics.median(latencies):.1f} ms, "
        f"max {1000 * max(latencies):.1f} ms"
    )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

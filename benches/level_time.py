"""CPU time a move of a searching level (BENCHMARKS.md, "Learned agents"): the level in seat
0 against another level in the other seats, each decision of seat 0 timed with the calling
thread's CPU clock (the core searches on the calling thread), games dealt from seeds 300 and
up. Prints the median and the 90th percentile.

    python benches/level_time.py --level master --players 2 --games 4
    python benches/level_time.py --level master --players 4 --games 2
"""

from __future__ import annotations

import argparse
import statistics
import time

import genial
from genial.bots import parse_bot


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--level", default="master", help="the timed bot, in its text form (default master)")
    ap.add_argument("--against", default="expert", help="the other seats' bot (default expert)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=4)
    args = ap.parse_args()
    times: list[float] = []
    for g in range(args.games):
        game = genial.Game(players=args.players, seed=300 + g)
        bots = [parse_bot(args.level, seed=g)] + [
            parse_bot(args.against, seed=g + 100 * s) for s in range(1, args.players)
        ]
        while not game.is_over:
            seat = game.current_player
            start = time.thread_time()
            move = bots[seat].choose(game)
            if seat == 0:
                times.append(time.thread_time() - start)
            game.play(move)
    times.sort()
    print(
        f"{args.level}, {args.players} players, {len(times)} moves: CPU median "
        f"{1000 * statistics.median(times):.1f} ms, p90 {1000 * times[int(0.9 * len(times))]:.1f} ms"
    )


if __name__ == "__main__":
    main()

"""How sure a review's verdicts are: the noise each decision reports against the spread
of its loss across review seeds, and how often two seeds give the same class.

Games between ``greedy`` seats (close calls; two players unless ``--players`` says more
counts), reviewed whole at the expert level with ``--seeds`` review seeds each::

    python benches/review_noise.py --iterations 200 --games 13 14 15 16 --seeds 0 1 2 3
    python benches/review_noise.py --iterations 200 --players 2 3 4 --games 501 502 503 --seeds 1 2

Prints one line per game and a total: decisions with a choice, the mean standard error
the comparisons report (``noise / NOISE_Z``) and the root-mean-square spread of the loss
across seeds (both over the decisions where no seed's engine choice was the move played),
the share of decisions whose class is the same for every pair of seeds, and the number of
pairs where a mistake or blunder in one seed was less than an inaccuracy in the other.
CPU time, since the machine may be shared.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time

import genial
from genial.reviews import NOISE_Z

AT_LEAST_INACCURATE = ("inaccuracy", "mistake", "blunder")


def greedy_game(seed: int, players: int = 2) -> genial.Game:
    game = genial.Game(players=players, seed=seed)
    bots = [genial.bots.make("greedy", seed=s + 1) for s in range(players)]
    while not game.is_over:
        game.play(bots[game.current_player].choose(game))
    return game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--games", type=int, nargs="+", default=[13, 14, 15, 16])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3])
    ap.add_argument("--players", type=int, nargs="+", default=[2])
    args = ap.parse_args()
    start = time.process_time()
    tot_pairs = tot_same = tot_severe = 0
    all_se: list[float] = []
    all_sd: list[float] = []
    for n, g in ((n, g) for n in args.players for g in args.games):
        game = greedy_game(g, n)
        reviews = [genial.review(game, "expert", iterations=args.iterations, seed=s) for s in args.seeds]
        pairs = same = severe = 0
        se: list[float] = []
        sd: list[float] = []
        for k in range(len(game.moves)):
            ds = [r.decisions[k] for r in reviews]
            if ds[0].forced:
                continue
            for x, y in itertools.combinations(ds, 2):
                pairs += 1
                same += x.classification == y.classification
                for a, b in ((x, y), (y, x)):
                    severe += a.classification in ("mistake", "blunder") and b.classification not in AT_LEAST_INACCURATE
            if not any(d.best == d.move for d in ds):
                se.append(statistics.mean((d.noise or 0.0) / NOISE_Z for d in ds))
                sd.append(statistics.stdev(d.loss for d in ds))
        rms = lambda xs: statistics.mean(x * x for x in xs) ** 0.5 if xs else float("nan")  # noqa: E731
        print(
            f"{n} players, game {g}: {pairs // max(1, len(args.seeds) * (len(args.seeds) - 1) // 2)} decisions, "
            f"same class {same / pairs:.3f} of seed pairs, severe disagreements {severe}, "
            f"SE reported {rms(se):.4f}, SD across seeds {rms(sd):.4f} ({len(se)} compared decisions)",
            flush=True,
        )
        tot_pairs += pairs
        tot_same += same
        tot_severe += severe
        all_se += se
        all_sd += sd
    rms_se = statistics.mean(x * x for x in all_se) ** 0.5
    rms_sd = statistics.mean(x * x for x in all_sd) ** 0.5
    print(
        f"all: iterations {args.iterations}, same class {tot_same / tot_pairs:.3f} of {tot_pairs} seed pairs, "
        f"severe disagreements {tot_severe}, SE reported {rms_se:.4f}, SD across seeds {rms_sd:.4f} "
        f"(ratio {rms_sd / rms_se:.2f}), CPU {time.process_time() - start:.0f} s"
    )


if __name__ == "__main__":
    main()

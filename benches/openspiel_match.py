"""OpenSpiel's ISMCTS against one of genial's bots, played by OpenSpiel's ``evaluate_bots``
on the ``genial`` OpenSpiel game (docs/openspiel.md shows a run).

    python benches/openspiel_match.py [--games 100] [--opponent greedy] [--simulations 50]

Games come in pairs: the game of seed ``k`` is played twice, ISMCTS in seat 0, then in
seat 1, so the deal and the first move's advantage cancel out. ISMCTS is OpenSpiel's Python
implementation (``genial.envs.openspiel.ISMCTSBot``) with one random rollout per leaf
(``mcts.RandomRolloutEvaluator``); the opponent is a built-in bot through
``genial.envs.openspiel.GenialBot``. Prints ISMCTS's mean return (+1 win, -1 loss, 0 tie)
with its 95% interval, its win rate (a tie counts half) with the Wilson interval, and the
CPU time of the run.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time

import genial.envs.openspiel as gos
import numpy as np
import pyspiel
from genial.stats import Rate
from open_spiel.python.algorithms import evaluate_bots, mcts


def mean_interval(returns: list[float]) -> tuple[float, float, float]:
    """The mean return and its normal 95% interval, clipped to the returns' range [-1, 1]:
    at small n (or with few distinct results) the normal interval reaches past what any
    mean of returns can be."""
    mean = statistics.fmean(returns)
    half = 1.959963984540054 * statistics.stdev(returns) / math.sqrt(len(returns)) if len(returns) > 1 else math.inf
    return mean, max(-1.0, mean - half), min(1.0, mean + half)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games, an even number (pairs of seats)")
    parser.add_argument("--opponent", default="greedy", help="a built-in bot (genial bots)")
    parser.add_argument("--simulations", type=int, default=50, help="ISMCTS simulations per decision")
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=0, help="first game's seed; also seeds the bots")
    args = parser.parse_args()
    if args.games < 2 or args.games % 2:
        parser.error("--games must be an even number of at least 2")

    game = pyspiel.load_game("genial(players=2)")
    rng = np.random.RandomState(args.seed)
    returns: list[float] = []
    start = time.process_time()
    for i in range(args.games):
        seat = i % 2
        ismcts = gos.ISMCTSBot(
            game, mcts.RandomRolloutEvaluator(1, rng), args.uct_c, args.simulations, random_state=rng
        )
        opponent = gos.GenialBot(args.opponent, seed=args.seed + i)
        bots = [ismcts, opponent] if seat == 0 else [opponent, ismcts]
        state = game.new_initial_state(str(args.seed + i // 2))
        returns.append(evaluate_bots.evaluate_bots(state, bots, rng)[seat])
        print(f"game {i + 1}: seed {args.seed + i // 2}, ISMCTS in seat {seat}: {returns[-1]:+.0f}", file=sys.stderr)
    cpu = time.process_time() - start

    n = len(returns)
    mean, low, high = mean_interval(returns)
    wins = sum((r + 1) / 2 for r in returns)
    print(f"ISMCTS ({args.simulations} simulations, uct_c {args.uct_c}) vs {args.opponent}: {n} games")
    print(f"mean return {mean:+.3f} [{low:+.3f}, {high:+.3f}] (95%, normal, clipped to [-1, +1])")
    print(f"win rate {Rate.wilson(wins, n)} (95% Wilson; a tie counts half)")
    print(
        f"wins {sum(r > 0 for r in returns)}, ties {sum(r == 0 for r in returns)}, losses {sum(r < 0 for r in returns)}"
    )
    print(f"CPU time {cpu:.0f} s ({cpu / n:.2f} s a game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A bot of your own in a tournament against the built-in bots.

`NeedyBot` follows the one rule of Ingenious that matters most: only your lowest colour
counts in the end. It scores every legal placement with `Board.preview` and prefers the one
whose points go to the colours it needs most, so it looks only at what its `GameView`
shows: the board, its own scores and rack, its legal moves. It never sees another rack.

The tournament seats every bot in every seat equally often, plays each deal once in every
seating, and prints Elo ratings with standard errors and win rates with 95% intervals.

Run it from the repository (or anywhere genial is installed):

    python examples/custom_bot.py                       # 240 games against greedy and random
    python examples/custom_bot.py --games 600 --mcts 100 --players 3
"""

from __future__ import annotations

import argparse
import sys
import time

import genial
from genial import GameView, Move
from genial.bots import Bot, BuiltinBot, make
from genial.stats import Rate


class NeedyBot:
    """Places where the points help its lowest colours most.

    Each colour's points are weighted by how far that colour lags behind the others: a point
    on a colour at the bottom of the seat's track is worth ``spread + 1`` times a point on its
    best colour. Points past the top of the track are worth nothing. It swaps whenever a swap
    is offered, since the offer comes only when its rack shows none of its lowest colours.
    """

    name = "needy"

    def choose(self, view: GameView) -> Move | str:
        moves = view.legal_moves()
        if view.phase == "swap_offer":
            return "swap"
        board = view.board  # one snapshot for the whole decision
        scores = view.scores[view.seat]
        top = view.track_max
        best = max(scores)
        best_value = -1.0
        choice = moves[0]
        for move in moves:
            cells, colors = move.cells, move.colors
            if cells is None or colors is None:  # not a placement
                continue
            points = board.preview(cells[0], colors[0], cells[1], colors[1])
            gained = [0, 0, 0, 0, 0, 0]
            for color, p in zip(colors, points):
                gained[color] += p
            value = 0.0
            for c, p in enumerate(gained):
                useful = min(p, top - scores[c])  # what is not lost at the top
                value += useful * (best - scores[c] + 1)
            if value > best_value:
                best_value, choice = value, move
        return choice


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=240, help="games in all (default 240)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4), help="players per game (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument(
        "--mcts", type=int, default=0, metavar="N", help="also seat the search bot with N iterations a move (slow)"
    )
    args = parser.parse_args()

    entrants: list[Bot | BuiltinBot] = [NeedyBot(), make("greedy"), make("random")]
    if args.mcts > 0:
        entrants.append(make("mcts", iterations=args.mcts))

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            print(f"\r{done}/{total} games", end="", file=sys.stderr, flush=True)

    start = time.perf_counter()
    result = genial.tournament(entrants, players=args.players, games=args.games, seed=args.seed, progress=progress)
    elapsed = time.perf_counter() - start
    if sys.stderr.isatty():
        print(file=sys.stderr)
    print(f"{result.games} games in {elapsed:.1f} s\n")
    print(result.table())

    # How the bot did against each opponent, head to head.
    me = result.names.index(NeedyBot.name)
    print()
    for other, name in enumerate(result.names):
        met = result.pair_games[me, other]
        if other != me and met:
            rate = Rate.wilson(float(result.pair_wins[me, other]), float(met))
            print(f"{NeedyBot.name} against {name:<20} {rate}  ({int(met)} encounters)")


if __name__ == "__main__":
    main()

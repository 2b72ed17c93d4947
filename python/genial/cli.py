"""The ``genial`` command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import __version__, _core, cli_play, cli_records
from . import cli_sim
from .web import cli as web_cli
from .bots import RandomBot
from .game import Game
from .render import text

__all__ = ["main"]


def _demo(args: argparse.Namespace) -> int:
    game = Game(players=args.players, seed=args.seed, variant=args.variant)
    bots = [RandomBot(seed=args.seed + seat) for seat in range(game.players)]
    print(f"genial demo: {game.variant} game, {game.players} random players, seed {args.seed}\n")
    while not game.is_over:
        game.play(bots[game.current_player].choose(game))
    print(text(game, color=args.color))
    print()
    for rank, group in enumerate(game.ranking(), start=1):
        for p in group:
            scores = " ".join(f"{v:>2}" for v in game.scores[p])
            print(f"  {rank}. player {p}  scores {scores}  (lowest {min(game.scores[p])})")
    print(f"\n{game.stats['placements']} placements, {game.stats['bonus_placements']} bonus placements, "
          f"ended: {game.end}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="genial", description="Ingenious engine: play, simulate, analyse.")
    parser.add_argument("--version", action="version", version=f"genial {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play a full game between random players and show it")
    demo.add_argument("--players", type=int, default=None, help="default: the variant's player count")
    demo.add_argument("--variant", default="standard", choices=_core.variant_names(), help="default: standard")
    demo.add_argument("--seed", type=int, default=2026)
    demo.add_argument("--color", action="store_true", help="ANSI colours")
    demo.set_defaults(func=_demo)
    cli_play.register(sub)
    cli_records.register(sub)
    cli_sim.register(sub)
    web_cli.register(sub)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except (ValueError, TypeError, MemoryError) as e:
        print(f"genial: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("genial: interrupted", file=sys.stderr)
        return 130

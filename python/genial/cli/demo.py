"""``genial demo``: a whole game between random players, shown at the end."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import _core
from ..bots import RandomBot
from ..game import Game
from ..render import text
from .common import closed_pipe_safe, color_wanted, examples

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Adds ``genial demo``."""
    p = subparsers.add_parser(
        "demo",
        help="play a full game between random players and show it",
        description="Play a whole game between random players and show the end.",
        epilog=examples(
            "genial demo",
            "genial demo --variant duel --seed 7",
            "genial demo --players 4 --no-color",
        ),
    )
    p.add_argument("--players", type=int, default=None, help="seats (default: the variant's player count)")
    p.add_argument("--variant", default="standard", choices=_core.variant_names(), help="the rules (default: standard)")
    p.add_argument("--seed", type=int, default=2026, help="the game's seed (default: 2026)")
    colors = p.add_mutually_exclusive_group()
    colors.add_argument("--color", dest="color", action="store_true", default=None, help="ANSI colours")
    colors.add_argument(
        "--no-color", dest="color", action="store_false", help="no colours (default: colours on a terminal)"
    )
    p.set_defaults(func=_demo)


@closed_pipe_safe
def _demo(args: argparse.Namespace) -> int:
    game = Game(players=args.players, seed=args.seed, variant=args.variant)
    bots = [RandomBot(seed=args.seed + seat) for seat in range(game.players)]
    players = f"{game.players} random player{'s' if game.players > 1 else ''}"
    print(f"genial demo: {game.variant} game, {players}, seed {args.seed}\n")
    while not game.is_over:
        game.play(bots[game.current_player].choose(game))
    print(text(game, color=color_wanted(args.color, sys.stdout)))
    print()
    for rank, group in enumerate(game.ranking(), start=1):
        for p in group:
            scores = " ".join(f"{v:>2}" for v in game.scores[p])
            print(f"  {rank}. player {p}  scores {scores}  ({_ranked_by(game, p)})")
    print(
        f"\n{game.stats['placements']} placements, {game.stats['bonus_placements']} bonus placements, ended: {game.end}"
    )
    return 0


def _ranked_by(game: Game, player: int) -> str:
    """What the ranking compares first for ``player``, in words (`Game.rank_key`): the
    lowest score, or in the duel the markers on the seat's side of the shared track."""
    key = game.rank_key(player)
    if game.rules.rank_key_counts_markers:
        distances = " ".join(str(d) for d in key[1:])
        return f"{key[0]} marker{'s' if key[0] != 1 else ''} on its side" + (
            f", at {distances} from the centre" if distances else ""
        )
    return f"lowest {key[0]}"

"""``genial bots``: the built-in bots of the core's catalogue, with their options, defaults
and bounds (every other command's ``--help`` points here instead of repeating them)."""

from __future__ import annotations

import argparse
from typing import Any

from .common import bots_catalogue_text, closed_pipe_safe, error, examples

__all__ = ["register"]


@closed_pipe_safe
def _bots(args: argparse.Namespace) -> int:
    text = bots_catalogue_text()
    if args.name is None:
        print(text)
        return 0
    entries = text.split("\n\n", 1)[0].split("\n")
    shown, on = [], False
    for line in entries:
        if not line.startswith(" "):
            on = line.split(":", 1)[0] == args.name
        if on:
            shown.append(line)
    if not shown:
        return error(f"no built-in bot is called {args.name!r}: genial bots lists them")
    print("\n".join(shown))
    return 0


def register(subparsers: Any) -> None:
    """Adds ``genial bots``."""
    p = subparsers.add_parser(
        "bots",
        help="list the built-in bots with their options, defaults and bounds",
        description="The built-in bots, weakest first by the catalogue's order, each with its options: "
        "default, bounds and what it does.",
        epilog=examples("genial bots", "genial bots expert"),
    )
    p.add_argument("name", nargs="?", default=None, help="only this bot")
    p.set_defaults(func=_bots)

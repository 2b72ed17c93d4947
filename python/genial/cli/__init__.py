"""The ``genial`` command line: one module per command (`demo`, `play`, `records` for
``replay`` and ``render``, `simulate` for ``simulate`` and ``tournament``, `serve`), what
they share in `common`."""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Sequence
from typing import Any

from .. import __version__
from ..engine.host import EngineError
from . import analyse, demo, engine, ladder, play, records, serve, simulate
from .common import Parser, error, examples

__all__ = ["main", "build_parser"]


def build_parser() -> Parser:
    """The ``genial`` parser with every subcommand."""
    parser = Parser(
        prog="genial",
        description="genial, the engine for Reiner Knizia's Ingenious: play at the terminal or in the "
        "browser, replay and draw recorded games, simulate many games and run tournaments between bots.",
        epilog=examples(
            "genial demo",
            "genial play --seats human,expert",
            "genial simulate --games 10000 --bots greedy,random",
            "genial COMMAND --help     (each command's options, with examples)",
        ),
    )
    parser.add_argument("--version", action="version", version=f"genial {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in (demo, play, records, analyse, simulate, ladder, engine, serve):
        command.register(sub)
    return parser


def _terminated(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # SIGTERM stops a command as Ctrl-C does (the games finished are kept, and every engine
    # started is stopped with all it started), unless someone else handles it already.
    previous = None
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        return int(args.func(args))
    except (ValueError, TypeError, MemoryError, EngineError) as e:
        return error(str(e))
    except KeyboardInterrupt:
        print("genial: interrupted", file=sys.stderr)
        return 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)

"""The ``genial`` command line: one module per command (`demo`, `play`, `records` for
``replay`` and ``render``, `simulate` for ``simulate`` and ``tournament``, `serve`), what
they share in `common`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .. import __version__
from ..engine.host import EngineError
from . import analyse, demo, engine, ladder, play, records, serve, simulate

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="genial", description="Ingenious engine: play, simulate, analyse.")
    parser.add_argument("--version", action="version", version=f"genial {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in (demo, play, records, analyse, simulate, ladder, engine, serve):
        command.register(sub)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except (ValueError, TypeError, MemoryError, EngineError) as e:
        print(f"genial: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("genial: interrupted", file=sys.stderr)
        return 130

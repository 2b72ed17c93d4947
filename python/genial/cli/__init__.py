"""The ``genial`` command line: one module per command (`demo`, `play`, `records` for
``replay`` and ``render``, `simulate` for ``simulate`` and ``tournament``, `serve`), what
they share in `common`."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from .. import _startup
from .._version import version
from ..engine.host import EngineError
from ..translation import from_environment, use
from . import analyse, bots, demo, engine, ladder, learning, play, records, serve, simulate
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
    parser.add_argument("--version", action=_Version, nargs=0, help="show genial's version and exit")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in (demo, play, records, analyse, simulate, ladder, learning, engine, serve, bots):
        command.register(sub)
    return parser


class _Version(argparse.Action):
    """``--version``, which reads the version only when asked (argparse's own action
    takes the string when the parser is built, on every run)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        print(f"genial {version()}")  # on stdout, as argparse's own action prints it
        parser.exit()


def _again(signum: int, frame: Any) -> None:
    """Ctrl-C after the first: the command is already stopping (closing its files, saying
    what it kept); ending it now would lose that, so it is only acknowledged."""
    with contextlib.suppress(Exception):
        os.write(2, b"genial: stopping, one moment\n")


def _first(signum: int, frame: Any) -> None:
    """The first Ctrl-C: stops the command (KeyboardInterrupt), and later ones wait for it."""
    signal.signal(signal.SIGINT, _again)
    raise KeyboardInterrupt


@contextlib.contextmanager
def _one_interrupt(process: bool) -> Iterator[None]:
    """While a command runs, only its first Ctrl-C interrupts: a second one, which came
    while the first was handled, would otherwise end the process by the signal (status
    -2, the file under way left behind) instead of with 130 and the games kept. For the
    process's own command line (``process``) this holds until the process ends, so that a
    Ctrl-C after `main` returned cannot change its status either; a call with arguments
    (a script, a test) gets Python's handler back."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) not in (
        signal.default_int_handler,
        _startup.interrupted,  # the start-up's: the command takes over from it here
    ):
        yield
        return
    signal.signal(signal.SIGINT, _first)
    try:
        yield
    finally:
        # The process's own command line ends here: from now on Ctrl-C is ignored. (Python
        # resets a signal with a Python handler to the default while it shuts down, so a
        # Ctrl-C then, as the core's threads and the files close, would still end the
        # process by the signal; an ignored one stays ignored.)
        signal.signal(signal.SIGINT, signal.SIG_IGN if process else signal.default_int_handler)


def _terminated(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    """The ``genial`` command: ``argv`` (default: the process's arguments) run, its exit
    status returned."""
    with _one_interrupt(process=argv is None):
        # SIGTERM stops a command as Ctrl-C does (the games finished are kept, and every
        # engine started is stopped with all it started), unless someone else handles it.
        previous = None
        if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
            previous = signal.signal(signal.SIGTERM, _terminated)
        try:
            args = build_parser().parse_args(argv)
            # Every command speaks the terminal's language (`genial play --lang` chooses
            # its own): players read the game, the review and the ranking in it.
            with use(from_environment()):
                return int(args.func(args))
        except (ValueError, TypeError, MemoryError, EngineError) as e:
            return error(str(e))
        except KeyboardInterrupt:
            print("genial: interrupted", file=sys.stderr)
            return 130
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)

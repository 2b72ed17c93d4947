"""``genial simulate`` and ``genial tournament``: many games from the command line, run in
chunks with a progress bar on stderr, a summary table on stdout, and ``--out FILE`` writing
every game as Parquet (``.parquet``, needs pyarrow) or CSV."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from .. import _core
from ..bots import SEARCHING_BOTS, parse_bot
from ..results import ResultWriter, SimulationResult
from ..simulation import chunks, simulate
from ..stats import Summary
from ..tournament import tournament
from .common import bots_help, closed_pipe_safe, error, examples, split_bot_specs

__all__ = ["register", "Progress"]


class Progress:
    """A one-line progress bar on a stream (stderr), redrawn at most ten times a second."""

    def __init__(self, total: int, label: str, stream: TextIO | None = None, enabled: bool | None = None) -> None:
        self.total = max(total, 1)
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.start = time.perf_counter()
        self._last = 0.0

    def __call__(self, done: int, total: int | None = None) -> None:
        if not self.enabled:
            return
        if total is not None:
            self.total = max(total, 1)
        now = time.perf_counter()
        if done < self.total and now - self._last < 0.1:
            return
        self._last = now
        elapsed = max(now - self.start, 1e-9)
        rate = done / elapsed
        frac = min(done / self.total, 1.0)
        bar = "#" * int(30 * frac) + "-" * (30 - int(30 * frac))
        eta = (self.total - done) / rate if rate > 0 else 0.0
        self.stream.write(
            f"\r{self.label} [{bar}] {100 * frac:5.1f}% {done}/{self.total} games, {rate:,.0f} games/s, eta {eta:.0f}s"
        )
        if done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def _number(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number >= ``minimum`` (else exit 2 with a message)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is less than {minimum}")
        return value

    return parse


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=2, help="seats, 1-4 (default: 2)")
    p.add_argument("--seed", type=int, default=0, help="the run's seed (default: 0)")
    p.add_argument("--threads", type=_number(1), default=None, help="threads (default: one per core)")
    p.add_argument(
        "--variant", default="standard", choices=list(_core.variant_names()), help="the rules (default: standard)"
    )
    p.add_argument(
        "--swap-timing",
        default="after_placement",
        choices=["after_placement", "instead_of_placement"],
        help="edition option (default: after_placement)",
    )
    p.add_argument(
        "--require-contact",
        action="store_true",
        help="edition option: every tile after a player's first must touch a tile or symbol",
    )
    p.add_argument(
        "--chunk",
        type=_number(1),
        default=None,
        help="games per chunk, the unit of progress, memory and writing (default: by bot speed)",
    )
    p.add_argument(
        "--out", default=None, help="write every game to FILE: .csv, or .parquet (needs pyarrow) (default: none)"
    )
    bar = p.add_mutually_exclusive_group()
    bar.add_argument(
        "--progress", dest="progress", action="store_true", default=None, help="always show the progress bar"
    )
    bar.add_argument("--no-progress", dest="progress", action="store_false", help="never show the progress bar")


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Ctrl-C waits until the block is done (then raises as usual): a chunk is written,
    and counted, whole or not at all, so the file stays valid."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield
        return
    pending: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: pending.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pending:
        raise KeyboardInterrupt


class _Output:
    """``--out``: opened before the first game (an unwritable path or a missing pyarrow
    stops the command at once, exit 2), written chunk by chunk, so that the games finished
    are in the file, valid, whenever the run stops."""

    def __init__(self, path: str | None, template: SimulationResult) -> None:
        self.path = path
        self.writer = ResultWriter(path) if path else None
        if self.writer is not None:
            self.writer.write(template)  # the header (CSV) or the schema (Parquet)

    def write(self, part: SimulationResult) -> None:
        if self.writer is not None:
            self.writer.write(part)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()

    def said(self, games: int) -> str:
        return f"; wrote {games} games to {self.path}" if self.path else ""


def _open_output(command: str, path: str | None, template: SimulationResult) -> _Output | None:
    try:
        return _Output(path, template)
    except (ImportError, ValueError) as e:
        error(str(e))
    except OSError as e:
        error(f"cannot write {path}: {e.strerror or e}")
    return None


def _interrupted(command: str, done: int, total: int, elapsed: float, summary: Summary | None, out: _Output) -> int:
    """The one line a run stopped by Ctrl-C ends with; exit status 130 (128 + SIGINT)."""
    rates = ""
    if summary is not None and summary.games:
        rates = ", seat win rates " + " / ".join(f"{100 * r:.1f}%" for r in summary.win_rate)
    sys.stderr.write("\n")
    print(f"genial {command}: interrupted after {done} of {total} games in {elapsed:.1f} s{rates}{out.said(done)}")
    sys.stdout.flush()
    return 130


@closed_pipe_safe
def _simulate(args: argparse.Namespace) -> int:
    bots = split_bot_specs(args.bots)
    if args.first_game + args.games > 2**64:
        raise ValueError("--first-game + --games must not pass 2**64")
    # Different bots rotate through the seats unless told not to, so that seat 0's edge is
    # the first player's, not a bot's.
    rotate = args.rotate if args.rotate is not None else len(set(bots)) > 1
    # No game is played before every argument is checked and the output file is open.
    template = simulate(
        0,
        args.players,
        bots,
        args.seed,
        args.threads,
        args.variant,
        args.swap_timing,
        args.require_contact,
        first_game=args.first_game,
        rotate=rotate,
    )
    out = _open_output("simulate", args.out, template)
    if out is None:
        return 2
    searching = any(parse_bot(b).name in SEARCHING_BOTS for b in bots)  # milliseconds a move
    chunk = args.chunk or (64 if searching else max(1000, min(100_000, args.games // 20)))
    progress = Progress(args.games, "simulate", enabled=args.progress)
    summary: Summary | None = None
    start = time.perf_counter()
    done = 0
    try:
        for first, count in chunks(args.games, chunk, args.first_game):
            part = simulate(
                count,
                args.players,
                bots,
                args.seed,
                args.threads,
                args.variant,
                args.swap_timing,
                args.require_contact,
                first_game=first,
                rotate=rotate,
            )
            with _interrupts_held():
                summary = part.summary() if summary is None else summary + part.summary()
                out.write(part)
                done += count
            progress(done)
    except KeyboardInterrupt:
        out.close()
        return _interrupted("simulate", done, args.games, time.perf_counter() - start, summary, out)
    finally:
        out.close()
    elapsed = time.perf_counter() - start
    if summary is None:
        print("no games played")
        sys.stdout.flush()
        return 0
    fixed = len(set(bots)) > 1 and not rotate
    print(
        summary.table(
            f"seat 0 ({bots[0]}) advantage, its bot's strength included" if fixed else "first player advantage"
        )
    )
    if rotate and args.rotate is None:
        print("(the bots rotated through the seats; --no-rotate keeps them fixed)")
    print(
        f"\n{summary.games} games in {elapsed:.2f} s ({summary.games / max(elapsed, 1e-9):,.0f} games/s), seed {args.seed}"
    )
    if args.out:
        print(f"wrote {args.out}")
    sys.stdout.flush()
    return 0


@closed_pipe_safe
def _tournament(args: argparse.Namespace) -> int:
    bots = split_bot_specs(args.bots)
    progress = Progress(args.games, "tournament", enabled=args.progress)
    out: _Output | None = None
    done = 0
    summaries: list[Summary] = []

    def start(total: int) -> None:
        # Every argument is checked by now; no game is played before the output is open.
        nonlocal out
        progress.total = total
        if total != args.games:
            print(
                f"playing {total} games instead of {args.games}: whole rounds, so that every bot sits "
                "in every seat equally often",
                file=sys.stderr,
            )
        template = simulate(0, args.players, "random", 0, 1, args.variant, args.swap_timing, args.require_contact)
        out = _Output(args.out, template)

    def written(part: SimulationResult) -> None:
        nonlocal done
        assert out is not None
        with _interrupts_held():
            out.write(part)
            summaries.append(part.summary())
            done += len(part)

    begun = time.perf_counter()
    try:
        t = tournament(
            bots,
            args.players,
            args.games,
            args.seed,
            args.threads,
            args.variant,
            args.swap_timing,
            args.require_contact,
            chunk=args.chunk,
            progress=progress,
            on_chunk=written,
            on_start=start,
        )
    except ImportError as e:
        return error(str(e))
    except OSError as e:
        if out is not None:
            raise
        return error(f"cannot write {args.out}: {e.strerror or e}")
    except KeyboardInterrupt:
        if out is None:
            print("genial tournament: interrupted before the first game")
            return 130
        out.close()
        summary = sum(summaries[1:], summaries[0]) if summaries else None
        return _interrupted("tournament", done, progress.total, time.perf_counter() - begun, summary, out)
    finally:
        if out is not None:
            out.close()
    print(t.table())
    print()
    print(t.summary.table())
    if args.out:
        print(f"wrote {args.out}")
    sys.stdout.flush()
    return 0


def register(subparsers: Any) -> None:
    """Adds ``simulate`` and ``tournament`` to the ``genial`` command."""
    sim = subparsers.add_parser(
        "simulate",
        help="play many games between built-in bots and summarise them",
        description="Play many games between built-in bots and summarise them. One bot for all seats or one "
        "per seat. " + bots_help(),
        epilog=examples(
            "genial simulate --games 100000 --bots greedy,random --out games.parquet",
            "genial simulate --games 1000 --bots mcts:iterations=300 --threads 2",
            "genial simulate --variant team --players 4 --games 10000 --seed 7",
            "genial simulate --games 500000 --first-game 500000 --out part2.csv   # a second machine's half",
        ),
    )
    sim.add_argument("--games", type=_number(0), default=10_000, help="games to play (default: 10000)")
    sim.add_argument("--bots", default="random", help="comma-separated, one per seat or one for all (default: random)")
    sim.add_argument(
        "--first-game",
        type=_number(0),
        default=0,
        help="first game number, to split a run across machines (default: 0)",
    )
    sim.add_argument(
        "--rotate",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="shift the bots one seat per game (default: when the seats' bots differ)",
    )
    _common(sim)
    sim.set_defaults(func=_simulate)

    tour = subparsers.add_parser(
        "tournament",
        help="every bot in every seat equally often: win rates and Elo ratings",
        description="Every bot in every seat equally often, on paired deals: win rates and Elo ratings. " + bots_help(),
        epilog=examples(
            "genial tournament --bots expert,hard,medium,easy --games 400",
            "genial tournament --bots mcts:iterations=300,greedy,random --games 600 --out t.csv",
            "genial tournament --bots expert:swap=never,scarcity:swap=never --games 200 --threads 2",
        ),
    )
    tour.add_argument("--bots", default="greedy,random", help="comma-separated bots (default: greedy,random)")
    tour.add_argument(
        "--games",
        type=_number(1),
        default=1000,
        help="games to play, rounded up to whole rounds of seatings (default: 1000)",
    )
    _common(tour)
    tour.set_defaults(func=_tournament)

"""``genial simulate`` and ``genial tournament``: many games from the command line, run in
chunks with a progress bar on stderr, a summary table on stdout, and ``--out FILE`` writing
every game as Parquet (``.parquet``, needs pyarrow) or CSV."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, TextIO

from . import _core
from .bots import BUILTIN_BOTS
from .simulation import ResultWriter, Summary, chunks, simulate
from .tournament import tournament

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


def _bots(text: str) -> list[str]:
    """``"mcts:iterations=100,width=6,greedy"`` -> ``["mcts:iterations=100,width=6", "greedy"]``:
    a comma starts a new bot unless what follows is another ``key=value`` option."""
    out: list[str] = []
    for item in (p.strip() for p in text.split(",")):
        if not item:
            continue
        if "=" in item and ":" not in item and out:
            out[-1] += "," + item
        else:
            out.append(item)
    return out


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=None, help="threads (default: one per core)")
    p.add_argument("--variant", default="standard", choices=list(_core.variant_names()))
    p.add_argument("--swap-timing", default="after_placement", choices=["after_placement", "instead_of_placement"])
    p.add_argument("--require-contact", action="store_true")
    p.add_argument("--chunk", type=int, default=None, help="games per chunk (progress and memory granularity)")
    p.add_argument("--out", default=None, help="write every game to FILE (.parquet needs pyarrow; else CSV)")
    bar = p.add_mutually_exclusive_group()
    bar.add_argument("--progress", dest="progress", action="store_true", default=None, help="always show the progress bar")
    bar.add_argument("--no-progress", dest="progress", action="store_false", help="never show the progress bar")


def _simulate(args: argparse.Namespace) -> int:
    bots = _bots(args.bots)
    chunk = args.chunk or (64 if any(b.startswith("mcts") for b in bots) else max(1000, min(100_000, args.games // 20)))
    progress = Progress(args.games, "simulate", enabled=args.progress)
    writer = ResultWriter(args.out) if args.out else None
    summary: Summary | None = None
    start = time.perf_counter()
    try:
        for first, count in chunks(args.games, chunk, args.first_game):
            part = simulate(
                count, args.players, bots, args.seed, args.threads, args.variant, args.swap_timing,
                args.require_contact, first_game=first, rotate=args.rotate,
            )
            summary = part.summary() if summary is None else summary + part.summary()
            if writer is not None:
                writer.write(part)
            progress(first + count - args.first_game)
    finally:
        if writer is not None:
            writer.close()
    elapsed = time.perf_counter() - start
    if summary is None:
        print("no games played")
        return 0
    print(summary.table())
    print(f"\n{summary.games} games in {elapsed:.2f} s ({summary.games / max(elapsed, 1e-9):,.0f} games/s), seed {args.seed}")
    if args.out:
        print(f"wrote {args.out}")
    return 0


def _tournament(args: argparse.Namespace) -> int:
    bots = _bots(args.bots)
    progress = Progress(args.games, "tournament", enabled=args.progress)
    t = tournament(
        bots, args.players, args.games, args.seed, args.threads, args.variant, args.swap_timing,
        args.require_contact, chunk=args.chunk, progress=progress,
    )
    print(t.table())
    print()
    print(t.summary.table())
    if args.out:
        with ResultWriter(args.out) as w:
            w.write(t.result)
        print(f"wrote {args.out}")
    return 0


def register(subparsers: Any) -> None:
    """Adds ``simulate`` and ``tournament`` to the ``genial`` command."""
    names = ", ".join(BUILTIN_BOTS)
    sim = subparsers.add_parser(
        "simulate",
        help="play many games between built-in bots and summarise them",
        description=f"Bots: {names}; options as mcts:iterations=200,time_ms=50. One bot for all seats or one per seat.",
    )
    sim.add_argument("--games", type=int, default=10_000)
    sim.add_argument("--bots", default="random", help="comma-separated, one per seat or one for all (default: random)")
    sim.add_argument("--first-game", type=int, default=0, help="first game number (to split a run across machines)")
    sim.add_argument("--rotate", action="store_true", help="shift the bots one seat per game")
    _common(sim)
    sim.set_defaults(func=_simulate)

    tour = subparsers.add_parser(
        "tournament",
        help="every bot in every seat equally often: win rates and Elo ratings",
        description=f"Bots: {names}; options as mcts:iterations=200,time_ms=50.",
    )
    tour.add_argument("--bots", default="greedy,random", help="comma-separated bots (default: greedy,random)")
    tour.add_argument("--games", type=int, default=1000)
    _common(tour)
    tour.set_defaults(func=_tournament)

"""``genial ladder``: the rating ladder of a pool of bots (`genial.ladder`), resumable,
written as a Markdown report, a head-to-head matrix and a plot; ``--ray auto|ADDRESS`` plays
the matches on a Ray cluster (`genial.distributed`) with the same report as a result."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from ..arguments import int_in
from ..files import write_atomic
from .common import error, examples, split_bot_specs

__all__ = ["register"]


def _ladder(args: argparse.Namespace) -> int:
    from ..ladder import MAX_BOOTSTRAP, LadderRun, default_pool
    from ..progress import ProgressBar

    if not args.out:
        return error("--out needs a folder name (default: ladder)")
    for flag, value in (("--rounds", args.rounds), ("--rounds4", args.rounds4)):
        int_in(flag, value, 0)
    int_in("--bootstrap", args.bootstrap, 0, MAX_BOOTSTRAP)
    pool = split_bot_specs(args.pool) if args.pool else default_pool()
    pool += args.add or []
    out = Path(args.out)
    try:
        run = LadderRun(out / "results.jsonl", pool, rounds2=args.rounds, rounds4=args.rounds4, seed=args.seed)
    except OSError as e:  # the results file unreadable, or its repair unwritable (a full disk)
        return error(f"cannot use {e.filename or out / 'results.jsonl'}: {e.strerror or e}", 1)
    total = len(run.matches)
    if run.set_aside:
        print(
            f"genial ladder: set aside {len(run.set_aside)} line{'s' if len(run.set_aside) > 1 else ''} of "
            f"{run.path} that could not be read ({'; '.join(run.set_aside[:3])}"
            f"{'; ...' if len(run.set_aside) > 3 else ''}) into {run.bad_path}; every valid match is kept",
            file=sys.stderr,
        )
    if run.done:
        print(f"resuming {out / 'results.jsonl'}: {len(run.done)} of {total} matches done", file=sys.stderr)
    if args.ray:
        from ..distributed import RayClusterError, connect, ray_available

        if not ray_available():
            return error("--ray needs the ray package: pip install ray")
        try:
            connect(args.ray)  # before the results file is made: a run that cannot start leaves nothing
        except RayClusterError as e:
            return error(str(e))
    start = time.perf_counter()
    try:
        with ProgressBar(total, "ladder", enabled=args.progress, unit="matches") as progress:
            progress(len(run.done))
            run.play(progress, ray=args.ray, nodes=lambda n: progress.note(f"{n} node{'s' if n > 1 else ''}"))
    except KeyboardInterrupt:
        print(
            f"\ngenial ladder: interrupted after {len(run.done)} of {total} matches; "
            "run the same command again to resume",
            file=sys.stderr,
        )
        return 130
    except OSError as e:  # a full disk: the matches appended before it are whole lines
        return error(f"cannot write {e.filename or run.path}: {e.strerror or e}; {_kept(run)}", 1)
    except Exception as e:  # the cluster failed (a lost connection, a task that kept failing)
        if not args.ray:
            raise
        print(
            f"\ngenial ladder: the Ray run stopped: {type(e).__name__}: {e}\n{len(run.done)} of {total} "
            "matches are kept: run the same command again to resume",
            file=sys.stderr,
        )
        return 1
    ratings = run.ratings(bootstrap=args.bootstrap)
    games = ", ".join(f"{n} {p}-player games" for p, n in sorted(ratings.games.items()))
    report = [
        f"# genial ladder\n\n{games} ({ratings.matches} matches), seed {args.seed}; Elo anchored at random = 0,",
        f"95% intervals from {args.bootstrap} bootstrap resamplings of the matches.\n",
        ratings.table(),
        "\n## Head to head\n\nThe row bot's score against the column bot (pairwise encounters).\n",
        ratings.matrix(),
        "",
    ]
    try:
        write_atomic(out / "ladder.md", "\n".join(report))
    except OSError as e:  # a full disk, or a folder by that name
        return error(f"cannot write {out / 'ladder.md'}: {e.strerror or e}; {_kept(run)}", 1)
    print(ratings.table())
    print()
    print(ratings.matrix())
    try:
        plotted = ratings.plot(out / "ladder.png")
    except OSError as e:
        return error(f"cannot write {out / 'ladder.png'}: {e.strerror or e}; {_kept(run)}", 1)
    if plotted:
        print(f"\nwrote {out / 'ladder.md'} and {out / 'ladder.png'}")
    else:
        print(f"\nwrote {out / 'ladder.md'} (no plot: matplotlib is not installed)")
    print(f"{len(run.done)} matches, {time.perf_counter() - start:.0f} s this run")
    return 0


def _kept(run: Any) -> str:
    n = len(run.done)
    return f"{n} match{' is' if n == 1 else 'es are'} kept in {run.path}: the same command resumes"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "ladder",
        help="rate a pool of bots and engines: Elo with 95%% intervals, head to head, a plot",
        description="Plays a pool of bots in the 2-player and the 4-player base game (swaps on), each "
        "deal in every rotation of the seats, and fits Bradley-Terry ratings anchored at random = 0 with "
        "bootstrap intervals. Every finished match is appended to OUT/results.jsonl: the same command "
        "resumes a stopped run. Writes OUT/ladder.md and OUT/ladder.png (with matplotlib).",
        epilog=examples(
            "genial ladder --out ladder --rounds 2 --rounds4 1",
            "genial ladder --pool random,greedy,easy,medium --add 'engine:./my_engine' --out mine",
            "genial ladder --out big --rounds 40 --rounds4 20 --ray auto   # the matches on a Ray cluster",
        ),
    )
    p.add_argument("--out", default="ladder", help="folder of the results and the report (default: ladder)")
    p.add_argument(
        "--pool", default=None, help="comma-separated bots (default: every built-in bot that genial bots lists)"
    )
    p.add_argument(
        "--add", action="append", metavar="SPEC", help="one more bot, e.g. 'engine:./my_engine' (repeatable)"
    )
    p.add_argument(
        "--rounds", type=int, default=2, help="2-player rounds: every pair plays a deal both ways (default 2)"
    )
    p.add_argument("--rounds4", type=int, default=1, help="4-player rounds: one match per bot of the pool (default 1)")
    p.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    p.add_argument(
        "--ray",
        metavar="auto|ADDRESS",
        default=None,
        help="play the matches on the Ray cluster at ADDRESS (auto: the one this machine belongs to); "
        "same results as here, and the same command resumes",
    )
    p.add_argument("--bootstrap", type=int, default=200, help="bootstrap resamplings for the intervals (default 200)")
    bar = p.add_mutually_exclusive_group()
    bar.add_argument("--progress", dest="progress", action="store_true", default=None, help="always show progress")
    bar.add_argument("--no-progress", dest="progress", action="store_false", help="never show progress")
    p.set_defaults(func=_ladder)

"""``genial simulate`` and ``genial tournament``: many games from the command line, played by
the core's run loop (`genial.simulation.Run`) with a progress bar on stderr (tqdm), result
tables on stdout (rich), and ``--out FILE`` writing every game as plain CSV or Parquet with
its metadata in ``FILE.meta.json``. ``genial simulate --out DIR`` writes a partitioned
Parquet dataset instead (`genial.dataset`: one file per shard, ``--resume`` continues a
stopped run), played here or, with ``--ray auto|ADDRESS``, on a Ray cluster
(`genial.distributed`) with the same files as a result."""

from __future__ import annotations

import argparse
import functools
import logging
import os
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _core
from ..arguments import LIMITS
from ..engine.host import EngineError
from ..files import interrupts_held
from ..progress import ProgressBar
from ..results import ResultFileError, ResultWriter, SimulationResult
from ..simulation import Run, simulation_run
from ..stats import Summary
from ..tournament import DEFAULT_GAMES, TournamentResult, tournament, tournament_run
from ..variants import Rules
from .common import add_rule_flags, bots_help, closed_pipe_safe, error, examples, rules_from_flags, split_bot_specs

if TYPE_CHECKING:
    from rich.console import Console

    from ..dataset import Dataset, Shard

__all__ = ["register"]

log = logging.getLogger("genial.cli")


def _number(option: str, minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number in ``minimum .. maximum`` (else exit 2 with a
    message that argparse prefixes with the option's name)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is less than {minimum}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"{value} is more than {maximum}, the most {option} takes")
        return value

    return parse


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--players", type=int, default=None, help="seats, 1-4 (default: the variant's count, 2 for standard)"
    )
    p.add_argument("--seed", type=int, default=0, help="the run's seed (default: 0)")
    p.add_argument(
        "--threads",
        type=_number("--threads", 1, LIMITS["threads"]),
        default=None,
        help="threads (default: one per core)",
    )
    p.add_argument("--variant", choices=list(_core.variant_names()), help="the rules (default: standard)")
    add_rule_flags(p)
    p.add_argument(
        "--chunk",
        type=_number("--chunk", 1, LIMITS["games"]),
        default=None,
        help="games held and written at a time (default: by bot speed)",
    )
    p.add_argument(
        "--out",
        default=None,
        help="write every game to FILE: .csv, or .parquet (needs pyarrow); metadata in FILE.meta.json. "
        "genial simulate also takes a folder (DIR/, or a name without a suffix): a Parquet dataset, one "
        "file per shard (default: none)",
    )
    bar = p.add_mutually_exclusive_group()
    bar.add_argument(
        "--progress", dest="progress", action="store_true", default=None, help="always show the progress bar"
    )
    bar.add_argument("--no-progress", dest="progress", action="store_false", help="never show the progress bar")
    talk = p.add_mutually_exclusive_group()
    talk.add_argument("-q", "--quiet", action="store_true", help="print only the results: no progress, no notes")
    talk.add_argument("-v", "--verbose", action="count", default=0, help="log what the run does on stderr (-vv: more)")


def _logging(args: argparse.Namespace) -> None:
    level = logging.ERROR if args.quiet else (logging.WARNING, logging.INFO, logging.DEBUG)[min(args.verbose, 2)]
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("genial %(levelname)s: %(message)s"))
    log.handlers[:] = [handler]
    log.setLevel(level)
    log.propagate = False


def _rules(args: argparse.Namespace) -> Rules:
    return rules_from_flags(args, args.variant, args.players)


def _note(args: argparse.Namespace, text: str) -> None:
    """A remark on stderr (what the command did instead of what one might assume)."""
    if not args.quiet:
        print(text, file=sys.stderr)


def _console() -> Console:
    """Tables on stdout: as wide as the terminal, or wide enough when piped."""
    from rich.console import Console  # imported when a table is shown: rich costs every run's start

    return Console(file=sys.stdout, width=None if sys.stdout.isatty() else 160, highlight=False)


class _Output:
    """``--out``: opened before the first game (an unwritable path or a missing pyarrow
    stops the command at once, exit 2), written chunk by chunk under a temporary name and
    renamed into place by `finish`, so that the path holds a complete file whenever the run
    stops, and an earlier file there is replaced only by one holding games."""

    def __init__(self, path: str | None, run: Run) -> None:
        self.path = path
        self.kept = False  # whether `finish` put a file at the path
        self.writer = ResultWriter(path) if path else None
        if self.writer is not None:
            try:
                with interrupts_held():
                    self.writer.write(run.empty())  # the header (CSV), the schema (Parquet), the metadata
            except BaseException:  # Ctrl-C included: an earlier file stays as it was
                self.writer.abandon()
                raise

    @property
    def partial(self) -> Any:
        return None if self.writer is None else self.writer.partial

    def write(self, part: SimulationResult) -> None:
        if self.writer is not None:
            self.writer.write(part)
            log.info("wrote games %d..%d to %s", part.first_game, int(part.game_index[-1]), self.path)

    def finish(self, keep: bool = True) -> ResultFileError | None:
        """Renames the file into place (``keep``), or drops it (an earlier file stays); the
        error when that failed. A second call does nothing."""
        if self.writer is None:
            return None
        writer, self.writer = self.writer, None
        try:
            if keep:
                with interrupts_held():  # a Ctrl-C now is raised once the file is in place
                    writer.close()
                    self.kept = True
            else:
                writer.abandon()
        except ResultFileError as e:
            return e
        return None

    def said(self, games: int) -> str:
        if not self.path:
            return ""
        if self.kept:
            return f"; wrote {games} games to {self.path}"
        return f"; {self.path} was not written" + (
            " (the file there is untouched)" if os.path.exists(self.path) else ""
        )


def _open_output(command: str, path: str | None, run: Run) -> _Output | None:
    try:
        return _Output(path, run)
    except (ImportError, ValueError) as e:
        error(str(e))
    except OSError as e:
        error(f"cannot write {path}: {e.strerror or e}")
    return None


def _opened_output(command: str, path: str | None, run: Run, total: int) -> _Output | int:
    """The output of a run of ``total`` games, opened with Ctrl-C held, or the command's
    exit status: 2 if it cannot be opened (said), 130 if Ctrl-C came while it opened (said,
    and the file under way is removed). The caller's ``try`` must follow at once: a Ctrl-C
    raised between an open output and the ``try`` that finishes it would leave the file
    under way behind."""
    out = None
    try:
        with interrupts_held():
            out = _open_output(command, path, run)
    except KeyboardInterrupt:
        # Raised as the hold ended, so `out` is assigned: open or None.
        if out is not None:
            out.finish(keep=False)
        return _interrupted(command, 0, total, 0.0, None, _Output(None, run))
    return 2 if out is None else out


def _interrupted(command: str, done: int, total: int, elapsed: float, summary: Summary | None, out: _Output) -> int:
    """The one line a run stopped by Ctrl-C ends with; exit status 130 (128 + SIGINT)."""
    rates = ""
    if summary is not None and summary.games:
        rates = ", seat win rates " + " / ".join(f"{100 * r:.1f}%" for r in summary.win_rate)
    print(f"genial {command}: interrupted after {done} of {total} games in {elapsed:.1f} s{rates}{out.said(done)}")
    sys.stdout.flush()
    return 130


def _stopped_early(out: _Output, done: int, report: Callable[[], int]) -> int:
    """Ends a run stopped before its last game (Ctrl-C, an engine's failure): the file keeps
    the ``done`` games finished (an earlier file stays if there are none), ``report`` says
    what happened, and a file that could not be finished is said after it."""
    failed = out.finish(keep=done > 0)
    code = report()
    if failed is not None:
        error(str(failed), 1)
    return code


def _engine_failed(command: str, e: EngineError, done: int, total: int, out: _Output) -> int:
    """The line a run stopped by an engine's error ends with (status 2): the games finished
    before it are kept."""
    print(f"genial {command}: {e}\n{done} of {total} games were finished{out.said(done)}", file=sys.stderr)
    sys.stderr.flush()
    return 2


def _summary_tables(summary: Summary, advantage: str) -> list[Any]:
    """The summary of a run as rich tables: per seat, per bot, and the totals."""
    from rich.table import Table

    out: list[Any] = []
    seats = Table(title=f"{summary.games} games, {summary.players} players", title_justify="left")
    for name, justify in [
        ("seat", "left"),
        ("win rate [95% CI]", "left"),
        ("lowest: mean", "right"),
        ("sd", "right"),
        ("p10/p50/p90", "right"),
        ("total", "right"),
    ]:
        seats.add_column(name, justify=justify)  # type: ignore[arg-type]
    qs = summary.lowest_quantiles()
    mean, sd = summary.lowest_mean(), summary.lowest_std()
    tot = summary.total_sum / max(summary.games, 1)
    for s, r in enumerate(summary.seat_rates()):
        seats.add_row(
            str(s), str(r), f"{mean[s]:.2f}", f"{sd[s]:.2f}", "/".join(str(int(x)) for x in qs[s]), f"{tot[s]:.1f}"
        )
    out.append(seats)
    rates = summary.bot_rates()
    if len(summary.bot_names) > 1:
        bots = Table()
        for name, justify in [("bot", "left"), ("seats", "right"), ("win rate [95% CI]", "left"), ("lowest", "right")]:
            bots.add_column(name, justify=justify)  # type: ignore[arg-type]
        for i, name in enumerate(summary.bot_names):
            if summary.bot_seats[i]:
                low = summary.bot_low_sum[i] / summary.bot_seats[i]
                bots.add_row(name, str(int(summary.bot_seats[i])), str(rates[name]), f"{low:.2f}")
        out.append(bots)
    adv = summary.first_player_advantage()
    ends = ", ".join(f"{k} {v}" for k, v in summary.end_counts().items())
    g = max(summary.games, 1)
    out.append(
        f"{advantage}: {100 * adv.value:+.1f} points [{100 * adv.low:+.1f}, {100 * adv.high:+.1f}] "
        f"over a fair {100 / summary.sides:.1f}%\n"
        f"per game: {summary.placements / g:.1f} placements, {summary.bonus_placements / g:.2f} bonus placements, "
        f"{summary.swaps / g:.2f} swaps; ends: {ends}"
    )
    return out


def _tournament_tables(t: TournamentResult) -> list[Any]:
    """One table of the bots (best first) and the head-to-head matrix."""
    from rich.table import Table

    rates = t.summary.bot_rates()
    order = [int(i) for i in np.argsort(-t.elo, kind="stable")]
    res = t.result
    table = Table(
        title=f"{t.games} games, {res.players} players, {res.variant}: every bot in every seat equally often",
        title_justify="left",
    )
    for name, justify in [
        ("bot", "left"),
        ("elo", "right"),
        ("± se", "right"),
        ("win rate [95% CI]", "left"),
        ("seats", "right"),
        ("lowest", "right"),
    ]:
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    low = res.lowest().astype(np.float64)
    for i in order:
        name = t.names[i]
        mask = res.bots == i
        mean_low = f"{float(low[mask].mean()):.2f}" if mask.any() else "-"
        table.add_row(
            name, f"{t.elo[i]:.0f}", f"{t.elo_se[i]:.0f}", str(rates[name]), str(int(t.seat_counts[i].sum())), mean_low
        )
    h2h = Table(title="head to head: the row's score against the column (draws count half)", title_justify="left")
    h2h.add_column("")
    for j in order:
        h2h.add_column(t.names[j], justify="right")
    share = t.head_to_head()
    for i in order:
        h2h.add_row(t.names[i], *("-" if np.isnan(share[i, j]) else f"{100 * share[i, j]:.1f}%" for j in order))
    return [table, h2h]


def _print_summary(run: Run, summary: Summary, rotate: bool) -> Console:
    fixed = len(run.bots) > 1 and not rotate
    console = _console()
    advantage = (
        f"seat 0 ({run.labels[0]}) advantage, its bot's strength included" if fixed else "first player advantage"
    )
    for item in _summary_tables(summary, advantage):
        console.print(item)
    return console


@closed_pipe_safe
def _simulate(args: argparse.Namespace) -> int:
    _logging(args)
    bots = split_bot_specs(args.bots)
    # Bots rotate through the seats unless told not to, so that seat 0's edge is the first
    # player's, not a bot's.
    rotate = args.rotate is not False
    from ..dataset import is_dataset_path

    folder = args.out is not None and is_dataset_path(args.out)
    for flag, given in (("--ray", args.ray), ("--resume", args.resume), ("--shard-games", args.shard_games)):
        if given and not folder:
            return error(f"{flag} writes a dataset folder: give --out DIR (a folder, not a .csv or .parquet file)")
    run, games, first_game = simulation_run(
        args.games, bots, args.seed, rules=_rules(args), first_game=args.first_game, rotate=rotate
    )
    if folder:
        try:
            return _simulate_dataset(args, run, games, first_game, rotate, bots)
        finally:
            run.close()
    # No game is played before every argument is checked and the output file is open.
    out = _opened_output("simulate", args.out, run, games)
    if isinstance(out, int):
        return out
    summary: Summary | None = None
    start = time.perf_counter()
    done = 0
    try:
        chunk = args.chunk or run.chunk_size(games)
        log.info(
            "%d games of %r, %d lineups, chunks of %d, seed %d", games, run.rules, len(run.lineups), chunk, run.seed
        )
        bar = ProgressBar(games, "simulate", enabled=False if args.quiet else args.progress)
        try:
            for part in run.chunks(first_game, games, args.threads, chunk=chunk, progress=bar):
                with interrupts_held():
                    summary = part.summary() if summary is None else summary + part.summary()
                    out.write(part)
                    done += len(part)
                    bar(done)
        finally:
            bar.close()
        failed = out.finish()
    except KeyboardInterrupt:
        return _stopped_early(
            out, done, lambda: _interrupted("simulate", done, games, time.perf_counter() - start, summary, out)
        )
    except EngineError as e:
        return _stopped_early(out, done, functools.partial(_engine_failed, "simulate", e, done, games, out))
    except ResultFileError as e:
        # The file cannot take more; the games played are still summed up.
        out.finish(keep=False)
        if summary is not None:
            _print_summary(run, summary, rotate)
            sys.stdout.flush()
        return error(f"{e}; {summary.games if summary else 0} games were played", 1)
    finally:
        out.finish(keep=False)  # an unexpected error: an earlier file stays as it was
        run.close()
    elapsed = time.perf_counter() - start
    if summary is None:
        print("no games played")
        sys.stdout.flush()
        return _failed(failed)
    console = _print_summary(run, summary, rotate)
    if len(run.bots) > 1 and args.rotate is None and not args.quiet:
        console.print("(the bots rotated through the seats; --no-rotate keeps them fixed)")
    console.print(
        f"\n{summary.games} games in {elapsed:.2f} s ({summary.games / max(elapsed, 1e-9):,.0f} games/s), seed {args.seed}"
    )
    if args.out and failed is None:
        console.print(f"wrote {args.out} (metadata: {args.out}.meta.json)")
    sys.stdout.flush()
    return _failed(failed)


def _failed(failed: ResultFileError | None) -> int:
    """Exit 0, or 1 with the one line saying why the file could not be finished."""
    if failed is None:
        return 0
    return error(f"{failed}; the games were played and summed up above", 1)


def _simulate_dataset(
    args: argparse.Namespace, run: Run, games: int, first_game: int, rotate: bool, bots: list[str]
) -> int:
    """``--out DIR``: the run as a dataset folder, shard by shard, here or on a Ray cluster;
    a shard is written as soon as it is finished, so that ``--resume`` loses nothing."""
    from ..dataset import Dataset, DatasetError

    if args.ray:
        from ..distributed import RayClusterError, connect, ray_available

        if not ray_available():
            return error("--ray needs the ray package: pip install ray")
        try:
            connect(args.ray)  # before the folder is made: a run that cannot start leaves nothing
        except RayClusterError as e:
            return error(str(e))
    start = time.perf_counter()
    ds: Dataset | None = None
    bar: ProgressBar | None = None
    # One `try` from the folder's creation on: a Ctrl-C between the two would end the
    # command without saying what the folder holds.
    try:
        try:
            ds = Dataset(args.out, run, games, first_game, args.shard_games, resume=args.resume)
        except (DatasetError, ValueError, ImportError) as e:
            return error(str(e))
        except OSError as e:
            return error(f"cannot write {args.out}: {e.strerror or e}")
        pending = ds.pending()
        for aside in ds.set_aside:
            # Said even with -q: a file of the folder was moved.
            print(
                f"{aside.name.removesuffix('.unlisted')} was not listed in _meta.json: set aside as {aside}, played again",
                file=sys.stderr,
            )
        if ds.done:
            _note(
                args,
                f"resuming {args.out}: {len(ds.done)} of {len(ds.shards)} shards done, {len(pending)} to play",
            )
        log.info(
            "%d games of %r in %d shards of %d, seed %d%s",
            games,
            run.rules,
            len(ds.shards),
            ds.shard_games,
            run.seed,
            f", on the Ray cluster at {args.ray}" if args.ray else "",
        )
        bar = ProgressBar(games, "simulate", enabled=False if args.quiet else args.progress)
        bar(ds.games_done)
        if args.ray:
            _play_on_ray(args, ds, pending, bots, rotate, bar)
        else:
            for shard in pending:
                base = ds.games_done

                def report(done: int, _total: int, base: int = base, bar: ProgressBar = bar) -> None:
                    bar(base + done)

                part = run.play(shard.first_game, shard.games, args.threads, progress=report)
                with interrupts_held():
                    ds.write(shard, part)
                    bar(ds.games_done)
                    log.info(
                        "wrote %s (games %d..%d)", shard.name, shard.first_game, shard.first_game + shard.games - 1
                    )
    except KeyboardInterrupt:
        if bar is not None:
            bar.close()
        if ds is None:
            return _interrupted("simulate", 0, games, 0.0, None, _Output(None, run))
        print(
            f"genial simulate: interrupted after {time.perf_counter() - start:.1f} s; {len(ds.done)} of "
            f"{len(ds.shards)} shards ({ds.games_done} games) are in {args.out}: add --resume to the same "
            "command to play the rest"
        )
        sys.stdout.flush()
        return 130
    except EngineError as e:
        if bar is not None:
            bar.close()
        assert ds is not None  # engines play only once the folder is open
        print(
            f"genial simulate: {e}\n{len(ds.done)} of {len(ds.shards)} shards ({ds.games_done} games) are in "
            f"{args.out}: add --resume to the same command to play the rest",
            file=sys.stderr,
        )
        return 2
    except OSError as e:
        if bar is not None:
            bar.close()
        assert ds is not None  # the folder's own creation says its errors above
        # The shards written are kept, and summed up as a finished run's would be.
        kept = ds.summary() if ds.done else None
        if kept is not None:
            _print_summary(run, kept, rotate)
            sys.stdout.flush()
        print(
            f"genial simulate: cannot write {args.out}: {e.strerror or e}; {len(ds.done)} of {len(ds.shards)} "
            f"shards ({ds.games_done} games) are kept there: add --resume to the same command to play the rest",
            file=sys.stderr,
        )
        return 1
    except Exception as e:  # the cluster failed (a lost connection, a task that kept failing)
        if not args.ray or ds is None:
            raise
        if bar is not None:
            bar.close()
        print(
            f"genial simulate: the Ray run stopped: {type(e).__name__}: {e}\n{len(ds.done)} of {len(ds.shards)} "
            f"shards ({ds.games_done} games) are in {args.out}: add --resume to the same command to play the rest",
            file=sys.stderr,
        )
        return 1
    finally:
        if bar is not None:
            bar.close()
    elapsed = time.perf_counter() - start
    summary = ds.summary()
    if summary is None:
        print("no games played")
        sys.stdout.flush()
        return 0
    console = _print_summary(run, summary, rotate)
    played = sum(s.games for s in pending)
    console.print(
        f"\n{played} games played in {elapsed:.2f} s ({played / max(elapsed, 1e-9):,.0f} games/s), "
        f"{summary.games} in the dataset, seed {args.seed}"
    )
    shards = f"{len(ds.shards)} shard{'s' if len(ds.shards) != 1 else ''}"
    console.print(f"wrote {args.out}: {shards} (metadata: {ds.path / '_meta.json'})")
    sys.stdout.flush()
    return 0


def _play_on_ray(
    args: argparse.Namespace, ds: Dataset, pending: list[Shard], bots: list[str], rotate: bool, bar: ProgressBar
) -> None:
    """The pending shards as Ray tasks of ``--threads`` threads (default 1); each is written
    here as it arrives, and the bar counts the nodes that played."""
    from ..distributed import play_shard, run_tasks

    threads = args.threads or 1
    jobs = [
        (
            shard,
            dict(
                games=shard.games,
                bots=bots,
                seed=args.seed,
                threads=threads,
                rules=ds.run.rules,
                first_game=shard.first_game,
                rotate=rotate,
            ),
        )
        for shard in pending
    ]
    shard_of = {id(job): shard for shard, job in jobs}
    nodes: set[str] = set()

    def arrived(job: dict[str, Any], part: SimulationResult, node: str) -> None:
        shard = shard_of[id(job)]
        with interrupts_held():
            ds.write(shard, part)
        nodes.add(node)
        bar.note(f"{len(nodes)} node{'s' if len(nodes) > 1 else ''}")
        bar(ds.games_done)
        log.info("wrote %s from node %s", shard.name, node[:8])

    run_tasks(play_shard, [job for _, job in jobs], arrived, address=args.ray, cpus=threads)


@closed_pipe_safe
def _tournament(args: argparse.Namespace) -> int:
    _logging(args)
    bots = split_bot_specs(args.bots)
    run, total = tournament_run(bots, _rules(args), args.seed, args.games)
    # No game is played before every argument is checked and the output file is open.
    opened = _opened_output("tournament", args.out, run, total)
    if isinstance(opened, int):
        return opened
    out = opened
    done = 0
    summaries: list[Summary] = []
    begun = time.perf_counter()
    try:
        if args.games is None:
            _note(
                args, f"playing {total} games: whole rounds near {DEFAULT_GAMES}, every bot in every seat equally often"
            )
        log.info("%d games of %r, %d seatings a round, seed %d", total, run.rules, len(run.lineups), run.seed)
        bar = ProgressBar(total, "tournament", enabled=False if args.quiet else args.progress)

        def written(part: SimulationResult) -> None:
            nonlocal done
            with interrupts_held():
                summaries.append(part.summary())
                out.write(part)
                done += len(part)
                bar(done)

        try:
            t = tournament(
                bots,
                games=total,
                seed=args.seed,
                threads=args.threads,
                rules=run.rules,
                chunk=args.chunk,
                progress=bar,
                on_chunk=written,
            )
        finally:
            bar.close()
        failed = out.finish()
    except KeyboardInterrupt:
        summary = sum(summaries[1:], summaries[0]) if summaries else None
        return _stopped_early(
            out, done, lambda: _interrupted("tournament", done, total, time.perf_counter() - begun, summary, out)
        )
    except EngineError as e:
        return _stopped_early(out, done, functools.partial(_engine_failed, "tournament", e, done, total, out))
    except ResultFileError as e:
        out.finish(keep=False)
        if summaries:
            # The file cannot take more; the games played are still summed up.
            _print_summary(run, sum(summaries[1:], summaries[0]), True)
            sys.stdout.flush()
        return error(f"{e}; {sum(s.games for s in summaries)} games were played", 1)
    finally:
        out.finish(keep=False)  # an unexpected error: an earlier file stays as it was
    console = _console()
    for item in _tournament_tables(t):
        console.print(item)
    if args.out and failed is None:
        console.print(f"wrote {args.out} (metadata: {args.out}.meta.json)")
    sys.stdout.flush()
    return _failed(failed)


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
            "genial simulate --games 10000000 --bots greedy,random --out games/ --ray auto   # a Ray cluster",
            "genial simulate --games 10000000 --bots greedy,random --out games/ --ray auto --resume",
        ),
    )
    sim.add_argument(
        "--games", type=_number("--games", 0, LIMITS["games"]), default=10_000, help="games to play (default: 10000)"
    )
    sim.add_argument("--bots", default="random", help="comma-separated, one per seat or one for all (default: random)")
    sim.add_argument(
        "--first-game",
        type=_number("--first-game", 0, 2**64 - 1),
        default=0,
        help="first game number, to split a run across machines (default: 0)",
    )
    sim.add_argument(
        "--rotate",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="shift the bots one seat per game, so that seat figures are the seats' (default: rotate)",
    )
    sim.add_argument(
        "--shard-games",
        type=_number("--shard-games", 1, LIMITS["games"]),
        default=None,
        help="with --out DIR: games per shard file (default: by bot speed; part of the run's layout)",
    )
    sim.add_argument(
        "--resume",
        action="store_true",
        help="with --out DIR: continue the run that folder holds, playing only the shards not yet written",
    )
    sim.add_argument(
        "--ray",
        metavar="auto|ADDRESS",
        default=None,
        help="with --out DIR: play the shards on the Ray cluster at ADDRESS (auto: the one this machine "
        "belongs to); --threads is then per task (default 1). Same files as a run here",
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
        type=_number("--games", 1, LIMITS["games"]),
        default=None,
        help=f"games to play: whole rounds of seatings, every bot in every seat equally often "
        f"(default: {DEFAULT_GAMES}, rounded up to whole rounds)",
    )
    _common(tour)
    tour.set_defaults(func=_tournament)

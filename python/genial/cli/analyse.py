"""``genial analyse``: the review of a recorded game, or the candidates of one position.

``genial analyse game.json`` reviews every decision (see `genial.reviews`) and prints a
table: each move with the mover's win chance before and after, its class and the best
alternative; then a summary per player. The review is cached next to the record
(``game.review.json``) and reused while the game, level, budget and seed are the same; an
interrupted review keeps the decisions it finished there and resumes from them.
``--move N`` prints the candidates of the decision of move N instead, and ``--position``
those of a position written in the position notation; with ``--engine COMMAND`` an engine
of the engine protocol is asked for its move there instead of genial's search.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from ..analysis import analyse
from ..files import read_json, write_atomic
from ..game import Game
from ..position import PositionError, read_position
from ..records import RecordError, from_record, read_record, start_record, to_record
from ..reviews import VERSION, Decision, Review, class_title, review, searching_levels
from ..translation import decimal, ntr, tr
from .common import closed_pipe_safe, error, examples, last_game

__all__ = ["register", "cache_path"]

CLASS_STYLE = {"best": "green", "good": "cyan", "inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "red"}


def cache_path(record: str | os.PathLike[str]) -> Path:
    """Where the review of a record file is cached: beside it, ``NAME.review.json``."""
    p = Path(record)
    stem = p.name[: -len(".json")] if p.name.endswith(".json") else p.name
    return p.with_name(stem + ".review.json")


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _points(p: tuple[int, int] | None) -> str:
    return "" if p is None else f"{p[0]}+{p[1]}"


def _cached(path: Path, game: Game, level: str, iterations: int | None, seed: int) -> Review | None:
    """The cached review (possibly partial) when it was made with the same settings; a
    damaged cache is said in one line and made anew."""
    if not path.exists():
        return None
    try:
        r = Review.from_dict(read_json(path, "cached review"))
    except (OSError, ValueError) as e:  # FileFormatError and RecordError are ValueErrors
        why = str(e).removeprefix(f"{path}: ")
        print(f"genial analyse: ignoring the cached review {path} ({why}); reviewing anew", file=sys.stderr)
        return None
    # A review of an older format (another way of judging) is made again.
    same = (r.version, r.level, r.iterations, r.seed, r.rules) == (
        VERSION,
        level,
        iterations,
        seed,
        game.rules.to_text(),
    )
    moves = tuple(str(m) for m in game.moves)
    if not same or tuple(str(m) for m in r.moves) != moves:
        return None
    return r


def _write(path: Path, data: dict[str, Any]) -> None:
    """Writes JSON atomically (a crash leaves the old file or the new one)."""
    write_atomic(path, json.dumps(data, allow_nan=False))


def _loss(d: Decision) -> str:
    """The loss with its noise (``3% ±2``), the noise left out of a version 1 review."""
    return f"{100 * d.loss:.0f}%" + ("" if d.noise is None else f" ±{100 * d.noise:.0f}")


def _table(r: Review) -> Any:
    from rich.table import Table

    t = Table(
        title=tr("review at the {level} level (seed {seed})").format(level=r.level, seed=r.seed), title_justify="left"
    )
    for name, justify in (
        ("#", "right"),
        (tr("player"), "right"),
        (tr("move"), "left"),
        (tr("pts"), "right"),
        (tr("before"), "right"),
        (tr("after"), "right"),
        (tr("class"), "left"),
        (tr("loss"), "right"),
        (tr("best"), "left"),
        (tr("win"), "right"),
        (tr("pts"), "right"),
    ):
        t.add_column(name, justify=justify)  # type: ignore[arg-type]
    for d in r.decisions:
        tag = "forced" if d.forced else d.classification
        style = CLASS_STYLE.get(tag, "dim")
        title = class_title(tag)
        alt = d.best != d.move
        t.add_row(
            str(d.ply + 1),
            str(d.player),
            str(d.move),
            _points(d.points),
            _pct(d.win_before),
            _pct(d.win_after),
            f"[{style}]{title}[/]",
            _loss(d) if alt else "",
            str(d.best) if alt else "",
            _pct(d.best_win) if alt else "",
            _points(d.best_points) if alt else "",
        )
    return t


def _summary(r: Review) -> Any:
    from rich.table import Table

    from ..reviews import CLASSES

    t = Table(title=tr("per player"), title_justify="left")
    t.add_column(tr("player"), justify="right")
    t.add_column(tr("decisions"), justify="right")
    t.add_column(tr("avg loss"), justify="right")
    for c in CLASSES:
        t.add_column(class_title(c), justify="right")
    for s in r.summary:
        t.add_row(
            str(s.player),
            str(s.decisions),
            tr("{percent}%").format(percent=decimal(100 * s.average_loss, 1)),
            *(str(s.counts[c]) for c in CLASSES),
        )
    return t


def _candidates(game: Game, number: int, args: argparse.Namespace) -> int:
    moves = game.moves
    if not 1 <= number <= len(moves) + (0 if game.is_over else 1):
        last = len(moves) + (0 if game.is_over else 1)
        return error(f"--move must be 1 to {last} for this record, not {number}")
    position = from_record({**start_record(to_record(game)), "moves": [str(m) for m in moves[: number - 1]]})
    played = moves[number - 1] if number <= len(moves) else None
    return _show_candidates(position, played, tr("move {number}: ").format(number=number), args)


def _ask_engine(position: Game, title: str, args: argparse.Namespace) -> int:
    """The move an engine (``--engine``) chooses in ``position``: one decision, told as the
    engine protocol tells it (a set-up position as its notation, protocol 2)."""
    from ..bots import Forfeit, GameView
    from ..engine import EngineBot, EngineError

    if position.is_over:
        return error("the game is over at this position: there is no decision to ask about")
    try:
        with EngineBot(args.engine, movetime_ms=args.movetime, iterations=args.iterations) as bot:
            move = bot.choose(GameView(position))
            name, info = bot.engine_name or args.engine, bot.last_info
    except (EngineError, Forfeit) as e:
        return error(str(e))
    except ValueError as e:
        return error(f"--engine: {e}")
    print(f"{title}player {position.current_player} to move: {name}")
    if info:
        print(f"info {info}")
    print(f"bestmove {move}")
    return 0


def _show_candidates(position: Game, played: Any, title: str, args: argparse.Namespace) -> int:
    """The ranked candidates of the decision in front of ``position``'s seat to move."""
    if args.engine is not None:
        return _ask_engine(position, title, args)
    from rich.console import Console
    from rich.table import Table

    a = analyse(position, iterations=args.iterations, seed=args.seed, level=args.level)
    t = Table(
        title=title
        + ntr("player {seat} to move ({n} iteration)", "player {seat} to move ({n} iterations)", a.iterations).format(
            seat=position.current_player, n=a.iterations
        ),
        title_justify="left",
    )
    for name in (tr("rank"), tr("move"), tr("pts"), tr("win"), tr("visits"), tr("expected line")):
        t.add_column(name)
    for i, c in enumerate(a.candidates, start=1):
        pts = _points(position.explain(c.move).points) if c.move.is_placement else ""
        mark = "  " + tr("(played)") if c.move == played else ""
        t.add_row(
            str(i), f"{c.move}{mark}", pts, _pct(c.win_probability), str(c.visits), " ".join(map(str, c.line[:6]))
        )
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 120)
    console.print(t)
    if played is not None and all(c.move != played for c in a.candidates):
        console.print(tr("played: {move} (not among the searched candidates)").format(move=played))
    return 0


@closed_pipe_safe
def _run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    if args.engine is not None and args.position is None and args.move is None:
        return error("--engine asks an engine about one position: give --position or --move with it")
    if args.position is not None:
        if args.record is not None or args.last or args.move is not None:
            return error("--position analyses its own position: give no record, --last or --move with it")
        try:
            game = read_position(args.position)
        except PositionError as e:
            return error(str(e))
        return _show_candidates(game, None, "", args)
    if args.last:
        if args.record is not None:
            return error("give a record file or --last, not both")
        last = last_game()
        if last is None:
            return error("no game saved by genial play yet: give a record file (genial analyse GAME.json)")
        args.record = str(last)
        print(f"genial analyse: the last game saved, {last}", file=sys.stderr)
    elif args.record is None:
        return error("give a record file or --last (the last game genial play saved)")
    try:
        data = read_record(args.record)
        game = from_record(data)
    except RecordError as e:
        return error(f"bad record {args.record}: {e}")
    except OSError as e:
        return error(f"cannot read {args.record}: {e.strerror or e}")
    if args.move is not None:
        return _candidates(game, args.move, args)

    cache = cache_path(args.record)
    prior = None
    if isinstance(data.get("review"), dict):
        try:
            embedded = Review.from_dict(data["review"], game)
            if (embedded.level, embedded.iterations, embedded.seed) == (args.level, args.iterations, args.seed):
                prior = embedded
        except RecordError as e:
            print(
                f"genial analyse: ignoring the review section of {args.record} ({e}); reviewing anew", file=sys.stderr
            )
            prior = None
    if prior is None and not args.no_cache:
        prior = _cached(cache, game, args.level, args.iterations, args.seed)
    done: list[Decision] = []
    result: Review | None = None
    err = Console(stderr=True)
    columns = (TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    try:
        with Progress(*columns, console=err, transient=True, disable=args.quiet) as bar:
            task = bar.add_task("review", total=len(game.moves))

            def step(n: int, total: int, decision: Decision) -> None:
                done.append(decision)
                bar.update(task, completed=n, total=total)

            result = review(game, args.level, iterations=args.iterations, seed=args.seed, progress=step, resume=prior)
    except KeyboardInterrupt:
        if done and not args.no_cache:
            partial = Review.partial(game, args.level, args.iterations, args.seed, done)
            _write(cache, partial.to_dict())
            print(
                f"genial analyse: interrupted; {len(done)} decisions kept in {cache}, the next run resumes",
                file=sys.stderr,
            )
        raise
    assert result is not None
    if not args.no_cache:
        _write(cache, result.to_dict())
    if args.out:
        _write(Path(args.out), to_record(game, review=result))
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 120)
    console.print(_table(result))
    console.print(_summary(result))
    console.print(
        tr(
            "Each decision was searched from the mover's view only: the other racks and the bag "
            "were dealt anew in every search iteration, never read."
        ),
        soft_wrap=True,
    )
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser(
        "analyse",
        help="review a recorded game, or list the candidates of one of its positions",
        description="Reviews every decision of a recorded game and prints a table: each move with the "
        "mover's win chance before and after, its class and the best alternative; then a summary per "
        "player. The review is cached next to the record (GAME.review.json) and reused while the game, "
        "level, iterations and seed are the same; an interrupted review keeps the decisions it finished "
        "there and resumes from them. --move N prints the candidates of the decision of move N instead.",
        epilog=examples(
            "genial analyse game.json                  # every decision, cached in game.review.json",
            "genial analyse --last                     # the last game genial play saved",
            "genial analyse --position 'standard/2 - 0.0.0.0.0.0/0.0.0.0.0.0 0 RB,GG,YP,OO,BP,RY'",
            "genial analyse game.json --move 12        # the candidates of move 12's decision",
            "genial analyse --position TEXT --engine './my_engine'   # an engine's move there",
            "genial analyse game.json --level master --seed 3 --out reviewed.json",
        ),
    )
    p.add_argument(
        "record", nargs="?", default=None, help="a game record (JSON), as written by genial play or Game.to_json"
    )
    p.add_argument("--last", action="store_true", help="the last game genial play saved, finished or not")
    p.add_argument(
        "--position",
        metavar="TEXT",
        default=None,
        help="the candidates of a position given as one line of text (the position notation: docs/records.md)",
    )
    p.add_argument("--move", type=int, default=None, metavar="N", help="the candidates of move N's decision instead")
    p.add_argument(
        "--engine",
        metavar="COMMAND",
        default=None,
        help="with --position or --move: ask this engine (engine protocol) for its move instead of searching",
    )
    p.add_argument(
        "--movetime", type=int, default=1000, metavar="MS", help="with --engine: the engine's move time (default: 1000)"
    )
    p.add_argument("--level", choices=searching_levels(), default="expert", help="search like this level")
    p.add_argument("--iterations", type=int, default=None, help="search iterations per decision (default: the level's)")
    p.add_argument("--seed", type=int, default=0, help="seed of the searches (a review is deterministic for a seed)")
    p.add_argument("--out", default=None, help="also write the record with its review section to this file")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the cached review")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_run)

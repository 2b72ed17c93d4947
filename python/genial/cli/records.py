"""``genial replay`` and ``genial render``: look at recorded games (see `genial.records`).

A record is checked in full (format, version, types, every move through the rules) before
anything is shown; a bad one is reported in one line on stderr with exit code 2.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path
from typing import IO, Any

from ..files import write_atomic
from ..game import Game
from ..records import RecordError, from_record, read_record, start_record
from ..render import rack_text, text
from ..svg import game_svg
from .common import closed_pipe_safe, error, examples

__all__ = ["register", "load_positions"]


def load_positions(path: str) -> tuple[Game, Game]:
    """The recorded game replayed in full, and the same game before its first move."""
    data = read_record(path)
    game = from_record(data)
    start = from_record(start_record(data))
    return game, start


def _load(path: str, command: str) -> tuple[Game, Game] | None:
    try:
        return load_positions(path)
    except RecordError as e:
        error(f"bad record {path}: {e}")
    except OSError as e:
        error(f"cannot read {path}: {e.strerror or e}")
    return None


@closed_pipe_safe
def _replay(args: argparse.Namespace, inp: IO[str] | None = None, out: IO[str] | None = None) -> int:
    inp = sys.stdin if inp is None else inp
    out = sys.stdout if out is None else out
    loaded = _load(args.file, "replay")
    if loaded is None:
        return 2
    game, position = loaded
    moves = game.moves

    def show(header: str, shown: Game) -> None:
        out.write(f"{header}\n{text(shown, color=args.color)}\n\n")
        out.flush()

    out.write(
        f"{game.variant} game, {game.players} player{'s' if game.players > 1 else ''}, seed {game.seed}, "
        f"{len(moves)} moves\n\n"
    )
    if args.final:
        show(f"after move {len(moves)}", game)
        return 0
    show("start", position)
    for number, move in enumerate(moves, start=1):
        if args.step:
            out.write("[Enter: next move, q: stop] ")
            out.flush()
            line = inp.readline()
            if not line or line.strip().lower() in ("q", "quit"):
                out.write("\n")
                return 0
        mover = position.current_player
        result = position.play(move)
        gains = " ".join(f"{c.letter}+{v}" for c, v in sorted(result.gains_by_color().items()))
        extra = "  Ingenious!" * result.bonuses_earned
        show(f"move {number}: player {mover} {move}" + (f"  {gains}" if gains else "") + extra, position)
    return 0


@closed_pipe_safe
def _render(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    out = sys.stdout if out is None else out
    loaded = _load(args.file, "render")
    if loaded is None:
        return 2
    game, position = loaded
    count = len(game.moves)
    n = count if args.move is None else args.move
    if not 0 <= n <= count:
        return error(f"--move {n} is outside the record's 0..{count} moves")
    for move in game.moves[:n]:
        position.play(move)
    seats: list[int] = []
    if args.racks is not None:
        seats = list(range(game.players)) if args.racks == "all" else [int(s) for s in args.racks.split(",")]
        wrong = [s for s in seats if not 0 <= s < game.players]
        if wrong:
            return error(
                f"--racks {args.racks}: no seat {wrong[0]} in a {game.players}-player game "
                f"(seats 0..{game.players - 1})"
            )
    if args.out is None:
        out.write(text(position, color=args.color, rack=False) + "\n")
        for s in seats:
            out.write(f"rack of player {s}: {rack_text(position.rack(s), color=args.color)}\n")
        return 0
    kind = Path(args.out).suffix.lower()
    if kind not in (".svg", ".png"):
        return error(f"cannot tell the picture's format from {args.out!r}: name it .svg or .png")
    picture = game_svg(position, seats or False, coords=args.coords)
    try:
        data = picture.encode("utf-8") if kind == ".svg" else _png(picture)
    except ImportError as e:
        return error(str(e))
    try:
        write_atomic(args.out, data)
    except OSError as e:
        return error(f"cannot write {args.out}: {e.strerror or e}")
    out.write(f"wrote {args.out}: position after {n} of {count} moves\n")
    return 0


def _png(svg: str) -> bytes:
    """The picture as PNG bytes (needs the render extra)."""
    from ..raster import svg_to_rgb

    pixels = svg_to_rgb(svg)  # says which extra to install when one is missing
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="PNG")
    return buffer.getvalue()


def _racks(text: str) -> str:
    if text == "all" or all(part.strip().isdigit() for part in text.split(",")):
        return text
    raise argparse.ArgumentTypeError(f"{text!r}: give all or seats like 0 or 0,2")


def register(subparsers: Any) -> None:
    """Adds ``genial replay`` and ``genial render`` to the command line's subcommands."""
    p = subparsers.add_parser(
        "replay",
        help="step through a recorded game",
        description="Print the positions of a recorded game (a JSON record).",
        epilog=examples(
            "genial replay game.json            # every position, one after the other",
            "genial replay game.json --step     # one move per Enter",
            "genial replay game.json --final --color",
        ),
    )
    p.add_argument("file", help="a JSON game record (genial.game version 1)")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--step", action="store_true", help="wait for Enter before each move")
    how.add_argument("--final", action="store_true", help="print only the final position")
    p.add_argument("--color", action="store_true", help="ANSI colours")
    p.set_defaults(func=_replay)

    p = subparsers.add_parser(
        "render",
        help="draw one position of a recorded game as text, SVG or PNG",
        description="Draw a position of a recorded game: as a picture with --out (SVG or PNG), else as text.",
        epilog=examples(
            "genial render game.json                       # the last position, as text",
            "genial render game.json --out game.svg --move 20 --racks 0",
            "genial render game.json --out game.png        # needs the render extra",
        ),
    )
    p.add_argument("file", help="a JSON game record (genial.game version 1)")
    p.add_argument(
        "--out",
        "--svg",
        dest="out",
        metavar="FILE",
        help="write a picture to FILE: .svg, or .png (needs the render extra); default: text",
    )
    p.add_argument("--move", type=int, metavar="N", help="the position after N moves (default: the last)")
    p.add_argument(
        "--racks", type=_racks, metavar="SEATS", help="show racks: all, or seats like 0 or 0,2 (default: none)"
    )
    p.add_argument("--coords", action="store_true", help="write q,r in free cells (SVG)")
    p.add_argument("--color", action="store_true", help="ANSI colours (text)")
    p.set_defaults(func=_render)

"""Text rendering of boards and games (plain or with ANSI colours)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ._core import Board, Tile
from .colors import Color
from .geometry import text_column
from .translation import mark, ntr, tr
from .variants import track_titles

if TYPE_CHECKING:
    from .game import Game

__all__ = [
    "board_text",
    "game_board_text",
    "rack_text",
    "text",
    "tracks_text",
    "ranking_summary",
    "explain_ranking",
    "ranking_step_text",
    "ranking_text",
    "variant_title",
    "end_title",
]

_VARIANTS = {
    "standard": mark("standard"),
    "solo": mark("solo"),
    "team": mark("team"),
    "duel": mark("duel"),
}
_ENDS = {
    "board_full": mark("board full"),
    "no_placement": mark("no placement"),
    "immediate_win": mark("immediate win"),
}


def variant_title(name: str) -> str:
    """A variant's name (``duel``) in the language in use (*pojedynek*)."""
    return tr(_VARIANTS[name]) if name in _VARIANTS else name


def end_title(end: str | None) -> str:
    """How a game ended (`Game.end`: ``board_full`` ...) in words, in the language in use."""
    if end is None:
        return ""
    return tr(_ENDS[end]) if end in _ENDS else end.replace("_", " ")


# 256-colour codes close to the pieces' colours (orange has no 8-colour equivalent).
_ANSI_CODE = {
    Color.RED: 196,
    Color.ORANGE: 208,
    Color.YELLOW: 220,
    Color.GREEN: 34,
    Color.BLUE: 33,
    Color.PURPLE: 129,
}
_ANSI = {c: f"\x1b[38;5;{n}m" for c, n in _ANSI_CODE.items()}
# Letters on a tile: black on the light colours, white on the dark ones.
_ON = {c: "\x1b[30m" if c in (Color.ORANGE, Color.YELLOW, Color.GREEN) else "\x1b[97m" for c in Color}
_RESET = "\x1b[0m"
_DIM = "\x1b[2m"
_BOLD = "\x1b[1m"


def _cell_text(ch: str, color: Color | None, printed: bool, ansi: bool) -> str:
    if not ansi:
        return ch
    if color is None:
        return f"{_DIM}{ch}{_RESET}"
    if printed:  # the board's own symbol: the colour on the board, not on a tile
        return f"{_BOLD}{_ANSI[color]}{ch}{_RESET}"
    return f"\x1b[48;5;{_ANSI_CODE[color]}m{_BOLD}{_ON[color]}{ch}{_RESET}"


def board_text(
    board: Board,
    *,
    color: bool = False,
    coords: bool = False,
    last: Iterable[tuple[int, int]] = (),
) -> str:
    """The zone as a hexagon of characters, one row per ``r``.

    ``.`` free cell, a capital letter (R O Y G B P) a tile half, a lowercase letter a
    printed symbol. ``color`` paints tile halves on ANSI background colours (printed
    symbols in the colour, free cells dim); ``coords`` labels each row with its ``r`` and
    the range of ``q`` from its first cell to its last, and labels the columns: the cells
    of one ``q`` lie on a line running down to the right, labelled above the board (``q``
    from 0 up) and below it (``q`` from 0 down). The cells in ``last`` (say, the last
    placement's) are followed by ``*`` instead of a space.
    """
    marked = {(int(q), int(r)) for q, r in last}
    radius = board.radius
    occupied = board.occupied()
    symbols = {cell for cell, _ in Board.symbols()}
    rows: dict[int, list[int]] = {}
    for q, r in board.cells():  # the zone, from the core
        rows.setdefault(r, []).append(q)
    lines = []
    for r in sorted(rows):
        qs = sorted(rows[r])
        q_lo, q_hi = qs[0], qs[-1]
        chars = []
        for q in qs:
            c = occupied.get((q, r))
            if c is None:
                chars.append(_cell_text(".", None, False, color))
                continue
            printed = (q, r) in symbols
            ch = Color(c).letter.lower() if printed else Color(c).letter
            chars.append(_cell_text(ch, Color(c), printed, color))
        # Shift so that the widest row starts at column 0.
        indent = text_column((q_lo, r)) + 2 * radius
        line = " " * indent + "".join(
            ch + ("*" if (q, r) in marked else " " if q < q_hi else "") for q, ch in zip(qs, chars)
        )
        if coords:
            width = 4 * radius + 1  # the widest row
            pad = width - indent - (2 * (q_hi - q_lo) + 1) - ((q_hi, r) in marked)
            line = f"r{r:>3} " + line + " " * pad + f"  q {q_lo}..{q_hi}"
        lines.append(line)
    if coords:
        lines = [_column_labels(radius, above=True), *lines, _column_labels(radius, above=False)]
    return "\n".join(lines)


def _column_labels(radius: int, *, above: bool) -> str:
    """The ``q`` labels of `board_text`'s columns, one row above the board (``q >= 0``) or
    below it (``q <= 0``): each stands where its line of cells, running down to the right,
    crosses that row, so ``q 2`` above the board heads the cells (2, r) below it."""
    r = -radius - 1 if above else radius + 1
    qs = range(0, radius + 1) if above else range(-radius, 1)
    row = [" "] * (5 + 4 * radius + 4)  # the row label, the widest row, a column either side
    for q in qs:
        label = str(q)
        end = 5 + text_column((q, r)) + 2 * radius + 1  # the label's last character on the line
        row[end - len(label) : end] = label
    return ("q ↘ " if above else "q ↖ ") + "".join(row)[4:].rstrip()


def _scores_line(track: tuple[int, ...], color: bool = False) -> str:
    if not color:
        return " ".join(f"{Color(i).letter}{v:>3}" for i, v in enumerate(track))
    low = min(track)
    return " ".join(
        f"{_ANSI[Color(i)]}{Color(i).letter}{_RESET}{_BOLD if v == low else ''}{v:>3}{_RESET if v == low else ''}"
        for i, v in enumerate(track)
    )


def rack_text(tiles: Iterable[Tile], *, color: bool = False) -> str:
    """Tiles as two letters each (``RB YY``), coloured like the board with ``color``."""
    parts = []
    for t in tiles:
        a, b = t.colors
        parts.append(_cell_text(a.letter, a, False, color) + _cell_text(b.letter, b, False, color) if color else str(t))
    return " ".join(parts)


def tracks_text(game: Game, *, color: bool = False) -> list[str]:
    """One line per track (per player, per team, the duel's shared track or the solo's),
    then the duel tokens."""
    names = track_titles(game.rules)
    width = max(18, *(len(n) for n in names))
    out = [f"{name:>{width}}: {_scores_line(track, color)}" for name, track in zip(names, game.tracks)]
    if game.rules.shared_track:
        tokens = " ".join(f"{Color(i).letter}:{'-' if s is None else s}" for i, s in enumerate(game.duel_tokens))
        out.append(f"{tr('tokens'):>{width}}: {tokens}")
    return out


def game_board_text(game: Game, *, color: bool = False, coords: bool = False) -> str:
    """The game's board (`board_text`) with its last placement's cells marked ``*``."""
    last = next((m.cells for m in reversed(game.moves) if m.cells is not None), None)
    return board_text(game.board, color=color, coords=coords, last=last or ())


def text(game: Game, *, color: bool = False, rack: bool = True, coords: bool = False) -> str:
    """Board, tracks, the rack of the player to move (unless ``rack=False``: racks are
    hidden information), and the game's state. ``color`` uses ANSI colours; ``coords``
    labels the board's rows (see `board_text`). The last placement's cells are marked ``*``."""
    out = [game_board_text(game, color=color, coords=coords), ""]
    out.extend(tracks_text(game, color=color))
    if game.is_over:
        out.append(tr("game over ({end}): {ranking}").format(end=end_title(game.end), ranking=ranking_summary(game)))
    else:
        phase = {
            "bonus": tr("player {seat} to place a bonus tile"),
            "swap_offer": tr("player {seat} may swap"),
        }.get(game.phase, tr("player {seat} to place a tile"))
        line = phase.format(seat=game.current_player)
        if rack:
            line += "; " + tr("rack {rack}").format(rack=rack_text(game.rack(), color=color))
        out.append(line + "; " + tr("bag {bag}").format(bag=game.bag_size))
    return "\n".join(out)


def ranking_summary(game: Game) -> str:
    """The final ranking in one line: ``"1st player 1, 2nd player 0"``, tied seats together
    (``"1st players 1 and 3"``), or the solo game's result."""
    if game.rules.scored_alone:
        return tr("result {score} (the lowest colour)").format(score=game.lowest_score())
    places = []
    for place, group in zip(_PLACES, game.ranking()):
        if len(group) == 1:
            who = tr("{place} player {seat}").format(place=tr(place), seat=group[0])
        else:
            who = tr("{place} players {seats} and {last}").format(
                place=tr(place), seats=", ".join(map(str, group[:-1])), last=group[-1]
            )
        places.append(who)
    return ", ".join(places)


_PLACES = (mark("1st"), mark("2nd"), mark("3rd"), mark("4th"))


def explain_ranking(game: Game) -> list[dict[str, Any]]:
    """Why each rank group is above the next: for each pair of neighbouring groups, the seats
    ``above`` and ``below``, their keys as the ranking compares them (`Game.rank_key`:
    ``rows``), and ``decided_at``, the index where the keys first differ (``None``: they
    are equal). ``count``: the keys start with the number of markers on the seat's side."""
    out = []
    for upper, lower in itertools.pairwise(game.ranking()):
        a, b = list(game.rank_key(upper[0])), list(game.rank_key(lower[0]))
        decided = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
        out.append(
            {
                "above": upper,
                "below": lower,
                "rows": [a, b],
                "decided_at": decided,
                "count": game.rules.rank_key_counts_markers,
            }
        )
    return out


def ranking_text(game: Game, names: Sequence[str] | None = None) -> list[str]:
    """The final ranking, one line per rank, and for each step down what decided it."""
    rules = game.rules
    titles = track_titles(rules)

    def who(group: Sequence[int]) -> str:
        if rules.sides < rules.players:  # partners rank together: name the side
            return " = ".join(titles[s] for s in sorted({rules.side_of(p) for p in group}))
        return " = ".join(names[p] if names else tr("player {seat}").format(seat=p) for p in group)

    lines = [f"  {rank}. {who(group)}" for rank, group in enumerate(game.ranking(), start=1)]
    for step in explain_ranking(game):
        a, b = step["rows"]
        i = step["decided_at"]
        if i is None:
            continue
        if step["count"] and i == 0:
            why = tr("{a} markers on their side against {b}").format(a=a[0], b=b[0])
        else:
            k = i - 1 if step["count"] else i
            if k == 0:
                why = (
                    tr("the lowest distance {a} against {b}")
                    if step["count"]
                    else tr("the lowest score {a} against {b}")
                )
            else:
                why = tr("{nth} distance {a} against {b}") if step["count"] else tr("{nth} score {a} against {b}")
            why = why.format(nth=_nth_lowest(k + 1), a=a[i], b=b[i])
            if k:
                why += " " + ntr("(the lower one equal)", "(the {k} lower ones equal)", k).format(k=k)
        lines.append(
            "  "
            + tr("{above} ahead of {below}: {why}").format(above=who(step["above"]), below=who(step["below"]), why=why)
        )
    return lines


def ranking_step_text(step: dict[str, Any], above: str, below: str) -> str:
    """What decided one step of `explain_ranking` (``above``, ``below``: the sides' names),
    as a sentence, in the singular or plural as it falls."""
    a, b = step["rows"]
    i = step["decided_at"]
    if i is None:
        return tr("Equal results: the places are shared.")
    if step["count"] and i == 0:
        return tr("More markers on {side}'s side decided: {a} against {b}.").format(side=above, a=a[0], b=b[0])
    k = i - 1 if step["count"] else i  # equal values before the deciding one
    if k == 0:
        if step["count"]:
            return tr("The lowest distance decided: {a} against {b}.").format(a=a[i], b=b[i])
        return tr("The lowest colour decided: {a} against {b}.").format(a=a[i], b=b[i])
    if step["count"]:
        tied = ntr(
            "The lowest distance was equal; the {nth} decided: {a} against {b}.",
            "The {k} lowest distances were equal; the {nth} decided: {a} against {b}.",
            k,
        )
    else:
        tied = ntr(
            "The lowest colour was equal; the {nth} decided: {a} against {b}.",
            "The {k} lowest colours were equal; the {nth} decided: {a} against {b}.",
            k,
        )
    return tied.format(k=k, nth=_nth_lowest(k + 1), a=a[i], b=b[i])


# The second to sixth lowest value of a ranking key (six colours at most), each its own
# message: ordinals are made differently in every language.
_NTH_LOWEST = {
    2: mark("2nd lowest"),
    3: mark("3rd lowest"),
    4: mark("4th lowest"),
    5: mark("5th lowest"),
    6: mark("6th lowest"),
    7: mark("7th lowest"),
}


def _nth_lowest(n: int) -> str:
    return tr(_NTH_LOWEST[n]) if n in _NTH_LOWEST else f"{n}."

"""SVG pictures of boards and games: self-contained, deterministic, no external assets.

>>> import genial
>>> from genial.svg import game_svg
>>> game = genial.Game(players=2, seed=3)
>>> _ = game.play(game.legal_moves()[0])
>>> picture = game_svg(game, racks=0)
>>> picture.startswith("<svg") and picture == game_svg(game, racks=0)
True

Cells are pointy-top hexagons in axial coordinates: ``x = sqrt(3)·(q + r/2)``, ``y = 1.5·r``
(in cell radii), so ``(0, -5)`` (the printed red) is the upper-left corner of the zone. A tile
half is its colour with the colour's symbol in white (dark amber on yellow): red asterisk,
orange hexagon, yellow sun, green circle, blue star, purple ring; a printed symbol is a pale cell with the symbol
in colour and a coloured rim; free cells are pale; the rings of the full board outside the
zone are dimmed (``outside=True``) or left out.

Every cell polygon carries ``class="cell ..."`` (``free``, ``tile``, ``printed`` or
``outside``, plus the colour's name) and ``data-cell="q,r"`` so that pictures can be checked
by programs as well as by eye.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from html import escape as _html_escape
from typing import TYPE_CHECKING, SupportsIndex

from . import _core
from ._core import Board, Move, Tile
from .colors import Color
from .geometry import SQRT3, Layout, hex_corners, polar
from .render import ranking_summary
from .translation import tr
from .variants import track_titles

if TYPE_CHECKING:
    from .game import Game
    from .reviews import Review


def _escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as entities (what `xml.sax.saxutils.escape` does, without its
    import of `urllib.request`, which cost every command's start a sixth of a second)."""
    return _html_escape(text, quote=False)


__all__ = ["board_svg", "game_svg", "symbol", "win_chance_svg", "PALETTE", "SEAT_INK"]

# What `game_svg` reads of a game; anything without them is refused with a TypeError.
_GAME_PARTS = ("board", "moves", "tracks", "rules", "rack", "is_over")

#: Fill colour of each `Color`, in `Color` order.
PALETTE = ("#d62f3a", "#f08a24", "#f2c40f", "#2f9e4f", "#2a6fd6", "#8d44ad")
# Symbol ink on a tile of that colour: white, except a dark amber on yellow for contrast.
_INK = ("#ffffff", "#ffffff", "#6b4a00", "#ffffff", "#ffffff", "#ffffff")
_FREE = "#f5f0e2"
_FREE_RIM = "#cbbf9f"
_OUTSIDE = "#e6e4df"
_OUTSIDE_RIM = "#d8d5ce"
_BACKGROUND = "#fcfbf8"
_TEXT = "#2b2b2b"
_MUTED = "#8a8478"
_FULL_RADIUS = 7  # the printed board; smaller player counts use a central zone of it

Cell = tuple[int, int]
Racks = bool | SupportsIndex | Iterable[SupportsIndex]


def _n(v: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros (deterministic text)."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def _points(pts: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in pts)


def symbol(color: Color, cx: float, cy: float, r: float, ink: str) -> str:
    """SVG elements of the colour's symbol (the game's asterisk, hexagon, sun, circle, star or ring)
    centred on (cx, cy) within radius ``r``, drawn in ``ink``."""
    if color is Color.RED:  # asterisk: eight rays
        w = r * 0.26
        d = " ".join(
            f"M{_n(a[0])},{_n(a[1])}L{_n(b[0])},{_n(b[1])}"
            for a, b in ((polar(cx, cy, r * 0.9, deg), polar(cx, cy, r * 0.9, deg + 180)) for deg in (0, 45, 90, 135))
        )
        return f'<path d="{d}" stroke="{ink}" stroke-width="{_n(w)}" stroke-linecap="round" fill="none"/>'
    if color is Color.ORANGE:  # hexagon, flat-top so it does not echo the cell
        pts = [polar(cx, cy, r * 0.82, 30 + 60 * k) for k in range(6)]
        return f'<polygon points="{_points(pts)}" fill="{ink}"/>'
    if color is Color.YELLOW:  # sun: a disc with twelve short rays
        rays = " ".join(
            f"M{_n(a[0])},{_n(a[1])}L{_n(b[0])},{_n(b[1])}"
            for a, b in ((polar(cx, cy, r * 0.6, 30 * k), polar(cx, cy, r * 0.95, 30 * k)) for k in range(12))
        )
        return (
            f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r * 0.42)}" fill="{ink}"/>'
            f'<path d="{rays}" stroke="{ink}" stroke-width="{_n(r * 0.14)}" stroke-linecap="round"/>'
        )
    if color is Color.GREEN:  # disc
        return f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r * 0.72)}" fill="{ink}"/>'
    if color is Color.BLUE:  # five-pointed star
        pts = [polar(cx, cy, r * (0.95 if k % 2 == 0 else 0.4), 36 * k) for k in range(10)]
        return f'<polygon points="{_points(pts)}" fill="{ink}"/>'
    # purple: ring
    return (
        f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r * 0.62)}" fill="none" stroke="{ink}" '
        f'stroke-width="{_n(r * 0.26)}"/>'
    )


def _tile_outline(layout: Layout, a: Cell, b: Cell) -> str:
    """Path along the outside of the two hexagons of a tile (their shared edge left out)."""
    ca = hex_corners(*layout.center(a), layout.size)
    cb = hex_corners(*layout.center(b), layout.size)

    def on(p: tuple[float, float], corners: list[tuple[float, float]]) -> bool:
        return any(abs(p[0] - o[0]) < 1e-6 and abs(p[1] - o[1]) < 1e-6 for o in corners)

    parts = []
    for corners, other in ((ca, cb), (cb, ca)):
        for k in range(6):
            p, s = corners[k], corners[(k + 1) % 6]
            if not (on(p, other) and on(s, other)):  # the shared edge is inside the tile
                parts.append(f"M{_n(p[0])},{_n(p[1])}L{_n(s[0])},{_n(s[1])}")
    return " ".join(parts)


def _board_group(
    board: Board,
    layout: Layout,
    *,
    outside: bool,
    coords: bool,
    tiles: Sequence[tuple[Cell, Cell]],
    highlight: Sequence[tuple[Cell, Cell]],
) -> list[str]:
    size = layout.size
    occupied = board.occupied()
    printed = {cell for cell, _ in Board.symbols()}
    zone = set(board.cells())
    out = ['<g class="board">']
    # Zone membership comes from the core; only the pixel layout is computed here.
    for cell in _core.board_cells() if outside else board.cells():
        cx, cy = layout.center(cell)
        corners = _points(hex_corners(cx, cy, size * 0.97))
        tag = f'data-cell="{cell[0]},{cell[1]}"'
        if cell not in zone:
            if outside:
                out.append(
                    f'<polygon class="cell outside" {tag} points="{corners}" fill="{_OUTSIDE}" '
                    f'stroke="{_OUTSIDE_RIM}" stroke-width="1"/>'
                )
            continue
        color = occupied.get(cell)
        if color is None:
            out.append(
                f'<polygon class="cell free" {tag} points="{corners}" fill="{_FREE}" '
                f'stroke="{_FREE_RIM}" stroke-width="1"/>'
            )
            if coords:
                out.append(
                    f'<text x="{_n(cx)}" y="{_n(cy + size * 0.16)}" font-size="{_n(size * 0.42)}" '
                    f'text-anchor="middle" fill="{_MUTED}">{cell[0]},{cell[1]}</text>'
                )
        elif cell in printed:
            out.append(
                f'<polygon class="cell printed {color}" {tag} points="{corners}" fill="{_FREE}" '
                f'stroke="{PALETTE[color]}" stroke-width="{_n(size * 0.14)}"/>'
            )
            out.append(symbol(color, cx, cy, size * 0.55, PALETTE[color]))
        else:
            out.append(
                f'<polygon class="cell tile {color}" {tag} points="{corners}" fill="{PALETTE[color]}" '
                f'stroke="{PALETTE[color]}" stroke-width="1"/>'
            )
            out.append(symbol(color, cx, cy, size * 0.55, _INK[color]))
    if tiles:
        d = " ".join(_tile_outline(layout, a, b) for a, b in tiles)
        out.append(
            f'<path class="tiles" d="{d}" fill="none" stroke="#3a3630" stroke-width="{_n(size * 0.08)}" '
            'stroke-linecap="round"/>'
        )
    if highlight:
        d = " ".join(_tile_outline(layout, a, b) for a, b in highlight)
        out.append(
            f'<path class="last-move" d="{d}" fill="none" stroke="#111111" stroke-width="{_n(size * 0.2)}" '
            'stroke-linecap="round" stroke-linejoin="round"/>'
        )
    out.append("</g>")
    return out


def _svg(width: float, height: float, title: str, body: list[str]) -> str:
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_n(width)}" height="{_n(height)}" '
        f'viewBox="0 0 {_n(width)} {_n(height)}" font-family="Helvetica, Arial, sans-serif">'
    )
    return (
        "\n".join(
            [
                head,
                f"<title>{_escape(title)}</title>",
                f'<rect width="100%" height="100%" fill="{_BACKGROUND}"/>',
                *body,
                "</svg>",
            ]
        )
        + "\n"
    )


def board_svg(
    board: Board,
    *,
    size: float = 20.0,
    outside: bool = True,
    coords: bool = False,
    tiles: Iterable[Move | tuple[Cell, Cell]] = (),
    highlight: Iterable[Move | tuple[Cell, Cell]] = (),
) -> str:
    """An SVG picture of ``board``.

    ``size`` is a cell's radius in pixels; ``outside`` dims the rings of the printed board
    beyond the zone (else they are left out); ``coords`` writes ``q,r`` in free cells;
    ``tiles`` (placements or cell pairs) are outlined as tiles, ``highlight`` in bold.
    """
    if not isinstance(board, Board):
        raise TypeError(f"board_svg draws a Board, not {type(board).__name__}")
    size = _check_size(size)
    radius = _FULL_RADIUS if outside else board.radius
    margin = size * 0.5
    layout = Layout(radius, size, margin, margin)
    body = _board_group(board, layout, outside=outside, coords=coords, tiles=_pairs(tiles), highlight=_pairs(highlight))
    return _svg(layout.width + 2 * margin, layout.height + 2 * margin, "Ingenious board", body)


def _check_size(size: float) -> float:
    if isinstance(size, bool) or not isinstance(size, (int, float)):
        raise TypeError(f"size must be a number, not {type(size).__name__}")
    if not 4 <= size <= 200:
        raise ValueError(f"size must be between 4 and 200 pixels, not {size}")
    return float(size)


def _pairs(items: Iterable[Move | tuple[Cell, Cell]]) -> list[tuple[Cell, Cell]]:
    pairs = []
    for item in items:
        if isinstance(item, Move):
            if item.cells is not None:
                pairs.append(item.cells)
        else:
            a, b = item
            pairs.append(((int(a[0]), int(a[1])), (int(b[0]), int(b[1]))))
    return pairs


# ----- score tracks and racks -----------------------------------------------------------------


class _Panel:
    """Appends SVG for the side panel, top to bottom, keeping track of the height used."""

    def __init__(self, x: float, y: float, unit: float) -> None:
        self.x = x
        self.y = y
        self.unit = unit  # base length: the height of one track row
        self.width = 0.0
        self.out: list[str] = []
        # Lines drawn by `text(..., fit=True)`: (index in out, estimated width).
        self._fitted: list[tuple[int, float]] = []

    def text(
        self, s: str, *, dx: float = 0.0, bold: bool = False, color: str = _TEXT, size: float = 1.0, fit: bool = False
    ) -> None:
        """A line of text. With ``fit`` the line does not widen the panel: `finish` squeezes
        it into the panel's width if it is longer, so that text which changes over a game
        (the status, the ranking) never changes the picture's size."""
        u = self.unit
        self.y += u * 1.25 * size
        weight = ' font-weight="bold"' if bold else ""
        self.out.append(
            f'<text x="{_n(self.x + dx)}" y="{_n(self.y - u * 0.3)}" font-size="{_n(u * 0.95 * size)}"{weight} '
            f'fill="{color}">{_escape(s)}</text>'
        )
        width = dx + len(s) * u * 0.55 * size
        if fit:
            self._fitted.append((len(self.out) - 1, width))
        else:
            self.width = max(self.width, width)

    def finish(self) -> None:
        """Squeezes each fitted line longer than the panel into its width."""
        for index, width in self._fitted:
            if width > self.width:
                self.out[index] = self.out[index].replace(
                    "<text ", f'<text textLength="{_n(self.width)}" lengthAdjust="spacingAndGlyphs" ', 1
                )

    def gap(self, k: float = 0.5) -> None:
        self.y += self.unit * k

    def icon(self, color: Color, cx: float, cy: float, r: float) -> str:
        corners = _points(hex_corners(cx, cy, r))
        return f'<polygon points="{corners}" fill="{PALETTE[color]}"/>' + symbol(color, cx, cy, r * 0.6, _INK[color])

    def track(
        self,
        values: Sequence[int],
        lo: int,
        hi: int,
        *,
        mark: int | None = None,
        tokens: Sequence[int | None] | None = None,
    ) -> None:
        """Six rows of boxes lo..hi; boxes between 0 and the marker are filled with the colour."""
        u = self.unit
        slots = hi - lo + 1
        box = u * (0.9 if slots <= 19 else 0.55)
        lowest = min(values)
        left = self.x + u * 1.2 + (u if tokens is not None else 0.0)
        for c in Color:
            v = values[c]
            top = self.y + u * 0.1
            self.out.append(f'<g class="marker-row" data-color="{c}" data-value="{v}">')
            self.out.append(self.icon(c, self.x + u * 0.5, top + u * 0.45, u * 0.52))
            if tokens is not None and tokens[c] == 1:
                self.out.append(self._token(c, 1, left - u * 0.62, top + u * 0.45))
            for i in range(slots):
                value = lo + i
                filled = (0 < value <= v) or (v <= value < 0)
                at = value == v
                fill = PALETTE[c] if filled else ("#ffffff" if value != 0 else "#ece8dc")
                rim = "#3a3630" if at else "#d2cbb8"
                x = left + i * box
                self.out.append(
                    f'<rect class="{"slot marker" if at else "slot"}" x="{_n(x)}" y="{_n(top)}" '
                    f'width="{_n(box - 1)}" height="{_n(u * 0.9)}" '
                    f'fill="{fill}" stroke="{rim}" stroke-width="{1.6 if at else 0.6}"/>'
                )
                if mark is not None and value == mark and value != hi:
                    # A divider where the double-length track's first half ends (18).
                    xm = x + box - 0.5
                    self.out.append(
                        f'<line x1="{_n(xm)}" y1="{_n(top - 1)}" x2="{_n(xm)}" y2="{_n(top + u * 0.9 + 1)}" '
                        'stroke="#3a3630" stroke-width="1.2"/>'
                    )
            right = left + slots * box
            if tokens is not None and tokens[c] == 0:
                self.out.append(self._token(c, 0, right + u * 0.5, top + u * 0.45))
            label_x = right + (u * 1.2 if tokens is not None else u * 0.3)
            weight = ' font-weight="bold"' if v == lowest and tokens is None else ""
            self.out.append(
                f'<text x="{_n(label_x)}" y="{_n(top + u * 0.78)}" font-size="{_n(u * 0.8)}"{weight} '
                f'fill="{_TEXT}">{v}</text>'
            )
            self.out.append("</g>")
            self.width = max(self.width, label_x - self.x + u * 1.6)
            self.y += u
        self.gap(0.3)

    def _token(self, c: Color, seat: int, cx: float, cy: float) -> str:
        u = self.unit
        return (
            f'<circle class="token {c}" data-seat="{seat}" cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(u * 0.48)}" fill="#3a3630"/>'
            + symbol(c, cx, cy, u * 0.34, PALETTE[c])
        )

    def rack(self, tiles: Sequence[Tile]) -> None:
        u = self.unit
        r = u * 0.8
        step = r * SQRT3
        x = self.x + r
        cy = self.y + r * 1.1
        if not tiles:
            self.out.append(
                f'<text x="{_n(self.x)}" y="{_n(cy + u * 0.3)}" font-size="{_n(u * 0.8)}" '
                f'fill="{_MUTED}">(empty)</text>'
            )
        for tile in tiles:
            a, b = tile.colors
            for k, c in enumerate((a, b)):
                cx = x + k * step
                self.out.append(
                    f'<polygon class="rack-half {c}" points="{_points(hex_corners(cx, cy, r * 0.97))}" '
                    f'fill="{PALETTE[c]}" stroke="#3a3630" stroke-width="0.8"/>'
                )
                self.out.append(symbol(c, cx, cy, r * 0.55, _INK[c]))
            x += 2 * step + u * 0.6
        # Room for a full rack of six, however many tiles are left, so that every picture
        # of a game has the same width.
        full = r + max(6, len(tiles)) * (2 * step + u * 0.6)
        self.width = max(self.width, full)
        self.y += r * 2.3


def _rack_seats(game: Game, racks: Racks) -> list[int]:
    if racks is False or racks is None:
        return []
    if racks is True:
        return list(range(game.players))
    if not isinstance(racks, (SupportsIndex, Iterable)):
        raise TypeError(f"racks is False, True, a seat or seats, not {type(racks).__name__}")
    items: list[object] = [racks] if isinstance(racks, SupportsIndex) else list(racks)  # one seat or several
    seats = []
    for p in items:
        if isinstance(p, bool) or not isinstance(p, SupportsIndex):
            raise TypeError(f"racks are seats given as ints, not {type(p).__name__}")
        seat = operator.index(p)
        if not 0 <= seat < game.players:
            raise ValueError(f"no seat {seat} in a {game.players}-player game")
        seats.append(seat)
    return sorted(set(seats))


def _status(game: Game) -> str:
    if game.is_over:
        return f"game over ({(game.end or '').replace('_', ' ')}): {ranking_summary(game)}"
    phase = {"place": "to place", "bonus": "bonus placement", "swap_offer": "may swap"}.get(game.phase, game.phase)
    return f"player {game.current_player} {phase}; bag {game.bag_size}"


def _status_lines(game: Game) -> tuple[str, str]:
    """The status in two lines, the second the ranking once the game is over (empty until
    then): always two, so that every picture of a game has the same height."""
    if game.is_over:
        return f"game over ({(game.end or '').replace('_', ' ')})", ranking_summary(game)
    return _status(game), ""


def game_svg(
    game: Game,
    racks: Racks = False,
    *,
    size: float = 20.0,
    outside: bool = True,
    coords: bool = False,
    last_move: bool = True,
) -> str:
    """An SVG picture of ``game``: the board with its tiles outlined (the last placement in
    bold), the score tracks, and the racks asked for.

    ``racks`` is ``False`` (no rack: they are hidden information), a seat, a list of seats,
    or ``True`` for every seat. The tracks follow the variant: 0..18 per player (standard),
    0..36 per team or for the solo player (18 marked), one shared −9..+9 track per colour
    in the duel with the tokens beside the end of the seat holding them.
    """
    # Read by its parts, not checked against the class: game imports svg (`Game.to_svg`).
    if not all(hasattr(game, name) for name in _GAME_PARTS):
        raise TypeError(f"game_svg draws a Game, not {type(game).__name__}")
    seats = _rack_seats(game, racks)
    size = _check_size(size)
    board = game.board
    margin = size * 0.5
    layout = Layout(_FULL_RADIUS if outside else board.radius, size, margin, margin)
    placements = _pairs(game.moves)
    highlight = placements[-1:] if last_move and game.moves and game.moves[-1].is_placement else []
    body = _board_group(board, layout, outside=outside, coords=coords, tiles=placements, highlight=highlight)

    panel = _Panel(layout.width + 2 * margin, margin, max(10.0, size * 0.7))
    body.append('<g class="panel">')
    panel.text(f"Ingenious \u2013 {game.variant}, {game.players} player{'s' if game.players > 1 else ''}", bold=True)
    status, ranking = _status_lines(game)
    panel.text(f"move {len(game.moves)}: {status}", color=_MUTED, size=0.9, fit=True)
    panel.text(ranking, color=_MUTED, size=0.9, fit=True)
    panel.gap()
    tracks = game.tracks
    rules = game.rules
    # With one track for everyone there is nothing to point at.
    mover_track = rules.track_of(game.current_player) if rules.track_count > 1 else None
    for index, (title, values) in enumerate(zip(track_titles(rules), tracks)):
        to_move = not game.is_over and index == mover_track
        panel.text(title + ("  \u25c0 to move" if to_move else ""), bold=True, size=0.9, fit=True)
        panel.out.append(f'<g class="track" data-track="{_escape(title)}">')
        if rules.shared_track:
            panel.track(values, rules.track_min, rules.track_max, tokens=game.duel_tokens)
        else:
            max_ = rules.track_max
            panel.track(values, 0, max_, mark=18 if max_ > 18 else None)  # the long track's stop
        panel.out.append("</g>")
    for p in seats:
        panel.gap(0.3)
        label = f"rack of player {p}" + (" (to move)" if p == game.current_player and not game.is_over else "")
        panel.text(label, bold=True, size=0.9, fit=True)  # "(to move)" comes and goes
        panel.out.append(f'<g class="rack" data-seat="{p}">')
        panel.rack(game.rack(p))
        panel.out.append("</g>")
    panel.finish()
    body.extend(panel.out)
    body.append("</g>")
    width = panel.x + panel.width + margin
    height = max(layout.height + 2 * margin, panel.y + margin)
    title = f"Ingenious {game.variant} game, {game.players} players, after {len(game.moves)} moves"
    return _svg(width, height, title, body)


#: Line colours of the seats in charts (not tile colours).
SEAT_INK = ("#1f4e79", "#c0392b", "#2e7d32", "#6a1b9a")


#: Marker colours of the classes worth a mark on a win-chance graph.
def _legend(name: str, most: int = 12) -> str:
    """A seat's name cut to fit the graph's legend."""
    return name if len(name) <= most else name[: most - 1] + "…"


_CLASS_INK = {"inaccuracy": "#e0a800", "mistake": "#e06c00", "blunder": "#c62828"}


def win_chance_svg(review: Review, width: float = 640, height: float = 220, names: Sequence[str] | None = None) -> str:
    """A win-chance graph of a `genial.reviews.Review`: one line per seat over the
    decisions (0 to 100%), inaccuracies, mistakes and blunders marked on the mover's line.
    ``names``: the seats' names for the legend (``player N`` without them)."""
    for name, v in (("width", width), ("height", height)):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 100 <= v <= 4000:
            raise ValueError(f"{name} must be a number of pixels from 100 to 4000, not {v!r}")
    if names is not None and (len(names) != review.players or not all(isinstance(x, str) for x in names)):
        raise ValueError(f"names must be {review.players} texts, one per seat, not {names!r}")
    left, right, top, bottom = 40.0, 90.0, 14.0, 26.0
    rows = review.series
    n = max(len(rows) - 1, 1)
    w, h = width - left - right, height - top - bottom

    def xy(i: int, v: float) -> tuple[float, float]:
        return left + w * i / n, top + h * (1 - min(max(v, 0.0), 1.0))

    body = [
        f'<rect x="{_n(left)}" y="{_n(top)}" width="{_n(w)}" height="{_n(h)}" fill="#ffffff" stroke="{_OUTSIDE_RIM}"/>'
    ]
    for pct in (0, 50, 100):
        _, y = xy(0, pct / 100)
        body.append(f'<line x1="{_n(left)}" y1="{_n(y)}" x2="{_n(left + w)}" y2="{_n(y)}" stroke="{_OUTSIDE}"/>')
        body.append(
            f'<text x="{_n(left - 6)}" y="{_n(y + 4)}" font-size="11" text-anchor="end" fill="{_MUTED}">{pct}%</text>'
        )
    body.append(
        f'<text x="{_n(left + w / 2)}" y="{_n(height - 6)}" font-size="11" text-anchor="middle" '
        f'fill="{_MUTED}">{_escape(tr("move"))}</text>'
    )
    for seat in range(review.players):
        ink = SEAT_INK[seat % len(SEAT_INK)]
        pts = _points(xy(i, row[seat]) for i, row in enumerate(rows))
        body.append(f'<polyline points="{pts}" fill="none" stroke="{ink}" stroke-width="2"/>')
        body.append(
            f'<text x="{_n(left + w + 8)}" y="{_n(top + 14 + 16 * seat)}" font-size="12" fill="{ink}">'
            f"{_escape(_legend(names[seat]) if names else tr('player {seat}').format(seat=seat))}</text>"
        )
    for i, d in enumerate(review.decisions):
        mark = _CLASS_INK.get(d.classification)
        if mark and not d.forced:
            x, y = xy(i, rows[i][d.player])
            # The class's name is its catalogue message (`genial.reviews.class_title`, which
            # this module cannot import: reviews draws its graph here).
            title = tr("move {n}: {move}, {verdict} (−{loss}%)").format(
                n=d.ply + 1, move=d.move, verdict=tr(d.classification), loss=f"{100 * d.loss:.0f}"
            )
            body.append(
                f'<circle cx="{_n(x)}" cy="{_n(y)}" r="4" fill="{mark}" stroke="#ffffff">'
                f"<title>{_escape(title)}</title></circle>"
            )
    return _svg(width, height, tr("win chance over the game"), body)

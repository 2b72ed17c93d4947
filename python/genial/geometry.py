"""Where cells are drawn: the axial hex grid laid out in pixels (pointy-top hexagons) and
in text columns. Drawing only; which cells exist and which are neighbours comes from the
core (`Board.cells`, `genial.actions.DIRECTIONS`)."""

from __future__ import annotations

import math

from .translation import mark

__all__ = ["SQRT3", "DIRECTION_NAMES", "Layout", "hex_corners", "pair_outline", "polar", "text_column"]

SQRT3 = math.sqrt(3.0)

Cell = tuple[int, int]

#: How the six directions of `genial.actions.DIRECTIONS` look in the pictures
#: (pointy-top hexagons): (+1,0) east, (+1,-1) north-east, and on round.
# Marked for the catalogues: the score explanations name the directions in the player's language.
DIRECTION_NAMES = (
    mark("east"),
    mark("north-east"),
    mark("north-west"),
    mark("west"),
    mark("south-west"),
    mark("south-east"),
)


def polar(cx: float, cy: float, radius: float, degrees: float) -> tuple[float, float]:
    """The point ``radius`` away from (cx, cy), ``degrees`` clockwise from straight up."""
    a = math.radians(degrees)
    return cx + radius * math.sin(a), cy - radius * math.cos(a)


def hex_corners(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    """Corners of a pointy-top hexagon of circumradius ``size``, clockwise from the top."""
    return [polar(cx, cy, size, 60 * k) for k in range(6)]


class Layout:
    """Pixel centres of the cells of a board of ``radius`` rings, hexagons of circumradius
    ``size``, the whole board's bounding box starting at (x0, y0)."""

    def __init__(self, radius: int, size: float, x0: float, y0: float) -> None:
        self.radius = radius
        self.size = size
        self.width = size * SQRT3 * (2 * radius + 1)
        self.height = size * (3 * radius + 2)
        self.cx = x0 + self.width / 2
        self.cy = y0 + self.height / 2

    def center(self, cell: Cell) -> tuple[float, float]:
        q, r = cell
        return self.cx + self.size * SQRT3 * (q + r / 2), self.cy + self.size * 1.5 * r


def text_column(cell: Cell) -> int:
    """The column of a cell when each cell is one character with a space between: axial
    x = 2q + r (relative to the centre's column)."""
    q, r = cell
    return 2 * q + r


def pair_outline(
    a: tuple[float, float], b: tuple[float, float], size: float, inset: float = 1.0
) -> list[tuple[float, float]]:
    """The outline of a two-hexagon tile whose halves are centred at ``a`` and ``b`` (neighbours
    of hexagons of circumradius ``size``): both hexagons drawn ``inset`` times smaller, as one
    piece with a notch where they meet. Ten corners, clockwise."""
    ca = hex_corners(*a, size * inset)
    cb = hex_corners(*b, size * inset)

    def facing(corners: list[tuple[float, float]], other: tuple[float, float]) -> int:
        # The side whose middle is nearest the other half: its two corners face it.
        def gap(k: int) -> float:
            (x0, y0), (x1, y1) = corners[k], corners[(k + 1) % 6]
            return math.hypot((x0 + x1) / 2 - other[0], (y0 + y1) / 2 - other[1])

        return min(range(6), key=gap)

    k, j = facing(ca, b), facing(cb, a)

    def mid(p: tuple[float, float], q: tuple[float, float]) -> tuple[float, float]:
        return (p[0] + q[0]) / 2, (p[1] + q[1]) / 2

    side_a = [ca[(k + i) % 6] for i in range(2, 6)]
    side_b = [cb[(j + i) % 6] for i in range(2, 6)]
    return [*side_a, mid(ca[k], cb[(j + 1) % 6]), *side_b, mid(cb[j], ca[(k + 1) % 6])]

"""The server's facts, sent once (``GET /api/meta``): the product, the variants and their
facts, the bots, the edition options with their words, the colours and their symbols, and
the board's drawing (where the page draws each cell, from `genial.geometry`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import _core
from .._core import Board, Rules, Tile
from .._version import version
from ..colors import Color
from ..geometry import SQRT3, Layout, hex_corners, pair_outline, polar
from ..svg import PALETTE, symbol
from ..translation import mark, ntr, tr
from ..variants import variants
from .words import variant_title

__all__ = [
    "DIRECTION",
    "DIRECTION_OF",
    "GEOMETRY",
    "PRODUCT",
    "RULE_OPTION_LABELS",
    "board_geometry",
    "fair_seed",
    "meta",
]

_CELL_SIZE = 10.0  # circumradius of a cell in the page's board drawing (its own units)
_DIRECTION_NAMES = ("east", "south-east", "south-west", "west", "north-west", "north-east")

PRODUCT = {"name": "genial", "description": mark("for Reiner Knizia's Ingenious")}
#: Words for the lobby's edition options (`Rules.options`): an option's title, and for a
#: choice what each value means. An option not named here is shown by its own help text
#: and value names, so a new rule option reaches the lobby with no edit here.
RULE_OPTION_LABELS: dict[str, dict[str, str]] = {
    "swap_timing": {
        "": mark("Swap"),
        "after_placement": mark("after placing (books)"),
        "instead_of_placement": mark("instead of placing (older editions)"),
    },
    "require_contact": {"": mark("Tiles must touch tiles already placed (older editions)")},
}


def _rule_option(option: dict[str, Any]) -> dict[str, Any]:
    """One edition option as the lobby draws it: a switch (``flag``) or a choice of values."""
    words = RULE_OPTION_LABELS.get(option["name"], {})
    helped = tr(str(option["help"]))
    return {
        "name": option["name"],
        "flag": option["flag"],
        "label": tr(words[""]) if "" in words else helped[:1].upper() + helped[1:],
        "default": option["default"],
        "values": [
            {"value": v, "label": tr(words[str(v)]) if str(v) in words else str(v).replace("_", " ")}
            for v in option["values"]
        ],
    }


def _n(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".") if v else "0"


def _points(pts: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in pts)


def _path(pts: Sequence[tuple[float, float]]) -> str:
    return "M" + "L".join(f"{_n(x)},{_n(y)}" for x, y in pts) + "Z"


# ----- the board's drawing -------------------------------------------------------------------


def board_geometry() -> dict[str, Any]:
    """Where the page draws each cell (pixels from `genial.geometry`), the cell and cursor
    hexagons, the frame, the printed symbols, and the six neighbour directions in clockwise
    screen order, each with its pixel offset and the outline of a tile laid that way."""
    cells = _core.board_cells()
    full = max(max(abs(q), abs(r), abs(q + r)) for q, r in cells)  # the printed board's rings
    layout = Layout(full, _CELL_SIZE, 0.0, 0.0)
    layout.cx = layout.cy = 0.0  # the board's centre at the origin
    margin = _CELL_SIZE * 1.4
    w, h = layout.width + margin, layout.height + margin
    # The smallest playing zone that holds each cell (5 rings for 1-2 players, 6, 7).
    zones = sorted({Board(p).radius: Board(p) for p in range(1, 5)}.items())
    origin = layout.center((0, 0))
    directions = []
    for dq, dr in _core.directions():
        x, y = layout.center((dq, dr))
        dx, dy = x - origin[0], y - origin[1]
        directions.append((math.atan2(dy, dx) % (2 * math.pi), dq, dr, dx, dy))
    directions.sort()  # clockwise on screen from east (y grows downwards)
    return {
        "size": _CELL_SIZE,
        "view_box": f"{_n(-w / 2)} {_n(-h / 2)} {_n(w)} {_n(h)}",
        "frame": _points([polar(0, 0, _CELL_SIZE * (full + 0.95) * SQRT3, 60 * k + 30) for k in range(6)]),
        "hexagon": _points(hex_corners(0, 0, _CELL_SIZE * 0.93)),
        "cursor": _points(hex_corners(0, 0, _CELL_SIZE)),
        "cells": [
            [q, r, *(round(v, 3) for v in layout.center((q, r))), next(z for z, b in zones if b.in_zone((q, r)))]
            for q, r in cells
            if any(b.in_zone((q, r)) for _, b in zones)
        ],
        "printed": [[q, r, int(c)] for (q, r), c in Board.symbols()],
        "directions": [
            {
                "name": name,
                "delta": [dq, dr],
                "offset": [round(dx, 3), round(dy, 3)],
                "outline": _path(pair_outline((0, 0), (dx, dy), _CELL_SIZE, 0.94)),
                "rim": _path(pair_outline((0, 0), (dx, dy), _CELL_SIZE, 1.0)),
            }
            for name, (_, dq, dr, dx, dy) in zip(_DIRECTION_NAMES, directions)
        ],
    }


def _direction_index(geometry: dict[str, Any]) -> dict[tuple[int, int], int]:
    return {(d["delta"][0], d["delta"][1]): i for i, d in enumerate(geometry["directions"])}


#: The board's drawing, and the direction index of each neighbour's (dq, dr).
GEOMETRY = board_geometry()
DIRECTION = _direction_index(GEOMETRY)
# The same as an array: the direction of the neighbour at (dq, dr), indexed [dq + 1, dr + 1].
DIRECTION_OF = np.full((3, 3), -1, dtype=np.int64)
for (_dq, _dr), _d in DIRECTION.items():
    DIRECTION_OF[_dq + 1, _dr + 1] = _d


# ----- the server's facts ----------------------------------------------------------------------


def _bot_in_language(bot: dict[str, Any]) -> dict[str, Any]:
    """A bot of the catalogue with its description and its options' help in the language
    in use (`core_texts`: the core's English is the key)."""
    specs = [{**spec, "help": tr(spec["help"])} for spec in bot.get("option_specs", [])]
    return {**bot, "description": tr(bot["description"]), "option_specs": specs}


def meta(bots: list[dict[str, Any]]) -> dict[str, Any]:
    """``GET /api/meta``: the product, the variants with their facts, the bots (``bots``,
    the catalogue), the edition options, the colours with their symbols, and the board;
    its texts in the language in use (the server makes it once per language)."""
    every = Rules.all()
    bots = [_bot_in_language(b) for b in bots]
    return {
        "version": version(),
        "product": {**PRODUCT, "description": tr(PRODUCT["description"])},
        "variants": [
            {
                "name": v.name,
                "title": variant_title(v.name),
                "player_counts": list(v.player_counts),
                "player_labels": [ntr("{n} player", "{n} players", n).format(n=n) for n in v.player_counts],
                "track_max": v.track_max,
                # The editor's tracks follow the player count (one per seat) only then.
                "tracks_per_seat": len(v.player_counts) > 1
                and all(Rules(v.name, n).track_count == n for n in v.player_counts),
                "rack_size": Rules(v.name).rack_size,
                "description": tr(v.description),
                "has_swap": Rules(v.name).has_swap,
                # The values each edition option may take in this variant (the core refuses
                # the others: the solo game has no swap to time).
                "option_values": {
                    o["name"]: [
                        x for x in o["values"] if any(r.option(o["name"]) == x for r in every if r.variant == v.name)
                    ]
                    for o in Rules.options()
                },
            }
            for v in variants()
        ],
        "bots": bots,
        # The lobby's suggestion for a bot seat: the quick greedy bot where there is one.
        "default_bot": next((b["name"] for b in bots if b["name"] == "greedy"), bots[0]["name"] if bots else None),
        "rule_options": [_rule_option(o) for o in Rules.options()],
        "colors": [
            {
                "index": int(c),
                "name": str(c),
                # The colour's name in the language in use (`name` is the notation's word).
                "title": c.title,
                # The colour's letter in tiles' text (a revealed bag, the end's draws).
                "letter": str(Tile(c, c))[0],
                "symbol": c.symbol,
                "fill": PALETTE[c],
                # The colour's symbol (genial.svg's drawing) in a 200×200 box around 0,0.
                "svg": symbol(c, 0.0, 0.0, 100.0, "currentColor"),
            }
            for c in Color
        ],
        "board": GEOMETRY,
    }


def fair_seed(humans: int) -> dict[str, Any]:
    """``meta.fair_seed``: from how many people at the table the server draws the seed (the
    lobby then offers no seed field), and what the lobby says instead."""
    return {
        "humans": humans,
        "text": tr(
            "With {n} or more people at the table the server draws the seed, so that nobody knows the bag in advance."
        ).format(n=humans),
    }

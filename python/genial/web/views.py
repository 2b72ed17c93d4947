"""What the page is sent: every JSON payload of `genial serve`, built from the core's facts.

The page (``static/*.js``) knows no rule. Everything it shows is decided here, once, from
the core (`Rules`, `Game`, `Game.previews`), `genial.geometry` (where cells are drawn) and
`genial.render` (why the ranking came out as it did): move text, cell positions, colour and
symbol names, seat roles and teams, what each track means, status and result texts, and
the placements of a rack tile best first (`genial.choices`, the terminal's ranking). The
page sends back what the player chose: a move's text as sent here, ``swap`` or ``keep``,
or a rack slot by its index.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import __version__, _core
from .._core import Board, Move, PlayResult, Rules, Tile
from ..choices import Choice, ranked_placements
from ..colors import Color
from ..game import Game
from ..geometry import SQRT3, Layout, hex_corners, pair_outline, polar
from ..position import write_position
from ..render import explain_ranking, ranking_step_text
from ..svg import PALETTE, symbol
from ..variants import variants

if TYPE_CHECKING:
    from .tables import Table

__all__ = [
    "PRODUCT",
    "RULE_OPTION_LABELS",
    "board_geometry",
    "entry",
    "fair_seed",
    "frame",
    "hint",
    "meta",
    "placements",
    "replay",
    "seat_public",
    "state",
    "summary",
]

PRODUCT = {"name": "genial", "description": "for Reiner Knizia's Ingenious"}
#: Words for the lobby's edition options (`Rules.options`): an option's title, and for a
#: choice what each value means. An option not named here is shown by its own help text
#: and value names, so a new rule option reaches the lobby with no edit here.
RULE_OPTION_LABELS: dict[str, dict[str, str]] = {
    "swap_timing": {
        "": "Swap",
        "after_placement": "after placing (books)",
        "instead_of_placement": "instead of placing (older editions)",
    },
    "require_contact": {"": "Tiles must touch tiles already placed (older editions)"},
}


#: The lobby's short tag for an edition option's value away from its default; another
#: option is tagged with its name and value.
_RULE_OPTION_TAGS: dict[str, dict[str, str]] = {
    "swap_timing": {"instead_of_placement": "swap instead"},
    "require_contact": {"True": "contact"},
}


def _rule_option(option: dict[str, Any]) -> dict[str, Any]:
    """One edition option as the lobby draws it: a switch (``flag``) or a choice of values."""
    words = RULE_OPTION_LABELS.get(option["name"], {})
    helped = str(option["help"])
    return {
        "name": option["name"],
        "flag": option["flag"],
        "label": words.get("", helped[:1].upper() + helped[1:]),
        "default": option["default"],
        "values": [{"value": v, "label": words.get(str(v), str(v).replace("_", " "))} for v in option["values"]],
    }


#: Why a game ends, by the core's end names (`genial.Game.end`).
_END_TEXT = {
    "board_full": "no free pair of cells is left",
    "no_placement": "the player to move could not place a tile",
}
_CELL_SIZE = 10.0  # circumradius of a cell in the page's board drawing (its own units)
_COLOR_NAMES = tuple(str(c) for c in Color)
_DIRECTION_NAMES = ("east", "south-east", "south-west", "west", "north-west", "north-east")


def _n(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".") if v else "0"


def _points(pts: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in pts)


def _path(pts: Sequence[tuple[float, float]]) -> str:
    return "M" + "L".join(f"{_n(x)},{_n(y)}" for x, y in pts) + "Z"


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def _names(colors: Sequence[int]) -> str:
    words = [str(Color(c)) for c in colors]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


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


_GEOMETRY = board_geometry()
_DIRECTION = _direction_index(_GEOMETRY)
# The same as an array: the direction of the neighbour at (dq, dr), indexed [dq + 1, dr + 1].
_DIRECTION_OF = np.full((3, 3), -1, dtype=np.int64)
for (_dq, _dr), _d in _DIRECTION.items():
    _DIRECTION_OF[_dq + 1, _dr + 1] = _d


# ----- the server's facts ----------------------------------------------------------------------


def _variant_title(name: str) -> str:
    return name.capitalize()


def meta(bots: list[dict[str, Any]]) -> dict[str, Any]:
    """``GET /api/meta``: the product, the variants with their facts, the bots (``bots``,
    the catalogue), the edition options, the colours with their symbols, and the board."""
    every = Rules.all()
    return {
        "version": __version__,
        "product": PRODUCT,
        "variants": [
            {
                "name": v.name,
                "title": _variant_title(v.name),
                "player_counts": list(v.player_counts),
                "player_labels": [_plural(n, "player") for n in v.player_counts],
                "track_max": v.track_max,
                # The editor's tracks follow the player count (one per seat) only then.
                "tracks_per_seat": len(v.player_counts) > 1
                and all(Rules(v.name, n).track_count == n for n in v.player_counts),
                "rack_size": Rules(v.name).rack_size,
                "description": v.description,
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
                # The colour's letter in tiles' text (a revealed bag, the end's draws).
                "letter": str(Tile(c, c))[0],
                "symbol": c.symbol,
                "fill": PALETTE[c],
                # The colour's symbol (genial.svg's drawing) in a 200×200 box around 0,0.
                "svg": symbol(c, 0.0, 0.0, 100.0, "currentColor"),
            }
            for c in Color
        ],
        "board": _GEOMETRY,
    }


def fair_seed(humans: int) -> dict[str, Any]:
    """``meta.fair_seed``: from how many people at the table the server draws the seed (the
    lobby then offers no seed field), and what the lobby says instead."""
    return {
        "humans": humans,
        "text": f"With {humans} or more people at the table the server draws the seed, so that "
        "nobody knows the bag in advance.",
    }


# ----- moves -------------------------------------------------------------------------------------


def _gains_text(gains: Sequence[int]) -> str:
    return ", ".join(f"{Color(c)} +{g}" for c, g in enumerate(gains) if g) or "no points"


def entry(n: int, seat: int, result: PlayResult) -> dict[str, Any]:
    """One move of the log: who played it (seat), its text, and what it did."""
    move = result.move
    out: dict[str, Any] = {"n": n, "seat": seat, "move": str(move), "kind": move.kind}
    if move.cells is not None and move.colors is not None:
        out["cells"] = [list(c) for c in move.cells]
        out["colors"] = [int(c) for c in move.colors]
        out["points"] = list(result.points)
        out["gains"] = list(result.gains)
        out["bonus"] = result.bonuses_earned
        out["was_bonus"] = result.was_bonus
        out["lost"] = result.bonuses_lost
        out["text"] = _gains_text(result.gains)
    else:
        out["swapped"] = result.swapped
        out["text"] = "swapped the rack" if result.swapped else "kept the rack"
    return out


def _log_entry(e: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    notes = []
    if e.get("bonus"):
        notes.append("Ingenious!")
    if e.get("was_bonus"):
        notes.append("(bonus)")
    if e.get("lost"):
        notes.append(f"{_plural(e['lost'], 'bonus placement')} lost: no legal placement")
    return {**e, "who": names[e["seat"]], "notes": notes}


def _anchors(cells: list[list[int]], colors: list[int], first: int) -> list[list[int]]:
    """The ways to lay a placement as ``[q, r, direction]``: the tile's first colour on
    (q, r), its other half in that direction."""
    out = []
    for a, b, ca in ((cells[0], cells[1], colors[0]), (cells[1], cells[0], colors[1])):
        if ca == first:
            out.append([a[0], a[1], _DIRECTION[(b[0] - a[0], b[1] - a[1])]])
    return out


def hint(game: Game, seat: int, choice: Choice) -> dict[str, Any]:
    """The hint for the seat to move (`genial.choices.ordered_choices`' first, as
    ``genial play``'s ``hint``): the move's text, its rack slot and how to lay it."""
    move = choice.move
    out: dict[str, Any] = {
        "move": str(move),
        "text": f"Hint: {choice.describe().strip()}",
        "win": choice.win,
        "slot": None,
        "anchor": None,
    }
    if move.cells is not None and move.colors is not None and move.tile is not None:
        rack = list(game.rack(seat))
        slot = rack.index(move.tile)
        first = int(rack[slot].colors[0])
        out["slot"] = slot
        out["anchor"] = _anchors([list(c) for c in move.cells], [int(c) for c in move.colors], first)[0]
    return out


def placements(game: Game, tile: Tile, slot: int) -> dict[str, Any]:
    """The mover's placements of one rack tile, best first as the terminal lists them
    (`genial.choices.ranked_placements`), with the points the core's preview gives each,
    as columns of integers: a tile has a few hundred placements, and one object each made
    this the server's slowest request.

    Every placement lays the tile's colours ``colors`` (first, second). Placement ``i``
    (its rank) is ``moves[i]``, the text to send back; it puts the first colour on
    ``cells[4i], cells[4i+1]`` (q, r) and the second on ``cells[4i+2], cells[4i+3]``, in
    ``board.directions[toward[i]]`` from the first; the halves score ``points[2i]`` and
    ``points[2i+1]`` (raw points), the placement earns ``bonus[i]`` bonus placements, and
    its notes are ``note_texts[notes[i]]``. A double lies the other way round as well: its
    first colour on the second cell, toward ``back[i]`` (``back`` is null for other tiles).
    """
    table = ranked_placements(game, tile)
    first, second = (int(c) for c in tile.colors)
    cells, points = table.cells, table.points
    # The tile's first colour on the first cell (for a double, the core's order).
    flip = table.colors[:, 0] != first
    cells = np.where(flip[:, None, None], cells[:, ::-1], cells)
    points = np.where(flip[:, None], points[:, ::-1], points)
    delta = cells[:, 1] - cells[:, 0]
    back = _DIRECTION_OF[1 - delta[:, 0], 1 - delta[:, 1]].tolist() if first == second else None
    # The notes: one list of texts per distinct (wins, bonus placements) pair.
    kinds = table.wins.astype(np.int64) + 2 * table.bonuses
    distinct, notes = np.unique(kinds, return_inverse=True)
    note_texts = []
    for kind in distinct.tolist():
        texts = ["wins the game at once"] if kind & 1 else []
        if kind >> 1:
            texts.append(f"Ingenious! {_plural(kind >> 1, 'bonus tile')}")
        note_texts.append(texts)
    return {
        "tile": str(tile),
        "slot": slot,
        "colors": [first, second],
        "moves": table.moves,
        "cells": cells.reshape(-1).tolist(),
        "toward": _DIRECTION_OF[delta[:, 0] + 1, delta[:, 1] + 1].tolist(),
        "back": back,
        "points": points.reshape(-1).tolist(),
        "bonus": table.bonuses.tolist(),
        "notes": notes.reshape(-1).tolist(),
        "note_texts": note_texts,
    }


# ----- seats and tracks -----------------------------------------------------------------------


def _side_label(rules: Rules, side: int, names: Sequence[str]) -> str:
    """A side's name: the team and its players where partners rank together, else the seat's name."""
    if rules.sides < rules.players:
        seats = [p for p in range(rules.players) if rules.side_of(p) == side]
        return f"Team {'AB'[side]} ({' & '.join(names[p] for p in seats)})"
    return names[side]


def seat_public(table: Table, i: int) -> dict[str, Any]:
    """One seat as everyone may see it: kind, name, role text, team, presence."""
    s = table.seats[i]
    rules = table.game.rules
    out: dict[str, Any] = {"seat": i, "kind": s["kind"], "name": s["name"]}
    team = rules.team_of(i)
    out["team"] = None if team is None else f"Team {'AB'[team]}"
    out["track_index"] = rules.track_of(i)
    if s["kind"] == "bot":
        out["label"] = s["label"]
        out["role"] = f"bot · {s['label']}"
    else:
        out["online"] = table.present(i)
        out["joined"] = table.tokens[i] is not None  # the seat's invite was claimed
        out["vacant"] = table.vacant(i)  # its holder left: any player may hand it on
        out["away_s"] = round(table.away_for(i)) if out["joined"] else None
        # Seconds until another player may hand the seat on (0: now; None: only its holder).
        wait = table.hand_on_in(i)
        out["hand_on_in_s"] = None if wait is None else round(wait)
        out["role"] = "online" if out["online"] else "left" if out["vacant"] else "away"
    return out


def _scoring(rules: Rules, names: Sequence[str]) -> str:
    """What the scores mean, in one sentence or two (from the core's facts of the rules)."""
    if rules.scored_alone:
        return f"Each colour scores 0 to {rules.track_max}; your result is your lowest colour."
    if rules.shared_track:
        seats = rules.seats_of_track(0)
        return (
            f"One marker per colour between {names[seats[-1]]} (left) and {names[seats[0]]} (right): "
            "points push it toward the side of the player who scores. Most markers on one's side wins; "
            "on a tie, the side whose nearest marker stands farther from the middle."
        )
    who = "each team" if rules.sides < rules.players else "each player"
    return (
        f"Each colour scores 0 to {rules.track_max}. The lowest colour ranks {who}: the higher lowest "
        "wins, and on a tie the next lowest decides."
    )


def _track_views(
    game: Game | Any,
    names: Sequence[str],
    viewer: int | None,
    *,
    over: bool,
    ranks: Sequence[int] | None,
    gains: tuple[int, Sequence[int]] | None = None,
) -> list[dict[str, Any]]:
    """Each track as the page draws it: title, the seats scoring on it, the markers, which
    colours are lowest, its scale, duel tokens, and the gains of a move (``gains``: seat,
    per-colour points) on the tracks that seat scores on."""
    rules: Rules = game.rules
    out = []
    for t, values in enumerate(game.tracks):
        seats = list(rules.seats_of_track(t))
        if rules.shared_track:
            title = f"{names[seats[-1]]}  ◀  ▶  {names[seats[0]]}"
        elif len(seats) > 1:
            title = f"Team {'AB'[t]} · {' & '.join(names[s] for s in seats)}"
        else:
            title = names[seats[0]]
        lowest = min(values)
        tokens = []
        if rules.shared_track:
            for holder in game.duel_tokens:
                side = None if holder is None else ("left" if holder == seats[-1] else "right")
                tokens.append({"side": side, "title": "" if holder is None else f"token of {names[holder]}"})
        out.append(
            {
                "title": title,
                "seats": seats,
                "values": list(values),
                "lowest": [not rules.shared_track and v == lowest for v in values],
                "signed": rules.shared_track,
                "min": rules.track_min,
                "max": rules.track_max,
                # The middle of a long track is marked, to count from.
                "marks": [rules.track_max // 2] if rules.track_max > 18 else [],
                "to_move": not over and not rules.shared_track and game.current_player in seats,
                "rank": None if ranks is None or rules.shared_track else ranks[seats[0]] + 1,
                "mine": viewer is not None and (rules.shared_track or viewer in seats),
                "tokens": tokens,
                "gains": list(gains[1]) if gains is not None and (rules.shared_track or gains[0] in seats) else None,
            }
        )
    return out


# ----- the end -------------------------------------------------------------------------------------


def _ending(game: Game, names: Sequence[str]) -> dict[str, Any]:
    """The end of a finished game: why it ended, the result or the ranking, and for each
    step down the ranking what decided it (`genial.render.explain_ranking`)."""
    rules = game.rules
    reason = _END_TEXT.get(game.end or "", game.end or "")
    if game.end == "immediate_win":
        reason = (
            "every marker stood on one player's side"
            if rules.shared_track
            else f"a player reached {rules.track_max} in every colour"
        )
    if rules.scored_alone:
        result = game.lowest_score()
        return {
            "title": f"Result: {result}",
            "reason": f"The game ended: {reason}.",
            "summary": f"Your result is {result}: the score of your lowest colour.",
            "ranking": [],
            "steps": [],
        }
    ranking = game.ranking()
    sides = [sorted({rules.side_of(p) for p in group}) for group in ranking]
    places = []
    for place, group in enumerate(sides, start=1):
        label = " = ".join(_side_label(rules, s, names) for s in group)
        shared = len(group) > 1
        places.append({"place": place, "label": label, "shared": shared})
    first = places[0]
    summary = f"First place shared: {first['label']}" if first["shared"] else f"Winner: {first['label']}"
    steps = []
    for step in explain_ranking(game):
        above = sorted({rules.side_of(p) for p in step["above"]})
        below = sorted({rules.side_of(p) for p in step["below"]})
        if above == below:
            continue  # partners of one side
        count = step["count"]
        width = 0 if count else len(Color)
        rows: list[dict[str, Any]] = []
        labels: list[str] = []
        for side, key in ((above, step["rows"][0]), (below, step["rows"][1])):
            values = key[1:] if count else key
            cells = [str(v) for v in values] + ["–"] * (width - len(values))
            if count:
                cells.append(_plural(key[0], "marker"))
            labels.append(" = ".join(_side_label(rules, s, names) for s in side))
            rows.append({"label": labels[-1], "cells": cells})
        decided = step["decided_at"]
        column = None
        if decided is not None:
            column = (len(rows[0]["cells"]) - 1 if decided == 0 else decided - 1) if count else decided
        steps.append(
            {
                "caption": "Markers on each side, nearest to the middle first"
                if count
                else "Scores from the lowest colour up",
                "rows": rows,
                "decided": column,
                "text": ranking_step_text(step, labels[0], labels[1]),
            }
        )
    return {
        "title": "Game over",
        "reason": f"The game ended: {reason}.",
        "summary": summary,
        "ranking": places,
        "steps": steps,
    }


def _forfeit_ending(table: Table, names: Sequence[str]) -> dict[str, Any]:
    """The end of a game a seat forfeited: the reason, and the ranking with that seat's side
    last (`Table.ranks`)."""
    forfeit = table.forfeit
    assert forfeit is not None
    rules = table.game.rules
    ranks = table.ranks()
    reason = f"The game ended by forfeit: {forfeit['reason']}."
    if rules.scored_alone:
        return {"title": "Game over", "reason": reason, "summary": "The game was lost.", "ranking": [], "steps": []}
    sides: dict[int, list[int]] = {}
    for p, r in enumerate(ranks):
        side = rules.side_of(p)
        if side not in sides.setdefault(r, []):
            sides[r].append(side)
    places = []
    for place, (_, group) in enumerate(sorted(sides.items()), start=1):
        label = " = ".join(_side_label(rules, s, names) for s in sorted(group))
        places.append({"place": place, "label": label, "shared": len(group) > 1})
    first = places[0]
    summary = f"First place shared: {first['label']}" if first["shared"] else f"Winner: {first['label']}"
    return {"title": "Game over", "reason": reason, "summary": summary, "ranking": places, "steps": []}


def ending(table: Table) -> dict[str, Any]:
    """How a finished game of the server ended: by the rules (`_ending`) or by a forfeit."""
    names = _names_of(table)
    return _forfeit_ending(table, names) if table.forfeit is not None else _ending(table.game, names)


def _ranking(ranks: Sequence[int]) -> list[list[int]]:
    """Seats grouped by place, first place first (as `Game.ranking`)."""
    return [[p for p, r in enumerate(ranks) if r == place] for place in sorted(set(ranks))]


# ----- what a seat sees ----------------------------------------------------------------------------


def _status(table: Table, names: Sequence[str], seats: Sequence[dict[str, Any]], viewer: int | None) -> dict[str, str]:
    game = table.game
    if table.over:
        return {"kind": "over", "text": f"Game over. {ending(table)['summary']}"}
    current = game.current_player
    phase = game.phase
    if viewer is not None and viewer == current:
        if phase == "bonus":
            more = game.pending_bonuses
            extra = f" ({more} more after this)" if more else ""
            return {"kind": "bonus", "text": f"Ingenious! Place a bonus tile{extra}"}
        if phase == "swap_offer":
            return {"kind": "swap", "text": f"You may swap your whole rack for new tiles: {_swap_why(game, viewer)}"}
        # With several people in the game (pass and play), say whose turn it is.
        you = f", {names[current]}" if sum(s["kind"] == "human" for s in seats) > 1 else ""
        return {"kind": "mine", "text": f"Your turn{you}: pick a tile and place it"}
    who = seats[current]
    if who["kind"] == "bot":
        return {"kind": "wait", "text": f"{names[current]} is thinking…"}
    # A swap offer is the mover's own business: it says that no tile of theirs shows their
    # lowest colour, which the table would not learn. To the others it is still their turn.
    verb = {"bonus": "plays a bonus tile"}.get(phase, "is placing")
    return {"kind": "wait", "text": f"Waiting: {names[current]} {verb}"}


def _swap_why(game: Game, seat: int) -> str:
    """Why the seat may swap: none of its tiles shows a colour its swap rule looks at (the
    core's `Game.swap_colors`)."""
    colors = [int(c) for c in game.swap_colors(seat)]
    rules = game.rules
    if rules.shared_track:
        what = "the colour" if len(colors) == 1 else "any colour"
        return f"none of your tiles shows {what} at {rules.track_max} on your side ({_names(colors)})"
    lowest = "your lowest colour" if len(colors) == 1 else "any of your lowest colours"
    return f"none of your tiles shows {lowest} ({_names(colors)})"


def _table_text(table: Table) -> str:
    away = (
        "a seat is never handed on for being away"
        if table.away_s <= 0
        else f"a seat may be handed on after {_plural(round(table.away_s / 60), 'minute')} away"
    )
    clock = "no clock" if table.clock_s <= 0 else f"clock: {_plural(round(table.clock_s / 60), 'minute')} each"
    return f"At this table {away}; {clock}."


def _names_of(table: Table) -> list[str]:
    return [s["name"] for s in table.seats]


def state(table: Table, seat: int | None) -> dict[str, Any]:
    """The state as ``seat`` may see it (None: a spectator, no rack at all)."""
    from ..bots import GameView

    g = table.game
    gv = GameView(g, 0 if seat is None else seat)
    board = gv.board
    names = _names_of(table)
    seats = [seat_public(table, i) for i in range(gv.players)]
    over = table.over
    ranks = table.ranks() if over else list(gv.ranks())
    out: dict[str, Any] = {
        "type": "state",
        "id": table.id,
        "version": table.version,
        "variant": gv.variant,
        "title": f"{_variant_title(gv.variant)} · {_plural(gv.players, 'player')}",
        "players": gv.players,
        "rules": gv.rules.to_text(),
        "swap_timing": gv.swap_timing,
        "require_contact": gv.require_contact,
        # Seeds are 63-bit: text, which JavaScript does not round.
        "seed": str(g.seed) if over and g.seed is not None else None,
        "radius": board.radius,
        "cells": [[q, r, int(c)] for (q, r), c in sorted(board.occupied().items())],
        "tiles": [e["cells"] for e in table.log if "cells" in e],
        "tracks": [list(t) for t in gv.tracks],
        "track_views": _track_views(g, names, seat, over=over, ranks=ranks if over else None),
        "scoring": _scoring(g.rules, names),
        "track_max": gv.track_max,
        "scores": [list(s) for s in gv.scores],
        "tokens": list(gv.duel_tokens),
        "rack_sizes": list(gv.rack_sizes),
        "bag": gv.bag_size,
        # The swap offer shows to the mover only (see `_status`); the others see the turn on.
        "phase": "place" if gv.phase == "swap_offer" and seat != g.current_player else gv.phase,
        "current": gv.current_player,
        "pending_bonuses": gv.pending_bonuses,
        "over": over,
        "end": "forfeit" if table.forfeit is not None else g.end,
        "forfeit": table.forfeit,
        "ranks": ranks,
        "moves": len(table.log),
        # A rack kept after a swap offer is the keeper's own business until the end (see
        # `_status`); a swap done is public, as at the table.
        "log": [
            _log_entry(e, names)
            for e in table.log[-table.log_tail :]
            if over or e["kind"] != "keep" or e["seat"] == seat
        ],
        "seats": seats,
        "status": _status(table, names, seats, seat),
        "you": seat,
        "can_undo": table.can_undo(seat),
        "can_download": table.can_download(seat),
        # Seats joined and replaced, and the bag's fingerprint (genial.web.commitment).
        "events": table.events[-table.log_tail :],
        "commitment": table.commitment,
        # How long a holder must be away before another player may hand the seat on (0: never).
        "away_limit_s": table.away_s,
        # The table's away time and clock in words, shown on every seat's page: a seat's
        # holder must know when their seat may be handed on and what their time is.
        "table_text": _table_text(table),
        # Whether hints and a seat's review of its own moves are on before the end.
        "hints": table.hints,
        # The game played next at this table, once a player asked for a rematch.
        "rematch": table.settings.get("rematch"),
        # The game clock: each person's time for the game and what is left now (seconds), and
        # whose time runs (None: no clock, or before the first move).
        "clock": None
        if table.clock_s <= 0
        else {
            "per_seat_s": table.clock_s,
            "left": [round(table.time_left(i), 1) if s["kind"] == "human" else None for i, s in enumerate(table.seats)],
            "running": table.clock_running(),
            "text": f"{_plural(round(table.clock_s / 60), 'minute')} each; a player whose time runs out loses",
        },
    }
    if seat is not None and table.inherited(seat):
        out["inherited"] = (
            "Someone else held this seat before you and saw its rack: the game had begun, so "
            "it could not be dealt anew."
        )
    if table.forfeit is not None:
        out["ranking"] = _ranking(ranks)
        first = _ranking(ranks)[0]
        out["winner"] = first[0] if len(first) == 1 and not g.rules.scored_alone else None
        out["explanation"] = []
        out["ending"] = ending(table)
        if table.commitment is not None:
            out["reveal"] = table.reveal()
    elif g.is_over:
        out["ranking"] = g.ranking()
        out["winner"] = g.winner
        out["explanation"] = explain_ranking(g)
        out["ending"] = _ending(g, names)
        if table.commitment is not None:
            out["reveal"] = table.reveal()
    if seat is not None:
        rack = gv.rack()
        out["rack"] = [[int(c) for c in t.colors] for t in rack]
        out["rack_labels"] = [f"{t.colors[0]} and {t.colors[1]}" for t in rack]
        if not over and gv.current_player == seat:
            # Placements are fetched per tile (`placements`), with their points; here only
            # the other moves (swap, keep) and how many placements there are.
            legal = gv.legal_moves()
            others = [str(m) for m in (Move.swap(), Move.keep()) if m in legal]
            out["others"] = others
            out["placement_count"] = len(legal) - len(others)
            if "swap" in others:
                out["swap_why"] = _swap_why(g, seat)
    return out


def summary(table: Table) -> dict[str, Any]:
    """A game in the lobby: public facts and texts only (no rack, no token)."""
    g = table.game
    names = _names_of(table)
    seats = [seat_public(table, i) for i in range(g.players)]
    # One tag per edition option away from its default, from the core's option table: a
    # new option is tagged with no edit here.
    tags = [
        _RULE_OPTION_TAGS.get(o["name"], {}).get(str(value), f"{o['name']}: {value}".replace("_", " "))
        for o in Rules.options()
        if (value := table.rules.option(o["name"])) != o["default"]
    ]
    if table.over:
        status = f"finished · {ending(table)['summary']}"
    else:
        phase = {"place": "to place", "bonus": "bonus placement", "swap_offer": "to place"}.get(g.phase, g.phase)
        status = f"move {len(table.log) + 1} · {names[g.current_player]} {phase}"
    return {
        "id": table.id,
        "variant": g.variant,
        "title": _variant_title(g.variant),
        "players": g.players,
        "rules": g.rules.to_text(),
        "swap_timing": g.swap_timing,
        "require_contact": g.require_contact,
        "tags": tags,
        "moves": len(table.log),
        "current": None if table.over else g.current_player,
        "phase": "place" if g.phase == "swap_offer" else g.phase,  # the offer is the mover's own
        "over": table.over,
        "end": "forfeit" if table.forfeit is not None else g.end,
        "ranking": _ranking(table.ranks()) if table.over else None,
        "status": status,
        "seats": seats,
        "created": table.created,
        "updated": table.updated,
    }


# ----- replays ----------------------------------------------------------------------------------------


def deal_steps(start: Game, moves: Sequence[str]) -> list[dict[str, Any]]:
    """Every draw of a game in the order drawn, for the end screen's check of the deal
    (static/fairness.js ``checkDeal``): per seat its deal ``{"move": None, "seat", "drew"}``,
    then per move ``{"move": i, "seat", "drew"}`` with the tile laid (``played``) or the
    tiles a swap put back (``returned``). Tiles are written as in the bag (two colour
    letters each). Read off the core's replay of ``moves`` from ``start``: the tiles a move
    drew are the last of the mover's rack (draws go to the end of a rack), and the tiles it
    gave up are the rest of the rack before, less what stayed."""
    g = start.clone()
    steps: list[dict[str, Any]] = [
        {"move": None, "seat": p, "drew": "".join(str(t) for t in g.rack(p))} for p in range(g.players)
    ]
    for i, m in enumerate(moves):
        seat = g.current_player
        before = Counter(str(t) for t in g.rack(seat))
        result = g.play(m)
        after = [str(t) for t in g.rack(seat)]
        cut = len(after) - result.drawn
        gone = before - Counter(after[:cut])
        step: dict[str, Any] = {"move": i, "seat": seat, "drew": "".join(after[cut:])}
        if gone:
            step["returned" if result.swapped else "played"] = "".join(sorted(gone.elements()))
        steps.append(step)
    return steps


def frame(game: Game) -> dict[str, Any]:
    """The public facts after one move of a replay."""
    return {
        "tracks": [list(t) for t in game.tracks],
        "tokens": list(game.duel_tokens),
        "current": game.current_player,
        "phase": game.phase,
        "bag": game.bag_size,
    }


def replay(start: Game, game: Game, entries: list[dict[str, Any]], names: Any) -> dict[str, Any]:
    """``POST /api/replay``: every move with who played it and what it scored, the tracks
    after each move as the page draws them, and the end (all from the core). No rack.
    ``start``: the game before its first move (it is played on); ``game``: at its end."""
    if not (isinstance(names, list) and len(names) == game.players and all(isinstance(n, str) for n in names)):
        names = [f"Seat {i + 1}" for i in range(game.players)]
    names = [n[:40] for n in names]
    frames = []
    for i in range(len(entries) + 1):
        last = entries[i - 1] if i > 0 else None
        if last is not None:
            start.play(last["move"])
        over = i == len(entries) and game.is_over
        f = frame(start)
        f["track_views"] = _track_views(
            start,
            names,
            None if last is None else last["seat"],
            over=over,
            ranks=list(start.ranks()) if over else None,
            gains=(last["seat"], last["gains"]) if last is not None and "gains" in last else None,
        )
        frames.append(f)
    seed = game.seed
    title = f"Replay · {_variant_title(game.variant)}, {_plural(game.players, 'player')}"
    return {
        "variant": game.variant,
        "title": title + (f" · seed {seed}" if seed is not None else ""),
        "players": game.players,
        "rules": game.rules.to_text(),
        "swap_timing": game.swap_timing,
        "require_contact": game.require_contact,
        "seed": None if seed is None else str(seed),
        "radius": game.board.radius,
        "track_max": game.track_max,
        "scoring": _scoring(game.rules, names),
        "names": names,
        "log": [_log_entry(e, names) for e in entries],
        "frames": frames,
        "over": game.is_over,
        "end": game.end,
        "ranking": game.ranking() if game.is_over else None,
        "explanation": explain_ranking(game) if game.is_over else None,
        "ending": _ending(game, names) if game.is_over else None,
    }


def tile_of(game: Game, seat: int, *, tile: str | None, slot: str | None) -> tuple[Tile, int]:
    """The rack tile a request names, by slot (``slot=2``) or text (``tile=RB``)."""
    rack = game.rack(seat)
    if slot is not None:
        if not (slot.isascii() and slot.isdigit()) or not 0 <= int(slot[:3]) < len(rack):
            raise ValueError(f"slot must be a rack slot 0..{len(rack) - 1}")
        return rack[int(slot)], int(slot)
    if not tile:
        raise ValueError("name a tile of your rack: ?slot=0 (or ?tile=RB)")
    parsed = Tile.parse(tile)
    if parsed not in rack:
        raise ValueError(f"tile {parsed} is not in your rack")
    return parsed, rack.index(parsed)


# ----- reviews and the analysis board ------------------------------------------------------------

#: What the review and the analysis board say about hidden information.
INFORMATION_NOTE = (
    "Each decision is judged from the mover's information only: the board, the tracks and the "
    "mover's own rack. The other racks and the bag are dealt anew in every search iteration, so "
    "the verdicts never use a tile the mover could not see."
)


def _class_texts() -> list[dict[str, Any]]:
    """Each class of a decision with its limit (`genial.reviews.LOSS_LIMITS`) in words."""
    from ..reviews import CLASSES, LOSS_LIMITS

    out = []
    for c in CLASSES:
        limit = LOSS_LIMITS.get(c)
        if limit is not None:
            text = f"lost less than {_pct(limit)} win chance beyond the search's noise" + (
                " (or the engine's own choice)" * (c == "best")
            )
        else:
            text = f"lost {_pct(max(LOSS_LIMITS.values()))} win chance or more beyond the search's noise"
        out.append({"name": c, "text": text, "limit": limit})
    return out


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def explained(game: Game, move: Move) -> dict[str, Any]:
    """A placement on ``game`` with its score explained (`Game.explain`) in words: each
    half's lines per direction, each marker's move with the 18 cap and "Ingenious!", and
    the rulebooks' sentences behind them. A swap or keep has no cells and no points."""
    if move.cells is None or move.colors is None:
        text = "swap the rack" if move == Move.swap() else "keep the rack"
        return {
            "move": str(move),
            "cells": None,
            "colors": None,
            "points": None,
            "total": 0,
            "text": text,
            "lines": [],
            "steps": [],
            "wins": False,
            "rules": [],
        }
    e = game.explain(move)
    return {
        "move": str(move),
        "cells": [list(c) for c in move.cells],
        "colors": [int(c) for c in move.colors],
        "points": list(e.points),
        "total": sum(e.points),
        "text": f"{move.colors[0]} +{e.points[0]}, {move.colors[1]} +{e.points[1]} = {sum(e.points)}",
        "lines": e.lines_text(),
        "steps": [s.describe() for s in e.steps],
        "wins": e.wins,
        "rules": e.rules(),
    }


def review(game: Game, r: Any, names: Sequence[str], source: dict[str, Any]) -> dict[str, Any]:
    """A finished review (`genial.reviews.Review`) of ``game`` as the review page shows it:
    per decision the win chances, the class, the move played and the best alternative with
    their score previews explained; the win-chance graph of every seat; the per-player
    summary; the moves (for the board at each decision)."""
    from ..records import from_record, start_record, to_record

    names = [n[:40] for n in names]
    board = from_record(start_record(to_record(game)))
    by_ply = {d.ply: d for d in r.decisions}
    log = []
    decisions = []
    for ply, move in enumerate(game.moves):
        seat = board.current_player
        d = by_ply.get(ply)
        if d is not None:
            played = explained(board, move)
            best = explained(board, d.best) if d.best != move else played
            # The decision as `Decision.to_dict` writes it (the one serializer of a
            # decision, as review files hold it), with what the page adds: names, texts,
            # both moves explained; its candidates cut to the first five.
            shown = d.to_dict()
            shown["candidates"] = shown["candidates"][:5]
            decisions.append(
                {
                    **shown,
                    "who": names[d.player],
                    "played": played,
                    "alternative": None if d.best == move else best,
                    "text": (
                        f"{names[d.player]} played {move} ({_pct(d.win_before)} → {_pct(d.win_after)})"
                        + ("" if d.best == move else f"; best was {d.best} ({_pct(d.best_win)})")
                    ),
                }
            )
        log.append(entry(ply, seat, board.play(move)))
    worst = r.worst()
    summary = [
        {
            "player": s.player,
            "who": names[s.player],
            "decisions": s.decisions,
            "average_loss": s.average_loss,
            "text": f"average loss {100 * s.average_loss:.1f}% over {_plural(s.decisions, 'decision')}",
            "counts": s.counts,
        }
        for s in r.summary
    ]
    return {
        "title": f"Review · {_variant_title(game.variant)}, {_plural(game.players, 'player')}",
        "level": r.level,
        "iterations": r.iterations,
        "players": game.players,
        "names": names,
        "radius": game.board.radius,
        "total": len(game.moves),
        "note": INFORMATION_NOTE,
        "classes": _class_texts(),
        "log": [_log_entry(e, names) for e in log],
        "decisions": decisions,
        "worst": None if worst is None else worst.ply,
        "series": [list(row) for row in r.series],
        "graph": r.to_svg(width=640, height=220, names=names),
        "summary": summary,
        "source": source,
        "analysable": True,
    }


def analysis(
    game: Game,
    names: Sequence[str],
    tiles: Sequence[Move],
    line: list[dict[str, Any]],
    result: Any,
    went_on: Move | None = None,
) -> dict[str, Any]:
    """The analysis board's position: the board, tracks, the mover and its rack (the only
    rack shown), the variation played, the candidate moves (`genial.analysis.Analysis`,
    ``None`` once the game is over) with their win chances, score previews explained and
    expected lines, and ``played``: the move the position's game went on with (``went_on``)
    explained, or ``None``; a candidate that is that move says so."""
    mover = game.current_player
    placed = [m for m in [*tiles, *game.moves] if m.cells is not None and m.colors is not None]
    out: dict[str, Any] = {
        "title": f"Analysis · {_variant_title(game.variant)}, {_plural(game.players, 'player')}",
        "players": game.players,
        "names": list(names),
        "variant": game.variant,
        "radius": game.board.radius,
        "tiles": [
            {"cells": [list(c) for c in m.cells or ()], "colors": [int(c) for c in m.colors or ()]} for m in placed
        ],
        "tracks": [list(t) for t in game.tracks],
        "track_max": game.track_max,
        "track_min": game.rules.track_min,
        "track_views": _track_views(
            game, names, mover, over=game.is_over, ranks=list(game.ranks()) if game.is_over else None
        ),
        "scoring": _scoring(game.rules, names),
        "over": game.is_over,
        "line": [_log_entry(e, names) for e in line],
        "note": INFORMATION_NOTE,
        "candidates": [],
        "expected": [],
        "played": None,
    }
    if game.is_over:
        out["status"] = _ending(game, names)["summary"]
        return out
    rack = game.rack(mover)
    phase = {"place": "to place", "bonus": "a bonus placement", "swap_offer": "a swap offer"}.get(
        game.phase, game.phase
    )
    out |= {
        "mover": mover,
        "who": names[mover],
        "phase": game.phase,
        "status": f"{names[mover]} to move: {phase}",
        "rack": [[int(c) for c in t.colors] for t in rack],
        "rack_labels": [f"{t.colors[0]} and {t.colors[1]}" for t in rack],
        "played": None if went_on is None else explained(game, went_on),
        # The position in one line (`genial.position`): what the board shows, the mover's
        # rack the only rack. Written at the start of a placement only.
        "notation": write_position(game) if game.phase == "place" and not game.pending_bonuses else None,
    }
    if result is not None:
        cands = []
        for c in result.candidates[:8]:
            e = explained(game, c.move)
            cands.append(
                {
                    "move": str(c.move),
                    "win": c.win_probability,
                    "win_text": _pct(c.win_probability),
                    "visits": c.visits,
                    "explained": e,
                    "text": e["text"],
                    "line": [str(m) for m in c.line[:8]],
                    "played": c.move == went_on,
                }
            )
        out["candidates"] = cands
        out["expected"] = cands[0]["line"] if cands else []
    return out

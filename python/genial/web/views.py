"""What the page is sent of a live game: a seat's state, the lobby's summary, the move
log, a tile's placements and the hint, built from the core's facts. The other payloads are
built beside it the same way: the server's facts and the board's drawing (`facts`), how a
game ended (`endings`), replays, reviews and the analysis board (`study`).

The page (``static/*.js``) knows no rule. Everything it shows is decided here, once, from
the core (`Rules`, `Game`, `Game.previews`), `genial.geometry` (where cells are drawn) and
`genial.render` (why the ranking came out as it did): move text, cell positions, colour and
symbol names, seat roles and teams, what each track means, status and result texts, and
the placements of a rack tile best first (`genial.choices`, the terminal's ranking). The
page sends back what the player chose: a move's text as sent here, ``swap`` or ``keep``,
or a rack slot by its index.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core import Move, PlayResult, Rules, Tile
from ..choices import Choice, ranked_placements
from ..game import Game
from ..render import explain_ranking
from ..translation import current, mark, ntr, tr
from .endings import ending
from .endings import game_ending as _ending
from .endings import ranking_groups as _ranking
from .facts import DIRECTION, DIRECTION_OF
from .words import colour_list, entry_text, tile_label
from .words import names_of as _names_of
from .words import players as _players
from .words import variant_title as _variant_title

if TYPE_CHECKING:
    from .tables import Table

__all__ = [
    "deal_steps",
    "entry",
    "frame",
    "hint",
    "log_entry",
    "placements",
    "scoring",
    "seat_public",
    "state",
    "summary",
    "tile_of",
    "track_views",
]

#: The lobby's short tag for an edition option's value away from its default; another
#: option is tagged with its name and value.
_RULE_OPTION_TAGS: dict[str, dict[str, str]] = {
    "swap_timing": {"instead_of_placement": mark("swap instead")},
    "require_contact": {"True": mark("contact")},
}


# ----- moves -------------------------------------------------------------------------------------
# Every text here is made in the language in use: the page's (genial.translation; the Edge
# sets it for each request and live connection). One design for every payload (views,
# facts, endings, study, lobby, round, the refusals): the server translates, the page does
# not. Why: these texts are sentences composed from the game's facts (names, a reason
# inside a status, a list of colours, counts); made where they are composed, each language
# orders and inflects them in its own catalogue entry (Polish cases and three plurals),
# where ids and parameters sent to the page would need that grammar in JavaScript too. A
# state is made once per change, audience and language (`Table.view_text`), so a lookup is
# one dictionary read per text made, never one per page sent; the game itself (moves,
# cells, tracks) is language-free.


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
    else:
        out["swapped"] = result.swapped
    out["text"] = entry_text(out)
    return out


def log_entry(e: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    notes = []
    if e.get("bonus"):
        notes.append(tr("Ingenious!"))
    if e.get("was_bonus"):
        notes.append(tr("(bonus)"))
    if e.get("lost"):
        notes.append(
            ntr(
                "{n} bonus placement lost: no legal placement",
                "{n} bonus placements lost: no legal placement",
                e["lost"],
            ).format(n=e["lost"])
        )
    if e.get("cut_short"):
        notes.append(tr("(stopped at the server's time cap: played with less search than its level)"))
    return {**e, "text": entry_text(e), "who": names[e["seat"]], "notes": notes}


def _anchors(cells: list[list[int]], colors: list[int], first: int) -> list[list[int]]:
    """The ways to lay a placement as ``[q, r, direction]``: the tile's first colour on
    (q, r), its other half in that direction."""
    out = []
    for a, b, ca in ((cells[0], cells[1], colors[0]), (cells[1], cells[0], colors[1])):
        if ca == first:
            out.append([a[0], a[1], DIRECTION[(b[0] - a[0], b[1] - a[1])]])
    return out


def hint(game: Game, seat: int, choice: Choice) -> dict[str, Any]:
    """The hint for the seat to move (`genial.choices.ordered_choices`' first, as
    ``genial play``'s ``hint``): the move's text, its rack slot and how to lay it."""
    move = choice.move
    out: dict[str, Any] = {
        "move": str(move),
        "text": tr("Hint: {move}").format(move=choice.describe().strip()),
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
    back = DIRECTION_OF[1 - delta[:, 0], 1 - delta[:, 1]].tolist() if first == second else None
    # The notes: one list of texts per distinct (wins, bonus placements) pair.
    kinds = table.wins.astype(np.int64) + 2 * table.bonuses
    distinct, notes = np.unique(kinds, return_inverse=True)
    note_texts = []
    for kind in distinct.tolist():
        texts = [tr("wins the game at once")] if kind & 1 else []
        if kind >> 1:
            texts.append(ntr("Ingenious! {n} bonus tile", "Ingenious! {n} bonus tiles", kind >> 1).format(n=kind >> 1))
        note_texts.append(texts)
    return {
        "tile": str(tile),
        "slot": slot,
        "colors": [first, second],
        "moves": table.moves,
        "cells": cells.reshape(-1).tolist(),
        "toward": DIRECTION_OF[delta[:, 0] + 1, delta[:, 1] + 1].tolist(),
        "back": back,
        "points": points.reshape(-1).tolist(),
        "bonus": table.bonuses.tolist(),
        "notes": notes.reshape(-1).tolist(),
        "note_texts": note_texts,
    }


# ----- seats and tracks -----------------------------------------------------------------------


def seat_public(table: Table, i: int) -> dict[str, Any]:
    """One seat as everyone may see it: kind, name, role text, team, presence."""
    s = table.seats[i]
    rules = table.game.rules
    out: dict[str, Any] = {"seat": i, "kind": s["kind"], "name": s["name"]}
    team = rules.team_of(i)
    out["team"] = None if team is None else tr("Team {letter}").format(letter="AB"[team])
    out["track_index"] = rules.track_of(i)
    if s["kind"] == "bot":
        out["label"] = s["label"]
        out["role"] = tr("bot · {label}").format(label=s["label"])
    else:
        out["online"] = table.present(i)
        out["joined"] = table.tokens[i] is not None  # the seat's invite was claimed
        out["vacant"] = table.vacant(i)  # its holder left: any player may hand it on
        out["away_s"] = round(table.away_for(i)) if out["joined"] else None
        # Seconds until another player may hand the seat on (0: now; None: only its holder).
        wait = table.hand_on_in(i)
        out["hand_on_in_s"] = None if wait is None else round(wait)
        out["role"] = tr("online") if out["online"] else tr("left") if out["vacant"] else tr("away")
    return out


def scoring(rules: Rules, names: Sequence[str]) -> str:
    """What the scores mean, in one sentence or two (from the core's facts of the rules)."""
    if rules.scored_alone:
        return tr("Each colour scores 0 to {max}; your result is your lowest colour.").format(max=rules.track_max)
    if rules.shared_track:
        seats = rules.seats_of_track(0)
        return tr(
            "One marker per colour between {left} (left) and {right} (right): points push it toward the side "
            "of the player who scores. Most markers on one's side wins; on a tie, the side whose nearest "
            "marker stands farther from the middle."
        ).format(left=names[seats[-1]], right=names[seats[0]])
    if rules.sides < rules.players:
        text = tr(
            "Each colour scores 0 to {max}. The lowest colour ranks each team: the higher lowest wins, and on "
            "a tie the next lowest decides."
        )
    else:
        text = tr(
            "Each colour scores 0 to {max}. The lowest colour ranks each player: the higher lowest wins, and "
            "on a tie the next lowest decides."
        )
    return text.format(max=rules.track_max)


def track_views(
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
            title = tr("Team {letter} · {names}").format(letter="AB"[t], names=" & ".join(names[s] for s in seats))
        else:
            title = names[seats[0]]
        lowest = min(values)
        tokens = []
        if rules.shared_track:
            for holder in game.duel_tokens:
                side = None if holder is None else ("left" if holder == seats[-1] else "right")
                title = "" if holder is None else tr("token of {name}").format(name=names[holder])
                tokens.append({"side": side, "title": title})
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


# ----- what a seat sees ----------------------------------------------------------------------------


def _status(table: Table, names: Sequence[str], seats: Sequence[dict[str, Any]], viewer: int | None) -> dict[str, str]:
    game = table.game
    if table.over:
        return {"kind": "over", "text": tr("Game over. {summary}").format(summary=ending(table)["summary"])}
    current = game.current_player
    phase = game.phase
    if viewer is not None and viewer == current:
        if phase == "bonus":
            more = game.pending_bonuses
            if more:
                text = ntr(
                    "Ingenious! Place a bonus tile ({n} more after this)",
                    "Ingenious! Place a bonus tile ({n} more after this)",
                    more,
                ).format(n=more)
            else:
                text = tr("Ingenious! Place a bonus tile")
            return {"kind": "bonus", "text": text}
        if phase == "swap_offer":
            why = _swap_why(game, viewer)
            return {"kind": "swap", "text": tr("You may swap your whole rack for new tiles: {why}").format(why=why)}
        # With several people in the game (pass and play), say whose turn it is.
        if sum(s["kind"] == "human" for s in seats) > 1:
            return {
                "kind": "mine",
                "text": tr("Your turn, {name}: pick a tile and place it").format(name=names[current]),
            }
        return {"kind": "mine", "text": tr("Your turn: pick a tile and place it")}
    who = seats[current]
    if who["kind"] == "bot":
        return {"kind": "wait", "text": tr("{name} is thinking…").format(name=names[current])}
    # A swap offer is the mover's own business: it says that no tile of theirs shows their
    # lowest colour, which the table would not learn. To the others it is still their turn.
    if phase == "bonus":
        return {"kind": "wait", "text": tr("Waiting: {name} plays a bonus tile").format(name=names[current])}
    return {"kind": "wait", "text": tr("Waiting: {name} is placing").format(name=names[current])}


def _swap_why(game: Game, seat: int) -> str:
    """Why the seat may swap: none of its tiles shows a colour its swap rule looks at (the
    core's `Game.swap_colors`)."""
    colors = [int(c) for c in game.swap_colors(seat)]
    rules = game.rules
    names = colour_list(colors)
    if rules.shared_track:
        if len(colors) == 1:
            text = tr("none of your tiles shows the colour at {max} on your side ({colors})")
        else:
            text = tr("none of your tiles shows any colour at {max} on your side ({colors})")
        return text.format(max=rules.track_max, colors=names)
    if len(colors) == 1:
        return tr("none of your tiles shows your lowest colour ({colors})").format(colors=names)
    return tr("none of your tiles shows any of your lowest colours ({colors})").format(colors=names)


def _table_text(table: Table) -> str:
    away_m, clock_m = round(table.away_s / 60), round(table.clock_s / 60)
    away = (
        tr("a seat is never handed on for being away")
        if table.away_s <= 0
        else ntr(
            "a seat may be handed on after {n} minute away", "a seat may be handed on after {n} minutes away", away_m
        ).format(n=away_m)
    )
    clock = (
        tr("no clock")
        if table.clock_s <= 0
        else ntr("clock: {n} minute each", "clock: {n} minutes each", clock_m).format(n=clock_m)
    )
    return tr("At this table {away}; {clock}.").format(away=away, clock=clock)


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
        "title": f"{_variant_title(gv.variant)} · {_players(gv.players)}",
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
        "track_views": track_views(g, names, seat, over=over, ranks=ranks if over else None),
        "scoring": scoring(g.rules, names),
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
            log_entry(e, names)
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
            "text": ntr(
                "{n} minute each; a player whose time runs out loses",
                "{n} minutes each; a player whose time runs out loses",
                round(table.clock_s / 60),
            ).format(n=round(table.clock_s / 60)),
        },
    }
    if seat is not None and table.inherited(seat):
        out["inherited"] = tr(
            "Someone else held this seat before you and saw its rack: the game had begun, so it could not be "
            "dealt anew."
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
        out["rack_labels"] = [tile_label(current(), int(t.colors[0]), int(t.colors[1])) for t in rack]
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
        tr(tag)
        if (tag := _RULE_OPTION_TAGS.get(o["name"], {}).get(str(value)))
        else f"{o['name']}: {value}".replace("_", " ")
        for o in Rules.options()
        if (value := table.rules.option(o["name"])) != o["default"]
    ]
    if table.over:
        status = tr("finished · {summary}").format(summary=ending(table)["summary"])
    else:
        name = names[g.current_player]
        if g.phase == "bonus":
            status = tr("move {n} · {name}, bonus placement").format(n=len(table.log) + 1, name=name)
        else:
            status = tr("move {n} · {name} to place").format(n=len(table.log) + 1, name=name)
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


def tile_of(game: Game, seat: int, *, tile: str | None, slot: str | None) -> tuple[Tile, int]:
    """The rack tile a request names, by slot (``slot=2``) or text (``tile=RB``)."""
    rack = game.rack(seat)
    if slot is not None:
        if not (slot.isascii() and slot.isdigit()) or not 0 <= int(slot[:3]) < len(rack):
            raise ValueError(tr("slot must be a rack slot 0..{last}").format(last=len(rack) - 1))
        return rack[int(slot)], int(slot)
    if not tile:
        raise ValueError(tr("name a tile of your rack: ?slot=0 (or ?tile=RB)"))
    parsed = Tile.parse(tile)
    if parsed not in rack:
        raise ValueError(tr("tile {tile} is not in your rack").format(tile=parsed))
    return parsed, rack.index(parsed)

"""What the pages that look at games are sent: a record's replay, a finished review, and
the analysis board's position with its candidate moves. Built from the core's facts as the
live game's payloads are (`views`); no rack is shown but the mover's on the analysis board.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._core import Move
from ..game import Game
from ..position import write_position
from ..render import explain_ranking
from ..translation import current, decimal, mark, ntr, tr
from .endings import game_ending
from .views import entry, frame, log_entry, scoring, track_views
from .words import players, tile_label, variant_title

__all__ = ["INFORMATION_NOTE", "analysis", "explained", "replay", "review"]


def replay(start: Game, game: Game, entries: list[dict[str, Any]], names: Any) -> dict[str, Any]:
    """``POST /api/replay``: every move with who played it and what it scored, the tracks
    after each move as the page draws them, and the end (all from the core). No rack.
    ``start``: the game before its first move (it is played on); ``game``: at its end."""
    if not (isinstance(names, list) and len(names) == game.players and all(isinstance(n, str) for n in names)):
        names = [tr("Seat {n}").format(n=i + 1) for i in range(game.players)]
    names = [n[:40] for n in names]
    frames = []
    for i in range(len(entries) + 1):
        last = entries[i - 1] if i > 0 else None
        if last is not None:
            start.play(last["move"])
        over = i == len(entries) and game.is_over
        f = frame(start)
        f["track_views"] = track_views(
            start,
            names,
            None if last is None else last["seat"],
            over=over,
            ranks=list(start.ranks()) if over else None,
            gains=(last["seat"], last["gains"]) if last is not None and "gains" in last else None,
        )
        frames.append(f)
    seed = game.seed
    title = tr("Replay · {variant}, {players}").format(
        variant=variant_title(game.variant), players=players(game.players)
    )
    return {
        "variant": game.variant,
        "title": title + (tr(" · seed {seed}").format(seed=seed) if seed is not None else ""),
        "players": game.players,
        "rules": game.rules.to_text(),
        "swap_timing": game.swap_timing,
        "require_contact": game.require_contact,
        "seed": None if seed is None else str(seed),
        "radius": game.board.radius,
        "track_max": game.track_max,
        "scoring": scoring(game.rules, names),
        "names": names,
        "log": [log_entry(e, names) for e in entries],
        "frames": frames,
        "over": game.is_over,
        "end": game.end,
        "ranking": game.ranking() if game.is_over else None,
        "explanation": explain_ranking(game) if game.is_over else None,
        "ending": game_ending(game, names) if game.is_over else None,
    }


# ----- reviews and the analysis board ------------------------------------------------------------

#: What the review and the analysis board say about hidden information.
INFORMATION_NOTE = mark(
    "Each decision is judged from the mover's information only: the board, the tracks and the "
    "mover's own rack. The other racks and the bag are dealt anew in every search iteration, so "
    "the verdicts never use a tile the mover could not see."
)


def _class_texts() -> list[dict[str, Any]]:
    """Each class of a decision with its limit (`genial.reviews.LOSS_LIMITS`) in words."""
    from ..reviews import CLASSES, LOSS_LIMITS, class_title

    out = []
    for c in CLASSES:
        limit = LOSS_LIMITS.get(c)
        if limit is not None:
            if c == "best":
                text = tr("lost less than {percent} win chance beyond the search's noise (or the engine's own choice)")
            else:
                text = tr("lost less than {percent} win chance beyond the search's noise")
            text = text.format(percent=_pct(limit))
        else:
            text = tr("lost {percent} win chance or more beyond the search's noise").format(
                percent=_pct(max(LOSS_LIMITS.values()))
            )
        out.append({"name": c, "title": class_title(c), "text": text, "limit": limit})
    return out


def _pct(x: float) -> str:
    return tr("{percent}%").format(percent=f"{100 * x:.0f}")


def _decision_text(name: str, move: Move, d: Any) -> str:
    before, after = _pct(d.win_before), _pct(d.win_after)
    if d.best == move:
        return tr("{name} played {move} ({before} → {after})").format(name=name, move=move, before=before, after=after)
    return tr("{name} played {move} ({before} → {after}); best was {best} ({win})").format(
        name=name, move=move, before=before, after=after, best=d.best, win=_pct(d.best_win)
    )


#: The analysis board's phases of the mover's turn.
_PHASES = {"place": mark("to place"), "bonus": mark("a bonus placement"), "swap_offer": mark("a swap offer")}


def explained(game: Game, move: Move) -> dict[str, Any]:
    """A placement on ``game`` with its score explained (`Game.explain`) in words: each
    half's lines per direction, each marker's move with the 18 cap and "Ingenious!", and
    the rulebooks' sentences behind them. A swap or keep has no cells and no points."""
    if move.cells is None or move.colors is None:
        text = tr("swap the rack") if move == Move.swap() else tr("keep the rack")
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
        "text": f"{move.colors[0].title} +{e.points[0]}, {move.colors[1].title} +{e.points[1]} = {sum(e.points)}",
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
    from ..reviews import class_title

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
                    # The verdict in words ("forced": the only legal move).
                    "verdict": class_title("forced" if shown.get("forced") else str(shown.get("classification"))),
                    "played": played,
                    "alternative": None if d.best == move else best,
                    "text": _decision_text(names[d.player], move, d),
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
            "text": ntr(
                "average loss {loss} over {n} decision", "average loss {loss} over {n} decisions", s.decisions
            ).format(loss=tr("{percent}%").format(percent=decimal(100 * s.average_loss, 1)), n=s.decisions),
            "counts": s.counts,
        }
        for s in r.summary
    ]
    return {
        "title": tr("Review · {variant}, {players}").format(
            variant=variant_title(game.variant), players=players(game.players)
        ),
        "level": r.level,
        "iterations": r.iterations,
        "players": game.players,
        "names": names,
        "radius": game.board.radius,
        "total": len(game.moves),
        "note": tr(INFORMATION_NOTE),
        "classes": _class_texts(),
        "log": [log_entry(e, names) for e in log],
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
        "title": tr("Analysis · {variant}, {players}").format(
            variant=variant_title(game.variant), players=players(game.players)
        ),
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
        "track_views": track_views(
            game, names, mover, over=game.is_over, ranks=list(game.ranks()) if game.is_over else None
        ),
        "scoring": scoring(game.rules, names),
        "over": game.is_over,
        "line": [log_entry(e, names) for e in line],
        "note": tr(INFORMATION_NOTE),
        "candidates": [],
        "expected": [],
        "played": None,
    }
    if game.is_over:
        out["status"] = game_ending(game, names)["summary"]
        return out
    rack = game.rack(mover)
    phase = tr(_PHASES[game.phase]) if game.phase in _PHASES else game.phase
    out |= {
        "mover": mover,
        "who": names[mover],
        "phase": game.phase,
        "status": tr("{name} to move: {phase}").format(name=names[mover], phase=phase),
        "rack": [[int(c) for c in t.colors] for t in rack],
        "rack_labels": [tile_label(current(), int(t.colors[0]), int(t.colors[1])) for t in rack],
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

"""Game review: every decision of a game judged by the levels' search.

For each decision the review gives the mover's win chance before the move (the analysis's
chance) and after the move played, the engine's choice with its win chance and points, the
loss of win chance with its noise, and a class (`CLASSES`, `LOSS_LIMITS`). A per-player
summary and a win-chance series for every seat complete it.

**One comparison.** The engine's choice is the first candidate of one search of the
decision: exactly what `genial.analyse` shows with the review's level, budget and seed, so
a player who follows it is always graded "best". When another move was played, the engine's
first two choices and the move played are then searched side by side over the same sampled
deals (common random numbers), each with half the budget. The reference (`Decision.best`)
is the engine's choice, or its second choice when that did better on those deals; the loss
is the reference's value minus the move played's, and its **noise** is `NOISE_Z` (2.58)
standard errors of that difference, measured from the per-deal differences
(`Decision.noise`). A class needs a loss beyond the noise: a decision is classed by
``loss - noise`` (the low end of the loss's interval), so a move the search cannot tell
from its own choice is "best" (`Decision.within_noise`).

**What a chance means.** The chance before a decision is the one `genial.analyse` shows for
its first choice, through the level's chance map (the core's ``calibration`` module: the
`expert` search of the standard two-player game is mapped to match measured results; other
searches are shown as they are), and the chance after another move is that less the
compared difference, so that before minus after is the loss. The comparison's own values
are not shown: they run high (the reference is the better of two noisy values).

**No hidden information.** Each decision is searched from the mover's information set,
exactly as `genial.analyse` does: the board, every track, the mover's own rack and the
counts are kept, and what the mover could not see (the other racks, the order of the bag)
is dealt anew in every search iteration. The real hidden tiles never change a review.

**Deterministic.** Every decision is searched with the review's ``seed`` (the seed
`genial.analyse` would be given): the same game, level and seed give the same review on any
machine, and a decision's review does not depend on which others were reviewed.

>>> import genial
>>> game = genial.Game(players=2, seed=3)
>>> for _ in range(4):
...     _ = game.play(game.legal_moves()[0])
>>> r = genial.review(game, iterations=40, seed=1)
>>> [d.classification in genial.reviews.CLASSES for d in r.decisions]
[True, True, True, True]
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import _core
from ._core import Move, Rules
from .analysis import CandidateMove
from .arguments import LIMITS, int_in
from .game import Game, check_seed
from .translation import decimal, mark, ntr, tr


def searching_levels() -> list[str]:
    """The levels a review (or an analysis) can search like, from the bot catalogue."""
    from .bots import catalogue

    return [b.name for b in catalogue() if b.level and b.searches]


__all__ = [
    "CLASSES",
    "class_title",
    "LOSS_LIMITS",
    "FORMAT",
    "NOISE_Z",
    "VERSION",
    "Decision",
    "PlayerSummary",
    "Review",
    "classify",
    "review",
]

FORMAT = "genial.review"
#: Version 3: the search's values shown through the level's chance map (`genial.analyse`'s
#: chances); ``win_before`` the search's chance, ``win_after`` that less the compared
#: difference. Version 2: one comparison per decision, every decision searched with the
#: review's seed, and each decision's ``noise``. Reviews of versions 1 (two searches, no noise: ``noise`` ``None``) and 2
#: still read, but are never resumed or taken from a cache.
VERSION = 3
#: The versions `Review.from_dict` reads.
READS = (1, 2, 3)
#: The noise of a loss is this many standard errors of the compared difference (about
#: 99 %: a review makes some 40 verdicts a game, and at 95 % two of them would be named a
#: class higher by chance alone). The core's ``review::NOISE_Z``.
NOISE_Z: float = _core.REVIEW_NOISE_Z

#: The classes of a decision, best first.
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")

# The classes' names as a player reads them (`class_title`); the names above are data.
_CLASS_TITLES = {
    "best": mark("best"),
    "good": mark("good"),
    "inaccuracy": mark("inaccuracy"),
    "mistake": mark("mistake"),
    "blunder": mark("blunder"),
    "forced": mark("forced"),
}


def class_title(name: str) -> str:
    """A decision's class (`CLASSES`, or ``"forced"``: the only legal move) in the language
    in use (`genial.translation`)."""
    return tr(_CLASS_TITLES[name]) if name in _CLASS_TITLES else name


#: A decision falls in the first class whose limit its loss of win chance beyond the noise
#: is below (loss = the reference's win chance minus the move played's, 0..1, from
#: one comparison; the noise is subtracted first); 0.20 or more is a blunder. The engine's
#: own choice is always "best".
LOSS_LIMITS: Mapping[str, float] = {"best": 0.01, "good": 0.04, "inaccuracy": 0.10, "mistake": 0.20}

#: Progress callback: ``(decisions done, decisions in all, the decision just reviewed)``.
Progress = Callable[[int, int, "Decision"], None]


def classify(loss: float, engine_choice: bool = False, noise: float = 0.0) -> str:
    """The class of a decision that lost ``loss`` of win chance, measured with ``noise``
    (half the width of its interval): the class of ``loss - noise`` (`LOSS_LIMITS`)."""
    if engine_choice:
        return "best"
    beyond = max(0.0, loss - noise)
    for name, limit in LOSS_LIMITS.items():
        if beyond < limit:
            return name
    return "blunder"


@dataclass(frozen=True)
class Decision:
    """One decision of the game and what the search thinks of it."""

    #: Index of the move in the game's history.
    ply: int
    player: int
    #: ``"place"``, ``"bonus"`` or ``"swap_offer"``.
    phase: str
    move: Move
    #: The only legal move: nothing to choose (not classified into the summary).
    forced: bool
    #: The mover's win chance before the move: the search's first candidate's, as
    #: `genial.analyse` shows it (version 2 and older: the better of two compared values).
    win_before: float
    #: The mover's win chance after the move played: ``win_before`` less the compared
    #: difference (within 0 and 1; version 2 and older: the compared value).
    win_after: float
    #: ``best``'s value minus the move played's, from one comparison over the same deals,
    #: at least 0 (0 for the engine's own choice); ``win_before - win_after`` unless that
    #: was cut at 0 or 1.
    loss: float
    classification: str
    #: The engine's choice: the search's first candidate (what `genial.analyse` with the
    #: review's level, budget and seed shows first), or its second choice when the
    #: comparison found that better than the first.
    best: Move
    #: The win chance best play keeps: ``win_before`` (version 2 and older: ``best``'s
    #: compared value).
    best_win: float
    #: Points of each half of the move played and of the best move (``None`` for swap/keep).
    points: tuple[int, int] | None
    best_points: tuple[int, int] | None
    #: The search's candidates, best first.
    candidates: tuple[CandidateMove, ...]
    #: Every seat's win chance before the move, as the mover saw the position.
    seats: tuple[float, ...]
    #: Half the width of the loss's interval: `NOISE_Z` standard errors of the compared
    #: difference (0 for the engine's choice or a forced move; ``None`` in a version 1
    #: review, which measured none).
    noise: float | None = None

    @property
    def within_noise(self) -> bool:
        """Whether the loss is no larger than its noise: the search could not tell the move
        played from its own choice (always for the engine's choice)."""
        return self.noise is not None and self.loss <= self.noise

    def to_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "player": self.player,
            "phase": self.phase,
            "move": str(self.move),
            "forced": self.forced,
            "win_before": self.win_before,
            "win_after": self.win_after,
            "loss": self.loss,
            "classification": self.classification,
            "best": str(self.best),
            "best_win": self.best_win,
            "points": list(self.points) if self.points else None,
            "best_points": list(self.best_points) if self.best_points else None,
            "candidates": [
                {
                    "move": str(c.move),
                    "win": c.win_probability,
                    "visits": c.visits,
                    "prior": c.prior,
                    "line": [str(m) for m in c.line],
                }
                for c in self.candidates
            ],
            "seats": list(self.seats),
            "noise": self.noise,
            "within_noise": self.within_noise,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Decision:
        def pts(x: Any) -> tuple[int, int] | None:
            return None if x is None else (int(x[0]), int(x[1]))

        return cls(
            ply=int(d["ply"]),
            player=int(d["player"]),
            phase=str(d["phase"]),
            move=Move.parse(d["move"]),
            forced=bool(d["forced"]),
            win_before=_chance(d["win_before"], "win_before"),
            win_after=_chance(d["win_after"], "win_after"),
            loss=_number(d["loss"], "loss", bound=1.0),
            classification=str(d["classification"]),
            best=Move.parse(d["best"]),
            best_win=_chance(d["best_win"], "best_win"),
            points=pts(d["points"]),
            best_points=pts(d["best_points"]),
            candidates=tuple(
                CandidateMove(
                    move=Move.parse(c["move"]),
                    win_probability=_chance(c["win"], "candidates.win"),
                    visits=int(c["visits"]),
                    prior=_number(c["prior"], "candidates.prior"),
                    line=tuple(Move.parse(m) for m in c["line"]),
                )
                for c in d["candidates"]
            ),
            seats=tuple(_chance(x, "seats") for x in d["seats"]),
            noise=None if d.get("noise") is None else _number(d["noise"], "noise"),
        )


def _number(value: Any, name: str, bound: float = math.inf) -> float:
    """A finite number read from a review's JSON (not a string, not ``true``), within
    ``-bound .. bound``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"the field {name!r} is {value!r}, not a finite number")
    if abs(value) > bound:
        raise ValueError(f"the field {name!r} is {value!r}, out of -{bound:g}..{bound:g}")
    return float(value)


def _chance(value: Any, name: str) -> float:
    """A win chance read from a review's JSON: a number in 0..1 (``nan``, ``1e308`` refused)."""
    x = _number(value, name)
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"the field {name!r} is {value!r}, not a chance between 0 and 1")
    return x


def _decision(index: int, d: Any) -> Decision:
    """Decision ``index`` of a review's JSON; errors name it (``decisions[3].win_before``)."""
    try:
        return Decision.from_dict(d)
    except KeyError as e:
        raise ValueError(f"the field 'decisions[{index}].{e.args[0]}' is missing") from None
    except (TypeError, ValueError, IndexError, AttributeError) as e:
        text = str(e).replace("the field '", f"the field 'decisions[{index}].", 1)
        raise ValueError(text if text != str(e) else f"decisions[{index}]: {e}") from None


@dataclass(frozen=True)
class PlayerSummary:
    """One seat's decisions in short."""

    player: int
    #: Decisions with a choice (forced moves are left out).
    decisions: int
    #: Mean loss of win chance over those decisions.
    average_loss: float
    #: Decisions per class, every class listed.
    counts: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Review:
    """The review of a game (`review`)."""

    level: str
    #: The search budget per decision (``None``: the level's own).
    iterations: int | None
    seed: int
    players: int
    #: Every move of the game, in order.
    moves: tuple[Move, ...]
    decisions: tuple[Decision, ...]
    #: Win chance of every seat before each decision, then at the end of the moves (one
    #: row more; a partial review has no last row).
    series: tuple[tuple[float, ...], ...]
    #: Every decision of ``moves`` reviewed (``False``: an interrupted review, see
    #: `Review.partial`).
    complete: bool = True
    #: The rule set the moves were played under, as its text form (`Rules.to_text`);
    #: ``None`` in a review written before reviews kept it.
    rules: str | None = None
    #: The format version it was made in (`VERSION`; 1: two searches per decision, no
    #: noise measured; 2: the search's values unmapped, ``win_before`` the better of two).
    version: int = VERSION

    @classmethod
    def partial(cls, game: Game, level: str, iterations: int | None, seed: int, decisions: list[Decision]) -> Review:
        """The decisions reviewed so far of an interrupted review: pass it as ``resume``
        to `review` to go on from there."""
        return cls(
            level=level,
            iterations=iterations,
            seed=seed,
            players=game.players,
            moves=tuple(game.moves),
            decisions=tuple(decisions),
            series=tuple(d.seats for d in decisions),
            complete=False,
            rules=game.rules.to_text(),
        )

    @property
    def summary(self) -> tuple[PlayerSummary, ...]:
        """Per seat: decisions with a choice, mean loss of win chance, counts per class."""
        out = []
        for p in range(self.players):
            mine = [d for d in self.decisions if d.player == p and not d.forced]
            counts = {c: sum(d.classification == c for d in mine) for c in CLASSES}
            avg = sum(d.loss for d in mine) / len(mine) if mine else 0.0
            out.append(PlayerSummary(player=p, decisions=len(mine), average_loss=avg, counts=counts))
        return tuple(out)

    def worst(self, player: int | None = None) -> Decision | None:
        """The decision that lost the most win chance (of ``player``, or of anyone)."""
        pool = [d for d in self.decisions if not d.forced and (player is None or d.player == player)]
        return max(pool, key=lambda d: (d.loss, -d.ply)) if pool else None

    def to_dict(self) -> dict[str, Any]:
        """The review's JSON form: the record format's optional ``review`` section."""
        return {
            "format": FORMAT,
            "version": self.version,
            "level": self.level,
            "iterations": self.iterations,
            "seed": self.seed,
            "players": self.players,
            "rules": self.rules,
            "complete": self.complete,
            "moves": [str(m) for m in self.moves],
            "classes": list(CLASSES),
            "loss_limits": dict(LOSS_LIMITS),
            "noise_z": NOISE_Z,
            "decisions": [d.to_dict() for d in self.decisions],
            "series": [list(row) for row in self.series],
            "summary": [
                {"player": s.player, "decisions": s.decisions, "average_loss": s.average_loss, "counts": s.counts}
                for s in self.summary
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], game: Game | None = None) -> Review:
        """Reads a review's JSON form; with ``game``, checks that it reviews that game's
        moves. Raises `genial.records.RecordError` naming what is wrong."""
        from .records import RecordError

        if not isinstance(data, Mapping):
            raise RecordError(f"a review is a JSON object, not {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise RecordError(f"review format is {data.get('format')!r}, expected {FORMAT!r}")
        if data.get("version") not in READS:
            raise RecordError(
                f"review version {data.get('version')!r} is not supported (this genial reads versions"
                f" {', '.join(map(str, READS))})"
            )
        try:
            r = cls(
                level=str(data["level"]),
                iterations=None if data["iterations"] is None else int(data["iterations"]),
                seed=int(data["seed"]),
                players=int(data["players"]),
                moves=tuple(Move.parse(m) for m in data["moves"]),
                decisions=tuple(_decision(i, d) for i, d in enumerate(data["decisions"])),
                series=tuple(tuple(_chance(x, f"series[{i}]") for x in row) for i, row in enumerate(data["series"])),
                complete=bool(data.get("complete", True)),
                rules=None if data.get("rules") is None else Rules.from_text(data["rules"]).to_text(),
                version=int(data["version"]),
            )
        except KeyError as e:
            raise RecordError(f"review cannot be read: the field {e} is missing") from None
        except (TypeError, ValueError, IndexError, AttributeError) as e:
            raise RecordError(f"review cannot be read: {e}") from None
        if game is not None and tuple(str(m) for m in r.moves) != tuple(str(m) for m in game.moves):
            raise RecordError("the review is of other moves than the record's")
        if game is not None and r.rules is not None and r.rules != game.rules.to_text():
            raise RecordError(f"the review is of a game under other rules ({r.rules})")
        return r

    def to_pandas(self) -> Any:
        """A `pandas.DataFrame` with one row per decision (needs pandas)."""
        try:
            pd = importlib.import_module("pandas")
        except ImportError:
            raise ImportError("Review.to_pandas needs pandas: pip install pandas") from None
        rows = []
        for d in self.decisions:
            rows.append(
                {
                    "ply": d.ply,
                    "player": d.player,
                    "phase": d.phase,
                    "move": str(d.move),
                    "forced": d.forced,
                    "win_before": d.win_before,
                    "win_after": d.win_after,
                    "loss": d.loss,
                    "noise": d.noise,
                    "classification": d.classification,
                    "best": str(d.best),
                    "best_win": d.best_win,
                    "points": sum(d.points) if d.points else None,
                    "best_points": sum(d.best_points) if d.best_points else None,
                }
            )
        return pd.DataFrame(rows)

    def to_svg(self, width: float = 640, height: float = 220, names: Sequence[str] | None = None) -> str:
        """The win-chance graph of every seat (`genial.svg.win_chance_svg`), its legend
        naming the seats by ``names`` when given."""
        from .svg import win_chance_svg

        return win_chance_svg(self, width, height, names)

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def __str__(self) -> str:
        n = len(self.decisions)
        lines = [
            ntr(
                "review at {level} level, seed {seed}: {n} decision",
                "review at {level} level, seed {seed}: {n} decisions",
                n,
            ).format(level=self.level, seed=self.seed, n=n)
        ]
        for d in self.decisions:
            tag = class_title("forced" if d.forced else d.classification)
            alt = ""
            if d.best != d.move:
                alt = "  " + tr("best {move} {percent}%").format(move=d.best, percent=f"{100 * d.best_win:.0f}")
            noise = ""
            if d.noise and d.best != d.move:
                noise = " " + tr("(loss {loss}% ±{noise})").format(
                    loss=f"{100 * d.loss:.0f}", noise=f"{100 * d.noise:.0f}"
                )
            lines.append(
                f"{d.ply:3d}. P{d.player} {d.move!s:<14} {100 * d.win_before:3.0f}% → {100 * d.win_after:3.0f}%"
                f"  {tag}{noise}{alt}"
            )
        for s in self.summary:
            # "class: count", which needs no agreement of the class's name with the number.
            counts = ", ".join(f"{class_title(c)}: {n}" for c, n in s.counts.items() if n)
            lines.append(
                tr("player {seat}: average loss {percent}%  ({counts})").format(
                    seat=s.player, percent=decimal(100 * s.average_loss, 1), counts=counts or tr("no decision")
                )
            )
        return "\n".join(lines)


def _points(game: Game, move: Move) -> tuple[int, int] | None:
    return game.explain(move).points if move.is_placement else None


def _start_of(game: Game) -> Game:
    """The game at its start: the same rules, seed and deal."""
    from .records import from_record, start_record, to_record

    return from_record(start_record(to_record(game)))


def review(
    game: Game | Mapping[str, Any],
    level: str = "expert",
    *,
    iterations: int | None = None,
    seed: int = 0,
    progress: Progress | None = None,
    plies: range | None = None,
    resume: Review | None = None,
) -> Review:
    """Reviews every decision of ``game`` (a `Game`, finished or not, or a record dict).

    Each decision is searched like ``level`` (one of `searching_levels()`; ``iterations``
    replaces its budget) from the mover's view only, never from the real hidden racks, with
    ``seed``: deterministic for a seed, and the engine's choice is what
    ``genial.analyse(position, iterations=iterations, seed=seed, level=level)`` ranks first.
    A move played other than that choice is compared with it over the same sampled deals
    (module docs).
    ``progress(done, total, decision)`` is called after each decision; Ctrl-C stops the
    review. ``plies`` restricts the review to some decisions (the others are not searched
    and the series covers the reviewed ones). ``resume``: a review (partial or not) of the
    same moves with the same level, budget and seed, whose decisions are taken as they
    are instead of being searched again.
    """
    from .records import from_record

    if isinstance(game, Mapping):
        game = from_record(game)
    if not isinstance(game, Game):
        raise TypeError(f"review looks at a genial.Game or a record dict, not {type(game).__name__}")
    searching = searching_levels()
    if level not in searching:
        raise ValueError(f"a review searches like the {' or '.join(searching)} level, not {level!r}")
    if iterations is not None:
        iterations = int_in("iterations", iterations, 1, LIMITS["iterations"])
    seed = check_seed(seed)
    moves = game.moves
    wanted = range(len(moves)) if plies is None else plies
    board = _start_of(game)
    decisions: list[Decision] = []
    total = len(wanted)
    known: dict[int, Decision] = {}
    if resume is not None:
        if (resume.level, resume.iterations, resume.seed) != (level, iterations, seed):
            raise ValueError("resume holds a review made with another level, budget or seed")
        if resume.version != VERSION:
            raise ValueError(f"resume holds a review of format version {resume.version}: review the game again")
        if [str(m) for m in resume.moves[: len(moves)]] != [str(m) for m in moves[: len(resume.moves)]]:
            raise ValueError("resume holds a review of other moves")
        known = {d.ply: d for d in resume.decisions if d.ply < len(moves)}
    for ply, move in enumerate(moves):
        if ply in known and ply in wanted:
            decisions.append(known[ply])
            if progress is not None:
                progress(len(decisions), total, known[ply])
        elif ply in wanted:
            mover = board.current_player
            rows, best_move, best_win, played_value, difference, noise, seats, legal = _core.review_decision(
                board._state, move, seed, iterations, level
            )
            cands = tuple(
                CandidateMove(move=m, win_probability=float(v), visits=int(n), prior=float(p), line=tuple(line))
                for m, n, v, p, line in rows
            )
            engine_choice = best_move == move
            loss = max(0.0, float(difference))
            decisions.append(
                Decision(
                    ply=ply,
                    player=mover,
                    phase=board.phase,
                    move=move,
                    forced=legal <= 1,
                    win_before=float(best_win),
                    win_after=float(played_value),
                    loss=loss,
                    classification=classify(loss, engine_choice or legal <= 1, float(noise)),
                    best=best_move,
                    best_win=float(best_win),
                    points=_points(board, move),
                    best_points=_points(board, best_move),
                    candidates=cands,
                    seats=tuple(float(x) for x in seats),
                    noise=float(noise),
                )
            )
            if progress is not None:
                progress(len(decisions), total, decisions[-1])
        board.play(move)
    series = [d.seats for d in decisions]
    observer = board.current_player if not board.is_over else 0
    final = tuple(float(x) for x in _core.win_probabilities(board._state, observer))
    series.append(final)
    assert all(len(row) == game.players and all(math.isfinite(x) for x in row) for row in series)
    return Review(
        level=level,
        iterations=iterations,
        seed=seed,
        players=game.players,
        moves=tuple(moves),
        decisions=tuple(decisions),
        series=tuple(series),
        rules=game.rules.to_text(),
    )

"""Analysis for people: what the strongest level thinks of the decision in front of the
player to move.

`analyse` runs the levels' search (information-set MCTS guided by the fitted evaluation)
from the view of the seat to move: what that seat cannot see (the other racks, the order
of the bag) is dealt anew in every iteration, so the answer never depends on hidden tiles.

>>> import genial
>>> game = genial.Game(players=2, seed=4)
>>> a = genial.analyse(game, iterations=60, seed=1)
>>> a.best.move in game.legal_moves()
True
>>> 0.0 <= a.best.win_probability <= 1.0
True
"""

from __future__ import annotations

from dataclasses import dataclass

from . import _core
from ._core import Move, Rules
from .arguments import LIMITS, int_in
from .game import Game, check_seed, core_state
from .view import GameView

__all__ = ["analyse", "Analysis", "CandidateMove", "chance_map", "evaluate"]


@dataclass(frozen=True)
class CandidateMove:
    """One move of the player to move, as the search saw it."""

    move: Move
    #: The estimated chance that the player to move wins after this move (team game: the
    #: team's; solo: the expected lowest marker ÷ 36): the search's value, shown through
    #: the level's chance map where one was measured (`chance_map`).
    win_probability: float
    #: Search iterations that went through the move (the search's confidence).
    visits: int
    #: The evaluation's score of the move before searching (higher is better).
    prior: float
    #: The expected continuation after the move: the most visited replies, every seat's.
    line: tuple[Move, ...]

    def __str__(self) -> str:
        line = " ".join(str(m) for m in self.line[:4])
        return f"{self.move}  win {100 * self.win_probability:.0f}%  ({self.visits} visits)" + (
            f"  then {line}" if line else ""
        )


@dataclass(frozen=True)
class Analysis:
    """The candidates of one decision, best first (most searched, then highest estimate)."""

    player: int
    iterations: int
    candidates: tuple[CandidateMove, ...]

    @property
    def best(self) -> CandidateMove:
        return self.candidates[0]

    def __str__(self) -> str:
        head = f"player {self.player} to move, {self.iterations} iterations"
        return "\n".join([head] + [f"{i}. {c}" for i, c in enumerate(self.candidates, start=1)])


def analyse(
    game: Game,
    budget_ms: int | None = None,
    *,
    iterations: int | None = None,
    seed: int = 0,
    level: str = "expert",
) -> Analysis:
    """The candidate moves of the player to move with their estimated win probabilities
    and expected lines of play, best first.

    Budget: the ``level``'s iterations by default (``"expert"``, ``"hard"`` or ``"master"``;
    deterministic for a ``seed``), ``iterations`` instead, or ``budget_ms`` milliseconds of
    thinking (then the result depends on the machine's speed and load; with both, whichever
    runs out first). The GIL is released while the search runs. Accepts a `genial.Game` or
    a `genial.bots.GameView` of the seat to move; a view of another seat raises
    `genial.bots.NotYourTurnError`.
    """
    from .bots import catalogue

    seat = None
    if isinstance(game, GameView):
        seat = game.seat
        game = game._game
    if not isinstance(game, Game):
        raise TypeError(f"analyse looks at a genial.Game, not {type(game).__name__}")
    # Checked like every count (numpy ints are ints), against the core's limits.
    if budget_ms is not None:
        budget_ms = int_in("budget_ms", budget_ms, 1, LIMITS["time_ms"])
    if iterations is not None:
        iterations = int_in("iterations", iterations, 1, LIMITS["iterations"])
    searching = [b.name for b in catalogue() if b.level and b.searches]
    if level not in searching:
        raise ValueError(f"analysis searches like the {' or '.join(searching)} level, not {level!r}")
    player = game.current_player
    its, rows = _core.analyse_state(core_state(game), check_seed(seed), iterations, budget_ms, level, seat)
    candidates = tuple(
        CandidateMove(move=m, win_probability=float(v), visits=int(n), prior=float(p), line=tuple(line))
        for m, n, v, p, line in rows
    )
    return Analysis(player=player, iterations=int(its), candidates=candidates)


def chance_map(level: str = "expert", rules: Rules | None = None) -> tuple[float, float, int] | None:
    """How the chances a search like ``level`` shows in a game of ``rules`` (default: the
    standard two-player game) are made from the search's values: ``(a, b, iterations)`` of
    the map ``σ(a·logit(value) + b·√(iterations / n))`` for a search of ``n ≥ iterations``
    iterations (``b`` as it is for fewer), fitted on the results of thousands of held-out
    games, or ``None`` where no map was measured and the values are shown as they are.

    The top move's value is the largest of several noisy estimates, so it runs high, by less
    the longer the search; and the evaluation is timid near the ends. The map corrects both
    where it was measured: the ``expert`` search of the standard two-player game.

    >>> import genial
    >>> genial.analysis.chance_map("expert")
    (1.32, -0.255, 800)
    >>> genial.analysis.chance_map("expert", genial.Rules(players=3)) is None
    True
    """
    return _core.chance_map(level, rules if rules is not None else Rules(players=2))


def evaluate(game: Game | GameView) -> tuple[float, ...]:
    """Each seat's probability of winning, by the learned evaluation of the ``master`` level:
    a pretrained value function.

    Reads only what one seat may see: the seat to move for a `genial.Game`, the view's seat
    for a `genial.bots.GameView`. That seat's own rack counts; every other rack enters only as
    the tiles the seat has not seen, so two games that differ in hidden tiles get the same
    answer. One number per seat, summing to 1 (team game: each partner gets the team's, so
    the numbers sum to 2; solo: the lowest marker ÷ 18 so far). A finished game gets its
    result (1 for the winner, shared ties split).

    >>> import genial
    >>> p = genial.evaluate(genial.Game(players=3, seed=1))
    >>> len(p), round(sum(p), 6)
    (3, 1.0)
    """
    if isinstance(game, GameView):
        seat, game = game.seat, game._game
    elif isinstance(game, Game):
        seat = game.current_player
    else:
        raise TypeError(f"evaluate looks at a genial.Game or a GameView, not {type(game).__name__}")
    return tuple(float(x) for x in _core.evaluate_state(game._state, seat))

"""The evaluation protocol for learned agents: the benchmark every figure of a learned bot
in BENCHMARKS.md follows.

- **Fixed deals that no training uses**: game ``g`` of an evaluation is dealt from
  ``derive_seed(EVALUATION_SEED, g)``; genial's own training (`genial.expert_iteration`)
  plays and watches other streams, so these deals stay unseen.
- **Seats swapped on the same deal**: in the two-player game each deal is played twice,
  the agent in each seat (paired deals: the luck of the draw cancels out); in the
  four-player game the agent plays one seat against three copies of the opponent, each
  deal once from each of the four seats.
- **Against fixed opponents**: ``greedy``, ``medium`` and ``expert`` by default.
- **Wilson intervals**: the agent's share of first places (ties split) with its 95% interval.

>>> from genial.evaluation import evaluate_agent
>>> r = evaluate_agent("greedy", opponents="random", games=20, threads=1)
>>> r["random"].n, r["random"].value > 0.5
(20.0, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .arguments import check_threads, int_in
from .bots import Bot, BuiltinBot, parse_bot, split_bot_specs
from .simulation import Run
from .stats import Rate, Summary
from .variants import as_rules

__all__ = ["EVALUATION_SEED", "DEFAULT_OPPONENTS", "evaluate_agent"]

EVALUATION_SEED = 424_242_424_242
"""The seed of the evaluation's deals (game ``g``: ``derive_seed(EVALUATION_SEED, g)``)."""

DEFAULT_OPPONENTS = "greedy,medium,expert"
"""The protocol's opponents, in the text form that ``--bots`` and ``--opponents`` take."""


def evaluate_agent(
    agent: str | BuiltinBot | Bot,
    opponents: str | Sequence[str] = DEFAULT_OPPONENTS,
    games: int = 1000,
    *,
    players: int = 2,
    seed: int = EVALUATION_SEED,
    threads: int | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Rate]:
    """The agent's share of first places against each opponent, with its 95% Wilson
    interval, over ``games`` games on the evaluation's deals (see the module). ``opponents``:
    bots' text forms, as a list or comma-separated as on the command line. ``agent``: a
    bot's text form (``"policy"``, ``"expert:prior=policy"``, ``"pkg.module:Class"``,
    ``"engine:./my_engine"``), a `BuiltinBot` or any bot with ``choose(view)``.
    ``games`` must be a multiple of the seatings of a deal (2 with two players, 4 with
    four). ``progress(opponent, done, total)`` is called as games finish."""
    if players not in (2, 4):
        raise ValueError(f"the evaluation plays 2- or 4-player games, not {players}")
    games = int_in("games", games, players)
    if games % players:
        raise ValueError(f"games must be a multiple of {players} (every deal from each seat), not {games}")
    check_threads(threads)
    names = split_bot_specs(opponents) if isinstance(opponents, str) else list(opponents)
    if not names:
        raise ValueError("no opponent: name at least one, such as 'greedy'")
    rules = as_rules(None, players=players)
    me = parse_bot(agent) if isinstance(agent, str) else agent
    # The agent (bot 0) in each seat in turn, the opponent (bot 1) in the others.
    lineups = [[0 if s == k else 1 for s in range(players)] for k in range(players)]
    out: dict[str, Rate] = {}
    for name in names:
        opponent = parse_bot(name)
        with Run(rules, [me, opponent], lineups, seed, paired=True, labels=["agent", "opponent"]) as run:
            report = None if progress is None else (lambda done, total, n=name: progress(n, done, total))
            parts = list(run.chunks(0, games, threads, progress=report))
        summary = Summary.of(parts[0])
        for part in parts[1:]:
            summary = summary + Summary.of(part)
        out[name] = summary.bot_rates()["agent"]
    return out

"""How much is moving first worth? A simulation study over every variant and player count.

For each rule set with more than one side (the solo game has none), equal bots play
``--games`` games; the script reports each seat's win rate (ties split) with its 95% Wilson
score interval, and the first player's advantage: seat 0's win rate minus the fair share
``1 / sides``. In the team game the sides are the teams, seats 0+2 against 1+3, so "seat 0"
is team A. The table is printed and a chart is saved as a PNG.

The answer depends on how the seats are played: it is measured here for the bots chosen
with ``--bots`` (greedy by default), not for people.

The chart needs matplotlib: ``pip install "genial-engine[examples]"`` (or ``pip install
matplotlib``).

    python examples/first_player_advantage.py                    # 20,000 games per rule set
    python examples/first_player_advantage.py --games 2000 --bots random --out fpa.png
    python examples/first_player_advantage.py --edition-options  # the older edition's too
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path

import genial
from genial import Rules
from genial.stats import Rate
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure


@dataclass(frozen=True)
class Finding:
    """What one rule set gave."""

    rules: Rules
    games: int
    side_rates: list[Rate]  # win rate of each side, in turn order of their first seats
    advantage: Rate  # seat 0's win rate minus the fair share, with its interval


def label(rules: Rules) -> str:
    text = f"{rules.variant}, {rules.players} players"
    if rules.swap_timing != "after_placement":
        text += ", swap instead of placing"
    if rules.require_contact:
        text += ", contact"
    return text


def study(rules: Rules, games: int, bots: str, seed: int, threads: int | None) -> Finding:
    result = genial.simulate(
        games,
        rules.players,
        bots,
        seed,
        threads,
        rules.variant,
        rules.swap_timing,
        rules.require_contact,
    )
    summary = result.summary()
    seat_rates = summary.seat_rates()
    # One seat stands for each side: the first seat that plays for it (teams: seats 0 and 1).
    first_seat = [min(s for s in range(rules.players) if rules.side_of(s) == side) for side in range(rules.sides)]
    return Finding(rules, summary.games, [seat_rates[s] for s in first_seat], summary.first_player_advantage())


def table(findings: list[Finding]) -> str:
    width = max(len(label(f.rules)) for f in findings) + 2
    header = f"{'first player advantage [95% CI]':<34}win rate by seat [95% CI]"
    lines = [f"{'rules':<{width}}{'games':>8}  {'fair':>6}  {header}"]
    for f in findings:
        adv = f.advantage
        advantage = f"{100 * adv.value:+5.1f} points [{100 * adv.low:+5.1f}, {100 * adv.high:+5.1f}]"
        rates = "   ".join(str(r).strip() for r in f.side_rates)
        lines.append(f"{label(f.rules):<{width}}{f.games:>8}  {100 / f.rules.sides:5.1f}%  {advantage:<34}{rates}")
    return "\n".join(lines)


def chart(findings: list[Finding], bots: str, path: Path) -> None:
    # A figure drawn by the Agg backend straight into a file: no display, no global state.
    fig = Figure(figsize=(14, 1.5 + 0.6 * len(findings)))
    FigureCanvasAgg(fig)
    left, right = fig.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [1, 1.2]})
    names = [label(f.rules) for f in findings]
    rows = list(range(len(findings)))[::-1]  # first rule set at the top

    # Left: the first player's advantage in percentage points, with its interval.
    values = [100 * f.advantage.value for f in findings]
    below = [100 * (f.advantage.value - f.advantage.low) for f in findings]
    above = [100 * (f.advantage.high - f.advantage.value) for f in findings]
    left.errorbar(values, rows, xerr=[below, above], fmt="o", color="#d62f3a", capsize=4)
    left.axvline(0.0, color="#8a8478", linewidth=1, linestyle="--")
    left.set_yticks(rows, names)
    left.set_xlabel("seat 0's win rate minus a fair share (percentage points)")
    left.set_title("first player's advantage, 95% CI")

    # Right: the win rate of every side, in turn order from top to bottom within a rule set.
    sides_max = max(f.rules.sides for f in findings)
    step = 0.6 / max(sides_max - 1, 1)
    palette = ["#d62f3a", "#2a6fd6", "#2f9e4f", "#f08a24"]
    for side in range(sides_max):
        ys, xs, lows, highs = [], [], [], []
        for row, f in zip(rows, findings):
            if side < len(f.side_rates):
                r = f.side_rates[side]
                ys.append(row + 0.3 - side * step)
                xs.append(100 * r.value)
                lows.append(100 * (r.value - r.low))
                highs.append(100 * (r.high - r.value))
        name = f"seat {side}" + (f" (team game: team {'AB'[side]})" if side < 2 else "")
        right.errorbar(xs, ys, xerr=[lows, highs], fmt="o", color=palette[side], capsize=3, label=name)
    for row, f in zip(rows, findings):
        fair = 100 / f.rules.sides
        right.plot([fair, fair], [row - 0.45, row + 0.45], color="#2b2b2b", linewidth=1, linestyle="--")
    right.tick_params(labelleft=False)
    right.set_xlabel("win rate (%); dashed: the fair share")
    right.set_title("win rate by seat, 95% CI")
    right.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")

    games = ", ".join(sorted({f"{f.games:,}" for f in findings}))
    fig.suptitle(f"Moving first in Ingenious: {bots} bots in every seat, {games} games per rule set")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="games per rule set (default 20000)")
    parser.add_argument(
        "--bots", default="greedy", help="the built-in bot in every seat, e.g. random or mcts:iterations=50"
    )
    parser.add_argument("--seed", type=int, default=2026, help="seed of every run (default 2026)")
    parser.add_argument("--threads", type=int, default=None, help="threads (default: one per core)")
    parser.add_argument("--edition-options", action="store_true", help="also the older edition's options")
    parser.add_argument("--out", type=Path, default=Path("first_player_advantage.png"), help="the chart (PNG)")
    args = parser.parse_args()

    chosen = [
        rules
        for rules in Rules.all()
        if rules.sides > 1
        and (args.edition_options or (rules.swap_timing == "after_placement" and not rules.require_contact))
    ]
    findings = []
    start = time.perf_counter()
    for rules in chosen:
        findings.append(study(rules, args.games, args.bots, args.seed, args.threads))
    elapsed = time.perf_counter() - start

    print(f"{args.bots} bots in every seat, seed {args.seed}, {elapsed:.1f} s\n")
    print(table(findings))
    chart(findings, args.bots, args.out)
    print(f"\nwrote {args.out}")


if __name__ == "__main__":
    main()

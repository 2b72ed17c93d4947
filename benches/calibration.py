"""Does a shown win chance mean what it says? The analysis's chance against real results.

Plays games between strong bots (every seat the ``--bot`` level) on seeds never used for
tuning, samples decisions with a choice, shows each to `genial.analyse` at the expert
level's default budget (seed 0, as `genial analyse` and the review search), and keeps the
shown chance of the top move with the mover's eventual win share (1 for a sole win, split
on a shared first place, 0 otherwise). Writes one JSON line per position, then prints the
expected calibration error (10 equal-width bins), a reliability table, and, on every
``--drift-every``-th position, the mean change of the shown chance between the default
budget and ``--drift-factor`` times it. ``--svg`` draws the reliability diagram.

``--fit TRAIN.jsonl`` fits a Platt map per player count, ``σ(a·logit(p) + b)``, on the
positions of another run (other seeds), and reports the ECE of the mapped chances on this
run's positions: what a calibration map would give on held-out games; ``--map A B`` applies
a given map instead (and, with ``--drift-every``, the drift of the mapped chances).
``--rows`` reads a finished run's positions instead of playing again.

The chances recorded are the ones genial shows: since the core's chance map
(``calibration.rs``), the expert search's chances of the standard two-player game are mapped
already, so ``--map`` and ``--fit`` are for runs of a build without it (or for a map on top).

``--review`` reviews each sampled decision as `genial.review` does (its search's first
candidate is the analysis's, so ``shown`` is the same number) and keeps the review's chances
too: the mover's chance before the decision (``win_before``) and after the move played
(``win_after``, from the comparison over the same deals when the move played is not the
engine's choice), both measured against the result like ``shown``.

    python benches/calibration.py --players 2 3 4 --games 40 --every 3 --seed 31000 \\
        --out cal.jsonl --svg docs/images/calibration.svg

CPU time is reported, since the machine may be shared.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Callable
from pathlib import Path

import genial
from genial.simulation import derive_seed

# The expert level's iterations by players, from the bot catalogue (the one place it is written).
BUDGET = dict(zip((2, 3, 4), genial.bots.info("expert").option("iterations").by_players or ()))


def win_share(game: genial.Game, seat: int) -> float:
    first = game.ranking()[0]
    if game.rules.sides < game.players:  # team game: partners share their team's result
        side = [game.rules.side_of(p) for p in range(game.players)]
        sides = {side[p] for p in first}
        return 1.0 / len(sides) if side[seat] in sides else 0.0
    return 1.0 / len(first) if seat in first else 0.0


def play(players: int, seed: int, bot: str) -> genial.Game:
    game = genial.Game(players=players, seed=seed)
    bots = [genial.bots.make(bot, seed=derive_seed(seed, s)) for s in range(players)]
    while not game.is_over:
        game.play(bots[game.current_player].choose(game))
    return game


def ece(rows: list[tuple[float, float]], bins: int = 10) -> tuple[float, list[tuple[int, float, float]]]:
    table = []
    total = 0.0
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        inb = [(p, y) for p, y in rows if lo <= p < hi or (b == bins - 1 and p == 1.0)]
        if not inb:
            table.append((0, float("nan"), float("nan")))
            continue
        mp = sum(p for p, _ in inb) / len(inb)
        my = sum(y for _, y in inb) / len(inb)
        total += len(inb) / len(rows) * abs(mp - my)
        table.append((len(inb), mp, my))
    return total, table


def logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def platt(rows: list[tuple[float, float]]) -> tuple[float, float]:
    """``(a, b)`` maximising the likelihood of the results under ``σ(a·logit(p) + b)``
    (Newton's method; results may be fractional, a shared first place)."""
    a, b = 1.0, 0.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for p, y in rows:
            x = logit(p)
            q = 1 / (1 + math.exp(-(a * x + b)))
            ga += (y - q) * x
            gb += y - q
            w = q * (1 - q)
            haa += w * x * x
            hab += w * x
            hbb += w
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-9:
            break
    return a, b


def svg(table: list[tuple[int, float, float]], title: str) -> str:
    w, h, m = 360, 360, 40
    x = lambda v: m + v * (w - 2 * m)  # noqa: E731
    y = lambda v: h - m - v * (h - 2 * m)  # noqa: E731
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        'font-family="sans-serif" font-size="11">',
        f'<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>',
        f'<text x="{w / 2}" y="18" text-anchor="middle">{title}</text>',
        f'<line x1="{x(0)}" y1="{y(0)}" x2="{x(1)}" y2="{y(1)}" stroke="#aaa" stroke-dasharray="4 3"/>',
        f'<line x1="{x(0)}" y1="{y(0)}" x2="{x(1)}" y2="{y(0)}" stroke="black"/>',
        f'<line x1="{x(0)}" y1="{y(0)}" x2="{x(0)}" y2="{y(1)}" stroke="black"/>',
        f'<text x="{w / 2}" y="{h - 8}" text-anchor="middle">shown win chance</text>',
        f'<text x="12" y="{h / 2}" text-anchor="middle" transform="rotate(-90 12 {h / 2})">share of games won</text>',
    ]
    for t in range(0, 11, 2):
        v = t / 10
        out.append(f'<text x="{x(v)}" y="{y(0) + 14}" text-anchor="middle">{v:.1f}</text>')
        out.append(f'<text x="{x(0) - 4}" y="{y(v) + 4}" text-anchor="end">{v:.1f}</text>')
    pts = [(mp, my, n) for n, mp, my in table if n]
    out.append(
        '<polyline fill="none" stroke="#1f77b4" stroke-width="2" points="'
        + " ".join(f"{x(mp):.1f},{y(my):.1f}" for mp, my, _ in pts)
        + '"/>'
    )
    for mp, my, n in pts:
        out.append(f'<circle cx="{x(mp):.1f}" cy="{y(my):.1f}" r="{2 + min(6, n / 40):.1f}" fill="#1f77b4"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--games", type=int, default=40, help="games per player count")
    ap.add_argument("--every", type=int, default=3, help="sample every n-th decision")
    ap.add_argument("--seed", type=int, default=31000)
    ap.add_argument("--bot", default="hard")
    ap.add_argument("--drift-every", type=int, default=10)
    ap.add_argument("--drift-factor", type=int, default=16)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--svg", type=Path)
    ap.add_argument("--fit", type=Path, help="positions of another run to fit a Platt map on")
    ap.add_argument("--map", type=float, nargs=2, metavar=("A", "B"), help="a Platt map to apply instead of --fit")
    ap.add_argument("--review", action="store_true", help="also keep the review's chances of each decision")
    ap.add_argument("--rows", action="store_true", help="read --out instead of playing")
    ap.add_argument("--also", type=Path, nargs="+", default=[], help="with --rows: more runs to read after --out")
    args = ap.parse_args()
    start = time.process_time()
    rows: list[dict[str, float]] = []
    if args.rows:
        # Each run numbers its games from 0: the runs' games are numbered apart, so that
        # resampling by game never merges two runs' games into one.
        for run, path in enumerate([args.out, *args.also]):
            for line in path.read_text().splitlines():
                row = json.loads(line)
                row["game"] += 1_000_000 * run
                rows.append(row)
    else:
        play_all(args, rows, start)
    report(args, rows, start)


def play_all(args: argparse.Namespace, rows: list[dict[str, float]], start: float) -> None:
    with args.out.open("w") as f:
        for players in args.players:
            for g in range(args.games):
                seed = derive_seed(args.seed + players, g)
                game = play(players, seed, args.bot)
                replay = genial.Game(players=players, seed=seed)
                # The sampled decisions reviewed by `genial.review` itself, so that the
                # chances kept are the ones a review shows, computed by its own code.
                reviewed = (
                    {d.ply: d for d in genial.review(game, plies=range(0, len(game.moves), args.every)).decisions}
                    if args.review
                    else {}
                )
                for ply, move in enumerate(game.moves):
                    if ply % args.every == 0 and len(replay.legal_moves()) > 1:
                        mover = replay.current_player
                        row = {"players": players, "game": g, "ply": ply, "won": win_share(game, mover)}
                        if args.review:
                            d = reviewed[ply]
                            row["shown"] = d.candidates[0].win_probability
                            row.update(win_before=d.win_before, win_after=d.win_after, noise=d.noise)
                            row["engine"] = d.best == d.move
                        else:
                            row["shown"] = genial.analyse(replay, seed=0).best.win_probability
                        if len(rows) % args.drift_every == 0:
                            its = args.drift_factor * BUDGET[players]
                            row["shown_long"] = genial.analyse(replay, iterations=its, seed=0).best.win_probability
                        rows.append(row)
                        f.write(json.dumps(row) + "\n")
                    replay.play(move)
                f.flush()
                print(
                    f"{players} players, game {g}: {len(rows)} positions, CPU {time.process_time() - start:.0f} s",
                    flush=True,
                )


def by_games(
    rows: list[dict[str, float]],
    reps: int = 200,
    seed: int = 1,
    chance: Callable[[dict[str, float]], float] | None = None,
) -> tuple[float, float]:
    """A 95 % bootstrap interval of the ECE, resampling whole games: the positions of one
    game share its result, so the games, not the positions, are the independent draws.
    ``chance`` gives a row's chance (default: ``shown``)."""
    games: dict[tuple[float, float], list[tuple[float, float]]] = {}
    for r in rows:
        games.setdefault((r["players"], r["game"]), []).append((chance(r) if chance else r["shown"], r["won"]))
    keys = sorted(games)
    draw = random.Random(seed)
    values = sorted(ece([x for _ in keys for x in games[keys[draw.randrange(len(keys))]]])[0] for _ in range(reps))
    return values[int(0.025 * reps)], values[int(0.975 * reps) - 1]


def by_games_mean(
    rows: list[dict[str, float]], value: Callable[[dict[str, float]], float], reps: int = 1000, seed: int = 1
) -> tuple[float, float]:
    """A 95 % bootstrap interval of the mean of ``value`` over ``rows``, resampling whole
    games."""
    games: dict[tuple[float, float], list[float]] = {}
    for r in rows:
        games.setdefault((r["players"], r["game"]), []).append(value(r))
    keys = sorted(games)
    draw = random.Random(seed)
    means = []
    for _ in range(reps):
        sample = [x for _ in keys for x in games[keys[draw.randrange(len(keys))]]]
        means.append(sum(sample) / len(sample))
    means.sort()
    return means[int(0.025 * reps)], means[int(0.975 * reps) - 1]


def report(args: argparse.Namespace, rows: list[dict[str, float]], start: float) -> None:
    pairs = [(r["shown"], r["won"]) for r in rows]
    e, table = ece(pairs)
    lo, hi = by_games(rows)
    games = len({(r["players"], r["game"]) for r in rows})
    print(f"positions {len(rows)} from {games} games, ECE {e:.4f} [{lo:.4f}, {hi:.4f}] (95 %, games resampled)")
    for players in args.players:
        sub = [r for r in rows if r["players"] == players]
        if sub:
            lo, hi = by_games(sub)
            e_p = ece([(r["shown"], r["won"]) for r in sub])[0]
            print(f"  {players} players: {len(sub)} positions, ECE {e_p:.4f} [{lo:.4f}, {hi:.4f}]")
    print("bin  n  mean shown  share won")
    for b, (n, mp, my) in enumerate(table):
        print(f"{b / 10:.1f}-{(b + 1) / 10:.1f} {n:5d} {mp:.3f} {my:.3f}")
    # The positions analysed again at the longer budget.
    long_rows = [r for r in rows if "shown_long" in r]
    drift = [r["shown_long"] - r["shown"] for r in long_rows]
    if drift:
        lo, hi = by_games_mean(long_rows, lambda r: r["shown_long"] - r["shown"])
        print(
            f"drift x{args.drift_factor}: {len(drift)} positions, mean {sum(drift) / len(drift):+.4f} [{lo:+.4f}, {hi:+.4f}]"
        )
    if args.svg:
        args.svg.write_text(svg(table, f"Reliability: {len(rows)} positions, ECE {e:.3f}"))
    maps: dict[int, tuple[float, float]] = {}
    if args.fit or args.map:
        train = [json.loads(line) for line in args.fit.read_text().splitlines()] if args.fit else []
        maps = {
            players: args.map or platt([(r["shown"], r["won"]) for r in train if r["players"] == players])
            for players in args.players
        }
        for players, (a, b) in maps.items():
            print(f"  {players} players: Platt a={a:.3f} b={b:+.3f}")

    def mapped_chance(row: dict[str, float], key: str, scale: float = 1.0) -> float:
        a, b = maps[int(row["players"])]
        return sigmoid(a * logit(row[key]) + scale * b)

    if maps and drift:
        # The drift of what a map would show: the map applied at both budgets, its bias term
        # `b` as fitted at the default budget and, as the core scales it, by √(1 / factor) at
        # the longer one (`--map`'s `b` held at both, for comparison).
        for label, scale in (("b held", 1.0), ("b scaled", (1 / args.drift_factor) ** 0.5)):
            moved = [mapped_chance(r, "shown_long", scale) - mapped_chance(r, "shown") for r in long_rows]
            lo, hi = by_games_mean(
                long_rows,
                lambda r, scale=scale: mapped_chance(r, "shown_long", scale) - mapped_chance(r, "shown"),
            )
            print(
                f"drift x{args.drift_factor}, mapped ({label}): mean {sum(moved) / len(moved):+.4f}"
                f" [{lo:+.4f}, {hi:+.4f}], mean absolute {sum(map(abs, moved)) / len(moved):.4f}"
            )
    # What each chance is measured on: every position for the analysis's; with --review,
    # the review's chances apart for the engine's own choice (one search, the same number
    # as the analysis's) and for another move (compared over common deals).
    kinds = [("shown", "analysis top move", rows)]
    if rows and "engine" in rows[0]:
        kinds += [
            ("win_after", "review, engine's choice played", [r for r in rows if r["engine"]]),
            ("win_after", "review, another move: after", [r for r in rows if not r["engine"]]),
            ("win_before", "review, another move: before", [r for r in rows if not r["engine"]]),
        ]
    for key, label, sub in kinds if maps or len(kinds) > 1 else []:
        if not sub:
            continue
        raw = [(r[key], r["won"]) for r in sub]
        lo, hi = by_games(sub, chance=lambda r, key=key: r[key])
        line = f"{label} ({len(sub)} positions): ECE {ece(raw)[0]:.4f} [{lo:.4f}, {hi:.4f}]"
        if maps:
            mapped = [(mapped_chance(r, key), r["won"]) for r in sub]
            mlo, mhi = by_games(sub, chance=lambda r, key=key: mapped_chance(r, key))
            line += f", mapped {ece(mapped)[0]:.4f} [{mlo:.4f}, {mhi:.4f}]"
        print(line)
    print(f"CPU {time.process_time() - start:.0f} s")


if __name__ == "__main__":
    main()

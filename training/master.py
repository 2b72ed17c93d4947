"""Trains the learned evaluation of the ``master`` level (rust/players/bots/learned.rs;
the training itself is rust/players/bots/learned_training.rs).

Three stages, all in Rust, deterministic for their seeds whatever ``--threads``:

1. **One-ply play.** For each player count (2, 3, 4) it plays self-play games between
   built-in one-ply bots (``medium``, ``scarcity``, ``greedy``, ``easy``,
   ``medium:swap=never``, rotated over the seats), keeps a share of the positions, and
   learns the pattern network's weights from zero with Adam on the cross-entropy of each
   position's result (TD(λ) targets; λ = 1 learns from the results alone). Games come in
   rounds that are learned from once and dropped, so memory stays small; after every round
   the loss on held-out games (another seed stream) is recorded: the learning curve.
2. **Searched play.** The same learning goes on, from stage 1's weights at a smaller step,
   over the games of a searching level (``hard`` by default): the positions a search
   reaches and the results of searched play, which is where ``master`` uses the
   evaluation. Its curve is the loss on held-out games of that level.
3. **Root values** (expert iteration's value target). Learning goes on from stage 2's
   weights over more games of the searching level, now towards each search's root value
   for the mover (the visit-weighted mean value of its searched moves) instead of the
   game's result: the search's judgement of the position, with less of the draw's luck.
   By default only at four players, where one winner of four makes results the noisiest
   (``--value-games``; ``--value-targets results`` learns the same games' results, the
   ablation). Its curve is still the loss against the held-out games' results.

Writes the weight file compiled into the engine (``rust/players/bots/master_weights.bin``,
``include_bytes!``), its manifest ``training/master.json`` (format version, SHA-256, the
command, the curves) and, with ``--plot``, the learning curves as an SVG. Then rebuild
(``make develop``) and update the checksum pinned in ``learned.rs``'s tests.

    make train          # the shipped weights and docs/images/master_learning_curve.svg
    python -m training.master --games 200 --searched-games 20 20 20 --value-games 0 0 20 --out-dir /tmp/w
    python -m training.master --start W.bin ...   # stages 2 and 3 only, from the weight file W.bin
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

from genial import _core

ROOT = Path(__file__).resolve().parent.parent
WEIGHTS = ROOT / "rust" / "players" / "bots" / "master_weights.bin"
MANIFEST = ROOT / "training" / "master.json"
# The stages as the manifest's curve names them, with their plots' titles.
STAGES = {
    "one-ply": "1. one-ply self-play, from zero",
    "searched": "2. then games of a searching level",
    "root values": "3. then its root values (loss against results)",
}


def plot(curve: list[dict[str, object]], path: Path) -> None:
    """The held-out loss against games learned from, one line per player count and stage."""
    import math

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    stages = [s for s in STAGES if any(c.get("stage", "one-ply") == s for c in curve)]
    fig, axes = plt.subplots(1, len(stages), figsize=(6.4 * len(stages), 3.6), squeeze=False)
    for ax, stage in zip(axes[0], stages, strict=True):
        rows = [c for c in curve if c.get("stage", "one-ply") == stage]
        for players in sorted({int(str(c["players"])) for c in rows}):
            pts = [
                (int(str(c["games"])), float(str(c["holdout_loss"])) / math.log(players))
                for c in rows
                if c["players"] == players
            ]
            ax.plot([g for g, _ in pts], [v for _, v in pts], marker="o", ms=3, label=f"{players} players")
        ax.set_xlabel("games learned from")
        ax.set_ylabel("held-out loss ÷ uniform guess")
        ax.set_title(STAGES[stage])
        ax.grid(alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)


def stage_rows(curve: list[tuple[int, int, float]], stage: str) -> list[dict[str, object]]:
    return [{"players": p, "games": g, "holdout_loss": round(x, 6), "stage": stage} for p, g, x in curve]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10_000, help="stage 1: one-ply games per player count")
    ap.add_argument("--round", type=int, default=1_000, help="stage 1: games per round (one curve point each)")
    ap.add_argument("--holdout", type=int, default=300, help="stage 1: held-out games per player count")
    ap.add_argument("--keep", type=float, default=0.5, help="share of positions learned from")
    ap.add_argument("--rate", type=float, default=0.002, help="stage 1: Adam's step size")
    ap.add_argument("--lambda", dest="lambda_", type=float, default=1.0, help="TD(λ)'s λ")
    ap.add_argument("--seed", type=int, default=8_000_000, help="stage 1's seed")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--start", type=Path, default=None, help="skip stage 1: go on from this weight file")
    ap.add_argument("--teachers", default="hard", help="stage 2: the searching bots' specs, comma-separated")
    ap.add_argument(
        "--searched-games",
        type=int,
        nargs="+",
        default=[1_000, 800, 600],
        help="stage 2: games per player count, in --players order (0 skips a count)",
    )
    ap.add_argument("--searched-round", type=int, default=100, help="stage 2: games per round")
    ap.add_argument("--searched-holdout", type=int, default=100, help="stage 2: held-out games per player count")
    ap.add_argument("--searched-rate", type=float, default=0.0005, help="stage 2: Adam's step size")
    ap.add_argument("--searched-seed", type=int, default=9_000_000, help="stage 2's seed")
    ap.add_argument(
        "--value-games",
        type=int,
        nargs="+",
        default=None,
        help="stage 3: games per player count, in --players order (0 skips a count; default: 2400 at "
        "four players, none at the others)",
    )
    ap.add_argument(
        "--value-targets",
        choices=("values", "results"),
        default="values",
        help="stage 3: learn the searches' root values (default), or the games' results (the ablation)",
    )
    ap.add_argument("--value-seed", type=int, default=9_100_000, help="stage 3's seed")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out-dir", type=Path, default=None, help="write here instead of the shipped files")
    ap.add_argument("--plot", type=Path, default=None, help="the learning curves as an SVG")
    ap.add_argument("--replot", action="store_true", help="only draw --plot from the manifest's curves")
    args = ap.parse_args(argv)
    if args.replot:
        if args.plot is None:
            ap.error("--replot needs --plot")
        saved = json.loads(((args.out_dir / MANIFEST.name) if args.out_dir else MANIFEST).read_text())
        plot(saved["curve"], args.plot)
        return 0
    if args.value_games is None:
        args.value_games = [2_400 if p == 4 else 0 for p in args.players]
    for name in ("searched_games", "value_games"):
        if len(getattr(args, name)) != len(args.players):
            ap.error(f"--{name.replace('_', '-')} needs one count per player count of --players")
    teachers = [t for t in args.teachers.split(",") if t]

    start = time.perf_counter()
    rows: list[dict[str, object]] = []
    if args.start is None:
        blob, curve = _core.train_evaluation(
            args.games,
            min(args.round, args.games),
            args.holdout,
            args.keep,
            args.rate,
            args.lambda_,
            args.seed,
            args.players,
            args.threads,
        )
        rows += stage_rows(curve, "one-ply")
        for players, games, loss in curve:
            print(f"stage 1, {players} players, {games:>6} games: held-out loss {loss:.4f}")
    else:
        blob = args.start.read_bytes()
    # Stages 2 and 3, one player count at a time (each count has weights of its own).
    stages = [
        ("searched", args.searched_games, args.searched_seed, False),
        ("root values", args.value_games, args.value_seed, args.value_targets == "values"),
    ]
    for stage, counts, seed, values in stages:
        for players, games in zip(args.players, counts, strict=True):
            if games <= 0:
                continue
            blob, curve = _core.train_evaluation(
                games,
                min(args.searched_round, games),
                args.searched_holdout,
                args.keep,
                args.searched_rate,
                args.lambda_,
                seed,
                [players],
                args.threads,
                teachers,
                blob,
                values,
            )
            rows += stage_rows(curve, stage)
            for p, g, loss in curve:
                print(f"{stage}, {p} players, {g:>6} games: held-out loss {loss:.4f}")
    seconds = time.perf_counter() - start
    weights = args.out_dir / WEIGHTS.name if args.out_dir else WEIGHTS
    manifest = args.out_dir / MANIFEST.name if args.out_dir else MANIFEST
    weights.parent.mkdir(parents=True, exist_ok=True)
    command = "python -m training.master " + " ".join(sys.argv[1:] if argv is None else argv)
    digest = hashlib.sha256(blob).hexdigest()
    info: dict[str, object] = {
        "format_version": int.from_bytes(blob[8:12], "little"),
        "sha256": digest,
        "bytes": len(blob),
        "command": command.strip(),
        "seed": args.seed,
        "games_per_player_count": args.games,
        "round": args.round,
        "holdout_games": args.holdout,
        "keep": args.keep,
        "rate": args.rate,
        "lambda": args.lambda_,
        "start_sha256": hashlib.sha256(args.start.read_bytes()).hexdigest() if args.start else None,
        "teachers": teachers,
        "searched_games": dict(zip(map(str, args.players), args.searched_games, strict=True)),
        "searched_round": args.searched_round,
        "searched_holdout_games": args.searched_holdout,
        "searched_rate": args.searched_rate,
        "searched_seed": args.searched_seed,
        "value_games": dict(zip(map(str, args.players), args.value_games, strict=True)),
        "value_targets": args.value_targets,
        "value_seed": args.value_seed,
        "seconds": round(seconds, 1),
        "curve": rows,
    }
    weights.write_bytes(blob)
    manifest.write_text(json.dumps(info, indent=2) + "\n")
    if args.plot:
        plot(rows, args.plot)
    print(f"wrote {weights} ({len(blob)} bytes, sha256 {digest[:16]}...) and {manifest} in {seconds:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

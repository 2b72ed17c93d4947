"""Trains the learned evaluation of the ``master`` level (rust/players/bots/learned.rs).

For each player count (2, 3, 4) it plays self-play games between built-in one-ply bots in
Rust (``medium``, ``scarcity``, ``greedy``, ``easy``, ``medium:swap=never``, rotated over the
seats), keeps a share of the positions, and learns the pattern network's weights from zero
with Adam on the cross-entropy of each position's result (TD(λ) targets; λ = 1 learns from
the results alone). Games come in rounds that are learned from once and dropped, so memory
stays small; after every round the loss on held-out games (another seed stream) is
recorded: the learning curve. Deterministic for a seed, whatever ``--threads``.

Writes the weight file compiled into the engine (``rust/players/bots/master_weights.bin``,
``include_bytes!``), its manifest ``training/master.json`` (format version, SHA-256, the
command, the curve) and, with ``--plot``, the learning curve as an SVG. Then rebuild
(``make develop``) and update the checksum pinned in ``learned.rs``'s tests.

    make train          # the shipped weights and docs/images/master_learning_curve.svg
    python -m training.master --games 200 --out-dir /tmp/w      # a quick run
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


def plot(curve: list[tuple[int, int, float]], path: Path) -> None:
    """The held-out loss against games seen, one line per player count."""
    import math

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    for players in sorted({c[0] for c in curve}):
        pts = [(g, loss / math.log(players)) for p, g, loss in curve if p == players]
        ax.plot([g for g, _ in pts], [v for _, v in pts], marker="o", ms=3, label=f"{players} players")
    ax.set_xlabel("self-play games learned from")
    ax.set_ylabel("held-out loss ÷ uniform guess")
    ax.set_title("Learned evaluation: held-out cross-entropy")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10_000, help="self-play games per player count")
    ap.add_argument("--round", type=int, default=1_000, help="games per round (one curve point each)")
    ap.add_argument("--holdout", type=int, default=300, help="held-out games per player count")
    ap.add_argument("--keep", type=float, default=0.5, help="share of positions learned from")
    ap.add_argument("--rate", type=float, default=0.002, help="Adam's step size")
    ap.add_argument("--lambda", dest="lambda_", type=float, default=1.0, help="TD(λ)'s λ")
    ap.add_argument("--seed", type=int, default=8_000_000)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out-dir", type=Path, default=None, help="write here instead of the shipped files")
    ap.add_argument("--plot", type=Path, default=None, help="the learning curve as an SVG")
    ap.add_argument("--replot", action="store_true", help="only draw --plot from the manifest's curve")
    args = ap.parse_args(argv)
    if args.replot:
        if args.plot is None:
            ap.error("--replot needs --plot")
        info = json.loads(((args.out_dir / MANIFEST.name) if args.out_dir else MANIFEST).read_text())
        plot([(c["players"], c["games"], c["holdout_loss"]) for c in info["curve"]], args.plot)
        return 0

    start = time.perf_counter()
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
    seconds = time.perf_counter() - start
    for players, games, loss in curve:
        print(f"{players} players, {games:>6} games: held-out loss {loss:.4f}")
    weights = args.out_dir / WEIGHTS.name if args.out_dir else WEIGHTS
    manifest = args.out_dir / MANIFEST.name if args.out_dir else MANIFEST
    weights.parent.mkdir(parents=True, exist_ok=True)
    weights.write_bytes(blob)
    command = "python -m training.master " + " ".join(sys.argv[1:] if argv is None else argv)
    info = {
        "format_version": int.from_bytes(blob[8:12], "little"),
        "sha256": hashlib.sha256(blob).hexdigest(),
        "bytes": len(blob),
        "command": command.strip(),
        "seed": args.seed,
        "games_per_player_count": args.games,
        "round": args.round,
        "holdout_games": args.holdout,
        "keep": args.keep,
        "rate": args.rate,
        "lambda": args.lambda_,
        "seconds": round(seconds, 1),
        "curve": [{"players": p, "games": g, "holdout_loss": round(x, 6)} for p, g, x in curve],
    }
    manifest.write_text(json.dumps(info, indent=2) + "\n")
    if args.plot:
        plot(curve, args.plot)
    print(f"wrote {weights} ({len(blob)} bytes, sha256 {info['sha256'][:16]}...) and {manifest} in {seconds:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

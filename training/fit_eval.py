"""Fits the weights of genial's position evaluation (rust/players/bots/eval.rs) by self-play.

For each player count (2, 3, 4) it plays games between built-in bots in Rust (seat ``s`` of
game ``g`` is played by ``BOTS[(g + s) % len(BOTS)]``), keeps a random share of the
positions at the start of a turn, and records every seat's features as the seat to move
sees them, with how the game ended. The evaluation is a conditional logit: seat ``p``'s
utility is ``w · φ(p)`` and its win probability ``softmax(U)_p``. The weights minimise the
cross-entropy against the final result (ties split) plus an L2 penalty, with SciPy's
L-BFGS; a held-out 20 % of the games (split by game) measure the fit.

Reproducible: the games come from ``--seed`` (default 7_000_000; the strength tables of
BENCHMARKS.md use tournament seeds below 10_000, a disjoint range) and the result does not
depend on ``--threads``. Writes ``rust/players/bots/weights.rs`` (compiled into the engine with
``include!``) and ``training/weights.json`` (the same numbers with the fit's statistics).

    python training/fit_eval.py --games 40 --out-dir /tmp/w   # a toy run (the test suite)

Then rebuild (``make develop``) so that the engine uses the new weights. The self-play
includes ``medium``, which plays with the weights compiled in, so the data depend on them.
The shipped weights come from one round started from the hand-set weights in
``training/start_weights.rs``; to reproduce them exactly::

    cp training/start_weights.rs rust/players/bots/weights.rs && make develop
    python training/fit_eval.py --games 3000 && make develop

in the development environment (``make test`` sets it up; the fit needs SciPy). Measured:
8 min 52 s of self-play and fitting on 2 shared cores; the result does not depend on
``--threads``, and the written ``weights.rs`` equals the shipped one byte for byte.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import genial
import numpy as np
import numpy.typing as npt
from genial import _core
from scipy.optimize import minimize  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parent.parent
#: The weights the engine compiles in (`include!` in rust/players/bots/eval.rs).
WEIGHTS_RS = ROOT / "rust" / "players" / "bots" / "weights.rs"
BOTS = ("medium", "scarcity", "greedy", "easy", "medium:swap=never")


def nll(
    w: npt.NDArray[np.float64], x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], l2: float
) -> tuple[float, npt.NDArray[np.float64]]:
    """Mean cross-entropy of softmax(x·w) against y, plus l2·|w|², and its gradient."""
    u = x @ w  # positions × players
    u -= u.max(axis=1, keepdims=True)
    e = np.exp(u)
    p = e / e.sum(axis=1, keepdims=True)
    m = x.shape[0]
    loss = -float((y * np.log(np.maximum(p, 1e-300))).sum()) / m + l2 * float(w @ w)
    # d/dw of −Σ_p y_p log p_p = Σ_p (p_p − y_p) φ_p (y sums to one per position).
    grad = np.einsum("ip,ipk->k", p - y, x) / m + 2.0 * l2 * w
    return loss, grad


BINS = 6  # features 0..5: a colour's points in each sixth of its track


def to_weights(theta: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Weights from the fitted parameters: the first six are steps ``d_j >= 0`` and bin ``j``
    weighs ``d_j + ... + d_5``, so a point is never worth more higher up a track (a concave
    value per colour, what the ranking by the lowest colour asks for)."""
    w = theta.copy()
    w[:BINS] = np.cumsum(theta[:BINS][::-1])[::-1]
    return w


def to_theta(w: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    theta = w.copy()
    bins = np.maximum.accumulate(np.asarray(w[:BINS])[::-1])[::-1]  # the nearest non-increasing start
    theta[:BINS] = np.maximum(np.append(bins[:-1] - bins[1:], bins[-1]), 0.0)
    return theta


def fit(
    x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], l2: float, w0: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """The concave-constrained fit: L-BFGS-B over ``theta`` with the steps bounded at 0."""
    k = x.shape[2]
    # d w / d theta: bin j's weight sums the steps j..5.
    jac = np.eye(k)
    for j in range(BINS):
        jac[j, :BINS] = 0.0
        jac[j, j:BINS] = 1.0

    def objective(theta: npt.NDArray[np.float64]) -> tuple[float, npt.NDArray[np.float64]]:
        loss, grad = nll(to_weights(theta), x, y, l2)
        return loss, jac.T @ grad

    bounds = [(0.0, None)] * BINS + [(None, None)] * (k - BINS)
    res = minimize(objective, to_theta(w0), jac=True, method="L-BFGS-B", bounds=bounds, options={"maxiter": 3000})
    return to_weights(np.asarray(res.x, dtype=np.float64))


def accuracy(w: npt.NDArray[np.float64], x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> float:
    """Share of positions whose most likely seat is the (or a) winner."""
    pick = (x @ w).argmax(axis=1)
    return float((y[np.arange(len(y)), pick] > 0).mean())


def run(
    players: int, games: int, seed: int, keep: float, threads: int, l2: float, w0: npt.NDArray[np.float64]
) -> dict[str, object]:
    bots = [genial.bots.parse_bot(b) for b in BOTS]
    t = time.perf_counter()
    x, y, g = _core.self_play_positions(players, [b._bot for b in bots], seed, 0, games, keep, threads)
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    g = np.asarray(g)
    test = g >= int(games * 0.8)
    w = fit(x[~test], y[~test], l2, w0)
    base = np.zeros_like(w)
    out = {
        "players": players,
        "games": games,
        "positions": len(y),
        "seconds": round(time.perf_counter() - t, 1),
        "weights": [round(float(v), 6) for v in w],
    }
    if test.any():
        out["held_out_loss"] = round(nll(w, x[test], y[test], 0.0)[0], 5)
        out["held_out_loss_uniform"] = round(nll(base, x[test], y[test], 0.0)[0], 5)
        out["held_out_accuracy"] = round(accuracy(w, x[test], y[test]), 4)
    return out


def write(results: list[dict[str, object]], names: list[str], args: argparse.Namespace, out_dir: Path | None) -> None:
    rows = ",\n".join("    [" + ", ".join(f"{v!r}" for v in r["weights"]) + "]" for r in results)  # type: ignore[attr-defined]
    command = "python training/fit_eval.py " + " ".join(sys.argv[1:])
    rs = (
        "// Generated by training/fit_eval.py; do not edit by hand.\n"
        f"// Command: {command.strip()}\n"
        f"// Self-play bots: {', '.join(BOTS)}; seed {args.seed}; {args.games} games per player count.\n"
        "// Rows: 2, 3, 4 players; columns: eval::FEATURE_NAMES.\n"
        f"pub const WEIGHTS: [[f64; super::NF]; 3] = [\n{rows},\n];\n"
    )
    rs_path = (out_dir / "weights.rs") if out_dir else WEIGHTS_RS
    json_path = (out_dir / "weights.json") if out_dir else ROOT / "training" / "weights.json"
    rs_path.parent.mkdir(parents=True, exist_ok=True)
    rs_path.write_text(rs)
    meta = {
        "command": command.strip(),
        "bots": list(BOTS),
        "seed": args.seed,
        "l2": args.l2,
        "keep": args.keep,
        "features": names,
        "fits": results,
    }
    json_path.write_text(json.dumps(meta, indent=1) + "\n")
    print(f"wrote {rs_path} and {json_path}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3000, help="self-play games per player count (default 3000)")
    ap.add_argument("--seed", type=int, default=7_000_000)
    ap.add_argument("--keep", type=float, default=0.3, help="share of turn starts kept as positions")
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out-dir", type=Path, default=None, help="write here instead of rust/players/bots and training/")
    args = ap.parse_args(argv)
    names, current = _core.eval_weights()
    results = []
    for k, players in enumerate((2, 3, 4)):
        r = run(players, args.games, args.seed + players, args.keep, args.threads, args.l2, np.asarray(current[k]))
        print(json.dumps({k: v for k, v in r.items() if k != "weights"}))
        results.append(r)
    write(results, list(names), args, args.out_dir)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""benches/calibration.py at a toy size: the chances it keeps are the ones the analysis and
the review show, and its Platt fit finds a map it is given."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import genial
import pytest
from conftest import ROOT, load_script


def calibration() -> ModuleType:
    return load_script("genial_bench_calibration", ROOT / "benches" / "calibration.py")


def test_the_platt_fit_recovers_the_map_that_made_the_results() -> None:
    bench = calibration()
    draw = random.Random(3)
    rows = []
    for _ in range(20_000):
        p = draw.uniform(0.02, 0.98)
        q = bench.sigmoid(1.3 * bench.logit(p) - 0.25)
        rows.append((p, 1.0 if draw.random() < q else 0.0))
    a, b = bench.platt(rows)
    assert math.isclose(a, 1.3, abs_tol=0.06) and math.isclose(b, -0.25, abs_tol=0.06)


@pytest.mark.slow
def test_a_review_run_keeps_what_the_analysis_and_the_review_show(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    script = str(ROOT / "benches" / "calibration.py")
    args = ["--players", "2", "--games", "1", "--every", "12", "--seed", "5", "--review", "--out", str(out)]
    printed = subprocess.run(
        [sys.executable, script, *args, "--map", "1.32", "-0.255"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    # One line a kind of chance, raw and mapped: the analysis's first, then the review's.
    kinds = ["analysis top move", "review, engine's choice played", "review, another move: after"]
    kinds += ["review, another move: before"]
    lines = [x for x in printed.splitlines() if ", mapped " in x and " ECE " in x]
    assert lines[0].startswith("analysis top move (")
    assert all(x.split(" (")[0] in kinds for x in lines)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows
    bench = calibration()
    seed = bench.derive_seed(5 + 2, 0)  # the run's first 2-player game
    game = bench.play(2, seed, "hard")
    replay = genial.Game(players=2, seed=seed)
    by_ply = {r["ply"]: r for r in rows}
    assert set(by_ply) <= set(range(0, len(game.moves), 12))
    for ply, move in enumerate(game.moves):
        if ply in by_ply:
            row = by_ply[ply]
            # The review's first candidate is what the analysis shows first.
            assert row["shown"] == genial.analyse(replay, seed=0).best.win_probability
            assert 0 <= row["win_after"] <= 1 and row["noise"] >= 0
            assert row["win_before"] == row["shown"]  # the chance before is the analysis's
            if row["engine"]:  # the engine's own choice: one search, nothing compared
                assert row["win_before"] == row["win_after"] == row["shown"] and row["noise"] == 0
        replay.play(move)

"""The scripts in examples/ run as documented, at toy sizes (a few seconds each)."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import genial
import pytest
from conftest import ROOT

EXAMPLES = ROOT / "examples"


def run(script: str, *args: str, cwd: Path, tmpdir: Path | None = None) -> str:
    """Runs an example in a fresh interpreter and returns what it printed."""
    env = {**os.environ, "MPLBACKEND": "Agg"}
    if tmpdir is not None:
        env["TMPDIR"] = str(tmpdir)
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


@pytest.mark.parametrize("script", sorted(p.name for p in EXAMPLES.glob("*.py")))
def test_every_example_says_what_it_shows_and_how_to_run_it(script: str) -> None:
    text = (EXAMPLES / script).read_text()
    assert text.startswith('"""'), f"{script} has no module docstring"
    docstring = text.split('"""')[1]
    assert f"python examples/{script}" in docstring, f"{script}'s docstring does not say how to run it"
    assert run(script, "--help", cwd=ROOT).startswith("usage:")


def test_custom_bot(tmp_path: Path) -> None:
    out = run("custom_bot.py", "--games", "6", "--seed", "3", cwd=tmp_path)
    assert "6 games, 2 players, standard" in out
    for name in ("needy", "greedy", "random"):
        assert name in out
    assert "win rate [95% CI]" in out
    assert "needy against greedy" in out


def test_first_player_advantage(tmp_path: Path) -> None:
    png = tmp_path / "fpa.png"
    out = run(
        "first_player_advantage.py",
        "--games",
        "20",
        "--bots",
        "random",
        "--threads",
        "1",
        "--out",
        str(png),
        cwd=tmp_path,
    )
    for rules in ("standard, 2 players", "standard, 3 players", "standard, 4 players", "team, 4 players", "duel"):
        assert rules in out
    assert "solo" not in out  # no other side to be first against
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert png.stat().st_size > 10_000


def test_train_vecenv_runs_and_repeats(tmp_path: Path) -> None:
    args = ["--envs", "8", "--updates", "3", "--steps", "20", "--eval-games", "8", "--table-games", "3"]
    first = tmp_path / "first.json"
    second = tmp_path / "second.json"
    out = run("train_vecenv.py", *args, "--out", str(first), cwd=tmp_path)
    assert "trained policy, sampling" in out and "learned weights" in out
    # Seeded throughout: another run, on another thread count, learns the same weights.
    run("train_vecenv.py", *args, "--threads", "2", "--out", str(second), cwd=tmp_path)
    a, b = json.loads(first.read_text()), json.loads(second.read_text())
    assert a["weights"] == b["weights"]
    assert a["win_rate_against_random"] == b["win_rate_against_random"]
    assert len(a["weights"]) == len(a["features"])
    assert set(a["tournament"]) == {"trained policy", "greedy", "random"}


def test_train_maskable_ppo_runs_repeats_and_exports_what_it_trained(tmp_path: Path) -> None:
    # PyTorch comes with the learn extra (about 5 GB with the CUDA libraries PyPI's wheel
    # pulls in), which `make test` leaves out. `.ci/run` installs it after `make test` and
    # then runs this test again with GENIAL_REQUIRE_LEARN=1, under which it cannot skip.
    try:
        import sb3_contrib  # noqa: F401
    except ImportError as e:
        if os.environ.get("GENIAL_REQUIRE_LEARN"):
            raise
        pytest.skip(f"sb3-contrib and PyTorch are not installed ({e}): pip install -r requirements-learn.txt")
    args = ["--timesteps", "512", "--envs", "2", "--n-steps", "64", "--eval-games", "2"]
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    out = run("train_maskable_ppo.py", *args, "--out", str(tmp_path / "a"), cwd=tmp_path, tmpdir=scratch)
    # No folder left per run in the temporary folder (stable-baselines3's default logger makes
    # an empty SB3-<time> one each time); PyTorch's one cache folder there, reused, may stay.
    assert [p.name for p in scratch.iterdir() if not p.name.startswith("torchinductor_")] == []
    # The numpy copy that plays the evaluation chose what the torch model chose.
    assert "the numpy policy chooses what the model chooses on 128 positions" in out
    for opponent in ("random", "greedy", "easy"):
        assert f"against {opponent}" in out
    report = json.loads((tmp_path / "a" / "report.json").read_text())
    assert report["timesteps"] == 512 and set(report["against"]) == {"random", "greedy", "easy"}
    assert (tmp_path / "a" / "curve.csv").read_text().startswith("timesteps,cpu_s,games,mean_result\n")
    # Seeded throughout: a second run trains the same policy and measures the same rates.
    run("train_maskable_ppo.py", *args, "--out", str(tmp_path / "b"), cwd=tmp_path)
    assert (tmp_path / "a" / "policy.npz").read_bytes() == (tmp_path / "b" / "policy.npz").read_bytes()
    again = json.loads((tmp_path / "b" / "report.json").read_text())
    assert again["against"] == report["against"]


def _policy_plays(weights: bytes) -> None:
    """The core takes ``weights`` as the ``policy`` bot's network, scores moves with it as
    numpy does with the same numbers, and plays a whole game with it."""
    import numpy as np
    from genial import _core
    from genial.game import core_state

    # The file: magic, version, features, hidden, the player counts learned (bit 0: two);
    # then w1, b1, w2, b2 as little-endian f32.
    version, features, hidden, players = np.frombuffer(weights[8:24], dtype="<u4")
    body = np.frombuffer(weights[24:], dtype="<f4").astype(np.float64)
    assert weights[:8] == b"GENIALPO" and len(body) == hidden * features + 2 * hidden + 1
    assert (version, players) == (2, 1)
    w1 = body[: hidden * features].reshape(hidden, features)
    b1, w2 = body[hidden * features : hidden * (features + 1)], body[hidden * (features + 1) : -1]
    game = genial.Game(seed=5)
    for _ in range(6):
        game.play(game.legal_moves()[0])
    _, x = _core.policy_features(core_state(game))
    _core.use_policy_weights(weights)
    try:
        ours = np.maximum(x @ w1.T + b1, 0.0) @ w2 + body[-1]
        assert np.allclose(_core.policy_logits(core_state(game)), ours, atol=1e-4)
        assert genial.play_game(["policy", "greedy"], seed=5).is_over
    finally:
        _core.use_policy_weights(None)


PPO_TOY = ["--total-decisions", "600", "--num-envs", "8", "--decisions-per-update", "128"]
PPO_TOY += ["--minibatches", "2", "--epochs", "2", "--hidden", "8", "--snapshot-every", "2"]
PPO_TOY += ["--eval-every", "2", "--eval-games", "4"]


def test_selfplay_ppo_writes_weights_the_core_plays_and_a_curve(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    out = run("selfplay_ppo.py", *PPO_TOY, "--out", str(first), cwd=tmp_path)
    assert "update    1" in out and "eval at" in out and "against greedy" in out
    report = json.loads((first / "curve.json").read_text())
    assert report["status"] == "finished" and report["settings"]["hidden"] == 8
    curve = report["curve"]
    assert len(curve) >= 2 and curve[-1]["decisions"] >= 600
    assert [p["cpu_s"] for p in curve] == sorted(p["cpu_s"] for p in curve)
    for point in curve:
        assert set(point) >= {"update", "decisions", "games", "cpu_s", "greedy", "random"}
        assert point["greedy"]["games"] == 4 and 0 <= point["greedy"]["win_rate"] <= 1
    weights = (first / "policy.bin").read_bytes()
    # The file is the network the last point of the curve measured.
    assert hashlib.sha256(weights).hexdigest() == curve[-1]["weights_sha256"]
    _policy_plays(weights)
    # Seeded throughout: another run, on two threads, trains the same network.
    run("selfplay_ppo.py", *PPO_TOY, "--threads", "2", "--out", str(second), cwd=tmp_path)
    assert (second / "policy.bin").read_bytes() == weights
    again = json.loads((second / "curve.json").read_text())["curve"]
    assert [{**p, "cpu_s": 0} for p in again] == [{**p, "cpu_s": 0} for p in curve]


def test_selfplay_ppo_keeps_the_last_weights_and_the_curve_on_ctrl_c(tmp_path: Path) -> None:
    out = tmp_path / "run"
    cmd = [sys.executable, str(EXAMPLES / "selfplay_ppo.py"), *PPO_TOY[:-4], "--total-decisions", "10000000"]
    cmd += ["--eval-every", "1", "--eval-games", "2", "--out", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not (out / "curve.json").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (out / "curve.json").exists(), "no evaluation was written"
        os.killpg(proc.pid, signal.SIGINT)
        stdout, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130 and "interrupted" in stdout and "Traceback" not in err, stdout + err
    report = json.loads((out / "curve.json").read_text())
    assert report["status"] == "interrupted" and len(report["curve"]) >= 1
    _policy_plays((out / "policy.bin").read_bytes())
    assert not list(out.glob("*.tmp"))

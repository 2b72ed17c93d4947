"""Expert iteration: the search self-play data, the policy network's fit and its weight
file, the `policy` bot and the search's policy prior, the training run's resumption, and
the evaluation protocol."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import genial
import numpy as np
import pytest
from genial import _core
from genial.bots import make, parse_bot
from genial.evaluation import EVALUATION_SEED, evaluate_agent
from genial.expert_iteration import (
    MONITOR_SEED,
    POLICY_FEATURES,
    Plan,
    Samples,
    fit_policy,
    load_samples,
    policy_bytes,
    search_games,
    train,
)
from genial.simulation import derive_seed

TOY_TEACHER = "expert:iterations=40"


@pytest.fixture(autouse=True)
def _shipped_weights_after() -> object:
    yield None
    _core.use_policy_weights(None)


def _toy_samples(tmp_path: Path, games: int = 3, seed: int = 5) -> Samples:
    return load_samples(search_games(tmp_path / f"toy-{seed}", TOY_TEACHER, seed, games, chunk=2))


def test_search_data_are_visit_distributions_from_the_movers_view(tmp_path: Path) -> None:
    s = _toy_samples(tmp_path)
    assert s.features.shape == (len(s.visits), len(POLICY_FEATURES))
    sums = np.add.reduceat(s.visits, s.starts[:-1])
    assert np.allclose(sums, 1.0, atol=1e-4)
    assert ((s.value >= 0) & (s.value <= 1)).all()
    # Two seats: every decision's mover either won, lost or tied.
    assert set(np.unique(s.result)) <= {0.0, 0.5, 1.0}
    assert s.decisions > 40


def test_search_data_are_deterministic_whatever_the_threads(tmp_path: Path) -> None:
    a = _core.search_self_play(parse_bot(TOY_TEACHER)._bot, 9, 0, 2, 4, 1)
    b = _core.search_self_play(parse_bot(TOY_TEACHER)._bot, 9, 0, 2, 4, 2)
    assert a.keys() == b.keys()
    for k in a:
        assert np.array_equal(a[k], b[k]), k


def test_search_self_play_refuses_what_it_cannot_play() -> None:
    with pytest.raises(ValueError, match="searching level"):
        _core.search_self_play(parse_bot("greedy")._bot, 1, 0, 1, 2, 1)
    with pytest.raises(ValueError, match="threads"):
        _core.search_self_play(parse_bot("expert")._bot, 1, 0, 1, 2, 0)


def test_a_run_resumes_from_its_files_and_replays_an_unreadable_one(tmp_path: Path) -> None:
    folder = tmp_path / "gen"
    paths = search_games(folder, TOY_TEACHER, 3, 4, chunk=2)
    stamps = [p.stat().st_mtime_ns for p in paths]
    before = [p.read_bytes() for p in paths]
    again = search_games(folder, TOY_TEACHER, 3, 4, chunk=2)
    assert [p.stat().st_mtime_ns for p in again] == stamps
    paths[1].write_bytes(b"half a file")
    search_games(folder, TOY_TEACHER, 3, 4, chunk=2)
    assert [p.read_bytes() for p in paths] == before  # the same games, played again
    assert not list(folder.glob("*.tmp*")) and not list(folder.glob(".*"))


def test_the_cores_forward_pass_is_the_fits(tmp_path: Path) -> None:
    s = _toy_samples(tmp_path)
    fit = fit_policy(s, s, hidden=8, epochs=2, seed=1)
    _core.use_policy_weights(policy_bytes(fit))
    game = genial.Game(seed=4)
    for _ in range(6):
        game.play(make("greedy", seed=2).choose(game))
    moves, x = _core.policy_features(game._state)
    assert [str(m) for m in moves] == [str(m) for m in game.legal_moves()]
    core = _core.policy_logits(game._state)
    assert np.allclose(core, fit.logits(x), atol=1e-3)
    # The policy bot plays the top move of those logits.
    assert parse_bot("policy", seed=3).choose(game) == game.legal_moves()[int(np.argmax(core))]


def test_fitting_lowers_the_loss_and_is_deterministic(tmp_path: Path) -> None:
    s = _toy_samples(tmp_path, games=4)
    a = fit_policy(s, s, hidden=16, epochs=10, batch=16, seed=3)
    b = fit_policy(s, s, hidden=16, epochs=10, batch=16, seed=3)
    assert policy_bytes(a) == policy_bytes(b)
    assert a.curve[-1]["train_loss"] < a.curve[0]["train_loss"]
    # Better than knowing nothing: the uniform guess over each decision's recorded moves.
    counts = np.diff(s.starts)
    assert a.curve[-1]["train_loss"] < float(np.log(counts).mean())


def test_a_bad_weight_file_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    game = genial.Game(seed=2)
    shipped = _core.policy_logits(game._state)
    good = _core.policy_shipped_weights()
    for bad, why in [
        (b"nonsense", "not a genial policy"),
        (good[:-4], "bytes"),
        (good[:8] + b"\x09" + good[9:], "version"),
    ]:
        with pytest.raises(ValueError, match=why):
            _core.use_policy_weights(bad)
        assert np.array_equal(_core.policy_logits(game._state), shipped)
    names, version, checksum, hidden = _core.policy_info()
    assert tuple(names) == POLICY_FEATURES and version >= 1 and hidden >= 1 and checksum


@pytest.mark.parametrize("players", [2, 4])
def test_the_shipped_weights_match_their_manifest(players: int) -> None:
    import hashlib

    manifest = json.loads((Path(__file__).parents[1] / "training" / f"policy-{players}p.json").read_text())
    assert hashlib.sha256(_core.policy_shipped_weights(players)).hexdigest() == manifest["sha256"]
    assert manifest["features"] == list(POLICY_FEATURES)
    assert manifest["plan"]["players"] == players


@pytest.mark.parametrize(
    "spec", ["policy", "expert:iterations=60,prior=policy", "expert:iterations=60,prior=policy,puct=1.5"]
)
@pytest.mark.parametrize("players", [2, 4])
def test_the_policy_and_its_search_are_blind_to_hidden_tiles(spec: str, players: int) -> None:
    game = genial.Game(players=players, seed=8)
    while len(game.moves) < 11:
        game.play(make("scarcity", seed=1).choose(game))
    twin = game.determinize(game.current_player, 99)
    assert twin != game
    assert parse_bot(spec, seed=4).choose(game) == parse_bot(spec, seed=4).choose(twin)


def test_train_runs_generations_and_refuses_another_plan_in_its_folder(tmp_path: Path) -> None:
    plan = Plan(games=(2, 2), holdout=2, teacher=TOY_TEACHER, epochs=2, hidden=8, threads=1, monitor_games=4)
    weights, manifest = train(plan, tmp_path / "run", log=lambda _line: None, bar=False)
    assert [g["teacher"] for g in manifest["generations"]] == [TOY_TEACHER, TOY_TEACHER + ",prior=policy"]
    assert manifest["generations"][1]["games"] == 4
    assert 0.0 <= manifest["generations"][0]["monitor_vs_greedy"]["value"] <= 1.0
    # Resumed: nothing is played or fitted again, and the same weights come out.
    again, _ = train(plan, tmp_path / "run", log=lambda _line: None, bar=False)
    assert again == weights
    with pytest.raises(ValueError, match="another plan"):
        train(Plan(games=(3,), holdout=2, teacher=TOY_TEACHER), tmp_path / "run", log=lambda _line: None, bar=False)
    with pytest.raises(ValueError, match="at least one game"):
        Plan(games=(0,)).check()


def test_the_training_streams_are_not_the_evaluations() -> None:
    plan = Plan()
    training = {derive_seed(plan.seed, k) for k in range(len(plan.games))}
    assert EVALUATION_SEED not in training and MONITOR_SEED not in training
    assert len({EVALUATION_SEED, MONITOR_SEED, plan.seed}) == 3


def test_evaluate_agent_pairs_the_seats_and_checks_its_arguments() -> None:
    r = evaluate_agent("greedy", opponents="random,greedy", games=40, threads=1)
    assert r["random"].n == 40 and r["random"].value > 0.8
    # Against itself on paired deals, each deal's two games split evenly (ties aside).
    assert r["greedy"].value == pytest.approx(0.5, abs=0.15)
    four = evaluate_agent("greedy", opponents=["random"], games=8, players=4, threads=1)
    assert four["random"].n == 8
    with pytest.raises(ValueError, match="multiple of 2"):
        evaluate_agent("greedy", opponents=["random"], games=41)
    with pytest.raises(ValueError, match="2- or 4-player"):
        evaluate_agent("greedy", opponents=["random"], games=12, players=3)
    with pytest.raises(ValueError, match="no opponent"):
        evaluate_agent("greedy", opponents=" , ", games=4)


def test_the_evaluate_command_prints_intervals() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "genial",
            "evaluate",
            "policy",
            "--opponents",
            "random",
            "--games",
            "20",
            "--threads",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "against random" in out.stdout and "[" in out.stdout
    # The protocol's own opponents by default.
    default = subprocess.run(
        [sys.executable, "-m", "genial", "evaluate", "greedy", "--games", "2", "--threads", "1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert default.returncode == 0, default.stderr
    assert [line.split()[1] for line in default.stdout.splitlines()[1:]] == ["greedy", "medium", "expert"]
    bad = subprocess.run(
        [sys.executable, "-m", "genial", "evaluate", "policy", "--policy-weights", "/nonexistent/w.bin"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and "policy-weights" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL])
def test_the_train_command_resumes_after_ctrl_c_or_a_kill(tmp_path: Path, sig: signal.Signals) -> None:
    out = tmp_path / "run"
    cmd = [
        sys.executable, "-m", "genial", "train", "--out", str(out), "--games", "40", "--holdout", "2",
        "--teacher", "expert:iterations=120", "--epochs", "2", "--hidden", "8", "--threads", "1",
        "--monitor-games", "0", "--no-progress",
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        # The first of three chunks written: the second is being played when the signal lands.
        deadline = time.monotonic() + 120
        while len(list((out / "gen-0").glob("games-*.npz"))) < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert list((out / "gen-0").glob("games-*.npz")), "no chunk was written"
        os.killpg(proc.pid, sig)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    if sig == signal.SIGINT:
        assert proc.returncode == 130 and "resume" in err and "Traceback" not in err
    kept = {p.name: p.read_bytes() for p in (out / "gen-0").glob("games-*.npz")}
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    for name, data in kept.items():
        assert (out / "gen-0" / name).read_bytes() == data
    # The resumed run is the run that was never stopped.
    fresh = tmp_path / "fresh"
    whole = subprocess.run([*cmd[:5], str(fresh), *cmd[6:]], capture_output=True, text=True, timeout=600)
    assert whole.returncode == 0, whole.stderr
    assert (fresh / "policy.bin").read_bytes() == (out / "policy.bin").read_bytes()


def test_the_prior_waits_for_a_policy_that_learned_the_table_size() -> None:
    # No shipped network learned three-player games: there the search ranks its moves as
    # without the prior (a network off its data misled it at a size it never saw).
    game = genial.Game(players=3, seed=21)
    while len(game.moves) < 9:
        game.play(make("scarcity", seed=1).choose(game))
    fitted = genial.analyse(game, iterations=60, seed=3, level="expert")
    with_prior = parse_bot("expert:iterations=60,prior=policy", seed=3)
    assert with_prior.choose(game) == parse_bot("expert:iterations=60", seed=3).choose(game) == fitted.best.move


def test_each_table_size_has_its_network_and_a_new_one_replaces_only_its_own() -> None:
    two, four = genial.Game(players=2, seed=5), genial.Game(players=4, seed=5)
    shipped = [_core.policy_logits(g._state) for g in (two, four)]
    with pytest.raises(ValueError, match="3-player"):
        _core.policy_shipped_weights(3)
    assert _core.policy_shipped_weights(2) != _core.policy_shipped_weights(4)
    # The two-player file, its output bias moved, serves two players and leaves four alone.
    bias = bytearray(_core.policy_shipped_weights(2))
    bias[-4:] = (np.frombuffer(bytes(bias[-4:]), "<f4") + np.float32(1.0)).astype("<f4").tobytes()
    _core.use_policy_weights(bytes(bias))
    try:
        assert np.allclose(_core.policy_logits(two._state), shipped[0] + 1.0, atol=1e-5)
        assert np.array_equal(_core.policy_logits(four._state), shipped[1])
    finally:
        _core.use_policy_weights(None)
    assert np.array_equal(_core.policy_logits(two._state), shipped[0])

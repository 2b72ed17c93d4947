"""The rating ladder: its schedule, the results file and resuming, the fit and its
intervals, engines in the pool, the command."""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import resource
import shlex
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import genial.ladder
import numpy as np
import pytest
from genial.bots import BUILTIN_BOTS, LEVELS
from genial.cli import main
from genial.ladder import LadderRun, default_pool, fit, schedule

POOL = ["random", "greedy", "scarcity", "easy"]


def test_the_schedule_pairs_everyone_and_draws_four_distinct_bots() -> None:
    matches = schedule(5, rounds2=2, rounds4=3, seed=1)
    two = [m for m in matches if m.players == 2]
    four = [m for m in matches if m.players == 4]
    assert len(two) == 2 * 10 and len(four) == 3 * 5
    assert sorted({m.bots for m in two}) == [(a, b) for a in range(5) for b in range(a + 1, 5)]
    assert all(len(set(m.bots)) == 4 for m in four)
    assert len({m.key for m in matches}) == len(matches)
    assert schedule(5, 2, 3, seed=1) == matches and schedule(5, 2, 3, seed=2) != matches
    # Rotations: each bot of a match sits in each seat once.
    lineups = four[0].lineups()
    assert all(sorted(col) == sorted(four[0].bots) for col in zip(*lineups))
    with pytest.raises(ValueError):
        schedule(3, 1, 1, seed=0)
    pool = default_pool()
    assert sorted(pool) == sorted(BUILTIN_BOTS) and pool[0] == "random"
    assert [b for b in pool if b in LEVELS] == list(LEVELS)  # the levels, weakest first


def test_a_ladder_run_resumes_where_it_stopped(tmp_path: Path) -> None:
    whole = LadderRun(tmp_path / "whole.jsonl", POOL, rounds2=2, rounds4=1, seed=3)
    whole.play()
    lines = (tmp_path / "whole.jsonl").read_text().splitlines()
    assert len(lines) == 1 + len(whole.matches) == 1 + 12 + 4
    assert json.loads(lines[0])["pool"] == POOL

    path = tmp_path / "stopped.jsonl"
    run = LadderRun(path, POOL, rounds2=2, rounds4=1, seed=3)

    def stop(done: int, total: int) -> None:
        if done == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run.play(stop)
    with open(path, "a") as f:
        f.write('{"match": "2p-9", "play')  # the line being written when the run died
    again = LadderRun(path, POOL, rounds2=2, rounds4=1, seed=3)
    assert len(again.done) == 5 and len(again.remaining) == len(whole.matches) - 5
    again.play()
    assert path.read_text() == (tmp_path / "whole.jsonl").read_text()
    with pytest.raises(ValueError, match="another ladder run"):
        LadderRun(path, POOL, rounds2=3, rounds4=1, seed=3)
    with pytest.raises(ValueError, match="anchored"):
        LadderRun(tmp_path / "x.jsonl", ["greedy", "easy"])

    ratings = again.ratings(bootstrap=50)
    r = dict(zip(ratings.names, ratings.elo))
    assert r["random"] == 0 and r["greedy"] > 200 and r["scarcity"] > 200
    i = ratings.names.index("greedy")
    assert ratings.low[i] > 0 and ratings.low[i] <= ratings.elo[i] <= ratings.high[i]
    assert ratings.games == {2: 24, 4: 16}
    assert "| 1 |" in ratings.table() and "random" in ratings.matrix()


def test_the_fit_counts_four_player_games_as_pairwise_results() -> None:
    names = ["random", "a", "b", "c"]
    # One 4-player game: a first, b second, c and random share third.
    rows = [{"match": "4p-0", "players": 4, "games": [{"seats": ["a", "random", "b", "c"], "ranks": [0, 2, 1, 2]}]}]
    r = fit(names, rows, bootstrap=0)
    idx = {n: i for i, n in enumerate(names)}
    assert r.encounters.sum() == 12  # six pairs, seen from both sides
    assert r.points[idx["a"]].sum() == 3 and r.points[idx["c"], idx["random"]] == 0.5
    assert math.isnan(r.low[0])
    # Many games of a beating random three times in four: about 191 Elo (the prior's draw
    # pulls it in a little).
    game_w = {"seats": ["a", "random"], "ranks": [0, 1]}
    game_l = {"seats": ["a", "random"], "ranks": [1, 0]}
    halves = ([game_w] * 4, [game_w, game_w, game_l, game_l])
    many = [{"match": f"2p-{k}", "players": 2, "games": halves[k % 2]} for k in range(200)]
    r = fit(["random", "a"], many, bootstrap=100)
    assert 180 < r.elo[1] < 192
    assert r.low[1] < r.elo[1] < r.high[1] and r.high[1] - r.low[1] < 100
    assert np.allclose(r.elo[0], 0)


def test_an_engine_takes_its_place_on_the_ladder(tmp_path: Path) -> None:
    engine = f"engine:{shlex.quote(sys.executable)} -m genial engine --bot greedy"
    run = LadderRun(tmp_path / "r.jsonl", ["random", "greedy", engine], rounds2=1, rounds4=0, seed=1)
    run.play()
    ratings = run.ratings(bootstrap=20)
    assert engine in ratings.names and ratings.encounters[ratings.names.index(engine)].sum() == 4


@pytest.mark.slow
def test_the_ladder_command_writes_its_report_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "lad"
    cmd = [sys.executable, "-m", "genial", "ladder", "--out", str(out), "--pool", ",".join(POOL)]
    cmd += ["--rounds", "1", "--rounds4", "1", "--bootstrap", "20"]
    first = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True)
    assert "| rank | bot | Elo |" in first.stdout
    report = (out / "ladder.md").read_text()
    assert "Head to head" in report and "scarcity" in report
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True)
    assert "resuming" in again.stderr and "10 of 10 matches done" in again.stderr
    assert again.stdout.split("\n\n")[0] == first.stdout.split("\n\n")[0]  # the same table


def _ladder_cli(args: list[str], memory: int | None = None) -> subprocess.CompletedProcess[str]:
    """``genial ladder ARGS`` in its own session, its address space capped at ``memory``
    bytes (a schedule built whole would otherwise take the machine's memory)."""

    def cap() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    proc = subprocess.Popen(
        [sys.executable, "-m", "genial", "ladder", "--no-progress", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=cap,
    )
    try:
        out, err = proc.communicate(timeout=120)  # only a hang reaches this
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def test_an_absurd_round_count_is_refused_before_any_match(tmp_path: Path) -> None:
    # A billion rounds were built as a schedule in memory (11.7 GB after 10 minutes).
    res = _ladder_cli(["--rounds", "1000000000", "--out", str(tmp_path / "lad")], memory=4 << 30)
    assert res.returncode == 2, res.stderr
    line = res.stderr.strip()
    assert "Traceback" not in line and len(line.splitlines()) == 1
    # The default pool is every built-in bot: n bots make n(n-1)/2 pairs a 2-player round, and
    # one 4-player round is n matches.
    n = len(default_pool())
    assert f"{10**9 * n * (n - 1) // 2 + n:,} matches, more than the 100,000 a ladder plays" in line, line
    assert not (tmp_path / "lad").exists()
    with pytest.raises(ValueError, match="more than the 100,000"):
        schedule(9, rounds2=1, rounds4=10**9, seed=0)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--rounds", "-1"], "--rounds must be >= 0, not -1"),
        (["--rounds4", "-2"], "--rounds4 must be >= 0, not -2"),
        (["--bootstrap", "-1"], "--bootstrap must be in 0..100000, not -1"),
        (["--out", ""], "--out needs a folder name"),
    ],
)
def test_negative_counts_and_an_empty_out_are_refused(
    args: list[str], says: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code = main(["ladder", "--pool", "random,greedy", "--rounds4", "0", "--no-progress", *args])
    err = capsys.readouterr().err
    assert code == 2 and says in err and "Traceback" not in err, err
    assert not list(tmp_path.iterdir())  # nothing played, nothing written


def test_a_report_that_cannot_be_written_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "lad"
    (out / "ladder.md").mkdir(parents=True)  # the report's name taken by a folder
    argv = ["ladder", "--pool", "random,greedy", "--rounds", "1", "--rounds4", "0", "--bootstrap", "5"]
    code = main([*argv, "--no-progress", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err and "[Errno" not in err, err
    assert f"genial: error: cannot write {out / 'ladder.md'}: Is a directory" in err
    assert "1 match is kept in" in err and len(err.strip().splitlines()) == 1, err
    (out / "ladder.md").rmdir()

    # A full disk while the matches are appended: one line, the matches before it kept.
    def full(*a: Any, **kw: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(genial.ladder, "_match_row", full)
    code = main([*argv, "--no-progress", "--out", str(tmp_path / "full")])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err and "[Errno" not in err, err
    assert f"cannot write {tmp_path / 'full' / 'results.jsonl'}: No space left on device; 0 matches are kept" in err
    assert len(err.strip().splitlines()) == 1, err

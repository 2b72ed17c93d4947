"""``genial simulate --out DIR``: a partitioned Parquet dataset, one file per fixed range of
game numbers, written shard by shard, resumable, the same files however it was played.
(The Ray cluster's own test is tests/test_cluster.py.)"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import genial
import pytest
from genial.cli import main
from genial.dataset import Dataset, DatasetError, is_dataset_path, read_dataset
from genial.ladder import LadderRun
from genial.simulation import simulation_run

pq = pytest.importorskip("pyarrow.parquet", reason="the dataset is Parquet: pip install pyarrow")

BOTS = ["greedy", "random"]


def _run(games: int = 500, seed: int = 4, players: int = 2) -> tuple[genial.simulation.Run, int, int]:
    return simulation_run(games, BOTS, seed, rules=genial.Rules("standard", players))


def test_folder_or_file() -> None:
    assert is_dataset_path("games") and is_dataset_path("games/") and is_dataset_path("runs/2024")
    assert not is_dataset_path("games.csv") and not is_dataset_path("g.parquet") and not is_dataset_path("g.PQ")
    assert not is_dataset_path("games.json")  # a file of a format the writer refuses, not a folder
    assert is_dataset_path("runs/2024.11/")


@pytest.mark.parametrize(
    ("variant", "players", "bots"), [("standard", 2, BOTS), ("team", 4, BOTS * 2), ("solo", 1, ["greedy"])]
)
def test_a_dataset_reads_back_as_the_run(tmp_path: Path, variant: str, players: int, bots: list[str]) -> None:
    rules = genial.Rules(variant, players)
    run, games, first = simulation_run(230, bots, 9, rules=rules, first_game=70)
    ds = Dataset(tmp_path / "d", run, games, first, 100)
    assert [(s.first_game, s.games) for s in ds.pending()] == [(70, 100), (170, 100), (270, 30)]
    for shard in ds.pending():
        ds.write(shard, run.play(shard.first_game, shard.games, 1))
    expected = genial.simulate(230, bots=bots, seed=9, rules=rules, first_game=70, threads=2)
    assert read_dataset(tmp_path / "d") == expected
    assert sorted(os.listdir(tmp_path / "d")) == [
        "_meta.json",
        "part-00000.parquet",
        "part-00001.parquet",
        "part-00002.parquet",
    ]
    meta = json.loads((tmp_path / "d" / "_meta.json").read_text())
    assert meta["games"] == 230 and meta["shards_done"] == 3 and meta["layout"]["shard_games"] == 100
    # Each file carries the run and its range; Parquet readers see one table of every game.
    head = json.loads(pq.read_schema(tmp_path / "d" / "part-00001.parquet").metadata[b"genial"])
    assert head["shard"] == {"index": 1, "first_game": 170, "games": 100} and head["run_seed"] == 9
    table = pq.read_table(tmp_path / "d")
    assert table.num_rows == 230 and sorted(table.column("game").to_pylist()) == list(range(70, 300))


def test_opening_refuses_another_run_and_resumes_this_one(tmp_path: Path) -> None:
    run, games, first = _run()
    ds = Dataset(tmp_path, run, games, first, 200)
    ds.write(ds.shards[1], run.play(200, 200, 1))
    with pytest.raises(DatasetError, match="already holds a run"):
        Dataset(tmp_path, run, games, first, 200)
    other, _, _ = _run(seed=5)
    with pytest.raises(DatasetError, match="run_seed"):
        Dataset(tmp_path, other, games, first, 200, resume=True)
    with pytest.raises(DatasetError, match="layout"):
        Dataset(tmp_path, run, games, first, 100, resume=True)
    meta = json.loads((tmp_path / "_meta.json").read_text())
    (tmp_path / "_meta.json").write_text(json.dumps({**meta, "genial_version": "0.0.1"}))
    with pytest.raises(DatasetError, match="genial_version"):
        Dataset(tmp_path, run, games, first, 200, resume=True)
    (tmp_path / "_meta.json").write_text(json.dumps(meta))
    # A shard a killed run was writing is not a shard.
    (tmp_path / ".part-00000.parquet.x1.partial").write_bytes(b"PAR1 half")
    again = Dataset(tmp_path, run, games, first, 200, resume=True)
    assert [s.index for s in again.pending()] == [0, 2] and again.games_done == 200
    assert not list(tmp_path.glob("*.partial")) and not list(tmp_path.glob(".*partial"))
    # A file in a shard's place that genial did not write there is not counted: it is moved
    # aside, kept, and its shard played again.
    pq.write_table(run.play(0, 10, 1).to_arrow(), tmp_path / "part-00000.parquet")
    with pytest.raises(DatasetError, match=r"part-00000\.parquet is not listed in"):
        read_dataset(tmp_path)
    put = (tmp_path / "part-00000.parquet").read_bytes()
    again = Dataset(tmp_path, run, games, first, 200, resume=True)
    assert [s.index for s in again.pending()] == [0, 2] and again.games_done == 200
    assert again.set_aside == [tmp_path / "part-00000.parquet.unlisted"]
    assert again.set_aside[0].read_bytes() == put and not (tmp_path / "part-00000.parquet").exists()


def test_the_command_writes_the_same_files_in_one_go_or_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["simulate", "--games", "900", "--bots", "greedy,random", "--seed", "2", "--shard-games", "250", "-q"]
    assert main([*args, "--out", str(tmp_path / "whole"), "--threads", "2"]) == 0
    assert "900 in the dataset" in capsys.readouterr().out
    whole = {f.name: f.read_bytes() for f in (tmp_path / "whole").glob("part-*")}
    assert len(whole) == 4
    # Again into the same folder: refused without --resume, nothing touched.
    assert main([*args, "--out", str(tmp_path / "whole")]) == 2
    assert "--resume" in capsys.readouterr().err
    # A folder missing shards: --resume plays only those, with the same bytes.
    part = tmp_path / "part"
    assert main([*args, "--out", str(part), "--threads", "1"]) == 0
    (part / "part-00001.parquet").unlink()
    (part / "part-00003.parquet").unlink()
    kept = (part / "part-00000.parquet").stat().st_mtime_ns
    assert main([*args[:-1], "--out", str(part), "--resume"]) == 0
    captured = capsys.readouterr()
    assert "2 of 4 shards done, 2 to play" in captured.err and "900 in the dataset" in captured.out
    assert (part / "part-00000.parquet").stat().st_mtime_ns == kept
    assert {f.name: f.read_bytes() for f in part.glob("part-*")} == whole
    rules = genial.Rules("standard", 2)
    assert read_dataset(part) == genial.simulate(900, bots=BOTS, seed=2, rules=rules)


def test_dataset_options_need_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for extra in (["--ray", "auto"], ["--resume"], ["--shard-games", "10"]):
        assert main(["simulate", "--games", "10", *extra, "--out", str(tmp_path / "g.csv")]) == 2
        assert "give --out DIR" in capsys.readouterr().err
        assert main(["simulate", "--games", "10", *extra]) == 2
    assert not (tmp_path / "g.csv").exists()


@pytest.mark.slow
def test_ctrl_c_keeps_the_finished_shards_and_resume_completes(tmp_path: Path) -> None:
    out = tmp_path / "d"
    cmd = [sys.executable, "-m", "genial", "simulate", "--games", "3000", "--bots", "greedy,random", "--seed", "8"]
    cmd += ["--shard-games", "150", "--threads", "1", "--no-progress", "--out", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while len(list(out.glob("part-*.parquet"))) < 2:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    stdout, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130, stdout
    done = len(list(out.glob("part-*.parquet")))
    assert 2 <= done < 20 and "add --resume" in stdout and f"{done} of 20 shards" in stdout
    assert not list(out.glob(".*partial"))
    resumed = subprocess.run([*cmd, "--resume", "-q"], capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    rules = genial.Rules("standard", 2)
    assert read_dataset(out) == genial.simulate(3000, bots=BOTS, seed=8, rules=rules)


def test_ladder_ratings_do_not_depend_on_the_order_matches_finished(tmp_path: Path) -> None:
    pool = ["random", "greedy", "scarcity", "easy"]
    run = LadderRun(tmp_path / "a.jsonl", pool, rounds2=1, rounds4=1, seed=2)
    run.play()
    lines = (tmp_path / "a.jsonl").read_text().splitlines()
    # The same matches finished in another order (as a cluster returns them).
    (tmp_path / "b.jsonl").write_text("\n".join([lines[0], *reversed(lines[1:])]) + "\n")
    other = LadderRun(tmp_path / "b.jsonl", pool, rounds2=1, rounds4=1, seed=2)
    assert not other.remaining
    a, b = run.ratings(bootstrap=40), other.ratings(bootstrap=40)
    assert a.table() == b.table() and a.matrix() == b.matrix()

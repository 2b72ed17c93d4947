"""benches/cpu_times.py's PettingZoo loop, at a toy size: its `--compare` mode times each
build on games it records itself, so the recording must be the same games every time, and
the replay must play them to the end. And its `--pingpong` mode, with two workers of this
interpreter for a few rounds."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from conftest import ROOT, load_script

pytest.importorskip("pettingzoo")


def cpu_times() -> ModuleType:
    return load_script("genial_bench_cpu_times", ROOT / "benches" / "cpu_times.py")


def test_the_recorded_games_are_the_same_each_time_and_play_to_the_end() -> None:
    bench = cpu_times()
    env, first = bench.pettingzoo_games(4)
    _, second = bench.pettingzoo_games(4)
    assert first == second
    for seed, actions in enumerate(first):
        assert actions[-1] is None and any(a is not None for a in actions)
        env.reset(seed=seed)
        for action in actions:
            env.step(action)
        assert env.agents == [], f"game {seed} did not end with its recorded actions"


def test_the_replay_times_are_per_step() -> None:
    step, step_last = cpu_times().pettingzoo_times(reps=1, count=2)
    assert all(math.isfinite(x) and 0 < x < 1 for x in (step, step_last))


def test_the_median_interval_brackets_the_median_by_order_statistics() -> None:
    m, lo, hi = cpu_times().median_interval([float(x) for x in range(1, 101)])
    assert m == 50.5
    # 100 values: the 95 % interval of the median runs from about the 40th to the 60th.
    assert 38 <= lo <= 42 and 59 <= hi <= 63
    assert cpu_times().median_interval([2.0]) == (2.0, 2.0, 2.0)


def test_pingpong_pairs_each_arm_with_the_first_and_leaves_no_worker() -> None:
    script = str(ROOT / "benches" / "cpu_times.py")
    arms = [f"a={sys.executable}", f"b={sys.executable}"]
    figures = ["clone", "clone_play", "play", "pz_step"]
    out = subprocess.run(
        [sys.executable, script, "--pingpong", *arms, "--rounds", "3", "--figures", *figures],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    lines = out.splitlines()
    assert [x for x in lines if not x.startswith(" ")] == [
        "clone (us), 3 rounds:",
        "clone + play (us), 3 rounds:",
        "play alone (us), 3 rounds:",
        "PettingZoo step() (us), 3 rounds:",
    ]
    # The first arm is each ratio's reference; the second gets a ratio of its own.
    firsts = [x for x in lines if x.strip().startswith("a ")]
    assert len(firsts) == 4 and all("1.000" in x for x in firsts)
    seconds = [x for x in lines if x.strip().startswith("b ") and "paired ratio" in x]
    assert len(seconds) == 3
    for x in seconds:
        ratio = float(x.split("paired ratio ")[1].split()[0])
        assert 0.1 < ratio < 10  # two workers of one build: about 1, whatever the load (not a time)
    workers = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            args = cmdline.read_bytes().split(b"\0")
        except OSError:  # the process ended meanwhile
            continue
        if script.encode() in args and b"--worker" in args:
            workers.append(cmdline.parent.name)
    assert workers == [], f"workers left running: {workers}"

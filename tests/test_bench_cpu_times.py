"""benches/cpu_times.py's PettingZoo loop, at a toy size: its `--compare` mode times each
build on games it records itself, so the recording must be the same games every time, and
the replay must play them to the end."""

from __future__ import annotations

import math
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

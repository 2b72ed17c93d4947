"""The instruction-count guard's logic (benches/instructions.py): the 2 % threshold, its
messages, the update path and its reason. No valgrind: the measurement is replaced by fixed
counts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, load_script

guard: Any = load_script("genial_bench_guard", ROOT / "benches" / "instructions.py")


def baseline(**counts: float) -> dict[str, Any]:
    return {
        "date": "2026-01-01 00:00 UTC",
        "commit": "abc1234",
        "workloads": {name: {"per_unit": c, "unit": "game", "units": 40} for name, c in counts.items()},
    }


def test_within_the_threshold_passes_and_above_it_fails_naming_everything():
    verdict = guard.compare(baseline(game_2p=100_000.0), {"game_2p": 101_999.0})
    assert verdict.ok and not verdict.notes
    verdict = guard.compare(baseline(game_2p=100_000.0), {"game_2p": 102_000.0})
    assert verdict.ok  # exactly the limit is allowed
    verdict = guard.compare(baseline(game_2p=100_000.0, legal_moves=8.0), {"game_2p": 102_100.0, "legal_moves": 8.1})
    assert not verdict.ok
    [message] = verdict.failures
    assert "REGRESSION game_2p" in message
    assert "102,100.0 instructions per game" in message  # the count
    assert "baseline 100,000.0" in message  # the baseline
    assert "+2.10 %" in message and "limit +2 %" in message  # the change and the limit
    assert "--update --reason" in message


def test_a_small_count_is_compared_with_its_decimals():
    verdict = guard.compare(baseline(legal_moves=8.0), {"legal_moves": 8.2})
    assert not verdict.ok
    assert "8.20 instructions" in verdict.failures[0] and "+2.50 %" in verdict.failures[0]


def test_a_large_drop_is_reported_and_does_not_fail():
    verdict = guard.compare(baseline(game_2p=100_000.0), {"game_2p": 90_000.0})
    assert verdict.ok
    [note] = verdict.notes
    assert "game_2p" in note and "-10.00 %" in note and "update the baseline" in note
    assert guard.compare(baseline(game_2p=100_000.0), {"game_2p": 98_500.0}).notes == []


def test_new_and_unmeasured_workloads_are_noted():
    verdict = guard.compare(baseline(game_2p=1.0, game_3p=1.0), {"game_2p": 1.0, "simulate_10": 5.0})
    assert verdict.ok
    assert any("simulate_10" in n and "no baseline" in n for n in verdict.notes)
    assert any("game_3p" in n and "not measured" in n for n in verdict.notes)


def test_an_update_needs_a_reason():
    for reason in ("", "   "):
        with pytest.raises(ValueError, match="reason"):
            guard.updated_baseline(baseline(game_2p=1.0), {}, {}, reason)
    assert guard.main(["--update"]) == 2  # refused before anything is measured
    assert guard.main(["--update", "--reason", "  "]) == 2


def test_an_update_replaces_what_was_measured_and_keeps_the_rest():
    old = baseline(game_2p=100.0, game_3p=200.0)
    measured = {"game_2p": {"per_unit": 90.0, "unit": "game", "units": 40}}
    new = guard.updated_baseline(old, measured, {"commit": "def5678"}, " faster generator ")
    assert new["reason"] == "faster generator" and new["commit"] == "def5678"
    assert new["workloads"]["game_2p"]["per_unit"] == 90.0
    assert new["workloads"]["game_3p"]["per_unit"] == 200.0
    line = guard.log_line(old, new, "2026-11-27 01:00 UTC", "def5678")
    assert line.startswith("- 2026-11-27 01:00 UTC, `def5678`: faster generator (")
    assert "game_2p 100.0 → 90.00 (-10.00 %)" in line and "game_3p" not in line


def test_the_log_line_goes_above_the_marker():
    text = f"# B\n\n## Guard\n\n{guard.LOG_MARKER}\n\n## Next\n"
    once = guard.append_log(text, "- one")
    twice = guard.append_log(once, "- two")
    assert twice == f"# B\n\n## Guard\n\n- one\n- two\n{guard.LOG_MARKER}\n\n## Next\n"
    with pytest.raises(ValueError, match="guard-log"):
        guard.append_log("# no marker\n", "- one")


def _fake_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, counts: dict[str, float]) -> tuple[Path, Path]:
    base, bench = tmp_path / "instructions.json", tmp_path / "HISTORY.md"
    base.write_text(json.dumps(baseline(game_2p=100_000.0, legal_moves=8.0)))
    bench.write_text(f"## Guard\n\n{guard.LOG_MARKER}\n")
    monkeypatch.setattr(guard, "BASELINE", base)
    monkeypatch.setattr(guard, "HISTORY", bench)
    monkeypatch.setattr(guard.shutil, "which", lambda _name: "/usr/bin/valgrind")
    monkeypatch.setattr(guard, "metadata", lambda: {"date": "2026-11-27 01:00 UTC", "commit": "def5678"})
    monkeypatch.setattr(
        guard,
        "measure",
        lambda names: {n: {"per_unit": c, "unit": "game", "units": 40} for n, c in counts.items() if n in names},
    )
    return base, bench


def test_the_command_fails_on_a_regression_and_passes_after_an_update(monkeypatch, tmp_path, capsys):
    base, bench = _fake_run(monkeypatch, tmp_path, {"game_2p": 110_000.0, "legal_moves": 8.0})
    assert guard.main(["--only", "game_2p", "legal_moves"]) == 1
    err = capsys.readouterr().err
    assert "REGRESSION game_2p" in err and "+10.00 %" in err and "1 workload(s) regressed" in err
    assert guard.main(["--only", "game_2p", "legal_moves", "--update", "--reason", "explanations on every play"]) == 0
    assert json.loads(base.read_text())["workloads"]["game_2p"]["per_unit"] == 110_000.0
    assert "explanations on every play (game_2p 100,000.0 → 110,000.0 (+10.00 %))" in bench.read_text()
    assert bench.read_text().endswith(f"{guard.LOG_MARKER}\n")
    assert guard.main(["--only", "game_2p", "legal_moves"]) == 0


def test_the_committed_baseline_covers_every_workload():
    recorded = json.loads(guard.BASELINE.read_text())
    assert set(recorded["workloads"]) == set(guard.WORKLOADS)
    for entry in recorded["workloads"].values():
        assert entry["per_unit"] > 0 and entry["unit"] and entry["units"] > 0
    for key in ("date", "commit", "build", "rustc", "valgrind", "reason"):
        assert recorded[key]
    assert guard.LOG_MARKER in guard.HISTORY.read_text()


def test_pettingzoo_missing_is_skipped_with_a_reason(monkeypatch, capsys):
    real = guard.importlib.util.find_spec
    monkeypatch.setattr(guard.importlib.util, "find_spec", lambda m: None if m == "pettingzoo" else real(m))
    assert guard.skip_reason("pettingzoo_step") == "pettingzoo not installed (pip install 'genial-engine[rl]')"
    assert guard.skip_reason("simulate_10") is None
    monkeypatch.setattr(guard, "rust_binary", lambda: "")
    assert guard.measure(["pettingzoo_step"]) == {}
    assert "SKIPPED pettingzoo_step: pettingzoo not installed" in capsys.readouterr().out

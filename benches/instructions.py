"""The instruction-count guard: the hot paths' instructions under callgrind, against the
baselines kept in ``benches/instructions.json`` (BENCHMARKS.md, "Instruction-count guard";
its method and log: benches/results/HISTORY.md).

    python benches/instructions.py                      # measure, compare, exit 1 on a regression
    python benches/instructions.py --update --reason "why the counts moved"
    python benches/instructions.py --only game_2p legal_moves

Instruction counts do not depend on the machine's load, so the guard can be strict: it fails
when any workload runs more than 2 % more instructions per unit than its baseline, naming the
workload, the baseline, the count and the change. A count that fell by more than 2 % is
reported (not failed): update the baseline, or a later regression hides in the gain.
``--update`` rewrites the baselines and needs ``--reason``, which it also appends, with the
old and new counts, to the guard's log in benches/results/HISTORY.md.

Only the measured region is counted (``valgrind --tool=callgrind --toggle-collect=...``): for
the core's workloads the Rust function ``measured`` of ``benches/instructions.rs`` (built here
with the release profile, like the extension), for the Python ones a call of
``operator.call`` in ``benches/instructions_worker.py``, whose C function ``_operator_call``
nothing else in the process calls. Start-up, imports, building the positions and a warm-up
run stay outside. Everything is seeded; the measured programs get a fixed environment, the
Python workers ``PYTHONHASHSEED=0``, compiled bytecode and no cyclic garbage collector
inside the region.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "benches" / "instructions.json"
# The dated history, whose guard section keeps the log of baseline updates (BENCHMARKS.md
# itself holds only the current figures).
HISTORY = ROOT / "benches" / "results" / "HISTORY.md"
# The Python workloads, in a file of their own: the code a worker compiles before its region
# moves the heap the region starts on, so the driver's code must not be part of it.
WORKER = ROOT / "benches" / "instructions_worker.py"
# The update lines go just above this marker, at the end of HISTORY.md's guard section.
LOG_MARKER = "<!-- genial:guard-log -->"
THRESHOLD = 2.0  # per cent, both ways: more fails, less is reported

# name -> (where it runs, what one unit is); the order is the report's.
WORKLOADS: dict[str, tuple[str, str]] = {
    "game_2p": ("rust", "a whole random 2-player game (sim::random_game)"),
    "game_3p": ("rust", "a whole random 3-player game"),
    "game_4p": ("rust", "a whole random 4-player game"),
    "legal_moves": (
        "rust",
        "a move listed by Game::legal_moves (every position of 18 random games)",
    ),
    "python_clone": ("python", "Game.clone() from Python"),
    "python_clone_play": ("python", "Game.clone().play(move) from Python"),
    "pettingzoo_step": (
        "python",
        "a PettingZoo decision: last(), a random legal action, step()",
    ),
    "simulate_10": (
        "python",
        "a call of genial.simulate(10, seed=3, threads=1), the least of 8",
    ),
}
RUST_MARKER = "*instructions::measured*"
PYTHON_MARKER = "_operator_call"


# --- comparison and update: pure, tested by tests/test_bench_guard.py ---------------------


@dataclass
class Verdict:
    failures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    rows: list[tuple[str, str, str, str, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


def fmt(count: float) -> str:
    """A count per unit: two decimals below 100 (a generator's few instructions a move), one above."""
    return f"{count:,.2f}" if abs(count) < 100 else f"{count:,.1f}"


def change_percent(baseline: float, count: float) -> float:
    return (count - baseline) / baseline * 100.0


def compare(baseline: dict[str, Any], counts: dict[str, float], threshold: float = THRESHOLD) -> Verdict:
    """Each count (instructions per unit) against its baseline entry; a failure for every
    count more than ``threshold`` per cent above its baseline, a note for one more than
    ``threshold`` per cent below, for a workload without a baseline, and for a baseline
    that was not measured."""
    verdict = Verdict()
    recorded = baseline.get("workloads", {})
    for name, count in counts.items():
        entry = recorded.get(name)
        if entry is None:
            verdict.notes.append(f"{name}: {fmt(count)} instructions, no baseline yet (run with --update --reason)")
            verdict.rows.append((name, "-", fmt(count), "-", "new"))
            continue
        base = float(entry["per_unit"])
        delta = change_percent(base, count)
        unit = entry.get("unit", "unit")
        status = "ok"
        if delta > threshold:
            status = "REGRESSION"
            verdict.failures.append(
                f"REGRESSION {name}: {fmt(count)} instructions per {unit} against the baseline "
                f"{fmt(base)} ({delta:+.2f} %, limit +{threshold:g} %). Find the cause, or if the cost "
                f'is wanted: python benches/instructions.py --update --reason "..."'
            )
        elif delta < -threshold:
            status = "faster"
            verdict.notes.append(
                f"{name}: {fmt(count)} instructions per {unit} against the baseline {fmt(base)} "
                f"({delta:+.2f} %): faster; update the baseline (--update --reason) so that the next "
                f"regression cannot hide in this gain"
            )
        verdict.rows.append((name, fmt(base), fmt(count), f"{delta:+.2f} %", status))
    for name in recorded:
        if name not in counts:
            verdict.notes.append(f"{name}: not measured this run")
    return verdict


def updated_baseline(
    old: dict[str, Any],
    measured: dict[str, dict[str, Any]],
    meta: dict[str, Any],
    reason: str,
) -> dict[str, Any]:
    """The new baseline file's content: the measured workloads replace their entries, the
    others are kept. Refuses an update without a reason."""
    if not reason or not reason.strip():
        raise ValueError("an update of the baselines needs a reason: --update --reason '...'")
    workloads = dict(old.get("workloads", {}))
    workloads.update(measured)
    return {
        **meta,
        "reason": reason.strip(),
        "workloads": {k: workloads[k] for k in sorted(workloads)},
    }


def log_line(old: dict[str, Any], new: dict[str, Any], date: str, commit: str) -> str:
    """The line the update appends to HISTORY.md: date, commit, reason, counts that moved."""
    moves = []
    for name, entry in new["workloads"].items():
        before = old.get("workloads", {}).get(name)
        now = float(entry["per_unit"])
        if before is None:
            moves.append(f"{name} {fmt(now)} (new)")
        elif float(before["per_unit"]) != now:
            was = float(before["per_unit"])
            moves.append(f"{name} {fmt(was)} → {fmt(now)} ({change_percent(was, now):+.2f} %)")
    counts = "; ".join(moves) if moves else "no count moved"
    return f"- {date}, `{commit}`: {new['reason']} ({counts})"


def append_log(text: str, line: str) -> str:
    """``text`` (HISTORY.md) with ``line`` inserted just above the guard's marker."""
    if LOG_MARKER not in text:
        raise ValueError(f"{HISTORY.name} has no {LOG_MARKER} line in its guard section")
    return text.replace(LOG_MARKER, f"{line}\n{LOG_MARKER}", 1)


# --- measuring ---------------------------------------------------------------------------


def callgrind_total(path: Path) -> int:
    """The instructions (Ir) a callgrind output file counted."""
    for line in path.read_text().splitlines():
        if line.startswith(("totals:", "summary:")):
            return int(line.split()[1])
    raise RuntimeError(f"no totals in {path}")


def run_counted(command: list[str], marker: str, env: dict[str, str], workdir: Path) -> tuple[int, dict[str, Any]]:
    """Runs ``command`` under callgrind, collecting inside ``marker`` only; the instructions
    of the measured region and what the program reported. With ``"regions": N`` in its
    report, each of its N calls of the region is dumped on its own and the least is taken:
    the same work each time, and the least is the call that nothing outside it disturbed
    (the run loop's 50 ms poll of Python's signal handlers, which a loaded machine makes a
    slow call under valgrind meet)."""
    for old in workdir.glob("callgrind.out*"):
        old.unlink()
    out = workdir / "callgrind.out"
    full = [
        "valgrind",
        "--tool=callgrind",
        f"--toggle-collect={marker}",
        f"--callgrind-out-file={out}",
    ]
    if marker == PYTHON_MARKER:
        full.append(f"--dump-after={marker}")
    full += command
    done = subprocess.run(full, capture_output=True, text=True, env=env, cwd=workdir)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(full)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    totals = [callgrind_total(path) for path in sorted(workdir.glob("callgrind.out*"))]
    totals = [t for t in totals if t]  # the dump at exit counted nothing
    if not totals:
        raise RuntimeError(
            f"callgrind counted nothing in {marker!r} for {command}: the symbol is missing "
            f"(a stripped binary?), so the measured region cannot be found"
        )
    regions = int(report.get("regions", 1))
    if regions > 1:
        if len(totals) != regions:
            raise RuntimeError(f"{command}: {regions} regions reported, {len(totals)} counted")
        return min(totals), report
    return sum(totals), report


def rust_binary() -> str:
    """Builds benches/instructions.rs with the release profile; the executable's path."""
    done = subprocess.run(
        [
            "cargo",
            "build",
            "--release",
            "--quiet",
            "--bench",
            "instructions",
            "--message-format=json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"cargo build --release --bench instructions failed:\n{done.stderr[-3000:]}")
    for line in done.stdout.splitlines():
        message = json.loads(line)
        if message.get("target", {}).get("name") == "instructions" and message.get("executable"):
            return str(message["executable"])
    raise RuntimeError("cargo did not report the instructions executable")


def worker_env() -> dict[str, str]:
    """The measured programs' whole environment: what finds the tools and genial, and the
    pins. Nothing else: the size of the environment moves the interpreter's first
    allocations, and with them the cost of some later ones (up to 0.3 % of a Python count)."""
    keep = ("PATH", "HOME", "PYTHONPATH", "VIRTUAL_ENV", "LD_LIBRARY_PATH")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.update(PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", RAYON_NUM_THREADS="1", LC_ALL="C")
    return env


def skip_reason(name: str) -> str | None:
    if name == "pettingzoo_step":
        missing = [m for m in ("pettingzoo", "gymnasium") if importlib.util.find_spec(m) is None]
        if missing:
            return f"{' and '.join(missing)} not installed (pip install 'genial-engine[rl]')"
    return None


def compile_python(env: dict[str, str]) -> None:
    """Imports what the Python workers import, natively, so that every worker loads the same
    bytecode caches: a worker that compiled genial's modules itself started its region on
    another heap and counted `python_clone` 0.6 % apart."""
    modules = "import genial, genial.envs.pettingzoo" if skip_reason("pettingzoo_step") is None else "import genial"
    subprocess.run([sys.executable, "-c", modules], env=env, check=True)


def measure(names: list[str]) -> dict[str, dict[str, Any]]:
    results: dict[str, dict[str, Any]] = {}
    binary = rust_binary() if any(WORKLOADS[n][0] == "rust" for n in names) else ""
    if any(WORKLOADS[n][0] == "python" for n in names):
        compile_python(worker_env())
    with tempfile.TemporaryDirectory(prefix="genial-guard-") as tmp:
        for name in names:
            kind, _what = WORKLOADS[name]
            reason = skip_reason(name)
            if reason:
                print(f"SKIPPED {name}: {reason}", flush=True)
                continue
            started = time.monotonic()
            if kind == "rust":
                total, report = run_counted([binary, name], RUST_MARKER, worker_env(), Path(tmp))
            else:
                command = [sys.executable, str(WORKER), name]
                total, report = run_counted(command, PYTHON_MARKER, worker_env(), Path(tmp))
            units = int(report["units"])
            results[name] = {
                "per_unit": round(total / units, 3),
                "unit": report["unit"],
                "units": units,
                "instructions": total,
            }
            seconds = time.monotonic() - started
            print(
                f"  {name:<18} {fmt(total / units):>14} per {report['unit']:<12} ({seconds:.1f} s)",
                flush=True,
            )
    return results


def tool_version(command: list[str]) -> str:
    try:
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def metadata() -> dict[str, Any]:
    versions = {"python": platform.python_version()}
    for module in ("numpy", "pettingzoo", "gymnasium"):
        try:
            versions[module] = __import__(module).__version__
        except ImportError:
            versions[module] = "missing"
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": tool_version(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"]),
        "build": "release profile (Cargo.toml: lto = fat, codegen-units = 1); the extension with "
        "features = python as `make develop` builds it, the core's workloads as benches/instructions.rs",
        "rustc": tool_version(["rustc", "--version"]),
        "valgrind": tool_version(["valgrind", "--version"]),
        "versions": versions,
        "threshold_percent": THRESHOLD,
    }


def tool_notes(baseline: dict[str, Any]) -> list[str]:
    """What differs from the tools the baseline was counted with: a compiler or an interpreter
    of another version changes the counts by itself."""
    notes = []
    now = {
        "rustc": tool_version(["rustc", "--version"]),
        "python": platform.python_version(),
    }
    then = {
        "rustc": baseline.get("rustc"),
        "python": baseline.get("versions", {}).get("python"),
    }
    for tool in now:
        if then[tool] and then[tool] != now[tool]:
            notes.append(f"the baseline was counted with {tool} {then[tool]}, this run uses {now[tool]}")
    return notes


# --- the command line ----------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="rewrite the baselines (needs --reason)")
    parser.add_argument("--reason", default="", help="why the counts moved; appended to benches/results/HISTORY.md")
    parser.add_argument(
        "--only",
        nargs="+",
        choices=list(WORKLOADS),
        help="measure only these workloads",
    )
    parser.add_argument("--json", type=Path, help="also write the measured counts here")
    args = parser.parse_args(argv)

    if args.update and not args.reason.strip():
        print(
            "error: --update needs --reason '...': the line benches/results/HISTORY.md keeps for the change",
            file=sys.stderr,
        )
        return 2
    if shutil.which("valgrind") is None:
        print(
            "error: valgrind is not installed (apt-get install valgrind)",
            file=sys.stderr,
        )
        return 2

    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    names = args.only or list(WORKLOADS)
    print(f"instructions per unit under callgrind ({len(names)} workloads):", flush=True)
    measured = measure(names)
    if args.json:
        args.json.write_text(json.dumps(measured, indent=2) + "\n")
    counts = {name: entry["per_unit"] for name, entry in measured.items()}
    verdict = compare(baseline, counts)

    print()
    print(f"{'workload':<18} {'baseline':>14} {'now':>14} {'change':>10}  status")
    for row in verdict.rows:
        print(f"{row[0]:<18} {row[1]:>14} {row[2]:>14} {row[3]:>10}  {row[4]}")
    if baseline:
        print(f"baseline: {baseline.get('date')}, {baseline.get('commit')}, {baseline.get('rustc')}")
        for note in tool_notes(baseline):
            print(f"note: {note}")
    for note in verdict.notes:
        print(f"note: {note}")

    if args.update:
        meta = metadata()
        new = updated_baseline(baseline, measured, meta, args.reason)
        line = log_line(baseline, new, meta["date"], meta["commit"])
        HISTORY.write_text(append_log(HISTORY.read_text(), line))
        BASELINE.write_text(json.dumps(new, indent=2, ensure_ascii=False) + "\n")
        print(f"updated {BASELINE}; {HISTORY.name}: {line}")
        return 0
    for failure in verdict.failures:
        print(failure, file=sys.stderr)
    if not verdict.ok:
        print(
            f"error: {len(verdict.failures)} workload(s) regressed by more than {THRESHOLD:g} %",
            file=sys.stderr,
        )
        return 1
    print(f"ok: no workload grew by more than {THRESHOLD:g} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())

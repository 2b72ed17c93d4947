"""Every shell line a reader would copy from README.md and docs/*.md runs, so that an
example can never fail again unnoticed (the README's tournament line once exited 2).

The lines are found, not listed: the lines of the ``sh``/``bash``/``shell``/``console``
blocks, the ``$ `` lines of ``text`` blocks, and the code spans of the prose that start
with a command (``genial``, ``python``, ``make``, ``pip``, ...). Each one is either run, in
a scratch folder, by bash as written after the size changes of `SIZES` (and of `OVERRIDES`,
the few lines whose own bots would take minutes), or named by `NOT_RUN` with the reason
(installers and builds, which ``.ci/run`` runs; a Ray cluster; a maintainer's benchmark;
a pattern with a placeholder such as ``RECORD``). A new line that is neither fails here.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import genial
import pytest
from conftest import ROOT
from genial.cli.common import split_bot_specs
from genial.tournament import lineups_count

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_FENCE = re.compile(r"^ *```(\w*)[^\n]*\n(.*?)^ *```", re.DOTALL | re.MULTILINE)
_SHELL = {"sh", "bash", "shell", "console"}
_SPAN_COMMAND = re.compile(r"(genial|python3?|make|pip|cargo|maturin|ray|git|sqlite3|\.venv/bin/genial) ")
# Generous: only a hang reaches it.
DEADLINE = 300.0

#: Lines not run here, by a pattern that finds them, and why.
NOT_RUN: dict[str, str] = {
    r"^(pip|maturin) ": "installs or builds: .ci/run builds the wheel and installs it (make wheel-smoke)",
    r"^make ": "a make target: .ci/run runs make lint, make test, make bench-guard and make wheel-smoke",
    r"^cargo ": "Rust builds and tests: make test runs cargo test",
    r"^git clone ": "a clone of the repository, what .ci/run starts from",
    r"^ray start": "a Ray cluster node: tests/test_cluster.py starts a local cluster",
    r"--ray\b": "needs a Ray cluster: tests/test_cluster.py runs --ray on a local one",
    r"^python3? (benches|tools)/": "a maintainer's benchmark or tool, minutes of CPU by design (BENCHMARKS.md)",
    r"^python3? -c \"import sqlite3": "the operator's backup of a live server's database (docs/hosting.md)",
    r"^sqlite3 ": "the operator's backup with the sqlite3 program (docs/hosting.md)",
    r"/opt/engines/|/var/(lib|log)/": "the operator's service, with an engine and folders of that machine",
    r"\b(RECORD|TEXT|DIR|FILE|SPEC|COMMAND|REPO|AGENT)\b|\.\.\./": "a pattern, with a placeholder to fill in",
    r"^genial (replay|render|analyse|engine-check)$": "a command named in a sentence: it needs a record or an engine",
    r"^genial (train|evaluate)$": "a command named in a sentence: a whole training run, or an agent to evaluate",
    r"^python -m genial$": "the command named in a sentence (without a subcommand it shows its usage, status 2)",
    r"train_maskable_ppo\.py": "needs the learn extra (PyTorch): tests/test_examples.py runs it where installed",
}

#: Size changes applied to every line run: (pattern, replacement, why).
SIZES: list[tuple[str, str, str]] = [
    (r"(genial simulate .*--games )\d+", r"\g<1>40", "40 games instead of millions"),
    # (A tournament's --games becomes one round, every bot in every seat once: `_sized`.)
    (r"iterations=\d+", "iterations=20", "20 search iterations a move"),
    (r"--rounds \d+", "--rounds 1", "one 2-player round"),
    (r"--rounds4 \d+", "--rounds4 1", "one 4-player round"),
    (r"^(python examples/custom_bot\.py)$", r"\1 --games 6", "6 games"),
    (
        r"^(python examples/first_player_advantage\.py)$",
        r"\1 --games 20 --bots random --threads 1 --out fpa.png",
        "20 random games a rule set",
    ),
    (
        r"^(python examples/train_vecenv\.py)$",
        r"\1 --envs 8 --updates 3 --steps 20 --eval-games 8 --table-games 3",
        "3 updates of 8 envs",
    ),
    (
        r"^(genial train .*)$",
        r"\1 --games 4,4 --holdout 2 --epochs 2 --hidden 8 --monitor-games 0 --teacher expert:iterations=20 --threads 1",
        "a toy training run: two generations of 4 games searched 20 iterations a move",
    ),
    (
        r"^(python examples/selfplay_ppo\.py .*)$",
        r"\1 --total-decisions 600 --num-envs 8 --decisions-per-update 128 --hidden 8 --eval-every 2 --eval-games 4",
        "600 learner decisions instead of 500,000",
    ),
    (r"^(genial evaluate .*?)( --games \d+)?$", r"\1 --games 8 --threads 1", "8 games against each opponent"),
    (r"--host 0\.0\.0\.0 --port 8080", "--host 127.0.0.1 --port 0", "a test listens on the loopback, any port"),
    (r"^(genial serve)(?!.*--port)", r"\1 --port 0", "any free port"),
]

#: Lines whose own bots would take minutes even at the smallest size: what runs instead, and why.
OVERRIDES: dict[str, tuple[str, str]] = {
    "genial tournament --bots random,greedy,scarcity,easy,medium,hard,expert,mcts --games 336 --seed 2027": (
        "genial tournament --bots random,greedy,scarcity,easy --games 12 --seed 2027",
        "the levels' strength table: its round of 56 games with hard and expert takes minutes; its first four bots",
    ),
}


def _spans(text: str) -> Iterator[str]:
    prose = _FENCE.sub("", text)
    for span in re.findall(r"`([^`\n]+)`", prose):
        if _SPAN_COMMAND.match(span):
            yield span


def _block_lines(lang: str, body: str) -> Iterator[str]:
    joined = re.sub(r"\\\n\s*", "", body)  # a line continued with a backslash is one command
    for raw in joined.splitlines():
        line = raw.strip()
        shell = lang in _SHELL and line and not line.startswith("#")
        if shell or (lang in ("text", "") and line.startswith("$ ")):
            yield line.removeprefix("$ ")


def shell_lines() -> list[tuple[str, str]]:
    """Every (page, line) a reader would copy, in page order, each once."""
    out: list[tuple[str, str]] = []
    for page in PAGES:
        text = page.read_text()
        lines = [line for m in _FENCE.finditer(text) for line in _block_lines(m.group(1), m.group(2))]
        for line in [*lines, *_spans(text)]:
            if (page.name, line) not in out:
                out.append((page.name, line))
    return out


def _why_not_run(line: str) -> str | None:
    command = re.sub(r"\s+#.*$", "", line)
    return next((why for pattern, why in NOT_RUN.items() if re.search(pattern, command)), None)


def _sized(line: str) -> str:
    command = re.sub(r"\s+#.*$", "", line).strip()
    if command in OVERRIDES:
        return OVERRIDES[command][0]
    for pattern, replacement, _ in SIZES:
        command = re.sub(pattern, replacement, command)
    words = shlex.split(command)
    if command.startswith("genial tournament"):
        # One round: every bot in every seat once, the smallest count a tournament takes.
        bots = split_bot_specs(words[words.index("--bots") + 1]) if "--bots" in words else ["mcts", "greedy", "random"]
        players = int(words[words.index("--players") + 1]) if "--players" in words else 2
        per_round = lineups_count(len(bots), players)
        games = f"--games {per_round}"
        if "--games" not in words:
            command = f"{command} {games}"
        elif int(words[words.index("--games") + 1]) % per_round == 0:
            command = re.sub(r"--games \d+", games, command)
        # else as written: a count that is not whole rounds is refused before any game.
    if command.startswith("genial simulate") and "--games" not in words:
        command += " --games 40"
    if command.startswith("genial ladder") and "--pool" not in command:
        # The default pool holds every level, hard and expert included: minutes a match.
        command += " --pool random,greedy,scarcity,easy"
    if command.startswith("genial ladder"):
        command += " --bootstrap 20 --no-progress"
    return command


LINES = shell_lines()


def _to_run() -> list[tuple[str, str]]:
    """The lines run, each command once (a line on several pages runs once), in page order."""
    out: dict[str, tuple[str, str]] = {}
    for page, line in LINES:
        if _why_not_run(line) is None:
            out.setdefault(_sized(line), (page, line))
    return list(out.values())


RUN = _to_run()


def test_every_line_is_run_or_said_why_not() -> None:
    assert len(LINES) > 100 and len(RUN) > 50, (len(LINES), len(RUN))
    # Every entry of the tables still finds a line (none is kept for a line gone).
    for pattern in NOT_RUN:
        assert any(re.search(pattern, re.sub(r"\s+#.*$", "", line)) for _, line in LINES), pattern
    commands = {re.sub(r"\s+#.*$", "", line).strip() for _, line in LINES}
    assert set(OVERRIDES) <= commands, set(OVERRIDES) - commands
    # The README's tournament example is among the lines run.
    assert any(
        line.startswith("genial tournament --bots mcts:iterations=300") for page, line in RUN if page == "README.md"
    )


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the lines run in, with what they name: ``game.json`` (a game of 24
    moves, unfinished), ``my_engine.py`` and ``./my_engine`` (the example Python engine),
    ``./random_engine`` (the example C engine, built with ``cc`` where there is one; else
    the Python one), ``examples/``, and a game saved by ``genial play`` for ``--last``."""
    folder = tmp_path_factory.mktemp("doc-commands")
    game = genial.play_game(["greedy", "random"], seed=5)
    while len(game.moves) > 24:
        game.pop()
    (folder / "game.json").write_text(game.to_json())
    engine = ROOT / "examples" / "engines" / "random_engine.py"
    shutil.copy(engine, folder / "my_engine.py")
    for name in ("my_engine", "random_engine"):
        (folder / name).write_text(f'#!/bin/sh\nexec "{sys.executable}" "{engine}" "$@"\n')
        (folder / name).chmod(0o755)
    if shutil.which("cc"):  # ./random_engine as the protocol page builds it, from its C source
        source = ROOT / "examples" / "engines" / "random_engine.c"
        (folder / "random_engine").unlink()
        subprocess.run(["cc", "-O2", "-o", str(folder / "random_engine"), str(source)], check=True, timeout=120)
    (folder / "examples").symlink_to(ROOT / "examples")
    done = _run("genial play --seats human,greedy --seed 3", folder, "quit\n")
    assert done.returncode == 0, done.stderr
    return folder


def _env() -> dict[str, str]:
    env = dict(os.environ)
    # `genial`, `python` and `python3` are this environment's, as in an activated .venv.
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def _run(command: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    proc = subprocess.Popen(
        ["bash", "-c", command],
        cwd=cwd,
        env=_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(stdin, timeout=DEADLINE)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    return subprocess.CompletedProcess(command, proc.returncode, out, err)


def _serve(command: str, cwd: Path) -> None:
    """A server line: it must come up (say its address) and stop on Ctrl-C."""
    proc = subprocess.Popen(
        ["bash", "-c", f"exec {command}"],
        cwd=cwd,
        env=_env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + DEADLINE
        seen = b""
        while b"Ctrl-C stops the server" not in seen:  # its last line once it listens
            assert time.monotonic() < deadline, seen
            ready, _, _ = select.select([proc.stdout], [], [], 1.0)
            if ready:
                chunk = os.read(proc.stdout.fileno(), 65536)  # unbuffered: select sees what is left
                assert chunk, (proc.wait(), seen, proc.stderr.read() if proc.stderr else b"")
                seen += chunk
        assert b"open http://127.0.0.1:" in seen, seen  # never another interface in a test
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=DEADLINE)
        assert proc.returncode in (0, 130) and b"Traceback" not in err, (proc.returncode, err)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@pytest.mark.parametrize(("page", "line"), RUN, ids=[f"{p}:{line[:60]}" for p, line in RUN])
def test_the_line_runs(page: str, line: str, scratch: Path) -> None:
    command = _sized(line)
    if command.startswith("python examples/first_player_advantage.py"):
        pytest.importorskip("matplotlib", reason="the example's chart needs the examples extra")
    if command.startswith("genial serve"):
        pytest.importorskip("starlette", reason="genial serve needs the web extra")
        _serve(command, scratch)
        return
    stdin = ""
    if command.startswith(("genial play", ".venv/bin/genial play", "genial engine ")) or command == "genial engine":
        stdin = "quit\n"
    elif "--step" in command:
        stdin = "\n" * 100
    if command.startswith(".venv/bin/genial"):
        command = "genial" + command.removeprefix(".venv/bin/genial")  # this environment's
    if command.startswith("genial ladder"):
        # Each ladder line starts its own run: an earlier line's results in the same folder
        # (the default ``--out ladder``) are another run, which a ladder refuses to resume.
        words = shlex.split(command)
        shutil.rmtree(scratch / (words[words.index("--out") + 1] if "--out" in words else "ladder"), ignore_errors=True)
    done = _run(command, scratch, stdin)
    assert done.returncode == 0, f"{page}: {line}\nran: {command}\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr, done.stderr

"""Engines that cannot hurt anyone: a table of hostile engines (tests/engines/hostile.py),
each run in a tournament and in engine-check. Each run must end within a generous
deadline, with the forfeit (or error) expected, no finished game lost, no process of the
engine left, no descriptor leaked and the host's memory grown by less than 50 MB.

Every process an engine starts inherits ``GENIAL_HOSTILE_TAG``; the fixture kills every
process holding this test's tag on any exit, so that a failing test cannot leave one."""

from __future__ import annotations

import contextlib
import gc
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import hostcheck
import pytest
from genial.engine import EngineBot, EngineError
from genial.engine.check import RULE_SETS, run_checks
from genial.engine.process import LOG_HEAD, LOG_TAIL, MAX_LINE, Broken, EngineProcess
from genial.tournament import tournament

sys.path.insert(0, str(Path(__file__).parent / "engines"))
from hostile import TABLE, Hostile, write

MOVETIME_MS = 50
MARGIN_MS = 300
HANDSHAKE_S = 2.0
LATE_S = 1.0  # an engine answering late sleeps this long: past the move time and the margin
DEADLINE_S = 90.0  # generous: a run that takes longer hangs
RSS_MB = 50
# Heavy cases (whole engine-check suites): in `make test` and CI, not in `make test-fast`.
SLOW = pytest.mark.slow


def _params(slow_too: bool = True) -> list[Any]:
    return [
        pytest.param(h, id=h.name, marks=[pytest.mark.slow, SLOW] if h.slow else [])
        for h in TABLE
        if slow_too or not h.slow
    ]


# ----- watching processes, descriptors and memory -------------------------------------------------


def _kill_tagged(tag: str) -> None:
    """Kills every tagged process, again and again while any is found (one that forks as
    it is killed leaves a new one), for at most a few seconds."""
    end = time.monotonic() + 5
    while (found := hostcheck.tagged(tag)) and time.monotonic() < end:
        for pid in found:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.01)


def _zombie_children() -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                text = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = text[text.rindex(")") + 2 :].split()
            if int(fields[1]) == os.getpid() and fields[0] == "Z":
                out.append(int(entry))
    return out


class Watched:
    """Runs a function in a thread with a deadline, sampling the host's memory meanwhile."""

    def __init__(self, tag: str) -> None:
        self.tag = tag

    def run(self, fn: Callable[[], Any], deadline: float = DEADLINE_S) -> tuple[Any, BaseException | None]:
        box: dict[str, Any] = {}
        peak = [hostcheck.rss_kb()]
        start = peak[0]
        done = threading.Event()

        def target() -> None:
            try:
                box["result"] = fn()
            except BaseException as e:  # handed to the test
                box["raised"] = e
            finally:
                done.set()

        def sample() -> None:
            while not done.wait(0.02):
                peak[0] = max(peak[0], hostcheck.rss_kb())

        threading.Thread(target=sample, daemon=True).start()
        t = threading.Thread(target=target, daemon=True)
        t.start()
        t.join(deadline)
        if t.is_alive():
            _kill_tagged(self.tag)  # unwedge the host, so that the test process goes on
            t.join(10)
            pytest.fail(f"hung: not over within {deadline} s")
        growth = (peak[0] - start) / 1024
        assert growth < RSS_MB, f"the host's memory grew by {growth:.0f} MB"
        return box.get("result"), box.get("raised")


@pytest.fixture
def hostile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Watched, Path]]:
    tag = uuid.uuid4().hex
    state = tmp_path / "state"
    state.mkdir()
    monkeypatch.setenv("GENIAL_HOSTILE_TAG", tag)
    monkeypatch.setenv("HOSTILE_STATE", str(state))
    monkeypatch.setenv("HOSTILE_LATE_S", str(LATE_S))
    gc.collect()
    fds = hostcheck.fds()
    try:
        yield Watched(tag), tmp_path
        gc.collect()
        # A descriptor the host still needs to close would be gone within a moment.
        end = time.monotonic() + 5
        while hostcheck.fds() - fds and time.monotonic() < end:
            time.sleep(0.05)
            gc.collect()
        leaked = {fd: _describe(fd) for fd in hostcheck.fds() - fds}
        assert not leaked, f"descriptors leaked: {leaked}"
        end = time.monotonic() + 5
        while (hostcheck.tagged(tag) or _zombie_children()) and time.monotonic() < end:
            time.sleep(0.05)
        assert not hostcheck.tagged(tag), f"processes of the engine left alive: {hostcheck.tagged(tag)}"
        assert not _zombie_children(), f"zombies left: {_zombie_children()}"
    finally:
        _kill_tagged(tag)


def _describe(fd: int) -> str:
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return "?"


def _engine(command: str) -> EngineBot:
    return EngineBot(command, movetime_ms=MOVETIME_MS, margin_ms=MARGIN_MS, handshake_timeout=HANDSHAKE_S)


# ----- the table, in a tournament ----------------------------------------------------------------


@pytest.mark.parametrize("engine", _params())
def test_a_hostile_engine_in_a_tournament(
    engine: Hostile, hostile: tuple[Watched, Path], caplog: pytest.LogCaptureFixture
) -> None:
    watch, folder = hostile
    bot = EngineBot(
        write(engine, folder),
        movetime_ms=MOVETIME_MS,
        margin_ms=engine.margin_ms or MARGIN_MS,
        handshake_timeout=HANDSHAKE_S,
        log_dir=folder / "logs",
    )
    parts: list[Any] = []

    def run() -> Any:
        try:
            return tournament([bot, "random"], games=2, seed=1, on_chunk=parts.append)
        finally:
            bot.close()

    with caplog.at_level("WARNING", logger="genial.engine"):
        result, raised = watch.run(run)
    played = sum(len(p) for p in parts)
    if engine.error:
        assert isinstance(raised, EngineError), repr(raised)
        assert re.search(engine.host or "", str(raised)), str(raised)
        # The games finished before the error are handed back, not lost.
        restarts = "restart" in engine.name
        assert played == (1 if restarts else 0)
        if restarts:
            assert parts[0].end_reasons().tolist() == ["forfeit"]
        return
    assert raised is None, repr(raised)
    assert played == 2 and result.games == 2
    ends = result.result.end_reasons().tolist()
    if engine.host is None:
        assert "forfeit" not in ends, caplog.text
    else:
        assert ends == ["forfeit", "forfeit"], (ends, caplog.text)
        assert re.search(engine.host, caplog.text), caplog.text
    for path in (folder / "logs").glob("*.log"):  # stderr logs stay bounded
        assert path.stat().st_size < LOG_HEAD + LOG_TAIL + 10_000


# ----- the process itself: exact limits ------------------------------------------------------------


def _process(tmp: Path, code: str) -> EngineProcess:
    return EngineProcess([sys.executable, "-c", code], tmp / "p.log")


def test_a_line_of_exactly_max_line_bytes_is_accepted_and_one_byte_more_is_not(tmp_path: Path) -> None:
    code = (
        "import sys, time; o = sys.stdout.buffer; "
        f"o.write(b'a' * {MAX_LINE} + b'\\n'); o.write(b'b' * {MAX_LINE + 1} + b'\\n'); o.flush(); time.sleep(60)"
    )
    p = _process(tmp_path, code)
    try:
        assert p.read_line(time.monotonic() + 20) == b"a" * MAX_LINE
        with pytest.raises(Broken, match=f"longer than {MAX_LINE} bytes"):
            p.read_line(time.monotonic() + 20)
    finally:
        p.stop(graceful=False)
    assert not p.left_running()


def test_a_stderr_flood_keeps_the_first_and_last_megabyte_and_says_what_was_cut(tmp_path: Path) -> None:
    code = (
        "import sys; e = sys.stderr.buffer; e.write(b'FIRST'); "
        "[e.write(b'e' * 1_000_000) for _ in range(50)]; e.write(b'LAST'); e.flush(); print('done', flush=True)"
    )
    p = _process(tmp_path, code)
    try:
        assert p.read_line(time.monotonic() + 60) == b"done"
        end = time.monotonic() + 30
        while p.stderr_bytes < 50_000_009 and time.monotonic() < end:
            time.sleep(0.02)
        assert "the log keeps the first" in p.stderr_note()
    finally:
        p.stop()
    text = (tmp_path / "p.log").read_bytes()
    assert text.startswith(b"FIRST") and text.endswith(b"LAST")
    assert b"bytes of stderr cut here (of 50,000,009" in text
    assert len(text) < LOG_HEAD + LOG_TAIL + 1000


def test_an_engine_closing_its_stdout_while_alive_is_told_apart_from_an_exit(tmp_path: Path) -> None:
    p = _process(tmp_path, "import os, time; os.close(1); time.sleep(60)")
    try:
        with pytest.raises(Broken, match="closed its output"):
            p.read_line(time.monotonic() + 20)
    finally:
        p.stop(graceful=False)
    p = _process(tmp_path, "import sys; sys.exit(5)")
    try:
        with pytest.raises(Broken, match=r"exited \(status 5\)"):
            p.read_line(time.monotonic() + 20)
    finally:
        p.stop()


def test_an_exit_its_keeper_reports_late_is_still_an_exit(tmp_path: Path) -> None:
    """On a loaded machine the keeper, which reports the engine's exit status, can run well
    after the engine's output ended (seen beside a CPU burner: "closed its output" for an
    engine that had exited). Here the keeper is held stopped for a second after the engine
    exits; the host waits for its word instead of judging the pipe."""
    p = _process(tmp_path, "import sys; sys.stdin.readline(); sys.exit(5)")
    keeper = p._leader
    if keeper == p.pid:
        pytest.skip("no keeper here (not Linux)")
    os.kill(keeper, signal.SIGSTOP)
    resume = threading.Timer(1.0, os.kill, (keeper, signal.SIGCONT))
    try:
        p.send(b"go\n", time.monotonic() + 20)
        resume.start()
        with pytest.raises(Broken, match=r"exited \(status 5\)"):
            p.read_line(time.monotonic() + 20)
    finally:
        resume.cancel()
        os.kill(keeper, signal.SIGCONT)
        p.stop()


# ----- the table, in engine-check ------------------------------------------------------------------


@pytest.mark.parametrize("engine", _params())
def test_engine_check_catches_a_hostile_engine(engine: Hostile, hostile: tuple[Watched, Path]) -> None:
    watch, folder = hostile
    command = write(engine, folder)
    margin = engine.margin_ms or MARGIN_MS
    # One rule set's games: what each engine does wrong does not depend on the rules, and
    # every rule set's games are checked on honest engines (tests/test_engine.py); the seven
    # rule sets' 18 games were most of this table's cost.
    kw = {
        "movetime_ms": MOVETIME_MS,
        "margin_ms": margin,
        "handshake_timeout": HANDSHAKE_S,
        "deadline_s": 60.0,
        "rule_sets": RULE_SETS[:1],
    }
    results, raised = watch.run(lambda: run_checks(command, **kw))  # type: ignore[arg-type]
    assert raised is None, repr(raised)
    failed = [c for c in results if not c.passed]
    if engine.check is None:
        assert not failed, [c.line() for c in failed]
    else:
        assert failed, "engine-check passed a hostile engine"
        assert any(re.search(engine.check, c.detail) for c in failed), [c.line() for c in failed]


# ----- the command line ----------------------------------------------------------------------------

GENIAL = [sys.executable, "-m", "genial"]


def test_the_issues_wrapper_repro_ends_with_its_games(hostile: tuple[Watched, Path]) -> None:
    """A wrapper that leaves ``sleep 600 &`` holding the engine's stdout (issue 28)."""
    watch, folder = hostile
    example = Path(__file__).parent.parent / "examples" / "engines" / "random_engine.py"
    wrapper = folder / "w.sh"
    wrapper.write_text(f"#!/bin/sh\nsleep 600 &\nexec {shlex.quote(sys.executable)} {shlex.quote(str(example))}\n")
    wrapper.chmod(0o755)
    out, _ = watch.run(
        lambda: subprocess.run(
            [*GENIAL, "tournament", "--bots", f"engine:{wrapper},random", "--games", "2"],
            capture_output=True,
            text=True,
            timeout=DEADLINE_S,
        )
    )
    assert out is not None and out.returncode == 0, out.stderr if out else "no result"
    assert "2 games" in out.stdout and "Traceback" not in out.stderr


def test_ctrl_c_while_an_engine_starts_prints_no_traceback(hostile: tuple[Watched, Path]) -> None:
    watch, folder = hostile
    # An engine that reads the host's first line, says so in a file and never answers: the
    # Ctrl-C goes at that moment, well inside the host's 10 s handshake timeout however
    # slow the machine was to get there.
    heard = folder / "heard"
    script = folder / "silent.py"
    script.write_text(f"import sys, time\nsys.stdin.readline()\nopen({str(heard)!r}, 'w').close()\ntime.sleep(3600)\n")
    command = f"{shlex.quote(sys.executable)} -S {shlex.quote(str(script))}"

    def run() -> subprocess.CompletedProcess[str]:
        proc = subprocess.Popen(
            [*GENIAL, "tournament", "--bots", f"engine:{command},random", "--games", "2"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        end = time.monotonic() + 60
        while not heard.exists() and proc.poll() is None and time.monotonic() < end:
            time.sleep(0.01)
        assert heard.exists(), "the engine never heard the host's first line"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)

    out, raised = watch.run(run)
    assert raised is None and out is not None
    assert out.returncode == 130, out.stderr
    assert "Traceback" not in out.stderr and "interrupted" in (out.stdout + out.stderr)


def test_a_handshake_failing_on_restart_keeps_the_finished_games_and_resume_goes_on(
    hostile: tuple[Watched, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    watch, folder = hostile
    engine = next(h for h in TABLE if h.name == "handshake_fails_on_restart")
    command = write(engine, folder)
    t_csv = folder / "t.csv"
    out, _ = watch.run(
        lambda: subprocess.run(
            [*GENIAL, "tournament", "--bots", f"engine:{command},random", "--games", "4", "--out", str(t_csv)],
            capture_output=True,
            text=True,
            timeout=DEADLINE_S,
        )
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert "handshake" in out.stderr and "1 of 4 games" in out.stderr, out.stderr
    rows = [x for x in t_csv.read_text().splitlines() if not x.startswith("#")]
    assert len(rows) == 1 + 1  # the header and the game finished before the error
    # A dataset run: the shards finished are written, and --resume plays the rest.
    (folder / "state" / "starts").unlink()
    data = folder / "games"
    args = [*GENIAL, "simulate", "--games", "4", "--bots", f"engine:{command},random", "--out", str(data)]
    out, _ = watch.run(
        lambda: subprocess.run([*args, "--shard-games", "1"], capture_output=True, text=True, timeout=DEADLINE_S)
    )
    assert out.returncode == 2 and "--resume" in out.stderr and "Traceback" not in out.stderr, out.stderr
    assert len(list(data.glob("*.parquet")) + list(data.glob("*.csv"))) == 1
    monkeypatch.setenv("HOSTILE_GOOD_STARTS", "100")
    out, _ = watch.run(
        lambda: subprocess.run(
            [*args, "--shard-games", "1", "--resume"], capture_output=True, text=True, timeout=DEADLINE_S
        )
    )
    assert out.returncode == 0, out.stderr
    assert "4 in the dataset" in out.stdout, out.stdout


def test_sigterm_to_the_host_stops_its_engines_and_all_they_started(hostile: tuple[Watched, Path]) -> None:
    watch, folder = hostile
    engine = next(h for h in TABLE if h.name == "ignores_sigterm_and_hangs")
    command = write(engine, folder)

    def run() -> subprocess.CompletedProcess[str]:
        proc = subprocess.Popen(
            [*GENIAL, "tournament", "--bots", f"engine:{command},random", "--games", "2"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        end = time.monotonic() + 30
        while len(hostcheck.tagged(watch.tag)) < 2 and time.monotonic() < end:  # genial and its engine
            time.sleep(0.02)
        time.sleep(0.3)
        proc.terminate()
        out, err = proc.communicate(timeout=30)
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)

    out, raised = watch.run(run)
    assert raised is None and out is not None
    assert out.returncode == 130 and "Traceback" not in out.stderr, out.stderr
    # The fixture checks that no process of the engine is left.


def test_a_kill_that_comes_while_the_engine_starts_is_not_lost(hostile: tuple[Watched, Path]) -> None:
    """`EngineBot.kill` from another thread before the process exists (the server's
    shutdown racing a decision that is starting): the process is killed once it exists."""
    watch, folder = hostile
    engine = next(h for h in TABLE if h.name == "no_protocolok")
    bot = EngineBot(write(engine, folder), handshake_timeout=30)
    bot.kill("the server stopped")
    start = time.monotonic()
    _, raised = watch.run(bot.start, deadline=30)
    assert isinstance(raised, EngineError) and "the server stopped" in str(raised), repr(raised)
    assert time.monotonic() - start < 10  # not the 30 s handshake timeout
    bot.close()


def test_the_engine_check_command_ends_by_its_deadline_and_says_what_failed(hostile: tuple[Watched, Path]) -> None:
    watch, folder = hostile
    engine = next(h for h in TABLE if h.name == "wrapper_no_exec_hanging")
    command = write(engine, folder)
    out, _ = watch.run(
        lambda: subprocess.run(
            # Room for the handshake and the options check before the games on a busy
            # machine (each start is two Python starts: the keeper's and the engine's).
            [*GENIAL, "engine-check", command, "--movetime", "50", "--deadline", "9"],
            capture_output=True,
            text=True,
            timeout=DEADLINE_S,
        )
    )
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
    assert "FAIL games: standard 2p after placement: seat 0 forfeits" in out.stdout, out.stdout
    assert "deadline of 9 s passed" in out.stdout and "ok   nothing left behind" in out.stdout, out.stdout


# ----- a host that dies without a word: SIGKILL, a lost Ray worker --------------------------------

GONE_S = 15.0  # generous: the engines of a dead host are stopped at once, on a loaded machine


def _gone_within(find: Callable[[], list[int]], seconds: float) -> list[int]:
    """What ``find`` still finds after waiting up to ``seconds`` for it to find nothing."""
    end = time.monotonic() + seconds
    while (left := find()) and time.monotonic() < end:
        time.sleep(0.05)
    return left


def test_sigkill_of_the_host_leaves_no_process_of_its_engines(hostile: tuple[Watched, Path]) -> None:
    """The host killed mid-decision, with no chance to clean up, while its engine hangs
    and its ``setsid`` child holds stdout: neither may outlive it."""
    watch, folder = hostile
    engine = next(h for h in TABLE if h.name == "setsid_child_holding_stdout_then_hang")
    command = write(engine, folder)
    proc = subprocess.Popen(
        [*GENIAL, "tournament", "--bots", f"engine:{command},random", "--games", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        # genial, its engine and the engine's setsid child (and whatever holds them) run.
        end = time.monotonic() + 30
        while not any(_cmdline(pid).startswith(b"sleep") for pid in hostcheck.tagged(watch.tag)):
            assert time.monotonic() < end and proc.poll() is None, "the engine's child never started"
            time.sleep(0.02)
        assert len(hostcheck.tagged(watch.tag)) >= 3
    finally:
        proc.kill()
        proc.wait()
    left = _gone_within(lambda: hostcheck.tagged(watch.tag), GONE_S)
    assert not left, f"processes of the engine outlived its host: {[_cmdline(p) for p in left]}"


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
    except OSError:
        return b""


RAY_DRIVER = """
import os, sys, ray
ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, logging_level="ERROR",
         _temp_dir=sys.argv[3])

@ray.remote(max_restarts=0)
class Seat:
    def start(self, command, mark):
        os.environ["GENIAL_ORPHAN_MARK"] = mark  # for the engine and all it starts, not Ray
        from genial.engine import EngineBot
        self.bot = EngineBot(command, handshake_timeout=60)
        self.bot.start()
        return os.getpid()

seat = Seat.remote()
print(ray.get(seat.start.remote(sys.argv[1], sys.argv[2])), flush=True)
sys.stdin.read()  # until the test is done
ray.shutdown()
"""


def _marked(mark: str) -> list[int]:
    """Live processes (this one too) that inherited the mark of an engine under Ray."""
    return hostcheck.holding_env(f"GENIAL_ORPHAN_MARK={mark}", but_self=False)


def test_a_lost_ray_worker_leaves_no_process_of_its_engines(tmp_path: Path) -> None:
    """A Ray worker holding an engine dies (SIGKILL, as a lost node's worker does): its
    engine, which ignores the end of its input, and the engine's ``setsid`` child go too."""
    from genial.distributed import ray_available

    if not ray_available():
        pytest.skip("ray is not installed in this environment (pip install ray, as requirements-dev.txt lists)")
    import tempfile

    from hostile import python_engine

    source = python_engine(
        prelude='import subprocess\nsubprocess.Popen(["sleep", "600"], start_new_session=True, stdout=subprocess.DEVNULL)',
        quit="pass",
        eof="time.sleep(600)",
    )
    script = tmp_path / "engine.py"
    script.write_text(source)
    mark = uuid.uuid4().hex
    ray_tmp = Path(tempfile.mkdtemp(prefix="genial-ray-"))  # short: Ray's socket paths have a limit
    driver = subprocess.Popen(
        [sys.executable, "-c", RAY_DRIVER, f"{shlex.quote(sys.executable)} -S {shlex.quote(str(script))}", mark,
         str(ray_tmp)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        assert driver.stdout is not None
        line = driver.stdout.readline()
        assert line.strip().isdigit(), f"the Ray driver failed: {line!r}"
        worker = int(line)
        end = time.monotonic() + 30
        while len(_marked(mark)) < 2:  # the engine and its setsid child
            assert time.monotonic() < end, "the engine's child never started"
            time.sleep(0.02)
        os.kill(worker, signal.SIGKILL)
        left = _gone_within(lambda: _marked(mark), GONE_S)
        assert not left, f"processes of the engine outlived its Ray worker: {[_cmdline(p) for p in left]}"
    finally:
        for pid in _marked(mark):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            assert driver.stdin is not None
            driver.stdin.close()
            driver.wait(timeout=30)
        with contextlib.suppress(OSError):
            os.killpg(driver.pid, signal.SIGKILL)
        driver.wait()
        shutil.rmtree(ray_tmp, ignore_errors=True)


# ----- collecting a process tree that keeps growing ----------------------------------------------

FORKER = """
import os, sys, time
print("ready", flush=True)
depth = 0
while depth < 400:  # a chain: each process starts the next in a session of its own, and stays
    time.sleep(0.005)
    if os.fork() == 0:
        os.setsid()
        depth += 1
    else:
        time.sleep(3600)
time.sleep(3600)
"""


def test_a_tree_that_keeps_forking_while_it_is_stopped_leaves_nothing(hostile: tuple[Watched, Path]) -> None:
    """A chain of processes, each starting the next in a session of its own every few
    milliseconds, stopped by the host: SIGTERM kills the older ones and orphans their
    children, which only the keeper still reaches (without it, as before it, the newest
    escape); it collects until it has no child left."""
    _, folder = hostile
    p = EngineProcess([sys.executable, "-c", FORKER], folder / "p.log")
    try:
        assert p.read_line(time.monotonic() + 30) == b"ready"
        end = time.monotonic() + 30
        while len(p.alive_descendants()) < 20:  # it grows
            assert time.monotonic() < end, "the chain did not grow"
            time.sleep(0.01)
    finally:
        p.stop(graceful=False)
    assert not p.left_running()
    # The fixture checks that no process holding its tag is left, the tree's newest too.

"""Ctrl-C and raising signal handlers stop long work, as the real exception.

Each test runs a child process, waits until it is inside a call that would take minutes or
hours, and signals it. Nothing here is timed: a call that did not stop would run for that
long, so the child ending within a generous deadline (a minute or two, for a loaded
machine) is the proof. Each child runs in its own session, and its whole process group is
killed when the test ends, whichever way. No PanicException may appear anywhere.
"""

from __future__ import annotations

import contextlib
import csv
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGALRM"), reason="POSIX signals")

# A child that was signalled must end within this many seconds: far more than it takes
# (about a second), far less than the work it was doing (minutes at least).
DEADLINE = 90.0

_started: list[subprocess.Popen[Any]] = []


@pytest.fixture(autouse=True)
def _kill_children() -> Iterator[None]:
    """Kills the process group of every child the test started, however the test ended."""
    yield
    while _started:
        proc = _started.pop()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def _start(code: str, cwd: Path, *args: str) -> subprocess.Popen[str]:
    argv = [sys.executable, "-c", code] if code else [sys.executable, "-m", "genial", *args]
    proc = subprocess.Popen(
        argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    _started.append(proc)
    return proc


def _read_line(proc: subprocess.Popen[str], timeout: float = 60.0) -> str:
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    assert ready, "the child did not get going"
    return proc.stdout.readline()


def _interrupt(proc: subprocess.Popen[str], wait: float = 0.8) -> tuple[str, str]:
    """Lets the child run into its long call, sends SIGINT, and returns its output once it
    has ended (within `DEADLINE`)."""
    time.sleep(wait)
    assert proc.poll() is None, "the long call ended before the signal"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=DEADLINE)
    return out, err


def test_ctrl_c_in_the_first_simulate_of_a_process_raises_keyboard_interrupt(tmp_path: Path) -> None:
    code = """
import time, genial
print("ready", flush=True)
try:
    genial.simulate(10**7, threads=1)  # minutes of work, and the first simulate here
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
res = genial.simulate(20, threads=2)  # the process stays usable
print("usable", len(res), flush=True)
"""
    proc = _start(code, tmp_path)
    assert _read_line(proc) == "ready\n"
    out, err = _interrupt(proc)
    assert "PanicException" not in out + err, err
    assert proc.returncode == 0, err
    assert out.split() == ["KeyboardInterrupt", "usable", "20"]


def test_an_uncaught_ctrl_c_ends_the_process_as_python_does(tmp_path: Path) -> None:
    proc = _start("import genial; print('ready', flush=True); genial.simulate(10**7, threads=2)", tmp_path)
    assert _read_line(proc) == "ready\n"
    out, err = _interrupt(proc)
    assert "PanicException" not in out + err and "panicked" not in err, err
    assert err.rstrip().endswith("KeyboardInterrupt"), err
    assert proc.returncode in (-signal.SIGINT, 130)


def test_a_raising_signal_handler_stops_every_long_call(tmp_path: Path) -> None:
    """SIGALRM after 0.3 s raises a custom exception inside each long call; the call ends
    with it promptly, its worker threads stop, and the objects stay usable."""
    code = """
import os, signal, time
import genial
from genial.bots import make

class Timeout(Exception):
    pass

def alarm(signum, frame):
    raise Timeout

signal.signal(signal.SIGALRM, alarm)

def threads():
    return len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else 0

def timed(label, work):
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    start = time.monotonic()
    try:
        work()
        print(label, "finished")
    except Timeout:
        print(label, "Timeout", round(time.monotonic() - start - 0.3, 3))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)

forever = "mcts:iterations=0,time_ms=3600000"
game = genial.Game(2, seed=1)
bot = make("mcts", seed=1, iterations=0, time_ms=3600000)
env = genial.VecEnv(4096, seed=1, threads=2)
before = threads()
timed("simulate", lambda: genial.simulate(10**7, threads=2))
timed("simulate-mcts", lambda: genial.simulate(10, bots=forever, threads=2))
timed("tournament-mcts", lambda: genial.tournament([forever, "greedy"], games=4, threads=2))
timed("choose", lambda: bot.choose(game))
expert = make("expert", seed=1, time_ms=3600000)
timed("choose-expert", lambda: expert.choose(game))
timed("analyse", lambda: genial.analyse(game, budget_ms=3600000))
timed("vecenv", lambda: [env.step(env.sample_actions()) for _ in range(10**9)])
for _ in range(100):  # pools are dropped as their calls end; their threads exit soon after
    if threads() <= before:
        break
    time.sleep(0.1)
print("threads", before, threads())
quick = make("mcts", seed=1, iterations=20)
print("usable", game.is_legal(quick.choose(game)), len(genial.simulate(10, threads=2)), env.step(env.sample_actions()).obs.shape[0])
"""
    proc = _start(code, tmp_path)
    out, err = proc.communicate(timeout=4 * DEADLINE)  # each call would run for an hour
    assert "PanicException" not in out + err, err
    assert proc.returncode == 0, err
    lines = dict(line.split(" ", 1) for line in out.splitlines())
    for label in ("simulate", "simulate-mcts", "tournament-mcts", "choose", "choose-expert", "analyse", "vecenv"):
        assert lines[label].split()[0] == "Timeout", (label, lines[label])
    before, after = (int(v) for v in lines["threads"].split())
    assert after <= before, "worker threads outlived their call"
    assert lines["usable"] == "True 10 4096"


def _rows(path: Path) -> int:
    with open(path, newline="") as f:
        return sum(1 for _ in csv.reader(f)) - 1  # without the header


def test_the_cli_stops_on_ctrl_c_and_keeps_the_games_it_finished(tmp_path: Path) -> None:
    out_file = tmp_path / "games.csv"
    proc = _start(
        "",
        tmp_path,
        "simulate",
        "--games",
        "100000000",
        "--chunk",
        "2000",
        "--threads",
        "2",
        "--no-progress",
        "--out",
        str(out_file),
    )
    # Until renamed into place when complete, the file grows under a temporary name.
    _wait_for(
        proc,
        lambda: max((_rows_safely(p) for p in tmp_path.glob(".games.csv.*")), default=0) >= 2000,
        "the first chunk of 2000 games",
    )
    out, err = _interrupt(proc, wait=0.2)
    assert "PanicException" not in out + err and "Traceback" not in err, err
    assert proc.returncode == 130
    # One line: how many games, and where they are; the file holds exactly those.
    assert len(out.splitlines()) == 1, out
    # Every finished game is kept, those of the chunk under way included.
    done = int(out.split("interrupted after ")[1].split()[0])
    assert done >= 2000
    assert f"wrote {done} games to {out_file}" in out
    assert _rows(out_file) == done
    games = [int(row["game"]) for row in csv.DictReader(out_file.open(newline=""))]
    assert games == sorted(set(games)) and games[:2000] == list(range(2000))


def _wait_for(proc: subprocess.Popen[str], condition: Any, what: str) -> None:
    """Waits until ``condition()`` holds (the state a test needs, not a time), failing at
    once if the child ends first."""
    deadline = time.monotonic() + 4 * DEADLINE
    while not condition():
        if proc.poll() is not None:
            _, err = proc.communicate()
            pytest.fail(f"the child ended (status {proc.returncode}) before {what}: {err[-2000:]}")
        assert time.monotonic() < deadline, f"the child never got to {what}"
        time.sleep(0.1)


def _rows_safely(path: Path) -> int:
    try:
        return _rows(path)
    except (OSError, ValueError):
        return 0


def test_an_interrupted_tournament_writes_a_valid_parquet_file(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow not installed")
    out_file = tmp_path / "t.parquet"
    proc = _start(
        "",
        tmp_path,
        "tournament",
        "--bots",
        "greedy,random",
        "--games",
        "10000000",
        "--chunk",
        "200",
        "--threads",
        "2",
        "--no-progress",
        "--out",
        str(out_file),
    )
    # Until renamed into place when complete, the file grows under a temporary name.
    _wait_for(proc, lambda: sum(p.stat().st_size for p in tmp_path.glob(".t.parquet.*")) >= 20_000, "a written chunk")
    out, err = _interrupt(proc, wait=0.2)
    assert "PanicException" not in out + err and "Traceback" not in err, err
    assert proc.returncode == 130
    assert not list(tmp_path.glob(".t.parquet.*")), "the temporary file was renamed into place"
    done = int(out.split("interrupted after ")[1].split()[0])
    table = pq.read_table(out_file)
    assert table.num_rows == done
    assert {"game", "seed", "bot_0", "place_1"} <= set(table.column_names)


def test_a_closed_pipe_ends_the_command_quietly(tmp_path: Path) -> None:
    """`genial tournament | head`: the reader goes away before the table is printed."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "genial", "tournament", "--games", "20", "--threads", "1"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    _started.append(proc)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert proc.returncode == 1


def test_a_missing_ray_is_not_mistaken_for_a_folder_named_ray(tmp_path: Path) -> None:
    """Ray leaves a ``/tmp/ray`` folder behind; run from ``/tmp`` it imports as an empty
    namespace package."""
    (tmp_path / "ray").mkdir()
    code = f"""
import sys
import genial, genial.distributed as d
sys.modules.pop("ray", None)
sys.path[:] = [{str(tmp_path)!r}]  # only the folder: as on a machine without Ray
print(d.ray_available())
try:
    genial.distributed.simulate_ray(10)
except ImportError as e:
    print("ImportError", e)
"""
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    available, error = proc.stdout.splitlines()
    assert available == "False"
    assert error.startswith("ImportError simulate_ray needs the ray package") and "is a folder, not Ray" in error


def test_bytes_that_are_not_utf8_do_not_end_genial_play(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "genial", "play", "--seed", "4", "--seats", "human,greedy"],
        input=b"\xff\xfe\n1\n",
        capture_output=True,
        cwd=tmp_path,
        timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    out = proc.stdout.decode("utf-8", "replace")
    assert proc.returncode == 0, proc.stderr.decode()
    assert "not a legal move" in out and "player 0 (you): " in out
    assert "genial play --resume genial-autosave-4.json" in out
    assert (tmp_path / "genial-autosave-4.json").exists()


def test_ctrl_c_stops_a_step_of_the_largest_vecenv_between_slices(tmp_path: Path) -> None:
    """`VecEnv.step` on the most envs (65,536: up to about 2 s a call) looks for Ctrl-C
    between slices of envs. Interrupted, every env has still taken its action (the rest are
    settled without writing results), so the env goes on: `observe` and `step` work."""
    code = """
import time, genial
env = genial.VecEnv(65536, seed=1, threads=2)
env.reset()
steps = 0
print("ready", flush=True)
try:
    while True:
        start = time.monotonic()
        env.step(env.sample_actions())
        steps += 1
except KeyboardInterrupt:
    print("interrupted", steps, round(time.monotonic() - start, 3), flush=True)
obs, mask, player = env.observe()
assert mask[0].any() and obs.shape == (65536, genial.observation.OBS_SIZE)
obs, mask, rewards, dones, player = env.step(env.sample_actions())
print("usable", obs.shape[0], flush=True)
"""
    proc = _start(code, tmp_path)
    assert _read_line(proc, timeout=120).strip() == "ready"
    time.sleep(1.5)  # into the steps, at no particular point of one
    assert proc.poll() is None
    proc.send_signal(signal.SIGINT)
    assert proc.stdout is not None
    line = _read_line(proc, timeout=DEADLINE)  # the loop steps for ever unless stopped
    out, err = proc.communicate(timeout=DEADLINE)
    assert "PanicException" not in out + err and "Traceback" not in err, err
    assert line.startswith("interrupted "), line + err
    assert out.strip().endswith("usable 65536"), out + err
    assert proc.returncode == 0


_NO_THREADS = r"""
import ctypes, struct, threading
import genial
from genial.bots import make

# A seccomp filter makes every new thread fail (clone and clone3 return EAGAIN) from here on.
def ins(code, jt, jf, k):
    return struct.pack("HBBI", code, jt, jf, k)

LD, JEQ, RET = 0x20, 0x15, 0x06
ALLOW, EAGAIN = 0x7FFF0000, 0x00050000 | 11
prog = b"".join([
    ins(LD, 0, 0, 4), ins(JEQ, 1, 0, 0xC000003E), ins(RET, 0, 0, ALLOW),  # x86-64 only
    ins(LD, 0, 0, 0), ins(JEQ, 2, 0, 56), ins(JEQ, 1, 0, 435), ins(RET, 0, 0, ALLOW), ins(RET, 0, 0, EAGAIN),
])

class Fprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

buf = ctypes.create_string_buffer(prog, len(prog))
fprog = Fprog(len(prog) // 8, ctypes.cast(buf, ctypes.c_void_p))
libc = ctypes.CDLL(None, use_errno=True)
assert libc.prctl(38, 1, 0, 0, 0) == 0  # PR_SET_NO_NEW_PRIVS
assert libc.prctl(22, 2, ctypes.byref(fprog), 0, 0) == 0, ctypes.get_errno()  # PR_SET_SECCOMP, filter

def outcome(work):
    try:
        work()
        return "ok"
    except Exception as e:
        return type(e).__name__

# The filter bites: a thread, or a pool of two threads for 64 games, cannot start.
print("thread", outcome(lambda: threading.Thread(target=print).start()))
print("pool", outcome(lambda: genial.simulate(64, threads=2)))
game = genial.Game(2, seed=1)
bot = make("mcts", seed=1, iterations=1, width=2)
reports = []
for label, work in [
    ("simulate10", lambda: genial.simulate(10, threads=1)),
    ("simulate10-default", lambda: genial.simulate(10)),
    ("simulate10-threads2", lambda: genial.simulate(10, threads=2)),
    ("simulate-progress", lambda: genial.simulate(40, bots="greedy", threads=1, progress=lambda d, n: reports.append(d))),
    ("simulate-mcts", lambda: genial.simulate(2, bots="mcts:iterations=5,width=2", threads=1)),
    ("choose", lambda: bot.choose(game)),
    ("tournament", lambda: genial.tournament(["greedy", "random"], games=4, threads=1)),
]:
    print(label, outcome(work))
"""


@pytest.mark.skipif(
    sys.platform != "linux" or os.uname().machine != "x86_64", reason="a seccomp filter for Linux x86-64"
)
def test_short_calls_start_no_thread(tmp_path: Path) -> None:
    """A `simulate` whose games one thread plays, a searching bot's `choose` and a small
    tournament run on the calling thread (Ctrl-C is polled there): in a process where no
    thread can start, they work; a pool that needs two threads fails (the filter bites)."""
    proc = subprocess.run(
        [sys.executable, "-c", _NO_THREADS], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    lines = dict(line.split(" ", 1) for line in proc.stdout.splitlines())
    assert lines.pop("thread") == "RuntimeError"
    assert lines.pop("pool") == "ValueError"  # "cannot start 2 threads"
    assert lines == {
        "simulate10": "ok",
        "simulate10-default": "ok",
        "simulate10-threads2": "ok",
        "simulate-progress": "ok",
        "simulate-mcts": "ok",
        "choose": "ok",
        "tournament": "ok",
    }


def _mapped(pid: int, name: str) -> bool:
    """Whether process ``pid`` has a file whose path holds ``name`` mapped (a module loaded)."""
    try:
        with open(f"/proc/{pid}/maps") as f:
            return name in f.read()
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc/PID/maps")
@pytest.mark.parametrize("entry", ["-m", "script"])
def test_ctrl_c_while_the_command_starts_prints_no_traceback(entry: str, tmp_path: Path) -> None:
    """A Ctrl-C while ``genial`` is still importing (numpy loaded, the core not yet) ends it
    with 130 and one line, as a Ctrl-C once the command runs does: it printed Python's
    traceback of the import under way."""
    if entry == "-m":
        argv = [sys.executable, "-m", "genial", "simulate", "--games", "1000000", "-q"]
    else:  # the console script pip writes: `from genial.cli import main`
        script = tmp_path / "genial"
        script.write_text(f"#!{sys.executable}\nimport sys\nfrom genial.cli import main\nsys.exit(main())\n")
        script.chmod(0o755)
        argv = [str(script), "simulate", "--games", "1000000", "-q"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    _started.append(proc)
    deadline = time.monotonic() + DEADLINE
    while not _mapped(proc.pid, "_multiarray_umath"):
        assert proc.poll() is None and time.monotonic() < deadline, "numpy was never loaded"
        time.sleep(0.0005)
    # numpy's extension is mapped as numpy's own import begins; the core comes after it.
    assert not _mapped(proc.pid, "_core.abi3"), "the child got past its imports before the signal"
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=DEADLINE)
    assert "Traceback" not in err, err
    assert proc.returncode == 130 and err.strip().splitlines() == ["genial: interrupted"], (proc.returncode, err)

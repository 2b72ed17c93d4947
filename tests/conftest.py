from __future__ import annotations

import importlib.util
import json
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

# A suite started in the background by a non-interactive shell (`nohup make test &`, some CI
# runners) inherits Ctrl-C ignored, and every process the tests start would inherit it too:
# Python then installs no KeyboardInterrupt handler in them, and each Ctrl-C test would see
# its SIGINT vanish (a run going on to its end, a child left looping). With Python's own
# handler here, the children start with the default disposition, as from a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# OpenBLAS (numpy's) starts a thread per core when numpy is imported, and they spin for a
# moment: about 0.09 s of CPU in each of the hundreds of Python processes the tests start
# (the command line, engines, servers), for matrix work that no test does. One thread, set
# here before anything imports numpy, and inherited by every process the tests start.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# The tests read genial's English texts, whatever the locale of the machine that runs them
# (genial follows LC_ALL, LC_MESSAGES and LANG: genial.translation); those of other
# languages choose theirs.
for _name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"

DATA = ROOT / "tests" / "data"
FIXTURES = DATA / "fixtures"


def load_script(name: str, path: Path) -> ModuleType:
    """The script at ``path`` (a bench, a docs hook, a training script: not in a package)
    imported as module ``name``, registered in ``sys.modules`` as an import would be
    (dataclasses look their module up there)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_fixture_games() -> list[dict[str, Any]]:
    games = []
    for name in ("games_2p.jsonl", "games_3p.jsonl", "games_4p.jsonl"):
        with open(FIXTURES / name) as f:
            games.extend(json.loads(line) for line in f if line.strip())
    return games


@pytest.fixture(scope="session")
def fixture_games() -> list[dict[str, Any]]:
    return load_fixture_games()


@pytest.fixture(scope="session", autouse=True)
def _engine_logs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The stderr logs of the engines the tests start (those that fail are kept) go to the
    session's temporary folder, which pytest cleans up, not to the system's."""
    folder = tmp_path_factory.mktemp("engine-logs")
    before = os.environ.get("GENIAL_ENGINE_LOG_DIR")
    os.environ["GENIAL_ENGINE_LOG_DIR"] = str(folder)  # subprocesses (genial tournament, ...) too
    yield folder
    if before is None:
        os.environ.pop("GENIAL_ENGINE_LOG_DIR", None)
    else:
        os.environ["GENIAL_ENGINE_LOG_DIR"] = before


# ----- tiers ---------------------------------------------------------------------------------
# `make test-fast` runs what is not marked slow: the unit and property tests at small sizes,
# for the edit-test loop. The slow tier (browsers, a Ray cluster, interrupts of real runs,
# engine processes and servers in their own processes, whole reviews, strength and
# training runs, building the docs and the wheel) runs in `make test` and CI: the modules
# below, and single tests elsewhere marked `@pytest.mark.slow` (properties checked at scale,
# Ctrl-C of a real run, a Ray backend).
SLOW_MODULES = {
    "test_cluster",
    "test_doc_commands",
    "test_docs_site",
    "test_engine",
    "test_engine_hostile",
    "test_engine_position",
    "test_position_many",
    "test_examples",
    "test_interrupts",
    "test_levels",
    "test_master",
    "test_packaging",
    "test_review_verdicts",
    "test_rule_option_recipe",  # builds the core twice in a scratch copy
    "test_rl_sb3",  # imports PyTorch (when the learn extra is installed)
    "test_web_browser",
    "test_web_connections",
    "test_web_engines",
    "test_web_serve",
}


# Modules that `make test` runs alone, after the two workers: a local Ray cluster spreads its
# tasks over its nodes only when their CPUs are free, which a second worker's tests prevent.
SERIAL_MODULES = {"test_cluster"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        name = item.module.__name__.rpartition(".")[2] if item.module is not None else ""
        if name in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
        if name in SERIAL_MODULES:
            item.add_marker(pytest.mark.serial)


# ----- no process left behind -------------------------------------------------------------------
# Every process the tests start, and everything those start in turn, inherits a mark in its
# environment; at the end of the session any process still running with the mark fails the
# run, after being killed with its process group. Orphans are found too: they keep the mark
# whoever adopted them.
_MARK = "GENIAL_TEST_SESSION"


def marked_processes(mark: str) -> list[int]:
    """The running processes (Linux, this user's) whose environment holds ``_MARK=mark``,
    other than this one."""
    wanted = f"{_MARK}={mark}".encode()
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                env = f.read().split(b"\0")
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                state = f.read().rpartition(")")[2].split()[0]
        except OSError:
            continue
        if wanted in env and state != "Z" and not _own_helper(int(entry)):
            out.append(int(entry))  # a zombie holds nothing and runs nothing
    return out


def _own_helper(pid: int) -> bool:
    """A helper of this test process itself, which ends with it: multiprocessing's resource
    tracker, started once by the first test that uses a lock or shared memory."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
            ppid = int(f.read().rpartition(")")[2].split()[1])
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            command = f.read()
    except (OSError, ValueError):
        return False
    return ppid == os.getpid() and b"multiprocessing.resource_tracker" in command


def _describe(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f"{pid}: " + f.read().replace(b"\0", b" ").decode(errors="replace").strip()[:160]
    except OSError:
        return f"{pid}: (gone)"


@pytest.fixture(scope="session", autouse=True)
def _no_process_left_behind() -> Iterator[None]:
    import secrets
    import signal
    import time

    if not os.path.isdir("/proc"):
        yield
        return
    mark = secrets.token_hex(8)
    os.environ[_MARK] = mark
    yield
    # Give processes that were told to stop a moment to go, then judge.
    deadline = time.monotonic() + 10
    left = marked_processes(mark)
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = marked_processes(mark)
    if not left:
        return
    shown = [_describe(p) for p in left]
    own_group = os.getpgrp()
    for p in left:
        try:
            group = os.getpgid(p)
            if group != own_group:  # never the group this test run itself belongs to
                os.killpg(group, signal.SIGKILL)
            os.kill(p, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    pytest.fail("the tests left these processes running (now killed):\n" + "\n".join(shown), pytrace=False)


@pytest.fixture(scope="session", autouse=True)
def _state_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Where `genial play` notes the last game it saved (for ``genial analyse --last``):
    the session's temporary folder, not the user's ``~/.local/state``."""
    folder = tmp_path_factory.mktemp("state")
    before = os.environ.get("XDG_STATE_HOME")
    os.environ["XDG_STATE_HOME"] = str(folder)  # subprocesses too
    yield folder
    if before is None:
        os.environ.pop("XDG_STATE_HOME", None)
    else:
        os.environ["XDG_STATE_HOME"] = before

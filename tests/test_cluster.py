"""``--ray`` on a real cluster: a head and a worker node started by ``ray start`` as
separate processes on this machine. ``genial simulate --out DIR --ray`` is killed halfway
together with the worker node, resumed with ``--resume`` on a fresh worker node, and its
dataset must be the local run's, file for file; ``genial ladder --ray`` loses its worker
node halfway, carries on on the head, and must write the local run's report.

The cluster is small (one CPU per node, a small object store, its own temporary folder,
ports picked free) and always torn down; every wait has a timeout."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import pytest
from genial.distributed import ray_available

if not ray_available():
    pytest.skip("ray is not importable (pip install ray, as requirements-dev.txt lists)", allow_module_level=True)

GENIAL = [sys.executable, "-m", "genial"]
RAY = str(Path(sys.executable).with_name("ray"))
SIM = ["simulate", "--games", "3200", "--bots", "greedy,random", "--seed", "11", "--shard-games", "200"]
LADDER = ["ladder", "--pool", "random,greedy,scarcity,easy", "--rounds", "2", "--rounds4", "1", "--seed", "5"]
LADDER += ["--bootstrap", "50", "--no-progress"]
WAIT_S = 120  # the most any one step may take before the test fails (a hung cluster never hangs CI)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        RAY_USAGE_STATS_ENABLED="0",
        # A token in ~/.ray would switch the cluster to token auth, and not the drivers.
        RAY_AUTH_MODE="disabled",
        # A lost node is noticed within seconds (the defaults wait half a minute).
        RAY_health_check_initial_delay_ms="1000",
        RAY_health_check_period_ms="500",
        RAY_health_check_timeout_ms="1000",
        RAY_health_check_failure_threshold="3",
    )
    return env


class Cluster:
    """A head node and worker nodes, each a ``ray start --block`` process group."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.nodes: list[subprocess.Popen[bytes]] = []
        self.logs: list[IO[bytes]] = []

    def _start(self, role: list[str], name: str) -> subprocess.Popen[bytes]:
        ports = []
        for flag in (
            "--node-manager-port",
            "--object-manager-port",
            "--dashboard-agent-listen-port",
            "--dashboard-agent-grpc-port",
            "--runtime-env-agent-port",
            "--metrics-export-port",
        ):
            ports += [flag, str(_free_port())]
        log = open(self.root / f"{name}.log", "wb")  # noqa: SIM115 (closed in stop)
        self.logs.append(log)
        cmd = [RAY, "start", "--block", "--num-cpus=1", "--object-store-memory=80000000", "--disable-usage-stats"]
        proc = subprocess.Popen(
            cmd + role + ports, env=_env(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.nodes.append(proc)
        return proc

    def _started(self, proc: subprocess.Popen[bytes], name: str) -> None:
        """Until ``ray start`` says the node runs (it has joined the cluster by then)."""
        deadline = time.monotonic() + WAIT_S
        while "Ray runtime started." not in self.tail(name, whole=True):
            assert proc.poll() is None, f"the {name} node exited: {self.tail(name)}"
            assert time.monotonic() < deadline, f"the {name} node did not start: {self.tail(name)}"
            time.sleep(0.1)

    def start(self) -> None:
        """The head, and the first worker node as soon as the head listens (both start
        together)."""
        head = self._start(
            [
                "--head",
                f"--port={self.port}",
                "--node-ip-address=127.0.0.1",
                "--include-dashboard=false",
                f"--temp-dir={self.root / 'ray'}",
            ],
            "head",
        )
        deadline = time.monotonic() + WAIT_S
        while True:
            assert head.poll() is None, f"the head node exited: {self.tail('head')}"
            assert time.monotonic() < deadline, f"the head node did not start: {self.tail('head')}"
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 1):
                break
            time.sleep(0.1)
        worker = self._start([f"--address={self.address}", "--node-ip-address=127.0.0.1"], "worker-1")
        self._started(head, "head")
        self._started(worker, "worker-1")

    def start_worker(self, name: str) -> subprocess.Popen[bytes]:
        proc = self._start([f"--address={self.address}", "--node-ip-address=127.0.0.1"], name)
        self._started(proc, name)
        return proc

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        """A node lost at once: its whole process group killed."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(WAIT_S)

    def tail(self, name: str, whole: bool = False) -> str:
        with contextlib.suppress(OSError):
            text = (self.root / f"{name}.log").read_text(errors="replace")
            return text if whole else text[-2000:]
        return ""

    def stop(self) -> None:
        """Every node's process group killed (``ray start``'s own stop takes many seconds;
        the workers a node started end by themselves once their node is gone)."""
        for proc in reversed(self.nodes):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
        for proc in self.nodes:
            proc.wait(WAIT_S)
        for log in self.logs:
            log.close()


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    # A short folder: Ray's socket paths live under it and must fit in 107 bytes.
    root = Path(tempfile.mkdtemp(prefix="genial-ray-"))
    c = Cluster(root)
    try:
        c.start()
        yield c
    finally:
        c.stop()
        shutil.rmtree(root, ignore_errors=True)


def _genial(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GENIAL, *args], env=_env(), cwd=cwd, capture_output=True, text=True, timeout=WAIT_S)


def _wait_for(what: str, proc: subprocess.Popen[str], test: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT_S
    while not test():
        if proc.poll() is not None:
            raise AssertionError(f"the run ended before {what}: {proc.communicate()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} within {WAIT_S} s")
        time.sleep(0.05)


def _shards(folder: Path) -> dict[str, bytes]:
    return {f.name: f.read_bytes() for f in sorted(folder.glob("part-*.parquet"))}


def test_simulate_on_a_cluster_killed_halfway_resumes_to_the_local_dataset(cluster: Cluster) -> None:
    import genial
    from genial.dataset import read_dataset

    work = cluster.root
    local = _genial([*SIM, "--threads", "1", "--out", str(work / "local"), "-q"], work)
    assert local.returncode == 0, local.stderr
    expected = _shards(work / "local")
    assert len(expected) == 16

    out = work / "remote"
    run = subprocess.Popen(
        [*GENIAL, *SIM, "--out", str(out), "--ray", cluster.address, "-v", "--no-progress"],
        env=_env(),
        cwd=work,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        _wait_for("4 shards", run, lambda: len(list(out.glob("part-*.parquet"))) >= 4)
        # The worker node and the run are lost together, halfway.
        cluster.kill(cluster.nodes[1])
        os.killpg(run.pid, signal.SIGKILL)
        _, first = run.communicate(timeout=WAIT_S)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(run.pid, signal.SIGKILL)
        run.wait(WAIT_S)
    written = _shards(out)
    assert 4 <= len(written) < 16, "the run was not stopped halfway"
    assert all(written[name] == expected[name] for name in written)  # every shard file written is whole and right
    # A shard whose file landed just before the kill, but before `_meta.json` listed it, is
    # not trusted: the resumed run sets it aside and plays it again.
    listed = set(json.loads((out / "_meta.json").read_text())["files"])
    kept = {name: data for name, data in written.items() if name in listed}
    unlisted = sorted(set(written) - listed)
    assert len(unlisted) <= 1, unlisted  # the driver writes one shard, then lists it, then the next
    stamps = {name: (out / name).stat().st_mtime_ns for name in kept}

    cluster.start_worker("worker-2")
    resumed = _genial([*SIM, "--out", str(out), "--ray", cluster.address, "--resume", "-v", "--no-progress"], work)
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming {out}: {len(kept)} of 16 shards done, {16 - len(kept)} to play" in resumed.stderr
    for name in unlisted:
        assert f"{name} was not listed in _meta.json: set aside as {out / name}.unlisted" in resumed.stderr
    assert {f.name: f.stat().st_mtime_ns for f in out.glob("part-*.parquet") if f.name in stamps} == stamps
    assert _shards(out) == expected  # the same files as the local run, byte for byte
    assert not list(out.glob(".*partial"))
    # The shards were played on more than one node. Counted over both runs: the resumed run
    # alone may play every shard on the head, since the node started just before it can be
    # seen with a free CPU only after the head has taken the remaining shards (as happened
    # on a loaded machine).
    nodes = {line.rsplit(" ", 1)[-1] for line in (first + resumed.stderr).splitlines() if " from node " in line}
    assert len(nodes) >= 2, first + resumed.stderr
    assert "3200 in the dataset" in resumed.stdout
    rules = genial.Rules("standard", 2)
    assert read_dataset(out) == genial.simulate(3200, bots=["greedy", "random"], seed=11, rules=rules, threads=2)


def test_ladder_on_a_cluster_losing_a_node_gives_the_local_report(cluster: Cluster) -> None:
    work = cluster.root
    local = _genial([*LADDER, "--out", str(work / "ladder-local")], work)
    assert local.returncode == 0, local.stderr

    out = work / "ladder-remote"
    results = out / "results.jsonl"
    if len(cluster.nodes) < 3 or cluster.nodes[-1].poll() is not None:
        cluster.start_worker("worker-3")
    run = subprocess.Popen(
        [*GENIAL, *LADDER, "--out", str(out), "--ray", cluster.address],
        env=_env(),
        cwd=work,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for("3 matches", run, lambda: results.exists() and len(results.read_text().splitlines()) >= 4)
        cluster.kill(cluster.nodes[-1])  # the worker node is lost; the run goes on on the head
        _, stderr = run.communicate(timeout=WAIT_S)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait(WAIT_S)
    assert run.returncode == 0, stderr
    assert (out / "ladder.md").read_text() == (work / "ladder-local" / "ladder.md").read_text()
    mine, theirs = results.read_text().splitlines(), (work / "ladder-local" / "results.jsonl").read_text().splitlines()
    assert mine[0] == theirs[0] and sorted(mine[1:]) == sorted(theirs[1:])

"""An engine's process, held to its limits: the one place that starts, talks to and stops
an engine subprocess (`EngineProcess`). It knows nothing of games or of the protocol's
meaning, only lines, deadlines and processes.

- **Its own session.** The engine's session is new (``start_new_session``), so that a
  shell wrapper without ``exec``, its background children and its grandchildren are all in
  its process group, and Ctrl-C at the terminal reaches the host only.
- **Its keeper** (Linux; `genial.engine.keeper`). The session's leader is a small Python
  process that starts the engine and then only waits: it is the engine's parent and a
  *child subreaper*, so every descendant whose parent ends (a ``setsid`` child, a double
  fork) is adopted by it instead of by init. The host holds one end of a socket to it; when
  the host ends in any way (SIGKILL, a lost Ray worker, the OOM killer) the keeper sees
  the socket close, or its parent change, and kills everything below it, again until it
  has no child left. So no path leaves a process behind, and the host's own stopping asks
  the keeper to do the same. Why a keeper: ``PR_SET_PDEATHSIG`` on the engine alone would
  miss its descendants, and fires when the *thread* that started it ends, which need not
  be when the host does; making the host itself a subreaper would hand it
  every orphan of every library it runs, to reap, and still nothing survives the host's
  SIGKILL to clean up; a cgroup needs privileges or systemd. The keeper is not in the path
  of the engine's lines (the engine's pipes go straight to the host), so a decision costs
  the same with it; starting an engine costs one more small process start
  (BENCHMARKS.md, "Engines over the protocol"). ``$GENIAL_ENGINE_KEEPER=0`` runs
  engines without it. The host also records the engine's descendants from ``/proc``
  while it runs (every `SCAN_S`, and whenever it writes), for `alive_descendants` and
  for platforms or runs without a keeper.
- **Stopping** (`EngineProcess.stop`): ``quit`` (when asked), the engine's input closed,
  `QUIT_GRACE_S` for it to end; then SIGTERM to the whole group and to every descendant
  found, `TERM_GRACE_S`; then the keeper kills whatever is left (without a keeper, or
  when it was killed itself: SIGKILL to the group, then every process found, again until a
  scan finds none, for at most `COLLECT_S`). The leader is reaped last (while it is
  unreaped its group id cannot be reused).
- **Every read and write has a deadline.** One thread per engine reads its stdout and
  stderr with ``poll``: stdout into lines of at most `MAX_LINE` bytes (the newline not
  counted), queued up to `QUEUE_BYTES`; stderr into a bounded log. The engine's stdin is
  non-blocking, and a write that cannot finish by its deadline fails. A line over the
  limit, a queue over its bound, the output closed while the engine runs and its exit are
  each a `Broken` with a clear reason, never an exception of another kind and never more
  of the host's memory.
- **stderr** goes to a log file: its first `LOG_HEAD` bytes, then (when it writes more)
  its last `LOG_TAIL` bytes after a line that says how much was cut.

Not covered: a keeper killed by someone else (an engine may kill its parent): its engine's
descendants are then found as without a keeper, from the records of ``/proc``, and one
that double-forked between two scans escapes; without a keeper (not Linux, or
``$GENIAL_ENGINE_KEEPER=0``) likewise, and a host killed with SIGKILL leaves its engines to
end at the end of their input.
"""

from __future__ import annotations

import collections
import contextlib
import errno
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from .keeper import children  # the keeper's own scan: one copy, standard library only

__all__ = [
    "Broken",
    "EngineProcess",
    "MAX_LINE",
    "QUEUE_BYTES",
    "LINE_COST",
    "LOG_HEAD",
    "LOG_TAIL",
    "QUIT_GRACE_S",
    "TERM_GRACE_S",
    "SCAN_S",
    "KEEPER_S",
    "COLLECT_S",
]

MAX_LINE = 65_536
"""The longest line an engine may write, in bytes, its newline not counted."""

QUEUE_BYTES = 1024 * 1024
"""The most output (bytes) an engine may have written that the host has not read yet
(each line counted with `LINE_COST` bytes more, so that many short lines are bounded too)."""

LINE_COST = 100
"""What a queued line costs beyond its bytes, in the bound of `QUEUE_BYTES`."""

LOG_HEAD = 1_000_000
"""The bytes of an engine's stderr kept from its start, per run of the engine."""

LOG_TAIL = 1_000_000
"""The bytes of an engine's stderr kept from its end, when it wrote more than `LOG_HEAD`."""

QUIT_GRACE_S = 0.5
"""How long a stopped engine has to end after its input is closed, before SIGTERM."""

TERM_GRACE_S = 0.5
"""How long it has after SIGTERM, before SIGKILL."""

SCAN_S = 0.2
"""How often the engine's descendants are recorded (Linux, from ``/proc``)."""

KEEPER_S = 10.0
"""How long the engine's keeper (Linux) has to start and say that it started the engine."""

COLLECT_S = 2.0
"""How long the host itself goes on collecting an engine's processes (scan, SIGKILL, again
until a scan finds none) when its keeper did not (it was killed) or there is none."""

EXIT_GRACE_S = 2.0
"""How long an engine whose output or input just ended has to be seen exiting, before it
is judged to have closed its pipes while it runs. Its exit status comes from its keeper (a
process of its own), which on a loaded machine can take well over a few tenths of a second
to run; the wait ends as soon as the status is there."""

_POLL_S = 0.05
_SCAN_BUSY_S = 0.01
_CHUNK = 65_536
_LINUX = sys.platform.startswith("linux") and os.path.isdir("/proc")
_KEEPER = Path(__file__).with_name("keeper.py")
_KEEPER_WAIT_S = 6.0  # the keeper's own collection (keeper.COLLECT_S) and a margin


def _keeper_available() -> bool:
    """Whether engines run under a keeper: on Linux, with a Python to run it
    (``$GENIAL_ENGINE_KEEPER=0`` turns it off, to compare)."""
    return _LINUX and bool(sys.executable) and os.environ.get("GENIAL_ENGINE_KEEPER", "1") != "0"


class Broken(Exception):
    """The engine broke a limit or is gone. ``reason`` says what happened, for the
    operator; ``public`` says it for anyone (no command, no path)."""

    def __init__(self, reason: str, public: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.public = public


_END = object()  # the engine's stdout ended


class _Fault:
    __slots__ = ("public", "reason")

    def __init__(self, reason: str, public: str) -> None:
        self.reason, self.public = reason, public


def _stat(pid: int) -> tuple[int, int, int, str] | None:
    """``(parent, session, start time, state)`` of a process from ``/proc``, or None."""
    # A scan of a session reads every process's record: plain `open`, not `pathlib`, which
    # cost half of the scan's time.
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read()
    except (OSError, ValueError):
        return None
    fields = text[text.rindex(b")") + 2 :].split()
    return int(fields[1]), int(fields[3]), int(fields[19]), fields[0].decode()


def _session(sid: int) -> list[int]:
    """Every live process of session ``sid`` (its leader included)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = _stat(int(entry))
            if st is not None and st[1] == sid and st[3] != "Z":
                out.append(int(entry))
    return out


class EngineProcess:
    """One run of an engine: ``argv`` started in a session of its own (on Linux under its
    keeper, `genial.engine.keeper`), its stderr kept in ``log_path`` (``nice``: that much
    lower a priority than the host's, for it and all it starts). `send` and `read_line`
    take a deadline (`time.monotonic` seconds) and raise `Broken`; `stop` ends the process
    and all it started, and can be called from any thread, any number of times. ``pid`` is
    the engine's own process id; `OSError` when it cannot be started."""

    def __init__(
        self,
        argv: Sequence[str],
        log_path: Path,
        *,
        max_line: int = MAX_LINE,
        nice: int = 0,
        keeper: bool | None = None,
    ) -> None:
        self.argv = list(argv)
        self.log_path = log_path
        self.max_line = max_line
        use_keeper = _keeper_available() if keeper is None else keeper
        self.keeper = use_keeper
        """Whether the engine runs under its keeper (which collects even what left its session)."""
        self._control: int | None = None  # the host's end of the socket to the keeper
        self._control_lock = threading.Lock()
        self._control_buf = bytearray()
        self._keeper_gone = False
        self._exit: int | None = None
        self._log = open(log_path, "ab", buffering=0)  # noqa: SIM115 -- closed by the reader thread
        self._log_lock = threading.Lock()
        command = self.argv
        theirs: socket.socket | None = None
        ours: socket.socket | None = None
        try:
            if use_keeper:
                ours, theirs = socket.socketpair()
                command = [sys.executable, "-I", "-S", str(_KEEPER), str(theirs.fileno()), str(os.getpid()), *argv]
            self._proc = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                pass_fds=(theirs.fileno(),) if theirs is not None else (),
            )
        except BaseException:
            self._log.close()
            if ours is not None:
                ours.close()
            raise
        finally:
            if theirs is not None:
                theirs.close()
        assert self._proc.stdin is not None and self._proc.stdout is not None and self._proc.stderr is not None
        self._leader = self._proc.pid  # the session's leader: the keeper, or the engine itself
        st = _stat(self._leader) if _LINUX else None
        self._start_time = st[2] if st is not None else None
        self._descendants: dict[int, int] = {}  # pid -> start time
        if ours is not None:
            self._control = ours.detach()
            os.set_blocking(self._control, False)
            try:
                self.pid = self._await_start()
            except BaseException:
                self._abandon()
                raise
            st = _stat(self.pid)
            if st is not None:
                self._descendants[self.pid] = st[2]
        else:
            self.pid = self._leader
        if nice > 0:  # a lower priority for the engine and all it starts from now on
            with contextlib.suppress(OSError, AttributeError):
                os.setpriority(os.PRIO_PGRP, self._leader, min(19, os.getpriority(os.PRIO_PROCESS, 0) + nice))
        self._in = self._proc.stdin.fileno()
        os.set_blocking(self._in, False)
        self._cond = threading.Condition()
        self._lines: collections.deque[bytes | object] = collections.deque()
        self._queued = 0
        self._fault: _Fault | None = None
        self._stopping = threading.Event()
        self._reaped = False
        self._stop_lock = threading.Lock()
        self.stderr_bytes = 0
        self.stderr_cut = 0
        self._head = 0
        self._tail: collections.deque[bytes] = collections.deque()
        self._tail_bytes = 0
        self._log_closed = False
        self._thread = threading.Thread(target=self._pump, name="genial-engine-io", daemon=True)
        self._thread.start()

    # ----- the keeper -----------------------------------------------------------------------

    def _control_lines(self) -> list[str]:
        """The keeper's lines that came since the last call (never blocks); notes the
        end of the socket (the keeper is gone)."""
        with self._control_lock:
            fd = self._control
            if fd is None or self._keeper_gone:
                return []
            while True:
                try:
                    data = os.read(fd, 4096)
                except BlockingIOError:
                    break
                except OSError:
                    data = b""
                if not data:
                    self._keeper_gone = True
                    break
                self._control_buf += data
            *lines, rest = self._control_buf.split(b"\n")
            self._control_buf = bytearray(rest)
        return [line.decode("ascii", "replace") for line in lines]

    def _await_start(self) -> int:
        """The engine's pid, once the keeper has started it; `OSError` if it could not."""
        assert self._control is not None
        end = time.monotonic() + KEEPER_S
        poller = select.poll()
        poller.register(self._control, select.POLLIN)
        while True:
            for line in self._control_lines():
                word, _, rest = line.partition(" ")
                if word == "s":
                    return int(rest)
                if word == "e":
                    code = int(rest.split()[0])
                    raise OSError(code, os.strerror(code), self.argv[0])
            if self._keeper_gone:
                raise OSError(errno.ECHILD, "the engine's keeper ended before it started the engine")
            left = end - time.monotonic()
            if left <= 0:
                raise OSError(errno.ETIMEDOUT, f"the engine's keeper did not start it within {KEEPER_S:g} s")
            poller.poll(min(left, _POLL_S) * 1000)

    def _abandon(self) -> None:
        """Undoes a start that failed: the session killed and reaped, every pipe closed."""
        self._signal_group(signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=5)
        for pipe in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
            with contextlib.suppress(OSError):
                if pipe is not None:
                    pipe.close()
        self._close_control()
        self._log.close()

    def _tell_keeper(self) -> bool:
        """Asks the keeper to collect everything and end; False when it cannot be asked."""
        with self._control_lock:
            if self._control is None or self._keeper_gone:
                return False
            try:
                return os.write(self._control, b"k") == 1
            except OSError:
                return False

    def _close_control(self) -> None:
        with self._control_lock:
            if self._control is not None:
                with contextlib.suppress(OSError):
                    os.close(self._control)
                self._control = None

    # ----- state ---------------------------------------------------------------------------

    def _leader_status(self) -> int | None:
        """The session leader's exit status (the keeper's, or the engine's without one),
        or None while it runs. Does not reap it."""
        if self._reaped:
            return self._proc.returncode
        try:
            info = os.waitid(os.P_PID, self._leader, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:  # reaped elsewhere (SIGCHLD ignored, say): it has ended
            return self._proc.poll()
        except AttributeError:  # pragma: no cover -- no waitid on this platform
            return self._proc.poll()
        if info is None or info.si_pid == 0:
            return None
        return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status

    def exit_status(self) -> int | None:
        """The engine's exit status (negative: the signal), or None while it runs."""
        if self._exit is not None:
            return self._exit
        if self.pid == self._leader:
            self._exit = self._leader_status()
            return self._exit
        for line in self._control_lines():
            word, _, rest = line.partition(" ")
            if word == "x" and self._exit is None:
                self._exit = int(rest)
        if self._exit is None and (self._keeper_gone or self._control is None):
            # The keeper ended without a word (killed): the engine is taken as ended once it
            # is no longer there, with the keeper's status.
            st = _stat(self.pid)
            if st is None or st[2] != self._descendants.get(self.pid) or st[3] == "Z":
                code = self._leader_status()
                self._exit = code if code is not None else -signal.SIGKILL
        return self._exit

    def status_text(self) -> str:
        code = self.exit_status()
        if code is None:
            return "running"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = str(-code)
            return f"killed by signal {-code} ({name})"
        return f"status {code}"

    def stderr_note(self) -> str:
        """What was cut from the log, for a forfeit message ('' when nothing was)."""
        if not self.stderr_cut:
            return ""
        return (
            f" (it wrote {self.stderr_bytes:,} bytes to stderr: the log keeps the first {LOG_HEAD:,} "
            f"and the last {LOG_TAIL:,})"
        )

    def _alive(self) -> set[int]:
        """Every live process of this run but the session's leader: its session's and
        the descendants recorded (the engine itself among them under a keeper)."""
        found = self._scan()
        found.update(_session(self._leader))
        for pid, start in list(self._descendants.items()):  # the reader thread adds to it
            st = _stat(pid)
            if st is not None and st[2] == start and st[3] != "Z":
                found.add(pid)
        # Once more: a process that forks and ends at once (a double fork) may have been
        # between two places in the first walk; it is in the keeper's tree in the second.
        found.update(self._scan())
        found.discard(self._leader)
        return found

    def alive_descendants(self) -> list[int]:
        """The processes this engine started that still run: its session's and the
        descendants recorded (Linux only; elsewhere an empty list)."""
        if not _LINUX:
            return []
        found = self._alive()
        found.discard(self.pid)
        return sorted(found)

    def detached(self) -> list[int]:
        """The processes this engine started that still run outside its session: daemons
        (``setsid``, a double fork), which outlive the engine wherever no keeper collects
        them (Linux only; elsewhere an empty list)."""
        if not _LINUX:
            return []
        return sorted(
            pid for pid in self.alive_descendants() if (st := _stat(pid)) is not None and st[1] != self._leader
        )

    def left_running(self) -> list[int]:
        """After `stop`: the processes of this run still alive (the engine and its keeper
        included, each told from a new process with its number by its start time); empty
        when it left nothing, as it should."""
        if not _LINUX:
            return []
        found = self._alive()
        st = _stat(self._leader)
        if st is not None and st[2] == self._start_time and st[3] != "Z":
            found.add(self._leader)
        return sorted(found)

    # ----- writing -------------------------------------------------------------------------

    def send(self, data: bytes, deadline: float) -> None:
        """Writes ``data`` by the deadline; `Broken` if the engine does not read it in time
        or its input is closed."""
        view = memoryview(data)
        poller = select.poll()
        poller.register(self._in, select.POLLOUT)
        while view:
            try:
                n = os.write(self._in, view)
                view = view[n:]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, ConnectionResetError, OSError, ValueError):
                raise self._gone("its input is closed") from None
            left = deadline - time.monotonic()
            if left <= 0:
                raise Broken(
                    "the engine did not read its input in time (the host could not write to it)",
                    "did not read its input",
                )
            events = poller.poll(min(left, _POLL_S) * 1000)
            for _, ev in events:
                if ev & (select.POLLERR | select.POLLHUP):
                    raise self._gone("its input is closed")

    def _gone(self, what: str) -> Broken:
        # Give the reader a moment to see the exit.
        end = time.monotonic() + EXIT_GRACE_S
        while self.exit_status() is None and time.monotonic() < end:
            time.sleep(0.01)
        if self.exit_status() is not None:
            return Broken(f"the engine exited ({self.status_text()})", "stopped running")
        return Broken(f"the engine is gone ({what})", "stopped running")

    # ----- reading -------------------------------------------------------------------------

    def read_line(self, deadline: float) -> bytes:
        """The next line (without its newline) by the deadline. `Broken` at the deadline
        (``timeout`` in its reason), when the engine exited or closed its output, or broke
        a limit."""
        with self._cond:
            while True:
                if self._lines:
                    item = self._lines.popleft()
                    if isinstance(item, bytes):
                        self._queued -= len(item) + LINE_COST
                        return item
                    self._lines.appendleft(item)  # the end stays the end
                    break
                if self._fault is not None:
                    raise Broken(self._fault.reason, self._fault.public)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Broken("timeout", "did not answer in time")
                self._cond.wait(min(left, _POLL_S))
                if not self._lines and self.exit_status() is not None:
                    # Its output may be held open by a child: the leader's exit is the end.
                    self._cond.wait(0.05)
                    if not self._lines:
                        break
        code = self.exit_status()
        if code is None:
            # Its output ended while it runs: wait a moment for the exit that may follow.
            end = time.monotonic() + EXIT_GRACE_S
            while self.exit_status() is None and time.monotonic() < end:
                time.sleep(0.01)
        if self.exit_status() is None:
            raise Broken("the engine closed its output (stdout) but kept running", "closed its output")
        raise Broken(f"the engine exited ({self.status_text()})", "stopped running")

    def pending(self) -> bool:
        """Whether a line (or the end) waits to be read."""
        with self._cond:
            return bool(self._lines) or self._fault is not None

    # ----- the reader thread ----------------------------------------------------------------

    def _pump(self) -> None:
        assert self._proc.stdout is not None and self._proc.stderr is not None
        out, err = self._proc.stdout.fileno(), self._proc.stderr.fileno()
        poller = select.poll()
        poller.register(out, select.POLLIN)
        poller.register(err, select.POLLIN)
        open_fds = {out, err}
        buf = bytearray()
        reading_out = True
        last_scan = 0.0
        try:
            # Until the engine is stopped, even once its pipes are closed: its descendants are
            # still recorded, and the log stays open for the host's notes.
            while not self._stopping.is_set():
                if _LINUX and time.monotonic() - last_scan >= SCAN_S:
                    self._scan()
                    last_scan = time.monotonic()
                for fd, _ev in poller.poll(_POLL_S * 1000):
                    try:
                        data = os.read(fd, _CHUNK)
                    except OSError:
                        data = b""
                    if fd == err:
                        if data:
                            self._keep_stderr(data)
                        else:
                            poller.unregister(err)
                            open_fds.discard(err)
                        continue
                    if not data:
                        poller.unregister(out)
                        open_fds.discard(out)
                        if reading_out:
                            self._post(_END)
                        continue
                    if not reading_out:
                        continue  # a fault was posted: drained, not kept
                    buf += data
                    reading_out = self._split(buf)
                    if _LINUX and time.monotonic() - last_scan >= _SCAN_BUSY_S:
                        # It writes: it runs, and may have started children since.
                        self._scan()
                        last_scan = time.monotonic()
                    if not reading_out:
                        buf = bytearray()
                        # Stop reading stdout: the engine will block on its writes, and be stopped.
                        poller.unregister(out)
                        open_fds.discard(out)
        finally:
            # What stderr still holds once the engine is stopped.
            with contextlib.suppress(OSError):
                os.set_blocking(err, False)
                for _ in range(64):
                    data = os.read(err, _CHUNK)
                    if not data:
                        break
                    self._keep_stderr(data)
            self._close_log()

    def _split(self, buf: bytearray) -> bool:
        """Queues the whole lines of ``buf`` (removing them); False after a fault."""
        start = 0
        lines: list[bytes] = []
        while True:
            i = buf.find(b"\n", start)
            if i < 0:
                break
            if i - start > self.max_line:
                self._post(_Fault(f"a line longer than {self.max_line} bytes", "broke the engine protocol"))
                return False
            line = bytes(buf[start:i])
            if line.endswith(b"\r"):
                line = line[:-1]
            lines.append(line)
            start = i + 1
        del buf[:start]
        if len(buf) > self.max_line:
            self._post(_Fault(f"a line longer than {self.max_line} bytes", "broke the engine protocol"))
            return False
        with self._cond:
            for line in lines:
                self._lines.append(line)
                self._queued += len(line) + LINE_COST
            if lines:
                self._cond.notify_all()
            if self._queued > QUEUE_BYTES:
                self._lines.clear()
                self._queued = 0
                self._fault = _Fault(
                    f"the engine wrote more than {QUEUE_BYTES:,} bytes that the host had not read (a flood)",
                    "flooded the host with output",
                )
                self._cond.notify_all()
                return False
        return True

    def _post(self, item: object) -> None:
        with self._cond:
            if isinstance(item, _Fault):
                if self._fault is None:
                    self._fault = item
            else:
                self._lines.append(item)
            self._cond.notify_all()

    def _keep_stderr(self, data: bytes) -> None:
        self.stderr_bytes += len(data)
        if self._head < LOG_HEAD:
            part = data[: LOG_HEAD - self._head]
            self._head += len(part)
            self._write_log(part)
            data = data[len(part) :]
        if data:
            self._tail.append(data)
            self._tail_bytes += len(data)
            while self._tail_bytes - len(self._tail[0]) >= LOG_TAIL:
                self._tail_bytes -= len(self._tail.popleft())
            self.stderr_cut = max(0, self.stderr_bytes - self._head - LOG_TAIL)

    def _write_log(self, data: bytes) -> None:
        with self._log_lock:
            if not self._log_closed:
                with contextlib.suppress(OSError):
                    self._log.write(data)

    def note(self, text: str) -> None:
        """Writes a line of the host's into the log (``[host] ...``)."""
        self._write_log(f"\n[host] {text}\n".encode())

    def _close_log(self) -> None:
        tail = b"".join(self._tail)
        if len(tail) > LOG_TAIL:
            tail = tail[-LOG_TAIL:]
        cut = self.stderr_bytes - self._head - len(tail)
        if cut > 0:
            self.note(
                f"{cut:,} bytes of stderr cut here (of {self.stderr_bytes:,}: the first {self._head:,} and the last {len(tail):,} kept)"
            )
        if tail:
            self._write_log(tail)
        self._tail.clear()
        with self._log_lock:
            self._log_closed = True
            with contextlib.suppress(OSError):
                self._log.close()

    # ----- descendants ------------------------------------------------------------------------

    def _scan(self) -> set[int]:
        """Records the engine's descendants (and theirs): children found from the leader
        and from every descendant recorded before, so that one whose parent ended is still
        followed (under a keeper, every one is below the keeper). The live ones found."""
        roots = [self._leader, *list(self._descendants)]
        seen = set()
        live = set()
        while roots:
            pid = roots.pop()
            if pid in seen:
                continue
            seen.add(pid)
            for child in children(pid):
                st = _stat(child)
                if st is None:
                    continue
                if child not in self._descendants:
                    self._descendants[child] = st[2]
                if st[3] != "Z":
                    live.add(child)
                roots.append(child)
        return live

    # ----- stopping ---------------------------------------------------------------------------

    def _signal_group(self, sig: int) -> None:
        with contextlib.suppress(OSError):
            os.killpg(self._leader, sig)

    def _leftovers(self) -> list[int]:
        if not _LINUX:
            return []
        return self.alive_descendants()

    def _wait(self, seconds: float, *, group: bool) -> bool:
        """Waits until the engine (and, with ``group``, every process it left) has ended.
        The engine is looked at every 10 ms (cheap); the rest, a scan of ``/proc``, only
        once the engine has ended, every 50 ms."""
        end = time.monotonic() + seconds
        last_scan = 0.0
        while True:
            done = False
            if self.exit_status() is not None:
                if not group:
                    return True
                if time.monotonic() - last_scan >= 0.05:
                    last_scan = time.monotonic()
                    done = not self._leftovers()
            if done or time.monotonic() >= end:
                return done
            time.sleep(0.01)

    def stop(self, *, quit_line: bytes | None = b"quit\n", graceful: bool = True) -> None:
        """Ends the engine and everything it started: ``quit_line`` and the end of its
        input, `QUIT_GRACE_S`; SIGTERM to the group and to every descendant left,
        `TERM_GRACE_S`; then the keeper collects whatever is left (`_release`); then the
        leader is reaped. ``graceful=False`` skips straight to SIGTERM (an engine that
        failed)."""
        with self._stop_lock:
            if self._reaped:
                return
            if _LINUX:
                self._scan()
            if graceful and quit_line is not None and self.exit_status() is None:
                with contextlib.suppress(OSError, ValueError):
                    os.write(self._in, quit_line)
            with contextlib.suppress(OSError):
                assert self._proc.stdin is not None
                self._proc.stdin.close()
            ended = graceful and self._wait(QUIT_GRACE_S, group=False)
            left = self._leftovers() if ended else []
            if not ended or left:
                self._signal_group(signal.SIGTERM)
                for pid in left or self._leftovers():
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGTERM)
                self._wait(TERM_GRACE_S, group=True)
            self._release()
            self._stopping.set()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=5)
            if self._exit is None and self.pid == self._leader:
                self._exit = self._proc.returncode
            self.exit_status()  # the keeper's last word, before its socket is closed
            self._reaped = True
            self._close_control()
        self._thread.join(timeout=2.0)
        with contextlib.suppress(OSError):
            assert self._proc.stdout is not None and self._proc.stderr is not None
            self._proc.stdout.close()
            self._proc.stderr.close()

    def _release(self) -> None:
        """Whatever of this run is left is killed: by the keeper, which collects every
        descendant (adopted ones too) until none is left and ends; where there is no
        keeper, or it did not end in time, by the host: SIGKILL to the group, then
        `_collect`. The leader is not reaped here."""
        self._signal_group(signal.SIGCONT)  # a keeper stopped by its engine (SIGSTOP to the group) goes on
        if self._tell_keeper() or (self._control is not None and self._leader_status() is None):
            end = time.monotonic() + _KEEPER_WAIT_S
            while self._leader_status() is None and time.monotonic() < end:
                time.sleep(0.002)
        self._signal_group(signal.SIGKILL)
        if _LINUX and self._alive():
            self._collect()

    def _collect(self) -> None:
        """SIGKILL to every process of this run found, again until a scan finds none (a
        process forking while it is killed leaves a child that the next scan finds), for
        at most `COLLECT_S`. Without a keeper, a descendant whose parent ended before a
        scan saw it is out of reach: the keeper adopts those."""
        end = time.monotonic() + COLLECT_S
        while (left := self._alive()) and time.monotonic() < end:
            for pid in left:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.001)

    def kill(self) -> None:
        """Kills the engine and all it started at once (from any thread): its reads and
        writes end. Under a keeper the keeper does it (and ends); else SIGKILL to the group."""
        if self._tell_keeper():
            return
        self._signal_group(signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.kill(self._leader, signal.SIGKILL)

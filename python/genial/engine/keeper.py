"""The keeper of one engine (Linux): a small process between the host and the engine that
outlives neither, and takes everything the engine started with it.

    python -I -S keeper.py CONTROL_FD HOST_PID ENGINE_ARGV...

Run by `genial.engine.process.EngineProcess` (never by hand), as the leader of a new
session, with the engine's three pipes as its stdin, stdout and stderr. It

1. makes itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): every descendant
   of the engine whose parent ends is adopted by the keeper, not by init, so that no
   double fork or ``setsid`` takes one out of its reach;
2. starts the engine (``posix_spawnp``) with those pipes, in the keeper's process group
   (the host signals the group), the signals the keeper ignores back at their defaults, and then lets go of the pipes (the
   engine's end of output is the host's to see, not held open by the keeper);
3. tells the host on CONTROL_FD ``s PID`` (started) or ``e ERRNO`` (it could not start),
   and ``x CODE`` when the engine exits (CODE negative: the signal);
4. collects everything on ``k`` from the host, on the end of CONTROL_FD (the host is gone,
   however it ended: SIGKILL included) or once its parent is no longer the host: SIGKILL to
   every live descendant, again and again until a scan finds none (a process that forks
   while it is collected leaves a child that the next scan finds) or `COLLECT_S` passed;
   then it exits.

It ignores SIGTERM, SIGINT and SIGHUP: the host signals the engine's whole group, and the
keeper must be the last to go. It imports nothing but the standard library, and it is not
in the path of the engine's lines: a decision costs the same with it as without.
"""

from __future__ import annotations

import ctypes
import errno
import os
import select
import signal
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
COLLECT_S = 5.0
"""The longest the keeper goes on collecting descendants (each round a scan and SIGKILL)."""

_WATCH_S = 0.5  # how often the parent is looked at, between events
_RESET = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT, signal.SIGPIPE, signal.SIGXFSZ)


def children(pid: int) -> list[int]:
    """The children of ``pid`` (every thread's), from ``/proc``; none once it is gone."""
    out: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out.extend(int(x) for x in f.read().split())
        except (OSError, ValueError):
            continue
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return False
    return text[text.rindex(")") + 2 :].split()[0] not in ("Z", "X")


def descendants(root: int) -> list[int]:
    """Every live process below ``root`` (zombies left out)."""
    out: list[int] = []
    stack = [root]
    seen = {root}
    while stack:
        for child in children(stack.pop()):
            if child not in seen:
                seen.add(child)
                stack.append(child)
                if _alive(child):
                    out.append(child)
    return out


class Keeper:
    def __init__(self, control: int, host: int, argv: list[str]) -> None:
        self.control = control
        self.host = host
        self.argv = argv
        self.engine = 0
        self.reported = False

    def say(self, text: str) -> None:
        try:  # noqa: SIM105 -- not contextlib: an import less at every engine's start
            os.write(self.control, text.encode() + b"\n")
        except OSError:
            pass  # the host is gone: it has nothing more to hear

    def reap(self) -> bool:
        """Reaps every child that ended (the engine, and descendants adopted); whether
        any child is left. None is left exactly when no descendant is: a descendant whose
        parent ends comes to the keeper, so a live one always has a live ancestor among
        the keeper's children."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return False
            if pid == 0:
                return True
            if pid == self.engine and not self.reported:
                self.reported = True
                self.say(f"x {os.waitstatus_to_exitcode(status)}")

    def collect(self) -> bool:
        """SIGKILL to every live descendant, again until the keeper has no child left
        (not a scan that finds none: a process that forks and ends between two reads of
        ``/proc`` can be missed by one scan, never by the kernel); whether none is left."""
        me = os.getpid()
        end = time.monotonic() + COLLECT_S
        while self.reap():
            if time.monotonic() >= end:
                return False
            for pid in descendants(me):
                try:  # noqa: SIM105 -- as in say
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.001)  # they die asynchronously: the next round finds the rest
        return True

    def start(self) -> bool:
        # Without it (a kernel before 3.4) orphans go to init, and the host's records of
        # /proc are what is left to find them by.
        try:  # noqa: SIM105 -- as in say
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        except (OSError, AttributeError):
            pass
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        os.set_inheritable(self.control, False)
        try:
            self.engine = os.posix_spawnp(self.argv[0], self.argv, os.environ, setsigdef=_RESET, setsigmask=())
        except OSError as e:
            self.say(f"e {e.errno or errno.ENOENT}")
            return False
        # Let go of the engine's pipes: its end of output is its own.
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.close(null)
        self.say(f"s {self.engine}")
        return True

    def watch(self) -> None:
        """Until told to collect, or the host is gone: reaps, and reports the engine's exit."""
        wake_r, wake_w = os.pipe()
        os.set_blocking(wake_r, False)
        os.set_blocking(wake_w, False)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.set_wakeup_fd(wake_w, warn_on_full_buffer=False)
        poller = select.poll()
        poller.register(self.control, select.POLLIN)
        poller.register(wake_r, select.POLLIN)
        self.reap()  # an engine that ended before the handler was set
        while True:
            for fd, _ in poller.poll(_WATCH_S * 1000):
                if fd == wake_r:
                    try:
                        while os.read(wake_r, 512):
                            pass
                    except BlockingIOError:
                        pass
                    self.reap()
                    continue
                try:
                    data = os.read(self.control, 512)
                except OSError:
                    data = b""
                if not data or b"k" in data:
                    return  # told to, or the host's end is closed: the host is gone
            if os.getppid() != self.host:
                return  # the host ended (its end of the socket may live on in a fork of it)


def main(args: list[str]) -> int:
    control, host, argv = int(args[0]), int(args[1]), args[2:]
    keeper = Keeper(control, host, argv)
    if os.getppid() != host:  # the host died before the keeper ran
        return 1
    if not keeper.start():
        return 127
    keeper.watch()
    done = keeper.collect()
    keeper.reap()
    if not keeper.reported:  # it could not be reaped in time: say it is gone anyway
        keeper.say(f"x {-signal.SIGKILL}")
    return 0 if done else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

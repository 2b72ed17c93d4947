"""What the tests with hostile engines watch in the host (tests/test_engine_hostile.py and
tests/test_web_engines.py): the processes an engine left behind, and this process's open
descriptors and memory, read from /proc."""

from __future__ import annotations

import os
from pathlib import Path


def holding_env(entry: str, *, but_self: bool = True) -> list[int]:
    """Live processes whose environment holds ``entry`` (``NAME=value``); this one left out
    unless ``but_self`` is false."""
    needle = entry.encode()
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit() and not (but_self and int(pid) == os.getpid()):
            try:
                env = Path(f"/proc/{pid}/environ").read_bytes()
            except OSError:
                continue
            if needle in env.split(b"\0"):
                found.append(int(pid))
    return found


def tagged(tag: str) -> list[int]:
    """Live processes (not this one) that inherited the hostile engines' tag."""
    return holding_env(f"GENIAL_HOSTILE_TAG={tag}")


def fds() -> set[int]:
    """This process's open file descriptors."""
    return {int(x) for x in os.listdir("/proc/self/fd")}


def rss_kb() -> int:
    """This process's resident memory, in KiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0

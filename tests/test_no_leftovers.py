"""The session's check that no test leaves a process behind (tests/conftest.py) finds a
process it should: a grandchild whose parent has exited (an orphan adopted by another
process) still carries the session's mark."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from conftest import _MARK, marked_processes


def test_an_orphaned_grandchild_is_found_and_a_stopped_one_is_not() -> None:
    mark = os.environ[_MARK]
    # The child starts a grandchild in a session of its own, prints its pid and exits.
    code = (
        "import subprocess, sys;"
        "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'], start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL);"
        "print(p.pid)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    orphan = int(out.stdout)
    try:
        assert orphan in marked_processes(mark)
    finally:
        os.killpg(orphan, signal.SIGKILL)
    deadline = time.monotonic() + 30
    while orphan in marked_processes(mark):
        assert time.monotonic() < deadline, "the killed orphan is still listed"
        time.sleep(0.05)

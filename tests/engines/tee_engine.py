"""Runs an engine and copies every byte the host sends it to a file:
``python tee_engine.py FILE COMMAND...``. For the test that the protocol never carries a
hidden tile."""

import subprocess
import sys
import threading

path, command = sys.argv[1], sys.argv[2:]
engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=sys.stdout.buffer)


def forward() -> None:
    with open(path, "ab", buffering=0) as log:
        for line in sys.stdin.buffer:
            log.write(line)
            try:
                engine.stdin.write(line)
                engine.stdin.flush()
            except BrokenPipeError:
                break
    try:
        engine.stdin.close()
    except BrokenPipeError:
        pass


threading.Thread(target=forward, daemon=True).start()
sys.exit(engine.wait())

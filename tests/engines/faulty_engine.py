"""An engine that follows the protocol until its first ``go``, then fails as asked:
``hang`` (never answers), ``crash`` (exits), ``illegal`` (answers a move off the board),
``garbage`` (answers a line that is not the protocol). For tests of forfeits."""

import sys
import time

mode = sys.argv[1]


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for raw in sys.stdin:
    word = raw.split()[0] if raw.split() else ""
    if word == "protocol":
        say(f"id name faulty-{mode}")
        say("id author genial tests")
        say("protocolok 1")
    elif word == "isready":
        say("readyok")
    elif word == "go":
        print(f"faulty engine: failing ({mode})", file=sys.stderr, flush=True)
        if mode == "hang":
            time.sleep(3600)
        elif mode == "crash":
            sys.exit(3)
        elif mode == "illegal":
            say("bestmove R9,9+R9,8")
        else:
            say("hello there")
    elif word == "quit" and mode != "hang":
        break

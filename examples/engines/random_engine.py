#!/usr/bin/env python3
"""A complete engine of the genial engine protocol in plain Python (no genial import):
it asks the host for the legal moves and plays one at random.

    genial engine-check "python3 examples/engines/random_engine.py"
    genial tournament --bots "engine:python3 examples/engines/random_engine.py",greedy --games 20
"""

import random
import sys


def main() -> int:
    rng = random.Random(0)

    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        command = words[0]
        if command == "protocol":
            say("id name random-python")
            say("id author the genial examples")
            say("option name seed type int default 0 min 0 max 4294967295")
            say("protocolok 1")
        elif command == "setoption" and len(words) == 5 and words[2] == "seed":
            rng.seed(int(words[4]))
        elif command == "isready":
            say("readyok")
        elif command == "go":
            say("legal")
            reply = sys.stdin.readline().split()
            while reply and reply[0] != "legalmoves":  # a line sent meanwhile (stop, ...)
                reply = sys.stdin.readline().split()
            say("bestmove " + rng.choice(reply[1:]))
        elif command == "quit":
            break
        # Every other line (the position, newgame, stop, lines of later versions) is ignored.
    return 0


if __name__ == "__main__":
    sys.exit(main())

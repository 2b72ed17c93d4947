"""The engine protocol's cost per decision: a built-in bot chosen in process against the
same bot served as an engine over pipes (``genial engine --bot NAME``), on the same
positions, measured interleaved (wall time, median over decisions).

    python benches/engine_overhead.py [--positions 300] [--bots random,greedy]

Each decision over the pipe pays for the position lines, the engine rebuilding the game
from them (`GameState.from_public`) and two process wake-ups; the engine is started once
(its start and handshake are not counted).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import genial
from genial.bots import GameView
from genial.engine import EngineBot


def positions(n: int) -> list[tuple[genial.Game, int]]:
    """Decisions of 2-player greedy games, every decision of each game, until ``n``."""
    out: list[tuple[genial.Game, int]] = []
    seed = 0
    while len(out) < n:
        game = genial.Game(2, seed)
        bot = genial.bots.make("greedy", seed=seed)
        while not game.is_over and len(out) < n:
            out.append((game.clone(), game.current_player))
            game.play(bot.choose(game))
        seed += 1
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--bots", default="random,greedy")
    args = parser.parse_args()
    cases = positions(args.positions)
    print(f"{len(cases)} decisions of 2-player games; load average {os.getloadavg()[0]:.2f}; {sys.version.split()[0]}")
    print(f"{'bot':<10}{'in process µs':>15}{'engine µs':>12}{'overhead µs':>13}{'ratio':>8}")
    for name in args.bots.split(","):
        inproc = genial.bots.make(name)
        engine_times: list[float] = []
        local_times: list[float] = []
        with EngineBot([sys.executable, "-m", "genial", "engine", "--bot", name], movetime_ms=5000) as engine:
            engine.start()
            for game, seat in cases:
                view = GameView(game, seat)
                t0 = time.perf_counter()
                inproc.choose(GameView(game, seat))
                t1 = time.perf_counter()
                engine.choose(view)
                t2 = time.perf_counter()
                local_times.append((t1 - t0) * 1e6)
                engine_times.append((t2 - t1) * 1e6)
        local, remote = statistics.median(local_times), statistics.median(engine_times)
        print(f"{name:<10}{local:>15.0f}{remote:>12.0f}{remote - local:>13.0f}{remote / local:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

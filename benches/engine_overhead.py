"""The engine protocol's cost per decision: a built-in bot chosen in process against the
same bot served as an engine over pipes (``genial engine --bot NAME``), on the same
positions, measured interleaved (wall time, median over decisions); the engine hosted
with its keeper (`genial.engine.keeper`, the default on Linux) and without it
(``GENIAL_ENGINE_KEEPER=0``), both interleaved too. ``--starts N``: also the time to
start a process that does nothing (``cat``) and to stop it, N times each way, interleaved.

    python benches/engine_overhead.py [--positions 300] [--bots random,greedy] [--starts 30]

Each decision over the pipe pays for the position lines, the engine rebuilding the game
from them (`GameState.from_public`) and two process wake-ups; the engine is started once
(its start and handshake are not counted in the decisions).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import genial
from genial.bots import GameView
from genial.engine import EngineBot
from genial.engine.process import EngineProcess

WAYS = {"keeper": "1", "no keeper": "0"}


@contextlib.contextmanager
def keeper(value: str) -> Iterator[None]:
    """Engines started meanwhile run with (``"1"``) or without (``"0"``) their keeper."""
    old = os.environ.get("GENIAL_ENGINE_KEEPER")
    os.environ["GENIAL_ENGINE_KEEPER"] = value
    try:
        yield
    finally:
        if old is None:
            del os.environ["GENIAL_ENGINE_KEEPER"]
        else:
            os.environ["GENIAL_ENGINE_KEEPER"] = old


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


def command(name: str) -> list[str]:
    return [sys.executable, "-m", "genial", "engine", "--bot", name]


def decisions(cases: list[tuple[genial.Game, int]], names: list[str]) -> None:
    print(f"{'bot':<10}{'in process µs':>15}" + "".join(f"{way + ' µs':>15}{'overhead µs':>13}" for way in WAYS))
    for name in names:
        inproc = genial.bots.make(name)
        engines: dict[str, EngineBot] = {}
        times: dict[str, list[float]] = {"in process": [], **{way: [] for way in WAYS}}
        try:
            for way, value in WAYS.items():
                with keeper(value):
                    engines[way] = EngineBot(command(name), movetime_ms=5000)
                    engines[way].start()
            for game, seat in cases:
                t0 = time.perf_counter()
                inproc.choose(GameView(game, seat))
                times["in process"].append((time.perf_counter() - t0) * 1e6)
                for way, engine in engines.items():
                    view = GameView(game, seat)
                    t0 = time.perf_counter()
                    engine.choose(view)
                    times[way].append((time.perf_counter() - t0) * 1e6)
        finally:
            for engine in engines.values():
                engine.close()
        local = statistics.median(times["in process"])
        row = f"{name:<10}{local:>15.0f}"
        for way in WAYS:
            remote = statistics.median(times[way])
            row += f"{remote:>15.0f}{remote - local:>13.0f}"
        print(row)


def starts(n: int, folder: Path) -> None:
    """Start, then stop, of an engine process that does nothing (``cat``, which ends at the
    end of its input): what the keeper adds to each start of an engine, and to its stop."""
    took: dict[str, tuple[list[float], list[float]]] = {way: ([], []) for way in WAYS}
    for _ in range(n):
        for way, value in WAYS.items():
            with keeper(value):
                t0 = time.perf_counter()
                process = EngineProcess(["cat"], folder / "cat.log")
                t1 = time.perf_counter()
                process.stop()
                t2 = time.perf_counter()
            took[way][0].append((t1 - t0) * 1e3)
            took[way][1].append((t2 - t1) * 1e3)
    print(f"{'cat':<12}{'start ms':>24}{'stop ms':>24}   (median [quartiles] of {n})")
    for way, (up, down) in took.items():
        q = statistics.quantiles(up, n=4)
        r = statistics.quantiles(down, n=4)
        print(
            f"{way:<12}{statistics.median(up):>8.1f} [{q[0]:6.1f}, {q[2]:6.1f}]"
            f"{statistics.median(down):>8.1f} [{r[0]:6.1f}, {r[2]:6.1f}]"
        )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--bots", default="random,greedy")
    parser.add_argument("--starts", type=int, default=0, help="also time N starts and stops each way")
    args = parser.parse_args()
    cases = positions(args.positions)
    print(f"{len(cases)} decisions of 2-player games; load average {os.getloadavg()[0]:.2f}; {sys.version.split()[0]}")
    decisions(cases, args.bots.split(","))
    if args.starts:
        with tempfile.TemporaryDirectory() as folder:
            starts(args.starts, Path(folder))
    return 0


if __name__ == "__main__":
    sys.exit(main())

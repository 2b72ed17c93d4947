"""Resident memory a game after one big `genial.simulate` call (issue 32's target: at most
60 bytes of RSS a game after a million random 2-player games, against 55 bytes of data).

    python benches/simulate_rss.py [GAMES]        # default 1,000,000, threads=1

VmRSS from ``/proc/self/status`` (Linux) after a warm-up call and after the run, the result
kept; the data are the result's arrays. Run it in a fresh process: what the process held
before counts.
"""

from __future__ import annotations

import sys

import genial


def status() -> dict[str, int]:
    """VmRSS and VmHWM (peak) in bytes."""
    with open("/proc/self/status") as f:
        return {line.split(":")[0]: int(line.split()[1]) * 1024 for line in f if line.startswith(("VmRSS:", "VmHWM:"))}


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    genial.simulate(10, threads=1)  # imports, the allocator's first arenas
    before = status()["VmRSS"]
    result = genial.simulate(games, players=2, threads=1, seed=1)
    after = status()
    data = sum(getattr(result, c).nbytes for c in result._columns)
    print(
        f"{games:,} games: RSS {before / 1e6:.1f} MB before, {after['VmRSS'] / 1e6:.1f} MB after, "
        f"peak {after['VmHWM'] / 1e6:.1f} MB; RSS a game {(after['VmRSS'] - before) / games:.1f} B, "
        f"data a game {data / games:.1f} B; sums of scores and turns {int(result.scores.sum())} "
        f"{int(result.turns.sum())} (the same games)"
    )


if __name__ == "__main__":
    main()

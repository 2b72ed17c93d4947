"""Writes `golden.json` beside this file: the numbers the engine must keep producing.

Run it only when a change of the rules' behaviour is intended, and say so in the commit:
``.venv/bin/python tests/golden/generate.py``. The checkers (`tests/test_golden.py` and
`tests/golden.rs`) replay every game independently and compare; they never write.

Each game is played by a deterministic policy that does not depend on the order in which
the engine lists moves, only on the set of legal moves:

* ``random``: a SplitMix64 stream (`policy.Draws`, seeded with the game seed + an offset)
  draws an index below the number of legal moves; the move played is the one at that index
  among the moves sorted by text.
* ``points``: the placement scoring the most raw points; ties, and swap or keep, go to the
  first move in text order.

Per decision the table keeps the number of legal moves, the move played and the variant's
tracks after it; per game the end, the ranks and the counters. ``perft`` counts the leaves
of the full move tree (every decision is a ply: placements, bonus placements, swap offers)
from the initial position, depth by depth.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from genial import Game, Move
from policy import Draws, perft

OUT = Path(__file__).with_name("golden.json")

# (variant, players, swap_timing, require_contact)
CONFIGS: list[tuple[str, int, str, bool]] = [
    ("standard", 2, "after_placement", False),
    ("standard", 3, "after_placement", False),
    ("standard", 4, "after_placement", False),
    ("solo", 1, "after_placement", False),
    ("team", 4, "after_placement", False),
    ("duel", 2, "after_placement", False),
    ("standard", 2, "instead_of_placement", False),
    ("standard", 3, "instead_of_placement", False),
    ("standard", 4, "instead_of_placement", False),
    ("team", 4, "instead_of_placement", False),
    ("duel", 2, "instead_of_placement", False),
    ("standard", 2, "after_placement", True),
    ("standard", 3, "after_placement", True),
    ("standard", 4, "after_placement", True),
    ("solo", 1, "after_placement", True),
    ("team", 4, "after_placement", True),
    ("duel", 2, "after_placement", True),
    ("standard", 2, "instead_of_placement", True),
]
SEEDS = (1, 2026)
POLICIES = ("random", "points")
# Rarer paths, found by scanning seeds 0..59 of these rule sets once: immediate wins in the
# duel (all six markers on one side) and a bonus lost because the board filled up.
EXTRA: list[tuple[tuple[str, int, str, bool], int, str]] = [
    (("duel", 2, "after_placement", False), 50, "points"),
    (("duel", 2, "after_placement", True), 23, "random"),
    (("standard", 2, "after_placement", False), 16, "points"),
]
#: The random policy's stream is seeded with the game seed plus this.
POLICY_SEED_OFFSET = 1_000_003
PERFT_SEED = 7
# (variant, players, swap_timing, require_contact, depth). Depth 2 covers both seats' first
# placements (touching a printed symbol); depth 3 of the solo game and of the contact rule
# adds free placements. The base game's depth 3 has 8e8 leaves: too slow for a test.
PERFT: list[tuple[str, int, str, bool, int]] = [
    ("standard", 2, "after_placement", False, 2),
    ("standard", 3, "after_placement", False, 2),
    ("standard", 4, "after_placement", False, 2),
    ("solo", 1, "after_placement", False, 3),
    ("solo", 1, "after_placement", True, 3),
    ("duel", 2, "instead_of_placement", True, 2),
]


def new_game(variant: str, players: int, swap_timing: str, require_contact: bool, seed: int) -> Game:
    return Game(players, seed, variant=variant, swap_timing=swap_timing, require_contact=require_contact)


def choose(game: Game, policy: str, draws: Draws) -> Move:
    legal = game.legal_moves()
    by_text = sorted(legal, key=str)
    if policy == "random":
        return by_text[draws.below(len(by_text))]
    board = game.board
    best, best_points = by_text[0], -1
    for m in by_text:
        points = 0
        if m.cells is not None and m.colors is not None:
            (a, b), (ca, cb) = m.cells, m.colors
            points = sum(board.preview(a, ca, b, cb))
        if points > best_points:
            best, best_points = m, points
    return best


def play(config: tuple[str, int, str, bool], seed: int, policy: str) -> dict[str, Any]:
    variant, players, swap_timing, require_contact = config
    game = new_game(variant, players, swap_timing, require_contact, seed)
    draws = Draws(seed + POLICY_SEED_OFFSET)
    legal, moves, tracks = [], [], []
    while not game.is_over:
        legal.append(game.legal_move_count())
        move = choose(game, policy, draws)
        game.play(move)
        moves.append(str(move))
        tracks.append([v for track in game.tracks for v in track])
    return {
        "variant": variant,
        "players": players,
        "swap_timing": swap_timing,
        "require_contact": require_contact,
        "seed": seed,
        "policy": policy,
        "legal": legal,
        "moves": moves,
        "tracks": tracks,
        "end": game.end,
        "ranks": list(game.ranks()),
        "stats": game.stats,
    }


def main() -> None:
    games = [play(c, s, p) for c in CONFIGS for s in SEEDS for p in POLICIES]
    games += [play(c, s, p) for c, s, p in EXTRA]
    perfts = []
    for variant, players, swap_timing, require_contact, depth in PERFT:
        game = new_game(variant, players, swap_timing, require_contact, PERFT_SEED)
        perfts.append(
            {
                "variant": variant,
                "players": players,
                "swap_timing": swap_timing,
                "require_contact": require_contact,
                "seed": PERFT_SEED,
                "perft": [perft(game, d) for d in range(1, depth + 1)],
            }
        )
    doc = {
        "about": "Golden numbers of genial; written by tests/golden/generate.py, checked by "
        "tests/test_golden.py and tests/golden.rs. See generate.py for the policies.",
        "policy_seed_offset": POLICY_SEED_OFFSET,
        "games": games,
        "perft": perfts,
    }
    # One game per line: a changed rule shows as a small, readable diff.
    lines = ",\n".join(json.dumps(g, separators=(",", ":")) for g in games)
    perft_lines = ",\n".join(json.dumps(p, separators=(",", ":")) for p in perfts)
    head = {k: v for k, v in doc.items() if k not in ("games", "perft")}
    text = json.dumps(head)[:-1] + ',\n"games": [\n' + lines + '\n],\n"perft": [\n' + perft_lines + "\n]}\n"
    assert json.loads(text) == doc
    OUT.write_text(text)
    print(f"wrote {OUT} ({len(games)} games, {len(perfts)} perft rows, {len(text)} bytes)")


if __name__ == "__main__":
    main()

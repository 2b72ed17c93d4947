"""The golden numbers (`tests/golden/golden.json`) replay exactly through the Python API.

The table is written by `tests/golden/generate.py`; this file only reads it. A change of
the rules' behaviour shows here as the first decision whose legal-move count, move, or
tracks differ. The policies are restated here, on purpose, rather than imported.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import ROOT
from genial import Game, Move
from golden.policy import Draws, perft

GOLDEN: dict[str, Any] = json.loads((ROOT / "tests" / "golden" / "golden.json").read_text())


def _game(row: dict[str, Any]) -> Game:
    return Game(
        row["players"],
        row["seed"],
        variant=row["variant"],
        swap_timing=row["swap_timing"],
        require_contact=row["require_contact"],
    )


def _choose(game: Game, policy: str, draws: Draws) -> Move:
    legal = game.legal_moves()
    by_text = sorted(legal, key=str)
    if policy == "random":
        # The draw depends only on the number of legal moves, not on their order.
        return by_text[draws.below(len(by_text))]
    assert policy == "points"
    board = game.board
    scored = [
        (sum(board.preview(m.cells[0], m.colors[0], m.cells[1], m.colors[1])) if m.cells and m.colors else 0, -i)
        for i, m in enumerate(by_text)
    ]
    return by_text[-max(scored)[1]]


def _label(row: dict[str, Any]) -> str:
    options = ("+instead" if row["swap_timing"] != "after_placement" else "") + (
        "+contact" if row["require_contact"] else ""
    )
    return f"{row['variant']}{row['players']}{options}-seed{row['seed']}-{row['policy']}"


def test_the_table_covers_every_variant_and_option() -> None:
    kinds = {(g["variant"], g["players"], g["swap_timing"], g["require_contact"]) for g in GOLDEN["games"]}
    for variant, players in [("standard", 2), ("standard", 3), ("standard", 4), ("solo", 1), ("team", 4), ("duel", 2)]:
        assert (variant, players, "after_placement", False) in kinds
        assert (variant, players, "after_placement", True) in kinds
        if variant != "solo":
            assert (variant, players, "instead_of_placement", False) in kinds
    # Bonus placements, lost bonuses, swaps and immediate wins all occur in the table.
    for counter in ("bonus_placements", "bonuses_lost", "swaps"):
        assert any(g["stats"][counter] > 0 for g in GOLDEN["games"]), counter
    assert any(g["end"] == "immediate_win" for g in GOLDEN["games"] if g["variant"] == "duel")
    assert any(g["stats"]["bonuses_lost"] > 0 for g in GOLDEN["games"] if g["variant"] == "standard")


@pytest.mark.parametrize("row", GOLDEN["games"], ids=_label)
def test_golden_game(row: dict[str, Any]) -> None:
    game = _game(row)
    draws = Draws(row["seed"] + GOLDEN["policy_seed_offset"])
    for i, (count, text, tracks) in enumerate(zip(row["legal"], row["moves"], row["tracks"])):
        assert not game.is_over, f"decision {i}: the game is already over"
        assert game.legal_move_count() == count, f"decision {i}: legal-move count"
        move = _choose(game, row["policy"], draws)
        assert str(move) == text, f"decision {i}: move"
        game.play(move)
        assert [v for t in game.tracks for v in t] == tracks, f"decision {i} ({text}): tracks"
    assert game.is_over, f"the game goes on after {len(row['legal'])} decisions"
    assert game.end == row["end"]
    assert list(game.ranks()) == row["ranks"]
    assert game.stats == row["stats"]


@pytest.mark.parametrize("row", GOLDEN["perft"], ids=lambda r: f"{r['variant']}{r['players']}")
def test_golden_perft(row: dict[str, Any]) -> None:
    """Leaves of the move tree from the start, depth 1 and 2 (deeper in `cargo test`)."""
    game = _game(row)
    for depth, leaves in enumerate(row["perft"][:2], start=1):
        assert perft(game, depth) == leaves, f"perft({depth})"

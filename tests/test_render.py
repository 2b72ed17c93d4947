"""Text rendering: the plain form is stable; the coloured form adds only ANSI codes."""

from __future__ import annotations

import re

import genial
import pytest
from genial import Board, Game
from genial.bots import make
from genial.render import board_text, text

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def midgame() -> Game:
    game = Game(players=2, seed=21)
    bots = [make("greedy", 1), make("greedy", 2)]
    for _ in range(16):
        game.play(bots[game.current_player].choose(game))
    return game


def test_plain_board_form() -> None:
    board = Board(2)
    board.place((1, 0), "B", (1, -1), "R")
    rows = board_text(board).splitlines()
    assert len(rows) == 11
    assert rows[0] == "     r . . . . g"
    assert rows[5] == "p . . . . . B . . . b"
    assert rows[4] == " . . . . . R . . . ."
    assert "\x1b" not in text(midgame())


def test_colour_adds_only_escape_codes() -> None:
    game = midgame()
    plain, coloured = text(game), text(game, color=True)
    assert coloured != plain
    assert ANSI.sub("", coloured) == plain
    # Tile halves sit on background colours, one per colour on the board.
    backgrounds = set(re.findall(r"\x1b\[48;5;(\d+)m", coloured))
    on_board = {c for cell, c in game.board.occupied().items() if cell not in dict(Board.symbols())}
    assert len(backgrounds) == len(on_board) >= 3


def test_rack_can_be_hidden_and_rows_labelled() -> None:
    game = midgame()
    rack = " ".join(str(t) for t in game.rack())
    assert f"rack {rack}" in text(game)
    assert "rack" not in text(game, rack=False)
    labelled = board_text(game.board, coords=True).splitlines()
    assert labelled[1].startswith("r -5") and labelled[1].endswith("q 0..5")
    assert labelled[6].startswith("r  0") and labelled[6].endswith("q -5..5")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_column_labels_head_the_cells_of_their_q(players: int) -> None:
    """Each q label stands on the line of its cells, one row before the board's edge: the
    cell (q, r) is as many columns right of the label as rows below it (above the board),
    or left of it as rows above it (below the board)."""
    board = Game(players=players, seed=1).board
    lines = board_text(board, coords=True).splitlines()
    radius = board.radius
    rows = {r: lines[1 + r + radius] for r in range(-radius, radius + 1)}
    # The column of each cell: rows list the zone's cells left to right, one character each.
    column = {}
    for r, line in rows.items():
        qs = sorted(q for q, rr in board.cells() if rr == r)
        cols = [i for i, ch in enumerate(line) if i >= 5 and ch in ".ROYGBProygbp*"][: len(qs)]
        column.update({(q, r): c for q, c in zip(qs, cols)})
    for line, edge, wanted in (
        (lines[0], -radius - 1, range(0, radius + 1)),
        (lines[-1], radius + 1, range(-radius, 1)),
    ):
        labels = {}
        for m in re.finditer(r"-?\d+", line[4:]):
            labels[int(m.group())] = m.end() - 1 + 4  # the label's last character
        assert sorted(labels) == list(wanted), line
        for q, col in labels.items():
            for r in range(-radius, radius + 1):
                if (q, r) in column:
                    assert column[(q, r)] == col + (r - edge), (q, r, line)


def test_text_board_marks_the_last_placement() -> None:
    game = Game(players=2, seed=1)
    game.play(game.legal_moves()[0])
    move = game.legal_moves()[400]
    game.play(move)
    board = str(game).split("\n\n")[0]
    assert board.count("*") == 2
    a, b = move.cells
    assert game.board[a] is not None and game.board[b] is not None
    # The marked letters are the last tile's colours, each followed by the mark.
    marked = [line[i - 1] for line in board.splitlines() for i, ch in enumerate(line) if ch == "*"]
    assert sorted(marked) == sorted(c.letter for c in move.colors)


def test_play_result_repr_is_python_syntax() -> None:
    game = Game(players=2, seed=1)
    r = game.play(game.legal_moves()[0])
    text = repr(r)
    assert text.startswith("PlayResult(player=0, move=Move.parse(")
    assert "next_player=1" in text and "Some(" not in text and 'phase="place"' in text
    assert f"gains={list(r.gains)}" in text


def test_explain_ranking_reads_the_core_rank_key() -> None:
    from genial import play_game
    from genial.render import explain_ranking

    for variant, players in (("standard", 3), ("duel", 2), ("team", 4)):
        game = play_game(["greedy"] * players, players, 11, variant)
        steps = explain_ranking(game)
        assert len(steps) == len(game.ranking()) - 1
        for step in steps:
            a, b = step["rows"]
            assert a > b or (a == b and step["decided_at"] is None)
            assert step["count"] == (variant == "duel")
        if variant == "duel":
            key = game.rank_key(0)
            assert key[0] == sum(1 for v in game.scores[0] if v > 0)
        else:
            assert game.rank_key(0) == tuple(sorted(game.scores[0]))


@pytest.mark.parametrize(
    ("variant", "players", "says"),
    [
        ("standard", 2, re.compile(r"game over \(board full\): 1st player [01], 2nd player [01]$")),
        ("standard", 3, re.compile(r": 1st player \d, 2nd player \d, 3rd player \d$")),
        ("team", 4, re.compile(r": 1st players [01] and [23], 2nd players [01] and [23]$")),
        ("solo", 1, re.compile(r": result \d+ \(the lowest colour\)$")),
    ],
)
def test_the_end_names_places_in_words(variant: str, players: int, says: re.Pattern[str]) -> None:
    game = genial.play_game([make("random", seed) for seed in range(players)], variant=variant, seed=4)
    last = text(game).splitlines()[-1]
    assert says.search(last), last
    assert ">" not in last and "ranking" not in last


def test_ranking_step_text_in_singular_and_plural() -> None:
    from genial.render import ranking_step_text

    def step(a: list[int], b: list[int], count: bool = False) -> dict[str, object]:
        i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), None)
        return {"above": [0], "below": [1], "rows": [a, b], "decided_at": i, "count": count}

    assert ranking_step_text(step([3, 5, 6], [2, 5, 6]), "A", "B") == "The lowest colour decided: 3 against 2."
    assert (
        ranking_step_text(step([3, 5, 6], [3, 4, 6]), "A", "B")
        == "The lowest colour was equal; the 2nd lowest decided: 5 against 4."
    )
    assert (
        ranking_step_text(step([3, 5, 7], [3, 5, 6]), "A", "B")
        == "The 2 lowest colours were equal; the 3rd lowest decided: 7 against 6."
    )
    assert ranking_step_text(step([3, 5], [3, 5]), "A", "B") == "Equal results: the places are shared."
    assert (
        ranking_step_text(step([4, 1], [2, 1], count=True), "A", "B")
        == "More markers on A's side decided: 4 against 2."
    )
    assert (
        ranking_step_text(step([3, 1, 2], [3, 1, 1], count=True), "A", "B")
        == "The lowest distance was equal; the 2nd lowest decided: 2 against 1."
    )

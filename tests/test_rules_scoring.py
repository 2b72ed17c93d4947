"""RULES.md "Score": the books' five worked scoring examples and the corner cases of counting.

Axial directions: right (+1,0), up-right (+1,-1), up-left (0,-1), left (-1,0),
down-left (-1,+1), down-right (0,+1). Each position is rebuilt on an analysis `Board`.
"""

from __future__ import annotations

import pytest
from genial import Board, Color, Move
from rules_oracle import placement_points

R, O, Y, G, B, P = Color.RED, Color.ORANGE, Color.YELLOW, Color.GREEN, Color.BLUE, Color.PURPLE


def board_with(cells: dict[tuple[int, int], Color], players: int = 2) -> Board:
    board = Board(players)
    for cell, colour in cells.items():
        board.set(cell, colour)
    return board


def test_example_1_red_touches_no_red_blue_touches_the_printed_blue() -> None:
    # Red/blue tile laid toward the printed blue star at (5, 0).
    board = Board(2)
    assert board[(5, 0)] == B
    assert board.place((3, 0), R, (4, 0), B) == (0, 1)


def test_example_2_one_red_and_two_blues_down_left_and_down_right() -> None:
    board = board_with({(0, -1): R, (0, 1): B, (1, 1): B, (-1, 0): Y, (2, 0): G})
    # Red at (0,0): one red up-left. Blue at (1,0): one blue down-left, one down-right.
    assert board.place((0, 0), R, (1, 0), B) == (1, 2)


def test_example_3_double_blue_never_counts_its_own_other_half() -> None:
    # Upper blue (0,0): one blue to the left, one down-left. Lower blue (0,1), down-right of
    # the upper one: a line of two blues to the left. The halves see each other: not counted.
    cells = {(-1, 0): B, (-1, 1): B, (-2, 1): B, (-2, 0): O, (-2, 2): Y, (-3, 1): R}
    board = board_with(cells)
    assert board.preview((0, 0), B, (0, 1), B) == (2, 2)
    assert board.place((0, 1), B, (0, 0), B) == (2, 2)  # same placement, halves listed the other way
    # The same cells, read after the tile lies there, would give each half one more point if
    # the other half counted: the rule's 4 is what the engine scored, not 6.
    assert board[(0, 0)] == B and board[(0, 1)] == B


def test_example_4_lines_of_two_and_a_blue_off_the_line() -> None:
    cells = {
        (0, -1): R,
        (0, -2): R,  # a line of two reds up-left of the red half
        (0, 1): B,
        (-1, 2): B,  # a line of two blues down-left of the blue half
        (1, 1): B,
        (1, 2): B,  # and down-right
        (0, 2): B,  # the middle of the bottom row: on no straight line from (1, 0)
    }
    board = board_with(cells)
    assert board.place((0, 0), R, (1, 0), B) == (2, 4)


def test_example_5_green_double_into_a_surrounded_gap_scores_12() -> None:
    cells = {
        # around the left green (0,0): up-right, up-left, left, down-left one each,
        (1, -1): G,
        (0, -1): G,
        (-1, 0): G,
        (-1, 1): G,
        # down-right three in a straight line,
        (0, 1): G,
        (0, 2): G,
        (0, 3): G,
        # around the right green (1,0): up-left (1,-1) and up-right, right one each,
        (2, -1): G,
        (2, 0): G,
        # down-left (0,1), (-1,2): a line of two, broken by a purple,
        (-1, 2): G,
        (-2, 3): P,
        # down-right a yellow; the lines end on other colours or empty cells.
        (1, 1): Y,
        (2, -2): R,
        (0, -2): B,
        (-2, 0): Y,
        (0, 4): P,
        (3, 0): O,
    }
    board = board_with(cells)
    around = [(1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1), (2, -1), (2, 0), (1, 1)]
    assert all(not board.is_free(c) for c in around), "the gap is surrounded by tiles"
    assert board.place((0, 0), G, (1, 0), G) == (7, 5)


def test_printed_symbols_score_exactly_like_tile_symbols() -> None:
    board = board_with({(0, -4): R})
    # Up-left from (0,-3): the red at (0,-4), then the printed red at (0,-5), then the edge.
    assert board.preview((0, -3), R, (0, -2), Y) == (2, 0)
    # The same line with a tile half instead of the printed symbol scores the same.
    inner = board_with({(1, -3): R, (1, -4): R})
    assert inner.preview((1, -2), R, (1, -1), Y) == (2, 0)


def test_runs_stop_at_the_zone_edge() -> None:
    line = {(2, -1): G, (3, -1): G, (4, -1): G, (5, -1): G}
    two = board_with(line, players=2)
    assert not two.in_zone((6, -1))
    assert two.preview((1, -1), G, (1, 0), Y) == (4, 0)
    four = board_with({**line, (6, -1): G, (7, -1): G}, players=4)
    assert four.preview((1, -1), G, (1, 0), Y) == (6, 0)


def test_empty_cells_and_other_colours_end_a_run() -> None:
    board = board_with({(1, 0): B, (3, 0): B, (-1, 0): R, (-2, 0): B, (0, 1): B, (0, 2): B})
    # Blue at (0,0), its other half up-left. Right: one blue, then the empty (2,0) hides the
    # blue at (3,0). Left: a red first, so the blue behind it does not count. Down-right: two.
    assert board.preview((0, 0), B, (0, -1), O) == (3, 0)


def test_a_double_scores_each_half_separately() -> None:
    board = board_with({(-1, 0): Y, (2, 0): Y})
    assert board.place((0, 0), Y, (1, 0), Y) == (1, 1)


def test_colour_of_the_other_half_and_other_players_tiles_do_not_matter() -> None:
    # Lines count whoever laid the tiles; the engine's Board has no owners at all, and a
    # half only scores its own colour.
    board = board_with({(1, 1): R, (1, 2): R, (-1, 0): B})
    assert board.preview((1, 0), R, (0, 0), B) == (2, 1)
    assert board.preview((1, 0), B, (0, 0), R) == (0, 0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_oracle_agrees_on_every_placement_of_a_busy_board(players: int) -> None:
    """Every free pair, every colour pair, on a crowded board: engine == reference counting."""
    board = Board(players)
    colours = list(Color)
    for i, cell in enumerate(board.free_cells()):
        if (cell[0] * 7 + cell[1] * 3 + i) % 3:
            board.set(cell, colours[(cell[0] - 2 * cell[1]) % 6])
    pairs = board.free_pairs()
    assert len(pairs) > 10
    for a, b in pairs:
        for ca in colours:
            for cb in colours:
                move = Move.place(a, ca, b, cb)
                assert board.preview(a, ca, b, cb) == placement_points(board, move)

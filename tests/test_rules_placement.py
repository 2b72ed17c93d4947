"""RULES.md "Material" and "Place": zones, printed symbols, the first placement, legal cells,
orientations, and how legal placements are counted."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from conftest import DATA
from genial import Board, Color, Game, IllegalMoveError, Move
from rules_oracle import distance, full_set, make_bag, neighbours

SYMBOLS = {
    (0, -5): Color.RED,
    (5, -5): Color.GREEN,
    (5, 0): Color.BLUE,
    (0, 5): Color.ORANGE,
    (-5, 5): Color.YELLOW,
    (-5, 0): Color.PURPLE,
}


@pytest.mark.parametrize(("players", "radius", "cells"), [(1, 5, 91), (2, 5, 91), (3, 6, 127), (4, 7, 169)])
def test_zone_per_player_count(players: int, radius: int, cells: int) -> None:
    board = Board(players)
    zone = board.cells()
    assert len(zone) == len(set(zone)) == cells
    assert board.radius == radius
    assert max(distance(q, r) for q, r in zone) == radius
    assert {c for c in zone} == {(q, r) for q in range(-7, 8) for r in range(-7, 8) if distance(q, r) <= radius}


def test_zones_and_symbols_match_board_json() -> None:
    data = json.loads((DATA / "board.json").read_text())
    for players, count in data["zone_cell_count_by_players"].items():
        assert len(Board(int(players)).cells()) == count
    printed = {(s["q"], s["r"]): Color.parse(s["colour"]) for s in data["printed_symbols"]}
    assert printed == SYMBOLS


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_printed_symbols_are_never_free(players: int) -> None:
    board = Board(players)
    assert dict(Board.symbols()) == SYMBOLS
    assert {c: board[c] for c in SYMBOLS} == SYMBOLS
    assert all(not board.is_free(c) for c in SYMBOLS)
    assert not set(SYMBOLS) & set(board.free_cells())
    assert all(not set(SYMBOLS) & set(pair) for pair in board.free_pairs())
    for cell in SYMBOLS:
        with pytest.raises(ValueError, match="not free"):
            board.set(cell, Color.RED)


@pytest.mark.parametrize(
    ("variant", "players"), [("standard", 2), ("standard", 3), ("standard", 4), ("team", 4), ("duel", 2), ("solo", 1)]
)
def test_setup_deals_six_each_in_seat_order_and_markers_start_at_0(variant: str, players: int) -> None:
    order = [str(t) for t in full_set()]
    random.Random(players).shuffle(order)
    game = Game(players, 0, order, variant=variant)
    size = 1 if variant == "solo" else 6
    for p in range(players):
        assert [str(t) for t in game.rack(p)] == order[size * p : size * (p + 1)]
    assert game.bag_size == 120 - size * players
    assert all(v == 0 for track in game.tracks for v in track)
    assert game.duel_tokens == (None,) * 6, "duel tokens start in the supply"
    assert (game.current_player, game.phase) == (0, "place")


def _first_round(players: int, seed: int = 5) -> Game:
    """Every seat makes its first placement (each touching a fresh printed symbol)."""
    game = Game(players, seed)
    for _ in range(players):
        game.play(game.legal_moves()[0])
        if game.phase == "swap_offer":
            game.play("keep")
    assert game.current_player == 0 and game.phase == "place"
    return game


def _tile_for(game: Game) -> tuple[Color, Color]:
    tile = game.rack()[0]
    return tile.colors


@pytest.mark.parametrize(
    ("players", "cells", "legal"),
    [
        (2, ((6, -1), (6, -2)), False),  # distance 6: only with three or more players
        (3, ((6, -1), (6, -2)), True),
        (3, ((7, -1), (7, -2)), False),  # distance 7: only with four
        (4, ((7, -1), (7, -2)), True),
    ],
)
def test_outer_cells_belong_to_the_zone_only_with_more_players(
    players: int, cells: tuple[tuple[int, int], tuple[int, int]], legal: bool
) -> None:
    game = _first_round(players)
    (a, b), (ca, cb) = cells, _tile_for(game)
    move = Move.place(a, ca, b, cb)
    assert game.is_legal(move) == legal
    if legal:
        game.play(move)
        assert game.board[a] == ca and game.board[b] == cb
    else:
        with pytest.raises(IllegalMoveError, match="outside the playing zone"):
            game.play(move)


def _symbols_near(move: Move) -> set[tuple[int, int]]:
    assert move.cells is not None
    return {n for c in move.cells for n in neighbours(c) if n in SYMBOLS}


def _touches_untouched_symbol(board: Board, pair: tuple[tuple[int, int], tuple[int, int]]) -> bool:
    untouched = {
        s for s in SYMBOLS if all(board.is_free(n) or not board.in_zone(n) or n in SYMBOLS for n in neighbours(s))
    }
    return any(n in untouched for cell in pair for n in neighbours(cell))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_first_placement_must_touch_an_untouched_printed_symbol(players: int) -> None:
    game = Game(players, 11)
    touched: set[tuple[int, int]] = set()
    for seat in range(players):
        assert game.current_player == seat
        board = game.board
        kinds = set(game.rack())
        per_pair = sum(1 if t.is_double else 2 for t in kinds)
        pairs = [p for p in board.free_pairs() if _touches_untouched_symbol(board, p)]
        legal = list(game.legal_moves())
        assert len(legal) == len(pairs) * per_pair
        assert {m.cells for m in legal} == {tuple(p) for p in pairs}
        # A placement away from every symbol, and one touching only a symbol already touched
        # by someone's tile, are refused with the reason.
        ca, cb = _tile_for(game)
        with pytest.raises(IllegalMoveError, match="first tile must touch a printed symbol"):
            game.play(Move.place((0, 0), ca, (1, 0), cb))
        refused = 0
        for sym in touched:
            for n in neighbours(sym):
                for m in neighbours(n):
                    if board.in_zone(n) and board.in_zone(m) and board.is_free(n) and board.is_free(m):
                        if not _touches_untouched_symbol(board, (n, m)):
                            assert not game.is_legal(Move.place(n, ca, m, cb))
                            refused += 1
        assert refused > 0 or seat == 0, "a symbol touched by an earlier tile no longer counts"
        # Its colour need not match: play a placement whose colours differ from the symbol's.
        move = next(m for m in legal if not {SYMBOLS[x] for x in _symbols_near(m)} & set(m.colors or ()))
        game.play(move)
        if game.phase == "swap_offer":
            game.play("keep")
        touched |= _symbols_near(move)
        assert len(touched) == seat + 1, "each first tile touched a different symbol"
    # From the second turn on, a tile may go anywhere, away from every tile and symbol.
    ca, cb = _tile_for(game)
    assert game.is_legal(Move.place((0, 0), ca, (1, 0), cb))
    assert len(game.legal_moves()) == len(game.board.free_pairs()) * sum(
        1 if t.is_double else 2 for t in set(game.rack())
    )


def test_placements_need_two_adjacent_free_cells_of_the_zone() -> None:
    game = _first_round(2)
    ca, cb = _tile_for(game)
    occupied = next(c for c, _ in game.board.occupied().items() if c not in SYMBOLS)
    free_next = next(n for n in neighbours(occupied) if game.board.in_zone(n) and game.board.is_free(n))
    cases = {
        "not adjacent": f"{ca.letter}0,0+{cb.letter}2,0",
        "is not free": str(Move.place(occupied, ca, free_next, cb)),
        "outside the playing zone": f"{ca.letter}6,0+{cb.letter}6,-1",
    }
    sym_free = next(n for n in neighbours((5, 0)) if game.board.in_zone(n) and game.board.is_free(n))
    cases["not free"] = str(Move.place((5, 0), ca, sym_free, cb))
    before = game.clone()
    for why, text in cases.items():
        with pytest.raises(IllegalMoveError, match=why):
            game.play(text)
        assert game == before
    with pytest.raises(IllegalMoveError, match="not adjacent"):
        Move.place((0, 0), ca, (2, 0), cb)


def test_a_tile_must_come_from_the_rack() -> None:
    game = Game(2, 0, make_bag("RR", "RR", "RR", "RR", "RR", "RO"))
    with pytest.raises(IllegalMoveError, match="no BB tile"):
        game.play("B0,-4+B1,-4")


def test_any_orientation_and_identical_tiles_count_once() -> None:
    # Seat 0 holds five red doubles and one red/orange tile.
    game = Game(2, 0, make_bag("RR", "RR", "RR", "RR", "RR", "RO"))
    legal = list(game.legal_moves())
    assert len(legal) == len(set(legal))
    pairs = {m.cells for m in legal}
    # Per pair: one RR placement however many copies, and RO both ways round.
    assert len(legal) == 3 * len(pairs)
    count = Counter(m.cells for m in legal)
    assert set(count.values()) == {3}
    a, b = (0, -4), (1, -4)
    assert {"R0,-4+O1,-4", "O0,-4+R1,-4", "R0,-4+R1,-4"} <= {str(m) for m in legal}
    # Both orientations can be played and put the colours where asked.
    for text, colours in (("R0,-4+O1,-4", (Color.RED, Color.ORANGE)), ("O0,-4+R1,-4", (Color.ORANGE, Color.RED))):
        g = game.clone()
        g.play(text)
        assert (g.board[a], g.board[b]) == colours
    # The two ways of writing a double are one move.
    assert Move.parse("R1,-4+R0,-4") == Move.parse("R0,-4+R1,-4")


def test_placing_is_mandatory_there_is_no_pass() -> None:
    game = Game(2, 3)
    for text in ("keep", "swap", "pass"):
        with pytest.raises(IllegalMoveError):
            game.play(text)
    assert all(m.is_placement for m in game.legal_moves())
    # Placements that score nothing are legal too.
    board = game.board
    assert any(board.preview(*_cells_colours(m)) == (0, 0) for m in game.legal_moves())


def _cells_colours(m: Move) -> tuple[tuple[int, int], Color, tuple[int, int], Color]:
    assert m.cells is not None and m.colors is not None
    return m.cells[0], m.colors[0], m.cells[1], m.colors[1]

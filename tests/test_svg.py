"""SVG pictures: well-formed, deterministic, and showing what the position holds."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from genial import Board, Color, Game
from genial.bots import make
from genial.svg import PALETTE, board_svg, game_svg

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def cells(root: ET.Element, kind: str | None = None) -> list[ET.Element]:
    found = [p for p in root.iter(f"{NS}polygon") if p.get("class", "").split()[:1] == ["cell"]]
    if kind is None:
        return found
    return [p for p in found if kind in p.get("class", "").split()]


def played(game: Game, moves: int, seed: int = 0) -> Game:
    bots = [make("greedy", seed + seat) for seat in range(game.players)]
    for _ in range(moves):
        if game.is_over:
            break
        game.play(bots[game.current_player].choose(game))
    return game


@pytest.mark.parametrize("players, zone", [(1, 91), (2, 91), (3, 127), (4, 169)])
def test_one_polygon_per_zone_cell(players: int, zone: int) -> None:
    board = Board(players)
    root = parse(board_svg(board, outside=False))
    drawn = cells(root)
    assert len(drawn) == zone == len(board.cells())
    assert {p.get("data-cell") for p in drawn} == {f"{q},{r}" for q, r in board.cells()}
    # With the rest of the printed board dimmed, the outside rings are separate polygons.
    root = parse(board_svg(board, outside=True))
    assert len(cells(root)) == 169
    assert len(cells(root, "outside")) == 169 - zone


def test_printed_symbols_are_marked_in_their_colours() -> None:
    root = parse(board_svg(Board(2)))
    printed = {p.get("data-cell"): p for p in cells(root, "printed")}
    assert set(printed) == {f"{q},{r}" for (q, r), _ in Board.symbols()}
    for (q, r), color in Board.symbols():
        polygon = printed[f"{q},{r}"]
        assert str(color) in polygon.get("class", "").split()
        assert polygon.get("stroke") == PALETTE[color]
    assert len(cells(root, "free")) == 91 - 6
    assert not cells(root, "tile")


def test_tiles_are_drawn_in_the_colours_on_the_board() -> None:
    game = played(Game(players=2, seed=11), 14)
    board = game.board
    root = parse(game.to_svg())
    printed = {cell for cell, _ in Board.symbols()}
    tiles = {p.get("data-cell"): p for p in cells(root, "tile")}
    expected = {cell: color for cell, color in board.occupied().items() if cell not in printed}
    assert len(expected) == 2 * sum(m.is_placement for m in game.moves)
    assert set(tiles) == {f"{q},{r}" for q, r in expected}
    for (q, r), color in expected.items():
        assert tiles[f"{q},{r}"].get("fill") == PALETTE[color]
        assert str(color) in tiles[f"{q},{r}"].get("class", "").split()
    assert len(cells(root, "free")) == len(board.free_cells())
    # The last placement is outlined in bold.
    assert any(p.get("class") == "last-move" for p in root.iter(f"{NS}path"))


def tracks(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if g.get("class") == "track"]


def marker_rows(track: ET.Element) -> dict[str, int]:
    return {
        g.get("data-color", ""): int(g.get("data-value", "x"))
        for g in track.iter(f"{NS}g")
        if g.get("class") == "marker-row"
    }


def slots(track: ET.Element) -> list[ET.Element]:
    return [r for r in track.iter(f"{NS}rect") if "slot" in r.get("class", "").split()]


@pytest.mark.parametrize(
    "variant, players, count, lo, hi",
    [("standard", 3, 3, 0, 18), ("team", 4, 2, 0, 36), ("solo", 1, 1, 0, 36), ("duel", 2, 1, -9, 9)],
)
def test_score_tracks_follow_the_variant(variant: str, players: int, count: int, lo: int, hi: int) -> None:
    game = played(Game(players=players, seed=5, variant=variant), 30)
    root = parse(game_svg(game))
    found = tracks(root)
    assert len(found) == count == len(game.tracks)
    for track, values in zip(found, game.tracks):
        assert marker_rows(track) == {str(Color(c)): v for c, v in enumerate(values)}
        assert len(slots(track)) == 6 * (hi - lo + 1)
        assert len([r for r in slots(track) if "marker" in r.get("class", "")]) == 6
    assert any(v != 0 for values in game.tracks for v in values)


def test_duel_tokens_sit_with_their_holders() -> None:
    for seed in range(60):
        game = Game(players=2, seed=seed, variant="duel")
        bots = [make("greedy", seed), make("greedy", seed + 1)]
        while not game.is_over and all(t is None for t in game.duel_tokens):
            game.play(bots[game.current_player].choose(game))
        if any(t is not None for t in game.duel_tokens):
            break
    else:
        pytest.fail("no duel game with a token taken")
    root = parse(game.to_svg())
    drawn = {
        (c.get("class", "").split()[1], int(c.get("data-seat", "-1")))
        for c in root.iter(f"{NS}circle")
        if c.get("class", "").startswith("token")
    }
    held = {(str(Color(c)), seat) for c, seat in enumerate(game.duel_tokens) if seat is not None}
    assert drawn == held and held


def rack_groups(root: ET.Element) -> dict[int, int]:
    return {
        int(g.get("data-seat", "-1")): sum(1 for p in g.iter(f"{NS}polygon") if "rack-half" in p.get("class", ""))
        for g in root.iter(f"{NS}g")
        if g.get("class") == "rack"
    }


def test_racks_are_hidden_unless_asked() -> None:
    game = played(Game(players=4, seed=2), 9)
    assert rack_groups(parse(game.to_svg())) == {}
    assert rack_groups(parse(game.to_svg(racks=2))) == {2: 2 * len(game.rack(2))}
    assert rack_groups(parse(game.to_svg(racks=[3, 1]))) == {1: 2 * len(game.rack(1)), 3: 2 * len(game.rack(3))}
    assert rack_groups(parse(game.to_svg(racks=True))) == {p: 2 * len(game.rack(p)) for p in range(4)}
    with pytest.raises(ValueError, match="no seat 4"):
        game.to_svg(racks=4)
    with pytest.raises(TypeError):
        game.to_svg(racks=["0"])  # type: ignore[list-item]


def test_output_is_deterministic_and_self_contained() -> None:
    game = played(Game(players=3, seed=8), 20)
    svg = game.to_svg(racks=True, coords=True)
    assert svg == game.clone().to_svg(racks=True, coords=True)
    assert svg == Game.from_json(game.to_json()).to_svg(racks=True, coords=True)
    assert "href" not in svg and "url(" not in svg and "<image" not in svg
    root = parse(svg)
    labels = {t.text for t in root.iter(f"{NS}text")}
    assert {f"{q},{r}" for q, r in game.board.free_cells()} <= labels


def test_notebook_hooks_and_board_methods() -> None:
    game = played(Game(players=2, seed=4), 6)
    assert game._repr_svg_() == game.to_svg() == game_svg(game)
    board = game.board
    assert board._repr_svg_() == board.to_svg() == board_svg(board)
    assert len(cells(parse(board.to_svg(outside=False)))) == 91
    with pytest.raises(TypeError):
        board.to_svg(colour="red")
    with pytest.raises(TypeError, match="draws a Board"):
        board_svg(game)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="draws a Game"):
        game_svg(board)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="size"):
        board_svg(board, size=0)


def test_finished_game_reports_its_result() -> None:
    game = played(Game(players=1, seed=3, variant="solo"), 1000)
    assert game.is_over
    root = parse(game.to_svg(racks=0))
    text = " ".join(t.text or "" for t in root.iter(f"{NS}text"))
    assert f"result {game.lowest_score()}" in text
    assert "(empty)" in text  # the solo player's rack once the game is over


def test_module_example_runs() -> None:
    import doctest

    import genial.svg

    result = doctest.testmod(genial.svg)
    assert result.attempted >= 3 and result.failed == 0

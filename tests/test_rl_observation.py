"""Observations: every block against a Python oracle, hidden information, batch forms."""

from __future__ import annotations

import random
from collections import Counter

import genial
import numpy as np
import pytest
from genial import Board, Move
from genial.actions import cell_index
from genial.observation import LAYOUT, OBS_SIZE, low_high, observe, observe_batch, split
from test_rl_actions import CONFIGS, random_positions

VARIANTS = ("standard", "solo", "team", "duel")
PHASES = ("place", "bonus", "swap_offer", "over")


def expected_observation(game: genial.Game, observer: int) -> np.ndarray:
    """The observation built from the public API (a test oracle, independent of the Rust code)."""
    f = np.float32
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    view = split(out)
    n = game.players
    board = game.board
    symbols = {cell for cell, _ in Board.symbols()}
    occupied = board.occupied()
    tiles_at = {c for c in occupied if c not in symbols}
    for cell in board.cells():
        i = cell_index(cell)
        view["board"][7, i] = 1
        if cell in occupied:
            view["board"][int(occupied[cell]), i] = 1
        else:
            view["board"][6, i] = 1
    for cell in symbols:
        i = cell_index(cell)
        view["board"][8, i] = 1
        q, r = cell
        neighbours = {(q + dq, r + dr) for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))}
        if not neighbours & tiles_at:
            view["board"][9, i] = 1
    for slot, tile in enumerate(game.rack(observer)):
        view["rack"][slot, tile.kind] = 1
    for k in range(n):
        seat = (observer + k) % n
        view["tracks"][k] = np.array(game.scores[seat], dtype=f) / f(game.track_max)
        view["rack_sizes"][k] = f(len(game.rack(seat))) / f(6)
        view["has_placed"][k] = game._state.has_placed(seat)
    if game.variant == "duel":
        for c, holder in enumerate(game.duel_tokens):
            if holder is not None:
                view["tokens"][0 if holder == observer else 1, c] = 1
    mine = game.scores[observer]
    if game.variant == "duel":
        view["swap_colors"][:] = [v == 9 for v in mine]
    elif game.variant != "solo":
        view["swap_colors"][:] = [v == min(mine) for v in mine]
    unseen = Counter(t.kind for t in game.unseen_tiles(observer))
    for kind in range(21):
        copies = 5 if kind in (0, 6, 11, 15, 18, 20) else 6  # the doubles
        view["unseen"][kind] = f(unseen[kind]) / f(copies)
    view["bag"][0] = f(game.bag_size) / f(120)
    view["phase"][PHASES.index(game.phase)] = 1
    view["pending"][0] = f(min(game.pending_bonuses, 4)) / f(4)
    view["to_move"][(game.current_player - observer) % n] = 1
    view["seat"][observer] = 1
    view["variant"][VARIANTS.index(game.variant)] = 1
    view["players"][n - 1] = 1
    # Each rule option: its value's place among the option's values, 0 (default) to 1.
    for k, option in enumerate(genial.Rules.options()):
        values = option["values"]
        view["options"][k] = f(values.index(game.rules.option(option["name"]))) / f(max(1, len(values) - 1))
    return out


@pytest.mark.parametrize("variant,players,timing,contact", [*CONFIGS[::2], CONFIGS[-1]])
def test_every_block_matches_the_oracle(variant: str, players: int, timing: str, contact: bool) -> None:
    low, high = low_high()
    for game in random_positions(variant, players, timing, contact, seed=11 + players, every=7):
        for observer in range(game.players):
            obs = observe(game, observer)
            assert obs.dtype == np.float32 and obs.shape == (OBS_SIZE,)
            np.testing.assert_array_equal(obs, expected_observation(game, observer))
            assert np.all(obs >= low) and np.all(obs <= high)


def test_a_known_first_placement() -> None:
    game = genial.Game(players=2, seed=3)
    tile = game.rack()[0]
    first, second = tile.colors
    # Touching the printed red symbol at (0,-5), as a first tile must touch a symbol.
    game.play(Move.place((0, -4), first, (1, -4), second))
    assert game.current_player == 1
    board = split(observe(game, 1))["board"]
    a, b = cell_index((0, -4)), cell_index((1, -4))
    assert board[int(first), a] == 1 and board[int(second), b] == 1
    assert board[:6, a].sum() == 1 and board[6, a] == 0 and board[7, a] == 1
    red = cell_index((0, -5))
    assert board[0, red] == 1 and board[8, red] == 1 and board[9, red] == 0
    assert board[9].sum() == 5 and board[8].sum() == 6
    assert board[7].sum() == 91 and board[6].sum() == 85 - 2
    assert board[7, cell_index((6, 0))] == 0  # outside the two-player zone
    parts = split(observe(game, 1))
    assert list(parts["to_move"]) == [1, 0, 0, 0] and list(parts["seat"]) == [0, 1, 0, 0]
    assert list(parts["has_placed"]) == [0, 1, 0, 0]
    scores0 = np.array(game.scores[0], dtype=np.float32) / np.float32(18)
    np.testing.assert_array_equal(parts["tracks"][1], scores0)
    assert parts["bag"][0] == np.float32(107) / np.float32(120)
    assert parts["phase"][0] == 1 and parts["variant"][0] == 1 and parts["players"][1] == 1


def test_duel_tracks_are_seen_from_each_side() -> None:
    for game in random_positions("duel", 2, "after_placement", False, seed=4, every=10**6):
        if game.is_over:
            t0, t1 = split(observe(game, 0))["tracks"], split(observe(game, 1))["tracks"]
            np.testing.assert_array_equal(t0[0], -t1[0])
            np.testing.assert_array_equal(t0[0], t1[1])
            assert (t0[0] < 0).any() or (t0[0] > 0).any()


def test_hidden_racks_do_not_leak() -> None:
    """Games that differ only in what the observer cannot see look the same to it."""
    for players, variant in ((2, "standard"), (3, "standard"), (4, "team"), (2, "duel")):
        game = genial.Game(players, seed=21, variant=variant)
        chooser = random.Random(1)
        for _ in range(10):
            game.play(game.legal_moves()[chooser.randrange(game.legal_move_count())])
        observer = game.current_player
        other = game.determinize(observer, seed=99)
        hidden_seat = (observer + 1) % players
        assert other.rack(hidden_seat) != game.rack(hidden_seat)
        np.testing.assert_array_equal(observe(other, observer), observe(game, observer))
        # The seat whose rack changed does see the difference.
        assert not np.array_equal(observe(other, hidden_seat), observe(game, hidden_seat))


def test_batch_and_out_forms() -> None:
    games = [genial.Game(players=p, seed=s) for p in (2, 3, 4) for s in range(30)]
    players = [s % g.players for s, g in enumerate(games)]
    out = np.full((len(games), OBS_SIZE), np.nan, dtype=np.float32)
    assert observe_batch(games, players, out) is out
    for row, game, p in zip(out, games, players):
        np.testing.assert_array_equal(row, observe(game, p))
    buf = np.full(OBS_SIZE, np.nan, dtype=np.float32)
    assert observe(games[0], 1, out=buf) is buf
    np.testing.assert_array_equal(buf, observe(games[0], 1))
    with pytest.raises(ValueError, match="player must be"):
        observe(games[0], 2)
    with pytest.raises(ValueError, match=r"players\[1\]"):
        observe_batch(games[:2], [0, 5], out[:2])
    with pytest.raises(ValueError, match="shape"):
        observe_batch(games[:3], [0, 0, 0], out[:2])
    with pytest.raises(TypeError, match="float32"):
        observe(games[0], 0, out=np.zeros(OBS_SIZE, np.float64))  # type: ignore[arg-type]


def test_layout_is_documented_and_tiles_the_vector() -> None:
    offset = 0
    for name, (start, shape) in LAYOUT.items():
        assert start == offset, name
        offset += int(np.prod(shape))
        assert name in (genial.observation.__doc__ or "")
    assert offset == OBS_SIZE  # its value is pinned with the version, in the core
    batch = np.zeros((5, 3, OBS_SIZE), np.float32)
    assert split(batch)["board"].shape == (5, 3, 10, 169)
    assert split(batch)["rack"].base is not None  # views, not copies


# ----- the board as a grid (genial.observation.to_grid) ----------------------------------------


def _played(rules: genial.Rules, seed: int, moves: int) -> genial.Game:
    game = genial.Game(seed=seed, rules=rules)
    bot = genial.bots.make("random", seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.play(bot.choose(game))
    return game


@pytest.mark.parametrize("rules", genial.Rules.all(), ids=str)
def test_to_grid_and_from_grid_round_trip(rules: genial.Rules) -> None:
    from genial.observation import FEATURES, GRID_PLANES, GRID_SHAPE, from_grid, to_grid

    games = [_played(rules, seed, moves) for seed, moves in ((1, 0), (2, 9), (3, 400))]
    assert games[-1].is_over
    batch = np.stack([observe(g, s % rules.players) for s, g in enumerate(games)])
    grid, features = to_grid(batch)
    assert grid.shape == (3, *GRID_SHAPE) and features.shape == (3, FEATURES) and grid.dtype == np.float32
    np.testing.assert_array_equal(from_grid(grid, features), batch)
    for i, (game, obs) in enumerate(zip(games, batch)):
        one, rest = to_grid(obs)
        np.testing.assert_array_equal(one, grid[i])
        np.testing.assert_array_equal(from_grid(one, rest), obs)
        # The geometry: cell (q, r) at row r + 7, column q + 7; the zone plane holds the
        # variant's zone, the outside plane the squares that are no cell.
        planes = dict(zip(GRID_PLANES, one))
        for (q, r), color in game.board.occupied().items():
            assert planes[color.name.lower()][r + 7, q + 7] == 1
        assert planes["zone"].sum() == len(game.board.cells())
        assert planes["outside"].sum() == 15 * 15 - 169
        assert not (planes["outside"] * one[:-1]).any(), "nothing lies outside the board"


def test_grid_neighbours_are_in_a_three_by_three_window() -> None:
    from genial.observation import to_grid

    game = _played(genial.Rules("standard", 2), 5, 12)
    grid, _ = to_grid(observe(game, 0))
    for move in game.moves:
        if move.is_placement:
            (q1, r1), (q2, r2) = move.cells
            assert max(abs(q1 - q2), abs(r1 - r2)) == 1  # adjacent on the grid too
            assert grid[:6, r1 + 7, q1 + 7].any() and grid[:6, r2 + 7, q2 + 7].any()


def test_grid_refuses_what_is_no_observation() -> None:
    from genial.observation import FEATURES, GRID_SHAPE, OBS_SIZE, from_grid, to_grid

    with pytest.raises(ValueError, match=str(OBS_SIZE)):
        to_grid(np.zeros(10, np.float32))
    with pytest.raises(ValueError, match="grid"):
        from_grid(np.zeros((11, 13, 13), np.float32), np.zeros(FEATURES, np.float32))
    with pytest.raises(ValueError, match="features"):
        from_grid(np.zeros(GRID_SHAPE, np.float32), np.zeros(FEATURES + 1, np.float32))

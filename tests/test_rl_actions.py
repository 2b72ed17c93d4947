"""The flat action space: mask = legal moves, converters, errors."""

from __future__ import annotations

import random

import genial
import numpy as np
import pytest
from genial import IllegalMoveError, Move
from genial.actions import (
    ACTION_COUNT,
    KEEP_ACTION,
    SWAP_ACTION,
    action_to_move,
    cell_at,
    cell_index,
    decode_action,
    encode_placement,
    legal_action_mask,
    legal_action_mask_batch,
    legal_actions,
    move_to_action,
    move_to_actions,
)

# Every variant, player count and edition option.
CONFIGS = [
    (variant, players, timing, contact)
    for variant, counts in (("standard", (2, 3, 4)), ("solo", (1,)), ("team", (4,)), ("duel", (2,)))
    for players in counts
    for timing in ("after_placement", "instead_of_placement")
    for contact in (False, True)
    if not (variant == "solo" and timing != "after_placement")
]


def random_positions(variant: str, players: int, timing: str, contact: bool, seed: int, every: int):
    """Every `every`-th position of a random game, and the final one."""
    game = genial.Game(players, seed=seed, variant=variant, swap_timing=timing, require_contact=contact)
    chooser = random.Random(seed)
    ply = 0
    while not game.is_over:
        if ply % every == 0 or game.phase != "place":
            yield game
        moves = game.legal_moves()
        game.play(moves[chooser.randrange(len(moves))])
        ply += 1
    yield game


def check_position(game: genial.Game) -> None:
    mask = legal_action_mask(game)
    actions = np.flatnonzero(mask)
    assert np.array_equal(actions, legal_actions(game))
    legal = set(game.legal_moves())
    from_actions = {action_to_move(game, int(a)) for a in actions}
    assert from_actions == legal
    for move in legal:
        acts = move_to_actions(game, move)
        assert acts and all(mask[a] for a in acts)
        assert all(action_to_move(game, a) == move for a in acts)
        assert move_to_action(game, move) == acts[0]
    assert int(mask.sum()) == sum(len(move_to_actions(game, m)) for m in legal)


@pytest.mark.parametrize("variant,players,timing,contact", CONFIGS)
def test_mask_is_exactly_the_legal_moves(variant: str, players: int, timing: str, contact: bool) -> None:
    seen_phases = set()
    for game in random_positions(variant, players, timing, contact, seed=players * 7 + contact, every=3):
        check_position(game)
        seen_phases.add(game.phase)
    assert "over" in seen_phases and "place" in seen_phases


def test_swap_decisions_map_to_their_two_actions() -> None:
    for seed in range(100):
        for game in random_positions("standard", 2, "after_placement", False, seed=seed, every=1000):
            if game.phase == "swap_offer":
                assert list(legal_actions(game)) == [SWAP_ACTION, KEEP_ACTION]
                assert action_to_move(game, SWAP_ACTION) == Move.swap()
                assert move_to_actions(game, "keep") == [KEEP_ACTION]
                return
    pytest.fail("no swap offer in 100 games")


def test_placement_encoding_on_a_known_rack() -> None:
    game = genial.Game(players=2, seed=3)
    tile = game.rack()[1]
    first, second = tile.colors
    a = encode_placement(1, (0, 0), 5)  # first colour on (0,0), second on (0,1)
    assert decode_action(a) == (1, (0, 0), 5)
    move = action_to_move(game, a)
    assert move == Move.place((0, 0), first, (0, 1), second)
    assert a in move_to_actions(game, move)
    assert decode_action(SWAP_ACTION) == "swap" and decode_action(KEEP_ACTION) == "keep"


def test_doubles_and_twin_tiles_have_several_actions() -> None:
    checked = 0
    for seed in range(40):
        game = genial.Game(players=2, seed=seed)
        rack = game.rack()
        for slot, tile in enumerate(rack):
            if not tile.is_double and rack.count(tile) == 1:
                continue
            color = tile.colors[0]
            move = Move.place((0, 0), color, (1, 0), tile.colors[1])
            acts = move_to_actions(game, move)
            copies = rack.count(tile)
            assert len(acts) == copies * (2 if tile.is_double else 1)
            if tile.is_double:
                # Laid from (0,0) toward (1,0), or from (1,0) back toward (0,0).
                assert encode_placement(slot, (0, 0), 0) in acts and encode_placement(slot, (1, 0), 3) in acts
            checked += 1
    assert checked > 5


def test_dense_cells_follow_the_board_rows() -> None:
    cells = genial.Board(players=4).cells()
    assert [cell_at(i) for i in range(169)] == cells
    assert all(cell_index(c) == i for i, c in enumerate(cells))
    with pytest.raises(ValueError, match="not a board cell"):
        cell_index((8, 0))


def test_bad_actions_raise_clear_errors_and_change_nothing() -> None:
    game = genial.Game(players=2, seed=1)
    before = game.clone()
    for bad in (-1, ACTION_COUNT, 10**30):
        with pytest.raises(ValueError, match="out of range") as info:
            action_to_move(game, bad)
        assert not isinstance(info.value, IllegalMoveError)
    with pytest.raises(TypeError):
        action_to_move(game, True)
    with pytest.raises(TypeError):
        action_to_move(game, 1.5)  # type: ignore[arg-type]
    # (7,0) toward direction 0 leaves the board.
    with pytest.raises(IllegalMoveError, match="off the board"):
        action_to_move(game, encode_placement(0, (7, 0), 0))
    solo = genial.Game(variant="solo", seed=1)
    with pytest.raises(IllegalMoveError, match="holds 1 tile"):
        action_to_move(solo, encode_placement(3, (0, 0), 0))
    absent = next(t for t in (genial.Tile(c, c) for c in range(6)) if t not in game.rack())
    with pytest.raises(IllegalMoveError, match="holds no such tile"):
        move_to_action(game, Move.place((0, 0), absent.colors[0], (1, 0), absent.colors[1]))
    # A converted move that is illegal now is refused by play, and nothing changes.
    with pytest.raises(IllegalMoveError):
        game.play(action_to_move(game, KEEP_ACTION))
    assert game == before and game.moves == before.moves


def test_mask_outputs_and_batches() -> None:
    games = [genial.Game(players=p, seed=s) for p in (2, 3, 4) for s in range(3)]
    expected = np.stack([legal_action_mask(g) for g in games])
    for dtype in (np.bool_, np.int8, np.uint8):
        out = (
            np.full((len(games), ACTION_COUNT), 7, dtype=dtype)
            if dtype != np.bool_
            else np.ones((len(games), ACTION_COUNT), dtype)
        )
        assert legal_action_mask_batch(games, out) is out
        assert np.array_equal(out.astype(bool), expected)
        one = np.full(ACTION_COUNT, 1, dtype=dtype)
        assert legal_action_mask(games[0], out=one) is one
        assert np.array_equal(one.astype(bool), expected[0])
    with pytest.raises(TypeError, match="bool, int8 or uint8"):
        legal_action_mask(games[0], out=np.zeros(ACTION_COUNT, np.float32))  # type: ignore[type-var]
    with pytest.raises(ValueError, match="shape"):
        legal_action_mask(games[0], out=np.zeros(ACTION_COUNT - 1, np.bool_))
    with pytest.raises(ValueError, match="shape"):
        legal_action_mask_batch(games, np.zeros((2, ACTION_COUNT), np.bool_))
    with pytest.raises(ValueError, match="C-contiguous"):
        legal_action_mask_batch(games[:2], np.zeros((ACTION_COUNT, 2), np.bool_).T)


def test_play_action_and_observe_with_mask() -> None:
    """The two one-call helpers the environments use."""
    from genial import _core
    from genial.observation import observe

    game = genial.Game(players=2, seed=6)
    obs, mask = _core.observe_with_mask(game._state, 0)
    assert mask.dtype == np.int8 and np.array_equal(mask.astype(bool), legal_action_mask(game))
    np.testing.assert_array_equal(obs, observe(game, 0))
    _, other = _core.observe_with_mask(game._state, 1)
    assert not other.any()
    a = int(legal_actions(game)[-1])
    move = action_to_move(game, a)
    before = game.clone()
    with pytest.raises(IllegalMoveError):
        _core.play_action(game._state, KEEP_ACTION)
    with pytest.raises(ValueError, match="out of range"):
        _core.play_action(game._state, -3)
    assert game == before and game.moves == ()
    assert _core.play_action(game._state, np.int64(a)) == 1  # the seat to move next
    assert game.moves == (move,) and game.current_player == 1
    # To the end: each play returns the seat to move (also after a bonus turn or a swap
    # offer, when it is the same seat again), and None exactly when the game is over.
    rng = np.random.default_rng(6)
    while not game.is_over:
        mover = _core.play_action(game._state, int(rng.choice(legal_actions(game))))
        if game.is_over:
            assert mover is None
        else:  # a seat, not a bool that happens to equal seat 0 or 1
            assert type(mover) is int and mover == game.current_player

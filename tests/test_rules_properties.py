"""Properties of every game, checked on random games (hypothesis chooses seeds and positions):
games end, every legal move plays, illegal moves change nothing, markers stay on their
tracks, tiles are conserved, copies and records have the same future as the original."""

from __future__ import annotations

import pickle
import random

from genial import Game, IllegalMoveError, Move
from hypothesis import given, settings
from hypothesis import strategies as st
from rules_oracle import TRACK_MAX, Referee, expected_ranks, play_checked

CONFIGS = [
    ("standard", 2, "after_placement", False),
    ("standard", 3, "instead_of_placement", False),
    ("standard", 4, "after_placement", True),
    ("solo", 1, "after_placement", True),
    ("team", 4, "instead_of_placement", False),
    ("duel", 2, "after_placement", False),
    ("duel", 2, "instead_of_placement", True),
]
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True)

configs = st.sampled_from(CONFIGS)
seeds = st.integers(min_value=0, max_value=2**64 - 1)


def new_game(config: tuple[str, int, str, bool], seed: int) -> Game:
    variant, players, timing, contact = config
    return Game(players, seed, variant=variant, swap_timing=timing, require_contact=contact)


def random_move(game: Game, rng: random.Random) -> Move:
    legal = game.legal_moves()
    return legal[rng.randrange(len(legal))]


def advance(game: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if game.is_over:
            return
        game.play(random_move(game, rng))


def assert_on_tracks(game: Game) -> None:
    top = TRACK_MAX[game.variant]
    low = -top if game.variant == "duel" else 0
    for track in game.tracks:
        assert all(low <= v <= top for v in track), game.tracks
    assert game._state.tile_total() == 120


@SETTINGS
@given(config=configs, seed=seeds)
def test_random_games_end_and_every_move_follows_the_rules(config: tuple[str, int, str, bool], seed: int) -> None:
    game = new_game(config, seed)
    rng = random.Random(seed)
    referee = Referee()
    for _ in range(400):
        if game.is_over:
            break
        play_checked(game, [random_move(game, rng)], referee)
        assert_on_tracks(game)
    assert game.is_over, "a game always ends"
    assert game.end in ("board_full", "immediate_win")
    assert game.legal_move_count() == 0 and list(game.legal_moves()) == []
    assert game.ranks() == expected_ranks(game)


@SETTINGS
@given(config=configs, seed=seeds, steps=st.integers(min_value=0, max_value=60))
def test_every_legal_move_can_be_played(config: tuple[str, int, str, bool], seed: int, steps: int) -> None:
    game = new_game(config, seed)
    advance(game, random.Random(seed), steps)
    legal = list(game.legal_moves())
    assert len(legal) == game.legal_move_count() == len(set(legal))
    for m in legal:
        assert game.is_legal(m) and game.is_legal(str(m))
        copy = game.clone()
        copy.play(m)
        assert copy._state.tile_total() == 120


def _random_text(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.1:
        return rng.choice(["swap", "keep"])
    q, r = rng.randint(-7, 7), rng.randint(-7, 7)
    dq, dr = rng.choice([(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1), (2, 0), (0, 0)])
    a, b = rng.choice("ROYGBP"), rng.choice("ROYGBP")
    return f"{a}{q},{r}+{b}{q + dq},{r + dr}"


@SETTINGS
@given(
    config=configs,
    seed=seeds,
    steps=st.integers(min_value=0, max_value=60),
    tries=st.integers(min_value=0, max_value=2**32),
)
def test_illegal_moves_are_refused_and_change_nothing(
    config: tuple[str, int, str, bool], seed: int, steps: int, tries: int
) -> None:
    game = new_game(config, seed)
    advance(game, random.Random(seed), steps)
    legal = set(game.legal_moves())
    before, record = game.clone(), game.to_json()
    rng = random.Random(tries)
    refused = 0
    for _ in range(60):
        text = _random_text(rng)
        try:
            move = Move.parse(text)
        except IllegalMoveError:
            continue  # off the board, or both halves on one cell: not even a move
        if move in legal:
            assert game.is_legal(move)
            continue
        assert not game.is_legal(move)
        try:
            game.play(move)
        except IllegalMoveError:
            refused += 1
        else:
            raise AssertionError(f"{move} was played but is not among the legal moves")
        assert game == before and game.to_json() == record
    assert refused > 0


@SETTINGS
@given(config=configs, seed=seeds, steps=st.integers(min_value=0, max_value=80))
def test_clone_json_and_pickle_have_the_same_future(config: tuple[str, int, str, bool], seed: int, steps: int) -> None:
    game = new_game(config, seed)
    advance(game, random.Random(seed), steps)
    copies = [game.clone(), Game.from_json(game.to_json()), pickle.loads(pickle.dumps(game))]
    assert all(c == game for c in copies)
    rng = random.Random(seed + 1)
    while not game.is_over:
        move = random_move(game, rng)
        result = game.play(move)
        for c in copies:
            r = c.play(move)
            assert (r.points, list(r.gains), r.bonuses_earned, r.drawn, r.phase) == (
                result.points,
                list(result.gains),
                result.bonuses_earned,
                result.drawn,
                result.phase,
            )
            assert c == game
    assert all(c.ranking() == game.ranking() and c.scores == game.scores for c in copies)

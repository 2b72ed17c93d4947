"""The position notation (`genial.position`): every position round-trips through its text
and `Game`, the command line reads it, and garbage is refused with the index of the first
character that does not fit, never another exception."""

from __future__ import annotations

import os
import random

import genial
import pytest
from genial.cli import main
from genial.position import PositionError, parse_position, read_position, write_position
from hypothesis import given, settings
from hypothesis import strategies as st

# Random positions per rule set (GENIAL_POSITIONS=10000 for the long run).
PER_RULES = int(os.environ.get("GENIAL_POSITIONS", "150"))
RULES = [(v.name, n) for v in genial.variants() for n in v.player_counts]


def _random_position(rules: genial.Rules, seed: int) -> genial.Game | None:
    """A game played at random from ``seed`` to a random depth, then on to the start of a
    placement (the positions the notation holds); ``None`` if it ended first."""
    rng = random.Random(seed)
    game = genial.Game(rules=rules, seed=seed)
    for _ in range(rng.randrange(0, 2 * rules.players * 12)):
        if game.is_over:
            return None
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    while not game.is_over and (game.phase != "place" or game.pending_bonuses):
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    return None if game.is_over else game


@pytest.mark.parametrize(("variant", "players"), RULES)
def test_random_positions_round_trip(variant: str, players: int) -> None:
    rules = genial.Rules(variant, players)
    checked = 0
    for seed in range(PER_RULES):
        game = _random_position(rules, seed)
        if game is None:
            continue
        text = write_position(game)
        again = read_position(text)
        assert write_position(again) == text
        assert again.board.occupied() == game.board.occupied()
        assert again.tracks == game.tracks and again.current_player == game.current_player
        assert again.rack(again.current_player) == game.rack(game.current_player)
        assert again.rules == game.rules
        # The same legal moves for the seat to move: the position is the same decision.
        assert [str(m) for m in again.legal_moves()] == [str(m) for m in game.legal_moves()]
        # Played on, the set-up game still writes its position.
        again.play(again.legal_moves()[0])
        if not again.is_over and again.phase == "place" and not again.pending_bonuses:
            assert read_position(write_position(again)).board.occupied() == again.board.occupied()
        checked += 1
    assert checked >= PER_RULES // 3


def test_the_largest_seed_round_trips() -> None:
    text = f"standard/2 - 0.0.0.0.0.0/0.0.0.0.0.0 0 RB {2**64 - 1}"
    assert write_position(read_position(text)) == text
    with pytest.raises(PositionError, match="2\\*\\*64"):
        read_position(f"standard/2 - 0.0.0.0.0.0/0.0.0.0.0.0 0 RB {2**64}")


def test_every_option_and_the_seed_round_trip() -> None:
    text = "standard/3,swap_timing=instead_of_placement,require_contact=true R0,-1+R0,0;B1,-1+G1,0 1.2.0.0.0.0/0.0.0.0.0.0/0.0.0.0.0.0 2 RR 7"
    game = read_position(text)
    assert game.rules.swap_timing == "instead_of_placement" and game.rules.require_contact
    assert write_position(game) == text


@pytest.mark.parametrize(
    ("text", "index"),
    [
        ("", 0),
        ("Standard/2 - 0.0.0.0.0.0/0.0.0.0.0.0 0 RB", 0),
        ("standard2 - 0.0.0.0.0.0/0.0.0.0.0.0 0 RB", 8),
        ("standard/2,fast - 0.0.0.0.0.0/0.0.0.0.0.0 0 RB", 15),
        ("standard/2,Fast=1 - 0.0.0.0.0.0/0.0.0.0.0.0 0 RB", 11),
        ("standard/2  - 0.0.0.0.0.0/0.0.0.0.0.0 0 RB", 11),
        ("standard/2 R0,-1R0,0 0.0.0.0.0.0/0.0.0.0.0.0 0 RB", 16),
        ("standard/2 - 0.0.0.0.0/0.0.0.0.0.0 0 RB", 22),
        ("standard/2 - 0.0.0.0.0.0/0.0.0.0.0.0 x RB", 37),
        ("standard/2 - 0.0.0.0.0.0/0.0.0.0.0.0 0 RX", 40),
        ("standard/2 - 0.0.0.0.0.0/0.0.0.0.0.0 0 RB 1e3", 43),
        ("standard/2 R0,-1+R0,0;R0,-1+R0,0 0.0.0.0.0.0/0.0.0.0.0.0 0 RB", 11),  # a cell twice: the board
        ("standard/2 - 0.0.0.0.0.0/0.0.0.0.0.0/0.0.0.0.0.0 0 RB", 13),  # three tracks: the tracks
        ("team/3 - 0.0.0.0.0.0 0 RB", 0),  # rules that cannot be
    ],
)
def test_a_bad_position_names_its_first_bad_character(text: str, index: int) -> None:
    with pytest.raises(PositionError) as caught:
        read_position(text)
    assert caught.value.index == index, str(caught.value)
    assert f"character {index} " in str(caught.value)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from([*"standardsolo/0123456789 -.,;+ROYGBPX_", "\n", "é"]), max_size=80))
def test_garbage_is_refused_with_an_index_and_nothing_else(text: str) -> None:
    try:
        game = read_position(text)
    except PositionError as e:
        assert 0 <= e.index <= len(text)
    else:
        assert write_position(game).split(" ")[:5] == text.split(" ")[:5]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_any_text_parses_or_is_refused_with_an_index(text: str) -> None:
    try:
        parse_position(text)
    except PositionError as e:
        assert 0 <= e.index <= len(text)


def test_analyse_reads_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    text = "standard/2 - 0.0.0.0.0.0/0.0.0.0.0.0 0 RB,GG,YP,OO,BP,RY"
    assert main(["analyse", "--position", text, "--level", "hard", "--iterations", "20"]) == 0
    assert "player 0 to move" in capsys.readouterr().out
    assert main(["analyse", "--position", text.replace("GG", "GX")]) == 2
    err = capsys.readouterr().err
    assert "character 43 ('X')" in err and len(err.strip().splitlines()) == 1


def test_a_position_mid_turn_is_not_written() -> None:
    game = genial.Game(2, seed=2)
    for _ in range(200):
        if game.phase != "place" or game.is_over:
            break
        game.play(game.legal_moves()[0])
    if game.phase in ("bonus", "swap_offer"):
        with pytest.raises(ValueError, match="start of its turn"):
            write_position(game)


def _mutations(text: str, rng: random.Random, count: int) -> list[str]:
    """Texts one edit away from ``text``: a character deleted, doubled, replaced or put in."""
    alphabet = "standardsolo_=/0123456789 -.,;+ROYGBPX"
    out = []
    for _ in range(count):
        i = rng.randrange(len(text))
        kind = rng.randrange(4)
        if kind == 0:
            out.append(text[:i] + text[i + 1 :])
        elif kind == 1:
            out.append(text[:i] + text[i] + text[i:])
        elif kind == 2:
            out.append(text[:i] + rng.choice(alphabet) + text[i + 1 :])
        else:
            out.append(text[:i] + rng.choice(alphabet) + text[i:])
    return out


def test_the_whole_grammar_expression_reads_exactly_what_the_scanner_reads() -> None:
    """`parse_position` reads a text its one expression matches from the match and hands
    any other to the character scanner: both must accept the same texts with the same
    fields, and refuse the same texts at the same index."""
    from genial import position

    rng = random.Random(30)
    valid = [
        "standard/2 - 0.0.0.0.0.0/0.0.0.0.0.0 0 RB,GG,YP,OO,BP,RY",
        "standard/3,swap_timing=instead_of_placement,require_contact=true R0,-1+R0,0;B1,-1+G1,0 "
        "1.2.0.0.0.0/0.0.0.0.0.0/0.0.0.0.0.0 2 RR 7",
        f"duel/2 - 0.0.0.0.0.0 1 - {2**64 - 1}",
        f"solo/1 - 0.0.0.0.0.0 0 RR {2**64}",  # a seed too large: refused by both
        "standard/2,a=1,a=2 - 0.0.0.0.0.0/0.0.0.0.0.0 0 -",  # an option twice: refused by both
        "standard/2 - 0.0.0.0.0.0/0.0.0.0.0.0 0 RB\n",
    ]
    for rules in genial.Rules.all():
        for seed in range(3):
            game = _random_position(rules, rng.getrandbits(32))
            if game is not None:
                valid.append(write_position(game))
                valid.append(write_position(read_position(write_position(game) + f" {seed}")))
    # Every single deletion, doubling and replacement of the hand-written texts, and random
    # edits of the played ones.
    edits = [
        t[:i] + c + t[i + j :]
        for t in valid[:6]
        for i in range(len(t))
        for c, j in [("", 1), (t[i], 0), *((c, 1) for c in "a_=/09 -.,;+RX\n")]
    ]
    texts = valid + edits + [m for t in valid[6:] for m in _mutations(t, rng, 60)]
    matched = accepted = 0
    for text in texts:
        try:
            scanned: object = position._scan_position(text)
        except PositionError as e:
            scanned = ("refused", e.index, e.why)
        try:
            fast: object = parse_position(text)
        except PositionError as e:
            fast = ("refused", e.index, e.why)
        assert fast == scanned, text
        if position._WHOLE.fullmatch(text):
            matched += 1
        if not isinstance(scanned, tuple):
            accepted += 1
            assert position._WHOLE.fullmatch(text), f"the expression misses a valid text: {text!r}"
    assert accepted > 100 and matched >= accepted and len(texts) - accepted > 1000

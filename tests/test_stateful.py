"""A stateful property test of the public API: hypothesis plays legal moves, throws illegal
ones (wrong types, cells off the zone, non-adjacent cells, tiles not in the rack, moves after
the end, swap and keep when not offered), copies, records and pickles the game, and checks
the invariants after every step. A refused move must leave the game exactly as it was.
Last, records mangled at random must replay or raise `RecordError`, nothing else.
"""

from __future__ import annotations

import json
import pickle
from typing import Any

from genial import Color, Game, IllegalMoveError, Move, RecordError, Tile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

RULE_SETS = [
    ("standard", 2, "after_placement", False),
    ("standard", 3, "after_placement", False),
    ("standard", 4, "instead_of_placement", False),
    ("solo", 1, "after_placement", True),
    ("team", 4, "after_placement", False),
    ("duel", 2, "instead_of_placement", True),
    ("duel", 2, "after_placement", False),
    ("standard", 2, "instead_of_placement", True),
]
TRACK_RANGE = {"standard": (0, 18), "solo": (0, 36), "team": (0, 36), "duel": (-9, 9)}
JUNK = [None, 1.5, True, b"R0,-4+B1,-4", ("R0,-4", "B1,-4"), ["swap"], 3, object()]


def _snapshot(game: Game) -> tuple[Any, ...]:
    return (game._state.clone(), game.moves, game.scores, tuple(game.rack(p) for p in range(game.players)))


class GameMachine(RuleBasedStateMachine):
    game: Game
    played: list[Move]

    @initialize(rules=st.sampled_from(RULE_SETS), seed=st.integers(0, 2**64 - 1))
    def start(self, rules: tuple[str, int, str, bool], seed: int) -> None:
        variant, players, swap_timing, require_contact = rules
        self.game = Game(players, seed, variant=variant, swap_timing=swap_timing, require_contact=require_contact)
        self.played = []

    # ----- helpers -----------------------------------------------------------------------------

    def refused(self, move: object, error: type[Exception] = IllegalMoveError) -> None:
        before = _snapshot(self.game)
        try:
            self.game.play(move)  # type: ignore[arg-type]
        except error:
            pass
        else:
            raise AssertionError(f"{move!r} was accepted")
        assert _snapshot(self.game) == before, f"refused {move!r} changed the game"

    def attempt(self, move: Move) -> None:
        """Plays `move` if the rules allow it, else checks that it is refused cleanly."""
        if self.game.is_legal(move):
            assert move in self.game.legal_moves()
            self.game.play(move)
            self.played.append(move)
        else:
            assert move not in self.game.legal_moves()
            self.refused(move)

    # ----- moves -------------------------------------------------------------------------------

    @precondition(lambda self: not self.game.is_over)
    @rule(index=st.integers(0, 10_000))
    def play_legal(self, index: int) -> None:
        legal = self.game.legal_moves()
        move = legal[index % len(legal)]
        mover = self.game.current_player
        result = self.game.play(move)
        self.played.append(move)
        assert result.player == mover and result.move == move
        assert result.game_over == self.game.is_over
        assert result.phase == self.game.phase

    @precondition(lambda self: not self.game.is_over)
    @rule(count=st.integers(1, 40), index=st.integers(0, 10_000))
    def play_many(self, count: int, index: int) -> None:
        for i in range(count):
            if self.game.is_over:
                break
            legal = self.game.legal_moves()
            move = legal[(index + 7919 * i) % len(legal)]
            self.game.play(move)
            self.played.append(move)

    @rule(
        q=st.integers(-8, 8),
        r=st.integers(-8, 8),
        direction=st.integers(0, 7),
        colors=st.tuples(st.sampled_from(list(Color)), st.sampled_from(list(Color))),
    )
    def play_any_placement(self, q: int, r: int, direction: int, colors: tuple[Color, Color]) -> None:
        """Any cells: in or out of the zone, adjacent (directions 0-5) or not (6, 7)."""
        steps = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1), (2, 0), (0, 0)]
        a, b = (q, r), (q + steps[direction][0], r + steps[direction][1])
        try:
            move = Move.place(a, colors[0], b, colors[1])
        except ValueError as e:
            # Off the board (distance > 7) or not adjacent: refused before any game sees it.
            assert "off the board" in str(e) or "not adjacent" in str(e), str(e)
            text = f"R{a[0]},{a[1]}+B{b[0]},{b[1]}"
            self.refused(text)
            return
        self.attempt(move)

    @precondition(lambda self: not self.game.is_over and self.game.phase in ("place", "bonus"))
    @rule(pick=st.integers(0, 1000))
    def play_tile_not_in_rack(self, pick: int) -> None:
        rack = set(self.game.rack())
        missing = [Tile(a, b) for a in Color for b in Color if a <= b and Tile(a, b) not in rack]
        tile = missing[pick % len(missing)]
        legal = [m for m in self.game.legal_moves() if m.cells is not None]
        cells = legal[pick % len(legal)].cells
        assert cells is not None
        self.refused(Move.place(cells[0], tile.colors[0], cells[1], tile.colors[1]))

    @rule(which=st.sampled_from(["swap", "keep", Move.swap(), Move.keep()]))
    def swap_or_keep(self, which: Move | str) -> None:
        self.attempt(Move.parse(which) if isinstance(which, str) else which)

    @rule(junk=st.sampled_from(JUNK))
    def play_junk(self, junk: object) -> None:
        self.refused(junk, TypeError)

    @rule(text=st.text(max_size=30))
    def play_text(self, text: str) -> None:
        try:
            move = Move.parse(text)
        except IllegalMoveError:
            self.refused(text)
            return
        self.attempt(move)

    # ----- copies ------------------------------------------------------------------------------

    @rule()
    def clone_is_independent(self) -> None:
        copy = self.game.clone()
        assert copy == self.game and copy.moves == self.game.moves
        if not copy.is_over:
            before = _snapshot(self.game)
            copy.play(copy.legal_moves()[0])
            assert _snapshot(self.game) == before
        # Go on with a copy: copies must be complete games.
        self.game = self.game.clone()

    @rule()
    def json_round_trip(self) -> None:
        again = Game.from_json(self.game.to_json())
        assert again == self.game and again.moves == self.game.moves
        self.game = again

    @rule()
    def pickle_round_trip(self) -> None:
        again = pickle.loads(pickle.dumps(self.game))
        assert again == self.game and again.moves == self.game.moves
        self.game = again

    @rule(seed=st.integers(0, 2**64 - 1), observer=st.integers(0, 3))
    def determinize(self, seed: int, observer: int) -> None:
        observer %= self.game.players
        d = self.game.determinize(observer, seed)
        assert d.board == self.game.board and d.scores == self.game.scores
        assert d.rack(observer) == self.game.rack(observer)
        assert sorted(d.unseen_tiles(observer)) == sorted(self.game.unseen_tiles(observer))
        assert [len(d.rack(p)) for p in range(d.players)] == [len(self.game.rack(p)) for p in range(d.players)]
        assert d.legal_move_count() == len(d.legal_moves())

    # ----- invariants -------------------------------------------------------------------------

    @invariant()
    def consistent(self) -> None:
        g = self.game
        assert g._state.tile_total() == 120
        assert g.moves == tuple(self.played)
        lo, hi = TRACK_RANGE[g.variant]
        assert all(lo <= v <= hi for track in g.tracks for v in track), g.tracks
        legal = g.legal_moves()
        assert len(legal) == g.legal_move_count()
        assert g.is_over == (len(legal) == 0) == (g.phase == "over") == (g.end is not None)
        assert 0 <= g.current_player < g.players
        assert all(len(g.rack(p)) <= (1 if g.variant == "solo" else 6) for p in range(g.players))
        if g.phase == "swap_offer":
            assert list(legal) == [Move.swap(), Move.keep()]
        for m in legal[:5]:
            assert g.is_legal(m) and g.is_legal(str(m))
        if g.is_over:
            outcome = g.outcome()
            assert outcome is not None and outcome.end == g.end
            assert sorted(p for group in outcome.ranking for p in group) == list(range(g.players))


GameMachine.TestCase.settings = settings(
    max_examples=60,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestGameMachine = GameMachine.TestCase


# ----- records from anywhere ---------------------------------------------------------------------

_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8,
)


def _base_record() -> dict[str, Any]:
    game = Game(2, seed=12)
    for _ in range(5):
        game.play(game.legal_moves()[0])
    record: dict[str, Any] = json.loads(game.to_json())
    return record


_BASE = _base_record()


@settings(max_examples=150, deadline=None)
@given(
    field=st.sampled_from([*sorted(_BASE), "extra"]),
    value=_json_values,
    move_at=st.integers(0, 20),
    move_text=st.text(max_size=20),
    bag_at=st.integers(0, 119),
    bag_item=_json_values,
    cut=st.integers(0, 4000),
)
def test_a_mangled_record_is_read_or_refused_with_record_error(
    field: str, value: Any, move_at: int, move_text: str, bag_at: int, bag_item: Any, cut: int
) -> None:
    """Any field replaced by any JSON value, a move by any text, a bag item by any value, or
    the text cut anywhere: the record replays or raises `RecordError`, nothing else."""
    variants = []
    for change in ("field", "move", "bag", "cut"):
        data = json.loads(json.dumps(_BASE))
        if change == "field":
            data[field] = value
        elif change == "move":
            data["moves"].insert(min(move_at, len(data["moves"])), move_text)
        elif change == "bag":
            data["bag"][bag_at] = bag_item
        text = json.dumps(data)
        variants.append(text[:cut] if change == "cut" else text)
    for text in variants:
        try:
            game = Game.from_json(text)
        except RecordError:
            continue
        assert game._state.tile_total() == 120
        assert Game.from_json(game.to_json()) == game

"""A tiny reference implementation of RULES.md, used only as a test oracle.

It re-derives, from the public API alone, what one move must do: the points of each half,
how the markers move, the bonuses earned, and what comes next (bonus placement, swap offer,
next player, end). `Referee.check` compares that with what the engine did. It never decides
anything the engine is then built on; it only judges.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import genial
from genial import Game, Move, PlayResult, Tile

DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
SCENARIOS = Path(__file__).resolve().parent / "data" / "rule_scenarios.json"
TRACK_MAX = {"standard": 18, "solo": 36, "team": 36, "duel": 9}


def distance(q: int, r: int) -> int:
    return max(abs(q), abs(r), abs(q + r))


def neighbours(cell: tuple[int, int]) -> list[tuple[int, int]]:
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def half_points(
    occupied: dict[tuple[int, int], int], cell: tuple[int, int], colour: int, other: tuple[int, int]
) -> int:
    """Points of one half: unbroken lines of its colour in the five directions not toward `other`."""
    total = 0
    for dq, dr in DIRECTIONS:
        q, r = cell[0] + dq, cell[1] + dr
        if (q, r) == other:
            continue
        while occupied.get((q, r)) == colour:
            total += 1
            q, r = q + dq, r + dr
    return total


def placement_points(board: genial.Board, move: Move) -> tuple[int, int]:
    assert move.cells is not None and move.colors is not None
    occupied = {cell: int(c) for cell, c in board.occupied().items()}
    (a, b), (ca, cb) = move.cells, move.colors
    return half_points(occupied, a, int(ca), b), half_points(occupied, b, int(cb), a)


def full_set() -> list[Tile]:
    """The 120 tiles in kind order (RR×5, RO×6, ...)."""
    return [Tile(a, b) for a in range(6) for b in range(a, 6) for _ in range(5 if a == b else 6)]


def make_bag(*prefix: str) -> list[str]:
    """A full draw order: the tiles given first, then the rest of the set in kind order."""
    pool = Counter(str(t) for t in full_set())
    out = []
    for text in prefix:
        tile = str(Tile.parse(text))
        assert pool[tile] > 0, f"no {tile} tile left for the bag"
        pool[tile] -= 1
        out.append(tile)
    for t in full_set():
        if pool[str(t)] > 0:
            pool[str(t)] -= 1
            out.append(str(t))
    assert len(out) == 120
    return out


def load_scenarios() -> dict[str, dict[str, Any]]:
    """Positions reached by crafted games (bag + moves), replayed by the rule tests."""
    return {s["name"]: s for s in json.loads(SCENARIOS.read_text())}


def scenario_game(s: dict[str, Any], *, swap_timing: str | None = None) -> Game:
    return Game(
        s["players"],
        s["seed"],
        s["bag"],
        variant=s["variant"],
        swap_timing=swap_timing or s["swap_timing"],
        require_contact=s["require_contact"],
    )


def track_of(game: Game, player: int) -> int:
    return {"standard": player, "team": player % 2}.get(game.variant, 0)


@dataclass
class Applied:
    tracks: list[list[int]]
    tokens: list[int | None]
    bonuses: int
    won: bool


def _climb_long(value: int, points: int) -> tuple[int, int]:
    """One half on a 0..36 track: stops on 18 (the rest of this half is lost), then counts
    on toward 36. Returns the new value and the bonuses earned (reaching 18, reaching 36)."""
    stop = 18 if value < 18 else 36
    new = min(value + points, stop)
    return new, int(value < stop == new)


def apply_halves(game: Game, player: int, halves: Sequence[tuple[int, int]]) -> Applied:
    """How the markers move for a placement's two halves `(colour, points)` (the books: each
    symbol counts on its own; the player picks the order of a double's halves, and the
    engine takes the order that leaves the marker highest)."""
    tracks = [list(t) for t in game.tracks]
    tokens = list(game.duel_tokens)
    t = track_of(game, player)
    bonuses = 0
    won = False
    if game.variant == "standard":
        for c, g in halves:
            old = tracks[t][c]
            tracks[t][c] = min(old + g, 18)
            bonuses += old < 18 <= old + g
        won = all(v == 18 for v in tracks[t])
    elif game.variant in ("solo", "team"):
        (ca, pa), (cb, pb) = halves
        if ca == cb:
            outcomes = []
            for first, second in ((pa, pb), (pb, pa)):
                v, b1 = _climb_long(tracks[t][ca], first)
                v, b2 = _climb_long(v, second)
                outcomes.append((v, b1 + b2))
            tracks[t][ca], bonuses = max(outcomes)
        else:
            for c, g in halves:
                tracks[t][c], b = _climb_long(tracks[t][c], g)
                bonuses += b
        if game.variant == "solo":
            bonuses = 0
        else:
            won = all(v == 36 for v in tracks[t])
    else:
        sign = 1 if player == 0 else -1
        for c, g in halves:
            if g == 0:
                continue
            mine = tracks[0][c] * sign
            new = min(mine + g, 9)
            tracks[0][c] = new * sign
            if mine < 9 == new and tokens[c] != player:
                tokens[c] = player
                bonuses += 1
        won = all(v * sign > 0 for v in tracks[0])
    return Applied(tracks, tokens, bonuses, won)


def swap_open(game: Game, player: int, rack: Sequence[Tile] | None = None) -> bool:
    """Whether `player` may swap holding `rack` (default: its rack in `game`) with the markers
    of `game` (RULES.md, and the engine's documented decisions: non-empty rack, enough tiles
    in the bag)."""
    rack = game.rack(player) if rack is None else rack
    view = game.scores[player]
    if game.variant == "solo":
        return False
    if game.variant == "duel":
        nine = {c for c in range(6) if view[c] == 9}
        k = sum(1 for t in rack if nine & {int(c) for c in t.colors})
        return k > 0 and game.bag_size >= k
    lowest = {c for c in range(6) if view[c] == min(view)}
    shows = {int(c) for t in rack for c in t.colors}
    return bool(rack) and not (lowest & shows) and game.bag_size >= 6


def remove_first(rack: Sequence[Tile], tile: Tile) -> list[Tile]:
    out = list(rack)
    out.remove(tile)
    return out


def rank_key(game: Game, player: int) -> tuple[Any, ...]:
    """The books' ranking key of a seat (higher is better)."""
    view = game.scores[player]
    if game.variant == "duel":
        mine = sorted(v for v in view if v > 0)
        return (len(mine), tuple(mine))
    return tuple(sorted(view))


def expected_ranks(game: Game) -> tuple[int, ...]:
    keys = [rank_key(game, p) for p in range(game.players)]
    return tuple(sum(1 for o in keys if o > k) for k in keys)


class Referee:
    """Checks each move of a game against the oracle. Call `check(before, move, result, after)`."""

    def __init__(self) -> None:
        self.events: Counter[str] = Counter()

    def check(self, before: Game, move: Move, result: PlayResult, after: Game) -> None:
        p = before.current_player
        assert result.player == p
        assert after._state.tile_total() == 120
        if move.kind == "keep":
            assert before.phase == "swap_offer"
            self._turn_ended(before, after, result, p, list(before.rack(p)))
            self.events["keep"] += 1
            return
        if move.kind == "swap":
            self._swap(before, after, result, p)
            self.events["swap"] += 1
            return
        assert before.phase in ("place", "bonus")
        self.events["bonus_placement" if before.phase == "bonus" else "placement"] += 1
        points = placement_points(before.board, move)
        assert tuple(result.points) == points, (move, result.points, points)
        assert move.colors is not None
        gains = [0] * 6
        gains[int(move.colors[0])] += points[0]
        gains[int(move.colors[1])] += points[1]
        assert list(result.gains) == gains
        halves = [(int(move.colors[0]), points[0]), (int(move.colors[1]), points[1])]
        applied = apply_halves(before, p, halves)
        self._count_caps(before, p, gains)
        self._count_doubles(before, p, halves)
        assert [list(t) for t in after.tracks] == applied.tracks, (move, after.tracks, applied.tracks)
        assert list(after.duel_tokens) == applied.tokens
        assert result.bonuses_earned == applied.bonuses
        assert result.was_bonus == (before.phase == "bonus")
        rack = remove_first(before.rack(p), move.tile)  # type: ignore[arg-type]
        owed = before.pending_bonuses + applied.bonuses
        if applied.bonuses:
            self.events["bonus_earned"] += 1
        if applied.bonuses == 2:
            self.events["two_bonuses"] += 1
        if applied.won:
            assert after.is_over and after.end == "immediate_win"
            assert after.ranks()[p] == 0 and after.ranks().count(0) == (2 if before.variant == "team" else 1)
            assert result.bonuses_lost == owed
            self.events["immediate_win"] += 1
            return
        if after.board.free_pair_count == 0:
            assert after.is_over and after.end == "board_full"
            assert result.bonuses_lost == owed and after.pending_bonuses == 0
            self.events["bonus_lost_at_end" if owed else "board_full"] += 1
            return
        assert after.board.free_pair_count > 0
        if owed:
            # Bonus placements come first: same player, no draw, no swap decision yet.
            assert after.phase == "bonus" and after.current_player == p
            assert after.pending_bonuses == owed - 1
            assert list(after.rack(p)) == rack and result.drawn == 0
            assert "swap" not in after.legal_moves() and "keep" not in after.legal_moves()
            if before.phase == "bonus" and applied.bonuses:
                self.events["chain"] += 1
            return
        offered = before.swap_timing == "after_placement" and swap_open(after, p, rack)
        if offered:
            assert after.phase == "swap_offer" and after.current_player == p
            assert list(after.legal_moves()) == [Move.swap(), Move.keep()]
            assert list(after.rack(p)) == rack and result.drawn == 0
            self.events["swap_offer_after_bonus" if before.phase == "bonus" else "swap_offer"] += 1
            return
        assert after.phase != "swap_offer"
        self._turn_ended(before, after, result, p, rack)

    def _count_caps(self, before: Game, p: int, gains: Sequence[int]) -> None:
        old = before.scores[p]
        stops = {"standard": (18,), "solo": (18, 36), "team": (18, 36), "duel": (9,)}[before.variant]
        for c, g in enumerate(gains):
            if g and any(old[c] < stop < old[c] + g for stop in stops):
                self.events["excess_lost"] += 1
            if g and old[c] == TRACK_MAX[before.variant]:
                self.events["scored_at_cap"] += 1
            if g and before.variant in ("solo", "team") and 18 <= old[c] < 36:
                self.events["past_18"] += 1
            if g and before.variant == "duel" and old[c] < 0:
                self.events["pulled_back"] += 1

    def _count_doubles(self, before: Game, p: int, halves: Sequence[tuple[int, int]]) -> None:
        """Counts the doubles whose halves, counted one by one, end elsewhere than their sum
        would (the case where the half-by-half rule matters)."""
        (ca, pa), (cb, pb) = halves
        if ca != cb or before.variant not in ("solo", "team"):
            return
        old = before.tracks[track_of(before, p)][ca]
        summed = min(old + pa + pb, 18) if old < 18 else min(old + pa + pb, 36)
        if apply_halves(before, p, halves).tracks[track_of(before, p)][ca] != summed:
            self.events["double_half_by_half"] += 1

    def _swap(self, before: Game, after: Game, result: PlayResult, p: int) -> None:
        if before.swap_timing == "after_placement":
            assert before.phase == "swap_offer"
        else:
            assert before.phase == "place"
        assert swap_open(before, p) and result.swapped
        rack = list(before.rack(p))
        if before.variant == "duel":
            nine = {c for c in range(6) if before.scores[p][c] == 9}
            kept = [t for t in rack if not nine & {int(c) for c in t.colors}]
        else:
            kept = []
        exchanged = len(rack) - len(kept)
        # Draw as many new tiles (base and team: six), then return the old ones.
        fresh = exchanged if before.variant == "duel" else 6
        refill = 6 - len(kept) - fresh
        assert result.drawn == fresh + refill
        new = list(after.rack(p))
        assert new[: len(kept)] == kept and len(new) == 6
        assert after.bag_size == before.bag_size - fresh - refill + exchanged
        if before.stats["swaps"] == 0 and before.seed is not None:
            order = before._state.initial_bag
            assert order is not None
            start = 120 - before.bag_size
            assert new[len(kept) : len(kept) + fresh] == order[start : start + fresh]
        # The returned tiles are back among the tiles the mover cannot see.
        unseen_before = Counter(before.unseen_tiles(p))
        unseen_after = Counter(after.unseen_tiles(p))
        assert unseen_after + Counter(new) == unseen_before + Counter(rack)
        if not after.is_over:
            assert after.current_player == (p + 1) % before.players and after.phase == "place"

    def _turn_ended(self, before: Game, after: Game, result: PlayResult, p: int, rack: list[Tile]) -> None:
        size = 1 if before.variant == "solo" else 6
        drawn = min(size - len(rack), before.bag_size)
        assert result.drawn == drawn
        assert list(after.rack(p))[: len(rack)] == rack
        assert len(after.rack(p)) == len(rack) + drawn
        if before.stats["swaps"] == 0 and before.seed is not None:
            # Until a swap mixes the bag, draws follow the initial draw order.
            order = before._state.initial_bag
            assert order is not None
            start = 120 - before.bag_size
            assert list(after.rack(p))[len(rack) :] == order[start : start + drawn]
        if not after.is_over:
            assert after.current_player == (p + 1) % before.players
            assert after.phase == "place"
        else:
            # A turn can only end the game if nobody can place; base tiles never run out.
            assert after.end in ("no_placement", "board_full")


def play_checked(game: Game, moves: Sequence[str | Move], referee: Referee | None = None) -> list[PlayResult]:
    """Plays `moves`, each judged by the referee; returns the results."""
    ref = referee or Referee()
    results = []
    for m in moves:
        mv = m if isinstance(m, Move) else Move.parse(m)
        before = game.clone()
        result = game.play(mv)
        ref.check(before, mv, result, game)
        results.append(result)
    return results

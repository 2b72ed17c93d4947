"""What the golden table's writer (`generate.py`) and its Python check (`test_golden.py`)
share: the random policy, with its own SplitMix64 stream (the same as
`genial::rng::splitmix64`, used by `tests/golden.rs`), so the table depends on no bot; and
perft, the leaves of the move tree."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from genial import Game

_MASK = (1 << 64) - 1


class Draws:
    """Index draws for the ``random`` policy, seeded with the game seed + offset."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def below(self, n: int) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return (z ^ (z >> 31)) % n


def perft(game: Game, depth: int) -> int:
    """The leaves of the move tree ``depth`` decisions deep from ``game``."""
    if depth == 0:
        return 1
    if depth == 1:
        return game.legal_move_count()
    total = 0
    for m in game.legal_moves():
        child = game.clone()
        child.play(m)
        total += perft(child, depth - 1)
    return total

"""The golden table's random policy: its own SplitMix64 stream (the same as
`genial::rng::splitmix64`, used by `tests/golden.rs`), so the table depends on no bot."""

from __future__ import annotations

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

"""The six colours of Ingenious."""

from __future__ import annotations

import enum

__all__ = ["Color"]


class Color(enum.IntEnum):
    """A colour; the value is the index used everywhere (score arrays, observation planes)."""

    RED = 0
    ORANGE = 1
    YELLOW = 2
    GREEN = 3
    BLUE = 4
    PURPLE = 5

    @property
    def letter(self) -> str:
        """One-letter code used in move text: R O Y G B P."""
        return "ROYGBP"[self.value]

    @property
    def symbol(self) -> str:
        """The symbol printed on the physical game for this colour."""
        return _SYMBOLS[self.value]

    @classmethod
    def parse(cls, text: str) -> Color:
        """A colour from its name (``"red"``) or letter (``"R"``), any case."""
        t = text.strip().upper()
        for c in cls:
            if t in (c.name, c.letter):
                return c
        raise ValueError(f"{text!r} is not a colour: use red, orange, yellow, green, blue, purple or R O Y G B P")

    def __str__(self) -> str:
        return self.name.lower()


_SYMBOLS = ("asterisk", "hexagon", "sun", "circle", "star", "ring")

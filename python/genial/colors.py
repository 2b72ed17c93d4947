"""The six colours of Ingenious."""

from __future__ import annotations

import enum

from .translation import mark, tr

__all__ = ["Color", "COLOR_WORDS"]


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

    @property
    def title(self) -> str:
        """The colour's name in the language in use (`genial.translation`): ``"rouge"`` in
        French. `str` stays the English name, which records and payloads carry."""
        return tr(_NAMES[self.value])

    @classmethod
    def parse(cls, text: str) -> Color:
        """A colour from its letter (``"R"``) or its name in any of the boxes' languages
        (``"red"``, ``"rouge"``, ``"rot"``, ``"czerwony"``: `COLOR_WORDS`), any case."""
        t = text.strip()
        if len(t) == 1:
            for c in cls:
                if t.upper() == c.letter:
                    return c
        t = t.lower()
        for c in cls:
            if t in COLOR_WORDS[c]:
                return c
        raise ValueError(f"{text!r} is not a colour: use red, orange, yellow, green, blue, purple or R O Y G B P")

    def __str__(self) -> str:
        return self.name.lower()


_SYMBOLS = ("asterisk", "hexagon", "sun", "circle", "star", "ring")
_NAMES = (mark("red"), mark("orange"), mark("yellow"), mark("green"), mark("blue"), mark("purple"))

#: Each colour's names in English, French, German and Polish, as `Move.parse` and
#: `Tile.parse` read them (the core's ``COLOR_WORDS``, ``rust/rules/tiles.rs``;
#: ``tests/test_translation.py`` checks that both read the same words).
COLOR_WORDS: dict[Color, tuple[str, ...]] = {
    Color.RED: ("red", "rouge", "rot", "czerwony", "czerwona", "czerwone"),
    Color.ORANGE: (
        "orange",
        "pomarańczowy",
        "pomarańczowa",
        "pomarańczowe",
        "pomaranczowy",
        "pomaranczowa",
        "pomaranczowe",
    ),
    Color.YELLOW: ("yellow", "jaune", "gelb", "żółty", "żółta", "żółte", "zolty", "zolta", "zolte"),
    Color.GREEN: ("green", "vert", "grün", "gruen", "grun", "zielony", "zielona", "zielone"),
    Color.BLUE: ("blue", "bleu", "blau", "niebieski", "niebieska", "niebieskie"),
    Color.PURPLE: ("purple", "violet", "lila", "violett", "fioletowy", "fioletowa", "fioletowe"),
}

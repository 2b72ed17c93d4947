"""Why a move or a tile was refused, in the player's language.

The core is language-free: it refuses a move with one English sentence of a fixed set
(``rust/rules/moves.rs``, ``game.rs``, ``board.rs``). A player reads that sentence here,
recognised by its pattern and given in the language in use (`genial.translation`), the
values it names (cells, tiles, numbers, the text typed) kept as they are. A sentence not in
the table is shown as the core wrote it: a new refusal is never hidden, only untranslated
until its line is added below (``tests/test_translation.py`` checks that every refusal the
core gives for a sample of bad input is in the table).
"""

from __future__ import annotations

import re

from .translation import mark, tr

__all__ = ["refusal_text"]

# (the core's sentence as a pattern, its English text with the pattern's groups as
# placeholders). Reasons inside "cannot read move ...: WHY" are translated on their own.
_REASONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), message)
    for pattern, message in (
        (r'half (?P<half>".*") has no cell', mark("half {half} has no cell")),
        (
            r"(?P<name>\".*\") is not a colour \(R O Y G B P or a colour name\)",
            mark("{name} is not a colour (R O Y G B P or a colour name)"),
        ),
        (r"unbalanced parenthesis", mark("unbalanced parenthesis")),
        (r"(?P<text>\".*\") is not a cell q,r", mark("{text} is not a cell q,r")),
        (r"(?P<text>\".*\") is not an integer", mark("{text} is not an integer")),
        (r"cell (?P<cell>\(-?\d+, ?-?\d+\)) is off the board", mark("cell {cell} is off the board")),
        (r"too long", mark("too long")),
        (
            r"expected two halves like R0,-4\+B1,-4, or swap, or keep",
            mark("expected two halves like R0,-4+B1,-4, or swap, or keep"),
        ),
        (r"both halves are on the same cell", mark("both halves are on the same cell")),
        (
            r"cells? (?P<a>\(-?\d+, ?-?\d+\)) and (?P<b>\(-?\d+, ?-?\d+\)) are not adjacent",
            mark("cells {a} and {b} are not adjacent"),
        ),
        (r"the game is over", mark("the game is over")),
        (
            r'a swap was offered: play "swap" or "keep" before placing again',
            mark('a swap was offered: play "swap" or "keep" before placing again'),
        ),
        (
            r'"keep" answers a swap offer, and none is pending',
            mark('"keep" answers a swap offer, and none is pending'),
        ),
        (r"the solo game has no swap", mark("swap not allowed: the solo game has no swap")),
        (
            r"the swap is offered after your placement, not instead of it",
            mark("swap not allowed: the swap is offered after your placement, not instead of it"),
        ),
        (r"a bonus placement must be played", mark("swap not allowed: a bonus placement must be played")),
        (r"the rack is empty", mark("swap not allowed: the rack is empty")),
        (
            r"a tile in the rack shows one of your lowest colours",
            mark("swap not allowed: a tile in the rack shows one of your lowest colours"),
        ),
        (r"no marker stands on your 9", mark("swap not allowed: no marker stands on your 9")),
        (
            r"no tile in the rack shows a colour whose marker stands on your 9",
            mark("swap not allowed: no tile in the rack shows a colour whose marker stands on your 9"),
        ),
        (
            r"the bag holds (?P<have>\d+) tile\(s\), fewer than the (?P<need>\d+) needed",
            mark("swap not allowed: the bag holds {have} tiles, fewer than the {need} needed"),
        ),
        (
            r"cell (?P<cell>\(-?\d+, ?-?\d+\)) is outside the playing zone",
            mark("cell {cell} is outside the playing zone"),
        ),
        (r"cell (?P<cell>\(-?\d+, ?-?\d+\)) is not free", mark("cell {cell} is not free")),
        (
            r"player (?P<player>\d+) has no (?P<tile>[ROYGBP]{2}) tile in the rack",
            mark("player {player} has no {tile} tile in the rack"),
        ),
        (
            r"a player's first tile must touch a printed symbol that no tile touches yet",
            mark("a player's first tile must touch a printed symbol that no tile touches yet"),
        ),
        (
            r"with require_contact, the tile must touch a tile or a printed symbol",
            mark("with require_contact, the tile must touch a tile or a printed symbol"),
        ),
        (
            r'cannot read tile (?P<text>".*"): use two colour letters like "RB" or names like "red/blue"',
            mark('cannot read tile {text}: use two colour letters like "RB" or names like "red/blue"'),
        ),
    )
)
_CANNOT_READ = re.compile(r'cannot read move (?P<text>".*?"): (?P<why>.*)', re.DOTALL)
_SWAP = re.compile(r"swap not allowed: (?P<why>.*)", re.DOTALL)


def _reason(text: str) -> str | None:
    for pattern, message in _REASONS:
        m = pattern.fullmatch(text)
        if m is not None:
            return tr(message).format(**m.groupdict())
    return None


def refusal_text(error: BaseException | str) -> str:
    """The core's refusal (an `IllegalMoveError`, a `ValueError`, or its text) in the
    language in use; as the core wrote it when it is not one of the known sentences."""
    text = str(error)
    m = _CANNOT_READ.fullmatch(text)
    if m is not None:
        why = _reason(m.group("why"))
        if why is not None:
            return tr("cannot read move {text}: {reason}").format(text=m.group("text"), reason=why)
        return text
    m = _SWAP.fullmatch(text)
    if m is not None:
        return _reason(m.group("why")) or text
    return _reason(text) or text

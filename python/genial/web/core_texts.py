"""The core's texts that the page shows, in the player's language: the bots' descriptions
and their options' help, the variants' descriptions and the edition options' help.

The core (Rust) is language-free and writes these in English; the page reads them through
`GET /api/meta`, which the server translates through the catalogues keyed by the English
text (`genial.web.facts.translated_meta`). Babel reads Python, not Rust, so ``make
catalogues`` extracts them with `extract` (``babel.cfg`` maps this file to it), which asks
the core: a new bot, option or variant reaches the catalogues with no list to edit, and
`tests/test_web_languages.py` fails until each catalogue translates it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO

from .. import _core
from ..variants import variants

__all__ = ["core_texts", "extract"]


def core_texts() -> list[str]:
    """Every text of the core that the page shows, in the core's order, each once."""
    texts: list[str] = []
    for bot in _core.bot_catalogue():
        texts.append(bot["description"])
        texts.extend(option["help"] for option in bot["options"])
    texts.extend(v.description for v in variants())
    texts.extend(str(option["help"]) for option in _core.Rules.options())
    return list(dict.fromkeys(texts))


def extract(
    fileobj: IO[bytes], keywords: object, comment_tags: object, options: object
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extractor for this file (``babel.cfg``): the core's texts, as if each were
    marked with ``mark`` on this module's first line."""
    for text in core_texts():
        yield 1, "mark", text, []

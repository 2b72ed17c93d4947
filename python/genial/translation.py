"""The languages a player reads genial in: English, and the languages of the boxes --
French (*Génial*), German (*Einfach genial*) and Polish (*Geniusz*).

Every player-facing sentence is written in English in the code, wrapped in `tr` (or `ntr`
for a sentence whose form depends on a number), and looked up in the chosen language's
gettext catalogue, ``genial/locale/LANG.po``. The catalogues are read as they are, by the
small reader below (the standard library's gettext reads only compiled ``.mo`` files, and
compiling them would need a build step that ``make demo`` and the wheel do not have): a
``.po`` file is the one source of truth. ``make catalogues`` (Babel, a development tool)
extracts the template ``genial/locale/genial.pot`` from the code and brings each catalogue
up to date.

The language is chosen once per context (`use`, `set_language`): the terminal sets it from
``--lang``, else ``LC_ALL`` / ``LC_MESSAGES`` / ``LANG``. An
unknown or malformed choice is English, silently: a player is never refused for asking.
Looking up a message is a dictionary read, and nothing on the engine's hot paths does it.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gettext
import json
import os
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

__all__ = [
    "LANGUAGES",
    "CATALOGUES",
    "Catalogue",
    "CatalogueError",
    "Entry",
    "read_po",
    "parse_catalogue",
    "catalogue",
    "language_of",
    "from_environment",
    "from_accept_language",
    "current",
    "use",
    "set_language",
    "tr",
    "ntr",
    "mark",
    "decimal",
    "page_catalogue",
    "extract_page_html",
    "render_page_html",
]

#: The languages there is a catalogue for, by their code, each with its own name. Adding a
#: language is this one line and its catalogue ``genial/locale/CODE.po`` (CONTRIBUTING.md).
LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français", "de": "Deutsch", "pl": "Polski"}

#: The folder of the catalogues (``CODE.po``) and their template (``genial.pot``).
CATALOGUES = Path(__file__).parent / "locale"

ENGLISH = "en"
_CODE = re.compile(r"[A-Za-z]{2,3}")


class CatalogueError(ValueError):
    """A catalogue file that cannot be read: its path, line and what is wrong."""


@dataclass
class Entry:
    """One message of a ``.po`` file: its English text (``msgid``, and ``msgid_plural``
    for a message with plural forms), the translations (one, or one per plural form), and
    its flags (``fuzzy``, ``python-brace-format``)."""

    msgid: str
    msgid_plural: str | None = None
    msgstr: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    context: str | None = None


_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}


def _unquote(text: str, where: str) -> str:
    m = _STRING.fullmatch(text.strip())
    if m is None:
        raise CatalogueError(f"{where}: expected a quoted string, got {text.strip()[:40]!r}")
    return re.sub(r"\\(.)", lambda e: _ESCAPES.get(e.group(1), e.group(0)), m.group(1))


def read_po(text: str, name: str = "catalogue") -> list[Entry]:
    """The entries of a ``.po`` file's text, the header (``msgid ""``) first; obsolete
    entries (``#~``) are left out. A line it cannot read raises `CatalogueError` with
    ``name`` and the line number."""
    entries: list[Entry] = []
    current: Entry | None = None
    flags: set[str] = set()
    context: str | None = None
    key: str | None = None  # the keyword the continuation lines add to

    def finish() -> None:
        nonlocal current
        if current is not None:
            entries.append(current)
        current = None

    for number, raw in enumerate(text.splitlines(), start=1):
        where = f"{name}:{number}"
        line = raw.strip()
        if not line or (line.startswith("#") and not line.startswith("#,")):
            continue
        if line.startswith("#,"):
            finish()
            flags = {f.strip() for f in line[2:].split(",") if f.strip()}
            continue
        if line.startswith('"'):
            if current is None and key != "msgctxt":
                raise CatalogueError(f"{where}: a string outside any entry")
            value = _unquote(line, where)
            if key == "msgctxt":
                context = (context or "") + value
            elif current is not None and key == "msgid":
                current.msgid += value
            elif current is not None and key == "msgid_plural":
                current.msgid_plural = (current.msgid_plural or "") + value
            elif current is not None and key is not None and key.startswith("msgstr"):
                current.msgstr[-1] += value
            continue
        word, _, rest = line.partition(" ")
        if word == "msgctxt":
            finish()
            context, key = _unquote(rest, where), "msgctxt"
        elif word == "msgid":
            if current is not None and current.msgstr:
                finish()
            current = Entry(_unquote(rest, where), flags=flags, context=context)
            flags, context, key = set(), None, "msgid"
        elif word == "msgid_plural" and current is not None:
            current.msgid_plural, key = _unquote(rest, where), "msgid_plural"
        elif word == "msgstr" and current is not None:
            current.msgstr.append(_unquote(rest, where))
            key = "msgstr"
        elif word.startswith("msgstr[") and current is not None:
            index = word[len("msgstr[") : -1]
            if not index.isdigit() or int(index) != len(current.msgstr):
                raise CatalogueError(f"{where}: {word} out of order")
            current.msgstr.append(_unquote(rest, where))
            key = word
        else:
            raise CatalogueError(f"{where}: cannot read {line[:40]!r}")
    finish()
    return entries


def _header(entries: list[Entry]) -> dict[str, str]:
    for e in entries:
        if e.msgid == "" and e.context is None and e.msgstr:
            return {
                k.strip(): v.strip()
                for k, _, v in (line.partition(":") for line in e.msgstr[0].splitlines())
                if k.strip()
            }
    return {}


@dataclass(frozen=True)
class Catalogue:
    """One language's messages: ``messages`` maps an English text (or its singular, for a
    message with plural forms) to its translations; ``plural`` picks the form for a number
    (the catalogue's own ``Plural-Forms`` rule: Polish has three)."""

    language: str
    messages: Mapping[str, tuple[str, ...]]
    plural: Callable[[int], int]
    nplurals: int

    def gettext(self, message: str) -> str:
        forms = self.messages.get(message)
        return forms[0] if forms and forms[0] else message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        forms = self.messages.get(singular)
        if forms:
            index = self.plural(n)
            if 0 <= index < len(forms) and forms[index]:
                return forms[index]
        return singular if n == 1 else plural


def _english_plural(n: int) -> int:
    return 0 if n == 1 else 1


_ENGLISH = Catalogue(ENGLISH, {}, _english_plural, 2)
_PLURAL = re.compile(r"nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([^;]+);?")


def parse_catalogue(language: str, text: str, name: str = "catalogue") -> Catalogue:
    """A `Catalogue` from a ``.po`` file's text. Fuzzy and untranslated entries are left
    out (their English shows), as gettext's own compiler does."""
    entries = read_po(text, name)
    forms = _header(entries).get("Plural-Forms", "nplurals=2; plural=(n != 1);")
    m = _PLURAL.search(forms)
    if m is None:
        raise CatalogueError(f"{name}: cannot read its Plural-Forms header {forms!r}")
    try:
        plural = gettext.c2py(m.group(2).strip())  # the standard library's safe reading of the C rule
    except (ValueError, SyntaxError) as e:
        raise CatalogueError(f"{name}: bad plural rule {m.group(2)!r}: {e}") from None
    messages = {
        e.msgid: tuple(e.msgstr)
        for e in entries
        if e.msgid and e.context is None and "fuzzy" not in e.flags and any(e.msgstr)
    }
    return Catalogue(language, messages, plural, int(m.group(1)))


@functools.cache
def catalogue(language: str) -> Catalogue:
    """The catalogue of a language of `LANGUAGES` (English: the code's own texts), read
    once. A language without its file reads as English."""
    if language == ENGLISH or language not in LANGUAGES:
        return _ENGLISH
    path = CATALOGUES / f"{language}.po"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return _ENGLISH
    return parse_catalogue(language, text, str(path))


def language_of(choice: str | None) -> str:
    """The language of `LANGUAGES` meant by ``choice``: a code (``fr``), a locale name
    (``fr_FR.UTF-8``, ``de-AT``, ``pl_PL@euro``) or a language's own name, any case;
    English for anything else, empty or malformed."""
    if not choice:
        return ENGLISH
    text = choice.strip()
    for code, name in LANGUAGES.items():
        if text.casefold() == name.casefold():
            return code
    code = re.split(r"[_\-.@]", text, maxsplit=1)[0].lower()
    if not _CODE.fullmatch(code):
        return ENGLISH
    return code if code in LANGUAGES else ENGLISH


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language: the first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is
    set (POSIX's order), as `language_of` reads it; ``C`` and ``POSIX`` are English."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return language_of(value)
    return ENGLISH


_QUALITY = re.compile(r"q=([0-9](?:\.[0-9]{0,3})?)")


def from_accept_language(header: str | None) -> str:
    """The language an ``Accept-Language`` header asks for: its first language by
    preference (``q``) that has a catalogue; English when none has, or the header is
    malformed."""
    if not header or len(header) > 1000:
        return ENGLISH
    wanted: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params:
            m = _QUALITY.search(params)
            if m is None:
                continue
            q = float(m.group(1))
        tag = tag.strip()
        if q <= 0 or not tag or tag == "*":
            continue
        code = tag.split("-")[0].lower()
        if code in LANGUAGES and _CODE.fullmatch(code):
            wanted.append((-q, i, code))
    return min(wanted)[2] if wanted else ENGLISH


_current: contextvars.ContextVar[Catalogue] = contextvars.ContextVar("genial_language", default=_ENGLISH)


def current() -> str:
    """The code of the language in use in this context."""
    return _current.get().language


def set_language(choice: str | None) -> str:
    """Uses ``choice`` (as `language_of` reads it) from now on in this context (the
    terminal's one game); the code of the language it gave."""
    found = catalogue(language_of(choice))
    _current.set(found)
    return found.language


@contextlib.contextmanager
def use(choice: str | None) -> Iterator[str]:
    """``with use("pl"):`` the texts made inside are Polish; the language before is back
    after. Yields the language's code."""
    token = _current.set(catalogue(language_of(choice)))
    try:
        yield _current.get().language
    finally:
        _current.reset(token)


def tr(message: str) -> str:
    """``message`` (English) in the language in use."""
    return _current.get().gettext(message)


def ntr(singular: str, plural: str, n: int) -> str:
    """The form of a message that fits the number ``n``, in the language in use (English has
    two forms; Polish three: 1, 2-4 and 22-24, 5 and more)."""
    return _current.get().ngettext(singular, plural, n)


def mark(message: str) -> str:
    """``message`` unchanged: marks a text kept in a table (a colour's name) for the
    catalogues, to be translated where it is shown (``tr(name)``)."""
    return message


def decimal(x: float, digits: int) -> str:
    """``x`` with ``digits`` decimals, written the way of the language in use: ``12.5`` in
    English, ``12,5`` in French, German and Polish (the catalogue's translation of the
    pattern ``{integer}.{fraction}``)."""
    text = f"{x:.{digits}f}"
    if digits <= 0:
        return text
    integer, _, fraction = text.partition(".")
    return tr("{integer}.{fraction}").format(integer=integer, fraction=fraction)


#: How many counts the page's plural table covers: 0..199 directly; a larger ``n`` reads
#: the entry of ``100 + n % 100``. Every gettext rule of the languages here (and of the
#: common ones: they test ``n``, ``n % 10`` and ``n % 100`` against numbers below 100)
#: gives a count of 200 or more the form of that entry.
PAGE_PLURAL_SPAN = 200


def page_catalogue(language: str) -> bytes:
    """The catalogue of ``language`` (as `language_of` reads it: anything unknown is
    English's, empty) as the page reads it (JSON, made once per language):
    ``language``; ``plural``, the form's index for each count below `PAGE_PLURAL_SPAN`
    (the page runs no code it is sent, so the ``.po`` file's C rule is turned into a table
    here); and ``messages``, each English text with its translations. It is the same
    ``.po`` file as the terminal's: one source of truth."""
    return _page_catalogue(language_of(language))


@functools.cache  # keyed by a language of `LANGUAGES` only: an address's text cannot grow it
def _page_catalogue(language: str) -> bytes:
    found = catalogue(language)
    data = {
        "language": found.language,
        "plural": [found.plural(n) for n in range(PAGE_PLURAL_SPAN)],
        "messages": dict(found.messages),
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")


#: An element of the page's HTML whose text is a catalogue message: ``data-t`` on the tag.
PAGE_TEXT = re.compile(r"(<(\w+)\b[^>]*?\sdata-t)(\s[^>]*)?>([^<]+)(</\2>)")
#: An attribute of the page's HTML that is a catalogue message: ``data-t-title`` (or
#: ``-aria-label``, ``-content``) holds the English text of the attribute it names.
PAGE_ATTRIBUTE = re.compile(r'\sdata-t-([\w-]+)="([^"]+)"')


def extract_page_html(
    fileobj: IO[bytes], keywords: object, comment_tags: object, options: object
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extractor for the page's HTML (``babel.cfg``): the text of each element
    marked ``data-t`` and each ``data-t-ATTRIBUTE="..."`` value."""
    text = fileobj.read().decode("utf-8")
    for m in PAGE_TEXT.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, "tr", _html_text(m.group(4)), []
    for m in PAGE_ATTRIBUTE.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, "tr", _html_text(m.group(2)), []


_HTML_ENTITIES = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'"}


def _html_text(text: str) -> str:
    """An HTML text as the catalogue keys it: entities read, spaces folded."""
    text = " ".join(text.split())
    return re.sub(r"&\w+;|&#\d+;", lambda m: _HTML_ENTITIES.get(m.group(0), m.group(0)), text)


def _html_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def render_page_html(html: str, language: str) -> str:
    """The page's HTML in ``language``: ``<html lang>`` set, each ``data-t`` element's text
    and each ``data-t-ATTRIBUTE`` attribute translated, the English kept in ``data-t`` (and
    ``data-t-ATTRIBUTE``) for the page to switch languages without a reload of the
    server's copy."""
    with use(language) as code:

        def text(m: re.Match[str]) -> str:
            english = _html_text(m.group(4))
            rest = m.group(3) or ""
            return f'{m.group(1)}="{_html_escape(english)}"{rest}>{_html_escape(tr(english))}{m.group(5)}'

        def attribute(m: re.Match[str]) -> str:
            english = _html_text(m.group(2))
            return f' {m.group(1)}="{_html_escape(tr(english))}" data-t-{m.group(1)}="{_html_escape(english)}"'

        out = PAGE_TEXT.sub(text, html)
        out = PAGE_ATTRIBUTE.sub(attribute, out)
        # The languages the header's switch offers: those with a catalogue (`LANGUAGES`).
        offered = _html_escape(json.dumps(LANGUAGES, ensure_ascii=False))
        head = f'<html lang="{code}" data-served="{code}" data-languages="{offered}"'
        return re.sub(r'<html lang="[^"]*"', head, out, count=1)

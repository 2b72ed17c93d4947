"""genial in the languages of its boxes (genial.translation): the catalogues complete and
current, their placeholders and plural forms right, the language chosen without ever
refusing a player, the colours' names of every language read, and `genial play` walked in
a pseudo-language that shows any text left untranslated."""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po as babel_read_po
from conftest import ROOT
from genial import Color, Game, IllegalMoveError, Move, Tile, translation
from genial.cli import main
from genial.records import to_record
from genial.refusals import refusal_text
from genial.translation import (
    CATALOGUES,
    LANGUAGES,
    CatalogueError,
    from_accept_language,
    from_environment,
    language_of,
    ntr,
    parse_catalogue,
    read_po,
    tr,
    use,
)

REAL = [code for code in LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"\{(\w*)\}")
KEYWORDS = {"tr": None, "ntr": (1, 2), "mark": None, "t": None, "nt": (1, 2)}
# What babel.cfg extracts: the core's texts, the package's Python, the page's JavaScript and
# its HTML (a file takes the first pattern that matches it).
METHODS = [
    ("python/genial/web/core_texts.py", "genial.web.core_texts:extract"),
    ("python/genial/**.py", "python"),
    ("python/genial/web/static/**.js", "javascript"),
    ("python/genial/web/static/**.html", "genial.translation:extract_page_html"),
]


def extracted() -> dict[str, str | None]:
    """Every message the code marks (tr, ntr, mark; the page's t, nt and data-t), as
    `make catalogues` extracts it: English text -> its plural, if any."""
    out: dict[str, str | None] = {}
    options = {"python/genial/web/static/**.js": {"parse_template_string": "true"}}
    for _, _, message, _, _ in extract_from_dir(str(ROOT), method_map=METHODS, options_map=options, keywords=KEYWORDS):
        if isinstance(message, tuple):
            out[message[0]] = message[1]
        else:
            out[message] = None
    return out


@pytest.fixture(scope="module")
def messages() -> dict[str, str | None]:
    return extracted()


def entries(code: str) -> dict[str, translation.Entry]:
    path = CATALOGUES / f"{code}.po"
    return {e.msgid: e for e in read_po(path.read_text(encoding="utf-8"), str(path)) if e.msgid}


# ----- the catalogues -----------------------------------------------------------------


@pytest.mark.parametrize("code", [*REAL, "genial.pot"])
def test_every_catalogue_has_every_message_and_no_stale_one(code: str, messages: dict[str, str | None]) -> None:
    name = code if code.endswith(".pot") else f"{code}.po"
    path = CATALOGUES / name
    found = {e.msgid: e.msgid_plural for e in read_po(path.read_text(encoding="utf-8"), name) if e.msgid}
    missing = sorted(set(messages) - set(found))
    stale = sorted(set(found) - set(messages))
    assert not missing, f"{name} lacks {missing[:5]}: run make catalogues, then translate"
    assert not stale, f"{name} still has {stale[:5]}: run make catalogues"
    assert found == messages, "plural texts differ from the code's"


@pytest.mark.parametrize("code", REAL)
def test_every_message_is_translated_and_keeps_the_placeholders(code: str) -> None:
    catalogue = translation.catalogue(code)
    for msgid, entry in entries(code).items():
        assert "fuzzy" not in entry.flags, f"{code}: {msgid!r} is marked fuzzy"
        assert entry.msgstr and all(entry.msgstr), f"{code}: {msgid!r} is not translated"
        wanted = {*PLACEHOLDER.findall(msgid), *PLACEHOLDER.findall(entry.msgid_plural or "")}
        forms = entry.msgstr
        if entry.msgid_plural is not None:
            assert len(forms) == catalogue.nplurals, f"{code}: {msgid!r} has {len(forms)} forms"
        for form in forms:
            got = set(PLACEHOLDER.findall(form))
            # A singular may leave out the count ("the lower one"), never add a name.
            assert got <= wanted and (wanted - got) <= {"n", "k"}, f"{code}: {form!r} against {msgid!r}"
            form.format(**dict.fromkeys(wanted, "x"))  # well formed: no stray brace


@pytest.mark.parametrize("code", REAL)
def test_the_reader_agrees_with_babel(code: str) -> None:
    """genial reads the .po files itself (no build step): it must read what Babel reads."""
    path = CATALOGUES / f"{code}.po"
    with path.open("rb") as f:
        theirs = babel_read_po(f)
    ours = translation.catalogue(code)
    expected = {
        (m.id[0] if isinstance(m.id, tuple) else m.id): tuple(m.string) if isinstance(m.string, tuple) else (m.string,)
        for m in theirs
        if m.id
    }
    assert dict(ours.messages) == expected
    assert ours.nplurals == theirs.num_plurals


@pytest.mark.parametrize(
    ("n", "form"),
    [(1, "ruch"), (2, "ruchy"), (4, "ruchy"), (5, "ruchów"), (12, "ruchów"), (22, "ruchy"), (25, "ruchów")],
)
def test_polish_has_three_plural_forms(n: int, form: str) -> None:
    with use("pl"):
        text = ntr("took back {n} move: your turn again", "took back {n} moves: your turn again", n).format(n=n)
    assert text == f"cofnięto {n} {form}: znowu twoja tura"


@pytest.mark.parametrize(("n", "fr", "de"), [(0, "coup", "Zügen"), (1, "coup", "Zug"), (2, "coups", "Zügen")])
def test_french_and_german_plurals(n: int, fr: str, de: str) -> None:
    """French counts 0 as singular (« 0 coup »), German as plural."""
    singular, plural = "game over ({end}) after {n} move", "game over ({end}) after {n} moves"
    with use("fr"):
        assert ntr(singular, plural, n).format(end="x", n=n).endswith(f"{n} {fr}")
    with use("de"):
        assert ntr(singular, plural, n).format(end="x", n=n).endswith(f"{n} {de}")


# ----- choosing the language ----------------------------------------------------------


@pytest.mark.parametrize(
    ("choice", "code"),
    [
        ("fr", "fr"),
        ("fr_FR.UTF-8", "fr"),
        ("de-AT", "de"),
        ("pl_PL@euro", "pl"),
        ("Polski", "pl"),
        ("DE", "de"),
        ("C", "en"),
        ("POSIX", "en"),
        ("C.UTF-8", "en"),
        ("es_ES.UTF-8", "en"),
        ("", "en"),
        (None, "en"),
        ("../../etc/passwd", "en"),
        ("f\x00r", "en"),
        ("☃", "en"),
        ("x" * 10_000, "en"),
    ],
)
def test_any_choice_gives_a_language_without_an_error(choice: str | None, code: str) -> None:
    assert language_of(choice) == code


def test_the_environment_in_posix_order() -> None:
    assert from_environment({"LANG": "pl_PL.UTF-8"}) == "pl"
    assert from_environment({"LANG": "pl_PL.UTF-8", "LC_MESSAGES": "de_DE"}) == "de"
    assert from_environment({"LANG": "pl_PL.UTF-8", "LC_MESSAGES": "de_DE", "LC_ALL": "fr_FR"}) == "fr"
    assert from_environment({"LC_ALL": "", "LANG": "fr"}) == "fr"
    assert from_environment({}) == "en"
    assert from_environment({"LANG": "nonsense!!"}) == "en"


@pytest.mark.parametrize(
    ("header", "code"),
    [
        ("pl", "pl"),
        ("pl-PL,pl;q=0.9,en-US;q=0.8,en;q=0.7", "pl"),
        ("es;q=1, de;q=0.8, fr;q=0.9", "fr"),
        ("en;q=0.1, de", "de"),
        ("fr;q=0", "en"),
        ("*", "en"),
        ("", "en"),
        (None, "en"),
        (";;;,,,q=", "en"),
        ("pl;q=abc", "en"),
        ("\udcff" * 3, "en"),
        ("de;" + "q=1;" * 1000, "en"),
    ],
)
def test_accept_language(header: str | None, code: str) -> None:
    assert from_accept_language(header) == code


def test_a_language_is_one_context_and_comes_back() -> None:
    assert translation.current() == "en"
    with use("de"):
        assert tr("Ingenious!") == "Einfach genial!"
        with use("fr"):
            assert tr("Ingenious!") == "Génial !"
        assert translation.current() == "de"
    assert tr("Ingenious!") == "Ingenious!"


def test_a_malformed_catalogue_is_refused_with_its_line() -> None:
    with pytest.raises(CatalogueError, match=r"x\.po:3: cannot read"):
        read_po('msgid "a"\nmsgstr "b"\nnonsense here\n', "x.po")
    with pytest.raises(CatalogueError, match=r"x\.po:2: expected a quoted string"):
        read_po('msgid "a"\nmsgstr b\n', "x.po")
    with pytest.raises(CatalogueError, match="bad plural rule"):
        parse_catalogue("xx", 'msgid ""\nmsgstr "Plural-Forms: nplurals=2; plural=import os;\\n"\n', "x.po")
    # A message without translation, or fuzzy, shows its English.
    found = parse_catalogue("xx", 'msgid "a"\nmsgstr ""\n\n#, fuzzy\nmsgid "b"\nmsgstr "B"\n')
    assert found.gettext("a") == "a" and found.gettext("b") == "b"


# ----- the words of the books ---------------------------------------------------------

TERMS = ROOT / "docs" / "terms.md"


def term_table() -> list[dict[str, str]]:
    """The rows of docs/terms.md's table: English, French, German, Polish, and the
    catalogue message that must use them."""
    rows = []
    for line in TERMS.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[4].startswith("`") and cells[0] != "English":
            rows.append(dict(zip(("en", "fr", "de", "pl", "message"), cells)))
    return rows


def test_the_term_table_lists_the_key_terms() -> None:
    english = {row["en"] for row in term_table()}
    for term in ("Ingenious!", "bonus placement", "symbol", "score track", "tile", "rack", "bag", "duel (variant)"):
        assert term in english, f"docs/terms.md lacks {term!r}"


@pytest.mark.parametrize("code", REAL)
def test_the_catalogues_use_the_term_table(code: str) -> None:
    """Each key term is said the book's way: the message named in the table's last column
    holds the term (any inflection: the table gives the stem a translation must contain)."""
    rows = term_table()
    assert rows
    with use(code):
        for row in rows:
            message = row["message"].strip("`")
            assert message in translation.catalogue(code).messages, f"{message!r} is no catalogue message"
            forms = [form.strip() for form in row[code].split("/")]
            said = tr(message).casefold()
            assert any(form.casefold() in said for form in forms), f"{code}: {message!r} does not say {forms}"


# ----- colours ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "red(0,-4) blue(1,-4)",
        "rouge(0,-4) bleu(1,-4)",
        "rot(0,-4) blau(1,-4)",
        "czerwony(0,-4) niebieski(1,-4)",
        "CZERWONA 0,-4 Niebieska 1,-4",
        "R0,-4+B1,-4",
    ],
)
def test_move_parse_reads_the_colours_of_every_language(text: str) -> None:
    assert str(Move.parse(text)) == "R0,-4+B1,-4"


def test_the_letters_stay_english() -> None:
    """G is green and B blue in every language (German gelb and blau notwithstanding)."""
    assert Move.parse("G0,-4+B1,-4").colors == (Color.GREEN, Color.BLUE)
    with pytest.raises(IllegalMoveError):
        Move.parse("Z0,-4+B1,-4")


def test_color_parse_and_the_core_read_the_same_words() -> None:
    for color, words in translation_color_words().items():
        for word in words:
            assert Color.parse(word) is color
            assert Color.parse(word.upper()) is color
            assert Move.parse(f"{word}(0,-4) {word}(1,-4)").colors == (color, color)
            assert Tile.parse(f"{word}/{word}") == Tile(color, color)
    for word in ("rosso", "gelbe", "x"):
        with pytest.raises(ValueError):
            Color.parse(word)
        with pytest.raises(IllegalMoveError):
            Move.parse(f"{word}(0,-4) red(1,-4)")


def translation_color_words() -> dict[Color, tuple[str, ...]]:
    from genial.colors import COLOR_WORDS

    return COLOR_WORDS


@pytest.mark.parametrize("code", REAL)
def test_colours_are_named_in_the_language(code: str) -> None:
    with use(code):
        for color in Color:
            title = color.title
            assert Color.parse(title) is color, f"{code}: {title} is not read back"
    assert Color.BLUE.title == "blue"


# ----- the core's refusals ------------------------------------------------------------


def refusals() -> Iterator[str]:
    """Refusals of the core for every kind of bad move text and illegal move."""
    for text in (
        "xyz",
        "R9,9+B9,8",
        "R0,-4+B0,-4",
        "R0,-4+B3,-4",
        "Q0,-4+B1,-4",
        "R(0,-4+B1,-4",
        "R0,a+B1,-4",
        "R0+B1,-4",
        "R" * 70,
        "Rx+B1,-4",
    ):
        try:
            Move.parse(text)
        except IllegalMoveError as e:
            yield str(e)
    game = Game(seed=1)
    for text in ("R0,-4+B1,-4", "swap", "keep", "P0,-1+P0,0"):
        try:
            game.check(Move.parse(text))
        except IllegalMoveError as e:
            yield str(e)
    try:
        Tile.parse("nope")
    except ValueError as e:
        yield str(e)


def test_every_refusal_of_the_core_is_translated() -> None:
    seen = list(refusals())
    assert len(seen) >= 12
    with use("de"):
        for text in seen:
            assert refusal_text(text) != text, f"no translation for the core's {text!r}"


# ----- the pseudo-language: every visible text goes through a catalogue ----------------


def pseudo_catalogue(folder: Path) -> None:
    """A test-only language, ``qps``, whose every text is its English wrapped in ⟦…⟧:
    one catalogue file written from the template, and one line in `LANGUAGES`."""
    lines = ['msgid ""', 'msgstr ""', '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"', ""]

    def quoted(text: str) -> str:
        return json.dumps(text, ensure_ascii=False)

    for message, plural in extracted().items():
        lines.append(f"msgid {quoted(message)}")
        if plural is None:
            lines.append(f"msgstr {quoted('⟦' + message + '⟧')}")
        else:
            lines.append(f"msgid_plural {quoted(plural)}")
            lines.append(f"msgstr[0] {quoted('⟦' + message + '⟧')}")
            lines.append(f"msgstr[1] {quoted('⟦' + plural + '⟧')}")
        lines.append("")
    (folder / "qps.po").write_text("\n".join(lines), encoding="utf-8")


@pytest.fixture
def pseudo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    folder = tmp_path / "locale"
    folder.mkdir()
    pseudo_catalogue(folder)
    monkeypatch.setattr(translation, "CATALOGUES", folder)
    monkeypatch.setitem(LANGUAGES, "qps", "pseudo")
    translation.catalogue.cache_clear()
    yield
    translation.catalogue.cache_clear()


def outside_brackets(text: str) -> str:
    """``text`` with every ⟦…⟧ span (nested ones too) replaced by a space."""
    out, depth = [], 0
    for ch in text:
        if ch == "⟦":
            depth += 1
        elif ch == "⟧":
            assert depth > 0, "a ⟧ without its ⟦"
            depth -= 1
            if depth == 0:
                out.append(" ")
        elif depth == 0:
            out.append(ch)
    assert depth == 0, "a ⟦ without its ⟧"
    return "".join(out)


# What may show outside the catalogues: the notation (moves, tiles, gains, the board's
# letters and its q/r labels), numbers, and what the player typed or chose (the seats'
# names, the file name given to save).
NOTATION = [
    re.compile(r"[ROYGBP]-?\d+,-?\d+\+[ROYGBP]-?\d+,-?\d+"),  # a placement
    re.compile(r"\b[ROYGBP]\+\d+"),  # a colour's gain
    re.compile(r"\b[ROYGBP]:-?\d+|\b[ROYGBP]:-"),  # the duel's tokens
    re.compile(r"\b(?:[ROYGBP]{2} ?)+\b"),  # tiles of a rack
    re.compile(r"^q [↘↖].*$", re.M),  # the board's column labels
    re.compile(r"\bq -?\d+\.\.-?\d+"),  # a row's range of q
    re.compile(r"^r +-?\d+ ", re.M),  # a row's label
    re.compile(r"\b[ROYGBProygbp]\b\*?"),  # a cell of the board, the tracks' letters
    re.compile(r"\bswap\b|\bkeep\b"),  # the swap's answers, as moves
]
ALLOWED = ("human", "greedy", "genial-test.json")


def untranslated(out: str, typed: list[str]) -> list[str]:
    rest = outside_brackets(out)
    for line in typed:  # the input, echoed
        rest = re.sub(rf"(?m)^\s*{re.escape(line)}$", " ", rest)
    for pattern in NOTATION:
        rest = pattern.sub(" ", rest)
    for word in ALLOWED:
        rest = rest.replace(word, " ")
    rest = re.sub(r"-?\d+(?:\.\d+)?", " ", rest)  # numbers
    return [line.strip() for line in rest.splitlines() if re.search(r"\w", line)]


def near_the_end() -> Path:
    """A game of two greedy bots cut a few turns before its end, seat 0 to place."""
    game = Game(seed=11)
    bots = [__import__("genial").bots.make("greedy", seed=s) for s in (1, 2)]
    while not game.is_over:
        game.play(bots[game.current_player].choose(game))
    moves = list(game.moves)
    cut = Game(seed=11)
    for move in moves[: len(moves) - 12]:
        cut.play(move)
    while not (cut.current_player == 0 and cut.phase == "place"):
        cut.play(moves[len(cut.moves)])
    path = Path("near-the-end.json")
    record = to_record(cut)
    record["seats"] = ["human", "greedy"]
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def test_genial_play_in_the_pseudo_language_shows_no_bare_text(
    pseudo: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    record = near_the_end()
    typed = ["help", "R0,0+B9,9", "rouge(0,-4) bleu(1,-4)", "xyz", "list ZZ", "list 0,0", "9999", "1", "undo"]
    typed += ["board", "hint", "save genial-test.json", "save"] + ["1"] * 40
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(typed) + "\n"))
    code = main(["play", "--lang", "qps", "--resume", str(record)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "⟦game over" in out and "⟦took back" in out and "⟦Enter one of" in out and "⟦not a legal move" in out
    assert untranslated(out, typed) == []


def test_the_pseudo_check_catches_a_bare_text() -> None:
    assert untranslated("⟦player 0⟧: R1,-5+O1,-4  R+1\nplayer 1 to move", []) == ["player   to move"]
    assert untranslated("⟦a ⟦nested⟧ text⟧ 12 %", []) == []


@pytest.mark.parametrize("code", ["de", "fr", "pl"])
def test_genial_play_speaks_the_language_asked(
    code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("help\nquit\n"))
    assert main(["play", "--lang", code, "--seed", "3"]) == 0
    out = capsys.readouterr().out
    with use(code):
        assert tr("game left unfinished") in out
    assert {"de": "Spielstein", "fr": "tuile", "pl": "płytk"}[code] in out


def test_genial_play_follows_the_environment_and_falls_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--seed", "3"]) == 0
    assert "Partie unvollendet verlassen" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--seed", "3", "--lang", "tlh"]) == 0  # Klingon: English, no error
    out, err = capsys.readouterr()
    assert "game left unfinished" in out and err == ""


# ----- the rules in each language -------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("fr", ["Génial !", "tour bonus", "piste de score", "symbole", "Les lettres restent celles de l'anglais"]),
        ("de", ["Einfach genial!", "Bonuszug", "Wertungsleiste", "Die Buchstaben bleiben in allen Sprachen"]),
        ("pl", ["Geniusz!", "dodatkowy ruch", "Pojedynek", "żeton pojedynku", "Litery są we wszystkich językach"]),
    ],
)
def test_the_rules_in_each_language_are_linked_and_keep_the_notation(code: str, says: list[str]) -> None:
    page = ROOT / "docs" / f"rules.{code}.md"
    text = page.read_text(encoding="utf-8")
    for words in says:
        assert words in text, f"{page.name} does not say {words!r}"
    assert text.count("\n## ") >= 6, "the material, the base game, solo, team, duel, the notation"
    assert f"docs/rules.{code}.md" in (ROOT / "README.md").read_text(encoding="utf-8")
    help_dialog = (ROOT / "python" / "genial" / "web" / "static" / "index.html").read_text(encoding="utf-8")
    assert f"/rules.{code}/" in help_dialog
    assert f"rules.{code}.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


@pytest.mark.parametrize(("code", "text"), [("en", "12.5"), ("fr", "12,5"), ("de", "12,5"), ("pl", "12,5")])
def test_decimals_are_written_the_language_s_way(code: str, text: str) -> None:
    with use(code):
        assert translation.decimal(12.5, 1) == text
        assert translation.decimal(-0.25, 2) == text.replace("12", "-0").replace("5", "25")
        assert translation.decimal(3.0, 0) == "3"


# ----- the page's catalogues ------------------------------------------------------------


def page_messages() -> dict[str, str | None]:
    """The messages of the page's JavaScript and HTML alone, as `make catalogues` extracts them."""
    out: dict[str, str | None] = {}
    options = {"python/genial/web/static/**.js": {"parse_template_string": "true"}}
    for _, _, message, _, _ in extract_from_dir(
        str(ROOT), method_map=[m for m in METHODS if "/static/" in m[0]], options_map=options, keywords=KEYWORDS
    ):
        out[message[0] if isinstance(message, tuple) else message] = message[1] if isinstance(message, tuple) else None
    return out


@pytest.mark.parametrize("code", REAL)
def test_the_page_catalogue_holds_every_text_of_the_page_with_its_placeholders(code: str) -> None:
    """The JSON the page reads (`page_catalogue`): every text its JavaScript and HTML write,
    translated, each form with the English placeholders, and the plural forms of the language."""
    data = json.loads(translation.page_catalogue(code))
    page = page_messages()
    assert len(page) > 200
    missing = sorted(set(page) - set(data["messages"]))
    assert not missing, f"{code}: the page's catalogue lacks {missing[:5]}"
    nplurals = translation.catalogue(code).nplurals
    for message, plural in page.items():
        forms = data["messages"][message]
        wanted = {*PLACEHOLDER.findall(message), *PLACEHOLDER.findall(plural or "")}
        assert len(forms) == (nplurals if plural is not None else 1), f"{code}: {message!r}"
        for form in forms:
            got = set(PLACEHOLDER.findall(form))
            assert got <= wanted and (wanted - got) <= {"n"}, f"{code}: {form!r} against {message!r}"
    assert sorted(set(data["plural"])) == list(range(nplurals))

"""The bot catalogue lives once, in the core: every door (genial.bots, the command line,
the web lobby, the docs) reads it, no other list of bot names exists in the sources, and
every built-in bot and the analysis refuse a view of a seat that is not to move."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import genial
import pytest
from conftest import ROOT, load_script
from genial import _core
from genial.bots import (
    BUILTIN_BOTS,
    LEVELS,
    SEARCHING_BOTS,
    BotOptionError,
    GameView,
    NotYourTurnError,
    catalogue,
    info,
    make,
    names,
    parse_bot,
)
from genial.cli.common import bots_catalogue_text, bots_help
from genial.web.lobby import bot_catalogue

NAMES = names()

# ----- one list of names --------------------------------------------------------------------

_LITERAL = re.compile(r"""(?P<q>["'`])(?P<s>[a-z]+)(?P=q)""")
# Between two items of one literal list: a comma and blanks, nothing else.
_SEPARATOR = re.compile(r"^\s*,\s*$")


_COMMENT = re.compile(r"^\s*(//|#|\*|/\*|>>>|\.\.\. )")


def _code(text: str) -> str:
    """``text`` without whole-line comments and doctest examples (lines kept, emptied): an
    example that plays two bots is no list of bots."""
    return "\n".join("" if _COMMENT.match(line) else line for line in text.splitlines())


def _name_lists(text: str) -> list[tuple[int, list[str]]]:
    """Runs of two or more bot names written as string literals one after the other in a
    list (``["random", "greedy"]``, ``("easy", "medium")``), with their line numbers."""
    text = _code(text)
    found: list[tuple[int, list[str]]] = []
    run: list[str] = []
    start = 0
    last_end = -1
    for m in _LITERAL.finditer(text):
        is_name = m.group("s") in NAMES
        joined = last_end >= 0 and _SEPARATOR.match(text[last_end : m.start()]) is not None
        if is_name and run and joined:
            run.append(m.group("s"))
        else:
            if len(set(run)) >= 2:
                found.append((text.count("\n", 0, start) + 1, run))
            run, start = ([m.group("s")], m.start()) if is_name else ([], 0)
        last_end = m.end()
    if len(set(run)) >= 2:
        found.append((text.count("\n", 0, start) + 1, run))
    return found


def test_the_scanner_finds_lists_of_names() -> None:
    assert _name_lists('X = ("random", "greedy")\n') == [(1, ["random", "greedy"])]
    assert _name_lists("const A = [\n  'easy',\n  'expert',\n];") == [(2, ["easy", "expert"])]
    assert _name_lists("const A = [`hard`, `mcts`];") == [(1, ["hard", "mcts"])]
    assert _name_lists('f("random", 3, "greedy")') == []
    assert _name_lists('"random" => Plain::Random,\n"greedy" => Plain::Greedy,') == []
    assert _name_lists('x = ("greedy", "random")  # one name twice: ("greedy", "greedy")') == [
        (1, ["greedy", "random"])
    ]
    assert _name_lists('    >>> simulate(2, bots=("greedy", "random"))\n/// `random`, `greedy`') == []


def _sources() -> list[Path]:
    files = [*ROOT.glob("rust/**/*.rs"), *ROOT.glob("python/**/*.py"), *ROOT.glob("python/**/*.pyi")]
    files += [*ROOT.glob("python/**/*.js"), *ROOT.glob("python/**/*.html")]
    return sorted(p for p in files if p != ROOT / "rust/players/bots/catalogue.rs")


def test_no_list_of_bot_names_outside_the_catalogue() -> None:
    sources = _sources()
    assert any(p.suffix == ".js" for p in sources) and any(p.suffix == ".rs" for p in sources)
    found = [f"{p.relative_to(ROOT)}:{line}: {run}" for p in sources for line, run in _name_lists(p.read_text())]
    assert not found, "bot names listed outside rust/players/bots/catalogue.rs:\n" + "\n".join(found)


# ----- every door reads the catalogue -----------------------------------------------------------


def test_python_lists_come_from_the_catalogue() -> None:
    entries = catalogue()
    assert BUILTIN_BOTS == NAMES == tuple(b.name for b in entries)
    assert tuple(b.name for b in entries if b.searches) == SEARCHING_BOTS
    assert set(LEVELS) == {b.name for b in entries if b.level}
    assert [info(n).strength for n in LEVELS] == sorted(info(n).strength for n in LEVELS)
    assert sorted(b.strength for b in entries) == list(range(1, len(entries) + 1))
    with pytest.raises(dataclasses.FrozenInstanceError):
        entries[0].name = "x"  # type: ignore[misc]
    with pytest.raises(ValueError, match="unknown bot 'chess'"):
        info("chess")


@pytest.mark.parametrize("name", NAMES)
def test_every_entry_describes_the_bot_it_builds(name: str) -> None:
    entry = info(name)
    bot = make(name, seed=1)
    assert bot.name == name and entry.description
    # What the bot reports is what the catalogue says its defaults are.
    for key, value in bot.options.items():
        assert entry.option(key).default == value, key
    for o in entry.options:
        assert o.help and o.bounds
        if o.kind in ("int", "float"):
            assert o.min is not None and o.max is not None and o.min <= o.max
            # Both bounds are accepted (above an open lower bound), one step past each is not.
            low = o.min + (0.5 if o.min_open else 0)
            high = o.max if o.kind == "float" else int(o.max)
            for value in (low if o.kind == "float" else int(low), high):
                # A search needs some budget: zero iterations need a time, and a zero time iterations.
                other = {"iterations": "time_ms", "time_ms": "iterations"}.get(o.name)
                extra = {other: 5} if other and value == 0 else {}
                make(name, **{o.name: value, **extra})
            with pytest.raises(BotOptionError, match=rf"{o.name} must be .*{re.escape(o.bounds)}"):
                make(name, **{o.name: o.max + 1})
        else:
            for choice in o.choices:
                make(name, **{o.name: choice.replace("N", "4")})
            with pytest.raises(BotOptionError, match=re.escape(o.bounds)):
                make(name, **{o.name: "nonsense"})
    # A spec's text form reads back to the same bot.
    assert parse_bot(bot.spec).options == bot.options


def test_option_errors_name_the_option_and_the_bounds() -> None:
    with pytest.raises(BotOptionError, match="the greedy bot takes no option iterations: its options are swap"):
        make("greedy", iterations=5)
    for name, key, value, bounds in [
        ("expert", "endgame", 10_000, "0..=462"),
        ("hard", "endgame", 2**40, "0..=462"),
        ("medium", "rerank", 5_000, "0..=1024"),
        ("easy", "temperature", 1e6, "0..=100"),
    ]:
        with pytest.raises(BotOptionError, match=f"{name} option {key} must be .*{re.escape(bounds)}"):
            make(name, **{key: value})
    with pytest.raises(BotOptionError, match="swap must be auto or never"):
        make("scarcity", swap="sometimes")
    assert make("scarcity", swap="auto").options == {}
    with pytest.raises(BotOptionError, match="not an int"):
        parse_bot("mcts:iterations=lots")
    with pytest.raises(TypeError, match="a bot spec is a str"):
        parse_bot(None)  # type: ignore[arg-type]
    assert issubclass(BotOptionError, ValueError) and genial.BotOptionError is BotOptionError


def test_genial_bots_lists_the_catalogue_and_help_points_to_it() -> None:
    text = bots_catalogue_text()
    for b in catalogue():
        assert f"{b.name}: {b.description}" in text
        for o in b.options:
            assert f"    {o.name}=" in text
    short = bots_help()
    assert "genial bots" in short and all(b.name in short for b in catalogue())
    assert not any(b.description in short for b in catalogue())


def test_web_lobby_gets_the_catalogue() -> None:
    lobby = bot_catalogue()
    assert [b["name"] for b in lobby] == list(NAMES)
    for b, entry in zip(lobby, catalogue()):
        assert b["description"] == entry.description and b["searches"] == entry.searches
        assert [o["name"] for o in b["option_specs"]] == [o.name for o in entry.options]
        assert b["options"] == make(entry.name).options


def test_docs_table_is_the_catalogue() -> None:
    hooks = load_script("genial_docs_hooks", ROOT / "docs/hooks/genial_docs.py")
    page = (ROOT / "docs/bots.md").read_text()
    assert "<!-- genial:bot-table -->" in page
    table = hooks.expand_markers("<!-- genial:bot-table -->", "bots.md")
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert [r.split("`")[1] for r in rows] == list(NAMES)
    for row, b in zip(rows, catalogue()):
        assert b.description in row and all(f"`{o.name}`" in row for o in b.options)


def test_core_catalogue_is_the_source() -> None:
    assert tuple(e["name"] for e in _core.bot_catalogue()) == NAMES
    assert _core.parse_bot_spec("mcts:iterations=7,playout=sample3") == (
        "mcts",
        {"iterations": 7, "playout": "sample3"},
    )


# ----- a view of a seat that is not to move is refused ----------------------------------------


def _view_of_waiting_seat(players: int = 2) -> tuple[genial.Game, GameView]:
    game = genial.Game(players, seed=5)
    waiting = (game.current_player + 1) % players
    return game, GameView(game, waiting)


@pytest.mark.parametrize("name", NAMES)
def test_every_bot_refuses_a_view_of_a_seat_not_to_move(name: str) -> None:
    game, view = _view_of_waiting_seat()
    before = game.to_json()
    bot = make(name, seed=2, **({"iterations": 5} if name in SEARCHING_BOTS else {}))
    with pytest.raises(NotYourTurnError, match=f"seat {view.seat} is not to move \\(seat {game.current_player} is\\)"):
        bot.choose(view)
    assert issubclass(NotYourTurnError, ValueError)
    assert game.to_json() == before
    # The seat to move's own view is fine, and so is the game itself.
    assert bot.choose(GameView(game)) in game.legal_moves()
    assert bot.choose(game) in game.legal_moves()


def test_analyse_refuses_a_view_of_a_seat_not_to_move() -> None:
    game, view = _view_of_waiting_seat(3)
    with pytest.raises(NotYourTurnError, match="is not to move"):
        genial.analyse(view, iterations=5)
    assert genial.analyse(GameView(game), iterations=5).player == game.current_player

"""The facts the code decides and the pages say too are the code's: the observation's size,
a level's budget, the rule options, a rule set's text form. Each page writes them between
fact markers, or as a whole text form, and ``python docs/hooks/genial_docs.py`` rewrites
them from the code (`refresh_facts`); this fails while one is stale, and on a copy written
outside a marker, which nothing would keep current. So a new rule option or another budget
needs no edit of a page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import genial
import pytest
from conftest import ROOT, load_script
from genial.observation import FEATURES, OBS_SIZE


def _hooks() -> Any:
    return load_script("genial_docs_hooks", ROOT / "docs/hooks/genial_docs.py")


HOOKS = _hooks()
PAGES = HOOKS.fact_pages()


def test_the_pages_are_the_ones_that_say_facts() -> None:
    assert {"README.md", "ARCHITECTURE.md", "docs/learning.md", "python/genial/observation.py"} <= set(PAGES)
    assert "CHANGELOG.md" not in PAGES  # what was true then


@pytest.mark.parametrize("page", PAGES)
def test_every_restated_fact_is_current(page: str) -> None:
    text = (ROOT / page).read_text(encoding="utf-8")
    assert HOOKS.refresh_facts(text) == text, f"{page} says a stale fact: run python docs/hooks/genial_docs.py"


def _outside_markers(text: str) -> str:
    return re.sub(r"<!-- genial:fact [^ ]+ -->.*?<!-- /genial:fact -->", "", text, flags=re.DOTALL)


def _copies() -> dict[str, re.Pattern[str]]:
    """What a page may not write outside a fact marker: the observation's sizes, and each
    level's budget written as ``a/b/c`` or ``a / b / c``."""
    found = {
        "obs-size": re.compile(rf"(?<![\w.,]){OBS_SIZE}(?![\w,])"),
        "obs-features": re.compile(rf"(?<![\w.,]){FEATURES}(?![\w,])"),
    }
    for bot in genial.bots.catalogue():
        for option in bot.options:
            if option.by_players is not None:
                found[f"budget:{bot.name}"] = re.compile(r"\b" + r" ?/ ?".join(map(str, option.by_players)) + r"\b")
    return found


@pytest.mark.parametrize("page", PAGES)
def test_no_page_copies_a_fact_outside_a_marker(page: str) -> None:
    prose = _outside_markers((ROOT / page).read_text(encoding="utf-8"))
    for name, pattern in _copies().items():
        m = pattern.search(prose)
        assert m is None, (
            f"{page} writes {m.group(0)!r} by hand: write <!-- genial:fact {name} --><!-- /genial:fact -->"
        )


def test_refresh_writes_the_code_s_facts_and_keeps_a_shortened_form() -> None:
    stale = "<!-- genial:fact obs-size -->12<!-- /genial:fact --> entries"
    assert HOOKS.refresh_facts(stale) == f"<!-- genial:fact obs-size -->{OBS_SIZE}<!-- /genial:fact --> entries"
    # A text form written before an option existed gains it; a shortened one stays.
    old = "`version=1 variant=duel players=2`"
    assert HOOKS.refresh_facts(old) == f"`{genial.Rules('duel').to_text()}`"
    short = "rules version=1 variant=standard players=2 ..."
    assert HOOKS.refresh_facts(short) == short
    hard = genial.bots.info("hard").option("iterations").by_players
    assert HOOKS.refresh_facts("<!-- genial:fact budget:hard --><!-- /genial:fact -->") == (
        "<!-- genial:fact budget:hard -->" + " / ".join(map(str, hard or ())) + "<!-- /genial:fact -->"
    )
    values = HOOKS.refresh_facts("<!-- genial:fact rule-option-values --><!-- /genial:fact -->")
    assert all(f"`{o['name']}`" in values for o in genial.Rules.options())
    with pytest.raises(ValueError, match="unknown fact"):
        HOOKS.refresh_facts("<!-- genial:fact no-such-fact -->1<!-- /genial:fact -->")


def test_the_checks_catch_a_copy_by_hand(tmp_path: Path) -> None:
    """A check that cannot fail is no check."""
    prose = f"a vector of {OBS_SIZE} entries"
    assert any(p.search(_outside_markers(prose)) for p in _copies().values())
    marked = f"a vector of <!-- genial:fact obs-size -->{OBS_SIZE}<!-- /genial:fact --> entries"
    assert not any(p.search(_outside_markers(marked)) for p in _copies().values())

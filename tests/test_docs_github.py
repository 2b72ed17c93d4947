"""The Markdown pages read where they are read as they are (on GitHub, where the README's
links go), not only on the built site: no generated part is blank there (each marker holds
a link to the site's part, or to the file it includes; a fact marker, the value itself),
and no API cross-reference shows as literal brackets (mkdocs-autorefs' ``[text][genial.x]``
form, which only the site resolves)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ROOT, load_script

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "reference").glob("*.md"))]
_FENCE = re.compile(r"^ *```.*?^ *```", re.DOTALL | re.MULTILINE)


def _prose(text: str) -> str:
    """The page without its code: fenced blocks and inline code spans."""
    return re.sub(r"`[^`\n]*`", "code", _FENCE.sub("", text))


def _hooks():  # type: ignore[no-untyped-def]
    return load_script("genial_docs_hooks", ROOT / "docs/hooks/genial_docs.py")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_reference_shows_as_literal_brackets(page: Path) -> None:
    found = re.findall(r"\[[^\[\]\n]+\]\[[^\[\]\n]*\]", _prose(page.read_text()))
    assert not found, f"{page.name}: write these as plain links ([text](address)): {found}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_generated_part_is_blank_where_the_page_is_read_as_it_is(page: Path) -> None:
    text = page.read_text()
    prose = _FENCE.sub("", text)
    assert not re.search(r"^\s*--8<--", prose, re.MULTILINE), f"{page.name}: a snippet include shows as text"
    openings = re.findall(r"<!-- genial:([a-z-]+)(?: [^ ]+)? -->", prose)
    pairs = re.findall(r"<!-- genial:([a-z-]+)(?: [^ ]+)? -->(.*?)<!-- /genial:\1 -->", prose, re.DOTALL)
    assert len(pairs) == len(openings), f"{page.name}: a marker without its closing one shows nothing on GitHub"
    for kind, body in pairs:
        if kind == "fact":  # the value itself, kept current by tests/test_doc_facts.py
            assert body.strip(), (page.name, kind, body)
            continue
        assert re.fullmatch(r"\[[^\]]+\]\(https://[^)\s]+\)", body.strip()), (page.name, kind, body)


@pytest.mark.parametrize("page", sorted((ROOT / "docs").glob("*.md")), ids=lambda p: p.name)
def test_the_links_in_the_markers_are_current(page: Path) -> None:
    """Each marker's link goes to the site's page and the heading above it: what
    ``python docs/hooks/genial_docs.py`` writes (run it after moving a marker)."""
    text = page.read_text()
    assert _hooks().link_to_site(text, page.name) == text, f"run python docs/hooks/genial_docs.py ({page.name})"


def test_the_site_still_shows_the_generated_parts() -> None:
    hooks = _hooks()
    rules = hooks.expand_markers((ROOT / "docs" / "rules.md").read_text(), "rules.md")
    assert (ROOT / "RULES.md").read_text() in rules and "<!-- genial:" not in rules
    cli = hooks.expand_markers((ROOT / "docs" / "cli.md").read_text(), "cli.md")
    assert "$ genial simulate --help\nusage: genial simulate" in cli and "<!-- /genial:" not in cli
    examples = hooks.expand_markers((ROOT / "docs" / "examples.md").read_text(), "examples.md")
    assert '??? example "examples/custom_bot.py"\n\n    ```python\n    """' in examples
    # A single marker (as the tests of the tables pass one) expands as before.
    assert hooks.expand_markers("<!-- genial:variants-table -->", "x.md").startswith("| variant |")


def test_slugs_are_those_of_the_site() -> None:
    slug = _hooks().slug
    assert slug("`genial simulate`") == "genial-simulate"
    assert slug("On a Ray cluster, from the command line") == "on-a-ray-cluster-from-the-command-line"

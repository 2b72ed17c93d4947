"""The documentation site: its examples run as written, and it builds strictly with a
complete API reference (the compiled classes documented from `_core.pyi`)."""

from __future__ import annotations

import doctest
import html
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, load_script

DOCS = ROOT / "docs"
PAGES = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))


@pytest.mark.parametrize("page", [p for p in PAGES if ">>>" in (DOCS / p).read_text()])
def test_page_examples_run(page: str) -> None:
    result = doctest.testfile(str(DOCS / page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_every_page_is_in_the_navigation() -> None:
    config = (ROOT / "mkdocs.yml").read_text()
    for page in PAGES:
        assert f": {page}\n" in config, f"docs/{page} is not in mkdocs.yml's nav"


def _load_hooks() -> object:
    return load_script("genial_docs_hooks", DOCS / "hooks" / "genial_docs.py")


def test_docstring_markup_becomes_markdown() -> None:
    pytest.importorskip("griffe")
    hooks = _load_hooks()
    text = "\n".join(
        [
            "Intro.",
            "",
            "===== =====",
            "name  value",
            "===== =====",
            "a     one",
            "      more",
            "b     two",
            "===== =====",
            "",
            "Format::",
            "",
            '    {"x": 1}',
            "",
            ">>> 1 + 1",
            "2",
        ]
    )
    md = hooks.markdown_from_docstring(text)  # type: ignore[attr-defined]
    assert "| name | value |" in md and "| a | one more |" in md and "| b | two |" in md
    assert 'Format:\n\n```text\n{"x": 1}\n```' in md
    assert "```pycon\n>>> 1 + 1\n2\n```" in md


def test_generated_observation_table_follows_the_core() -> None:
    pytest.importorskip("griffe")
    from genial.observation import LAYOUT, OBS_SIZE

    table = _load_hooks()._observation_table()  # type: ignore[attr-defined]
    rows = [line for line in table.splitlines()[2:] if line.startswith("| `")]
    assert [r.split("`")[1] for r in rows] == list(LAYOUT)
    assert f"**{OBS_SIZE}**" in table


def test_site_builds_strictly(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings_handlers.python")
    site = tmp_path / "site"
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": str(Path(sys.executable).parent)},
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    reference = (site / "reference" / "genial" / "index.html").read_text()
    # Compiled classes, read from the stub: their members and constructors are there.
    for anchor in (
        "genial.Move.parse",
        "genial.Move.cells",
        "genial.Board.place",
        "genial.Board.free_pairs",
        "genial.Tile.kind",
        "genial.LegalMoves.index",
        "genial.PlayResult.gains_by_color",
        "genial.Game.legal_moves",
        "genial.Game.to_json",
    ):
        assert f'id="{anchor}"' in reference, anchor
    text = html.unescape(re.sub(r"<[^>]+>", "", reference))
    assert "Board(players: int | None = None)" in text  # constructors, from the stub's __new__
    assert "Tile(a: Color | int | str, b: Color | int | str)" in text
    variants = (site / "reference" / "variants" / "index.html").read_text()
    for anchor in ("genial.variants.Rules.all", "genial.variants.Rules.side_of", "genial.variants.variants"):
        assert f'id="{anchor}"' in variants, anchor
    rules = (site / "rules" / "index.html").read_text()
    assert "Decisions the engine takes" in rules  # RULES.md, included
    cli = (site / "cli" / "index.html").read_text()
    assert "usage: genial simulate" in cli  # help text generated at build time
    # The pages link the API by the site's address (so that the links work on GitHub too):
    # every such link of the built site lands on a page and an anchor that it has.
    prefix = "https://genial-engine.github.io/genial/"
    ids: dict[Path, set[str]] = {}
    links = 0
    for page in site.rglob("*.html"):
        for href in re.findall(rf'href="{re.escape(prefix)}([^"]*)"', page.read_text()):
            path, _, anchor = href.partition("#")
            target = site / path / "index.html"
            assert target.exists(), (page, href)
            if anchor:
                if target not in ids:
                    ids[target] = set(re.findall(r'id="([^"]+)"', target.read_text()))
                assert anchor in ids[target], (page, href)
            links += 1
    assert links > 100

"""BENCHMARKS.md stays a page users read: at most 400 lines, every table of figures under a
``Command:`` line and a ``Measured:`` line with its date, every area linked to its method in
the dated history (benches/results/), and every relative link landing on a file and heading
that exist. Headings' anchors are computed as GitHub computes them, since that is where the
README's links are followed."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

from conftest import ROOT

PAGE = ROOT / "BENCHMARKS.md"
HISTORY = ROOT / "benches" / "results" / "HISTORY.md"
MAX_LINES = 400

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")


def _prose(text: str) -> list[tuple[int, str]]:
    """(line number, line) of the lines outside fenced code blocks."""
    lines, inside = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            lines.append((number, line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text: lower case, markup and punctuation dropped
    (letters, digits, ``_``, ``-`` and spaces kept), spaces turned into hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link reads as its text
    text = re.sub(r"<[^>]+>", "", text).lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor of a Markdown file: its headings' (a repeated one gets ``-1``, ``-2``, as
    on GitHub) and explicit ``id``/``name`` attributes."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    text = path.read_text()
    for _, line in _prose(text):
        match = _HEADING.match(line)
        if match:
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    found.update(re.findall(r"""<a\s+(?:id|name)=["']([^"']+)["']""", text))
    return found


def _sections(text: str, level: int) -> list[tuple[str, list[tuple[int, str]]]]:
    """The page cut at its headings of ``level`` or above: (heading, its prose lines)."""
    sections: list[tuple[str, list[tuple[int, str]]]] = [("(top)", [])]
    for number, line in _prose(text):
        match = _HEADING.match(line)
        if match and len(match.group(1)) <= level:
            sections.append((match.group(2), []))
        else:
            sections[-1][1].append((number, line))
    return sections


def _tables(lines: list[tuple[int, str]]) -> list[tuple[int, list[str]]]:
    """(first line number, rows) of each table among ``lines``."""
    tables: list[tuple[int, list[str]]] = []
    previous = -2
    for number, line in lines:
        if line.lstrip().startswith("|"):
            if number == previous + 1 and tables:
                tables[-1][1].append(line)
            else:
                tables.append((number, [line]))
            previous = number
    return tables


def _holds_a_figure(rows: list[str]) -> bool:
    # Past the header and the |---| line: a digit in a cell is a figure.
    return any(re.search(r"\d", row) for row in rows[2:])


def test_the_page_is_at_most_400_lines() -> None:
    lines = PAGE.read_text().splitlines()
    assert len(lines) <= MAX_LINES, f"BENCHMARKS.md has {len(lines)} lines; move detail to {HISTORY.name}"


def test_every_table_of_figures_has_its_command_and_date_above_it() -> None:
    """The convention: within the subsection a table of figures sits in (since the last
    heading of any level), a line starting ``Command:`` (or ``Commands:``) with the command
    in backticks or a fenced block, and a ``Measured:`` line with an ISO date, come before it."""
    text = PAGE.read_text()
    all_lines = text.splitlines()
    missing = []
    for heading, lines in _sections(text, 6):
        for start, rows in _tables(lines):
            if not _holds_a_figure(rows):
                continue
            # Above the table and below the heading, fenced blocks included.
            first = lines[0][0] if lines else start
            above = all_lines[first - 1 : start - 1]
            joined = "\n".join(above)
            has_command = any(re.match(r"^Commands?:", line) and ("`" in line or "```" in joined) for line in above)
            has_date = any(line.startswith("Measured:") and _DATE.search(line) for line in above)
            if not (has_command and has_date):
                missing.append(f"line {start} under '{heading}': command {has_command}, date {has_date}")
    assert not missing, "tables of figures without a Command: and a dated Measured: line above them:\n" + "\n".join(
        missing
    )


def test_every_area_links_to_its_method_in_the_history() -> None:
    text = PAGE.read_text()
    unlinked = [
        heading
        for heading, lines in _sections(text, 2)[2:]  # past the top and the intro
        if _tables(lines) and not any("benches/results/" in line for _, line in lines)
    ]
    assert not unlinked, f"areas with figures but no link to their method in benches/results/: {unlinked}"


def _relative_links(path: Path) -> list[tuple[int, str]]:
    return [
        (number, target)
        for number, line in _prose(path.read_text())
        for target in _LINK.findall(re.sub(r"`[^`]*`", "", line))
        if not re.match(r"^[a-z]+:", target)
    ]


def test_every_relative_link_lands_on_a_file_and_anchor_that_exist() -> None:
    broken = []
    for page in (PAGE, HISTORY):
        for number, target in _relative_links(page):
            file_part, _, anchor = target.partition("#")
            destination = (page.parent / unquote(file_part)).resolve() if file_part else page
            if not destination.exists():
                broken.append(f"{page.name}:{number}: {target} (no such file)")
            elif anchor and destination.suffix == ".md" and unquote(anchor) not in anchors(destination):
                broken.append(f"{page.name}:{number}: {target} (no such anchor)")
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_links_into_the_benchmarks_pages_from_the_docs_land() -> None:
    """README, CONTRIBUTING, ARCHITECTURE and docs/ link to the page's and the history's
    anchors; each must exist."""
    pages = [
        ROOT / "README.md",
        ROOT / "CONTRIBUTING.md",
        ROOT / "ARCHITECTURE.md",
        *sorted((ROOT / "docs").glob("*.md")),
    ]
    broken = []
    for page in pages:
        for number, target in _relative_links(page):
            file_part, _, anchor = target.partition("#")
            if not file_part.endswith(("BENCHMARKS.md", "HISTORY.md")):
                continue
            destination = (page.parent / file_part).resolve()
            if not destination.exists() or (anchor and anchor not in anchors(destination)):
                broken.append(f"{page.relative_to(ROOT)}:{number}: {target}")
    assert not broken, "broken links into the benchmarks pages:\n" + "\n".join(broken)


def test_the_slug_is_githubs() -> None:
    assert slug("`genial.VecEnv` (256 envs, Rust core, GIL released)") == "genialvecenv-256-envs-rust-core-gil-released"
    assert slug("Issue 32's time targets, measured in paired chunks (2026-11-28, evening)") == (
        "issue-32s-time-targets-measured-in-paired-chunks-2026-11-28-evening"
    )
    assert slug("Side by side with 7cee5ee and thomasmarsh/mcts") == "side-by-side-with-7cee5ee-and-thomasmarshmcts"

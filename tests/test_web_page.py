"""The page knows no rule: its JavaScript (``python/genial/web/static/*.js``) holds no colour
letters, hex directions, variant or bot names, and no team seat arithmetic. Every such fact
reaches it in a payload of `genial.web.views`. The scanner is checked on planted lines, so
that it cannot pass by matching nothing."""

from __future__ import annotations

import re
from pathlib import Path

import genial
import pytest

STATIC = Path(genial.__file__).resolve().parent / "web" / "static"
LETTERS = "".join(c.letter for c in genial.Color)


def _quoted(words: list[str]) -> str:
    return r"""["'`](?:""" + "|".join(map(re.escape, words)) + r""")["'`]"""


RULE_FACTS: dict[str, re.Pattern[str]] = {
    # A letter table ("ROYGBP", ["R", "O", ...], {R: 0, ...}) or a move's text built by hand.
    "colour letters": re.compile(
        rf"""["'`][{LETTERS}]{{3,}}["'`]|(?:["'][{LETTERS}]["']\s*,\s*){{2,}}|\b[{LETTERS}]\s*:\s*\d"""
        r"""|\$\{[^}]*\},\$\{[^}]*\}\+"""
    ),
    # A hex direction as a literal vector: [1, 0], [0, -1], [-1, 1], ... (not the centre [0, 0])
    "hex directions": re.compile(r"\[\s*(?!0\s*,\s*0\s*\])-?[01]\s*,\s*-?[01]\s*\]"),
    "variant names": re.compile(_quoted([v.name for v in genial.variants()])),
    "bot names": re.compile(_quoted(list(genial.bots.BUILTIN_BOTS))),
    # Partners two seats apart: seat + 2, % 2, "AB"[...].
    "team seats": re.compile(r"\b\w+\s*\+\s*2\b|%\s*2\b|[\"']AB[\"']\s*\["),
}


def scan(text: str) -> list[tuple[str, int, str]]:
    """(fact, line number, line) for every line of JavaScript that states a rule fact;
    comments are skipped."""
    found = []
    for n, line in enumerate(text.splitlines(), start=1):
        code = line.split("//", 1)[0]
        for fact, pattern in RULE_FACTS.items():
            if pattern.search(code):
                found.append((fact, n, line.strip()))
    return found


def test_the_page_has_javascript_to_scan() -> None:
    files = sorted(STATIC.glob("*.js"))
    assert len(files) >= 10 and sum(len(f.read_text()) for f in files) > 20_000


@pytest.mark.parametrize("path", sorted(STATIC.glob("*.js")), ids=lambda p: p.name)
def test_the_javascript_states_no_rule_fact(path: Path) -> None:
    assert scan(path.read_text()) == []


@pytest.mark.parametrize(
    ("line", "fact"),
    [
        ('const LETTERS = "ROYGBP";', "colour letters"),
        ("const L = ['R', 'O', 'Y'];", "colour letters"),
        ("const c = { R: 0, O: 1 };", "colour letters"),
        ("return `${a}${q},${r}+${b}${q2},${r2}`;", "colour letters"),
        ("const DIRS = [[1, 0], [1, -1]];", "hex directions"),
        ("if (d === [0,-1]) go();", "hex directions"),
        ('if (state.variant === "duel") x();', "variant names"),
        ("const solo = v.name === 'solo';", "variant names"),
        ('select("greedy");', "bot names"),
        ("const owners = [t, t + 2];", "team seats"),
        ("const team = seat % 2;", "team seats"),
        ('const label = "AB"[g];', "team seats"),
    ],
)
def test_the_scanner_finds_planted_rule_facts(line: str, fact: str) -> None:
    assert fact in {f for f, _, _ in scan(line)}


def test_the_scanner_leaves_ordinary_code_alone() -> None:
    ok = [
        "const n = rows.length + 1;",
        "el.append(h('p', {}, 'Rotate'));",
        'const phase = st.phase === "swap_offer";',
        "for (let i = 0; i < 6; i += 2) draw(i);",
        "// [1, 0] in a comment",
        "const [q, r] = this.cursor || [0, 0];",
    ]
    assert scan("\n".join(ok)) == []

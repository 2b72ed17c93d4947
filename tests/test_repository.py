"""The repository's own promises, checked: ARCHITECTURE.md maps every module and says how to
extend the project, `make lint` and `make test` cover the page's JavaScript, `.ci/run` runs
them (with Chromium and node where missing), and commit subjects fit in 72 characters."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = (ROOT / "ARCHITECTURE.md").read_text()


def _recipe(target: str) -> str:
    """The prerequisites and recipe lines of a Makefile target."""
    text = (ROOT / "Makefile").read_text()
    m = re.search(rf"^{re.escape(target)}:(.*)\n((?:\t.*\n)*)", text, re.M)
    assert m, f"no target {target} in the Makefile"
    return m.group(1) + "\n" + m.group(2)


def test_architecture_names_every_module() -> None:
    python = ROOT / "python" / "genial"
    missing = []
    for path in sorted(python.glob("*.py")):
        if path.name != "__main__.py" and f"`{path.name}`" not in ARCHITECTURE and path.name not in ARCHITECTURE:
            missing.append(str(path.relative_to(ROOT)))
    for path in sorted((python / "web").glob("*.py")):
        if path.stem != "__init__" and f"`{path.stem}`" not in ARCHITECTURE:
            missing.append(str(path.relative_to(ROOT)))
    for path in sorted((python / "web" / "static").glob("*.js")):
        if f"`{path.stem}`" not in ARCHITECTURE:
            missing.append(str(path.relative_to(ROOT)))
    for layer in ("rules", "players", "learning", "python"):
        if f"`rust/{layer}`" not in ARCHITECTURE:
            missing.append(f"rust/{layer}")
    assert missing == [], "ARCHITECTURE.md does not name these modules"


def test_architecture_says_what_each_layer_must_not_know_and_how_to_extend() -> None:
    assert "| layer | holds | must not know |" in ARCHITECTURE
    rows = [line for line in ARCHITECTURE.splitlines() if line.startswith("| `rust/") and line.count("|") == 4]
    assert {r.split("`")[1] for r in rows} >= {"rust/rules", "rust/players", "rust/learning", "rust/python"}
    for step in ("**A bot**", "**A rule option**", "**A command**", "**A page feature**"):
        assert step in ARCHITECTURE, step


def test_make_lint_runs_biome_and_make_test_runs_the_javascript_tests() -> None:
    assert "biome ci" in _recipe("lint")
    assert "test-js" in _recipe("test").split("\n")[0]
    assert "node --test tests/js/" in _recipe("test-js")
    assert sorted(p.name for p in (ROOT / "tests" / "js").glob("*.test.mjs"))


def test_ci_runs_lint_and_test_and_installs_chromium_and_node_where_missing() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    lines = [line.strip() for line in ci.splitlines()]
    assert "make lint" in lines and "make test" in lines
    assert re.search(r"if \[ ! -x /usr/bin/chromium \]; then[\s\S]*apt-get install -y -qq chromium", ci)
    assert re.search(r"command -v node[\s\S]*apt-get install -y -qq nodejs", ci)


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs the git history")
def test_commit_subjects_fit_in_72_characters() -> None:
    """From the commit the rule was set at (151544f) on, as `.ci/run` checks."""
    if subprocess.run(["git", "cat-file", "-e", "151544f^{commit}"], cwd=ROOT, capture_output=True).returncode:
        pytest.skip("a shallow clone without 151544f")
    subjects = subprocess.run(
        ["git", "log", "--format=%s", "151544f..HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert subjects and [s for s in subjects if len(s) > 72] == []

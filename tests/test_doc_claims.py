"""Claims of the README and docs/ that a command can check, checked: the subcommand table
and the dependencies are generated, what each ``make`` target installs is what
``make -n`` shows, and no page tells a reader of a checkout to install a package name that
is not published yet."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path
from types import ModuleType

import genial
import pytest
from conftest import ROOT, load_script
from genial.bots import GameView
from genial.cli import build_parser

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _hooks() -> ModuleType:
    return load_script("genial_docs_hooks", ROOT / "docs/hooks/genial_docs.py")


def _subcommands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return list(sub.choices)


def test_the_cli_page_lists_every_subcommand_from_the_parser() -> None:
    page = (ROOT / "docs/cli.md").read_text()
    assert "<!-- genial:cli-table -->" in page
    table = _hooks().expand_markers("<!-- genial:cli-table -->", "cli.md")
    listed = re.findall(r"^\| `genial ([a-z-]+)` \|", table, re.MULTILINE)
    assert listed == _subcommands() and "analyse" in listed
    # No count of the subcommands written by hand, anywhere.
    words = "two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[0-9]+"
    for path in PAGES:
        assert not re.search(rf"\b({words}) subcommands\b", path.read_text(), re.IGNORECASE), path.name
    # Every subcommand has its help on the page.
    for name in _subcommands():
        assert f"<!-- genial:cli-help {name} -->" in page, name


def test_the_dependencies_named_are_those_of_pyproject() -> None:
    with open(ROOT / "pyproject.toml", "rb") as f:
        deps = [re.match(r"[A-Za-z0-9_.-]+", d).group(0) for d in tomllib.load(f)["project"]["dependencies"]]  # type: ignore[union-attr]
    install = (ROOT / "docs/install.md").read_text()
    assert "<!-- genial:dependencies -->" in install
    named = _hooks().expand_markers("<!-- genial:dependencies -->", "install.md")
    assert re.findall(r"([a-z0-9_.-]+) \(`", named) == deps
    for path in PAGES:
        text = path.read_text()
        assert not re.search(r"only (runtime )?dependency", text), path.name
        assert "maturin and numpy only" not in text, path.name


def _make_n(target: str, tmp_path: Path) -> str:
    """What ``make TARGET`` would run on a bare clone: ``make -n`` with virtual
    environments that do not exist yet."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    out = subprocess.run(
        ["make", "-n", target, f"VENV={tmp_path}/venv", f"DIST_VENV={tmp_path}/venv-dist"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.parametrize(
    ("target", "installs", "never"),
    [
        ("demo", ["requirements-demo.txt"], ["requirements-dev.txt", "requirements-dist.txt"]),
        ("develop", ["requirements-demo.txt"], ["requirements-dev.txt"]),
        ("test-python", ["requirements-demo.txt", "requirements-dev.txt"], []),
        ("dist", ["requirements-dist.txt"], ["requirements-dev.txt", "requirements-demo.txt"]),
    ],
)
def test_what_each_make_target_installs_is_what_the_docs_say(
    target: str, installs: list[str], never: list[str], tmp_path: Path
) -> None:
    shown = _make_n(target, tmp_path)
    for name in installs:
        assert f"-r {name}" in shown, (target, name)
    for name in never:
        assert name not in shown, (target, name)
    install = (ROOT / "docs/install.md").read_text()
    claim = re.search(rf"^make {target}\s+# (.*)$", install, re.MULTILINE)
    if claim is not None:
        said = claim.group(1)
        assert ("development requirements" in said) == ("requirements-dev.txt" in installs), (target, said)


def test_the_dist_environment_holds_only_build_tools() -> None:
    wanted = {"maturin", "ziglang", "auditwheel"}
    lines = (ROOT / "requirements-dist.txt").read_text().splitlines()
    names = {
        re.match(r"[A-Za-z0-9_.-]+", line).group(0).lower()
        for line in lines
        if line.strip() and not line.startswith("#")
    }  # type: ignore[union-attr]
    assert names == wanted


def test_no_page_asks_a_checkout_to_install_an_unpublished_name() -> None:
    """``pip install "genial-engine[web]"`` fails until the first release: every such
    mention says so, next to the command that works from a checkout."""
    for path in PAGES:
        for m in re.finditer(r"pip install [\"']?genial-engine", path.read_text()):
            around = path.read_text()[max(0, m.start() - 300) : m.end() + 300]
            assert re.search(r"releas|package index", around), (path.name, around)


def test_a_determinized_copy_cannot_pop_as_the_bots_page_says() -> None:
    game = genial.Game(2, seed=1)
    game.play(game.legal_moves()[0])
    copy = GameView(game, 1).determinize(3)
    copy.play(copy.legal_moves()[0])
    with pytest.raises(ValueError, match="cannot take moves back"):
        copy.pop()
    page = (ROOT / "docs/bots.md").read_text()
    assert "`pop` raises `ValueError`" in page and "(`clone`, `play`, `pop`)" not in page


def test_the_readme_says_how_to_run_genial_after_make_demo_and_what_make_test_needs() -> None:
    readme = (ROOT / "README.md").read_text()
    assert ".venv/bin/genial" in readme and "source .venv/bin/activate" in readme
    for need in ("node", "20.19", "chromium", "GB"):
        assert need in readme, need

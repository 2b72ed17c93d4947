"""The package as an installed thing: its version, its place in the Gymnasium registry,
and what it says when an optional extra is missing."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib import metadata

import genial
import pytest
from genial.cli import main


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_version_comes_from_the_package_metadata() -> None:
    assert genial.__version__ == metadata.version("genial-engine")
    assert genial.__version__[0].isdigit()


def test_cli_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["--version"])
    assert exit.value.code == 0
    assert capsys.readouterr().out.strip() == f"genial {genial.__version__}"


@pytest.mark.parametrize("order", ["import genial, gymnasium", "import gymnasium, genial"])
def test_gymnasium_finds_the_env_after_import_genial(order: str) -> None:
    pytest.importorskip("gymnasium")
    proc = run_python(
        f"{order}\n"
        "env = gymnasium.make('genial/Ingenious-v0', players=3)\n"
        "obs, info = env.reset(seed=1)\n"
        "print(obs['observation'].shape, info['seat'])\n"
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"({genial.observation.OBS_SIZE},) 0"


def test_import_genial_does_not_import_gymnasium() -> None:
    proc = run_python("import sys, genial; print('gymnasium' in sys.modules)")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"


def test_import_genial_leaves_out_what_only_some_commands_need() -> None:
    """Every command-line run and every engine process imports genial: tqdm (with asyncio
    and ssl) comes with the first progress bar and importlib.metadata with the first read of
    ``__version__``, not with the import (about 0.1 s of CPU a process between them)."""
    heavy = ["tqdm", "asyncio", "ssl", "importlib.metadata", "gymnasium", "pettingzoo", "pyarrow"]
    proc = run_python(f"import sys, genial; print([m for m in {heavy!r} if m in sys.modules])")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
    proc = run_python("import genial, importlib.metadata as m; print(genial.__version__ == m.version('genial-engine'))")
    assert proc.stdout.strip() == "True", proc.stderr


def test_the_command_line_imports_tables_and_pictures_only_when_it_draws_them() -> None:
    """Every command and every `genial engine` process builds the whole parser: rich comes
    with the first table, and the pictures' escaping does not bring xml.sax with
    urllib.request (about 0.2 s of CPU a process between them)."""
    heavy = ["rich", "rich.console", "xml.sax.saxutils", "urllib.request", "http.client"]
    proc = run_python(
        f"import sys, genial.cli; genial.cli.build_parser(); print([m for m in {heavy!r} if m in sys.modules])"
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


@pytest.mark.parametrize(("module", "missing"), [("gymnasium", "gymnasium"), ("pettingzoo", "pettingzoo")])
def test_environments_without_the_extra_say_which_to_install(module: str, missing: str) -> None:
    proc = run_python(f"import sys; sys.modules[{missing!r}] = None\nimport genial.envs.{module}\n")
    assert proc.returncode != 0
    assert 'pip install "genial-engine[rl]"' in proc.stderr
    assert f"genial.envs.{module} needs" in proc.stderr


def test_demo_takes_the_player_count_from_the_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--variant", "solo", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "solo game, 1 random players" in out or "solo game, 1 random player" in out


def test_a_lookup_before_the_import_does_not_lose_the_registration() -> None:
    pytest.importorskip("gymnasium")
    proc = run_python(
        "import importlib.util, genial\n"
        "assert importlib.util.find_spec('gymnasium') is not None\n"
        "import gymnasium\n"
        "print(gymnasium.make('genial/Ingenious-v0').spec.id)\n"
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "genial/Ingenious-v0"


def check_metadata(meta: metadata.PackageMetadata) -> None:
    """What a package index shows of genial: where its code, docs and issues live, and the
    Python versions it runs on. The same check runs on the built wheel (.ci/wheel_smoke.py)."""
    urls = dict(entry.split(", ", 1) for entry in meta.get_all("Project-URL") or [])
    assert set(urls) >= {"Homepage", "Documentation", "Repository", "Issues"}, urls
    assert all(url.startswith("https://") for url in urls.values())
    assert urls["Issues"] == urls["Repository"] + "/issues"
    classifiers = meta.get_all("Classifier") or []
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert "Typing :: Typed" in classifiers
    assert meta["Requires-Python"] == ">=3.11"
    extras = set(meta.get_all("Provides-Extra") or [])
    assert {"rl", "render", "web", "examples"} <= extras
    assert any(r.startswith("matplotlib") and "extra == 'examples'" in r for r in meta.get_all("Requires-Dist") or [])


def test_the_installed_metadata_names_urls_classifiers_and_extras() -> None:
    check_metadata(metadata.metadata("genial-engine"))


def test_the_docs_link_is_the_one_the_readme_and_docs_use() -> None:
    from conftest import ROOT

    urls = dict(entry.split(", ", 1) for entry in metadata.metadata("genial-engine").get_all("Project-URL") or [])
    cargo = (ROOT / "Cargo.toml").read_text()
    assert f'documentation = "{urls["Documentation"]}"' in cargo
    assert f'repository = "{urls["Repository"]}"' in cargo


def test_the_demo_needs_no_development_tools() -> None:
    from conftest import ROOT

    demo = [line.split("#")[0].strip() for line in (ROOT / "requirements-demo.txt").read_text().splitlines()]
    names = {line.split(">")[0].split("=")[0].split("<")[0] for line in demo if line}
    assert names == {"maturin", "numpy"}
    makefile = (ROOT / "Makefile").read_text()
    demo_rule = makefile.split("\ndemo:", 1)[1].split("\n\n", 1)[0]
    assert "$(STAMP)" not in demo_rule and "requirements-dev" not in demo_rule
    build_rule = makefile.split("\n$(BUILD):", 1)[1].split("\n", 1)[0]
    assert "$(STAMP)" not in build_rule


def test_the_release_workflow_builds_every_platform_and_says_it_has_not_run() -> None:
    from conftest import ROOT

    text = (ROOT / ".github" / "workflows" / "release.yml").read_text()
    assert "It has never run." in text and "maturin generate-ci github" in text
    # Never on a push: a workflow that has not run once does not build or publish by itself.
    on = text.split("\non:\n", 1)[1].split("\npermissions:", 1)[0]
    assert "tags:" in on and "workflow_dispatch" in on and "branches" not in on and "pull_request" not in on
    for job in ("linux:", "musllinux:", "windows:", "macos:", "sdist:"):
        assert f"\n  {job}" in text, job
    assert "manylinux: 2014" in text or "manylinux: '2014'" in text or "manylinux2014" in text


def test_no_build_of_the_core_may_hold_unsafe_code() -> None:
    """`#![forbid(unsafe_code)]` stands at the crate root for every build (the bindings are
    a module of the same crate), and no source file holds an `unsafe` block."""
    import re

    from conftest import ROOT

    lib = (ROOT / "rust" / "lib.rs").read_text()
    assert re.search(r"^#!\[forbid\(unsafe_code\)\]$", lib, re.M), "forbid must not depend on a cfg"
    manifest = (ROOT / "Cargo.toml").read_text()
    assert 'path = "rust/lib.rs"' in manifest
    for path in (ROOT / "rust").rglob("*.rs"):
        code = re.sub(r"//.*", "", path.read_text())
        assert not re.search(r"\bunsafe\s*(\{|fn\b|impl\b)", code), path


def test_markdown_tables_have_a_header_row() -> None:
    """Every table of the docs and the top-level pages has a header with text in it (a table
    whose header row is empty renders as a blank bar)."""
    from conftest import ROOT

    pages = [*sorted((ROOT / "docs").rglob("*.md")), *sorted(ROOT.glob("*.md"))]
    tables = 0
    for page in pages:
        lines = page.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines[1:], start=1):
            if re.fullmatch(r"\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*", line):
                tables += 1
                header = [cell.strip() for cell in lines[i - 1].strip().strip("|").split("|")]
                assert any(header), f"{page.name}:{i}: a table with an empty header row"
    assert tables > 20


def test_the_levels_guide_page_has_the_strength_table_and_time_per_move() -> None:
    from conftest import ROOT

    text = (ROOT / "docs" / "levels.md").read_text(encoding="utf-8")
    assert "levels.md" in (ROOT / "mkdocs.yml").read_text()
    for level in ("easy", "medium", "hard", "expert"):
        assert f"`{level}`" in text, level
    assert "analyse" in text and "median ms" in text and "95 % CI" in text

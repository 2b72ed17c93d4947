"""The GitHub workflows: ``ci.yml`` runs ``.ci/run`` by itself on every push and pull
request, ``docs.yml`` builds and publishes the site, and actionlint finds nothing wrong in
any workflow (actionlint comes with requirements-dev.txt)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

WORKFLOWS = ROOT / ".github" / "workflows"


def _actionlint() -> str:
    found = shutil.which("actionlint", path=str(Path(sys.executable).parent)) or shutil.which("actionlint")
    assert found, "actionlint is missing: it comes with requirements-dev.txt (make test installs it)"
    return found


def _on(text: str) -> str:
    """A workflow's ``on:`` block."""
    return text.split("\non:\n", 1)[1].split("\n\n", 1)[0]


def test_every_workflow_passes_actionlint() -> None:
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert {f.name for f in files} >= {"ci.yml", "docs.yml", "release.yml"}
    done = subprocess.run(
        [_actionlint(), "-no-color", *map(str, files)], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_actionlint_finds_a_broken_workflow(tmp_path: Path) -> None:
    # The check checked: an unknown trigger and a job without steps are findings.
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    bad = tmp_path / ".github" / "workflows" / "bad.yml"
    bad.write_text("on:\n  pushed:\njobs:\n  x:\n    runs-on: ubuntu-24.04\n")
    done = subprocess.run([_actionlint(), "-no-color", str(bad)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "pushed" in done.stdout, done.stdout + done.stderr


def test_ci_runs_the_ci_script_on_every_push_and_pull_request() -> None:
    text = (WORKFLOWS / "ci.yml").read_text()
    on = _on(text)
    assert re.search(r"^  push:", on, re.MULTILINE) and re.search(r"^  pull_request:", on, re.MULTILINE)
    assert "branches" not in on  # every branch
    runs = re.findall(r"^\s+run: (.+)$", text, re.MULTILINE)
    assert "bash .ci/run" in runs, runs
    # Under CI=true the browser tests fail rather than skip, and the whole history is there
    # for .ci/run's check of the commit subjects.
    assert 'CI: "true"' in text and "fetch-depth: 0" in text
    assert (ROOT / ".ci" / "run").exists()


def test_the_docs_workflow_builds_the_site_and_publishes_it_where_the_readme_says() -> None:
    text = (WORKFLOWS / "docs.yml").read_text()
    assert "run: make docs" in text and "actions/deploy-pages@" in text and "path: site" in text
    url = re.search(r"https://[a-z-]+\.github\.io/[a-z-]+/", text)
    assert url, "the workflow names the site's address"
    assert url.group(0) in (ROOT / "README.md").read_text()
    assert f'Documentation = "{url.group(0)}"' in (ROOT / "pyproject.toml").read_text()

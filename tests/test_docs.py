"""The README's example and the package's docstrings run as written."""

from __future__ import annotations

import doctest
import subprocess
import sys

import genial
import genial.game
from conftest import ROOT


def test_readme_examples_run() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 5
    assert result.failed == 0


def test_module_docstrings_run() -> None:
    for module in (genial, genial.game):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, module.__name__


def test_stub_matches_the_extension() -> None:
    """`_core.pyi` describes exactly what the compiled extension exports."""
    proc = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "genial._core", "--ignore-missing-stub"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_package_type_checks() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "python/genial"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr

"""The README's example and the package's docstrings run as written."""

from __future__ import annotations

import doctest

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

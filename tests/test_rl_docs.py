"""The learning modules' docstring examples run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["genial.actions", "genial.observation", "genial.vecenv", "genial.envs.pettingzoo", "genial.envs.gymnasium"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    if name.startswith("genial.envs."):
        pytest.importorskip(name.rsplit(".", 1)[1])
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0

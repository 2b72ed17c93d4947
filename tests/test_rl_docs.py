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


def test_the_observation_table_matches_the_layout() -> None:
    """The block table in `genial.observation`'s documentation is the only one: it must
    list the core's blocks in order with their shapes."""
    import re

    from genial import Rules, _core, observation

    doc = observation.__doc__ or ""
    rows = re.findall(r"^(\w+)\s+\(([\w, ]+)\)", doc, flags=re.M)
    # R, the number of rule options, stands for it where the table would restate it.
    sizes = {"R": len(Rules.options())}
    table = [
        (name, tuple(sizes[x] if x in sizes else int(x) for x in shape.replace(" ", "").split(",") if x))
        for name, shape in rows
    ]
    core = [(name, tuple(shape)) for name, _, shape in _core.observation_layout()]
    assert table == core

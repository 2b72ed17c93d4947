"""The web layer stays in pieces a reader can hold (issue 44): no module of `genial.web` is
over `MAX_MODULE_LINES` lines and no class over `MAX_CLASS_LINES`, read from the source.
The Hub of 670 lines and 30 methods that mixed the lobby, the round, seats and engines is
what this keeps from coming back."""

from __future__ import annotations

import ast
from pathlib import Path

import genial

WEB = Path(genial.__file__).resolve().parent / "web"
MAX_MODULE_LINES = 600
MAX_CLASS_LINES = 300


def sizes(source: str) -> tuple[int, dict[str, int]]:
    """A module's lines and each class's (decorators and docstring included)."""
    tree = ast.parse(source)
    classes = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            classes[node.name] = (node.end_lineno or node.lineno) - first + 1
    return len(source.splitlines()), classes


def test_the_size_check_measures_modules_and_classes() -> None:
    lines, classes = sizes("import os\n\n\n@dataclass\nclass A:\n    x: int\n    y: int\n")
    assert lines == 7 and classes == {"A": 4}


def test_no_web_module_or_class_is_too_long() -> None:
    modules = sorted(WEB.glob("*.py"))
    assert len(modules) > 10
    too_long = []
    for path in modules:
        lines, classes = sizes(path.read_text())
        if lines > MAX_MODULE_LINES:
            too_long.append(f"{path.name}: {lines} lines")
        too_long += [f"{path.name}: class {c}: {n} lines" for c, n in classes.items() if n > MAX_CLASS_LINES]
    assert not too_long, too_long

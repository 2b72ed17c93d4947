"""The Python package's modules import each other without cycles.

Every import counts, at the top of a module or inside a function (a lazy import only
postpones a cycle); only the imports under ``if TYPE_CHECKING:``, which never run, are left
out. A cycle makes the order of loading matter and couples the modules on it, so each
module's job is understood only together with the others'.
"""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

PACKAGE = ROOT / "python" / "genial"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The package's modules that ``path`` imports when it runs."""
    return imports_in(path.read_text(), module_name(path), path.name == "__init__.py", modules)


def imports_in(source: str, here: str, is_package: bool, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that the source of module ``here`` imports when it runs."""
    package = here if is_package else here.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    found.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target in modules:
                found.add(target)
            for alias in node.names:  # `from . import records` imports the module records
                if f"{target}.{alias.name}" in modules:
                    found.add(f"{target}.{alias.name}")
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(source, here))
    found.discard(here)
    return found


def import_graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    graph = {module_name(p): imports_of(p, modules) for p in paths}
    # Importing a module runs its package's __init__ first: that is not a cycle of theirs.
    for name, targets in graph.items():
        targets.difference_update({t for t in targets if name.startswith(t + ".")})
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


# Cycles known and not yet removed, each with its reason; the test fails on any other, and
# on one of these once it is gone (so that the list only shrinks).
KNOWN: set[tuple[str, str]] = set()


def test_the_package_has_no_import_cycles() -> None:
    graph = import_graph()
    for a, b in KNOWN:
        assert b in graph[a] and a in graph[b], f"the known cycle {a} <-> {b} is gone: remove it from KNOWN"
        graph[a].discard(b)
    # The package's own entry point imports its submodules, which is fine; a submodule that
    # imports the package (`from . import __version__`) closes a loop through it.
    top = graph.pop("genial")
    assert top, "the graph was read"
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_lazy_imports() -> None:
    """A check that cannot fail is no check: the finder sees a cycle closed inside a
    function, and ignores one closed only under TYPE_CHECKING."""
    modules = {"genial.a", "genial.b"}
    graph = {
        "genial.a": imports_in("from .b import x\n", "genial.a", False, modules),
        "genial.b": imports_in("def f():\n    from .a import y\n", "genial.b", False, modules),
    }
    assert find_cycle(graph) == ["genial.a", "genial.b", "genial.a"]
    typing_only = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import y\n"
    graph["genial.b"] = imports_in(typing_only, "genial.b", False, modules)
    assert find_cycle(graph) is None
    graph["genial.b"] = imports_in("from . import a\n", "genial.b", False, modules)
    assert find_cycle(graph) == ["genial.a", "genial.b", "genial.a"]

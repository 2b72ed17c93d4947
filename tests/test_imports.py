"""The Python package's modules import each other without cycles.

Every import counts, at the top of a module or inside a function (a lazy import only
postpones a cycle); only the imports under ``if TYPE_CHECKING:``, which never run, are left
out. A cycle makes the order of loading matter and couples the modules on it, so each
module's job is understood only together with the others'.

The graph is read from the source (`ast`), so it holds what a module may import on any path,
not only what one run happened to import:

* ``import genial.a.b`` and ``from genial.a import b`` (``b`` a module) are edges to
  ``genial.a.b``, and to ``genial.a`` when that package is not the importer's own (importing a
  module runs its packages' ``__init__`` first);
* ``from genial.a import name`` (``name`` no module) is an edge to the package ``genial.a``:
  the name is read from its ``__init__``, which must have run. So ``from .. import
  __version__`` in a submodule is an edge to ``genial``, whose ``__init__`` imports most of
  the package: a cycle;
* the compiled extension ``genial._core`` is a module (a leaf: it imports nothing of the
  package);
* relative imports are resolved against the importer's package.

Cycles are its strongly connected components. `ALLOWED` lists the edges that may close one,
each with its reason; today it is empty.
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


def package_modules() -> set[str]:
    """Every module of the package: its Python files and the compiled extension (its stub)."""
    return {module_name(p) for p in PACKAGE.rglob("*.py")} | {module_name(p) for p in PACKAGE.rglob("*.pyi")}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The package's modules that ``path`` imports when it runs."""
    return imports_in(path.read_text(), module_name(path), path.name == "__init__.py", modules)


def imports_in(source: str, here: str, is_package: bool, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that the source of module ``here`` imports when it runs
    (see the module's documentation for what counts)."""
    package = here if is_package else here.rpartition(".")[0]
    found: set[str] = set()

    def add(target: str) -> None:
        if target not in modules:
            return
        found.add(target)
        # The packages between the top and the target run their __init__ first; the
        # importer's own packages are already running (or done), so they add no edge.
        parts = target.split(".")
        for k in range(2, len(parts)):
            outer = ".".join(parts[:k])
            if outer in modules and not (here + ".").startswith(outer + "."):
                found.add(outer)

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                # `from . import records` imports the module records; `from . import
                # __version__` reads a name from the package's __init__.
                add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in modules else target)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(source, here))
    found.discard(here)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = package_modules()
    graph = {module_name(p): imports_of(p, modules) for p in sorted(PACKAGE.rglob("*.py"))}
    graph.setdefault("genial._core", set())
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, with
    an explicit stack: the graph's depth is no concern of Python's recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(graph.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop(0)
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def describe(component: list[str], graph: dict[str, set[str]]) -> str:
    inside = set(component)
    edges = [f"{a} -> {b}" for a in component for b in sorted(graph[a] & inside)]
    return f"import cycle among {', '.join(component)}: " + "; ".join(edges)


# Edges that may close a cycle, each with its reason; the test fails on any other cycle, and
# on an edge listed here that no longer closes one (so that the list only shrinks). `Game`'s
# conveniences need none: `str(game)`, `Game.to_svg` and `Game._repr_svg_` import `render`
# and `svg` when called, and neither imports `game` back (they draw what they are handed),
# and `genial.review(game)` lives in `reviews`, above `game`, not as a method of `Game`.
ALLOWED: dict[tuple[str, str], str] = {}


def test_the_package_has_no_import_cycles() -> None:
    graph = import_graph()
    assert graph["genial"] and graph["genial.game"], "the graph was read"
    for (a, b), reason in ALLOWED.items():
        assert reason, f"{a} -> {b} is allowed without a reason"
        assert b in graph[a], f"{a} no longer imports {b}: remove it from ALLOWED"
        on_a_cycle = any(a in c and b in c for c in cycles(graph))
        assert on_a_cycle, f"{a} -> {b} closes no cycle any more: remove it from ALLOWED"
        graph[a] = graph[a] - {b}
    found = cycles(graph)
    assert not found, "\n".join(describe(c, graph) for c in found)


def _graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    modules = set(sources) | {"genial._core"}
    return {name: imports_in(text, name, is_package, modules) for name, (text, is_package) in sources.items()}


def test_the_cycle_finder_finds_lazy_imports() -> None:
    """A check that cannot fail is no check: the finder sees a cycle closed inside a
    function, and ignores one closed only under TYPE_CHECKING."""
    graph = _graph({"genial.a": ("from .b import x\n", False), "genial.b": ("def f():\n    from .a import y\n", False)})
    assert cycles(graph) == [["genial.a", "genial.b"]]
    typing_only = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import y\n"
    graph = _graph({"genial.a": ("from .b import x\n", False), "genial.b": (typing_only, False)})
    assert cycles(graph) == []
    graph = _graph({"genial.a": ("from .b import x\n", False), "genial.b": ("from . import a\n", False)})
    assert cycles(graph) == [["genial.a", "genial.b"]]


def test_the_cycle_finder_finds_a_cycle_through_a_package() -> None:
    """A submodule that reads a name from its package's ``__init__`` (``from .. import
    __version__``) depends on everything that ``__init__`` imports, itself included; a module
    that imports a submodule of another package runs that package's ``__init__`` first. The
    compiled extension is a module, not a name of the package."""
    graph = _graph(
        {
            "genial": ("from .results import R\n", True),
            "genial.results": ("def meta():\n    from . import __version__\n", False),
            "genial.stats": ("from . import _core\n", False),
        }
    )
    assert cycles(graph) == [["genial", "genial.results"]]
    assert graph["genial.stats"] == {"genial._core"}
    graph = _graph(
        {
            "genial.envs": ("from .spaces import S\n", True),
            "genial.envs.spaces": ("from ..game import G\n", False),
            "genial.game": ("def space():\n    from .envs.spaces import S\n", False),
        }
    )
    assert graph["genial.game"] == {"genial.envs", "genial.envs.spaces"}
    assert cycles(graph) == [["genial.envs", "genial.envs.spaces", "genial.game"]]

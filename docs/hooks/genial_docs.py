"""Build-time helpers of the documentation site (loaded by mkdocs.yml, never published).

Two jobs, both so that nothing the code already says is restated by hand:

* `DocstringMarkup`, a griffe extension: the package's docstrings are written to read well
  in ``help()`` and run as doctests, so they use a little reStructuredText (``>>>`` sessions
  without fences, ``text::`` before a literal block, ``=====`` simple tables). Before
  mkdocstrings renders a docstring as Markdown, these become fenced ``pycon`` blocks, fenced
  text blocks and Markdown tables. The docstrings themselves are not changed.
* mkdocs hooks that replace marker comments in the pages with text generated from the
  installed package at build time: ``genial ... --help`` output, the observation layout,
  a module's docstring, the variants, a file of the repository. An unknown marker fails the
  build.

A marker is a pair, ``<!-- genial:KIND ARG -->LINK<!-- /genial:KIND -->``: what stands
between them is what the page shows where it is read as it is, on GitHub, a link to the
same part of the built site (`link_to_site` writes it; tests/test_docs_github.py checks that
none is blank). Running this file (``python docs/hooks/genial_docs.py``) writes those links
into every page, pairing any single marker.

A fact the code decides and a page says too (the observation's size, a level's budget, a
rule set's text form) is written from the code the same way: a fact marker holds the value
itself, ``<!-- genial:fact obs-size -->1911<!-- /genial:fact -->`` (GitHub and the site show
the value, the comments show nowhere), and every text form of a rule set written whole
(``version=1 variant=... players=... OPTION=VALUE ...``) is the current one. Running this
file rewrites both in every page (`refresh_facts`), so that a new rule option or another
budget needs no edit of the docs; tests/test_doc_facts.py fails while one is stale.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import inspect
import io
import os
import re
import tomllib
from collections.abc import Callable
from typing import Any

from griffe import Class, Docstring, Extension, Function, Module, Object, Parameter, Parameters

# ----- docstring markup: reStructuredText habits to Markdown ----------------------------

_RULE = re.compile(r"^(\s*)(=+)((?: +=+)+)\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _table_to_markdown(rows: list[str], rule: str) -> list[str]:
    """An RST simple table (its lines between the top and bottom rules) as a Markdown table.

    Columns are cut where the rule has gaps; a line whose first column is blank continues
    the row above it."""
    spans = [(m.start(), m.end()) for m in re.finditer(r"=+", rule)]

    def cells(line: str) -> list[str]:
        out = []
        for k, (start, _end) in enumerate(spans):
            stop = spans[k + 1][0] if k + 1 < len(spans) else len(line)
            out.append(line[start:stop].strip())
        return out

    header: list[str] = []
    body: list[list[str]] = []
    in_body = False
    for line in rows:
        if _RULE.match(line):
            in_body = True
            continue
        if not line.strip():
            continue
        parts = cells(line)
        if not in_body:
            header = parts if not header else [f"{a} {b}".strip() for a, b in zip(header, parts)]
        elif parts[0] or not body:
            body.append(parts)
        else:
            body[-1] = [f"{a} {b}".strip() for a, b in zip(body[-1], parts)]
    if not header:  # a table without a header row
        header, body = body[0], body[1:]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in body]
    return lines


def rst_tables(text: str) -> list[tuple[int, int, list[str]]]:
    """The simple tables of ``text``: ``(first line, line after the last, Markdown lines)``."""
    lines = text.splitlines()
    found = []
    i = 0
    while i < len(lines):
        m = _RULE.match(lines[i])
        if not m:
            i += 1
            continue
        # A simple table has a top rule, a rule under its header, and a bottom rule; a table
        # without a header has only the top and bottom ones.
        rules = [i]
        j = i + 1
        while j < len(lines) and lines[j].strip() and len(rules) < 3:
            if _RULE.match(lines[j]):
                rules.append(j)
            j += 1
        if len(rules) == 3 or (len(rules) == 2 and (j >= len(lines) or not lines[j].strip())):
            end = rules[-1]
            found.append((i, end + 1, _table_to_markdown(lines[i + 1 : end], lines[i])))
            i = end + 1
        else:
            i += 1
    return found


def markdown_from_docstring(text: str) -> str:
    """The docstring's reStructuredText habits rewritten as Markdown (see the module doc)."""
    lines = text.splitlines()
    tables = {start: (end, md) for start, end, md in rst_tables(text)}
    out: list[str] = []
    fenced = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            fenced = not fenced
            out.append(line)
            i += 1
            continue
        if fenced:
            out.append(line)
            i += 1
            continue
        if i in tables:
            end, md = tables[i]
            out += md
            i = end
            continue
        stripped = line.lstrip(" ")
        if stripped.startswith(">>>"):
            # A doctest session runs to the next blank line.
            pad = " " * _indent(line)
            out.append(pad + "```pycon")
            while i < len(lines) and lines[i].strip():
                out.append(lines[i])
                i += 1
            out.append(pad + "```")
            continue
        literal = stripped.endswith("::") and not stripped.startswith("..")
        if literal and i + 1 < len(lines) and not lines[i + 1].strip():
            # "text::" introduces a literal block: the indented lines after the blank line.
            base = _indent(line)
            j = i + 2
            block: list[str] = []
            while j < len(lines) and (not lines[j].strip() or _indent(lines[j]) > base):
                block.append(lines[j])
                j += 1
            while block and not block[-1].strip():
                block.pop()
            if block:
                out.append(line[:-1])  # "text::" reads "text:"
                out.append("")
                pad = " " * base
                cut = min(_indent(b) for b in block if b.strip())
                out.append(pad + "```text")
                out += [pad + b[cut:] if b.strip() else "" for b in block]
                out.append(pad + "```")
                out.append("")
                i = j
                continue
        out.append(line)
        i += 1
    return "\n".join(out)


_CONTAINER_METHODS = frozenset({"__getitem__", "__len__", "__contains__", "__iter__"})


class DocstringMarkup(Extension):
    """Griffe extension: rewrites each docstring with `markdown_from_docstring` as it loads,
    keeps classes' underscore members out of the reference, and gives the compiled classes
    their constructor's signature.

    The stub declares a compiled class's constructor as ``__new__`` (PyO3 has no
    ``__init__``), and the reference shows a class's signature from ``__init__``: a class
    with only ``__new__`` gets an ``__init__`` with the same parameters and docstring."""

    def on_package(self, *, pkg: Module, **kwargs: Any) -> None:
        # The top-level package is not among the objects `on_object` sees.
        if pkg.docstring is not None:
            pkg.docstring.value = markdown_from_docstring(pkg.docstring.value)

    def on_object(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_from_docstring(obj.docstring.value)
        if isinstance(obj, Class) and "__new__" in obj.members and "__init__" not in obj.members:
            new = obj.members["__new__"]
            if isinstance(new, Function) and len(new.parameters):
                first, *rest = list(new.parameters)
                init = Function(
                    "__init__",
                    lineno=new.lineno,
                    endlineno=new.endlineno,
                    parameters=Parameters(Parameter("self", kind=first.kind), *rest),
                    returns="None",
                )
                if new.docstring is not None:
                    init.docstring = Docstring(
                        markdown_from_docstring(new.docstring.value), lineno=new.docstring.lineno, parent=init
                    )
                obj.set_member("__init__", init)
        if isinstance(obj, Class):
            # The reference lists what `__all__` exports (mkdocs.yml: `filters: public`) and, of
            # a class, its public members: not `__slots__`, `__eq__`, `__reduce__` and the like.
            # `__init__` stays (it gives the class its signature), and so does a documented
            # container method such as `Board.__getitem__` (``board[cell]``).
            for name in [n for n in obj.members if n.startswith("_") and n != "__init__"]:
                member = obj.members[name]
                if name not in _CONTAINER_METHODS or member.docstring is None:
                    obj.del_member(name)


# ----- generated page content -------------------------------------------------------------

_MARKER = re.compile(
    r"<!-- genial:([a-z-]+)(?: ([^ ]+))? -->(?:((?:(?!<!-- genial:).)*?)<!-- /genial:\1 -->)?", re.DOTALL
)
ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
#: Where the site is published (.github/workflows/docs.yml; pyproject.toml's Documentation).
SITE = "https://genial-engine.github.io/genial/"


def _cli_help(command: str | None) -> str:
    """``genial [command] --help`` as printed, at a fixed width."""
    from genial.cli import main

    argv = ([command] if command else []) + ["--help"]
    buffer = io.StringIO()
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "88"
    try:
        with contextlib.redirect_stdout(buffer), contextlib.suppress(SystemExit):
            main(argv)
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old
    text = buffer.getvalue().rstrip()
    if not text.startswith("usage:"):
        raise ValueError(f"genial {' '.join(argv)} printed no usage text")
    return "```text\n$ genial " + " ".join(argv) + "\n" + text + "\n```"


def _observation_table() -> str:
    """The observation's blocks: offsets and shapes from the core's layout, what each entry
    means from `genial.observation`'s own table. Fails if the two disagree on the blocks."""
    from genial.observation import LAYOUT, OBS_SIZE

    doc = inspect.getdoc(importlib.import_module("genial.observation")) or ""
    tables = rst_tables(doc)
    if len(tables) != 1:
        raise ValueError("genial.observation's docstring should hold exactly one table of blocks")
    rows = tables[0][2][2:]
    content = {}
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split(" | ")]
        content[cells[0]] = cells[2]
    if set(content) != set(LAYOUT):
        raise ValueError(f"genial.observation's table lists {sorted(content)}, the core's layout {sorted(LAYOUT)}")
    lines = ["| block | offset | shape | entries | content |", "|---|---:|---|---:|---|"]
    for name, (offset, shape) in LAYOUT.items():
        size = 1
        for n in shape:
            size *= n
        dims = " × ".join(map(str, shape))
        lines.append(f"| `{name}` | {offset} | {dims} | {size} | {content[name]} |")
    lines.append(f"| **total** | | | **{OBS_SIZE}** | `OBS_SIZE` |")
    return "\n".join(lines)


def _docstring(module: str | None) -> str:
    if not module:
        raise ValueError("genial:docstring needs a module name")
    doc = inspect.getdoc(importlib.import_module(module))
    if not doc:
        raise ValueError(f"{module} has no docstring")
    return markdown_from_docstring(doc)


def _variants_table() -> str:
    from genial import variants

    lines = ["| variant | players | track | how it plays |", "|---|---|---|---|"]
    for v in variants():
        counts = ", ".join(map(str, v.player_counts))
        lines.append(f"| `{v.name}` | {counts} | 0..{v.track_max} | {v.description} |")
    return "\n".join(lines)


def _bots() -> str:
    from genial.bots import BUILTIN_BOTS

    return ", ".join(f"`{name}`" for name in BUILTIN_BOTS)


def _bot_table() -> str:
    """Every built-in bot from the core's catalogue, with its options' defaults and bounds."""
    from genial.bots import catalogue

    lines = ["| bot | strength | searches | what it does | options (default, bounds) |", "|---|---|---|---|---|"]

    def default(o: Any) -> str:
        if o.by_players is not None:  # a level's budget
            return f"`{'/'.join(map(str, o.by_players))}` with 2/3/4 players"
        return "the bot decides" if o.default is None else f"`{o.default}`"

    for b in catalogue():
        options = "<br>".join(f"`{o.name}` = {default(o)} ({o.bounds}): {o.help}" for o in b.options)
        searches = "yes" if b.searches else "no"
        lines.append(f"| `{b.name}` | {b.strength} | {searches} | {b.description} | {options} |")
    return "\n".join(lines)


def _cli_table() -> str:
    """Every subcommand of the ``genial`` parser with its one-line help, in the parser's
    order: a command added to `genial.cli` appears here without an edit of the page."""
    from genial.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    lines = ["| command | what it does |", "|---|---|"]
    for choice in sub._choices_actions:
        lines.append(f"| `genial {choice.dest}` | {(choice.help or '').replace('%%', '%')} |")
    return "\n".join(lines)


def _dependencies() -> str:
    """The runtime dependencies of pyproject.toml, named as a reader says them: ``numpy
    (>=1.26), rich (>=13) and tqdm (>=4.66)``."""
    with open(os.path.join(os.path.dirname(__file__), "..", "..", "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    names = []
    for spec in project["dependencies"]:
        m = re.match(r"([A-Za-z0-9_.-]+)\s*(.*)", spec)
        assert m is not None
        names.append(f"{m.group(1)} (`{m.group(2)}`)" if m.group(2) else m.group(1))
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _read(path: str | None) -> str:
    if not path:
        raise ValueError("genial:include and genial:example need a file of the repository")
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def _example(path: str | None) -> str:
    """A script of the repository in a folded box, its whole text."""
    code = "\n".join(f"    {line}" if line else "" for line in _read(path).rstrip("\n").split("\n"))
    return f'??? example "{path}"\n\n    ```python\n{code}\n    ```'


def _fact(name: str | None) -> str:
    """The value of the fact ``name`` (a fact marker's argument): ``obs-size``,
    ``obs-features`` (the entries after the board block), ``budget:LEVEL`` (a searching
    level's iterations with 2 / 3 / 4 players), ``budget-most`` (the most iterations any
    level's budget gives a decision), ``rule-option-names`` (each in a code span)
    and ``rule-option-values`` (each with its values, as the engine protocol's page lists
    them)."""
    kind, _, arg = (name or "").partition(":")
    if kind == "obs-size":
        from genial.observation import OBS_SIZE

        return str(OBS_SIZE)
    if kind == "obs-features":
        from genial.observation import FEATURES

        return str(FEATURES)
    if kind == "budget":
        from genial.bots import info

        by_players = info(arg).option("iterations").by_players
        if by_players is None:
            raise ValueError(f"genial:fact budget:{arg}: {arg} is no searching level")
        return " / ".join(map(str, by_players))
    if kind == "budget-most":
        from genial.bots import catalogue

        return str(max(max(o.by_players) for b in catalogue() for o in b.options if o.by_players))
    if kind in ("rule-option-names", "rule-option-values"):
        from genial import Rules

        def described(o: dict[str, Any]) -> str:
            values = "`true`/`false`" if o["flag"] else ", ".join(f"`{v}`" for v in o["values"])
            return f"`{o['name']}` ({values})"

        items = [f"`{o['name']}`" if kind == "rule-option-names" else described(o) for o in Rules.options()]
        return ", ".join(items) if kind == "rule-option-names" else _and(items)
    raise ValueError(f"unknown fact {name!r}")


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


_FACT = re.compile(r"<!-- genial:fact ([^ ]+) -->(.*?)<!-- /genial:fact -->", re.DOTALL)
#: A rule set's text form with every key written (`genial.Rules.to_text`). One followed by
#: `` ...`` is a shortened example and stays as it is.
_RULES_TEXT = re.compile(r"version=\d+ variant=[a-z]+ players=\d+(?: [a-z_]+=[a-z_0-9]+)*")


def refresh_facts(text: str) -> str:
    """``text`` with every restated fact as the code has it now: each fact marker's value,
    and each rule set's text form written whole (one written before an option existed gains
    it, at its default)."""
    from genial import Rules

    def fact(m: re.Match[str]) -> str:
        return f"<!-- genial:fact {m.group(1)} -->{_fact(m.group(1))}<!-- /genial:fact -->"

    def rules(m: re.Match[str]) -> str:
        if m.string.startswith(" ...", m.end()) or m.string.startswith(" …", m.end()):
            return m.group(0)
        return Rules.from_text(m.group(0)).to_text()

    return _RULES_TEXT.sub(rules, _FACT.sub(fact, text))


def fact_pages() -> list[str]:
    """The files whose facts `refresh_facts` keeps current, relative to the repository: the
    Markdown pages (not the CHANGELOG and the benchmarks' history, which say what was true
    then) and the package's Python, whose docstrings may write a text form."""
    pages = [name for name in ("README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "RULES.md")]
    for folder, suffix in (("docs", ".md"), ("python/genial", ".py")):
        for base, _dirs, files in os.walk(os.path.join(ROOT, folder)):
            pages += [os.path.relpath(os.path.join(base, f), ROOT) for f in files if f.endswith(suffix)]
    return sorted(pages)


def write_facts() -> list[str]:
    """Writes `refresh_facts` into every file of `fact_pages`; the files it changed."""
    changed = []
    for name in fact_pages():
        path = os.path.join(ROOT, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        new = refresh_facts(text)
        if new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            changed.append(name)
    return changed


_GENERATORS: dict[str, Callable[[str | None], str]] = {
    "fact": _fact,
    "include": _read,
    "example": _example,
    "cli-table": lambda _arg: _cli_table(),
    "dependencies": lambda _arg: _dependencies(),
    "cli-help": _cli_help,
    "observation-table": lambda _arg: _observation_table(),
    "docstring": _docstring,
    "variants-table": lambda _arg: _variants_table(),
    "bot-names": lambda _arg: _bots(),
    "bot-table": lambda _arg: _bot_table(),
}


def expand_markers(markdown: str, where: str) -> str:
    """The page as the site shows it: every marker (a pair with what stands between, or a
    single opening one) replaced by its generated text."""

    def replace(m: re.Match[str]) -> str:
        kind, arg = m.group(1), m.group(2)
        if kind not in _GENERATORS:
            raise ValueError(f"{where}: unknown marker genial:{kind}")
        return _GENERATORS[kind](arg)

    return _MARKER.sub(replace, markdown)


def slug(heading: str) -> str:
    """The anchor mkdocs gives a heading (Python-Markdown's toc: lowercase, punctuation
    dropped, spaces as hyphens)."""
    text = re.sub(r"[`*_]", "", heading).strip().lower()
    text = re.sub(r"[^\w\s-]", "", text)
    return re.sub(r"[-\s]+", "-", text).strip("-")


def page_url(page: str) -> str:
    """The site's address of a page of docs/ (``cli.md`` -> ``SITE/cli/``)."""
    name = page.removesuffix(".md")
    return SITE if name == "index" else f"{SITE}{name}/"


def link_to_site(markdown: str, page: str) -> str:
    """The page with a link to the site's part in every marker pair (a single marker is
    paired): where the page is read as it is, the generated part is one click away. The
    link goes to the heading above the marker."""
    out: list[str] = []
    last = 0
    for m in _MARKER.finditer(markdown):
        kind, arg = m.group(1), m.group(2)
        if kind not in _GENERATORS:
            raise ValueError(f"{page}: unknown marker genial:{kind}")
        if kind == "fact":  # its value is what every reader sees, paired and current
            out.append(markdown[last : m.start()] + f"<!-- genial:fact {arg} -->{_fact(arg)}<!-- /genial:fact -->")
            last = m.end()
            continue
        prose = re.sub(r"^ *```.*?^ *```", "", markdown[: m.start()], flags=re.S | re.M)
        headings = re.findall(r"^#{2,6} +(.+?) *$", prose, re.M)  # the page's title is its top
        anchor = f"#{slug(headings[-1])}" if headings else ""
        what = {
            "cli-help": f"genial {arg} --help" if arg else "genial --help",
            "cli-table": "the table of commands",
            "dependencies": "the list of dependencies",
            "observation-table": "the table of the observation's blocks",
            "docstring": f"{arg}'s description",
            "variants-table": "the table of variants",
            "bot-names": "the names of the built-in bots",
            "bot-table": "the table of built-in bots",
            "include": str(arg),
            "example": f"the whole of {arg}",
        }[kind]
        if kind in ("include", "example"):
            link = f"[{what}](https://github.com/genial-engine/genial/blob/main/{arg})"
        else:
            link = f"[{what}, on the documentation site]({page_url(page)}{anchor})"
        opening = f"<!-- genial:{kind}{f' {arg}' if arg else ''} -->"
        out.append(markdown[last : m.start()] + f"{opening}{link}<!-- /genial:{kind} -->")
        last = m.end()
    out.append(markdown[last:])
    return "".join(out)


def write_links() -> list[str]:
    """Writes `link_to_site`'s links into every page of docs/; the pages it changed."""
    changed = []
    docs = os.path.join(ROOT, "docs")
    for name in sorted(os.listdir(docs)):
        if not name.endswith(".md"):
            continue
        path = os.path.join(docs, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        new = link_to_site(text, name)
        if new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            changed.append(name)
    return changed


_BLANKLINE = re.compile(r"^<BLANKLINE>$", re.MULTILINE)


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    """mkdocs hook: fills in the generated parts of a page. The pages' ``pycon`` examples run
    as doctests (tests/test_docs_site.py), which write an empty output line as
    ``<BLANKLINE>``; readers see it empty."""
    return _BLANKLINE.sub("", expand_markers(markdown, page.file.src_uri))


if __name__ == "__main__":
    for name in write_facts():
        print(f"wrote the facts of {name}")
    for name in write_links():
        print(f"wrote the site links of docs/{name}")

"""The rule-option recipe (ARCHITECTURE.md, "Where things go"; CONTRIBUTING.md, "A rule
option") is true: a trial option, added to a scratch copy of the repository by editing three
files by hand, passes the tests that used to restate what an option changes.

The trial option is ``free_start``, a flag, off by default: a player's first tile need not
touch a printed symbol. In a copy of the working tree (its tracked and untracked files, not
the ignored ones) under a temporary folder, the test

1. makes the hand edits: the `Config` field, its default and its `RULE_OPTIONS` entry
   (``rust/rules/variants.rs``), its use (``rust/rules/game.rs``), its paragraph
   (``RULES.md``);
2. translates its one line of help in each catalogue, the translator's step that every new
   text a player reads takes (CONTRIBUTING.md, "A language"), not a restated fact;
3. runs the generators: ``make catalogues``, ``python docs/hooks/genial_docs.py`` (the
   facts the pages restate) and ``python tests/openspiel_playthrough.py``;
4. builds the Rust unit tests and the two integration tests that walk every rule set
   (``invariants``, ``move_order``) with the ``test-release`` profile, and the extension with
   the ``release`` profile, in ``target/recipe-trial`` of this repository, whose
   dependencies stay built from one run to the next;
5. runs them, and the Python tests that restated the observation's size, the options block,
   the rule set's text form, the core's texts and the playthrough (`PYTHON_TESTS`);
6. checks that the hand edits touched those three files only, and that after them only the
   catalogues and the generators' files changed.

It builds the genial crate twice: 136 CPU-s on the 2-core development machine, the
dependencies already built (2026-11-29, ``/usr/bin/time -v pytest
tests/test_rule_option_recipe.py``), so it is in the slow tier. It failed, as it should, when
a test restated the observation's size again.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, load_script

NAME = "free_start"
HELP = "a player's first tile need not touch a printed symbol (a trial option)"

# The hand edits: (file, text it holds once, what replaces that text).
HAND_EDITS: list[tuple[str, str, str]] = [
    (
        "rust/rules/variants.rs",
        "    pub require_contact: bool,\n}",
        f"    pub require_contact: bool,\n    pub {NAME}: bool,\n}}",
    ),
    ("rust/rules/variants.rs", "require_contact: false };", f"require_contact: false, {NAME}: false }};"),
    (
        "rust/rules/variants.rs",
        "        set: |c, i| c.require_contact = i == 1,\n    },\n];",
        "        set: |c, i| c.require_contact = i == 1,\n    },\n"
        "    RuleOption {\n"
        f'        name: "{NAME}",\n'
        '        values: &["false", "true"],\n'
        f'        help: "{HELP}",\n'
        f"        get: |c| c.{NAME} as usize,\n"
        f"        set: |c, i| c.{NAME} = i == 1,\n"
        "    },\n];",
    ),
    (
        "rust/rules/game.rs",
        "        if !self.has_placed(player) {\n            Touch::UntouchedSymbol\n",
        f"        if !self.has_placed(player) {{\n"
        f"            if self.config.{NAME} {{\n                Touch::Any\n            }} else {{\n"
        "                Touch::UntouchedSymbol\n            }\n",
    ),
    (
        "RULES.md",
        "\n\n## Decisions the engine takes",
        f"\n- `{NAME}=True` (a trial option): a player's first tile need not touch a printed symbol\n"
        "  (default `False`).\n\n## Decisions the engine takes",
    ),
]
HAND_EDITED = {"rust/rules/variants.rs", "rust/rules/game.rs", "RULES.md"}

TRANSLATIONS = {
    "fr": "la première tuile d'un joueur n'a pas à toucher un symbole imprimé (une option d'essai)",
    "de": "der erste Spielstein eines Spielers muss kein aufgedrucktes Symbol berühren (eine Probeoption)",
    "pl": "pierwsza płytka gracza nie musi przylegać do nadrukowanego symbolu (opcja próbna)",
}

# Written by a generator, never by hand: the catalogues' template, the playthrough, and the
# files whose facts docs/hooks/genial_docs.py rewrites (its `fact_pages`).
GENERATED_FILES = {"python/genial/locale/genial.pot", "tests/data/openspiel_genial.txt"}

# The Python tests that restated what a new option changes (the observation's size and its
# options block, the rule set's text form, the core's texts, the OpenSpiel playthrough), and
# those that send every rule set through every door.
PYTHON_TESTS = [
    "tests/test_rl_docs.py",
    "tests/test_rl_observation.py",
    "tests/test_types.py",
    "tests/test_docs.py",
    "tests/test_doc_facts.py",
    "tests/test_docs_github.py",
    "tests/test_openspiel.py",
    "tests/test_rule_doors.py",
    "tests/test_translation.py",
    "tests/test_web_languages.py",
    "tests/test_sim.py::test_pandas_arrow_and_parquet",
    "tests/test_habits.py::test_the_startup_hook_registers_the_env_with_no_import_of_genial",
    "tests/test_packaging.py::test_gymnasium_finds_the_env_after_import_genial",
]

DEADLINE = 3600  # seconds for one step; only a hang reaches it


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> str:
    """Runs ``argv`` in its own session (its process group killed however it ends) and
    returns its output; fails with the output's end if it fails."""
    proc = subprocess.Popen(
        argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
    )
    try:
        out, _ = proc.communicate(timeout=DEADLINE)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == 0, f"{' '.join(argv)} failed:\n{out[-6000:]}"
    return out


def _copy_working_tree(to: Path) -> None:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, (n.decode() for n in listed)):
        source = ROOT / name
        if source.is_file():  # a file deleted but not yet staged is listed too
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, to / name)


def _edit(repo: Path) -> None:
    for name, old, new in HAND_EDITS:
        path = repo / name
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{name} no longer holds the trial's anchor {old!r}: update HAND_EDITS"
        path.write_text(text.replace(old, new), encoding="utf-8")


def _translate(repo: Path) -> None:
    from babel.messages.pofile import read_po, write_po

    for code, text in TRANSLATIONS.items():
        path = repo / "python" / "genial" / "locale" / f"{code}.po"
        with open(path, "rb") as f:
            catalogue = read_po(f, abort_invalid=True)
        message = catalogue.get(HELP)
        assert message is not None and not message.string, f"make catalogues did not add the help to {code}.po"
        message.string = text
        out = io.BytesIO()
        write_po(out, catalogue, width=100, ignore_obsolete=True)  # as make catalogues writes it
        path.write_bytes(out.getvalue())


def _changed(repo: Path) -> set[str]:
    out = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout
    return {line[3:] for line in out.splitlines()}


@pytest.mark.skipif(shutil.which("cargo") is None or shutil.which("make") is None, reason="needs cargo and make")
def test_a_new_rule_option_is_three_hand_edited_files(tmp_path: Path) -> None:
    venv = Path(sys.executable).parent.parent
    if not (venv / "bin" / "pybabel").exists():
        pytest.skip("needs the development environment's pybabel (make catalogues)")
    repo = tmp_path / "repo"
    _copy_working_tree(repo)
    git = ["git", "-c", "user.name=trial", "-c", "user.email=trial@localhost"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "before the trial option"], cwd=repo, check=True)

    target = ROOT / "target" / "recipe-trial"
    for profile in ("release", "test-release"):
        # Seeded once from this repository's own builds, so that the dependencies are not
        # compiled again; the genial crate is, as its sources moved.
        if not (target / profile).exists() and (ROOT / "target" / profile).exists():
            shutil.copytree(ROOT / "target" / profile, target / profile, symlinks=True)
    env = {**os.environ, "CARGO_TARGET_DIR": str(target)}
    env["PYTHONPATH"] = str(repo / "python")  # the copy's package, before the installed one
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"

    _edit(repo)
    assert _changed(repo) == HAND_EDITED
    subprocess.run([*git, "commit", "-q", "-a", "-m", "the hand edits"], cwd=repo, check=True)
    # The extension first: the generators and the Python tests import the copy's genial.
    _run(["cargo", "build", "--quiet", "--release", "--features", "python", "--lib"], repo, env)
    built = next(p for p in (target / "release").glob("libgenial.*") if p.suffix in (".so", ".dylib"))
    shutil.copy2(built, repo / "python" / "genial" / "_core.abi3.so")
    # make catalogues with this environment's tools, taken as they are (-o: not reinstalled).
    _run(["make", "-o", f"{venv}/.deps-stamp", "catalogues", f"VENV={venv}"], repo, env)
    _translate(repo)
    _run([sys.executable, "docs/hooks/genial_docs.py"], repo, env)
    _run([sys.executable, "tests/openspiel_playthrough.py"], repo, env)

    # Since the hand edits: the translations, and what the generators wrote, nothing else.
    changed = _changed(repo)
    translated = {f"python/genial/locale/{code}.po" for code in TRANSLATIONS}
    hooks = load_script("genial_docs_hooks", ROOT / "docs/hooks/genial_docs.py")
    generated = GENERATED_FILES | set(hooks.fact_pages())
    assert translated <= changed
    assert changed - translated <= generated, f"changed by no generator: {sorted(changed - translated - generated)}"

    cargo_test = ["cargo", "test", "--quiet", "--profile", "test-release"]
    _run([*cargo_test, "--lib"], repo, env)
    _run([*cargo_test, "--test", "invariants", "--test", "move_order"], repo, env)
    inner = ["-q", "-p", "no:cacheprovider", f"--basetemp={tmp_path / 'pytest'}", *PYTHON_TESTS]
    _run([sys.executable, "-m", "pytest", *inner], repo, env)

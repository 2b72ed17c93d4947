"""Habits from the tools people know: names that mean what python-chess's mean, Python bots
seated by ``module:Class`` on the command line, short ``--help`` texts, Ray errors that
say what to do, and Gymnasium finding the environment."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import genial
import pytest
from conftest import ROOT
from genial.bots import parse_bot
from genial.cli import build_parser, main

BOT = textwrap.dedent(
    """
    class FirstMove:
        label = "first-move"

        def choose(self, view):
            return view.legal_moves()[0]

    def make_bot():
        return FirstMove()

    NOT_A_BOT = 3
    """
)


@pytest.fixture
def bot_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    name = f"mybots_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(BOT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return name


def test_result_is_renamed_lowest_score_and_warns() -> None:
    game = genial.play_game(["greedy"], seed=3, variant="solo", players=1)
    assert game.lowest_score() == min(game.scores[0])
    with pytest.warns(DeprecationWarning, match=r"lowest_score"):
        assert game.result() == game.lowest_score()


def test_a_python_bot_by_module_and_class(bot_module: str) -> None:
    bot = parse_bot(f"{bot_module}:FirstMove")
    assert bot.label == "first-move"
    assert parse_bot(f"{bot_module}:make_bot").label == "first-move"
    with pytest.raises(ValueError, match="cannot import"):
        parse_bot("no_such_module_here:Bot")
    with pytest.raises(ValueError, match="has no Missing"):
        parse_bot(f"{bot_module}:Missing")
    with pytest.raises(ValueError, match="not a class or function"):
        parse_bot(f"{bot_module}:NOT_A_BOT")
    # Built-in bots' options keep their meaning.
    assert parse_bot("mcts:iterations=5").label.startswith("mcts")


def test_tournament_and_ladder_seat_a_python_bot(
    bot_module: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = f"{bot_module}:FirstMove"
    assert main(["tournament", "--bots", f"{spec},random", "--games", "4", "--threads", "1", "-q"]) == 0
    assert "first-move" in capsys.readouterr().out
    out = tmp_path / "ladder"
    args = ["ladder", "--pool", f"random,greedy,{spec}", "--rounds", "1", "--rounds4", "0", "--out", str(out)]
    assert main([*args, "--bootstrap", "5", "--no-progress"]) == 0
    assert "first-move" in capsys.readouterr().out
    header = json.loads((out / "results.jsonl").read_text().splitlines()[0])
    assert header["pool"][-1] == spec and header["names"][-1] == "first-move"


def test_help_points_to_genial_bots_instead_of_the_catalogue(capsys: pytest.CaptureFixture[str]) -> None:
    from genial.bots import catalogue

    for command in ("simulate", "tournament", "play", "engine"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = capsys.readouterr().out
        assert "genial bots" in text, command
        assert not any(b.description in text for b in catalogue()), command
    assert main(["bots"]) == 0
    listing = capsys.readouterr().out
    assert all(f"{b.name}: {b.description}" in listing for b in catalogue())
    assert "bots" in build_parser().format_help()


def test_every_help_page_prints_its_percent_signs_once() -> None:
    """argparse %-formats a `help=` string but prints a description as written: `95%%`
    belongs in the one and shows doubled in the other."""
    import argparse

    parser = build_parser()
    pages = [("genial", parser.format_help())]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            pages += [(name, sub.format_help()) for name, sub in action.choices.items()]
    assert len(pages) > 10
    assert [name for name, text in pages if "%%" in text] == []


def _ray_clusters_on_this_machine() -> list[int]:
    """The pids of running Ray GCS servers: one per cluster on this machine, whoever started
    it. ``--ray auto`` (Ray's own search) finds any of them."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                argv0 = (entry / "cmdline").read_bytes().split(b"\0")[0]
            except OSError:
                continue
            if argv0.endswith(b"gcs_server"):
                pids.append(int(entry.name))
    return pids


@pytest.mark.slow
def test_ray_auto_without_a_cluster_says_what_to_do_and_leaves_nothing(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    # Ray's "auto" joins any cluster running on the machine (it looks for its processes),
    # so this needs none. It runs the command in a child process: had it joined a cluster
    # that then stops (another suite's, say), Ray ends the joining process at once, and
    # that must not be pytest.
    if clusters := _ray_clusters_on_this_machine():
        pytest.skip(f"a Ray cluster runs on this machine (GCS server pids {clusters}): this test needs none")

    def genial_cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "genial", *args], capture_output=True, text=True, timeout=120, cwd=tmp_path
        )

    out = tmp_path / "games"
    proc = genial_cli("simulate", "--games", "10", "--out", str(out), "--ray", "auto", "-q")
    assert proc.returncode == 2, proc.stderr
    err = proc.stderr
    assert "ray start --head" in err and "--address" not in err.replace("ray start --address", ""), err
    assert "cannot write" not in err and "Traceback" not in err
    assert not out.exists()
    ladder = tmp_path / "ladder"
    proc = genial_cli("ladder", "--pool", "random,greedy", "--rounds4", "0", "--out", str(ladder), "--ray", "auto")
    assert proc.returncode == 2 and "ray start --head" in proc.stderr, proc.stderr
    assert not ladder.exists()


def _fresh(code: str, tmp_path: Path, *, hook: bool) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter; with ``hook``, as if ``genial_gymnasium.pth`` had run
    at its start (what an installed wheel does)."""
    hook_file = ROOT / "python" / "genial_gymnasium.py"
    pre = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('genial_gymnasium', {str(hook_file)!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "sys.modules['genial_gymnasium'] = module\n"
        "spec.loader.exec_module(module)\n"
        "del spec, module\n"
        if hook
        else ""
    )
    return subprocess.run(
        [sys.executable, "-W", "error", "-c", pre + code], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )


@pytest.mark.parametrize(
    "imports", ["import gymnasium", "import genial, gymnasium", "import gymnasium, genial", "import genial"]
)
def test_the_startup_hook_registers_the_env_with_no_import_of_genial(tmp_path: Path, imports: str) -> None:
    """Gymnasium 1.x loads no environments from entry points: the wheel's
    ``genial_gymnasium.pth`` runs `genial_gymnasium` at interpreter start, which registers
    the id as gymnasium is imported, without importing genial (its entry point is a string);
    with genial's own registration beside it, each finds gymnasium once."""
    pytest.importorskip("gymnasium")
    code = (
        "import sys\n"
        f"{imports}\n"
        "import gymnasium\n"
        f"assert ('genial' in sys.modules) == {'genial' in imports.replace('gymnasium', '')}\n"
        "env = gymnasium.make('genial/Ingenious-v0', players=3)\n"
        "print(env.reset(seed=1)[0]['observation'].shape)\n"
    )
    proc = _fresh(code, tmp_path, hook=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"({genial.observation.OBS_SIZE},)"


def test_gymnasium_makes_the_env_in_a_fresh_interpreter_where_the_hook_is_installed(tmp_path: Path) -> None:
    """The installed package itself (``make test``'s ``maturin develop``, or the wheel):
    skipped where the startup hook is not installed beside it."""
    pytest.importorskip("gymnasium")
    from importlib import metadata

    try:
        files = [str(f) for f in metadata.files("genial-engine") or []]
    except metadata.PackageNotFoundError:
        files = []
    if "genial_gymnasium.pth" not in files:
        pytest.skip("genial_gymnasium.pth is not installed in this environment")
    code = "import sys, gymnasium\nenv = gymnasium.make('genial/Ingenious-v0')\nprint('genial' in sys.modules)\n"
    proc = _fresh(code, tmp_path, hook=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "True"  # imported by gymnasium.make, not before

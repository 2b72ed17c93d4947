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


def test_ray_auto_without_a_cluster_says_what_to_do_and_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("ray")
    out = tmp_path / "games"
    env_free = ["simulate", "--games", "10", "--out", str(out), "--ray", "auto", "-q"]
    assert main(env_free) == 2
    err = capsys.readouterr().err
    assert "ray start --head" in err and "--address" not in err.replace("ray start --address", ""), err
    assert "cannot write" not in err and "Traceback" not in err
    assert not out.exists()
    ladder = tmp_path / "ladder"
    assert main(["ladder", "--pool", "random,greedy", "--rounds4", "0", "--out", str(ladder), "--ray", "auto"]) == 2
    assert "ray start --head" in capsys.readouterr().err
    assert not ladder.exists()


def test_gymnasium_makes_the_env_by_its_module_in_a_fresh_interpreter(tmp_path: Path) -> None:
    """Gymnasium 1.x loads no plugins by entry point; its own ``module:id`` form imports the
    module that registers the id, with no ``import genial`` before."""
    pytest.importorskip("gymnasium")
    code = (
        "import sys, gymnasium\n"
        "assert 'genial' not in sys.modules\n"
        "env = gymnasium.make('genial.envs.gymnasium:genial/Ingenious-v0')\n"
        "obs, info = env.reset(seed=1)\n"
        "print(obs['observation'].shape)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "(1911,)"

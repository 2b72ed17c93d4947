"""The `genial` command as a whole: every subcommand's help shows examples, every refusal
reads ``genial: error: ...``, and the top-level help promises only commands that exist."""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from pathlib import Path

import pytest
from genial.cli import main


def subcommands() -> list[str]:
    """Every subcommand of the real parser (one added later is checked too)."""
    from genial.cli import build_parser

    actions = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    assert len(actions) == 1
    return sorted(actions[0].choices)


def help_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exit:
        main([*argv, "--help"])
    assert exit.value.code == 0
    return capsys.readouterr().out


def test_every_command_is_listed() -> None:
    # Guards the parametrisation below against an empty or partial list.
    assert {"analyse", "demo", "engine", "engine-check", "ladder", "play", "serve", "simulate", "tournament"} <= set(
        subcommands()
    )


@pytest.mark.parametrize("command", subcommands())
def test_every_subcommand_help_shows_examples_that_parse(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    from genial.cli import build_parser

    text = help_of([command], capsys)
    assert "\nexamples:\n" in text
    lines = [line.strip() for line in text.split("\nexamples:\n", 1)[1].splitlines() if line.strip()]
    assert len(lines) >= 2
    for line in lines:
        assert line.startswith(f"genial {command} ") or line == f"genial {command}", line
        # Each example is a valid command line: the real parser accepts it (nothing is run).
        argv = shlex.split(line, comments=True)[1:]
        build_parser().parse_args(argv)


@pytest.mark.parametrize("command", ["", *subcommands()])
def test_help_is_plain_text(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Help texts are read in a terminal: no reST or Markdown markup."""
    text = help_of([command] if command else [], capsys)
    for markup in ("``", "`genial", ":func:", ":class:", "**"):
        assert markup not in text, (command, markup)


def test_the_top_level_help_names_only_commands_that_exist(capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util

    text = help_of([], capsys)
    for name in subcommands():
        assert name in text
    # It promises `analyse` only where that command exists.
    assert "analyse" not in text or importlib.util.find_spec("genial.cli.analyse") is not None
    assert "\nexamples:\n" in text


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["play", "--seed", "x"], "argument --seed"),
        (["simulate", "--games", "-1"], "argument --games"),
        (["play", "--seats", "human,nobot"], "nobot"),
        (["replay", "/no/such/file.json"], "cannot read /no/such/file.json"),
        (["render", "/no/such/file.json"], "cannot read /no/such/file.json"),
        (["simulate", "--games", "1", "--bots", "greedy", "--out", "x.unknown"], "x.unknown"),
        (["demo", "--variant", "nonsense"], "argument --variant"),
        (["analyse", "/no/such/file.json"], "cannot read /no/such/file.json"),
        (["ladder", "--pool", "random,greedy,greedy", "--no-progress"], "twice"),
        (["tournament", "--bots", "greedy,nobot"], "nobot"),
    ],
)
def test_every_refusal_has_one_prefix(
    argv: list[str], says: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    try:
        code = main(argv)
    except SystemExit as exit:  # argparse's own refusals
        code = exit.code  # type: ignore[assignment]
    err = capsys.readouterr().err
    assert code == 2
    last = err.strip().splitlines()[-1]
    assert last.startswith("genial: error: ") and says in last, err


def test_render_refusals_share_the_prefix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import genial

    record = tmp_path / "g.json"
    record.write_text(genial.Game(players=2, seed=1).to_json())
    for argv, says in (
        (["render", str(record), "--move", "5"], "--move 5 is outside"),
        (["render", str(record), "--racks", "3"], "no seat 3"),
        (["render", str(record), "--out", str(tmp_path / "g.gif")], "name it .svg or .png"),
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("genial: error: ") and says in err, err


@pytest.mark.parametrize(
    ("variant", "says", "not_said"),
    [
        ("solo", "solo game, 1 random player, seed", "1 random players"),
        ("standard", "standard game, 2 random players, seed", None),
        ("duel", "on its side", "(lowest"),
        ("team", "(lowest ", None),
    ],
)
def test_demo_wording(variant: str, says: str, not_said: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--variant", variant, "--seed", "3", "--no-color"]) == 0
    out = capsys.readouterr().out
    assert says in out
    if not_said:
        assert not_said not in out
    if variant == "duel":
        # What the duel ranks by first, for each seat: its markers on its own side.
        rows = [line for line in out.splitlines() if re.match(r"\s+\d\. player \d", line)]
        counts = [int(re.search(r"\((\d+) markers? on its side", row).group(1)) for row in rows]  # type: ignore[union-attr]
        assert counts == sorted(counts, reverse=True)


@pytest.mark.parametrize(
    ("orig_argv", "argv0", "command"),
    [
        (["python", "-m", "genial", "play"], "-m", True),
        (["python", "-X", "importtime", "-m", "genial"], "-m", True),
        (["python", "-mgenial"], "-m", True),
        (["/venv/bin/python", "/venv/bin/genial", "play"], "/venv/bin/genial", True),
        (["python", "-m", "pytest"], "-m", False),  # a program that imports genial
        (["python", "-m", "genial_tools"], "-m", False),
        (["python", "-c", "import genial"], "-c", False),
        (["python", "script.py"], "script.py", False),
    ],
)
def test_the_start_up_handler_is_for_the_command_only(
    orig_argv: list[str], argv0: str, command: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from genial import _startup

    monkeypatch.setattr(sys, "orig_argv", orig_argv)
    monkeypatch.setattr(sys, "argv", [argv0])
    assert _startup._is_the_command() is command

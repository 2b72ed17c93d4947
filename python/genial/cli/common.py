"""What every command shares: one style of error message, help texts with examples,
ending quietly when the reader of the output goes away, and reading the arguments every
command takes the same way (bot specs, variants, colours)."""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, NoReturn

from .._core import Rules
from ..bots import split_bot_specs

__all__ = [
    "Parser",
    "error",
    "examples",
    "quiet_stdout",
    "closed_pipe_safe",
    "color_wanted",
    "split_bot_specs",
    "bots_help",
    "add_rule_flags",
    "rules_from_flags",
    "rule_flags_given",
    "bots_catalogue_text",
    "remember_game",
    "last_game",
]

_EXAMPLES = "examples:\n"


def _state_folder() -> Path:
    """Where genial keeps its small state between commands: ``$XDG_STATE_HOME/genial``
    (default ``~/.local/state/genial``)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "genial"


def remember_game(path: str | os.PathLike[str]) -> None:
    """Notes ``path`` as the last game `genial play` saved, for ``genial analyse --last``
    (nothing happens where the state folder cannot be written)."""
    from ..files import write_atomic

    folder = _state_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / "last-game", os.path.abspath(path) + "\n")
    except OSError:
        pass


def last_game() -> Path | None:
    """The last game `genial play` saved (`remember_game`), or ``None``."""
    try:
        text = (_state_folder() / "last-game").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return Path(text) if text else None


def error(message: str, status: int = 2) -> int:
    """Reports a refused command on stderr in the one style every command uses,
    ``genial: error: ...`` (argparse's own), and returns the exit status to end with."""
    print(f"genial: error: {message}", file=sys.stderr)
    return status


def examples(*lines: str) -> str:
    """A ``--help`` epilog: example command lines, one per line, shown as written."""
    return _EXAMPLES + "\n".join(f"  {line}" for line in lines)


class _HelpFormatter(argparse.HelpFormatter):
    """Wraps descriptions as argparse does, but keeps an `examples` epilog's lines as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith(_EXAMPLES):
            return "\n".join(indent + line for line in text.splitlines())
        return super()._fill_text(text, width, indent)


class Parser(argparse.ArgumentParser):
    """The command line's parser (its subcommands' parsers are of the same class): usage
    errors read ``genial: error: ...`` for every subcommand, like every other refusal."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"genial: error: {message}\n")


def quiet_stdout() -> None:
    """Points stdout at the null device after its reader went away, so that the
    interpreter's final flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def closed_pipe_safe(run: Callable[..., int]) -> Callable[..., int]:
    """Wraps a command so that a reader going away (``genial replay x | head``) ends it
    quietly, as Unix tools do, instead of with a traceback."""

    @functools.wraps(run)
    def wrapped(*args: Any, **kwargs: Any) -> int:
        try:
            return run(*args, **kwargs)
        except BrokenPipeError:
            quiet_stdout()
            return 1

    return wrapped


def color_wanted(flag: bool | None, out: IO[str]) -> bool:
    """ANSI colours: as asked (``--color`` / ``--no-color``), else when writing to a
    terminal and ``NO_COLOR`` is not set (https://no-color.org)."""
    if flag is not None:
        return flag
    return "NO_COLOR" not in os.environ and hasattr(out, "isatty") and out.isatty()


def bots_help() -> str:
    """What ``--help`` says of bots: how they are written, and where the catalogue is
    (``genial bots``), not the catalogue itself."""
    from .. import bots

    return (
        f"Bots: a built-in bot ({', '.join(bots.names())}; genial bots lists each with its options), "
        "with options as name:key=value,key=value (e.g. mcts:iterations=2000,width=8; every bot takes "
        "swap=auto|never); an engine, engine:COMMAND; or a Python bot, package.module:Class."
    )


def add_rule_flags(p: argparse.ArgumentParser) -> None:
    """``--rules TEXT`` (the rule set's text form) and one flag per edition option, made
    from the core's list (`Rules.options`), so that a new option reaches every command that
    plays: a choice ``--swap-timing VALUE``, a switch ``--require-contact`` (with its
    ``--no-`` form). Left out, each takes the rule set's default."""
    for option in Rules.options():
        name, default = option["name"], option["default"]
        flag = "--" + name.replace("_", "-")
        if option["flag"]:
            shown = "on" if default else "off"
            p.add_argument(
                flag,
                dest=name,
                action=argparse.BooleanOptionalAction,
                default=None,
                help=f"edition option: {option['help']} (default: {shown})",
            )
        else:
            p.add_argument(
                flag,
                dest=name,
                choices=option["values"],
                default=None,
                help=f"edition option: {option['help']} (default: {default})",
            )
    p.add_argument(
        "--rules",
        metavar="TEXT",
        default=None,
        help='the whole rule set in its text form, as records store it: "variant=duel players=2 ..." '
        "(instead of --variant, --players and the options)",
    )


def rules_from_flags(args: argparse.Namespace, variant: str | None, players: int | None) -> Rules:
    """The rule set the flags of `add_rule_flags` (and the command's ``variant`` and
    ``players``, ``None`` where not given) name; ``--rules`` with any of them is refused."""
    options = {o["name"]: getattr(args, o["name"]) for o in Rules.options() if getattr(args, o["name"]) is not None}
    if args.rules is not None:
        given = [n for n, v in (("variant", variant), ("players", players)) if v is not None] + list(options)
        if given:
            flags = ", ".join("--" + n.replace("_", "-") for n in given)
            raise ValueError(f"--rules gives the whole rule set: leave out {flags}")
        return Rules.from_text(args.rules)
    return Rules(variant, players, **options)


def rule_flags_given(args: argparse.Namespace) -> list[str]:
    """The names of the rule flags given on the command line (``rules`` and each option)."""
    names = ["rules", *(o["name"] for o in Rules.options())]
    return [n for n in names if getattr(args, n, None) is not None]


def bots_catalogue_text() -> str:
    """The built-in bots from the core's catalogue, with their options, defaults and bounds:
    what ``genial bots`` prints."""
    from .. import bots

    lines = []
    for b in bots.catalogue():
        lines.append(f"{b.name}: {b.description}")
        for o in b.options:
            lines.append(f"    {o.name}={o.default_text} ({o.bounds}): {o.help}")
    lines.append("")
    lines.append(
        "Give options as name:key=value,key=value, e.g. mcts:iterations=2000,width=8. Besides the built-in "
        "bots, a seat takes an engine (engine:COMMAND) or a Python bot (package.module:Class)."
    )
    return "\n".join(lines)

"""``genial engine``: a built-in bot as a protocol engine on stdin/stdout; ``genial
engine-check``: the protocol's conformance suite run against any engine command."""

from __future__ import annotations

import argparse
from typing import Any

from ..engine.check import DEADLINE_S, RULE_SETS, parse_rule_set, rule_set_text
from .common import bots_help, examples

__all__ = ["register"]


def _engine(args: argparse.Namespace) -> int:
    from ..engine.builtin import serve_builtin

    return serve_builtin(args.bot, seed=args.seed)


def _check(args: argparse.Namespace) -> int:
    from ..engine.check import run_checks

    print(f"genial engine-check: {args.command}", flush=True)
    results = run_checks(
        args.command,
        movetime_ms=args.movetime,
        games=args.games,
        deadline_s=args.deadline,
        rule_sets=args.rules or RULE_SETS,
        report=lambda c: print(c.line(), flush=True),
    )
    failed = [c for c in results if not c.passed]
    if failed:
        print(f"{len(failed)} of {len(results)} checks failed", flush=True)
        return 1
    print(f"all {len(results)} checks passed", flush=True)
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser(
        "engine",
        help="run a built-in bot as an engine of the genial engine protocol (stdin/stdout)",
        description="Runs a built-in bot as an engine speaking the genial engine protocol on stdin and "
        "stdout (docs: engine-protocol). Seat it elsewhere as 'engine:genial engine --bot SPEC'. " + bots_help(),
        epilog=examples(
            "genial engine --bot expert                   # speaks the protocol on stdin/stdout",
            "genial engine --bot mcts:iterations=500 --seed 7",
        ),
    )
    p.add_argument("--bot", default="greedy", help="the built-in bot to serve (default: greedy)")
    p.add_argument("--seed", type=int, default=None, help="the bot's seed (default: 0)")
    p.set_defaults(func=_engine)

    c = sub.add_parser(
        "engine-check",
        help="check that an engine follows the genial engine protocol",
        description="Runs the conformance suite of the genial engine protocol against an engine and prints "
        "each check; exit status 1 when one fails. COMMAND is split like a shell would (no shell runs it).",
        epilog=examples(
            "genial engine-check 'python3 my_engine.py'",
            "genial engine-check 'genial engine --bot hard' --movetime 100 --games 2",
            "genial engine-check 'python3 my_engine.py' --rules 'players=2' --rules 'variant=duel players=2'",
        ),
    )
    c.add_argument("command", help="the engine's command line, e.g. 'python3 my_engine.py'")
    c.add_argument("--movetime", type=int, default=200, help="move time given per decision, ms (default: 200)")
    c.add_argument("--games", type=int, default=1, help="games per seat and rule set (default: 1)")
    c.add_argument(
        "--deadline",
        type=float,
        default=DEADLINE_S,
        help=f"the whole suite's deadline, s: checks not run by then fail (default: {DEADLINE_S:g})",
    )
    c.add_argument(
        "--rules",
        action="append",
        type=_rule_set,
        metavar="TEXT",
        help="play the games of this rule set only, in its text form as records store it (repeat for "
        "more; default: every one of " + "; ".join(rule_set_text(r) for r in RULE_SETS) + ")",
    )
    c.set_defaults(func=_check)


def _rule_set(text: str) -> tuple[str, int, str]:
    try:
        return parse_rule_set(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None

"""``genial train``: expert iteration (`genial.expert_iteration`), resumable, into a folder;
``genial evaluate``: the evaluation protocol for learned agents (`genial.evaluation`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..files import write_atomic
from .common import error, examples, split_bot_specs

__all__ = ["register"]

# Where `--install` puts the weights: the files `include_bytes!` compiles into the core,
# one network a table size.
_SOURCE = Path(__file__).resolve().parents[3]


def _installed(players: int) -> tuple[Path, Path]:
    """The shipped weight file and manifest of the network for ``players`` players."""
    return (
        _SOURCE / "rust" / "players" / "bots" / f"policy_{players}p.bin",
        _SOURCE / "training" / f"policy-{players}p.json",
    )


def _train(args: argparse.Namespace) -> int:
    from ..expert_iteration import Plan, train

    games = tuple(int(g) for g in args.games.split(",") if g.strip()) if args.games else Plan.games
    try:
        plan = Plan(
            games=games,
            holdout=args.holdout,
            teacher=args.teacher,
            seed=args.seed,
            hidden=args.hidden,
            epochs=args.epochs,
            threads=args.threads,
            players=args.players,
            monitor_games=args.monitor_games,
        )
        plan.check()
    except ValueError as e:
        return error(str(e))
    weights_file, manifest_file = _installed(plan.players)
    if args.install and not weights_file.parent.is_dir():
        return error(f"--install writes into a source checkout of genial; {weights_file.parent} is not there")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        return error(f"--out {out} is a file, not a folder")
    try:
        weights, manifest = train(plan, out, log=lambda line: print(line, file=sys.stderr), bar=args.progress)
        write_atomic(out / "policy.bin", weights)
        write_atomic(out / "policy.json", json.dumps(manifest, indent=2) + "\n")
    except KeyboardInterrupt:
        print(
            f"\ngenial train: interrupted; every finished chunk of games and every finished fit is kept in "
            f"{out}: run the same command again to resume",
            file=sys.stderr,
        )
        return 130
    except ValueError as e:
        return error(str(e))
    print(f"wrote {out / 'policy.bin'} (sha256 {manifest['sha256'][:16]}...) and {out / 'policy.json'}")
    if args.install:
        write_atomic(weights_file, weights)
        write_atomic(manifest_file, json.dumps(manifest, indent=2) + "\n")
        print(f"installed into {weights_file} and {manifest_file}: rebuild (make develop) to use them")
    return 0


def _evaluate(args: argparse.Namespace) -> int:
    from .. import _core
    from ..evaluation import evaluate_agent

    if args.policy_weights:
        try:
            _core.use_policy_weights(Path(args.policy_weights).read_bytes())
        except (OSError, ValueError) as e:
            return error(f"--policy-weights {args.policy_weights}: {e}")
    try:
        rates = evaluate_agent(
            args.agent,
            split_bot_specs(args.opponents),
            args.games,
            players=args.players,
            seed=args.seed,
            threads=args.threads,
        )
    except ValueError as e:
        return error(str(e))
    print(f"{args.agent}, {args.games} {args.players}-player games against each opponent, seed {args.seed}:")
    for name, rate in rates.items():
        print(f"  against {name:<12} {rate}")
    return 0


def register(sub: Any) -> None:
    from ..evaluation import DEFAULT_OPPONENTS, EVALUATION_SEED
    from ..expert_iteration import Plan

    p = sub.add_parser(
        "train",
        help="train the policy network by expert iteration (search self-play, then a fit), resumable",
        description="Expert iteration: games played by a searching level record its visit counts and values "
        "at every decision; a small network learns the visit counts; the next generation searches with it as "
        "its prior. Deterministic for --seed whatever --threads; Ctrl-C or a kill keeps every finished chunk "
        "of games and every finished fit, and the same command resumes. Writes OUT/policy.bin (the weight file "
        "the core reads) and OUT/policy.json (the plan, the curves, CPU seconds).",
        epilog=examples(
            "genial train --out run                      # the shipped two-player recipe: about 30 CPU-minutes",
            "genial train --out run4 --players 4 --games 384 --holdout 48   # the four-player network",
            "genial train --out toy --games 8 --holdout 4 --epochs 2 --monitor-games 0",
        ),
    )
    p.add_argument("--out", default="policy-run", help="the run's folder (default: policy-run)")
    p.add_argument(
        "--games",
        default=None,
        help="searched games per generation, comma-separated (default: " + ",".join(str(g) for g in Plan.games) + ")",
    )
    p.add_argument(
        "--players",
        type=int,
        default=Plan.players,
        choices=(2, 4),
        help="the table size the network learns (one network a size; default %(default)s)",
    )
    p.add_argument("--holdout", type=int, default=Plan.holdout, help="held-out games that judge every fit")
    p.add_argument("--teacher", default=Plan.teacher, help="the searching level that makes the targets")
    p.add_argument("--seed", type=int, default=Plan.seed, help=f"the run's seed (default {Plan.seed})")
    p.add_argument("--hidden", type=int, default=Plan.hidden, help="hidden units of the network")
    p.add_argument("--epochs", type=int, default=Plan.epochs, help="passes over the data per fit")
    p.add_argument("--threads", type=int, default=Plan.threads, help="threads of the self-play")
    p.add_argument(
        "--monitor-games",
        type=int,
        default=Plan.monitor_games,
        help="games against greedy that watch each generation (on deals of their own; 0: none)",
    )
    p.add_argument(
        "--install",
        action="store_true",
        help="also write the weights and manifest into this source checkout (then rebuild)",
    )
    bar = p.add_mutually_exclusive_group()
    bar.add_argument("--progress", dest="progress", action="store_true", default=None, help="always show progress")
    bar.add_argument("--no-progress", dest="progress", action="store_false", help="never show progress")
    p.set_defaults(func=_train)

    e = sub.add_parser(
        "evaluate",
        help="the benchmark for learned agents: paired deals no training uses, against greedy, medium, expert",
        description="Plays AGENT against each opponent on the evaluation's fixed deals (genial.evaluation): "
        "two-player deals played from both seats, or four-player deals from each seat against three copies, "
        "and prints its share of first places with a 95% Wilson interval.",
        epilog=examples(
            "genial evaluate policy",
            "genial evaluate policy --policy-weights run/policy.bin   # a network you trained",
            "genial evaluate expert:prior=policy --opponents expert --games 1000",
            "genial evaluate policy --players 4 --opponents expert --games 400",
        ),
    )
    e.add_argument("agent", help="the bot to evaluate, in its text form")
    e.add_argument("--opponents", default=DEFAULT_OPPONENTS, help="comma-separated opponents (default: %(default)s)")
    e.add_argument("--games", type=int, default=1000, help="games against each opponent (default 1000)")
    e.add_argument("--players", type=int, default=2, choices=(2, 4), help="2 or 4 (default 2)")
    e.add_argument("--seed", type=int, default=EVALUATION_SEED, help="the deals' seed (default: the protocol's)")
    e.add_argument("--threads", type=int, default=None, help="threads (default: one per core)")
    e.add_argument("--policy-weights", default=None, help="a policy weight file to use instead of the shipped one")
    e.set_defaults(func=_evaluate)

"""Simulation beyond one machine: a run split into seed ranges (`genial.simulation.shards`)
gives exactly the single-machine result once merged (`SimulationResult.concat`), wherever
each range was played. `simulate_ray` fans the ranges out as Ray tasks and merges them.

`run_tasks` is what the command line's ``--ray auto|ADDRESS`` uses (``genial simulate``
writing a dataset folder shard by shard, ``genial ladder`` playing its matches): it sends
work to a cluster and hands each result back to the caller as it arrives, with the node
that computed it, so that finished work is written at once and a stopped run resumes.

Ray is optional and imported only here: ``pip install ray``. Connect to a cluster with
``ray.init(address=...)`` before calling, or let `simulate_ray` start a local one.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ._core import Rules
from .arguments import LIMITS, int_in
from .results import SimulationResult
from .simulation import MAX_SHARDS, BotSpecLike, resolve_bots, shards, simulate, simulation_run
from .variants import as_rules

__all__ = ["simulate_ray", "ray_available", "connect", "run_tasks", "play_shard", "RayClusterError"]

T = TypeVar("T")
R = TypeVar("R")


def _import_ray() -> Any:
    """The ``ray`` package, or `ImportError`. A folder named ``ray`` on the path (Ray's own
    ``/tmp/ray`` when Python runs from ``/tmp``) imports as an empty namespace package:
    that is not Ray."""
    try:
        ray = importlib.import_module("ray")
    except ImportError:
        raise ImportError("simulate_ray needs the ray package: pip install ray") from None
    if getattr(ray, "__file__", None) is None or not callable(getattr(ray, "remote", None)):
        where = ", ".join(getattr(ray, "__path__", [])) or "?"
        raise ImportError(
            f"simulate_ray needs the ray package: pip install ray (the 'ray' found at {where} is a folder, not Ray)"
        )
    return ray


def ray_available() -> bool:
    """Whether the ``ray`` package can be imported (a mere folder named ``ray`` is not it)."""
    try:
        _import_ray()
    except ImportError:
        return False
    return True


def _simulate_shard(kwargs: dict[str, Any]) -> SimulationResult:
    return simulate(**kwargs)


def simulate_ray(
    games: int,
    players: int | None = None,
    bots: BotSpecLike | Sequence[BotSpecLike] = "random",
    seed: int = 0,
    *,
    variant: str = "standard",
    swap_timing: str = "after_placement",
    require_contact: bool = False,
    rules: Rules | None = None,
    first_game: int = 0,
    rotate: bool = True,
    shards: int | None = None,
    threads_per_shard: int = 1,
) -> SimulationResult:
    """`genial.simulate` over a Ray cluster: ``shards`` consecutive seed ranges (default:
    two per CPU of the cluster) run as tasks of ``threads_per_shard`` threads each, merged in
    game order. The result equals ``simulate(games, ...)`` on one machine."""
    rules = as_rules(rules, players=players, variant=variant, swap_timing=swap_timing, require_contact=require_contact)
    if shards is not None:
        shards = int_in("shards", shards, 1, MAX_SHARDS)
    threads_per_shard = int_in("threads_per_shard", threads_per_shard, 1, LIMITS["threads"])
    # Every argument is checked here, before anything is sent: no game is played.
    run, games, first_game = simulation_run(games, bots, seed, rules=rules, first_game=first_game, rotate=rotate)
    # Bots travel as their text form, which every worker can rebuild.
    specs = [b.spec for b in resolve_bots(bots)]
    ray = _import_ray()
    if not ray.is_initialized():
        ray.init()
    parts_n = shards or max(1, 2 * int(ray.cluster_resources().get("CPU", 1)))
    task = ray.remote(num_cpus=threads_per_shard)(_simulate_shard)
    refs = [
        task.remote(
            dict(
                games=n,
                bots=specs,
                seed=seed,
                threads=threads_per_shard,
                rules=rules,
                first_game=f,
                rotate=rotate,
            )
        )
        for f, n in _shards(games, parts_n, first_game)
    ]
    parts: list[SimulationResult] = ray.get(refs)
    if not parts:
        return run.empty()
    return SimulationResult.concat(parts)


_shards = shards


def connect(address: str | None) -> Any:
    """The ``ray`` module, connected: to the cluster at ``address`` (``"auto"``: the one
    this machine belongs to, as ``ray start`` left it or ``RAY_ADDRESS`` says), or, with
    ``None``, to the one already initialised or a new local one."""
    ray = _import_ray()
    if not ray.is_initialized():
        # The workers' own output (engines' stderr, warnings) stays in Ray's logs, not on
        # the command line's progress bar.
        try:
            ray.init(address=address, logging_level="ERROR", log_to_driver=False)
        except (ConnectionError, ValueError, RuntimeError) as e:
            if address is None:
                raise
            raise RayClusterError(_no_cluster(address, e)) from None
    return ray


class RayClusterError(ValueError):
    """No Ray cluster could be reached at the address given: the message says what to do."""


def _no_cluster(address: str, e: Exception) -> str:
    why = str(e).split(". ")[0].rstrip(".")
    if address == "auto":
        return (
            f"--ray auto found no Ray cluster on this machine ({why}): start one with `ray start --head` "
            "(and `ray start --address HEAD:6379` on the other machines), or give the head node's address "
            "as --ray HOST:6379, or set RAY_ADDRESS"
        )
    return (
        f"--ray {address}: no Ray cluster answered there ({why}): check the head node's address (HOST:6379, "
        "as `ray start --head` printed it) and that the cluster runs, or use --ray auto on a machine of the cluster"
    )


def _on_node(fn: Callable[[Any], Any], item: Any) -> tuple[Any, str]:
    """Runs on a worker: the result, and the node it was computed on."""
    import ray

    return fn(item), ray.get_runtime_context().get_node_id()


def run_tasks(
    fn: Callable[[T], R],
    items: Sequence[T],
    on_result: Callable[[T, R, str], None],
    *,
    address: str | None = None,
    cpus: int = 1,
) -> None:
    """Runs ``fn(item)`` for every item as a Ray task of ``cpus`` CPUs, and calls
    ``on_result(item, result, node_id)`` on this machine as each one finishes (in the order
    they finish). ``fn`` must be importable on the workers (a module-level function).

    A task whose node dies is run again elsewhere (Ray's retries); a task that fails for
    good raises here, after the results that came before it were handed over. On any
    exception (Ctrl-C included) the tasks still running are cancelled."""
    ray = connect(address)
    task = ray.remote(num_cpus=cpus, max_retries=3)(_on_node)
    pending = {task.remote(fn, item): item for item in items}
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=1.0)
            for ref in ready:
                item = pending.pop(ref)
                result, node = ray.get(ref)
                on_result(item, result, node)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


def play_shard(job: dict[str, Any]) -> SimulationResult:
    """One shard of ``genial simulate --ray``: games ``first_game .. + games`` of the run
    ``job`` describes (bots by their text forms), played on the worker's threads."""
    return simulate(**job)

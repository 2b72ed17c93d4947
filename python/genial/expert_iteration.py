"""Expert iteration: search makes the targets, a network learns them, search uses the network.

One generation of the loop:

1. **Self-play data from search.** Games played entirely by a searching level (``expert``;
   from the second generation on, ``expert`` with the previous generation's policy as its
   prior). At every decision the core records the search's visit counts over the root's
   moves, its root value and, once the game is over, the mover's result
   (`genial._core.search_self_play`). Every search deals the hidden tiles anew from the
   mover's view: no target is made from another seat's rack or the bag.
2. **The policy learns the visit counts.** A one-hidden-layer network over each move's
   features (`POLICY_FEATURES`, computed in the core) is fitted by Adam to the
   cross-entropy between its softmax over a decision's recorded moves and the search's
   visit shares (`fit_policy`, numpy only). Learning from visit counts rather than from
   results takes the luck of the draw out of the targets.
3. The weights go into the core (`genial._core.use_policy_weights`), where the ``policy``
   bot and the searches' ``prior=policy`` read them.

Everything is deterministic for the run's seed, whatever the threads, and resumable: the
games come in chunks written atomically (``gen-K/games-FIRST.npz``), a fit writes its
weights only when done, and a run started again over the same folder goes on from what
is there. `train` runs the generations; ``genial train`` is its command line.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from .bots import BuiltinBot, parse_bot
from .files import read_json, replacing, write_atomic
from .simulation import derive_seed

__all__ = [
    "POLICY_FEATURES",
    "Fit",
    "Plan",
    "Samples",
    "fit_policy",
    "load_samples",
    "policy_bytes",
    "search_games",
    "train",
]

POLICY_FEATURES: tuple[str, ...] = tuple(_core.policy_info()[0])
"""The names of the numbers the core computes for each move (`genial._core.policy_features`)."""

_MAGIC = b"GENIALPO"
_VERSION = 2  # the weight file's format (rust/players/bots/policy.rs, WEIGHTS_VERSION)
# The seed streams of a run: the games of generation K come from derive_seed(seed, K); the
# held-out games that judge every fit from this one, which no generation plays.
_HOLDOUT_STREAM = 1_000_003


@dataclass(frozen=True)
class Samples:
    """Decisions of searched games: rows of move features, grouped by decision (contiguous),
    each with its share of the decision's root visits."""

    features: npt.NDArray[np.float32]  # rows × features
    visits: npt.NDArray[np.float32]  # rows
    starts: npt.NDArray[np.int64]  # decisions + 1: the rows of decision d are starts[d]:starts[d+1]
    value: npt.NDArray[np.float32]  # decisions: the search's root value for the mover
    result: npt.NDArray[np.float32]  # decisions: the mover's share of the win
    game: npt.NDArray[np.uint64]  # decisions

    @property
    def decisions(self) -> int:
        return len(self.value)

    @classmethod
    def of(cls, data: dict[str, Any]) -> Samples:
        decision = np.asarray(data["decision"], dtype=np.int64)
        counts = np.bincount(decision, minlength=len(data["value"]))
        starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        return cls(
            features=np.asarray(data["features"], dtype=np.float32),
            visits=np.asarray(data["visits"], dtype=np.float32),
            starts=starts,
            value=np.asarray(data["value"], dtype=np.float32),
            result=np.asarray(data["result"], dtype=np.float32),
            game=np.asarray(data["game"], dtype=np.uint64),
        )

    @classmethod
    def concat(cls, parts: Sequence[Samples]) -> Samples:
        if not parts:
            raise ValueError("no samples to join")
        offsets = np.cumsum([0] + [len(p.visits) for p in parts[:-1]])
        return cls(
            features=np.concatenate([p.features for p in parts]),
            visits=np.concatenate([p.visits for p in parts]),
            starts=np.concatenate([parts[0].starts[:1]] + [p.starts[1:] + o for p, o in zip(parts, offsets)]),
            value=np.concatenate([p.value for p in parts]),
            result=np.concatenate([p.result for p in parts]),
            game=np.concatenate([p.game for p in parts]),
        )


def search_games(
    folder: Path,
    teacher: str,
    seed: int,
    games: int,
    *,
    chunk: int = 16,
    extra: int = 8,
    threads: int = 1,
    players: int = 2,
    policy: bytes | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Path]:
    """Plays the search self-play games ``0 .. games`` of a run dealt from ``seed`` into
    ``folder``, ``chunk`` games a file (``games-FIRST.npz``, written atomically), and returns
    the files. A file already there is kept (the run resumes); one that cannot be read is
    played again. ``teacher``: a searching level in its text form (``"expert"``,
    ``"expert:prior=policy"``); ``policy``: the weight file its ``prior=policy`` reads
    (``None``: the shipped weights). Ctrl-C stops it within a search; finished files stay."""
    folder.mkdir(parents=True, exist_ok=True)
    bot = parse_bot(teacher)
    if not isinstance(bot, BuiltinBot):
        raise ValueError(f"the teacher must be a built-in searching level, not {teacher!r}")
    _core.use_policy_weights(policy)
    paths = []
    try:
        done = 0
        for first in range(0, games, chunk):
            count = min(chunk, games - first)
            path = folder / f"games-{first:07d}.npz"
            if not _readable(path):
                data = _core.search_self_play(bot._bot, seed, first, count, extra, threads, players)
                with replacing(path, "wb") as f:
                    np.savez(
                        f,
                        features=data["features"],
                        decision=data["decision"],
                        visits=data["visits"],
                        value=data["value"],
                        result=data["result"],
                        game=data["game"],
                        legal=data["legal"],
                    )
            paths.append(path)
            done += count
            if progress is not None:
                progress(done, games)
    finally:
        _core.use_policy_weights(None)
    return paths


_COLUMNS = ("features", "decision", "visits", "value", "result", "game")


def _readable(path: Path) -> bool:
    if not path.exists():
        return False
    try:
        with np.load(path) as z:
            if not set(_COLUMNS) <= set(z.files) or z["features"].shape[1:] != (len(POLICY_FEATURES),):
                raise ValueError("not a file of this format")
            return True
    except (OSError, ValueError, EOFError) as e:
        print(f"warning: {path} cannot be read ({e}); its games are played again", file=sys.stderr)
        return False


def load_samples(paths: Sequence[Path]) -> Samples:
    """The decisions of search self-play files, in the order given."""
    parts = []
    for p in paths:
        with np.load(p) as z:
            parts.append(Samples.of({k: z[k] for k in _COLUMNS}))
    return Samples.concat(parts)


@dataclass
class Fit:
    """A fitted policy network (weights over standardised features) and how it learned."""

    w1: npt.NDArray[np.float64]  # hidden × features
    b1: npt.NDArray[np.float64]
    w2: npt.NDArray[np.float64]
    b2: float
    mean: npt.NDArray[np.float64]
    scale: npt.NDArray[np.float64]
    players: int = 1
    """The table sizes learned from: bit ``k`` for ``k + 2`` players (the core's searches use
    the policy as their prior only there)."""
    curve: list[dict[str, float]] = field(default_factory=list)

    def logits(self, x: npt.NDArray[np.floating[Any]]) -> npt.NDArray[np.float64]:
        z = (np.asarray(x, dtype=np.float64) - self.mean) / self.scale
        h = np.maximum(z @ self.w1.T + self.b1, 0.0)
        return np.asarray(h @ self.w2 + self.b2, dtype=np.float64)


def policy_bytes(fit: Fit) -> bytes:
    """The core's weight file of ``fit``: the standardisation folded into the first layer."""
    w1 = fit.w1 / fit.scale
    b1 = fit.b1 - w1 @ fit.mean
    hidden, features = w1.shape
    head = _MAGIC + np.array([_VERSION, features, hidden, fit.players], dtype="<u4").tobytes()
    body = np.concatenate([w1.ravel(), b1, fit.w2, [fit.b2]]).astype("<f4")
    return head + body.tobytes()


def _segment_softmax(z: npt.NDArray[np.float64], seg: npt.NDArray[np.int64], starts: npt.NDArray[np.int64]) -> Any:
    m = np.maximum.reduceat(z, starts[:-1])
    e = np.exp(z - m[seg])
    s = np.add.reduceat(e, starts[:-1])
    return e / s[seg]


def _batch_rows(samples: Samples, ds: npt.NDArray[np.int64]) -> tuple[Any, Any, Any]:
    """The rows of decisions ``ds`` (contiguous per decision), each row's position in
    ``ds``, and the segments' starts."""
    lo, hi = samples.starts[ds], samples.starts[ds + 1]
    n = hi - lo
    starts = np.concatenate([[0], np.cumsum(n)]).astype(np.int64)
    seg = np.repeat(np.arange(len(ds)), n)
    rows = lo[seg] + (np.arange(starts[-1]) - starts[seg])
    return rows, seg, starts


def _loss(fit: Fit, samples: Samples) -> tuple[float, float]:
    """Cross-entropy against the visit shares per decision (nats), and how often the
    network's top move is the search's most visited one."""
    if samples.decisions == 0:
        return math.nan, math.nan
    ds = np.arange(samples.decisions)
    rows, seg, starts = _batch_rows(samples, ds)
    z = fit.logits(samples.features[rows])
    p = _segment_softmax(z, seg, starts)
    t = samples.visits[rows].astype(np.float64)
    ce = -np.add.reduceat(t * np.log(np.maximum(p, 1e-12)), starts[:-1])
    top_net = np.maximum.reduceat(z, starts[:-1])
    top_t = np.maximum.reduceat(t, starts[:-1])
    agree = np.add.reduceat(((z == top_net[seg]) & (t == top_t[seg])).astype(np.float64), starts[:-1]) > 0
    return float(ce.mean()), float(agree.mean())


def fit_policy(
    train: Samples,
    holdout: Samples,
    *,
    hidden: int = 32,
    epochs: int = 20,
    batch: int = 256,
    rate: float = 3e-3,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Fit:
    """Fits the policy network to the visit shares of ``train`` with Adam, from a seeded
    start; the curve records both sets' loss and top-move agreement after every epoch."""
    rng = np.random.default_rng(seed)
    x = train.features.astype(np.float64)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    # A feature constant in the data (the bias; the player counts not played) gets no
    # weight: its gradient is zero, and a random start would stay in the network as noise
    # where the feature does vary (another player count).
    constant = scale < 1e-6
    scale[constant] = 1.0
    mean[constant] = 0.0
    features = x.shape[1]
    w1 = rng.normal(0.0, math.sqrt(2.0 / features), (hidden, features))
    w1[:, constant] = 0.0
    # The table sizes in the data: the one-hot columns of the player count.
    counts = [POLICY_FEATURES.index(f"players{k}") for k in (2, 3, 4)]
    learned = sum(1 << k for k, column in enumerate(counts) if (x[:, column] > 0.5).any())
    fit = Fit(
        players=learned,
        w1=w1,
        b1=np.zeros(hidden),
        w2=rng.normal(0.0, math.sqrt(1.0 / hidden), hidden),
        b2=0.0,
        mean=mean,
        scale=scale,
    )
    params = [fit.w1, fit.b1, fit.w2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(train.decisions)
        for k in range(0, len(order), batch):
            ds = np.sort(order[k : k + batch])
            rows, seg, starts = _batch_rows(train, ds)
            z0 = (x[rows] - fit.mean) / fit.scale
            pre = z0 @ fit.w1.T + fit.b1
            h = np.maximum(pre, 0.0)
            logits = h @ fit.w2
            p = _segment_softmax(logits, seg, starts)
            dz = (p - train.visits[rows]) / len(ds)
            grads = [None, None, h.T @ dz]
            dh = np.outer(dz, fit.w2) * (pre > 0)
            grads[0] = dh.T @ z0
            grads[1] = dh.sum(axis=0)
            step += 1
            for i, (param, g) in enumerate(zip(params, grads)):
                m[i] = 0.9 * m[i] + 0.1 * g
                v[i] = 0.999 * v[i] + 0.001 * g * g
                mhat = m[i] / (1 - 0.9**step)
                vhat = v[i] / (1 - 0.999**step)
                param -= rate * mhat / (np.sqrt(vhat) + 1e-8)
        tl, ta = _loss(fit, train)
        hl, ha = _loss(fit, holdout)
        fit.curve.append({"epoch": epoch + 1, "train_loss": tl, "train_top": ta, "holdout_loss": hl, "holdout_top": ha})
        if progress is not None:
            progress(epoch + 1, epochs)
    return fit


@dataclass(frozen=True)
class Plan:
    """What a training run does: ``games[k]`` searched games in generation ``k`` (the first
    searched by ``teacher`` alone, the later ones with the previous generation's policy as
    the root's prior), ``holdout`` games that no fit learns from, and the fit's settings."""

    games: tuple[int, ...] = (768, 512)
    holdout: int = 96
    teacher: str = "expert"
    seed: int = 2026
    chunk: int = 16
    extra: int = 8
    hidden: int = 32
    epochs: int = 20
    threads: int = 2
    players: int = 2
    monitor_games: int = 200

    def check(self) -> None:
        if not self.games or any(g < 1 for g in self.games):
            raise ValueError(f"every generation needs at least one game, not {list(self.games)}")
        for name in ("holdout", "chunk", "hidden", "epochs", "threads"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}")
        if not 1 <= self.hidden <= 256:
            raise ValueError(f"hidden must be 1..=256, not {self.hidden}")
        if self.players not in (2, 3, 4):
            raise ValueError(f"players must be 2, 3 or 4, not {self.players}")
        if self.extra < 0 or self.monitor_games < 0:
            raise ValueError("extra and monitor_games must be >= 0")
        if self.monitor_games % 2:
            raise ValueError(
                f"monitor_games must be even (every deal is played from both seats), not {self.monitor_games}"
            )


# The deals the training run watches its policy on (against greedy): a stream of their own,
# apart from the training games and from the seeds the published figures use
# (`genial.evaluation.EVALUATION_SEED`).
MONITOR_SEED = 77_000_001


def _cpu() -> float:
    import time

    return time.process_time()


def train(
    plan: Plan, folder: Path, *, log: Callable[[str], None] = print, bar: bool | None = None
) -> tuple[bytes, dict[str, Any]]:
    """Runs the generations of ``plan`` in ``folder`` (resuming what is there) and returns
    the last policy's weight file and the run's manifest: the plan, every generation's
    data, fit curve, strength against ``greedy`` on the monitor deals, and CPU seconds."""
    from .evaluation import evaluate_agent
    from .progress import ProgressBar

    plan.check()
    folder.mkdir(parents=True, exist_ok=True)
    plan_file = folder / "plan.json"
    if plan_file.exists():
        before = read_json(plan_file, "the run's plan")
        if before != json.loads(json.dumps(asdict(plan))):
            raise ValueError(f"{folder} holds a run with another plan ({plan_file}); use another folder or remove it")
    else:
        write_atomic(plan_file, json.dumps(asdict(plan), indent=2) + "\n")
    total = plan.holdout + sum(plan.games)
    with ProgressBar(total, "searched games", enabled=bar) as progress:
        offset = [0]

        def report(done: int, _total: int) -> None:
            progress(offset[0] + done, total)

        start = _cpu()
        held = search_games(
            folder / "holdout",
            plan.teacher,
            derive_seed(plan.seed, _HOLDOUT_STREAM),
            plan.holdout,
            chunk=plan.chunk,
            extra=plan.extra,
            threads=plan.threads,
            players=plan.players,
            progress=report,
        )
        offset[0] += plan.holdout
        holdout = load_samples(held)
        policy: bytes | None = None
        generations: list[dict[str, Any]] = []
        paths: list[Path] = []
        for k, games in enumerate(plan.games):
            gen = folder / f"gen-{k}"
            teacher = plan.teacher if k == 0 else plan.teacher + ("," if ":" in plan.teacher else ":") + "prior=policy"
            cpu = _cpu()
            paths += search_games(
                gen,
                teacher,
                derive_seed(plan.seed, k),
                games,
                chunk=plan.chunk,
                extra=plan.extra,
                threads=plan.threads,
                players=plan.players,
                policy=policy,
                progress=report,
            )
            offset[0] += games
            play_cpu = _cpu() - cpu
            weights_file, fit_file = gen / "policy.bin", gen / "fit.json"
            if weights_file.exists() and fit_file.exists():
                policy = weights_file.read_bytes()
                record = read_json(fit_file, "a generation's fit")
                log(f"generation {k}: fit kept from {fit_file}")
            else:
                cpu = _cpu()
                samples = load_samples(paths)
                fit = fit_policy(
                    samples, holdout, hidden=plan.hidden, epochs=plan.epochs, seed=derive_seed(plan.seed, 100 + k)
                )
                policy = policy_bytes(fit)
                record = {
                    "generation": k,
                    "teacher": teacher,
                    "games": sum(plan.games[: k + 1]),
                    "decisions": samples.decisions,
                    "rows": len(samples.visits),
                    "curve": fit.curve,
                    "fit_cpu_s": round(_cpu() - cpu, 1),
                    "play_cpu_s": round(play_cpu, 1),
                }
                if plan.monitor_games:
                    _core.use_policy_weights(policy)
                    try:
                        rate = evaluate_agent(
                            "policy",
                            opponents="greedy",
                            games=plan.monitor_games,
                            players=plan.players,
                            seed=MONITOR_SEED,
                            threads=plan.threads,
                        )["greedy"]
                    finally:
                        _core.use_policy_weights(None)
                    record["monitor_vs_greedy"] = {
                        "value": rate.value,
                        "low": rate.low,
                        "high": rate.high,
                        "games": plan.monitor_games,
                    }
                write_atomic(fit_file, json.dumps(record, indent=2) + "\n")
                write_atomic(weights_file, policy)
                last = fit.curve[-1]
                log(
                    f"generation {k}: {record['decisions']} decisions, held-out loss {last['holdout_loss']:.3f}, "
                    f"top move agrees {100 * last['holdout_top']:.1f}%"
                    + (
                        f", against greedy {100 * record['monitor_vs_greedy']['value']:.1f}%"
                        if plan.monitor_games
                        else ""
                    )
                )
            generations.append(record)
    assert policy is not None
    manifest = {
        "version": int(_core.policy_info()[1]),
        "sha256": hashlib.sha256(policy).hexdigest(),
        "features": list(POLICY_FEATURES),
        "plan": asdict(plan),
        "generations": generations,
        "cpu_s_this_run": round(_cpu() - start, 1),
    }
    return policy, manifest

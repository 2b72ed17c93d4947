"""Self-play PPO on `genial.VecEnv`, in one file, with numpy alone (CleanRL-style).

The policy is the network of the built-in ``policy`` bot: one hidden layer over the move
features the core computes for every legal move (`genial.VecEnv.move_features`, the
columns of `genial.expert_iteration.POLICY_FEATURES`), one logit per move, a softmax over
each decision's moves. So the agent trained here is written with
`genial.expert_iteration.policy_bytes` and plays at any table as ``policy`` once the core
has its weights (`genial._core.use_policy_weights`).

The loop, top to bottom:

- ``num_envs`` two-player games step together in one `VecEnv`. The learner plays seat
  ``i % 2`` of env ``i``; the other seat is a frozen copy drawn, at the start of each
  game, from a pool of the learner's own past snapshots (the newest with probability
  ``latest_share``, else any). The pool starts with the initial, nearly uniform network
  and gains a snapshot every ``snapshot_every`` updates. Both sides sample their moves.
- The reward is the environment's, for the learner's seat, when its game ends (+1 a win,
  -1 a loss, 0 a tie). Advantages are GAE (``gamma``, ``gae_lambda``) over the learner's
  own decisions of a finished game, against a linear value baseline on a few numbers of the
  position (both seats' markers, lowest first; what is left in the bag; the best and mean
  standardised features of the legal moves). A game still running when an update comes is
  kept and learnt from by a later update, with the probabilities it was played with.
- Each update: ``epochs`` passes over shuffled minibatches of decisions, the PPO clipped
  objective with an entropy bonus, Adam, gradients clipped to ``max_grad_norm``.
- Every ``eval_every`` updates and at the end, the greedy policy (its top move: the
  ``policy`` bot) plays ``eval_games`` games against ``greedy`` and ``random`` with
  `genial.evaluation.evaluate_agent` on the monitor deals (``--monitor-seed``, never the
  protocol's `EVALUATION_SEED`). The points (win rate against training CPU-seconds) go to
  ``OUT/curve.json`` and the weights to ``OUT/policy.bin``, both replaced whole each time.

Everything is seeded: the same command trains the same weights. ``--total-decisions``
counts the learner's decisions. Ctrl-C stops it at once and writes the weights of the
last update and the curve so far.

    python examples/selfplay_ppo.py --out ppo-run                    # the stated budget
    python examples/selfplay_ppo.py --total-decisions 20000 --eval-every 5 --out ppo-toy

Then, to report the protocol's figure::

    import genial
    genial._core.use_policy_weights(open("ppo-run/policy.bin", "rb").read())
    genial.evaluate_agent("policy", ["greedy", "medium"], games=1000)
"""

from __future__ import annotations

import os

# One BLAS thread: the results repeat whatever the machine, and the CPU-seconds of the
# curve are the script's own work, not idle BLAS threads spinning.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import time  # noqa: E402
from dataclasses import asdict, dataclass, field, fields  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import genial  # noqa: E402
import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402
from genial import _core  # noqa: E402
from genial.evaluation import evaluate_agent  # noqa: E402
from genial.expert_iteration import POLICY_FEATURES, Fit, policy_bytes  # noqa: E402
from genial.observation import LAYOUT  # noqa: E402

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]


def _flag(default: Any, help: str) -> Any:
    return field(default=default, metadata={"help": help})


@dataclass
class Args:
    """The hyper-parameters; each is a flag (``--total-decisions`` for ``total_decisions``)."""

    seed: int = _flag(1, "seed of the games, the network's start and every sample")
    total_decisions: int = _flag(500_000, "the budget: the learner's decisions to train on")
    num_envs: int = _flag(64, "games stepped together")
    threads: int = _flag(1, "VecEnv and evaluation threads (results do not depend on it)")
    decisions_per_update: int = _flag(2048, "an update comes once finished games hold this many learner decisions")
    epochs: int = _flag(4, "passes over an update's decisions")
    minibatches: int = _flag(8, "minibatches per pass")
    lr: float = _flag(1e-3, "Adam's step for the policy")
    value_lr: float = _flag(3e-3, "Adam's step for the value baseline")
    gamma: float = _flag(1.0, "discount per learner decision")
    gae_lambda: float = _flag(0.95, "GAE's lambda")
    clip: float = _flag(0.2, "PPO's clip of the probability ratio")
    ent_coef: float = _flag(0.003, "weight of the entropy bonus")
    max_grad_norm: float = _flag(0.5, "the policy's gradient is clipped to this global norm")
    hidden: int = _flag(32, "hidden units of the policy (1..256, as the core reads)")
    snapshot_every: int = _flag(4, "updates between snapshots added to the opponents' pool")
    latest_share: float = _flag(0.5, "chance that a game's opponent is the newest snapshot, not any in the pool")
    eval_every: int = _flag(10, "updates between evaluations (0: at the end only)")
    eval_games: int = _flag(200, "games per evaluation and opponent (even: every deal from both seats)")
    monitor_seed: int = _flag(55_000_001, "the evaluations' deals (tune on these, never on EVALUATION_SEED)")
    out: Path = _flag(Path("selfplay-ppo"), "folder for curve.json and policy.bin")  # noqa: RUF009 (a Path is immutable)


def parse_args() -> Args:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    for f in fields(Args):
        parser.add_argument(
            "--" + f.name.replace("_", "-"),
            type=type(f.default),
            default=f.default,
            help=f"{f.metadata['help']} (default {f.default})",
        )
    args = Args(**vars(parser.parse_args()))
    if args.eval_games < 2 or args.eval_games % 2:
        parser.error("--eval-games must be even and at least 2 (every deal is played from both seats)")
    if not 1 <= args.hidden <= 256:
        parser.error("--hidden must be 1..256")
    if args.num_envs < 2 or args.decisions_per_update < args.minibatches or args.total_decisions < 1:
        parser.error("--num-envs >= 2, --decisions-per-update >= --minibatches, --total-decisions >= 1")
    if args.snapshot_every < 1 or args.epochs < 1 or args.minibatches < 1 or args.eval_every < 0:
        parser.error("--snapshot-every, --epochs and --minibatches >= 1, --eval-every >= 0")
    return args


# ----- the policy network (the `policy` bot's shape) and the value baseline ------------------


class Policy:
    """``logit(move) = w2 · relu(w1 · (x - mean) / scale + b1)`` for each legal move's features."""

    def __init__(self, mean: F64, scale: F64, hidden: int, rng: np.random.Generator) -> None:
        n = len(mean)
        self.mean, self.scale = mean, scale
        self.w1 = rng.normal(0.0, math.sqrt(2.0 / n), (hidden, n))
        self.b1 = np.zeros(hidden)
        # A small last layer: the first network, the pool's first opponent, is close to
        # uniformly random, and nothing is ruled out before the learner has tried it.
        self.w2 = rng.normal(0.0, 0.01, hidden)

    def params(self) -> list[F64]:
        return [self.w1, self.b1, self.w2]

    def copy(self) -> Policy:
        other = Policy.__new__(Policy)
        other.mean, other.scale = self.mean, self.scale
        other.w1, other.b1, other.w2 = self.w1.copy(), self.b1.copy(), self.w2.copy()
        return other

    def standardise(self, x: F32) -> F32:
        return ((x - self.mean.astype(np.float32)) / self.scale.astype(np.float32)).astype(np.float32)

    def forward(self, z: F32) -> tuple[F32, F32, F32]:
        """Logits of standardised rows ``z``, with the hidden layer's input and output."""
        pre = z @ self.w1.T.astype(np.float32) + self.b1.astype(np.float32)
        h = np.maximum(pre, 0.0)
        return h @ self.w2.astype(np.float32), pre, h

    def fit(self) -> Fit:
        return Fit(w1=self.w1, b1=self.b1, w2=self.w2, b2=0.0, mean=self.mean, scale=self.scale)


def segment_softmax(z: F32, seg: I64, starts: I64) -> tuple[F32, F32]:
    """Probabilities and log-probabilities of rows ``z`` within their decisions."""
    m = np.maximum.reduceat(z, starts[:-1])
    shifted = z - m[seg]
    lse = np.log(np.add.reduceat(np.exp(shifted), starts[:-1]))
    logp = shifted - lse[seg]
    return np.exp(logp), logp


_TRACKS = LAYOUT["tracks"][0]
_BAG = LAYOUT["bag"][0]
VALUE_INPUTS = 12 + 1 + 2 * len(POLICY_FEATURES) + 1


def value_inputs(obs: F32, z: F32, starts: I64) -> F32:
    """What the baseline reads for each decision: the mover's and the other seat's markers,
    each lowest first (the score is the lowest colour), the bag's fill, the best and the mean
    standardised feature over the legal moves, and a constant."""
    n = len(obs)
    tracks = np.sort(obs[:, _TRACKS : _TRACKS + 12].reshape(n, 2, 6), axis=2).reshape(n, 12)
    counts = np.diff(starts)
    best = np.maximum.reduceat(z, starts[:-1], axis=0)
    mean = np.add.reduceat(z, starts[:-1], axis=0) / counts[:, None]
    return np.concatenate([tracks, obs[:, _BAG : _BAG + 1], best, mean, np.ones((n, 1), np.float32)], axis=1)


class Adam:
    """Adam on a list of arrays, updated in place; the global gradient norm clipped first."""

    def __init__(self, params: list[F64], lr: float) -> None:
        self.params, self.lr, self.t = params, lr, 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def step(self, grads: list[F64], max_norm: float = math.inf) -> None:
        norm = math.sqrt(sum(float((g * g).sum()) for g in grads))
        if norm > max_norm:
            grads = [g * (max_norm / norm) for g in grads]
        self.t += 1
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            p -= self.lr * (m / (1 - 0.9**self.t)) / (np.sqrt(v / (1 - 0.999**self.t)) + 1e-8)


# ----- one decision of the learner, and a batch of them ----------------------------------------


@dataclass
class Decision:
    z: F32  # the legal moves' standardised features (moves × features)
    chosen: int  # the row played
    logp: float  # its log-probability when played
    value_in: F32
    value: float
    advantage: float = 0.0
    ret: float = 0.0


def finish(game: list[Decision], reward: float, gamma: float, lam: float) -> None:
    """GAE over one finished game's decisions: the reward comes after the last."""
    gae = 0.0
    next_value = 0.0
    for t in range(len(game) - 1, -1, -1):
        r = reward if t == len(game) - 1 else 0.0
        delta = r + gamma * next_value - game[t].value
        gae = delta + gamma * lam * gae
        game[t].advantage, game[t].ret = gae, gae + game[t].value
        next_value = game[t].value


def pick(logits: F32, starts: I64, rng: np.random.Generator) -> I64:
    """A sampled row for each decision (the Gumbel-max trick: the largest perturbed logit)."""
    score = logits + rng.gumbel(size=len(logits)).astype(np.float32)
    counts = np.diff(starts)
    seg = np.repeat(np.arange(len(counts)), counts)
    best = np.maximum.reduceat(score, starts[:-1])
    hits = np.flatnonzero(score == best[seg])
    first = np.r_[True, seg[hits][1:] != seg[hits][:-1]]
    return hits[first]


def update(
    policy: Policy, value_w: F64, batch: list[Decision], args: Args, opt: Adam, vopt: Adam, rng: np.random.Generator
) -> dict[str, float]:
    """PPO's epochs over ``batch``; returns what the progress line shows."""
    n = len(batch)
    sizes = np.array([len(d.z) for d in batch], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    z_all = np.concatenate([d.z for d in batch])
    chosen_all = offsets[:-1] + np.array([d.chosen for d in batch], dtype=np.int64)
    old_logp = np.array([d.logp for d in batch], dtype=np.float32)
    adv_all = np.array([d.advantage for d in batch], dtype=np.float32)
    ret_all = np.array([d.ret for d in batch], dtype=np.float32)
    vin_all = np.stack([d.value_in for d in batch])
    stats: dict[str, list[float]] = {"kl": [], "clipfrac": [], "entropy": [], "value_loss": []}
    per = max(1, n // args.minibatches)
    for _epoch in range(args.epochs):
        order = rng.permutation(n)
        for k in range(0, n - per + 1, per):
            ds = np.sort(order[k : k + per])
            m = len(ds)
            lo, counts = offsets[ds], sizes[ds]
            starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
            seg = np.repeat(np.arange(m), counts)
            rows = lo[seg] + (np.arange(starts[-1]) - starts[seg])
            z = z_all[rows]
            logits, pre, h = policy.forward(z)
            p, logp_rows = segment_softmax(logits, seg, starts)
            chosen = starts[:-1] + (chosen_all[ds] - lo)
            logp = logp_rows[chosen]
            ratio = np.exp(logp - old_logp[ds])
            adv = adv_all[ds]
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            # The clipped objective's gradient flows only where the unclipped term is the
            # smaller one: there d(-ratio·A)/d logp = -ratio·A.
            clipped = np.clip(ratio, 1 - args.clip, 1 + args.clip)
            active = ratio * adv <= clipped * adv
            g_logp = np.where(active, -ratio * adv, 0.0) / m
            entropy = -np.add.reduceat(p * logp_rows, starts[:-1])
            # d logp(chosen)/d logit_j = [j chosen] - p_j; dH/d logit_j = -p_j (log p_j + H).
            dz = -p * g_logp[seg]
            dz[chosen] += g_logp
            dz += args.ent_coef * p * (logp_rows + entropy[seg]) / m
            dz = dz.astype(np.float32)
            g_w2 = h.T @ dz
            dh = np.outer(dz, policy.w2.astype(np.float32)) * (pre > 0)
            g_w1 = dh.T @ z
            g_b1 = dh.sum(axis=0)
            opt.step([g_w1.astype(np.float64), g_b1.astype(np.float64), g_w2.astype(np.float64)], args.max_grad_norm)

            vin = vin_all[ds]
            err = vin @ value_w.astype(np.float32) - ret_all[ds]
            vopt.step([(vin.T @ err).astype(np.float64) / m])

            log_ratio = logp - old_logp[ds]
            stats["kl"].append(float(((ratio - 1) - log_ratio).mean()))
            stats["clipfrac"].append(float((np.abs(ratio - 1) > args.clip).mean()))
            stats["entropy"].append(float(entropy.mean()))
            stats["value_loss"].append(float((err * err).mean()))
    return {k: float(np.mean(v)) for k, v in stats.items()}


# ----- evaluation and files --------------------------------------------------------------------


def write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def evaluate(policy: Policy, args: Args) -> dict[str, Any]:
    """The ``policy`` bot with these weights against ``greedy`` and ``random``, on the
    monitor deals, and the SHA-256 of the weight file it played with."""
    weights = policy_bytes(policy.fit())
    _core.use_policy_weights(weights)
    try:
        rates = evaluate_agent(
            "policy", ["greedy", "random"], games=args.eval_games, seed=args.monitor_seed, threads=args.threads
        )
    finally:
        _core.use_policy_weights(None)
    out: dict[str, Any] = {"weights_sha256": hashlib.sha256(weights).hexdigest()}
    for name, r in rates.items():
        out[name] = {"win_rate": r.value, "low": r.low, "high": r.high, "games": r.n}
    return out


def save(policy: Policy, curve: list[dict[str, Any]], args: Args, status: str) -> None:
    args.out.mkdir(parents=True, exist_ok=True)
    write_atomic(args.out / "policy.bin", policy_bytes(policy.fit()))
    settings = {k: str(v) if isinstance(v, Path) else v for k, v in asdict(args).items()}
    report = {"status": status, "settings": settings, "features": list(POLICY_FEATURES), "curve": curve}
    write_atomic(args.out / "curve.json", (json.dumps(report, indent=2) + "\n").encode())


# ----- the loop ----------------------------------------------------------------------------------


def main() -> None:
    args = parse_args()
    rng = np.random.default_rng(args.seed)
    env = genial.VecEnv(args.num_envs, players=2, seed=args.seed, threads=args.threads)
    n = args.num_envs
    learner = np.arange(n) % 2
    obs, _mask, player = env.reset()

    # Standardisation from the opening positions' moves, as the supervised trainer does:
    # a feature that does not vary there (the bias, the other player counts) is left as it is.
    x0 = env.move_features()[0].astype(np.float64)
    mean, scale = x0.mean(axis=0), x0.std(axis=0)
    constant = scale < 1e-6
    mean[constant], scale[constant] = 0.0, 1.0
    policy = Policy(mean, scale, args.hidden, rng)
    value_w = np.zeros(VALUE_INPUTS)
    opt = Adam(policy.params(), args.lr)
    vopt = Adam([value_w], args.value_lr)

    pool = [policy.copy()]
    last = policy.copy()  # the weights of the last finished update, kept on Ctrl-C
    opponent = np.zeros(n, dtype=np.int64)  # the first games are against the initial network
    games: list[list[Decision]] = [[] for _ in range(n)]
    ready: list[Decision] = []
    curve: list[dict[str, Any]] = []
    decisions = finished = updates = 0
    results: list[float] = []
    train_cpu = 0.0
    eval_cpu = 0.0
    status = "interrupted"
    print(f"self-play PPO: {args.num_envs} envs, budget {args.total_decisions} learner decisions, out {args.out}")
    try:
        while True:
            # --- play until finished games hold an update's worth of decisions
            t0 = time.process_time()
            while len(ready) < args.decisions_per_update:
                x, which, actions = env.move_features()
                starts = np.searchsorted(which, np.arange(n + 1)).astype(np.int64)
                z = policy.standardise(x)
                logits = np.empty(len(x), dtype=np.float32)
                mine = player == learner
                mine_rows = mine[which]
                logits[mine_rows] = policy.forward(z[mine_rows])[0]
                for k in np.unique(opponent[~mine]):
                    rows = (~mine_rows) & (opponent[which] == k)
                    logits[rows] = pool[k].forward(z[rows])[0]
                chosen = pick(logits, starts, rng)
                envs_mine = np.flatnonzero(mine)
                if len(envs_mine):
                    _p, logp = segment_softmax(logits, np.repeat(np.arange(n), np.diff(starts)), starts)
                    # The learner's rows only, copied, so that a step's other rows are freed.
                    z_mine = z[mine_rows]
                    sub = np.concatenate([[0], np.cumsum(np.diff(starts)[envs_mine])]).astype(np.int64)
                    vin = value_inputs(obs[envs_mine], z_mine, sub)
                    vals = vin @ value_w.astype(np.float32)
                    for j, i in enumerate(envs_mine):
                        games[i].append(
                            Decision(
                                z_mine[sub[j] : sub[j + 1]],
                                int(chosen[i] - starts[i]),
                                float(logp[chosen[i]]),
                                vin[j],
                                float(vals[j]),
                            )
                        )
                obs, _mask, rewards, dones, player = env.step(actions[chosen])
                for i in np.flatnonzero(dones):
                    reward = float(rewards[i, learner[i]])
                    if games[i]:
                        finish(games[i], reward, args.gamma, args.gae_lambda)
                        ready.extend(games[i])
                        decisions += len(games[i])
                    games[i] = []
                    results.append(reward)
                    finished += 1
                    # The next game's opponent: the newest snapshot, or any one of the pool.
                    newest = rng.random() < args.latest_share
                    opponent[i] = len(pool) - 1 if newest else rng.integers(0, len(pool))

            # --- learn from them
            batch, ready = ready, []
            stats = update(policy, value_w, batch, args, opt, vopt, rng)
            last = policy.copy()
            updates += 1
            if updates % args.snapshot_every == 0:
                pool.append(policy.copy())
            train_cpu += time.process_time() - t0
            recent, results = results or [0.0], []
            done = decisions >= args.total_decisions
            print(
                f"update {updates:>4}  decisions {decisions:>8}  games {finished:>6}  cpu {train_cpu:7.1f}s  "
                f"reward vs pool {np.mean(recent):+.2f}  entropy {stats['entropy']:.2f}  kl {stats['kl']:.4f}  "
                f"clip {stats['clipfrac']:.2f}  value loss {stats['value_loss']:.3f}  pool {len(pool)}",
                flush=True,
            )
            if done or (args.eval_every and updates % args.eval_every == 0):
                t1 = time.process_time()
                rates = evaluate(policy, args)
                eval_cpu += time.process_time() - t1
                curve.append(
                    {
                        "update": updates,
                        "decisions": decisions,
                        "games": finished,
                        "cpu_s": round(train_cpu, 2),
                        **rates,
                    }
                )
                print(
                    f"  eval at {train_cpu:.0f} CPU-s: against greedy {rates['greedy']['win_rate']:.3f} "
                    f"[{rates['greedy']['low']:.3f}, {rates['greedy']['high']:.3f}], "
                    f"against random {rates['random']['win_rate']:.3f} ({args.eval_games} games each, "
                    f"{eval_cpu:.0f} CPU-s evaluating so far)",
                    flush=True,
                )
                save(policy, curve, args, "running")
            if done:
                status = "finished"
                break
    except KeyboardInterrupt:
        print("\ninterrupted: writing the last update's weights and the curve so far", flush=True)
    save(last, curve, args, status)
    print(f"wrote {args.out / 'policy.bin'} and {args.out / 'curve.json'}")
    if status == "interrupted":
        raise SystemExit(130)  # as the genial command ends after Ctrl-C


if __name__ == "__main__":
    main()

"""Masked PPO from a maintained library (sb3-contrib's `MaskablePPO`) on genial's
Stable-Baselines3 ``VecEnv``, trained on a CPU.

The agent plays one seat of a 2-player game against the built-in ``random`` bot
(`genial.envs.sb3.VecEnv`: ``--envs`` games stepped together in Rust, a random seat each
game). It sees only its own observation (`genial.observation`, `OBS_SIZE` numbers) and chooses
among the legal actions only: the environment's ``action_masks()`` (`genial.actions`, 6086
actions) is what `MaskablePPO` reads. The reward is the environment's own: +1 for a win, -1 for a loss, 0
for a tie, at the end of the game. The network is two hidden layers (256 and 128, ReLU) for
the policy and the same again for the value.

Training stops at ``--timesteps`` agent decisions or ``--cpu-minutes`` of this process's
CPU time, whichever comes first, on ``--threads`` threads (1 by default, so that the CPU
time is one core's). After every rollout the script appends a point to the learning curve:
decisions so far, CPU seconds so far, and the mean result of the last 500 training games.

Then it exports the policy network to a small ``.npz`` of float32 arrays and checks that the
numpy copy chooses exactly what `MaskablePPO.predict` chooses on the rollouts' last
observations. The numpy copy plays as an ordinary bot (`PolicyBot`, which reads only a
`GameView`) against ``random``, ``greedy`` and ``easy``: ``--eval-games`` deals each, every
deal played twice with the seats swapped, with the win rate (a tie counts half) and its 95 %
Wilson interval. Everything lands in ``--out``: ``policy.npz``, ``curve.csv``,
``report.json`` and, with matplotlib installed, ``curve.png``.

Everything is seeded (``--seed``): on one machine the same command gives the same policy.
The heavy dependency, PyTorch, comes with the ``learn`` extra (``pip install ".[learn]"``);
genial itself never needs it.

    python examples/train_maskable_ppo.py --out ppo-run                 # about 45 CPU-minutes
    python examples/train_maskable_ppo.py --timesteps 2048 --eval-games 10 --out smoke
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import genial
import numpy as np
import numpy.typing as npt
from genial import GameView, Move
from genial.actions import ACTION_COUNT, action_to_move, legal_action_mask
from genial.observation import OBS_SIZE, observe
from genial.stats import Rate

FloatArray = npt.NDArray[np.float32]
HIDDEN = (256, 128)
OPPONENTS = ("random", "greedy", "easy")


# ----- the learning curve and the CPU budget ---------------------------------------------------


@dataclass
class Point:
    timesteps: int
    cpu_s: float
    games: int
    mean_result: float  # of the last 500 training games, in [0, 1]: a tie counts half


class Curve:
    """Called by stable-baselines3 after every step (a plain callable is a callback there):
    records a point after each rollout and stops training at the CPU budget."""

    def __init__(self, cpu_budget_s: float, rollout: int) -> None:
        self.cpu_budget_s = cpu_budget_s
        self.rollout = rollout  # decisions per rollout: envs × n_steps
        self.start = time.process_time()
        self.points: list[Point] = []
        self.results: list[float] = []

    def __call__(self, local: dict[str, Any], _globals: dict[str, Any]) -> bool:
        for info in local.get("infos", ()):
            episode = info.get("episode")
            if episode is not None:
                self.results.append((float(episode["r"]) + 1.0) / 2.0)
        timesteps = int(local["self"].num_timesteps)
        if timesteps % self.rollout == 0:
            recent = self.results[-500:]
            self.points.append(
                Point(
                    timesteps=timesteps,
                    cpu_s=round(time.process_time() - self.start, 2),
                    games=len(self.results),
                    mean_result=round(float(np.mean(recent)), 4) if recent else float("nan"),
                )
            )
        return time.process_time() - self.start < self.cpu_budget_s


# ----- the policy without torch ----------------------------------------------------------------


def export_policy(model: Any) -> dict[str, FloatArray]:
    """The policy network's weights, as numpy arrays: ``w0, b0, w1, b1, …`` (ReLU between)."""
    import torch

    policy = model.policy
    layers = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    layers.append(policy.action_net)
    arrays: dict[str, FloatArray] = {}
    for i, layer in enumerate(layers):
        arrays[f"w{i}"] = layer.weight.detach().cpu().numpy().T.astype(np.float32)
        arrays[f"b{i}"] = layer.bias.detach().cpu().numpy().astype(np.float32)
    return arrays


class NumpyPolicy:
    """The exported policy: ReLU layers, then the action logits, masked to the legal actions."""

    def __init__(self, arrays: dict[str, FloatArray]) -> None:
        count = len(arrays) // 2
        self.layers = [(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(count)]
        if self.layers[0][0].shape[0] != OBS_SIZE or self.layers[-1][0].shape[1] != ACTION_COUNT:
            raise ValueError("the arrays are not a policy for this observation and action space")

    @classmethod
    def load(cls, path: Path) -> NumpyPolicy:
        with np.load(path) as data:
            return cls({name: data[name] for name in data.files})

    def best_actions(self, obs: FloatArray, mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        """The most likely legal action for each row of ``obs`` (batch, OBS_SIZE)."""
        x = obs.astype(np.float32)
        for w, b in self.layers[:-1]:
            x = np.maximum(x @ w + b, 0.0)
        w, b = self.layers[-1]
        logits = np.where(mask, x @ w + b, -np.inf)
        return np.argmax(logits, axis=1)


class PolicyBot:
    """The exported policy at a `genial.play_game` table, playing its most likely action. A
    `GameView` gives a copy of the game consistent with what the seat sees; its observation
    and legal actions are those of the real game."""

    name = "maskable-ppo"

    def __init__(self, policy: NumpyPolicy) -> None:
        self.policy = policy

    def choose(self, view: GameView) -> Move:
        game = view.determinize(seed=len(view.moves))
        obs = observe(game, view.seat)[None, :]
        mask = legal_action_mask(game).astype(np.bool_)[None, :]
        return action_to_move(game, int(self.policy.best_actions(obs, mask)[0]))


def check_export(model: Any, policy: NumpyPolicy, obs: FloatArray, masks: npt.NDArray[np.bool_]) -> int:
    """Asserts that the numpy copy chooses what the trained model chooses; returns the rows."""
    expected, _ = model.predict(obs, action_masks=masks, deterministic=True)
    got = policy.best_actions(obs, masks)
    if not np.array_equal(np.asarray(expected), got):
        raise AssertionError("the exported policy does not choose what the trained model chooses")
    return len(obs)


# ----- evaluation ------------------------------------------------------------------------------


def match(bot: PolicyBot, opponent: str, deals: int, seed: int) -> Rate:
    """``deals`` deals against ``opponent``, each played twice with the seats swapped."""
    points = 0.0
    for deal in range(deals):
        deal_seed = seed + deal
        for seat in (0, 1):
            lineup: list[Any] = [opponent, opponent]
            lineup[seat] = bot
            game = genial.play_game(lineup, players=2, seed=deal_seed)
            points += (game.returns()[seat] + 1.0) / 2.0
    return Rate.wilson(points, 2 * deals)


# ----- the run ---------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--timesteps", type=int, default=20_000_000, help="agent decisions at most")
    p.add_argument("--cpu-minutes", type=float, default=45.0, help="CPU time at most")
    p.add_argument("--envs", type=int, default=8, help="games stepped together")
    p.add_argument("--n-steps", type=int, default=256, help="decisions per game per rollout")
    p.add_argument("--threads", type=int, default=1, help="torch threads")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--eval-games", type=int, default=500, help="deals against each opponent")
    p.add_argument("--eval-seed", type=int, default=900_000, help="first deal of the evaluation")
    p.add_argument("--out", type=Path, required=True, help="folder for the policy and the report")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    try:
        import torch
        from genial.envs.sb3 import VecEnv
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.logger import Logger
        from stable_baselines3.common.vec_env import VecMonitor
    except ImportError as e:
        raise SystemExit(f'this example needs the learn extra ({e}): pip install ".[learn]"') from e
    args.out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(args.threads)
    # The games step in Rust on one thread (the results do not depend on it); VecMonitor
    # reports each finished game's result in its info, which the curve reads.
    envs = VecMonitor(VecEnv(args.envs, players=2, opponents="random", seat=None, seed=args.seed, threads=1))
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        n_steps=args.n_steps,
        batch_size=512,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.995,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={
            "net_arch": {"pi": list(HIDDEN), "vf": list(HIDDEN)},
            "activation_fn": torch.nn.ReLU,
        },
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    # A logger that writes nowhere: the default one leaves an empty SB3-<time> folder in the
    # system's temporary folder on every run. The curve below is this script's record.
    model.set_logger(Logger(folder=None, output_formats=[]))
    curve = Curve(args.cpu_minutes * 60.0, args.envs * args.n_steps)
    model.learn(total_timesteps=args.timesteps, callback=curve)
    train_cpu_s = time.process_time() - curve.start
    print(f"trained {model.num_timesteps:,} decisions ({len(curve.results):,} games) in {train_cpu_s:,.0f} CPU-s")

    arrays = export_policy(model)
    np.savez_compressed(args.out / "policy.npz", **arrays)  # type: ignore[arg-type]
    policy = NumpyPolicy.load(args.out / "policy.npz")
    # The last rollout's positions (those filled: a stop at the budget leaves the rest empty).
    obs = np.asarray(model.rollout_buffer.observations, dtype=np.float32).reshape(-1, OBS_SIZE)
    masks = np.asarray(model.rollout_buffer.action_masks, dtype=np.bool_).reshape(-1, ACTION_COUNT)
    keep = np.flatnonzero(masks.any(axis=1))[:1024]
    checked = check_export(model, policy, obs[keep], masks[keep])
    print(f"the numpy policy chooses what the model chooses on {checked} positions")

    with (args.out / "curve.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(asdict(curve.points[0]) if curve.points else ["timesteps"]))
        writer.writeheader()
        writer.writerows(asdict(p) for p in curve.points)

    bot = PolicyBot(policy)
    results = {}
    for opponent in OPPONENTS:
        rate = match(bot, opponent, args.eval_games, args.eval_seed)
        results[opponent] = asdict(rate)
        print(f"against {opponent:<7} {rate}")

    report = {
        "timesteps": int(model.num_timesteps),
        "training_games": len(curve.results),
        "train_cpu_s": round(train_cpu_s, 1),
        "policy_bytes": (args.out / "policy.npz").stat().st_size,
        "export_checked_on": checked,
        "against": results,
        "settings": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "versions": {"genial": genial.__version__, "torch": torch.__version__},
    }
    (args.out / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    plot(curve.points, args.out / "curve.png")
    print(f"wrote {args.out}")


def plot(points: list[Point], path: Path) -> None:
    """The learning curve as a picture, when matplotlib is installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=120)
    ax.plot([p.cpu_s / 60 for p in points], [p.mean_result for p in points], color="#2f6f9f")
    ax.axhline(0.5, color="#999999", linewidth=0.8, linestyle="--")
    ax.set_xlabel("CPU minutes (one thread)")
    ax.set_ylabel("result against random\n(last 500 training games)")
    ax.set_ylim(0.0, 1.0)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


if __name__ == "__main__":
    main()

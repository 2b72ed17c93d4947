"""Decisions per CPU-second that sb3-contrib's MaskablePPO collects in its rollouts, through
genial's SB3 VecEnv (`genial.envs.sb3.VecEnv`, the Rust core stepping every game) against
the earlier path of examples/train_maskable_ppo.py (SB3's DummyVecEnv over one Python
Gymnasium env per game, rebuilt here as that example had it), in the same run
(BENCHMARKS.md, "MaskablePPO through genial's SB3 VecEnv").

    python benches/sb3_rollout.py [--rollouts 3] [--old-envs 8] [--old-steps 256]
                                  [--games 64] [--steps 64] [--threads 1]

Both learn one seat of a 2-player game against the ``random`` bot, a random seat each game,
with the example's network (256 and 128 ReLU units for the policy and the value) on one
torch thread. Only the rollouts are timed (CPU time of this process, from SB3's
``on_rollout_start`` to ``on_rollout_end``, summed over ``--rollouts`` rollouts; the
updates between them are not), and a decision is one of the learner's. Then the
environments alone, driven as the rollout drives them but with each env's first legal
action instead of the network's choice.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any


def rollout_rate(env: Any, decisions_per_rollout: int, rollouts: int, n_steps: int, seed: int) -> tuple[float, float]:
    """(decisions per CPU-second, CPU seconds) of ``rollouts`` MaskablePPO rollouts on ``env``."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.logger import Logger

    class Clock(BaseCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.cpu = 0.0
            self._start = 0.0

        def _on_rollout_start(self) -> None:
            self._start = time.process_time()

        def _on_rollout_end(self) -> None:
            self.cpu += time.process_time() - self._start

        def _on_step(self) -> bool:
            return True

    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=n_steps,
        batch_size=512,
        n_epochs=1,
        policy_kwargs={"net_arch": {"pi": [256, 128], "vf": [256, 128]}, "activation_fn": torch.nn.ReLU},
        seed=seed,
        device="cpu",
    )
    model.set_logger(Logger(folder=None, output_formats=[]))
    clock = Clock()
    model.learn(total_timesteps=rollouts * env.num_envs * n_steps, callback=clock)
    decisions = rollouts * decisions_per_rollout
    return decisions / clock.cpu, clock.cpu


def env_rate(env: Any, steps: int) -> float:
    """Decisions per CPU-second of the environment alone, as the rollout drives it (masks
    read, one action per env, a step), each env playing its first legal action: what the
    policy network costs is left out."""
    from sb3_contrib.common.maskable.utils import get_action_masks

    env.reset()
    start = time.process_time()
    for _ in range(steps):
        env.step(get_action_masks(env).argmax(axis=1))
    return steps * env.num_envs / (time.process_time() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, default=3)
    parser.add_argument("--old-envs", type=int, default=8, help="DummyVecEnv: Python envs (the example's default)")
    parser.add_argument("--old-steps", type=int, default=256, help="DummyVecEnv: steps per env per rollout")
    parser.add_argument("--games", type=int, default=64, help="genial's VecEnv: games stepped together")
    parser.add_argument("--steps", type=int, default=64, help="genial's VecEnv: steps per game per rollout")
    parser.add_argument("--threads", type=int, default=1, help="torch threads and the core's")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    import gymnasium
    import torch
    from genial.envs.gymnasium import IngeniousEnv
    from genial.envs.sb3 import VecEnv
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(args.threads)

    class AgentObservation(gymnasium.ObservationWrapper):  # type: ignore[type-arg]
        """The earlier example's wrapper: the observation vector alone, the mask through
        ``action_masks()``."""

        def __init__(self, env: IngeniousEnv) -> None:
            super().__init__(env)
            self.observation_space = env.observation_space["observation"]

        def observation(self, observation: dict[str, Any]) -> Any:
            return observation["observation"]

        def action_masks(self) -> Any:
            return self.env.unwrapped.action_masks()

    def make_env() -> Any:
        return AgentObservation(IngeniousEnv(players=2, opponents="random", seat=None))

    old = make_vec_env(make_env, n_envs=args.old_envs, seed=args.seed)
    old_rate, old_cpu = rollout_rate(old, args.old_envs * args.old_steps, args.rollouts, args.old_steps, args.seed)
    new = VecEnv(args.games, players=2, opponents="random", seat=None, seed=args.seed, threads=args.threads)
    new_rate, new_cpu = rollout_rate(new, args.games * args.steps, args.rollouts, args.steps, args.seed)
    old_env = env_rate(make_vec_env(make_env, n_envs=args.old_envs, seed=args.seed), args.old_steps)
    new_env = env_rate(
        VecEnv(args.games, players=2, opponents="random", seat=None, seed=args.seed, threads=args.threads),
        args.steps * 4,
    )
    print("MaskablePPO's rollouts (policy network included):")
    print(
        f"  DummyVecEnv, {args.old_envs} Python envs x {args.old_steps} steps: {old_rate:,.0f} decisions/CPU-s ({old_cpu:.1f} CPU-s)"
    )
    print(
        f"  genial.envs.sb3.VecEnv, {args.games} games x {args.steps} steps: {new_rate:,.0f} decisions/CPU-s ({new_cpu:.1f} CPU-s)"
    )
    print(f"  ratio {new_rate / old_rate:.1f}x")
    print("the environment alone (masks, actions, steps):")
    print(f"  DummyVecEnv, {args.old_envs} Python envs: {old_env:,.0f} decisions/CPU-s")
    print(f"  genial.envs.sb3.VecEnv, {args.games} games: {new_env:,.0f} decisions/CPU-s")
    print(f"  ratio {new_env / old_env:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmarks of the learning interfaces (run:
`.venv/bin/python -m pytest benches/test_bench_rl.py --benchmark-enable`).

`extra_info["decisions_per_s"]` gives the throughput at the median time per round."""

from __future__ import annotations

import genial
import numpy as np
import pytest
from genial.actions import ACTION_COUNT, legal_action_mask
from genial.observation import OBS_SIZE, observe, observe_batch

NUM_ENVS = 256


def midgame(players: int = 2, seed: int = 11) -> genial.Game:
    """A position about a third into a random game."""
    game = genial.Game(players=players, seed=seed)
    chooser = np.random.default_rng(seed)
    while len(game.moves) < 12 * players or game.phase != "place":
        game.play(game.legal_moves()[int(chooser.integers(game.legal_move_count()))])
    return game


def sample_from_masks(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per row, with numpy only."""
    legal = np.flatnonzero(mask)
    counts = np.count_nonzero(mask, axis=1)
    starts = np.cumsum(counts) - counts
    pick = starts + (rng.random(len(counts)) * counts).astype(np.int64)
    return legal[pick] - np.arange(len(counts)) * mask.shape[1]


def record(benchmark, decisions: int) -> None:
    benchmark.extra_info["decisions_per_round"] = decisions
    if benchmark.stats is not None:
        benchmark.extra_info["decisions_per_s"] = round(decisions / benchmark.stats.stats.median)


@pytest.mark.parametrize("threads", [1, 2])
def test_vecenv_step_rust_sampling(benchmark, threads: int) -> None:
    """One batched step of 256 two-player games, actions sampled in Rust."""
    env = genial.VecEnv(NUM_ENVS, players=2, seed=1, threads=threads)
    env.reset()
    benchmark(lambda: env.step(env.sample_actions()))
    record(benchmark, NUM_ENVS)


@pytest.mark.parametrize("threads", [1, 2])
def test_vecenv_step_numpy_sampling(benchmark, threads: int) -> None:
    """One batched step of 256 two-player games, actions sampled by numpy from the masks."""
    env = genial.VecEnv(NUM_ENVS, players=2, seed=1, threads=threads)
    rng = np.random.default_rng(0)
    state = {"mask": env.reset().mask}

    def step() -> None:
        state["mask"] = env.step(sample_from_masks(rng, state["mask"])).mask

    benchmark(step)
    record(benchmark, NUM_ENVS)


def test_observe(benchmark) -> None:
    game = midgame()
    out = np.empty(OBS_SIZE, np.float32)
    benchmark(observe, game, game.current_player, out)


def test_legal_action_mask(benchmark) -> None:
    game = midgame()
    out = np.empty(ACTION_COUNT, np.bool_)
    benchmark(legal_action_mask, game, out)
    benchmark.extra_info["legal_actions"] = int(out.sum())


def test_observe_batch(benchmark) -> None:
    games = [midgame(seed=s) for s in range(64)]
    players = [g.current_player for g in games]
    out = np.empty((len(games), OBS_SIZE), np.float32)
    benchmark(observe_batch, games, players, out)


def test_pettingzoo_random_game(benchmark) -> None:
    """A whole two-player game through the PettingZoo AEC API, random legal actions."""
    pettingzoo_env = pytest.importorskip("genial.envs.pettingzoo")
    env = pettingzoo_env.raw_env(players=2)
    seeds = iter(range(10**9))
    decisions = []

    def game() -> None:
        seed = next(seeds)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        n = 0
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            n += 1
        decisions.append(n)

    benchmark.pedantic(game, rounds=20, iterations=1)
    record(benchmark, int(np.median(decisions)))


def test_gymnasium_episode_vs_greedy(benchmark) -> None:
    """A whole episode of the single-agent env, random agent against a greedy bot."""
    gym_env = pytest.importorskip("genial.envs.gymnasium")
    env = gym_env.IngeniousEnv(opponents="greedy")
    seeds = iter(range(10**9))

    def episode() -> None:
        seed = next(seeds)
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, done, _, _ = env.step(int(legal[rng.integers(len(legal))]))

    benchmark.pedantic(episode, rounds=20, iterations=1)

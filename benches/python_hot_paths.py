"""Throughput of the Python calls that release the GIL, per CPU-second of this process
(all threads, `getrusage`) and per wall second; each line is timed after a warm-up run.

    .venv/bin/python benches/python_hot_paths.py

Run it with two builds in turn (``PYTHONPATH=<copy of another build's python/>``) to
compare them: benches/results/HISTORY.md, "Hardening: before and after, one session".
"""

import resource
import time

import genial
import numpy as np
from genial.actions import ACTION_COUNT, legal_action_mask
from genial.bots import make
from genial.observation import OBS_SIZE, observe


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def timed(label, fn, n):
    fn()  # warm up
    c0, w0 = cpu(), time.perf_counter()
    fn()
    c, w = cpu() - c0, time.perf_counter() - w0
    print(f"{label:<34} {n / c:>12,.0f} per CPU-s {n / w:>12,.0f} per wall-s")


game = genial.Game(2, seed=3)
for _ in range(10):
    game.play(game.legal_moves()[0])
mask = np.zeros(ACTION_COUNT, dtype=np.bool_)
obs = np.zeros(OBS_SIZE, dtype=np.float32)
timed("legal_action_mask(out=) x20000", lambda: [legal_action_mask(game, mask) for _ in range(20000)], 20000)
timed("observe(out=) x20000", lambda: [observe(game, 0, obs) for _ in range(20000)], 20000)
env = genial.VecEnv(256, seed=1, threads=1)
env.reset()
timed("VecEnv(256) step x200 (decisions)", lambda: [env.step(env.sample_actions()) for _ in range(200)], 200 * 256)
timed("simulate random 2p 100k (games)", lambda: genial.simulate(100_000, threads=1), 100_000)
timed("simulate greedy 2p 3k (games)", lambda: genial.simulate(3000, bots="greedy", threads=1), 3000)
bot = make("mcts", seed=1, iterations=300)
timed("mcts choose x20 (decisions)", lambda: [bot.choose(game) for _ in range(20)], 20)

"""Learning environments around genial's Rust core.

* `genial.envs.pettingzoo` — a PettingZoo AEC environment: every seat an agent
  (``player_0`` ...), observations ``{"observation", "action_mask"}``, a bonus placement
  is the same agent moving again; ``parallel_env()`` for the parallel API, ``state()``
  for centralised critics. Needs ``pettingzoo``.
* `genial.envs.gymnasium` — a Gymnasium single-agent environment, ``IngeniousEnv``
  (registered as ``genial/Ingenious-v0``), where the agent plays one seat against built-in
  bots. Needs ``gymnasium``.
* `genial.envs.momaland` — a drop-in for MOMAland's ``moingenious_v0`` (its spaces, action
  numbers and per-colour vector rewards, on the books' rules). Needs ``pettingzoo``.
* `genial.VecEnv` — many games stepped together in Rust, for throughput.
* `genial.envs.sb3` — ``VecEnv``, `genial.VecEnv` as a Stable-Baselines3 ``VecEnv`` (one
  seat against bots, or self-play), with ``action_masks()`` for sb3-contrib's
  ``MaskablePPO``. Needs ``stable-baselines3``.
* `genial.envs.openspiel` — genial as an OpenSpiel game (``pyspiel.load_game("genial")``),
  with OpenSpiel's ISMCTS, MCTS with determinization and genial's bots as OpenSpiel bots.
  Needs ``open_spiel``.

Actions are `genial.actions` indices and observations `genial.observation` vectors in all
but the MOMAland drop-in, which keeps MOMAland's. The environments are imported on demand,
so genial itself needs none of these libraries.
"""

from __future__ import annotations

__all__: list[str] = []

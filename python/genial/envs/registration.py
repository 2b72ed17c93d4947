"""Makes ``gymnasium.make("genial/Ingenious-v0")`` work after ``import genial``, without
importing gymnasium (which would slow every ``import genial`` down): the id is registered
now if gymnasium is already loaded, otherwise right after gymnasium's own import finishes.

The id, its entry point and the finder that waits for gymnasium are `genial_gymnasium`'s,
the top-level module that the wheel's startup hook (``genial_gymnasium.pth``) runs: one
registration, whether genial or the hook comes first."""

from __future__ import annotations

import genial_gymnasium

ENV_ID = genial_gymnasium.ENV_ID


def register_gymnasium_envs() -> None:
    """Registers genial's Gymnasium ids (idempotent)."""
    import gymnasium  # noqa: F401 (loaded, so that the id can be registered with it)

    genial_gymnasium.register()


def install() -> None:
    """Called by ``import genial``: registers the id now, or once gymnasium is imported
    (importing `genial_gymnasium` already did, unless its startup hook ran it first)."""
    genial_gymnasium.install()

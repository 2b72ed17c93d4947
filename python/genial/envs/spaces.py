"""The observation forms that the Gymnasium and PettingZoo environments share.

``observation="vector"`` (the default): ``{"observation": the genial.observation vector,
"action_mask": int8 mask}``. ``observation="grid"``, for convolutional networks:
``{"observation": the (11, 15, 15) grid of genial.observation.to_grid, "features": the
other ``genial.observation.FEATURES`` entries, "action_mask": ...}``. Needs ``gymnasium``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..actions import ACTION_COUNT
from ..observation import grid_low_high, low_high, to_grid

__all__ = ["OBSERVATION_FORMS", "check_form", "observation_space", "pack"]

#: The forms an environment's ``observation`` argument takes.
OBSERVATION_FORMS = ("vector", "grid")


def check_form(form: object) -> str:
    """``form`` if it is one of `OBSERVATION_FORMS`, else `ValueError`."""
    if form not in OBSERVATION_FORMS:
        raise ValueError(f"observation must be 'vector' or 'grid', not {form!r}")
    return str(form)


def observation_space(form: str) -> spaces.Dict:
    """The observation space of ``form``."""
    mask = spaces.Box(0, 1, (ACTION_COUNT,), dtype=np.int8)
    if form == "grid":
        grid_low, grid_high, low, high = grid_low_high()
        return spaces.Dict(
            {
                "observation": spaces.Box(grid_low, grid_high, dtype=np.float32),
                "features": spaces.Box(low, high, dtype=np.float32),
                "action_mask": mask,
            }
        )
    low, high = low_high()
    return spaces.Dict({"observation": spaces.Box(low, high, dtype=np.float32), "action_mask": mask})


def pack(form: str, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> dict[str, Any]:
    """One observation in ``form``, from the core's vector and mask."""
    if form == "grid":
        grid, features = to_grid(obs)
        return {"observation": grid, "features": features, "action_mask": mask}
    return {"observation": obs, "action_mask": mask}

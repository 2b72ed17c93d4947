"""Pictures as pixels: the SVG drawings of `genial.svg` rasterised into numpy arrays, for
Gymnasium's ``rgb_array`` render mode (``RecordVideo``) and notebooks.

Rasterising is done by resvg (through the ``resvg-py`` package) and the PNG it returns is
decoded by Pillow: ``pip install "genial-engine[render]"``.
"""

from __future__ import annotations

import importlib
import io
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["available", "svg_to_rgb"]

_BACKGROUND = "#ffffff"


def _need(module: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(
            f'rasterising pictures needs resvg-py and pillow ({module} is missing): pip install "genial-engine[render]"'
        ) from None


def available() -> bool:
    """Whether pictures can be rasterised here: resvg-py and Pillow both import."""
    try:
        importlib.import_module("resvg_py")
        importlib.import_module("PIL.Image")
    except ImportError:
        return False
    return True


def svg_to_rgb(svg: str, *, width: int | None = None) -> npt.NDArray[np.uint8]:
    """An SVG document as an ``(height, width, 3)`` array of RGB bytes on white.

    ``width`` scales the picture to that many pixels (keeping its proportions); by default
    one SVG unit is one pixel."""
    if not isinstance(svg, str):
        raise TypeError(f"svg must be a str, not {type(svg).__name__}")
    if width is not None and (isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= 8192):
        raise ValueError(f"width must be an int in 1..8192 pixels, not {width!r}")
    resvg = _need("resvg_py")
    image = _need("PIL.Image")
    png = resvg.svg_to_bytes(svg_string=svg, background=_BACKGROUND, width=width)
    with image.open(io.BytesIO(bytes(png))) as picture:
        return np.asarray(picture.convert("RGB"), dtype=np.uint8)

"""genial: the fastest and most faithful engine for Reiner Knizia's Ingenious.

>>> import genial
>>> game = genial.Game(players=2, seed=1)
>>> len(game.legal_moves()) > 0
True
"""

from __future__ import annotations

# First of genial's imports: a Ctrl-C while the command imports the rest is one line.
from . import _startup as _startup  # isort: skip

from typing import Any as _Any  # isort: skip

from . import actions as actions  # submodules for learning agents
from . import observation as observation
from ._core import Board, BusyError, IllegalMoveError, LegalMoves, Move, PlayResult, Preview, Tile
from .analysis import Analysis, CandidateMove, analyse, evaluate
from .bots import BotOptionError, Forfeit, GameView, HiddenInformationError, NotYourTurnError, play_game
from .colors import Color
from .envs import registration as _registration
from .game import Game, Outcome
from .records import RecordError
from .results import SimulationResult
from .reviews import Review, review
from .simulation import simulate
from .stats import Summary
from .tournament import TournamentResult, tournament
from .variants import Rules, VariantInfo, variants
from .vecenv import VecEnv

_registration.install()  # gymnasium.make("genial/Ingenious-v0") works after `import genial`

__all__ = [
    "Board",
    "BusyError",
    "Color",
    "Game",
    "IllegalMoveError",
    "LegalMoves",
    "Move",
    "Outcome",
    "PlayResult",
    "Preview",
    "RecordError",
    "Rules",
    "Tile",
    "VariantInfo",
    "VecEnv",
    "variants",
    "GameView",
    "HiddenInformationError",
    "BotOptionError",
    "NotYourTurnError",
    "Forfeit",
    "play_game",
    "SimulationResult",
    "Summary",
    "simulate",
    "TournamentResult",
    "tournament",
    "analyse",
    "review",
    "Review",
    "Analysis",
    "CandidateMove",
    "evaluate",
]


__version__: str  # set on first use, by __getattr__ below


def __getattr__(name: str) -> _Any:
    # `__version__` is read from the installed metadata on first use, not at import
    # (`genial._version` says why).
    if name == "__version__":
        from ._version import version

        globals()["__version__"] = version()
        return globals()["__version__"]
    raise AttributeError(f"module 'genial' has no attribute {name!r}")

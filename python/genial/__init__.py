"""genial: the fastest and most faithful engine for Reiner Knizia's Ingenious.

>>> import genial
>>> game = genial.Game(players=2, seed=1)
>>> len(game.legal_moves()) > 0
True
"""

from __future__ import annotations

from ._core import Board, IllegalMoveError, LegalMoves, Move, PlayResult, Tile
from .colors import Color
from .game import Game, Outcome
from .records import RecordError
from .variants import VariantInfo, variants
from .vecenv import VecEnv
from . import actions, observation  # submodules for learning agents
from .bots import GameView, HiddenInformationError, play_game
from .simulation import SimulationResult, Summary, simulate
from .tournament import TournamentResult, tournament
from .analysis import Analysis, CandidateMove, analyse

__all__ = [
    "Board",
    "Color",
    "Game",
    "IllegalMoveError",
    "LegalMoves",
    "Move",
    "Outcome",
    "PlayResult",
    "RecordError",
    "Tile",
    "VariantInfo",
    "VecEnv",
    "variants",
    "GameView",
    "HiddenInformationError",
    "play_game",
    "SimulationResult",
    "Summary",
    "simulate",
    "TournamentResult",
    "tournament",
    "analyse",
    "Analysis",
    "CandidateMove",
]

__version__ = "0.1.0"

"""Engines: bots in any language that play genial through a text protocol over stdin and
stdout (docs/engine-protocol.md).

- `genial.engine.protocol`: the protocol's messages, written from one seat's `GameView`
  and read back into a position an engine can search;
- `genial.engine.host`: `EngineBot`, a seat played by an engine subprocess, with the move
  time enforced and forfeits on hang, crash, garbage or an illegal move;
- `genial.engine.builtin`: a built-in bot served as an engine (``genial engine``);
- `genial.engine.check`: the conformance suite (``genial engine-check``).
"""

from __future__ import annotations

from .host import EngineBot, EngineError, Forfeit, forfeit_ranks
from .protocol import VERSION

__all__ = ["EngineBot", "EngineError", "Forfeit", "forfeit_ranks", "VERSION"]

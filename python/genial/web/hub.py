"""The games of `genial serve` in one place, as the app holds them: the lobby (`lobby`:
tables made, found, listed, seats moved) and the round (`round`: moves, bots, engines,
clocks), over one store (`store`) and one bots' pool (`workers`). The hub only builds them,
starts them and stops them; each request goes to the lobby or the round.
"""

from __future__ import annotations

import asyncio
import logging

from .engines import ENGINE_GRACE_S, EngineSeats
from .errors import ApiError
from .lobby import Lobby
from .round import Rounds
from .seats import BotLimits
from .store import Store
from .tables import Table
from .workers import BotWorkers

__all__ = ["Hub"]

log = logging.getLogger("genial.web")


class Hub:
    """Every game of the server: the lobby and the round over the store and the bots'
    workers."""

    def __init__(
        self,
        store: Store,
        *,
        bot_threads: int = 1,
        bot_delay: float = 0.0,
        limits: BotLimits | None = None,
        keep_days: float = 0.0,
        engines: dict[str, str] | None = None,
    ) -> None:
        self.store = store
        self.limits = limits or BotLimits()
        self.workers = BotWorkers(bot_threads, max_think=self.limits.max_think_ms / 1000)
        # The operator's engines, NAME -> COMMAND: a request names one, never a command.
        self.engines = EngineSeats(engines or {}, self.limits)
        self.lobby = Lobby(
            store, self.workers, self._begin, limits=self.limits, engines=self.engines.engines, keep_days=keep_days
        )
        self.round = Rounds(store, self.workers, self.engines, self.lobby.table, bot_delay=bot_delay)

    def _begin(self, table: Table) -> None:
        self.round.begin(table)

    @property
    def tables(self) -> dict[str, Table]:
        """The tables in memory, by id (the lobby's)."""
        return self.lobby.tables

    def table(self, game_id: str) -> Table:
        """A table by its id, loaded from the store if need be (404 for none)."""
        return self.lobby.table(game_id)

    @property
    def closing(self) -> bool:
        """The server is shutting down: live connections end, no new work starts."""
        return self.round.stopping

    def start(self) -> None:
        """Loads the unfinished games and lets their bots move (call inside the event loop)."""
        self.workers.start()
        self.lobby.start()
        for game_id in self.store.unfinished_ids():
            try:
                table = self.lobby.table(game_id)
            except ApiError as e:
                log.error("game %s cannot be loaded: %s", game_id, e.message)
                continue
            self.round.begin(table)

    async def close(self) -> None:
        """Stops every bot at once (a move not yet played is dropped: after a restart the bot
        thinks again) and wakes the live connections so that they end."""
        self.round.stopping = True
        self.lobby.stop()
        self.engines.stop()  # each killed engine's thread reaps it at once
        tables = list(self.lobby.tables.values())
        tasks = [t.bot_task for t in tables if t.bot_task is not None and not t.bot_task.done()]
        for task in tasks:
            task.cancel()
        for t in tables:
            for lis in t.listeners:
                lis.wake.set()
        await asyncio.to_thread(self.workers.close)
        await asyncio.gather(*tasks, return_exceptions=True)
        # The engines were killed: their threads stop them (and all they started) at once.
        await asyncio.to_thread(self.engines.join, ENGINE_GRACE_S)

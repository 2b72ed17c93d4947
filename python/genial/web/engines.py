"""The operator's engines in bot seats of `genial serve` (``--engine NAME=COMMAND``).

An engine sits in a bot seat by the operator's NAME; a request names an engine, never a
command. It is started for each of its decisions in a thread of its own, outside the bots'
pool (`workers`), so that it costs only its own game: it runs only while it thinks, within
the operator's thinking-time cap (plus `ENGINE_GRACE_S`, enforced by the host, which then
kills it), at a lower CPU priority (`ENGINE_NICE`), and it is stopped with everything it
started when it answers, fails or the server stops. An engine that hangs, crashes, floods,
breaks the protocol or chooses an illegal move forfeits (`Forfeit`; the round ends the game
there). After a restart an unfinished game's engine simply thinks again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from typing import TYPE_CHECKING, Any

from .._core import Move
from ..bots import Forfeit, GameView
from ..engine.host import MARGIN_MS, MOVETIME_MS, EngineBot, EngineError
from ..translation import mark
from .seats import BotLimits
from .workers import Stopped

if TYPE_CHECKING:
    from .tables import Table

__all__ = ["ENGINE_GRACE_S", "ENGINE_NICE", "EngineSeats"]

log = logging.getLogger("genial.web")

ENGINE_GRACE_S = 2.0
"""What an engine seat's decision may take beyond the operator's thinking-time cap (for
starting and stopping the process) before the host kills the engine and it forfeits."""

ENGINE_NICE = 10
"""How much lower than the server's an engine seat's CPU priority is (it and all it
starts), so that an engine that spins cannot slow the server and the bots' pool."""


def _retrieved(future: asyncio.Future[Any]) -> None:
    """Marks a future's exception as seen (nobody waits for it any more)."""
    if not future.cancelled():
        future.exception()


class EngineSeats:
    """The operator's engines, NAME -> COMMAND, and the decisions they are making now."""

    def __init__(self, engines: dict[str, str], limits: BotLimits) -> None:
        self.engines = dict(engines)
        self.limits = limits
        self.thinking: set[EngineBot] = set()  # engines running a decision now
        self._threads: set[threading.Thread] = set()  # their threads
        self.stopping = False

    def stop(self) -> None:
        """The server stops: every engine thinking now is killed (its thread reaps it at
        once), and no new one starts."""
        self.stopping = True
        for engine in list(self.thinking):
            engine.kill("the server stopped")

    def join(self, timeout: float = ENGINE_GRACE_S) -> None:
        """Waits up to ``timeout`` for the killed engines' threads (each stops its engine
        and all it started), then kills any engine that started after `stop`."""
        end = time.monotonic() + timeout
        for thread in list(self._threads):
            thread.join(max(0.0, end - time.monotonic()))
        for engine in list(self.thinking):  # one that started after the kill above
            engine.kill("the server stopped")

    async def move(self, table: Table, seat: int, name: str) -> Move:
        """The move of the operator's engine ``name`` for ``seat``: a process started for
        this decision in a thread of its own (never in the bots' pool, which it could
        hold), on a copy of the game, reaped when it answers or fails; `Forfeit` when it
        fails (or is no longer offered). The host enforces a hard deadline of the
        operator's thinking-time cap plus `ENGINE_GRACE_S`: past it the engine is killed
        and forfeits, whatever its thread is doing."""
        command = self.engines.get(name)
        if command is None:
            raise Forfeit(
                f"engine {name!r} is not offered by this server any more", public=mark("is no longer offered")
            )
        cap = self.limits.max_think_ms
        # The engine's own deadline (move time + margin) falls within the operator's cap.
        movetime = max(1, min(MOVETIME_MS, cap // 2))
        engine = EngineBot(
            command,
            movetime_ms=movetime,
            margin_ms=min(MARGIN_MS, cap - movetime),
            handshake_timeout=cap / 1000,
            nice=ENGINE_NICE,
        )
        view = GameView(table.game.clone(), seat)  # the live game may change while it thinks
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Move] = loop.create_future()

        def settle(result: Move | None, error: BaseException | None) -> None:
            if future.done():
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)  # type: ignore[arg-type]

        def decide() -> None:
            result: Move | None = None
            error: BaseException | None = None
            try:
                result = engine.choose(view)
            except EngineError as e:  # it does not start, or fails its handshake
                log.warning("game %s: seat %d: %s", table.id, seat, e)
                error = Forfeit(str(e), seat=seat, public=mark("did not start"))
            except BaseException as e:  # handed to the waiting task
                error = e
            finally:
                engine.close()
                self.thinking.discard(engine)
                self._threads.discard(threading.current_thread())
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(settle, result, error)

        if self.stopping:
            raise Stopped
        self.thinking.add(engine)
        thread = threading.Thread(target=decide, name=f"genial-engine-{table.id[:8]}", daemon=True)
        self._threads.add(thread)
        thread.start()
        try:
            return await asyncio.wait_for(asyncio.shield(future), cap / 1000 + ENGINE_GRACE_S)
        except TimeoutError:
            future.add_done_callback(_retrieved)  # its thread's outcome is no longer wanted
            engine.kill("did not answer in time")  # its thread forfeits and reaps it
            log.warning("game %s: seat %d: engine %s past the hard deadline: killed", table.id, seat, name)
            raise Forfeit(f"engine {name!r} passed the hard deadline", public=mark("did not answer in time")) from None
        except asyncio.CancelledError:
            future.add_done_callback(_retrieved)
            engine.kill("the server stopped")
            raise

"""The threads in which the bots of `genial serve` think: a bounded pool, a fair queue
across games, a cap on each move's thinking time, and a stop that ends every search at once.

Fairness is by thinking time, not by turns: the next decision taken from the queue is the
one expected to finish first in thinking time, that is, of the game whose thinking time so
far plus the expected length of its next decision is least (weighted fair queuing; ties:
the longest waiting). A decision is expected to take as long as the game's last ones; a
game's first, as long as its bot's recent decisions in other games (a bot not seen yet: no
time). A decision counts in its game's thinking time from when it starts (its expected
length, set right when it ends), so that workers freed together serve different games.
With plain turns, a game of quick bots waits behind one decision of every busy game (50
games of `expert` at 50 ms each make 2.5 s); by time, it waits for at most the decisions
already running. A game that was idle (its people were thinking) comes back with at most
`CREDIT` seconds of advantage over the games that kept the pool busy, so that no game can
save up time and then hold the pool.

Beside the ``threads`` workers, one more thread (the quick lane) takes only decisions
expected to take at most `QUICK` seconds (a quick bot's move, from its recent decisions).
Fair queuing cannot stop a search once started, so without it a quick game would wait for a
whole long search (an `--allow-bot-options` budget of seconds) whenever every worker holds
one; with it, the quick decision runs at once beside the search. The ``threads`` workers run
`BACKGROUND_NICE` steps nicer than the quick lane and the event loop (Linux: per thread), so
the operating system gives a quick decision the core first.

A search that passes the operator's thinking-time cap is told to stop and plays the best
move it has found; on shutdown every search is told to stop and its move is dropped (the
game's bot simply thinks again after a restart).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .._core import Move
from ..bots import BuiltinBot, GameView

__all__ = ["CREDIT", "QUICK", "BotWorkers", "Stopped"]

T = TypeVar("T")

log = logging.getLogger("genial.web")

#: The most thinking time (s) an idle game may be ahead of the busiest-served waiting one.
CREDIT = 1.0
#: How often the watchdog looks at the running searches.
_WATCH = 0.02
#: How much the latest decision counts in an expected length (an exponential average).
_RECENT = 0.5
#: Decisions expected to take at most this long (s) may run in the quick lane.
QUICK = 0.05
#: How much nicer (lower in the operating system's priority) the bot threads run than the
#: quick lane and the server's event loop, so that a long search gives way to them.
BACKGROUND_NICE = 10


class Stopped(Exception):
    """The workers are shutting down: the decision was not made (or was dropped)."""


@dataclass(eq=False)
class _Job:
    game: str
    label: str  # what thinks (a bot's label): decisions of one label take alike long
    work: Callable[[], Any]
    stop: Callable[[], None] | None  # ends the work early, when it can be
    future: concurrent.futures.Future[Any]
    arrived: float
    started: float = 0.0
    capped: list[bool] | None = None  # True appended once stopped at the thinking-time cap
    charged: float = 0.0  # the thinking time charged to its game when it started
    was_capped: bool = False  # stopped at the thinking-time cap


@dataclass
class _Game:
    used: float = 0.0  # thinking time (s) spent for this game
    queue: list[_Job] = field(default_factory=list)
    running: int = 0
    cost: float | None = None  # expected length of its next decision (s), once one was timed


def _lower_priority() -> None:
    """Runs the calling thread `BACKGROUND_NICE` steps nicer (Linux keeps a nice value per
    thread; elsewhere, or where not allowed, it stays as it is)."""
    if not hasattr(os, "setpriority"):
        return
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + BACKGROUND_NICE))
    except OSError:
        pass


def _average(old: float | None, new: float) -> float:
    return new if old is None else old + _RECENT * (new - old)


class BotWorkers:
    """``threads`` worker threads serving every game, and with ``quick_lane`` one more for
    quick decisions only; ``max_think`` seconds per decision at most (0: no cap)."""

    def __init__(self, threads: int, max_think: float = 0.0, quick_lane: bool = True) -> None:
        self.threads = max(1, threads)
        self.quick_lane = quick_lane
        self.max_think = max_think
        self._cond = threading.Condition()
        self._games: dict[str, _Game] = {}
        self._running: set[_Job] = set()
        self._closing = False
        self._floor = 0.0  # the thinking time of the game served last (the fair "now")
        self._label_cost: dict[str, float] = {}  # expected decision length by label
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        for i in range(self.threads):
            t = threading.Thread(target=self._work, name=f"genial-bot-{i}", daemon=True)
            t.start()
            self._threads.append(t)
        if self.quick_lane:
            t = threading.Thread(target=self._work, args=(True,), name="genial-bot-quick", daemon=True)
            t.start()
            self._threads.append(t)
        watchdog = threading.Thread(target=self._watch, name="genial-bot-watchdog", daemon=True)
        watchdog.start()
        self._threads.append(watchdog)

    async def choose(self, game: str, bot: BuiltinBot, view: GameView) -> Move:
        """The bot's move, thought out in a worker thread; raises `Stopped` on shutdown."""
        move, _ = await self.choose_capped(game, bot, view)
        return move

    async def choose_capped(self, game: str, bot: BuiltinBot, view: GameView) -> tuple[Move, bool]:
        """The bot's move (as `choose`) and whether the thinking-time cap cut its search
        short (it then played the best move found so far, with fewer iterations than its
        budget: on a loaded host, say)."""
        capped: list[bool] = []
        move: Move = await self.run(game, bot.label, lambda: bot.choose(view), bot.stop, capped)
        return move, bool(capped)

    async def run(
        self,
        game: str,
        label: str,
        work: Callable[[], T],
        stop: Callable[[], None] | None = None,
        capped: list[bool] | None = None,
    ) -> T:
        """Any search for ``game`` (a hint, say) in the same pool and queue; ``stop`` ends it
        early at the thinking-time cap and on shutdown. Raises `Stopped` on shutdown. A
        search the cap stopped appends True to ``capped``."""
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        with self._cond:
            if self._closing:
                raise Stopped
            g = self._games.setdefault(game, _Game(used=self._floor))
            if not g.queue and not g.running:
                g.used = max(g.used, self._floor - CREDIT)
            g.queue.append(_Job(game, label, work, stop, future, time.monotonic(), capped=capped))
            self._cond.notify_all()  # the quick lane may not take it: wake every worker
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            if future.cancelled() and self._closing:  # dropped from the queue by `close`
                raise Stopped from None
            future.cancel()  # the waiting task was cancelled: a queued decision is not needed
            raise

    def forget(self, game: str) -> None:
        """A finished or deleted game: its thinking time need not be remembered."""
        with self._cond:
            g = self._games.get(game)
            if g is not None and not g.queue and not g.running:
                del self._games[game]

    def stats(self) -> dict[str, Any]:
        with self._cond:
            return {
                "threads": self.threads,
                "queued": sum(len(g.queue) for g in self._games.values()),
                "running": len(self._running),
            }

    # ----- the worker threads ----------------------------------------------------------------

    def _expected(self, g: _Game) -> float:
        if g.cost is not None:
            return g.cost
        return self._label_cost.get(g.queue[0].label, 0.0)

    def _next(self, quick: bool = False) -> _Job | None:
        """The waiting decision expected to finish first in thinking time (under the lock);
        with ``quick``, among those expected to take at most `QUICK` seconds."""
        best: _Game | None = None
        best_key = 0.0
        for g in self._games.values():
            if not g.queue:
                continue
            expected = self._expected(g)
            if quick and expected > QUICK:
                continue
            key = g.used + expected
            if best is None or key < best_key or (key == best_key and g.queue[0].arrived < best.queue[0].arrived):
                best, best_key = g, key
        if best is None:
            return None
        self._floor = max(self._floor, best.used)
        best.running += 1
        job = best.queue.pop(0)
        # Charged now what it is expected to take, set right when it ends: a decision under
        # way counts at once, so a second free worker does not pick the same game again as
        # if the first were not thinking for it.
        job.charged = best_key - best.used
        best.used = best_key
        return job

    def _work(self, quick: bool = False) -> None:
        if not quick:
            _lower_priority()  # the quick lane and the event loop come first
        while True:
            with self._cond:
                job = self._next(quick)
                while job is None and not self._closing:
                    self._cond.wait()
                    job = self._next(quick)
                if job is None:
                    return
                if not job.future.set_running_or_notify_cancel():
                    g = self._games[job.game]
                    g.running -= 1
                    g.used -= job.charged
                    continue
                job.started = time.monotonic()
                self._running.add(job)
            try:
                result = job.work()
            except BaseException as e:  # handed to the waiting coroutine
                outcome: tuple[Any, BaseException | None] = (None, e)
            else:
                outcome = (result, None)
            with self._cond:
                self._running.discard(job)
                g = self._games[job.game]
                g.running -= 1
                took = time.monotonic() - job.started
                g.used += took - job.charged
                g.cost = _average(g.cost, took)
                self._label_cost[job.label] = _average(self._label_cost.get(job.label), took)
                closing = self._closing
            if closing:
                job.future.set_exception(Stopped())
            elif outcome[1] is not None:
                job.future.set_exception(outcome[1])
            else:
                job.future.set_result(outcome[0])

    def _watch(self) -> None:
        """Stops the searches past the thinking-time cap (and all of them on shutdown). A
        stop is repeated while the search runs: one sent just before it began is forgotten."""
        while True:
            with self._cond:
                closing = self._closing
                running = list(self._running)
                workers = self._threads[: self.threads + self.quick_lane]
                if closing and not running and not any(t.is_alive() for t in workers):
                    return
            now = time.monotonic()
            for job in running:
                over = self.max_think > 0 and now - job.started > self.max_think
                if (closing or over) and job.stop is not None:
                    job.stop()
                    if over and not job.was_capped:
                        job.was_capped = True
                        if job.capped is not None:
                            job.capped.append(True)
                        log.warning(
                            "game %s: %s stopped at the thinking-time cap (%g s)", job.game, job.label, self.max_think
                        )
            time.sleep(_WATCH)

    # ----- shutdown ------------------------------------------------------------------------------

    def close(self, timeout: float = 1.0) -> None:
        """Drops the waiting decisions, stops the running searches and waits for the workers
        (at most ``timeout`` seconds; they are daemon threads, so the process can end anyway)."""
        with self._cond:
            self._closing = True
            for g in self._games.values():
                for job in g.queue:
                    job.future.cancel()
                g.queue.clear()
            running = list(self._running)
            self._cond.notify_all()
        for job in running:
            if job.stop is not None:
                job.stop()
        end = time.monotonic() + timeout
        for t in self._threads:
            t.join(max(0.0, end - time.monotonic()))

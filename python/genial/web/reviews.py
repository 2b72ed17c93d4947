"""Game reviews in `genial serve`: computed in the background on the bots' pool, one
decision a job, and kept in SQLite once finished.

A review is asked for a game of this server once it is over, or for a record the asker
holds (the record already shows every rack to whoever has it). Of a game still being
played, a seat may review its own decisions only (``seat``): each is searched from that
seat's information set, the win chances are the ones that seat saw before its moves (no
estimate of the position now, which would be the next mover's view), and the analysis
board cannot open such a review's game (its record holds the bag). Each decision is
searched from the mover's information set only (`genial.review`), so a review says nothing
about tiles the mover could not see.

The work is queued with the bots' decisions (`BotWorkers.run`, fair by thinking time), one
decision per job, so a review never holds the pool for long and stops at once on shutdown;
it is kept as pending in the store until done, so the next start resumes it (`resume`).
A review queues all its decisions at once (and the search for the win chances at the end),
so that it can use every worker the fair queue gives it. The reviews asked from one client
address share one place in that fair queue: an address with four reviews under way gets
the same share of the pool as one with a single review, so another address's review starts
after at most the decisions already running (not after whole reviews). An address may have
`PER_CLIENT` reviews under way or waiting (beyond, a 429 says to ask again later); the
server runs `MAX_RUNNING` at once, and a review beyond them waits (``queued``) until a
slot frees, which goes to the waiting review of the address with the fewest running (the
oldest first among equals): a few busy addresses cannot shut the others out. Only when
`MAX_WAITING` reviews wait is one refused (503). A review is identified by the hash of what it is made from (the game's
start and moves, the level and the budget): asking twice gives the same review, finished or
under way.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..game import Game, core_state
from ..records import RecordError, from_record, start_record, to_record
from ..reviews import Decision, Review, review
from ..translation import LANGUAGES, current, tr, use
from . import study
from .errors import ApiError
from .store import Store
from .workers import BotWorkers, Stopped

__all__ = ["MAX_RUNNING", "MAX_WAITING", "PER_CLIENT", "Reviews"]

log = logging.getLogger("genial.web")

#: Reviews computed on the server at once; more wait their turn.
MAX_RUNNING = 64
#: Reviews waiting for a slot, across the server; more are refused (503).
MAX_WAITING = 1024
#: Reviews under way or waiting for one client address at once; more are refused (429).
PER_CLIENT = 4


@dataclass(eq=False)
class _Job:
    key: str
    game: Game
    names: list[str]
    source: dict[str, Any]
    #: A seat reviewing its own decisions of an unfinished game (None: every decision).
    seat: int | None = None
    done: int = 0
    total: int = 0
    decisions: list[Decision] = field(default_factory=list)
    error: str | None = None
    task: asyncio.Task[None] | None = None
    #: The address that asked for it: its reviews share one place in the fair queue.
    client: str = ""


def review_key(
    record: dict[str, Any],
    level: str,
    iterations: int | None,
    seat: int | None = None,
    names: list[str] | None = None,
    source: dict[str, Any] | None = None,
) -> str:
    """The id of a review: the hash of the game's start and moves, the level, the budget,
    the seat whose own decisions it holds (if not every one), and the names and source it
    shows (so that a record posted with other names, by anyone, makes another review than the
    players' own)."""
    what: dict[str, Any] = {
        "start": start_record(record),
        "moves": record["moves"],
        "level": level,
        "iterations": iterations,
    }
    if seat is not None:
        what["seat"] = seat
    if names is not None:
        what["names"] = names
    if source:
        what["source"] = source
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()[:24]


def _finished(stored: dict[str, Any] | None) -> bool:
    """Whether a stored review is finished (not one kept as pending while it runs)."""
    return stored is not None and "payload" in stored


def _current(payload: dict[str, Any]) -> dict[str, Any]:
    """A stored review's payload as the page reads it now: one kept before a decision was
    written by `Decision.to_dict` names its verdict ``class`` (a forced move's "forced",
    which the page shows from ``forced`` now) instead of ``classification``."""
    for d in payload.get("decisions", []):
        if "class" in d:
            d.setdefault("classification", d.pop("class"))
    return payload


class Reviews:
    """The server's reviews: finished ones in the store, running ones here."""

    def __init__(self, store: Store, workers: BotWorkers, *, level: str = "expert", iterations: int | None = None):
        self.store = store
        self.workers = workers
        self.level = level
        self.iterations = iterations
        self.jobs: dict[str, _Job] = {}
        self._waiting: list[_Job] = []  # in the order asked
        self._closing = False

    def start(
        self, game: Game, names: list[str], source: dict[str, Any], seat: int | None = None, client: str = ""
    ) -> dict[str, Any]:
        """Starts the review of ``game`` (over, or a record the asker holds; with ``seat``,
        that seat's own decisions only) unless it is finished or under way; its status.
        ``source``: where the analysis board finds the game again (``{"game": id}``, or
        ``{}``); ``client``: the asker's address (its reviews share one place in the queue)."""
        record = to_record(game)
        key = review_key(record, self.level, self.iterations, seat, names, source)
        if key in self.jobs or _finished(self.store.get_review(key)):
            return self.status(key)
        under_way = [j for j in self.jobs.values() if j.error is None]
        if sum(j.client == client for j in under_way) >= PER_CLIENT:
            raise ApiError(
                429,
                tr(
                    "your address has {per_client} reviews being computed or waiting: ask again when one of them is done"
                ).format(per_client=PER_CLIENT),
            )
        if len(self._waiting) >= MAX_WAITING:
            raise ApiError(
                503,
                tr("{max_waiting} reviews are waiting for their turn: ask again in a minute").format(
                    max_waiting=MAX_WAITING
                ),
            )
        # Kept as pending until it is done: a server stopped meanwhile resumes it (`resume`).
        pending = {"record": record, "names": names, "source": source, "seat": seat, "client": client}
        self.store.put_review(key, {"pending": pending})
        self._enqueue(key, game, names, source, seat, client)
        return self.status(key)

    def _enqueue(
        self, key: str, game: Game, names: list[str], source: dict[str, Any], seat: int | None, client: str
    ) -> None:
        plies = [i for i, p in enumerate(core_state(game).movers) if seat is None or p == seat]
        job = _Job(key, game.clone(), names, source, seat=seat, total=len(plies), client=client)
        self.jobs[key] = job
        self._waiting.append(job)
        self._dispatch()

    def resume(self) -> None:
        """Queues again the reviews that a stop of the server interrupted (call inside the
        event loop, at start): a page polling one sees it go on."""
        for key, data in self.store.pending_reviews():
            p = data["pending"]
            try:
                game = from_record(p["record"])
            except (RecordError, ValueError, KeyError) as e:
                log.error("review %s cannot be resumed: %s", key, e)
                continue
            self._enqueue(key, game, list(p["names"]), dict(p["source"]), p["seat"], str(p["client"]))

    def _dispatch(self) -> None:
        """Starts waiting reviews while slots are free: each freed slot to the address with
        the fewest reviews running, the oldest of its waiting reviews first."""
        running = [j for j in self.jobs.values() if j.task is not None and not j.task.done()]
        while self._waiting and len(running) < MAX_RUNNING and not self._closing:
            counts = {j.client: 0 for j in self._waiting}
            for j in running:
                if j.client in counts:
                    counts[j.client] += 1
            job = min(self._waiting, key=lambda j: counts[j.client])  # the oldest among equals
            self._waiting.remove(job)
            job.task = asyncio.get_running_loop().create_task(self._run(job))
            job.task.add_done_callback(lambda _: self._dispatch())
            running.append(job)

    def status(self, key: str) -> dict[str, Any]:
        """``{"id", "status": "queued" | "running" | "done" | "failed", "done", "total"}``
        (``queued``: waiting for a slot), with the review's payload (`study.review`) once
        done."""
        job = self.jobs.get(key)
        if job is not None:
            if job.error is not None:
                return {"id": key, "status": "failed", "error": job.error, "done": job.done, "total": job.total}
            if job.task is None:
                return {"id": key, "status": "queued", "done": 0, "total": job.total}
            return {"id": key, "status": "running", "done": job.done, "total": job.total}
        found = self.store.get_review(key)
        if found is None or not _finished(found):  # (pending and not in memory: never, once resumed)
            raise ApiError(404, tr("no such review on this server: ask for it with POST /api/reviews"))
        # In the page's language where it was made in it (a review kept before: English).
        payload = _current(found.get("translated", {}).get(current()) or found["payload"])
        return {"id": key, "status": "done", "done": payload["total"], "total": payload["total"], "review": payload}

    def record_of(self, key: str) -> dict[str, Any]:
        """The record a finished review was made of, with its seats' names (for the
        analysis board)."""
        found = self.store.get_review(key)
        if found is None or not _finished(found):
            raise ApiError(404, tr("no finished review with this id on this server"))
        if found.get("seat") is not None:
            raise ApiError(
                403, tr("this review is of one seat's decisions in a game then unfinished: its game stays closed")
            )
        return dict(found["record"])

    @staticmethod
    def _payload(game: Game, full: Review, job: _Job) -> dict[str, Any]:
        """The review's payload in the language in use (`study.review`)."""
        payload = study.review(game, full, job.names, job.source)
        payload["id"] = job.key
        payload["total"] = job.total
        payload["analysable"] = job.seat is None
        if job.seat is not None:
            payload["note"] += " " + tr(
                "The game was not over: this review holds {name}'s decisions only, as that seat saw them."
            ).format(name=job.names[job.seat])
        return payload

    async def _run(self, job: _Job) -> None:
        game, level, its = job.game, self.level, self.iterations
        queue = f"review@{job.client}"  # one place in the fair queue per address
        plies = [i for i, p in enumerate(core_state(game).movers) if job.seat is None or p == job.seat]

        def one(ply: range) -> Callable[[], Review]:
            copy = game.clone()  # each job its own, as they run side by side
            return lambda: review(copy, level, iterations=its, plies=ply)

        works = [one(range(ply, ply + 1)) for ply in plies]
        if job.seat is None:
            works.append(one(range(0)))  # no decision: the series' last row, the chances at the end
        try:
            parts = await self._searched(job, queue, works)
            job.decisions = [d for part in parts[: len(plies)] for d in part.decisions]
            if job.seat is None:
                end = parts[-1]
                full = replace(
                    end, decisions=tuple(job.decisions), series=tuple(d.seats for d in job.decisions) + end.series
                )
            else:
                # No row for the position now: it would be estimated from the next mover's view.
                full = Review.partial(game, level, its, 0, job.decisions)
            # The payload in every language (its texts are made once, here: a page reads
            # the one of its language); the search is the costly part, done once.
            payloads = {}
            for code in LANGUAGES:
                with use(code):
                    payloads[code] = await asyncio.to_thread(self._payload, game, full, job)
            record = {**to_record(game), "names": job.names}
            stored = {"payload": payloads.pop("en"), "translated": payloads, "record": record, "seat": job.seat}
            self.store.put_review(job.key, stored)
            del self.jobs[job.key]
        except Stopped:
            self.jobs.pop(job.key, None)  # the server is stopping: the next start resumes it
        except Exception as e:  # a review that cannot be made says why, once
            log.exception("review %s failed", job.key)
            job.error = tr("the review could not be made: {why}").format(why=f"{type(e).__name__}: {e}")
        finally:
            self.workers.forget(queue)

    async def _searched(self, job: _Job, queue: str, works: list[Callable[[], Review]]) -> list[Review]:
        """What ``works`` found, one job each in the fair queue, all queued at once: a
        review's address then has work waiting whenever a worker is free, so a single review
        gets its full share of the pool (not one worker at most, each decision waiting for
        the server to ask for the next). ``job.done`` counts the decisions searched (the
        first ``job.total`` works). Cancelled or failed, the jobs still queued are dropped."""
        tasks = [asyncio.ensure_future(self.workers.run(queue, "review", work)) for work in works]

        def counted(task: asyncio.Future[Review]) -> None:
            if not task.cancelled() and task.exception() is None:
                job.done += 1

        for task in tasks[: job.total]:
            task.add_done_callback(counted)
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
            return [t.result() for t in tasks]
        finally:
            waiting = [t for t in tasks if not t.done()]
            for t in waiting:
                t.cancel()
            if waiting:
                await asyncio.wait(waiting)
            for t in tasks:  # retrieved, so that asyncio does not log them as lost
                if not t.cancelled():
                    t.exception()

    async def close(self) -> None:
        """Stops every review at once (the waiting ones never start)."""
        self._closing = True
        for job in self._waiting:
            self.jobs.pop(job.key, None)
        self._waiting.clear()
        tasks = [j.task for j in self.jobs.values() if j.task is not None and not j.task.done()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

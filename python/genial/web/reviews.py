"""Game reviews in `genial serve`: computed in the background on the bots' pool, one
decision at a time, and kept in SQLite once finished.

A review is asked for a game of this server once it is over, or for a record the asker
holds (the record already shows every rack to whoever has it). It is never made of a game
still being played: its record holds the bag, and the review's candidate moves would show
what the racks hold. Each decision is searched from the mover's information set only
(`genial.review`), so a review says nothing about tiles the mover could not see.

The work is queued with the bots' decisions (`BotWorkers.run`, fair by thinking time), one
decision per job, so a review never holds the pool for long and stops at once on shutdown.
A review is identified by the hash of what it is made from (the game's start and moves,
the level and the budget): asking twice gives the same review, finished or under way.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from ..game import Game
from ..records import start_record, to_record
from ..reviews import Decision, Review, review
from . import views
from .errors import ApiError
from .store import Store
from .workers import BotWorkers, Stopped

__all__ = ["MAX_RUNNING", "Reviews"]

log = logging.getLogger("genial.web")

#: Reviews computed at once; more are refused (503) until one ends.
MAX_RUNNING = 4


@dataclass(eq=False)
class _Job:
    key: str
    game: Game
    names: list[str]
    source: dict[str, Any]
    done: int = 0
    total: int = 0
    decisions: list[Decision] = field(default_factory=list)
    error: str | None = None
    task: asyncio.Task[None] | None = None


def review_key(record: dict[str, Any], level: str, iterations: int | None) -> str:
    """The id of a review: the hash of the game's start and moves, the level and the budget."""
    what = {"start": start_record(record), "moves": record["moves"], "level": level, "iterations": iterations}
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()[:24]


class Reviews:
    """The server's reviews: finished ones in the store, running ones here."""

    def __init__(self, store: Store, workers: BotWorkers, *, level: str = "expert", iterations: int | None = None):
        self.store = store
        self.workers = workers
        self.level = level
        self.iterations = iterations
        self.jobs: dict[str, _Job] = {}

    def start(self, game: Game, names: list[str], source: dict[str, Any]) -> dict[str, Any]:
        """Starts the review of ``game`` (over, or a record the asker holds) unless it is
        finished or under way; its status. ``source``: where the analysis board finds the
        game again (``{"game": id}``, or ``{}`` for an uploaded record)."""
        record = to_record(game)
        key = review_key(record, self.level, self.iterations)
        if key in self.jobs or self.store.get_review(key) is not None:
            return self.status(key)
        if sum(j.task is not None and not j.task.done() for j in self.jobs.values()) >= MAX_RUNNING:
            raise ApiError(503, f"{MAX_RUNNING} reviews are being computed: ask again in a minute")
        job = _Job(key, game.clone(), names, source, total=len(game.moves))
        self.jobs[key] = job
        job.task = asyncio.get_running_loop().create_task(self._run(job))
        return self.status(key)

    def status(self, key: str) -> dict[str, Any]:
        """``{"id", "status": "running" | "done" | "failed", "done", "total"}``, with the
        review's payload (`views.review`) once done."""
        job = self.jobs.get(key)
        if job is not None:
            if job.error is not None:
                return {"id": key, "status": "failed", "error": job.error, "done": job.done, "total": job.total}
            return {"id": key, "status": "running", "done": job.done, "total": job.total}
        found = self.store.get_review(key)
        if found is None:
            raise ApiError(404, "no such review on this server: ask for it with POST /api/reviews")
        payload = found["payload"]
        return {"id": key, "status": "done", "done": payload["total"], "total": payload["total"], "review": payload}

    def record_of(self, key: str) -> dict[str, Any]:
        """The record a finished review was made of, with its seats' names (for the
        analysis board)."""
        found = self.store.get_review(key)
        if found is None:
            raise ApiError(404, "no finished review with this id on this server")
        return dict(found["record"])

    async def _run(self, job: _Job) -> None:
        game, level, its = job.game, self.level, self.iterations
        try:
            for ply in range(job.total):

                def one(ply: int = ply) -> Review:
                    return review(game, level, iterations=its, plies=range(ply, ply + 1))

                part = await self.workers.run(f"review:{job.key}", "review", one)
                job.decisions.extend(part.decisions)
                job.done = ply + 1
            resume = Review.partial(game, level, its, 0, job.decisions)
            full = await self.workers.run(
                f"review:{job.key}", "review", lambda: review(game, level, iterations=its, resume=resume)
            )
            payload = await asyncio.to_thread(views.review, game, full, job.names, job.source)
            payload["id"] = job.key
            record = {**to_record(game), "names": job.names}
            self.store.put_review(job.key, {"payload": payload, "record": record})
            del self.jobs[job.key]
        except Stopped:
            self.jobs.pop(job.key, None)  # the server is stopping: asked again, it starts anew
        except Exception as e:  # a review that cannot be made says why, once
            log.exception("review %s failed", job.key)
            job.error = f"the review could not be made: {type(e).__name__}: {e}"
        finally:
            self.workers.forget(f"review:{job.key}")

    async def close(self) -> None:
        tasks = [j.task for j in self.jobs.values() if j.task is not None and not j.task.done()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

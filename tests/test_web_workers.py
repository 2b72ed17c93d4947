"""The bots' worker pool of `genial serve`: a fair queue across games, the thinking-time cap
and the stop on shutdown (genial.web.workers)."""

from __future__ import annotations

import asyncio
import threading

import genial
import pytest

pytest.importorskip("starlette", reason="genial serve needs the web extra: pip install 'genial-engine[web]'")

from genial.bots import GameView, make
from genial.web.workers import BotWorkers, Stopped


def view(seed: int = 1) -> GameView:
    return GameView(genial.Game(2, seed), 0)


def endless() -> genial.bots.BuiltinBot:
    """A search that would take minutes."""
    return make("mcts", 1, iterations=10_000_000)


def test_the_game_that_used_the_least_thinking_time_is_served_first() -> None:
    async def main() -> list[str]:
        workers = BotWorkers(1, quick_lane=False)  # one worker: the queue's order shows
        workers.start()
        done: list[str] = []

        async def decide(game: str, bot: genial.bots.BuiltinBot) -> None:
            await workers.choose(game, bot, view())
            done.append(game)

        # "busy" has already used thinking time; then the only worker is held by a long search.
        await decide("busy", make("mcts", 1, iterations=50))
        hold = bot_hold = endless()
        holder = asyncio.ensure_future(workers.choose("holder", hold, view()))
        while workers.stats()["running"] == 0:
            await asyncio.sleep(0.01)
        # "busy" asks first, "quick" (a new game) second: "quick" is served first all the same.
        waiting = [
            asyncio.ensure_future(decide("busy", make("greedy"))),
            asyncio.ensure_future(decide("quick", make("greedy"))),
        ]
        while workers.stats()["queued"] < 2:
            await asyncio.sleep(0.01)
        bot_hold.stop()
        await holder
        await asyncio.gather(*waiting)
        workers.close()
        return done

    assert asyncio.run(main()) == ["busy", "quick", "busy"]


def test_a_decision_under_way_counts_at_once_for_its_game() -> None:
    """Two workers freed together serve two games, not one game twice: the first decision
    taken is charged to its game as it starts, not only when it ends."""

    async def main() -> list[str]:
        workers = BotWorkers(2, quick_lane=False)
        workers.start()
        started: list[str] = []

        def work(game: str) -> None:
            started.append(game)
            threading.Event().wait(0.05)

        try:
            # Both games have used alike and are expected to take alike long.
            for game in ("a", "b"):
                await workers.run(game, "same", lambda game=game: work(game))
            started.clear()
            release = threading.Event()
            holds = [asyncio.ensure_future(workers.run("hold", "hold", lambda: release.wait(60))) for _ in range(2)]
            while workers.stats()["running"] < 2:
                await asyncio.sleep(0.01)
            waiting = [
                asyncio.ensure_future(workers.run(game, "same", lambda game=game: work(game)))
                for game in ("a", "a", "b", "b")
            ]
            while workers.stats()["queued"] < 4:
                await asyncio.sleep(0.01)
            release.set()
            await asyncio.gather(*holds, *waiting)
        finally:
            workers.close()
        return started

    first_two = asyncio.run(main())[:2]
    assert sorted(first_two) == ["a", "b"], first_two


def test_a_search_past_the_thinking_cap_is_stopped_and_plays_its_best_move() -> None:
    async def main() -> genial.Move:
        workers = BotWorkers(1, max_think=0.2)
        workers.start()
        try:
            return await workers.choose("g", endless(), view())
        finally:
            workers.close()

    move = asyncio.run(main())
    assert move in genial.Game(2, 1).legal_moves()


def test_a_decision_says_whether_the_cap_cut_it_short() -> None:
    async def main() -> list[bool]:
        workers = BotWorkers(1, max_think=0.2, quick_lane=False)
        workers.start()
        try:
            _, long = await workers.choose_capped("g", endless(), view())
            _, quick = await workers.choose_capped("g", make("greedy", 1), view())
            return [long, quick]
        finally:
            workers.close()

    assert asyncio.run(main()) == [True, False]


def test_closing_stops_every_search_and_drops_its_move() -> None:
    outcome: list[BaseException] = []

    async def main() -> None:
        workers = BotWorkers(2)
        workers.start()
        tasks = [asyncio.ensure_future(workers.choose(f"g{i}", endless(), view(i))) for i in range(3)]
        while workers.stats()["running"] < 2:
            await asyncio.sleep(0.01)
        closer = threading.Thread(target=workers.close)
        closer.start()
        for t in tasks:
            try:
                await t
            except Stopped as e:
                outcome.append(e)
        closer.join()
        assert not any(t.is_alive() for t in workers._threads)
        with pytest.raises(Stopped):
            await workers.choose("late", make("greedy"), view())

    asyncio.run(main())
    assert len(outcome) == 3  # two stopped mid-search, one never started


def test_a_quick_decision_does_not_wait_for_a_long_search() -> None:
    """One game's long budget holds the only worker; another game's quick bot moves at once
    in the quick lane, beside it (issue 29, item 8)."""

    async def main() -> list[str]:
        workers = BotWorkers(1)
        workers.start()
        order: list[str] = []
        try:
            # The pool learns what each bot's decisions take.
            await workers.choose("warm", make("greedy"), view())
            await workers.run("warm", "slow", lambda: threading.Event().wait(0.2))
            release = threading.Event()
            slow = asyncio.ensure_future(workers.run("long", "slow", lambda: release.wait(60)))
            while workers.stats()["running"] == 0:
                await asyncio.sleep(0.01)
            move = await asyncio.wait_for(workers.choose("quick", make("greedy"), view()), 30)
            order.append("quick" if move is not None else "none")
            release.set()
            await slow
            order.append("long")
        finally:
            workers.close()
        return order

    assert asyncio.run(main()) == ["quick", "long"]


@pytest.mark.skipif(not hasattr(__import__("os"), "setpriority"), reason="per-thread nice values are Linux's")
def test_the_bot_threads_run_nicer_than_the_quick_lane() -> None:
    import os
    import time

    from genial.web.workers import BACKGROUND_NICE

    workers = BotWorkers(2)
    workers.start()
    try:
        base = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        by_name = {t.name: t for t in workers._threads}
        end = time.monotonic() + 10
        nice: dict[str, int] = {}
        while time.monotonic() < end:  # the threads lower themselves as they start
            nice = {n: os.getpriority(os.PRIO_PROCESS, t.native_id or 0) for n, t in by_name.items()}
            if all(nice[f"genial-bot-{i}"] >= min(19, base + BACKGROUND_NICE) for i in range(2)):
                break
            time.sleep(0.01)
        assert all(nice[f"genial-bot-{i}"] == min(19, base + BACKGROUND_NICE) for i in range(2)), nice
        assert nice["genial-bot-quick"] == base
    finally:
        workers.close()

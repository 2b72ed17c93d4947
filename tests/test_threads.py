"""Games, bots and the API used from several Python threads at once.

Independent games give the same results as one after another. A game shared between
threads is used one call at a time (each call holds the GIL, and built-in bots let go of
the game before they release it), so it stays consistent whatever the interleaving; a
*bot* shared between threads that think at once refuses with ``RuntimeError``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import genial
from _workers import finish, play_seed
from genial import Game, IllegalMoveError
from genial.bots import GreedyBot, RandomBot


def _run_together(workers: list[Callable[[], None]]) -> list[BaseException]:
    """Runs the workers in threads started together; returns what they raised."""
    errors: list[BaseException] = []
    start = threading.Barrier(len(workers))

    def run(work: Callable[[], None]) -> None:
        start.wait()
        try:
            work()
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=run, args=(w,)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def test_independent_games_in_threads_match_sequential_play() -> None:
    seeds = list(range(12))
    sequential = [play_seed(s) for s in seeds]
    with ThreadPoolExecutor(4) as pool:
        threaded = list(pool.map(play_seed, seeds))
    assert threaded == sequential


def test_bots_in_threads_match_sequential_play() -> None:
    def greedy_game(seed: int) -> tuple[str, ...]:
        game, bots = Game(3, seed=seed), [GreedyBot(seed), GreedyBot(seed + 1), RandomBot(seed)]
        while not game.is_over:
            game.play(bots[game.current_player].choose(game))
        return tuple(str(m) for m in game.moves)

    sequential = [greedy_game(s) for s in range(6)]
    with ThreadPoolExecutor(3) as pool:
        assert list(pool.map(greedy_game, range(6))) == sequential


def test_a_game_shared_by_two_players_stays_consistent() -> None:
    game = Game(2, seed=17)
    played: list[int] = [0, 0]

    def player(index: int) -> Callable[[], None]:
        def work() -> None:
            k = index
            while not game.is_over:
                legal = game.legal_moves()
                if not legal:
                    break
                try:
                    game.play(legal[k % len(legal)])
                    played[index] += 1
                except IllegalMoveError:
                    pass  # the other thread moved first: the move read is stale
                k += 3

        return work

    assert _run_together([player(0), player(1)]) == []
    assert game.is_over
    assert sum(played) == len(game.moves)
    assert game._state.tile_total() == 120
    # The history replays to the very same state: nothing was half-applied.
    assert Game.from_json(game.to_json()) == game


def test_a_bot_may_think_while_another_thread_plays_on_the_same_game() -> None:
    game = Game(4, seed=23)
    bot = GreedyBot(1)
    stop = threading.Event()

    def think() -> None:
        while not stop.is_set() and not game.is_over:
            try:
                bot.choose(game)
            except ValueError:
                break  # the game ended between the check and the call

    def play() -> None:
        mover = RandomBot(2)
        try:
            while not game.is_over:
                try:
                    game.play(mover.choose(game))
                except IllegalMoveError:
                    pass
        finally:
            stop.set()

    assert _run_together([think, play]) == []
    assert game.is_over and game._state.tile_total() == 120
    assert Game.from_json(game.to_json()) == game


def test_one_bot_shared_by_threads_works_or_refuses_clearly() -> None:
    bot = GreedyBot(3)
    games = [Game(4, seed=s) for s in (1, 2)]
    refusals: list[BaseException] = []

    def work(game: Game) -> Callable[[], None]:
        def run() -> None:
            while not game.is_over:
                try:
                    move = bot.choose(game)
                except RuntimeError as e:
                    refusals.append(e)  # the bot is busy in the other thread
                    continue
                game.play(move)

        return run

    assert _run_together([work(g) for g in games]) == []
    assert all(isinstance(e, genial.BusyError) and "another thread" in str(e) for e in refusals), refusals
    for game in games:
        assert game.is_over and Game.from_json(game.to_json()) == game


def test_clones_and_determinizations_from_many_threads() -> None:
    game = Game(3, seed=5)
    for _ in range(20):
        game.play(game.legal_moves()[0])

    def work(seed: int) -> tuple[str, ...]:
        copies = [game.clone() for _ in range(50)] + [game.determinize(seed % 3, seed) for _ in range(50)]
        assert all(c.legal_move_count() == len(c.legal_moves()) for c in copies)
        return finish(game.clone(), seed)[0]

    sequential = [work(s) for s in range(8)]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(work, range(8))) == sequential


def test_rl_helpers_copy_the_game_so_another_thread_may_play_meanwhile() -> None:
    """The helpers release the GIL while Rust writes masks and observations; they copy the
    position first, so `play` and `pop` in another thread never meet a borrowed game."""
    import numpy as np
    from genial.actions import legal_action_mask, legal_action_mask_batch, legal_actions
    from genial.observation import observe

    game = Game(2, seed=29)
    stop = threading.Event()

    def read() -> None:
        masks = np.zeros((8, genial.actions.ACTION_COUNT), dtype=np.bool_)  # one `out` per thread
        while not stop.is_set():
            legal_action_mask(game)
            legal_actions(game)
            observe(game, 0)
            legal_action_mask_batch([game] * 8, masks)

    def play() -> None:
        mover = RandomBot(4)
        try:
            for _ in range(3):
                while not game.is_over:
                    game.play(mover.choose(game))
                while game.moves:
                    game.pop()
        finally:
            stop.set()

    assert _run_together([read, read, play]) == []
    assert not game.moves and game == Game(2, seed=29)


def test_a_thinking_bot_shows_its_settings_and_refuses_a_second_call() -> None:
    import time

    from genial.bots import MctsBot

    bot = MctsBot(seed=2, iterations=0, time_ms=1500)
    game = Game(2, seed=3)
    thinking = threading.Thread(target=bot.choose, args=(game,))
    thinking.start()
    try:
        # `last_search` needs the bot itself: BusyError once the other thread is searching.
        deadline = time.monotonic() + 30
        while True:
            try:
                bot.last_search()
            except genial.BusyError:
                break
            assert time.monotonic() < deadline and thinking.is_alive(), "the search never started"
            time.sleep(0.001)
        assert repr(bot) == "<MctsBot mcts(iterations=0,time_ms=1500) seed=2>"  # settings: never busy
        assert bot.options["time_ms"] == 1500
        try:
            bot.choose(game)
        except genial.BusyError as e:
            refused = e
        else:
            raise AssertionError("a second choose ran while the bot was thinking")
    finally:
        thinking.join()
    assert "this mcts bot is thinking in another thread" in str(refused)
    assert isinstance(refused, RuntimeError)
    assert bot.last_search()[0] >= 1  # usable again


def test_a_vecenv_shared_by_threads_refuses_with_busy_error_only() -> None:
    env = genial.VecEnv(512, seed=3, threads=1)
    refusals: list[BaseException] = []

    def work() -> None:
        for _ in range(30):
            try:
                env.step(env.sample_actions())
                env.observe()
                env.game(0)
            except genial.BusyError as e:
                refusals.append(e)
            except genial.IllegalMoveError:
                pass  # sampled, then the other thread stepped first

    assert _run_together([work, work]) == []
    assert all("VecEnv is in use by another thread" in str(e) for e in refusals)
    env.step(env.sample_actions())  # still usable

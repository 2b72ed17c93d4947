"""Whole-game simulation, summaries, tournaments, the CLI and the Ray backend."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import genial
import numpy as np
import pytest
from conftest import ROOT
from genial.bots import GameView, make, play_game
from genial.cli import main
from genial.dataset import read_dataset
from genial.simulation import SimulationResult, derive_seed, shards
from genial.tournament import bradley_terry, lineups_for


def test_same_result_for_any_thread_count_and_on_repeat() -> None:
    kw: dict[str, Any] = dict(players=3, bots=("greedy", "random", "random"), seed=5)
    one = genial.simulate(300, threads=1, **kw)
    assert one == genial.simulate(300, threads=2, **kw)
    assert one == genial.simulate(300, threads=1, **kw)
    assert one != genial.simulate(300, threads=2, players=3, bots=("greedy", "random", "random"), seed=6)
    assert one.seed.tolist() == [derive_seed(5, g) for g in range(300)]
    assert one.bot_names == ("greedy", "random")
    assert one.bots.tolist()[0] == [0, 1, 1]


def test_seed_ranges_merge_into_exactly_the_single_run() -> None:
    kw: dict[str, Any] = dict(players=2, bots=("greedy", "random"), seed=9, rotate=True)
    whole = genial.simulate(250, threads=2, **kw)
    parts = [genial.simulate(n, first_game=f, threads=1, **kw) for f, n in shards(250, 3)]
    assert [p.first_game for p in parts] == [0, 84, 167]
    assert SimulationResult.concat(parts) == whole
    # Summaries add up across parts exactly as over the whole run.
    total = parts[0].summary() + parts[1].summary() + parts[2].summary()
    assert total.to_dict() == whole.summary().to_dict()
    with pytest.raises(ValueError, match="consecutive"):
        SimulationResult.concat([parts[0], parts[2]])


def test_each_row_is_the_game_play_game_plays() -> None:
    mcts = make("mcts", iterations=20, width=4)
    res = genial.simulate(6, players=2, bots=(mcts, "greedy"), seed=3, threads=2, rotate=False)
    for g in (0, 5):
        # play_game seeds built-in bots given as text exactly as simulate does; the MCTS
        # bot only sees a GameView (hidden tiles dealt anew) and still plays the same game.
        game = play_game([mcts.spec, "greedy"], seed=derive_seed(3, g))
        assert res.scores[g].tolist() == [list(s) for s in game.scores]
        assert tuple(res.ranks[g]) == game.ranks()
        assert res.placements[g] == game.stats["placements"]
        assert res.swaps[g] == game.stats["swaps"]
        assert genial.results.END_NAMES[res.end[g]] == game.end


def test_summary_agrees_with_the_arrays() -> None:
    res = genial.simulate(400, players=2, bots=("greedy", "random"), seed=1, rotate=True, threads=2)
    s = res.summary()
    credit = res.win_credit()
    assert np.allclose(credit.sum(axis=1), 1.0)
    assert s.win_rate == pytest.approx(tuple(credit.mean(axis=0)))
    wins_by_bot = {name: credit[res.bots == i].sum() / (res.bots == i).sum() for i, name in enumerate(res.bot_names)}
    rates = s.bot_rates()
    assert rates["greedy"].value == pytest.approx(wins_by_bot["greedy"])
    assert rates["greedy"].value > 0.9 and rates["random"].value < 0.1
    assert rates["greedy"].low < rates["greedy"].value <= rates["greedy"].high
    assert s.lowest_mean() == pytest.approx(res.lowest().mean(axis=0))
    assert s.lowest_std() == pytest.approx(res.lowest().std(axis=0))
    assert s.lowest_quantiles((0.5,))[:, 0].tolist() == [
        int(np.quantile(res.lowest()[:, p], 0.5, method="inverted_cdf")) for p in range(2)
    ]
    assert s.first_player_advantage().value == pytest.approx(credit[:, 0].mean() - 0.5)
    assert sum(s.end_counts().values()) == 400
    assert "first player advantage" in s.table() and "greedy" in s.table()


def test_win_credit_splits_ties_and_counts_teams_as_sides() -> None:
    res = genial.simulate(60, players=4, variant="team", seed=2, threads=1)
    credit = res.win_credit()
    assert np.allclose(credit.sum(axis=1), 2.0)  # both partners get their team's share
    assert np.array_equal(credit[:, 0], credit[:, 2])
    duel = genial.simulate(300, players=2, variant="duel", seed=2, threads=1)
    c = duel.win_credit()
    ties = (duel.ranks == 0).all(axis=1)
    assert np.allclose(c[ties], 0.5) and np.allclose(c.sum(axis=1), 1.0)
    assert duel.tracks.shape == (300, 1, 6)
    assert np.array_equal(duel.scores[:, 0], duel.tracks[:, 0]) and np.array_equal(
        duel.scores[:, 1], -duel.tracks[:, 0]
    )


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="3 players need 3 bots"):
        genial.simulate(1, players=3, bots=("random", "greedy"))
    with pytest.raises(TypeError, match="play_game"):
        genial.simulate(1, bots=(object(), "random"))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threads"):
        genial.simulate(1, threads=0)
    with pytest.raises(ValueError, match="unknown bot"):
        genial.simulate(1, bots="smart")
    with pytest.raises(ValueError, match="the greedy bot takes no option iterations: its options are swap"):
        make("greedy", iterations=5)
    with pytest.raises(ValueError, match="playout"):
        make("mcts", playout="clever")
    with pytest.raises(ValueError, match="budget"):
        make("mcts", iterations=0)
    with pytest.raises(ValueError, match="unknown variant"):
        genial.simulate(1, variant="speed")


def test_tournament_rotates_seats_and_ranks_the_bots() -> None:
    bots = ["greedy", "random", "mcts:iterations=10,width=3"]
    # Whole rounds of the 6 lineups, or a refusal that says what to ask for.
    with pytest.raises(ValueError, match="50 games is not a whole number of rounds: ask for 48 or 54"):
        genial.tournament(bots, games=50)
    with pytest.raises(ValueError, match=r"ask for 6$"):
        genial.tournament(bots, games=5)
    assert genial.tournament(["greedy", "random"], games=7 - 1, threads=1).games == 6
    t = genial.tournament(bots, players=2, games=54, seed=4, threads=2)
    assert t.games == 54
    assert t.seat_counts.tolist() == [[18, 18]] * 3
    res = t.result
    # A round plays one deal in every lineup.
    assert len(set(res.seed[:6].tolist())) == 1 and res.seed[6] != res.seed[0]
    assert t.ratings["greedy"][0] > t.ratings["random"][0]
    assert t.win_rates["random"] < 0.1
    assert all(se > 0 for _, se in t.ratings.values())
    assert "elo" in t.table() and "greedy" in str(t)
    h2h = t.head_to_head()
    assert np.isnan(h2h[0, 0]) and h2h[0, 1] + h2h[1, 0] == pytest.approx(1.0) and h2h[0, 1] > 0.9
    assert sorted(lineups_for(2, 4)) == sorted(set(lineups_for(2, 4)))
    counts = np.zeros((2, 4), dtype=int)
    for lineup in lineups_for(2, 4):
        for s, b in enumerate(lineup):
            counts[b, s] += 1
    assert (counts == counts[0, 0]).all()


def test_bradley_terry_recovers_known_strengths() -> None:
    # 0 beats 1 three times in four, 1 beats 2 likewise: 0 is ~2 * 191 Elo above 2.
    wins = np.array([[0, 750, 0], [250, 0, 750], [0, 250, 0]], dtype=float)
    games = np.array([[0, 1000, 0], [1000, 0, 1000], [0, 1000, 0]], dtype=float)
    elo, _se = bradley_terry(wins, games, prior=0.0)
    assert elo[0] - elo[1] == pytest.approx(400 * np.log10(3), abs=1.0)
    assert elo.sum() == pytest.approx(0.0, abs=1e-6)
    # Two bots: each rating is half the difference, whose error is 1/sqrt(n p (1 - p)).
    elo2, se2 = bradley_terry(wins[:2, :2], games[:2, :2], prior=0.0)
    assert elo2[0] == pytest.approx(200 * np.log10(3), abs=0.5)
    assert se2[0] == pytest.approx(0.5 * 400 / np.log(10) / np.sqrt(1000 * 0.75 * 0.25), rel=1e-3)


class FirstMoveBot:
    """A Python bot: always the first legal move."""

    name = "first"

    def __init__(self) -> None:
        self.views: list[GameView] = []

    def choose(self, view: GameView) -> genial.Move:
        self.views.append(view)
        return view.legal_moves()[0]


def test_python_bots_play_at_the_table_with_a_fair_view() -> None:
    bot = FirstMoveBot()
    game = play_game([bot, "greedy"], seed=12)
    assert game.is_over and game.ranks()[1] == 0
    view = bot.views[3]
    assert view.seat == 0 and view.current_player == 0
    assert len(view.rack()) == 6 and view.rack_sizes == (6, 6)
    with pytest.raises(genial.HiddenInformationError, match="cannot see the rack of seat 1"):
        view.rack(1)
    # The view holds no trace of the true hidden tiles: its copy was dealt anew.
    truth = genial.Game(seed=12)
    assert bot.views[0].unseen_tiles() == truth.unseen_tiles(0)
    assert bot.views[0]._game.rack(1) != truth.rack(1)
    other_turn = GameView(truth, seat=1)
    with pytest.raises(genial.HiddenInformationError, match="seat 0 is to move"):
        other_turn.legal_moves()


def test_bad_python_bots_are_named() -> None:
    class Illegal:
        def choose(self, view: GameView) -> str:
            return "swap"

    class Silent:
        def choose(self, view: GameView) -> None:
            return None

    with pytest.raises(genial.IllegalMoveError, match="seat 1"):
        play_game(["random", Illegal()], seed=1)
    with pytest.raises(TypeError, match="seat 0"):
        play_game([Silent(), "random"], seed=1)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="3 players need 3 bots"):
        play_game(["random", "random"], players=3)


def test_tournament_with_a_python_bot_plays_the_same_games() -> None:
    from genial.simulation import Run

    native = genial.tournament(["greedy", "random"], games=8, seed=3, threads=1)
    # The path Python bots and engines take (play_game, recorded by the core), run with the
    # built-in bots: the very same games, in the very same columns.
    entries = [make("greedy"), make("random")]
    run = Run(genial.Rules(), entries, lineups_for(2, 2), 3, paired=True)
    run.native = False
    slow = run.play(0, 8)
    assert slow == native.result
    # Unpaired, as `simulate` deals them (rotating seats), from a later game on.
    rotated = genial.simulate(6, 2, ["greedy", "random"], seed=5, threads=1, first_game=3, rotate=True)
    run = Run(genial.Rules(), entries, [(0, 1), (1, 0)], 5)
    run.native = False
    slow = run.play(3, 6)
    assert slow == rotated
    python = genial.tournament([FirstMoveBot(), "random"], games=8, seed=3)
    assert python.result.seed.tolist() == native.result.seed.tolist()
    assert python.seat_counts.tolist() == [[4, 4], [4, 4]]
    assert python.result.bot_names == ("first", "random")


@pytest.mark.parametrize("bot", ["mcts", "master", "master:infer=on"])
def test_mcts_never_reads_hidden_tiles(bot: str) -> None:
    # `master:infer=on` deals the hidden racks by the public moves (which `determinize`
    # keeps): the same public history must give the same decision.
    options: dict[str, object] = {"iterations": 40, "width": 5} if bot == "mcts" else {"iterations": 40}
    if bot.endswith("infer=on"):
        bot, options["infer"] = "master", "on"
    for seed in range(3):
        game = genial.Game(players=3, seed=seed)
        rnd = make("random", seed=seed)
        for _ in range(8 + 5 * seed):
            game.play(rnd.choose(game))
        seat = game.current_player
        # The true state and another arrangement of everything this seat cannot see.
        other = game.determinize(seat, 1000 + seed)
        assert other.rack(seat) == game.rack(seat)
        assert [other.rack(p) for p in range(3)] != [game.rack(p) for p in range(3)]
        a = make(bot, seed=7, **options).choose(game)
        b = make(bot, seed=7, **options).choose(other)
        assert a == b


def test_mcts_budgets() -> None:
    game = genial.Game(seed=1)
    bot = genial.bots.MctsBot(seed=1, iterations=25)
    assert bot.choose(game) in game.legal_moves()
    assert bot.last_search()[0] == 25
    timed = genial.bots.MctsBot(seed=1, time_ms=5)
    timed.choose(game)
    assert timed.last_search()[0] >= 1 and timed.options["iterations"] == 0
    assert bot.label == "mcts(iterations=25)" and make("mcts").label == "mcts"
    assert genial.bots.parse_bot(bot.spec).options == bot.options


# ----- CLI -----------------------------------------------------------------------------------


def test_cli_simulate_writes_csv_and_shows_progress(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.csv"
    code = main(
        [
            "simulate",
            "--games",
            "300",
            "--bots",
            "greedy,random",
            "--no-rotate",
            "--seed",
            "4",
            "--threads",
            "2",
            "--chunk",
            "100",
            "--out",
            str(out),
            "--progress",
        ]
    )
    assert code == 0
    captured = capsys.readouterr()
    assert "300/300" in captured.err and "100%" in captured.err
    assert "win rate" in captured.out and "greedy" in captured.out
    # A plain CSV (exactly the games), and its metadata beside it.
    with out.open(newline="") as f:
        rows = list(csv.DictReader(f))
    meta = json.loads((tmp_path / "games.csv.meta.json").read_text())
    assert meta["format"] == "genial-results" and meta["run_seed"] == 4 and meta["games"] == 300
    assert [b["label"] for b in meta["bots"]] == ["greedy", "random"]
    assert meta["bots"][0] == {"label": "greedy", "spec": "greedy", "name": "greedy", "options": {}}
    assert meta["lineups"] == [[0, 1]] and meta["paired"] is False
    assert meta["genial_version"] == genial.__version__ and genial.Rules.from_text(meta["rules"]).variant == "standard"
    assert meta["written"].endswith("+00:00")
    res = genial.simulate(300, bots=("greedy", "random"), seed=4, rotate=False)
    assert len(rows) == 300
    assert [int(r["place_0"]) for r in rows] == (res.ranks[:, 0] + 1).tolist()
    assert [int(r["seed"]) for r in rows] == res.seed.tolist()
    assert [int(r["score_1_purple"]) for r in rows] == res.scores[:, 1, 5].tolist()
    assert {r["bot_0"] for r in rows} == {"greedy"}


def test_cli_tournament_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["tournament", "--bots", "mcts:iterations=8,width=3,greedy", "--games", "4", "--seed", "1", "--no-progress"]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "mcts(iterations=8 width=3)" in out and "elo" in out and "head to head" in out
    # One table of the bots, one head-to-head matrix: nothing else.
    assert out.count("win rate") == 1 and "first player advantage" not in out
    assert main(["simulate", "--games", "5", "--bots", "nobody"]) == 2
    assert "unknown bot" in capsys.readouterr().err


def test_cli_refuses_bad_counts_and_outputs_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for argv, says in [
        (["simulate", "--games", "-5"], "argument --games: -5 is less than 0"),
        (["tournament", "--games", "0"], "argument --games: 0 is less than 1"),
        (["simulate", "--threads", "0"], "argument --threads: 0 is less than 1"),
        (["simulate", "--chunk", "x"], "argument --chunk: 'x' is not a whole number"),
        (["tournament", "--chunk", "0"], "argument --chunk: 0 is less than 1"),
        (
            ["simulate", "--chunk", str(2**40)],
            f"argument --chunk: {2**40} is more than 4294967295, the most --chunk takes",
        ),
    ]:
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2 and says in capsys.readouterr().err
    # The output is opened, and pyarrow looked for, before the first game: no game is
    # played (the core is never asked for one) and nothing is lost after a long run.
    played: list[int] = []
    real = genial.simulation.Run.chunks

    def counting(self: genial.simulation.Run, first: int, games: int, *args: Any, **kw: Any) -> Any:
        played.append(games)
        return real(self, first, games, *args, **kw)

    monkeypatch.setattr(genial.simulation.Run, "chunks", counting)
    unwritable = str(tmp_path / "no-such-dir" / "games.csv")
    for command in ("simulate", "tournament"):
        assert main([command, "--games", "40", "--no-progress", "--out", unwritable]) == 2
        assert f"genial: error: cannot write {unwritable}: No such file or directory" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if pyarrow were not installed
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    for command in ("simulate", "tournament"):
        assert main([command, "--games", "40", "--no-progress", "--out", str(tmp_path / "g.parquet")]) == 2
        assert "writing Parquet needs pyarrow" in capsys.readouterr().err
        assert not (tmp_path / "g.parquet").exists()
    assert sum(played) == 0
    # Bad arguments are refused before the output file is touched.
    keep = tmp_path / "keep.csv"
    keep.write_text("precious\n")
    assert main(["tournament", "--players", "9", "--out", str(keep)]) == 2
    assert main(["simulate", "--bots", "nobody", "--out", str(keep)]) == 2
    assert keep.read_text() == "precious\n" and sum(played) == 0


def test_numpy_integers_are_ints_everywhere() -> None:
    a = genial.simulate(np.int64(6), players=np.int8(3), seed=np.uint64(5), threads=np.int32(2), first_game=np.int16(2))
    assert a == genial.simulate(6, players=3, seed=5, threads=2, first_game=2)
    t = genial.tournament(["greedy", "random"], players=np.int64(2), games=np.int64(4), seed=np.int64(1), threads=1)
    assert t.games == 4
    assert genial.Game(np.int64(2), seed=np.uint64(3)) == genial.Game(2, seed=3)
    env = genial.VecEnv(np.int64(3), players=np.int64(2), seed=np.uint64(1), threads=np.int64(1))
    assert env.num_envs == 3 and env.game(np.int64(2)).players == 2
    bot = make("mcts", seed=np.int64(1), iterations=np.int64(10), width=np.uint8(3), depth=np.int32(2))
    assert bot.options["iterations"] == 10 and bot.seed == 1


def test_cli_runs_as_a_program_and_demo_still_works() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "genial", "simulate", "--games", "200", "--players", "4", "--threads", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "200 games, 4 players" in proc.stdout and proc.stderr == ""
    demo = subprocess.run(
        [sys.executable, "-m", "genial", "demo", "--seed", "3"], capture_output=True, text=True, timeout=120
    )
    assert demo.returncode == 0 and "placements" in demo.stdout


def test_single_machine_path_does_not_import_ray() -> None:
    code = "import sys, genial; genial.simulate(10); genial.tournament(['greedy','random'], games=2); print('ray' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip() == "False", proc.stderr


# ----- optional libraries ----------------------------------------------------------------------


def test_pandas_arrow_and_parquet(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas", reason="pandas not installed: pip install pandas")
    pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow not installed: pip install pyarrow")
    res = genial.simulate(50, players=2, variant="duel", seed=3, threads=1)
    df = res.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == 50
    assert df["score_0_red"].tolist() == res.scores[:, 0, 0].tolist()
    assert "track_0_blue" in df.columns
    table = res.to_arrow()
    assert table.num_rows == 50
    path = tmp_path / "games.parquet"
    assert (
        main(["simulate", "--games", "50", "--variant", "duel", "--seed", "3", "--out", str(path), "--chunk", "20"])
        == 0
    )
    back = pq.read_table(path)
    assert back.num_rows == 50 and back.column("seed").to_pylist() == res.seed.tolist()
    meta = json.loads(back.schema.metadata[b"genial"])
    assert meta["rules"] == genial.Rules("duel").to_text()
    assert genial.results.read_metadata(path)["games"] == 50
    assert set(back.column("place_0").to_pylist()) <= {1, 2}
    # A plain CSV: pandas reads exactly the games, with no options.
    frame = pd.read_csv(_write_csv(res, tmp_path))
    assert len(frame) == 50 and frame["place_1"].tolist() == (res.ranks[:, 1] + 1).tolist()


def _write_csv(res: genial.SimulationResult, tmp_path: Path) -> Path:
    path = tmp_path / "games.csv"
    res.write(path)
    return path


def test_a_result_row_replays_as_a_full_game() -> None:
    res = genial.simulate(
        6, players=3, bots=("greedy", "random", make("mcts", iterations=6, width=2)), seed=2, rotate=True
    )
    for i in (0, 4, -1):
        game = res.game(i)
        assert game.is_over and game.stats["placements"] == res.placements[i]
        assert list(game.ranks()) == res.ranks[i].tolist()
        assert game.seed == res.seed[i]
    with pytest.raises(IndexError, match="out of range"):
        res.game(6)


def test_only_built_in_bots_on_iterations_replay() -> None:
    class First:
        def choose(self, view: genial.GameView) -> genial.Move:
            return view.legal_moves()[0]

    t = genial.tournament([First(), "random"], games=2, seed=0)
    with pytest.raises(ValueError, match="not a built-in bot"):
        t.result.game(0)


@pytest.mark.slow
def test_ray_backend_equals_the_single_machine_result() -> None:
    ray = pytest.importorskip("ray", reason="ray not installed: pip install ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        kw: dict[str, Any] = dict(players=2, bots=("greedy", make("mcts", iterations=5, width=2)), seed=8)
        local = genial.simulate(90, threads=2, **kw)
        from genial.distributed import simulate_ray

        remote = simulate_ray(90, shards=4, **kw)
        assert remote == local
    finally:
        ray.shutdown()


def test_docstring_examples_run() -> None:
    import doctest
    import importlib

    # `genial.tournament` is the function; the module is reached by name.
    for name in ("genial.bots", "genial.simulation", "genial.tournament"):
        module = importlib.import_module(name)
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_results_that_cannot_fit_in_memory_are_refused_before_any_game() -> None:
    """The most games a call may ask for: their columns (about 50 bytes a game) would need
    some 200 GB. Refused at once with MemoryError, not an abort after hours of play."""
    import os

    limit = genial.simulation.LIMITS["games"]
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        pytest.skip("physical memory unknown here")
    if memory >= limit * 60:
        pytest.skip("this machine could hold the results")
    with pytest.raises(MemoryError, match="split the run into seed ranges with first_game="):
        genial.simulate(limit)
    with pytest.raises(MemoryError, match="GiB"):
        genial.tournament(["greedy", "random"], games=limit - 1)


def test_cli_says_what_it_does_instead_of_surprising(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Different bots rotate by default, so the advantage printed is the first player's.
    assert main(["simulate", "--games", "40", "--bots", "greedy,random", "--threads", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "first player advantage" in out and "rotated through the seats" in out
    assert main(["simulate", "--games", "40", "--bots", "greedy,random", "--no-rotate", "--threads", "1"]) == 0
    assert "seat 0 (greedy) advantage, its bot's strength included" in capsys.readouterr().out
    # A tournament plays whole rounds: the games asked, or a refusal that says why.
    assert main(["tournament", "--bots", "greedy,random,random", "--games", "10", "--threads", "1"]) == 2
    assert "ask for 6 or 12" in capsys.readouterr().err
    assert main(["tournament", "--bots", "greedy,random,random", "--threads", "1", "--no-progress"]) == 0
    captured = capsys.readouterr()
    assert "playing 1002 games" in captured.err and "1002 games, 2 players" in captured.out
    # The player count follows the variant.
    assert main(["simulate", "--games", "4", "--variant", "team", "--threads", "1", "--no-progress"]) == 0
    assert "4 games, 4 players" in capsys.readouterr().out
    # --quiet prints the results only; --verbose logs the run.
    assert main(["simulate", "--games", "40", "--bots", "greedy,random", "--threads", "1", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "rotated" not in captured.out and "win rate" in captured.out
    assert main(["simulate", "--games", "40", "--threads", "1", "--no-progress", "-v"]) == 0
    assert 'genial INFO: 40 games of Rules("standard", 2)' in capsys.readouterr().err
    # An output name whose format cannot be told is refused before any game.
    assert main(["simulate", "--games", "5", "--out", str(tmp_path / "games.json")]) == 2
    assert "name it .csv or .parquet" in capsys.readouterr().err
    assert not (tmp_path / "games.json").exists()
    # Every option's help says its default; the bots' options are listed by `genial bots`,
    # which the help points to.
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = capsys.readouterr().out
    assert "genial bots" in text and "(default: 10000)" in text and "(default: standard)" in text
    assert main(["bots", "mcts"]) == 0
    assert "iterations=300 (0..=10000000)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("variant", "players"), [("standard", 2), ("standard", 3), ("standard", 4), ("team", 4), ("duel", 2), ("solo", 1)]
)
def test_turns_count_every_turn_the_one_that_ends_the_game_included(variant: str, players: int) -> None:
    # One turn, one placement that is not a bonus: the turn that wins or fills the board too.
    res = genial.simulate(150, players=players, variant=variant, bots="random", seed=45, threads=1)
    assert (res.placements.astype(int) - res.bonus_placements == res.turns).all()
    assert set(res.end_reasons()) >= {"board_full"}


def test_a_swap_instead_of_a_placement_is_a_turn_of_its_own() -> None:
    res = genial.simulate(150, players=3, bots="random", seed=45, threads=1, swap_timing="instead_of_placement")
    assert res.swaps.sum() > 0
    assert (res.placements.astype(int) - res.bonus_placements + res.swaps == res.turns).all()


def test_no_file_column_is_an_sql_keyword(tmp_path: Path) -> None:
    res = genial.simulate(5, bots="random", seed=1)
    cols = res.column_dict()
    assert "end" not in cols and cols["end_reason"].tolist() == res.end_reasons().tolist()
    res.write(tmp_path / "r.csv")
    with open(tmp_path / "r.csv", newline="") as f:
        header = next(csv.reader(f))
    # The reserved words of SQL:2016 that a column name could plausibly take.
    reserved = {"end", "order", "group", "select", "from", "where", "rank", "value", "values", "position", "user"}
    assert not reserved & set(header)
    assert json.loads((tmp_path / "r.csv.meta.json").read_text())["version"] == 4


def test_a_version_3_dataset_reads_with_its_turns_counted_as_now() -> None:
    # tests/data/dataset-v3 was written by genial before version 4: its `turns` left out the
    # turn that ends the game, and its end reason was the column `end`.
    old = read_dataset(ROOT / "tests" / "data" / "dataset-v3")
    assert len(old) == 12 and set(old.end_reasons()) <= {"board_full", "immediate_win", "no_placement"}
    assert (old.placements.astype(int) - old.bonus_placements == old.turns).all()
    new = genial.simulate(12, bots="greedy", seed=45, threads=1)
    assert (old.turns == new.turns).all() and (old.end == new.end).all()


def test_every_file_column_is_defined_in_the_simulation_page() -> None:
    page = (ROOT / "docs" / "simulation.md").read_text()
    documented = set(re.findall(r"^\| `([a-z_<>]+)` \| [a-z0-9]+ \|", page, re.MULTILINE))
    colours = "|".join(c.name.lower() for c in genial.Color)
    seen = set()
    for variant, players in (("standard", 2), ("standard", 4), ("team", 4), ("duel", 2), ("solo", 1)):
        for name in genial.simulate(2, players=players, variant=variant, seed=1).column_dict():
            name = re.sub(
                rf"^(score|track)_\d+_({colours})$",
                lambda m: f"{m.group(1)}_<{'s' if m.group(1) == 'score' else 't'}>_<colour>",
                name,
            )
            seen.add(re.sub(r"^(bot|place)_\d+$", r"\1_<s>", name))
    assert seen == documented, (seen - documented, documented - seen)

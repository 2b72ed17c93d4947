"""The one run loop and its result files: one `Rules` from the door to the metadata, the
core's seeding, chunking and columns shared by `simulate` and `tournament`, progress from
the core, finished games kept when a run stops, and files any reader reads right."""

from __future__ import annotations

import csv
import errno
import json
import time
from pathlib import Path
from typing import Any

import genial
import numpy as np
import pytest
from genial import Rules
from genial.bots import Forfeit, GameView, forfeit_ranks, make
from genial.cli import main
from genial.results import ResultFileError, ResultWriter, read_metadata
from genial.simulation import Run, bot_label, simulation_run
from genial.tournament import lineups_for
from genial.variants import as_rules


class Named:
    """A Python bot whose name would break a naive CSV."""

    def __init__(self, name: str) -> None:
        self.name = name

    def choose(self, view: GameView) -> genial.Move:
        return view.legal_moves()[0]


def test_one_rules_value_enters_at_the_door() -> None:
    team = Rules("team")
    assert as_rules(variant="team") == team and as_rules(team) is team
    assert as_rules(players=3) == Rules("standard", 3)
    assert genial.Game(rules=team, seed=1) == genial.Game(variant="team", seed=1)
    with pytest.raises(ValueError, match="either rules= or players"):
        genial.Game(3, rules=team)
    with pytest.raises(TypeError, match=r"rules must be a genial\.Rules"):
        as_rules("team")  # type: ignore[arg-type]
    # simulate, tournament and play_game take the same value, and results carry it.
    res = genial.simulate(4, rules=team, seed=2, threads=1)
    assert res.rules == team and res.players == 4 and res.variant == "team"
    assert res == genial.simulate(4, variant="team", seed=2, threads=1)
    t = genial.tournament(["greedy", "random"], games=len(lineups_for(2, 4)), rules=team)
    assert t.result.rules == team
    duel = genial.simulate(3, variant="duel", threads=1)  # the player count follows the variant
    assert duel.players == 2 and genial.simulate(2, variant="solo", threads=1).players == 1


def test_simulate_and_tournament_share_the_core_loop_and_columns() -> None:
    """The tournament's games are the core run's games: same deals, seats and columns."""
    t = genial.tournament(["greedy", "random"], games=6, seed=5, threads=2)
    run = Run(Rules(), [make("greedy"), make("random")], [[0, 1], [1, 0]], 5, paired=True)
    assert t.result == run.play(0, 6, threads=1)
    for g in range(6):
        seed, lineup = run._core.deal(g)
        assert int(t.result.seed[g]) == seed == genial.simulation.derive_seed(5, g // 2)
        assert t.result.bots[g].tolist() == lineup
    assert t.result.game_index.tolist() == list(range(6))
    assert tuple(genial.results.COLUMNS) == tuple(genial._core.Run.columns())
    # One chunking policy: by the bots' speed, from the core.
    assert run.chunk_size(10**6) == 50_000 and run.chunk_size(10) == 1000
    slow = Run(Rules(), [make("mcts", iterations=5)], [[0, 0]], 0)
    assert slow.chunk_size(10**6) == 64
    # Chunks do not change the games.
    assert run.play(0, 6, chunk=1) == run.play(0, 6, chunk=100)


def test_built_in_bots_fill_one_result_in_one_core_call() -> None:
    """`Run.play` hands a run of built-in bots to the core whole, which fills the result's
    final arrays: parts joined in Python left their freed memory with the process (a
    million random games held 108 bytes of RSS a game, for 55 bytes of data). A ``chunk``
    given is still honoured, and neither changes the games."""
    run = Run(Rules(), [make("random")], [[0, 0]], 4)
    core = run._core
    games: list[int] = []

    class Counting:
        def __getattr__(self, name: str) -> Any:
            return getattr(core, name)

        def play(self, first: int, count: int, *rest: Any) -> Any:
            games.append(count)
            return core.play(first, count, *rest)

    run._core = Counting()
    assert run.chunk_size(2_000) == 1_000  # the policy would have played two parts
    whole = run.play(0, 2_000, threads=1)
    assert games == [2_000]
    games.clear()
    assert run.play(0, 2_000, threads=1, chunk=500) == whole
    assert games == [500] * 4
    games.clear()
    assert len(run.play(0, 0)) == 0 and games == []


def test_simulate_rotates_seats_by_default() -> None:
    res = genial.simulate(200, bots=("greedy", "random"), seed=1, threads=2)
    assert res.bots[:2].tolist() == [[0, 1], [1, 0]]
    s = res.summary()
    # The seats' figures are the seats' own: greedy wins everywhere, each seat about half.
    assert abs(s.first_player_advantage().value) < 0.1
    fixed = genial.simulate(200, bots=("greedy", "random"), seed=1, threads=2, rotate=False)
    assert fixed.bots.tolist() == [[0, 1]] * 200 and fixed.summary().first_player_advantage().value > 0.4
    # One bot in every seat: the same games as ever.
    assert genial.simulate(50, bots="greedy", seed=3) == genial.simulate(50, bots="greedy", seed=3, rotate=False)


def test_progress_comes_from_the_core_while_a_chunk_is_played() -> None:
    """A chunk of slow games reports progress every 200 ms, not once at its end."""
    calls: list[tuple[int, int, float]] = []
    start = time.monotonic()
    bots = ("mcts:iterations=0,time_ms=30", "greedy")
    res = genial.simulate(
        4, bots=bots, seed=1, threads=1, chunk=4, progress=lambda d, n: calls.append((d, n, time.monotonic() - start))
    )
    assert len(res) == 4
    assert calls[-1][:2] == (4, 4)
    during = [c for c in calls[:-1] if c[0] < 4]
    assert len(during) >= 2, calls  # games of ~1 s each: reports came while the chunk ran
    assert all(n == 4 for _, n, _ in calls) and [d for d, _, _ in calls] == sorted(d for d, _, _ in calls)


def test_progress_true_shows_a_bar(capsys: pytest.CaptureFixture[str]) -> None:
    assert len(genial.simulate(50, seed=1, threads=1, progress=True)) == 50
    err = capsys.readouterr().err
    assert "simulate" in err and "50/50" in err
    genial.tournament(["greedy", "random"], games=4, threads=1, progress=True)
    err = capsys.readouterr().err
    assert "tournament" in err and "4/4" in err


class Stop(Exception):
    pass


@pytest.mark.parametrize("threads", [1, 2])
def test_a_stopped_run_hands_over_every_finished_game_first(threads: int) -> None:
    """Whatever stops a run (Ctrl-C, a raising signal handler or progress callback), the games
    finished by then -- of the chunk under way too -- come out before the exception; on one
    thread (the calling thread plays) as on a pool."""
    run, games, first = simulation_run(10**6, ("greedy", "random"), 4, rules=Rules())
    full = run.play(0, 3000, threads=2)

    def stop_soon(done: int, total: int) -> None:
        raise Stop

    parts = []
    with pytest.raises(Stop):
        for part in run.chunks(first, games, threads=threads, chunk=10**5, progress=stop_soon):
            parts.append(part)
    assert len(parts) == 1
    kept = parts[0]
    assert 0 < len(kept) < 10**5
    index = kept.game_index.astype(np.int64)
    assert (np.diff(index) > 0).all()
    # Each kept game is the game a full run plays under that number.
    small = index[index < 3000]
    assert len(small) > 0
    for name in ("seed", "ranks", "scores", "placements"):
        assert np.array_equal(getattr(kept, name)[: len(small)], getattr(full, name)[small])


def test_a_python_bot_run_keeps_its_finished_games_on_ctrl_c() -> None:
    class Interrupting(Named):
        def __init__(self) -> None:
            super().__init__("interrupting")
            self.moves = 0

        def choose(self, view: GameView) -> genial.Move:
            self.moves += 1
            if self.moves == 200:  # in the fourth game or so
                raise KeyboardInterrupt
            return view.legal_moves()[0]

    run = Run(Rules(), [Interrupting(), make("random")], [[0, 1], [1, 0]], 0, paired=True)
    parts = []
    with pytest.raises(KeyboardInterrupt):
        for part in run.chunks(0, 50, chunk=50):
            parts.append(part)
    assert len(parts) == 1 and 0 < len(parts[0]) < 50
    assert parts[0].game_index.tolist() == list(range(len(parts[0])))


class Quitter:
    """A Python bot that forfeits on its fourth decision (as a failing engine does)."""

    name = "quitter"

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, view: GameView) -> genial.Move:
        self.calls += 1
        if self.calls % 4 == 0:
            raise Forfeit("gave up")
        return view.legal_moves()[0]


def test_the_core_records_a_forfeited_game_as_it_stood() -> None:
    t = genial.tournament([Quitter(), "greedy", "random"], players=3, games=6, seed=4, threads=1)
    res = t.result
    assert res.end_reasons().tolist() == ["forfeit"] * 6
    quitter = res.bots == 0
    # The forfeiting seat ranks last; the others keep their order; the game stood unfinished.
    assert (res.ranks[quitter] == 2).all() and (res.ranks[~quitter] <= 1).all()
    assert all(sorted(r) in ([0, 1, 2], [0, 0, 2]) for r in res.ranks.tolist())
    assert (res.placements > 0).all() and (res.placements < 40).all()
    assert t.win_rates["quitter"] == 0.0 and t.summary.end_counts() == {"forfeit": 6}
    # The core's record of a game that stopped unfinished: a forfeit, or refused.
    run = Run(Rules(), [make("greedy")], [[0, 0]], 9)
    game = genial.Game(rules=Rules(), seed=run._core.deal(0)[0])
    for _ in range(3):
        game.play(game.legal_moves()[0])
    with pytest.raises(ValueError, match="not over"):
        run._core.record([0], [game._state])
    row = run._result(run._core.record([0], [game._state], [game.current_player]))
    assert row.end_reasons().tolist() == ["forfeit"] and row.placements.tolist() == [3]
    assert row.ranks[0].tolist() == list(forfeit_ranks(game, game.current_player))
    assert row.scores[0].tolist() == [list(s) for s in game.scores]
    with pytest.raises(ValueError, match="seat 2"):
        run._core.record([0], [game._state], [2])


def test_tournament_games_are_exact_or_refused() -> None:
    with pytest.raises(ValueError, match="7 games is not a whole number of rounds: ask for 6 or 8"):
        genial.tournament(["greedy", "random"], games=7)
    assert genial.tournament(["greedy", "random"], games=8, threads=1).games == 8
    assert genial.tournament(["greedy", "random", "random"], threads=1).games == 1002


def test_bot_labels_are_plain_csv_fields() -> None:
    assert bot_label(make("mcts", iterations=100, exploration=2.0)) == "mcts(iterations=100 exploration=2.0)"
    assert bot_label(Named('a "quoted", #1;\nname')) == "a -quoted- -1-name"
    t = genial.tournament(["random", "random", Named("x,y")], games=6, threads=1)
    assert t.names == ("random", "random-2", "x-y")


def test_csv_is_plain_and_metadata_is_beside_it(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas", reason="pandas not installed")
    path = tmp_path / "t.csv"
    assert (
        main(
            [
                *("tournament", "--bots", "random,random,mcts:iterations=5,width=2", "--games", "6", "--seed", "7"),
                *("--no-progress", "--out", str(path), "--threads", "1"),
            ]
        )
        == 0
    )
    frame = pd.read_csv(path)
    assert len(frame) == 6 and frame["game"].tolist() == list(range(6))
    assert set(frame["bot_0"]) == {"random", "random-2", "mcts(iterations=5 width=2)"}
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 6 and rows[0].keys() == set(frame.columns)
    meta = read_metadata(path)
    assert meta == json.loads((tmp_path / "t.csv.meta.json").read_text())
    assert meta["run_seed"] == 7 and meta["paired"] is True and meta["games"] == 6
    assert [b["label"] for b in meta["bots"]] == ["random", "random-2", "mcts(iterations=5 width=2)"]
    assert meta["bots"][2]["name"] == "mcts" and meta["bots"][2]["options"]["iterations"] == "5"
    assert meta["bots"][2]["spec"].startswith("mcts:iterations=5,")
    assert genial.Rules.from_text(meta["rules"]).players == 2 and len(meta["lineups"]) == 6
    assert meta["genial_version"] == genial.__version__ and "written" in meta


def test_parquet_is_renamed_into_place_and_a_full_disk_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow not installed")
    res = genial.simulate(30, seed=1, threads=1)
    path = tmp_path / "g.parquet"
    path.write_bytes(b"an earlier file")
    with ResultWriter(path) as w:
        w.write(res)
        assert path.read_bytes() == b"an earlier file"  # untouched until complete
        assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")]
    assert pq.read_table(path).num_rows == 30
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]
    assert json.loads(pq.read_schema(path).metadata[b"genial"])["run_seed"] == 1
    # A full disk: a clear error naming the file, the earlier file kept, no temp file left.
    real = pq.ParquetWriter.write_table

    def full(self: Any, table: Any, *a: Any, **kw: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pq.ParquetWriter, "write_table", full)
    w = ResultWriter(path)
    with pytest.raises(ResultFileError, match=r"cannot write .*g.parquet: No space left on device \(the file there"):
        w.write(res)
    w.close()
    monkeypatch.setattr(pq.ParquetWriter, "write_table", real)
    assert pq.read_table(path).num_rows == 30
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]


def test_the_cli_reports_a_full_disk_and_keeps_its_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    written = []

    def full_after_one(self: ResultWriter, res: genial.SimulationResult) -> None:
        if written:
            raise ResultFileError(errno.ENOSPC, f"cannot write {self.path}: No space left on device")
        written.append(len(res))

    monkeypatch.setattr(ResultWriter, "write", full_after_one)
    code = main(["simulate", "--games", "3000", "--chunk", "1000", "--threads", "1", "--out", str(tmp_path / "g.csv")])
    assert code == 1
    captured = capsys.readouterr()
    assert "No space left on device" in captured.err and "Traceback" not in captured.err
    # The games played are still summed up.
    assert "1000 games, 2 players" in captured.out and "1000 games were played" in captured.err


def test_pandas_reads_a_tournament_csv_as_exactly_its_games(tmp_path: Path) -> None:
    """`pandas.read_csv(path)`, no options, gives the result's own table: every game, every
    column, every value -- with bot labels that held commas, quotes and ``#``."""
    pd = pytest.importorskip("pandas", reason="pandas not installed")
    res = genial.tournament(["random", "random", Named('x,#y "z"')], games=6, seed=3, threads=1).result
    path = tmp_path / "t.csv"
    res.write(path)
    frame = pd.read_csv(path)
    expected = res.to_pandas()
    assert list(frame.columns) == list(expected.columns) and len(frame) == len(res) == 6
    pd.testing.assert_frame_equal(frame, expected, check_dtype=False)

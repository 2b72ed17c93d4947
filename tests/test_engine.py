"""The engine protocol: positions rebuilt from public facts, hidden tiles never sent, the
built-in engine, forfeits (hang, crash, garbage, illegal move) and the processes reaped."""

from __future__ import annotations

import gc
import os
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

import genial
import pytest
from genial import _core
from genial.bots import Forfeit, GameView, forfeit_ranks, parse_bot, play_game
from genial.engine import EngineBot
from genial.engine.check import RULE_SETS
from genial.engine.protocol import (
    EngineOption,
    PositionReader,
    ProtocolError,
    parse_rules,
    position_lines,
    rules_line,
)
from genial.simulation import simulate
from genial.tournament import tournament

HERE = Path(__file__).parent
PY = shlex.quote(sys.executable)
GENIAL_ENGINE = f"{PY} -m genial engine"
FAULTY = f"{PY} {shlex.quote(str(HERE / 'engines' / 'faulty_engine.py'))}"
TEE = HERE / "engines" / "tee_engine.py"


def _status(pid: int) -> tuple[int, str] | None:
    """``(parent pid, state letter)`` of a process from /proc (``Z``: a zombie), or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), fields[0]


def _children() -> dict[int, str]:
    """Descendants of this test process still present, zombies included: pid -> state."""
    found: dict[int, str] = {}
    parents = {os.getpid()}
    grew = True
    while grew:
        grew = False
        for entry in os.listdir("/proc"):
            if entry.isdigit() and int(entry) not in found:
                st = _status(int(entry))
                if st is not None and st[0] in parents:
                    found[int(entry)] = st[1]
                    parents.add(int(entry))
                    grew = True
    return found


@pytest.fixture(autouse=True)
def no_process_left() -> object:
    before = set(_children())
    yield
    left = {pid: state for pid, state in _children().items() if pid not in before}
    assert not left, f"processes left behind (pid: state): {left}"


def _positions(variant: str, players: int, timing: str, seed: int) -> list[genial.Game]:
    """Games at every decision of one random game."""
    game = genial.Game(players, seed, variant=variant, swap_timing=timing)
    bot = genial.bots.make("greedy", seed=seed)
    out = []
    while not game.is_over:
        out.append(game.clone())
        game.play(bot.choose(game))
    return out


# ----- positions rebuilt from public facts ---------------------------------------------------


@pytest.mark.parametrize(("variant", "players", "timing"), RULE_SETS)
def test_a_position_rebuilt_from_the_protocol_is_the_seats_view(variant: str, players: int, timing: str) -> None:
    for game in _positions(variant, players, timing, seed=11)[::3]:
        seat = game.current_player
        view = GameView(game, seat)
        reader = PositionReader()
        for line in [rules_line(game.rules), f"seat {seat}", *position_lines(view)]:
            assert reader.feed(line)
        assert reader.position is not None
        rebuilt = reader.position.game(seed=5)
        assert rebuilt.board == game.board
        assert rebuilt.tracks == game.tracks
        assert rebuilt.duel_tokens == game.duel_tokens
        assert (rebuilt.current_player, rebuilt.phase, rebuilt.pending_bonuses) == (
            seat,
            game.phase,
            game.pending_bonuses,
        )
        assert rebuilt.rack(seat) == game.rack(seat)
        assert rebuilt.bag_size == game.bag_size
        assert [rebuilt._state.rack_size(p) for p in range(players)] == [
            game._state.rack_size(p) for p in range(players)
        ]
        assert [rebuilt._state.has_placed(p) for p in range(players)] == [
            game._state.has_placed(p) for p in range(players)
        ]
        assert sorted(map(str, rebuilt.legal_moves())) == sorted(map(str, game.legal_moves()))
        if players > 1:
            stats = dict(game.stats, bonuses_lost=0)
            assert rebuilt.stats == stats
        assert rebuilt.moves == game.moves
        assert GameView(rebuilt, seat).movers == view.movers
        # The tiles the seat cannot see are dealt from the seed, not copied.
        assert sorted(rebuilt.unseen_tiles(seat)) == sorted(game.unseen_tiles(seat))


def test_inconsistent_public_facts_are_refused() -> None:
    game = _positions("standard", 2, "after_placement", seed=3)[10]
    seat = game.current_player
    rules = game.rules
    moves = [(s, m) for s, m in zip(GameView(game, seat).movers, game.moves)]
    rack = list(game.rack(seat))
    sizes = [game._state.rack_size(p) for p in range(2)]
    ok = _core.GameState.from_public(rules, moves, seat, rack, sizes, game.phase, game.pending_bonuses, 1)
    assert ok.board == game._state.board
    bad_cases = [
        (moves, 2, rack, sizes, "place", "does not exist"),
        (moves, seat, rack[:-1], sizes, "place", "rack lists"),
        (moves, seat, rack, [6, 6, 6], "place", "rack sizes"),
        (moves, seat, rack, [7, 6], "place", "cannot hold"),
        (moves + moves[:1], seat, rack, sizes, "place", "not free"),
        ([(5, moves[0][1])], seat, rack, sizes, "place", "does not exist"),
        (moves, seat, rack, sizes, "over", "phase"),
        (moves, seat, ["RR"] * 6, sizes, "place", "no further"),
    ]
    for mv, obs, rk, sz, phase, words in bad_cases:
        with pytest.raises(ValueError, match=words):
            _core.GameState.from_public(rules, mv, obs, rk, sz, phase, 0, 1)


def test_protocol_lines_are_checked() -> None:
    assert parse_rules(rules_line(genial.Rules("duel", 2))).variant == "duel"
    with pytest.raises(ProtocolError):
        parse_rules("rules variant=chess players=2")
    opt = EngineOption.parse("option name depth type int default 3 min 1 max 9")
    assert opt.line() == "option name depth type int default 3 min 1 max 9"
    assert opt.check("9") == "9"
    for bad in ("10", "0", "x"):
        with pytest.raises(ProtocolError):
            opt.check(bad)
    with pytest.raises(ProtocolError):
        EngineOption.parse("option name depth type int default 30 min 1 max 9")
    choice = EngineOption.parse("option name swap type choice default auto var auto var never")
    assert choice.choices == ("auto", "never")
    with pytest.raises(ProtocolError):
        choice.check("sometimes")
    reader = PositionReader()
    with pytest.raises(ProtocolError, match="after the 'rules'"):
        reader.feed("rack RB")
    reader.feed("rules variant=standard players=2")
    reader.feed("seat 0")
    for bad in ("moves R0,-4+B1,-4", "rack XX", "decision sleep 0", "racks six"):
        with pytest.raises(ProtocolError):
            reader.feed(bad)
    assert not reader.feed("a line of a later version")


# ----- hidden information ----------------------------------------------------------------------


def _decision_blocks(transcript: str) -> list[list[str]]:
    """The host's lines, one block per decision: from its ``moves`` line up to the next
    decision's (the legal moves sent while the engine thinks included)."""
    blocks: list[list[str]] = [[]]
    for line in transcript.splitlines():
        if line.startswith("moves"):
            blocks.append([])
        blocks[-1].append(line)
    assert not any(x.startswith("go") for x in blocks[0])
    return blocks[1:]


@pytest.mark.parametrize(("variant", "players", "timing"), RULE_SETS)
def test_no_hidden_tile_is_ever_sent_to_an_engine(tmp_path: Path, variant: str, players: int, timing: str) -> None:
    """Every byte the host writes to an engine over whole games is recorded (by a relay
    between them) and checked against the true hidden racks and bag at each decision."""
    transcript = tmp_path / "sent.txt"
    # The random example engine asks for the legal moves, so those lines are checked too.
    inner = f"{PY} {shlex.quote(str(HERE.parent / 'examples' / 'engines' / 'random_engine.py'))}"
    command = f"{PY} {shlex.quote(str(TEE))} {shlex.quote(str(transcript))} {inner}"
    snapshots = []
    with EngineBot(command, movetime_ms=2000) as engine:
        for g in range(2):
            for seat in range(players):
                game = genial.Game(players, 100 * g + seat, variant=variant, swap_timing=timing)
                others = genial.bots.make("greedy", seed=g)
                while not game.is_over:
                    if game.current_player == seat:
                        hidden = [tuple(sorted(map(str, game.rack(p)))) for p in range(players) if p != seat]
                        snapshots.append((game.clone(), seat, hidden))
                        move = engine.choose(GameView(game, seat))
                    else:
                        move = others.choose(game)
                    game.play(move)
    blocks = _decision_blocks(transcript.read_text("ascii"))
    assert len(blocks) == len(snapshots) > 0
    allowed = {
        "protocol", "isready", "setoption", "newgame", "rules", "seat", "moves", "rack", "racks", "bag",
        "scores", "decision", "go", "legalmoves", "quit",
    }  # fmt: skip
    for block, (game, seat, hidden) in zip(blocks, snapshots):
        assert {line.split()[0] for line in block} <= allowed, block
        sent = {line.split()[0]: line for line in block}
        # The rack line is this seat's rack, nothing else; the history is the public one.
        assert sorted(sent["rack"].split()[1:]) == sorted(map(str, game.rack(seat)))
        movers = GameView(game, seat).movers
        assert sent["moves"].split()[1:] == [f"{s}:{m}" for s, m in zip(movers, game.moves)]
        assert sent["racks"].split()[1:] == [str(game._state.rack_size(p)) for p in range(game.players)]
        assert sent["bag"] == f"bag {game.bag_size}"
        # The legal moves listed are the seat's, in order, and use its own tiles only.
        if "legalmoves" in sent:
            assert sent["legalmoves"].split()[1:] == [str(m) for m in GameView(game, seat).legal_moves()]
        own = {str(t) for t in game.rack(seat)}
        for mv in sent.get("legalmoves", "legalmoves").split()[1:]:
            m = genial.Move.parse(mv)
            assert m.tile is None or str(m.tile) in own
        # No other rack is sent as a rack, and the bag's order is never sent.
        for rack in hidden:
            if rack and rack != tuple(sorted(map(str, game.rack(seat)))):
                assert " ".join(rack) not in " ".join(block)
        # The strongest form: the lines are the same for any deal of the hidden tiles.
        for other_seed in (1, 2, 3):
            redealt = game.determinize(seat, other_seed)
            assert [x for x in block if x.split()[0] in ("moves", "rack", "racks", "bag", "scores", "decision")] == (
                position_lines(GameView(redealt, seat))
            )


# ----- the built-in engine and engine seats ------------------------------------------------------


def test_parse_bot_reads_an_engine_spec_without_starting_it() -> None:
    bot = parse_bot(f"engine:{GENIAL_ENGINE} --bot greedy")
    assert isinstance(bot, EngineBot)
    assert bot.pid is None
    assert bot.label == f"engine:{GENIAL_ENGINE} --bot greedy"
    with pytest.raises(ValueError, match="needs a command"):
        parse_bot("engine:")


def test_a_built_in_engine_plays_whole_games_in_every_variant() -> None:
    with EngineBot(f"{GENIAL_ENGINE} --bot greedy", options={"seed": 4}) as engine:
        engine.start()
        assert engine.engine_name == "genial greedy"
        assert set(engine.engine_options) >= {"seed", "swap"}
        for variant, players, timing in RULE_SETS:
            seats: list[object] = [engine] + ["random"] * (players - 1)
            game = play_game(seats, players, seed=9, variant=variant, swap_timing=timing)  # type: ignore[arg-type]
            assert game.is_over


def test_a_searching_engine_takes_its_budget_and_answers_stop() -> None:
    with EngineBot(f"{GENIAL_ENGINE} --bot mcts", movetime_ms=100, iterations=50) as engine:
        game = play_game([engine, "greedy"], seed=2)
        assert game.is_over
    with EngineBot(f"{GENIAL_ENGINE} --bot mcts", options={"time_ms": 0}) as engine:
        engine.start()
        view = GameView(genial.Game(2, 1), 0)
        engine._send("newgame")
        engine._send(rules_line(view._game.rules))
        engine._send("seat 0")
        for line in position_lines(view):
            engine._send(line)
        engine._send("go movetime 600000 iterations 5000000")
        engine._send("stop")
        line = engine._read(time.monotonic() + 10, "bestmove")
        assert line.startswith("bestmove ") and view.is_legal(line.split()[1])


def test_engine_options_are_checked_against_their_declaration() -> None:
    with pytest.raises(genial.engine.EngineError, match="no option 'depthh'"):
        EngineBot(f"{GENIAL_ENGINE} --bot mcts", options={"depthh": 3}).start()
    with pytest.raises(genial.engine.EngineError, match="seed"):
        EngineBot(f"{GENIAL_ENGINE} --bot greedy", options={"seed": -1}).start()
    with pytest.raises(genial.engine.EngineError, match="cannot start"):
        EngineBot("/nonexistent/engine").start()


def test_simulate_and_tournament_seat_engines(tmp_path: Path) -> None:
    res = simulate(6, 2, [f"engine:{GENIAL_ENGINE} --bot greedy", "random"], seed=1, rotate=True)
    assert len(res) == 6 and res.bot_names[0].startswith("engine:")
    assert "forfeit" not in res.summary().end_counts()
    t = tournament([f"engine:{GENIAL_ENGINE} --bot greedy", "random"], games=4, seed=1)
    assert t.games == 4 and t.seat_counts.tolist() == [[2, 2], [2, 2]]


def test_the_tournament_command_plays_an_engine_like_a_built_in(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "genial", "tournament", "--bots", f"engine:{GENIAL_ENGINE} --bot greedy,random",
         "--games", "20", "--out", str(tmp_path / "t.csv")],
        capture_output=True, text=True, timeout=600, check=True,
    )  # fmt: skip
    assert "20 games, 2 players" in out.stdout
    assert f"engine:{GENIAL_ENGINE} --bot greedy" in out.stdout
    rows = [x for x in (tmp_path / "t.csv").read_text().splitlines() if not x.startswith("#")]
    assert len(rows) == 1 + 20  # the header and every game


# ----- forfeits ------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["hang", "crash", "illegal", "garbage"])
def test_a_failing_engine_forfeits_and_the_run_goes_on(mode: str, caplog: pytest.LogCaptureFixture) -> None:
    engine = EngineBot(f"{FAULTY} {mode}", movetime_ms=100, margin_ms=400)
    with pytest.raises(Forfeit) as info:
        play_game(["greedy", engine], seed=1)
    assert info.value.seat == 1 and info.value.game is not None
    assert engine.pid is None  # stopped and reaped at once
    expected = {"hang": "no bestmove", "crash": "exited", "illegal": "illegal", "garbage": "unexpected line"}[mode]
    assert expected in info.value.reason
    assert "seat 1" in caplog.text and expected in caplog.text
    log = engine.log_path
    assert log is not None and f"failing ({mode})" in log.read_text()
    assert forfeit_ranks(info.value.game, 1) == (0, 1)
    # A tournament records each such game as a forfeit and plays on.
    t = tournament([f"engine:{FAULTY} {mode}", "random"], games=4, seed=2)
    ends = t.result.end_reasons().tolist()
    assert ends == ["forfeit"] * 4
    assert t.win_rates[f"engine:{FAULTY} {mode}"] == 0.0
    assert t.summary.end_counts()["forfeit"] == 4


def test_logs_are_kept_only_for_engines_that_failed(tmp_path: Path) -> None:
    assert genial.Forfeit is Forfeit and "Forfeit" in genial.__all__
    clean = EngineBot(GENIAL_ENGINE + " --bot greedy", log_dir=tmp_path)
    play_game([clean, "random"], seed=3)
    assert clean.log_path is not None and clean.log_path.exists()  # while it runs
    clean.close()
    assert not list(tmp_path.iterdir())  # ended cleanly: nothing to read
    kept = EngineBot(GENIAL_ENGINE + " --bot greedy", log_dir=tmp_path, keep_logs=True)
    play_game([kept, "random"], seed=3)
    kept.close()
    assert kept.log_path is not None and kept.log_path.exists()
    kept.log_path.unlink()
    # A bot dropped without close: reaped, and its clean log deleted, by the finalizer.
    dropped = EngineBot(GENIAL_ENGINE + " --bot greedy", log_dir=tmp_path)
    play_game([dropped, "random"], seed=3)
    pid = dropped.pid
    del dropped
    gc.collect()
    assert pid is not None and not list(tmp_path.iterdir())
    failing = EngineBot(f"{FAULTY} crash", log_dir=tmp_path, movetime_ms=100, margin_ms=400)
    with pytest.raises(Forfeit) as info:
        play_game(["greedy", failing], seed=1)
    failing.close()
    assert failing.log_path is not None and failing.log_path.exists()
    assert str(failing.log_path) in info.value.reason  # the forfeit names the log it kept
    assert list(tmp_path.iterdir()) == [failing.log_path]


def test_engine_logs_of_the_test_run_stay_in_its_own_folder(_engine_logs: Path) -> None:
    from genial.engine.host import default_log_dir

    assert default_log_dir() == _engine_logs


def test_forfeit_ranks_keep_the_others_order_and_sink_a_team() -> None:
    game = _positions("standard", 3, "after_placement", seed=5)[40]
    ranks = game.ranks()
    r = forfeit_ranks(game, 0)
    assert r[0] == 2 and sorted(r[1:]) == sorted(sorted(ranks[1:]).index(x) for x in ranks[1:])
    team = _positions("team", 4, "after_placement", seed=5)[30]
    r = forfeit_ranks(team, 1)
    assert r[1] == r[3] == 2 and r[0] == r[2] == 0


def test_engines_are_reaped_on_interrupt_and_exception() -> None:
    engine = EngineBot(f"{GENIAL_ENGINE} --bot greedy")

    class Boom(Exception):
        pass

    class Breaker:
        def choose(self, view: GameView) -> object:
            raise Boom

    with pytest.raises(Boom):
        play_game([f"engine:{GENIAL_ENGINE} --bot greedy", Breaker()], seed=1)
    engine.start()
    pid = engine.pid
    assert pid is not None and _status(pid) is not None
    del engine  # garbage collected: the finalizer reaps the process
    gc.collect()
    assert _status(pid) is None


# ----- the example engines -------------------------------------------------------------------------


@pytest.mark.skipif(os.name != "posix", reason="builds with the system's C compiler")
def test_the_example_engines_pass_engine_check(tmp_path: Path) -> None:
    from genial.engine.check import run_checks

    exe = tmp_path / "random_engine"
    source = HERE.parent / "examples" / "engines" / "random_engine.c"
    subprocess.run(["cc", "-O2", "-Wall", "-Werror", "-o", str(exe), str(source)], check=True)
    python_engine = f"{PY} {shlex.quote(str(HERE.parent / 'examples' / 'engines' / 'random_engine.py'))}"
    for command in (shlex.quote(str(exe)), python_engine):
        results = run_checks(command)
        assert all(c.passed for c in results), [c.line() for c in results if not c.passed]
        assert len(results) == 15
        assert "not asked" in next(c.detail for c in results if c.name.startswith("position notation"))


def test_engine_check_reports_what_fails() -> None:
    from genial.engine.check import run_checks

    results = run_checks(f"{FAULTY} illegal", movetime_ms=100)
    failed = {c.name for c in results if not c.passed}
    assert "handshake" not in failed and "games: standard 2p after placement" in failed
    out = subprocess.run(
        [sys.executable, "-m", "genial", "engine-check", f"{FAULTY} garbage", "--movetime", "100", "--rules", "variant=duel players=2"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 1 and "FAIL" in out.stdout and "checks failed" in out.stdout
    assert [line.split(":")[0] for line in out.stdout.splitlines() if " games: " in line] == ["FAIL games"]
    assert "games: duel 2p after placement" in out.stdout


def test_engine_check_plays_the_rule_sets_asked_for_and_refuses_others() -> None:
    from genial.engine.check import parse_rule_set, rule_set_text, run_checks

    assert [parse_rule_set(rule_set_text(r)) for r in RULE_SETS] == list(RULE_SETS)
    # The rule set's one text form, whole (as a record stores it) or with defaults left out.
    whole = genial.Rules(variant="duel", players=2).to_text()
    assert parse_rule_set(whole) == parse_rule_set("variant=duel players=2") == ("duel", 2, "after_placement")
    asked = [parse_rule_set("variant=duel players=2"), parse_rule_set("players=2 swap_timing=instead_of_placement")]
    assert asked[1] == ("standard", 2, "instead_of_placement")
    python_engine = f"{PY} {shlex.quote(str(HERE.parent / 'examples' / 'engines' / 'random_engine.py'))}"
    results = run_checks(python_engine, movetime_ms=100, rule_sets=[*asked, list(asked[0])])
    assert all(c.passed for c in results), [c.line() for c in results if not c.passed]
    games = [c.name for c in results if c.name.startswith("games:")]
    assert games == ["games: duel 2p after placement", "games: standard 2p instead of placement"]  # each once
    assert len(results) == 15 - len(RULE_SETS) + 2
    for bad, says in (
        ("players=5", "players"),
        ("variant=chess players=2", "unknown variant"),
        ("players=2 require_contact=true", "is not one of engine-check's rule sets: variant=standard players=2;"),
        ("variant=team players=2", "team"),
    ):
        with pytest.raises(ValueError, match=says):
            parse_rule_set(bad)
    for rule_sets in ([], [("standard", 5, "after_placement")]):
        with pytest.raises(ValueError, match="RULE_SETS"):
            run_checks(python_engine, rule_sets=rule_sets)
    out = subprocess.run(
        [sys.executable, "-m", "genial", "engine-check", python_engine, "--rules", "players=2 require_contact=true"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 2 and "is not one of engine-check's rule sets" in out.stderr
    assert out.stdout == "" and "Traceback" not in out.stderr


def test_genial_play_seats_engines_and_reports_a_forfeit(tmp_path: Path) -> None:
    run = [sys.executable, "-m", "genial", "play", "--seed", "5"]
    out = subprocess.run(
        [*run, "--seats", f"engine:{GENIAL_ENGINE} --bot greedy,greedy"],
        capture_output=True, text=True, timeout=300, cwd=tmp_path, check=True,
    )  # fmt: skip
    assert "game over" in out.stdout and "ahead of" in out.stdout
    out = subprocess.run(
        [*run, "--seats", f"greedy,engine:{FAULTY} crash"],
        capture_output=True, text=True, timeout=300, cwd=tmp_path, check=True,
    )  # fmt: skip
    assert "player 1" in out.stdout and "forfeits" in out.stdout and "exited" in out.stdout
    assert "final places: player 0 (greedy) 1" in out.stdout


def test_an_engine_that_cannot_start_stops_the_command_with_a_message() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "genial", "tournament", "--bots", "engine:/nonexistent/engine,random", "--games", "2"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 2 and "cannot start engine" in out.stderr and "Traceback" not in out.stderr


def test_engine_check_does_not_call_a_descriptor_closing_late_a_leak() -> None:
    """The host's I/O thread of a stopped engine closes its pipe and log when it ends, and
    on a loaded machine that came after engine-check counted the descriptors (seen beside
    a CPU burner: "1 descriptor(s) leaked"). One closed half a second late is not a leak;
    one still open at the end is."""
    from genial.engine.check import _fds, _host, _Suite

    suite = _Suite("unused", 100, 100, 1.0, time.monotonic() + 60, [])
    before = _fds()
    late = os.open(os.devnull, os.O_RDONLY)
    closer = threading.Timer(0.5, os.close, (late,))
    closer.start()
    try:
        check = _host(suite, before)
    finally:
        closer.join()
    assert check.passed, check.detail
    kept = os.open(os.devnull, os.O_RDONLY)
    try:
        check = _host(suite, before, settle_s=0.2)
    finally:
        os.close(kept)
    assert not check.passed and "1 descriptor(s) leaked" in check.detail


def test_engine_check_without_the_keeper_does_not_claim_what_it_cannot_see(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the keeper, a process that double-forked out of the engine's session between
    two scans is invisible to the host, so "no process left" was a claim it could not make
    (orphans ran while it said so): the verdict says what it could not see."""
    from genial.engine.check import run_checks

    monkeypatch.setenv("GENIAL_ENGINE_KEEPER", "0")
    python_engine = f"{PY} {shlex.quote(str(HERE.parent / 'examples' / 'engines' / 'random_engine.py'))}"
    results = run_checks(python_engine, movetime_ms=100, rule_sets=[RULE_SETS[0]])
    host = results[-1]
    assert host.name == "nothing left behind" and host.passed, host.line()
    assert "without the engine keeper" in host.detail and "may escape" in host.detail, host.line()
    monkeypatch.delenv("GENIAL_ENGINE_KEEPER")
    if sys.platform.startswith("linux"):
        results = run_checks(python_engine, movetime_ms=100, rule_sets=[RULE_SETS[0]])
        assert results[-1].detail.endswith("no process or descriptor left"), results[-1].line()

"""The position notation through the engine protocol (version 2): a host and a real engine
subprocess exchange a whole position as one ``position notation`` line, the engine answers
from it, a set-up game is played to its end by an engine, and garbage gets the protocol's
error reply naming the first bad character, never a crash."""

from __future__ import annotations

import io
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import genial
import pytest
from genial.bots import GameView, parse_bot, play_game
from genial.cli import main
from genial.engine import EngineBot, EngineError
from genial.engine.builtin import serve_builtin
from genial.position import read_position, write_position
from hypothesis import given, settings
from hypothesis import strategies as st

HERE = Path(__file__).parent
PY = shlex.quote(sys.executable)
GENIAL_ENGINE = f"{PY} -m genial engine"
RANDOM_V1 = f"{PY} {shlex.quote(str(HERE.parent / 'examples' / 'engines' / 'random_engine.py'))}"

MIDGAME = "standard/3 R0,-1+R0,0;B1,-1+G1,0 1.2.0.0.0.0/0.0.0.0.0.0/0.0.0.0.0.0 2 RR,GB,YP,OO,BP,RY"


def _play_out(game: genial.Game, bots: list[Any]) -> None:
    """Plays ``game`` to its end, each seat's decisions by its bot (an engine forfeits by
    raising)."""
    while not game.is_over:
        seat = game.current_player
        game.play(bots[seat].choose(GameView(game, seat)))


class _Recording(EngineBot):
    """An engine bot that keeps every line the host sent."""

    sent: list[str]

    def _send(self, line: str, deadline: float | None = None) -> None:
        self.__dict__.setdefault("sent", []).append(line)
        super()._send(line, deadline)


class _Engine:
    """``genial engine`` as a subprocess, spoken to line by line."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "genial", "engine", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def say(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, word: str) -> list[str]:
        assert self.proc.stdout is not None
        lines = []
        while True:
            line = self.proc.stdout.readline()
            assert line, f"the engine ended before {word!r}: {lines}"
            lines.append(line.rstrip("\n"))
            if line.split()[:1] == [word]:
                return lines

    def close(self) -> int:
        self.say("quit")
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(timeout=30)


def test_a_real_engine_answers_from_a_position_notation() -> None:
    engine = _Engine("--bot", "greedy")
    try:
        engine.say("protocol 2")
        assert engine.read_until("protocolok")[-1] == "protocolok 2"
        game = read_position(MIDGAME)
        engine.say(f"position notation {MIDGAME}")
        engine.say("go movetime 500")
        best = engine.read_until("bestmove")[-1].split(" ", 1)[1]
        assert game.is_legal(genial.Move.parse(best)), best
        # The same answer as the bot gives in-process from the position: one decision.
        assert best == str(parse_bot("greedy", 0).choose(GameView(game)))
    finally:
        assert engine.close() == 0


def test_garbage_gets_the_error_reply_and_the_engine_goes_on() -> None:
    engine = _Engine("--bot", "greedy")
    try:
        engine.say("protocol 2")
        engine.read_until("protocolok")
        bad = MIDGAME.replace("GB", "GX")
        engine.say(f"position notation {bad}")
        engine.say("position notation")
        engine.say("position sideways x")
        engine.say("isready")
        lines = engine.read_until("readyok")
        errors = [x for x in lines if x.startswith("info string error:")]
        assert len(errors) == 3, lines
        at = bad.index("X")
        assert f"character {at} ('X')" in errors[0]
        assert "character 0 (the end)" in errors[1]
        assert "notation" in errors[2]
        # A good position after the garbage is answered.
        engine.say(f"position notation {MIDGAME}")
        engine.say("go movetime 200")
        best = engine.read_until("bestmove")[-1].split(" ", 1)[1]
        assert read_position(MIDGAME).is_legal(genial.Move.parse(best))
    finally:
        assert engine.close() == 0


def test_a_version_1_host_gets_version_1() -> None:
    engine = _Engine()
    try:
        engine.say("protocol 1")
        assert engine.read_until("protocolok")[-1] == "protocolok 1"
    finally:
        assert engine.close() == 0


@pytest.mark.parametrize(
    "text",
    [
        MIDGAME,
        "duel/2 - 0.0.0.0.0.0 1 RB,GG,YP,OO,BP,RY",
        "team/4 R0,-1+R0,0 1.0.0.0.0.0/0.0.0.0.0.0 1 RB,GG,YP,OO,BP,RY",
        "solo/1 R0,-1+R0,0 1.0.0.0.0.0 0 RB",
        "standard/2,swap_timing=instead_of_placement R0,-1+R0,0 1.0.0.0.0.0/0.0.0.0.0.0 1 RB,GG,YP,OO,BP,RY",
    ],
)
def test_an_engine_plays_a_set_up_game_to_its_end(text: str) -> None:
    """Through the host: every decision of a game set up from a position (bonus placements
    and swap offers included) reaches the engine as a notation and is answered legally."""
    _engine_plays(text)


def _engine_plays(text: str) -> list[str]:
    """Plays the game set up from ``text`` to its end, the seat to move an engine; the
    ``position`` lines the host sent it."""
    game = read_position(text)
    seats = game.players
    with _Recording(GENIAL_ENGINE, movetime_ms=50) as bot:
        bots = [bot if s == game.current_player else parse_bot("greedy", s) for s in range(seats)]
        _play_out(game, bots)
        assert bot.version == 2
    told = [line for line in bot.sent if line.startswith("position ")]
    assert told and all(line.startswith("position notation ") for line in told)
    assert not any(line.split()[0] in ("moves", "rack", "rules") for line in bot.sent)
    return told


def test_bonus_placements_and_swap_offers_are_told_with_the_moves_since() -> None:
    """Over several set-up games the engine's bonus and swap-offer decisions come: each is
    the notation of the turn's start and ``moves`` with the seat's moves since."""
    mid_turn = []
    for seed in range(4):
        mid_turn += [x for x in _engine_plays(f"{MIDGAME} {seed}") if " moves " in x]
    assert mid_turn
    for line in mid_turn:
        notation, _, after = line.removeprefix("position notation ").partition(" moves ")
        game = read_position(notation)
        for move in after.split():
            game.play(move)
        assert game.phase in ("bonus", "swap_offer") and game.current_player == read_position(notation).current_player


def test_a_version_1_engine_cannot_be_told_a_set_up_position() -> None:
    game = read_position(MIDGAME)
    with EngineBot(RANDOM_V1) as bot, pytest.raises(EngineError, match="protocol 2"):
        bot.choose(GameView(game))


def test_a_game_from_its_start_is_still_told_as_its_history() -> None:
    """The notation is for positions the history cannot tell: a game played from its start
    goes on as version 1 lines (its moves), to either version of engine."""
    for command in (GENIAL_ENGINE, RANDOM_V1):
        with EngineBot(command, movetime_ms=50) as bot:
            game = play_game([bot, parse_bot("greedy", 1)], seed=3)
            assert game.is_over


def test_analyse_asks_an_engine_for_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "--position", MIDGAME, "--engine", GENIAL_ENGINE, "--movetime", "200"]) == 0
    out = capsys.readouterr().out
    best = out.split("bestmove ", 1)[1].split()[0]
    assert read_position(MIDGAME).is_legal(genial.Move.parse(best))
    assert main(["analyse", "--position", MIDGAME.replace("RR", "R?"), "--engine", GENIAL_ENGINE]) == 2
    assert "character" in capsys.readouterr().err


def _serve(lines: list[str]) -> list[str]:
    out = io.StringIO()
    assert serve_builtin("greedy", stdin=io.StringIO("".join(x + "\n" for x in lines)), stdout=out) == 0
    return out.getvalue().splitlines()


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from([*"standardsolo/0123456789 -.,;+ROYGBPX_", "é"]), max_size=80))
def test_garbage_notation_in_process_is_refused_with_an_index(text: str) -> None:
    """Any text after ``position notation``: accepted (it is a position) or refused with
    ``info string error`` naming a character; the engine reads on either way."""
    replies = _serve(["protocol 2", f"position notation {text}", "isready"])
    assert replies[-1] == "readyok"
    errors = [x for x in replies if x.startswith("info string error:")]
    if errors:
        assert len(errors) == 1 and "character " in errors[0], errors
    else:
        read_position(text.strip())


def test_the_notation_sent_holds_no_seed() -> None:
    """The host writes the seat's notation without the seed that dealt the hidden tiles."""
    from genial.engine.protocol import notation_line

    game = read_position(MIDGAME + " 12345")
    line = notation_line(GameView(game))
    assert line == f"position notation {MIDGAME}"
    assert write_position(game).endswith(" 12345")
    # Every deal of the tiles the seat cannot see tells it the same line.
    assert {notation_line(GameView(read_position(f"{MIDGAME} {seed}"))) for seed in range(20)} == {line}


def test_engine_check_tells_a_version_2_engine_set_up_positions() -> None:
    from genial.engine.check import run_checks

    results = run_checks(GENIAL_ENGINE, movetime_ms=50)
    assert all(c.passed for c in results), [c.line() for c in results if not c.passed]
    check = next(c for c in results if c.name == "position notation (version 2)")
    assert "set-up games" in check.detail and "a bad notation survived" in check.detail, check.detail

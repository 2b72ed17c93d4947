"""The conformance suite of the engine protocol (``genial engine-check COMMAND``).

Each check starts the engine afresh and says what failed: the handshake, ``isready``,
every declared option set to its default, whole games in every seat of several rule sets
(placements, bonus placements and swap decisions, each answer legal and in time), an
unknown line ignored, ``stop`` answered, ``quit`` obeyed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..bots import Forfeit, GameView, play_game
from ..game import Game
from .host import EngineBot, EngineError
from .protocol import position_lines, rules_line

__all__ = ["Check", "run_checks", "RULE_SETS"]

RULE_SETS: tuple[tuple[str, int, str], ...] = (
    ("standard", 2, "after_placement"),
    ("standard", 3, "after_placement"),
    ("standard", 4, "after_placement"),
    ("standard", 2, "instead_of_placement"),
    ("team", 4, "after_placement"),
    ("duel", 2, "after_placement"),
    ("solo", 1, "after_placement"),
)
"""The games the suite plays: (variant, players, swap timing)."""


@dataclass(frozen=True)
class Check:
    name: str
    passed: bool
    detail: str = ""

    def line(self) -> str:
        return f"{'ok  ' if self.passed else 'FAIL'} {self.name}" + (f": {self.detail}" if self.detail else "")


class _Watch:
    """A bot that hands each decision to the engine and counts the kinds it saw."""

    def __init__(self, engine: EngineBot) -> None:
        self.engine = engine
        self.phases: dict[str, int] = {}

    def choose(self, view: GameView) -> object:
        self.phases[view.phase] = self.phases.get(view.phase, 0) + 1
        return self.engine.choose(view)


def _engine(command: str, movetime_ms: int) -> EngineBot:
    return EngineBot(command, movetime_ms=movetime_ms)


def _handshake(command: str, movetime_ms: int) -> Check:
    bot = _engine(command, movetime_ms)
    try:
        bot.start()
        missing = [w for w, v in (("id name", bot.engine_name), ("id author", bot.engine_author)) if not v]
        if missing:
            return Check("handshake", False, "no " + " and no ".join(missing) + " line")
        opts = ", ".join(o.line()[len("option name ") :] for o in bot.engine_options.values()) or "none"
        return Check("handshake", True, f"{bot.engine_name} by {bot.engine_author}; options: {opts}")
    except EngineError as e:
        return Check("handshake", False, str(e))
    finally:
        bot.close()


def _options(command: str, movetime_ms: int) -> Check:
    probe = _engine(command, movetime_ms)
    try:
        probe.start()
        defaults = {name: o.default for name, o in probe.engine_options.items()}
    except EngineError as e:
        return Check("options at their defaults", False, str(e))
    finally:
        probe.close()
    bot = EngineBot(command, movetime_ms=movetime_ms, options=defaults)
    try:
        play_game([bot, "random"], seed=7)
        return Check("options at their defaults", True, f"{len(defaults)} option(s) set, a game played")
    except (EngineError, Forfeit) as e:
        return Check("options at their defaults", False, str(e))
    finally:
        bot.close()


def _games(command: str, movetime_ms: int, games: int) -> list[Check]:
    out = []
    for variant, players, timing in RULE_SETS:
        name = f"{variant} {players}p {timing.replace('_', ' ')}"
        bot = _engine(command, movetime_ms)
        watch = _Watch(bot)
        try:
            played = 0
            for g in range(games):
                for seat in range(players):
                    seats: list[object] = ["random"] * players
                    seats[seat] = watch
                    play_game(seats, players, seed=1000 * g + seat, variant=variant, swap_timing=timing)  # type: ignore[arg-type]
                    played += 1
            kinds = ", ".join(f"{n} {k}" for k, n in sorted(watch.phases.items()))
            out.append(Check(f"games: {name}", True, f"{played} games in every seat; decisions: {kinds}"))
        except (EngineError, Forfeit) as e:
            out.append(Check(f"games: {name}", False, str(e)))
        finally:
            bot.close()
    return out


def _raw(command: str, movetime_ms: int, name: str, body: Callable[[EngineBot], str]) -> Check:
    bot = _engine(command, movetime_ms)
    try:
        bot.start()
        return Check(name, True, body(bot))
    except (EngineError, Forfeit) as e:
        return Check(name, False, str(e))
    finally:
        bot.close()


def _one_position(bot: EngineBot) -> GameView:
    game = Game(2, 3)
    view = GameView(game, 0)
    bot._send("newgame")
    bot._send(rules_line(game.rules))
    bot._send("seat 0")
    for line in position_lines(view):
        bot._send(line)
    return view


def _answer(bot: EngineBot, view: GameView, within_ms: int) -> str:
    deadline = time.monotonic() + within_ms / 1000.0
    while True:
        line = bot._read(deadline, f"bestmove within {within_ms} ms")
        word, _, rest = line.partition(" ")
        if word == "legal":
            bot._send("legalmoves " + " ".join(str(m) for m in view.legal_moves()))
        elif word == "bestmove":
            if not view.is_legal(rest.strip()):
                raise bot._fail(f"bestmove {rest.strip()!r} is not legal", "chose an illegal move")
            return rest.strip()
        elif word != "info" and line:
            raise bot._fail(f"unexpected line {line[:100]!r}", "broke the engine protocol")


def _unknown(bot: EngineBot) -> str:
    bot._send("frobnicate 1 2 3")
    view = _one_position(bot)
    bot._send("future-line of a later version")
    bot._send(f"go movetime {bot.movetime_ms}")
    return f"ignored, then answered {_answer(bot, view, bot.movetime_ms + bot.margin_ms)}"


def _stop(bot: EngineBot) -> str:
    view = _one_position(bot)
    bot._send("go movetime 60000")
    time.sleep(0.05)
    bot._send("stop")
    move = _answer(bot, view, bot.margin_ms + 1000)
    return f"a 60 s search stopped: bestmove {move}"


def _quit(command: str, movetime_ms: int) -> Check:
    bot = _engine(command, movetime_ms)
    try:
        bot.start()
        proc = bot._proc
        assert proc is not None
        bot._send("quit")
        start = time.monotonic()
        while proc.poll() is None and time.monotonic() - start < 2.0:
            time.sleep(0.01)
        if proc.poll() is None:
            return Check("quit", False, "still running 2 s after quit")
        return Check("quit", True, f"exited with status {proc.returncode}")
    except (EngineError, Forfeit) as e:
        return Check("quit", False, str(e))
    finally:
        bot.close()


def run_checks(
    command: str, *, movetime_ms: int = 200, games: int = 1, report: Callable[[Check], None] | None = None
) -> list[Check]:
    """Runs the suite against ``command``; ``report`` is called with each result as it
    comes. Stops after a failed handshake (nothing else can work)."""
    results: list[Check] = []

    def add(checks: Sequence[Check]) -> None:
        for c in checks:
            results.append(c)
            if report is not None:
                report(c)

    add([_handshake(command, movetime_ms)])
    if not results[0].passed:
        return results
    add([_raw(command, movetime_ms, "isready", lambda b: "readyok")])
    add([_options(command, movetime_ms)])
    add(_games(command, movetime_ms, games))
    add([_raw(command, movetime_ms, "unknown lines ignored", _unknown)])
    add([_raw(command, movetime_ms, "stop", _stop)])
    add([_quit(command, movetime_ms)])
    return results

"""The conformance suite of the engine protocol (``genial engine-check COMMAND``).

Each check starts the engine afresh and says what failed: the handshake, ``isready``,
every declared option set to its default, whole games in every seat of several rule sets
(placements, bonus placements and swap decisions, each answer legal and in time), for an
engine of protocol 2 games set up from positions told as ``position notation`` lines and a
bad notation survived, an unknown line ignored, ``stop`` answered (once: nothing after the ``bestmove``), ``quit``
obeyed with no process left running. The suite has a deadline of its own (`DEADLINE_S`):
checks it leaves unrun fail. Last, it checks the host itself: no process of any start
left alive, no descriptor leaked.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .._core import Move, Rules
from ..bots import Forfeit, GameView, parse_bot, play_game
from ..game import Game
from ..position import read_position
from .host import HANDSHAKE_S, MARGIN_MS, EngineBot, EngineError
from .process import Broken, EngineProcess
from .protocol import position_lines, rules_line

__all__ = ["Check", "run_checks", "parse_rule_set", "rule_set_text", "RULE_SETS", "DEADLINE_S"]

DEADLINE_S = 600.0
"""The suite's own deadline (s): the checks not run by then fail."""

LATE_FACTOR = 3
LATE_SLACK_MS = 100
"""An engine answers late when its median decision takes more than ``LATE_FACTOR`` times its
move time and ``LATE_SLACK_MS`` (the host's own writing and a loaded machine's delays)."""

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


def rule_set_text(rule_set: tuple[str, int, str]) -> str:
    """One of `RULE_SETS` in the rule set's text form (`Rules.to_text`), the options left
    at their defaults unsaid: ``variant=duel players=2``."""
    variant, players, timing = rule_set
    text = f"variant={variant} players={players}"
    return text if timing == "after_placement" else f"{text} swap_timing={timing}"


def parse_rule_set(text: str) -> tuple[str, int, str]:
    """The one of `RULE_SETS` that ``text``, a rule set's text form (`Rules.from_text`, as
    records and ``--rules`` elsewhere take it), names; `ValueError` for a text that is not
    a rule set, or names one the suite does not play."""
    rules = Rules.from_text(text)
    for rule_set in RULE_SETS:
        if Rules.from_text(rule_set_text(rule_set)) == rules:
            return rule_set
    raise ValueError(
        f"{rules.to_text()!r} is not one of engine-check's rule sets: " + "; ".join(map(rule_set_text, RULE_SETS))
    )


@dataclass(frozen=True)
class Check:
    name: str
    passed: bool
    detail: str = ""

    def line(self) -> str:
        return f"{'ok  ' if self.passed else 'FAIL'} {self.name}" + (f": {self.detail}" if self.detail else "")


@dataclass
class _Suite:
    """The settings of one run of the suite, and every process it started."""

    command: str
    movetime_ms: int
    margin_ms: int
    handshake_timeout: float
    deadline: float
    processes: list[EngineProcess]
    #: Processes an engine started outside its session (daemons), found before it was stopped.
    detached: set[int] = field(default_factory=set)

    def engine(self, options: dict[str, str] | None = None) -> EngineBot:
        return _Tracked(
            self,
            self.command,
            movetime_ms=self.movetime_ms,
            margin_ms=self.margin_ms,
            handshake_timeout=min(self.handshake_timeout, max(0.1, self.deadline - time.monotonic())),
            options=options,
        )

    def left(self) -> float:
        return self.deadline - time.monotonic()


class _Tracked(EngineBot):
    """An engine whose processes the suite remembers, to look for orphans at its end."""

    def __init__(self, suite: _Suite, command: str, **kw: object) -> None:
        super().__init__(command, **kw)  # type: ignore[arg-type]
        self.suite = suite

    def start(self) -> None:
        known = self._process
        try:
            super().start()
        finally:
            if self._process is not None and self._process is not known:
                self.suite.processes.append(self._process)

    def close(self, *, failed: bool = False) -> None:
        # Before the stop, which (under a keeper) collects them: a daemon the engine started
        # is a fault even when this host cleans it up, as no host without a keeper can.
        if self._process is not None:
            self.suite.detached.update(self._process.detached())
        super().close(failed=failed)


class _Late(Exception):
    """The suite's deadline passed."""


class _Watch:
    """A bot that hands each decision to the engine and counts the kinds it saw."""

    def __init__(self, engine: EngineBot, suite: _Suite) -> None:
        self.engine = engine
        self.suite = suite
        self.phases: dict[str, int] = {}
        self.seconds: list[float] = []  # each decision's, from the position sent to the move

    def choose(self, view: GameView) -> Move:
        if self.suite.left() <= 0:
            raise _Late
        self.phases[view.phase] = self.phases.get(view.phase, 0) + 1
        start = time.monotonic()
        move = self.engine.choose(view)
        self.seconds.append(time.monotonic() - start)
        return move

    def late(self) -> str | None:
        """Why the engine answers late, or None. The host forfeits only a move past its move
        time and the margin (a second by default); an engine that takes several times its move
        time at every decision stays under that and is still wrong. Judged on the median
        decision, so that a loaded machine's odd slow answer is no fault."""
        if not self.seconds:
            return None
        median = statistics.median(self.seconds) * 1000
        limit = LATE_FACTOR * self.suite.movetime_ms + LATE_SLACK_MS
        if median <= limit:
            return None
        return (
            f"answers late: a decision takes {median:.0f} ms (the median of {len(self.seconds)}), "
            f"more than {LATE_FACTOR} times its move time of {self.suite.movetime_ms} ms"
        )


def _handshake(suite: _Suite) -> Check:
    bot = suite.engine()
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


def _options(suite: _Suite) -> Check:
    probe = suite.engine()
    try:
        probe.start()
        defaults = {name: o.default for name, o in probe.engine_options.items()}
    except EngineError as e:
        return Check("options at their defaults", False, str(e))
    finally:
        probe.close()
    bot = suite.engine(defaults)
    watch = _Watch(bot, suite)
    try:
        play_game([watch, "random"], seed=7)
        late = watch.late()
        if late is not None:
            return Check("options at their defaults", False, late)
        return Check("options at their defaults", True, f"{len(defaults)} option(s) set, a game played")
    except (EngineError, Forfeit) as e:
        return Check("options at their defaults", False, str(e))
    finally:
        bot.close()


def _games(suite: _Suite, variant: str, players: int, timing: str, games: int) -> Check:
    name = f"games: {variant} {players}p {timing.replace('_', ' ')}"
    bot = suite.engine()
    watch = _Watch(bot, suite)
    try:
        played = 0
        for g in range(games):
            for seat in range(players):
                seats: list[object] = ["random"] * players
                seats[seat] = watch
                play_game(seats, players, seed=1000 * g + seat, variant=variant, swap_timing=timing)  # type: ignore[arg-type]
                played += 1
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(watch.phases.items()))
        late = watch.late()
        if late is not None:
            return Check(name, False, late)
        return Check(name, True, f"{played} games in every seat; decisions: {kinds}")
    except (EngineError, Forfeit) as e:
        return Check(name, False, str(e))
    finally:
        bot.close()


#: Positions a version 2 engine is told as a notation: a game set up from each is played to
#: its end, the engine in the seat to move.
NOTATIONS = (
    "standard/3 R0,-1+R0,0;B1,-1+G1,0 1.2.0.0.0.0/0.0.0.0.0.0/0.0.0.0.0.0 2 RR,GB,YP,OO,BP,RY 5",
    "duel/2 R0,-1+R0,0 -1.0.0.0.0.0 1 RB,GG,YP,OO,BP,RY 6",
)


def _notation(suite: _Suite) -> Check:
    """A version 2 engine: games set up from positions (told as ``position notation``
    lines) played to their end, and a notation that is not one survived."""
    name = "position notation (version 2)"
    bot = suite.engine()
    watch = _Watch(bot, suite)
    try:
        bot.start()
        if bot.version < 2:
            return Check(name, True, f"not asked: the engine speaks protocol {bot.version}")
        for text in NOTATIONS:
            game = read_position(text)
            seat = game.current_player
            others = [parse_bot("random", s) for s in range(game.players)]
            while not game.is_over:
                mover = game.current_player
                game.play((watch if mover == seat else others[mover]).choose(GameView(game, mover)))
        bot._send("newgame")
        bot._send("position notation standard/2 - 0.0.0.0.0.0/0.0.0.0.0.0 0 RX")
        bot._send("isready")
        deadline = time.monotonic() + 2.0
        while (line := bot._read(deadline, "readyok after a bad notation")).split()[:1] != ["readyok"]:
            if not line.startswith("info"):
                raise bot._fail(f"answered a bad notation with {line[:100]!r}", "broke the engine protocol")
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(watch.phases.items()))
        return Check(name, True, f"{len(NOTATIONS)} set-up games; decisions: {kinds}; a bad notation survived")
    except (EngineError, Forfeit) as e:
        return Check(name, False, str(e))
    finally:
        bot.close()


def _raw(suite: _Suite, name: str, body: Callable[[EngineBot], str]) -> Check:
    bot = suite.engine()
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
            bot._send("legalmoves " + view.legal_moves().text(), deadline)
        elif word == "bestmove":
            if not view.is_legal(rest.strip()):
                raise bot._fail(f"bestmove {rest.strip()!r} is not legal", "chose an illegal move")
            _quiet(bot, 0.2)
            return rest.strip()
        elif word != "info" and line:
            raise bot._fail(f"unexpected line {line[:100]!r}", "broke the engine protocol")


def _quiet(bot: EngineBot, seconds: float) -> None:
    """Nothing but ``info`` may follow a ``bestmove`` (a second one would answer the next
    decision)."""
    process = bot.process
    assert process is not None
    end = time.monotonic() + seconds
    while True:
        try:
            raw = process.read_line(end)
        except Broken as e:
            if e.reason == "timeout":
                return
            raise bot._fail(f"{e.reason} after its bestmove", e.public) from None
        if not raw.startswith(b"info") and raw.strip():
            what = "a second bestmove" if raw.startswith(b"bestmove") else "a line"
            raise bot._fail(f"{what} after its bestmove: {raw[:80]!r}", "answered twice")


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


def _quit(suite: _Suite) -> Check:
    bot = suite.engine()
    try:
        bot.start()
        process = bot.process
        assert process is not None
        bot._send("quit")
        start = time.monotonic()
        while process.exit_status() is None and time.monotonic() - start < 2.0:
            time.sleep(0.01)
        if process.exit_status() is None:
            return Check("quit", False, "still running 2 s after quit")
        left = process.alive_descendants()
        if left:
            return Check(
                "quit",
                False,
                f"exited ({process.status_text()}) but left {len(left)} process(es) running: "
                + ", ".join(map(str, left[:10])),
            )
        return Check("quit", True, f"exited ({process.status_text()})")
    except (EngineError, Forfeit) as e:
        return Check("quit", False, str(e))
    finally:
        bot.close()


def _fds() -> set[int] | None:
    try:
        return {int(x) for x in os.listdir("/proc/self/fd" if sys.platform.startswith("linux") else "/dev/fd")}
    except OSError:
        return None


SETTLE_S = 10.0
"""How long the descriptors of stopped engines have to be closed before one still open is
called a leak: the host's I/O thread of a stopped engine closes its pipe and log as it
ends, which on a loaded machine can come a few seconds later (it is joined for 2 s)."""


def _host(suite: _Suite, fds: set[int] | None, settle_s: float = SETTLE_S) -> Check:
    """The host's own check: every process of every start stopped, no descriptor leaked,
    and no daemon started (a process that left the engine's session: this host's keeper
    collects it, but no host without one can)."""
    left = sorted({pid for p in suite.processes for pid in p.left_running()})
    if left:
        return Check("nothing left behind", False, f"{len(left)} orphan process(es): " + ", ".join(map(str, left[:10])))
    if suite.detached:
        daemons = sorted(suite.detached)
        return Check(
            "nothing left behind",
            False,
            f"the engine started {len(daemons)} process(es) that left its session (a daemon: setsid or a "
            f"double fork): {', '.join(map(str, daemons[:10]))}; they outlive it wherever no keeper collects them",
        )
    end = time.monotonic() + settle_s
    while True:
        now = _fds()
        leaked = sorted(now - fds) if now is not None and fds is not None else []
        if not leaked or time.monotonic() >= end:
            break
        time.sleep(0.05)
    if leaked:
        return Check("nothing left behind", False, f"{len(leaked)} descriptor(s) leaked: {leaked[:10]}")
    if not all(p.keeper for p in suite.processes):
        # Without a keeper this host sees only the engine's session and the descendants it
        # caught between two scans: a daemon that double-forked in between is invisible, so
        # "nothing" would be a claim it cannot make.
        return Check(
            "nothing left behind",
            True,
            f"{len(suite.processes)} start(s), no process or descriptor found left; without the engine keeper "
            "(Linux only; GENIAL_ENGINE_KEEPER=0 turns it off) a process that left the engine's session "
            "may escape this check",
        )
    return Check("nothing left behind", True, f"{len(suite.processes)} start(s), no process or descriptor left")


def run_checks(
    command: str,
    *,
    movetime_ms: int = 200,
    games: int = 1,
    report: Callable[[Check], None] | None = None,
    margin_ms: int = MARGIN_MS,
    handshake_timeout: float = HANDSHAKE_S,
    deadline_s: float = DEADLINE_S,
    rule_sets: Sequence[tuple[str, int, str]] = RULE_SETS,
) -> list[Check]:
    """Runs the suite against ``command``; ``report`` is called with each result as it
    comes. Stops after a failed handshake (nothing else can work). The whole suite ends
    within about ``deadline_s`` seconds (plus one decision's time): a check not run by
    then fails, and so does one cut short. ``rule_sets`` (some of `RULE_SETS`, for an
    engine that plays only those) are the rule sets whose games are played."""
    if not rule_sets:
        raise ValueError("rule_sets is empty: name at least one of engine-check's RULE_SETS")
    unknown = [r for r in rule_sets if tuple(r) not in RULE_SETS]
    if unknown:
        raise ValueError(f"not among engine-check's RULE_SETS: {unknown!r}")
    # Each played once, in the order asked (a list may stand for a tuple).
    rule_sets = list(dict.fromkeys(RULE_SETS[RULE_SETS.index(tuple(r))] for r in rule_sets))
    results: list[Check] = []
    fds = _fds()
    suite = _Suite(command, movetime_ms, margin_ms, handshake_timeout, time.monotonic() + deadline_s, [])

    def add(c: Check) -> None:
        results.append(c)
        if report is not None:
            report(c)

    def run(name: str, check: Callable[[], Check]) -> None:
        if suite.left() <= 0:
            add(Check(name, False, f"not run: engine-check's deadline of {deadline_s:g} s passed"))
            return
        try:
            add(check())
        except _Late:
            add(Check(name, False, f"cut short: engine-check's deadline of {deadline_s:g} s passed"))
        except Exception as e:  # a check must never end the suite
            add(Check(name, False, f"the check failed: {type(e).__name__}: {e}"))

    run("handshake", lambda: _handshake(suite))
    if results[0].passed:
        run("isready", lambda: _raw(suite, "isready", lambda b: "readyok"))
        run("options at their defaults", lambda: _options(suite))
        for variant, players, timing in rule_sets:
            run(
                f"games: {variant} {players}p {timing.replace('_', ' ')}",
                lambda v=variant, p=players, t=timing: _games(suite, v, p, t, games),  # type: ignore[misc]
            )
        run("position notation (version 2)", lambda: _notation(suite))
        run("unknown lines ignored", lambda: _raw(suite, "unknown lines ignored", _unknown))
        run("stop", lambda: _raw(suite, "stop", _stop))
        run("quit", lambda: _quit(suite))
    add(_host(suite, fds))
    return results

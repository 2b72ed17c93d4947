"""A built-in bot served as a protocol engine: ``genial engine --bot SPEC``.

The engine rebuilds each position from what the host said (`protocol.Position.game`,
the unseen tiles dealt from its own seed) and lets the bot choose. A searching bot gets
the ``go`` budget: ``movetime`` becomes its time limit and ``iterations`` its iteration
budget. Options the bot takes are declared in the handshake and set with ``setoption``.
"""

from __future__ import annotations

import sys
import threading
from typing import IO, Any

from .._version import version as genial_version
from ..bots import BuiltinBot, GameView, info, parse_bot
from ..game import check_seed
from .protocol import VERSION, VERSIONS, EngineOption, PositionReader, ProtocolError, parse_go

__all__ = ["serve_builtin", "builtin_options"]

_U64 = str(2**64 - 1)


def builtin_options(bot: BuiltinBot) -> list[EngineOption]:
    """The options the engine declares: ``seed``, then the bot's options as the core's
    catalogue describes them (type, default and bounds). An option whose default the bot
    decides by itself (a level's iterations, which depend on the player count) is not
    declared: ``go iterations N`` sets that budget."""
    out = [EngineOption("seed", "int", str(bot.seed), "0", _U64)]
    for o in info(bot.name).options:
        if o.default is None:
            continue
        lo = None if o.min is None else str(o.min)
        hi = None if o.max is None else str(o.max)
        if o.kind in ("int", "float"):
            out.append(EngineOption(o.name, o.kind, str(o.default), lo, hi))
        elif any(c.endswith("N") for c in o.choices):  # a family like sampleN: free text
            out.append(EngineOption(o.name, "string", str(o.default)))
        else:
            out.append(EngineOption(o.name, "choice", str(o.default), choices=o.choices))
    return out


def _convert(opt: EngineOption, text: str) -> Any:
    if opt.type == "int":
        return int(text)
    if opt.type == "float":
        return float(text)
    if opt.type == "bool":
        return text == "true"
    return text


class _Engine:
    def __init__(self, spec: str, seed: int, out: IO[str]) -> None:
        self.bot = parse_bot(spec, check_seed(seed))
        if not isinstance(self.bot, BuiltinBot):
            raise ValueError(f"genial engine serves a built-in bot, not {spec!r}")
        self.out = out
        self.options = {o.name: o for o in builtin_options(self.bot)}
        self.settings: dict[str, Any] = dict(self.bot.options)
        self.seed = self.bot.seed
        self.reader = PositionReader()
        self.decisions = 0
        self.lock = threading.Lock()
        self.say_lock = threading.Lock()
        self.pending: tuple[int, GameView] | None = None
        self.running: BuiltinBot | None = None

    def say(self, line: str) -> None:
        with self.say_lock:
            self.out.write(line + "\n")
            self.out.flush()

    def handshake(self, args: list[str]) -> None:
        """Answers ``protocol N`` with the highest version both speak (a version 1 host
        gets version 1; version 2 adds ``position notation``)."""
        asked = (
            int(args[0])
            if len(args) == 1 and args[0].isascii() and args[0].isdigit() and len(args[0]) < 10
            else VERSION
        )
        version = max(v for v in VERSIONS if v <= max(asked, VERSIONS[0]))
        self.say(f"id name genial {self.bot.label}")
        self.say(f"id author genial {genial_version()}")
        for opt in self.options.values():
            self.say(opt.line())
        self.say(f"protocolok {version}")

    def setoption(self, args: list[str]) -> None:
        if len(args) != 4 or args[0] != "name" or args[2] != "value":
            raise ProtocolError("setoption reads 'setoption name NAME value VALUE'")
        opt = self.options.get(args[1])
        if opt is None:
            raise ProtocolError(f"no option {args[1]!r}")
        value = _convert(opt, opt.check(args[3]))
        if opt.name == "seed":
            self.seed = check_seed(value)
        else:
            settings = dict(self.settings, **{opt.name: value})
            BuiltinBot(self.bot.name, self.seed, **settings)  # the core checks the value
            self.settings = settings
        self.bot = BuiltinBot(self.bot.name, self.seed, **self.settings)

    def go(self, args: list[str]) -> None:
        """Starts the search in a thread, so that ``stop`` is heard while it runs."""
        movetime, iterations = parse_go(args)
        position = self.reader.position
        if position is None:
            raise ProtocolError("go before any position")
        # Each decision deals the unseen tiles from its own seed: reproducible for a seed.
        self.decisions += 1
        seed = (self.seed + self.decisions) % 2**64
        view = GameView(position.game(seed=seed), position.seat)
        bot = self.bot
        budget: dict[str, Any] = {}
        if "time_ms" in self.settings and movetime is not None:
            # Leave room for rebuilding the position and the pipe.
            budget["time_ms"] = max(1, movetime * 4 // 5)
        if "iterations" in self.settings and iterations is not None:
            budget["iterations"] = max(1, iterations)
        for key in list(budget):
            try:
                bot = BuiltinBot(self.bot.name, seed, **dict(self.settings, **budget))
                break
            except ValueError as e:  # beyond the bot's limits: keep its own setting
                self.say(f"info string {key} budget not taken: {e}")
                del budget[key]
        token = self.decisions
        self.pending = (token, view)
        self.running = bot

        def think() -> None:
            move = str(bot.choose(view))
            self.answer(token, move)

        threading.Thread(target=think, daemon=True, name="genial-engine-search").start()

    def answer(self, token: int, move: str) -> None:
        """Says ``bestmove`` once per ``go``: the search's or, after ``stop``, the quick one."""
        with self.lock:
            if self.pending is None or self.pending[0] != token:
                return
            self.pending = None
            self.say(f"bestmove {move}")

    def stop(self) -> None:
        """Ends a running search: it answers with its best move so far (`BuiltinBot.stop`).
        Should the search not have begun yet (the stop then finds the bot idle), the
        one-ply move answers 0.2 s later instead."""
        pending, running = self.pending, self.running
        if pending is None or running is None:
            return
        running.stop()
        token, view = pending

        def fallback() -> None:
            if self.pending is not None and self.pending[0] == token:
                self.answer(token, str(BuiltinBot("greedy", self.seed).choose(view)))

        timer = threading.Timer(0.2, fallback)
        timer.daemon = True
        timer.start()

    def run(self, stdin: IO[str]) -> int:
        for raw in stdin:
            line = raw.strip()
            if not line:
                continue
            word, _, rest = line.partition(" ")
            args = rest.split()
            try:
                if word == "protocol":
                    self.handshake(args)
                elif word == "isready":
                    self.say("readyok")
                elif word == "setoption":
                    self.setoption(args)
                elif word == "newgame":
                    self.reader = PositionReader()
                elif word == "go":
                    self.go(args)
                elif word == "stop":
                    self.stop()
                elif word == "quit":
                    return 0
                else:
                    # Game lines; anything else (a later version's line) is ignored,
                    # as the protocol asks.
                    self.reader.feed(line)
            except (ProtocolError, ValueError) as e:
                self.say(f"info string error: {e}")
                print(f"genial engine: {e}", file=sys.stderr, flush=True)
        return 0


def serve_builtin(
    spec: str, seed: int | None = None, stdin: IO[str] | None = None, stdout: IO[str] | None = None
) -> int:
    """Plays the built-in bot ``spec`` (seeded ``seed``) as a protocol engine on
    stdin/stdout until ``quit`` or the end of input."""
    engine = _Engine(spec, seed or 0, stdout if stdout is not None else sys.stdout)
    return engine.run(stdin if stdin is not None else sys.stdin)

"""Hosting an engine: `EngineBot` plays a seat through an engine subprocess.

The engine is started on its first decision (the command split like a shell would, run
without a shell), handshakes, and then hears each decision as `protocol.position_lines`
plus ``go``. The host waits for ``bestmove`` at most the move time plus `MARGIN_MS`; an
engine that hangs, crashes, writes garbage, floods, closes its output, stops reading its
input or answers an illegal move forfeits the game (`Forfeit`, logged on the
``genial.engine`` logger with the path of its stderr log). A forfeited engine is stopped
and starts afresh for the next game. The process itself (its session, the deadlines of
every read and write, the bounded stderr log, stopping the engine and everything it
started) is `genial.engine.process`'s: it is stopped on `close`, at a forfeit, when the
bot is garbage collected and at exit.

Every start writes the engine's stderr to a log of its own (in `log_dir`). The log of an
engine that fails is kept, and the forfeit names it; that of an engine that ends cleanly
is deleted, so that the folder holds only what someone needs to read (``keep_logs=True``
keeps every one).
"""

from __future__ import annotations

import contextlib
import logging
import os
import shlex
import tempfile
import threading
import time
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .._core import IllegalMoveError, Move
from ..forfeit import Forfeit, forfeit_ranks
from ..view import GameView
from .process import Broken, EngineProcess
from .protocol import VERSION, VERSIONS, EngineOption, ProtocolError, notation_line, position_lines, rules_line

__all__ = [
    "EngineBot",
    "EngineError",
    "Forfeit",
    "forfeit_ranks",
    "MARGIN_MS",
    "MOVETIME_MS",
    "HANDSHAKE_S",
    "WRITE_S",
    "default_log_dir",
]

log = logging.getLogger("genial.engine")

MOVETIME_MS = 1000
"""The move time a host gives an engine by default (``go movetime 1000``)."""

MARGIN_MS = 1000
"""What the host waits beyond the move time before the engine forfeits: room for starting
a process, pipes and a loaded machine. An engine should answer within its move time."""

HANDSHAKE_S = 10.0
"""Time an engine has to start and answer ``protocol`` with ``protocolok``."""

WRITE_S = 2.0
"""The deadline of a line the host writes outside a decision or a handshake."""


class EngineError(RuntimeError):
    """An engine that cannot be started or does not follow the protocol."""


def default_log_dir() -> Path:
    """Where engines' stderr logs go by default: ``$GENIAL_ENGINE_LOG_DIR``, else
    ``genial-engines`` in the system's temporary folder."""
    return Path(os.environ.get("GENIAL_ENGINE_LOG_DIR") or Path(tempfile.gettempdir()) / "genial-engines")


def _stop_and_tidy(process: EngineProcess, log: Path, kept: list[bool]) -> None:
    """The process stopped, then its stderr log deleted unless it is to be kept
    (``kept[0]``): what a bot that was never closed leaves when it is garbage collected or
    at exit."""
    with contextlib.suppress(Exception):
        process.stop()
    if not kept[0]:
        with contextlib.suppress(OSError):
            log.unlink(missing_ok=True)


class EngineBot:
    """A seat played by an engine subprocess speaking the genial engine protocol.

    ``command``: the engine's command line (a string is split like a shell would, but no
    shell runs it). ``movetime_ms``/``iterations``: the budget given with each ``go``
    (``iterations`` only when set). The host waits ``movetime_ms + margin_ms`` for the
    answer. ``options``: ``setoption`` values sent after the handshake (checked against the
    engine's declared types and bounds). ``log_dir``: where the engine's stderr is kept
    (default: `default_log_dir`, ``genial-engines`` in the system's temporary folder); the log of a
    start that ends cleanly is deleted unless ``keep_logs``. ``nice``: the engine runs that
    much below the host's priority (`genial serve` uses `genial.web.engines.ENGINE_NICE`).

    Use it as any bot (``choose(view)``); `close` (or ``with EngineBot(...) as bot``) stops
    the process. Every decision the engine gets wrong raises `Forfeit`.
    """

    name = "engine"

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        movetime_ms: int = MOVETIME_MS,
        iterations: int | None = None,
        margin_ms: int = MARGIN_MS,
        options: dict[str, Any] | None = None,
        log_dir: str | os.PathLike[str] | None = None,
        handshake_timeout: float = HANDSHAKE_S,
        keep_logs: bool = False,
        nice: int = 0,
    ) -> None:
        argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        if not argv:
            raise ValueError("an engine needs a command: engine:COMMAND, e.g. 'engine:genial engine --bot greedy'")
        for what, value in (("movetime_ms", movetime_ms), ("margin_ms", margin_ms)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{what} must be a whole number of milliseconds, not {value!r}")
        if iterations is not None and (
            isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1
        ):
            raise ValueError(f"iterations must be a whole number >= 1, not {iterations!r}")
        self.argv = argv
        self.command = command if isinstance(command, str) else shlex.join(argv)
        self.movetime_ms = movetime_ms
        self.iterations = iterations
        self.margin_ms = margin_ms
        self.handshake_timeout = handshake_timeout
        self.options = {str(k): v for k, v in (options or {}).items()}
        self.log_dir = Path(log_dir) if log_dir is not None else default_log_dir()
        self.keep_logs = keep_logs
        self.nice = nice
        self._keep_log = [False]  # this start's log is kept (it failed); shared with the finalizer
        self.engine_name: str | None = None
        self.engine_author: str | None = None
        self.engine_options: dict[str, EngineOption] = {}
        #: The protocol version agreed in the handshake (1 or 2).
        self.version = VERSION
        self.last_info: str | None = None
        self.log_path: Path | None = None
        self._process: EngineProcess | None = None
        self._deadline: float | None = None  # of the handshake or decision under way
        self._game_key: tuple[str, int] | None = None
        self._seen_moves = 0
        # A set-up game: the seat, the notation of its turn's start and the moves made then.
        self._turn: tuple[int, str, int] | None = None
        self._killed: str | None = None
        self._doomed = False  # killed before its process started: the process is killed at once
        self._lock = threading.Lock()
        self._finalizer: weakref.finalize[Any, Any] | None = None

    # ----- what a table shows ------------------------------------------------------------

    @property
    def label(self) -> str:
        return f"engine:{self.command}"

    @property
    def spec(self) -> str:
        return self.label

    @property
    def pid(self) -> int | None:
        """The running engine's process id, or ``None``."""
        p = self._process
        return p.pid if p is not None and p.exit_status() is None else None

    @property
    def process(self) -> EngineProcess | None:
        """The engine's current process (`genial.engine.process.EngineProcess`), if started."""
        return self._process

    def __repr__(self) -> str:
        return f"<EngineBot {self.command!r}>"

    # ----- the process ---------------------------------------------------------------------

    def start(self) -> None:
        """Starts the engine and handshakes (done by the first decision if not called)."""
        if self._process is not None and self._process.exit_status() is None:
            return
        self.close()
        if not self._doomed:
            self._killed = None
        self.log_dir.mkdir(parents=True, exist_ok=True)
        stem = "".join(c if c.isalnum() or c in "-_." else "_" for c in Path(self.argv[0]).name)[:40] or "engine"
        fd, path = tempfile.mkstemp(prefix=f"{stem}-", suffix=".log", dir=self.log_dir)
        os.close(fd)
        self.log_path = Path(path)
        try:
            process = EngineProcess(self.argv, self.log_path, nice=self.nice)
        except OSError as e:
            with contextlib.suppress(OSError):
                self.log_path.unlink()
            raise EngineError(f"cannot start engine {self.command!r}: {e.strerror or e}") from None
        with self._lock:
            self._process = process
            doomed = self._doomed
        if doomed:  # `kill` came while it started: its handshake fails at once
            process.kill()
        self._keep_log = [self.keep_logs]
        self._finalizer = weakref.finalize(self, _stop_and_tidy, self._process, self.log_path, self._keep_log)
        self._game_key = None
        try:
            self._handshake()
        except Forfeit as e:
            self._note(f"handshake failed: {e.reason}")
            self.close(failed=True)
            raise EngineError(f"engine {self.command!r} failed its handshake: {e.reason}") from None
        except BaseException:  # Ctrl-C, a bad option: nothing is left running
            self.close(failed=True)
            raise

    def _handshake(self) -> None:
        deadline = time.monotonic() + self.handshake_timeout
        self._deadline = deadline
        self._send(f"protocol {VERSION}")
        self.engine_options = {}
        while True:
            words = self._read(deadline, "protocolok").split()
            if not words:
                continue
            if words[0] == "id" and len(words) >= 3 and words[1] in ("name", "author"):
                value = " ".join(words[2:])
                if words[1] == "name":
                    self.engine_name = value
                else:
                    self.engine_author = value
            elif words[0] == "option":
                try:
                    opt = EngineOption.parse(" ".join(words))
                except ProtocolError as e:
                    raise self._fail(str(e), "broke the engine protocol") from None
                self.engine_options[opt.name] = opt
            elif words[0] == "protocolok":
                spoken = [str(v) for v in VERSIONS]
                if len(words) != 2 or words[1] not in spoken:
                    raise self._fail(
                        f"the engine speaks protocol {' '.join(words[1:])!r}, this host speaks {' or '.join(spoken)}",
                        "speaks another protocol version",
                    )
                self.version = int(words[1])
                break
            elif words[0] != "info":
                raise self._fail(
                    f"unexpected line in the handshake: {' '.join(words)[:200]!r}", "broke the engine protocol"
                )
        for key, value in self.options.items():
            if key not in self.engine_options:
                known = ", ".join(self.engine_options) or "none"
                raise EngineError(f"engine {self.command!r} has no option {key!r} (its options: {known})")
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            try:
                self.engine_options[key].check(text)
            except ProtocolError as e:
                raise EngineError(str(e)) from None
            self._send(f"setoption name {key} value {text}")
        self._send("isready")
        while self._read(deadline, "readyok").split()[:1] != ["readyok"]:
            pass
        self._deadline = None

    def close(self, *, failed: bool = False) -> None:
        """Stops the engine and everything it started (``quit`` and the end of its input,
        then SIGTERM and SIGKILL to its process group: `genial.engine.process`) and waits
        for it; its log is deleted unless the engine failed (or ``keep_logs``)."""
        with self._lock:
            process, self._process = self._process, None
            if process is not None:
                self._doomed = False  # the kill ended that process: the next start is free
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if process is not None:
            process.stop(graceful=not failed)
            if self.log_path is not None and not self._keep_log[0]:
                with contextlib.suppress(OSError):
                    self.log_path.unlink(missing_ok=True)
        self._game_key = None
        self._deadline = None

    def __enter__(self) -> EngineBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----- talking -----------------------------------------------------------------------

    def _send(self, line: str, deadline: float | None = None) -> None:
        """Writes a line by ``deadline`` (default: that of the handshake or decision under
        way, else `WRITE_S` from now); `Forfeit` when the engine does not take it."""
        process = self._process
        assert process is not None
        if deadline is None:
            deadline = self._deadline if self._deadline is not None else time.monotonic() + WRITE_S
        try:
            process.send(line.encode("ascii") + b"\n", deadline)
        except Broken as e:
            raise self._fail(e.reason, self._killed or e.public) from None

    def _read(self, deadline: float, waiting_for: str) -> str:
        process = self._process
        assert process is not None
        try:
            raw = process.read_line(deadline)
        except Broken as e:
            if e.reason == "timeout":
                raise self._fail(f"no {waiting_for} in time", self._killed or e.public) from None
            why = f" ({self._killed})" if self._killed else ""
            raise self._fail(f"{e.reason}{why} before {waiting_for}", self._killed or e.public) from None
        try:
            return raw.decode("ascii").strip()
        except UnicodeDecodeError:
            raise self._fail(f"a line that is not ASCII text: {raw[:80]!r}", "broke the engine protocol") from None

    def _fail(self, reason: str, public: str) -> Forfeit:
        self._keep_log[0] = True  # someone will want to read it
        note = self._process.stderr_note() if self._process is not None else ""
        where = f"; its stderr is in {self.log_path}{note}" if self.log_path is not None else ""
        return Forfeit(f"engine {self.command!r}: {reason}{where}", public=public)

    def _note(self, text: str) -> None:
        if self._process is not None:
            self._process.note(text)

    def kill(self, reason: str) -> None:
        """Ends a decision from another thread: the engine is killed at once, and the thread
        in `choose` forfeits (``reason`` is the public reason) and stops it. A kill that
        comes while the engine starts kills it as soon as its process exists."""
        with self._lock:
            self._killed = reason
            self._doomed = True
            process = self._process
        if process is not None:
            process.kill()

    # ----- playing -----------------------------------------------------------------------

    def choose(self, view: GameView) -> Move:
        """The engine's move for the view's seat; `Forfeit` if the engine fails."""
        if not isinstance(view, GameView):
            raise TypeError(f"an engine chooses from a GameView, not {type(view).__name__}")
        try:
            return self._choose(view)
        except Forfeit as e:
            log.warning("genial.engine: seat %d %s", view.seat, e.reason)
            self._note(f"forfeit: {e.reason}")
            self.close(failed=True)
            e.seat = view.seat
            raise
        except BaseException:
            self.close(failed=True)
            raise

    def _drain(self) -> None:
        """The lines the engine wrote since its last answer: ``info`` is kept, a second
        ``bestmove`` or any other line forfeits."""
        process = self._process
        assert process is not None
        while process.pending():
            line = self._read(time.monotonic(), "the next decision")
            word, _, rest = line.partition(" ")
            if word == "info":
                self.last_info = rest
            elif word == "bestmove":
                raise self._fail(f"a second bestmove for one decision ({line[:80]!r})", "answered twice")
            elif line:
                raise self._fail(f"unexpected line after its bestmove: {line[:200]!r}", "broke the engine protocol")

    def _choose(self, view: GameView) -> Move:
        self.start()
        deadline = time.monotonic() + (self.movetime_ms + self.margin_ms) / 1000.0
        self._deadline = deadline
        try:
            return self._decide(view, deadline)
        finally:
            self._deadline = None

    def _tell(self, view: GameView) -> None:
        """Says the decision's position: the version 1 lines of its history, or for a game
        set up from a position (its history does not hold the start) one ``position
        notation`` line (version 2)."""
        if getattr(view._game, "_setup", None) is not None:
            self._send("newgame")
            self._send(self._notation(view))
            self._game_key = None
            return
        rules = view._game.rules
        key = (rules_line(rules), view.seat)
        n = len(view.moves)
        if self._game_key != key or n < self._seen_moves:
            self._send("newgame")
            self._send(key[0])
            self._send(f"seat {view.seat}")
            self._game_key = key
        self._seen_moves = n
        for line in position_lines(view):
            self._send(line)

    def _notation(self, view: GameView) -> str:
        """The ``position notation`` line of a set-up game's decision: the notation of the
        turn's start (kept from the turn's first decision, which is always the seat's) and
        the seat's moves since."""
        if self.version < 2:
            raise EngineError(
                f"engine {self.command!r} speaks protocol {self.version}: a game set up from a position "
                "(not played from its start) is told as a 'position notation' line of protocol 2"
            )
        n = len(view.moves)
        if view.phase == "place" and not view.pending_bonuses:
            self._turn = (view.seat, notation_line(view), n)
        turn = self._turn
        if (
            turn is None
            or turn[0] != view.seat
            or turn[2] > n
            or view.movers[turn[2] :].count(view.seat) != n - turn[2]
        ):
            raise EngineError(
                f"engine {self.command!r} is asked a {view.phase} decision of a set-up game whose turn it did not "
                "start: the position notation holds the start of a turn"
            )
        return turn[1] + "".join(f" {m}" if i else f" moves {m}" for i, m in enumerate(view.moves[turn[2] :]))

    def _decide(self, view: GameView, deadline: float) -> Move:
        self._drain()
        self._tell(view)
        self._drain()  # once more: a second answer may have come while the position was sent
        go = f"go movetime {self.movetime_ms}"
        if self.iterations is not None:
            go += f" iterations {self.iterations}"
        self._send(go)
        limit = f"bestmove within {self.movetime_ms} ms (+{self.margin_ms} ms margin)"
        while True:
            line = self._read(deadline, limit)
            word, _, rest = line.partition(" ")
            if not line:
                continue
            if word == "info":
                self.last_info = rest
            elif word == "legal":
                self._send("legalmoves " + view.legal_moves().text())
            elif word == "bestmove":
                try:
                    move = Move.parse(rest.strip())
                except (IllegalMoveError, ValueError):
                    raise self._fail(f"bestmove {rest.strip()[:80]!r} is not a move", "chose an illegal move") from None
                if not view.is_legal(move):
                    raise self._fail(f"bestmove {move} is illegal here", "chose an illegal move")
                return move
            else:
                raise self._fail(f"unexpected line while thinking: {line[:200]!r}", "broke the engine protocol")

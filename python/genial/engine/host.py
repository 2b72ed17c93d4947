"""Hosting an engine: `EngineBot` plays a seat through an engine subprocess.

The engine is started on its first decision (the command split like a shell would, run
without a shell), handshakes, and then hears each decision as `protocol.position_lines`
plus ``go``. The host waits for ``bestmove`` at most the move time plus `MARGIN_MS`; an
engine that hangs, crashes, writes garbage or answers an illegal move forfeits the game
(`Forfeit`, logged on the ``genial.engine`` logger with the path of its stderr log). A
forfeited engine is stopped and starts afresh for the next game. The process is always
reaped: on `close`, at a forfeit, when the bot is garbage collected and at exit.

Every start writes the engine's stderr to a log of its own (in `log_dir`). The log of an
engine that fails is kept, and the forfeit names it; that of an engine that ends cleanly
is deleted, so that the folder holds only what someone needs to read (``keep_logs=True``
keeps every one).
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import shlex
import subprocess
import tempfile
import threading
import time
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from .._core import IllegalMoveError, Move
from ..bots import Forfeit, GameView, forfeit_ranks
from .protocol import MAX_LINE, VERSION, EngineOption, ProtocolError, position_lines, rules_line

__all__ = [
    "EngineBot",
    "EngineError",
    "Forfeit",
    "forfeit_ranks",
    "MARGIN_MS",
    "MOVETIME_MS",
    "HANDSHAKE_S",
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


class EngineError(RuntimeError):
    """An engine that cannot be started or does not follow the protocol."""


class _Lines:
    """The engine's stdout as a queue of lines, read by a daemon thread, so that the host
    can wait for a line with a deadline. ``None`` marks the end of the output."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.queue: queue.Queue[bytes | None] = queue.Queue()
        self.thread = threading.Thread(target=self._run, args=(stream,), daemon=True, name="genial-engine-reader")
        self.thread.start()

    def _run(self, stream: IO[bytes]) -> None:
        try:
            while True:
                line = stream.readline(MAX_LINE + 1)
                if not line:
                    break
                self.queue.put(line)
        except (OSError, ValueError):
            pass
        finally:
            self.queue.put(None)

    def get(self, deadline: float) -> bytes | None:
        """The next line; `TimeoutError` at the deadline, ``None`` at the end of output."""
        timeout = deadline - time.monotonic()
        if timeout <= 0:
            raise TimeoutError
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError from None


def default_log_dir() -> Path:
    """Where engines' stderr logs go by default: ``$GENIAL_ENGINE_LOG_DIR``, else
    ``genial-engines`` in the system's temporary folder."""
    return Path(os.environ.get("GENIAL_ENGINE_LOG_DIR") or Path(tempfile.gettempdir()) / "genial-engines")


def _reap_and_tidy(proc: subprocess.Popen[bytes], log: Path, kept: list[bool]) -> None:
    """`_reap`, then the stderr log deleted unless it is to be kept (``kept[0]``): what a
    bot that was never closed leaves when it is garbage collected or at exit."""
    _reap(proc)
    if not kept[0]:
        with contextlib.suppress(OSError):
            log.unlink(missing_ok=True)


def _reap(proc: subprocess.Popen[bytes]) -> None:
    """Stops the process and waits for it (it cannot remain a zombie)."""
    if proc.poll() is None:
        try:
            if proc.stdin is not None:
                proc.stdin.write(b"quit\n")
                proc.stdin.flush()
        except (OSError, ValueError):
            pass
        try:
            proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            proc.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):  # only a process that ignores SIGKILL
        proc.wait(timeout=5)
    for stream in (proc.stdin, proc.stdout):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass


class EngineBot:
    """A seat played by an engine subprocess speaking the genial engine protocol.

    ``command``: the engine's command line (a string is split like a shell would, but no
    shell runs it). ``movetime_ms``/``iterations``: the budget given with each ``go``
    (``iterations`` only when set). The host waits ``movetime_ms + margin_ms`` for the
    answer. ``options``: ``setoption`` values sent after the handshake (checked against the
    engine's declared types and bounds). ``log_dir``: where the engine's stderr is kept
    (default: `default_log_dir`, ``genial-engines`` in the system's temporary folder); the log of a
    start that ends cleanly is deleted unless ``keep_logs``.

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
        self._keep_log = [False]  # this start's log is kept (it failed); shared with the finalizer
        self.engine_name: str | None = None
        self.engine_author: str | None = None
        self.engine_options: dict[str, EngineOption] = {}
        self.last_info: str | None = None
        self.log_path: Path | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: _Lines | None = None
        self._log: IO[bytes] | None = None
        self._game_key: tuple[str, int] | None = None
        self._seen_moves = 0
        self._killed: str | None = None
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
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    def __repr__(self) -> str:
        return f"<EngineBot {self.command!r}>"

    # ----- the process ---------------------------------------------------------------------

    def start(self) -> None:
        """Starts the engine and handshakes (done by the first decision if not called)."""
        if self._proc is not None and self._proc.poll() is None:
            return
        self.close()
        self._killed = None
        self.log_dir.mkdir(parents=True, exist_ok=True)
        stem = "".join(c if c.isalnum() or c in "-_." else "_" for c in Path(self.argv[0]).name)[:40] or "engine"
        fd, path = tempfile.mkstemp(prefix=f"{stem}-", suffix=".log", dir=self.log_dir)
        self.log_path = Path(path)
        self._log = os.fdopen(fd, "ab", buffering=0)
        try:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._log,
                # Its own session: Ctrl-C at the terminal reaches the host, which stops it.
                start_new_session=True,
            )
        except OSError as e:
            self.close()  # the log is empty: deleted
            raise EngineError(f"cannot start engine {self.command!r}: {e.strerror or e}") from None
        self._lines = _Lines(self._proc.stdout)  # type: ignore[arg-type]
        self._keep_log = [self.keep_logs]
        self._finalizer = weakref.finalize(self, _reap_and_tidy, self._proc, self.log_path, self._keep_log)
        self._game_key = None
        try:
            self._handshake()
        except Forfeit as e:
            self.close()
            raise EngineError(f"engine {self.command!r} failed its handshake: {e.reason}") from None

    def _handshake(self) -> None:
        self._send(f"protocol {VERSION}")
        deadline = time.monotonic() + self.handshake_timeout
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
                if words[1:] != [str(VERSION)]:
                    raise self._fail(
                        f"the engine speaks protocol {' '.join(words[1:])!r}, this host speaks {VERSION}",
                        "speaks another protocol version",
                    )
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

    def close(self) -> None:
        """Stops the engine (``quit``, then a kill if it lingers) and waits for it; its log
        is deleted unless the engine failed (or ``keep_logs``)."""
        proc, self._proc = self._proc, None
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if proc is not None:
            _reap(proc)
        if self._lines is not None:
            self._lines.thread.join(timeout=1.0)
            self._lines = None
        if self._log is not None:
            self._log.close()
            self._log = None
            if self.log_path is not None and not self._keep_log[0]:
                with contextlib.suppress(OSError):
                    self.log_path.unlink(missing_ok=True)
        self._game_key = None

    def __enter__(self) -> EngineBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----- talking -----------------------------------------------------------------------

    def _send(self, line: str) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.write(line.encode("ascii") + b"\n")
            proc.stdin.flush()
        except (BrokenPipeError, ConnectionResetError, ValueError, OSError):
            raise self._fail("the engine is gone (its input is closed)", self._gone()) from None

    def _read(self, deadline: float, waiting_for: str) -> str:
        assert self._lines is not None
        try:
            raw = self._lines.get(deadline)
        except TimeoutError:
            raise self._fail(f"no {waiting_for} in time", "did not answer in time") from None
        if raw is None:
            code = self._proc.wait(timeout=5) if self._proc is not None else None
            why = f" ({self._killed})" if self._killed else ""
            raise self._fail(f"the engine exited (status {code}){why} before {waiting_for}", self._gone())
        if len(raw) > MAX_LINE or not raw.endswith(b"\n"):
            raise self._fail(f"a line longer than {MAX_LINE} bytes", "broke the engine protocol")
        try:
            return raw.decode("ascii").strip()
        except UnicodeDecodeError:
            raise self._fail(f"a line that is not ASCII text: {raw[:80]!r}", "broke the engine protocol") from None

    def _fail(self, reason: str, public: str) -> Forfeit:
        self._keep_log[0] = True  # someone will want to read it
        where = f"; its stderr is in {self.log_path}" if self.log_path is not None else ""
        return Forfeit(f"engine {self.command!r}: {reason}{where}", public=public)

    def _gone(self) -> str:
        return self._killed or "stopped running"

    def kill(self, reason: str) -> None:
        """Ends a decision from another thread: the engine is killed at once, and the thread
        in `choose` forfeits (``reason`` is the public reason) and reaps it."""
        self._killed = reason
        proc = self._proc
        if proc is not None:
            with contextlib.suppress(OSError):
                proc.kill()

    # ----- playing -----------------------------------------------------------------------

    def choose(self, view: GameView) -> Move:
        """The engine's move for the view's seat; `Forfeit` if the engine fails."""
        if not isinstance(view, GameView):
            raise TypeError(f"an engine chooses from a GameView, not {type(view).__name__}")
        try:
            return self._choose(view)
        except Forfeit as e:
            log.warning("genial.engine: seat %d %s", view.seat, e.reason)
            if self._log is not None:
                with contextlib.suppress(OSError):
                    self._log.write(f"[host] forfeit: {e.reason}\n".encode())
            self.close()
            e.seat = view.seat
            raise

    def _choose(self, view: GameView) -> Move:
        self.start()
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
        go = f"go movetime {self.movetime_ms}"
        if self.iterations is not None:
            go += f" iterations {self.iterations}"
        self._send(go)
        deadline = time.monotonic() + (self.movetime_ms + self.margin_ms) / 1000.0
        limit = f"bestmove within {self.movetime_ms} ms (+{self.margin_ms} ms margin)"
        while True:
            line = self._read(deadline, limit)
            word, _, rest = line.partition(" ")
            if not line:
                continue
            if word == "info":
                self.last_info = rest
            elif word == "legal":
                self._send("legalmoves " + " ".join(str(m) for m in view.legal_moves()))
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

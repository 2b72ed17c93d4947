"""Hostile engines: small scripts (sh or Python) that each misbehave in one way, with the
verdict expected of the host (a tournament) and of ``genial engine-check``.

Each engine is written into a folder by `write` and started as ``sh FILE`` or
``python FILE``. A Python engine is the polite engine below (it asks for the legal moves
and plays the first) with one of its hooks replaced. An engine that keeps state across
starts (the handshake failing on restart) counts its starts in ``$HOSTILE_STATE``.

``host``: a regular expression the forfeit reason (or the error) must match; ``None``:
the engine plays every game, no forfeit. ``error``: the run stops with
`genial.engine.EngineError` (a setup problem) after handing back the games it finished.
``check``: a regular expression one failed check of engine-check must match; ``None``:
every check passes.
"""

from __future__ import annotations

import shlex
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent
PY = sys.executable

TEMPLATE = """\
import os, signal, sys, time
out = sys.stdout.buffer
def say(s):
    out.write(s.encode() + b"\\n")
    out.flush()
def starts():
    path = os.environ["HOSTILE_STATE"] + "/starts"
    n = int(open(path).read()) if os.path.exists(path) else 0
    open(path, "w").write(str(n + 1))
    return n + 1
#PRELUDE
gos = 0
for raw in sys.stdin:
    w = raw.split()
    word = w[0] if w else ""
    if word == "protocol":
#PROTOCOL
        say("id name hostile")
        say("id author genial tests")
        say("protocolok 1")
    elif word == "isready":
        say("readyok")
    elif word == "go":
        gos += 1
#GO
    elif word == "legalmoves":
#LEGALMOVES
    elif word == "quit":
#QUIT
#EOF
"""

DEFAULTS = {
    "PRELUDE": "",
    "PROTOCOL": "pass",
    "GO": 'say("legal")',
    "LEGALMOVES": 'say("bestmove " + w[1])',
    "QUIT": "break",
    "EOF": "",
}
INDENT = {"PRELUDE": 0, "PROTOCOL": 8, "GO": 8, "LEGALMOVES": 8, "QUIT": 8, "EOF": 0}


def python_engine(**hooks: str) -> str:
    """The polite engine's source with some hooks replaced."""
    text = TEMPLATE
    for key, default in DEFAULTS.items():
        code = textwrap.dedent(hooks.get(key.lower(), default)).strip("\n") or "pass"
        text = text.replace(f"#{key}", textwrap.indent(code, " " * INDENT[key]) if INDENT[key] else code)
    return text


POLITE = python_engine()
HANG = "time.sleep(3600)"


@dataclass(frozen=True)
class Hostile:
    name: str
    kind: str  # "sh" or "py"
    source: str
    host: str | None  # what the forfeit (or error) says; None: no forfeit
    check: str | None  # what a failed check says; None: engine-check passes
    error: bool = False  # the run stops with EngineError (after handing back its games)
    slow: bool = False  # heavy: run only with --runslow / -m slow
    #: The answer's margin (ms) past the move time, where the kind's honest work takes long
    #: (50 MB through a pipe on a loaded machine); None: the table's margin.
    margin_ms: int | None = None


def _py(
    name: str,
    host: str | None,
    check: str | None,
    error: bool = False,
    slow: bool = False,
    margin_ms: int | None = None,
    **hooks: str,
) -> Hostile:
    return Hostile(name, "py", python_engine(**hooks), host, check, error, slow, margin_ms)


def _sh(name: str, body: str, host: str | None, check: str | None, error: bool = False, slow: bool = False) -> Hostile:
    return Hostile(name, "sh", "#!/bin/sh\n" + textwrap.dedent(body).strip() + "\n", host, check, error, slow)


def _inner(hooks: dict[str, str]) -> str:
    """A Python engine's source for a shell wrapper to start: written beside it as NAME.inner.py."""
    return python_engine(**hooks)


LEFT = r"left \d+ process"
TIMEOUT = r"no bestmove"
HANDSHAKE = r"handshake"

# A shell wrapper finds its inner engine as "$0.inner.py".
TABLE: list[Hostile] = [
    # ----- the kinds already tested (tests/engines/faulty_engine.py) -----------------------
    _py("hang", TIMEOUT, TIMEOUT, go=HANG),
    _py("crash", r"exited \(status 3\)", r"exited", go="sys.exit(3)"),
    _py("illegal", r"illegal here|not a move", r"illegal|not legal", go='say("bestmove R9,9+R9,8")'),
    _py("garbage", r"unexpected line", r"unexpected line", go='say("hello there")'),
    _py("not_a_move", r"is not a move", r"not a move|not legal", go='say("bestmove nonsense")'),
    # ----- wrappers, children, groups -------------------------------------------------------
    _sh("wrapper_no_exec_hanging", f'"{PY}" -S "$0.inner.py"', TIMEOUT, TIMEOUT),
    _sh("wrapper_no_exec_polite", f'"{PY}" -S "$0.inner.py"', None, None, slow=True),
    _sh("background_child_holding_stdout", f'sleep 600 &\nexec "{PY}" -S "$0.inner.py"', None, LEFT),
    _sh("background_child_then_hang", f'sleep 600 &\nexec "{PY}" -S "$0.inner.py"', TIMEOUT, TIMEOUT),
    _sh("wrapper_no_exec_with_background_child", f'sleep 600 &\n"{PY}" -S "$0.inner.py"', TIMEOUT, TIMEOUT),
    _py(
        "setsid_child",
        None,
        LEFT,
        prelude='import subprocess\nsubprocess.Popen(["sleep", "600"], start_new_session=True, stdout=subprocess.DEVNULL)',
    ),
    _py(
        "setsid_child_holding_stdout_then_hang",
        TIMEOUT,
        TIMEOUT,
        prelude='import subprocess\nsubprocess.Popen(["sleep", "600"], start_new_session=True)',
        go=HANG,
    ),
    _py(
        "fork_child_keeps_running",
        None,
        LEFT,
        prelude="""
            if os.fork() == 0:
                time.sleep(600)
                os._exit(0)
        """,
    ),
    _py(
        "grandchild_orphaned",
        None,
        LEFT,
        prelude="""
            if os.fork() == 0:
                if os.fork() == 0:
                    time.sleep(600)
                os._exit(0)
        """,
    ),
    _py(
        "fork_child_holding_stdout_then_exit_midgame",
        r"exited \(status 0\)",
        r"exited",
        prelude="""
            if os.fork() == 0:
                time.sleep(600)
                os._exit(0)
        """,
        go='if gos == 3:\n    os._exit(0)\nsay("legal")',
    ),
    _py(
        # A descendant that leaves the session and hops to a new process every few
        # milliseconds (fork, the parent exits): whoever collects it races its double forks.
        "setsid_hopper_keeps_forking",
        None,
        LEFT,
        prelude="""
            if os.fork() == 0:
                os.setsid()
                sys.stdin.close()
                while True:
                    time.sleep(0.005)
                    if os.fork() != 0:
                        os._exit(0)
        """,
    ),
    _py(
        # A daemon started mid-game (a double fork out of the session, its output closed):
        # this host's keeper collects it, but it is the engine's fault, which engine-check
        # passed.
        "daemon_started_midgame",
        None,
        r"left its session",
        go="""
            if gos == 3 and os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    os.closerange(0, 3)
                    time.sleep(600)
                os._exit(0)
            say("legal")
        """,
    ),
    _py(
        "ignores_sigterm_and_hangs", TIMEOUT, TIMEOUT, prelude="signal.signal(signal.SIGTERM, signal.SIG_IGN)", go=HANG
    ),
    _py(
        "ignores_quit_eof_and_sigterm",
        None,
        r"still running|" + LEFT,
        prelude="signal.signal(signal.SIGTERM, signal.SIG_IGN)",
        quit="pass",
        eof="time.sleep(600)",
    ),
    _py("ignores_end_of_input", None, r"still running|" + LEFT, quit="pass", eof="time.sleep(600)"),
    # ----- pipes ----------------------------------------------------------------------------
    _py(
        "writer_never_reads",
        r"no bestmove|wrote more than|did not read",
        r"no bestmove|wrote more than|did not read",
        go="""
            line = b"info " + b"x" * 1000 + b"\\n"
            while True:
                out.write(line)
        """,
    ),
    _py(
        "floods_between_decisions",
        r"wrote more than|no bestmove|did not read",
        r"wrote more than|no bestmove|did not read|after its bestmove",
        legalmoves="""
            say("bestmove " + w[1])
            line = b"info " + b"x" * 1000 + b"\\n"
            while True:
                out.write(line)
        """,
    ),
    _py(
        "legal_loop_never_reading",
        r"did not read|wrote more than|no bestmove",
        r"did not read|wrote more than|no bestmove",
        go="""
            while True:
                say("legal")
        """,
    ),
    _py(
        "legal_loop_reading",
        TIMEOUT,
        TIMEOUT,
        go="""
            while True:
                say("legal")
                sys.stdin.readline()
        """,
    ),
    _py("closes_stdout_and_stays", r"closed its output", r"closed its output", go="os.close(1)\n" + HANG),
    _py(
        "closes_stdout_at_start",
        HANDSHAKE,
        HANDSHAKE,
        error=True,
        prelude="os.close(1)\ntime.sleep(600)",
    ),
    _py(
        "closes_stdin_and_hangs",
        TIMEOUT + r"|did not read|gone",
        TIMEOUT + r"|did not read|gone",
        go="os.close(0)\n" + HANG,
    ),
    # ----- handshakes -------------------------------------------------------------------------
    _py(
        "handshake_fails_on_restart",
        r"handshake",
        r"handshake|exited",
        error=True,
        protocol='if starts() > int(os.environ.get("HOSTILE_GOOD_STARTS", "1")):\n    sys.exit(4)',
        go="sys.exit(3)",
    ),
    _py(
        "handshake_hangs_on_restart",
        r"handshake",
        r"handshake|exited",
        error=True,
        protocol="if starts() > 1:\n    " + HANG,
        go="sys.exit(3)",
    ),
    _py("no_protocolok", HANDSHAKE, HANDSHAKE, error=True, protocol=HANG),
    _py("exits_at_start", HANDSHAKE, HANDSHAKE, error=True, prelude="sys.exit(0)"),
    _py(
        "speaks_protocol_3",
        HANDSHAKE,
        HANDSHAKE,
        error=True,
        protocol='say("protocolok 3")\ncontinue',
    ),
    _py(
        "garbage_in_handshake",
        HANDSHAKE,
        HANDSHAKE,
        error=True,
        protocol='say("hello there")',
    ),
    Hostile("no_such_command", "missing", "", r"cannot start", r"cannot start", error=True),
    # ----- stderr --------------------------------------------------------------------------------
    _py(
        "stderr_flood_50mb_once",
        None,
        None,
        slow=True,
        margin_ms=30_000,  # judged on the bounded log and the game, not on the pipe's speed
        go="""
            if gos == 1:
                chunk = b"e" * 1_000_000
                for _ in range(50):
                    sys.stderr.buffer.write(chunk)
                sys.stderr.buffer.flush()
            say("legal")
        """,
    ),
    _py(
        "stderr_flood_50mb_then_hang",
        TIMEOUT,
        TIMEOUT,
        go="""
            chunk = b"e" * 1_000_000
            for _ in range(50):
                sys.stderr.buffer.write(chunk)
            sys.stderr.buffer.flush()
            time.sleep(3600)
        """,
    ),
    _sh(
        "stderr_flood_from_the_wrapper",
        f'head -c 50000000 /dev/zero >&2\nexec "{PY}" -S "$0.inner.py"',
        TIMEOUT,
        TIMEOUT,
    ),
    # ----- lines ---------------------------------------------------------------------------------
    _py(
        "line_of_exactly_64_kib",
        None,
        None,
        slow=True,
        go='out.write(b"info " + b"x" * (65536 - 5) + b"\\n")\nsay("legal")',
    ),
    _py(
        "line_of_64_kib_and_one",
        r"longer than 65536",
        r"longer than 65536",
        go='out.write(b"info " + b"x" * (65536 - 4) + b"\\n")\nsay("legal")',
    ),
    _py(
        "line_of_100_mb",
        r"longer than 65536",
        r"longer than 65536",
        go="""
            chunk = b"x" * 1_000_000
            for _ in range(100):
                out.write(chunk)
            out.write(b"\\n")
            out.flush()
            time.sleep(3600)
        """,
    ),
    _py(
        "line_of_100_mb_in_handshake",
        HANDSHAKE,
        HANDSHAKE,
        error=True,
        protocol="""
            chunk = b"x" * 1_000_000
            for _ in range(100):
                out.write(chunk)
            out.flush()
            time.sleep(3600)
        """,
    ),
    _py("non_utf8_bestmove", r"not ASCII", r"not ASCII", go='out.write(b"bestmove \\xff\\xfe\\x80\\n"); out.flush()'),
    _py(
        "non_utf8_info",
        r"not ASCII",
        r"not ASCII",
        go='out.write(b"info \\xc3\\x28 caf\\xe9\\n"); out.flush()\nsay("legal")',
    ),
    _py(
        "nul_bytes",
        r"not ASCII|unexpected line",
        r"not ASCII|unexpected line",
        go='out.write(b"\\x00\\x00\\n"); out.flush()',
    ),
    # ----- answers ---------------------------------------------------------------------------------
    _py("answers_late", TIMEOUT, TIMEOUT, go='time.sleep(float(os.environ["HOSTILE_LATE_S"]))\nsay("legal")'),
    _py(
        # Six times its move time at every decision: under the host's margin, so no forfeit,
        # but an engine that ignores its clock (engine-check passed it). On a loaded machine
        # one decision can also pass the margin, and the engine forfeits: caught either way.
        "answers_at_six_times_its_move_time",
        None,
        r"answers late|forfeits",
        go='time.sleep(6 * int(w[w.index("movetime") + 1]) / 1000)\nsay("legal")',
    ),
    _py(
        "answers_late_at_its_third_decision",
        TIMEOUT,
        TIMEOUT,
        go='if gos == 3:\n    time.sleep(float(os.environ["HOSTILE_LATE_S"]))\nsay("legal")',
    ),
    _py(
        "doubled_bestmove",
        # Seen before the next decision: "a second bestmove"; arriving after the next go, it
        # is taken as that decision's answer, illegal there.
        r"second bestmove|illegal here",
        r"second bestmove|after its bestmove",
        legalmoves='say("bestmove " + w[1])\nsay("bestmove " + w[1])',
    ),
    _py("exits_mid_game", r"exited \(status 0\)", r"exited", go='if gos == 3:\n    sys.exit(0)\nsay("legal")'),
    _py(
        "killed_by_a_signal_mid_game",
        r"signal",
        r"exited|signal",
        go='if gos == 2:\n    os.kill(os.getpid(), signal.SIGSEGV)\nsay("legal")',
    ),
    _py(
        "info_spam_then_answer",
        None,
        None,
        slow=True,
        go='for i in range(200):\n    say(f"info line {i}")\nsay("legal")',
    ),
]

# Shell wrappers' inner engines.
INNER: dict[str, str] = {
    "wrapper_no_exec_hanging": _inner({"go": HANG}),
    "wrapper_no_exec_polite": POLITE,
    "background_child_holding_stdout": POLITE,
    "background_child_then_hang": _inner({"go": HANG}),
    "wrapper_no_exec_with_background_child": _inner({"go": HANG}),
    "stderr_flood_from_the_wrapper": _inner({"go": HANG}),
}


def write(engine: Hostile, folder: Path) -> str:
    """Writes the engine's script(s) into ``folder``; its command line."""
    if engine.kind == "missing":
        return shlex.quote(str(folder / "no-such-engine"))
    path = folder / f"{engine.name}.{engine.kind}"
    path.write_text(engine.source)
    if engine.kind == "sh":
        (folder / f"{engine.name}.sh.inner.py").write_text(INNER[engine.name])
        return f"sh {shlex.quote(str(path))}"
    return f"{shlex.quote(PY)} -S {shlex.quote(str(path))}"  # -S: a quicker start

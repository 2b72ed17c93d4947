"""Ctrl-C while the ``genial`` command is still starting: imported first by
``genial/__init__.py``, and only modules the interpreter has loaded already (a Ctrl-C while
this module itself loads is not caught).

The command's own handler (`genial.cli`) is installed once `genial.cli.main` runs; before
that, a Ctrl-C lands in the middle of an import (numpy's, the core's) and Python prints the
traceback of that import. When this process is the ``genial`` command (``python -m genial``
or the console script), a Ctrl-C from here until `main` takes over ends it as one during
the command does: ``genial: interrupted`` and status 130. A program that merely imports
genial keeps Python's handler. (A Ctrl-C before the interpreter reaches genial, in its own
start, is Python's to report.)"""

import _signal  # type: ignore[import-not-found]  # the C module: `signal` would import enum
import contextlib
import os
import sys

__all__ = ["interrupted", "install"]


def interrupted(signum: int, frame: object) -> None:
    """The start-up's Ctrl-C: one line, status 130. It ends the process at once, as nothing
    has been written yet: an exception raised here could land inside an extension's import
    (numpy's), which reports it as an ImportError with its own traceback."""
    try:
        os.write(2, b"genial: interrupted\n")
    finally:
        os._exit(130)


def _is_the_command() -> bool:
    """Whether this process runs the ``genial`` command: ``python -m genial ...`` (as the
    interpreter was given it: ``sys.argv[0]`` reads ``-m`` for any module while it is
    found) or the console script named ``genial``."""
    orig = list(getattr(sys, "orig_argv", []))
    i = 1
    while i < len(orig):
        arg = orig[i]
        if arg == "-m":
            return orig[i + 1 : i + 2] == ["genial"]
        if arg == "-mgenial":
            return True
        if not arg.startswith("-") or arg == "-c":
            break  # a script or ``-c``'s code: the options end here
        i += 2 if arg in ("-X", "-W") else 1  # the options that take a value
    name = os.path.basename(sys.argv[0]) if sys.argv else ""
    return name in ("genial", "genial.exe", "genial-script.py")


def install() -> None:
    """Puts `interrupted` in place of Python's handler when this process is the command
    and Ctrl-C is at its default (not ignored, not someone's own handler)."""
    if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler and _is_the_command():
        with contextlib.suppress(ValueError):  # not the main thread: not this module's to set
            _signal.signal(_signal.SIGINT, interrupted)


install()  # on import: `genial/__init__.py` imports this module before any other

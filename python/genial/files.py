"""Files that never lose or invent a game: every output replaces its path only when the
new content is complete and on disk, and every small JSON file genial reads back (result
metadata, a dataset's ``_meta.json``, a cached review) is checked field by field.

- `replacing` opens a temporary file beside the target (same folder, so that the rename
  cannot cross file systems); on a clean exit it is flushed, synced, renamed over the
  target and the folder synced, on any exception it is removed and the target is left as
  it was. `write_atomic` does the same for text or bytes at once.
- The files are created with the mode the process's umask gives (``0o666 & ~umask``), as
  ``open`` would, not the ``0o600`` of `tempfile.mkstemp`.
- `read_json` reads a small JSON file: a missing file, bad UTF-8, bad JSON or nesting too
  deep for the parser each become one `FileFormatError` naming the file. `field` reads one
  field of it with its type and bounds checked (``nan``, ``inf`` and ``1e308`` are refused
  where a probability is expected), naming the file and the field.
- `interrupts_held` makes Ctrl-C wait until a block (a chunk written) is done, so that a
  file is written whole or not at all; `arrow` imports pyarrow under it (see there).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import math
import os
import signal
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

__all__ = [
    "FileFormatError",
    "replacing",
    "write_atomic",
    "fsync_dir",
    "umask",
    "file_mode",
    "read_json",
    "field",
    "probability",
    "interrupts_held",
    "arrow",
]


class FileFormatError(ValueError):
    """A file genial wrote earlier that cannot be read back as it should: the message names
    the file, the field and what is wrong, in one line."""


def umask() -> int:
    """The process's umask (read without changing it for longer than the call)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def file_mode() -> int:
    """The mode a new file gets from ``open``: ``0o666`` less the umask."""
    return 0o666 & ~umask()


def fsync_dir(folder: str | os.PathLike[str]) -> None:
    """Syncs a folder, so that a rename into it survives a crash (a no-op where folders
    cannot be opened, as on Windows)."""
    try:
        fd = os.open(os.fspath(folder) or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _lock(fd: int) -> bool:
    """Takes the exclusive lock of an open file without waiting: whether it was free (always
    true where there are no such locks, as on Windows)."""
    try:
        import fcntl
    except ImportError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def temporary(path: Path) -> tuple[int, Path]:
    """A new temporary file beside ``path`` (``.NAME.XXXX.partial``), with the umask's mode,
    locked for as long as the returned descriptor is open: the lock, which the system drops
    when the process dies (SIGKILL too), tells `remove_stale` the file is still being
    written. It takes its ``.partial`` name only once locked, so that no file by that name
    is ever unlocked while its writer lives."""
    fd, new = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".new", dir=path.parent)
    try:
        with contextlib.suppress(OSError, AttributeError):  # no fchmod on Windows
            os.fchmod(fd, file_mode())
        _lock(fd)
        tmp = Path(new[: -len(".new")] + ".partial")
        os.rename(new, tmp)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(new)
        raise
    return fd, tmp


def remove_stale(path: Path, *names: str) -> None:
    """Removes the temporary files (`temporary`) of ``path`` and of the sibling ``names``
    that runs killed before they could (SIGKILL, a power cut) left beside it: those whose
    lock is free. A run still writing holds its file's lock, and its file is kept."""
    for name in (path.name, *names):
        for old in path.parent.glob(f".{_glob_escape(name)}.*.partial"):
            try:
                fd = os.open(old, os.O_RDONLY)
            except OSError:
                continue  # gone already, or not ours to read
            try:
                if _lock(fd):
                    old.unlink(missing_ok=True)
            finally:
                os.close(fd)


def _glob_escape(name: str) -> str:
    """``name`` with the characters that `Path.glob` reads as patterns escaped."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)


def commit(tmp: Path, path: Path) -> None:
    """Renames a finished, synced temporary file over ``path`` and syncs the folder."""
    os.replace(tmp, path)
    fsync_dir(path.parent)


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str], mode: str = "w") -> Iterator[IO[Any]]:
    """A file to write ``path``'s new content into: it replaces ``path`` when the block ends
    without an exception (flushed, synced, renamed, the folder synced); an exception (a full
    disk, Ctrl-C) removes it and leaves ``path`` untouched. ``mode`` is ``"w"`` (text,
    UTF-8) or ``"wb"``."""
    target = Path(path)
    fd, tmp = temporary(target)
    try:
        if "b" in mode:
            f: IO[Any] = os.fdopen(fd, mode)
        else:
            f = os.fdopen(fd, mode, encoding="utf-8", newline="")
        with f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        commit(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Replaces ``path`` with ``data`` (text as UTF-8) whole, or not at all."""
    with replacing(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)


def read_json(path: str | os.PathLike[str], what: str = "file") -> Any:
    """The JSON value of a small file; every way it can be unreadable is one
    `FileFormatError` (a missing file stays `FileNotFoundError`, an `OSError`)."""
    p = Path(path)
    if p.is_dir():
        raise FileFormatError(f"{p} is a folder, not a {what}")
    raw = p.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FileFormatError(f"{p}: not a {what}: byte {e.start} is not UTF-8") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise FileFormatError(f"{p}: not a {what}: bad JSON at line {e.lineno} column {e.colno} ({e.msg})") from None
    except RecursionError:
        raise FileFormatError(f"{p}: not a {what}: its JSON is nested too deeply") from None


_MISSING = object()


def field(
    path: str | os.PathLike[str],
    data: Any,
    name: str,
    kind: type | tuple[type, ...],
    *,
    optional: bool = False,
    default: Any = None,
    within: str = "",
) -> Any:
    """``data[name]`` (``name`` may be dotted: ``rules.players``), checked to be of ``kind``
    (a ``bool`` is no ``int`` here, an ``int`` is a ``float``); a missing or wrong field is
    a `FileFormatError` naming the file and the field (``within``: where ``data`` sits in
    the file, as ``bots[2].``)."""
    shown = within + name
    value: Any = data
    for part in name.split("."):
        if not isinstance(value, dict):
            raise FileFormatError(f"{path}: {shown!r} cannot be read: the value holding it is not a JSON object")
        value = value.get(part, _MISSING)
        if value is _MISSING:
            if optional:
                return default
            raise FileFormatError(f"{path}: the field {shown!r} is missing")
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if float in kinds and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    if not ok:
        want = " or ".join(_json_name(k) for k in kinds)
        raise FileFormatError(f"{path}: the field {shown!r} is {_json_name(type(value))}, not {want}")
    if isinstance(value, float) and not math.isfinite(value):
        raise FileFormatError(f"{path}: the field {shown!r} is {value}, not a finite number")
    return value


def probability(path: str | os.PathLike[str], name: str, value: Any) -> float:
    """A chance read from a file: a finite number in 0..1 (``nan``, ``inf``, ``1e308`` and
    strings are refused, naming the file and the field)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise FileFormatError(f"{path}: the field {name!r} is {_json_name(type(value))}, not a number")
    x = float(value)
    if not (math.isfinite(x) and 0.0 <= x <= 1.0):
        raise FileFormatError(f"{path}: the field {name!r} is {value!r}, not a chance between 0 and 1")
    return x


def _json_name(kind: type) -> str:
    return {
        dict: "an object",
        list: "a list",
        str: "a string",
        int: "a whole number",
        float: "a number",
        bool: "true or false",
        type(None): "null",
    }.get(kind, kind.__name__)


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C waits until the block is done, then is raised as usual (by the handler that
    was in place, so a command line's second-Ctrl-C handling holds): a chunk is written,
    and counted, whole or not at all, so the file stays valid. Off the main thread, or
    where Ctrl-C is ignored, the block just runs."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield
        return
    held = _Held()
    previous = signal.signal(signal.SIGINT, held)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if held.pending:
        if isinstance(previous, _Held):
            # Held inside another hold (opening a file imports pyarrow with Ctrl-C held, and
            # files open with it held): the outer one raises it when its block is done.
            previous.pending = True
            return
        handler = signal.getsignal(signal.SIGINT)
        if callable(handler):
            handler(signal.SIGINT, None)  # the command line's: a second Ctrl-C is then ignored
        raise KeyboardInterrupt


class _Held:
    """The SIGINT handler while Ctrl-C is held: it only remembers that one came."""

    def __init__(self) -> None:
        self.pending = False

    def __call__(self, signum: int, frame: object) -> None:
        self.pending = True


def arrow() -> tuple[Any, Any]:
    """``pyarrow`` and ``pyarrow.parquet`` (`ImportError` without them), imported with
    Ctrl-C held. pyarrow imports pandas the first time it meets a value, and a
    KeyboardInterrupt raised while pandas's compiled modules load is lost on the way: a run
    interrupted then went on to its last game and exited 0. So that import happens here,
    once, and a Ctrl-C during it is raised when it is over."""
    with interrupts_held():
        pa = importlib.import_module("pyarrow")
        pq = importlib.import_module("pyarrow.parquet")
        pa.array([0])  # settles pyarrow's lazy pandas import now
    return pa, pq

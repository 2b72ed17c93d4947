"""Progress of long runs as people expect it: a tqdm bar (``tqdm.auto``: a widget in
notebooks, a line on a terminal), fed by the core's reports (`genial.simulation.ProgressFn`)."""

from __future__ import annotations

import sys
from typing import Any, TextIO

__all__ = ["ProgressBar"]


class ProgressBar:
    """A progress bar of games (or another ``unit``) that is also a ``progress(done, total)``
    callback.

    ``enabled``: ``None`` shows it only on a terminal (or in a notebook), ``True`` always,
    ``False`` never. Use it as a context manager, or call `close`.

    >>> with ProgressBar(10, "simulate", enabled=False) as bar:
    ...     bar(4, 10)
    ...     bar.done
    4
    """

    def __init__(
        self,
        total: int,
        label: str,
        *,
        enabled: bool | None = None,
        file: TextIO | None = None,
        unit: str = "games",
    ) -> None:
        # Imported here, not with genial: tqdm.auto brings asyncio, ssl and
        # importlib.metadata, about 35 ms of CPU that every `import genial` paid.
        from tqdm.auto import tqdm

        self.done = 0
        self._bar: Any = tqdm(
            total=total,
            desc=label,
            unit=" " + unit,
            file=file if file is not None else sys.stderr,
            disable=None if enabled is None else not enabled,
            dynamic_ncols=True,
            mininterval=0.2,
            smoothing=0.1,
        )

    def __call__(self, done: int, total: int | None = None) -> None:
        if total is not None and total != self._bar.total:
            self._bar.total = total
        if done > self.done:
            self._bar.update(done - self.done)
            self.done = done

    def note(self, text: str) -> None:
        """A short remark after the counts (``2 nodes``), shown with the next update."""
        self._bar.set_postfix_str(text, refresh=False)

    def close(self) -> None:
        self._bar.close()

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

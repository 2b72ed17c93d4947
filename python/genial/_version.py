"""The installed genial's version, read from its metadata on first use.

Below every other module: the package's ``__version__`` (``genial.__getattr__``) and each
module that writes the version (result metadata, the server's facts, an engine's ``id``
line, ``genial --version``) read it here, so none of them imports the package back, which
would close an import cycle through ``genial/__init__.py``.
"""

from __future__ import annotations

import functools

__all__ = ["version"]


@functools.cache
def version() -> str:
    # Imported when asked, not at import: importlib.metadata costs about 40 ms of CPU to
    # import, paid by every process that imports genial (each command-line run, each
    # engine) and needed by few of them.
    from importlib import metadata

    try:
        return metadata.version("genial-engine")
    except metadata.PackageNotFoundError:  # imported from a source tree that was never installed
        return "0+unknown"

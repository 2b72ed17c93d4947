"""Makes ``gymnasium.make("genial/Ingenious-v0")`` work after ``import genial``, without
importing gymnasium (which would slow every ``import genial`` down): the id is registered
now if gymnasium is already loaded, otherwise right after gymnasium's own import finishes."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

ENV_ID = "genial/Ingenious-v0"
_ENTRY_POINT = "genial.envs.gymnasium:IngeniousEnv"


def register_gymnasium_envs() -> None:
    """Registers genial's Gymnasium ids (idempotent)."""
    import gymnasium

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point=_ENTRY_POINT)


class _RegisteringLoader(importlib.abc.Loader):
    """Runs gymnasium's own loader, then registers and retires the finder."""

    def __init__(self, inner: importlib.abc.Loader, finder: _AfterGymnasiumImport) -> None:
        self.inner = inner
        self.finder = finder

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.inner.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.inner.exec_module(module)
        if self.finder in sys.meta_path:
            sys.meta_path.remove(self.finder)
        register_gymnasium_envs()


class _AfterGymnasiumImport(importlib.abc.MetaPathFinder):
    """Finds gymnasium through the other finders and wraps its loader. A mere look-up
    (``importlib.util.find_spec``) loads nothing, so the finder stays until the import."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _RegisteringLoader(spec.loader, self)
                return spec
        return None


def install() -> None:
    """Called by ``import genial``. Where the package is installed with its startup hook
    (``genial_gymnasium.pth``, which registers the id with no ``import genial``), that
    hook's finder already waits for gymnasium."""
    if sys.modules.get("gymnasium") is not None:
        register_gymnasium_envs()
    elif "genial_gymnasium" in sys.modules:
        return
    elif not any(isinstance(f, _AfterGymnasiumImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterGymnasiumImport())

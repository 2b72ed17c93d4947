"""Run at interpreter start by ``genial_gymnasium.pth`` (installed beside it): makes
``gymnasium.make("genial/Ingenious-v0")`` work with no ``import genial`` first. Gymnasium
1.x no longer loads environments from package entry points, so the id is registered right
after gymnasium's own import, by a finder that waits for it. Nothing of genial is imported
here, and nothing heavy (interpreter start stays fast): the id's entry point is a string,
imported by ``gymnasium.make``. ``import genial`` registers through this module too
(`genial.envs.registration`), so the id is written down once."""

import sys

# Not `typing.TYPE_CHECKING`: importing typing would slow every interpreter start. Type
# checkers read this name alike; the imports below are only for the (quoted) annotations.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.abc import Loader
    from importlib.machinery import ModuleSpec
    from types import ModuleType

ENV_ID = "genial/Ingenious-v0"
ENTRY_POINT = "genial.envs.gymnasium:IngeniousEnv"


def register() -> None:
    """Registers the id with gymnasium, if gymnasium is loaded (idempotent)."""
    gymnasium = sys.modules.get("gymnasium")
    if gymnasium is not None and ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point=ENTRY_POINT)


class _Loader:
    """Runs gymnasium's own loader, then registers and retires the finder."""

    def __init__(self, inner: "Loader", finder: "_Finder") -> None:
        self.inner, self.finder = inner, finder

    def create_module(self, spec: "ModuleSpec") -> "ModuleType | None":
        return self.inner.create_module(spec)

    def exec_module(self, module: "ModuleType") -> None:
        self.inner.exec_module(module)
        if self.finder in sys.meta_path:
            sys.meta_path.remove(self.finder)
        register()


class _Finder:
    """Finds gymnasium through the other finders and wraps its loader (a look-up alone,
    ``importlib.util.find_spec``, loads nothing: the finder stays until the import)."""

    busy: bool = False

    def find_spec(
        self, fullname: str, path: "Sequence[str] | None", target: "ModuleType | None" = None
    ) -> "ModuleSpec | None":
        if fullname != "gymnasium" or self.busy:
            return None
        self.busy = True
        try:
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(fullname, path, target)
                if spec is not None:
                    if spec.loader is not None:
                        spec.loader = _Loader(spec.loader, self)  # type: ignore[assignment]  # a loader by its methods
                    return spec
            return None
        finally:
            self.busy = False


def install() -> None:
    """Registers the id now if gymnasium is loaded, otherwise puts the finder that waits for it
    first in ``sys.meta_path`` (once)."""
    if "gymnasium" in sys.modules:
        register()
    elif not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())


install()

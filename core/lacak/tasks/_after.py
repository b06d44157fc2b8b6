"""Run a function right after a module's first import, without importing it ourselves.

``import lacak`` must not import Gymnasium or reasoning-gym (slow, and optional), yet
their registries should know lacak's envs and tasks as soon as they are imported.
:func:`when_imported` puts a finder first on :data:`sys.meta_path` that wraps the
module's loader: once the module has run, the finder leaves and the function runs.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["when_imported"]


class _After(importlib.abc.MetaPathFinder):
    def __init__(self, name: str, then: Callable[[], None]) -> None:
        self.name, self.then = name, then
        self.busy = threading.local()

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != self.name or getattr(self.busy, "on", False):
            return None
        self.busy.on = True
        try:  # (the spec the other finders give)
            spec = importlib.util.find_spec(fullname)
        finally:
            self.busy.on = False
        loader = spec.loader if spec is not None else None
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        exec_module = loader.exec_module

        def exec_then(module: Any) -> None:
            exec_module(module)
            if self in sys.meta_path:
                sys.meta_path.remove(self)
            self.then()

        loader.exec_module = exec_then  # type: ignore[method-assign]
        return spec


def when_imported(name: str, then: Callable[[], None]) -> None:
    """Call ``then()`` now if module ``name`` is imported, else right after its import."""
    if name in sys.modules:
        then()
    elif not any(isinstance(f, _After) and f.name == name for f in sys.meta_path):
        sys.meta_path.insert(0, _After(name, then))

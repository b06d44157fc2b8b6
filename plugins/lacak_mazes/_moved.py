"""The old import paths of the modules that moved into :mod:`lacak_mazes.generators`.

The generators' modules were at the root of the package until lacak 0.2. An
old path (``import lacak_mazes.wilson``, ``from lacak_mazes.huntkill import
hunt_and_kill``) still works until the next release, with a
:class:`DeprecationWarning` naming the new one, and leaves no file behind: the
finder below answers the old name with the module of the new one, so each file
is one module object under both names (the same classes, the same pickles).

For example, ``from lacak_mazes.kruskal import kruskal`` warns "lacak_mazes.kruskal is
deprecated: it moved to lacak_mazes.generators.kruskal (the old path goes in the next
release)", and ``kruskal.__module__`` is ``'lacak_mazes.generators.kruskal'``
(``tests/mazes/test_moved.py``).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings
from typing import Any

__all__ = ["MOVED", "install"]

#: Old module path -> the module it is now.
MOVED: dict[str, str] = {
    f"lacak_mazes.{name}": f"lacak_mazes.generators.{name}"
    for name in (
        "aldous_broder",
        "backtracker",
        "division",
        "eller",
        "growing_tree",
        "huntkill",
        "kruskal",
        "prim",
        "simple",
        "wilson",
        "_grid",
        "_walk",
    )
}


def _caller_level() -> int:
    """The ``stacklevel`` of the first frame outside this module and the import system
    (:func:`warnings.warn` skips the import system's frames itself, uncounted)."""
    frame = sys._getframe(1)
    level = 1
    while frame.f_back is not None and frame.f_code.co_filename == __file__:
        frame = frame.f_back
        while frame.f_back is not None and "importlib" in frame.f_code.co_filename:
            frame = frame.f_back
        level += 1
    return level


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old module path and loads it as the module of its new path."""

    def __init__(self) -> None:
        self._specs: dict[str, Any] = {}

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: Any) -> types.ModuleType:
        warnings.warn(
            f"{spec.name} is deprecated: it moved to {MOVED[spec.name]} "
            "(the old path goes in the next release)",
            DeprecationWarning,
            stacklevel=_caller_level(),
        )
        module = importlib.import_module(MOVED[spec.name])
        self._specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        # the import system has just set the old name's spec on the module: it keeps its own
        module.__spec__ = self._specs.pop(module.__spec__.name)  # type: ignore[union-attr]


_FINDER = _Finder()


def install() -> None:
    """Serve the old paths (once): the finder last on ``sys.meta_path``, asked only for
    a module no file holds."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.append(_FINDER)

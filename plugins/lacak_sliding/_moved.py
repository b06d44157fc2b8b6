"""The plugin's old module paths, for one release: the tiles and pattern-database modules
that moved into the sub-packages :mod:`lacak_sliding.tiles` and :mod:`lacak_sliding.pdb`.

An old path (``from lacak_sliding.tiles_idastar import idastar_tiles``, ``import
lacak_sliding.pdb_build``) still works until the next release, with a
:class:`DeprecationWarning` naming the new one. No file is left at the old path: the
finder below answers the old name with the module of the new one, so ``sys.modules``
holds one module object per file, under both names (the way :mod:`lacak` serves its
own old paths).

For example, ``from lacak_sliding.tiles_idastar import idastar_tiles`` warns
"lacak_sliding.tiles_idastar is deprecated: it moved to lacak_sliding.tiles.idastar (the
old path goes in the next release)", and ``idastar_tiles.__module__`` is
``'lacak_sliding.tiles.idastar'`` (``tests/sliding/test_moved.py``).
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
    "lacak_sliding.tiles_astar": "lacak_sliding.tiles.astar",
    "lacak_sliding.tiles_bfs": "lacak_sliding.tiles.bfs",
    "lacak_sliding.tiles_encoding": "lacak_sliding.tiles.encoding",
    "lacak_sliding.tiles_idastar": "lacak_sliding.tiles.idastar",
    "lacak_sliding.tiles_engines": "lacak_sliding.tiles.idastar.engines",
    "lacak_sliding.tiles_compiled": "lacak_sliding.tiles.idastar.compiled",
    "lacak_sliding.tiles_split": "lacak_sliding.tiles.idastar.split",
    "lacak_sliding.pdb_build": "lacak_sliding.pdb.build",
    "lacak_sliding.pdb_cache": "lacak_sliding.pdb.cache",
    "lacak_sliding.pdb_cli": "lacak_sliding.pdb.cli",
    "lacak_sliding.pdb_compiled": "lacak_sliding.pdb.compiled",
    "lacak_sliding.pdb_engines": "lacak_sliding.pdb.engines",
}


def _caller_level() -> int:
    """The ``stacklevel`` of the first frame outside this module and the import machinery,
    as :func:`warnings.warn` counts (it skips the import machinery's frames itself)."""
    frame = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_code.co_filename == __file__:
        frame = frame.f_back  # type: ignore[assignment]
        while frame is not None and "importlib" in frame.f_code.co_filename:
            frame = frame.f_back  # type: ignore[assignment]
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
    """Serve the old paths (once): the finder first on ``sys.meta_path``."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)

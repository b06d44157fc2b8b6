"""The old import paths of modules that moved into the core's folders, for one release.

lacak 0.2 keeps the kernel at the root of the package and gives every other concern a
folder of its own (:mod:`lacak.plugin`, :mod:`lacak.store`, :mod:`lacak.batch`,
:mod:`lacak.cli`: ``lacak.commands`` is :mod:`lacak.cli.solve`). A module's old path
(``import lacak.cache``, ``from lacak.registry import Registry``, the attribute
``lacak.cache``) still works until the next release, with a
:class:`DeprecationWarning` naming the new one, and leaves no file behind: the finder below
answers the old name with the module of the new one, so ``sys.modules`` holds one module
object per file, under both names.

>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     from lacak.cache import CacheFormat
>>> print(caught[0].message)
lacak.cache is deprecated: it moved to lacak.store.cache (the old path goes in the next release)
>>> CacheFormat.__module__
'lacak.store.cache'
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings
from collections.abc import Mapping
from typing import Any

__all__ = ["MOVED", "install", "moved_attribute", "moved_modules"]

#: Old module path -> the module it is now.
MOVED: dict[str, str] = {
    "lacak.batch_command": "lacak.cli.batch",
    "lacak.cache": "lacak.store.cache",
    "lacak.paths": "lacak.store.paths",
    "lacak.cluster": "lacak.batch.cluster",
    "lacak.commands": "lacak.cli.solve",
    "lacak.compiled": "lacak.store.compiled",
    "lacak.dataset": "lacak.batch.dataset",
    "lacak.dataset_files": "lacak.batch.files",
    "lacak.dictionary_files": "lacak.words",
    "lacak.hookspecs": "lacak.plugin.hookspecs",
    "lacak.isolation": "lacak.plugin.isolation",
    "lacak.plugins": "lacak.plugin.loader",
    "lacak.processes": "lacak.batch.processes",
    "lacak.registry": "lacak.plugin.registry",
}


def _caller_level(skip: int = 0) -> int:
    """The ``stacklevel`` that names the first frame outside this module (and ``skip``
    frames more), as :func:`warnings.warn` counts: it skips the import machinery's own."""
    frame = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_code.co_filename == __file__:
        frame = frame.f_back  # type: ignore[assignment]
        while frame is not None and "importlib" in frame.f_code.co_filename:
            frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level + skip


def _warn(old: str, new: str, skip: int = 0) -> None:
    warnings.warn(
        f"{old} is deprecated: it moved to {new} (the old path goes in the next release)",
        DeprecationWarning,
        stacklevel=_caller_level(skip),
    )


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old module path (of lacak or of a plugin that declared its moves) and
    loads it as the module of its new path."""

    def __init__(self) -> None:
        #: Old module path -> the module it is now, for every package that declared moves.
        self.moved: dict[str, str] = {}
        self._specs: dict[str, Any] = {}

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname not in self.moved:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: Any) -> types.ModuleType:
        _warn(spec.name, self.moved[spec.name])
        module = importlib.import_module(self.moved[spec.name])
        self._specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        # the import system has just set the old name's spec on the module: it keeps its own
        module.__spec__ = self._specs.pop(module.__spec__.name)  # type: ignore[union-attr]


class _Package(types.ModuleType):
    """The package ``lacak``: a moved module is never bound as its attribute under its old
    name (``import lacak.plugins`` must leave :func:`lacak.plugins` the function), so the
    old attribute keeps warning through :func:`moved_attribute`."""

    def __setattr__(self, name: str, value: Any) -> None:
        moved = f"lacak.{name}" in MOVED
        if moved and isinstance(value, types.ModuleType) and value.__name__ != f"lacak.{name}":
            return
        super().__setattr__(name, value)


def moved_attribute(name: str) -> types.ModuleType:
    """The module an old attribute of ``lacak`` (``lacak.cache``) names now, with a warning.

    :raises AttributeError: ``name`` is no moved module.
    """
    old = f"lacak.{name}"
    if old not in MOVED:
        raise AttributeError(f"module 'lacak' has no attribute {name!r}")
    _warn(old, MOVED[old], skip=1)  # (called by the package's __getattr__)
    return importlib.import_module(MOVED[old])


_FINDER = _Finder()


def moved_modules(moved: Mapping[str, str]) -> None:
    """Serve the old import paths of modules that moved, for a release: importing an old
    path (a key of ``moved``) gives the module of its new one (its value), with a
    :class:`DeprecationWarning` naming it, and ``sys.modules`` holds one module object
    per file, under both names. A plugin that moves its modules into sub-packages calls
    it once, from its package's ``__init__`` (lacak does the same for its own).

    :param moved: old module path -> new module path (the new one must import).
    """
    _FINDER.moved.update(moved)
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def install(package: types.ModuleType) -> None:
    """Serve lacak's own old paths (once), and guard ``package``'s attributes."""
    moved_modules(MOVED)
    package.__class__ = _Package

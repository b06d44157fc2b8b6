"""Finding, loading and isolating plugins.

Plugins are modules named by entry points in the ``lacak`` group; lacak's own
built-in plugins are found the same way. Each entry point is loaded on its
own: one that fails to import (with any exception, or by calling
``sys.exit()``), or whose hooks do not match the specifications, is recorded
as a :class:`PluginFailure`, warned about, and skipped. ``KeyboardInterrupt``
is never swallowed.

Environment variables:

``LACAK_LOAD_PLUGINS``
    comma-separated entry-point names: load only these (empty: load none).
``LACAK_DISABLE_PLUGINS``
    comma-separated entry-point names to skip (blocked in the plugin manager).
``LACAK_TRACE_PLUGINS``
    ``1`` prints every hook call and its result to stderr.
"""

from __future__ import annotations

import importlib.metadata
import os
import sys
import types
import warnings
from collections.abc import Mapping
from typing import Any

import attrs
import pluggy

from . import hookspecs
from .errors import PluginError

__all__ = [
    "ENTRY_POINT_GROUP",
    "PluginFailure",
    "PluginInfo",
    "PluginWarning",
    "get_plugin_manager",
]

#: The entry-point group plugins are registered in.
ENTRY_POINT_GROUP = "lacak"

#: What a plugin's code may raise that lacak reports and survives: any
#: ``Exception``, and ``SystemExit`` (a plugin calling ``sys.exit()`` must not
#: end every lacak command). ``KeyboardInterrupt`` still stops lacak.
PLUGIN_ERRORS: tuple[type[BaseException], ...] = (Exception, SystemExit)


class PluginWarning(UserWarning):
    """A plugin was skipped or one of its components was rejected."""


@attrs.frozen(kw_only=True)
class PluginFailure:
    """A plugin (or one of its hooks) that could not be used."""

    #: The plugin's name (its entry-point name).
    plugin: str
    #: ``"import"``, ``"validate"`` or the name of the hook that failed.
    stage: str
    #: The error, as one line.
    error: str
    #: The distribution that provides it, if known.
    distribution: str | None = None

    def __str__(self) -> str:
        where = "failed to import" if self.stage == "import" else f"failed in {self.stage}"
        return f"plugin {self.plugin!r} {where}: {self.error}"


@attrs.frozen(kw_only=True)
class PluginInfo:
    """A loaded plugin, as ``lacak plugins`` shows it."""

    #: Entry-point (or registration) name.
    name: str
    #: The plugin's module or object name.
    module: str
    #: The distribution that provides it, if known.
    distribution: str | None = None
    #: That distribution's version, if known.
    version: str | None = None
    #: The hooks it implements.
    hooks: tuple[str, ...] = ()
    #: What it registered, by hook: ``{"register_searchers": ["bfs", ...]}``.
    registered: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        data = attrs.asdict(self)
        data["hooks"] = list(self.hooks)
        data["registered"] = {k: list(v) for k, v in self.registered.items()}
        return data


def one_line(error: BaseException) -> str:
    """``Type: message`` on one line."""
    text = " ".join(str(error).split()) or repr(error)
    return f"{type(error).__name__}: {text}"


def warn(message: str) -> None:
    """Warn about a plugin problem (shown by the CLI as one line)."""
    warnings.warn(message, PluginWarning, stacklevel=3)


def _names(value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [n.strip() for n in value.split(",") if n.strip()]


def get_plugin_manager() -> pluggy.PluginManager:
    """A fresh plugin manager with lacak's hook specifications and nothing loaded."""
    pm = pluggy.PluginManager(ENTRY_POINT_GROUP)
    pm.add_hookspecs(hookspecs)
    return pm


@attrs.define(eq=False)
class PluginLoader:
    """Loads entry points into a plugin manager, one at a time, recording failures."""

    pm: pluggy.PluginManager
    environ: Mapping[str, str] = attrs.field(factory=lambda: os.environ)
    failures: list[PluginFailure] = attrs.field(factory=list)
    distributions: dict[str, tuple[str | None, str | None]] = attrs.field(factory=dict)

    def __attrs_post_init__(self) -> None:
        if self.environ.get("LACAK_TRACE_PLUGINS", "") not in ("", "0"):
            self.pm.trace.root.setwriter(sys.stderr.write)
            self.pm.enable_tracing()

    def load_entry_points(self, group: str = ENTRY_POINT_GROUP) -> None:
        """Load every entry point of ``group`` that the environment allows."""
        only = _names(self.environ.get("LACAK_LOAD_PLUGINS"))
        blocked = set(_names(self.environ.get("LACAK_DISABLE_PLUGINS")) or ())
        for name in sorted(blocked):
            self.pm.set_blocked(name)
        seen: set[str] = set()
        for ep in sorted(importlib.metadata.entry_points(group=group), key=lambda e: e.name):
            if ep.name in seen or (only is not None and ep.name not in only):
                continue
            seen.add(ep.name)
            if self.pm.is_blocked(ep.name):
                continue
            dist = getattr(ep, "dist", None)
            dist_name = dist.metadata["Name"] if dist is not None else None
            version = dist.version if dist is not None else None
            try:
                plugin = ep.load()
            except PLUGIN_ERRORS as error:  # a broken plugin must not take lacak down
                self._fail(ep.name, "import", error, dist_name)
                continue
            try:
                self.add(plugin, ep.name)
            except PluginError as error:
                self._fail(ep.name, "validate", error.__cause__ or error, dist_name)
                continue
            self.distributions[ep.name] = (dist_name, version)

    def add(self, plugin: object, name: str) -> None:
        """Register ``plugin`` under ``name`` and validate its hooks.

        :raises PluginError: the hooks do not match lacak's specifications (a
            misspelled hook, a wrong argument name); the plugin is unregistered.
        """
        try:
            self.pm.register(plugin, name=name)
            self.pm.check_pending()
        except PLUGIN_ERRORS as error:  # a validation error, or the plugin's own attributes
            if self.pm.get_plugin(name) is plugin:
                self.pm.unregister(plugin, name=name)
            raise PluginError(f"plugin {name!r} is invalid: {one_line(error)}") from error

    def _fail(self, name: str, stage: str, error: BaseException, dist: str | None) -> None:
        failure = PluginFailure(plugin=name, stage=stage, error=one_line(error), distribution=dist)
        self.failures.append(failure)
        warn(f"{failure}; skipped")


def module_name(plugin: object) -> str:
    """The dotted name of a plugin module, or the class name of a plugin object."""
    if isinstance(plugin, types.ModuleType):
        return plugin.__name__
    return getattr(plugin, "__module__", "") + "." + type(plugin).__qualname__

"""Finding, loading and isolating plugins.

Plugins are modules named by entry points in the ``lacak`` group; lacak's own
built-in plugins are found the same way. Each entry point is loaded on its
own: one that fails to import (with any exception, or by calling
``sys.exit()``), or whose hooks do not match the specifications, is recorded
as a :class:`PluginFailure`, warned about, and skipped. ``KeyboardInterrupt``
is never swallowed.

**Built-in plugins** are the entry points of lacak's own distribution
(``lacak``): that rule needs no list to keep up to date, and no other
distribution can meet it by accident. Built-ins are loaded first and keep
their entry-point names. A third-party entry point whose name is a built-in's,
or that two third-party distributions share, is loaded as
``DISTRIBUTION:NAME`` (``lacak-foo:search``), never in place of another.

Every import of a third-party plugin, and later every call of one of its hooks
(see :mod:`lacak.plugin.registry`), runs with ``sys.stdout`` sent to ``sys.stderr``
and within a time limit (:mod:`lacak.plugin.isolation`).

Environment variables (plugin names are as ``lacak plugins`` shows them):

``LACAK_LOAD_PLUGINS``
    comma-separated plugin names: load only these (empty: load none).
``LACAK_DISABLE_PLUGINS``
    comma-separated plugin names to skip (blocked in the plugin manager).
``LACAK_TRACE_PLUGINS``
    ``1`` prints every hook call and its result to stderr.
``LACAK_PLUGIN_TIMEOUT``
    seconds a third-party plugin's import, or one of its hooks, may take
    (default 5; ``0`` waits for ever).
``LACAK_OVERRIDE``
    comma-separated ``COMPONENT`` or ``COMPONENT=PLUGIN`` entries: the built-in
    components a third-party plugin may replace (see :class:`OverrideRule`).
"""

from __future__ import annotations

import collections
import importlib.metadata
import math
import os
import re
import sys
import types
import warnings
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import attrs
import pluggy

from ..errors import InvalidOptionError, PluginError
from . import hookspecs
from .isolation import (
    PLUGIN_ERRORS,
    PluginTimeout,
    call_with_timeout,
    note_plugin_module,
    one_line,
    stdout_to_stderr,
)

__all__ = [
    "BUILTIN_DISTRIBUTION",
    "DEFAULT_PLUGIN_TIMEOUT",
    "ENTRY_POINT_GROUP",
    "OverrideRule",
    "PluginFailure",
    "PluginInfo",
    "PluginOverride",
    "PluginWarning",
    "get_plugin_manager",
]

T = TypeVar("T")

#: The entry-point group plugins are registered in.
ENTRY_POINT_GROUP = "lacak"

#: The distribution whose entry points are the built-in plugins: lacak's own.
BUILTIN_DISTRIBUTION = "lacak"

#: Seconds a third-party plugin's import, or one call of one of its hooks, may
#: take before it is reported and skipped (``LACAK_PLUGIN_TIMEOUT`` changes it).
DEFAULT_PLUGIN_TIMEOUT = 5.0

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
    #: Whether it is one of lacak's built-in plugins (its entry point is lacak's own).
    builtin: bool = False
    #: The name of its entry point, when it was loaded from one; it differs from
    #: ``name`` when that name is taken (``name`` is then ``DISTRIBUTION:ENTRY_POINT``).
    entry_point: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        data = attrs.asdict(self)
        data["hooks"] = list(self.hooks)
        data["registered"] = {k: list(v) for k, v in self.registered.items()}
        return data


@attrs.frozen(kw_only=True)
class PluginOverride:
    """A built-in component replaced by a third-party one, as ``LACAK_OVERRIDE`` asked."""

    #: The third-party plugin whose component is used.
    plugin: str
    #: The hook it registered the component in (``"register_searchers"``).
    hook: str
    #: The component: ``name``, or ``kind/name`` for heuristics and generators.
    component: str
    #: The built-in plugin whose component it replaces.
    builtin: str

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return attrs.asdict(self)


@attrs.frozen
class OverrideRule:
    """One entry of ``LACAK_OVERRIDE``: which built-in component may be replaced, by whom.

    ``bfs`` lets any third-party plugin that registers ``bfs`` replace the
    built-in one; ``bfs=my-plugin`` only the plugin named ``my-plugin`` (as
    ``lacak plugins`` shows it). Heuristics and generators are named
    ``kind/name`` (``maze/wilson``); a bare ``wilson`` matches every kind.

    >>> OverrideRule.parse_all("bfs, maze/wilson=fast-mazes")
    [OverrideRule(component='bfs', plugin=None), OverrideRule(component='maze/wilson', plugin='fast-mazes')]
    """

    #: ``name`` or ``kind/name``.
    component: str
    #: The plugin allowed to replace it, or ``None`` for any.
    plugin: str | None = None

    @classmethod
    def parse_all(cls, text: str) -> list[OverrideRule]:
        """The rules of a ``LACAK_OVERRIDE`` value (comma-separated entries).

        :raises InvalidOptionError: an entry with no component or an empty plugin.
        """
        rules = []
        for entry in text.split(","):
            if not entry.strip():
                continue
            component, equals, plugin = (part.strip() for part in entry.rpartition("="))
            if not equals:
                component, plugin = plugin, ""
            if not component or (equals and not plugin):
                raise InvalidOptionError(
                    f"LACAK_OVERRIDE entries are COMPONENT or COMPONENT=PLUGIN, got {entry.strip()!r}"
                )
            rules.append(cls(component, plugin or None))
        return rules

    def matches(self, component: str, plugin: str) -> bool:
        """Does this rule let ``plugin`` replace the built-in ``component`` (``name`` or ``kind/name``)?"""
        names = {component, component.rpartition("/")[2]}
        return self.component in names and self.plugin in (None, plugin)


def warn(message: str) -> None:
    """Warn about a plugin problem (shown by the CLI as one line)."""
    warnings.warn(message, PluginWarning, stacklevel=3)


def _names(value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [n.strip() for n in value.split(",") if n.strip()]


def _timeout(value: str | None) -> float | None:
    """Seconds from ``LACAK_PLUGIN_TIMEOUT``; ``None`` (no limit) for ``0``."""
    if value is None or not value.strip():
        return DEFAULT_PLUGIN_TIMEOUT
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds < 0:
        raise InvalidOptionError(
            f"LACAK_PLUGIN_TIMEOUT must be a number of seconds (0: no limit), got {value!r}"
        )
    return seconds or None


def canonical_name(distribution: str) -> str:
    """A distribution name as packaging compares them: ``Lacak_Foo`` -> ``lacak-foo``."""
    return re.sub(r"[-_.]+", "-", distribution).lower()


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
    #: The names of the built-in plugins that are loaded.
    builtins: set[str] = attrs.field(factory=set)
    #: Plugin name -> the name of the entry point it was loaded from.
    entry_points: dict[str, str] = attrs.field(factory=dict)
    #: Plugins one of whose calls did not return in time: none of their hooks is called again.
    hung: set[str] = attrs.field(factory=set)
    #: Seconds a third-party import or hook call may take (``None``: no limit).
    timeout: float | None = attrs.field(init=False)
    #: The rules of ``LACAK_OVERRIDE``.
    overrides: list[OverrideRule] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self.timeout = _timeout(self.environ.get("LACAK_PLUGIN_TIMEOUT"))
        self.overrides = OverrideRule.parse_all(self.environ.get("LACAK_OVERRIDE", ""))
        if self.environ.get("LACAK_TRACE_PLUGINS", "") not in ("", "0"):
            self.pm.trace.root.setwriter(sys.stderr.write)
            self.pm.enable_tracing()

    def load_entry_points(self, group: str = ENTRY_POINT_GROUP) -> None:
        """Load every entry point of ``group`` that the environment allows.

        The built-in plugins come first, then the others sorted by name; a
        name that is taken (by a built-in, or by several third-party entry
        points) becomes ``DISTRIBUTION:NAME``. ``LACAK_LOAD_PLUGINS`` and
        ``LACAK_DISABLE_PLUGINS`` match these final names.
        """
        only = _names(self.environ.get("LACAK_LOAD_PLUGINS"))
        blocked = set(_names(self.environ.get("LACAK_DISABLE_PLUGINS")) or ())
        for name in sorted(blocked):
            self.pm.set_blocked(name)
        for name, ep, dist_name, version, builtin in _named_entry_points(group):
            if (only is not None and name not in only) or self.pm.is_blocked(name):
                continue
            if self.pm.has_plugin(name):  # the same name twice in one distribution
                error = PluginError(f"another entry point is already loaded as {name!r}")
                self._fail(name, "import", error, dist_name)
                continue
            try:
                with stdout_to_stderr():
                    timeout = None if builtin else self.timeout
                    plugin = call_with_timeout(
                        ep.load, timeout, f"import of {ep.value!r}", plugin=name
                    )
            except PLUGIN_ERRORS as error:  # a broken plugin must not take lacak down
                self._fail(name, "import", error, dist_name)
                continue
            try:
                self.add(plugin, name, builtin=builtin)
            except PluginError as error:
                self._fail(name, "validate", error.__cause__ or error, dist_name)
                continue
            self.distributions[name] = (dist_name, version)
            self.entry_points[name] = ep.name

    def add(self, plugin: object, name: str, *, builtin: bool = False) -> None:
        """Register ``plugin`` under ``name`` and validate its hooks.

        :param builtin: it is one of lacak's built-in plugins.
        :raises PluginError: the hooks do not match lacak's specifications (a
            misspelled hook, a wrong argument name), or the name is taken; the
            plugin is unregistered.
        """
        try:
            with stdout_to_stderr():
                self.pm.register(plugin, name=name)
                self.pm.check_pending()
        except PLUGIN_ERRORS as error:  # a validation error, or the plugin's own attributes
            if self.pm.get_plugin(name) is plugin:
                self.pm.unregister(plugin, name=name)
            raise PluginError(f"plugin {name!r} is invalid: {one_line(error)}") from error
        if builtin:
            self.builtins.add(name)
        elif isinstance(plugin, types.ModuleType):  # its code on a stack is named as its own
            note_plugin_module(plugin.__name__, name)  # (lacak.plugin.isolation.culprit)

    def call(self, plugin: str, what: str, function: Callable[[], T]) -> T:
        """Run ``function`` (one of ``plugin``'s hooks), isolated.

        Its output to ``sys.stdout`` goes to ``sys.stderr``; a third-party
        plugin's call is given :attr:`timeout` seconds, after which the plugin
        is marked :attr:`hung`.

        :param what: the hook, for messages.
        :raises PluginTimeout: it did not return in time.
        """
        timeout = None if plugin in self.builtins else self.timeout
        with stdout_to_stderr():
            try:
                return call_with_timeout(function, timeout, what, plugin=plugin)
            except PluginTimeout:
                self.hung.add(plugin)
                raise

    def _fail(self, name: str, stage: str, error: BaseException, dist: str | None) -> None:
        failure = PluginFailure(plugin=name, stage=stage, error=one_line(error), distribution=dist)
        self.failures.append(failure)
        hint = " (LACAK_PLUGIN_TIMEOUT sets the wait)" if isinstance(error, PluginTimeout) else ""
        warn(f"{failure}; skipped{hint}")


def _named_entry_points(
    group: str,
) -> list[tuple[str, importlib.metadata.EntryPoint, str | None, str | None, bool]]:
    """``(name, entry point, distribution, version, builtin)`` in loading order.

    Built-ins first, by name, then the others by name; a third-party entry
    point whose name a built-in has, or that several distributions use, is
    named ``DISTRIBUTION:NAME``.
    """
    found = []
    for ep in importlib.metadata.entry_points(group=group):
        dist = getattr(ep, "dist", None)
        dist_name = dist.metadata["Name"] if dist is not None else None
        version = dist.version if dist is not None else None
        builtin = dist_name is not None and canonical_name(dist_name) == BUILTIN_DISTRIBUTION
        found.append((ep, dist_name, version, builtin))
    builtin_names = {ep.name for ep, _dist, _version, builtin in found if builtin}
    others = collections.Counter(ep.name for ep, _dist, _version, builtin in found if not builtin)
    named = []
    for ep, dist_name, version, builtin in found:
        name = ep.name
        if not builtin and (name in builtin_names or others[name] > 1):
            name = f"{dist_name or ep.value}:{ep.name}"
        named.append((name, ep, dist_name, version, builtin))
    return sorted(named, key=lambda entry: (not entry[4], entry[0]))


def module_name(plugin: object) -> str:
    """The dotted name of a plugin module, or the class name of a plugin object."""
    if isinstance(plugin, types.ModuleType):
        return plugin.__name__
    return getattr(plugin, "__module__", "") + "." + type(plugin).__qualname__

"""Catalogues of registered components, built from the plugins' hooks.

The :class:`Registry` owns a pluggy plugin manager. The first time a kind of
component is asked for, it calls each plugin's ``register_*`` hook on its own
with a fresh ``register`` callable, so that a plugin that raises, or that
registers a name another plugin already has, is reported and skipped while
the other plugins' components stay available.

The built-in plugins' hooks are called first, whatever the order of the
entry points, so their names are theirs: a third-party plugin that registers
one is refused and reported (only ``LACAK_OVERRIDE`` lets it replace the
built-in one). A third-party plugin's hooks run with ``sys.stdout`` sent to
``sys.stderr`` and a time limit (``LACAK_PLUGIN_TIMEOUT``); one that does not
return in time is reported, and none of its hooks is called again. Each function
of a component a third-party plugin registers is called through a
:class:`lacak.plugin.isolation.PluginCall` (what it prints goes to stderr, what it
raises names the plugin, a heuristic's estimates are checked); the built-ins'
are called as they are.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import os
import reprlib
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar

import attrs
import pluggy

from .. import results as _results
from ..errors import (
    DuplicateComponentError,
    InvalidOptionError,
    LacakError,
    PluginError,
    UnknownComponentError,
)
from ..interfaces import DictionarySource, Generator, Heuristic, PuzzleType, Searcher
from ..output import plural
from .isolation.calls import Estimate, PluginCall, Prepare
from .isolation.watch import PluginTimeout
from .loader import (
    PLUGIN_ERRORS,
    PluginFailure,
    PluginInfo,
    PluginLoader,
    PluginOverride,
    get_plugin_manager,
    module_name,
    one_line,
    warn,
)

__all__ = ["Catalogue", "Registry", "default_registry", "reset_default_registry", "using"]

T = TypeVar("T")

#: hook name -> (component class, what it is called in messages, is it grouped by kind)
HOOKS: dict[str, tuple[type, str, bool]] = {
    "register_puzzles": (PuzzleType, "puzzle kind", False),
    "register_searchers": (Searcher, "strategy", False),
    "register_heuristics": (Heuristic, "heuristic", True),
    "register_generators": (Generator, "generator", True),
    "register_dictionaries": (DictionarySource, "dictionary", False),
}


@attrs.define(eq=False)
class Catalogue(Mapping[str, T], Generic[T]):
    """Components of one sort, by name, with the plugin that registered each.

    It is a read-only mapping; a missing name raises
    :class:`~lacak.UnknownComponentError` listing close matches.
    """

    what: str
    _items: dict[str, T] = attrs.field(factory=dict)
    _owners: dict[str, str] = attrs.field(factory=dict)

    def __getitem__(self, name: str) -> T:
        # names are strings: anything else (even unhashable) is simply not there
        if isinstance(name, str) and name in self._items:
            return self._items[name]
        raise UnknownComponentError(self.what, name, self._items)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._items

    def get(self, name: str, default: Any = None) -> Any:
        """The component called ``name``, or ``default`` (no close matches looked for:
        a miss costs nothing)."""
        return self._items.get(name, default) if isinstance(name, str) else default

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        """``<Catalogue (strategy), 15 entries: astar, astar-tiles, ...>``: short, for the REPL."""
        names = ", ".join(sorted(self._items))
        if len(names) > 60:
            names = names[:57].rsplit(", ", 1)[0] + ", ..."
        count = plural(len(self._items), "entry", "entries")
        return f"<Catalogue ({self.what}), {count}: {names}>"

    def __str__(self) -> str:
        """A readable table: one line per component, its plugin and its description.

        >>> import lacak
        >>> print(lacak.Catalogue("strategy"))
        no strategy is registered
        """
        if not self._items:
            return f"no {self.what} is registered"
        rows = [
            (name, self._owners[name], _summary(item)) for name, item in sorted(self._items.items())
        ]
        width = max(len(name) for name, _, _ in rows)
        plugin_width = max(len(plugin) for _, plugin, _ in rows)
        lines = [f"{'name'.ljust(width)}  {'plugin'.ljust(plugin_width)}  description"]
        for name, plugin, text in rows:
            lines.append(f"{name.ljust(width)}  {plugin.ljust(plugin_width)}  {text}".rstrip())
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """The same table in a notebook."""
        from html import escape  # (only in a notebook: html.entities is large)

        cells = "".join(
            f"<tr><td><b>{escape(name)}</b></td><td>{escape(self._owners[name])}</td>"
            f"<td>{escape(_summary(item))}</td></tr>"
            for name, item in sorted(self._items.items())
        )
        return (
            f"<table><caption>{escape(self.what)} ({len(self._items)})</caption>"
            f"<tr><th>name</th><th>plugin</th><th>description</th></tr>{cells}</table>"
        )

    def owner(self, name: str) -> str:
        """The plugin that registered ``name``."""
        self[name]  # raises UnknownComponentError for a missing name
        return self._owners[name]

    def _add(self, name: str, item: T, plugin: str, *, replace: bool = False) -> None:
        if name in self._items and not replace:
            raise DuplicateComponentError(
                f"{self.what} {name!r} is registered by both plugin "
                f"{self._owners[name]!r} and plugin {plugin!r}"
            )
        self._items[name] = item
        self._owners[name] = plugin


def _summary(component: Any) -> str:
    """A component's one-line description, with its facts (optimal, admissible, ...)."""
    facts = []
    for flag in ("optimal", "admissible"):
        if getattr(component, flag, False):
            facts.append(flag)
    text = str(getattr(component, "description", "") or "")
    return (f"[{', '.join(facts)}] " if facts else "") + " ".join(text.split())


#: The function each component must carry, by component class.
_FUNCTIONS: dict[type, str] = {
    PuzzleType: "parse",
    Searcher: "search",
    Heuristic: "estimate",
    Generator: "make",
    DictionarySource: "load",
}


def _component_problem(component: Any, what: str) -> str | None:
    """Why ``component`` cannot be catalogued (a bad name or kind, no function), or ``None``."""
    fields = attrs.fields_dict(type(component))
    for field in ("kind", "name"):
        if field not in fields:
            continue
        value = getattr(component, field)
        if not isinstance(value, str) or not value or value != value.strip():
            return (
                f"a {what}'s {field} must be a non-empty string without surrounding spaces, "
                f"got {reprlib.repr(value)}"
            )
    name: str = component.name
    for cls, function in _FUNCTIONS.items():
        if isinstance(component, cls) and not callable(getattr(component, function)):
            return f"{what} {name!r}: its {function} is not callable"
    return None


def _key(component: Any, grouped: bool) -> tuple[str, str]:
    return (component.kind if grouped else "", component.name)


def _plural(what: str) -> str:
    """``strategies``, ``dictionaries``, ``puzzle kinds``."""
    return what[:-1] + "ies" if what.endswith("y") else what + "s"


#: The functions of a component that lacak calls, by class: those of a third-party
#: plugin's components are called through :class:`lacak.plugin.isolation.PluginCall` (messages
#: name the component, and the function when it is not the component's own work).
_CALLED: dict[type, dict[str, type[PluginCall] | None]] = {
    PuzzleType: {"parse": PluginCall, "validate": None, "choose": None, "render": None,
                 "extras": None, "advice": None, "to_text": None},
    Searcher: {"search": PluginCall},
    Heuristic: {"estimate": Estimate, "prepare": Prepare, "parse": None, "admissible_for": None,
                "consistent_for": None},
    Generator: {"make": PluginCall},
    DictionarySource: {"load": PluginCall},
}  # fmt: skip

#: The functions of a kind's :class:`~lacak.interfaces.BatchKind`.
_BATCH_CALLED = ("plan", "prepare", "puzzle", "instance", "record")


def _isolated(component: Any, plugin: str, what: str) -> Any:
    """``component`` (a third-party plugin's) with each of its functions called through a
    :class:`~lacak.plugin.isolation.PluginCall`: its output to ``sys.stdout`` kept off lacak's,
    its errors naming ``plugin`` and the component (``what``: ``"heuristic
    'sliding/x'"``), a heuristic's estimates checked. Done once, when it is catalogued;
    lacak's own components are called as they are."""

    def wrap(function: Any, label: str, call: type[PluginCall] = PluginCall) -> Any:
        if function is None or isinstance(function, PluginCall):
            return function
        return call(function, plugin, label)

    functions = next((f for cls, f in _CALLED.items() if isinstance(component, cls)), {})
    changes = {
        name: wrap(getattr(component, name), what if call else f"{what} ({name})",
                   call or PluginCall)
        for name, call in functions.items()
    }  # fmt: skip
    batch = getattr(component, "batch", None) if isinstance(component, PuzzleType) else None
    if batch is not None:
        changes["batch"] = attrs.evolve(batch, **{
            name: wrap(getattr(batch, name), f"{what} (batch {name})") for name in _BATCH_CALLED
        })  # fmt: skip
    return attrs.evolve(component, **changes)


@attrs.define(eq=False)
class Registry:
    """All plugins and what they registered.

    :param entry_points: load the plugins named by entry points (the normal
        case); ``False`` gives an empty registry for tests, to which plugins are
        added with :meth:`add_plugin`.
    :param environ: where ``LACAK_*`` variables are read (default ``os.environ``).
    """

    entry_points: bool = True
    environ: Mapping[str, str] | None = None
    pm: pluggy.PluginManager = attrs.field(factory=get_plugin_manager, init=False)
    _loader: PluginLoader = attrs.field(init=False)
    _loaded: bool = attrs.field(default=False, init=False)
    _ready: bool = attrs.field(default=False, init=False)
    _catalogues: dict[str, dict[str, Catalogue[Any]]] = attrs.field(factory=dict, init=False)
    #: Changes whenever what the plugins registered may have changed (a plugin added or
    #: removed, the entry points loaded): a caller that keeps a component it looked up
    #: (a batch, once a process) looks it up again when this differs.
    generation: int = attrs.field(default=0, init=False)
    _registered: dict[str, dict[str, list[str]]] = attrs.field(factory=dict, init=False)
    _hook_failures: list[PluginFailure] = attrs.field(factory=list, init=False)
    _overrides: list[PluginOverride] = attrs.field(factory=list, init=False)
    #: name -> (the loaded dictionary, its file's stamp when loaded, see _file_stamp)
    _dictionary_cache: dict[str, tuple[Any, Any]] = attrs.field(factory=dict, init=False)
    _lock: threading.RLock = attrs.field(factory=threading.RLock, init=False)

    def __attrs_post_init__(self) -> None:
        self._loader = PluginLoader(
            self.pm, self.environ if self.environ is not None else os.environ
        )

    # -- plugins ---------------------------------------------------------------

    def load_plugins(self) -> Registry:
        """Load the entry-point plugins once; later calls do nothing."""
        if self._ready:  # (read without the lock: set once, under it, when all is loaded)
            return self
        with self._lock:
            if not self._loaded:
                self._loaded = True  # (before loading: a plugin's hook may call back here)
                if self.entry_points:
                    self._loader.load_entry_points()
                    self._invalidate()
                self._ready = True
        return self

    def add_plugin(self, plugin: object, name: str | None = None, *, builtin: bool = False) -> str:
        """Register a plugin module or object by hand (tests, notebooks).

        :param builtin: treat it as a built-in plugin (as lacak's own tests
            do): its hooks are called first and are not timed, and its
            component names cannot be taken by the other plugins.
        :returns: the name it is registered under.
        :raises PluginError: its hooks do not match the specifications, or
            the name is taken.
        """
        self.load_plugins()
        name = name or module_name(plugin)
        self._loader.add(plugin, name, builtin=builtin)
        self._invalidate()
        return name

    def remove_plugin(self, name: str) -> None:
        """Unregister the plugin named ``name``."""
        self.pm.unregister(name=name)
        self._loader.builtins.discard(name)
        self._invalidate()

    def _invalidate(self) -> None:
        self.generation += 1
        self._catalogues.clear()
        self._registered.clear()
        self._hook_failures.clear()
        self._overrides.clear()
        self._dictionary_cache.clear()

    def _catalogue_all(self) -> None:
        self.load_plugins()
        for hook in HOOKS:
            self._catalogue_group(hook)

    def is_builtin(self, plugin: str) -> bool:
        """Is ``plugin`` one of lacak's built-in plugins?"""
        self.load_plugins()
        return plugin in self._loader.builtins

    @property
    def failures(self) -> list[PluginFailure]:
        """Plugins that failed to load, and hooks that failed to register."""
        self._catalogue_all()
        return [*self._loader.failures, *self._hook_failures]

    @property
    def overrides(self) -> list[PluginOverride]:
        """Built-in components replaced by third-party ones, as ``LACAK_OVERRIDE`` asked."""
        self._catalogue_all()
        return list(self._overrides)

    def unused_overrides(self) -> list[str]:
        """The entries of ``LACAK_OVERRIDE`` that replaced nothing (a typo, a missing plugin)."""
        self._catalogue_all()
        used = {
            rule
            for rule in self._loader.overrides
            for done in self._overrides
            if rule.matches(done.component, done.plugin)
        }
        return [
            rule.component + (f"={rule.plugin}" if rule.plugin else "")
            for rule in self._loader.overrides
            if rule not in used
        ]

    def plugins(self) -> list[PluginInfo]:
        """Every loaded plugin, with what it registered."""
        self._catalogue_all()
        infos = []
        for name, plugin in sorted(self.pm.list_name_plugin(), key=lambda p: p[0]):
            if plugin is None:
                continue
            dist, version = self._loader.distributions.get(name, (None, None))
            hooks = tuple(sorted(h.name for h in self.pm.get_hookcallers(plugin) or ()))
            infos.append(
                PluginInfo(
                    name=name,
                    module=module_name(plugin),
                    distribution=dist,
                    version=version,
                    hooks=hooks,
                    registered={
                        hook: tuple(items)
                        for hook, items in self._registered.get(name, {}).items()
                        if items
                    },
                    builtin=name in self._loader.builtins,
                    entry_point=self._loader.entry_points.get(name),
                )
            )
        return infos

    def _impls(self, hook: str) -> list[Any]:
        """``hook``'s implementations in calling order: the built-ins' first, then the others,
        each in the order the plugins were loaded (``tryfirst`` and ``trylast`` do not count).

        Plugins that hung in an earlier call are left out.
        """
        impls = getattr(self.pm.hook, hook).get_hookimpls()
        builtins = self._loader.builtins
        loaded = {name: index for index, (name, _plugin) in enumerate(self.pm.list_name_plugin())}
        return sorted(
            (impl for impl in impls if impl.plugin_name not in self._loader.hung),
            key=lambda impl: (impl.plugin_name not in builtins, loaded[impl.plugin_name]),
        )

    # -- catalogues --------------------------------------------------------------

    def _catalogue_group(self, hook: str) -> dict[str, Catalogue[Any]]:
        with self._lock:
            if hook in self._catalogues:
                return self._catalogues[hook]
            self.load_plugins()
            groups: dict[str, Catalogue[Any]] = {}
            self._catalogues[hook] = groups
            for impl in self._impls(hook):
                self._catalogue_plugin(hook, impl, groups)
            return groups

    def _catalogue_plugin(self, hook: str, impl: Any, groups: dict[str, Catalogue[Any]]) -> None:
        """Call ``impl`` (one plugin's ``hook``) and add what it registers to ``groups``."""
        cls, what, grouped = HOOKS[hook]
        plugin_name = impl.plugin_name
        staged: list[Any] = []

        def register(component: Any) -> None:
            if not isinstance(component, cls):
                raise PluginError(
                    f"{hook} expects {cls.__name__} objects, got {type(component).__name__}"
                )
            staged.append(component)

        others = [p for p in self.pm.get_plugins() if p is not impl.plugin]
        caller = self.pm.subset_hook_caller(hook, remove_plugins=others)
        try:
            self._loader.call(plugin_name, hook, functools.partial(caller, register=register))
        except PluginTimeout as error:  # what it registers later is never looked at
            self._hook_failed(
                plugin_name,
                hook,
                error,
                "it is skipped, with its other hooks (LACAK_PLUGIN_TIMEOUT sets the wait)",
            )
            return
        except PLUGIN_ERRORS as error:  # a plugin's bug must not break the others
            self._hook_failed(plugin_name, hook, error, f"its {_plural(what)} are skipped")
            return
        builtins = self._loader.builtins
        for component in staged:
            problem = _component_problem(component, what)
            if problem is not None:
                self._hook_failed(plugin_name, hook, PluginError(problem), "it is skipped")
                continue
            kind, name = _key(component, grouped)
            shown = f"{kind}/{name}" if grouped else name
            if plugin_name not in builtins:
                component = _isolated(component, plugin_name, f"{what} {shown!r}")
            catalogue = groups.setdefault(
                kind, Catalogue(f"{what} for {kind}" if grouped else what)
            )
            holder = catalogue._owners.get(name)
            replace = False
            if holder is not None and holder in builtins and plugin_name not in builtins:
                if not any(rule.matches(shown, plugin_name) for rule in self._loader.overrides):
                    refused = DuplicateComponentError(
                        f"{what} {shown!r} belongs to built-in plugin {holder!r}; plugin "
                        f"{plugin_name!r} cannot replace it (unless LACAK_OVERRIDE="
                        f"{shown}={plugin_name} is set)"
                    )
                    self._hook_failed(plugin_name, hook, refused, "the built-in one is kept")
                    continue
                replace = True
                self._registered[holder][hook].remove(shown)
                self._overrides.append(
                    PluginOverride(plugin=plugin_name, hook=hook, component=shown, builtin=holder)
                )
            try:
                catalogue._add(name, component, plugin_name, replace=replace)
            except DuplicateComponentError as error:
                # only the clashing component is skipped; the first one stays
                self._hook_failed(plugin_name, hook, error, "the second one is skipped")
                continue
            self._registered.setdefault(plugin_name, {}).setdefault(hook, []).append(shown)

    def _hook_failed(self, plugin: str, hook: str, error: BaseException, consequence: str) -> None:
        failure = self._failure(plugin, hook, error)
        self._hook_failures.append(failure)
        warn(f"{failure}; {consequence}")

    def _failure(self, plugin: str, stage: str, error: BaseException) -> PluginFailure:
        dist, _version = self._loader.distributions.get(plugin, (None, None))
        return PluginFailure(plugin=plugin, stage=stage, error=one_line(error), distribution=dist)

    def _kind_catalogue(self, hook: str, kind: str) -> Catalogue[Any]:
        _cls, what, _grouped = HOOKS[hook]
        groups = self._catalogue_group(hook)
        if not isinstance(kind, str) or kind not in groups:
            kinds = sorted(groups) or sorted(self.puzzle_types())
            raise UnknownComponentError(f"puzzle kind (for {what}s)", kind, kinds)
        return groups[kind]

    def puzzle_types(self) -> Catalogue[PuzzleType]:
        """Puzzle kinds by name."""
        return self._catalogue_group("register_puzzles").get("") or Catalogue("puzzle kind")

    def searchers(self) -> Catalogue[Searcher]:
        """Search strategies by name."""
        return self._catalogue_group("register_searchers").get("") or Catalogue("strategy")

    def heuristics(self, kind: str) -> Catalogue[Heuristic]:
        """Heuristics for puzzles of ``kind``, by name."""
        return self._kind_catalogue("register_heuristics", kind)

    def generators(self, kind: str) -> Catalogue[Generator]:
        """Generators of ``kind`` instances, by name."""
        return self._kind_catalogue("register_generators", kind)

    def kinds(self, hook: str) -> list[str]:
        """The puzzle kinds that have components for ``hook`` (e.g. ``"register_generators"``)."""
        return sorted(self._catalogue_group(hook))

    def dictionaries(self) -> Catalogue[DictionarySource]:
        """Dictionary sources by name (not loaded)."""
        return self._catalogue_group("register_dictionaries").get("") or Catalogue("dictionary")

    # -- lookups with parsing ----------------------------------------------------

    def heuristic(self, kind: str, spec: str) -> Heuristic:
        """The heuristic named by ``spec`` (``"name"`` or ``"name:options"``), configured."""
        if not isinstance(spec, str):
            raise InvalidOptionError(f"a heuristic spec is a string, not {type(spec).__name__}")
        name, _, options = spec.partition(":")
        heuristic = self.heuristics(kind)[name.strip()]
        return heuristic.configure(options) if options or heuristic.options else heuristic

    def dictionary(self, name: str) -> Any:
        """Load (once) and return the :class:`~lacak.Dictionary` called ``name``.

        A dictionary read from a file (its source has a ``path``) is read again when
        the file has changed since (its modification time, size or inode): an edited
        drop-in file is seen by the next lookup, in a long-running process too.
        """
        if not isinstance(name, str):
            self.dictionaries()[name]  # raises UnknownComponentError, listing the names
        with self._lock:
            source = self.dictionaries()[name]
            stamp = _file_stamp(source.path)
            hit = self._dictionary_cache.get(name)
            if hit is not None and hit[1] == stamp:
                return hit[0]
            try:
                loaded = source.load()
            except LacakError:
                raise
            except PLUGIN_ERRORS as error:
                raise PluginError(f"dictionary {name!r} failed to load: {one_line(error)}") from error
            self._dictionary_cache[name] = (loaded, stamp)
            return loaded

    def add_commands(
        self, cli: Any, on_error: Callable[[PluginFailure], None] | None = None
    ) -> None:
        """Let every plugin add its commands to ``cli``, each plugin on its own.

        A plugin whose ``register_commands`` raises (or calls ``sys.exit()``)
        is skipped as a whole: ``cli`` gets back exactly the commands it had
        before that plugin's hook ran, nested groups included. A plugin that
        replaces or removes a command that lacak or an earlier plugin added
        keeps its other commands, but the first command stays, and the clash is
        reported naming both. Each failure is warned about, listed in
        :attr:`failures`, and passed to ``on_error`` if given.
        """
        self.load_plugins()
        owners: dict[tuple[str, ...], str] = {}  # command path -> plugin that added it
        for impl in self._impls("register_commands"):
            plugin = impl.plugin_name
            before = _command_groups(cli)
            others = [p for p in self.pm.get_plugins() if p is not impl.plugin]
            caller = self.pm.subset_hook_caller("register_commands", remove_plugins=others)
            try:
                self._loader.call(plugin, "register_commands", functools.partial(caller, cli=cli))
            except PLUGIN_ERRORS as error:
                for group, _path, commands in before:
                    group.commands.clear()
                    group.commands.update(commands)
                consequence = "its commands are skipped"
                if isinstance(error, PluginTimeout):
                    consequence += ", with its other hooks (LACAK_PLUGIN_TIMEOUT sets the wait)"
                self._command_failed(plugin, error, consequence, on_error)
                continue
            for group, path, commands in before:
                for name, command in commands.items():
                    if group.commands.get(name) is command:
                        continue
                    first = _owner(owners, (*path, name))
                    shown = " ".join((*path, name))
                    clash: LacakError
                    if name in group.commands:
                        clash = DuplicateComponentError(
                            f"command {shown!r} is registered by both {first} and plugin {plugin!r}"
                        )
                    else:
                        clash = PluginError(
                            f"plugin {plugin!r} removed command {shown!r} of {first}"
                        )
                    group.commands[name] = command
                    self._command_failed(plugin, clash, "the first one is kept", on_error)
            for added in _command_paths(_command_groups(cli)) - _command_paths(before):
                owners[added] = plugin

    def _command_failed(
        self,
        plugin: str,
        error: BaseException,
        consequence: str,
        on_error: Callable[[PluginFailure], None] | None,
    ) -> None:
        failure = self._failure(plugin, "register_commands", error)
        if failure not in self._loader.failures:  # a second CLI built from this registry
            self._loader.failures.append(failure)
        warn(f"{failure}; {consequence}")
        if on_error is not None:
            on_error(failure)


#: ``(group, path, commands)`` triples: a click group, its path from the root, its commands.
_Groups = list[tuple[Any, tuple[str, ...], dict[str, Any]]]


def _command_groups(cli: Any) -> _Groups:
    """``(group, path, commands)`` for ``cli`` and every group under it, commands copied."""
    found: _Groups = []
    seen: set[int] = set()
    stack: list[tuple[Any, tuple[str, ...]]] = [(cli, ())]
    while stack:
        group, path = stack.pop()
        commands = getattr(group, "commands", None)
        if not isinstance(commands, dict) or id(group) in seen:
            continue
        seen.add(id(group))
        found.append((group, path, dict(commands)))
        stack.extend((command, (*path, name)) for name, command in commands.items())
    return found


def _command_paths(groups: _Groups) -> set[tuple[str, ...]]:
    """Every command's path (``("maze", "generate")``) in ``groups``."""
    return {(*path, name) for _group, path, commands in groups for name in commands}


def _owner(owners: Mapping[tuple[str, ...], str], path: tuple[str, ...]) -> str:
    """Who added the command at ``path``: the plugin of its closest recorded ancestor."""
    for end in range(len(path), 0, -1):
        if path[:end] in owners:
            return f"plugin {owners[path[:end]]!r}"
    return "lacak itself"


_default: Registry | None = None
_default_lock = threading.Lock()


_using: contextvars.ContextVar[Registry | None] = contextvars.ContextVar(
    "lacak_registry_using", default=None
)


@contextlib.contextmanager
def using(registry: Registry) -> Iterator[Registry]:
    """Make ``registry`` what :func:`default_registry` gives inside the block (in this
    thread or task), so that plugin code that looks components up without being handed
    a registry (a puzzle kind's ``parse`` reading ``lacak.dictionary(name)``) sees
    it. ``lacak KIND solve`` runs in the registry its command line was built from.

    :raises InvalidOptionError: ``registry`` is not a :class:`Registry`.
    """
    if not isinstance(registry, Registry):
        raise InvalidOptionError(f"using() takes a lacak.Registry, not {type(registry).__name__}")
    token = _using.set(registry)
    try:
        yield registry
    finally:
        _using.reset(token)


def default_registry() -> Registry:
    """The process-wide registry, with the installed plugins loaded (inside
    :func:`using`, the registry it names)."""
    current = _using.get()
    if current is not None:
        return current
    global _default
    registry = _default
    if registry is None:
        with _default_lock:
            if _default is None:
                _default = Registry()
            registry = _default
    return registry.load_plugins()


def reset_default_registry() -> None:
    """Forget the process-wide registry (it is rebuilt on next use)."""
    global _default
    with _default_lock:
        _default = None


def _extras_of(kind: str, registry: Registry | None) -> Any:
    """The ``extras`` function of ``kind``'s :class:`~lacak.PuzzleType` in ``registry`` (the
    default one when ``None``), or ``None``: how the deprecated ``SearchResult.to_dict(puzzle)``
    without ``extras=`` finds them (the results never import the plugin host)."""
    kind_type = (registry if registry is not None else default_registry()).puzzle_types().get(kind)
    return None if kind_type is None else kind_type.extras


_results._find_extras = _extras_of


def _file_stamp(path: str | None) -> tuple[int, int, int] | None:
    """``(modification time in ns, size, inode)`` of a dictionary's file, or ``None``
    (no file, or it cannot be read: loading it says why)."""
    if path is None:
        return None
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size, info.st_ino

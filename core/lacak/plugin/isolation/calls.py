"""The guarded calls of a third-party plugin's components (:mod:`lacak.plugin.isolation`).

:class:`PluginCall`: every function of a component a third-party plugin registered (a
searcher's ``search``, a heuristic's ``estimate``, a kind's ``render``, ...) is called
through one (the registry wraps them once). What escapes it becomes a
:class:`~lacak.PluginError` naming the plugin and the component; a heuristic's numbers are
checked (:class:`Estimate`, :class:`Prepare`): an estimate is a finite number ``>= 0``.
:func:`culprit` names the plugin code running on a thread's stack, for the watchdog
(:mod:`lacak.plugin.isolation.watch`), which asks to be told of the next call
(:func:`before_next_call`) when a deadline begins.
"""

from __future__ import annotations

import functools
import math
import numbers
import reprlib
from collections.abc import Callable
from typing import Any

from ...errors import LacakError, PluginError
from ...interfaces import BindableEstimate
from ...streams import QUIET as _QUIET

__all__ = [
    "PLUGIN_ERRORS",
    "Estimate",
    "Estimator",
    "PluginCall",
    "Prepare",
    "before_next_call",
    "culprit",
    "note_plugin_module",
    "one_line",
]

#: What a plugin's code may raise that lacak reports and survives: any
#: ``Exception``, and ``SystemExit`` (a plugin calling ``sys.exit()`` must not
#: end every lacak command). ``KeyboardInterrupt`` still stops lacak.
PLUGIN_ERRORS: tuple[type[BaseException], ...] = (Exception, SystemExit)

#: What passes out of a plugin's component as it is: lacak's own errors (a
#: component refusing bad input, a limit), and running out of memory (which the
#: search turns into an :class:`~lacak.OutOfMemoryError` saying what to try).
_PASSED: tuple[type[BaseException], ...] = (LacakError, MemoryError)

def one_line(error: BaseException) -> str:
    """``Type: message`` on one line."""
    text = " ".join(str(error).split()) or repr(error)
    return f"{type(error).__name__}: {text}"



#: Called with the call before a plugin call runs, when the watchdog asks for it
#: (:func:`before_next_call`): the first call under a new deadline arms the sentinel.
_before_call: Callable[[Any], None] | None = None


def before_next_call(hook: Callable[[Any], None] | None) -> None:
    """Have ``hook(call)`` run before each plugin call from now (``None``: nothing runs)."""
    global _before_call
    _before_call = hook


class PluginCall:
    """A function of a component that a third-party plugin registered, called isolated.

    It runs :func:`quiet`; any exception but lacak's own errors and ``MemoryError``
    (``SystemExit`` too) becomes a :class:`~lacak.PluginError` naming the plugin and
    the component, with the original as its cause; in a process under
    :func:`watchdog`, the plugin is the one named if it overruns a deadline. It
    pickles (a batch sends components to its workers) and looks like the function
    (``__wrapped__``, ``__name__``, ``__doc__``).

    :param plugin: the plugin's name, as ``lacak plugins`` shows it.
    :param what: the component, as messages name it (``"heuristic 'sliding/gaschnig'"``,
        ``"puzzle kind 'jugs' (render)"``).
    """

    def __init__(self, function: Callable[..., Any], plugin: str, what: str) -> None:
        self.function = function
        self.plugin = plugin
        self.what = what
        functools.update_wrapper(self, function, updated=())

    @property
    def label(self) -> str:
        """``heuristic 'sliding/nan' of plugin 'hostile'``."""
        return f"{self.what} of plugin {self.plugin!r}"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if _before_call is not None:
            _before_call(self)
        token = _QUIET.set(self)
        try:
            return self.function(*args, **kwargs)
        except _PASSED:
            raise
        except PLUGIN_ERRORS as error:
            raise _failed(self, error) from error
        finally:
            _QUIET.reset(token)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.function, self.plugin, self.what))

    def __eq__(self, other: object) -> bool:
        """Equal to its function (a catalogued component equals the one registered)."""
        if isinstance(other, PluginCall):
            return bool(self.function == other.function)
        return bool(self.function == other)

    def __hash__(self) -> int:
        return hash(self.function)

    def __repr__(self) -> str:
        return f"<{self.label}: {self.function!r}>"


def _failed(call: Any, error: BaseException) -> PluginError:
    return PluginError(f"plugin {call.plugin!r} failed in {call.what}: {one_line(error)}")


class Estimate(PluginCall, BindableEstimate):
    """A third-party heuristic's ``estimate(puzzle, state, **options)``, its numbers
    checked (see :class:`Estimator`)."""

    def __call__(self, puzzle: Any, state: Any, **options: Any) -> Any:
        value = PluginCall.__call__(self, puzzle, state, **options)
        if (type(value) is int and value >= 0) or (type(value) is float and 0.0 <= value < _INF):
            return value
        return _checked(value, state, self)

    def bind(self, puzzle: Any, options: Any) -> Estimator:
        """``state -> estimate`` for ``puzzle`` (what ``Heuristic.for_puzzle`` gives),
        one checked call per state."""
        return Estimator(functools.partial(self.function, puzzle, **options), self.plugin,
                         self.what)  # fmt: skip


class Prepare(PluginCall):
    """A third-party heuristic's ``prepare(puzzle, **options)``: the function it returns is
    an :class:`Estimator`."""

    def __call__(self, *args: Any, **kwargs: Any) -> Estimator:
        return Estimator(PluginCall.__call__(self, *args, **kwargs), self.plugin, self.what)


_INF = math.inf


class Estimator:
    """``state -> estimate`` of a third-party heuristic: each number is checked to be a
    finite number ``>= 0`` (an ``int`` or a ``float`` is two comparisons; a ``bool`` is
    not a number here), else :class:`~lacak.PluginError` naming the plugin stops the
    search: a ``nan`` breaks a search's order (an A* "solution" of thousands of moves),
    and ``inf`` is not a dead end to every searcher (IDA* would search without bound).
    Attributes of the prepared function (a table a specialised searcher reads) are
    its own."""

    __slots__ = ("function", "plugin", "what")

    def __init__(self, function: Callable[[Any], Any], plugin: str, what: str) -> None:
        self.function = function
        self.plugin = plugin
        self.what = what

    @property
    def label(self) -> str:
        return f"{self.what} of plugin {self.plugin!r}"

    def __call__(self, state: Any) -> Any:
        if _before_call is not None:
            _before_call(self)
        token = _QUIET.set(self)
        try:
            value = self.function(state)
        except _PASSED:
            raise
        except PLUGIN_ERRORS as error:
            raise _failed(self, error) from error
        finally:
            _QUIET.reset(token)
        if (type(value) is int and value >= 0) or (type(value) is float and 0.0 <= value < _INF):
            return value
        return _checked(value, state, self)

    def __getattr__(self, name: str) -> Any:
        if name in Estimator.__slots__ or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.function, name)


def _checked(value: Any, state: Any, call: Any) -> Any:
    """``value`` if it is a finite real number ``>= 0`` of another type (numpy's), else
    the :class:`~lacak.PluginError` that says so."""
    if not isinstance(value, bool) and isinstance(value, numbers.Real):
        try:
            number = float(value)
        except (TypeError, ValueError, OverflowError):
            number = math.nan
        if 0.0 <= number < _INF:
            return value
    raise PluginError(
        f"{call.label} returned {reprlib.repr(value)} for the state {reprlib.repr(state)}: "
        "an estimate is a finite number >= 0 (a bug in the plugin)"
    )


#: The code of the calls above: the watchdog finds plugin code on a thread's stack by them.
_CALL_CODES = frozenset({PluginCall.__call__.__code__, Estimator.__call__.__code__})

#: Third-party plugin modules and their plugins' names (code a plugin's puzzle runs
#: outside any :class:`PluginCall`, its ``successors``, is found by its module).
_MODULES: dict[str, str] = {}


def note_plugin_module(module: str, plugin: str) -> None:
    """Remember that code of module ``module`` (and its submodules) is plugin ``plugin``'s."""
    if module:
        _MODULES[module] = plugin


def culprit(frame: Any) -> str | None:
    """The plugin code running in ``frame`` (a thread's innermost frame): the innermost
    :class:`PluginCall`'s ``label``, else ``plugin 'x' (module.function)`` for a frame of
    a third-party plugin's module, else ``None`` (lacak's own code)."""
    found = None
    while frame is not None:
        code = frame.f_code
        if code in _CALL_CODES:
            call = frame.f_locals.get("self")
            if call is not None:
                return str(call.label)
        elif found is None and _MODULES:
            module = frame.f_globals.get("__name__") or ""
            parts = module.split(".")
            for end in range(len(parts), 0, -1):
                plugin = _MODULES.get(".".join(parts[:end]))
                if plugin is not None:
                    found = f"plugin {plugin!r} ({module}.{code.co_name})"
                    break
        frame = frame.f_back
    return found



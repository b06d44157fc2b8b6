"""The public facade: solve, generate, and list what the plugins registered.

Every function takes an optional ``registry``; by default the process-wide
one, with the installed plugins loaded, is used.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .errors import InvalidOptionError, InvalidPuzzleError
from .interfaces import (
    Dictionary,
    DictionarySource,
    Generator,
    Heuristic,
    Puzzle,
    Searcher,
    describe_state,
)
from .limits import Limits
from .plugins import PluginFailure, PluginInfo
from .registry import Catalogue, Registry, default_registry
from .results import SearchResult
from .trace import SearchTrace

__all__ = [
    "dictionaries",
    "dictionary",
    "generate",
    "generators",
    "heuristics",
    "parse",
    "plugin_failures",
    "plugins",
    "resolve_heuristic",
    "searchers",
    "solve",
]

HeuristicLike = str | Heuristic | Callable[[Any, Any], float] | None


def _registry(registry: Registry | None) -> Registry:
    return registry if registry is not None else default_registry()


def resolve_heuristic(
    puzzle: Any, heuristic: HeuristicLike, *, registry: Registry | None = None
) -> Heuristic | None:
    """Turn a name spec (``"weighted:w1=1,w2=2"``), a function or a Heuristic into a Heuristic.

    A plain function ``f(puzzle, state) -> number`` is wrapped as a
    non-admissible heuristic named after the function.
    """
    if heuristic is None or isinstance(heuristic, Heuristic):
        return heuristic
    if isinstance(heuristic, str):
        kind = getattr(puzzle, "kind", None)
        if not kind:
            raise InvalidPuzzleError("the puzzle has no 'kind', so no named heuristic applies")
        return _registry(registry).heuristic(kind, heuristic)
    if callable(heuristic):
        return Heuristic(
            name=getattr(heuristic, "__name__", "custom"),
            kind=getattr(puzzle, "kind", ""),
            estimate=heuristic,
        )
    raise InvalidOptionError(
        f"a heuristic must be a name, a Heuristic or a function, not {heuristic!r}"
    )


def solve(
    puzzle: Puzzle,
    strategy: str | Searcher | None = None,
    *,
    heuristic: HeuristicLike = None,
    limits: Limits | None = None,
    trace: bool | SearchTrace = False,
    registry: Registry | None = None,
    **options: Any,
) -> SearchResult:
    """Search ``puzzle`` with a registered strategy.

    :param puzzle: any :class:`~lacak.Puzzle`.
    :param strategy: a strategy name (see :func:`searchers`) or a
        :class:`~lacak.Searcher`; default: the puzzle's ``default_strategy``
        attribute, else ``"astar"`` when a heuristic is given, else ``"bfs"``.
    :param heuristic: a name with options (``"manhattan"``, ``"weighted:1,2"``),
        a :class:`~lacak.Heuristic`, or a function ``(puzzle, state) -> number``.
        A strategy that needs one and gets none uses the puzzle's
        ``default_heuristic`` attribute.
    :param limits: bounds on the search.
    :param trace: ``True`` (or a :class:`~lacak.SearchTrace`) records the search tree
        into ``result.trace``.
    :param options: strategy options (see ``Searcher.options``).
    :returns: the :class:`~lacak.SearchResult`; check ``result.found``.
    :raises UnknownComponentError: unknown strategy or heuristic name.
    :raises InvalidOptionError: a bad option, or an argument of the wrong type
        (a ``strategy`` that is not a name or a Searcher, ``limits`` that are
        not a :class:`~lacak.Limits`, ...).

    Examples
    --------
    >>> import lacak
    >>> puzzle = lacak.parse("sliding", "123405786")
    >>> lacak.solve(puzzle, "astar", heuristic="manhattan").actions
    ('R', 'D')
    """
    if strategy is not None and not isinstance(strategy, (str, Searcher)):
        raise InvalidOptionError(
            f"strategy must be a name or a lacak.Searcher, not {type(strategy).__name__}"
        )
    if limits is not None and not isinstance(limits, Limits):
        raise InvalidOptionError(
            f"limits must be a lacak.Limits (or None), not {type(limits).__name__}"
        )
    if not isinstance(trace, (bool, SearchTrace)):
        raise InvalidOptionError(
            f"trace must be True, False or a lacak.SearchTrace, not {type(trace).__name__}"
        )
    reg = _registry(registry)
    heuristic_obj = resolve_heuristic(puzzle, heuristic, registry=reg)
    if strategy is None:
        strategy = getattr(puzzle, "default_strategy", None) or (
            "astar" if heuristic_obj is not None else "bfs"
        )
    searcher = reg.searchers()[strategy] if isinstance(strategy, str) else strategy
    if heuristic_obj is None and searcher.heuristic == "required":
        default = getattr(puzzle, "default_heuristic", None)
        if default:
            heuristic_obj = resolve_heuristic(puzzle, default, registry=reg)
    recorder: SearchTrace | None
    if trace is True:
        recorder = SearchTrace(describe=functools.partial(describe_state, puzzle))
    else:
        recorder = trace or None
    return searcher(puzzle, heuristic=heuristic_obj, limits=limits, trace=recorder, **options)


def generate(
    kind: str,
    algorithm: str,
    size: Any = None,
    *,
    seed: int | None = None,
    registry: Registry | None = None,
    **options: Any,
) -> Any:
    """Make an instance with a registered generator.

    :param kind: ``"maze"``, ``"sliding"``, ``"boggle"``, ... (see :func:`generators`).
    :param algorithm: the generator's name within ``kind``.
    :param size: the generator's size argument (e.g. ``(rows, cols)``).
    :param seed: the same seed gives the same instance everywhere.
    """
    return _registry(registry).generators(kind)[algorithm](size, seed, **options)


def parse(kind: str, text: str, *, registry: Registry | None = None, **options: Any) -> Any:
    """Read a puzzle of ``kind`` from its text form (``parse("sliding", "123450786")``)."""
    return _registry(registry).puzzle_types()[kind].parse(text, **options)


def searchers(*, registry: Registry | None = None) -> Catalogue[Searcher]:
    """Registered search strategies, by name."""
    return _registry(registry).searchers()


def heuristics(kind: str, *, registry: Registry | None = None) -> Catalogue[Heuristic]:
    """Registered heuristics for ``kind``, by name."""
    return _registry(registry).heuristics(kind)


def generators(kind: str, *, registry: Registry | None = None) -> Catalogue[Generator]:
    """Registered generators for ``kind``, by name."""
    return _registry(registry).generators(kind)


def dictionaries(*, registry: Registry | None = None) -> Catalogue[DictionarySource]:
    """Registered dictionaries (not yet loaded), by name."""
    return _registry(registry).dictionaries()


def dictionary(name: str, *, registry: Registry | None = None) -> Dictionary:
    """The loaded dictionary called ``name``."""
    return _registry(registry).dictionary(name)  # type: ignore[no-any-return,unused-ignore]


def plugins(*, registry: Registry | None = None) -> list[PluginInfo]:
    """Loaded plugins with what each registered."""
    return _registry(registry).plugins()


def plugin_failures(*, registry: Registry | None = None) -> list[PluginFailure]:
    """Plugins, or plugin hooks, that failed and were skipped."""
    return _registry(registry).failures

"""lacak: a plugin framework of classic search and puzzle algorithms.

The core knows no puzzle. It defines what a :class:`Puzzle`, a
:class:`Searcher`, a :class:`Heuristic`, a :class:`Generator` and a
:class:`Dictionary` are, a pluggy-based registry, and the facade below;
plugins (built-in or third-party, all found through the ``lacak``
entry-point group) bring everything else.

>>> import lacak
>>> maze = lacak.generate("maze", "wilson", (4, 6), seed=1)
>>> puzzle = lacak.parse("sliding", "123450786")
>>> lacak.solve(puzzle, "astar", heuristic="manhattan").length
1
"""

from __future__ import annotations

from . import batch, dictionary_files, paths
from .api import (
    dictionaries,
    dictionary,
    generate,
    generators,
    heuristics,
    parse,
    plugin_failures,
    plugins,
    resolve_heuristic,
    searchers,
    solve,
)
from .dictionary_files import LoadReport, SkippedWord, normalize_word
from .errors import (
    DictionaryError,
    DuplicateComponentError,
    InvalidInputError,
    InvalidOptionError,
    InvalidPuzzleError,
    LacakError,
    LimitReachedError,
    OutOfMemoryError,
    PluginError,
    UnknownComponentError,
    UnsolvableError,
    memory_guard,
)
from .hookspecs import hookimpl, hookspec
from .interfaces import (
    Dictionary,
    DictionarySource,
    Generator,
    Heuristic,
    Puzzle,
    PuzzleType,
    ReversiblePuzzle,
    Searcher,
    as_flag,
    describe_state,
    parse_options,
)
from .limits import UNLIMITED, Budget, Limits, StopReason, running_budget
from .plugins import PluginFailure, PluginInfo, PluginWarning
from .registry import Catalogue, Registry, default_registry, reset_default_registry
from .results import SearchResult, SearchStats
from .trace import SearchTrace, TraceNode

__all__ = [
    "UNLIMITED",
    "Budget",
    "Catalogue",
    "Dictionary",
    "DictionaryError",
    "DictionarySource",
    "DuplicateComponentError",
    "Generator",
    "Heuristic",
    "InvalidInputError",
    "InvalidOptionError",
    "InvalidPuzzleError",
    "LacakError",
    "LimitReachedError",
    "Limits",
    "LoadReport",
    "OutOfMemoryError",
    "PluginError",
    "PluginFailure",
    "PluginInfo",
    "PluginWarning",
    "Puzzle",
    "PuzzleType",
    "Registry",
    "ReversiblePuzzle",
    "SearchResult",
    "SearchStats",
    "SearchTrace",
    "Searcher",
    "SkippedWord",
    "StopReason",
    "TraceNode",
    "UnknownComponentError",
    "UnsolvableError",
    "__version__",
    "as_flag",
    "batch",
    "default_registry",
    "describe_state",
    "dictionaries",
    "dictionary",
    "dictionary_files",
    "generate",
    "generators",
    "heuristics",
    "hookimpl",
    "hookspec",
    "memory_guard",
    "normalize_word",
    "parse",
    "parse_options",
    "paths",
    "plugin_failures",
    "plugins",
    "reset_default_registry",
    "resolve_heuristic",
    "running_budget",
    "searchers",
    "solve",
]


def _get_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("lacak")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0+unknown"


__version__ = _get_version()

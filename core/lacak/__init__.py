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

import sys

from . import _moved, batch, gym, options, output, progress, store, tasks, words
from ._moved import moved_modules
from .api import (
    NO_HEURISTIC,
    Choice,
    choose,
    dictionaries,
    dictionary,
    generate,
    generators,
    heuristics,
    objective_of,
    parse,
    picture,
    plugin_failures,
    plugins,
    puzzle_text,
    resolve_heuristic,
    result_json,
    searchers,
    solve,
)
from .errors import (
    CacheError,
    DictionaryError,
    DuplicateComponentError,
    InvalidInputError,
    InvalidOptionError,
    InvalidPuzzleError,
    JobError,
    LacakError,
    LimitReachedError,
    OutOfMemoryError,
    PluginError,
    UnknownComponentError,
    UnsolvableError,
    WorkerDiedError,
    memory_guard,
)
from .interfaces import (
    BatchKind,
    DictionarySource,
    Generator,
    Heuristic,
    Objective,
    Page,
    Puzzle,
    PuzzleType,
    ReversiblePuzzle,
    Searcher,
    as_flag,
    check_puzzle,
    describe_state,
    parse_options,
)
from .limits import (
    UNLIMITED,
    Budget,
    Limits,
    StopReason,
    check_deadline,
    current_deadline,
    deadline,
)
from .plugin.hookspecs import hookimpl, hookspec
from .plugin.loader import PluginFailure, PluginInfo, PluginOverride, PluginWarning
from .plugin.registry import Catalogue, Registry, default_registry, reset_default_registry
from .results import LocalSearchResult, SearchResult, SearchStats
from .store.cache import CacheWarning
from .trace import SearchTrace, TraceNode
from .version import __version__
from .words import Dictionary, LoadReport, SkippedWord, normalize_word

__all__ = [
    "NO_HEURISTIC",
    "UNLIMITED",
    "BatchKind",
    "Budget",
    "CacheError",
    "CacheWarning",
    "Catalogue",
    "Choice",
    "Dictionary",
    "DictionaryError",
    "DictionarySource",
    "DuplicateComponentError",
    "Generator",
    "Heuristic",
    "InvalidInputError",
    "InvalidOptionError",
    "InvalidPuzzleError",
    "JobError",
    "LacakError",
    "LimitReachedError",
    "Limits",
    "LoadReport",
    "LocalSearchResult",
    "Objective",
    "OutOfMemoryError",
    "Page",
    "PluginError",
    "PluginFailure",
    "PluginInfo",
    "PluginOverride",
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
    "WorkerDiedError",
    "__version__",
    "as_flag",
    "batch",
    "check_deadline",
    "check_puzzle",
    "choose",
    "current_deadline",
    "deadline",
    "default_registry",
    "describe_state",
    "dictionaries",
    "dictionary",
    "generate",
    "generators",
    "gym",
    "heuristics",
    "hookimpl",
    "hookspec",
    "memory_guard",
    "moved_modules",
    "normalize_word",
    "objective_of",
    "options",
    "output",
    "parse",
    "parse_options",
    "picture",
    "plugin_failures",
    "plugins",
    "progress",
    "puzzle_text",
    "reset_default_registry",
    "resolve_heuristic",
    "result_json",
    "searchers",
    "solve",
    "store",
    "tasks",
    "words",
]


def __getattr__(name: str) -> object:
    """A module's old attribute (``lacak.store.cache``, now :mod:`lacak.store.cache`), with a
    :class:`DeprecationWarning` (:mod:`lacak._moved`)."""
    return _moved.moved_attribute(name)


_moved.install(sys.modules[__name__])
# Gymnasium's envs lacak/<Kind>-v0 and reasoning-gym's datasets lacak_<task>, registered
# once Gymnasium or reasoning-gym is imported (lacak.gym, lacak.tasks): never imported here
gym.install()
tasks.install()

"""Additive pattern databases for sliding puzzles: partitions, lookups, the registered heuristics.

A *partition* splits the tiles into disjoint groups; each group's pattern
database holds, for every placement of the group's tiles, the fewest moves of
those tiles that bring them home, and the sum over the groups never
overestimates (Korf and Felner 2002). See ``docs/pattern-databases.md``.

This package's modules, each a concern:

- :mod:`~lacak_sliding.pdb.partition`: partitions (named, default, parsed) and
  the board's reflection, with the limits on a group's size;
- :mod:`~lacak_sliding.pdb.lookup`: each group's table ready for lookups, the
  prepared heuristic (:func:`pattern_heuristic`) and what a build costs;
- :mod:`~lacak_sliding.pdb.spec`: the registered heuristics (``pdb``,
  ``pdb-663``, ...) and their options;
- :mod:`~lacak_sliding.pdb.cache`: the verified disk cache, one file per group;
- :mod:`~lacak_sliding.pdb.build` (numpy) and :mod:`~lacak_sliding.pdb.compiled`
  (numba): the two builders, the same table byte for byte, over the perfect hash
  of :mod:`~lacak_sliding.pdb.placements`; :mod:`~lacak_sliding.pdb.engines`
  chooses between them;
- :mod:`~lacak_sliding.pdb.cli`: ``lacak sliding pdb build|info|list``.

The names of the first four are re-exported here (``from lacak_sliding import
pdb; pdb.Partition``); the builders need numpy (and numba) and are imported only
when a database is built or loaded.

.. rubric:: Examples

>>> from lacak_sliding import pdb
>>> pdb.Partition.named("663", 4, 4, tuple(range(16))).label
'6-6-3'
"""

from __future__ import annotations

from .cache import (
    FORMAT,
    UNREACHED,
    BuildProgress,
    BuildStopped,
    build_deadline,
    cache_folder,
    cached_databases,
    database_path,
    inspect_database,
    is_cached,
    load_or_build,
    other_files,
    usable_folder,
)
from .lookup import (
    BUILD_SECONDS_PER_PLACEMENT,
    COMPILED_SECONDS_PER_PLACEMENT,
    SPARSE_LIMIT,
    GroupTable,
    PatternHeuristic,
    build_announcement,
    build_estimate,
    forget_memory,
    group_table,
    memory_note,
    missing_groups,
    pattern_heuristic,
    seconds_per_placement,
)
from .partition import (
    MAX_BUILD_BYTES,
    MAX_CELLS,
    MAX_ENTRIES,
    NAMED_PARTITIONS,
    Partition,
    build_bytes,
    reflection,
)
from .spec import estimate, heuristics, parse_spec, prepare

__all__ = [
    "BUILD_SECONDS_PER_PLACEMENT",
    "COMPILED_SECONDS_PER_PLACEMENT",
    "FORMAT",
    "MAX_BUILD_BYTES",
    "MAX_CELLS",
    "MAX_ENTRIES",
    "NAMED_PARTITIONS",
    "SPARSE_LIMIT",
    "UNREACHED",
    "BuildProgress",
    "BuildStopped",
    "GroupTable",
    "Partition",
    "PatternHeuristic",
    "build_announcement",
    "build_bytes",
    "build_deadline",
    "build_estimate",
    "cache_folder",
    "cached_databases",
    "database_path",
    "estimate",
    "forget_memory",
    "group_table",
    "heuristics",
    "inspect_database",
    "is_cached",
    "load_or_build",
    "memory_note",
    "missing_groups",
    "other_files",
    "parse_spec",
    "pattern_heuristic",
    "prepare",
    "reflection",
    "seconds_per_placement",
    "usable_folder",
]

"""Which strategy and heuristic solve a sliding board best: the kind's part of ``lacak.choose``.

The rule, measured on random boards (``docs/sliding.md``, "Which strategy and
heuristic"; 2 shared cores):

- every board: ``idastar-tiles``, which keeps one path in memory. On 1,000
  random 8-puzzles it beat ``astar-tiles`` (both with Manhattan distance) in
  total (2.0 s against 2.7 s), median (0.63 ms against 0.98 ms) and worst case;
  on 2x3 and 2x4 boards the two are within noise of each other;
- boards of up to 9 cells: Manhattan distance. A pattern database would halve
  the search, but loading one (numpy included) costs more than a whole solve;
- the 4x4 board: the 6-6-3 additive pattern databases (``pdb-663``): a random
  15-puzzle in 0.1 s (median of 20; the worst 1.4 s) once they are loaded.
  They ship with lacak for the usual goal and Korf's
  (:mod:`lacak_sliding.pdb.shipped`: a first use unpacks them in about a
  second); for other goals a one-time build of a few seconds with the
  compiled builder (about half a minute with numpy), announced and cached
  on disk. ``pdb-555`` builds in
  3 s but searches 4-7 times longer (median 0.4 s, worst 6 s). ``pdb-78``
  searches about five times less on Korf's 100 (2.9 s for all 100 against
  15 s), but its first use builds 576 MB of tables: about 310 CPU seconds
  and 1.2 GB of memory with the compiled builder (20 CPU minutes and 6.2 GB
  with numpy). That build is repaid only after a few thousand hard
  15-puzzles (0.12 s saved on each of Korf's), so 6-6-3 stays the default
  and 7-8 is one ``lacak sliding pdb build 78`` away for bulk work
  (``docs/pattern-databases.md``, "Choosing a partition");
- other boards whose default pattern databases have at most
  :data:`AFFORDABLE` placements (3x4 and 2x8 in a few seconds, 4x5 in about
  20 s, 5x5 in about 50 s): those databases (``pdb``). On 3x4 boards they solve
  in milliseconds what linear conflict takes up to two seconds for; on 4x5
  they solve random boards linear conflict cannot finish in 30 s;
- larger boards: linear conflict, the strongest heuristic that needs no tables.

A heuristic the user names is kept (and ``idastar-tiles`` searches with it).
"""

from __future__ import annotations

from typing import Any

import lacak

from .pdb.cache import is_cached
from .pdb.lookup import build_estimate, missing_groups
from .pdb.partition import Partition

__all__ = ["AFFORDABLE", "advice", "build_note", "choose", "strongest"]

#: Most placements (bytes) the pattern databases chosen by default may have: a first
#: use builds them, so they must build in about a minute (5x5's 25.8 million take 50 s).
AFFORDABLE = 30_000_000


def _cells(puzzle: Any) -> int:
    return int(puzzle.width) * int(puzzle.height)


def _default_partition(puzzle: Any) -> Any:
    """The default pattern-database partition of the board, or ``None`` if it has none."""
    try:
        return Partition.default(puzzle.width, puzzle.height, tuple(puzzle.goal))
    except lacak.LacakError:  # too many cells for pattern databases
        return None


def strongest(puzzle: Any, registry: Any) -> str:
    """The strongest heuristic affordable for ``puzzle`` (see the module docstring)."""
    heuristics = registry.heuristics("sliding")
    if _cells(puzzle) <= 9:
        return "manhattan"
    if (puzzle.width, puzzle.height) == (4, 4) and "pdb-663" in heuristics:
        return "pdb-663"
    if "pdb" in heuristics:
        partition = _default_partition(puzzle)
        if partition is not None and partition.entries() <= AFFORDABLE:
            return "pdb"
    return "linear-conflict" if "linear-conflict" in heuristics else "manhattan"


def choose(puzzle: Any, heuristic: str | None, registry: Any) -> tuple[str, str | None]:
    """``(strategy, heuristic)`` for ``puzzle``; ``heuristic`` is the one asked for, if any.

    >>> import lacak
    >>> choose(lacak.parse("sliding", "123450786"), None, lacak.default_registry())
    ('idastar-tiles', 'manhattan')
    >>> choose(lacak.parse("sliding", "123450786"), "misplaced", lacak.default_registry())
    ('idastar-tiles', 'misplaced')
    """
    strategy = "idastar-tiles" if "idastar-tiles" in registry.searchers() else "idastar"
    return strategy, heuristic or strongest(puzzle, registry)


def build_note(partition: Any) -> str:
    """``"built once, about 30 s"``, ``"shipped ..."`` or ``"cached ..."``: what a first use
    of ``partition`` costs."""
    missing = missing_groups(partition)
    if not missing:
        groups = [g for g in partition.groups if len(g) > 1]
        if all(is_cached(partition, g) for g in groups):
            return "cached: loads in about a second"
        return "shipped with lacak: unpacked once, in about a second"
    estimate = build_estimate(partition, missing)
    return f"built once, {'in ' if estimate == 'a few seconds' else ''}{estimate}"


def advice(puzzle: Any, result: Any) -> str | None:
    """What would help when a limit stopped a search of ``puzzle``, or ``None``.

    A weaker heuristic than the strongest affordable one: that one (with what it
    costs). The strongest already: more time, or a note that the board is hard.
    """
    registry = lacak.default_registry()
    best = strongest(puzzle, registry)
    used = (result.heuristic or "").partition(":")[0]
    strategy = result.strategy or ""
    stopped = str(result.stopped)
    if stopped == "depth-limit":  # (no heuristic moves a goal that lies deeper)
        return "the goal may lie deeper than --max-depth: a larger --max-depth, or none"
    if not used and strategy != "idastar-tiles":  # (bfs, dfs: no heuristic guides them)
        return (f"an informed search: --strategy idastar-tiles -H {best} (or leave "
                "--strategy out); this strategy uses no heuristic")  # fmt: skip
    if used != best:
        if best.startswith("pdb"):
            partition = _default_partition(puzzle)
            cost = f" ({build_note(partition)})" if partition is not None else ""
            what = f"a pattern-database heuristic: -H {best}{cost}"
        else:
            what = f"a stronger heuristic: -H {best}"
        if strategy != "idastar-tiles":
            what += ", with --strategy idastar-tiles (or leave --strategy out)"
        return what
    if strategy != "idastar-tiles":
        return "--strategy idastar-tiles (or leave --strategy out): the fastest for sliding boards"
    if _cells(puzzle) > 16:
        return (
            f"random {puzzle.height}x{puzzle.width} boards can take hours to solve optimally; "
            "a longer --timeout, or a board fewer moves from the goal "
            "(lacak sliding scramble --moves K)"
        )
    return "a larger --max-nodes" if stopped == "node-limit" else "a longer --timeout"

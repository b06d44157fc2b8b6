"""Which strategy and heuristic solve a sliding board best: the kind's part of ``lacak.choose``.

The rule, measured on this project's benchmarks (``bench/sliding.py``,
``bench/korf100.py``):

- boards of up to 9 cells (the 8-puzzle and smaller): ``astar-tiles`` with
  Manhattan distance, optimal in milliseconds;
- the 4x4 board: ``idastar-tiles`` with the 6-6-3 additive pattern databases
  (``pdb-663``), optimal on a random 15-puzzle in seconds once the databases
  are built (a one-time build, announced, cached on disk);
- other boards: ``idastar-tiles`` with linear conflict, the strongest
  heuristic that needs no tables.

A heuristic the user names is kept, and the strategy follows the board size.
"""

from __future__ import annotations

from typing import Any

__all__ = ["choose"]


def choose(puzzle: Any, heuristic: str | None, registry: Any) -> tuple[str, str | None]:
    """``(strategy, heuristic)`` for ``puzzle``; ``heuristic`` is the one asked for, if any."""
    searchers = registry.searchers()
    cells = puzzle.width * puzzle.height
    if cells <= 9:
        strategy = "astar-tiles" if "astar-tiles" in searchers else "astar"
        default = "manhattan"
    else:
        strategy = "idastar-tiles" if "idastar-tiles" in searchers else "idastar"
        square_16 = puzzle.width == puzzle.height == 4
        default = (
            "pdb-663"
            if square_16 and "pdb-663" in registry.heuristics("sliding")
            else ("linear-conflict")
        )
    return strategy, heuristic or default

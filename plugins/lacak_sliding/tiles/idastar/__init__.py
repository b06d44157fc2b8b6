"""``idastar-tiles``: iterative-deepening A* specialised for sliding puzzles.

The generic ``idastar`` works on any :class:`lacak.Puzzle`: it builds a
tuple per child and calls the heuristic on it. This one knows the board. It
keeps one mutable board, the blank's cell and, for additive heuristics, one
index per tile group; a move slides one tile, so only that tile's group index
changes (by a precomputed amount) and the estimate is updated with two table
lookups. Nothing is allocated per node. The depth-first search itself is
generated as Python source, one function per blank cell, with the cell's
moves unrolled, the inverse of the last move skipped and the table lookups
inlined.

Heuristics it runs at full speed: the pattern databases of
:mod:`lacak_sliding.pdb` (with or without the reflected lookup), and every
table heuristic of :mod:`lacak_sliding.heuristics` (``manhattan``,
``misplaced``, ``weighted``). ``linear-conflict`` has an incremental path of
its own. Any other heuristic works through a slower path that builds the
state and calls it. The path found has least cost whenever the heuristic is
admissible.

Iterations: every move moves the blank by one cell, so the length of every
solution has the parity of the blank's distance to its goal cell; the bound
starts at the root's estimate (rounded up to that parity) and grows by two.

Counts are exact: ``expanded`` counts nodes tested for the goal and given
children, ``generated`` the children whose estimate was computed (the
inverse move is not generated).

Depth: the recursive searches use one Python frame per move, so they run
only while the bound (the deepest a node can lie) fits well within the
recursion limit the process has; past it (or on a board too big for the
generated code), the search goes on with an explicit stack, which visits
the same nodes in the same order. The process's recursion limit is never
changed. The time limit covers preparing the heuristic (building a pattern
database, say).

This package's modules, each a part of the search:

- :mod:`~lacak_sliding.tiles.idastar.iteration`: what every engine of a search
  shares (the board, the limits, the counts, how an iteration ended) and the result;
- :mod:`~lacak_sliding.tiles.idastar.deepen`: the iteration loop, and the engine
  each search starts with;
- the engines, one iteration at a time: :mod:`~lacak_sliding.tiles.idastar.generated`
  (the generated recursive search on the tables of
  :mod:`~lacak_sliding.tiles.idastar.model`), :mod:`~lacak_sliding.tiles.idastar.linear`
  (linear conflict) and :mod:`~lacak_sliding.tiles.idastar.stack` (the explicit
  stack: any depth, any heuristic, traces);
- :mod:`~lacak_sliding.tiles.idastar.engines`: when the compiled engine
  (:mod:`~lacak_sliding.tiles.idastar.compiled`, numba) takes over;
- :mod:`~lacak_sliding.tiles.idastar.split`: one search split across workers.

.. rubric:: Examples

>>> import lacak
>>> puzzle = lacak.parse("sliding", "1 2 3 / 4 5 6 / 0 7 8")
>>> result = lacak.solve(puzzle, "idastar-tiles", heuristic="manhattan")
>>> result.actions, result.stats.expanded
(('R', 'R'), 3)
"""

from __future__ import annotations

from typing import Any

import lacak
from lacak import SearchResult, StopReason

from .deepen import checked, deepen, engine_for
from .engines import compile_ahead
from .generated import CHECK_EVERY, MAX_GENERATED_CELLS
from .iteration import STACK_MARGIN, Tally, finish, solvable
from .model import AdditiveModel, additive_model
from .split import split_search

__all__ = [
    "CHECK_EVERY",
    "MAX_GENERATED_CELLS",
    "STACK_MARGIN",
    "AdditiveModel",
    "additive_model",
    "idastar_tiles",
]


def idastar_tiles(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None = None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None = None,
    executor: Any = None,
    workers: int | None = None,
    split_depth: int = 0,
) -> SearchResult:
    """Solve a sliding puzzle optimally with IDA* on one mutable board.

    :param puzzle: a sliding puzzle (``width``, ``height``, ``initial``, ``goal``).
    :param heuristic: an admissible heuristic for an optimal answer; pattern
        databases and table heuristics (Manhattan, misplaced) run fastest.
    :param limits: ``max_depth`` caps the bound; ``max_expanded`` and
        ``seconds`` stop the search cleanly (checked every node and every
        few thousand nodes respectively; the time counts from the call, so
        preparing the heuristic counts too, and a search that may expand no
        node, ``max_expanded=0`` or no time left, prepares nothing);
        ``max_frontier`` caps the path length.
    :param trace: record the search tree (uses the slower general path).
    :param executor: split each iteration into subtree tasks run on this
        :class:`concurrent.futures.Executor` (:mod:`lacak_sliding.tiles.idastar.split`).
    :param workers: the same on this many processes of lacak's own pool.
    :param split_depth: with ``executor`` or ``workers``: the depth of the nodes each
        task starts from (0: deep enough for many tasks per worker).
    :returns: the :class:`~lacak.SearchResult`; ``stats.iterations`` counts the bounds.
    :raises InvalidPuzzleError: the puzzle is not a sliding puzzle.
    """
    if executor is not None or workers is not None:
        return split_search(puzzle, heuristic=heuristic, limits=limits, trace=trace,
                            executor=executor, workers=workers, split_depth=split_depth)  # fmt: skip
    if split_depth:
        raise lacak.InvalidOptionError(
            "split_depth splits a search across workers: give an executor or workers too"
        )
    heuristic = checked(puzzle, heuristic)
    start = tuple(puzzle.initial)
    budget = limits.start()
    if not solvable(start, tuple(puzzle.goal), puzzle.width):
        return finish(puzzle, heuristic, budget, Tally(), StopReason.EXHAUSTED, None, 0)
    spent = budget.exceeded(0)
    if spent is not None:  # no node may be expanded: nothing to prepare (a pattern database)
        return finish(puzzle, heuristic, budget, Tally(), spent, None, 0)
    try:
        # a pattern database built now counts against the time limit: its build
        # checks the running budget between batches
        # the compiled engine's first compile, if it is due, overlaps loading the tables
        compile_ahead(puzzle, heuristic, budget.deadline)
        with budget:
            prepared = heuristic.for_puzzle(puzzle)
    except lacak.LimitReachedError:
        if not budget.time_up():
            raise
        return finish(puzzle, heuristic, budget, Tally(), StopReason.TIME, None, 0)
    return deepen(puzzle, engine_for(puzzle, prepared, heuristic, limits, budget, trace))

"""The IDA* iteration loop of ``idastar-tiles``, and the engine each search starts with.

:func:`engine_for` picks the fastest pure-Python engine for the prepared
heuristic (see :mod:`lacak_sliding.tiles.idastar`); :func:`deepen` runs its
iterations with growing bounds, checks the limits between them, moves to the
explicit stack when a bound gets too deep to recurse, and lets the compiled
engine take over when it pays (:mod:`lacak_sliding.tiles.idastar.engines`).
A split search (:mod:`lacak_sliding.tiles.idastar.split`) runs each subtree
with the same engines and the same :func:`upgrade`.
"""

from __future__ import annotations

from typing import Any

import lacak
from lacak import SearchResult, StopReason

from .generated import Generated
from .iteration import Engine, Search, Tally, finish, tile_cells
from .linear import Linear, is_linear_conflict
from .model import additive_model
from .stack import Calls, Stack

__all__ = ["checked", "compile_for_split", "deepen", "engine_for", "take_over", "upgrade"]


def checked(puzzle: Any, heuristic: lacak.Heuristic | None) -> lacak.Heuristic:
    """``heuristic``, once ``puzzle`` is known to be a sliding puzzle and a heuristic is
    given (the checks of every ``idastar-tiles`` search, split or not).

    :raises InvalidPuzzleError: the puzzle is not a sliding puzzle.
    :raises InvalidOptionError: no heuristic.
    """
    for attribute in ("width", "height", "initial", "goal"):
        if not hasattr(puzzle, attribute):
            raise lacak.InvalidPuzzleError(
                f"idastar-tiles needs a sliding puzzle; this one has no {attribute!r}"
            )
    if heuristic is None:
        raise lacak.InvalidOptionError("idastar-tiles needs a heuristic")
    return heuristic


def engine_for(
    puzzle: Any,
    prepared: Any,
    heuristic: lacak.Heuristic,
    limits: lacak.Limits,
    budget: lacak.Budget,
    trace: lacak.SearchTrace | None,
) -> Engine:
    """The fastest engine that runs ``prepared`` on this board (see the module docstring)."""
    search = Search(puzzle, heuristic, limits, budget)
    if not heuristic.admissible and search.max_depth is not None:
        # the fast engines stop once the bound passes the depth cap, which only an
        # admissible heuristic allows: the explicit stack cuts on depth instead
        return Stack(search, Calls(prepared), trace)
    model = None if trace is not None else additive_model(prepared, puzzle)
    if model is not None:
        goal_where = tile_cells(puzzle.goal)
        if model.value(goal_where) != 0 or (
            model.mirror is not None and model.value(model.mirrored(goal_where)) != 0
        ):
            model = None  # the generated search tests for the goal only where h == 0
    if model is not None:
        return Generated(search, model, prepared)
    if trace is None and is_linear_conflict(prepared, puzzle):
        return Linear(search, prepared)
    return Stack(search, Calls(prepared), trace)


def deepen(puzzle: Any, engine: Engine) -> SearchResult:
    """The IDA* iteration loop every engine shares: limits between iterations, the switch
    to the explicit stack when a bound gets too deep to recurse, and the result."""
    search = engine.search
    tally = Tally()
    bound = engine.first_bound()
    max_depth = search.max_depth
    while True:
        if search.depth_cut is None and max_depth is not None and bound > max_depth:
            # with an admissible heuristic, a goal within max_depth is found at a smaller bound
            return finish(puzzle, search.heuristic, search.budget, tally, StopReason.DEPTH,
                           None, max_depth)  # fmt: skip
        if search.deadline is not None and search.clock() >= search.deadline:
            return finish(puzzle, search.heuristic, search.budget, tally, StopReason.TIME,
                           None, int(bound))  # fmt: skip
        # the compiled engine takes over when it pays (lacak_sliding.tiles.idastar.engines)
        engine = upgrade(engine, tally)
        if not engine.fits(bound):  # too deep to recurse here: the explicit stack goes on
            engine = engine.fallback()
        tally.iterations += 1
        step = engine.iterate(bound, tally)
        if step.resume is not None:  # the compiled engine goes on from the same node
            engine, step = take_over(engine, bound, tally, step.resume)
        if step.found is not None:
            return finish(puzzle, search.heuristic, search.budget, tally, StopReason.GOAL,
                           step.found, len(step.found))  # fmt: skip
        if step.stopped is not None:
            return finish(puzzle, search.heuristic, search.budget, tally, step.stopped,
                           None, step.depth)  # fmt: skip
        bound = step.next_bound


# The compiled engine's module imports numpy (0.2 s) and, when it runs, numba: it is imported
# at the first iteration, not when the searchers are registered.


def upgrade(engine: Engine, tally: Tally, *, eager: bool = False) -> Engine:
    """:func:`lacak_sliding.tiles.idastar.engines.upgrade`: the engine for the next iteration."""
    from .engines import upgrade as upgrade_engine  # (deferred: numpy, see above)

    return upgrade_engine(engine, tally, eager=eager)


def take_over(engine: Engine, bound: float, tally: Tally, cells: list[int]) -> Any:
    """:func:`lacak_sliding.tiles.idastar.engines.take_over`: the compiled engine going on
    from the node the generated search stopped at, and how the iteration ended."""
    from .engines import take_over as take_over_engine  # (deferred: numpy, see above)

    return take_over_engine(engine, bound, tally, cells)


def compile_for_split(engine: Any) -> None:
    """:func:`lacak_sliding.tiles.idastar.engines.compile_for_split`, for a split search
    that has run long enough."""
    from .engines import compile_for_split as compile_engine  # (deferred: numpy, see above)

    compile_engine(engine)

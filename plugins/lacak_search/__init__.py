"""lacak_search: generic search strategies for any :class:`lacak.Puzzle`.

Registers ``dfs``, ``bfs``, ``best-first``, ``astar``, ``weighted-astar``,
``idastar``, ``uniform-cost``, ``bidirectional-bfs``, ``iddfs`` and ``rbfs``. They need nothing
but the Puzzle protocol (``bidirectional-bfs`` also a goal state and
``predecessors``); they honour :class:`lacak.Limits`, count honestly and
record into a :class:`lacak.SearchTrace` when given one. See ``docs/search.md``.

And the local search strategies (:mod:`.local`): ``hill-climbing``, ``first-choice``,
``simulated-annealing``, ``beam`` and ``genetic``, which climb the
:class:`lacak.Objective` a puzzle kind declares rather than following paths.

``optimal`` in a :class:`lacak.Searcher` means least-cost paths for any step
costs, so ``bfs`` and ``bidirectional-bfs`` are registered ``optimal=False``
and ``fewest_moves=True``: they return paths with the fewest moves, which are
least-cost paths only when every step costs the same (sliding puzzles, mazes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import lacak
from lacak.options import Number, OneOf

#: What the options accept from a request lacak does not trust (the web API's); the
#: values ``_common.DUPLICATES`` checks, repeated so that registering imports nothing.
_DUPLICATES = {"duplicates": OneOf("parent", "path", "closed")}


@lacak.hookimpl
def register_searchers(register: Callable[[lacak.Searcher], None]) -> None:
    """Register the generic strategies (their modules are imported only now)."""
    from . import breadth, depth, local, priority, recursive  # (deferred: until asked for)

    register(
        lacak.Searcher(
            name="dfs",
            search=depth.dfs,
            description="depth-first search to the depth limit; iterative deepening with iterative=true",
            heuristic="unused",
            options={"duplicates": "closed", "iterative": False},
            accepts=_DUPLICATES,
        )
    )
    register(
        lacak.Searcher(
            name="bfs",
            search=breadth.bfs,
            description="breadth-first search, level by level: fewest moves (least cost only "
            "when every step costs the same)",
            fewest_moves=True,
            heuristic="unused",
            options={"duplicates": "closed"},
            accepts=_DUPLICATES,
        )
    )
    register(
        lacak.Searcher(
            name="bidirectional-bfs",
            search=breadth.bidirectional_bfs,
            description="breadth-first from the start and from the goal until they meet: fewest "
            "moves (least cost only when every step costs the same)",
            fewest_moves=True,
            heuristic="unused",
        )
    )
    register(
        lacak.Searcher(
            name="uniform-cost",
            search=priority.uniform_cost,
            description="Dijkstra: cheapest path first, any non-negative step costs",
            optimal=True,
            heuristic="unused",
        )
    )
    register(
        lacak.Searcher(
            name="best-first",
            search=priority.best_first,
            description="greedy best-first: open list ordered by the heuristic, closed list of checked nodes",
            heuristic="required",
            options={"duplicates": "closed", "ties": "first"},
            accepts={**_DUPLICATES, "ties": OneOf("first", "last")},
        )
    )
    register(
        lacak.Searcher(
            name="astar",
            search=priority.astar,
            description="A*: smallest g + h first; optimal with an admissible heuristic",
            optimal=True,
            heuristic="required",
            options={"duplicates": "closed"},
            accepts=_DUPLICATES,
        )
    )
    register(
        lacak.Searcher(
            name="weighted-astar",
            search=priority.weighted_astar,
            description="weighted A*: smallest g + weight*h first; cost at most weight x optimal",
            heuristic="required",
            options={"weight": 2.0, "duplicates": "closed"},
            accepts={**_DUPLICATES, "weight": Number(minimum=1, maximum=1_000_000)},
        )
    )
    register(
        lacak.Searcher(
            name="idastar",
            search=depth.idastar,
            description="iterative-deepening A*: memory for one path only; optimal with an admissible heuristic",
            optimal=True,
            heuristic="optional",
        )
    )
    register(
        lacak.Searcher(
            name="iddfs",
            search=recursive.iddfs,
            description="iterative-deepening depth-first search: depth limits 0, 1, 2, ...; "
            "fewest moves (least cost only when every step costs the same), memory for one path",
            fewest_moves=True,
            heuristic="unused",
            options={"duplicates": "path"},
            accepts=_DUPLICATES,
        )
    )
    register(
        lacak.Searcher(
            name="rbfs",
            search=recursive.rbfs,
            description="recursive best-first search: best-first in linear space; optimal "
            "with an admissible heuristic",
            optimal=True,
            heuristic="optional",
        )
    )
    _register_local(register, local)


#: What local search options accept from a request lacak does not trust (the web API's).
_SEED = {"seed": Number(minimum=0, maximum=2**63 - 1)}
_CLIMB = {
    **_SEED,
    "sideways": Number(minimum=0, maximum=1_000_000),
    "restarts": Number(minimum=0, maximum=1_000_000),
}


def _register_local(register: Callable[[lacak.Searcher], None], local: Any) -> None:
    """Register the local search strategies (they need the puzzle kind's objective)."""
    register(
        lacak.Searcher(
            name="hill-climbing",
            search=local.hill_climbing,
            description="steepest-ascent hill climbing, with sideways moves and random restarts "
            "(local search: needs the kind's objective)",
            objective=True,
            options={"sideways": 0, "restarts": 0, "seed": 0},
            accepts=_CLIMB,
        )
    )
    register(
        lacak.Searcher(
            name="first-choice",
            search=local.first_choice,
            description="first-choice hill climbing: the first random neighbour that is better "
            "(local search: needs the kind's objective)",
            objective=True,
            options={"sideways": 0, "restarts": 0, "tries": 100, "seed": 0},
            accepts={**_CLIMB, "tries": Number(minimum=1, maximum=1_000_000)},
        )
    )
    register(
        lacak.Searcher(
            name="simulated-annealing",
            search=local.simulated_annealing,
            description="simulated annealing: worse moves taken with a probability that cools "
            "(local search: needs the kind's objective)",
            objective=True,
            options={
                "schedule": "exponential",
                "temperature": 20.0,
                "cooling": 0.005,
                "steps": 10_000,
                "seed": 0,
            },
            accepts={
                **_SEED,
                "schedule": OneOf("exponential", "linear", "logarithmic"),
                "temperature": Number(minimum=0, maximum=1e12),
                "cooling": Number(minimum=0, maximum=1e6),
                "steps": Number(minimum=0, maximum=100_000_000),
            },
        )
    )
    register(
        lacak.Searcher(
            name="beam",
            search=local.beam,
            description="local beam search: the k best neighbours of k states "
            "(local search: needs the kind's objective)",
            objective=True,
            options={"k": 10, "seed": 0},
            accepts={**_SEED, "k": Number(minimum=1, maximum=100_000)},
        )
    )
    register(
        lacak.Searcher(
            name="genetic",
            search=local.genetic,
            description="genetic algorithm: a population bred by crossover and mutation "
            "(local search: needs the kind's objective and crossover)",
            objective=True,
            options={
                "population": 50,
                "mutation": 0.1,
                "generations": 1000,
                "elitism": True,
                "seed": 0,
            },
            accepts={
                **_SEED,
                "population": Number(minimum=2, maximum=100_000),
                "mutation": Number(minimum=0, maximum=1),
                "generations": Number(minimum=0, maximum=100_000_000),
            },
        )
    )

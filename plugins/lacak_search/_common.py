"""What the strategies share: search-tree nodes, duplicate policies, counters.

Every strategy builds a tree of :class:`Node` records (a state, its parent
node, the action and step cost that led to it, its depth and path cost), so
the path to a goal is read back by walking parents, whichever duplicate
policy was used.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from numbers import Real
from typing import Any

import lacak
from lacak import SearchResult, StopReason

__all__ = [
    "CUT",
    "DUPLICATES",
    "GOAL",
    "LEAF",
    "Counters",
    "Node",
    "check_duplicates",
    "check_flag",
    "check_number",
    "estimator",
    "expand",
    "finish",
    "on_path",
]

#: Duplicate policies: ``"parent"`` (the classic textbook rule: a child equal
#: to its grandparent is not generated), ``"path"`` (no state twice on one
#: path) and ``"closed"`` (no state twice in the whole search).
DUPLICATES = ("parent", "path", "closed")


class Node:
    """One node of a search tree."""

    __slots__ = ("action", "depth", "g", "h", "parent", "state", "step", "tid")

    def __init__(
        self,
        state: Hashable,
        parent: Node | None = None,
        action: Hashable | None = None,
        step: float = 0.0,
        g: float = 0.0,
        depth: int = 0,
        h: float | None = None,
        tid: int = -1,
    ) -> None:
        self.state = state
        self.parent = parent
        self.action = action
        self.step = step
        self.g = g
        self.depth = depth
        self.h = h
        self.tid = tid

    def path(self) -> tuple[list[Hashable], list[Hashable], float]:
        """``(actions, states, cost)`` from the root to this node."""
        actions: list[Hashable] = []
        states: list[Hashable] = []
        cost = 0.0
        node: Node | None = self
        while node is not None:
            states.append(node.state)
            if node.parent is not None:
                actions.append(node.action)
                cost += node.step
            node = node.parent
        actions.reverse()
        states.reverse()
        return actions, states, cost


#: What :func:`expand` says of a node instead of its children's depth: it is a goal; it is
#: at the depth bound and has children, which are not searched; it is there and has none.
GOAL, CUT, LEAF = -1, -2, -3


def expand(
    is_goal: Callable[[Hashable], bool],
    successors: Callable[[Hashable], Any],
    trace: lacak.SearchTrace | None,
    bound: int | None,
) -> Callable[[Node, bool], int]:
    """The node step of every generic searcher (:func:`~lacak_search.breadth.bfs`,
    :func:`~lacak_search.depth.dfs`, the best-first family of
    :mod:`~lacak_search.priority`) for one search, taken once a node has left the
    frontier and the budget let it be expanded: the trace marks it expanded, it is
    checked for the goal, and a node at the depth ``bound`` has no children generated.

    The children are the caller's to generate, by its own duplicate rule (what
    "closed" keeps differs: states, depths, costs).

    :returns: ``step(node, cut)``, which gives the depth of the node's children; or
        :data:`GOAL`, :data:`CUT` (at the bound, with children not searched) or
        :data:`LEAF` (at the bound, none). ``cut``: whether a node at the bound with
        children was met already (then its children are not looked for again).
    """

    if trace is None and bound is None:  # (the usual search, one test fewer a node)

        def plain(node: Node, cut: bool) -> int:
            return GOAL if is_goal(node.state) else node.depth + 1

        return plain

    def step(node: Node, cut: bool) -> int:
        if trace is not None:
            trace.expand(node.tid)
        if is_goal(node.state):
            return GOAL
        depth = node.depth + 1
        if bound is not None and depth > bound:
            if trace is not None and trace.stepping:  # (the children the bound leaves out)
                for _action, state, cost in successors(node.state):
                    trace.prune(node.tid, state, "depth", g=node.g + cost)
            return CUT if cut or any(True for _ in successors(node.state)) else LEAF
        return depth

    return step


def on_path(node: Node, state: Hashable) -> bool:
    """Whether ``state`` is ``node``'s state or one of its ancestors'."""
    walk: Node | None = node
    while walk is not None:
        if walk.state == state:
            return True
        walk = walk.parent
    return False


def check_duplicates(value: str, strategy: str) -> str:
    """Validate a ``duplicates`` option.

    :raises InvalidOptionError: not one of :data:`DUPLICATES`.
    """
    if not isinstance(value, str) or value not in DUPLICATES:
        raise lacak.InvalidOptionError(
            f"strategy {strategy!r}: duplicates must be one of {', '.join(DUPLICATES)}, "
            f"got {value!r}"
        )
    return value


def check_flag(value: Any, name: str, strategy: str) -> bool:
    """Validate a yes/no option with :func:`lacak.as_flag` (a ``bool``, or
    ``true``/``false``, ``yes``/``no``, ``on``/``off``, ``1``/``0`` in any case;
    ``iterative="no"`` must not turn iterative deepening on).

    :raises InvalidOptionError: not a bool nor one of those words.
    """
    return lacak.as_flag(value, f"strategy {strategy!r}: {name}")


def check_number(value: Any, name: str, strategy: str, *, minimum: float) -> float:
    """Validate a numeric option: a finite real number (not a ``bool``) ``>= minimum``.

    :raises InvalidOptionError: not a number, a bool, not finite, or below ``minimum``.
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, Real)
        or not math.isfinite(value)
        or value < minimum
    ):
        raise lacak.InvalidOptionError(
            f"strategy {strategy!r}: {name} must be a number >= {minimum:g}, got {value!r}"
        )
    return float(value)


def estimator(
    heuristic: lacak.Heuristic | None, puzzle: Any, budget: lacak.Budget
) -> Callable[[Hashable], float] | StopReason:
    """The heuristic's fast form for ``puzzle``, or ``h = 0`` without one.

    Preparing it (building a pattern database, say) counts against the
    search's time: it runs as the ``budget``'s set-up (``with budget``), so
    set-up code that calls :func:`lacak.check_deadline` stops at its deadline.
    A search that may expand no node (``max_expanded=0``, or no time left)
    prepares nothing.

    :returns: the estimator, or the :class:`~lacak.StopReason` that ended the search
        before it began (the time ran out while preparing it, or no node may be expanded).
    """
    if heuristic is None:
        return lambda _state: 0
    spent = budget.exceeded(0)
    if spent is not None:  # no node may be expanded: nothing to prepare (a pattern database)
        return spent
    try:
        with budget:
            return heuristic.for_puzzle(puzzle)
    except lacak.LimitReachedError:
        if budget.time_up():
            return StopReason.TIME
        raise


class Counters:
    """The honest counters of one search (kept in locals on hot paths, stored here at the end)."""

    __slots__ = ("depth", "expanded", "generated", "iterations", "max_frontier")

    def __init__(self) -> None:
        self.expanded = 0
        self.generated = 0
        self.max_frontier = 0
        self.depth = 0
        self.iterations = 1


def finish(
    puzzle: Any,
    *,
    strategy: str,
    heuristic: lacak.Heuristic | None,
    budget: lacak.Budget,
    counters: Counters,
    stopped: StopReason,
    goal: Node | None = None,
    trace: lacak.SearchTrace | None = None,
    path: tuple[list[Hashable], list[Hashable], float] | None = None,
) -> SearchResult:
    """The :class:`~lacak.SearchResult` of a search that stopped, built by the core's
    :meth:`SearchResult.finished <lacak.SearchResult.finished>` from the counters and the
    goal node's path.

    :param goal: the goal node when one was found (its path is the answer; the trace
        marks it).
    :param path: an explicit ``(actions, states, cost)`` instead of ``goal``
        (bidirectional searches join two half paths).
    """
    if goal is not None:
        if trace is not None:
            trace.mark_goal(goal.tid)
        path = goal.path()
    actions, states, cost = path if path is not None else ((), None, None)
    return SearchResult.finished(
        puzzle.initial,
        stopped,
        states=states,
        actions=actions,
        cost=cost,
        expanded=counters.expanded,
        generated=counters.generated,
        max_frontier=counters.max_frontier,
        depth=counters.depth,
        iterations=counters.iterations,
        budget=budget,
        heuristic=heuristic,
        strategy=strategy,
        trace=trace,
    )

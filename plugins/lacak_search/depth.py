"""Depth-first strategies: depth-limited DFS (with iterative deepening) and IDA*.

Both keep only the current path (and, for DFS, the siblings still to visit)
in memory, so they search spaces far larger than a closed set could hold.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

import lacak
from lacak import StopReason

from ._common import (
    CUT,
    GOAL,
    Counters,
    Node,
    check_duplicates,
    check_flag,
    estimator,
    expand,
    finish,
    on_path,
)

__all__ = ["dfs", "idastar"]


def dfs(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None = None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None = None,
    duplicates: str = "closed",
    iterative: bool = False,
) -> lacak.SearchResult:
    """Depth-first search, limited by ``limits.max_depth``.

    The classic depth-limited search: follow first children down to the
    depth limit, check the deepest level, then back up to the nearest
    ancestor with an unvisited child. Children are visited in the order
    ``puzzle.successors`` yields them. Each node is checked for the goal when
    it is expanded.

    :param duplicates: ``"closed"`` (default) skips a state already reached at
        the same or a smaller depth, which keeps the search complete under a
        depth limit; ``"parent"`` only refuses to step straight back to the
        grandparent (the textbook rule: exponential, and without a depth limit
        it can loop forever on cycles); ``"path"`` refuses states already on the
        current path.
    :param iterative: iterative deepening: run with depth limits 0, 1, 2, ...
        (up to ``limits.max_depth``) until a goal is found, so the first goal
        found is the one with the fewest moves. A ``bool``, or the words
        ``true``/``false``, ``yes``/``no``, ``on``/``off``, ``1``/``0``.
    :returns: a :class:`~lacak.SearchResult`; ``stopped`` is ``depth-limit``
        when nodes at the depth limit had children that were not searched.
    :raises InvalidOptionError: an unknown ``duplicates`` or an ``iterative`` that is
        not a yes/no value.

    .. rubric:: Examples

    >>> import lacak
    >>> from lacak.testing import GraphPuzzle
    >>> g = GraphPuzzle(edges={0: (("a", 1, 1), ("b", 2, 1)), 2: (("c", 3, 1),)},
    ...                 initial=0, goals={3})
    >>> lacak.solve(g, "dfs").actions
    ('b', 'c')
    """
    check_duplicates(duplicates, "dfs")
    iterative = check_flag(iterative, "iterative", "dfs")
    budget = limits.start()
    counters = Counters()
    if trace is not None:
        trace.begin_steps("lifo")
    if iterative:
        counters.iterations = 0
        bound = 0
        while True:
            counters.iterations += 1
            goal, stopped = _depth_limited(puzzle, budget, counters, trace, duplicates, bound)
            if stopped is not StopReason.DEPTH or bound == limits.max_depth:
                break
            bound += 1
    else:
        goal, stopped = _depth_limited(
            puzzle, budget, counters, trace, duplicates, limits.max_depth
        )
    return finish(
        puzzle,
        strategy="dfs",
        heuristic=None,
        budget=budget,
        counters=counters,
        stopped=stopped,
        goal=goal,
        trace=trace,
    )


def _depth_limited(
    puzzle: Any,
    budget: lacak.Budget,
    counters: Counters,
    trace: lacak.SearchTrace | None,
    duplicates: str,
    bound: int | None,
) -> tuple[Node | None, StopReason]:
    successors = puzzle.successors
    is_goal = puzzle.is_goal
    root = Node(puzzle.initial)
    if trace is not None:
        trace.restart()
        root.tid = trace.add(None, root.state)
    step = expand(is_goal, successors, trace, bound)
    stack = [root]
    closed = duplicates == "closed"
    parent_only = duplicates == "parent"
    seen: dict[Hashable, int] = {root.state: 0} if closed else {}
    cut = False
    # the counters in locals while the search runs (an iterative search adds to them)
    expanded, generated = counters.expanded, counters.generated
    deepest, widest = counters.depth, counters.max_frontier
    try:
        while stack:
            stop = budget.exceeded(expanded, len(stack), len(seen))
            if stop is not None:
                return None, stop
            node = stack.pop()
            expanded += 1
            depth = step(node, cut)
            if depth < 0:
                if depth == GOAL:
                    return node, StopReason.GOAL
                cut = cut or depth == CUT
                continue
            children = []
            for action, state, cost in successors(node.state):
                if parent_only:
                    if node.parent is not None and state == node.parent.state:
                        if trace is not None:
                            trace.prune(node.tid, state, "parent", g=node.g + cost)
                        continue
                elif closed:
                    previous = seen.get(state)
                    if previous is not None and (bound is None or previous <= depth):
                        if trace is not None:
                            trace.prune(node.tid, state, "seen", g=node.g + cost)
                        continue
                    seen[state] = depth
                elif on_path(node, state):
                    if trace is not None:
                        trace.prune(node.tid, state, "path", g=node.g + cost)
                    continue
                child = Node(state, node, action, cost, node.g + cost, depth)
                if trace is not None:
                    child.tid = trace.add(node.tid, state, action, depth=depth, g=child.g)
                children.append(child)
            if children:
                generated += len(children)
                if depth > deepest:
                    deepest = depth
                children.reverse()
                stack.extend(children)
                if len(stack) > widest:
                    widest = len(stack)
        return None, (StopReason.DEPTH if cut else StopReason.EXHAUSTED)
    finally:
        counters.expanded = expanded
        counters.generated = generated
        counters.depth = deepest
        counters.max_frontier = widest


def idastar(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None = None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None = None,
) -> lacak.SearchResult:
    """Iterative-deepening A* (Korf 1985).

    Depth-first searches bounded by ``f = g + h``; each iteration raises the
    bound to the smallest ``f`` that exceeded the previous one. Memory is the
    current path only; states already on the path are not revisited. With an
    admissible heuristic the first goal found is a least-cost one; without a
    heuristic it is iterative deepening on path cost.

    :returns: a :class:`~lacak.SearchResult`; ``stats.iterations`` counts the
        bounds tried.

    .. rubric:: Examples

    >>> import lacak
    >>> from lacak.testing import GraphPuzzle
    >>> g = GraphPuzzle(edges={0: (("a", 1, 5), ("b", 2, 1)), 1: (("c", 3, 1),),
    ...                        2: (("d", 3, 1),)}, initial=0, goals={3})
    >>> lacak.solve(g, "idastar").actions
    ('b', 'd')
    """
    budget = limits.start()
    counters = Counters()
    counters.iterations = 0
    est = estimator(heuristic, puzzle, budget)
    if isinstance(est, StopReason):
        return finish(
            puzzle,
            strategy="idastar",
            heuristic=heuristic,
            budget=budget,
            counters=counters,
            stopped=est,
        )
    successors = puzzle.successors
    is_goal = puzzle.is_goal
    max_depth = limits.max_depth
    initial = puzzle.initial
    root_h = est(initial)
    bound = root_h
    expanded = generated = 0

    def done(stopped: StopReason, goal: Node | None = None) -> lacak.SearchResult:
        counters.expanded = expanded
        counters.generated = generated
        return finish(
            puzzle,
            strategy="idastar",
            heuristic=heuristic,
            budget=budget,
            counters=counters,
            stopped=stopped,
            goal=goal,
            trace=trace,
        )

    if trace is not None:
        trace.begin_steps("path")
    while True:
        counters.iterations += 1
        root = Node(initial, h=root_h)
        if trace is not None:
            trace.restart()
            root.tid = trace.add(None, initial, h=root_h)
        stop = budget.exceeded(expanded, 1)
        if stop is not None:
            return done(stop)
        expanded += 1
        if trace is not None:
            trace.expand(root.tid)
        if is_goal(initial):
            return done(StopReason.GOAL, root)
        next_bound = math.inf
        cut = False
        on_path_now = {initial}
        stack = [(root, iter(successors(initial)))]
        while stack:
            node, children = stack[-1]
            for action, state, cost in children:
                if state in on_path_now:
                    if trace is not None:
                        trace.prune(node.tid, state, "path", g=node.g + cost)
                    continue
                depth = node.depth + 1
                if max_depth is not None and depth > max_depth:
                    cut = True
                    if trace is not None:
                        trace.prune(node.tid, state, "depth", g=node.g + cost)
                    continue
                g = node.g + cost
                h = est(state)
                generated += 1
                if depth > counters.depth:
                    counters.depth = depth
                child = Node(state, node, action, cost, g, depth, h)
                if trace is not None:
                    child.tid = trace.add(node.tid, state, action, depth=depth, g=g, h=h)
                if g + h > bound:
                    if g + h < next_bound:
                        next_bound = g + h
                    if trace is not None:
                        trace.reject(child.tid, "bound")
                    continue
                stop = budget.exceeded(expanded, len(stack))
                if stop is not None:
                    return done(stop)
                expanded += 1
                if trace is not None:
                    trace.expand(child.tid)
                if is_goal(state):
                    return done(StopReason.GOAL, child)
                on_path_now.add(state)
                stack.append((child, iter(successors(state))))
                if len(stack) > counters.max_frontier:
                    counters.max_frontier = len(stack)
                break
            else:
                stack.pop()
                on_path_now.discard(node.state)
        if next_bound == math.inf:
            return done(StopReason.DEPTH if cut else StopReason.EXHAUSTED)
        bound = next_bound

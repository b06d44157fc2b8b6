"""Iterative-deepening depth-first search and recursive best-first search (AIMA 3.4.5, 3.5.3).

Both keep memory linear in the depth of the search: ``iddfs`` the current path (and
the siblings still to visit), ``rbfs`` the current path with each node's children and
their backed-up f-values. ``rbfs`` recurses without Python's recursion: each level is a
generator on an explicit stack, so a long path cannot overflow the interpreter's stack.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import Any

import attrs
import lacak
from lacak import StopReason

from . import depth
from ._common import Counters, Node, estimator, finish, on_path

__all__ = ["iddfs", "rbfs"]


def iddfs(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None = None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None = None,
    duplicates: str = "path",
) -> lacak.SearchResult:
    """Iterative-deepening depth-first search (AIMA figure 3.18): depth-limited searches with
    limits 0, 1, 2, ... (up to ``limits.max_depth``) until one finds a goal, so the goal
    found is a shallowest one (fewest moves), with the memory of a depth-first search.
    ``stats.iterations`` counts the limits tried.

    :param duplicates: ``"path"`` (default: no state twice on one path, memory for one path
        only), ``"closed"`` (no state twice at the same or a greater depth within an
        iteration: fewer nodes, more memory) or ``"parent"``.

    .. rubric:: Examples

    >>> import lacak
    >>> from lacak.testing import GraphPuzzle
    >>> g = GraphPuzzle(edges={0: (("a", 1, 1), ("b", 2, 1)), 1: (("c", 3, 1),),
    ...                        3: (("d", 9, 1),), 2: (("e", 9, 1),)}, initial=0, goals={9})
    >>> result = lacak.solve(g, "iddfs")
    >>> result.actions, result.stats.iterations
    (('b', 'e'), 3)
    """
    result = depth.dfs(
        puzzle, heuristic=None, limits=limits, trace=trace, duplicates=duplicates, iterative=True
    )
    return attrs.evolve(result, strategy="iddfs")


class _Child:
    """A child in RBFS: its node and its f-value, backed up as the search returns."""

    __slots__ = ("f", "node")

    def __init__(self, node: Node, f: float) -> None:
        self.node = node
        self.f = f


#: What a level of RBFS gives back: the goal node or ``None``, and the node's new f-value.
_Answer = tuple[Node | None, float]
#: A level asks for a child to be searched under a bound: ``(child, bound)``.
_Ask = tuple[_Child, float]


def rbfs(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None = None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None = None,
) -> lacak.SearchResult:
    """Recursive best-first search (Korf 1993; AIMA figure 3.26).

    Best-first search in linear space: at each node, search the child of least ``f = g +
    h`` while its ``f`` is within the best alternative's; when it goes over, forget its
    subtree, keeping its best ``f`` (backed up) to come back to it later. With an
    admissible heuristic the first goal found is a least-cost one; it may expand a node
    many times (``expanded`` counts every expansion). A child already on the current
    path is not generated, so it ends on any finite graph. Without a heuristic, ``h =
    0``.

    .. rubric:: Examples

    >>> import lacak
    >>> from lacak.testing import GraphPuzzle
    >>> g = GraphPuzzle(edges={0: (("a", 1, 5), ("b", 2, 1)), 1: (("c", 3, 1),),
    ...                        2: (("d", 1, 1), ("e", 3, 9))}, initial=0, goals={3})
    >>> lacak.solve(g, "rbfs").actions
    ('b', 'd', 'c')
    """
    budget = limits.start()
    counters = Counters()
    h = estimator(heuristic, puzzle, budget)
    if isinstance(h, StopReason):
        return finish(puzzle, strategy="rbfs", heuristic=heuristic, budget=budget,
                      counters=counters, stopped=h)  # fmt: skip
    estimate = h
    is_goal, successors = puzzle.is_goal, puzzle.successors
    stopped: list[StopReason] = []  # (a limit that stopped it, once one has)
    cut = [False]
    frontier = [0]

    def level(node: Node, f_node: float, bound: float) -> Generator[_Ask, _Answer, _Answer]:
        if trace is not None:
            trace.expand(node.tid)
        counters.expanded += 1
        if is_goal(node.state):
            return node, f_node
        if not budget.depth_allowed(node.depth + 1):
            cut[0] = cut[0] or any(True for _ in successors(node.state))
            return None, math.inf
        children: list[_Child] = []
        for action, state, cost in successors(node.state):
            if on_path(node, state):
                if trace is not None:
                    trace.prune(node.tid, state, "path", g=node.g + cost)
                continue
            child = Node(state, node, action, cost, node.g + cost, node.depth + 1)
            child.h = estimate(state)
            if trace is not None:
                child.tid = trace.add(node.tid, state, action, depth=child.depth, g=child.g,
                                      h=child.h)  # fmt: skip
            children.append(_Child(child, max(child.g + child.h, f_node)))
        counters.generated += len(children)
        counters.depth = max(counters.depth, node.depth + (1 if children else 0))
        if not children:
            return None, math.inf
        frontier[0] += len(children)
        counters.max_frontier = max(counters.max_frontier, frontier[0])
        try:
            while True:
                children.sort(key=lambda c: c.f)
                best = children[0]
                if best.f > bound or best.f == math.inf:  # (inf: no goal below any child)
                    return None, best.f
                alternative = children[1].f if len(children) > 1 else math.inf
                found, best.f = yield best, min(bound, alternative)
                if found is not None or stopped:
                    return found, best.f
        finally:
            frontier[0] -= len(children)

    spent = budget.exceeded(0)
    if spent is not None:  # (no node may be expanded)
        return finish(puzzle, strategy="rbfs", heuristic=heuristic, budget=budget,
                      counters=counters, stopped=spent)  # fmt: skip
    root = Node(puzzle.initial, h=estimate(puzzle.initial))
    if trace is not None:
        root.tid = trace.add(None, root.state, h=root.h)
    stack = [level(root, root.h or 0.0, math.inf)]
    answer: _Answer = (None, math.inf)
    sent: _Answer | None = None
    while stack:
        try:
            ask = stack[-1].send(sent) if sent is not None else next(stack[-1])
        except StopIteration as done:
            stack.pop()
            answer = done.value
            sent = answer
            continue
        stop = budget.exceeded(counters.expanded, frontier[0])
        if stop is not None:
            stopped.append(stop)
            sent = (None, math.inf)  # (each level returns at once: the stop is noted)
            continue
        child, bound = ask
        stack.append(level(child.node, child.f, bound))
        sent = None
    goal = answer[0]
    reason = (StopReason.GOAL if goal is not None else stopped[0] if stopped
              else StopReason.DEPTH if cut[0] else StopReason.EXHAUSTED)  # fmt: skip
    return finish(puzzle, strategy="rbfs", heuristic=heuristic, budget=budget,
                  counters=counters, stopped=reason, goal=goal, trace=trace)  # fmt: skip

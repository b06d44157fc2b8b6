"""Strategies driven by a priority queue: uniform-cost, greedy best-first, A*, weighted A*.

One engine orders the open list by ``f = a*g + b*h`` (ties: smaller ``h``,
then first generated):

============== ===== ===== ==========================================
strategy        a     b    what it is
============== ===== ===== ==========================================
uniform-cost    1     0    Dijkstra's algorithm: least cost, no heuristic
best-first      0     1    greedy: always the node that looks closest
astar           1     1    A*: least cost with an admissible heuristic
weighted-astar  1     w    faster, at most ``w`` times the least cost
============== ===== ===== ==========================================

With ``Limits(max_depth=d)``, "least cost" means the least cost among paths
of at most ``d`` moves: a state's cheaper copy does not replace a shallower
one (it may have no room left to reach the goal); both are kept unless one is
no deeper and no dearer than the other. So a goal within the depth limit is
always found, and ``uniform-cost`` and ``astar`` (admissible heuristic)
return the cheapest path among those of at most ``d`` moves.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from heapq import heappop, heappush
from typing import Any

import lacak
from lacak import StopReason

from ._common import (
    CUT,
    GOAL,
    Counters,
    Node,
    check_duplicates,
    check_number,
    estimator,
    expand,
    finish,
    on_path,
)

__all__ = ["astar", "best_first", "uniform_cost", "weighted_astar"]


def _search(
    puzzle: Any,
    *,
    strategy: str,
    heuristic: lacak.Heuristic | None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None,
    g_weight: float,
    h_weight: float,
    duplicates: str,
    reopen: bool,
    ties: str = "first",
) -> lacak.SearchResult:
    check_duplicates(duplicates, strategy)
    if ties not in ("first", "last"):
        raise lacak.InvalidOptionError(
            f"{strategy} option 'ties' is first or last, got {ties!r}"
        )
    sign = 1 if ties == "first" else -1  # among equal keys: first made, or last made, first
    budget = limits.start()
    counters = Counters()
    est = estimator(heuristic if h_weight else None, puzzle, budget)
    if isinstance(est, StopReason):
        return finish(
            puzzle,
            strategy=strategy,
            heuristic=heuristic,
            budget=budget,
            counters=counters,
            stopped=est,
        )
    successors = puzzle.successors
    is_goal = puzzle.is_goal
    max_depth = limits.max_depth
    counter = itertools.count()
    closed = duplicates == "closed"
    parent_only = duplicates == "parent"

    h0 = est(puzzle.initial)
    root = Node(puzzle.initial, h=h0)
    if trace is not None:
        trace.begin_steps("priority", g_weight, h_weight, ties=ties)
        root.tid = trace.add(None, root.state, h=h0 if heuristic is not None else None)
    frontier: list[tuple[float, float, int, Node]] = [(h_weight * h0, h0, sign * next(counter), root)]
    # closed, no depth limit: the best g per state (every state ever generated; reopened when
    # a cheaper path shows up, if ``reopen``)
    best: dict[Hashable, float] = {root.state: 0.0}
    # closed with a depth limit: per state, the (g, depth) of the copies kept, none of which
    # dominates another (see _dominated)
    labels: dict[Hashable, list[tuple[float, int]]] | None = None
    if closed and max_depth is not None:
        labels = {root.state: [(0.0, 0)]}
        best = {}
    step = expand(is_goal, successors, trace, max_depth)
    kept_states = best if labels is None else labels  # (what the closed-size limit counts)
    expanded = generated = deepest = widest = 0
    cut = False
    goal: Node | None = None
    stopped = StopReason.EXHAUSTED
    while frontier:
        _f, _h, _n, node = heappop(frontier)
        if closed:
            if labels is not None:
                if (node.g, node.depth) not in labels[node.state]:
                    if trace is not None:
                        trace.discard(node.tid)
                    continue  # a copy that dominates this one was queued since
            elif node.g > best[node.state]:
                if trace is not None:
                    trace.discard(node.tid)
                continue  # a cheaper copy of this state was queued since
        stop = budget.exceeded(expanded, len(frontier) + 1, len(kept_states))
        if stop is not None:
            stopped = stop
            break
        expanded += 1
        depth = step(node, cut)
        if depth < 0:
            if depth == GOAL:
                goal, stopped = node, StopReason.GOAL
                break
            cut = cut or depth == CUT
            continue
        state = node.state
        before = generated
        for action, child_state, cost in successors(state):
            g = node.g + cost
            replaces = False
            if labels is not None:
                kept = labels.get(child_state)
                if kept is None:
                    labels[child_state] = [(g, depth)]
                elif not _keep(kept, g, depth, reopen):
                    if trace is not None:
                        trace.prune(node.tid, child_state, "seen", g=g)
                    continue
            elif closed:
                previous = best.get(child_state)
                if previous is not None and (not reopen or g >= previous):
                    if trace is not None:
                        trace.prune(node.tid, child_state, "seen", g=g)
                    continue
                best[child_state] = g
                replaces = previous is not None
            elif parent_only:
                if node.parent is not None and child_state == node.parent.state:
                    if trace is not None:
                        trace.prune(node.tid, child_state, "parent", g=g)
                    continue
            elif on_path(node, child_state):
                if trace is not None:
                    trace.prune(node.tid, child_state, "path", g=g)
                continue
            h = est(child_state)
            child = Node(child_state, node, action, cost, g, depth, h)
            generated += 1
            if trace is not None:
                child.tid = trace.add(
                    node.tid,
                    child_state,
                    action,
                    depth=depth,
                    g=g,
                    h=h if heuristic is not None else None,
                    supersede=replaces,
                    kept=labels[child_state] if labels is not None else None,
                )
            heappush(frontier, (g_weight * g + h_weight * h, h, sign * next(counter), child))
        if generated > before and depth > deepest:
            deepest = depth
        if len(frontier) > widest:
            widest = len(frontier)
    else:
        stopped = StopReason.DEPTH if cut else StopReason.EXHAUSTED
    counters.expanded = expanded
    counters.generated = generated
    counters.depth = deepest
    counters.max_frontier = widest
    return finish(
        puzzle,
        strategy=strategy,
        heuristic=heuristic if h_weight else None,
        budget=budget,
        counters=counters,
        stopped=stopped,
        goal=goal,
        trace=trace,
    )


def _keep(kept: list[tuple[float, int]], g: float, depth: int, by_cost: bool) -> bool:
    """Whether a new copy of a state, reached with cost ``g`` at ``depth``, is worth keeping
    under a depth limit; if so it joins ``kept`` and the copies it dominates leave it.

    A copy dominates another when it is no deeper and (``by_cost``) no more expensive:
    everything within the depth limit from the other is within it from this one too, and
    no dearer. Keeping a cheaper but deeper copy beside a shallower one is what finds the
    least-cost path among those of at most ``max_depth`` moves (a cheap deep copy alone
    could have no room left to reach the goal). Without ``by_cost`` (greedy best-first)
    only depth counts, as in depth-limited DFS.
    """
    for old_g, old_depth in kept:
        if old_depth <= depth and (not by_cost or old_g <= g):
            return False
    kept[:] = [
        (old_g, old_depth)
        for old_g, old_depth in kept
        if not (depth <= old_depth and (not by_cost or g <= old_g))
    ]
    kept.append((g, depth))
    return True


def uniform_cost(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None = None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None = None,
) -> lacak.SearchResult:
    """Uniform-cost search (Dijkstra): expand the cheapest path first.

    Returns a least-cost path for any non-negative step costs; with
    ``limits.max_depth``, the least-cost path among those of at most
    ``max_depth`` moves. The heuristic is not used.

    .. rubric:: Examples

    >>> import lacak
    >>> from lacak.testing import GraphPuzzle
    >>> g = GraphPuzzle(edges={0: (("a", 1, 5), ("b", 2, 1)), 1: (("c", 3, 1),),
    ...                        2: (("d", 3, 1),)}, initial=0, goals={3})
    >>> lacak.solve(g, "uniform-cost").cost
    2.0
    """
    return _search(
        puzzle,
        strategy="uniform-cost",
        heuristic=None,
        limits=limits,
        trace=trace,
        g_weight=1.0,
        h_weight=0.0,
        duplicates="closed",
        reopen=True,
    )


def best_first(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None = None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None = None,
    duplicates: str = "closed",
    ties: str = "first",
) -> lacak.SearchResult:
    """Greedy best-first search: always expand the open node with the smallest ``h``.

    The textbook version keeps two lists: *open* (generated, not yet checked,
    ordered by the heuristic) and *closed* (checked). Fast but not optimal.

    :param duplicates: ``"closed"`` (default) never generates a state twice;
        ``"parent"`` only refuses a child equal to its grandparent (the
        textbook rule, use it with a depth limit); ``"path"`` refuses states
        already on the node's path.
    :param ties: which of two open nodes with the same ``h`` goes first: ``"first"``
        made (default) or ``"last"`` made, which is what the course notes' queue does
        (a new node goes in before those of equal value: ``antrian1``'s order).
    """
    return _search(
        puzzle,
        strategy="best-first",
        heuristic=heuristic,
        limits=limits,
        trace=trace,
        g_weight=0.0,
        h_weight=1.0,
        duplicates=duplicates,
        reopen=False,
        ties=ties,
    )


def astar(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None = None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None = None,
    duplicates: str = "closed",
) -> lacak.SearchResult:
    """A* search (Hart, Nilsson and Raphael 1968): expand the smallest ``f = g + h``.

    With an admissible heuristic the path is a least-cost one (with
    ``limits.max_depth``: among the paths of at most ``max_depth`` moves);
    closed states are reopened when a cheaper path to them appears, so an
    admissible but inconsistent heuristic still gives optimal paths.

    :param duplicates: ``"closed"`` (default, graph search), ``"parent"`` or
        ``"path"`` (tree search with the textbook duplicate rules).

    .. rubric:: Examples

    >>> import lacak
    >>> puzzle = lacak.parse("sliding", "123405786")
    >>> lacak.solve(puzzle, "astar", heuristic="manhattan").actions
    ('R', 'D')
    """
    return _search(
        puzzle,
        strategy="astar",
        heuristic=heuristic,
        limits=limits,
        trace=trace,
        g_weight=1.0,
        h_weight=1.0,
        duplicates=duplicates,
        reopen=True,
    )


def weighted_astar(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None = None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None = None,
    weight: float = 2.0,
    duplicates: str = "closed",
) -> lacak.SearchResult:
    """Weighted A* (Pohl 1970): expand the smallest ``f = g + weight * h``.

    With an admissible heuristic the path costs at most ``weight`` times the
    least cost, and usually far fewer nodes are expanded than by A*.

    :param weight: the heuristic's weight, ``>= 1`` (``1`` is plain A*).
    :raises InvalidOptionError: a weight that is not a number (``True`` is not 1), below 1
        or not finite.
    """
    weight = check_number(weight, "weight", "weighted-astar", minimum=1)
    return _search(
        puzzle,
        strategy="weighted-astar",
        heuristic=heuristic,
        limits=limits,
        trace=trace,
        g_weight=1.0,
        h_weight=weight,
        duplicates=duplicates,
        reopen=True,
    )

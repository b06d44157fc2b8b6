"""``bfs-tiles``: breadth-first search specialised for sliding puzzles.

The same answers as the generic ``bfs`` (fewest moves), on boards encoded as
ints (:mod:`lacak_sliding.tiles.encoding`): one dict of parents, one list per
level, a move is two integer operations. Each child is checked for the goal
as it is generated, so the goal's level is not expanded; with an unreachable
goal it enumerates every reachable board (all 181,440 of the 8-puzzle in a
fraction of a second).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import lacak
from lacak import SearchResult, StopReason

from .encoding import Encoding, actions_along, check_puzzle, slow_limits

__all__ = ["bfs_tiles"]


def bfs_tiles(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None = None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None = None,
) -> SearchResult:
    """Breadth-first search specialised for sliding puzzles: fewest moves, level by level.

    Checks each child for the goal as it is generated, so the goal's level is
    not expanded; with an unreachable goal it enumerates every reachable
    board (181,440 for the 8-puzzle).

    .. rubric:: Examples

    >>> import lacak
    >>> p = lacak.parse("sliding", "123450786", goal="103425786")
    >>> lacak.solve(p, "bfs-tiles").actions
    ('L', 'U')
    """
    puzzle = check_puzzle(puzzle, "bfs-tiles")
    budget = limits.start()
    enc = Encoding(puzzle.width, puzzle.height)
    moves = enc.moves(puzzle)
    mask, blank_mask = enc.mask, enc.blank_mask
    start = enc.encode(puzzle.initial)
    goal = enc.encode(puzzle.goal)
    parent: dict[int, int] = {start: -1}
    tid_of: dict[int, int] = {}
    if trace is not None:
        tid_of[start] = trace.add(None, puzzle.initial)
    max_exp = limits.max_expanded
    max_depth = limits.max_depth
    slow = slow_limits(limits)
    expanded = generated = 0
    max_frontier = 1
    depth = 0
    found: int | None = None
    stopped = StopReason.EXHAUSTED
    layer = [start]
    if max_exp is not None and max_exp == 0:
        stopped, layer = StopReason.NODES, []
    elif start == goal:
        found, stopped, layer = start, StopReason.GOAL, []
        expanded = 1
    while layer:
        if max_depth is not None and depth >= max_depth:
            stopped = StopReason.DEPTH
            break
        following: list[int] = []
        append = following.append
        for key in layer:
            if max_exp is not None and expanded >= max_exp:
                stopped = StopReason.NODES
                break
            if slow:
                stop = budget.exceeded(expanded, len(layer) + len(following), len(parent))
                if stop is not None:
                    stopped = stop
                    break
            expanded += 1
            if trace is not None:
                trace.expand(tid_of.get(key, -1))
            for sh, mul, db, action, _cell in moves[key & blank_mask]:
                child = key + ((key >> sh) & mask) * mul + db
                if child in parent:
                    continue
                parent[child] = key
                append(child)
                if trace is not None:
                    tid_of[child] = trace.add(
                        tid_of.get(key, -1), enc.decode(child), action, depth=depth + 1, g=depth + 1
                    )
                if child == goal:
                    found = child
                    break
            if found is not None:
                break
        generated += len(following)
        if following:
            depth += 1
        if len(following) > max_frontier:
            max_frontier = len(following)
        if found is not None:
            stopped = StopReason.GOAL
            break
        if stopped is not StopReason.EXHAUSTED:
            break
        layer = following
    path = None
    if found is not None:
        keys: list[Hashable] = []
        key = found
        while key != -1:
            keys.append(key)
            key = parent[key]
        keys.reverse()
        path = [enc.decode(k) for k in keys]  # type: ignore[arg-type]
        if trace is not None:
            trace.mark_goal(tid_of.get(found, -1))
    return SearchResult.finished(
        puzzle.initial,
        stopped,
        states=path,
        actions=actions_along(path, puzzle.width) if path is not None else (),
        expanded=expanded,
        generated=generated,
        max_frontier=max_frontier,
        depth=depth,
        budget=budget,
        strategy="bfs-tiles",
        trace=trace,
    )

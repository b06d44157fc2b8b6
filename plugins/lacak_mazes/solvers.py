"""The maze plugin's own solvers, registered as strategies for ``kind="maze"``.

============== ============================ ======================================
strategy       works on                     returns
============== ============================ ======================================
tree-path      any maze                     a shortest path (the only path in a
                                            perfect maze); a breadth-first search
                                            on flat cell indices, the fast one
dead-end-fill  any maze                     a shortest path: dead ends are filled
                                            until only corridors between the ends
                                            and loops remain, then searched
wall-follower  perfect mazes; any maze in   the walk of a hand kept on one wall,
               which one wall piece touches loops erased; gives up (exhausted)
               both ends (say both on the   when the end only touches islands
               outer wall)                  the start's walls do not reach
tremaux        any maze                     the passages walked once (Trémaux's
                                            marks): a simple path, found whenever
                                            the end can be reached
pledge         any maze; guaranteed for an  the walk, loops erased; escapes to an
               end on the outer wall        end on the outer wall from anywhere
random-mouse   any maze                     the walk (seeded), loops erased; ends
                                            with probability 1
cul-de-sac-    any maze                     a shortest path: every part hanging off
fill                                        by one passage is filled, then searched
============== ============================ ======================================

Every one also solves mazes on every other grid
(:class:`~lacak_mazes.gridmaze.GridMaze`; the searches least-cost with
weights), through :mod:`lacak_mazes.classic`, which says each walker's
guarantee. The generic strategies of the search plugin (``bfs``, ``astar`` with the
``manhattan`` heuristic, ...) solve mazes too, through :class:`MazePuzzle`.
"""

from __future__ import annotations

import itertools
from typing import Any

import lacak
from lacak import SearchResult, StopReason
from lacak.options import Number, OneOf

from ._common import LETTER, E, N, S, W, flat_offsets, flat_steps
from .breadth_first import CHUNK, BreadthFirst

__all__ = [
    "SEARCHERS",
    "cul_de_sac_filling",
    "dead_end_filling",
    "pledge",
    "random_mouse",
    "tree_path",
    "tremaux",
    "wall_follower",
]


def _on_grid(puzzle: Any) -> bool:
    """Whether ``puzzle`` is a maze on a grid other than the plain rectangle's bitmask
    (a :class:`~lacak_mazes.gridmaze.GridMaze`), or a weighted rectangle: the classic
    module's generic code solves it (least cost, with weights)."""
    maze = getattr(puzzle, "maze", None)
    return hasattr(maze, "grid") or getattr(maze, "weights", None) is not None


def _unpack(puzzle: Any) -> tuple[Any, int, int, int]:
    maze = getattr(puzzle, "maze", None)
    if maze is None or not hasattr(maze, "cells"):
        raise lacak.InvalidPuzzleError(
            "the maze strategies need a MazePuzzle (maze.puzzle(start, end))"
        )
    width = maze.width
    start = puzzle.initial[0] * width + puzzle.initial[1]
    goal = puzzle.goal[0] * width + puzzle.goal[1]
    return maze, width, start, goal


def _finished(
    puzzle: Any, flat_path: list[int] | None, width: int, stopped: StopReason, **counts: Any
) -> SearchResult:
    """The result: found along ``flat_path`` (flat cells, start first), else stopped.

    :param counts: the counters, ``budget`` and ``strategy`` (see
        :meth:`lacak.SearchResult.finished`).
    """
    if flat_path is None:
        return SearchResult.finished(puzzle.initial, stopped, **counts)
    return SearchResult.finished(
        puzzle.initial,
        StopReason.GOAL,
        states=[divmod(i, width) for i in flat_path],
        actions=[_step_letter(a, b, width) for a, b in itertools.pairwise(flat_path)],
        **counts,
    )


def _step_letter(a: int, b: int, width: int) -> str:
    """The direction of a step between neighbouring flat cells (vertical first: in a maze one
    cell wide, a step of 1 is one of ``width``)."""
    delta = b - a
    if delta == width:
        return "S"
    if delta == -width:
        return "N"
    return "E" if delta == 1 else "W"


def _chunk(limits: lacak.Limits, expanded: int, frontier: int, closed: int) -> int:
    """How many cells to expand before the next look at the limits, so that no limit
    can be passed in between unseen.

    An expansion adds at most three cells to the frontier (four neighbours, one the
    cell came from) less the one expanded, and at most four to the cells reached.
    """
    count = CHUNK
    if limits.max_expanded is not None:
        count = min(count, limits.max_expanded - expanded)
    if limits.max_frontier is not None:
        count = min(count, (limits.max_frontier - frontier) // 3 + 1)
    if limits.max_closed is not None:
        count = min(count, (limits.max_closed - closed) // 4 + 1)
    return max(1, count)


def _breadth_first(
    puzzle: Any,
    *,
    budget: lacak.Budget,
    trace: lacak.SearchTrace | None,
    strategy: str,
    blocked: bytearray | None = None,
    already: int = 0,
) -> SearchResult:
    """The breadth-first search (:class:`~lacak_mazes.breadth_first.BreadthFirst`) of the
    puzzle, skipping ``blocked`` cells, under ``budget``.

    The search runs a chunk of cells at a time and looks at the budget in between;
    the chunks are small enough that it stops exactly where a search looking before
    every expansion would (the same counts, the same result). With a depth limit
    it goes a level at a time and drops the children of the deepest level allowed.

    ``budget`` is the whole solve's (its clock may have started before, for dead-end
    filling); ``already`` counts the expansions done before, which are also the cells
    ``blocked`` holds, so both count against the budget.
    """
    maze, width, start, goal = _unpack(puzzle)
    search = BreadthFirst(maze._bytes, width, start, blocked)
    queue = search.queue
    limits = budget.limits
    max_depth = limits.max_depth
    level, level_end = 0, 1  # the level being expanded, and where it ends in the queue
    stopped = StopReason.EXHAUSTED
    found = cut = False
    while not search.exhausted:
        expanded = already + search.expanded
        frontier = len(queue) - search.expanded
        closed = already + len(queue)
        reason = budget.exceeded(expanded, frontier, closed)
        if reason is None and budget.time_up():
            reason = StopReason.TIME
        if reason is not None:
            stopped = reason
            break
        count = _chunk(limits, expanded, frontier, closed)
        if max_depth is not None:
            if search.expanded == level_end:
                level, level_end = level + 1, len(queue)
            count = min(count, level_end - search.expanded)
        found = search.run(goal, count)
        if max_depth is not None and level >= max_depth and search.forget_after(level_end):
            cut = True  # cells one step deeper than allowed: not generated
        if found:
            break
    if not found and stopped is StopReason.EXHAUSTED and cut:
        stopped = StopReason.DEPTH
    if trace is not None:
        search.replay(trace, puzzle.initial, goal)
    return _finished(
        puzzle,
        search.path(goal) if found else None,
        width,
        stopped,
        expanded=already + search.expanded,
        generated=len(queue) - 1,
        max_frontier=search.max_frontier(),
        depth=search.depth(),
        budget=budget,
        strategy=strategy,
    )


def tree_path(
    puzzle: Any,
    *,
    heuristic: Any = None,
    limits: lacak.Limits = lacak.UNLIMITED,
    trace: lacak.SearchTrace | None = None,
) -> SearchResult:
    """The path between the puzzle's ends by breadth-first search on flat cell indices.

    In a perfect maze it is the only path; in any maze it is a shortest one.
    Solves a 1000x1000 maze in well under a second.

    >>> import lacak
    >>> maze = lacak.generate("maze", "wilson", (5, 5), seed=3).with_endpoints()
    >>> result = lacak.solve(maze.puzzle(), "tree-path")
    >>> result.states == maze.solution
    True
    """
    if _on_grid(puzzle):
        from . import classic  # (deferred: registering the searchers loads no solver)

        return classic.tree_path(puzzle, limits=limits, trace=trace)
    return _breadth_first(puzzle, budget=limits.start(), trace=trace, strategy="tree-path")


def dead_end_filling(
    puzzle: Any,
    *,
    heuristic: Any = None,
    limits: lacak.Limits = lacak.UNLIMITED,
    trace: lacak.SearchTrace | None = None,
) -> SearchResult:
    """Fill dead ends until none is left, then follow what remains.

    Steps: every cell with one opening (other than the start and the end) is
    a dead end; fill it, which may turn its neighbour into a dead end, and so
    on. In a perfect maze only the solution is left; in a maze with loops,
    the loops stay open and a breadth-first search through what is left finds
    a shortest path (filled cells are never on one).

    ``stats.expanded`` counts the filled cells plus the cells searched after. Both
    phases count against one :class:`lacak.Limits` budget: one clock, the filled
    cells as expansions and as the closed set, the cells waiting to be filled as
    the frontier.
    """
    if _on_grid(puzzle):
        from . import classic  # (deferred: as above)

        return classic.dead_end_filling(puzzle, limits=limits, trace=trace)
    maze, width, start, goal = _unpack(puzzle)
    budget = limits.start()
    import numpy as np  # here: registering the searchers loads this module, not numpy

    cells = maze._bytes
    steps = flat_steps(width)
    degree = bytearray(maze.degrees().tobytes())
    filled = bytearray(len(cells))
    dead = np.flatnonzero(np.frombuffer(bytes(degree), dtype=np.uint8) == 1).tolist()
    stack = [cell for cell in dead if cell != start and cell != goal]
    limited = limits != lacak.UNLIMITED
    count = 0
    top = len(stack)
    while stack:
        if limited:
            reason = budget.exceeded(count, len(stack), count)
            if reason is not None:
                return _finished(
                    puzzle,
                    None,
                    width,
                    reason,
                    expanded=count,
                    max_frontier=top,
                    budget=budget,
                    strategy="dead-end-fill",
                )
        here = stack.pop()
        filled[here] = 1
        count += 1
        for offset, _back in steps[cells[here]]:
            there = here + offset
            if not filled[there]:
                degree[there] -= 1
                if degree[there] == 1 and there != start and there != goal:
                    stack.append(there)
                    if len(stack) > top:
                        top = len(stack)
    return _breadth_first(
        puzzle,
        budget=budget,
        trace=trace,
        strategy="dead-end-fill",
        blocked=filled,
        already=count,
    )


#: For each heading (bit) and hand: the order of sides to try.
_RIGHT = {N: (E, N, W, S), E: (S, E, N, W), S: (W, S, E, N), W: (N, W, S, E)}
_LEFT = {N: (W, N, E, S), E: (N, E, S, W), S: (E, S, W, N), W: (S, W, N, E)}

#: For each hand and heading: the corner of the cell the hand touches (behind it, on
#: the hand's side), as (row, col) offsets from the cell's north-west corner.
_HAND_CORNER = {
    "right": {N: (1, 1), E: (1, 0), S: (0, 0), W: (0, 1)},
    "left": {N: (1, 0), E: (0, 0), S: (0, 1), W: (1, 1)},
}


def _headings(hand: str, cell: tuple[int, int], height: int, width: int) -> list[int]:
    """The four headings to start with, those that put the hand on the outer wall first.

    A walker at ``cell`` facing ``heading`` keeps its hand on the wall piece through
    one corner of the cell; the four headings touch the four corners.
    """

    def on_outer_wall(heading: int) -> bool:
        down, right = _HAND_CORNER[hand][heading]
        row, col = cell[0] + down, cell[1] + right
        return row in (0, height) or col in (0, width)

    return sorted((N, E, S, W), key=lambda heading: not on_outer_wall(heading))


def wall_follower(
    puzzle: Any,
    *,
    heuristic: Any = None,
    limits: lacak.Limits = lacak.UNLIMITED,
    trace: lacak.SearchTrace | None = None,
    hand: str = "right",
    erase_loops: bool = True,
) -> SearchResult:
    """Walk with one hand on the wall until the end.

    Steps: put the hand on a wall at a corner of the start cell (the outer wall
    when the start is on it); at each cell, turn towards the ``hand`` side if it
    is open, else go straight, else turn the other way, else go back. A walk
    that comes back to a cell facing the way it faced there before has gone
    all round its wall without meeting the end: put the hand on the wall at
    another corner of the start cell and walk again. After the (at most four)
    corners, give up: ``exhausted``.

    A walk goes round the whole of the wall piece it touches (the walls joined
    to it, on the side facing the walker), through every cell with a corner on
    that piece. So the end is found exactly when it can be reached and some
    wall piece touches both the start cell and the end cell: always in a
    perfect maze (all its walls are one piece), always when both cells are on
    the outer wall; in a maze with loops it may fail when the end only touches
    islands (walls not joined to one the start touches) or free-standing posts.

    :param hand: ``"right"`` or ``"left"``.
    :param erase_loops: return the walk with its back-and-forth erased (in a
        perfect maze: the solution) instead of every step walked. A ``bool`` or
        ``true``/``false``, ``yes``/``no``, ``on``/``off``, ``1``/``0``.
    :raises lacak.InvalidOptionError: an unknown hand, or an ``erase_loops`` that is not
        a yes/no value.

    Limits: ``max_expanded`` counts steps of every walk, ``max_depth`` bounds a walk's
    length, ``max_closed`` the cells of the walk kept in memory; the frontier is one cell.

    >>> import lacak
    >>> from lacak_mazes import Maze
    >>> open_room = Maze.from_rows([[6, 14, 12], [7, 15, 13], [3, 11, 9]])
    >>> result = lacak.solve(open_room.puzzle((0, 0), (2, 2)), "wall-follower")
    >>> result.found, result.length, result.stats.expanded
    (True, 4, 5)

    The walk follows the wall, not the shortest way (here round the room):

    >>> lacak.solve(open_room.puzzle((1, 0), (0, 1)), "wall-follower").length
    6
    """
    if hand not in ("right", "left"):
        raise lacak.InvalidOptionError(
            f"wall-follower option 'hand' is right or left, got {hand!r}"
        )
    erase_loops = lacak.as_flag(erase_loops, "wall-follower option 'erase_loops'")
    if _on_grid(puzzle):
        from . import classic  # (deferred: as above)

        return classic.wall_follower(puzzle, limits=limits, trace=trace, hand=hand,
                                     erase=erase_loops)  # fmt: skip
    maze, width, start, goal = _unpack(puzzle)
    turns = _RIGHT if hand == "right" else _LEFT
    offset = flat_offsets(width)
    cells = maze._bytes
    budget = limits.start()
    seen = bytearray(len(cells) * 16)
    root = trace.add(None, puzzle.initial, None, depth=0, g=0.0) if trace is not None else -1
    stopped = StopReason.EXHAUSTED
    found = False
    steps = 0
    generated = 0
    walk = [start]
    for first in _headings(hand, puzzle.initial, maze.height, maze.width):
        heading = first
        here = start
        walk = [here]
        ids = [root]
        while True:
            reason = budget.exceeded(steps, 1, len(walk))
            if reason is not None:
                stopped = reason
                break
            if trace is not None:
                trace.expand(ids[-1])
            steps += 1
            if here == goal:
                found = True
                break
            mask = cells[here]
            if not mask:
                break  # a closed cell: nowhere to go
            key = here * 16 + heading
            if seen[key]:
                break  # round the whole wall piece (or onto a walk already made)
            seen[key] = 1
            for side in turns[heading]:
                if mask & side:
                    heading = side
                    break
            if not budget.depth_allowed(len(walk)):
                stopped = StopReason.DEPTH
                break
            here += offset[heading]
            walk.append(here)
            generated += 1
            if trace is not None:
                ids.append(
                    trace.add(
                        ids[-1],
                        divmod(here, width),
                        LETTER[heading],
                        depth=len(walk) - 1,
                        g=float(len(walk) - 1),
                    )
                )
        if found or stopped is not StopReason.EXHAUSTED or not cells[start]:
            break
    if found and trace is not None:
        trace.mark_goal(ids[-1])
    path = walk if found else None
    if path is not None and erase_loops:
        from .classic import loop_erased  # (deferred: as above)

        path = loop_erased(path)
    return _finished(
        puzzle,
        path,
        width,
        stopped,
        expanded=steps,
        generated=generated,
        max_frontier=1,
        depth=len(walk) - 1,
        budget=budget,
        strategy="wall-follower",
    )


# -- the classic solvers (lacak_mazes.classic, loaded when one is first used) -------------


def tremaux(puzzle: Any, *, heuristic: Any = None, limits: lacak.Limits = lacak.UNLIMITED,
            trace: lacak.SearchTrace | None = None) -> SearchResult:  # fmt: skip
    """Trémaux's algorithm (:func:`lacak_mazes.classic.tremaux`)."""
    from . import classic  # (deferred: as above)

    return classic.tremaux(puzzle, limits=limits, trace=trace)


def pledge(puzzle: Any, *, heuristic: Any = None, limits: lacak.Limits = lacak.UNLIMITED,
           trace: lacak.SearchTrace | None = None, hand: str = "right", direction: Any = None,
           erase_loops: Any = True) -> SearchResult:  # fmt: skip
    """The Pledge algorithm (:func:`lacak_mazes.classic.pledge`)."""
    from . import classic  # (deferred: as above)

    return classic.pledge(puzzle, limits=limits, trace=trace, hand=hand, direction=direction,
                          erase_loops=erase_loops)  # fmt: skip


def random_mouse(puzzle: Any, *, heuristic: Any = None, limits: lacak.Limits = lacak.UNLIMITED,
                 trace: lacak.SearchTrace | None = None, seed: Any = 0, backtrack: Any = False,
                 erase_loops: Any = True) -> SearchResult:  # fmt: skip
    """The random mouse (:func:`lacak_mazes.classic.random_mouse`)."""
    from . import classic  # (deferred: as above)

    return classic.random_mouse(puzzle, limits=limits, trace=trace, seed=seed,
                                backtrack=backtrack, erase_loops=erase_loops)  # fmt: skip


def cul_de_sac_filling(puzzle: Any, *, heuristic: Any = None,
                       limits: lacak.Limits = lacak.UNLIMITED,
                       trace: lacak.SearchTrace | None = None) -> SearchResult:  # fmt: skip
    """Cul-de-sac filling (:func:`lacak_mazes.classic.cul_de_sac_filling`)."""
    from . import classic  # (deferred: as above)

    return classic.cul_de_sac_filling(puzzle, limits=limits, trace=trace)


SEARCHERS: tuple[lacak.Searcher, ...] = (
    lacak.Searcher(
        name="tree-path",
        search=tree_path,
        description="breadth-first on flat cell indices: the maze path, fast (any maze)",
        optimal=True,
        kinds={"maze"},
    ),
    lacak.Searcher(
        name="dead-end-fill",
        search=dead_end_filling,
        description="fill dead ends until only the way through is left (any maze)",
        optimal=True,
        kinds={"maze"},
    ),
    lacak.Searcher(
        name="wall-follower",
        search=wall_follower,
        description=(
            "keep one hand on the wall (perfect mazes, ends on the outer wall;"
            " may miss an end beside an island)"
        ),
        optimal=False,
        kinds={"maze"},
        options={"hand": "right", "erase_loops": True},
        accepts={"hand": OneOf("left", "right")},
    ),
    lacak.Searcher(
        name="tremaux",
        search=tremaux,
        description="Trémaux: mark passages walked, never walk one twice marked (any maze)",
        optimal=False,
        kinds={"maze"},
    ),
    lacak.Searcher(
        name="pledge",
        search=pledge,
        description=(
            "Pledge: head one way, follow walls counting turns (escapes to an end on the "
            "outer wall from anywhere)"
        ),
        optimal=False,
        kinds={"maze"},
        options={"hand": "right", "direction": None, "erase_loops": True},
        accepts={"hand": OneOf("left", "right"), "direction": Number(minimum=-360, maximum=360)},
    ),
    lacak.Searcher(
        name="random-mouse",
        search=random_mouse,
        description="random mouse: a random passage at each cell, seeded (ends with probability 1)",
        optimal=False,
        kinds={"maze"},
        options={"seed": 0, "backtrack": False, "erase_loops": True},
        accepts={"seed": Number(minimum=0, maximum=2**63 - 1)},
    ),
    lacak.Searcher(
        name="cul-de-sac-fill",
        search=cul_de_sac_filling,
        description="fill every part hanging off by one passage, then search (any maze)",
        optimal=True,
        kinds={"maze"},
    ),
)

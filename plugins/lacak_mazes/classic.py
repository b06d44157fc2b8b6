"""The classic maze solvers, on every grid: Trémaux, the Pledge algorithm, the random
mouse, the dead-end and cul-de-sac fillers, and the generic forms of ``tree-path``,
``dead-end-fill`` and ``wall-follower`` for mazes on grids other than the plain rectangle.

Each solver sees a maze through a :class:`Walls` view: cells numbered ``0 .. n-1``,
each cell's *sides* clockwise on the screen (the neighbour across, or ``-1`` on the
outline, and whether a passage goes through), the direction each side faces (from the
cell's centre to the side's middle, in degrees clockwise from east) and, for a side
with a passage, the side of the neighbour it enters by. The plain rectangle's
bitmask :class:`~lacak_mazes.Maze` and every :class:`~lacak_mazes.gridmaze.GridMaze`
give one, so every solver runs on every grid; the walkers that keep a hand on the
wall turn by the clockwise order of the sides, which any grid gives.

================ =========================== =====================================
strategy         finishes, and finds the end returns
================ =========================== =====================================
tremaux          always; finds the end when  the walk's marked-once passages: a
                 it can be reached (any      simple path, not in general the
                 maze, loops too)            shortest; at most 2 walks a passage
pledge           always (a walk that can     the walk, loops erased; found from
                 only repeat is given up);   any start when the end is on the
                 see :func:`pledge`          outer wall of a flat grid (proven
                                             on the rectangle, tested on the
                                             others); else maybe not
random-mouse     with probability 1 when the the walk, loops erased; seeded
                 end can be reached          (``seed``); bound it with Limits
cul-de-sac-fill  always                      a shortest (least-cost) path
================ =========================== =====================================

Every solver honours :class:`lacak.Limits` (``max_expanded`` counts the steps
walked or cells expanded, ``max_depth`` the length of a walk or the depth of
the search, ``max_closed`` the cells held, ``seconds`` the time) and records
its :class:`lacak.SearchTrace`: a search's tree, or a walk as a chain of nodes,
one a step, which is what the maze page animates.
"""

from __future__ import annotations

import heapq
import math
import random
from collections import deque
from typing import Any

import lacak
from lacak import SearchResult, StopReason

from .walls import PLACES, GridWalls, RectWalls, Walls, view_of, wrap_angle

__all__ = [
    "Walls",
    "cul_de_sac_filling",
    "dead_end_filling",
    "loop_erased",
    "pledge",
    "random_mouse",
    "search",
    "tremaux",
    "view_of",
    "wall_follower",
]

# -- searching what is left: breadth-first, or uniform-cost with weights --------------------


def search(
    view: Walls,
    *,
    budget: lacak.Budget,
    trace: lacak.SearchTrace | None,
    strategy: str,
    blocked: bytearray | None = None,
    already: int = 0,
) -> SearchResult:
    """A shortest path (least cost, with weights) from start to goal avoiding ``blocked``
    cells: breadth-first, or Dijkstra's uniform-cost search when cells have weights.

    ``already`` counts work done before on the same ``budget`` (the cells filled), which
    counts against the limits as expansions and as the closed set.
    """
    start, goal, size = view.initial, view.goal, view.size
    weighted = view.weights is not None
    parent = [-2] * size
    parent[start] = -1
    best = [math.inf] * size
    best[start] = 0.0
    depth = [0] * size
    done = bytearray(size)
    node = [-1] * size
    if trace is not None:
        trace.begin_steps("priority" if weighted else "fifo")
        node[start] = trace.add(None, view.state(start), None, depth=0, g=0.0)
    queue: deque[int] = deque([start])
    heap: list[tuple[float, int, int]] = [(0.0, 0, start)]
    made = 0
    expanded = generated = top = deepest = 0
    reached = 1
    stopped = StopReason.EXHAUSTED
    cut = found = False
    while queue if not weighted else heap:
        waiting = len(queue) if not weighted else len(heap)
        reason = budget.exceeded(already + expanded, waiting, already + reached)
        if reason is not None:
            stopped = reason
            break
        if weighted:
            _cost, _order, here = heapq.heappop(heap)
            if done[here]:
                continue
        else:
            here = queue.popleft()
        done[here] = 1
        expanded += 1
        if trace is not None:
            trace.expand(node[here])
        if here == goal:
            found = True
            break
        for there in view.adjacency(here):
            if done[there] or (blocked is not None and blocked[there]):
                continue
            g = best[here] + view.cost(there)
            if (parent[there] != -2 and not weighted) or g >= best[there]:
                continue
            if not budget.depth_allowed(depth[here] + 1):
                cut = True
                continue
            if parent[there] == -2:
                reached += 1
            parent[there] = here
            best[there] = g
            depth[there] = depth[here] + 1
            deepest = max(deepest, depth[there])
            generated += 1
            if trace is not None:
                node[there] = trace.add(node[here], view.state(there), view.action(here, there),
                                        depth=depth[there], g=g, supersede=weighted)  # fmt: skip
            if weighted:
                made += 1
                heapq.heappush(heap, (g, made, there))
            else:
                queue.append(there)
        top = max(top, len(queue) if not weighted else len(heap))
    if not found and stopped is StopReason.EXHAUSTED and cut:
        stopped = StopReason.DEPTH
    path = None
    if found:
        path = [goal]
        while path[-1] != start:
            path.append(parent[path[-1]])
        path.reverse()
        if trace is not None:
            trace.mark_goal(node[goal])
    return view.result(path, stopped, expanded=already + expanded, generated=generated,
                       max_frontier=top, depth=deepest, budget=budget, strategy=strategy)  # fmt: skip


def tree_path(puzzle: Any, *, limits: lacak.Limits, trace: lacak.SearchTrace | None,
              strategy: str = "tree-path") -> SearchResult:  # fmt: skip
    """``tree-path`` on any grid: :func:`search` from the start (least cost with weights)."""
    return search(view_of(puzzle), budget=limits.start(), trace=trace, strategy=strategy)


# -- fillers ------------------------------------------------------------------------------


def _stopped_filling(view: Walls, reason: StopReason, count: int, top: int,
                     budget: lacak.Budget, strategy: str) -> SearchResult:  # fmt: skip
    return view.result(None, reason, expanded=count, max_frontier=top, budget=budget,
                       strategy=strategy)  # fmt: skip


def dead_end_filling(puzzle: Any, *, limits: lacak.Limits, trace: lacak.SearchTrace | None,
                     strategy: str = "dead-end-fill") -> SearchResult:  # fmt: skip
    """Dead-end filling on any grid (see :func:`lacak_mazes.solvers.dead_end_filling`):
    fill every cell with one opening other than the ends, again and again, then search
    what is left (a shortest or least-cost path: a filled cell is on no path between
    the ends that visits a cell once)."""
    view = view_of(puzzle)
    budget = limits.start()
    start, goal = view.initial, view.goal
    degree = [len(view.adjacency(cell)) for cell in range(view.size)]
    filled = bytearray(view.size)
    stack = [cell for cell in range(view.size) if degree[cell] == 1 and cell not in (start, goal)]
    count, top = 0, len(stack)
    while stack:
        reason = budget.exceeded(count, len(stack), count)
        if reason is not None:
            return _stopped_filling(view, reason, count, top, budget, strategy)
        here = stack.pop()
        filled[here] = 1
        count += 1
        for there in view.adjacency(here):
            if not filled[there]:
                degree[there] -= 1
                if degree[there] == 1 and there != start and there != goal:
                    stack.append(there)
                    top = max(top, len(stack))
    return search(view, budget=budget, trace=trace, strategy=strategy, blocked=filled,
                  already=count)  # fmt: skip


def cul_de_sac_filling(
    puzzle: Any,
    *,
    heuristic: Any = None,
    limits: lacak.Limits = lacak.UNLIMITED,
    trace: lacak.SearchTrace | None = None,
) -> SearchResult:
    """Fill every cul-de-sac, then search what is left.

    A *cul-de-sac* is a part of the maze that hangs off the rest by one passage (a
    *bridge*) and holds neither end: a dead end, a blind alley, or a loop at the end
    of a stalk (Walter Pullen's "noose"). No path between the ends that visits a cell
    once goes into one (it would have to cross the bridge twice), so filling them all
    keeps every such path; what is left is the chain of loops and corridors the ends
    are joined by, searched breadth-first (least-cost with weights). Finds a shortest
    path on any maze; in a perfect maze only the solution is left, as with dead-end
    filling, and with loops it also fills the nooses dead-end filling leaves.

    The bridges are found by one depth-first sweep (Tarjan's low links) from the start;
    the cells it visits count as expansions and the closed set, its stack as the
    frontier, then the filled cells, then the search, all on one budget.
    """
    view = view_of(puzzle)
    budget = limits.start()
    strategy = "cul-de-sac-fill"
    start, goal, size = view.initial, view.goal, view.size
    order = [-1] * size
    low = [0] * size
    parent = [-1] * size
    bridges: set[tuple[int, int]] = set()
    top = 1
    reason = budget.exceeded(0, 1, 0)
    if reason is not None:
        return _stopped_filling(view, reason, 0, 0, budget, strategy)
    order[start] = low[start] = 0
    visited = 1
    stack: list[tuple[int, int, list[int]]] = [(start, -1, view.adjacency(start))]
    while stack:
        here, came, around = stack[-1]
        if around:
            there = around.pop()
            if there == came:
                came = -2  # one passage back to the parent is the tree's own (links are single)
                stack[-1] = (here, came, around)
                continue
            if order[there] < 0:
                reason = budget.exceeded(visited, len(stack), visited)
                if reason is not None:
                    return _stopped_filling(view, reason, visited, top, budget, strategy)
                order[there] = low[there] = visited
                visited += 1
                parent[there] = here
                stack.append((there, here, view.adjacency(there)))
                top = max(top, len(stack))
            else:
                low[here] = min(low[here], order[there])
            continue
        stack.pop()
        if stack:
            up = stack[-1][0]
            low[up] = min(low[up], low[here])
            if low[here] > order[up]:
                bridges.add((up, here))
    if order[goal] < 0:  # not reachable: nothing to fill
        return view.result(None, StopReason.EXHAUSTED, expanded=visited, max_frontier=top,
                           budget=budget, strategy=strategy)  # fmt: skip
    # the bridges on the tree path from the goal up to the start are the ones to keep
    keep = set()
    cell = goal
    while cell != start:
        up = parent[cell]
        if (up, cell) in bridges:
            keep.add(cell)
        cell = up
    # fill the subtree below every other bridge: the cells hanging off by it
    filled = bytearray(size)
    children: list[list[int]] = [[] for _ in range(size)]
    for cell in range(size):
        if parent[cell] >= 0:
            children[parent[cell]].append(cell)
    count = visited
    for _up, below in sorted(bridges):
        if below in keep or filled[below]:
            continue
        pending = [below]
        while pending:
            reason = budget.exceeded(count, len(pending), count)
            if reason is not None:
                return _stopped_filling(view, reason, count, top, budget, strategy)
            here = pending.pop()
            if filled[here]:
                continue
            filled[here] = 1
            count += 1
            pending.extend(children[here])
    # a bridge's lower side is filled whole; nothing of the ends' chain is below one
    for cell in range(size):
        if order[cell] < 0:
            filled[cell] = 1  # cells the start cannot reach: out of the way too
    return search(view, budget=budget, trace=trace, strategy=strategy, blocked=filled,
                  already=count)  # fmt: skip


# -- walkers ------------------------------------------------------------------------------


class _Walk:
    """A walk being made: its cells, its trace (a chain of nodes) and its counts."""

    def __init__(self, view: Walls, budget: lacak.Budget, trace: lacak.SearchTrace | None) -> None:
        self.view = view
        self.budget = budget
        self.trace = trace
        self.cells = [view.initial]
        self.steps = 0
        self.stopped = StopReason.EXHAUSTED
        self.nodes: list[int] = []
        self.cost = 0.0
        if trace is not None:
            self.nodes.append(trace.add(None, view.state(view.initial), None, depth=0, g=0.0))

    def restart(self) -> None:
        """Another walk from the start (the trace keeps the earlier ones)."""
        self.cells = [self.view.initial]
        self.cost = 0.0
        if self.trace is not None:
            self.nodes = [self.nodes[0]]

    def check(self, held: int | None = None) -> bool:
        """Whether a limit stops the walk before its next step (``stopped`` says which)."""
        reason = self.budget.exceeded(self.steps, 1, len(self.cells) if held is None else held)
        if reason is not None:
            self.stopped = reason
            return True
        if self.trace is not None:
            self.trace.expand(self.nodes[-1])
        self.steps += 1
        return False

    def step(self, there: int) -> bool:
        """Walk into ``there``; ``False`` when the depth limit forbids it."""
        if not self.budget.depth_allowed(len(self.cells)):
            self.stopped = StopReason.DEPTH
            return False
        here = self.cells[-1]
        self.cells.append(there)
        self.cost += self.view.cost(there)
        if self.trace is not None:
            self.nodes.append(self.trace.add(self.nodes[-1], self.view.state(there),
                                             self.view.action(here, there),
                                             depth=len(self.cells) - 1, g=self.cost))  # fmt: skip
        return True

    def finish(self, path: list[int] | None, strategy: str, **counts: Any) -> SearchResult:
        if path is not None and self.trace is not None:
            self.trace.mark_goal(self.nodes[-1])
        counts.setdefault("max_frontier", 1)
        return self.view.result(path, self.stopped, expanded=self.steps,
                                generated=max(0, len(self.cells) - 1),
                                depth=len(self.cells) - 1, budget=self.budget,
                                strategy=strategy, **counts)  # fmt: skip


def _hand_order(count: int, entry: int, hand: str) -> range:
    """The sides to try, by offset from ``entry``: the right hand tries them anticlockwise
    from the side it came in by (the first to its right), the left hand clockwise."""
    return range(count - 1, -1, -1) if hand == "right" else range(1, count + 1)


def _follow(view: Walls, cell: int, entry: int, hand: str) -> int:
    """The side a walker with ``hand`` on the wall leaves ``cell`` by, having come in
    by side ``entry`` (``-1``: none open, a closed cell)."""
    sides = view.sides(cell)
    count = len(sides)
    for offset in _hand_order(count, entry, hand):
        side = (entry + offset) % count
        if sides[side][1]:
            return side
    return -1


def _check_hand(hand: Any, strategy: str) -> str:
    if hand not in ("right", "left"):
        raise lacak.InvalidOptionError(f"{strategy} option 'hand' is right or left, got {hand!r}")
    return str(hand)


def loop_erased(walk: list[int]) -> list[int]:
    """The walk with every loop cut out (chronological loop erasure)."""
    path: list[int] = []
    where: dict[int, int] = {}
    for cell in walk:
        if cell in where:
            cut = where[cell] + 1
            for gone in path[cut:]:
                del where[gone]
            del path[cut:]
        else:
            where[cell] = len(path)
            path.append(cell)
    return path


def wall_follower(puzzle: Any, *, limits: lacak.Limits, trace: lacak.SearchTrace | None,
                  hand: str = "right", erase: bool = True) -> SearchResult:  # fmt: skip
    """``wall-follower`` on any grid (see :func:`lacak_mazes.solvers.wall_follower`).

    The hand's rule works on the clockwise order of a cell's sides: come in by one
    side, leave by the first open side anticlockwise from it (the right hand) or
    clockwise (the left). The walk goes round one face of the maze's passages, so it
    reaches every cell of a perfect maze on any grid (a tree has one face, even on a
    torus), and both ends on the outline of a flat grid. A walk that comes back to a
    cell by a side it came in by before has gone all round: it starts again from the
    start with the hand on the wall at another of its corners (those on the outline
    first), at most once a side; then it gives up (``exhausted``).
    """
    view = view_of(puzzle)
    walk = _Walk(view, limits.start(), trace)
    start, goal = view.initial, view.goal
    sides = view.sides(start)
    # come in by each side in turn: those on the outline first (the hand on the outer wall)
    firsts = sorted(range(len(sides)), key=lambda s: (sides[s][0] >= 0, s))
    seen: set[tuple[int, int]] = set()
    found = False
    for first in firsts:
        walk.restart()
        here, entry = start, first
        while True:
            if walk.check():
                break
            if here == goal:
                found = True
                break
            if (here, entry) in seen:
                break  # round the whole wall (or onto a walk already made)
            seen.add((here, entry))
            side = _follow(view, here, entry, hand)
            if side < 0:
                break  # a closed cell
            there = view.sides(here)[side][0]
            if not walk.step(there):
                break
            here, entry = there, view.twin(here, side)
        if found or walk.stopped is not StopReason.EXHAUSTED or not view.adjacency(start):
            break
    path = (loop_erased(walk.cells) if erase else walk.cells) if found else None
    return walk.finish(path, "wall-follower")


def pledge(
    puzzle: Any,
    *,
    heuristic: Any = None,
    limits: lacak.Limits = lacak.UNLIMITED,
    trace: lacak.SearchTrace | None = None,
    hand: str = "right",
    direction: Any = None,
    erase_loops: Any = True,
) -> SearchResult:
    """The Pledge algorithm: head one way; at a wall, follow it with ``hand`` on it,
    counting the turns, until the turns add up to nothing again; then head on.

    Steps: go through the side of each cell that faces ``direction`` most nearly
    (degrees clockwise from east on the screen; by default the direction from the start
    towards the end) while it is open. When it is closed, put the hand on it and follow
    the wall (the wall follower's rule), adding up every turn (right turns positive for
    the right hand): a turn is the angle between the way the walker came in and the way
    it leaves, across the cell's centre, and between the side it leaves by and the side
    it enters by. When the sum is back to zero (or past it), head on again.

    The sum is counted from the side the walker faced when it met the wall (on the
    rectangle, the heading itself).

    Unlike the wall follower it does not stay stuck on an island: going round one turns
    a full circle the way that frees it. **Guarantee**: from any start it reaches an
    end on the outer wall (the outline round the whole grid), loops or not, islands or
    not. That is Pledge's theorem on the plain or masked rectangle, whose turns are
    right angles and whose straight line is straight; on the other flat grids
    (hexagons, triangles, octagons, rings), where heading "straight" zigzags, the tests
    check it on thousands of mazes but it is not proven. It does not in general reach
    an end inside the maze, nor one on a cylinder or a torus (which have no outer wall
    round everything). It always finishes: a walker heading on from a cell it headed on
    from before, or following a wall back to a cell and side it came in by with no
    more turning in hand than then, can only repeat itself, and gives up
    (``exhausted``).

    :param hand: ``"right"`` or ``"left"``.
    :param direction: degrees clockwise from east, or ``None`` (towards the end).
    :param erase_loops: return the walk with its loops erased (default) or every step.
    """
    hand = _check_hand(hand, "pledge")
    erase = lacak.as_flag(erase_loops, "pledge option 'erase_loops'")
    view = view_of(puzzle)
    if direction is None:
        heading = _towards(view)
    else:
        try:
            heading = float(direction)
            if not math.isfinite(heading):
                raise ValueError
        except (TypeError, ValueError):
            raise lacak.InvalidOptionError(
                f"pledge option 'direction' is degrees clockwise from east, got {direction!r}"
            ) from None
    heading = round(heading % 360.0, PLACES)
    sign = 1.0 if hand == "right" else -1.0
    walk = _Walk(view, limits.start(), trace)
    goal = view.goal
    here = view.initial
    headed: set[int] = set()  # cells the walker headed on from
    following = False
    entry = -1
    turned = 0.0  # the sum of turns while following, signed so that it starts below zero
    seen: dict[tuple[int, int], float] = {}
    found = False
    while True:
        if walk.check():
            break
        if here == goal:
            found = True
            break
        sides = view.sides(here)
        if not following:
            if here in headed:
                break  # heading on from here again: round and round
            headed.add(here)
            ahead = min(range(len(sides)), key=lambda s: (abs(wrap_angle(view.direction(here, s) - heading)), s))  # fmt: skip
            if sides[ahead][1]:
                side = ahead
            else:  # a wall ahead: put the hand on it and turn away
                following = True
                seen = {}
                turned = 0.0  # counted from the way it faces, the side nearest the heading
                side = _follow(view, here, ahead, hand)
                if side < 0:
                    break  # a closed cell
                turned += _turn(view, here, ahead, side, hand, facing=True)
        else:
            key = (here, entry)
            before = seen.get(key)
            if before is not None and turned <= before + 10.0**-PLACES:
                break  # round the same walls with no more turning in hand: stuck
            seen[key] = turned
            side = _follow(view, here, entry, hand)
            if side < 0:
                break
            turned += _turn(view, here, entry, side, hand, facing=False)
        there = view.sides(here)[side][0]
        if not walk.step(there):
            break
        back = view.twin(here, side)
        if following:
            # across the side: from the way out of this cell to the way into the next
            turned += sign * wrap_angle(view.direction(there, back) + 180.0 - view.direction(here, side))
            turned = round(turned, PLACES)
            if turned >= -(10.0**-PLACES):
                following = False
        here, entry = there, back
    path = (loop_erased(walk.cells) if erase else walk.cells) if found else None
    return walk.finish(path, "pledge")


def _towards(view: Walls) -> float:
    """The direction from the start's centre to the end's, degrees clockwise from east."""
    if isinstance(view, GridWalls):
        (x0, y0), (x1, y1) = view.grid.centres[view.initial], view.grid.centres[view.goal]
    else:
        assert isinstance(view, RectWalls)
        (y0, x0), (y1, x1) = divmod(view.initial, view.width), divmod(view.goal, view.width)
    if (x0, y0) == (x1, y1):
        return 0.0
    return math.degrees(math.atan2(y1 - y0, x1 - x0))


def _turn(view: Walls, cell: int, entry: int, side: int, hand: str, *, facing: bool) -> float:
    """The turn (positive the way of ``hand``) from coming in by ``entry`` (or, with
    ``facing``, from facing side ``entry``) to leaving by ``side``: the walker sweeps
    the way its hand rule looks, away from the hand."""
    entry_direction = view.direction(cell, entry)
    exit_direction = view.direction(cell, side)
    if hand == "right":
        sweep = (entry_direction - exit_direction) % 360.0  # anticlockwise
    else:
        sweep = (exit_direction - entry_direction) % 360.0  # clockwise
    if sweep == 0.0:
        sweep = 360.0
    return round(-sweep if facing else 180.0 - sweep, PLACES)


def tremaux(
    puzzle: Any,
    *,
    heuristic: Any = None,
    limits: lacak.Limits = lacak.UNLIMITED,
    trace: lacak.SearchTrace | None = None,
) -> SearchResult:
    """Trémaux's algorithm: mark each passage as you walk it; never walk one marked twice.

    Steps: in a cell, if it is the end, stop. If the walker came in by a passage walked
    for the first time into a cell it has been in before, it turns back (the passage
    is now marked twice). Otherwise it takes a passage not walked yet (the first from
    its right), else goes back by the one it first came in by (marking it twice).
    With no passage left it is back at the start: the end cannot be reached
    (``exhausted``).

    **Guarantee**: on any maze, loops or not, on any grid, it finds the end whenever
    the end can be reached, walking each passage at most twice (at most ``2 *
    passages`` steps). The passages marked once make a path from the start to where the
    walker stands (each cell once): that is the path returned, not in general the
    shortest in a maze with loops (the only one in a perfect maze).
    ``max_closed`` bounds the marked passages held.
    """
    view = view_of(puzzle)
    walk = _Walk(view, limits.start(), trace)
    goal = view.goal
    marks: dict[tuple[int, int], int] = {}
    visited = {view.initial}
    path = [view.initial]  # the passages marked once, as cells
    here, came, fresh = view.initial, -1, False
    found = False

    def key(a: int, b: int) -> tuple[int, int]:
        return (a, b) if a < b else (b, a)

    while True:
        if walk.check(held=len(marks)):
            break
        if here == goal:
            found = True
            break
        if fresh and here in visited and len(path) > 1:
            there = came  # into a known cell by a new passage: turn back
        else:
            visited.add(here)
            sides = view.sides(here)
            entry = -1
            for k, (cell, is_open) in enumerate(sides):
                if is_open and cell == came:
                    entry = k
                    break
            there = -1
            count = len(sides)
            for offset in _hand_order(count, max(entry, 0), "right"):
                cell, is_open = sides[(max(entry, 0) + offset) % count]
                if is_open and marks.get(key(here, cell), 0) == 0:
                    there = cell
                    break
            if there < 0:
                if len(path) < 2:
                    break  # back at the start, every passage walked twice
                there = path[-2]
        mark = marks.get(key(here, there), 0) + 1
        marks[key(here, there)] = mark
        if not walk.step(there):
            break
        if mark == 1:
            path.append(there)
            fresh = True
        else:
            path.pop()
            fresh = False
        came, here = here, there
    return walk.finish(list(path) if found else None, "tremaux")


def _reaches(view: Walls) -> bool:
    """Whether the goal can be reached from the start (a depth-first sweep)."""
    seen = {view.initial}
    stack = [view.initial]
    while stack:
        here = stack.pop()
        if here == view.goal:
            return True
        for there in view.adjacency(here):
            if there not in seen:
                seen.add(there)
                stack.append(there)
    return False


def random_mouse(
    puzzle: Any,
    *,
    heuristic: Any = None,
    limits: lacak.Limits = lacak.UNLIMITED,
    trace: lacak.SearchTrace | None = None,
    seed: Any = 0,
    backtrack: Any = False,
    erase_loops: Any = True,
) -> SearchResult:
    """The random mouse: at each cell, take an open passage at random, not the one it came
    by unless there is no other (a dead end); with ``backtrack``, any open passage.

    **Guarantee**: when the end can be reached it is reached with probability 1: the
    mouse's position and the cell it came from make a Markov chain on finitely many
    states in which every cell of the start's region can be reached. How long it takes
    has no useful bound in general for the default mouse (on a loop without junctions
    it goes round one way); with ``backtrack`` the mouse is a simple random walk, whose
    expected number of steps to reach every cell is at most ``2 * passages * (cells -
    1)`` (Aleliunas, Karp, Lipton, Lovász and Rackoff, 1979). Give it a bound with
    :class:`lacak.Limits` (``max_expanded``: steps), or it walks until it arrives. The
    same ``seed`` gives the same walk on every machine (:class:`random.Random`). So
    that it always finishes, the mouse first checks (with a map: one sweep of the
    maze, not counted as steps) that the end can be reached, and reports ``exhausted``
    at once when it cannot.

    :param seed: a non-negative integer.
    :param erase_loops: return the walk with its loops erased (default), or every step.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise lacak.InvalidOptionError(
            f"random-mouse option 'seed' is a non-negative integer, got {seed!r}"
        )
    back = lacak.as_flag(backtrack, "random-mouse option 'backtrack'")
    erase = lacak.as_flag(erase_loops, "random-mouse option 'erase_loops'")
    view = view_of(puzzle)
    rng = random.Random(seed)
    walk = _Walk(view, limits.start(), trace)
    goal = view.goal
    here, came = view.initial, -1
    found = False
    if not _reaches(view):
        return walk.finish(None, "random-mouse")  # it would walk for ever
    while True:
        if walk.check():
            break
        if here == goal:
            found = True
            break
        around = view.adjacency(here)
        if not around:
            break  # a closed cell: the mouse cannot move
        if not back and len(around) > 1 and came >= 0:
            around = [cell for cell in around if cell != came] or around
        there = around[rng.randrange(len(around))]
        if not walk.step(there):
            break
        came, here = here, there
    path = (loop_erased(walk.cells) if erase else walk.cells) if found else None
    return walk.finish(path, "random-mouse")

"""The generators that walk a graph, on any grid (:mod:`lacak_mazes.grids`).

Each function takes a :class:`~lacak_mazes.grids.Grid`, a seed and the
generator's options, and returns the passages of a spanning tree of the
grid's cells, in the order they were made (pairs of cell indices). They need
nothing of a grid but its cells' neighbours, so they run on hexagons,
triangles, rings, masks and wraps alike. Random numbers are the maze
generators' own (:class:`~lacak_mazes.generators._common.Rng`: PCG64 raw
output, so a seed gives the same maze on every machine), salted per algorithm.

Wilson's algorithm and Aldous-Broder sample every spanning tree of *any*
connected graph with the same probability (Wilson 1996; Aldous 1990, Broder
1989), so they stay uniform on every grid; the tests check it with a
chi-square test over all spanning trees of small grids of each kind.

With the compiled engine (``LACAK_MAZE_ENGINE``, :func:`.engine.graph_kernels`)
each generator but a weave runs as machine code on the grid's flat neighbours
(:mod:`lacak_mazes.generators.compiled_graph`), giving the same passages, in the
same order, as an ``n x 2`` array.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import lacak
import numpy as np

from ..grids import Grid
from ._common import Rng

__all__ = ["GRAPH_GENERATORS", "check_connected"]

Links = list[tuple[int, int]]
#: What a generator returns: its links (a list, or an ``n x 2`` array from a kernel).
Made = Links | np.ndarray
#: The growing tree's policies as the compiled kernel numbers them.
_POLICIES = {"newest": 0, "oldest": 1, "random": 2, "mix": 3}
#: What a generator weaving a maze returns: its links and its tunnels ``(a, under, b)``.
Woven = tuple[Links, list[tuple[int, int, int]]]


class _Random:
    """One maze's random choices: ``pick(n)`` is uniform in ``range(n)``."""

    def __init__(self, seed: int, salt: int) -> None:
        self._floats: Iterator[float] = Rng(seed, salt=salt).float_stream()

    def pick(self, n: int) -> int:
        return int(next(self._floats) * n)

    def chance(self) -> float:
        return next(self._floats)

    def shuffle(self, items: list[int]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.pick(i + 1)
            items[i], items[j] = items[j], items[i]


def _compiled(grid: Grid) -> ModuleType | None:
    """The compiled kernels to make a maze on ``grid`` with, or ``None`` for Python."""
    from .engine import graph_kernels  # (deferred: loaded when a maze is made)

    return graph_kernels(grid.size)


def _words(seed: int, salt: int) -> np.ndarray:
    """The start of :class:`_Random`'s stream, as the kernels take it."""
    return Rng(seed, salt=salt).words()


def _flat(grid: Grid) -> tuple[Any, Any]:
    flat = grid.flat
    return flat.offsets, flat.targets


def check_connected(grid: Grid) -> None:
    """:raises InvalidOptionError: the grid's cells are in more than one region (a mask
    that cuts it apart), so no perfect maze covers them."""
    fast = _compiled(grid)
    if fast is not None:
        count = int(fast.reached(*_flat(grid)))
    else:
        neighbours = grid.neighbours
        seen = bytearray(grid.size)
        seen[0] = 1
        stack, count = [0], 1
        while stack:
            for there in neighbours[stack.pop()]:
                if not seen[there]:
                    seen[there] = 1
                    count += 1
                    stack.append(there)
    if count != grid.size:
        raise lacak.InvalidOptionError(
            f"{grid.name} is in separate pieces ({grid.size - count} of its {grid.size} cells "
            "cannot be reached from the first): a maze needs one piece"
            + ("; change the mask" if grid.mask is not None else "")
        )


def aldous_broder(grid: Grid, seed: int) -> Made:
    """A random walk from a random cell; each cell joins the tree by the step that first
    enters it. Uniform over all spanning trees."""
    fast = _compiled(grid)
    if fast is not None:
        return fast.aldous_broder(*_flat(grid), _words(seed, 21))
    rng = _Random(seed, 21)
    neighbours = grid.neighbours
    size = grid.size
    here = rng.pick(size)
    visited = bytearray(size)
    visited[here] = 1
    links: Links = []
    left = size - 1
    while left:
        around = neighbours[here]
        there = around[rng.pick(len(around))]
        if not visited[there]:
            visited[there] = 1
            links.append((here, there))
            left -= 1
        here = there
    return links


def wilson(grid: Grid, seed: int) -> Made:
    """Loop-erased random walks from each cell not yet in the tree (in index order) to
    the tree, rooted at a random cell. Uniform over all spanning trees."""
    fast = _compiled(grid)
    if fast is not None:
        return fast.wilson(*_flat(grid), _words(seed, 22))
    rng = _Random(seed, 22)
    neighbours = grid.neighbours
    size = grid.size
    in_tree = bytearray(size)
    in_tree[rng.pick(size)] = 1
    exit_ = [-1] * size
    links: Links = []
    for start in range(size):
        here = start
        while not in_tree[here]:
            around = neighbours[here]
            exit_[here] = around[rng.pick(len(around))]
            here = exit_[here]
        here = start
        while not in_tree[here]:
            in_tree[here] = 1
            links.append((here, exit_[here]))
            here = exit_[here]
    return links


def kruskal(grid: Grid, seed: int, weave: float = 0.0) -> Made | Woven:
    """Every wall in random order, knocked down when it joins two regions not yet joined.

    ``weave`` (a rectangle only; Buck's Kruskal weave, *Mazes for Programmers* chapter
    10): first, each inner cell in a random order, with probability ``weave``, becomes a
    crossing when it and its four neighbours are still apart: a corridor over it one
    way (north-south or east-west, at random) and a tunnel under it the other way.
    Kruskal then joins the rest, never through a crossing's walls."""
    fast = None if weave else _compiled(grid)
    if fast is not None:
        return fast.kruskal(*_flat(grid), _words(seed, 23))
    rng = _Random(seed, 23)
    edges = list(grid.edges)
    parent = list(range(grid.size))

    def root(cell: int) -> int:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    links: Links = []
    tunnels: list[tuple[int, int, int]] = []
    fixed: set[int] = set()  # crossings and their four neighbours' ways into them
    if weave:
        for cell, (north, east, south, west) in _crossing_places(grid, rng):
            if rng.chance() >= weave or fixed & {cell, north, east, south, west}:
                continue
            roots = {root(c) for c in (cell, north, east, south, west)}
            if len(roots) != 5:
                continue
            over, under = ((north, south), (west, east)) if rng.pick(2) else (
                (west, east), (north, south))  # fmt: skip
            for end in over:
                links.append((end, cell))
                parent[root(end)] = root(cell)
            tunnels.append((under[0], cell, under[1]))  # (not joined to the cell it passes under)
            parent[root(under[0])] = root(under[1])
            fixed.add(cell)
    order = list(range(len(edges)))
    rng.shuffle(order)
    for k in order:
        a, b = edges[k]
        if a in fixed or b in fixed:
            continue
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[ra] = rb
            links.append((a, b))
    return (links, tunnels) if weave else links


def _crossing_places(grid: Grid, rng: _Random) -> list[tuple[int, tuple[int, int, int, int]]]:
    """The cells of a rectangle with all four neighbours, in a random order, each with its
    north, east, south and west neighbours."""
    index, places = grid.index, []
    for cell, (row, col) in enumerate(grid.ids):
        around = [index.get(place) for place in
                  ((row - 1, col), (row, col + 1), (row + 1, col), (row, col - 1))]  # fmt: skip
        if all(c is not None for c in around):
            places.append((cell, tuple(around)))
    order = list(range(len(places)))
    rng.shuffle(order)
    return [places[k] for k in order]  # type: ignore[misc]


def prim(grid: Grid, seed: int) -> Made:
    """Prim's minimum spanning tree over random wall weights, from a random cell."""
    fast = _compiled(grid)
    if fast is not None:
        return fast.prim(*_flat(grid), _words(seed, 24))
    rng = _Random(seed, 24)
    neighbours = grid.neighbours
    weight = {edge: rng.chance() for edge in grid.edges}
    start = rng.pick(grid.size)
    visited = bytearray(grid.size)
    heap: list[tuple[float, int, int]] = []

    def add(cell: int) -> None:
        visited[cell] = 1
        for there in neighbours[cell]:
            if not visited[there]:
                key = (cell, there) if cell < there else (there, cell)
                heapq.heappush(heap, (weight[key], cell, there))

    add(start)
    links: Links = []
    while heap:
        _, here, there = heapq.heappop(heap)
        if not visited[there]:
            links.append((here, there))
            add(there)
    return links


def prim_frontier(grid: Grid, seed: int) -> Made:
    """'Modified Prim': a random frontier cell each step, joined to a random visited
    neighbour."""
    fast = _compiled(grid)
    if fast is not None:
        return fast.prim_frontier(*_flat(grid), _words(seed, 25))
    rng = _Random(seed, 25)
    neighbours = grid.neighbours
    state = bytearray(grid.size)  # 0 unseen, 1 frontier, 2 in the maze
    frontier: list[int] = []

    def add(cell: int) -> None:
        state[cell] = 2
        for there in neighbours[cell]:
            if not state[there]:
                state[there] = 1
                frontier.append(there)

    add(rng.pick(grid.size))
    links: Links = []
    while frontier:
        k = rng.pick(len(frontier))
        frontier[k], frontier[-1] = frontier[-1], frontier[k]
        cell = frontier.pop()
        inside = [there for there in neighbours[cell] if state[there] == 2]
        links.append((inside[rng.pick(len(inside))], cell))
        add(cell)
    return links


def recursive_backtracker(grid: Grid, seed: int, weave: float = 0.0) -> Made | Woven:
    """Randomised depth-first search from a random cell, with an explicit stack."""
    return growing_tree(grid, seed, policy="newest", salt=26, weave=weave)


def growing_tree(grid: Grid, seed: int, policy: str = "newest", newest: float = 0.5,
                 salt: int = 27, weave: float = 0.0) -> Made | Woven:  # fmt: skip
    """Grow from a list of active cells: take the newest, the oldest, a random one, or
    the newest with probability ``newest`` and a random one otherwise (``mix``); carve
    to a random unvisited neighbour, or drop the cell when it has none.

    ``weave`` (a rectangle only; Buck's weave, *Mazes for Programmers* chapter 9): a
    cell may also tunnel under a neighbour that is a straight corridor across the way,
    to the unvisited cell beyond; each such way is offered with probability ``weave``."""
    fast = None if weave else _compiled(grid)
    if fast is not None:  # (any other policy is the mix, as below)
        return fast.growing_tree(*_flat(grid), _words(seed, salt), _POLICIES.get(policy, 3),
                                 float(newest))  # fmt: skip
    rng = _Random(seed, salt)
    neighbours = grid.neighbours
    if weave:
        neighbours = _Weaving(grid, weave, rng)  # type: ignore[assignment]
    visited = bytearray(grid.size)
    first = rng.pick(grid.size)
    visited[first] = 1
    active = [first]
    head = 0  # for "oldest": cells before it are dropped
    links: Links = []
    choose: Callable[[], int]
    if policy == "newest":
        choose = lambda: len(active) - 1  # noqa: E731
    elif policy == "oldest":
        choose = lambda: head  # noqa: E731
    elif policy == "random":
        choose = lambda: head + rng.pick(len(active) - head)  # noqa: E731
    else:
        choose = lambda: (len(active) - 1 if rng.chance() < newest  # noqa: E731
                          else head + rng.pick(len(active) - head))  # fmt: skip
    while head < len(active):
        k = choose()
        here = active[k]
        free = [there for there in neighbours[here] if not visited[there]]
        if weave:
            free += neighbours.beyond(here, visited)  # type: ignore[attr-defined]
        if free:
            there = free[rng.pick(len(free))]
            visited[there] = 1
            if weave:
                neighbours.carve(here, there, links)  # type: ignore[attr-defined]
            else:
                links.append((here, there))
            active.append(there)
        elif k == len(active) - 1:
            active.pop()
        elif k == head:
            head += 1
        else:  # (a random pick: the order of the others does not matter)
            active[k] = active[head]
            head += 1
    if weave:
        return links, neighbours.tunnels  # type: ignore[attr-defined]
    return links


class _Weaving:
    """A rectangle's neighbours while a weave is carved: the plain ones, and the cells a
    tunnel under a straight corridor reaches (:meth:`beyond`); :meth:`carve` records a
    link or a tunnel."""

    def __init__(self, grid: Grid, weave: float, rng: _Random) -> None:
        self.grid, self.weave, self.rng = grid, weave, rng
        self.plain = grid.neighbours
        self.index = grid.index
        self.open: list[set[int]] = [set() for _ in range(grid.size)]
        self.tunnels: list[tuple[int, int, int]] = []
        # the cells tunnels pass under, and the cells they join (kept as tunnels are made)
        self.under_cells: set[int] = set()
        self.ends: set[int] = set()
        self.under: dict[int, int] = {}  # the cell beyond a tunnel -> the cell under it

    def __getitem__(self, cell: int) -> tuple[int, ...]:
        return tuple(c for c in self.plain[cell] if c not in self.under_cells)

    def beyond(self, cell: int, visited: bytearray) -> list[int]:
        row, col = self.grid.ids[cell]
        found = []
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            middle = self.index.get((row + dr, col + dc))
            far = self.index.get((row + 2 * dr, col + 2 * dc))
            if middle is None or far is None or visited[far] or not visited[middle]:
                continue
            sides = self.open[middle]
            mr, mc = row + dr, col + dc
            across = {self.index.get((mr + dc, mc + dr)), self.index.get((mr - dc, mc - dr))}
            if (sides == across and None not in across and middle not in self.under_cells
                    and middle not in self.ends and self.rng.chance() < self.weave):  # fmt: skip
                found.append(far)
                self.under[far] = middle
        return found

    def carve(self, here: int, there: int, links: Links) -> None:
        middle = self.under.get(there)
        if middle is not None and there not in self.plain[here]:
            self.tunnels.append((here, middle, there))
            self.under_cells.add(middle)
            self.ends.update((here, there))
        else:
            links.append((here, there))
            self.open[here].add(there)
            self.open[there].add(here)
        self.under.clear()


def hunt_and_kill(grid: Grid, seed: int, hunt: str = "rows", hunt_chance: float = 0.0) -> Made:
    """A random walk to unvisited neighbours; when stuck (or, with ``hunt_chance``, at
    any step by chance), hunt: scan the cells for the first unvisited one beside the
    maze and join it to a random visited neighbour. ``hunt`` is the scan order:
    ``rows`` (the grid's own order), ``columns`` (by the second part of each id, then
    the first) or ``random`` (one random order). The cells beside the maze are kept by
    their place in that order, so a hunt finds the first without scanning the cells
    before it again (time in proportion to the cells, not their square)."""
    fast = _compiled(grid)
    if fast is not None:
        if hunt == "columns" and type(grid).topology is not Grid.topology:  # (ids: one length)
            flat_ids = grid.flat.ids
            columns = [flat_ids[:, k] for k in range(flat_ids.shape[1] - 1, 0, -1)]
            walk = np.lexsort((flat_ids[:, 0], *columns))
        elif hunt == "columns":
            cell_ids = grid.ids
            walk = np.array(
                sorted(range(grid.size), key=lambda i: (cell_ids[i][1:], cell_ids[i][0]))
            )
        else:  # (rows: no order to pass, the kernel takes a cell's place to be the cell)
            walk = np.arange(grid.size if hunt == "random" else 0, dtype=np.int32)
        return fast.hunt_and_kill(*_flat(grid), _words(seed, 28), walk.astype(np.int32, copy=False),
                                  hunt == "random", float(hunt_chance))  # fmt: skip
    rng = _Random(seed, 28)
    neighbours = grid.neighbours
    size = grid.size
    order = list(range(size))
    if hunt == "columns":
        ids = grid.ids
        order.sort(key=lambda i: (ids[i][1:], ids[i][0]))
    elif hunt == "random":
        rng.shuffle(order)
    visited = bytearray(size)
    place = [0] * size  # each cell's place in the scan order
    for k, cell in enumerate(order):
        place[cell] = k
    # the places of the cells beside the maze, some visited since (skipped when met): a
    # hunt takes the least, the first cell a scan in order would find, without the scan
    beside: list[int] = []
    here = rng.pick(size)
    links: Links = []
    left = size - 1
    while True:
        visited[here] = 1
        free = [there for there in neighbours[here] if not visited[there]]
        for there in free:
            heapq.heappush(beside, place[there])
        if not left:
            break
        if free and not (hunt_chance and rng.chance() < hunt_chance):
            there = free[rng.pick(len(free))]
            links.append((here, there))
            here = there
            left -= 1
            continue
        # hunt: the first unvisited cell (in scan order) beside a visited one
        while visited[order[beside[0]]]:
            heapq.heappop(beside)
        found = order[heapq.heappop(beside)]
        inside = [there for there in neighbours[found] if visited[there]]
        links.append((inside[rng.pick(len(inside))], found))
        left -= 1
        here = found
    return links


#: The generators that run on any grid, by registered name.
GRAPH_GENERATORS: dict[str, Callable[..., Made | Woven]] = {
    "hunt-and-kill": hunt_and_kill,
    "recursive-backtracker": recursive_backtracker,
    "kruskal": kruskal,
    "prim": prim,
    "prim-frontier": prim_frontier,
    "wilson": wilson,
    "aldous-broder": aldous_broder,
    "growing-tree": growing_tree,
}

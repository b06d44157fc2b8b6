"""Prim's algorithm on the frontier (``prim-frontier``, Pullen's "modified Prim").

Steps:

1. mark a random cell visited and put its neighbours in the *frontier*;
2. take a uniformly random frontier cell, carve to a random visited
   neighbour of it, mark it visited and add its unvisited neighbours to the
   frontier; stop when the frontier is empty.

This picks a random *cell*, not a random edge: mazes radiate from the start
with many short dead ends (about 36%). ``prim`` — Prim's algorithm on random
edge weights, a minimum spanning tree — is in :mod:`lacak_mazes.generators.kruskal`,
since the minimum spanning tree of distinct weights is unique and is computed
there for both.

>>> from lacak_mazes.generators.prim import prim_frontier
>>> prim_frontier(3, 9, 4).is_perfect()
True
"""

from __future__ import annotations

from .._common import OPPOSITE
from ..maze import Maze
from ._common import Rng
from ._grid import Padded, maze_from_links, visit_carving
from .engine import kernels, timed

__all__ = ["prim_frontier"]


def prim_frontier(height: int, width: int, seed: int, carving: bool = False) -> Maze:
    """A perfect maze by Prim's algorithm with a random frontier cell each step.

    :param carving: give the maze its carving (each frontier cell as it joins).
    """
    rng = Rng(seed, salt=6)
    grid = Padded(height, width)
    compiled = None if carving else kernels(height * width)
    if compiled is not None:
        start = grid.random_cell(rng)
        state_array, link_array = grid.arrays()
        compiled.prim_frontier(state_array, link_array, start, grid.P, rng.words())
        return Maze(compiled.cells_from_links(link_array, height, width))
    with timed():
        return _prim_frontier(rng, grid, carving)


def _prim_frontier(rng: Rng, grid: Padded, carving: bool) -> Maze:
    """:func:`prim_frontier` in Python (the reference of the compiled kernel)."""
    if carving:
        grid.record()
    state, link, steps = grid.state, grid.link, grid.steps
    rand = rng.float_stream().__next__
    start = grid.random_cell(rng)
    state[start] = 1
    frontier: list[int] = []
    add = frontier.append
    listed = bytearray(grid.size)
    for offset, _back in steps:
        there = start + offset
        if not state[there]:
            listed[there] = 1
            add(there)
    pop = frontier.pop
    while frontier:
        pick = int(rand() * len(frontier))
        here = frontier[pick]
        frontier[pick] = frontier[-1]
        pop()
        joins = []
        for offset, back in steps:
            there = here + offset
            mark = state[there]
            if mark == 1:
                joins.append(back)
            elif not mark and not listed[there]:
                listed[there] = 1
                add(there)
        # ``back`` is the side of the visited neighbour facing ``here``
        link[here] = OPPOSITE[joins[int(rand() * len(joins))] if len(joins) > 1 else joins[0]]
        state[here] = 1
    links = grid.links()
    return maze_from_links(links, carving=visit_carving(grid, links) if carving else None)

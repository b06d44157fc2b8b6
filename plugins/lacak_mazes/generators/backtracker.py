"""The recursive backtracker: a randomised depth-first search, iterative.

Steps:

1. start at a random cell and mark it visited;
2. carve to a random unvisited neighbour of the current cell, push the
   current cell on a stack and move on;
3. when the current cell has no unvisited neighbour, pop the stack and
   continue from there; stop when the stack is empty.

The stack lives in a Python list, so there is no recursion limit. The mazes
have long winding corridors and few dead ends (about 10%).

>>> from lacak_mazes.generators.backtracker import recursive_backtracker
>>> maze = recursive_backtracker(4, 6, 1)
>>> maze.is_perfect()
True
"""

from __future__ import annotations

from ..maze import Maze
from ._common import Rng
from ._grid import (
    Padded,
    carve_depth_first,
    compiled_orders,
    maze_from_links,
    permutation_table,
    visit_carving,
)
from .engine import kernels, timed

__all__ = ["recursive_backtracker"]


def recursive_backtracker(height: int, width: int, seed: int, carving: bool = False) -> Maze:
    """A perfect maze by randomised depth-first search.

    :param height: rows (at least 1).
    :param width: columns (at least 1).
    :param seed: the random seed.
    :param carving: give the maze its carving (each cell as the walk reaches it).
    """
    rng = Rng(seed, salt=2)
    grid = Padded(height, width)
    compiled = None if carving else kernels(height * width)
    if compiled is not None:
        choice, here = compiled.choices(rng.words(), grid.size, height, width)
        state, link = grid.arrays()
        state[here] = 1
        compiled.depth_first(state, link, *compiled_orders(grid), choice, here)
        return Maze(compiled.cells_from_links(link, height, width))
    with timed():
        if carving:
            grid.record()
        orders = permutation_table(grid.steps)
        choice = rng.below(24, grid.size).tolist()
        here = grid.random_cell(rng)
        grid.state[here] = 1
        carve_depth_first(grid, orders, choice, here)
        links = grid.links()
    return maze_from_links(links, carving=visit_carving(grid, links) if carving else None)

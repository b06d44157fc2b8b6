"""The recursive backtracker: a randomised depth-first search, iterative.

Steps:

1. start at a random cell and mark it visited;
2. carve to a random unvisited neighbour of the current cell, push the
   current cell on a stack and move on;
3. when the current cell has no unvisited neighbour, pop the stack and
   continue from there; stop when the stack is empty.

The stack lives in a Python list, so there is no recursion limit. The mazes
have long winding corridors and few dead ends (about 10%).

>>> from lacak_mazes.backtracker import recursive_backtracker
>>> maze = recursive_backtracker(4, 6, 1)
>>> maze.is_perfect()
True
"""

from __future__ import annotations

from ._common import Rng
from ._grid import Padded, maze_from_links, permutation_table
from .maze import Maze

__all__ = ["recursive_backtracker"]


def recursive_backtracker(height: int, width: int, seed: int) -> Maze:
    """A perfect maze by randomised depth-first search.

    :param height: rows (at least 1).
    :param width: columns (at least 1).
    :param seed: the random seed.
    """
    rng = Rng(seed, salt=2)
    grid = Padded(height, width)
    state, link = grid.state, grid.link
    orders = permutation_table(grid.steps)
    choice = rng.below(24, grid.size).tolist()
    here = grid.random_cell(rng)
    state[here] = 1
    # The stack holds the path from the start to the current cell; the
    # current cell retries its random order on return, which picks uniformly
    # among the neighbours still unvisited (see permutation_table).
    stack = [here]
    push, pop = stack.append, stack.pop
    while True:
        for offset, back in orders[choice[here]]:
            there = here + offset
            if not state[there]:
                state[there] = 1
                link[there] = back
                push(there)
                here = there
                break
        else:
            pop()
            if not stack:
                break
            here = stack[-1]
    return maze_from_links(grid.links())

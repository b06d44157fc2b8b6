"""Eller's algorithm: one row at a time, in memory proportional to the width.

Steps, for each row:

1. cells that have no set yet (no passage from above) get a new set each;
2. walking east, join each cell to its east neighbour at random
   (probability ``join``) when the two are in different sets, merging the sets;
3. every set opens south from at least one of its cells: one chosen at
   random, and each other cell with probability ``down``; the cells below
   inherit the set.

On the last row, every pair of neighbours in different sets is joined, which
connects everything. Only the current row's sets are kept (a small
union-find, renumbered per row), so the maze could be streamed row by row.
About 28% dead ends with the default probabilities.

>>> from lacak_mazes.generators.eller import eller
>>> eller(5, 6, 2).is_perfect()
True
"""

from __future__ import annotations

import numpy as np

from .._common import E, S
from ..carving import Carving
from ..maze import Maze
from ._common import Rng, check_probability
from .engine import kernels, timed

__all__ = ["eller"]


def eller(
    height: int,
    width: int,
    seed: int,
    join: float = 0.5,
    down: float = 0.5,
    carving: bool = False,
) -> Maze:
    """A perfect maze by Eller's algorithm.

    :param join: probability of joining two neighbours of different sets on a row.
    :param down: probability that a cell opens south beyond the one per set that must.
    :param carving: give the maze its carving: row by row, the joins from west to
        east, then the passages south from west to east.
    :raises lacak.InvalidOptionError: a probability that is not a number in [0, 1].
    """
    join = check_probability(join, "join", "eller")
    down = check_probability(down, "down", "eller")
    rng = Rng(seed, salt=4)
    compiled = None if carving else kernels(height * width)
    if compiled is not None:
        return Maze(compiled.eller(rng.words(), height, width, int(join * 2**53), down))
    with timed():
        return _eller(rng, height, width, join, down, carving)


def _eller(rng: Rng, height: int, width: int, join: float, down: float, carving: bool) -> Maze:
    """:func:`eller` in Python (the reference of the compiled kernel)."""
    east = np.zeros((height, width), dtype=bool)
    south = np.zeros((height, width), dtype=bool)
    join_bound = int(float(join) * 2**53)
    down_p = float(down)
    columns = np.arange(width)
    # sets of the current row, as labels 0 .. width-1 (a cell's own column
    # when it starts a new set)
    sets = columns.copy()
    for row in range(height):
        last = row == height - 1
        coins = (rng.raw(width) >> np.uint64(11)).tolist()
        parent = list(range(width))

        def find(x: int, parent: list[int] = parent) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        labels = sets.tolist()
        opened = east[row]
        for col in range(width - 1):
            if last or coins[col] < join_bound:
                a, b = find(labels[col]), find(labels[col + 1])
                if a != b:
                    parent[b] = a
                    opened[col] = True
        roots = np.array([find(label) for label in labels], dtype=np.int64)
        if last:
            break
        # one random cell per set must go down: the one with the smallest key
        keys = rng.floats(width)
        order = np.lexsort((keys, roots))
        first_of_set = np.ones(width, dtype=bool)
        first_of_set[1:] = roots[order][1:] != roots[order][:-1]
        must = np.zeros(width, dtype=bool)
        must[order[first_of_set]] = True
        extra = rng.floats(width) < down_p
        going = must | extra
        south[row] = going
        # the next row: inherited sets keep their root, the others are new
        # (labels width + column, which cannot clash); renumber to 0 .. width-1
        _unique, sets = np.unique(np.where(going, roots, width + columns), return_inverse=True)
        sets = sets.astype(np.int64)
    if not carving:
        return Maze.from_edges(east, south)
    east[:, -1] = False
    south[-1, :] = False
    east_rows, east_cols = np.nonzero(east)
    south_rows, south_cols = np.nonzero(south)
    # a row's joins (keys 2 w r + c), then its passages south (2 w r + w + c)
    keys = np.concatenate(
        [2 * width * east_rows + east_cols, 2 * width * south_rows + width + south_cols]
    )
    order = np.argsort(keys, kind="stable")
    steps = Carving.of(
        np.concatenate([east_rows, south_rows])[order],
        np.concatenate([east_cols, south_cols])[order],
        np.concatenate([np.full(east_rows.size, E), np.full(south_rows.size, S)])[order],
    )
    return Maze.from_edges(east, south, carving=steps)

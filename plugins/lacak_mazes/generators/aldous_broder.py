"""Aldous-Broder: the first-entrance tree of a random walk, exactly uniform.

Steps:

1. start a random walk at a random cell;
2. whenever the walk enters a cell for the first time, carve the passage it
   came through; stop when every cell has been entered.

Every perfect maze of the grid comes out with the same probability (Aldous
1990, Broder 1989). The walk needs the grid's cover time: about
``(1/pi) n (ln n)^2`` steps for ``n`` cells on the torus (Dembo, Peres, Rosen
and Zeitouni 2004), 60 to 90 steps a cell at 1000x1000, so lacak runs it in
numpy blocks (:mod:`lacak_mazes.generators._walk`):

- The walk picks one of the four directions each step and stays put when
  that leaves the grid (a self-loop, which never enters a new cell, so the
  first-entrance tree keeps its uniform law: every grid edge has the same
  step probability, 1/4, both ways).
- Such a walk is a plain walk on the integers *folded* back into the grid:
  with ``f(x) = x mod 2w``, mapped to ``2w - 1 - f`` when ``f >= w``, the
  position ``f(x)`` of a free walk ``x`` steps out of column 0 into column 0
  again exactly as the stay-put rule says. So a block of steps is a
  cumulative sum and a fold (a look-up table over the block's range); the
  steps that land on cells not yet entered are picked out, and the first
  entrance of each such cell is the least step reaching it (``np.minimum.at``).
- A ``1 x n`` or ``n x 1`` grid has one perfect maze, the corridor, returned
  without a walk (whose cover time would be about ``n**2`` steps).

The time per step is constant (blocks of 262,144 steps, which stay in the
processor's cache); the number of steps grows as ``n (ln n)^2``.

Mazes have no bias and about 29% dead ends.

>>> from lacak_mazes.generators.aldous_broder import aldous_broder
>>> aldous_broder(3, 3, 1).is_perfect()
True
"""

from __future__ import annotations

import numpy as np

from .._common import E, N, S, W
from ..carving import Carving
from ..maze import Maze
from ._common import Rng
from ._grid import corridor, maze_from_links
from ._walk import col_steps, folded, moves, row_steps
from .engine import kernels, timed

__all__ = ["aldous_broder"]

#: Raw numbers per block (32 moves each) at most: 256K moves, arrays that stay in cache.
BLOCK = 1 << 13


def aldous_broder(height: int, width: int, seed: int, carving: bool = False) -> Maze:
    """A uniformly random perfect maze by the Aldous-Broder random walk.

    :param carving: give the maze its carving: each cell as the walk first enters it.
    """
    if height == 1 or width == 1:  # one perfect maze (no walk needed)
        return corridor(height, width, carving)
    rng = Rng(seed, salt=9)
    n = height * width
    compiled = None if carving else kernels(n)
    if compiled is not None:
        start = int(rng.below(n, 1)[0])
        return Maze(compiled.aldous_broder(rng.words(), height, width, start)[0])
    with timed():
        return _aldous_broder(rng, height, width, carving)


def _aldous_broder(rng: Rng, height: int, width: int, carving: bool) -> Maze:
    """:func:`aldous_broder` in numpy blocks (the reference of the compiled kernel)."""
    entered: list[np.ndarray] = []  # the cells first entered, block by block, when asked
    n = height * width
    links = np.zeros(n, dtype=np.uint8)
    unentered = np.ones(n, dtype=bool)
    first = np.full(n, np.iinfo(np.int32).max, dtype=np.int32)  # scratch, per block
    start = int(rng.below(n, 1)[0])
    y, x = divmod(start, width)
    unentered[start] = False
    count = 1
    # raw numbers per block: from about the cell count / 32, doubling up to BLOCK
    block = max(4, min(BLOCK, n // 32))
    last_row, last_col = y, x
    while count < n:
        step = moves(rng, block)
        rows, y = folded(y, row_steps(step), height)
        cols, x = folded(x, col_steps(step), width)
        cells = rows * width
        cells += cols
        fresh = np.flatnonzero(np.take(unentered, cells))
        if fresh.size:
            # each new cell's first entrance in the block: the least step that reaches it
            reached = np.take(cells, fresh)
            fresh = fresh.astype(np.int32)
            np.minimum.at(first, reached, fresh)
            firsts = np.take(first, reached) == fresh
            at = fresh[firsts]
            new = reached[firsts]
            prev_rows = np.where(at > 0, rows[at - 1], last_row)
            prev_cols = np.where(at > 0, cols[at - 1], last_col)
            dr = prev_rows - rows[at]
            dc = prev_cols - cols[at]
            side = np.select(
                [dr == -1, dc == 1, dr == 1, dc == -1], [N, E, S, W], default=0
            ).astype(np.uint8)
            links[new] = side
            unentered[new] = False
            if carving:  # in the order of their first entrance
                entered.append(new[np.argsort(at, kind="stable")])
            count += new.size
        last_row, last_col = int(rows[-1]), int(cols[-1])
        if block < BLOCK:
            block *= 2
    grid = links.reshape(height, width)
    steps = None
    if carving:
        order = np.concatenate(entered) if entered else np.zeros(0, dtype=np.int64)
        at_row, at_col = np.divmod(order, width)
        steps = Carving.of(at_row, at_col, grid[at_row, at_col])
    return maze_from_links(grid, carving=steps)

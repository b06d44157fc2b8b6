"""The two vectorised classics: binary tree and sidewinder.

Both decide each cell on its own (binary tree) or each row on its own
(sidewinder), so numpy makes the whole maze in a few array operations.

**Binary tree.** Every cell opens one of two sides, say north or west, at
random; cells on the top row can only open west, cells in the left column
only north. A strong diagonal bias: the top row and the left column are
single corridors, and about 25% of cells are dead ends.

**Sidewinder.** Row by row: the top row is one corridor. On every other row,
walk east deciding at random whether to carry the current *run* on east or
to close it; a closed run opens north from one of its cells chosen at random.
The top row is a corridor, and there is a bias upward; about 27% dead ends.

>>> from lacak_mazes.generators.simple import binary_tree, sidewinder
>>> binary_tree(4, 5, 1).is_perfect() and sidewinder(4, 5, 1).is_perfect()
True
"""

from __future__ import annotations

import lacak
import numpy as np

from .._common import E, N, S, W
from ..carving import Carving
from ..maze import Maze
from ._common import Rng
from ._grid import maze_from_links
from .engine import kernels, timed

__all__ = ["BIASES", "binary_tree", "sidewinder"]

#: The corner every binary-tree path leads to, by the two sides it opens.
BIASES = ("NW", "NE", "SW", "SE")
#: Cells of rows whose random numbers the numpy engine draws at once, so that its
#: arrays stay in the processor's cache whatever the size of the maze.
ROWS_BLOCK = 1 << 15


def binary_tree(
    height: int, width: int, seed: int, bias: str = "NW", carving: bool = False
) -> Maze:
    """A perfect maze in which every cell opens one of the two ``bias`` sides.

    :param bias: ``"NW"`` (default), ``"NE"``, ``"SW"`` or ``"SE"``.
    :param carving: give the maze its carving: each cell's passage, row by row.
    :raises lacak.InvalidOptionError: an unknown bias.
    """
    bias = str(bias).upper()
    if bias not in BIASES:
        raise lacak.InvalidOptionError(
            f"binary-tree option 'bias' is one of {', '.join(BIASES)}, got {bias!r}"
        )
    rng = Rng(seed, salt=11)
    vertical = N if bias[0] == "N" else S
    horizontal = W if bias[1] == "W" else E
    compiled = None if carving else kernels(height * width)
    if compiled is not None:
        return Maze(compiled.binary_tree(rng.words(), height, width, vertical, horizontal))
    with timed():
        return _binary_tree(rng, height, width, vertical, horizontal, carving)


def _binary_tree(
    rng: Rng, height: int, width: int, vertical: int, horizontal: int, carving: bool
) -> Maze:
    """:func:`binary_tree` in numpy (the reference of the compiled kernel)."""
    links = np.empty((height, width), dtype=np.uint8)
    step = max(1, ROWS_BLOCK // width)  # a block of rows' coins at a time: in the cache
    for begin in range(0, height, step):
        count = min(step, height - begin)
        coins = (rng.raw(count * width) >> np.uint64(63)).astype(bool).reshape(count, width)
        links[begin : begin + count] = np.where(coins, np.uint8(vertical), np.uint8(horizontal))
    # the edge row can only go sideways, the edge column only up or down
    edge_row = 0 if vertical == N else height - 1
    edge_col = 0 if horizontal == W else width - 1
    links[edge_row, :] = horizontal
    links[:, edge_col] = vertical
    links[edge_row, edge_col] = 0  # the root
    if not carving:
        return Maze(_cells_from_links(links))
    rows, cols = np.nonzero(links)  # row by row
    return maze_from_links(links, carving=Carving.of(rows, cols, links[rows, cols]))


def _cells_from_links(links: np.ndarray) -> np.ndarray:
    """:func:`._grid.maze_from_links`'s cells, a block of rows at a time (in the cache)."""
    height, width = links.shape
    cells = links.copy()
    step = max(1, ROWS_BLOCK // width)
    for begin in range(0, height, step):
        end = min(height, begin + step)
        block = links[begin:end]
        low, high = max(begin, 1), min(end, height - 1)
        cells[low - 1 : end - 1] |= (links[low:end] == N) * np.uint8(S)
        cells[begin + 1 : high + 1] |= (links[begin:high] == S) * np.uint8(N)
        cells[begin:end, :-1] |= (block[:, 1:] == W) * np.uint8(E)
        cells[begin:end, 1:] |= (block[:, :-1] == E) * np.uint8(W)
    return cells


def sidewinder(height: int, width: int, seed: int, carving: bool = False) -> Maze:
    """A perfect maze by the sidewinder algorithm (runs east, one opening north per run).

    :param carving: give the maze its carving: the top row west to east, then row by
        row, each run's passages east and, as the run closes, its passage north.
    """
    rng = Rng(seed, salt=12)
    compiled = None if carving else kernels(height * width)
    if compiled is not None:
        words = rng.words()
        rng.bits.advance((height - 1) * width)  # the closing coins: one a cell of rows 1..
        return Maze(compiled.sidewinder(words, rng.words(), height, width))
    with timed():
        if carving:
            return _sidewinder(rng, height, width, carving)
        return _sidewinder_rows(rng, height, width)


def _sidewinder_rows(rng: Rng, height: int, width: int) -> Maze:
    """:func:`_sidewinder` without its carving, a block of rows at a time: the same
    random numbers (the closing coins from ``rng``, each run's pick from a copy of the
    stream moved on past all the coins), so the same maze, in memory that stays in
    the cache whatever the size."""
    cells = np.zeros((height, width), dtype=np.uint8)
    cells[0, :-1] |= np.uint8(E)  # the top row's corridor
    cells[0, 1:] |= np.uint8(W)
    picks = np.random.PCG64()
    picks.state = rng.bits.state
    picks.advance((height - 1) * width)
    step = max(1, ROWS_BLOCK // width)
    for begin in range(1, height, step):
        rows = min(step, height - begin)
        close = (rng.raw(rows * width) >> np.uint64(63)).astype(bool).reshape(rows, width)
        close[:, -1] = True
        join = ~close[:, :-1]
        block = cells[begin : begin + rows]
        block[:, :-1] |= join * np.uint8(E)
        block[:, 1:] |= join * np.uint8(W)
        flat_close = close.ravel()
        starts = np.ones(flat_close.size, dtype=bool)
        starts[1:] = flat_close[:-1]
        first = np.flatnonzero(starts)  # (runs never cross a row: the east edge closes)
        lengths = np.flatnonzero(flat_close) - first + 1
        high = picks.random_raw(first.size) >> np.uint64(32)
        pick = first + (high * lengths.astype(np.uint64) >> np.uint64(32)).astype(np.int64)
        at_row, at_col = np.divmod(pick, width)
        block[at_row, at_col] |= np.uint8(N)
        cells[begin - 1 + at_row, at_col] |= np.uint8(S)
    return Maze(cells)


def _sidewinder(rng: Rng, height: int, width: int, carving: bool) -> Maze:
    """:func:`sidewinder` in numpy, all rows at once (the reference of the compiled
    kernel and of :func:`_sidewinder_rows`)."""
    steps = []
    if carving:  # the top row's corridor
        top = np.arange(width - 1)
        steps.append((np.zeros_like(top), top, np.full(top.size, E), top))
    east = np.ones((height, width), dtype=bool)
    south = np.zeros((height, width), dtype=bool)
    if height > 1:
        rows = height - 1
        # close the run after this cell? always at the east edge
        close = (rng.raw(rows * width) >> np.uint64(63)).astype(bool).reshape(rows, width)
        close[:, -1] = True
        east[1:, :] = ~close
        flat_close = close.ravel()
        starts = np.ones(flat_close.size, dtype=bool)
        starts[1:] = flat_close[:-1]
        first = np.flatnonzero(starts)  # flat index (over rows 1..) of each run's first cell
        ends = np.flatnonzero(flat_close)
        lengths = ends - first + 1
        pick = first + (
            (rng.raw(first.size) >> np.uint64(32)) * lengths.astype(np.uint64) >> np.uint64(32)
        ).astype(np.int64)
        # cell (r, c) of rows 1.. opens north, i.e. (r - 1, c) opens south
        south_flat = south.ravel()
        south_flat[pick] = True
        if carving:
            # keys over rows 1..: a passage east of flat cell k is 2 k, a run's passage
            # north, taken as the run closes at flat cell e, is 2 e + 1
            joins = np.flatnonzero(~flat_close)
            north_rows, north_cols = np.divmod(pick, width)
            join_rows, join_cols = np.divmod(joins, width)
            steps.append((join_rows + 1, join_cols, np.full(joins.size, E), 2 * joins + width))
            steps.append((north_rows + 1, north_cols, np.full(pick.size, N), 2 * ends + 1 + width))
    if not carving:
        return Maze.from_edges(east, south)
    at_row, at_col, side, keys = (np.concatenate(part) for part in zip(*steps, strict=True))
    order = np.argsort(keys, kind="stable")
    return Maze.from_edges(
        east, south, carving=Carving.of(at_row[order], at_col[order], side[order])
    )

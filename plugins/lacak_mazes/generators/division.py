"""Recursive division: start from an empty room and add walls.

Steps:

1. start with every inner wall knocked down (one open room);
2. divide a room with a wall across it — horizontal when the room is taller
   than wide, vertical when wider than tall, either at random when square —
   at a random position, leaving one random gap;
3. divide both halves the same way, until rooms are one cell wide or tall.

A perfect maze with long straight walls and a visible box structure; about
27% dead ends. Every room is divided with its own random numbers, so the
rooms of one level of the recursion are independent: lacak divides them all
at once, a level at a time (breadth first, about ``2 log2(side)`` levels),
with numpy — the walls of a level are expanded into flat cell indices with
``np.repeat`` and written in one assignment.

>>> from lacak_mazes.generators.division import recursive_division
>>> recursive_division(6, 6, 1).is_perfect()
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._common import E, S
from ..carving import Carving
from ..maze import Maze
from ._common import Rng
from .engine import kernels, timed

__all__ = ["recursive_division"]


def recursive_division(height: int, width: int, seed: int, carving: bool = False) -> Maze:
    """A perfect maze by recursive division.

    :param carving: give the maze its carving, which *adds walls*: level by level of
        the recursion, room by room, each dividing wall piece by piece (its gap left
        out), from one open room.
    """
    rng = Rng(seed, salt=7)
    compiled = None if carving else kernels(height * width)
    if compiled is not None:
        return Maze(compiled.division(rng.words(), height, width))
    with timed():
        return _division(rng, height, width, carving)


def _division(rng: Rng, height: int, width: int, carving: bool) -> Maze:
    """:func:`recursive_division` in numpy (the reference of the compiled kernel)."""
    walls: list[np.ndarray] = []  # the walls put up, level by level, when asked
    n = height * width
    # one array for both kinds of passage: south of cell i at i, east of cell i at n + i
    passages = np.ones(2 * n, dtype=bool)
    top = np.zeros(1, dtype=np.int64)
    left = np.zeros(1, dtype=np.int64)
    rows = np.full(1, height, dtype=np.int64)
    cols = np.full(1, width, dtype=np.int64)
    while True:
        keep = np.flatnonzero((rows >= 2) & (cols >= 2))
        if not keep.size:
            break
        top, left, rows, cols = top[keep], left[keep], rows[keep], cols[keep]
        count = top.size
        coin, cut_u, gap_u = rng.floats(3 * count).reshape(3, count)
        h = (rows > cols) | ((rows == cols) & (coin < 0.5))
        across = np.where(h, rows, cols)  # the side the wall cuts
        along = np.where(h, cols, rows)  # the wall's length
        cut = 1 + (cut_u * (across - 1)).astype(np.int64)
        gap = (gap_u * along).astype(np.int64)
        # a horizontal wall runs east under row top + cut - 1; a vertical one
        # runs south east of column left + cut - 1
        first = np.where(
            h,
            (top + cut - 1) * width + left,
            n + top * width + left + cut - 1,
        )
        step = np.where(h, 1, width)
        pieces = _segments(first, along, step)
        passages[pieces] = False
        gaps = first + gap * step
        passages[gaps] = True
        if carving:
            walls.append(pieces[~np.isin(pieces, gaps)])
        top, left, rows, cols = (
            np.concatenate((top, np.where(h, top + cut, top))),
            np.concatenate((left, np.where(h, left, left + cut))),
            np.concatenate((np.where(h, cut, rows), np.where(h, rows - cut, rows))),
            np.concatenate((np.where(h, cols, cut), np.where(h, cols, cols - cut))),
        )
    south = passages[:n].reshape(height, width)
    east = passages[n:].reshape(height, width)
    east[:, -1] = False
    south[-1, :] = False
    if not carving:
        return Maze.from_edges(east, south)
    put = np.concatenate(walls) if walls else np.zeros(0, dtype=np.int64)
    is_east = put >= n
    rows, cols = np.divmod(np.where(is_east, put - n, put), width)
    steps = Carving.of(rows, cols, np.where(is_east, E, S), adds="walls")
    return Maze.from_edges(east, south, carving=steps)


def _segments(first: Any, lengths: Any, step: Any) -> Any:
    """Flat indices ``first[i] + step[i] * k`` for ``k < lengths[i]``, all segments together."""
    total = int(lengths.sum())
    if not total:
        return np.zeros(0, dtype=np.int64)
    offsets = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.repeat(first, lengths) + offsets * np.repeat(step, lengths)

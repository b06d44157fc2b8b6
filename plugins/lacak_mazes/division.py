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

>>> from lacak_mazes.division import recursive_division
>>> recursive_division(6, 6, 1).is_perfect()
True
"""

from __future__ import annotations

from ._common import Rng
from .maze import Maze

__all__ = ["recursive_division"]


def recursive_division(height: int, width: int, seed: int) -> Maze:
    """A perfect maze by recursive division."""
    import numpy as np

    rng = Rng(seed, salt=7)
    n = height * width
    east = np.ones(n, dtype=bool)  # east[i]: cell i open to the east
    south = np.ones(n, dtype=bool)
    top = np.zeros(1, dtype=np.int64)
    left = np.zeros(1, dtype=np.int64)
    rows = np.full(1, height, dtype=np.int64)
    cols = np.full(1, width, dtype=np.int64)
    while True:
        keep = (rows >= 2) & (cols >= 2)
        if not keep.any():
            break
        top, left, rows, cols = top[keep], left[keep], rows[keep], cols[keep]
        count = top.size
        coin, cut_u, gap_u = rng.floats(3 * count).reshape(3, count)
        horizontal = (rows > cols) | ((rows == cols) & (coin < 0.5))
        across = np.where(horizontal, rows, cols)  # the side the wall cuts
        along = np.where(horizontal, cols, rows)  # the wall's length
        cut = 1 + (cut_u * (across - 1)).astype(np.int64)
        gap = (gap_u * along).astype(np.int64)
        # horizontal walls: under row top + cut - 1, from column left on
        h = horizontal
        first = (top[h] + cut[h] - 1) * width + left[h]
        south[_segments(first, along[h], 1)] = False
        south[first + gap[h]] = True
        # vertical walls: east of column left + cut - 1, from row top down
        v = ~horizontal
        first = top[v] * width + left[v] + cut[v] - 1
        east[_segments(first, along[v], width)] = False
        east[first + gap[v] * width] = True
        top, left, rows, cols = (
            np.concatenate(parts)
            for parts in (
                (top[h], top[h] + cut[h], top[v], top[v]),
                (left[h], left[h], left[v], left[v] + cut[v]),
                (cut[h], rows[h] - cut[h], rows[v], rows[v]),
                (cols[h], cols[h], cut[v], cols[v] - cut[v]),
            )
        )
    east_array = east.reshape(height, width)
    south_array = south.reshape(height, width)
    east_array[:, -1] = False
    south_array[-1, :] = False
    return Maze.from_edges(east_array, south_array)


def _segments(first, lengths, step):  # type: ignore[no-untyped-def]
    """Flat indices ``first[i] + step * k`` for ``k < lengths[i]``, all segments together."""
    import numpy as np

    total = int(lengths.sum())
    if not total:
        return np.zeros(0, dtype=np.int64)
    starts = np.repeat(first, lengths)
    offsets = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    return starts + offsets * step

"""Recursive division: start from an empty room and add walls.

Steps:

1. start with every inner wall knocked down (one open room);
2. divide a room with a wall across it — horizontal when the room is taller
   than wide, vertical when wider than tall, either at random when square —
   at a random position, leaving one random gap;
3. divide both halves the same way, until rooms are one cell wide or tall.

A perfect maze with long straight walls and a visible box structure; about
23% dead ends. Rooms are handled from an explicit stack (no recursion
limit), and walls are written as byte-slice assignments on flat passage
arrays, a C loop per wall.

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
    rand = rng.float_stream().__next__
    n = height * width
    east = bytearray(b"\x01") * n  # east[i]: cell i open to the east
    south = bytearray(b"\x01") * n
    zeros = bytes(max(height, width))
    rooms = [(0, 0, height, width)]
    pop, push = rooms.pop, rooms.append
    while rooms:
        top, left, rows, cols = pop()
        if rows < 2 or cols < 2:
            continue
        horizontal = rows > cols or (rows == cols and rand() < 0.5)
        if horizontal:
            # wall under row top + cut - 1, cut in 1 .. rows - 1
            cut = 1 + int(rand() * (rows - 1))
            gap = left + int(rand() * cols)
            start = (top + cut - 1) * width + left
            south[start : start + cols] = zeros[:cols]
            south[(top + cut - 1) * width + gap] = 1
            push((top, left, cut, cols))
            push((top + cut, left, rows - cut, cols))
        else:
            cut = 1 + int(rand() * (cols - 1))
            gap = top + int(rand() * rows)
            start = top * width + left + cut - 1
            east[start : start + rows * width : width] = zeros[:rows]
            east[gap * width + left + cut - 1] = 1
            push((top, left, rows, cut))
            push((top, left + cut, rows, cols - cut))
    east_array = np.frombuffer(bytes(east), dtype=np.uint8).reshape(height, width).astype(bool)
    south_array = np.frombuffer(bytes(south), dtype=np.uint8).reshape(height, width).astype(bool)
    east_array[:, -1] = False
    south_array[-1, :] = False
    return Maze.from_edges(east_array, south_array)

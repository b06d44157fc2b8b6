"""Wilson's algorithm: loop-erased random walks, exactly uniform.

Steps:

1. put one cell (the root) in the tree;
2. from each cell not yet in the tree, walk at random until the walk meets
   the tree, remembering at every cell the direction it last left by (this
   erases the loops the walk made);
3. add the loop-erased path to the tree by following those directions from
   where the walk started; repeat until every cell is in the tree.

Every perfect maze of the grid comes out with the same probability (Wilson
1996, for any root and any order of starting cells). The root is the centre
cell, which keeps the walks short; the walks start from the cells row by row.

Mazes have no bias and about 29% dead ends, like Aldous-Broder and Kruskal.

>>> from lacak_mazes.wilson import wilson
>>> wilson(3, 3, 7).is_perfect()
True
"""

from __future__ import annotations

from ._common import Rng
from ._grid import SENTINEL, Padded, maze_from_links
from .maze import Maze

__all__ = ["wilson"]


def wilson(height: int, width: int, seed: int) -> Maze:
    """A uniformly random perfect maze by Wilson's algorithm."""
    import numpy as np

    rng = Rng(seed, salt=8)
    grid = Padded(height, width)
    state, link, P = grid.state, grid.link, grid.P
    offsets = np.array([-P, 1, P, -1], dtype=np.int64)
    bit_of = {-P: 1, 1: 2, P: 4, -1: 8}

    def moves(count: int) -> np.ndarray:
        # 32 two-bit directions per 64 random bits, shifted out explicitly
        # (not a byte view) so the stream is the same on every machine.
        raw = rng.raw(max(1, count // 32))[:, None] >> np.arange(0, 64, 2, dtype=np.uint64)
        return offsets[(raw & np.uint64(3)).astype(np.int64).ravel()]

    step = rng.blocks(moves).__next__
    exits = [0] * grid.size
    root = grid.index(height // 2, width // 2)
    state[root] = 1
    for row in range(height):
        first = grid.index(row, 0)
        for start in range(first, first + width):
            if state[start]:
                continue
            here = start
            while not state[here]:
                offset = step()
                there = here + offset
                if state[there] == SENTINEL:
                    continue
                exits[here] = offset
                here = there
            here = start
            while not state[here]:
                state[here] = 1
                offset = exits[here]
                link[here] = bit_of[offset]
                here += offset
    return maze_from_links(grid.links())

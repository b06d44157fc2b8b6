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

>>> from lacak_mazes.simple import binary_tree, sidewinder
>>> binary_tree(4, 5, 1).is_perfect() and sidewinder(4, 5, 1).is_perfect()
True
"""

from __future__ import annotations

from ._common import E, N, Rng, S, W
from ._grid import maze_from_links
from .maze import Maze

__all__ = ["BIASES", "binary_tree", "sidewinder"]

#: The corner every binary-tree path leads to, by the two sides it opens.
BIASES = ("NW", "NE", "SW", "SE")


def binary_tree(height: int, width: int, seed: int, bias: str = "NW") -> Maze:
    """A perfect maze in which every cell opens one of the two ``bias`` sides.

    :param bias: ``"NW"`` (default), ``"NE"``, ``"SW"`` or ``"SE"``.
    :raises lacak.InvalidOptionError: an unknown bias.
    """
    import lacak
    import numpy as np

    bias = str(bias).upper()
    if bias not in BIASES:
        raise lacak.InvalidOptionError(
            f"binary-tree option 'bias' is one of {', '.join(BIASES)}, got {bias!r}"
        )
    rng = Rng(seed, salt=11)
    vertical = N if bias[0] == "N" else S
    horizontal = W if bias[1] == "W" else E
    coins = (rng.raw(height * width) >> np.uint64(63)).astype(bool).reshape(height, width)
    links = np.where(coins, np.uint8(vertical), np.uint8(horizontal)).astype(np.uint8)
    # the edge row can only go sideways, the edge column only up or down
    edge_row = 0 if vertical == N else height - 1
    edge_col = 0 if horizontal == W else width - 1
    links[edge_row, :] = horizontal
    links[:, edge_col] = vertical
    links[edge_row, edge_col] = 0  # the root
    return maze_from_links(links)


def sidewinder(height: int, width: int, seed: int) -> Maze:
    """A perfect maze by the sidewinder algorithm (runs east, one opening north per run)."""
    import numpy as np

    rng = Rng(seed, salt=12)
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
    return Maze.from_edges(east, south)

"""Kruskal's algorithm and Prim's algorithm on random edge weights.

**Kruskal** (``kruskal``): list every wall between two cells in a random
order; for each in turn, knock it down if the cells on its two sides are not
yet connected (a union-find tells); the result is a perfect maze.

**Prim on random weights** (``prim``, Pullen's "true Prim"): give every wall
a random weight; grow a tree from one cell, always adding the cheapest wall
that leads out of the tree.

Both return the *minimum spanning tree* of the grid under random distinct
weights (Kruskal's order is a weight: the position in the list), and that
tree is unique, so lacak computes it the fast way for both: Borůvka's
algorithm in numpy — every component takes its cheapest outgoing wall at
once, components merge by pointer jumping, about log2(cells) rounds. The
maze is identical, wall for wall, to the one the textbook loops produce with
the same weights (the tests check this against a plain union-find Kruskal
and a heap-based Prim). ``kruskal`` and ``prim`` use different random
streams, so the same seed gives two different mazes of the same kind: no
bias, about 30% dead ends.

>>> from lacak_mazes.kruskal import kruskal
>>> kruskal(4, 4, 9).is_perfect()
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._common import Rng
from .maze import Maze

if TYPE_CHECKING:
    import numpy as np

__all__ = ["edge_weights", "kruskal", "minimum_spanning_tree", "prim"]


def edge_weights(height: int, width: int, rng: Rng) -> tuple[np.ndarray, np.ndarray]:
    """Distinct random ranks for the walls: ``(east, south)`` int64 arrays.

    ``east`` is ``height x (width - 1)`` (the wall east of each cell),
    ``south`` is ``(height - 1) x width``; together they number the walls
    ``0 .. walls - 1`` in the random order.
    """
    import numpy as np

    count_east = height * (width - 1)
    count_south = (height - 1) * width
    order = rng.permutation(count_east + count_south)
    ranks = np.empty_like(order)
    ranks[order] = np.arange(order.size, dtype=order.dtype)
    return (
        ranks[:count_east].reshape(height, width - 1),
        ranks[count_east:].reshape(height - 1, width),
    )


def minimum_spanning_tree(
    height: int, width: int, east_rank: np.ndarray, south_rank: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Borůvka's minimum spanning tree of the grid with distinct wall ranks.

    :returns: ``(east, south)`` boolean passage arrays of shape ``height x width``.
    """
    import numpy as np

    n = height * width
    index = np.arange(n, dtype=np.int64).reshape(height, width)
    u = np.concatenate([index[:, :-1].ravel(), index[:-1, :].ravel()])
    v = np.concatenate([index[:, 1:].ravel(), index[1:, :].ravel()])
    rank = np.concatenate([east_rank.ravel(), south_rank.ravel()]).astype(np.int64)
    edges = rank.size
    chosen = np.zeros(edges, dtype=bool)
    # edges sorted by rank, so "the cheapest edge" is the smallest position
    order = np.argsort(rank, kind="stable")
    u, v = u[order], v[order]
    position = np.arange(edges, dtype=np.int64)
    label = np.arange(n, dtype=np.int64)
    cu, cv = u, v
    while position.size:
        best = np.full(n, edges, dtype=np.int64)
        np.minimum.at(best, cu, position)
        np.minimum.at(best, cv, position)
        roots = np.flatnonzero(best < edges)
        picked = best[roots]
        chosen[picked] = True
        # each component points at the component across its cheapest edge
        at = np.searchsorted(position, picked)
        other = np.where(cu[at] == roots, cv[at], cu[at])
        parent = np.arange(n, dtype=np.int64)
        parent[roots] = other
        # mutual choices form 2-cycles: the smaller label becomes the root
        mutual = (parent[parent] == np.arange(n)) & (parent < np.arange(n))
        parent[mutual] = np.flatnonzero(mutual)
        while True:
            jumped = parent[parent]
            if np.array_equal(jumped, parent):
                break
            parent = jumped
        label = parent[label]
        cu, cv = parent[cu], parent[cv]
        keep = cu != cv
        position, cu, cv = position[keep], cu[keep], cv[keep]
    east = np.zeros((height, width), dtype=bool)
    south = np.zeros((height, width), dtype=bool)
    winners = order[np.flatnonzero(chosen)]
    count_east = height * (width - 1)
    horizontal = winners[winners < count_east]
    vertical = winners[winners >= count_east] - count_east
    _set(east[:, :-1], horizontal, width - 1)
    _set(south[:-1, :], vertical, width)
    return east, south


def _set(view: np.ndarray, flat: np.ndarray, row_length: int) -> None:
    import numpy as np

    if row_length and flat.size:
        rows, cols = np.divmod(flat, row_length)
        view[rows, cols] = True


def kruskal(height: int, width: int, seed: int) -> Maze:
    """A perfect maze by Kruskal's algorithm on a random wall order."""
    rng = Rng(seed, salt=3)
    east, south = minimum_spanning_tree(height, width, *edge_weights(height, width, rng))
    return Maze.from_edges(east, south)


def prim(height: int, width: int, seed: int) -> Maze:
    """A perfect maze by Prim's algorithm on random wall weights."""
    rng = Rng(seed, salt=5)
    east, south = minimum_spanning_tree(height, width, *edge_weights(height, width, rng))
    return Maze.from_edges(east, south)

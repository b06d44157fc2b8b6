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
and a heap-based Prim). No sort is needed: a weight is random high bits
with the wall's number in its low bits. ``kruskal`` and ``prim`` use different random
streams, so the same seed gives two different mazes of the same kind: no
bias, about 30% dead ends.

>>> from lacak_mazes.generators.kruskal import kruskal
>>> kruskal(4, 4, 9).is_perfect()
True
"""

from __future__ import annotations

import heapq
from typing import Any

import numpy as np

from .._common import OPPOSITE, E, N, S, W
from ..carving import Carving
from ..maze import Maze
from ._common import Rng
from .engine import kernels, timed

__all__ = ["edge_weights", "kruskal", "minimum_spanning_tree", "prim"]


def edge_weights(height: int, width: int, rng: Rng) -> tuple[np.ndarray, np.ndarray]:
    """Distinct random weights for the walls: ``(east, south)`` int64 arrays.

    ``east`` is ``height x (width - 1)`` (the wall east of each cell),
    ``south`` is ``(height - 1) x width``. A weight is random high bits with
    the wall's number in the low bits, so no two are equal and the smallest
    weight names its wall directly.
    """
    count_east = height * (width - 1)
    count = count_east + (height - 1) * width
    bits = _low_bits(height, width)
    raw = rng.raw(count) >> np.uint64(1 + bits)
    weights = ((raw << np.uint64(bits)) | np.arange(count, dtype=np.uint64)).astype(np.int64)
    return (
        weights[:count_east].reshape(height, width - 1),
        weights[count_east:].reshape(height - 1, width),
    )


def _low_bits(height: int, width: int) -> int:
    """Bits of a wall's number in its weight (:func:`edge_weights`)."""
    return max(1, int(height * (width - 1) + (height - 1) * width).bit_length())


def minimum_spanning_tree(
    height: int, width: int, east_weight: np.ndarray, south_weight: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Borůvka's minimum spanning tree of the grid with distinct wall weights.

    Each round, every component finds its cheapest wall to another component
    (``np.minimum.at``), those walls join the tree, components merge by
    pointer jumping, and the merged components are numbered again from 0;
    walls inside a component are dropped. A round's work is proportional to
    the components and walls still there (at least halved each round), so
    the whole is proportional to the cell count.

    :returns: ``(east, south)`` boolean passage arrays of shape ``height x width``.
    """
    n = height * width
    index = np.arange(n, dtype=np.int32).reshape(height, width)
    ends_u = np.concatenate([index[:, :-1].ravel(), index[:-1, :].ravel()])
    ends_v = np.concatenate([index[:, 1:].ravel(), index[1:, :].ravel()])
    weight = np.concatenate([east_weight.ravel(), south_weight.ravel()]).astype(np.int64)
    edges = weight.size
    chosen = np.zeros(edges, dtype=bool)
    infinity = np.iinfo(np.int64).max
    # weight -> wall: the wall number is in the low bits
    low_bits = max(1, int(edges).bit_length())
    mask = (1 << low_bits) - 1
    distinct = edges < 2 or bool(((weight & mask) == np.arange(edges)).all())
    if not distinct:  # weights of another form: rank them, then number them the same way
        order = np.argsort(weight, kind="stable")
        rank = np.empty(edges, dtype=np.int64)
        rank[order] = np.arange(edges, dtype=np.int64)
        weight = (rank << low_bits) | np.arange(edges, dtype=np.int64)
    # the walls between two components: weight and the two components (numbered 0..count-1)
    alive_w, cu, cv = weight, ends_u, ends_v
    count = n
    while alive_w.size:
        best = np.full(count, infinity, dtype=np.int64)
        np.minimum.at(best, cu, alive_w)
        np.minimum.at(best, cv, alive_w)
        np.put(chosen, best & mask, True)  # every component has a wall out, but the last
        # each component points to the one across its cheapest wall
        identity = np.arange(count, dtype=np.int32)
        parent = identity.copy()
        for this, that in ((cu, cv), (cv, cu)):
            cheapest = np.flatnonzero(np.take(best, this) == alive_w)
            np.put(parent, np.take(this, cheapest), np.take(that, cheapest))
        # mutual choices form 2-cycles: the larger number becomes the root
        mutual = np.flatnonzero((np.take(parent, parent) == identity) & (parent < identity))
        np.put(parent, mutual, mutual)
        while True:
            jumped = np.take(parent, parent)
            if np.array_equal(jumped, parent):
                break
            parent = jumped
        roots = parent == identity
        number = np.cumsum(roots, dtype=np.int32)
        number -= 1
        component = np.take(number, parent)
        cu, cv = np.take(component, cu), np.take(component, cv)
        keep = np.flatnonzero(cu != cv)
        alive_w, cu, cv = np.take(alive_w, keep), np.take(cu, keep), np.take(cv, keep)
        count = int(np.count_nonzero(roots))
    east = np.zeros((height, width), dtype=bool)
    south = np.zeros((height, width), dtype=bool)
    winners = np.flatnonzero(chosen)
    count_east = height * (width - 1)
    _set(east[:, :-1], winners[winners < count_east], width - 1)
    _set(south[:-1, :], winners[winners >= count_east] - count_east, width)
    return east, south


def _compiled_tree(
    compiled: Any, height: int, width: int, rng: Rng
) -> tuple[np.ndarray, np.ndarray]:
    """The passages of :func:`minimum_spanning_tree` of :func:`edge_weights`, both by the
    compiled kernels (:mod:`lacak_mazes.generators.compiled`): the same tree."""
    if height * width == 1:
        return np.zeros((1, 1), dtype=bool), np.zeros((1, 1), dtype=bool)
    weights = compiled.edge_weights(rng.words(), height, width, _low_bits(height, width))
    return compiled.spanning_tree(*weights)


def _set(view: np.ndarray, flat: np.ndarray, row_length: int) -> None:
    if row_length and flat.size:
        rows, cols = np.divmod(flat, row_length)
        view[rows, cols] = True


def kruskal(height: int, width: int, seed: int, carving: bool = False) -> Maze:
    """A perfect maze by Kruskal's algorithm on a random wall order.

    :param carving: give the maze its carving: the walls knocked down, in the
        random order (their weight), as the textbook loop knocks them down.
    """
    rng = Rng(seed, salt=3)
    compiled = None if carving else kernels(height * width)
    if compiled is not None:
        return Maze.from_edges(*_compiled_tree(compiled, height, width, rng))
    with timed():
        east_weight, south_weight = edge_weights(height, width, rng)
        east, south = minimum_spanning_tree(height, width, east_weight, south_weight)
    if not carving:
        return Maze.from_edges(east, south)
    east_rows, east_cols = np.nonzero(east[:, :-1])
    south_rows, south_cols = np.nonzero(south[:-1, :])
    weights = np.concatenate(
        [east_weight[east_rows, east_cols], south_weight[south_rows, south_cols]]
    )
    order = np.argsort(weights, kind="stable")
    rows = np.concatenate([east_rows, south_rows])[order]
    cols = np.concatenate([east_cols, south_cols])[order]
    sides = np.concatenate([np.full(east_rows.size, E), np.full(south_rows.size, S)])[order]
    return Maze.from_edges(east, south, carving=Carving.of(rows, cols, sides))


def prim(height: int, width: int, seed: int, carving: bool = False) -> Maze:
    """A perfect maze by Prim's algorithm on random wall weights.

    :param carving: give the maze its carving: the tree grown from a random cell
        (drawn after the weights, so the maze is the same), always by its cheapest
        wall out, as the textbook loop grows it.
    """
    rng = Rng(seed, salt=5)
    compiled = None if carving else kernels(height * width)
    if compiled is not None:
        return Maze.from_edges(*_compiled_tree(compiled, height, width, rng))
    with timed():
        east_weight, south_weight = edge_weights(height, width, rng)
        east, south = minimum_spanning_tree(height, width, east_weight, south_weight)
    maze = Maze.from_edges(east, south)
    if not carving:
        return maze
    start = int(rng.below(height * width, 1)[0])
    return Maze(maze.cells, carving=_prim_order(maze, east_weight, south_weight, start))


def _prim_order(
    maze: Maze, east_weight: np.ndarray, south_weight: np.ndarray, start: int
) -> Carving:
    """The order Prim's loop adds the cells of ``maze``, the minimum spanning tree of
    the weights, growing from the flat cell ``start``.

    The cheapest wall out of the tree is always one of the tree's passages (the
    cut property), so the loop needs only those: a heap of the passages out of
    the cells added so far.
    """
    height, width = maze.height, maze.width
    east = np.zeros((height, width), dtype=np.int64)
    east[:, :-1] = east_weight
    south = np.zeros((height, width), dtype=np.int64)
    south[:-1, :] = south_weight
    east_w, south_w = east.ravel().tolist(), south.ravel().tolist()
    cells = maze.cells.ravel().tolist()
    inside = bytearray(height * width)
    heap: list[tuple[int, int, int]] = []
    rows: list[int] = []
    cols: list[int] = []
    sides: list[int] = []

    def leave(here: int) -> None:
        inside[here] = 1
        mask = cells[here]
        for bit, offset, weight in (
            (N, -width, south_w[here - width] if mask & N else 0),
            (E, 1, east_w[here] if mask & E else 0),
            (S, width, south_w[here] if mask & S else 0),
            (W, -1, east_w[here - 1] if mask & W else 0),
        ):
            if mask & bit and not inside[here + offset]:
                heapq.heappush(heap, (weight, here + offset, OPPOSITE[bit]))

    leave(start)
    while heap:
        _weight, here, side = heapq.heappop(heap)
        row, col = divmod(here, width)
        rows.append(row)
        cols.append(col)
        sides.append(side)
        leave(here)
    return Carving.of(rows, cols, sides)

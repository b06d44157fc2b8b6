"""The perfect hash of a group's placements, and the board's neighbour table.

A placement of ``k`` tiles on ``n`` cells gets a rank in ``0 .. n!/(n-k)! - 1``
(:class:`Placements`), so a group's pattern database is one byte per
placement, indexed by rank; searches may instead keep a *sparse* index up to
date with one addition per move (:meth:`Placements.sparse_table`). Both
builders (:mod:`lacak_sliding.pdb.build`, :mod:`lacak_sliding.pdb.compiled`)
and the lookups (:mod:`lacak_sliding.pdb.lookup`) use them.

This module needs numpy; it is imported only when a database is built or loaded.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["Placements", "neighbour_table"]


def neighbour_table(width: int, height: int) -> np.ndarray:
    """``table[d, p]``: the cell next to ``p`` in direction ``d`` (up, down, left, right), or ``n``.

    ``n = width * height`` is a sentinel cell that is never free, so a move off
    the board is simply never legal.
    """
    n = width * height
    table = np.full((4, n), n, dtype=np.int64)
    for p in range(n):
        r, c = divmod(p, width)
        if r > 0:
            table[0, p] = p - width
        if r < height - 1:
            table[1, p] = p + width
        if c > 0:
            table[2, p] = p - 1
        if c < width - 1:
            table[3, p] = p + 1
    return table


_FREE_CELLS: dict[int, np.ndarray] = {}


def _free_cells(n: int) -> np.ndarray | None:
    """For ``n <= 16``: ``table[used]`` lists the cells not in the bitmask ``used``, in order."""
    if n > 16:
        return None
    if n not in _FREE_CELLS:
        masks = np.arange(1 << n, dtype=np.int64)
        free = ((masks[:, None] >> np.arange(n)) & 1) == 0
        # stable sort puts the free cells first, each group in cell order
        _FREE_CELLS[n] = np.argsort(~free, axis=1, kind="stable").astype(np.uint8)
    return _FREE_CELLS[n]


class Placements:
    """Perfect hashing of the placements of ``k`` distinct tiles on ``n`` cells.

    A placement ``(p0, ..., pk-1)`` (tile ``i`` on cell ``pi``) gets the rank
    ``sum(d_i * w_i)`` where ``d_i = p_i - #{j < i : p_j < p_i}`` is ``p_i``'s
    index among the cells the earlier tiles left free and ``w_i = (n-i-1)!/(n-k)!``.
    Ranks run over ``0 .. n!/(n-k)! - 1`` in lexicographic order of the placements.

    >>> pl = Placements(4, 2)
    >>> pl.size, int(pl.rank(np.array([[0], [1]]))[0]), int(pl.rank(np.array([[3], [2]]))[0])
    (12, 0, 11)
    """

    def __init__(self, n: int, k: int) -> None:
        if not 1 <= k < n:
            raise ValueError(f"need 1 <= k < n, got n={n}, k={k}")
        self.n = n
        self.k = k
        self.size = math.perm(n, k)
        self.weights = [math.perm(n - i - 1, k - i - 1) for i in range(k)]

    def rank(self, pos: np.ndarray) -> np.ndarray:
        """Ranks of placements given as a ``(k, m)`` array of cells (row ``i``: tile ``i``)."""
        total = np.zeros(pos.shape[1], dtype=np.int64)
        for i in range(self.k):
            row = pos[i]
            digit = row.astype(np.uint8)
            for j in range(i):
                np.subtract(digit, pos[j] < row, out=digit, casting="unsafe")
            total += digit.astype(np.int64) * self.weights[i]
        return total

    def sparse_indices(self) -> np.ndarray:
        """For every rank, in order, the placement's *sparse* index ``sum(p_i * n**i)``.

        Search code keeps that index up to date with one addition per move and
        looks it up in an expanded table of ``n**k`` bytes.
        """
        n = self.n
        index = np.zeros(1, dtype=np.int64)
        used = np.zeros(1, dtype=np.int64)
        cells = np.arange(n, dtype=np.int64)
        free_cells = _free_cells(n)
        for i in range(self.k):
            if free_cells is not None:
                # every placement of i tiles leaves n - i free cells, listed in order
                cols = free_cells[used, : n - i].astype(np.int64)
                index = (index[:, None] + cols * n**i).ravel()
                used = (used[:, None] | (np.int64(1) << cols)).ravel()
            else:
                rows, cols = np.nonzero(((used[:, None] >> cells) & 1) == 0)
                index = index[rows] + cols * n**i
                used = used[rows] | (np.int64(1) << cols)
        return index

    def sparse_table(
        self, compact: np.ndarray, indexes: dict[tuple[int, int], np.ndarray] | None = None
    ) -> np.ndarray:
        """``compact`` (by rank) laid out by sparse index: ``table[sum(p_i * n**i)]``.

        Entries of impossible placements (two tiles on one cell) are 0.

        :param indexes: where to keep :meth:`sparse_of_ranks` for the next table of the same
            size (the two six-tile groups of 6-6-3 share it: 0.1 s each instead of 0.35 s).
        """
        n, k = self.n, self.k
        table = np.zeros(n**k, dtype=np.uint8)
        if k == 1:
            table[:] = compact
            return table
        index = None if indexes is None else indexes.get((n, k))
        if index is None:
            index = self.sparse_of_ranks()
            if indexes is not None:
                indexes[(n, k)] = index
        table[index] = compact
        return table

    def sparse_of_ranks(self) -> np.ndarray:
        """The sparse index of every placement, by rank (what :meth:`sparse_indices`
        gives, made one first-tile cell at a time from the placements of the other tiles
        on the remaining cells: going from first cell ``f`` to ``f + 1``, only the other
        tiles on cell ``f`` stop skipping the first tile's cell)."""
        n, k = self.n, self.k
        others = Placements(n - 1, k - 1).placements()
        block = self.weights[0]
        shifted = np.zeros(block, dtype=np.int64)  # the other tiles' part of the index
        for i in range(k - 1):
            # with the first tile on cell 0, every other tile's cell is one past its index
            shifted += (others[i].astype(np.int64) + 1) * n ** (i + 1)
        index = np.empty(n * block, dtype=np.int64)
        for first in range(n):
            if first:
                for i in range(k - 1):
                    shifted[others[i] == first - 1] -= n ** (i + 1)
            np.add(shifted, first, out=index[first * block : (first + 1) * block])
        return index

    def placements(self) -> np.ndarray:
        """Every placement in rank order as a ``(k, size)`` uint8 array (small cases, tests)."""
        n = self.n
        index = self.sparse_indices()
        return np.stack([(index // n**i) % n for i in range(self.k)]).astype(np.uint8)

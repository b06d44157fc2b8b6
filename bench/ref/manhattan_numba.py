"""A plain IDA* with the Manhattan distance for the 15-puzzle, in numba: the numba
node-rate anchor of ``bench/tiles_engine.py``, for the benchmark only (lacak never
imports it).

The C anchor's program (``manhattan_idastar.c``) as directly as numba allows: one
board, the blank's cell, the distance updated by the moved tile's table entry, the
inverse of the last move never generated, children in lacak's order (D, R, L, U of
the blank), the same counts and the same node cap (expanded nodes, checked before a
node is expanded). Recursion, one call per move, as in C. Compiled in each process
(about 5 s): numba's on-disk cache of this recursive function crashed on loading
(numba 0.68).
"""

from __future__ import annotations

import numba
import numpy as np

W = 4
N = 16


@numba.njit
def _dfs(board, md, nbr, deg, blank, prev, g, h, bound, counts, cap):  # pragma: no cover
    # counts: generated, expanded, stopped
    if cap > 0 and counts[1] >= cap:
        counts[2] = 1
        return False
    counts[1] += 1
    if h == 0:
        return True
    for i in range(deg[blank]):
        nz = nbr[blank, i]
        if nz == prev:
            continue
        t = board[nz]
        h1 = h - md[t, nz] + md[t, blank]
        counts[0] += 1
        if g + 1 + h1 > bound:
            continue
        board[blank] = t
        board[nz] = 0
        found = _dfs(board, md, nbr, deg, nz, blank, g + 1, h1, bound, counts, cap)
        board[nz] = t
        board[blank] = 0
        if found or counts[2]:
            return found
    return False


@numba.njit
def solve(tiles, cap):  # pragma: no cover
    """IDA* on ``tiles`` (goal: blank on cell 0, tile t on cell t): length or -1 when the
    cap stopped it, and the counts (generated, expanded, stopped)."""
    md = np.zeros((N, N), dtype=np.int64)
    for t in range(1, N):
        for p in range(N):
            md[t, p] = abs(p // W - t // W) + abs(p % W - t % W)
    nbr = np.zeros((N, 4), dtype=np.int64)
    deg = np.zeros(N, dtype=np.int64)
    for p in range(N):
        r, c, k = p // W, p % W, 0
        if r < W - 1:
            nbr[p, k] = p + W
            k += 1
        if c < W - 1:
            nbr[p, k] = p + 1
            k += 1
        if c > 0:
            nbr[p, k] = p - 1
            k += 1
        if r > 0:
            nbr[p, k] = p - W
            k += 1
        deg[p] = k
    board = tiles.copy()
    blank = 0
    h = 0
    for p in range(N):
        if board[p] == 0:
            blank = p
        else:
            h += md[board[p], p]
    counts = np.zeros(3, dtype=np.int64)
    bound = h
    while True:
        if _dfs(board, md, nbr, deg, blank, -1, 0, h, bound, counts, cap):
            return bound, counts
        if counts[2]:
            return -1, counts
        bound += 2

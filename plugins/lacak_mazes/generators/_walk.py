"""Random walks on the grid in numpy blocks, for Wilson and Aldous-Broder.

Both generators walk with one 2-bit *move* per step (0: N, 1: E, 2: S, 3: W),
taken from the raw 64-bit output of the maze's :class:`~lacak_mazes.generators._common.Rng`,
low bits first: 32 moves per raw number. :func:`moves` unpacks a block of them;
where the blocks start and end does not matter, the moves are one stream.

A walk that stays put when a move would leave the grid can be computed a block
at a time, one coordinate at a time (a move changes only one of them):

- :func:`folded` -- Aldous-Broder's walk: the stay-put walk is a free integer
  walk *folded* into ``[0, side)``, so its positions are a cumulative sum and
  a fold (a look-up table over the range the block covers).
- :func:`clamped` -- Wilson's walk, where each move means its own direction
  (the fold mirrors directions, so it is a different walk for the same moves):
  positions follow ``x' = min(max(x + d, 0), side - 1)``. Cut into chunks of at
  most ``side // 2`` steps, a chunk can push against one wall at most, and there
  the walk is the free sum minus its excess over the wall so far (the discrete
  Skorokhod reflection). Each chunk is summarised in numpy (free end,
  minimum, maximum), a short Python loop chains the chunks' starts, and the
  positions are the starts plus the free sums, less the running excess in
  the few chunks that met a wall.
"""

from __future__ import annotations

import numpy as np

from ._common import Rng

__all__ = ["clamped", "col_steps", "folded", "moves", "row_steps"]


def moves(rng: Rng, raw: int) -> np.ndarray:
    """The ``32 * raw`` moves of the next ``raw`` raw numbers, as int8 in 0..3.

    Move ``32 i + j`` is bits ``2j`` and ``2j + 1`` of raw number ``i``. The raw
    numbers are read as little-endian bytes whatever the machine (each byte
    holds four moves, low bits first), so the stream is the same everywhere.
    """
    data = rng.raw(raw).astype("<u8", copy=False).view(np.int8)
    out = np.empty((data.size, 4), dtype=np.int8)
    for k in range(4):
        column = out[:, k]
        np.right_shift(data, 2 * k, out=column)
        column &= 3
    return out.ravel()


def row_steps(moves: np.ndarray) -> np.ndarray:
    """The row change of each move: -1 for N (0), 1 for S (2), else 0 (int8)."""
    steps = moves - np.int8(1)
    steps *= (moves & 1) ^ 1
    return steps


def col_steps(moves: np.ndarray) -> np.ndarray:
    """The column change of each move: 1 for E (1), -1 for W (3), else 0 (int8)."""
    steps = np.int8(2) - moves
    steps *= moves & 1
    return steps


def folded(start: int, steps: np.ndarray, side: int) -> tuple[np.ndarray, int]:
    """Positions of a walk folded into ``[0, side)``, and its free end.

    :param start: the free walk's position before the block (any integer).
    :param steps: the block's changes, each -1, 0 or 1.
    :returns: ``(positions, end)``: the folded position after each step (int32)
        and the free position after the last step, reduced modulo ``2 * side``
        (the fold's period) to keep it small.

    >>> positions, end = folded(0, np.array([-1, -1, 1, 1, 1, 1], dtype=np.int8), 3)
    >>> positions.tolist(), end
    ([0, 1, 0, 0, 1, 2], 2)
    """
    free = np.cumsum(steps, dtype=np.int32)
    free += start
    low = int(free.min())
    free -= low
    f = np.arange(low, low + int(free.max()) + 1, dtype=np.int32) % (2 * side)
    table = np.where(f >= side, 2 * side - 1 - f, f).astype(np.int32)
    end = (int(free[-1]) + low) % (2 * side)
    return np.take(table, free), end


def clamped(start: int, steps: np.ndarray, side: int, chunk: int) -> np.ndarray:
    """Positions of a walk on ``[0, side)`` that stays put instead of leaving it.

    :param start: the position before the first step.
    :param steps: the changes, each -1, 0 or 1; its length is a multiple of ``chunk``.
    :param side: the number of positions (at least 2).
    :param chunk: chunk length, at most ``side // 2``, so that no chunk can reach
        both ends.
    :returns: the position after each step, int32.

    >>> clamped(1, np.array([-1, -1, -1, 1, 1, 1, 1, 0], dtype=np.int8), 4, 2).tolist()
    [0, 0, 0, 1, 2, 3, 3, 3]
    """
    top = side - 1
    free = np.cumsum(steps.reshape(-1, chunk), axis=1, dtype=np.int32)  # from each chunk's start
    begin, touched = _chain(
        start,
        free[:, -1].tolist(),
        free.min(axis=1).tolist(),
        free.max(axis=1).tolist(),
        top,
    )
    free += np.array(begin, dtype=np.int32)[:, None]
    if touched:
        # where a chunk pushed against a wall, the walk is the free one less its
        # excess over the wall so far (one wall a chunk, so both terms are safe)
        rows = np.array(touched, dtype=np.intp)
        part = free[rows]
        under = np.minimum.accumulate(part, axis=1)
        np.minimum(under, 0, out=under)
        over = np.maximum.accumulate(part, axis=1)
        over -= top
        np.maximum(over, 0, out=over)
        part -= under
        part -= over
        free[rows] = part
    return free.ravel()


def _chain(
    x: int, ends: list[int], lows: list[int], highs: list[int], top: int
) -> tuple[list[int], list[int]]:
    """Where each chunk starts, from the chunks' free end, minimum and maximum,
    and which chunks push against a wall."""
    starts: list[int] = []
    touched: list[int] = []
    append = starts.append
    for index, (end, low, high) in enumerate(zip(ends, lows, highs, strict=True)):
        append(x)
        under = x + low
        over = x + high - top
        x += end
        if under < 0:
            x -= under
            touched.append(index)
        elif over > 0:
            x -= over
            touched.append(index)
    return starts, touched

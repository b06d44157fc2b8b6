"""Sliding boards as Python ints: what ``astar-tiles`` and ``bfs-tiles`` share.

A whole board is one ``int`` (``bits`` per cell, the blank's position in the
low bits); moving the blank is two integer operations, from a table made once
per board size.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import lacak

from ..puzzle import SlidingPuzzle

__all__ = ["Encoding", "actions_along", "check_puzzle", "slow_limits"]


class Encoding:
    """Boards as ints: ``key = blank + sum(tile << (blank_bits + p * bits))``.

    >>> e = Encoding(3, 3)
    >>> e.decode(e.encode((1, 2, 3, 4, 5, 0, 7, 8, 6)))
    (1, 2, 3, 4, 5, 0, 7, 8, 6)
    """

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.n = n = width * height
        self.bits = max(1, (n - 1).bit_length())
        self.mask = (1 << self.bits) - 1
        self.blank_bits = max(1, (n - 1).bit_length())
        self.blank_mask = (1 << self.blank_bits) - 1
        self.shift = [self.blank_bits + p * self.bits for p in range(n)]

    def encode(self, tiles: tuple[int, ...]) -> int:
        """The key of a board."""
        key = tiles.index(0)
        for p, t in enumerate(tiles):
            key |= t << self.shift[p]
        return key

    def decode(self, key: int) -> tuple[int, ...]:
        """The board of a key."""
        mask = self.mask
        return tuple((key >> s) & mask for s in self.shift)

    def moves(self, puzzle: SlidingPuzzle) -> list[list[tuple[int, int, int, str, int]]]:
        """Per blank position: ``(shift of the cell, key multiplier, blank delta, action, cell)``.

        Moving the blank from ``b`` to ``c`` where tile ``t`` stands turns
        ``key`` into ``key + t * multiplier + (c - b)``.
        """
        table = []
        for b in range(self.n):
            row = []
            for action, c in puzzle.neighbours(b):
                row.append(
                    (self.shift[c], (1 << self.shift[b]) - (1 << self.shift[c]), c - b, action, c)
                )
            table.append(row)
        return table


def check_puzzle(puzzle: Any, strategy: str) -> SlidingPuzzle:
    """``puzzle``, checked to be a :class:`~lacak_sliding.puzzle.SlidingPuzzle`.

    :raises InvalidPuzzleError: it is not one.
    """
    if not isinstance(puzzle, SlidingPuzzle):
        raise lacak.InvalidPuzzleError(
            f"strategy {strategy!r} solves lacak_sliding.SlidingPuzzle boards, "
            f"not {type(puzzle).__name__}"
        )
    return puzzle


def slow_limits(limits: lacak.Limits) -> bool:
    """Whether ``limits`` has a bound checked through the budget on every expansion."""
    return (
        limits.seconds is not None
        or limits.max_frontier is not None
        or limits.max_closed is not None
    )


def actions_along(path: Sequence[Sequence[int]], width: int) -> list[str]:
    """The blank's moves between consecutive boards of ``path`` on a board ``width`` wide.

    >>> actions_along([(1, 2, 0, 3), (0, 2, 1, 3), (2, 0, 1, 3)], 2)
    ['U', 'R']
    """
    names = {width: "D", -width: "U", 1: "R", -1: "L"}
    return [names[b.index(0) - a.index(0)] for a, b in itertools.pairwise(path)]

"""Heuristics for sliding puzzles: misplaced tiles, Manhattan distance, their weighted sum, linear conflict.

Every heuristic here has a plain ``estimate(puzzle, state)`` and a prepared
form built once per puzzle. The prepared forms of the *additive* heuristics
(``misplaced``, ``manhattan``, ``weighted``) are :class:`TileTable` objects:
``table[tile][position]`` is the tile's contribution when it stands at
``position``, and the estimate is the sum over the tiles. A specialised
searcher moving one tile updates ``h`` by ``table[t][new] - table[t][old]``
instead of recomputing it. Linear conflict's prepared form
(:class:`LinearConflict`) carries the Manhattan table plus the per-line
conflict term.
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Mapping, Sequence
from operator import getitem
from typing import Any

import lacak

__all__ = [
    "LinearConflict",
    "TileTable",
    "line_conflicts",
    "linear_conflict",
    "manhattan",
    "manhattan_table",
    "manhattan_terms",
    "misplaced",
    "misplaced_table",
    "misplaced_tiles",
    "weighted",
    "weighted_table",
]


class TileTable:
    """An additive heuristic as a table: ``h(state) = sum(table[state[p]][p] for p)``.

    :ivar table: ``table[tile][position]``; row 0 (the blank) is all zeros.
    :ivar width: board width. :ivar height: board height.
    :ivar goal: the goal state.
    :ivar name: the heuristic it was prepared from.

    >>> t = manhattan_table(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    >>> t((1, 2, 3, 4, 5, 0, 7, 8, 6)), t.table[6][8], t.table[6][5]
    (1, 1, 0)
    """

    __slots__ = ("goal", "height", "name", "table", "width")

    def __init__(
        self,
        name: str,
        width: int,
        height: int,
        goal: Sequence[int],
        table: Sequence[Sequence[float]],
    ) -> None:
        self.name = name
        self.width = width
        self.height = height
        self.goal = tuple(goal)
        self.table = tuple(tuple(row) for row in table)

    def __call__(self, state: Sequence[int]) -> float:
        return sum(map(getitem, map(self.table.__getitem__, state), range(len(state))))

    @property
    def integral(self) -> bool:
        """Whether every entry is an integer (searchers may bucket by ``f``)."""
        return all(isinstance(v, int) for row in self.table for v in row)


def _goal_positions(goal: Sequence[int]) -> list[int]:
    where = [0] * len(goal)
    for position, tile in enumerate(goal):
        where[tile] = position
    return where


@functools.lru_cache(maxsize=64)
def _manhattan_table(width: int, height: int, goal: Sequence[int]) -> TileTable:
    """The prepared Manhattan distance (one per board size and goal, reused)."""
    where = _goal_positions(goal)
    n = width * height
    # the distance of every cell to each row and each column, then one C-level sum a row
    # (a 32x32 board's table has a million entries)
    to_row = [[abs(p // width - r) for p in range(n)] for r in range(height)]
    to_col = [[abs(p % width - c) for p in range(n)] for c in range(width)]
    table: list[list[float]] = [[0] * n]
    for tile in range(1, n):
        gr, gc = divmod(where[tile], width)
        table.append(list(map(operator.add, to_row[gr], to_col[gc])))
    return TileTable("manhattan", width, height, goal, table)


@functools.lru_cache(maxsize=64)
def _misplaced_table(width: int, height: int, goal: Sequence[int]) -> TileTable:
    """The prepared misplaced-tiles count."""
    where = _goal_positions(goal)
    n = width * height
    table: list[list[float]] = [[0] * n]
    for tile in range(1, n):
        row: list[float] = [1] * n
        row[where[tile]] = 0
        table.append(row)
    return TileTable("misplaced", width, height, goal, table)


@functools.lru_cache(maxsize=64)
def _weighted_table(
    width: int, height: int, goal: Sequence[int], w1: float, w2: float
) -> TileTable:
    """The prepared ``w1 * misplaced + w2 * manhattan`` (integers when both weights are)."""
    mis = _misplaced_table(width, height, goal).table
    man = _manhattan_table(width, height, goal).table

    def num(v: float) -> float:
        return int(v) if float(v).is_integer() else v

    if float(w1).is_integer() and float(w2).is_integer():
        # whole weights: whole entries, made without a check each (a 32x32 board has a
        # million)
        i1, i2 = int(w1), int(w2)
        table = [
            [i1 * a + i2 * b for a, b in zip(ra, rb, strict=True)]
            for ra, rb in zip(mis, man, strict=True)
        ]
    else:
        table = [
            [num(w1 * a + w2 * b) for a, b in zip(ra, rb, strict=True)]
            for ra, rb in zip(mis, man, strict=True)
        ]
    return TileTable("weighted", width, height, goal, table)


def manhattan_table(width: int, height: int, goal: Sequence[int]) -> TileTable:
    """The prepared Manhattan distance for a board size and goal (built once, then reused)."""
    return _manhattan_table(width, height, tuple(goal))


def misplaced_table(width: int, height: int, goal: Sequence[int]) -> TileTable:
    """The prepared misplaced-tiles count (built once, then reused)."""
    return _misplaced_table(width, height, tuple(goal))


def weighted_table(width: int, height: int, goal: Sequence[int], w1: float, w2: float) -> TileTable:
    """The prepared ``w1 * misplaced + w2 * manhattan`` (built once, then reused)."""
    return _weighted_table(width, height, tuple(goal), w1, w2)


def misplaced(puzzle: Any, state: Sequence[int]) -> int:
    """H1: the number of tiles (not the blank) away from their goal cell. Admissible, consistent.

    >>> from lacak_sliding.puzzle import SlidingPuzzle
    >>> p = SlidingPuzzle.from_string("123450786", goal="103425786")
    >>> misplaced(p, p.initial)
    2
    """
    return sum(1 for t, g in zip(state, puzzle.goal, strict=True) if t and t != g)


def manhattan(puzzle: Any, state: Sequence[int]) -> int:
    """H2: the sum of each tile's row and column distance to its goal cell. Admissible, consistent.

    >>> from lacak_sliding.puzzle import SlidingPuzzle
    >>> p = SlidingPuzzle.from_string("123450786", goal="103425786")
    >>> manhattan(p, p.initial)
    2
    """
    width = puzzle.width
    where = _goal_positions(puzzle.goal)
    total = 0
    for p, t in enumerate(state):
        if t:
            g = where[t]
            total += abs(p // width - g // width) + abs(p % width - g % width)
    return total


def misplaced_tiles(puzzle: Any, state: Sequence[int]) -> list[int]:
    """The tiles H1 counts: those (not the blank) away from their goal cell, in order.

    The course notes' example: tiles 1, 4 and 5 are misplaced, so H1 = 3.

    >>> from lacak_sliding.puzzle import SlidingPuzzle
    >>> misplaced_tiles(SlidingPuzzle.from_string("523146780"), (5, 2, 3, 1, 4, 6, 7, 8, 0))
    [1, 4, 5]
    """
    return sorted(t for t, g in zip(state, puzzle.goal, strict=True) if t and t != g)


def manhattan_terms(puzzle: Any, state: Sequence[int]) -> list[tuple[int, int]]:
    """What H2 adds up: ``(tile, distance)`` for each tile away from its goal cell, in order.

    The course notes' example: tile 1 is 1 cell from home, tile 4 is 1 and
    tile 5 is 2, so H2 = 4.

    >>> from lacak_sliding.puzzle import SlidingPuzzle
    >>> manhattan_terms(SlidingPuzzle.from_string("523146780"), (5, 2, 3, 1, 4, 6, 7, 8, 0))
    [(1, 1), (4, 1), (5, 2)]
    """
    width = puzzle.width
    where = _goal_positions(puzzle.goal)
    terms = []
    for p, t in enumerate(state):
        if t and p != where[t]:
            g = where[t]
            terms.append((t, abs(p // width - g // width) + abs(p % width - g % width)))
    return sorted(terms)


#: Largest weight ``weighted`` takes (estimates stay finite and exact enough to compare).
MAX_WEIGHT = 1e9


def _check_weights(w1: Any, w2: Any) -> None:
    """Raise :class:`~lacak.InvalidOptionError` unless both weights are numbers in [0, MAX_WEIGHT]."""
    for name, value in (("w1", w1), ("w2", w2)):
        ok = not isinstance(value, bool) and isinstance(value, int | float)
        if ok:
            try:
                ok = math.isfinite(float(value)) and 0 <= value <= MAX_WEIGHT
            except OverflowError:  # an int too big for a float
                ok = False
        if not ok:
            raise lacak.InvalidOptionError(
                f"heuristic 'weighted': {name} must be a number from 0 to {MAX_WEIGHT:g}, "
                f"got {value!r}"
            )


def weighted(puzzle: Any, state: Sequence[int], w1: float = 1.0, w2: float = 1.0) -> float:
    """``w1 * H1 + w2 * H2`` (misplaced and Manhattan).

    Admissible (and consistent) when ``w1 + w2 <= 1``: both terms are at most
    the true distance and one move changes H1 by at most 1 and H2 by exactly
    1. The default ``w1 = w2 = 1`` (the textbook's H1 + H2) is not admissible.
    """
    _check_weights(w1, w2)
    value = w1 * misplaced(puzzle, state) + w2 * manhattan(puzzle, state)
    return int(value) if float(value).is_integer() else value


def weighted_admissible(options: Mapping[str, Any]) -> bool:
    """Whether ``weighted`` with these weights is provably admissible: ``w1 + w2 <= 1``.

    :raises InvalidOptionError: a weight is not a finite number >= 0.
    """
    w1, w2 = options.get("w1", 1.0), options.get("w2", 1.0)
    _check_weights(w1, w2)
    return float(w1) + float(w2) <= 1.0


def line_conflicts(goal_indexes: Sequence[int]) -> int:
    """Tiles to take out of a line so the rest are in goal order.

    ``goal_indexes`` lists, in board order, the goal index (column or row) of
    the tiles standing in their goal line. The answer is the count minus the
    longest increasing subsequence.

    >>> line_conflicts([2, 1, 0])
    2
    """
    tails: list[int] = []
    for value in goal_indexes:
        lo, hi = 0, len(tails)
        while lo < hi:
            mid = (lo + hi) // 2
            if tails[mid] < value:
                lo = mid + 1
            else:
                hi = mid
        if lo == len(tails):
            tails.append(value)
        else:
            tails[lo] = value
    return len(goal_indexes) - len(tails)


class LinearConflict:
    """Prepared linear conflict: Manhattan plus two moves per tile that must leave its line.

    Two tiles in their goal row (or column) but in the wrong order there must
    leave the line for one to pass the other; the minimal number of tiles to
    remove from each line (length minus longest increasing subsequence)
    times two is added to the Manhattan distance (Hansson, Mayer and Yung
    1992). Admissible and consistent.

    :ivar manhattan: the :class:`TileTable` of the Manhattan part.
    """

    __slots__ = ("goal_col", "goal_row", "height", "manhattan", "width")

    def __init__(self, width: int, height: int, goal: Sequence[int]) -> None:
        self.width = width
        self.height = height
        self.manhattan = manhattan_table(width, height, goal)  # a reused TileTable
        where = _goal_positions(goal)
        self.goal_row = [where[t] // width for t in range(width * height)]
        self.goal_col = [where[t] % width for t in range(width * height)]

    def row_conflicts(self, state: Sequence[int], row: int) -> int:
        """Tiles to remove from ``row`` (in ``state``) to end the conflicts there."""
        w = self.width
        goal_row, goal_col = self.goal_row, self.goal_col
        return line_conflicts(
            [goal_col[t] for t in state[row * w : row * w + w] if t and goal_row[t] == row]
        )

    def col_conflicts(self, state: Sequence[int], col: int) -> int:
        """Tiles to remove from column ``col`` to end the conflicts there."""
        goal_row, goal_col = self.goal_row, self.goal_col
        return line_conflicts(
            [goal_row[t] for t in state[col :: self.width] if t and goal_col[t] == col]
        )

    def conflicts(self, state: Sequence[int]) -> int:
        """The conflict term: tiles to remove, over all rows and columns."""
        return sum(self.row_conflicts(state, r) for r in range(self.height)) + sum(
            self.col_conflicts(state, c) for c in range(self.width)
        )

    def __call__(self, state: Sequence[int]) -> int:
        return int(self.manhattan(state)) + 2 * self.conflicts(state)


def linear_conflict(puzzle: Any, state: Sequence[int]) -> int:
    """Manhattan distance plus 2 per tile that must leave its row or column. Admissible, consistent.

    >>> from lacak_sliding.puzzle import SlidingPuzzle
    >>> p = SlidingPuzzle.from_string("213456870")
    >>> manhattan(p, p.initial), linear_conflict(p, p.initial)
    (4, 8)
    """
    return _linear_conflict(puzzle.width, puzzle.height, tuple(puzzle.goal))(state)


def prepare_misplaced(puzzle: Any) -> TileTable:
    """Fast form of :func:`misplaced`."""
    return misplaced_table(puzzle.width, puzzle.height, puzzle.goal)


def prepare_manhattan(puzzle: Any) -> TileTable:
    """Fast form of :func:`manhattan`."""
    return manhattan_table(puzzle.width, puzzle.height, puzzle.goal)


def prepare_weighted(puzzle: Any, w1: float = 1.0, w2: float = 1.0) -> TileTable:
    """Fast form of :func:`weighted`."""
    _check_weights(w1, w2)
    return weighted_table(puzzle.width, puzzle.height, puzzle.goal, w1, w2)


def prepare_linear_conflict(puzzle: Any) -> LinearConflict:
    """Fast form of :func:`linear_conflict` (one per board size and goal, reused)."""
    return _linear_conflict(puzzle.width, puzzle.height, tuple(puzzle.goal))


@functools.lru_cache(maxsize=64)
def _linear_conflict(width: int, height: int, goal: tuple[int, ...]) -> LinearConflict:
    return LinearConflict(width, height, goal)

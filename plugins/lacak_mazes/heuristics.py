"""The maze heuristic ``manhattan``, in a module of its own so that registering it
(which happens whenever any plugin's heuristics are listed) does not load the maze code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import lacak

__all__ = ["HEURISTIC", "manhattan", "prepare_manhattan"]

Cell = tuple[int, int]


def manhattan(puzzle: Any, state: Cell) -> int:
    """Rows plus columns between ``state`` and the goal. Admissible and consistent:
    each step moves one row or one column.

    >>> from lacak_mazes import Maze
    >>> maze = Maze.from_rows([[4, 0], [3, 8]])
    >>> manhattan(maze.puzzle((0, 0), (1, 1)), (0, 0))
    2
    """
    goal = puzzle.goal
    return abs(state[0] - goal[0]) + abs(state[1] - goal[1])


def prepare_manhattan(puzzle: Any) -> Callable[[Cell], int]:
    """The fast form of :func:`manhattan` for one puzzle."""
    goal_row, goal_col = puzzle.goal

    def estimate(state: Cell) -> int:
        return abs(state[0] - goal_row) + abs(state[1] - goal_col)

    return estimate


HEURISTIC = lacak.Heuristic(
    name="manhattan",
    kind="maze",
    estimate=manhattan,
    prepare=prepare_manhattan,
    admissible=True,
    consistent=True,
    description="rows plus columns to the end (admissible, consistent)",
)

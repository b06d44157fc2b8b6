"""The maze heuristic ``manhattan``, in a module of its own so that registering it
(which happens whenever any plugin's heuristics are listed) does not load the maze code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import lacak

__all__ = ["HEURISTIC", "manhattan", "prepare_manhattan"]

Cell = tuple[int, int]


def manhattan(puzzle: Any, state: Any) -> float:
    """Rows plus columns between ``state`` and the goal. Admissible and consistent:
    each step moves one row or one column.

    >>> from lacak_mazes import Maze
    >>> maze = Maze.from_rows([[4, 0], [3, 8]])
    >>> manhattan(maze.puzzle((0, 0), (1, 1)), (0, 0))
    2
    """
    if hasattr(puzzle, "estimate"):  # a maze on another grid: its own bound
        return puzzle.estimate(state)
    goal = puzzle.goal
    return abs(state[0] - goal[0]) + abs(state[1] - goal[1])


def prepare_manhattan(puzzle: Any) -> Callable[[Any], float]:
    """The fast form of :func:`manhattan` for one puzzle (on another grid than the
    plain rectangle: the grid's own lower bound, :meth:`GridMazePuzzle.estimate
    <lacak_mazes.gridmaze.GridMazePuzzle.estimate>`)."""
    if hasattr(puzzle, "estimate"):
        return puzzle.estimate
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
    description="rows plus columns to the end; on other grids the grid's straight-line "
    "bound (admissible, consistent)",
)

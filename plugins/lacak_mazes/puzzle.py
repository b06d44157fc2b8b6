"""Mazes as search problems: :class:`MazePuzzle` (and the ``manhattan`` heuristic of
:mod:`lacak_mazes.heuristics`).

A :class:`MazePuzzle` is a :class:`lacak.ReversiblePuzzle`: states are
``(row, col)`` cells, actions are the directions ``"N"``, ``"E"``, ``"S"``,
``"W"`` of the passages, every step costs 1. Any registered strategy solves
it, for instance ``lacak.solve(maze.puzzle(), "astar", heuristic="manhattan")``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Any

import attrs
import lacak

from ._common import DIRECTIONS, DX, DY, OPPOSITE, E, N, S, W
from .heuristics import HEURISTIC, manhattan, prepare_manhattan
from .maze import Cell, Maze

__all__ = ["HEURISTIC", "MazePuzzle", "manhattan", "prepare_manhattan"]

_SIDES = tuple(zip(DIRECTIONS, (N, E, S, W), strict=False))
_LETTER = dict(zip((N, E, S, W), DIRECTIONS, strict=False))


@attrs.frozen
class MazePuzzle:
    """Find the way through a maze from ``initial`` to ``goal``.

    Build one with :meth:`of` or :meth:`Maze.puzzle`; both check the endpoints.
    """

    #: The maze.
    maze: Maze
    #: The start cell.
    initial: Cell
    #: The end cell.
    goal: Cell

    kind = "maze"
    default_heuristic = "manhattan"
    default_strategy = "tree-path"

    @classmethod
    def of(cls, maze: Maze, start: Any = None, end: Any = None) -> MazePuzzle:
        """The puzzle of ``maze`` from ``start`` to ``end``; each defaults to the maze's own.

        :raises InvalidPuzzleError: a missing endpoint, or one outside the grid.
        """
        start = start if start is not None else maze.start
        end = end if end is not None else maze.end
        if start is None or end is None:
            raise lacak.InvalidPuzzleError(
                "the maze has no start and end: give them, or use maze.with_endpoints() "
                "for the ends of its longest path"
            )
        return cls(maze, maze.check_cell(start, "start"), maze.check_cell(end, "end"))

    def is_goal(self, state: Hashable) -> bool:
        return state == self.goal

    def successors(self, state: Cell) -> Iterator[tuple[str, Cell, float]]:
        """``(direction, next cell, 1)`` for every passage out of ``state``."""
        row, col = state
        mask = int(self.maze.cells[row, col])
        for letter, bit in _SIDES:
            if mask & bit:
                yield letter, (row + DY[bit], col + DX[bit]), 1.0

    def predecessors(self, state: Cell) -> Iterator[tuple[str, Cell, float]]:
        """``(direction, previous cell, 1)``: the step from the previous cell into ``state``."""
        row, col = state
        mask = int(self.maze.cells[row, col])
        for _letter, bit in _SIDES:
            if mask & bit:
                yield _LETTER[OPPOSITE[bit]], (row + DY[bit], col + DX[bit]), 1.0

    def format_state(self, state: Cell) -> str:
        return f"[{state[0]}, {state[1]}]"

"""Mazes as search problems: :class:`MazePuzzle` (and the ``manhattan`` heuristic of
:mod:`lacak_mazes.heuristics`).

A :class:`MazePuzzle` is a :class:`lacak.ReversiblePuzzle`: states are
``(row, col)`` cells, actions are the directions ``"N"``, ``"E"``, ``"S"``,
``"W"`` of the passages, every step costs 1. Any registered strategy solves
it, for instance ``lacak.solve(maze.puzzle(), "astar", heuristic="manhattan")``.
It is what ``lacak.parse("maze", text)`` gives: the maze of the JSON text
with a start and an end (:meth:`MazePuzzle.from_json`).
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

    Build one with :meth:`of` or :meth:`Maze.puzzle` (both check the endpoints),
    or read one with :meth:`from_json` (``lacak.parse("maze", text)``).

    >>> import lacak
    >>> puzzle = lacak.parse("maze", '{"cells": [[2, 12], [2, 9]]}', start="1,0")
    >>> puzzle.initial, puzzle.goal, puzzle.format_state(puzzle.goal)
    ((1, 0), (0, 0), '0,0')
    """

    #: The maze.
    maze: Maze
    #: The start cell.
    initial: Cell
    #: The end cell.
    goal: Cell

    kind = "maze"

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

    @classmethod
    def from_json(cls, text: str | bytes, *, start: Any = None, end: Any = None) -> MazePuzzle:
        """The puzzle of the maze in JSON ``text`` (see :meth:`Maze.from_json`).

        Each endpoint is the one given, else the file's, else suggested: both
        ends of the longest path, or the cell farthest from the one end given
        (see :meth:`Maze.with_endpoints`). The maze itself is kept as read.

        :param start: ``(row, col)``, or text ``"ROW,COL"`` (as on the command line).
        :param end: the same.
        :raises InvalidPuzzleError: the text is not a maze, or an endpoint is outside it.
        :raises InvalidOptionError: an endpoint that is not ``ROW,COL``.

        Whether a path joins the ends is the search's to find out (a maze need not
        be connected); a suggested end is always one the other end reaches.
        """
        maze = Maze.from_json(text)
        first = maze.start if start is None else _endpoint(maze, start, "start")
        last = maze.end if end is None else _endpoint(maze, end, "end")
        if first is None or last is None:
            suggested = maze.with_endpoints(first, last, solution=False)
            first, last = suggested.start, suggested.end
        return cls.of(maze, first, last)

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
        """A cell as written on the command line (``--start 2,5``): ``"2,5"``."""
        return f"{state[0]},{state[1]}"


def _endpoint(maze: Maze, value: Any, what: str) -> Cell:
    """``value`` (a ``ROW,COL`` text or a pair) as a cell inside ``maze``."""
    if isinstance(value, str):
        value = lacak.options.parse_cell(value, what=what)
    return maze.check_cell(value, what)

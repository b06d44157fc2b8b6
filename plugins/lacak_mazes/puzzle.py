"""Mazes as search problems: :class:`MazePuzzle` (and the ``manhattan`` heuristic of
:mod:`lacak_mazes.heuristics`).

A :class:`MazePuzzle` is a :class:`lacak.ReversiblePuzzle`: states are
``(row, col)`` cells, actions are the directions ``"N"``, ``"E"``, ``"S"``,
``"W"`` of the passages, every step costs 1. Any registered strategy solves
it, for instance ``lacak.solve(maze.puzzle(), "astar", heuristic="manhattan")``.
It is what ``lacak.parse("maze", text)`` gives: the maze of the JSON text
with a start and an end (:meth:`MazePuzzle.from_json`).

The class is written in :mod:`lacak_mazes.maze`, beside the :class:`~lacak_mazes.Maze`
it searches, because each makes the other (:meth:`Maze.puzzle
<lacak_mazes.maze.Maze.puzzle>`, :meth:`MazePuzzle.from_json`); it is imported
from here or from :mod:`lacak_mazes`.
"""

from __future__ import annotations

from .heuristics import HEURISTIC, manhattan, prepare_manhattan
from .maze import MazePuzzle

__all__ = ["HEURISTIC", "MazePuzzle", "manhattan", "prepare_manhattan"]

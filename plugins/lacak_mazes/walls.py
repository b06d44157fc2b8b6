"""How the classic maze solvers (:mod:`lacak_mazes.classic`) see a maze: a
:class:`Walls` view of cells numbered ``0 .. n-1``, each cell's sides clockwise on the
screen (the neighbour across, or ``-1`` on the outline, and whether a passage goes
through), the direction each side faces (from the cell's centre to the side's middle,
in degrees clockwise from east) and, for a side with a passage, the side of the
neighbour it enters by. The plain rectangle's bitmask :class:`~lacak_mazes.Maze`
(:class:`RectWalls`) and every :class:`~lacak_mazes.gridmaze.GridMaze`
(:class:`GridWalls`) give one; :func:`view_of` picks it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Sequence
from typing import Any

import lacak
from lacak import SearchResult, StopReason

from ._common import LETTER, E, N, S, W

__all__ = ["PLACES", "GridWalls", "RectWalls", "Walls", "view_of", "wrap_angle"]

#: Angles are kept to this many decimals (sums of turns stay exact where grids are
#: regular, and a loop's turning is recognised on every grid).
PLACES = 6


class Walls:
    """A maze as the classic solvers see it (see the module's documentation).

    Subclasses say :meth:`sides`, :meth:`direction` and :meth:`twin`; :meth:`state` and
    :meth:`action` turn cell indices into the puzzle's states and actions.
    """

    size: int
    initial: int
    goal: int
    #: Each cell's cost to enter, or ``None`` (every step costs 1).
    weights: Sequence[float] | None = None

    def sides(self, cell: int) -> Sequence[tuple[int, bool]]:  # pragma: no cover
        """``(neighbour or -1, open)`` for each side of ``cell``, clockwise."""
        raise NotImplementedError

    def direction(self, cell: int, side: int) -> float:  # pragma: no cover
        """The direction ``side`` of ``cell`` faces, degrees clockwise from east."""
        raise NotImplementedError

    def twin(self, cell: int, side: int) -> int:  # pragma: no cover
        """The side of the neighbour across ``side`` that faces ``cell``."""
        raise NotImplementedError

    def adjacency(self, cell: int) -> list[int]:
        """The open neighbours of ``cell``, clockwise."""
        return [there for there, is_open in self.sides(cell) if is_open]

    def state(self, cell: int) -> Hashable:
        return cell

    def action(self, here: int, there: int) -> Hashable:  # pragma: no cover
        raise NotImplementedError

    def cost(self, cell: int) -> float:
        """The cost of a step into ``cell``."""
        return 1.0 if self.weights is None else float(self.weights[cell])

    def result(self, path: list[int] | None, stopped: StopReason, **counts: Any) -> SearchResult:
        """The result: found along ``path`` (cells, the start first), else stopped."""
        if path is None:
            return SearchResult.finished(self.state(self.initial), stopped, **counts)
        return SearchResult.finished(
            self.state(self.initial),
            StopReason.GOAL,
            states=[self.state(cell) for cell in path],
            actions=[self.action(a, b) for a, b in itertools.pairwise(path)],
            cost=sum(self.cost(cell) for cell in path[1:]),
            **counts,
        )


class RectWalls(Walls):
    """The plain rectangle's bitmask maze: sides north, east, south, west."""

    _BITS = (N, E, S, W)
    _DIRECTIONS = (270.0, 0.0, 90.0, 180.0)

    def __init__(self, puzzle: Any) -> None:
        maze = puzzle.maze
        self.cells = maze._bytes
        self.width = width = maze.width
        self.height = maze.height
        self.size = maze.size
        self.initial = puzzle.initial[0] * width + puzzle.initial[1]
        self.goal = puzzle.goal[0] * width + puzzle.goal[1]
        self.weights = None if maze.weights is None else maze.weights.ravel().tolist()

    def sides(self, cell: int) -> Sequence[tuple[int, bool]]:
        width = self.width
        row, col = divmod(cell, width)
        mask = self.cells[cell]
        return (
            (cell - width if row else -1, bool(mask & N)),
            (cell + 1 if col < width - 1 else -1, bool(mask & E)),
            (cell + width if row < self.height - 1 else -1, bool(mask & S)),
            (cell - 1 if col else -1, bool(mask & W)),
        )

    def direction(self, cell: int, side: int) -> float:
        return self._DIRECTIONS[side]

    def twin(self, cell: int, side: int) -> int:
        return (side + 2) % 4

    def state(self, cell: int) -> Hashable:
        return divmod(cell, self.width)

    def action(self, here: int, there: int) -> Hashable:
        delta = there - here
        if delta == self.width:
            return LETTER[S]
        if delta == -self.width:
            return LETTER[N]
        return LETTER[E] if delta == 1 else LETTER[W]


class GridWalls(Walls):
    """A :class:`~lacak_mazes.gridmaze.GridMaze`: its grid's sides, by cell index."""

    def __init__(self, puzzle: Any) -> None:
        maze = puzzle.maze
        self.puzzle = puzzle
        self.grid = maze.grid
        self.size = maze.size
        self.initial = puzzle.initial
        self.goal = puzzle.goal
        self.weights = None if maze.weights is None else maze.weights.tolist()
        self._open = [set(around) for around in maze.adjacency()]
        # a woven maze's tunnels: through the side facing the cell passed under, to the far end
        self._tunnel: dict[tuple[int, int], int] = {}
        tunnels = maze.tunnels.tolist() if hasattr(maze, "tunnels") else []
        for a, under, b in tunnels:
            self._tunnel[(a, under)] = b
            self._tunnel[(b, under)] = a
        self._sides: dict[int, tuple[tuple[int, bool], ...]] = {}
        self._directions: dict[int, tuple[float, ...]] = {}

    def sides(self, cell: int) -> Sequence[tuple[int, bool]]:
        found = self._sides.get(cell)
        if found is None:
            is_open = self._open[cell]
            found = tuple(self._across(cell, side.neighbour, is_open)
                          for side in self.grid.sides[cell])  # fmt: skip
            self._sides[cell] = found
        return found

    def _across(self, cell: int, neighbour: int, is_open: set[int]) -> tuple[int, bool]:
        if neighbour in is_open:
            return neighbour, True
        far = self._tunnel.get((cell, neighbour))
        if far is not None:
            return far, True  # under the neighbour, to the cell beyond
        return neighbour, False

    def adjacency(self, cell: int) -> list[int]:
        return [there for there, is_open in self.sides(cell) if is_open]

    def _facing(self, cell: int) -> tuple[float, ...]:
        found = self._directions.get(cell)
        if found is None:
            cx, cy = self.grid.centres[cell]
            found = tuple(
                round(math.degrees(math.atan2(
                    (side.points[0][1] + side.points[-1][1]) / 2 - cy,
                    (side.points[0][0] + side.points[-1][0]) / 2 - cx,
                )) % 360.0, PLACES)
                for side in self.grid.sides[cell]
            )  # fmt: skip
            self._directions[cell] = found
        return found

    def direction(self, cell: int, side: int) -> float:
        return self._facing(cell)[side]

    def twin(self, cell: int, side: int) -> int:
        there = self.sides(cell)[side][0]
        near = self.grid.sides[cell][side].neighbour
        if there != near:  # through a tunnel: in by the far end's side facing the same cell
            return next(k for k, back in enumerate(self.grid.sides[there])
                        if back.neighbour == near)  # fmt: skip
        candidates = [k for k, back in enumerate(self.grid.sides[there]) if back.neighbour == cell]
        if len(candidates) == 1:
            return candidates[0]
        # several sides face the cell (a narrow wrap): the one most nearly opposite
        facing = self.direction(cell, side)
        return min(candidates,
                   key=lambda k: abs(wrap_angle(self.direction(there, k) - facing - 180.0)))  # fmt: skip

    def action(self, here: int, there: int) -> Hashable:
        return self.puzzle.format_state(there)


def view_of(puzzle: Any) -> Walls:
    """The :class:`Walls` of a maze puzzle (a ``MazePuzzle`` or a ``GridMazePuzzle``).

    :raises InvalidPuzzleError: not a maze puzzle.
    """
    maze = getattr(puzzle, "maze", None)
    if maze is not None and hasattr(maze, "grid"):
        return GridWalls(puzzle)
    if maze is None or not hasattr(maze, "cells"):
        raise lacak.InvalidPuzzleError(
            "the maze strategies need a maze puzzle (maze.puzzle(start, end))"
        )
    return RectWalls(puzzle)


def wrap_angle(angle: float) -> float:
    """``angle`` in degrees, brought into ``(-180, 180]``."""
    angle = math.fmod(angle, 360.0)
    if angle <= -180.0:
        angle += 360.0
    elif angle > 180.0:
        angle -= 360.0
    return angle

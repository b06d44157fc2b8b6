"""What the pictures and the statistics read of a maze, as protocols.

:mod:`lacak_mazes.render` and :mod:`lacak_mazes.stats` draw and measure a
:class:`~lacak_mazes.Maze`, and :class:`~lacak_mazes.Maze` offers them as its
methods (:meth:`~lacak_mazes.Maze.render`, :meth:`~lacak_mazes.Maze.stats`). So
that the two modules need not import the class that imports them, they name
what they read of it here: a :class:`~lacak_mazes.Maze` is a :class:`MazeLike`,
a :class:`~lacak_mazes.MazePuzzle` a :class:`MazePuzzleLike`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np

__all__ = ["MazeLike", "MazePuzzleLike"]

Cell = tuple[int, int]


class MazeLike(Protocol):
    """The fields and views of a :class:`~lacak_mazes.Maze` that pictures and
    statistics read (see the class for what each means)."""

    @property
    def cells(self) -> np.ndarray: ...
    @property
    def start(self) -> Cell | None: ...
    @property
    def end(self) -> Cell | None: ...
    @property
    def solution(self) -> tuple[Cell, ...] | None: ...
    @property
    def algorithm(self) -> str: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def height(self) -> int: ...
    @property
    def width(self) -> int: ...
    @property
    def shape(self) -> tuple[int, int]: ...
    @property
    def size(self) -> int: ...
    @property
    def passages(self) -> int: ...
    def degrees(self) -> np.ndarray: ...
    def is_perfect(self) -> bool: ...
    def to_json(self) -> str: ...
    def with_solution(self, path: Iterable[Cell]) -> Any: ...


class MazePuzzleLike(Protocol):
    """What the ``maze`` kind's picture reads of a :class:`~lacak_mazes.MazePuzzle`."""

    @property
    def maze(self) -> Any: ...
    @property
    def initial(self) -> Cell: ...
    @property
    def goal(self) -> Cell: ...

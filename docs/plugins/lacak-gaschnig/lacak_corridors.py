"""A maze generator as a third-party lacak plugin: long corridors, one door between rows.

Every row is one east-west corridor; each pair of neighbouring rows is joined
by one door at a column the seed picks. ``rows - 1`` doors join ``rows``
corridors into a tree, so the maze is perfect: one path between any two
cells. The texture is the opposite of a recursive backtracker's: almost no
dead ends (the two ends of each corridor, about ``2 / cols`` of the cells).

A maze generator uses the public API of the maze plugin, ``lacak_mazes``:
:meth:`lacak_mazes.Maze.from_edges` builds the maze from two boolean arrays of
shape ``(rows, cols)`` (``east[r, c]`` opens the wall between ``(r, c)`` and
``(r, c + 1)``, ``south[r, c]`` the one between ``(r, c)`` and ``(r + 1, c)``).
The plugin imports it when it makes a maze, not when lacak loads the plugin.
"""

from __future__ import annotations

import random
from typing import Any

import lacak
from lacak.options import read_size


def _size(size: Any) -> tuple[int, int]:
    """``(rows, cols)`` from ``(rows, cols)``, ``"ROWSxCOLS"`` or one number for a square.

    >>> _size((3, 4)), _size("3x4"), _size(5)
    ((3, 4), (3, 4), (5, 5))
    """
    return read_size(size, what="maze size", most=10**7)  # (lacak's one size reader)


def corridors(size: Any, seed: int | None = None) -> Any:
    """A perfect maze of east-west corridors joined by one door per pair of rows.

    :param size: ``(rows, cols)`` (or ``"ROWSxCOLS"``, or one number for a square).
    :param seed: the same seed gives the same maze everywhere; ``None`` picks one.
    :returns: a :class:`lacak_mazes.Maze` with ``algorithm`` and ``seed`` recorded.
    :raises lacak.InvalidOptionError: a size that is not two positive whole numbers.

    >>> maze = corridors((3, 4), seed=1)
    >>> maze.is_perfect(), maze.shape
    (True, (3, 4))
    """
    import numpy as np
    from lacak_mazes import Maze

    rows, cols = _size(size)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    east = np.ones((rows, cols), dtype=bool)  # every row is one corridor
    south = np.zeros((rows, cols), dtype=bool)
    for row in range(rows - 1):
        south[row, rng.randrange(cols)] = True  # one door down to the next row
    return Maze.from_edges(east, south, algorithm="corridors", seed=seed)


@lacak.hookimpl
def register_generators(register: Any) -> None:
    register(
        lacak.Generator(
            kind="maze",
            name="corridors",
            make=corridors,
            description="east-west corridors, one door between rows",
            metadata={
                "perfect": True,  # one path between any two cells
                "uniform": False,  # not every perfect maze is equally likely
                "dead_ends": 0.013,  # share of cells with one opening, on 150x150 mazes
                "texture": "long east-west corridors; almost no dead ends",
            },
        )
    )

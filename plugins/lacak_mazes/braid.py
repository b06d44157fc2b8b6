"""Braiding: linking dead ends away, so a maze has loops (Buck, *Mazes for Programmers*,
chapter 9).

``braid(maze, share, seed)`` visits the dead ends (cells with one passage) in
a random order and, with probability ``share``, opens a wall of each to a
neighbour: preferably to a neighbour that is a dead end too (one link removes
two), else to any. A dead end that an earlier link already opened is skipped.
So ``share`` 1 leaves no dead end, and ``share`` 0.5 removes somewhat more
than half of them (the pairs). A braided maze has loops: it is no longer
perfect, and the solvers that assume a tree refuse it; breadth-first search,
A*, the wall follower and the classic solvers still find a way.

>>> import lacak
>>> maze = lacak.generate("maze", "kruskal", (8, 8), seed=3, braid=1.0)
>>> int((maze.degrees() == 1).sum()), maze.is_perfect()
(0, False)
"""

from __future__ import annotations

from typing import Any

import attrs
import lacak
import numpy as np

from ._common import BIT, DX, DY, OPPOSITE
from .generators._common import Rng

__all__ = ["braid", "braid_report"]


def braid(maze: Any, share: float, seed: int) -> Any:
    """``maze`` (a :class:`~lacak_mazes.Maze` or a :class:`~lacak_mazes.gridmaze.GridMaze`)
    with a share ``share`` of its dead ends linked to a neighbour."""
    floats = Rng(seed, salt=31).float_stream()
    if hasattr(maze, "grid"):
        return _braid_graph(maze, share, floats)
    return _braid_rect(maze, share, floats)


def braid_report(maze: Any, dead_ends: int) -> dict[str, Any] | None:
    """What the braid of ``maze`` did, for its statistics: the share of dead ends asked
    for (its ``braid`` option), the dead ends of the same maze unbraided, those left
    (``dead_ends``), and the share removed. ``None`` when ``maze`` records no braid, or
    cannot be made again unbraided (no generator and seed, or one not registered here).

    The unbraided maze is the generator's own maze, made again from the maze's
    algorithm, seed and other options: the braid comes after it, from random numbers
    of its own.

    >>> import lacak
    >>> maze = lacak.generate("maze", "recursive-backtracker", (20, 20), seed=1, braid=0.5)
    >>> report = maze.stats()["braid"]
    >>> report["asked"], report["dead_ends_before"] > report["dead_ends"]
    (0.5, True)
    """
    share = maze.options.get("braid")
    if not share or not maze.algorithm or maze.seed is None:
        return None
    from .remake import remake  # (deferred: only braided mazes are made again)

    options = {key: value for key, value in maze.options.items() if key != "braid"}
    try:
        plain = remake(attrs.evolve(maze, options=options, start=None, end=None, solution=None))
    except lacak.LacakError:
        return None
    before = int((plain.degrees() == 1).sum())
    return {
        "asked": share,
        "dead_ends_before": before,
        "dead_ends": dead_ends,
        "achieved": round((before - dead_ends) / before, 6) if before else 0.0,
    }


def _order(cells: list[int], floats: Any) -> list[int]:
    for i in range(len(cells) - 1, 0, -1):
        j = int(next(floats) * (i + 1))
        cells[i], cells[j] = cells[j], cells[i]
    return cells


def _pick(options: list[int], degree: Any, floats: Any) -> int:
    best = [cell for cell in options if degree(cell) == 1] or options
    return best[int(next(floats) * len(best))]


def _braid_graph(maze: Any, share: float, floats: Any) -> Any:
    adjacency = [set(around) for around in maze.adjacency()]
    neighbours = maze.grid.neighbours
    links = maze.links.tolist()
    under = maze.under  # the walls of a cell a tunnel passes under stay
    for cell in _order([c for c in range(maze.size) if len(adjacency[c]) == 1], floats):
        if len(adjacency[cell]) != 1 or next(floats) >= share:
            continue
        closed = [there for there in neighbours[cell]
                  if there not in adjacency[cell] and there not in under]  # fmt: skip
        if not closed:
            continue
        there = _pick(closed, lambda c: len(adjacency[c]), floats)
        adjacency[cell].add(there)
        adjacency[there].add(cell)
        links.append([cell, there])
    return attrs.evolve(maze, links=links)


def _braid_rect(maze: Any, share: float, floats: Any) -> Any:
    cells = np.array(maze.cells, dtype=np.uint8)
    height, width = cells.shape
    popcount = [bin(mask).count("1") for mask in range(16)]
    flat = cells.ravel()

    def degree(index: int) -> int:
        return popcount[flat[index]]

    ends = np.flatnonzero(np.isin(flat, (1, 2, 4, 8))).tolist()
    for index in _order(ends, floats):
        if degree(index) != 1 or next(floats) >= share:
            continue
        row, col = divmod(index, width)
        walls = {}
        for bit in BIT.values():
            r, c = row + DY[bit], col + DX[bit]
            if 0 <= r < height and 0 <= c < width and not flat[index] & bit:
                walls[r * width + c] = bit
        if not walls:
            continue
        there = _pick(list(walls), degree, floats)
        bit = walls[there]
        flat[index] |= bit
        flat[there] |= OPPOSITE[bit]
    return attrs.evolve(maze, cells=cells)

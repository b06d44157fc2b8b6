"""Texture statistics of a maze.

All counts are vectorised over the cell bitmasks:

- ``dead_ends``: cells with exactly one opening, and their share of all cells;
- ``corridors``: cells with exactly two openings; ``straightness`` is the
  share of them that go straight through (north-south or east-west) rather
  than turn;
- ``corridor_length``: the mean length, in steps, of the stretches of passage
  between two cells that are not corridor cells (dead ends and junctions),
  a closed loop of corridor cells counting as one stretch; 0 without passages;
- ``horizontal_share``: the share of passages that run east-west (0.5 when
  the maze has no preferred direction);
- ``junctions``: cells with three or four openings (branch points), their
  share, and ``branching``: the mean number of onward ways at a junction
  (openings minus the one you came in by);
- ``solution_length``: the number of steps of the solution, when the maze has one,
  and its share of the cells (``solution_share``);
- ``loops``: the number of independent loops (passages beyond those of a spanning
  forest: 0 in a perfect maze, one more for each link a braid adds);
- ``braid``, for a braided maze: the share of dead ends asked for, the dead ends of
  the same maze unbraided and those left, and the share removed
  (:func:`~lacak_mazes.braid.braid_report`);
- ``perfect``, ``passages``, ``cells``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ._common import E, N, S, W, flat_steps
from .braid import braid_report

if TYPE_CHECKING:
    from ._shape import MazeLike

__all__ = ["maze_stats"]


def maze_stats(maze: MazeLike) -> dict[str, Any]:
    """Statistics of ``maze`` as a JSON-ready dict (see the module docstring).

    >>> import lacak
    >>> stats = lacak.generate("maze", "binary-tree", (40, 40), seed=1).stats()
    >>> 0.2 < stats["dead_end_share"] < 0.3
    True
    """
    cells = maze.cells
    degree = maze.degrees()
    total = maze.size
    counts = np.bincount(degree.ravel(), minlength=5)
    two = degree == 2
    straight = two & ((cells == (N | S)) | (cells == (E | W)))
    corridors = int(counts[2])
    junctions = int(counts[3] + counts[4])
    passages = maze.passages
    perfect = maze.is_perfect()
    # every stretch between two non-corridor cells has two ends, one per open side of
    # those cells; loops of corridor cells only (never in a perfect maze) have none
    ends = int(counts[1] + 3 * counts[3] + 4 * counts[4])
    stretches = ends // 2 + (0 if perfect else _corridor_loops(maze, two))
    stats: dict[str, Any] = {
        "height": maze.height,
        "width": maze.width,
        "algorithm": maze.algorithm,
        "seed": maze.seed,
        "cells": total,
        "passages": passages,
        "perfect": perfect,
        "loops": 0 if perfect else passages - total + _regions(maze),
        "dead_ends": int(counts[1]),
        "dead_end_share": round(int(counts[1]) / total, 6),
        "corridors": corridors,
        "straightness": round(int(straight.sum()) / corridors, 6) if corridors else 0.0,
        "corridor_length": round(passages / stretches, 6) if stretches else 0.0,
        "horizontal_share": round(int(np.count_nonzero(cells & E)) / passages, 6)
        if passages
        else 0.0,
        "junctions": junctions,
        "junction_share": round(junctions / total, 6),
        "branching": round((2 * int(counts[3]) + 3 * int(counts[4])) / junctions, 6)
        if junctions
        else 0.0,
        "closed_cells": int(counts[0]),
        "solution_length": len(maze.solution) - 1 if maze.solution is not None else None,
        "solution_share": round(len(maze.solution) / total, 6)
        if maze.solution is not None
        else None,
    }
    braided = braid_report(maze, stats["dead_ends"])
    if braided is not None:
        stats["braid"] = braided
    return stats


def _regions(maze: MazeLike) -> int:
    """The number of separate regions of ``maze`` (a closed cell is one)."""
    from .breadth_first import reach  # (deferred: only mazes that are not perfect need it)

    cells = maze.cells.tobytes()
    seen = np.zeros(maze.size, dtype=bool)
    regions = 0
    for start in range(maze.size):
        if not seen[start]:
            regions += 1
            seen[reach(cells, maze.width, start).queue] = True
    return regions


def _corridor_loops(maze: MazeLike, two: Any) -> int:
    """Number of closed loops made of corridor cells (two openings) only.

    :param two: where ``maze`` has cells with two openings.
    """
    width = maze.width
    steps = flat_steps(width)
    masks = maze.cells.ravel().tolist()
    corridor = bytearray(two.ravel().tobytes())
    seen = bytearray(len(masks))
    loops = 0
    for start in np.flatnonzero(two.ravel()).tolist():
        if seen[start]:
            continue
        seen[start] = 1
        for offset, _back in steps[masks[start]]:
            previous, here = start, start + offset
            while corridor[here] and here != start:
                seen[here] = 1
                (first, _b1), (second, _b2) = steps[masks[here]]
                previous, here = here, here + (second if here + first == previous else first)
            if here == start:  # round the loop and back: the other side is the same loop
                loops += 1
                break
    return loops

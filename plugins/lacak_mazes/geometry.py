"""A grid's shapes as JSON data, for a page that draws mazes itself (the maze page of
``lacak serve``): every cell's sides and centre, in the cell units the grid's
:class:`~lacak_mazes.grids.Layout` gives, so that the page draws any grid (a third
party's too) from what the grid says, and nothing about a grid's shape is decided twice.

:func:`grid_geometry` gives flat lists (a 40,000-cell grid is a few megabytes)::

    {"width": 6.5, "height": 5.2,     # the picture's extent, in cell units
     "points": [0.0, 0.866, ...],     # every corner once: x, y, x, y, ... (y downwards)
     "sides": [-1, 2, 0, 1, 4, 2, 1, 2, ...],  # each cell's sides, clockwise, one after
                                      # the other: the neighbour across (-1: none), the
                                      # number of corners k, then k corner numbers
     "first": [0, 24, 48, ...],       # where each cell's sides begin in "sides" (and,
                                      # last, where they end)
     "centres": [0.5, 0.866, ...],    # each cell's centre: x, y, x, y, ...
     "step": 1.732}                   # the longest step between neighbours' centres

A side is drawn as a wall unless a passage joins the cell to the neighbour across
it; a cell's outline is its sides' corners in turn (each side's last corner is the
next one's first). Two neighbours' centres farther apart than ``1.5 * step`` are
joined across a wrapped grid's seam, so a path is not drawn straight between them.

>>> import lacak
>>> maze = lacak.generate("maze", "wilson", (3, 3), seed=1, grid="torus")
>>> shapes = grid_geometry(maze.grid)
>>> len(shapes["first"]) == maze.size + 1, shapes["sides"][:4]  # cell 6 across the top
(True, [6, 2, 0, 4])
>>> shapes["points"][0:2], shapes["points"][8:10]  # corners 0 and 4: the top edge
([0.0, 0.0], [1.0, 0.0])
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from .grids import Grid

__all__ = ["grid_geometry"]

#: The decimals a corner's coordinates keep (a thousandth of a cell).
DECIMALS = 3


@functools.lru_cache(maxsize=16)
def grid_geometry(grid: Grid) -> dict[str, Any]:
    """``grid``'s cells as shapes (see the module's documentation). Made once for each of
    the last grids asked for; do not change it."""
    every = [side for around in grid.sides for side in around]
    counts = np.fromiter((len(side.points) for side in every), dtype=np.int64, count=len(every))
    across = np.fromiter((side.neighbour for side in every), dtype=np.int64, count=len(every))
    corners = np.array([point for side in every for point in side.points],
                       dtype=np.float64).reshape(-1, 2)  # fmt: skip
    # corners in thousandths of a cell, as one integer each (a 1-d unique is fast)
    scaled = np.rint(corners * 10**DECIMALS).astype(np.int64)
    keys = scaled[:, 0] * (1 << 31) + scaled[:, 1]
    _, first_of, number = np.unique(keys, return_index=True, return_inverse=True)
    unique = scaled[first_of] / 10**DECIMALS
    # each side is [neighbour, k, k corner numbers]
    begins = np.concatenate(([0], np.cumsum(counts + 2)))
    sides = np.empty(int(begins[-1]), dtype=np.int64)
    sides[begins[:-1]] = across
    sides[begins[:-1] + 1] = counts
    of_side = np.repeat(np.arange(len(every)), counts)
    within = np.arange(len(corners)) - np.repeat(np.cumsum(counts) - counts, counts)
    sides[begins[of_side] + 2 + within] = number.reshape(-1)
    first = begins[np.concatenate(([0], np.cumsum([len(around) for around in grid.sides])))]
    width, height = grid.extent
    centres = np.round(np.array(grid.centres, dtype=np.float64).reshape(-1, 2), DECIMALS)
    return {
        "width": round(width, DECIMALS),
        "height": round(height, DECIMALS),
        "points": unique.reshape(-1).tolist(),
        "sides": sides.tolist(),
        "first": first.tolist(),
        "centres": centres.reshape(-1).tolist(),
        "step": round(grid.longest_step, DECIMALS),
    }

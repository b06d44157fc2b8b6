"""Gaschnig's heuristic for sliding-tile puzzles: a complete third-party lacak plugin.

Relax the puzzle so that any tile may swap with the blank, wherever they are.
The least number of such swaps that sorts the board never exceeds the true
number of moves, so the heuristic is admissible (Gaschnig 1979). It is
computed greedily: while the blank is not home, swap it with the tile that
belongs where the blank is; when it is home but tiles are misplaced, swap it
with any misplaced tile (one extra swap).

This file and the ``[project.entry-points.lacak]`` table of its
``pyproject.toml`` are all a plugin needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import lacak


def gaschnig(puzzle: Any, state: Sequence[int]) -> int:
    """Number of blank swaps that sort ``state`` into ``puzzle.goal``.

    Admissible and consistent for unit-cost sliding moves.

    >>> class P: goal = (1, 2, 3, 0)
    >>> gaschnig(P(), (1, 2, 0, 3))
    1
    >>> gaschnig(P(), (2, 1, 3, 0))
    3
    """
    goal = puzzle.goal
    home = {tile: position for position, tile in enumerate(goal)}
    board = list(state)
    where = {tile: position for position, tile in enumerate(board)}
    misplaced = {tile for tile, position in where.items() if tile != 0 and home[tile] != position}
    swaps = 0
    while misplaced:
        blank = where[0]
        if blank != home[0]:
            tile = goal[blank]  # the tile that belongs where the blank is
        else:
            tile = min(misplaced)  # any misplaced tile; min keeps it deterministic
        tile_at = where[tile]
        board[blank], board[tile_at] = tile, 0
        where[tile], where[0] = blank, tile_at
        if home[tile] == blank:
            misplaced.discard(tile)
        swaps += 1
    return swaps


@lacak.hookimpl
def register_heuristics(register: Any) -> None:
    register(
        lacak.Heuristic(
            name="gaschnig",
            kind="sliding",
            estimate=gaschnig,
            admissible=True,
            consistent=True,
            description="Gaschnig: swaps with the blank if any tile could go there (admissible)",
        )
    )

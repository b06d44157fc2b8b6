"""Hunt-and-kill, the reference algorithm.

Steps:

1. start at a random cell and mark it visited;
2. *walk*: carve to a random unvisited neighbour and move there, until the
   current cell has none;
3. *hunt*: scan the grid row by row for the first unvisited cell that has a
   visited neighbour, carve between them (to a random visited neighbour) and
   walk again from there; stop when every cell is visited.

The hunt never rescans from the top. All cells before the first unvisited
cell (row by row) are visited, so that cell always has a visited neighbour
(above it, or to its left on the first row) and *is* the one the hunt finds;
a pointer that only moves forward finds it (``bytearray.find``, in C). The
one exception is while cell (0, 0) is still unvisited: then the answer lies in
the row above the first visited cell, or, when that is row 0, on row 0 or 1,
and is found with two more ``find`` calls. The whole maze costs ``O(cells)``.

``hunt="random"`` hunts a uniformly random unvisited cell with a visited
neighbour instead (the candidates are collected from the cells each walk
visited), which breaks the row-by-row texture.

Mazes have long corridors and few dead ends (about 10%, like the backtracker).

>>> from lacak_mazes.huntkill import hunt_and_kill
>>> hunt_and_kill(5, 5, 3).is_perfect()
True
"""

from __future__ import annotations

from ._common import OPPOSITE, Rng
from ._grid import Padded, maze_from_links, permutation_table
from .maze import Maze

__all__ = ["HUNTS", "hunt_and_kill"]

#: Ways to hunt.
HUNTS = ("rows", "random")


def hunt_and_kill(height: int, width: int, seed: int, hunt: str = "rows") -> Maze:
    """A perfect maze by hunt-and-kill.

    :param hunt: ``"rows"`` (scan row by row, the reference) or ``"random"``.
    :raises lacak.InvalidOptionError: an unknown ``hunt``.
    """
    import lacak

    if hunt not in HUNTS:
        raise lacak.InvalidOptionError(
            f"hunt-and-kill option 'hunt' is one of {', '.join(HUNTS)}, got {hunt!r}"
        )
    rng = Rng(seed, salt=1)
    grid = Padded(height, width)
    state, link, steps = grid.state, grid.link, grid.steps
    orders = permutation_table(steps)
    choice = rng.below(24, grid.size).tolist()
    uniform = rng.float_stream()
    rand = uniform.__next__
    P = grid.P
    origin = grid.first()
    here = grid.random_cell(rng)
    state[here] = 1
    first_visited = here
    scan = origin  # every cell before it is visited
    remaining = height * width - 1
    by_rows = hunt == "rows"
    walked: list[int] = [here]
    record = walked.append
    candidates: list[int] = []
    listed = bytearray(grid.size)
    while True:
        # walk
        while True:
            for offset, back in orders[choice[here]]:  # noqa: B007 - used after the break
                there = here + offset
                if not state[there]:
                    break
            else:
                break
            state[there] = 1
            link[there] = back
            here = there
            remaining -= 1
            if by_rows:
                if there < first_visited:
                    first_visited = there
            else:
                record(there)
        if not remaining:
            break
        # hunt
        if by_rows:
            scan = state.find(0, scan)
            if scan != origin:
                target = scan
            else:
                row_start = first_visited - first_visited % P
                if row_start > P:  # the first visited cell is below row 0
                    target = first_visited - P
                else:  # row 0 has a visited cell, cell (0, 0) does not
                    target = first_visited - 1
                    below = state.find(1, origin + P, target + P)
                    if below != -1:
                        target = below - P
        else:
            for cell in walked:
                for offset, _back in steps:
                    there = cell + offset
                    if not state[there] and not listed[there]:
                        listed[there] = 1
                        candidates.append(there)
            walked.clear()
            while True:
                pick = int(rand() * len(candidates))
                target = candidates[pick]
                candidates[pick] = candidates[-1]
                candidates.pop()
                if not state[target]:
                    break
            record(target)
        # kill: join the target to a random visited neighbour
        joins = [(offset, back) for offset, back in steps if state[target + offset] == 1]
        offset, back = joins[int(rand() * len(joins))]
        # ``back`` is the side of ``target + offset`` facing ``target``; the
        # target's own side towards that neighbour is the opposite one.
        link[target] = OPPOSITE[back]
        state[target] = 1
        remaining -= 1
        if by_rows and target < first_visited:
            first_visited = target
        here = target
        if not remaining:
            break
    return maze_from_links(grid.links())

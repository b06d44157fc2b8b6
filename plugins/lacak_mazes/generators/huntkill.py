"""Hunt-and-kill, the reference algorithm, with the variations the reference suggests.

Steps:

1. start at a random cell and mark it visited;
2. *walk*: carve to a random unvisited neighbour and move there, until the
   current cell has none;
3. *hunt*: scan the grid row by row (or column by column) for the first
   unvisited cell that has a visited neighbour, carve between them (to a
   random visited neighbour) and walk again from there; stop when every cell
   is visited.

The reference adds that the algorithm "can easily be adapted to produce
mazes with a different look and feel, just by choosing to enter hunt mode
more often": with ``hunt_chance=p`` the walk also stops for a hunt after
each step with probability ``p`` (the number of steps of a walk is drawn
once per walk, from the geometric law with that parameter, which is the
same thing). ``p = 0`` is the reference; as ``p`` grows the walks get
shorter, the corridors too, and dead ends more common.

The hunt never rescans from the top. All cells before the first unvisited
cell (row by row) are visited, so that cell always has a visited neighbour
(above it, or to its left on the first row) and *is* the one the hunt finds;
a pointer that only moves forward finds it (``bytearray.find``, in C). The
one exception is while cell (0, 0) is still unvisited: then the answer lies in
the row above the first visited cell, or, when that is row 0, left of it on
row 0, above the first visited cell of row 1 if that is further left; the walk
keeps both first visited cells up to date (one comparison per step covers
them). The whole maze costs ``O(cells)``.
None of this depends on why the walk stopped, so early hunts keep it.

``hunt="columns"`` scans column by column: it runs the row scan on the
transposed grid (a padded grid stored column by column, so the same forward
``find`` calls scan columns) and transposes the result. A ``height x width``
maze with ``hunt="columns"`` is therefore exactly the transpose of the
``width x height`` maze with the same seed and ``hunt="rows"``.

``hunt="random"`` hunts a uniformly random unvisited cell with a visited
neighbour instead (the candidates are collected from the cells each walk
visited), which breaks the row-by-row texture.

With the defaults, mazes have long corridors and few dead ends (about 10%,
like the backtracker).

>>> from lacak_mazes.generators.huntkill import hunt_and_kill
>>> hunt_and_kill(5, 5, 3).is_perfect()
True
>>> rows = hunt_and_kill(4, 6, 9)
>>> columns = hunt_and_kill(6, 4, 9, hunt="columns")
>>> bool((columns.degrees() == rows.degrees().T).all())
True
"""

from __future__ import annotations

import math
from typing import Any

import lacak
import numpy as np

from .._common import OPPOSITE, E, N, S, W
from ..carving import Carving
from ..maze import Maze
from ._common import Rng, check_probability
from ._grid import Padded, compiled_orders, maze_from_links, permutation_table, visit_carving
from .engine import kernels, timed

__all__ = ["HUNTS", "hunt_and_kill"]

#: Ways to hunt (also listed in the generator's ``option_ranges``).
HUNTS = ("rows", "columns", "random")

#: A link bit of the transposed grid as a link bit of the grid (N <-> W, E <-> S).
_TRANSPOSED_BIT = {0: 0, N: W, E: S, S: E, W: N}
#: An open-side bitmask of the transposed grid as one of the grid.
_TRANSPOSED_MASK = np.array(
    [sum(image for bit, image in _TRANSPOSED_BIT.items() if mask & bit) for mask in range(16)],
    dtype=np.uint8,
)


def hunt_and_kill(
    height: int,
    width: int,
    seed: int,
    hunt: str = "rows",
    hunt_chance: float = 0.0,
    carving: bool = False,
) -> Maze:
    """A perfect maze by hunt-and-kill.

    :param hunt: ``"rows"`` (scan row by row, the reference), ``"columns"``
        (column by column) or ``"random"`` (a random cell next to the maze).
    :param hunt_chance: probability, in [0, 1], of leaving the walk for a hunt
        after each step; 0 (the default) hunts only when the walk is stuck.
    :param carving: give the maze its carving (each cell as the walk or a hunt
        reaches it), with the hunts' steps marked ``"hunt"``.
    :raises lacak.InvalidOptionError: an unknown ``hunt``, or a ``hunt_chance``
        that is not a number in [0, 1].
    """
    if not isinstance(hunt, str) or hunt not in HUNTS:
        raise lacak.InvalidOptionError(
            f"hunt-and-kill option 'hunt' is one of {', '.join(HUNTS)}, got {hunt!r}"
        )
    chance = check_probability(hunt_chance, "hunt_chance", "hunt-and-kill")
    compiled = None if carving else kernels(height * width)
    if compiled is not None:
        if hunt == "columns":
            cells = _compiled_cells(compiled, width, height, seed, True, chance)
            return Maze(np.ascontiguousarray(_TRANSPOSED_MASK[cells.T]))
        return Maze(_compiled_cells(compiled, height, width, seed, hunt == "rows", chance))
    if hunt == "columns":
        table = np.zeros(16, dtype=np.uint8)
        for bit, image in _TRANSPOSED_BIT.items():
            table[bit] = image
        links, steps = _links(width, height, seed, True, chance, carving)
        if steps is not None:  # the steps of the transposed grid, transposed
            columns, rows, sides = steps.steps.T
            steps = Carving.of(rows, columns, table[sides], marks=steps.marks)
        return maze_from_links(table[links.T], carving=steps)
    links, steps = _links(height, width, seed, hunt == "rows", chance, carving)
    return maze_from_links(links, carving=steps)


def _links(
    height: int, width: int, seed: int, by_rows: bool, chance: float, carving: bool = False
) -> tuple[Any, Carving | None]:
    """The link array (see :func:`~lacak_mazes.generators._grid.maze_from_links`) of one maze, and
    its carving when asked for (the hunts' steps marked ``"hunt"``)."""
    with timed():
        return _python_links(Padded(height, width), Rng(seed, salt=1), by_rows, chance, carving)


def _compiled_cells(
    compiled: Any, height: int, width: int, seed: int, by_rows: bool, chance: float
) -> np.ndarray:
    """The open-side bitmasks of the maze :func:`_links` makes, by the compiled kernel."""
    rng = Rng(seed, salt=1)
    grid = Padded(height, width)
    words = rng.words()
    choice, here = compiled.choices(words, grid.size, height, width)
    state, link = grid.arrays()
    compiled.hunt_and_kill(state, link, *compiled_orders(grid), choice, here, width, height,
                           by_rows, chance, words)  # fmt: skip
    return compiled.cells_from_links(link, height, width)


def _python_links(
    grid: Padded, rng: Rng, by_rows: bool, chance: float, carving: bool
) -> tuple[Any, Carving | None]:
    """:func:`_links` in Python (the reference of the compiled kernel)."""
    height, width = grid.height, grid.width
    if carving:
        grid.record()
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
    # While cell (0, 0) is unvisited, the hunt needs the first visited cell of row 1
    # (``first_row1``; the grid's size when there is none). Cells before ``watch``, the
    # larger of ``first_visited`` and the start of row 2, are noted as they are visited,
    # so the walk still makes one comparison per step.
    row1, row2 = origin + P, origin + 2 * P
    first_row1 = here if row1 <= here < row2 else grid.size
    watch = first_visited if first_visited > row2 else row2
    remaining = height * width - 1
    walked: list[int] = [here]
    record = walked.append
    candidates: list[int] = []
    listed = bytearray(grid.size)
    hunted: list[int] | None = [] if carving else None  # the cells hunts joined, when asked
    # A walk makes at most ``1 + floor(log(1 - u) / keep)`` steps (u uniform in [0, 1),
    # ``keep`` the log of the chance of walking on after a step): the geometric law of
    # the first step after which a hunt is drawn. It stops when ``remaining`` reaches
    # ``stop`` (-1: no budget). The walk without a budget is written out on its own so
    # that the default pays nothing for the option (the check costs it about 1.5%).
    keep = math.log1p(-chance) if 0.0 < chance < 1.0 else 0.0
    log1p = math.log1p
    while True:
        # walk
        if not chance:
            stop = -1
        elif keep:
            steps_on = log1p(-rand()) / keep
            stop = remaining - int(steps_on) - 1 if steps_on < remaining else -1
        else:
            stop = remaining - 1
        if stop < 0:  # walk until stuck
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
                    if there < watch:
                        if there < first_visited:
                            first_visited = there
                            watch = first_visited if first_visited > row2 else row2
                        if row1 <= there < first_row1:
                            first_row1 = there
                else:
                    record(there)
        else:  # the same walk, stopping after its budget of steps too
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
                    if there < watch:
                        if there < first_visited:
                            first_visited = there
                            watch = first_visited if first_visited > row2 else row2
                        if row1 <= there < first_row1:
                            first_row1 = there
                else:
                    record(there)
                if remaining == stop:
                    break
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
                    if first_row1 < target + P:  # a visited cell in row 1 further left
                        target = first_row1 - P
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
        if hunted is not None:
            hunted.append(target)
        joins = [(offset, back) for offset, back in steps if state[target + offset] == 1]
        offset, back = joins[int(rand() * len(joins))]
        # ``back`` is the side of ``target + offset`` facing ``target``; the
        # target's own side towards that neighbour is the opposite one.
        link[target] = OPPOSITE[back]
        state[target] = 1
        remaining -= 1
        if by_rows and target < watch:
            if target < first_visited:
                first_visited = target
                watch = first_visited if first_visited > row2 else row2
            if row1 <= target < first_row1:
                first_row1 = target
        here = target
        if not remaining:
            break
    links = grid.links()
    if hunted is None:
        return links, None
    return links, visit_carving(grid, links, marks={"hunt": hunted})

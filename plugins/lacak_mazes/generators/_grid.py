"""Grid machinery for the generators: padded flat grids, neighbour tables, links to cells.

The walking generators work on a *padded* grid: row ``r``, column ``c`` of
the maze is index ``(r + 1) * P + c`` with ``P = width + 1``. Row 0, row
``height + 1`` and column ``width`` of every padded row are sentinels, so
the four neighbours of a cell are simply ``i - P``, ``i + 1``, ``i + P`` and
``i - 1`` with no bounds checks: a sentinel is marked so that it never looks
unvisited.

Generators that build a spanning tree record, for every cell but the root,
the side that leads to its parent (its *link*); :func:`maze_from_links` turns
that into open-side bitmasks with numpy.

Asked for the carving order (see :mod:`lacak_mazes.carving`), a walking
generator calls :meth:`Padded.record` before it marks its first cell: the
grid's ``state`` becomes a :class:`VisitLog`, which notes each cell as it is
marked visited, in order; :func:`visit_carving` turns those cells and their
links into the steps. The generator's own loops do not change, so a maze made
without the carving costs nothing more.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from .._common import E, N, S, W
from ..carving import Carving
from ..maze import Maze
from ._common import Rng

__all__ = [
    "SENTINEL",
    "Padded",
    "VisitLog",
    "carve_depth_first",
    "compiled_orders",
    "corridor",
    "maze_from_links",
    "permutation_table",
    "visit_carving",
]

#: Value of a sentinel cell in a padded ``state`` bytearray.
SENTINEL = 2


class VisitLog(bytearray):
    """A padded grid's ``state`` that notes the cells marked visited (set to 1), in order.

    Reads, ``find`` and the buffer (numpy views) are the bytearray's own; only
    item assignment goes through Python, to note the cell.
    """

    def __init__(self, state: bytearray) -> None:
        super().__init__(state)
        #: Padded indices of the cells set to 1, in the order they were set.
        self.order: list[int] = []

    def __setitem__(self, index: Any, value: Any) -> None:
        bytearray.__setitem__(self, index, value)
        if value == 1:
            self.order.append(index)


class Padded:
    """A padded flat grid for a ``height x width`` maze.

    ``state`` holds 0 for unvisited cells, ``SENTINEL`` around the grid.
    ``link`` holds, per cell, the bit of the side that leads to its parent.
    """

    def __init__(self, height: int, width: int) -> None:
        self.height = height
        self.width = width
        self.P = P = width + 1
        self.size = (height + 2) * P
        self.state = bytearray([SENTINEL]) * self.size
        blank = bytes(width)
        for row in range(1, height + 1):
            self.state[row * P : row * P + width] = blank
        self.link = bytearray(self.size)
        #: ``(offset, back bit)`` per direction N, E, S, W: moving by ``offset``
        #: reaches a cell whose side ``back bit`` faces where we came from.
        self.steps = ((-P, S), (1, W), (P, N), (-1, E))

    def record(self) -> VisitLog:
        """Note the cells as they are visited from now on (see :class:`VisitLog`);
        returns the new ``state``. Call it before taking ``state`` into a local name."""
        self.state = VisitLog(self.state)
        return self.state

    def index(self, row: int, col: int) -> int:
        """Padded index of a maze cell."""
        return (row + 1) * self.P + col

    def cell(self, index: int) -> tuple[int, int]:
        """Maze cell of a padded index."""
        row, col = divmod(index, self.P)
        return row - 1, col

    def first(self) -> int:
        """Padded index of cell (0, 0)."""
        return self.P

    def random_cell(self, rng: Rng) -> int:
        """Padded index of a uniformly random cell."""
        pick = int(rng.below(self.height * self.width, 1)[0])
        return self.index(*divmod(pick, self.width))

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``state`` and ``link`` as numpy views (``uint8``), for the compiled kernels
        (:mod:`lacak_mazes.generators.compiled`) to fill in."""
        return (np.frombuffer(self.state, dtype=np.uint8),
                np.frombuffer(self.link, dtype=np.uint8))  # fmt: skip

    def links(self) -> np.ndarray:
        """The ``height x width`` link array (a view into ``link``)."""
        grid = np.frombuffer(self.link, dtype=np.uint8).reshape(self.height + 2, self.P)
        return grid[1 : self.height + 1, : self.width]


def permutation_table(steps: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """The 24 orders of the four ``steps``; a cell takes one at random.

    Trying a cell's neighbours in a uniformly random order and taking the
    first unvisited one picks uniformly among the unvisited neighbours, each
    time the cell is looked at again too (the relative order of the untried
    neighbours stays uniform), so one random number per cell replaces one per
    decision.
    """
    return [tuple(steps[i] for i in order) for order in itertools.permutations(range(4))]


def compiled_orders(grid: Padded) -> tuple[np.ndarray, np.ndarray]:
    """:func:`permutation_table` of ``grid``'s steps as the compiled kernels take it: the
    offsets (``int64``) and the back bits (``uint8``), 24 orders of 4 steps each."""
    table = np.array(permutation_table(grid.steps), dtype=np.int64)
    return np.ascontiguousarray(table[:, :, 0]), table[:, :, 1].astype(np.uint8)


def carve_depth_first(
    grid: Padded, orders: list[tuple[Any, ...]], choice: list[int], start: int
) -> None:
    """Carve the randomised depth-first (recursive backtracker) tree from ``start``.

    ``start`` is visited already. A stack holds the path from ``start`` to
    the current cell, which carves to its first unvisited neighbour in its
    order ``orders[choice[cell]]``; a cell with none is popped. On return a
    cell retries its order, which picks uniformly among the neighbours still
    unvisited (see :func:`permutation_table`). Every reachable cell ends up
    visited, with its link set.
    """
    state, link = grid.state, grid.link
    here = start
    stack = [here]
    push, pop = stack.append, stack.pop
    while True:
        for offset, back in orders[choice[here]]:
            there = here + offset
            if not state[there]:
                state[there] = 1
                link[there] = back
                push(there)
                here = there
                break
        else:
            pop()
            if not stack:
                break
            here = stack[-1]


def corridor(height: int, width: int, carving: bool = False) -> Maze:
    """The one perfect maze of a ``1 x width`` or ``height x 1`` grid: a straight corridor.

    :param carving: give the maze its carving: from the first cell to the last.
    :raises ValueError: neither side is 1.
    """
    if height != 1 and width != 1:
        raise ValueError(f"a {height}x{width} grid is not a corridor")
    links = np.full((height, width), W if height == 1 else N, dtype=np.uint8)
    links[0, 0] = 0
    if not carving:
        return maze_from_links(links)
    rows, cols = np.divmod(np.arange(1, height * width), width)
    return maze_from_links(links, carving=Carving.of(rows, cols, links[rows, cols]))


def visit_carving(
    grid: Padded, links: np.ndarray, marks: Mapping[str, Iterable[int]] | None = None
) -> Carving:
    """The carving of a tree grown on ``grid`` after :meth:`Padded.record`: each cell
    visited, in order, with the side towards its parent (``links``, ``height x
    width``; the root, with no parent, is no step).

    :param marks: kinds of steps (see :attr:`Carving.marks <lacak_mazes.carving.Carving.marks>`),
        each given as the padded indices of the cells its steps reached.
    """
    state = grid.state
    if not isinstance(state, VisitLog):
        raise TypeError("visit_carving needs a grid that recorded its visits")
    order = np.array(state.order, dtype=np.int64)
    rows, cols = np.divmod(order, grid.P)
    rows -= 1
    sides = links[rows, cols]
    keep = sides != 0
    reached = order[keep]
    steps = {
        name: np.flatnonzero(np.isin(reached, np.fromiter(cells, dtype=np.int64))).tolist()
        for name, cells in (marks or {}).items()
    }
    return Carving.of(rows[keep], cols[keep], sides[keep], marks=steps)


def maze_from_links(links: np.ndarray, **fields: Any) -> Maze:
    """A maze from a link array: each cell is open towards its parent, and the parent back.

    :param links: ``height x width`` array of 0 (the root) or the bit (N, E, S, W)
        of the side leading to the cell's parent.
    """
    links = np.asarray(links, dtype=np.uint8)
    cells = links.copy()
    cells[:-1, :] |= (links[1:, :] == N) * np.uint8(S)
    cells[1:, :] |= (links[:-1, :] == S) * np.uint8(N)
    cells[:, :-1] |= (links[:, 1:] == W) * np.uint8(E)
    cells[:, 1:] |= (links[:, :-1] == E) * np.uint8(W)
    return Maze(cells, **fields)

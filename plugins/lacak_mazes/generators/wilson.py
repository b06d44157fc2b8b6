"""Wilson's algorithm: loop-erased random walks, exactly uniform.

Steps:

1. put one cell (the root) in the tree;
2. from each cell not yet in the tree, walk at random until the walk meets
   the tree, remembering at every cell the direction it last left by (this
   erases the loops the walk made);
3. add the loop-erased path to the tree by following those directions from
   where the walk started; repeat until every cell is in the tree.

Every perfect maze of the grid comes out with the same probability (Wilson
1996, for any root and any order of starting cells). The root is the centre
cell, which keeps the walks short; the walks start from the cells row by row.

Mazes have no bias and about 29% dead ends, like Aldous-Broder and Kruskal.

How lacak runs it: a walk takes one random move per step (N, E, S or W: two
bits of the random stream each; a move that would leave the grid is a step
spent in place). Most walks are short and run in plain Python on a padded
flat grid. A few are very long: the first one, from a corner to the centre,
takes about ``n ln n`` steps for ``n`` cells, three quarters of all the steps
at 1000x1000. A walk that outlasts a block of :data:`REFILL` random numbers
(4,096 moves) goes on in numpy blocks (:class:`_Blocks`, with
:func:`lacak_mazes.generators._walk.clamped` for the positions): a block's positions, the
first one in the tree, and the last exit of each cell it visited (the time of
each cell's last visit by ``np.maximum.at``). The moves are the same ones in
the same order, so the maze is the one the plain loop makes, move for move
(the tests check this against the plain loop).

A ``1 x n`` or ``n x 1`` grid has one perfect maze, the corridor, returned
without a walk (the walk would take about ``n**2`` steps).

>>> from lacak_mazes.generators.wilson import wilson
>>> wilson(3, 3, 7).is_perfect()
True
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from operator import length_hint

import numpy as np

from .._common import E, N, S, W
from ..maze import Maze
from ._common import Rng
from ._grid import SENTINEL, Padded, corridor, maze_from_links, visit_carving
from ._walk import clamped, col_steps, moves, row_steps
from .engine import kernels, timed

__all__ = ["wilson"]

#: Raw numbers in a block of moves for Python walks at most (32 moves each); a
#: walk still going when its second block runs out goes on in numpy blocks.
REFILL = 128
#: Moves in a walk's first numpy block; blocks double up to :data:`MAX_BLOCK`.
FIRST_BLOCK = 1 << 12
MAX_BLOCK = 1 << 14
#: The numpy blocks need chunks of up to ``side // 2`` steps; narrower grids walk in Python.
MIN_SIDE = 32
#: Chunk length at most (a power of two).
MAX_CHUNK = 1 << 9


def wilson(height: int, width: int, seed: int, carving: bool = False) -> Maze:
    """A uniformly random perfect maze by Wilson's algorithm.

    :param carving: give the maze its carving: each loop-erased walk added to the
        tree, from where it started to where it met the tree.
    """
    if height == 1 or width == 1:  # one perfect maze (no walk needed)
        return corridor(height, width, carving)
    grid = Padded(height, width)
    compiled = None if carving else kernels(height * width)
    if compiled is not None:
        exits_array = np.zeros(grid.size, dtype=np.int64)
        state_array = grid.arrays()[0]
        root = grid.index(height // 2, width // 2)
        compiled.wilson(state_array, exits_array, root, grid.P, Rng(seed, salt=8).words())
        return Maze(compiled.cells_from_exits(exits_array, height, width))
    with timed():
        return _python(grid, seed, carving)


def _python(grid: Padded, seed: int, carving: bool) -> Maze:
    """:func:`wilson` in Python (the reference of the compiled kernel)."""
    height, width = grid.height, grid.width
    if carving:
        grid.record()
    state, P = grid.state, grid.P
    moves = _Moves(Rng(seed, salt=8), np.array([-P, 1, P, -1], dtype=np.int64))
    blocks = _Blocks(grid) if min(height, width) >= MIN_SIDE else None
    # the offset each cell last left by; once a cell is in the tree, the way to its parent
    exits = [0] * grid.size
    root = grid.index(height // 2, width // 2)
    state[root] = 1
    steps = moves.steps
    start = state.find(0)  # the cells not in the tree, row by row (sentinels are 2)
    while start >= 0:
        here = start
        refills = 0
        numpy_from = -1  # the numpy clock when this walk went on in numpy blocks
        while True:
            for offset in steps:
                there = here + offset
                if state[there]:  # the tree, or off the grid (a step spent in place)
                    if state[there] == SENTINEL:
                        continue
                    exits[here] = offset
                    here = there
                    break
                exits[here] = offset
                here = there
            else:  # out of moves
                if refills and blocks is not None:  # a long walk: on in numpy
                    numpy_from = blocks.clock
                    blocks.walk(here, moves)
                    steps = moves.steps
                    break
                refills += 1
                steps = moves.refill()
                continue
            break
        if numpy_from >= 0 and blocks is not None:
            blocks.erase_loops(start, numpy_from, exits)
        else:
            here = start
            while not state[here]:
                state[here] = 1
                here += exits[here]
        start = state.find(0, start + 1)
    links = _links(grid, exits)
    return maze_from_links(links, carving=visit_carving(grid, links) if carving else None)


def _links(grid: Padded, exits: list[int] | np.ndarray) -> np.ndarray:
    """The link array (side towards the parent) from the exit offsets of a padded grid."""
    P = grid.P
    offsets = np.asarray(exits, dtype=np.int64).reshape(grid.height + 2, P)
    offsets = offsets[1 : grid.height + 1, : grid.width]
    links = np.zeros(offsets.shape, dtype=np.uint8)
    for offset, bit in ((-P, N), (1, E), (P, S), (-1, W)):
        links[offsets == offset] = bit
    return links


class _Moves:
    """The walk's moves: a numpy block, and an iterator over its flat offsets for Python.

    Python walks use up :attr:`steps`; a numpy block starts where they stopped.
    """

    def __init__(self, rng: Rng, offsets: np.ndarray) -> None:
        self.rng = rng
        self.offsets = offsets
        self.block: np.ndarray = np.empty(0, dtype=np.int8)
        self.steps: Iterator[int] = iter(())
        self.raw = 2  # raw numbers for the next refill: doubling up to REFILL

    def refill(self) -> Iterator[int]:
        """The next block of moves (the current one is used up); returns :attr:`steps`."""
        self._set(moves(self.rng, self.raw))
        self.raw = min(2 * self.raw, REFILL)
        return self.steps

    def _set(self, block: np.ndarray) -> None:
        self.block = block
        self.steps = iter(np.take(self.offsets, block).tolist())

    def take(self, count: int) -> np.ndarray:
        """The next ``count`` moves, from where :attr:`steps` stands."""
        left = self.block[self.block.size - length_hint(self.steps) :]
        if left.size < count:
            left = np.concatenate([left, moves(self.rng, -((left.size - count) // 32))])
        self.block = left
        # stands for the moves after these, so that ``block.size - length_hint(steps)``
        # is what is used, as after Python walks
        self.steps = itertools.repeat(0, left.size - count)
        return left[:count]

    def give_back(self, unused: int) -> None:
        """The last :meth:`take`'s last ``unused`` moves were not used: they come next."""
        self._set(self.block[self.block.size - length_hint(self.steps) - unused :])


class _Blocks:
    """Long walks in numpy blocks, and what they leave for the loop erasure.

    ``visited[cell]`` is the numpy time (steps taken in blocks, all walks
    together) of the cell's last visit, ``exit[cell]`` the offset the walk
    left it by then.
    """

    def __init__(self, grid: Padded) -> None:
        self.grid = grid
        self.state = np.frombuffer(grid.state, dtype=np.uint8)
        self.visited = np.full(grid.size, -1, dtype=np.int64)
        self.exit = np.zeros(grid.size, dtype=np.int32)
        self.clock = 0
        side = min(grid.height, grid.width) // 2
        self.chunk = min(MAX_CHUNK, 1 << (side.bit_length() - 1))

    def erase_loops(self, start: int, since: int, exits: list[int]) -> None:
        """Add the loop-erased walk from ``start`` to the tree.

        The walk went on in numpy blocks from the numpy time ``since``: a cell
        seen there last takes its exit from :attr:`exit` into ``exits``.
        """
        state, visited, exit_ = self.grid.state, self.visited, self.exit
        here = start
        while not state[here]:
            state[here] = 1
            if visited[here] >= since:
                exits[here] = int(exit_[here])
            here += exits[here]

    def walk(self, here: int, moves: _Moves) -> None:
        """Walk on from ``here`` (not in the tree) until the tree."""
        grid, P = self.grid, self.grid.P
        row, col = divmod(here, P)
        row -= 1
        size = FIRST_BLOCK
        while True:
            block = moves.take(size)
            rows = clamped(row, row_steps(block), grid.height, self.chunk)
            cols = clamped(col, col_steps(block), grid.width, self.chunk)
            cells = rows + 1
            cells *= P
            cells += cols
            tree = np.take(self.state, cells)
            stop = int(tree.argmax())
            done = bool(tree[stop])
            used = stop + 1 if done else size
            before = np.empty(used, dtype=np.int32)  # the cell before each move
            before[0] = here
            before[1:] = cells[: used - 1]
            times = np.arange(self.clock, self.clock + used, dtype=np.int64)
            np.maximum.at(self.visited, before, times)
            last = np.flatnonzero(np.take(self.visited, before) == times)
            left = np.take(before, last)
            self.exit[left] = np.take(cells, last) - left
            self.clock += used
            if done:
                moves.give_back(size - used)
                return
            here, row, col = int(cells[-1]), int(rows[-1]), int(cols[-1])
            size = min(2 * size, MAX_BLOCK)

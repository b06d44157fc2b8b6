"""The maze plugin's one breadth-first search, on flat cell indices.

Every breadth-first search of a maze in this plugin is this one: the paths,
farthest cells and connectivity of :class:`~lacak_mazes.Maze`, and the
strategies ``tree-path`` and ``dead-end-fill``.

Cells are numbered row by row (``index = row * width + col``). One byte per
cell, ``came``, says how the search reached it: ``0`` not (yet), the bit of
the side that leads back towards the source (``N=1, E=2, S=4, W=8``), or
:data:`SOURCE` and :data:`BLOCKED`; the queue holds the cells in the order
reached, and ``queue[:expanded]`` have been expanded. One tight loop
(:meth:`BreadthFirst.run`) expands a given number of cells at a time, so a
caller can look at its limits or the clock between chunks without slowing
the loop down; what the loop does not count (the largest frontier, the
depth) is read off the queue afterwards.

>>> from lacak_mazes import Maze
>>> maze = Maze.from_rows([[6, 12], [1, 1]])   # (0,0)-(0,1), both open to the south
>>> search = BreadthFirst(maze.cells.tobytes(), 2, 2)   # from (1, 0)
>>> search.run(target=3), search.path(3), search.expanded
(True, [2, 0, 1, 3], 4)
"""

from __future__ import annotations

import itertools
from typing import Any

import lacak

from ._common import LETTER, OPPOSITE, flat_offsets, flat_steps, trace_back

__all__ = ["BLOCKED", "CHUNK", "SOURCE", "BreadthFirst", "reach"]

#: ``came`` of the source cell.
SOURCE = 16
#: ``came`` of a cell the search must not enter (a filled dead end).
BLOCKED = 32
#: Cells expanded between two looks at the limits or the clock (about a millisecond).
CHUNK = 4096

#: Turns a mask of blocked cells (any non-zero byte) into ``came`` bytes.
_BLOCK_TABLE = bytes([0] + [BLOCKED] * 255)


class BreadthFirst:
    """A breadth-first search of one maze from one cell, run a chunk at a time.

    :param cells: the maze's bitmasks, one byte per cell, row by row.
    :param width: cells per row.
    :param source: the flat index of the start cell.
    :param blocked: one byte per cell, non-zero for cells the search must not
        enter (the source is entered all the same).
    """

    __slots__ = ("_pending", "came", "cells", "expanded", "queue", "source", "width")

    def __init__(
        self, cells: bytes, width: int, source: int, blocked: bytes | bytearray | None = None
    ) -> None:
        self.cells = cells
        self.width = width
        self.source = source
        #: How each cell was reached (see the module docstring).
        self.came = (
            bytearray(len(cells)) if blocked is None else bytearray(blocked).translate(_BLOCK_TABLE)
        )
        self.came[source] = SOURCE
        #: The cells in the order reached.
        self.queue = [source]
        #: How many cells of the queue have been expanded.
        self.expanded = 0
        # the queue's own iterator: it sees the cells appended while it runs
        self._pending = iter(self.queue)

    def run(self, target: int = -1, count: int | None = None) -> bool:
        """Expand the next ``count`` cells of the queue (all of them when ``None``),
        stopping once ``target`` has been expanded.

        :returns: whether ``target`` was expanded (it is then the last expanded cell).
        """
        cells = self.cells
        came = self.came
        queue = self.queue
        append = queue.append
        steps = flat_steps(self.width)
        first = self.expanded
        for here in itertools.islice(self._pending, count):
            if here == target:
                self.expanded = queue.index(target, first) + 1
                return True
            for offset, back in steps[cells[here]]:
                there = here + offset
                if not came[there]:
                    came[there] = back
                    append(there)
        self.expanded = len(queue) if count is None else min(first + count, len(queue))
        return False

    @property
    def exhausted(self) -> bool:
        """Whether every cell reached has been expanded (nothing is left to search)."""
        return self.expanded == len(self.queue)

    def forget_after(self, length: int) -> int:
        """Forget the cells of the queue from position ``length`` on, as if never reached
        (a depth limit drops the children of the deepest level allowed).

        :returns: how many cells were forgotten.
        """
        dropped = self.queue[length:]
        for cell in dropped:
            self.came[cell] = 0
        del self.queue[length:]
        return len(dropped)

    def path(self, target: int) -> list[int]:
        """The flat cells from the source to the reached cell ``target``."""
        return trace_back(self.came, self.width, self.source, target)

    def depth(self) -> int:
        """Steps from the source to the deepest cell reached (the last one in the queue)."""
        return len(self.path(self.queue[-1])) - 1

    def max_frontier(self) -> int:
        """The largest number of cells that waited in the queue after an expansion (1 at
        the start): the frontier's high-water mark, read off the queue.

        The children of the cell at position ``p`` are appended together, so once it
        is expanded the frontier is ``j - p`` for its last child ``j``.
        """
        if len(self.queue) < 2:
            return 1
        import numpy as np  # here: the searchers are registered without numpy

        queue = np.fromiter(self.queue, dtype=np.int64, count=len(self.queue))
        came = np.frombuffer(self.came, dtype=np.uint8)
        position = np.empty(len(self.cells), dtype=np.int32)
        position[queue] = np.arange(len(queue), dtype=np.int32)
        offsets = np.zeros(SOURCE, dtype=np.int64)
        for bit, offset in flat_offsets(self.width).items():
            offsets[bit] = offset
        children = queue[1:]
        parents = position[children + offsets[came[children]]]
        return max(1, int((np.arange(1, len(queue)) - parents).max()))

    def replay(self, trace: lacak.SearchTrace, initial: tuple[int, int], goal: int) -> None:
        """Record the search into ``trace`` as a search that generated and expanded node by
        node would have: nodes in the order reached, expansions in queue order, and the
        ``goal`` cell marked when it was expanded."""
        ids: dict[int, int] = {}
        depths: dict[int, int] = {}
        offset = flat_offsets(self.width)
        came = self.came
        for index, cell in enumerate(self.queue):
            if index == 0:
                ids[cell] = trace.add(None, initial, None, depth=0, g=0.0)
                depths[cell] = 0
                continue
            back = came[cell]
            parent = cell + offset[back]
            depth = depths[cell] = depths[parent] + 1
            ids[cell] = trace.add(
                ids[parent],
                divmod(cell, self.width),
                LETTER[OPPOSITE[back]],
                depth=depth,
                g=float(depth),
            )
        for cell in itertools.islice(self.queue, self.expanded):
            trace.expand(ids[cell])
        if self.expanded and self.queue[self.expanded - 1] == goal:
            trace.mark_goal(ids[goal])


def _compiled(compiled: Any, cells: bytes, width: int, source: int, target: int) -> BreadthFirst:
    """:func:`reach` without a deadline, by the compiled kernel of the maze engine
    (:mod:`lacak_mazes.generators.compiled`, once a process has loaded it): the same
    search, as the same :class:`BreadthFirst`."""
    import numpy as np  # here: the searchers are registered without numpy

    came, queue, reached, expanded = compiled.breadth_first(
        np.frombuffer(cells, dtype=np.uint8), width, source, target
    )
    search = BreadthFirst.__new__(BreadthFirst)
    search.cells = cells
    search.width = width
    search.source = source
    search.came = bytearray(came)
    search.queue = queue[:reached].tolist()
    search.expanded = expanded
    search._pending = iter(search.queue)
    next(itertools.islice(search._pending, expanded, expanded), None)  # (those expanded)
    return search


def reach(
    cells: bytes, width: int, source: int, target: int = -1, *, what: str = "searching the maze"
) -> BreadthFirst:
    """Search from ``source`` until ``target`` is expanded, or every reachable cell.

    Under a running deadline (``with budget:``, :func:`lacak.deadline`) it
    looks at the clock every :data:`CHUNK` cells and raises
    :class:`lacak.LimitReachedError` ("the time limit was reached while
    ``what``") once it has passed.

    :returns: the search: ``queue`` holds the cells in the order reached (the
        last is a farthest one when no ``target`` stopped it), ``came`` how each
        was reached.
    """
    if lacak.current_deadline() is None:
        from .generators.engine import loaded_kernels  # (deferred: as the generators are)

        compiled = loaded_kernels()
        if compiled is not None:
            return _compiled(compiled, cells, width, source, target)
        search = BreadthFirst(cells, width, source)
        search.run(target)
        return search
    search = BreadthFirst(cells, width, source)
    while not search.run(target, CHUNK) and not search.exhausted:
        lacak.check_deadline(what)
    return search

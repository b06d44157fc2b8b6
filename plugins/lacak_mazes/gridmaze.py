"""A maze on any grid (:class:`GridMaze`): the grid, the passages between its cells,
endpoints, solution and weights, with JSON; and :class:`GridMazePuzzle`, such a maze
as a search problem.

The rectangle keeps its own, faster :class:`~lacak_mazes.Maze` (bitmask rows);
every other grid (:mod:`lacak_mazes.grids`: hexagons, triangles, rings, octagons,
masks, wraps) makes a :class:`GridMaze`. Its JSON names the grid so it can be
rebuilt, lists the cells by the ids the grid gives them, and the passages as
pairs of cell ids (so ``len(links) == len(cells) - 1`` and connectedness prove a
perfect maze without knowing the grid)::

    {"grid": {"type": "hex", "rows": 3, "cols": 4}, "algorithm": "wilson", "seed": 1,
     "options": {"grid": "hex"}, "cells": [[0, 0], [0, 1], ...],
     "links": [[[0, 0], [0, 1]], [[0, 1], [1, 1]], ...], "start": [0, 0], "end": [2, 3],
     "solution": [[0, 0], ...]}

``links`` are in the order the generator made them, so a page can replay the
carving. ``weights`` (a cost to enter each cell, by index) appears when the
maze has them. A maze is *perfect* when its passages form a spanning tree;
one with loops (a braided maze) is not, and the solvers that assume a tree
refuse it.

>>> import lacak
>>> maze = lacak.generate("maze", "wilson", (3, 4), seed=1, grid="hex").with_endpoints()
>>> maze.is_perfect(), maze.grid.type, len(maze.links) == maze.grid.size - 1
(True, 'hex', True)
>>> GridMaze.from_json(maze.to_json()) == maze
True
"""

from __future__ import annotations

import functools
import itertools
import json
from collections import deque
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs
import lacak
import numpy as np

from .braid import braid_report
from .fields import check_text as _check_text
from .fields import generator_options as _generator_options
from .graph_json import graph_dict, graph_text, rect_links
from .grids import Grid, grid_from_dict

__all__ = ["GridMaze", "GridMazePuzzle"]


def _links(value: Any) -> np.ndarray:
    try:
        array = np.array(value, dtype=np.int64).reshape(-1, 2)
    except (TypeError, ValueError, OverflowError):
        raise lacak.InvalidPuzzleError(
            f"a maze's links are pairs of cell indices, got {str(value)[:80]}"
        ) from None
    array.setflags(write=False)
    return array


def _tunnels(value: Any) -> np.ndarray:
    try:
        array = np.array(value, dtype=np.int64).reshape(-1, 3)
    except (TypeError, ValueError, OverflowError):
        raise lacak.InvalidPuzzleError(
            f"a maze's tunnels are triples of cell indices, got {str(value)[:80]}"
        ) from None
    array.setflags(write=False)
    return array


def _weights(value: Any) -> np.ndarray | None:
    if value is None:
        return None
    try:
        array = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise lacak.InvalidPuzzleError("a maze's weights are numbers, one a cell") from None
    if array.ndim != 1 or not np.all(np.isfinite(array)) or (array.size and array.min() < 1):
        raise lacak.InvalidPuzzleError(
            "a maze's weights are finite numbers of at least 1, one a cell"
        )
    array.setflags(write=False)
    return array


def _cells(value: Any) -> tuple[int, ...] | None:
    if value is None:
        return None
    return tuple(int(v) for v in value)


def _indices(grid: Grid, items: Any, width: int, what: str) -> list[list[int]]:
    """A JSON list of passages (``width`` 2) or tunnels (3), each cell named by its id,
    as lists of cell indices.

    :raises InvalidPuzzleError: not such a list, or an id that is not the grid's.
    """
    if not isinstance(items, (list, tuple)):
        raise lacak.InvalidPuzzleError(f"a maze's {what} are a list, got {str(items)[:80]}")
    found = []
    for number, item in enumerate(items):
        if not isinstance(item, (list, tuple)) or len(item) != width:
            raise lacak.InvalidPuzzleError(
                f"{what} {number} is {width} cell ids, got {str(item)[:80]}"
            )
        found.append([grid.cell_of(cell, f"a cell of {what} {number}") for cell in item])
    return found


def _links_fit(grid: Grid, links: np.ndarray) -> bool:
    """Whether every passage of ``links`` (indices within ``grid``) joins two neighbours
    of ``grid``, and none is listed twice: the check of :meth:`GridMaze._check_links`,
    on arrays, for the millions of passages of a big maze."""
    if not len(links):
        return True
    flat = grid.flat
    size = np.int64(grid.size)
    starts = np.repeat(np.arange(grid.size, dtype=np.int64), np.diff(flat.offsets))
    sides = np.sort(starts * size + flat.targets.astype(np.int64))  # every (cell, neighbour)
    a, b = links[:, 0].astype(np.int64), links[:, 1].astype(np.int64)
    keys = a * size + b
    where = np.minimum(np.searchsorted(sides, keys), len(sides) - 1)
    if len(sides) == 0 or not bool((sides[where] == keys).all()):
        return False
    pairs = np.sort(np.minimum(a, b) * size + np.maximum(a, b))
    return not bool((pairs[1:] == pairs[:-1]).any())


@attrs.frozen(eq=False, slots=False)
class GridMaze:
    """A maze on a :class:`~lacak_mazes.grids.Grid`: its passages, by cell index.

    Made by a generator (``lacak.generate("maze", "wilson", (8, 8), grid="polar")``) or
    read from JSON (:meth:`from_json`). The constructor checks that every passage joins
    two neighbours of the grid, once, and that the endpoints and solution are cells
    (the solution a path through passages).
    """

    grid: Grid
    #: The passages, an ``n x 2`` array of cell indices, in the order they were made.
    links: np.ndarray = attrs.field(converter=_links)
    #: The start and end cells (indices), or ``None``.
    start: int | None = attrs.field(default=None, kw_only=True)
    end: int | None = attrs.field(default=None, kw_only=True)
    #: The path from start to end (indices), or ``None``.
    solution: tuple[int, ...] | None = attrs.field(default=None, kw_only=True,
                                                   converter=_cells)  # fmt: skip
    #: Passages that cross under a cell (a woven maze): ``n x 3`` cell indices
    #: ``(a, under, b)``, ``a`` and ``b`` two cells apart in a row or a column with
    #: ``under`` between them, a straight corridor across the tunnel. Empty by default.
    tunnels: np.ndarray = attrs.field(factory=lambda: _tunnels(()), kw_only=True,
                                      converter=lambda value: _tunnels(value))  # fmt: skip
    #: The cost to enter each cell (at least 1), or ``None`` (every step costs 1).
    weights: np.ndarray | None = attrs.field(default=None, kw_only=True, converter=_weights)
    algorithm: str = attrs.field(default="", kw_only=True)
    seed: int | None = attrs.field(default=None, kw_only=True)
    options: Mapping[str, Any] = attrs.field(factory=dict, kw_only=True,
                                             converter=_generator_options)  # fmt: skip

    kind = "maze"

    def __attrs_post_init__(self) -> None:
        size = self.grid.size
        links = self.links
        if links.size and (links.min() < 0 or links.max() >= size):
            raise lacak.InvalidPuzzleError(f"a link names a cell outside {self.grid.name}")
        if len(self.tunnels):  # (woven: the tunnels' check needs the passages as pairs)
            self._check_tunnels(self._check_links())
        elif not _links_fit(self.grid, links):
            self._check_links()  # says which passage is wrong
        for name in ("start", "end"):
            cell = getattr(self, name)
            if cell is not None and not (isinstance(cell, int) and 0 <= cell < size):
                raise lacak.InvalidPuzzleError(f"{name} {cell!r} is not a cell of {self.grid.name}")
        if self.weights is not None and len(self.weights) != size:
            raise lacak.InvalidPuzzleError(
                f"a maze's weights are one a cell: {size}, got {len(self.weights)}"
            )
        if self.solution is not None:
            self.check_path(self.solution, what="the solution")
        _check_text(self.algorithm, "algorithm")

    def _check_links(self) -> set[tuple[int, int]]:
        """The passages as pairs ``(low, high)``, one by one (:func:`_links_fit` checks
        them all at once).

        :raises InvalidPuzzleError: the first passage that joins two cells that are not
            neighbours, or that is listed twice."""
        seen = set()
        neighbours = self.grid.neighbours
        for a, b in self.links.tolist():
            if b not in neighbours[a]:
                raise lacak.InvalidPuzzleError(
                    f"cells {list(self.grid.ids[a])} and {list(self.grid.ids[b])} are not "
                    f"neighbours in {self.grid.name}: no passage can join them"
                )
            key = (a, b) if a < b else (b, a)
            if key in seen:
                raise lacak.InvalidPuzzleError(
                    f"the passage {list(self.grid.ids[a])}-{list(self.grid.ids[b])} is listed twice"
                )
            seen.add(key)
        return seen

    def _check_tunnels(self, links: set[tuple[int, int]]) -> None:
        """:raises InvalidPuzzleError: a tunnel that is not two cells apart in a row or a
        column of a rectangle, under a cell that is not a straight corridor across it, or
        a second tunnel under the same cell."""
        grid = self.grid
        if grid.type != "rect":
            raise lacak.InvalidPuzzleError(
                f"passages cross under cells only on rectangles, not on {grid.name}"
            )
        size, ids = grid.size, grid.ids
        under_seen = set()
        ends = {c for a, _u, b in self.tunnels.tolist() for c in (a, b)}
        for a, under, b in self.tunnels.tolist():
            if not all(0 <= c < size for c in (a, under, b)):
                raise lacak.InvalidPuzzleError(f"a tunnel names a cell outside {grid.name}")
            (ra, ca), (ru, cu), (rb, cb) = ids[a], ids[under], ids[b]
            straight = (ra == ru == rb and abs(ca - cb) == 2 and cu * 2 == ca + cb) or (
                ca == cu == cb and abs(ra - rb) == 2 and ru * 2 == ra + rb)  # fmt: skip
            if not straight:
                raise lacak.InvalidPuzzleError(
                    f"the tunnel {list(ids[a])}-{list(ids[b])} does not pass straight under "
                    f"{list(ids[under])}"
                )
            across = [c for c in grid.neighbours[under] if c not in (a, b)
                      and ((under, c) if under < c else (c, under)) in links]  # fmt: skip
            joined = [c for c in grid.neighbours[under]
                      if ((under, c) if under < c else (c, under)) in links]  # fmt: skip
            if len(across) != 2 or len(joined) != 2 or under in under_seen or under in ends:
                raise lacak.InvalidPuzzleError(
                    f"the cell {list(ids[under])} a tunnel passes under must be a straight "
                    "corridor across it, with no other tunnel under it"
                )
            under_seen.add(under)

    @property
    def under(self) -> frozenset[int]:
        """The cells a tunnel passes under."""
        return frozenset(self.tunnels[:, 1].tolist())

    # -- structure ----------------------------------------------------------------------

    @property
    def size(self) -> int:
        """The number of cells."""
        return self.grid.size

    @property
    def height(self) -> int:
        """The grid's rows (a polar grid's rings)."""
        return self.grid.rows

    @property
    def width(self) -> int:
        """The grid's columns (a polar grid's rings)."""
        return self.grid.cols

    @property
    def passages(self) -> int:
        """How many passages the maze has: its links and its tunnels."""
        return len(self.links) + len(self.tunnels)

    def adjacency(self) -> list[list[int]]:
        """Each cell's open neighbours, in the grid's (clockwise) order (made once; do
        not change it)."""
        return self._open

    @functools.cached_property
    def _open(self) -> list[list[int]]:
        open_ = set()
        for a, b in self.links.tolist():
            open_.add((a, b))
            open_.add((b, a))
        adjacency = [[b for b in around if (a, b) in open_]
                     for a, around in enumerate(self.grid.neighbours)]  # fmt: skip
        for a, _under, b in self.tunnels.tolist():
            adjacency[a].append(b)
            adjacency[b].append(a)
        return adjacency

    def degrees(self) -> np.ndarray:
        """How many passages leave each cell."""
        ends = np.concatenate([self.links.ravel(), self.tunnels[:, [0, 2]].ravel()])
        return np.bincount(ends, minlength=self.size)

    def components(self) -> int:
        """How many separate regions the passages leave."""
        seen = bytearray(self.size)
        adjacency = self.adjacency()
        count = 0
        for first in range(self.size):
            if seen[first]:
                continue
            count += 1
            seen[first] = 1
            stack = [first]
            while stack:
                for there in adjacency[stack.pop()]:
                    if not seen[there]:
                        seen[there] = 1
                        stack.append(there)
        return count

    def loops(self) -> int:
        """The number of independent loops: passages beyond a spanning forest's."""
        return self.passages - self.size + self.components()

    def is_perfect(self) -> bool:
        """Whether exactly one path joins any two cells (a spanning tree)."""
        return self.passages == self.size - 1 and self.components() == 1

    def validate_perfect(self) -> None:
        """:raises InvalidPuzzleError: the maze is not a spanning tree (says why)."""
        regions = self.components()
        if regions != 1:
            raise lacak.InvalidPuzzleError(f"the maze is in {regions} separate regions, not one")
        if self.passages != self.size - 1:
            raise lacak.InvalidPuzzleError(f"the maze has {self.loops()} loops: not a perfect maze")

    def check_path(self, path: Sequence[int], *, what: str = "the path") -> None:
        """:raises InvalidPuzzleError: ``path`` is empty, or a step goes through a wall."""
        if not path:
            raise lacak.InvalidPuzzleError(f"{what} has no cells")
        adjacency = self.adjacency()
        for step, (a, b) in enumerate(itertools.pairwise(path)):
            if not (0 <= a < self.size and 0 <= b < self.size) or b not in adjacency[a]:
                raise lacak.InvalidPuzzleError(f"step {step} of {what} goes through a wall")

    # -- paths --------------------------------------------------------------------------

    def _reach(self, start: int) -> tuple[list[int], list[int]]:
        """Breadth-first from ``start``: the cells in the order reached, and each one's parent."""
        parent = [-2] * self.size
        parent[start] = -1
        order = [start]
        adjacency = self.adjacency()
        queue = deque(order)
        while queue:
            here = queue.popleft()
            for there in adjacency[here]:
                if parent[there] == -2:
                    parent[there] = here
                    order.append(there)
                    queue.append(there)
        return order, parent

    def path(self, start: int, end: int) -> tuple[int, ...]:
        """A path with the fewest steps from ``start`` to ``end``.

        :raises UnsolvableError: no path joins them.
        """
        _, parent = self._reach(start)
        if parent[end] == -2:
            raise lacak.UnsolvableError(
                f"no path joins {list(self.grid.ids[start])} and {list(self.grid.ids[end])}"
            )
        path = [end]
        while path[-1] != start:
            path.append(parent[path[-1]])
        return tuple(reversed(path))

    def with_endpoints(
        self, start: Any = None, end: Any = None, *, solution: bool = True
    ) -> GridMaze:
        """A copy with a start, an end (each a cell id or index; suggested when missing:
        the two ends of a longest shortest path, found by two breadth-first sweeps, exact
        on a perfect maze) and, by default, the solution between them."""
        first = None if start is None else self._cell(start, "start")
        last = None if end is None else self._cell(end, "end")
        if first is None and last is None:
            first = self._reach(0)[0][-1]
        if first is None:
            assert last is not None
            first = self._reach(last)[0][-1]
        if last is None:
            last = self._reach(first)[0][-1]
        path = self.path(first, last) if solution else None
        return attrs.evolve(self, start=first, end=last, solution=path)

    def with_solution(self, path: Iterable[Any]) -> GridMaze:
        """A copy whose solution is ``path`` (ids or indices; its ends become start and end)."""
        cells = tuple(self._cell(cell, f"step {k} of the solution") for k, cell in enumerate(path))
        if not cells:
            raise lacak.InvalidPuzzleError("a solution has at least one cell")
        return attrs.evolve(self, start=cells[0], end=cells[-1], solution=cells)

    def without_endpoints(self) -> GridMaze:
        return attrs.evolve(self, start=None, end=None, solution=None)

    def _cell(self, value: Any, what: str) -> int:
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            if not 0 <= int(value) < self.size:
                raise lacak.InvalidPuzzleError(f"{what} {value} is not a cell of {self.grid.name}")
            return int(value)
        return self.grid.cell_of(value, what)

    def puzzle(self, start: Any = None, end: Any = None) -> GridMazePuzzle:
        """This maze as a search problem from ``start`` to ``end`` (default: its own ends)."""
        return GridMazePuzzle.of(self, start, end)

    # -- other forms --------------------------------------------------------------------

    @classmethod
    def from_maze(cls, maze: Any) -> GridMaze:
        """The plain rectangle's bitmask :class:`~lacak_mazes.Maze` as a maze on a ``rect``
        grid (cells row by row, so a cell's index is ``row * cols + col``): the same
        passages (east ones, then south ones, by cell), ends, solution, generator, seed
        options and weights (by cell index).

        >>> import lacak
        >>> plain = lacak.generate("maze", "kruskal", (3, 4), seed=2).with_endpoints()
        >>> on_grid = GridMaze.from_maze(plain)
        >>> on_grid.grid.type, on_grid.passages == plain.passages, on_grid.to_maze() == plain
        ('rect', True, True)
        """
        from .grids import RectGrid  # (deferred: as the module's other imports of the maze code)

        height, width = maze.height, maze.width
        pairs = rect_links(maze.cells)

        def flat(cell: Any) -> int | None:
            return None if cell is None else int(cell[0]) * width + int(cell[1])

        solution = None if maze.solution is None else [flat(c) for c in maze.solution]
        weights = None if maze.weights is None else maze.weights.ravel()
        return cls(RectGrid(height, width), pairs, start=flat(maze.start),
                   end=flat(maze.end), solution=solution, algorithm=maze.algorithm,
                   seed=maze.seed, options=maze.options, weights=weights)  # fmt: skip

    def to_maze(self) -> Any:
        """This maze as the plain rectangle's bitmask :class:`~lacak_mazes.Maze` (the
        inverse of :meth:`from_maze`).

        :raises InvalidPuzzleError: the grid is not a plain, unmasked ``rect`` grid, or
            the maze has tunnels.
        """
        from ._common import E, N, S, W  # (deferred: as above)
        from .maze import Maze

        if self.grid.type != "rect" or self.grid.mask is not None:
            raise lacak.InvalidPuzzleError(
                f"only a maze on a plain rect grid is a bitmask Maze, not {self.grid.name}"
            )
        if len(self.tunnels):
            raise lacak.InvalidPuzzleError("a bitmask Maze has no tunnels: keep the GridMaze")
        width = self.grid.cols
        cells = np.zeros(self.size, dtype=np.uint8)
        for a, b in self.links.tolist():
            a, b = min(a, b), max(a, b)
            if b == a + width:  # (first: one column wide, a step south is also a + 1)
                cells[a] |= S
                cells[b] |= N
            else:
                cells[a] |= E
                cells[b] |= W
        ids = self.grid.ids

        def cell(i: int | None) -> Any:
            return None if i is None else tuple(ids[i])

        return Maze(cells.reshape(self.grid.rows, width), start=cell(self.start),
                    end=cell(self.end),
                    solution=None if self.solution is None else [ids[c] for c in self.solution],
                    algorithm=self.algorithm, seed=self.seed, options=self.options,
                    weights=None if self.weights is None
                    else self.weights.reshape(self.grid.rows, width))  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """The JSON object (see the module's documentation and ``docs/mazes.md``)."""
        return graph_dict(self.grid.to_dict(), self.grid.ids, self.links, tunnels=self.tunnels,
                          start=self.start, end=self.end, solution=self.solution,
                          weights=self.weights, algorithm=self.algorithm, seed=self.seed,
                          options=self.options)  # fmt: skip

    def to_json(self) -> str:
        """The JSON text, compact: one key a line."""
        return graph_text(self.to_dict())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GridMaze:
        """The maze of a JSON object (see :meth:`to_dict`).

        :raises InvalidPuzzleError: a missing or malformed field, a cell list that is not
            the grid's, a passage between cells that are not neighbours.
        """
        if not isinstance(data, Mapping):
            raise lacak.InvalidPuzzleError("a maze is a JSON object")
        grid = grid_from_dict(data.get("grid"))
        cells = data.get("cells")
        if cells is not None:
            try:
                listed = [tuple(int(v) for v in cell) for cell in cells]
            except (TypeError, ValueError):
                raise lacak.InvalidPuzzleError("a maze's cells are lists of integers") from None
            if listed != list(grid.ids):
                raise lacak.InvalidPuzzleError(
                    f'the maze\'s "cells" are not those of {grid.name}, in its order'
                )
        if "links" not in data:
            raise lacak.InvalidPuzzleError('a maze on a grid needs its "links"')
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise lacak.InvalidPuzzleError(f"seed must be an integer or null, got {seed!r}")
        maze = cls(
            grid,
            _indices(grid, data["links"], 2, "links"),
            tunnels=_indices(grid, data.get("tunnels") or (), 3, "tunnels"),
            weights=data.get("weights"),
            algorithm=data.get("algorithm") or "",
            seed=seed,
            options=data.get("options") or {},
        )
        solution = data.get("solution")
        if solution is not None:
            maze = maze.with_solution(solution)
        start, end = data.get("start"), data.get("end")
        if start is not None or end is not None:
            maze = attrs.evolve(
                maze,
                start=None if start is None else maze._cell(start, "start"),
                end=None if end is None else maze._cell(end, "end"),
            )
        return maze

    @classmethod
    def from_json(cls, text: str | bytes) -> GridMaze:
        """The maze of JSON text (see :meth:`to_dict`)."""
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError) as error:
            raise lacak.InvalidPuzzleError(f"not JSON: {error}") from None
        return cls.from_dict(data)

    def render(self, format: str = "text", **options: Any) -> str | bytes:
        """A picture: ``"text"``, ``"svg"``, ``"png"`` or ``"json"`` (see
        :func:`lacak_mazes.gridrender.render_grid_maze`)."""
        from .gridrender import render_grid_maze  # (deferred: Pillow and drawing)

        return render_grid_maze(self, format, **options)

    def geometry(self) -> dict[str, Any]:
        """The grid's cells as shapes, for a page that draws the maze itself (the maze page
        of ``lacak serve``): see :func:`lacak_mazes.geometry.grid_geometry`; a woven maze
        adds ``"bridges"``, the lines its pictures draw where a tunnel passes under a cell
        (each ``[x, y, x, y]``)."""
        from .geometry import grid_geometry  # (deferred: only pages ask)

        shapes = grid_geometry(self.grid)
        if len(self.tunnels):
            from .gridrender import _bridges  # (deferred: as above)

            lines = [[round(v, 3) for point in line for v in point] for line in _bridges(self)]
            shapes = {**shapes, "bridges": lines}
        return shapes

    def stats(self) -> dict[str, Any]:
        """Texture statistics: cells, passages, loops, dead ends (count and share),
        junctions, the solution's length when there is one, and what a braid did
        (:func:`~lacak_mazes.braid.braid_report`)."""
        degrees = self.degrees()
        data: dict[str, Any] = {
            "grid": self.grid.type,
            "cells": self.size,
            "passages": self.passages,
            "loops": self.loops(),
            "crossings": len(self.tunnels),
            "perfect": self.is_perfect(),
            "dead_ends": int((degrees == 1).sum()),
            "dead_end_share": float((degrees == 1).mean()),
            "junctions": int((degrees >= 3).sum()),
        }
        if self.solution is not None:
            data["solution_cells"] = len(self.solution)
        braided = braid_report(self, data["dead_ends"])
        if braided is not None:
            data["braid"] = braided
        return data

    # -- identity -----------------------------------------------------------------------

    def _key(self) -> tuple[Any, ...]:
        weights = None if self.weights is None else self.weights.tobytes()
        return (self.grid, self.links.tobytes(), self.tunnels.tobytes(), self.start, self.end, self.solution, weights,
                self.algorithm, self.seed, tuple(self.options.items()))  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GridMaze):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        extra = f", seed={self.seed}" if self.seed is not None else ""
        return f"<GridMaze {self.grid.name} {self.algorithm or 'maze'}{extra}>"

    def __str__(self) -> str:
        return str(self.render("text"))

    def _repr_svg_(self) -> str:
        return str(self.render("svg"))


@attrs.frozen
class GridMazePuzzle:
    """Find the way through a :class:`GridMaze` from ``initial`` to ``goal`` (cell
    indices). A step into a cell costs its weight (1 without weights)."""

    maze: GridMaze
    initial: int
    goal: int

    kind = "maze"

    @classmethod
    def of(cls, maze: GridMaze, start: Any = None, end: Any = None) -> GridMazePuzzle:
        """The puzzle of ``maze`` from ``start`` to ``end`` (ids, ``"ROW,COL"`` text or
        indices); each defaults to the maze's own, else to the ends of a longest path."""
        first = maze.start if start is None else maze._cell(start, "start")
        last = maze.end if end is None else maze._cell(end, "end")
        if first is None or last is None:
            suggested = maze.with_endpoints(first, last, solution=False)
            first, last = suggested.start, suggested.end
        assert first is not None and last is not None
        return cls(maze, first, last)

    @classmethod
    def from_json(cls, text: str | bytes, *, start: Any = None, end: Any = None) -> GridMazePuzzle:
        return cls.of(GridMaze.from_json(text), start, end)

    def is_goal(self, state: Hashable) -> bool:
        return state == self.goal

    def successors(self, state: int) -> Iterator[tuple[str, int, float]]:
        """``(the next cell's id as text, next cell, its weight)`` for every passage out."""
        weights = self.maze.weights
        for there in self.maze.adjacency()[state]:
            cost = 1.0 if weights is None else float(weights[there])
            yield self.format_state(there), there, cost

    def predecessors(self, state: int) -> Iterator[tuple[str, int, float]]:
        """The steps into ``state``: from each open neighbour, costing ``state``'s weight."""
        weights = self.maze.weights
        cost = 1.0 if weights is None else float(weights[state])
        for there in self.maze.adjacency()[state]:
            yield self.format_state(state), there, cost

    def format_state(self, state: int) -> str:
        """A cell as written on the command line: its id, ``"2,5"``."""
        return ",".join(map(str, self.maze.grid.ids[state]))

    def estimate(self, state: int) -> float:
        """A lower bound on the cost from ``state`` to the goal (the grid's
        :meth:`~lacak_mazes.grids.Grid.distance`; admissible and consistent, as every
        step costs at least 1)."""
        return self.maze.grid.distance(state, self.goal)

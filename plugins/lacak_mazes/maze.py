"""The :class:`Maze`: a grid of open-side bitmasks, its endpoints and solution, and JSON;
and :class:`MazePuzzle`, a maze as a search problem.

A maze of ``height x width`` cells stores one byte per cell, a bitmask of the
sides that are open (``N=1, E=2, S=4, W=8``: a bit is set when that side is a
passage). A valid maze has two-sided passages (if a cell is open to the east,
its east neighbour is open to the west) that never lead out of the grid; a
*perfect* maze is also a spanning tree: connected, with ``cells - 1``
passages, so exactly one path joins any two cells.

>>> from lacak_mazes import Maze
>>> maze = Maze.from_rows([[2, 12], [0, 1]])   # (0,0)-(0,1), (0,1)-(1,1); (1,0) cut off
>>> maze.passages, maze.is_perfect()
(2, False)
>>> Maze.from_rows([[6, 12], [1, 1]]).is_perfect()
True

The two classes live in one module because each makes the other
(:meth:`Maze.puzzle`, :meth:`MazePuzzle.from_json`); :mod:`lacak_mazes.puzzle` is
where :class:`MazePuzzle` is documented as a search problem.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs
import lacak
import numpy as np

from ._common import BIT, DIRECTIONS, DX, DY, OPPOSITE, E, N, S, W, is_integer
from .breadth_first import reach
from .carving import Carving
from .fields import check_text as _check_text
from .fields import generator_options as _generator_options
from .fields import readonly_cells as _readonly_cells
from .fields import weight_rows as _weight_rows
from .graph_json import graph_dict, graph_text, rect_links
from .render import render as render_maze
from .render import render_text
from .stats import maze_stats

__all__ = ["Cell", "Maze", "MazePuzzle"]

Cell = tuple[int, int]

#: Number of open sides of each bitmask.
POPCOUNT = tuple(bin(mask).count("1") for mask in range(16))


def _as_cell(value: Any, what: str = "a cell") -> Cell:
    """``value`` as a ``(row, col)`` pair of ints; whole numbers only (``0.7`` is not a row).

    :raises InvalidPuzzleError: not a pair of integers.
    """
    if not _is_cell(value):
        raise lacak.InvalidPuzzleError(f"{what} is [row, col] (two integers), got {value!r}")
    return (int(value[0]), int(value[1]))


def _start_or_none(value: Any) -> Cell | None:
    return None if value is None else _as_cell(value, "start")


def _end_or_none(value: Any) -> Cell | None:
    return None if value is None else _as_cell(value, "end")


def _path_or_none(value: Any) -> tuple[Cell, ...] | None:
    if value is None:
        return None
    return _as_path(value, "a solution")


def _as_path(value: Any, what: str) -> tuple[Cell, ...]:
    """``value`` as a tuple of cells.

    :raises InvalidPuzzleError: not a sequence of ``(row, col)`` pairs of integers.
    """
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise lacak.InvalidPuzzleError(f"{what} is a list of [row, col] cells, got {value!r}")
    if isinstance(value, tuple) and _plain_cells(value):
        return value  # already what it would become (every path lacak makes itself)
    return tuple(_as_cell(item, f"step {step} of {what}") for step, item in enumerate(value))


def _plain_cells(cells: tuple[Any, ...]) -> bool:
    """Whether every item of ``cells`` is a ``(row, col)`` tuple of two ``int`` (no
    ``bool``): a cell as :func:`_as_cell` gives it, so taken as it is (the fast path of
    :func:`_as_path`). Checked a column at a time by built-in loops (a maze's solution is
    checked each time the maze is made)."""
    if set(map(type, cells)) - {tuple} or set(map(len, cells)) - {2}:
        return False
    if not cells:
        return True
    rows, cols = zip(*cells, strict=True)
    return not set(map(type, rows)) - {int} and not set(map(type, cols)) - {int}


#: Cells (or rows) of work between two looks at the running budget's deadline.
CHECK_EVERY = 1 << 16


def _time_check(what: str) -> Callable[[], None] | None:
    """``check()`` raising :class:`lacak.LimitReachedError` once the deadline of the work
    running now has passed, or ``None`` when there is no deadline.

    A command that loads a maze under ``--timeout`` runs it inside ``with
    budget:`` (see :func:`lacak.current_deadline`); large mazes take seconds to
    read and to search for their longest path, so that work checks the time.
    """
    if lacak.current_deadline() is None:
        return None
    return functools.partial(lacak.check_deadline, what)


@attrs.frozen(eq=False, repr=False)
class Maze:
    """A rectangular maze, immutable.

    Build one with a generator (``lacak.generate("maze", "wilson", (10, 20), seed=1)``),
    from JSON (:meth:`from_json`), or from rows of bitmasks (:meth:`from_rows`).
    The constructor checks every invariant and raises
    :class:`~lacak.InvalidPuzzleError` with the first offending cell.
    """

    #: The open-side bitmasks, ``height x width``, as a read-only ``numpy.uint8`` array.
    cells: np.ndarray = attrs.field(converter=_readonly_cells)
    #: Suggested or chosen start cell ``(row, col)``, or ``None``.
    start: Cell | None = attrs.field(default=None, kw_only=True, converter=_start_or_none)
    #: End cell ``(row, col)``, or ``None``.
    end: Cell | None = attrs.field(default=None, kw_only=True, converter=_end_or_none)
    #: The path from ``start`` to ``end`` (both included), or ``None``.
    solution: tuple[Cell, ...] | None = attrs.field(
        default=None, kw_only=True, converter=_path_or_none
    )
    #: Name of the generator that made it (``""`` if unknown).
    algorithm: str = attrs.field(default="", kw_only=True)
    #: The seed it was generated from, or ``None``.
    seed: int | None = attrs.field(default=None, kw_only=True)
    #: The generator options it was made with, besides the defaults (``{"hunt":
    #: "columns"}``): with :attr:`algorithm`, the size and :attr:`seed`, what makes it
    #: again (``lacak maze generate --from FILE``). Read-only, in name order.
    options: Mapping[str, Any] = attrs.field(factory=dict, kw_only=True,
                                             converter=_generator_options)  # fmt: skip
    #: The order its generator made it in, when asked for (the generator option
    #: ``carving=True``), else ``None``: a :class:`~lacak_mazes.carving.Carving`.
    #: How the maze was made, not what it is: equality ignores it.
    carving: Carving | None = attrs.field(default=None, kw_only=True)
    #: The cost to enter each cell (``height x width``, numbers of at least 1, read-only),
    #: or ``None``: every step costs 1. Set by the generators' ``weights`` option
    #: (:mod:`lacak_mazes.weights`); the JSON has ``"weights"`` rows only then.
    weights: np.ndarray | None = attrs.field(default=None, kw_only=True,
                                             converter=lambda value: _weight_rows(value))  # fmt: skip

    kind = "maze"

    def __attrs_post_init__(self) -> None:
        self._check_cells()
        for name in ("start", "end"):
            cell = getattr(self, name)
            if cell is not None and not self.contains(cell):
                raise lacak.InvalidPuzzleError(
                    f"{name} {list(cell)} is outside the {self.height}x{self.width} maze"
                )
        if self.solution is not None:
            self._check_solution(self.solution)
        if self.weights is not None and self.weights.shape != self.cells.shape:
            raise lacak.InvalidPuzzleError(
                f"a maze's weights are one a cell: {self.height} rows of {self.width}, got "
                f"{'x'.join(map(str, self.weights.shape))}"
            )
        _check_text(self.algorithm, "algorithm")
        if self.seed is not None and (
            isinstance(self.seed, bool) or not isinstance(self.seed, int)
        ):
            raise lacak.InvalidPuzzleError(f"seed must be an integer or null, got {self.seed!r}")
        if self.carving is not None:
            if not isinstance(self.carving, Carving):
                raise lacak.InvalidPuzzleError(
                    f"a maze's carving is a Carving or None, got {type(self.carving).__name__}"
                )
            self.carving.check(self.cells)

    # -- construction ------------------------------------------------------------

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]], **fields: Any) -> Maze:
        """A maze from rows of bitmasks (lists of ints 0-15).

        :param fields: ``start``, ``end``, ``solution``, ``algorithm``, ``seed``, ``carving``.
        :raises InvalidPuzzleError: a ragged grid, a bad bitmask or a broken passage.
        """
        if isinstance(rows, np.ndarray):
            return cls(rows, **fields)
        if not isinstance(rows, Sequence) or isinstance(rows, (str, bytes)) or not rows:
            raise lacak.InvalidPuzzleError("maze cells must be a non-empty list of rows")
        width = None
        check = _time_check("reading the maze")
        every = max(1, CHECK_EVERY // max(1, len(rows[0]) if isinstance(rows[0], Sequence) else 1))
        for number, row in enumerate(rows):
            if check is not None and number and not number % every:  # between chunks
                check()
            if not isinstance(row, Sequence) or isinstance(row, (str, bytes)):
                raise lacak.InvalidPuzzleError(f"row {number} of the maze cells is not a list")
            if width is None:
                width = len(row)
            elif len(row) != width:
                raise lacak.InvalidPuzzleError(
                    f"row {number} of the maze cells has {len(row)} cells, row 0 has {width}"
                )
            if row and set(map(type, row)) == {int} and min(row) >= 0 and max(row) <= 15:
                continue  # the usual case, checked in C (a 4096x4096 maze has 16 M cells)
            for col, value in enumerate(row):
                if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 15:
                    raise lacak.InvalidPuzzleError(
                        f"cell [{number}, {col}] must be a bitmask 0-15 (N=1, E=2, S=4, W=8), "
                        f"got {value!r}"
                    )
        return cls(np.array(rows, dtype=np.uint8), **fields)

    @classmethod
    def from_edges(cls, east: np.ndarray, south: np.ndarray, **fields: Any) -> Maze:
        """A maze from passage arrays.

        :param east: ``height x width`` booleans; ``east[r, c]`` opens ``(r, c)``-``(r, c+1)``
            (the last column is ignored).
        :param south: ``height x width`` booleans; ``south[r, c]`` opens ``(r, c)``-``(r+1, c)``
            (the last row is ignored).
        """
        east = np.asarray(east, dtype=bool)
        south = np.asarray(south, dtype=bool)
        cells = np.zeros(east.shape, dtype=np.uint8)
        e = east[:, :-1]
        s = south[:-1, :]
        cells[:, :-1] |= e * np.uint8(E)
        cells[:, 1:] |= e * np.uint8(W)
        cells[:-1, :] |= s * np.uint8(S)
        cells[1:, :] |= s * np.uint8(N)
        return cls(cells, **fields)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Maze:
        """A maze from the JSON object :meth:`to_dict` writes (see ``docs/mazes.md``).

        :raises InvalidPuzzleError: a missing or malformed field, a broken passage, an
            endpoint outside the grid, or a solution that is not a path from start to end.
        """
        if not isinstance(data, Mapping):
            raise lacak.InvalidPuzzleError(f"a maze is a JSON object, got {type(data).__name__}")
        if "cells" not in data:
            raise lacak.InvalidPuzzleError("maze JSON has no 'cells'")
        rows = data["cells"]
        maze_fields: dict[str, Any] = {}
        for key in ("start", "end"):
            value = data.get(key)
            if value is not None and not _is_cell(value):
                raise lacak.InvalidPuzzleError(
                    f"maze {key!r} must be [row, col] or null, got {value!r}"
                )
            maze_fields[key] = value
        solution = data.get("solution")
        if solution is not None:
            if not isinstance(solution, list) or not all(_is_cell(c) for c in solution):
                raise lacak.InvalidPuzzleError(
                    "maze 'solution' must be a list of [row, col] cells or null"
                )
            maze_fields["solution"] = solution
        algorithm = data.get("algorithm")
        if algorithm is None:
            algorithm = ""
        _check_text(algorithm, "maze 'algorithm'")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise lacak.InvalidPuzzleError(f"maze 'seed' must be an integer or null, got {seed!r}")
        if data.get("carving") is not None:
            maze_fields["carving"] = Carving.from_dict(data["carving"])
        if data.get("weights") is not None:
            maze_fields["weights"] = data["weights"]
        maze_fields["options"] = data.get("options")
        maze = cls.from_rows(rows, algorithm=algorithm, seed=seed, **maze_fields)
        for key, actual in (("height", maze.height), ("width", maze.width)):
            declared = data.get(key, actual)
            if isinstance(declared, bool) or not isinstance(declared, int) or declared != actual:
                raise lacak.InvalidPuzzleError(
                    f"maze {key!r} is {declared!r} but 'cells' has {actual} "
                    f"{'rows' if key == 'height' else 'columns'}"
                )
        return maze

    @classmethod
    def from_json(cls, text: str | bytes) -> Maze:
        """Read a maze from its JSON text (the schema of :meth:`to_dict`).

        :raises InvalidPuzzleError: the text is not JSON (or not ``str``/``bytes``), or
            not a valid maze.
        """
        if not isinstance(text, (str, bytes, bytearray)):
            raise lacak.InvalidPuzzleError(
                f"maze JSON is text (str or bytes), not {type(text).__name__}"
            )
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise lacak.InvalidPuzzleError(
                f"maze JSON is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
            ) from None
        except (TypeError, UnicodeDecodeError) as error:
            raise lacak.InvalidPuzzleError(f"maze JSON could not be read: {error}") from None
        except RecursionError:
            raise lacak.InvalidPuzzleError(
                "maze JSON could not be read: its lists or objects are nested too deeply"
            ) from None
        except ValueError:
            # Python refuses to convert integers of more than 4,300 digits
            raise lacak.InvalidPuzzleError(
                "maze JSON could not be read: it holds a number with too many digits"
            ) from None
        return cls.from_dict(data)

    # -- checks ------------------------------------------------------------------

    def _check_cells(self) -> None:
        cells = self.cells
        bad = cells > 15
        if bad.any():
            r, c = np.argwhere(bad)[0]
            raise lacak.InvalidPuzzleError(
                f"cell [{r}, {c}] must be a bitmask 0-15 (N=1, E=2, S=4, W=8), got {cells[r, c]}"
            )
        edges = (
            ("north", cells[0, :], N, lambda i: (0, i)),
            ("south", cells[-1, :], S, lambda i: (self.height - 1, i)),
            ("west", cells[:, 0], W, lambda i: (i, 0)),
            ("east", cells[:, -1], E, lambda i: (i, self.width - 1)),
        )
        for name, line, bit, where in edges:
            out = (line & bit) != 0
            if out.any():
                r, c = where(int(np.argmax(out)))
                raise lacak.InvalidPuzzleError(
                    f"cell [{r}, {c}] has a passage {name} out of the grid"
                )
        # every passage is open from both sides: east/west between columns, south/north
        # between rows
        for ahead, behind, (dr, dc), there, back in (
            ("east", "west", (0, 1), (cells[:, :-1] & E) != 0, (cells[:, 1:] & W) != 0),
            ("south", "north", (1, 0), (cells[:-1, :] & S) != 0, (cells[1:, :] & N) != 0),
        ):
            if (there != back).any():
                r, c = np.argwhere(there != back)[0]
                first, second = f"cell [{r}, {c}]", f"cell [{r + dr}, {c + dc}]"
                if there[r, c]:
                    raise lacak.InvalidPuzzleError(
                        f"{first} is open to the {ahead} but {second} is not open to the {behind}"
                    )
                raise lacak.InvalidPuzzleError(
                    f"{second} is open to the {behind} but {first} is not open to the {ahead}"
                )

    def _check_solution(self, path: Sequence[Cell]) -> None:
        if self.start is None or self.end is None:
            raise lacak.InvalidPuzzleError("a maze with a solution needs a start and an end")
        if not path or path[0] != self.start or path[-1] != self.end:
            raise lacak.InvalidPuzzleError(
                f"the solution must run from start {list(self.start)} to end {list(self.end)}"
            )
        self._check_steps(tuple(path), "the solution")  # (cells already: the field's)

    def check_path(self, path: Sequence[Cell], *, what: str = "the path") -> None:
        """Check that consecutive cells of ``path`` are joined by passages.

        :raises InvalidPuzzleError: a step that is not a ``(row, col)`` pair of integers, a
            cell outside the grid, or a step through a wall.
        """
        self._check_steps(_as_path(path, what), what)

    def _check_steps(self, steps: tuple[Cell, ...], what: str) -> None:
        """:meth:`check_path` of ``steps``, cells already (:func:`_as_path`'s)."""
        if not steps:
            return
        check = _time_check(f"checking {what}")
        if check is not None:
            check()
        # every step at once: inside the grid, then one cell on through an open side

        try:
            at = np.array(steps, dtype=np.int64).reshape(-1, 2)
        except OverflowError:  # a row or column past int64: outside the grid anyway
            at = np.array([[max(-1, min(v, 1 << 62)) for v in cell] for cell in steps],
                          dtype=np.int64)  # fmt: skip
        rows, cols = at[:, 0], at[:, 1]
        outside = (rows < 0) | (rows >= self.height) | (cols < 0) | (cols >= self.width)
        if outside.any():
            step = int(np.argmax(outside))
            raise lacak.InvalidPuzzleError(
                f"{what} leaves the grid at step {step}: {list(steps[step])}"
            )
        if check is not None:
            check()
        down, right = np.diff(rows), np.diff(cols)
        near = (np.abs(down) <= 1) & (np.abs(right) <= 1)  # (a longer step is no step)
        move = np.where(near, (down + 1) * 3 + (right + 1), 4)  # 4: staying, no side
        bits = np.array(_STEP_BITS, dtype=np.uint8)[move]
        shut = (self.cells[rows[:-1], cols[:-1]] & bits) == 0
        if shut.any():
            step = int(np.argmax(shut)) + 1
            raise lacak.InvalidPuzzleError(
                f"{what} goes through a wall at step {step}: "
                f"{list(steps[step - 1])} to {list(steps[step])}"
            )

    def contains(self, cell: Cell) -> bool:
        """Whether ``cell`` is a ``(row, col)`` pair of integers inside the grid."""
        if not _is_cell(cell):
            return False
        row, col = cell
        return 0 <= row < self.height and 0 <= col < self.width

    def check_cell(self, cell: Any, what: str = "cell") -> Cell:
        """``cell`` as a ``(row, col)`` tuple inside the grid.

        :raises InvalidPuzzleError: not a pair of integers, or outside the grid.
        """
        if not _is_cell(cell):
            raise lacak.InvalidPuzzleError(f"{what} must be (row, col), got {cell!r}")
        row, col = int(cell[0]), int(cell[1])
        if not self.contains((row, col)):
            raise lacak.InvalidPuzzleError(
                f"{what} [{row}, {col}] is outside the {self.height}x{self.width} maze "
                f"(rows 0-{self.height - 1}, columns 0-{self.width - 1})"
            )
        return row, col

    # -- shape and passages ----------------------------------------------------

    @property
    def height(self) -> int:
        """Number of rows."""
        return int(self.cells.shape[0])

    @property
    def width(self) -> int:
        """Number of columns."""
        return int(self.cells.shape[1])

    @property
    def shape(self) -> tuple[int, int]:
        """``(height, width)``."""
        return self.height, self.width

    @property
    def size(self) -> int:
        """Number of cells."""
        return self.height * self.width

    @functools.cached_property
    def _bytes(self) -> bytes:
        return self.cells.tobytes()

    @functools.cached_property
    def passages(self) -> int:
        """Number of passages (open walls between two cells)."""
        table = np.array(POPCOUNT, dtype=np.int64)
        return int(table[self.cells].sum()) // 2

    def degrees(self) -> np.ndarray:
        """Number of open sides of every cell, as a ``height x width`` array."""
        return np.array(POPCOUNT, dtype=np.uint8)[self.cells]

    def is_open(self, cell: Cell, direction: str) -> bool:
        """Whether ``cell`` has a passage towards ``direction`` (``"N"``, ``"E"``, ``"S"``, ``"W"``).

        :raises InvalidPuzzleError: a cell outside the grid.
        :raises InvalidOptionError: a direction other than ``N``, ``E``, ``S``, ``W``.
        """
        row, col = self.check_cell(cell)
        if not isinstance(direction, str) or direction not in BIT:
            raise lacak.InvalidOptionError(f"a direction is one of N, E, S, W, got {direction!r}")
        return bool(self.cells[row, col] & BIT[direction])

    def neighbors(self, cell: Cell) -> list[tuple[str, Cell]]:
        """``(direction, cell)`` for each passage leaving ``cell``, in N, E, S, W order.

        :raises InvalidPuzzleError: a cell outside the grid.
        """
        row, col = self.check_cell(cell)
        mask = int(self.cells[row, col])
        return [
            (letter, (row + DY[bit], col + DX[bit]))
            for letter, bit in zip(DIRECTIONS, (N, E, S, W), strict=False)
            if mask & bit
        ]

    @functools.cached_property
    def _connected(self) -> bool:
        return len(reach(self._bytes, self.width, 0).queue) == self.size

    def is_connected(self) -> bool:
        """Whether every cell can be reached from every other."""
        return self._connected

    def is_perfect(self) -> bool:
        """Whether exactly one path joins any two cells (a spanning tree of the grid)."""
        return self.passages == self.size - 1 and self._connected

    def validate_perfect(self) -> None:
        """Raise unless the maze is perfect.

        :raises InvalidPuzzleError: naming the passage count or the cut-off cell.
        """
        if self.passages != self.size - 1 and self.passages >= self.size:
            raise lacak.InvalidPuzzleError(
                f"the maze has {self.passages} passages for {self.size} cells, so it has loops "
                f"(a perfect maze has {self.size - 1})"
            )
        search = reach(self._bytes, self.width, 0, what="checking the maze")
        if len(search.queue) != self.size:
            first = search.came.find(0)  # a cell not reached
            raise lacak.InvalidPuzzleError(
                f"the maze is not connected: cell {list(divmod(first, self.width))} "
                f"cannot be reached from [0, 0]"
            )
        if self.passages != self.size - 1:  # pragma: no cover - connected needs >= size - 1
            raise lacak.InvalidPuzzleError("the maze is not a spanning tree")

    # -- paths and endpoints -----------------------------------------------------

    def _flat(self, cell: Cell) -> int:
        return cell[0] * self.width + cell[1]

    def _cell(self, index: int) -> Cell:
        return divmod(index, self.width)

    def path(self, start: Cell, end: Cell) -> tuple[Cell, ...]:
        """A shortest path from ``start`` to ``end`` (the only one in a perfect maze).

        :raises InvalidPuzzleError: an endpoint outside the grid.
        :raises UnsolvableError: no path joins them.
        """
        start = self.check_cell(start, "start")
        end = self.check_cell(end, "end")
        target = self._flat(end)
        search = reach(self._bytes, self.width, self._flat(start), target, what="finding a path")
        if not search.came[target]:
            raise lacak.UnsolvableError(f"no path joins {list(start)} and {list(end)} in this maze")
        width = self.width
        return tuple(divmod(i, width) for i in search.path(target))

    def farthest_pair(self) -> tuple[Cell, Cell]:
        """The two ends of a longest path: the diameter of the tree, by two breadth-first passes.

        Exact for perfect mazes; for others, the pair the double sweep finds in the
        part of the maze reachable from ``[0, 0]``. The returned start is the
        endpoint that comes first row by row.
        """
        start, end, _path = self._longest()
        return start, end

    def _longest(self) -> tuple[Cell, Cell, tuple[Cell, ...] | None]:
        """:meth:`farthest_pair`, and the path between them when the second pass gave
        it as :meth:`path` would (it started at the start), else ``None``."""
        what = "finding the ends of the longest path"
        a = reach(self._bytes, self.width, 0, what=what).queue[-1]
        search = reach(self._bytes, self.width, a, what=what)
        b = search.queue[-1]
        width = self.width
        path = tuple(divmod(i, width) for i in search.path(b)) if a <= b else None
        a, b = min(a, b), max(a, b)
        return self._cell(a), self._cell(b), path

    def with_endpoints(
        self, start: Cell | None = None, end: Cell | None = None, *, solution: bool = True
    ) -> Maze:
        """A copy with a start, an end and (by default) the solution between them.

        Missing endpoints are suggested: both ends of the longest path (the
        diameter), or, when only one is given, the cell farthest from it.

        :raises InvalidPuzzleError: an endpoint outside the grid.
        :raises UnsolvableError: no path joins the endpoints (a maze that is not connected).
        """
        if start is not None:
            start = self.check_cell(start, "start")
        if end is not None:
            end = self.check_cell(end, "end")
        path = None
        if start is None and end is None:
            start, end, path = self._longest()
        elif start is None or end is None:
            given = start if start is not None else end
            assert given is not None
            search = reach(
                self._bytes, self.width, self._flat(given), what="finding the farthest cell"
            )
            other = self._cell(search.queue[-1])
            start, end = (given, other) if start is not None else (other, given)
        if not solution:
            path = None
        elif path is None:
            path = self.path(start, end)
        return attrs.evolve(self, start=start, end=end, solution=path)

    def with_solution(self, path: Iterable[Cell]) -> Maze:
        """A copy whose solution is ``path`` (its ends become start and end).

        :raises InvalidPuzzleError: ``path`` is empty, holds something other than
            ``(row, col)`` pairs of integers, or goes through a wall.
        """
        cells = _as_path(path, "a solution")
        if not cells:
            raise lacak.InvalidPuzzleError("a solution has at least one cell")
        return attrs.evolve(self, start=cells[0], end=cells[-1], solution=cells)

    def without_endpoints(self) -> Maze:
        """A copy with no start, end or solution."""
        return attrs.evolve(self, start=None, end=None, solution=None)

    def puzzle(self, start: Cell | None = None, end: Cell | None = None) -> MazePuzzle:
        """This maze as a search problem from ``start`` to ``end`` (default: its own endpoints).

        >>> import lacak
        >>> maze = lacak.generate("maze", "kruskal", (4, 4), seed=2).with_endpoints()
        >>> lacak.solve(maze.puzzle(), "tree-path").length == len(maze.solution) - 1
        True

        :raises InvalidPuzzleError: no endpoint given and the maze has none.
        """
        return MazePuzzle.of(self, start, end)

    # -- other forms ----------------------------------------------------------------

    def to_dict(self, *, links: bool = False) -> dict[str, Any]:
        """The JSON object: ``height``, ``width``, ``algorithm``, ``seed``, ``options``, ``cells``,
        ``start``, ``end``, ``solution``, and ``carving`` only when the maze has one
        (see ``docs/mazes.md``).

        :param links: give the form every grid's maze has instead: ``grid``, ``cells``
            as ids ``[row, col]`` and ``links`` as pairs of them (what
            :meth:`GridMaze.to_dict <lacak_mazes.gridmaze.GridMaze.to_dict>` gives on a
            ``rect`` grid; ``lacak maze solve`` reads both).
        """
        if links:
            return self._graph_dict()
        data: dict[str, Any] = {
            "height": self.height,
            "width": self.width,
            "algorithm": self.algorithm,
            "seed": self.seed,
            "options": dict(self.options),
            "cells": self.cells.tolist(),
            "start": list(self.start) if self.start is not None else None,
            "end": list(self.end) if self.end is not None else None,
            "solution": [list(c) for c in self.solution] if self.solution is not None else None,
        }
        if self.carving is not None:
            data["carving"] = self.carving.to_dict()
        if self.weights is not None:
            data["weights"] = [[int(w) if w == int(w) else w for w in row]
                               for row in self.weights.tolist()]  # fmt: skip
        return data

    def _graph_dict(self) -> dict[str, Any]:
        width = self.width

        def flat(cell: Cell | None) -> int | None:
            return None if cell is None else cell[0] * width + cell[1]

        ids = [(row, col) for row in range(self.height) for col in range(width)]
        return graph_dict(
            {"type": "rect", "rows": self.height, "cols": width}, ids, rect_links(self.cells),
            start=flat(self.start), end=flat(self.end),
            solution=None if self.solution is None else [r * width + c for r, c in self.solution],
            weights=None if self.weights is None else self.weights.ravel(),
            algorithm=self.algorithm, seed=self.seed, options=self.options,
        )  # fmt: skip

    def to_json(self, *, links: bool = False) -> str:
        """The JSON text, one row of cells per line (``links``: the form every grid's maze
        has, see :meth:`to_dict`)."""
        if links:
            return graph_text(self._graph_dict())
        data = self.to_dict()
        rows = data.pop("cells")
        solution = data.pop("solution")
        head = {k: data[k] for k in ("height", "width", "algorithm", "seed", "options")}
        lines = ["{"]
        lines += [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
        lines.append('  "cells": [')
        lines += [
            "    " + json.dumps(row, separators=(",", ":")) + ("," if i < len(rows) - 1 else "")
            for i, row in enumerate(rows)
        ]
        lines.append("  ],")
        lines.append(f'  "start": {json.dumps(data["start"])},')
        lines.append(f'  "end": {json.dumps(data["end"])},')
        carving = data.pop("carving", None)
        weights = data.pop("weights", None)
        lines.append(
            f'  "solution": {json.dumps(solution, separators=(",", ":"))}'
            + ("," if carving is not None or weights is not None else "")
        )
        if carving is not None:
            lines.append(f'  "carving": {json.dumps(carving, separators=(",", ":"))}'
                         + ("," if weights is not None else ""))  # fmt: skip
        if weights is not None:
            lines.append('  "weights": [')
            lines += [
                "    " + json.dumps(row, separators=(",", ":")) + ("," if i < len(weights) - 1 else "")
                for i, row in enumerate(weights)
            ]
            lines.append("  ]")
        lines.append("}")
        return "\n".join(lines)

    def render(self, format: str = "text", **options: Any) -> str | bytes:
        """A picture: ``"text"`` (box drawing; ``ascii=True`` for ASCII), ``"svg"``,
        ``"png"`` (bytes) or ``"json"``. Options: see :func:`lacak_mazes.render.render`."""
        return render_maze(self, format, **options)

    def stats(self) -> dict[str, Any]:
        """Texture statistics; see :func:`lacak_mazes.stats.maze_stats`."""
        return maze_stats(self)

    # -- identity ---------------------------------------------------------------------

    def _key(self) -> tuple[Any, ...]:
        return (
            self.cells.shape,
            self._bytes,
            self.start,
            self.end,
            self.solution,
            self.algorithm,
            self.seed,
            tuple(self.options.items()),
            None if self.weights is None else self.weights.tobytes(),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Maze):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        extra = f", seed={self.seed}" if self.seed is not None else ""
        ends = f", start={self.start}, end={self.end}" if self.start is not None else ""
        return f"<Maze {self.height}x{self.width} {self.algorithm or 'maze'}{extra}{ends}>"

    def __str__(self) -> str:
        return render_text(self, unicode=True)

    def _repr_svg_(self) -> str:
        """The maze as a picture in Jupyter (with its ends and solution, if it has them)."""
        return str(self.render("svg"))


#: The sides of a cell, as ``(letter, bit)`` in ``N, E, S, W`` order, and each bit's letter.
_SIDES = tuple(zip(DIRECTIONS, (N, E, S, W), strict=False))
_LETTER = dict(zip((N, E, S, W), DIRECTIONS, strict=False))


@attrs.frozen
class MazePuzzle:
    """Find the way through a maze from ``initial`` to ``goal``.

    Build one with :meth:`of` or :meth:`Maze.puzzle` (both check the endpoints),
    or read one with :meth:`from_json` (``lacak.parse("maze", text)``).

    >>> import lacak
    >>> puzzle = lacak.parse("maze", '{"cells": [[2, 12], [2, 9]]}', start="1,0")
    >>> puzzle.initial, puzzle.goal, puzzle.format_state(puzzle.goal)
    ((1, 0), (0, 0), '0,0')
    """

    #: The maze.
    maze: Maze
    #: The start cell.
    initial: Cell
    #: The end cell.
    goal: Cell

    kind = "maze"

    @classmethod
    def of(cls, maze: Maze, start: Any = None, end: Any = None) -> MazePuzzle:
        """The puzzle of ``maze`` from ``start`` to ``end``; each defaults to the maze's own.

        :raises InvalidPuzzleError: a missing endpoint, or one outside the grid.
        """
        start = start if start is not None else maze.start
        end = end if end is not None else maze.end
        if start is None or end is None:
            raise lacak.InvalidPuzzleError(
                "the maze has no start and end: give them, or use maze.with_endpoints() "
                "for the ends of its longest path"
            )
        return cls(maze, maze.check_cell(start, "start"), maze.check_cell(end, "end"))

    @classmethod
    def from_json(cls, text: str | bytes, *, start: Any = None, end: Any = None) -> MazePuzzle:
        """The puzzle of the maze in JSON ``text`` (see :meth:`Maze.from_json`).

        Each endpoint is the one given, else the file's, else suggested: both
        ends of the longest path, or the cell farthest from the one end given
        (see :meth:`Maze.with_endpoints`). The maze itself is kept as read.

        :param start: ``(row, col)``, or text ``"ROW,COL"`` (as on the command line).
        :param end: the same.
        :raises InvalidPuzzleError: the text is not a maze, or an endpoint is outside it.
        :raises InvalidOptionError: an endpoint that is not ``ROW,COL``.

        Whether a path joins the ends is the search's to find out (a maze need not
        be connected); a suggested end is always one the other end reaches.
        """
        maze = Maze.from_json(text)
        first = maze.start if start is None else _endpoint(maze, start, "start")
        last = maze.end if end is None else _endpoint(maze, end, "end")
        if first is None or last is None:
            suggested = maze.with_endpoints(first, last, solution=False)
            first, last = suggested.start, suggested.end
        return cls.of(maze, first, last)

    def is_goal(self, state: Hashable) -> bool:
        return state == self.goal

    def successors(self, state: Cell) -> Iterator[tuple[str, Cell, float]]:
        """``(direction, next cell, cost)`` for every passage out of ``state``: the cost is
        the next cell's weight (1 without weights)."""
        row, col = state
        mask = int(self.maze.cells[row, col])
        weights = self.maze.weights
        for letter, bit in _SIDES:
            if mask & bit:
                there = (row + DY[bit], col + DX[bit])
                yield letter, there, 1.0 if weights is None else float(weights[there])

    def predecessors(self, state: Cell) -> Iterator[tuple[str, Cell, float]]:
        """``(direction, previous cell, 1)``: the step from the previous cell into ``state``."""
        row, col = state
        mask = int(self.maze.cells[row, col])
        cost = 1.0 if self.maze.weights is None else float(self.maze.weights[row, col])
        for _letter, bit in _SIDES:
            if mask & bit:
                yield _LETTER[OPPOSITE[bit]], (row + DY[bit], col + DX[bit]), cost

    def format_state(self, state: Cell) -> str:
        """A cell as written on the command line (``--start 2,5``): ``"2,5"``."""
        return f"{state[0]},{state[1]}"


def _endpoint(maze: Maze, value: Any, what: str) -> Cell:
    """``value`` (a ``ROW,COL`` text or a pair) as a cell inside ``maze``."""
    if isinstance(value, str):
        value = lacak.options.parse_cell(value, what=what)
    return maze.check_cell(value, what)


def _is_cell(value: Any) -> bool:
    """Whether ``value`` is a ``(row, col)`` pair of integers (a list, tuple or numpy pair)."""
    if type(value).__module__ == "numpy" and getattr(value, "shape", None) == (2,):
        value = value.tolist()
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        return False
    return all(is_integer(v) for v in value)


#: The side a step leaves its cell by, indexed by ``(drow + 1) * 3 + (dcol + 1)``
#: (0: not a step to a neighbour).
_STEP_BITS = (0, N, 0, W, 0, E, 0, S, 0)

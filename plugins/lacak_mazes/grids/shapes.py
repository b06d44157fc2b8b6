"""The grids lacak draws mazes on: the rectangle (plain, as a cylinder, as a torus),
hexagons, triangles, octagons with squares, and rings of cells.

The names are Walter Pullen's and Jamis Buck's (*Mazes for Programmers*,
chapters 7 and 8; his ``theseus``): *orthogonal* (the rectangle), *sigma*
(hexagons), *delta* (triangles), *upsilon* (octagons and squares) and *polar*
(rings). Coordinates are in cell units, ``y`` downwards; each cell's sides are
listed clockwise on the screen, starting where the drawing below says.

>>> from lacak_mazes.grids import HexGrid, PolarGrid
>>> HexGrid(3, 4).size, len(HexGrid(3, 4).neighbours[5])
(12, 6)
>>> [len(PolarGrid(4).ids_of_ring(r)) for r in range(4)]
[1, 6, 12, 24]
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import attrs
import lacak
import numpy as np

from .base import Flat, Grid, Layout, Point, Side

__all__ = [
    "CylinderGrid",
    "HexGrid",
    "PolarGrid",
    "RectGrid",
    "TorusGrid",
    "TriangleGrid",
    "UpsilonGrid",
]

SQRT3 = math.sqrt(3.0)


#: How many cells' neighbours :func:`_by_rows` works out at a time.
_PART = 1 << 15


def _by_rows(rows: int, cols: int, around: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Flat:
    """The flat grid of ``(row, col)`` cells, row by row, whose neighbours ``around(row,
    col)`` says (for arrays of cells, ``-1`` where a side has none), a few rows at a time."""
    ids = np.empty((rows * cols, 2), dtype=np.int32)
    ids[:, 0] = np.repeat(np.arange(rows, dtype=np.int32), cols)
    ids[:, 1] = np.tile(np.arange(cols, dtype=np.int32), rows)
    step = max(1, _PART // cols)

    def parts() -> Iterator[np.ndarray]:
        for first in range(0, rows, step):
            cells = ids[first * cols : (first + step) * cols].astype(np.int64)
            yield around(cells[:, 0], cells[:, 1])

    return Flat.joined(ids, parts())


def _at(rows: int, cols: int, row: np.ndarray, col: np.ndarray) -> np.ndarray:
    """The index of each cell ``(row, col)``, ``-1`` outside the grid."""
    inside = (row >= 0) & (row < rows) & (col >= 0) & (col < cols)
    return np.where(inside, row * cols + col, -1)


def _check_positive(grid: Grid) -> None:
    if grid.rows < 1 or grid.cols < 1:
        raise lacak.InvalidOptionError(f"a {grid.type} grid needs at least one row and column")


@attrs.frozen(slots=False)
class RectGrid(Grid):
    """Squares in rows and columns (Buck's orthogonal grid). A cell's sides: north,
    east, south, west. Its ids are ``(row, col)``."""

    type: ClassVar[str] = "rect"
    description: ClassVar[str] = "squares in rows and columns (the plain rectangle)"
    rectangular: ClassVar[bool] = True
    #: Whether the columns wrap round (a cylinder) and the rows too (a torus).
    wrap_cols: ClassVar[bool] = False
    wrap_rows: ClassVar[bool] = False

    def __attrs_post_init__(self) -> None:
        _check_positive(self)
        for wraps, count, what in ((self.wrap_cols, self.cols, "columns"),
                                   (self.wrap_rows, self.rows, "rows")):  # fmt: skip
            if wraps and count < 3:
                raise lacak.InvalidOptionError(
                    f"a {self.type} grid wraps its {what} round: it needs at least 3, got {count}"
                )
        super().__attrs_post_init__()

    def layout(self) -> Layout:
        rows, cols = self.rows, self.cols

        def at(row: int, col: int) -> int:
            if self.wrap_rows:
                row %= rows
            if self.wrap_cols:
                col %= cols
            return row * cols + col if 0 <= row < rows and 0 <= col < cols else -1

        sides = []
        for row in range(rows):
            for col in range(cols):
                x, y = float(col), float(row)
                sides.append((
                    Side(((x, y), (x + 1, y)), at(row - 1, col)),
                    Side(((x + 1, y), (x + 1, y + 1)), at(row, col + 1)),
                    Side(((x + 1, y + 1), (x, y + 1)), at(row + 1, col)),
                    Side(((x, y + 1), (x, y)), at(row, col - 1)),
                ))  # fmt: skip
        ids = [(row, col) for row in range(rows) for col in range(cols)]
        centres = [(col + 0.5, row + 0.5) for row, col in ids]
        return Layout.of(ids, sides, centres, float(cols), float(rows))

    def topology(self) -> Flat:
        rows, cols = self.rows, self.cols

        def at(r: np.ndarray, c: np.ndarray) -> np.ndarray:
            if self.wrap_rows:
                r = r % rows
            if self.wrap_cols:
                c = c % cols
            return _at(rows, cols, r, c)

        return _by_rows(
            rows,
            cols,
            lambda row, col: np.stack(
                [at(row - 1, col), at(row, col + 1), at(row + 1, col), at(row, col - 1)], axis=1
            ),
        )

    @functools.cached_property
    def longest_step(self) -> float:
        """One: neighbours' centres are a cell apart (across a seam too, on the surface)."""
        return 1.0

    def distance(self, a: int, b: int) -> float:
        """Rows plus columns between the cells (the shorter way round where the grid wraps)."""
        (r1, c1), (r2, c2) = self.ids[a], self.ids[b]
        dr, dc = abs(r1 - r2), abs(c1 - c2)
        if self.wrap_rows:
            dr = min(dr, self.rows - dr)
        if self.wrap_cols:
            dc = min(dc, self.cols - dc)
        return float(dr + dc)


@attrs.frozen(slots=False)
class CylinderGrid(RectGrid):
    """The rectangle with its columns wrapped round: the east side of the last column
    is the west side of the first. Drawn flat, the seam is the left and right edges."""

    type: ClassVar[str] = "cylinder"
    description: ClassVar[str] = "the rectangle wrapped round left to right"
    rectangular: ClassVar[bool] = False
    wrap_cols: ClassVar[bool] = True


@attrs.frozen(slots=False)
class TorusGrid(RectGrid):
    """The rectangle wrapped both ways, a torus: columns and rows wrap round."""

    type: ClassVar[str] = "torus"
    description: ClassVar[str] = "the rectangle wrapped round both ways"
    rectangular: ClassVar[bool] = False
    wrap_cols: ClassVar[bool] = True
    wrap_rows: ClassVar[bool] = True


@attrs.frozen(slots=False)
class HexGrid(Grid):
    """Flat-topped hexagons in columns, odd columns half a cell lower (Buck's sigma grid).
    A cell's sides: north-west, north, north-east, south-east, south, south-west."""

    type: ClassVar[str] = "hex"
    description: ClassVar[str] = "hexagons, six neighbours a cell (sigma)"

    def __attrs_post_init__(self) -> None:
        _check_positive(self)
        super().__attrs_post_init__()

    def layout(self) -> Layout:
        rows, cols = self.rows, self.cols
        b = SQRT3 / 2  # half a hexagon's height; its circumradius is 1

        def at(row: int, col: int) -> int:
            return row * cols + col if 0 <= row < rows and 0 <= col < cols else -1

        ids, sides, centres = [], [], []
        for row in range(rows):
            for col in range(cols):
                cx = 1.0 + 1.5 * col
                cy = b + 2 * b * row + (b if col % 2 else 0.0)
                north, south = (row, row + 1) if col % 2 else (row - 1, row)
                far_w, near_w, near_e, far_e = cx - 1, cx - 0.5, cx + 0.5, cx + 1
                top, bottom = cy - b, cy + b
                ids.append((row, col))
                centres.append((cx, cy))
                sides.append((
                    Side(((far_w, cy), (near_w, top)), at(north, col - 1)),
                    Side(((near_w, top), (near_e, top)), at(row - 1, col)),
                    Side(((near_e, top), (far_e, cy)), at(north, col + 1)),
                    Side(((far_e, cy), (near_e, bottom)), at(south, col + 1)),
                    Side(((near_e, bottom), (near_w, bottom)), at(row + 1, col)),
                    Side(((near_w, bottom), (far_w, cy)), at(south, col - 1)),
                ))  # fmt: skip
        width = 1.5 * cols + 0.5
        height = 2 * b * rows + (b if cols > 1 else 0.0)
        return Layout.of(ids, sides, centres, width, height)

    def topology(self) -> Flat:
        rows, cols = self.rows, self.cols
        return _by_rows(rows, cols, functools.partial(self._around, rows, cols))

    @staticmethod
    def _around(rows: int, cols: int, row: np.ndarray, col: np.ndarray) -> np.ndarray:
        odd = col % 2 == 1
        north, south = np.where(odd, row, row - 1), np.where(odd, row + 1, row)
        around = np.stack([
            _at(rows, cols, north, col - 1), _at(rows, cols, row - 1, col),
            _at(rows, cols, north, col + 1), _at(rows, cols, south, col + 1),
            _at(rows, cols, row + 1, col), _at(rows, cols, south, col - 1),
        ], axis=1)  # fmt: skip
        return around


@attrs.frozen(slots=False)
class TriangleGrid(Grid):
    """Triangles in rows, pointing up and down in turn (Buck's delta grid): cell
    ``(row, col)`` points up when ``row + col`` is even. Sides: an upward cell's east,
    base (south) and west; a downward cell's base (north), east and west."""

    type: ClassVar[str] = "triangle"
    description: ClassVar[str] = "triangles pointing up and down, three neighbours a cell (delta)"

    def __attrs_post_init__(self) -> None:
        _check_positive(self)
        if self.cols < 2 and self.rows > 1:  # a column of triangles meets only in pairs
            raise lacak.InvalidOptionError(
                "a triangle grid of more than one row needs at least 2 columns"
            )
        super().__attrs_post_init__()

    def layout(self) -> Layout:
        rows, cols = self.rows, self.cols
        h = SQRT3 / 2  # a triangle's height; its side is 1

        def at(row: int, col: int) -> int:
            return row * cols + col if 0 <= row < rows and 0 <= col < cols else -1

        ids, sides, centres = [], [], []
        for row in range(rows):
            for col in range(cols):
                cx = 0.5 + 0.5 * col
                west, east = cx - 0.5, cx + 0.5
                top, bottom = h * row, h * (row + 1)
                ids.append((row, col))
                if (row + col) % 2 == 0:  # pointing up: apex on top
                    centres.append((cx, top + 2 * h / 3))
                    sides.append((
                        Side(((cx, top), (east, bottom)), at(row, col + 1)),
                        Side(((east, bottom), (west, bottom)), at(row + 1, col)),
                        Side(((west, bottom), (cx, top)), at(row, col - 1)),
                    ))  # fmt: skip
                else:  # pointing down: base on top
                    centres.append((cx, top + h / 3))
                    sides.append((
                        Side(((west, top), (east, top)), at(row - 1, col)),
                        Side(((east, top), (cx, bottom)), at(row, col + 1)),
                        Side(((cx, bottom), (west, top)), at(row, col - 1)),
                    ))  # fmt: skip
        return Layout.of(ids, sides, centres, 0.5 * (cols + 1), h * rows)

    def topology(self) -> Flat:
        rows, cols = self.rows, self.cols
        return _by_rows(rows, cols, functools.partial(self._around, rows, cols))

    @staticmethod
    def _around(rows: int, cols: int, row: np.ndarray, col: np.ndarray) -> np.ndarray:
        up = (row + col) % 2 == 0
        east, west = _at(rows, cols, row, col + 1), _at(rows, cols, row, col - 1)
        around = np.stack([
            np.where(up, east, _at(rows, cols, row - 1, col)),
            np.where(up, _at(rows, cols, row + 1, col), east),
            west,
        ], axis=1)  # fmt: skip
        return around


@attrs.frozen(slots=False)
class UpsilonGrid(Grid):
    """Octagons and squares (Pullen's upsilon; the truncated square tiling): cell
    ``(row, col)`` is an octagon when ``row + col`` is even, with eight neighbours (the
    four squares beside it, the four octagons on its diagonals), and a square otherwise,
    with four (the octagons beside it). Sides clockwise from the east."""

    type: ClassVar[str] = "upsilon"
    description: ClassVar[str] = "octagons and squares, eight or four neighbours a cell"

    def __attrs_post_init__(self) -> None:
        _check_positive(self)
        super().__attrs_post_init__()

    def layout(self) -> Layout:
        rows, cols = self.rows, self.cols
        apothem = 1 / math.sqrt(2)  # octagons side by side on a diagonal touch
        octagon = apothem / math.cos(math.pi / 8)  # an octagon's circumradius
        square = (math.sqrt(2) - 1) * apothem * math.sqrt(2)  # a square's circumradius

        def at(row: int, col: int) -> int:
            return row * cols + col if 0 <= row < rows and 0 <= col < cols else -1

        def corner(cx: float, cy: float, radius: float, degrees: float) -> Point:
            angle = math.radians(degrees)
            return (cx + radius * math.cos(angle), cy + radius * math.sin(angle))

        ids, sides, centres = [], [], []
        for row in range(rows):
            for col in range(cols):
                cx, cy = apothem + col, apothem + row
                ids.append((row, col))
                centres.append((cx, cy))
                eight = (row + col) % 2 == 0
                step, half, radius = (45, 22.5, octagon) if eight else (90, 45.0, square)
                around = []
                for normal in range(0, 360, step):
                    dx = round(math.cos(math.radians(normal)))
                    dy = round(math.sin(math.radians(normal)))
                    ends = (corner(cx, cy, radius, normal - half),
                            corner(cx, cy, radius, normal + half))  # fmt: skip
                    around.append(Side(ends, at(row + dy, col + dx)))
                sides.append(tuple(around))
        size = 2 * apothem
        return Layout.of(ids, sides, centres, cols - 1 + size, rows - 1 + size)

    def topology(self) -> Flat:
        rows, cols = self.rows, self.cols
        return _by_rows(rows, cols, functools.partial(self._around, rows, cols))

    @staticmethod
    def _around(rows: int, cols: int, row: np.ndarray, col: np.ndarray) -> np.ndarray:
        eight = (row + col) % 2 == 0
        around = np.full((len(row), 8), -1, dtype=np.int64)
        for k, normal in enumerate(range(0, 360, 45)):  # (the sides as layout() turns them)
            dx = round(math.cos(math.radians(normal)))
            dy = round(math.sin(math.radians(normal)))
            there = _at(rows, cols, row + dy, col + dx)
            around[:, k] = np.where(eight, there, around[:, k])
            if normal % 90 == 0:
                around[:, k // 2] = np.where(eight, around[:, k // 2], there)
        return around


@attrs.frozen(slots=False)
class PolarGrid(Grid):
    """Rings of cells round a centre cell (Buck's polar grid, chapter 7): ring ``r``
    (of ``rings``) splits each cell of the ring inside it into as many as keep its cells
    about as wide as they are deep, so ring 1 has 6 cells, ring 2 12, ring 3 24. A cell's
    id is ``(ring, index)``, the index counted clockwise from the east; its sides: the
    outer arc (one side a cell beyond), clockwise, the inner arc, anticlockwise.

    A polar grid's size is its number of rings: ``rows``; ``cols`` must equal it (give
    one number).
    """

    type: ClassVar[str] = "polar"
    description: ClassVar[str] = "rings of cells round a centre, splitting outwards"
    maskable: ClassVar[bool] = False

    def __attrs_post_init__(self) -> None:
        if self.mask is not None:
            raise lacak.InvalidOptionError("a polar grid takes no mask")
        _check_positive(self)
        if self.cols != self.rows:
            raise lacak.InvalidOptionError(
                f"a polar grid's size is its number of rings, one number; got {self.rows}x{self.cols}"
            )
        super().__attrs_post_init__()

    def __init__(self, rows: int, cols: int | None = None, **fields: Any) -> None:
        self.__attrs_init__(rows, rows if cols is None else cols, **fields)  # type: ignore[attr-defined]

    def params(self) -> dict[str, Any]:
        return {"rings": self.rows}

    @functools.cached_property
    def counts(self) -> tuple[int, ...]:
        """How many cells each ring has (Buck's rule)."""
        counts = [1]
        for ring in range(1, self.rows):
            estimated = 2 * math.pi * ring / counts[-1]  # a cell's width at ring's inner edge
            counts.append(counts[-1] * max(1, round(estimated)))
        return tuple(counts)

    def ids_of_ring(self, ring: int) -> list[tuple[int, int]]:
        """The ids of ring ``ring``'s cells."""
        return [(ring, index) for index in range(self.counts[ring])]

    @property
    def name(self) -> str:
        return f"the {self.rows}-ring polar grid"

    def layout(self) -> Layout:
        counts = self.counts
        rings = len(counts)
        first = [0]
        for count in counts:
            first.append(first[-1] + count)
        centre = float(rings)

        def point(radius: float, turn: float) -> Point:
            angle = 2 * math.pi * turn
            return (centre + radius * math.cos(angle), centre + radius * math.sin(angle))

        def arc(radius: float, start: float, end: float) -> tuple[Point, ...]:
            pieces = max(1, math.ceil(abs(end - start) * 2 * math.pi * max(radius, 0.5) / 0.25))
            return tuple(point(radius, start + (end - start) * k / pieces)
                         for k in range(pieces + 1))  # fmt: skip

        ids, sides, centres = [], [], []
        for ring, count in enumerate(counts):
            outward = counts[ring + 1] // count if ring + 1 < rings else 0
            for index in range(count):
                start, end = index / count, (index + 1) / count
                ids.append((ring, index))
                middle = (start + end) / 2
                centres.append(point(0.0, 0.0) if ring == 0 else point(ring + 0.5, middle))
                around = []
                if outward:
                    per = 1 / counts[ring + 1]
                    for k in range(index * outward, (index + 1) * outward):
                        around.append(Side(arc(ring + 1, k * per, (k + 1) * per),
                                           first[ring + 1] + k))  # fmt: skip
                else:
                    around.append(Side(arc(ring + 1, start, end), -1))
                if ring > 0:
                    inward = first[ring - 1] + index // (count // counts[ring - 1])
                    around.append(Side((point(ring + 1, end), point(ring, end)),
                                       first[ring] + (index + 1) % count))  # fmt: skip
                    around.append(Side(arc(ring, end, start), inward))
                    around.append(Side((point(ring, start), point(ring + 1, start)),
                                       first[ring] + (index - 1) % count))  # fmt: skip
                sides.append(tuple(around))
        return Layout.of(ids, sides, centres, 2 * centre, 2 * centre)

    def topology(self) -> Flat:
        counts = np.array(self.counts, dtype=np.int64)
        rings = len(counts)
        first = np.concatenate(([0], np.cumsum(counts)))
        ids = np.empty((int(first[-1]), 2), dtype=np.int32)
        ids[:, 0] = np.repeat(np.arange(rings, dtype=np.int32), counts)
        ids[:, 1] = np.arange(int(first[-1])) - first[ids[:, 0]]

        def parts() -> Iterator[np.ndarray]:  # (a few rings at a time)
            inner = 0
            while inner < rings:
                outer = inner + 1
                while outer < rings and first[outer + 1] - first[inner] <= _PART:
                    outer += 1
                cells = ids[first[inner] : first[outer]].astype(np.int64)
                yield self._around(counts, first, cells[:, 0], cells[:, 1])
                inner = outer

        return Flat.joined(ids, parts())

    @staticmethod
    def _around(counts: np.ndarray, first: np.ndarray, ring: np.ndarray,
                index: np.ndarray) -> np.ndarray:  # fmt: skip
        rings = len(counts)
        count = counts[ring]
        outward = np.zeros(len(ring), dtype=np.int64)
        outward[ring < rings - 1] = (counts[1:] // counts[:-1])[ring[ring < rings - 1]]
        most = int(outward.max(initial=0))
        around = np.full((len(ring), most + 3), -1, dtype=np.int64)
        for k in range(most):
            beyond = first[np.minimum(ring + 1, rings - 1)] + index * outward + k
            around[:, k] = np.where(k < outward, beyond, -1)
        inner = ring > 0
        ratio = np.where(inner, count // counts[np.maximum(ring - 1, 0)], 1)
        # after a cell's outward neighbours (the -1s between are dropped): clockwise,
        # inward, anticlockwise
        rest = np.stack([first[ring] + (index + 1) % count,
                         first[np.maximum(ring - 1, 0)] + index // ratio,
                         first[ring] + (index - 1) % count], axis=1)  # fmt: skip
        rest[~inner] = -1
        around[:, most:] = rest
        return around

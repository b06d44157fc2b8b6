"""What a grid is: cells with ids, each cell's neighbours, and each cell's sides to draw.

A maze is a set of passages (*links*) between neighbouring cells of a grid.
A :class:`Grid` knows its cells (numbered ``0 .. size-1``, each with an *id*,
a tuple of integers the grid defines: ``(row, col)`` for most, ``(ring,
index)`` for a polar grid), each cell's neighbours, and how to draw a cell:
its *sides*, each a polyline shared with one neighbour (or with none, on the
grid's outline). Everything else (generators, solvers, pictures, JSON) works
from these, so a grid that says them gets all of it.

The generators need only the cells and their neighbours, kept flat
(:attr:`Grid.flat`: the ids as one integer array, the neighbours as compressed
rows, ``offsets`` and ``targets``), never the geometry: a grid derives them
from its layout, or says them itself, arithmetically (:meth:`Grid.topology`,
what the built-in grids do), so that a maze of millions of cells is made
without building the sides of its cells; the layout is then built only when
the maze is drawn.

A grid is built by a subclass's :meth:`Grid.layout`, once, and kept. Cells
may be switched off by a *mask* (rows of text, ``X`` off and ``.`` on) on any
grid whose ids are ``(row, col)``: the off cells disappear, and their sides
become the outline of their neighbours.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

import attrs
import lacak
import numpy as np

__all__ = ["Flat", "Grid", "Layout", "Point", "Side"]

Point = tuple[float, float]


@attrs.frozen
class Side:
    """One side of a cell: the polyline it is drawn as, and the neighbour across it
    (``-1`` on the outline)."""

    points: tuple[Point, ...]
    neighbour: int


@attrs.frozen
class Layout:
    """A grid's cells, as a subclass builds them: ids, neighbours (each cell's, in the
    order of its sides, clockwise on the screen), sides, centres, and the picture's size
    in cell units."""

    ids: tuple[tuple[int, ...], ...]
    neighbours: tuple[tuple[int, ...], ...]
    sides: tuple[tuple[Side, ...], ...]
    centres: tuple[Point, ...]
    width: float
    height: float

    @classmethod
    def of(cls, ids: Sequence[tuple[int, ...]], sides: Sequence[Sequence[Side]],
           centres: Sequence[Point], width: float, height: float) -> Layout:  # fmt: skip
        """A layout whose neighbours are those across each cell's sides, in order."""
        return cls(
            ids=tuple(ids),
            neighbours=tuple(_across(around) for around in sides),
            sides=tuple(tuple(around) for around in sides),
            centres=tuple(centres),
            width=width,
            height=height,
        )


@attrs.frozen(eq=False)
class Flat:
    """A grid's cells and neighbours as arrays: ``ids`` (``size x k`` integers, a row a
    cell's id), and each cell's neighbours in compressed rows: cell ``c``'s are
    ``targets[offsets[c]:offsets[c + 1]]``, in the order of its sides, each once."""

    ids: np.ndarray
    offsets: np.ndarray = attrs.field(converter=lambda a: _narrow(a))
    targets: np.ndarray = attrs.field(converter=lambda a: _narrow(a))

    @classmethod
    def of(cls, ids: np.ndarray, around: np.ndarray) -> Flat:
        """The flat grid of ``ids`` whose neighbours are ``around`` (``size x k``, in the
        order of the sides, ``-1`` where a side has none); a neighbour met twice is kept
        where it is first met, as :meth:`Layout.of` keeps it."""
        return cls.joined(ids, [around])

    @classmethod
    def joined(cls, ids: np.ndarray, parts: Iterable[np.ndarray]) -> Flat:
        """:meth:`of`, with ``around`` in parts, each the next cells' (a grid of millions
        of cells is worked out a part at a time, in the processor's cache)."""
        degrees, targets = [], []
        for around in parts:
            keep = around >= 0
            for i in range(1, around.shape[1]):
                for j in range(i):
                    keep[:, i] &= around[:, i] != around[:, j]
            degrees.append(keep.sum(axis=1))
            targets.append(_narrow(around[keep]))
        offsets = np.zeros(sum(len(d) for d in degrees) + 1, dtype=np.int64)
        np.cumsum(np.concatenate(degrees), out=offsets[1:])
        return cls(np.ascontiguousarray(ids), offsets, np.concatenate(targets))

    @classmethod
    def of_layout(cls, layout: Layout) -> Flat:
        """The flat grid of a layout's ids and neighbours."""
        neighbours = layout.neighbours
        offsets = np.zeros(len(neighbours) + 1, dtype=np.int64)
        np.cumsum([len(around) for around in neighbours], out=offsets[1:])
        targets = np.fromiter((c for around in neighbours for c in around), dtype=np.int64,
                              count=int(offsets[-1]))  # fmt: skip
        width = max((len(cell) for cell in layout.ids), default=0)
        ids = np.array([tuple(cell) + (0,) * (width - len(cell)) for cell in layout.ids],
                       dtype=np.int64).reshape(len(layout.ids), width)  # fmt: skip
        return cls(ids, offsets, targets)

    @property
    def size(self) -> int:
        return len(self.offsets) - 1

    def masked(self, mask: Sequence[str]) -> Flat:
        """The cells ``mask`` keeps (their ids' first two numbers are its row and
        column), renumbered in order, without the neighbours it switches off."""
        rows = np.frombuffer("".join(mask).encode(), dtype=np.uint8).reshape(len(mask), -1)
        keep = rows[self.ids[:, 0], self.ids[:, 1]] == ord(".")
        if not keep.any():
            raise lacak.InvalidOptionError("the mask switches every cell off")
        new = np.full(self.size, -1, dtype=np.int64)
        new[keep] = np.arange(int(keep.sum()))
        degree = np.diff(self.offsets)
        owner = np.repeat(np.arange(self.size), degree)
        targets = new[self.targets]
        kept = keep[owner] & (targets >= 0)
        offsets = np.zeros(int(keep.sum()) + 1, dtype=np.int64)
        np.cumsum(np.bincount(new[owner[kept]], minlength=len(offsets) - 1), out=offsets[1:])
        return Flat(self.ids[keep], offsets, targets[kept])

    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """Each cell's neighbours, as :attr:`Layout.neighbours` says them."""
        targets = self.targets.tolist()
        ends = self.offsets.tolist()
        return tuple(tuple(targets[ends[c] : ends[c + 1]]) for c in range(self.size))

    def edges(self) -> tuple[np.ndarray, np.ndarray]:
        """Every pair of neighbours ``(a, b)``, ``a < b``, in order, as two arrays."""
        owner = np.repeat(np.arange(self.size), np.diff(self.offsets))
        keep = owner < self.targets
        return owner[keep], self.targets[keep]


def _narrow(array: np.ndarray) -> np.ndarray:
    """Cell indices as 32-bit integers when they fit (half the memory a walk reads)."""
    kind = np.int32 if not array.size or int(array.max()) < 2**31 else np.int64
    return np.ascontiguousarray(array, dtype=kind)


def _across(sides: Sequence[Side]) -> tuple[int, ...]:
    """The neighbours across ``sides``, in order, each once."""
    seen: dict[int, None] = {}
    for side in sides:
        if side.neighbour >= 0:
            seen.setdefault(side.neighbour)
    return tuple(seen)


def _mask_rows(value: Any) -> tuple[str, ...] | None:
    """A mask as rows of ``"."`` (on) and ``"X"`` (off); ``None`` for no mask."""
    if value is None:
        return None
    if isinstance(value, str):
        value = value.splitlines()
    rows = tuple(str(row).rstrip("\r") for row in value)
    bad = {ch for row in rows for ch in row} - set(".Xx")
    if bad:
        raise lacak.InvalidOptionError(
            f"a mask is rows of '.' (a cell) and 'X' (none), not {sorted(bad)!r}"
        )
    return tuple(row.upper() for row in rows)


@attrs.frozen(slots=False)
class Grid:
    """A grid of cells that mazes are carved in. Subclasses say :attr:`type` and
    :meth:`layout`; :meth:`to_dict` and :func:`lacak_mazes.grids.grid_from_dict` rebuild one."""

    #: The grid's name in JSON and on the command line (``"hex"``).
    type: ClassVar[str] = ""
    #: One line for listings.
    description: ClassVar[str] = ""
    #: Whether the grid's cells are ``(row, col)`` (a mask can switch them off).
    maskable: ClassVar[bool] = True
    #: Whether the grid is the plain rectangle's shape (row-based generators, weaves).
    rectangular: ClassVar[bool] = False

    rows: int
    cols: int
    #: Rows of text, ``"X"`` a cell switched off and ``"."`` one kept; ``None``: all kept.
    mask: tuple[str, ...] | None = attrs.field(default=None, kw_only=True,
                                               converter=_mask_rows)  # fmt: skip

    def __attrs_post_init__(self) -> None:
        if self.mask is not None:
            if not self.maskable:
                raise lacak.InvalidOptionError(f"a {self.type} grid takes no mask")
            if len(self.mask) != self.rows or any(len(row) != self.cols for row in self.mask):
                widths = "/".join(str(w) for w in sorted({len(row) for row in self.mask}))
                raise lacak.InvalidOptionError(
                    f"the mask is {lacak.output.plural(len(self.mask), 'row')} of {widths} "
                    f"characters; the {self.type} grid is {self.rows}x{self.cols}"
                )

    # -- what a subclass says ----------------------------------------------------------

    def layout(self) -> Layout:  # pragma: no cover - every grid says it
        raise NotImplementedError

    def topology(self) -> Flat | None:
        """The grid's cells and neighbours without a mask, as :meth:`layout` has them
        (the same ids and neighbours in the same order), computed without the geometry;
        ``None`` (the default): derived from :meth:`layout`. A grid of many cells says it
        so that a maze is made without building every cell's sides."""
        return None

    def params(self) -> dict[str, Any]:
        """What rebuilds the grid besides its type and mask (``rows``, ``cols``, ...)."""
        return {"rows": self.rows, "cols": self.cols}

    # -- what every grid gives ---------------------------------------------------------

    @functools.cached_property
    def _layout(self) -> Layout:
        layout = self.layout()
        if self.mask is None:
            return layout
        return _masked(layout, self.mask)

    @functools.cached_property
    def _topology(self) -> Flat | None:
        flat = self.topology()
        if flat is None or self.mask is None:
            return flat
        return flat.masked(self.mask)

    @functools.cached_property
    def flat(self) -> Flat:
        """The cells and their neighbours as arrays (:class:`Flat`), what the compiled
        generators walk."""
        flat = self._topology
        return Flat.of_layout(self._layout) if flat is None else flat

    @property
    def size(self) -> int:
        """The number of cells."""
        flat = self._topology
        return len(self._layout.ids) if flat is None else flat.size

    @functools.cached_property
    def ids(self) -> tuple[tuple[int, ...], ...]:
        """Each cell's id, by index."""
        flat = self._topology
        return self._layout.ids if flat is None else tuple(map(tuple, flat.ids.tolist()))

    @functools.cached_property
    def index(self) -> Mapping[tuple[int, ...], int]:
        """The index of each cell id."""
        return {cell: i for i, cell in enumerate(self._layout.ids)}

    @functools.cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """Each cell's neighbours (indices), clockwise."""
        flat = self._topology
        return self._layout.neighbours if flat is None else flat.neighbours()

    @property
    def sides(self) -> tuple[tuple[Side, ...], ...]:
        """Each cell's sides, clockwise."""
        return self._layout.sides

    @property
    def centres(self) -> tuple[Point, ...]:
        """Each cell's centre, in cell units."""
        return self._layout.centres

    @property
    def extent(self) -> tuple[float, float]:
        """The picture's width and height, in cell units."""
        return self._layout.width, self._layout.height

    @functools.cached_property
    def edges(self) -> tuple[tuple[int, int], ...]:
        """Every pair of neighbours ``(a, b)``, ``a < b``, in order."""
        flat = self._topology
        if flat is not None:
            first, second = flat.edges()
            return tuple(zip(first.tolist(), second.tolist(), strict=True))
        return tuple((a, b) for a, around in enumerate(self.neighbours) for b in around if a < b)

    @functools.cached_property
    def longest_step(self) -> float:
        """The longest distance between the centres of two neighbours (:meth:`distance`)."""
        centres = self.centres
        return max((math.dist(centres[a], centres[b]) for a, b in self.edges), default=1.0)

    def distance(self, a: int, b: int) -> float:
        """A lower bound on the steps from cell ``a`` to cell ``b`` (an admissible,
        consistent heuristic): the straight line between centres over the longest step."""
        return math.dist(self.centres[a], self.centres[b]) / self.longest_step

    def to_dict(self) -> dict[str, Any]:
        """``{"type": ..., **params, "mask": [...]}``: what rebuilds the grid."""
        data = {"type": self.type, **self.params()}
        if self.mask is not None:
            data["mask"] = list(self.mask)
        return data

    def cell_of(self, value: Any, what: str = "a cell") -> int:
        """The index of the cell ``value`` names: an id (a list or tuple of integers, or
        text ``"2,5"``) or ``None``.

        :raises InvalidPuzzleError: not an id of this grid.
        """
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            raise lacak.InvalidPuzzleError(f"{what} is a cell id like [2, 5], got {value!r}")
        if isinstance(value, str):
            parts = value.replace(" ", "").split(",")
            try:
                value = tuple(int(part) for part in parts)
            except ValueError:
                raise lacak.InvalidPuzzleError(
                    f"{what} is a cell id like 2,5, got {value!r}"
                ) from None
        try:
            key = tuple(int(v) for v in value)
            if any(isinstance(v, bool) or int(v) != v for v in value):
                raise TypeError
        except (TypeError, ValueError):
            raise lacak.InvalidPuzzleError(
                f"{what} is a cell id like [2, 5], got {value!r}"
            ) from None
        found = self.index.get(key)
        if found is None:
            raise lacak.InvalidPuzzleError(f"{what} {list(key)} is not a cell of {self.name}")
        return found

    @property
    def name(self) -> str:
        """How messages name the grid: ``"the 5x8 hex grid"``."""
        masked = " masked" if self.mask is not None else ""
        return f"the {self.rows}x{self.cols}{masked} {self.type} grid"


def _masked(layout: Layout, mask: Sequence[str]) -> Layout:
    """``layout`` without the cells the mask switches off (their sides become outline)."""
    keep = [i for i, (row, col, *_) in enumerate(layout.ids) if mask[row][col] == "."]
    if not keep:
        raise lacak.InvalidOptionError("the mask switches every cell off")
    new = {old: new for new, old in enumerate(keep)}
    sides = [
        [Side(side.points, new.get(side.neighbour, -1)) for side in layout.sides[i]] for i in keep
    ]
    return Layout.of([layout.ids[i] for i in keep], sides, [layout.centres[i] for i in keep],
                     layout.width, layout.height)  # fmt: skip

"""Grids beyond the rectangle: the cells a maze is carved in.

A :class:`Grid` knows its cells, each cell's neighbours and how to draw each
side (:mod:`lacak_mazes.grids.base`); :mod:`~lacak_mazes.grids.shapes` has the
built-in ones and :mod:`~lacak_mazes.grids.masks` reads masks (ASCII art, a
black-and-white picture, a word in a font). :data:`GRIDS` names them;
:func:`make_grid` builds one from a name and a size, :func:`grid_from_dict`
from the ``"grid"`` object of a maze's JSON.

A third-party package adds a grid by naming its :class:`Grid` subclass under
the entry-point group ``lacak.maze_grids`` (``hexes = "my_package:MyGrid"``):
every generator that walks a graph, every solver, the pictures, the JSON and
the pages then take it by its :attr:`Grid.type`. A grid that fails to load is
reported with a warning and skipped.

>>> grid = make_grid("hex", (3, 4))
>>> grid.to_dict()
{'type': 'hex', 'rows': 3, 'cols': 4}
>>> grid_from_dict(grid.to_dict()) == grid
True
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Mapping
from typing import Any

import lacak

from .base import Grid, Layout, Side
from .shapes import CylinderGrid, HexGrid, PolarGrid, RectGrid, TorusGrid, TriangleGrid, UpsilonGrid

__all__ = [
    "GRIDS",
    "CylinderGrid",
    "Grid",
    "HexGrid",
    "Layout",
    "PolarGrid",
    "RectGrid",
    "Side",
    "TorusGrid",
    "TriangleGrid",
    "UpsilonGrid",
    "grid_from_dict",
    "grid_types",
    "make_grid",
]

#: The built-in grids by name.
GRIDS: Mapping[str, type[Grid]] = {
    cls.type: cls
    for cls in (RectGrid, CylinderGrid, TorusGrid, HexGrid, TriangleGrid, UpsilonGrid, PolarGrid)
}

#: Other names people know the grids by (Pullen's and Buck's).
ALIASES: Mapping[str, str] = {
    "rectangle": "rect",
    "orthogonal": "rect",
    "sigma": "hex",
    "hexagonal": "hex",
    "delta": "triangle",
    "triangular": "triangle",
    "circle": "polar",
    "theta": "polar",
}

#: The entry-point group third-party grids are registered in.
ENTRY_POINTS = "lacak.maze_grids"


@functools.cache
def grid_types() -> Mapping[str, type[Grid]]:
    """Every grid by name: the built-in ones, then those of the ``lacak.maze_grids``
    entry points (a broken one is reported with a warning and skipped; one reusing a
    built-in name too)."""
    from importlib.metadata import entry_points  # (deferred: read once, when first asked)

    found: dict[str, type[Grid]] = dict(GRIDS)
    for point in entry_points(group=ENTRY_POINTS):
        try:
            cls = point.load()
            if not (isinstance(cls, type) and issubclass(cls, Grid)) or not cls.type:
                raise TypeError("not a lacak_mazes.grids.Grid subclass with a type")
            if cls.type in GRIDS or cls.type in ALIASES:
                raise ValueError(f"grid type {cls.type!r} is lacak's own")
        except Exception as error:  # a third party's module: any error, reported, skipped
            warnings.warn(
                f"maze grid {point.name!r} ({point.value}) skipped: {error}",
                lacak.PluginWarning,
                stacklevel=2,
            )
            continue
        found[cls.type] = cls
    return found


def grid_class(name: Any) -> type[Grid]:
    """The grid class of ``name`` (an alias too).

    :raises InvalidOptionError: no grid of that name (the message lists them).
    """
    types = grid_types()
    key = ALIASES.get(str(name).lower(), str(name).lower())
    if key not in types:
        raise lacak.InvalidOptionError(
            f"no maze grid {name!r}; the grids are {', '.join(sorted(types))}"
        )
    return types[key]


def make_grid(name: str, size: tuple[int, int], *, mask: Any = None, **params: Any) -> Grid:
    """The grid ``name`` of ``size`` ``(rows, cols)`` (a polar grid: ``(rings, rings)``),
    with ``mask`` (rows of ``.`` and ``X``) when given.

    :raises InvalidOptionError: an unknown grid, a size it cannot take, a bad mask.
    """
    cls = grid_class(name)
    rows, cols = size
    try:
        return cls(rows, cols, mask=mask, **params)
    except TypeError as error:
        raise lacak.InvalidOptionError(f"the {cls.type} grid: {error}") from None


def grid_from_dict(data: Any) -> Grid:
    """The grid a maze's JSON ``"grid"`` object describes: ``{"type": "hex", "rows": 5,
    "cols": 8}``, ``{"type": "polar", "rings": 6}``, with ``"mask"`` when it has one.

    :raises InvalidPuzzleError: not such an object.
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
        raise lacak.InvalidPuzzleError(
            f'a maze\'s "grid" is an object with a "type" ("hex", "polar", ...), got {data!r}'[:200]
        )
    fields = dict(data)
    name = fields.pop("type")
    try:
        cls = grid_class(name)
        if "rings" in fields:
            fields["rows"] = fields["cols"] = fields.pop("rings")
        rows, cols = fields.pop("rows"), fields.pop("cols")
        for value in (rows, cols):
            if isinstance(value, bool) or not isinstance(value, int):
                raise lacak.InvalidOptionError(f"a grid's size is whole numbers, got {value!r}")
        return cls(rows, cols, **fields)
    except KeyError as error:
        raise lacak.InvalidPuzzleError(f"the {name} grid needs {error}") from None
    except TypeError as error:
        raise lacak.InvalidPuzzleError(f"the {name} grid: {error}") from None
    except lacak.InvalidOptionError as error:
        raise lacak.InvalidPuzzleError(str(error)) from None

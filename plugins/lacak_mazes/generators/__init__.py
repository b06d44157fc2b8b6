"""The maze generators: one module per algorithm, and the table lacak registers.

Each is a :class:`lacak.Generator` of kind ``"maze"`` whose ``make(size,
seed, **options)`` takes a size ``(rows, cols)`` (or ``"RxC"``, or one number
for a square) and a seed (``None``: a fresh one, recorded in ``maze.seed``),
and returns a :class:`~lacak_mazes.Maze` with ``algorithm`` and ``seed`` set.
The algorithm's module of this package (``huntkill``, ``kruskal``, ``wilson``,
...) is imported when a maze is first made, so that registering them loads
none; ``_common``, ``_grid`` and ``_walk`` are what the algorithms share
(sizes, seeds and random numbers; the padded grid; the random walks).

``metadata`` says whether the mazes are ``perfect`` (always, here), whether
the generator samples ``uniform``-ly among all perfect mazes of the grid,
the expected share of ``dead_ends`` (cells with one opening, measured on
large grids, close to Walter Pullen's published figures), the ``texture``,
and the ``module`` that makes them.
Every generator takes the option ``carving`` (``False``): when true, the maze
comes with its :class:`~lacak_mazes.carving.Carving`, the order the generator
made it in (the same maze, cell for cell). A generator with options may say which values each takes in
``option_ranges``: ``{"choices": [...]}`` for a word from a list,
``{"min": a, "max": b}`` for a number (either bound may be missing);
``lacak maze algorithms`` shows them next to the defaults, and they are what
the options accept from a request lacak does not trust (the web API's: the
generator's ``accepts``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import lacak
from lacak.options import Accepts, Number, OneOf, Text

from ._common import check_probability, check_seed, check_size

__all__ = ["GENERATORS", "make_function"]


def make_function(
    name: str, module: str, function: str, defaults: Mapping[str, Any] | None = None
) -> Callable[..., Any]:
    """A ``make(size, seed, **options)`` that imports ``module`` on first use; the maze
    it makes records its generator, seed and the options given besides ``defaults``.

    Every generator also takes ``grid`` (a grid's name, :mod:`lacak_mazes.grids`; the
    plain ``"rect"`` by default), ``mask`` (rows of ``.`` and ``X``, one line with
    ``/`` between rows, or PNG bytes; the size may then be ``None``, the mask's) and
    ``braid`` (the share of dead ends to link away, :mod:`lacak_mazes.braid`) and
    ``weights`` (a cost to enter each cell: ``"1-9"``, numbers between commas or a
    picture's bytes, :mod:`lacak_mazes.weights`; a weighted plain rectangle keeps its
    bitmask form with weight rows). The
    plain rectangle is made by ``module``'s own fast code and is a
    :class:`~lacak_mazes.Maze`; any other grid by the graph version of the algorithm
    (:mod:`lacak_mazes.generators.graph`), a :class:`~lacak_mazes.gridmaze.GridMaze`.
    """
    defaults = dict(defaults or {})

    def make(size: Any, seed: int | None = None, *, carving: Any = False, grid: Any = "rect",
             mask: Any = None, braid: Any = 0.0, weave: Any = 0.0, weights: Any = None,
             **options: Any) -> Any:  # fmt: skip
        from ..grids.masks import read_mask  # (deferred: loaded when a maze is made)

        rows_of_mask = read_mask(mask)
        if size is None and rows_of_mask is not None:
            size = (len(rows_of_mask), len(rows_of_mask[0]))
        rows, cols = check_size(size)
        seed = check_seed(seed)
        record = lacak.as_flag(carving, f"{name} option 'carving'")
        share = check_probability(braid, "braid", name)
        crossings = check_probability(weave, "weave", name)
        given = {key: lacak.results.plain(value) for key, value in options.items()
                 if key not in defaults or not _same(value, defaults[key])}  # fmt: skip
        kind = _grid_name(grid)
        if kind != "rect":
            given["grid"] = kind
        if rows_of_mask is not None:
            given["mask"] = "/".join(rows_of_mask)
        if share:
            given["braid"] = share
        if crossings:
            given["weave"] = crossings
            if kind != "rect" or name not in WEAVERS:
                raise lacak.InvalidOptionError(
                    f"passages cross under others on rectangles, made by "
                    f"{', '.join(WEAVERS)}; not by {name} on a {kind} grid"
                )
            options["weave"] = crossings
        if kind == "rect" and rows_of_mask is None and not crossings:
            build = getattr(importlib.import_module(f"{__name__}.{module}"), function)
            if record:
                options["carving"] = True
            maze = build(rows, cols, seed, **options)
        else:
            maze = _on_grid(name, kind, (rows, cols), rows_of_mask, seed, options)
        if share:
            from ..braid import braid as braid_maze  # (deferred: as above)

            maze = braid_maze(maze, share, seed)
        if weights is not None:
            from ..weights import apply_weights  # (deferred: as above)

            maze, recorded = apply_weights(maze, weights, seed)
            if recorded is not None:
                given["weights"] = recorded
        return attrs.evolve(maze, algorithm=name, seed=seed, options=given)

    make.__name__ = function
    make.__qualname__ = function
    make.__doc__ = f"Make a maze with :func:`{__name__}.{module}.{function}`."
    return make


def _grid_name(grid: Any) -> str:
    """The canonical name of a ``grid`` option (``"sigma"`` is ``"hex"``)."""
    from ..grids import grid_class  # (deferred: loaded when a maze is made)

    if not isinstance(grid, str):
        raise lacak.InvalidOptionError(f"a maze's grid is a name like 'hex', got {grid!r}")
    return grid_class(grid).type


def _on_grid(name: str, kind: str, size: tuple[int, int], mask: Any, seed: int,
             options: Mapping[str, Any]) -> Any:  # fmt: skip
    """The maze ``name`` makes on the grid ``kind``, by the graph version of the algorithm."""
    # (deferred: loaded when a maze is made on a grid)
    from ..gridmaze import GridMaze
    from ..grids import make_grid
    from .graph import GRAPH_GENERATORS, check_connected

    walk = GRAPH_GENERATORS.get(name)
    if walk is None:
        raise lacak.InvalidOptionError(
            f"{name} works row by row on the plain rectangle; on a {kind} grid"
            f"{' or a mask' if kind == 'rect' else ''} use one of {', '.join(GRAPH_GENERATORS)}"
        )
    grid = make_grid(kind, size, mask=mask)
    check_connected(grid)
    if grid.size == 1:
        return GridMaze(grid, [])
    made = walk(grid, seed, **options)
    if isinstance(made, tuple):  # a woven maze: its links and its tunnels
        return GridMaze(grid, made[0], tunnels=made[1])
    return GridMaze(grid, made)


def _generator(
    name: str,
    module: str,
    function: str,
    description: str,
    *,
    uniform: bool = False,
    dead_ends: float,
    texture: str,
    options: dict[str, Any] | None = None,
    option_ranges: dict[str, dict[str, Any]] | None = None,
    **extra: Any,
) -> lacak.Generator:
    return lacak.Generator(
        kind="maze",
        name=name,
        make=make_function(name, module, function, options),
        description=description,
        options={**(options or {}), "carving": False, **GRID_OPTIONS},
        accepts={
            **{key: _accepts(spec) for key, spec in (option_ranges or {}).items()},
            **GRID_ACCEPTS,
        },
        metadata={
            "perfect": True,
            "uniform": uniform,
            "dead_ends": dead_ends,
            "texture": texture,
            "module": f"{__name__}.{module}",
            **({"option_ranges": option_ranges} if option_ranges else {}),
            **extra,
        },
    )


def _same(value: Any, default: Any) -> bool:
    """Whether an option given is its default (``True`` is not ``1``)."""
    return type(value) is type(default) and value == default


def _accepts(spec: dict[str, Any]) -> Accepts:
    """What an option accepts, from its ``option_ranges`` entry (a number's missing bound:
    a billion)."""
    if "choices" in spec:
        return OneOf(*spec["choices"])
    return Number(minimum=spec.get("min", -1e9), maximum=spec.get("max", 1e9))


#: The options every generator takes: the grid, a mask and the share of dead ends to braid.
GRID_OPTIONS: dict[str, Any] = {
    "grid": "rect",
    "mask": None,
    "braid": 0.0,
    "weave": 0.0,
    "weights": None,
}

#: The generators that weave (``weave`` above 0, on a rectangle): passages under others.
WEAVERS = ("kruskal", "recursive-backtracker", "growing-tree")

#: What they accept from a request lacak does not trust: a built-in grid's name, a mask
#: as one line of text (rows between ``/``), a probability.
GRID_ACCEPTS: dict[str, Accepts] = {
    "grid": OneOf("rect", "cylinder", "torus", "hex", "triangle", "upsilon", "polar"),
    "mask": Text(max_length=20_000, pattern=r"[.Xx#/ ]*", like="X../.../..X"),
    "braid": Number(minimum=0.0, maximum=1.0),
    "weave": Number(minimum=0.0, maximum=1.0),
    "weights": Text(max_length=200_000, pattern=r"[0-9.,\- a-z]*", like="1-9"),
}

#: A probability, as ``option_ranges`` says it.
_PROBABILITY = {"min": 0.0, "max": 1.0}

GENERATORS: tuple[lacak.Generator, ...] = (
    _generator(
        "hunt-and-kill",
        "huntkill",
        "hunt_and_kill",
        "random walk; when stuck, hunt row by row for the next cell (the reference)",
        dead_ends=0.10,
        texture="long winding corridors, few dead ends; shorter and more with hunt_chance",
        options={"hunt": "rows", "hunt_chance": 0.0},
        # the values huntkill checks (a test keeps the two in step)
        option_ranges={
            "hunt": {"choices": ["rows", "columns", "random"]},
            "hunt_chance": {"min": 0.0, "max": 1.0},
        },
    ),
    _generator(
        "recursive-backtracker",
        "backtracker",
        "recursive_backtracker",
        "randomised depth-first search with an explicit stack",
        dead_ends=0.10,
        texture="long winding corridors, very long solutions",
    ),
    _generator(
        "kruskal",
        "kruskal",
        "kruskal",
        "walls in random order, knocked down when they join two unconnected regions",
        dead_ends=0.30,
        texture="no bias, many short dead ends",
    ),
    _generator(
        "eller",
        "eller",
        "eller",
        "one row at a time with sets of connected cells",
        dead_ends=0.28,
        texture="horizontal streaks; memory proportional to the width",
        options={"join": 0.5, "down": 0.5},
        option_ranges={"join": _PROBABILITY, "down": _PROBABILITY},
    ),
    _generator(
        "prim",
        "kruskal",
        "prim",
        "Prim on random wall weights ('true Prim': a minimum spanning tree)",
        dead_ends=0.30,
        texture="no bias, many short dead ends (same law as kruskal)",
    ),
    _generator(
        "prim-frontier",
        "prim",
        "prim_frontier",
        "Prim on a random frontier cell each step ('modified Prim')",
        dead_ends=0.36,
        texture="radiates from the start, very many short dead ends",
    ),
    _generator(
        "wilson",
        "wilson",
        "wilson",
        "loop-erased random walks to the tree; exactly uniform",
        uniform=True,
        dead_ends=0.29,
        texture="no bias: every perfect maze equally likely",
    ),
    _generator(
        "aldous-broder",
        "aldous_broder",
        "aldous_broder",
        "first entrances of a random walk; exactly uniform",
        uniform=True,
        dead_ends=0.29,
        texture="no bias: every perfect maze equally likely",
    ),
    _generator(
        "binary-tree",
        "simple",
        "binary_tree",
        "every cell opens north or west at random (vectorised)",
        dead_ends=0.25,
        texture="strong diagonal bias; two edges are open corridors",
        options={"bias": "NW"},
        # simple.BIASES, repeated so that registering imports nothing
        option_ranges={"bias": {"choices": ["NW", "NE", "SW", "SE"]}},
    ),
    _generator(
        "sidewinder",
        "simple",
        "sidewinder",
        "runs east on each row, one opening north per run (vectorised)",
        dead_ends=0.27,
        texture="upward bias; the top row is one corridor",
    ),
    _generator(
        "growing-tree",
        "growing_tree",
        "growing_tree",
        "grow from an active list, picking newest, oldest, random or a mix",
        dead_ends=0.10,
        texture="newest: like the backtracker; random: like prim-frontier; oldest: long straight runs",
        options={"policy": "newest", "newest": 0.5},
        # growing_tree.POLICIES, repeated so that registering imports nothing
        option_ranges={
            "policy": {"choices": ["newest", "oldest", "random", "mix"]},
            "newest": _PROBABILITY,
        },
        dead_ends_by_policy={"newest": 0.10, "oldest": 0.003, "random": 0.28, "mix": 0.18},
    ),
    _generator(
        "recursive-division",
        "division",
        "recursive_division",
        "split an open room by walls with one gap, recursively",
        dead_ends=0.27,
        texture="long straight walls, box-like rooms",
    ),
)

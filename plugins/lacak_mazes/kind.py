"""The ``maze`` puzzle kind: the maze's part of lacak's pipeline, parse → choose → solve →
result → render.

:data:`PUZZLE_TYPE` tells the core how to read a maze (JSON, with ``start``
and ``end`` options), which strategy and heuristic suit it, how to draw it
(text, SVG, PNG), what a result's JSON adds (``"maze"``: the cell path) and
what helps when a limit stops a search. ``lacak.parse``, ``lacak.choose``,
``lacak.solve``, ``SearchResult.to_dict`` and ``lacak maze solve`` (the
core's command kit) follow it.

This module is imported whenever the plugins register, so it stays light:
the maze code (:mod:`lacak_mazes.maze`) is imported inside the functions that
read or check a maze, which defers it (it imports nothing of this module).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import lacak
from lacak.options import Number, OneOf, Text

from . import learning
from .render import PICTURE_HELP, PICTURE_OPTIONS, render_puzzle

if TYPE_CHECKING:
    from .gridmaze import GridMazePuzzle
    from .maze import Maze, MazePuzzle

__all__ = [
    "BATCH",
    "EXAMPLE",
    "PUZZLE_TYPE",
    "advice",
    "batch_plan",
    "batch_prepare",
    "batch_puzzle",
    "batch_record",
    "choose",
    "extras",
    "parse",
    "read_mask_file",
    "render",
]

#: A 2x2 maze, a U from (0, 0) round to (1, 0): the kind's example.
EXAMPLE = '{"cells": [[2, 12], [2, 9]]}'

#: The strategy that solves any maze fastest (a breadth-first search on flat cells).
FASTEST = "tree-path"


def parse(text: str | bytes, start: Any = None, end: Any = None) -> MazePuzzle | GridMazePuzzle:
    """The :class:`~lacak_mazes.MazePuzzle` of a maze's JSON text (see
    :meth:`MazePuzzle.from_json <lacak_mazes.MazePuzzle.from_json>`)."""
    from .maze import MazePuzzle  # here: see the module's documentation

    data = _grid_maze_data(text)
    if data is not None:
        from .gridmaze import GridMaze, GridMazePuzzle  # here: see the module's documentation

        return GridMazePuzzle.of(GridMaze.from_dict(data), start, end)
    return MazePuzzle.from_json(text, start=start, end=end)


def _grid_maze_data(text: str | bytes) -> dict[str, Any] | None:
    """The JSON object of a maze on a grid (one with a ``"grid"`` key), read once; ``None``
    for any other text, which the bitmask maze's reader reads (and refuses with its own
    message when it is not JSON)."""
    found = b'"grid"' in text if isinstance(text, bytes) else '"grid"' in text
    if not found:
        return None
    import json  # here: see the module's documentation

    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    return data if isinstance(data, dict) and "grid" in data else None


def validate(instance: Any) -> None:
    """Raise unless ``instance`` (a generated :class:`~lacak_mazes.Maze`, or a puzzle's
    maze) is a perfect maze.

    :raises InvalidPuzzleError: not a maze, or not perfect (see ``Maze.validate_perfect``).
    """
    from .gridmaze import GridMaze  # here: see the module's documentation
    from .maze import Maze

    maze = getattr(instance, "maze", instance)
    if not isinstance(maze, (Maze, GridMaze)):
        raise lacak.InvalidPuzzleError(f"expected a Maze, got {type(instance).__name__}")
    if maze.options.get("braid"):  # loops asked for: one piece is all it promises
        if isinstance(maze, GridMaze) and maze.components() != 1:
            raise lacak.InvalidPuzzleError("the braided maze is in separate pieces")
        return
    maze.validate_perfect()


def choose(puzzle: MazePuzzle, heuristic: str | None, registry: Any) -> tuple[str, str | None]:
    """``tree-path``, the fastest on any maze (it needs no heuristic); ``astar`` when a
    heuristic was asked for (and ``astar`` is registered); ``uniform-cost`` for a maze
    with weights (the cheapest way), ``bfs`` on other grids. Strategies that use a
    heuristic get ``manhattan`` (admissible and consistent)."""
    weighted = getattr(puzzle.maze, "weights", None) is not None
    if hasattr(puzzle.maze, "grid") or weighted:  # the generic searches
        if heuristic is not None and "astar" in registry.searchers():
            return "astar", "manhattan"
        return ("uniform-cost" if weighted else "bfs"), "manhattan"
    if heuristic is not None and "astar" in registry.searchers():
        return "astar", "manhattan"
    return FASTEST, "manhattan"


def render(puzzle: MazePuzzle, result: Any, format: str = "text", **options: Any) -> Any:
    """The maze with its start, end and the path found (see
    :func:`lacak_mazes.render.render_puzzle`). A maze on a grid whose cells read badly
    as characters (hexagons, triangles, octagons, rings) has a one-line note for its
    text picture, so that ``lacak maze solve`` reports the path it found and says how
    to see it."""
    grid = getattr(puzzle.maze, "grid", None)
    if format == "text" and grid is not None:
        from .gridrender import TEXT_GRIDS  # here: see the module's documentation

        if grid.type not in TEXT_GRIDS:
            return (
                f"(a maze on {grid.name} has no text picture: -o maze.svg or -f png draws "
                "it, --json gives the path)"
            )
    return render_puzzle(puzzle, result, format, **options)


def _cell(cell: Any) -> list[int]:
    return [int(cell[0]), int(cell[1])]


def extras(puzzle: MazePuzzle, result: Any) -> dict[str, Any]:
    """A result's maze data under ``"maze"``: the size, the ends, and the path found as
    ``[row, col]`` cells (``null`` when nothing was found)."""
    maze: Maze = puzzle.maze
    if hasattr(maze, "grid"):
        ids = maze.grid.ids
        return {
            "maze": {
                "grid": maze.grid.to_dict(),
                "rows": maze.height,
                "cols": maze.width,
                "start": list(ids[puzzle.initial]),
                "end": list(ids[puzzle.goal]),
                "path": [list(ids[s]) for s in result.states] if result.found else None,
            }
        }
    path = [_cell(state) for state in result.states] if result.found else None
    return {
        "maze": {
            "rows": maze.height,
            "cols": maze.width,
            "start": _cell(puzzle.initial),
            "end": _cell(puzzle.goal),
            "path": path,
        }
    }


def advice(puzzle: MazePuzzle, result: Any) -> str:
    """What helps when a limit stopped a search of a maze."""
    cells = puzzle.maze.size
    if result.strategy in (FASTEST, "dead-end-fill"):
        return (
            f"{result.strategy} expands each of the maze's {lacak.output.plural(cells, 'cell')} "
            f"at most once: --max-nodes {cells} always suffices (a path has at most "
            f"{lacak.output.plural(cells - 1, 'step')})"
        )
    return (
        f"{FASTEST} (the default) finds a shortest path expanding each of the "
        f"{lacak.output.plural(cells, 'cell')} at most once"
    )


def read_mask_file(path: str) -> str:
    """The mask a file holds (ASCII art, or a PNG: see :mod:`lacak_mazes.grids.masks`),
    as the generators' option ``mask`` takes it: rows between ``/``. The file is read
    up to lacak's input limit (``LACAK_MAX_INPUT_MB``).

    :raises InvalidInputError: a file that cannot be read, or is neither text nor a PNG.
    :raises InvalidOptionError: not a mask.
    """
    # here: see the module's documentation
    from lacak.store.paths import input_limit, read_bounded

    from .grids.masks import mask_from_png, mask_from_text

    try:
        data = read_bounded(path, input_limit(), what="mask files", setting="LACAK_MAX_INPUT_MB")
    except OSError as error:
        raise lacak.InvalidInputError(f"cannot read {path!r}: {error.strerror or error}") from None
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        rows = mask_from_png(data)
    else:
        try:
            rows = mask_from_text(data.decode("utf-8"))
        except UnicodeDecodeError:
            raise lacak.InvalidInputError(f"{path} is neither text nor a PNG") from None
    return "/".join(rows)


#: What ``lacak batch maze --format`` takes: the records as they are, or with the
#: easy-to-hard images of each maze (:func:`batch_record`).
BATCH_FORMATS = ("cells", "pixels")
#: The grids ``--format pixels`` draws: rectangles of cells.
_RECT_GRIDS = ("rect", "rectangle")


def batch_plan(
    *, grid: str | None = None, mask: str | None = None, braid: str | None = None,
    format: str | None = None, **_: Any,
) -> dict[str, Any]:  # fmt: skip
    """What ``lacak batch maze --grid NAME --mask FILE --braid P`` mean: the generator
    options ``grid``, ``mask`` (the file's rows, read once, before the jobs) and
    ``braid`` (a number from 0 to 1), which every job's generator then takes; and
    ``--format`` checked (``pixels`` draws rectangular mazes only).

    :raises InvalidOptionError: a braid share that is not a number, an unknown format,
        or pixels of a maze on another grid or with a mask.
    """
    if format is not None and format not in BATCH_FORMATS:
        raise lacak.InvalidOptionError(
            f"--format is one of {', '.join(BATCH_FORMATS)}, not {format!r}"
        )
    if format == "pixels" and (mask is not None or grid not in (None, *_RECT_GRIDS)):
        raise lacak.InvalidOptionError(
            "--format pixels draws rectangular mazes of cells only: no --grid other than "
            "rect, no --mask"
        )
    options: dict[str, Any] = {}
    if grid is not None:
        options["grid"] = grid
    if mask is not None:
        options["mask"] = read_mask_file(mask)
    if braid is not None:
        try:
            options["braid"] = float(braid)
        except ValueError:
            raise lacak.InvalidOptionError(
                f"--braid is the share of dead ends to remove, 0 to 1, not {braid!r}"
            ) from None
    return {"options": options} if options else {}


def batch_prepare(
    maze: Maze, *, solve: bool = False, endpoints: bool = False, solution: bool = False,
    format: str = "cells", **_: Any,
) -> Maze:  # fmt: skip
    """A generated maze as ``lacak batch maze`` records it: with the ends of its longest
    path when asked for (``--endpoints``), or when it is to be solved, and with the
    path between them (``--solution``, which ``--format pixels`` implies). (``--grid``,
    ``--mask`` and ``--braid`` are the generator's, see :func:`batch_plan`.)"""
    solution = solution or format == "pixels"
    if endpoints or solution or solve:
        return maze.with_endpoints(solution=solution)
    return maze


def batch_record(data: dict[str, Any], *, format: str = "cells", **_: Any) -> dict[str, Any]:
    """A record of ``lacak batch maze``, with ``--format pixels`` the maze's images
    under ``"pixels"``: ``"inputs"`` and ``"targets"``, as the easy-to-hard papers' mazes
    (:func:`lacak_mazes.interop.pixels`), which a ``.npz`` file stacks."""
    instance = data.get("instance")
    if format != "pixels" or not isinstance(instance, dict) or not instance.get("solution"):
        return data
    from .interop import pixel_pair  # here: see the module's documentation (numpy)

    inputs, targets = pixel_pair(instance["cells"], instance["solution"])
    return {**data, "pixels": {"inputs": inputs.tolist(), "targets": targets.tolist()}}


def batch_puzzle(maze: Maze) -> MazePuzzle:
    """What ``lacak batch maze --solve`` searches: the maze from its start to its end."""
    return maze.puzzle()


#: How ``lacak batch maze`` makes and records mazes (see :class:`lacak.BatchKind`).
BATCH = lacak.BatchKind(
    generator="hunt-and-kill",
    # grid, mask and braid: the generator's options (batch_plan, which only the command
    # line runs), as `lacak maze generate` takes them; a request lacak does not trust (the
    # page's `prepare`, which ignores them) may give a grid's name, a share, and a mask
    # only as rows of text, never as a file
    options={
        "endpoints": False,
        "solution": False,
        "grid": None,
        "mask": None,
        "braid": None,
        "format": "cells",
    },
    accepts={
        "grid": OneOf(
            "rect", "rectangle", "cylinder", "torus", "hex", "triangle", "upsilon", "polar"
        ),
        "mask": Text(max_length=20_000, pattern=r"[.Xx#/ ]*", like="X../.../..X"),
        "braid": Number(minimum=0.0, maximum=1.0),
        "format": OneOf(*BATCH_FORMATS),
    },
    help={
        "endpoints": "Give each maze a start and an end: the ends of its longest path.",
        "solution": "Give each maze the path from its start to its end (implies --endpoints).",
        "grid": "The grid: rect (default), cylinder, torus, hex, triangle, upsilon, polar "
        "(its size: --size RINGSxRINGS).",
        "mask": "A mask FILE (ASCII art, X no cell and . a cell, or a black-and-white PNG); "
        "the size is the mask's.",
        "braid": "Remove this share (0 to 1) of each maze's dead ends, making loops.",
        "format": "cells (default), or pixels: each record also holds the maze's input and "
        "target images of the easy-to-hard papers (rectangular mazes; implies --solution), "
        "the arrays inputs and targets of a .npz.",
    },
    plan=batch_plan,
    prepare=batch_prepare,
    puzzle=batch_puzzle,
    record=batch_record,
    measures={"solution cells": "instance.solution"},
    # on a grid: cells are ids, start, end and solution too, and the links are pairs of
    # cell indices (only grid batches have them: the "?")
    arrays={
        "cells": "instance.cells",
        "start": "instance.start",
        "end": "instance.end",
        "solution": "instance.solution",
        "links": "instance.links?",
        "weights": "instance.weights?",
        # --format pixels: the easy-to-hard images (batch_record)
        "inputs": "pixels.inputs?",
        "targets": "pixels.targets?",
    },
)


#: The ``maze`` puzzle kind, registered by the plugin's ``register_puzzles``.
PUZZLE_TYPE = lacak.PuzzleType(
    kind="maze",
    parse=parse,
    validate=validate,
    description="mazes as JSON: rectangles (bitmasks N=1 E=2 S=4 W=8) and other grids (links)",
    options={"start": None, "end": None},
    # what a request lacak does not trust (the web API's) may give: cells, ROW,COL
    accepts={
        "start": Text(max_length=24, pattern=r"[0-9 ,xX]*", like="0,3"),
        "end": Text(max_length=24, pattern=r"[0-9 ,xX]*", like="0,3"),
    },
    text_types=(str, bytes),
    reads="file",
    choose=choose,
    render=render,
    formats=("text", "svg", "png"),
    render_options=PICTURE_OPTIONS,
    extras=extras,
    advice=advice,
    help={
        "start": "Start cell ROW,COL (default: the file's, else an end of the longest path).",
        "end": "End cell ROW,COL (default: the file's, else the cell farthest from the start).",
        **PICTURE_HELP,
    },
    example=EXAMPLE,
    batch=BATCH,
    # the task and the Gymnasium env (docs/machine-learning.md)
    tasks=learning.TASKS,
    gym=learning.GYM,
    # the page of lacak serve: lacak_mazes/page/, package data
    page=lacak.Page(package="lacak_mazes", script="maze.js", styles=("maze.css",), title="Mazes"),
)

"""Rectangular mazes to and from `maze-dataset <https://github.com/understanding-search/maze-dataset>`_,
and as the input and target images of the easy-to-hard papers.

:func:`to_maze_dataset` turns a :class:`~lacak_mazes.Maze` into maze-dataset's
``SolvedMaze`` (or ``TargetedLatticeMaze``, ``LatticeMaze``), so that its tokenizers,
plots and filters work on lacak's mazes; :func:`from_maze_dataset` turns one back.
maze-dataset is imported only by these two (``pip install 'lacak[maze-dataset]'``).

maze-dataset's ``connection_list`` is a ``(2, rows, cols)`` boolean array:
``[0, r, c]`` is the passage down from ``(r, c)`` to ``(r + 1, c)``, ``[1, r, c]`` the
one right to ``(r, c + 1)``; :func:`connection_list` and :func:`from_connection_list`
convert with numpy only.

:func:`pixels` draws a maze and its solution as the pairs of images of Schwarzschild et
al. 2021 and Bansal et al. 2022 (the ``easy-to-hard-data`` mazes), or as maze-dataset's
``RasterizedMazeDataset`` gives them, with numpy only (docs/machine-learning.md).

>>> import lacak
>>> from lacak_mazes.interop import pixels
>>> maze = lacak.generate("maze", "wilson", (3, 4), seed=1)
>>> inputs, target = pixels(maze)          # its longest path: start and end at its ends
>>> inputs.shape, target.shape, inputs.dtype, int(target.max())
((3, 16, 20), (16, 20), dtype('uint8'), 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import lacak
import numpy as np

from ._common import E, N, S, W

__all__ = [
    "STYLES",
    "MissingDependencyError",
    "connection_list",
    "from_connection_list",
    "from_maze_dataset",
    "pixel_pair",
    "pixels",
    "to_maze_dataset",
]

#: The layouts :func:`pixels` draws.
STYLES = ("easy-to-hard", "maze-dataset")

# what a pixel shows, before it is coloured
_WALL, _OPEN, _PATH, _START, _END = range(5)
#: maze-dataset's ``PixelColors`` (RGB), by what a pixel shows: wall, open, path, start, end.
_COLORS = np.array(
    [(0, 0, 0), (255, 255, 255), (0, 0, 255), (0, 255, 0), (255, 0, 0)], dtype=np.uint8
)


class MissingDependencyError(lacak.LacakError, ImportError):
    """A package an optional part of lacak needs is not installed (the message says
    which, and the ``pip install`` that brings it). It is also an :class:`ImportError`."""


def _maze_dataset() -> Any:
    """The ``maze_dataset.maze`` module.

    :raises MissingDependencyError: maze-dataset is not installed.
    """
    try:
        import maze_dataset.maze as module  # the optional dependency: only here
    except ImportError as error:
        raise MissingDependencyError(
            f"converting to maze-dataset needs it installed: pip install 'lacak[maze-dataset]' "
            f"({error})"
        ) from None
    return module


def _rect_maze(maze: Any, what: str) -> Any:
    """``maze`` (or a puzzle's) when it is a rectangular :class:`Maze`.

    :raises InvalidPuzzleError: a maze on another grid, or with a mask, or not a maze.
    """
    from .maze import Maze  # (here: the module imports no maze code until used)

    found = getattr(maze, "maze", maze)
    if isinstance(found, Maze):
        return found
    grid = getattr(found, "grid", None)
    if grid is not None:
        raise lacak.InvalidPuzzleError(
            f"{what} takes rectangular mazes of cells only, not a maze on {grid.name} "
            "(nor one with a mask)"
        )
    raise lacak.InvalidPuzzleError(f"{what} takes a lacak Maze, got {type(maze).__name__}")


# -- maze-dataset's connection list -------------------------------------------------------


def connection_list(maze: Any) -> np.ndarray:
    """maze-dataset's ``connection_list`` of a rectangular maze: ``(2, rows, cols)``
    booleans, ``[0]`` the passages down, ``[1]`` the passages right.

    :raises InvalidPuzzleError: not a rectangular :class:`~lacak_mazes.Maze`.
    """
    cells = _rect_maze(maze, "connection_list").cells
    return np.stack([(cells & S) != 0, (cells & E) != 0])


def from_connection_list(array: Any, **fields: Any) -> Any:
    """The :class:`~lacak_mazes.Maze` of maze-dataset's ``connection_list`` (``fields``:
    ``start``, ``end``, ``solution`` and the others :class:`~lacak_mazes.Maze` takes).

    :raises InvalidPuzzleError: not a ``(2, rows, cols)`` array, or a passage out of
        the grid (down from the last row, right from the last column: maze-dataset's
        periodic lattices).
    """
    from .maze import Maze  # (here: the module imports no maze code until used)

    links = np.asarray(array)
    if links.ndim != 3 or links.shape[0] != 2 or 0 in links.shape:
        raise lacak.InvalidPuzzleError(
            f"a connection list is (2, rows, cols) booleans, got shape {links.shape}"
        )
    down, right = links.astype(bool)
    if down[-1].any() or right[:, -1].any():
        raise lacak.InvalidPuzzleError(
            "the connection list has a passage out of the grid (down from the last row or "
            "right from the last column): lacak's mazes do not wrap round"
        )
    cells = np.zeros(down.shape, dtype=np.uint8)
    cells[:-1] |= down[:-1] * np.uint8(S)
    cells[1:] |= down[:-1] * np.uint8(N)
    cells[:, :-1] |= right[:, :-1] * np.uint8(E)
    cells[:, 1:] |= right[:, :-1] * np.uint8(W)
    return Maze(cells, **fields)


# -- maze-dataset's mazes -----------------------------------------------------------------


def to_maze_dataset(maze: Any, solution: Sequence[Sequence[int]] | None = None) -> Any:
    """maze-dataset's maze of a rectangular lacak maze (or maze puzzle): a ``SolvedMaze``
    when there is a path (``solution``, else the maze's own), else a
    ``TargetedLatticeMaze`` when the maze has a start and an end, else a ``LatticeMaze``.

    :param solution: cells ``(row, col)`` from a start to an end, checked against the
        maze's walls (default: the maze's :attr:`~lacak_mazes.Maze.solution`).
    :raises MissingDependencyError: maze-dataset is not installed.
    :raises InvalidPuzzleError: a maze on another grid, or a path through a wall.
    """
    found = _rect_maze(maze, "to_maze_dataset")
    start, end = getattr(maze, "initial", found.start), getattr(maze, "goal", found.end)
    if solution is not None:
        found = found.with_solution(solution)
        start, end = found.start, found.end
    module = _maze_dataset()
    links = connection_list(found)
    meta = {"lacak": _made(found)}
    path = found.solution
    if path is not None and (path[0], path[-1]) == (start, end):
        return module.SolvedMaze(connection_list=links, solution=np.array(path, dtype=np.int64),
                                 generation_meta=meta)  # fmt: skip
    if start is not None and end is not None:
        return module.TargetedLatticeMaze(connection_list=links, start_pos=np.array(start),
                                          end_pos=np.array(end), generation_meta=meta)  # fmt: skip
    return module.LatticeMaze(connection_list=links, generation_meta=meta)


#: What a maze-dataset maze's ``generation_meta["lacak"]`` keeps of a lacak maze.
_MADE = ("algorithm", "seed", "options", "weights")


def _made(maze: Any) -> dict[str, Any]:
    """How lacak made ``maze`` (its generator, seed, options, weights), JSON data."""
    data = maze.to_dict()
    return {key: data[key] for key in _MADE if data.get(key) is not None}


def from_maze_dataset(obj: Any) -> Any:
    """The :class:`~lacak_mazes.Maze` of maze-dataset's maze (a ``LatticeMaze``, or any
    object with a ``connection_list``), with its ``start_pos``, ``end_pos`` and
    ``solution`` when it has them, and the generator, seed, options and weights of a
    maze :func:`to_maze_dataset` made (kept in its ``generation_meta["lacak"]``): that
    round trip gives the same maze, the same JSON. (maze-dataset need not be installed:
    only the object's attributes are read.)

    :raises InvalidPuzzleError: not a two-dimensional lattice maze, a passage out of the
        grid, or a solution that goes through a wall or does not join the ends.
    """
    links = getattr(obj, "connection_list", None)
    if links is None:
        raise lacak.InvalidPuzzleError(
            f"from_maze_dataset takes a maze-dataset maze (a LatticeMaze), got {type(obj).__name__}"
        )
    fields: dict[str, Any] = {}
    for name, key in (("start_pos", "start"), ("end_pos", "end")):
        value = getattr(obj, name, None)
        if value is not None:
            fields[key] = [int(v) for v in np.asarray(value).reshape(-1)]
    path = getattr(obj, "solution", None)
    if path is not None:
        cells = [[int(v) for v in cell] for cell in np.asarray(path).reshape(-1, 2)]
        fields["solution"] = cells
        for key, cell in (("start", cells[0] if cells else None),
                          ("end", cells[-1] if cells else None)):  # fmt: skip
            if fields.get(key, cell) != cell:
                raise lacak.InvalidPuzzleError(
                    f"the solution does not {key} at the maze's {key} {fields[key]}"
                )
    made = getattr(obj, "generation_meta", None)
    made = made.get("lacak") if isinstance(made, dict) else None
    if isinstance(made, dict):  # one lacak converted: as it was
        fields.update({key: made[key] for key in _MADE if key in made})
    maze = from_connection_list(links, **fields)
    if maze.solution is not None and not maze.solution:
        raise lacak.InvalidPuzzleError("the maze-dataset maze's solution is empty")
    return maze


# -- pixels -------------------------------------------------------------------------------


def _labels(cells: np.ndarray, path: Sequence[Sequence[int]]) -> np.ndarray:
    """What each pixel of the ``(2 rows + 1, 2 cols + 1)`` picture shows (maze-dataset's
    ``as_pixels`` of a ``SolvedMaze``): walls, open cells and passages, the path's cells
    and the passages between them, the start and the end."""
    rows, cols = cells.shape
    shown = np.full((2 * rows + 1, 2 * cols + 1), _WALL, dtype=np.uint8)
    shown[1::2, 1::2] = _OPEN
    shown[2:-1:2, 1::2][(cells[:-1] & S) != 0] = _OPEN
    shown[1::2, 2:-1:2][(cells[:, :-1] & E) != 0] = _OPEN
    at = np.asarray(path, dtype=np.int64).reshape(-1, 2)
    if len(at):
        shown[2 * at[:, 0] + 1, 2 * at[:, 1] + 1] = _PATH
        between = at[:-1] + at[1:] + 1  # 2 * a + 1 + (b - a): the pixel between two cells
        shown[between[:, 0], between[:, 1]] = _PATH
        shown[2 * at[0, 0] + 1, 2 * at[0, 1] + 1] = _START
        shown[2 * at[-1, 0] + 1, 2 * at[-1, 1] + 1] = _END
    return shown


def _without_isolated(shown: np.ndarray) -> np.ndarray:
    """Pixels that are not walls but have walls on all four sides made walls (as
    maze-dataset's rasteriser does: a one-cell path, a cell with no passage)."""
    wall = np.pad(shown == _WALL, 1, constant_values=True)
    alone = wall[1:-1, 2:] & wall[1:-1, :-2] & wall[2:, 1:-1] & wall[:-2, 1:-1]
    return np.where(alone & (shown != _WALL), _WALL, shown).astype(np.uint8)


def _enlarged(shown: np.ndarray) -> np.ndarray:
    """Each pixel a 2x2 block, inside a wall one pixel wide."""
    return np.pad(shown.repeat(2, axis=0).repeat(2, axis=1), 1, constant_values=_WALL)


def pixel_pair(
    cells: np.ndarray, path: Sequence[Sequence[int]], style: str = "easy-to-hard"
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`pixels` of a maze's bitmask ``cells`` and a ``path`` through them (not
    checked: a path through a wall is drawn through it)."""
    if style not in STYLES:
        raise lacak.InvalidOptionError(
            f"the pixels' style is one of {', '.join(STYLES)}, not {style!r}"
        )
    shown = _labels(np.asarray(cells, dtype=np.uint8), path)
    problem = np.where(shown == _PATH, _OPEN, shown)
    answer = np.where(shown == _OPEN, _WALL, np.where(shown == _PATH, _OPEN, shown))
    problem = _enlarged(_without_isolated(problem.astype(np.uint8)))
    answer = _enlarged(_without_isolated(answer.astype(np.uint8)))
    if style == "maze-dataset":
        return _COLORS[problem], _COLORS[answer]
    return (_COLORS[problem] // 255).transpose(2, 0, 1).copy(), (answer != _WALL).astype(np.uint8)


def pixels(
    maze: Any, solution: Sequence[Sequence[int]] | None = None, *, style: str = "easy-to-hard"
) -> tuple[np.ndarray, np.ndarray]:
    """A rectangular maze and its solution as a pair of images, ``(input, target)``, of
    ``H = 4 rows + 4`` by ``W = 4 cols + 4`` pixels: each cell, and each passage or wall
    between two cells, is a 2x2 block, inside a wall one pixel wide.

    - ``style="easy-to-hard"`` (the default), as in the mazes of Schwarzschild et al.
      2021 and Bansal et al. 2022 (``easy-to-hard-data``'s ``inputs.npy`` and
      ``solutions.npy``): the input ``(3, H, W)``, RGB channels first, 0 or 1: walls
      black, cells and passages white, the start green ``(0, 1, 0)``, the end red
      ``(1, 0, 0)``; the target ``(H, W)``, 1 on the path (its cells, the passages
      between them, the start and the end), 0 elsewhere.
    - ``style="maze-dataset"``: maze-dataset's ``RasterizedMazeDataset`` (its defaults),
      two ``(H, W, 3)`` RGB images, channels last, 0 or 255: the same input, and a target
      with the path white, the start green, the end red, the rest black.

    Both are ``uint8``. ``solution`` (cells from the start to the end) defaults to the
    maze's own; a maze with none gets the path between its ends, and a maze with no ends
    those of its longest path (see :meth:`~lacak_mazes.Maze.with_endpoints`).

    :raises InvalidPuzzleError: a maze on another grid, or a solution through a wall.
    :raises InvalidOptionError: an unknown ``style``.
    """
    if style not in STYLES:
        raise lacak.InvalidOptionError(
            f"the pixels' style is one of {', '.join(STYLES)}, not {style!r}"
        )
    found = _rect_maze(maze, "pixels")
    if solution is not None:
        found = found.with_solution(solution)
    elif found.solution is None:
        found = found.with_endpoints(found.start, found.end)
    return pixel_pair(found.cells, found.solution, style)

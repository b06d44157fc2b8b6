"""Pictures of mazes on any grid (:class:`~lacak_mazes.gridmaze.GridMaze`): SVG and PNG
drawn from each cell's sides, and a text sketch for the terminal.

A wall is drawn wherever a side has no passage: on the grid's outline and
between neighbours not linked. Cells with weights are shaded (darker costs
more), the solution is a line through the cells' centres (broken where it
steps across a wrapped grid's seam), the start a green dot and the end a red
one. The text picture rasterises the same sides onto characters (``-``,
``|``, ``/``, ``\\``, ``+`` where lines cross), ``S`` and ``E`` at the ends
and ``*`` along the solution: it reads well on the rectangle's shapes and
well enough on hexagons and triangles; use SVG or PNG for rings.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import lacak
import numpy as np
from lacak.drawing import Canvas

from .picture_parts import COLORS, MAX_PIXELS, caption, parse_colors
from .picture_parts import check_range as _check_range
from .picture_parts import colors_rgb as _colors
from .picture_parts import hex_colour as _hex

__all__ = ["grid_picture", "render_grid_maze", "text_sketch"]


class RectView:
    """The plain rectangle's bitmask :class:`~lacak_mazes.Maze` as this module draws a
    maze on a grid (a ``rect`` grid, cells by index ``row * width + col``): how a weighted
    rectangle is drawn, its cells shaded."""

    def __init__(self, maze: Any) -> None:
        from .grids import RectGrid  # (deferred: the grids, for this view only)

        height, width = maze.height, maze.width
        self.grid = RectGrid(height, width)
        self.maze = maze

        def flat(cell: Any) -> int | None:
            return None if cell is None else int(cell[0]) * width + int(cell[1])

        self.start, self.end = flat(maze.start), flat(maze.end)
        self.solution = None if maze.solution is None else [flat(c) for c in maze.solution]
        self.weights = None if maze.weights is None else maze.weights.ravel()
        self.tunnels = np.zeros((0, 3), dtype=np.int64)

    def adjacency(self) -> list[list[int]]:
        cells = self.maze.cells.ravel().tolist()
        width = self.grid.cols
        bits = {-width: 1, 1: 2, width: 4, -1: 8}  # N, E, S, W: a neighbour's offset
        return [[b for b in around if cells[a] & bits[b - a]]
                for a, around in enumerate(self.grid.neighbours)]  # fmt: skip


def drawable(maze: Any) -> Any:
    """``maze`` as this module draws it: a maze on a grid as it is, a bitmask rectangle
    through :class:`RectView`."""
    return maze if hasattr(maze, "grid") else RectView(maze)


def _walls(maze: Any) -> list[tuple[tuple[float, float], ...]]:
    """The polylines of every wall, each once, and the bridges of a woven maze."""
    grid = maze.grid
    adjacency = maze.adjacency()
    seen = set()
    walls = _bridges(maze)
    crossed = {(u, end) for a, u, b in maze.tunnels.tolist() for end in (a, b)}
    for cell, around in enumerate(grid.sides):
        opened = adjacency[cell]
        for side in around:
            if side.neighbour >= 0 and (
                side.neighbour in opened or (cell, side.neighbour) in crossed
            ):
                continue
            key = tuple(sorted((round(x, 6), round(y, 6)) for x, y in side.points))
            if key in seen:
                continue
            seen.add(key)
            walls.append(side.points)
    return walls


def _bridges(maze: Any) -> list[tuple[tuple[float, float], ...]]:
    """Where a tunnel passes under a cell: the corridor over it narrowed to a bridge (its
    railings a quarter in from each side), and the tunnel's walls beside the bridge."""
    lines: list[tuple[tuple[float, float], ...]] = []
    ids = maze.grid.ids
    for a, under, _b in maze.tunnels.tolist():
        row, col = ids[under]
        across = ids[a][0] == row  # the tunnel runs east-west, the bridge north-south

        def at(x: float, y: float, row: int = row, col: int = col,
               across: bool = across) -> tuple[float, float]:  # fmt: skip
            # (x, y) in the cell's own frame, x along the tunnel, turned for a north-south one
            return (col + x, row + y) if across else (col + y, row + x)

        lines += [(at(0.25, 0), at(0.25, 1)), (at(0.75, 0), at(0.75, 1))]  # the railings
        for y in (0.0, 1.0):
            lines += [(at(0, y), at(0.25, y)), (at(0.75, y), at(1, y))]
    return lines


def _path_pieces(maze: Any) -> list[list[int]]:
    """The solution's cells in pieces: a new piece where a step crosses a seam."""
    if not maze.solution:
        return []
    grid = maze.grid
    far = 1.5 * grid.longest_step
    tunnels = {(a, b) for a, _u, b in maze.tunnels.tolist()}
    tunnels |= {(b, a) for a, b in tunnels}
    pieces = [[maze.solution[0]]]
    for a, b in itertools.pairwise(maze.solution):
        if math.dist(grid.centres[a], grid.centres[b]) > far and (a, b) not in tunnels:
            pieces.append([b])
        else:
            pieces[-1].append(b)
    return pieces


def _shade(weight: float, lightest: float, heaviest: float) -> str:
    share = 0.0 if heaviest <= lightest else (weight - lightest) / (heaviest - lightest)
    level = round(250 - 80 * share)  # light enough for the walls to show on the darkest
    return f"#{level:02x}{level:02x}{min(255, level + 8):02x}"


def draw(maze: Any, *, cell_size: int | None = None, wall_width: int | None = None,
         title: str = "", **colours: Any) -> Canvas:  # fmt: skip
    """The maze on a :class:`~lacak.drawing.Canvas`."""
    width_units, height_units = maze.grid.extent
    if cell_size is None:
        cell_size = max(4, min(24, int(1600 // max(width_units, height_units, 1))))
    _check_range("cell size", cell_size, 2, 200)
    if wall_width is None:
        wall_width = max(1, cell_size // 8)
    _check_range("wall width", wall_width, 1, 100)
    if wall_width >= cell_size:
        raise lacak.InvalidOptionError(
            f"wall width ({wall_width}) must be less than the cell size ({cell_size})"
        )
    margin = wall_width + 2
    width = math.ceil(width_units * cell_size) + 2 * margin
    height = math.ceil(height_units * cell_size) + 2 * margin
    if width * height > MAX_PIXELS:
        raise lacak.InvalidOptionError(
            f"a picture of {maze.grid.name} with {cell_size}-pixel cells would be "
            f"{width:,}x{height:,} pixels, over the limit of {MAX_PIXELS:,}: choose a smaller "
            "cell size"
        )
    colors = {name: _hex(rgb) for name, rgb in _colors(colours).items()}

    def at(point: tuple[float, float]) -> tuple[float, float]:
        return (round(margin + point[0] * cell_size, 2), round(margin + point[1] * cell_size, 2))

    canvas = Canvas(width, height, background=colors["background"], title=title)
    grid = maze.grid
    if maze.weights is not None:
        lightest, heaviest = float(maze.weights.min()), float(maze.weights.max())
        for cell, around in enumerate(grid.sides):
            points = [at(p) for side in around for p in side.points[:-1]]
            canvas.polygon(points, fill=_shade(float(maze.weights[cell]), lightest, heaviest))
    for piece in _path_pieces(maze):
        canvas.line([at(grid.centres[c]) for c in piece], stroke=colors["solution"],
                    width=max(1.0, cell_size * 0.3), opacity=0.85)  # fmt: skip
    for name in ("start", "end"):
        cell = getattr(maze, name)
        if cell is not None:
            x, y = at(grid.centres[cell])
            canvas.circle(x, y, max(1.5, cell_size * 0.3), fill=colors[name])
    for wall in _walls(maze):
        canvas.line([at(p) for p in wall], stroke=colors["wall"], width=wall_width)
    return canvas


#: The grids whose text picture reads well (squares).
TEXT_GRIDS = ("rect", "cylinder", "torus")


def text_sketch(maze: Any, *, cell_width: int = 0) -> str:
    """The maze as characters: its walls rasterised, ``S``/``E`` at the ends, ``*`` on the
    solution. ``cell_width`` (1-5, default 2) sets the characters per cell unit across
    (twice that, as a character is about twice as tall as wide).

    :raises InvalidOptionError: a grid of other shapes than squares (hexagons read
        badly in characters): draw SVG or PNG.
    """
    if maze.grid.type not in TEXT_GRIDS:
        raise lacak.InvalidOptionError(
            f"a maze on {maze.grid.name} has no text picture that reads well: draw it as SVG "
            "or PNG (-o maze.svg, -f png) or print its JSON (--json)"
        )
    scale = 2 if not cell_width else _check_range("cell width", cell_width, 1, 5)
    sx, sy = 2.0 * scale, 1.0 * scale
    width_units, height_units = maze.grid.extent
    cols = math.ceil(width_units * sx) + 1
    rows = math.ceil(height_units * sy) + 1
    if cols * rows > 4_000_000:
        raise lacak.InvalidOptionError(
            f"a text picture of {maze.grid.name} would be {cols}x{rows} characters: use SVG or PNG"
        )
    marks: list[list[set[str]]] = [[set() for _ in range(cols)] for _ in range(rows)]

    def plot(p: tuple[float, float], q: tuple[float, float]) -> None:
        dx, dy = (q[0] - p[0]) * sx, (q[1] - p[1]) * sy
        steps = max(1, math.ceil(2 * max(abs(dx), abs(dy))))
        if abs(dy) <= 0.4 * abs(dx):
            char = "-"
        elif abs(dx) <= 0.4 * abs(dy):
            char = "|"
        else:
            char = "\\" if dx * dy > 0 else "/"
        for k in range(steps + 1):
            x = round(p[0] * sx + dx * k / steps)
            y = round(p[1] * sy + dy * k / steps)
            marks[min(max(y, 0), rows - 1)][min(max(x, 0), cols - 1)].add(char)

    for wall in _walls(maze):
        for p, q in itertools.pairwise(wall):
            plot(p, q)
    lines = [["+" if len(m) > 1 else (next(iter(m)) if m else " ") for m in row] for row in marks]
    grid = maze.grid

    def put(cell: int, char: str) -> None:
        x, y = grid.centres[cell]
        lines[min(round(y * sy), rows - 1)][min(round(x * sx), cols - 1)] = char

    for cell in maze.solution or ():
        put(cell, "*")
    if maze.start is not None:
        put(maze.start, "S")
    if maze.end is not None:
        put(maze.end, "E")
    return "\n".join("".join(line).rstrip() for line in lines)


def grid_picture(maze: Any, format: str = "text", *, ascii: Any = False, cell_width: int = 0,
                 cell_size: int = 0, wall_width: int = 0, color: Any = (),
                 title: str | None = None) -> Any:  # fmt: skip
    """What :func:`lacak_mazes.render.picture` draws for a maze on a grid: the text sketch
    (with ``title`` below), SVG text, PNG bytes or the JSON."""
    if format == "text":
        text = text_sketch(maze, cell_width=cell_width)
        return text + ("\n" + title if title else "")
    if format in ("svg", "png"):
        canvas = draw(maze, cell_size=cell_size or None, wall_width=wall_width or None,
                      title=title or "", **parse_colors(color))  # fmt: skip
        return canvas.svg() if format == "svg" else canvas.png()
    if format == "json":
        return maze.to_json()
    raise lacak.InvalidOptionError(f"a maze picture is text, svg, png or json, not {format!r}")


def render_grid_maze(maze: Any, format: str = "text", **options: Any) -> str | bytes:
    """:meth:`GridMaze.render <lacak_mazes.gridmaze.GridMaze.render>`: ``"text"``
    (``cell_width``), ``"svg"`` and ``"png"`` (``cell_size``, ``wall_width``, the colours
    by name: ``wall``, ``background``, ``solution``, ``start``, ``end``) or ``"json"``."""
    allowed = {"text": {"cell_width"}, "json": set()}.get(format, {"cell_size", "wall_width",
                                                                   *COLORS})  # fmt: skip
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise lacak.InvalidOptionError(
            f"format {format!r} takes no option {', '.join(map(repr, unknown))}"
        )
    if format == "text":
        return text_sketch(maze, **options)
    if format in ("svg", "png"):
        # the title `lacak maze generate` gives the picture (a RectView's: its maze's)
        canvas = draw(maze, title=caption(getattr(maze, "maze", maze)), **options)
        return canvas.svg() if format == "svg" else canvas.png()
    if format == "json":
        return maze.to_json()
    raise lacak.InvalidOptionError(f"a maze picture is text, svg, png or json, not {format!r}")

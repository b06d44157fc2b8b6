"""Pictures of mazes: terminal text (Unicode box drawing or ASCII), SVG and PNG.

Text pictures put the walls on a character grid: line ``2r`` holds the
corners and horizontal walls above row ``r``, line ``2r + 1`` the vertical
walls and the ``cell_width`` characters inside each cell. The start is ``S``,
the end ``E``, and the solution a dotted line through the cell centres.
:func:`rich_text` gives the same picture with colours for a terminal.

SVG and PNG draw walls ``wall_width`` thick on a grid of ``cell_size``
pixels, the solution as a line through the cell centres, and the start and
end as discs. Colours are CSS names or ``#rrggbb``.

:func:`picture` is what the command line draws (a maze with a caption, the
options of :data:`PICTURE_OPTIONS`), and :func:`render_puzzle` the ``maze``
puzzle kind's ``render``: the maze of a :class:`~lacak_mazes.MazePuzzle` with
the solution a search found.

>>> from lacak_mazes import Maze
>>> print(render_text(Maze.from_rows([[6, 12], [1, 1]]), unicode=False))
+-+-+
|   |
+ + +
| | |
+-+-+
"""

from __future__ import annotations

import io
import itertools
import shutil
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape as xml_escape

import attrs
import lacak

from ._common import E, N, S, W
from .picture_parts import (
    COLORS,
    MAX_PIXELS,
    caption,
    made_with,
    parse_colors,
)
from .picture_parts import check_range as _check_range
from .picture_parts import colors_rgb as _colors
from .picture_parts import hex_colour as _hex

# This module is loaded whenever the plugins register (the ``maze`` kind's picture
# options are here): numpy, rich and Pillow are imported inside the functions that draw.
if TYPE_CHECKING:
    import numpy as np

    from ._shape import MazeLike, MazePuzzleLike

__all__ = [
    "COLORS",
    "FORMATS",
    "MAX_PIXELS",
    "PICTURE_HELP",
    "PICTURE_OPTIONS",
    "best_cell_width",
    "caption",
    "made_with",
    "parse_colors",
    "picture",
    "render",
    "render_png",
    "render_puzzle",
    "render_svg",
    "render_text",
    "rich_text",
]

#: Output formats: ``"text"`` (Unicode box drawing, or ASCII with ``ascii=True``),
#: ``"svg"``, ``"png"`` (bytes) and ``"json"`` (the maze's own JSON).
FORMATS = ("text", "svg", "png", "json")

#: The options of :func:`picture` and :func:`render_puzzle`, with their defaults
#: (``0``: chosen to fit); the command line offers each as ``--NAME``.
PICTURE_OPTIONS: dict[str, Any] = {
    "ascii": False,
    "cell_width": 0,
    "cell_size": 0,
    "wall_width": 0,
    "color": (),
}

#: What each of :data:`PICTURE_OPTIONS` does, for help texts.
PICTURE_HELP = {
    "ascii": "Draw text pictures in ASCII (+--+, |) instead of box drawing.",
    "cell_width": "Characters per cell in text pictures, 1-5 (default: the widest that fits).",
    "cell_size": "Pixels per cell in SVG and PNG, 2-200 (default: 16, less for big mazes).",
    "wall_width": "Wall thickness in pixels in SVG and PNG (default: an eighth of a cell).",
    "color": "NAME=COLOUR for SVG and PNG, NAME one of wall, background, solution, start, "
    "end; COLOUR a CSS name or #rrggbb (repeatable).",
}

#: Light box-drawing glyph for each set of arms (up=1, right=2, down=4, left=8).
_BOX = " ╵╶└╷│┌├╴┘─┴┐┤┬┼"

#: Terminal colours (rich styles) of the markers.
_STYLES = {"path": "bold yellow", "start": "bold green", "end": "bold red"}


def _walls(maze: MazeLike) -> tuple[np.ndarray, np.ndarray]:
    """``(horizontal, vertical)`` wall arrays.

    ``horizontal[r, c]`` (``r`` in 0..height): a wall above cell ``(r, c)``;
    ``vertical[r, c]`` (``c`` in 0..width): a wall left of cell ``(r, c)``.
    """
    import numpy as np  # (deferred: see the module's imports)

    cells = maze.cells
    h, w = maze.shape
    horizontal = np.ones((h + 1, w), dtype=bool)
    horizontal[1:h, :] = (cells[:-1, :] & S) == 0
    vertical = np.ones((h, w + 1), dtype=bool)
    vertical[:, 1:w] = (cells[:, :-1] & E) == 0
    return horizontal, vertical


def best_cell_width(width: int, columns: int) -> int:
    """3 characters per cell (square-looking) when ``width`` cells fit in ``columns``, else 1.

    (Even widths put the solution's dots off centre, so they are only used when asked for.)
    """
    return 3 if width * 4 + 1 <= columns else 1


def _char_grid(
    maze: MazeLike, unicode: bool, cell_width: int, show_solution: bool
) -> tuple[np.ndarray, list[tuple[int, int, str]]]:
    import numpy as np  # (deferred: see the module's imports)

    k = cell_width
    h, w = maze.shape
    horizontal, vertical = _walls(maze)
    lines, cols = 2 * h + 1, w * (k + 1) + 1
    grid = np.full((lines, cols), ord(" "), dtype=np.uint32)
    # arms of each corner (r in 0..h, c in 0..w)
    up = np.zeros((h + 1, w + 1), dtype=np.uint8)
    up[1:, :] = vertical
    down = np.zeros((h + 1, w + 1), dtype=np.uint8)
    down[:-1, :] = vertical
    left = np.zeros((h + 1, w + 1), dtype=np.uint8)
    left[:, 1:] = horizontal
    right = np.zeros((h + 1, w + 1), dtype=np.uint8)
    right[:, :-1] = horizontal
    arms = up * N | right * E | down * S | left * W
    if unicode:
        corner = np.array([ord(ch) for ch in _BOX], dtype=np.uint32)[arms]
        dash, bar = ord("─"), ord("│")
    else:
        corner = np.where(arms > 0, ord("+"), ord(" ")).astype(np.uint32)
        dash, bar = ord("-"), ord("|")
    grid[0::2, 0 :: k + 1] = corner
    for offset in range(1, k + 1):
        grid[0::2, offset :: k + 1] = np.where(horizontal, dash, ord(" "))
    grid[1::2, 0 :: k + 1] = np.where(vertical, bar, ord(" "))
    marks: list[tuple[int, int, str]] = []
    centre = 1 + k // 2

    def position(cell: tuple[int, int]) -> tuple[int, int]:
        return 2 * cell[0] + 1, cell[1] * (k + 1) + centre

    if show_solution and maze.solution is not None:
        dot, link = (ord("•"), ord("·")) if unicode else (ord("*"), ord("."))
        path = [position(cell) for cell in maze.solution]
        for (y1, x1), (y2, x2) in itertools.pairwise(path):
            if y1 == y2:
                lo, hi = sorted((x1, x2))
                grid[y1, lo + 1 : hi] = link
                marks += [(y1, x, "path") for x in range(lo + 1, hi)]
            else:
                lo, hi = sorted((y1, y2))
                grid[lo + 1 : hi, x1] = link
                marks += [(y, x1, "path") for y in range(lo + 1, hi)]
        for y, x in path:
            grid[y, x] = dot
            marks.append((y, x, "path"))
    for name, letter in (("start", "S"), ("end", "E")):
        cell = getattr(maze, name)
        if cell is not None:
            y, x = position(cell)
            grid[y, x] = ord(letter)
            marks.append((y, x, name))
    return grid, marks


def _lines(grid: np.ndarray) -> list[str]:
    import numpy as np  # (deferred: see the module's imports)

    _rows, cols = grid.shape
    text = np.ascontiguousarray(grid).view(np.dtype(f"U{cols}")).ravel()
    return [str(line) for line in text]


def render_text(
    maze: MazeLike, *, unicode: bool = True, cell_width: int = 1, show_solution: bool = True
) -> str:
    """The maze as lines of text: ASCII (``+--+``, ``|``) or Unicode box drawing.

    :param cell_width: characters inside each cell (1-5); 3 looks square in most terminals.
    :param show_solution: mark the solution, when the maze has one.
    :raises InvalidOptionError: a cell width outside 1-5.
    """
    _check_range("cell width", cell_width, 1, 5)
    grid, _marks = _char_grid(maze, unicode, cell_width, show_solution)
    return "\n".join(_lines(grid))


def rich_text(
    maze: MazeLike, *, unicode: bool = True, cell_width: int = 1, show_solution: bool = True
) -> Any:
    """The picture of :func:`render_text` as a :class:`rich.text.Text` with coloured markers."""
    from rich.text import Text  # (deferred: see the module's imports)

    _check_range("cell width", cell_width, 1, 5)
    grid, marks = _char_grid(maze, unicode, cell_width, show_solution)
    lines = _lines(grid)
    stride = grid.shape[1] + 1
    text = Text("\n".join(lines))
    for y, x, kind in marks:
        text.stylize(_STYLES[kind], y * stride + x, y * stride + x + 1)
    return text


def _pixels(maze: MazeLike, cell_size: int, wall_width: int) -> tuple[int, int]:
    """``(width, height)`` in pixels of a picture of ``maze``."""
    return maze.width * cell_size + wall_width, maze.height * cell_size + wall_width


def _geometry(maze: MazeLike, cell_size: int | None, wall_width: int | None) -> tuple[int, int]:
    if cell_size is None:
        cell_size = max(4, min(16, 4000 // max(maze.height, maze.width)))
        # big mazes: smaller cells (down to 2 pixels) to stay within MAX_PIXELS
        while cell_size > 2 and _area(maze, cell_size, max(1, cell_size // 8)) > MAX_PIXELS:
            cell_size -= 1
    _check_range("cell size", cell_size, 2, 200)
    if wall_width is None:
        wall_width = max(1, cell_size // 8)
    _check_range("wall width", wall_width, 1, 100)
    if wall_width >= cell_size:
        raise lacak.InvalidOptionError(
            f"wall width ({wall_width}) must be less than the cell size ({cell_size})"
        )
    return cell_size, wall_width


def _area(maze: MazeLike, cell_size: int, wall_width: int) -> int:
    width, height = _pixels(maze, cell_size, wall_width)
    return width * height


def _check_pixels(maze: MazeLike, cell_size: int, wall_width: int) -> None:
    """Refuse a PNG over :data:`MAX_PIXELS` before any memory is taken for it.

    :raises InvalidOptionError: naming the size and the limit.
    """
    width, height = _pixels(maze, cell_size, wall_width)
    if width * height > MAX_PIXELS:
        raise lacak.InvalidOptionError(
            f"a PNG of this {maze.height}x{maze.width} maze with {cell_size}-pixel cells would be "
            f"{width:,}x{height:,} = {width * height:,} pixels, over the limit of "
            f"{MAX_PIXELS:,} pixels: choose a smaller cell size (or SVG)"
        )


def render_svg(
    maze: MazeLike,
    *,
    cell_size: int | None = None,
    wall_width: int | None = None,
    show_solution: bool = True,
    **colors: str,
) -> str:
    """The maze as an SVG document.

    :param cell_size: pixels per cell (default: 16, less for big mazes).
    :param wall_width: wall thickness in pixels (default: an eighth of the cell).
    :param colors: ``wall``, ``background``, ``solution``, ``start``, ``end``.
    :raises InvalidOptionError: a bad size or colour.

    Text (the title, with the maze's ``algorithm``) is XML-escaped.
    """
    import numpy as np  # (deferred: see the module's imports)

    cs, ww = _geometry(maze, cell_size, wall_width)
    palette = {name: _hex(rgb) for name, rgb in _colors(colors).items()}
    horizontal, vertical = _walls(maze)
    h, w = maze.shape
    margin = ww / 2
    width, height = w * cs + ww, h * cs + ww
    parts: list[str] = []
    # horizontal walls, merged into runs
    for r in range(h + 1):
        row = np.concatenate(([False], horizontal[r], [False]))
        edges = np.flatnonzero(row[1:] != row[:-1])
        y = r * cs + margin
        for a, b in zip(edges[0::2], edges[1::2], strict=False):
            parts.append(f"M{a * cs:g} {y:g}H{b * cs + ww:g}")
    for c in range(w + 1):
        col = np.concatenate(([False], vertical[:, c], [False]))
        edges = np.flatnonzero(col[1:] != col[:-1])
        x = c * cs + margin
        for a, b in zip(edges[0::2], edges[1::2], strict=False):
            parts.append(f"M{x:g} {a * cs:g}V{b * cs + ww:g}")
    title = made_with(maze)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">',
        f"<title>{xml_escape(title)}</title>",
        f'<rect width="{width}" height="{height}" fill="{palette["background"]}"/>',
    ]

    def centre(cell: tuple[int, int]) -> tuple[float, float]:
        return cell[1] * cs + margin + cs / 2, cell[0] * cs + margin + cs / 2

    if show_solution and maze.solution is not None and len(maze.solution) > 1:
        points = " ".join(f"{x:g},{y:g}" for x, y in map(centre, maze.solution))
        out.append(
            f'<polyline points="{points}" fill="none" stroke="{palette["solution"]}" '
            f'stroke-width="{max(1.0, (cs - ww) / 3):g}" stroke-linecap="round" '
            f'stroke-linejoin="round"/>'
        )
    out.append(
        f'<path d="{"".join(parts)}" stroke="{palette["wall"]}" stroke-width="{ww}" '
        f'stroke-linecap="square" fill="none"/>'
    )
    for name in ("start", "end"):
        cell = getattr(maze, name)
        if cell is not None:
            x, y = centre(cell)
            out.append(
                f'<circle cx="{x:g}" cy="{y:g}" r="{max(1.0, (cs - ww) / 2.6):g}" '
                f'fill="{palette[name]}"><title>{name}</title></circle>'
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def render_png(
    maze: MazeLike,
    *,
    cell_size: int | None = None,
    wall_width: int | None = None,
    show_solution: bool = True,
    **colors: str,
) -> bytes:
    """The maze as PNG bytes (Pillow); options as for :func:`render_svg`.

    The picture may have at most :data:`MAX_PIXELS` pixels; the default cell size
    shrinks (to 2 pixels) to keep big mazes within it.

    Walls are drawn in one go with numpy (a block grid of corners, walls and
    cells, each block stretched to its pixel size), so big mazes are quick.
    """
    import numpy as np  # (deferred: see the module's imports)
    from PIL import Image, ImageDraw, PngImagePlugin  # (deferred: see the module's imports)

    cs, ww = _geometry(maze, cell_size, wall_width)
    _check_pixels(maze, cs, ww)
    palette = _colors(colors)
    h, w = maze.shape
    horizontal, vertical = _walls(maze)
    blocks = np.zeros((2 * h + 1, 2 * w + 1), dtype=bool)
    blocks[0::2, 1::2] = horizontal
    blocks[1::2, 0::2] = vertical
    corners = np.zeros((h + 1, w + 1), dtype=bool)
    corners[:, :-1] |= horizontal
    corners[:, 1:] |= horizontal
    corners[:-1, :] |= vertical
    corners[1:, :] |= vertical
    blocks[0::2, 0::2] = corners
    row_sizes = np.tile([ww, cs - ww], h + 1)[: 2 * h + 1]
    col_sizes = np.tile([ww, cs - ww], w + 1)[: 2 * w + 1]
    mask = np.repeat(np.repeat(blocks, row_sizes, axis=0), col_sizes, axis=1)
    pixels = np.empty((*mask.shape, 3), dtype=np.uint8)
    pixels[...] = palette["background"]
    pixels[mask] = palette["wall"]
    image = Image.fromarray(pixels, "RGB")
    draw = ImageDraw.Draw(image)

    def centre(cell: tuple[int, int]) -> tuple[float, float]:
        return cell[1] * cs + ww + (cs - ww - 1) / 2, cell[0] * cs + ww + (cs - ww - 1) / 2

    if show_solution and maze.solution is not None and len(maze.solution) > 1:
        draw.line(
            [centre(cell) for cell in maze.solution],
            fill=palette["solution"],
            width=max(1, (cs - ww) // 3),
            joint="curve",
        )
    radius = max(1.0, (cs - ww) / 2.6)
    for name in ("start", "end"):
        cell = getattr(maze, name)
        if cell is not None:
            x, y = centre(cell)
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=palette[name])
    info = PngImagePlugin.PngInfo()
    info.add_text("Title", f"{maze.algorithm or 'maze'} {h}x{w}")
    if maze.seed is not None:
        info.add_text("Comment", made_with(maze).split(", ", 1)[1])  # seed and options
    buffer = io.BytesIO()
    image.save(buffer, "PNG", pnginfo=info, optimize=False)
    return buffer.getvalue()


def _check_format(format: Any) -> str:
    if format not in FORMATS:
        hint = " (Unicode box drawing is 'text'; ascii=True draws ASCII)" if format in (
            "unicode", "ascii") else ""  # fmt: skip
        raise lacak.InvalidOptionError(
            f"unknown maze format {format!r}; choose one of {', '.join(FORMATS)}{hint}"
        )
    return str(format)


def _drawn_as_grid(maze: Any) -> bool:
    """Whether ``maze`` is drawn from its cells' sides (:mod:`lacak_mazes.gridrender`): a
    maze on another grid, or a weighted rectangle (its cells shaded by weight)."""
    return hasattr(maze, "grid") or getattr(maze, "weights", None) is not None


def render(maze: MazeLike, format: str = "text", **options: Any) -> str | bytes:
    """Render ``maze`` as ``format``: one of :data:`FORMATS`.

    Options: ``ascii`` (``False``: box drawing), ``cell_width`` and
    ``show_solution`` for text; ``cell_size``, ``wall_width``, ``show_solution``
    and the colours for SVG and PNG.

    :raises InvalidOptionError: an unknown format or option.
    """
    format = _check_format(format)
    if format in ("svg", "png") and _drawn_as_grid(maze):
        from .gridrender import drawable, render_grid_maze  # (deferred: only such mazes)

        return render_grid_maze(drawable(maze), format, **options)
    if format == "text":
        allowed = {"ascii", "cell_width", "show_solution"}
    elif format in ("svg", "png"):
        allowed = {"cell_size", "wall_width", "show_solution", *COLORS}
    else:
        allowed = set()
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise lacak.InvalidOptionError(
            f"format {format!r} takes no option {', '.join(map(repr, unknown))}"
        )
    if format == "text":
        ascii = lacak.as_flag(options.pop("ascii", False), "option 'ascii'")
        return render_text(maze, unicode=not ascii, **options)
    if format == "svg":
        return render_svg(maze, **options)
    if format == "png":
        return render_png(maze, **options)
    return maze.to_json()


def picture(
    maze: MazeLike,
    format: str = "text",
    *,
    ascii: Any = False,
    cell_width: int = 0,
    cell_size: int = 0,
    wall_width: int = 0,
    color: Any = (),
    title: str | None = None,
) -> Any:
    """The picture of ``maze`` the command line shows: a :class:`rich.text.Text` for
    ``"text"`` (coloured markers, ``title`` on a line of its own below), SVG text,
    PNG bytes, or the maze's JSON.

    Options that do not apply to the format are ignored (``cell_width`` for SVG).
    ``0`` means "fit": the widest text cells that fit the terminal, the default
    pixel sizes.

    :param color: ``NAME=COLOUR`` texts or a mapping (see :func:`parse_colors`).
    :raises InvalidOptionError: an unknown format, or a bad size or colour.
    """
    format = _check_format(format)
    if format != "json" and _drawn_as_grid(maze):
        from .gridrender import drawable, grid_picture  # (deferred: only such mazes)

        return grid_picture(drawable(maze), format, ascii=ascii, cell_width=cell_width,
                            cell_size=cell_size, wall_width=wall_width, color=color,
                            title=title)  # fmt: skip
    colors: dict[str, Any] = parse_colors(color)
    if format == "text":
        if cell_width == 0:
            cell_width = best_cell_width(maze.width, shutil.get_terminal_size((80, 24)).columns)
        unicode = not lacak.as_flag(ascii, "option 'ascii'")
        text = rich_text(maze, unicode=unicode, cell_width=cell_width)
        if title:
            # appended as Text: a title holds data (the algorithm's name), never markup
            text.append("\n" + title, style="dim")
        return text
    if format == "svg":
        return render_svg(maze, cell_size=cell_size or None, wall_width=wall_width or None,
                          **colors)  # fmt: skip
    if format == "png":
        return render_png(maze, cell_size=cell_size or None, wall_width=wall_width or None,
                          **colors)  # fmt: skip
    return maze.to_json()


def render_puzzle(
    puzzle: MazePuzzleLike, result: Any = None, format: str = "text", *, full: bool = False,
    **options: Any,
) -> Any:  # fmt: skip
    """The ``maze`` kind's picture: the puzzle's maze with its start and end and, given a
    found ``result``, the path it found (see :func:`picture` for the formats and options).

    A picture is always drawn whole: ``full`` (the command line's ``--full``) changes
    nothing.

    :raises InvalidOptionError: a bad format or option.
    """
    unknown = sorted(set(options) - set(PICTURE_OPTIONS))
    if unknown:
        raise lacak.InvalidOptionError(
            f"a maze picture takes no option {', '.join(map(repr, unknown))} "
            f"(its options: {', '.join(PICTURE_OPTIONS)})"
        )
    maze = puzzle.maze
    if result is not None and result.found:
        shown = maze.with_solution(result.states)
    else:
        shown = attrs.evolve(maze, start=puzzle.initial, end=puzzle.goal, solution=None)
    return picture(shown, format, title=caption(shown), **options)

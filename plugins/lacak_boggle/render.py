"""Pictures of a board: in the terminal (rich) and as SVG, with a word's path drawn.

rich is imported by the function that makes the terminal picture (an SVG, or a
result's JSON, needs none of it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

import lacak

from .board import BLANK, Board

__all__ = ["board_renderable", "board_svg", "display_tile"]

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def display_tile(tile: str) -> str:
    """How a tile is printed: ``"Qu"`` for ``QU`` (as on the dice), ``"■"`` for a blank."""
    if tile == BLANK:
        return "■"
    return tile[0] + tile[1:].lower()


def _steps(board: Board, path: Sequence[Sequence[int]] | None) -> dict[tuple[int, int], int]:
    if not path:
        return {}
    if not board.is_path(path):
        raise lacak.InvalidInputError(f"{[list(c) for c in path]} is not a path on this board")
    return {(int(r), int(c)): i + 1 for i, (r, c) in enumerate(path)}


def board_renderable(
    board: Board, path: Sequence[Sequence[int]] | None = None, *, title: str | None = None
) -> Any:
    """A rich renderable of the board; the tiles of ``path`` are highlighted and numbered.

    The first tile of the path is green, the others yellow; each carries its
    step number as a superscript, so the order survives when colour does not.
    """
    from rich import box  # (deferred: rich takes ~25 ms to import)
    from rich.table import Table
    from rich.text import Text

    steps = _steps(board, path)
    table = Table(show_header=False, box=box.SQUARE, show_lines=True, title=title, padding=(0, 1))
    for _ in range(board.cols):
        table.add_column(justify="center", min_width=3)
    for r, row in enumerate(board.tiles):
        cells = []
        for c, tile in enumerate(row):
            step = steps.get((r, c))
            label = display_tile(tile)
            if step is None:
                style = "dim" if tile == BLANK else "bold"
                cells.append(Text(label, style=style))
            else:
                style = "bold white on green" if step == 1 else "bold black on yellow"
                cells.append(Text(label + str(step).translate(_SUPERSCRIPT), style=style))
        table.add_row(*cells)
    return table


def board_svg(
    board: Board,
    path: Sequence[Sequence[int]] | None = None,
    *,
    caption: str | None = None,
    cell: int = 64,
) -> str:
    """The board as a standalone SVG document, with ``path`` drawn as a line from tile to tile.

    :param caption: text under the board (e.g. the word and its score).
    :param cell: tile size in pixels.
    """
    steps = _steps(board, path)
    rows, cols = board.shape
    gap = max(2, cell // 10)
    margin = gap * 2
    width = margin * 2 + cols * cell + (cols - 1) * gap
    height = margin * 2 + rows * cell + (rows - 1) * gap + (cell // 2 if caption else 0)

    def centre(r: int, c: int) -> tuple[float, float]:
        return (margin + c * (cell + gap) + cell / 2, margin + r * (cell + gap) + cell / 2)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif">',
        "<defs>",
        '<marker id="arrow" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="4" '
        'markerHeight="4" orient="auto-start-reverse">'
        '<path d="M 0 0 L 10 5 L 0 10 z" fill="#c0392b"/></marker>',
        "</defs>",
        f'<rect width="{width}" height="{height}" fill="#2c3e50"/>',
    ]
    for r, row in enumerate(board.tiles):
        for c, tile in enumerate(row):
            x = margin + c * (cell + gap)
            y = margin + r * (cell + gap)
            on_path = (r, c) in steps
            if tile == BLANK:
                fill = "#111111"
            elif on_path:
                fill = "#a9dfbf" if steps[(r, c)] == 1 else "#f9e79f"
            else:
                fill = "#fdfefe"
            out.append(
                f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" rx="{cell // 8}" '
                f'fill="{fill}" stroke="#1b2631" stroke-width="2"/>'
            )
            if tile != BLANK:
                text = escape(display_tile(tile))
                size = int(cell * (0.5 if len(tile) == 1 else 0.4))
                cx, cy = centre(r, c)
                out.append(
                    f'<text x="{cx:g}" y="{cy:g}" font-size="{size}" font-weight="bold" '
                    f'text-anchor="middle" dominant-baseline="central" fill="#1b2631">{text}</text>'
                )
    if steps:
        ordered = sorted(steps, key=steps.__getitem__)
        points = " ".join(f"{x:g},{y:g}" for x, y in (centre(r, c) for r, c in ordered))
        out.append(
            f'<polyline points="{points}" fill="none" stroke="#c0392b" stroke-width="{cell // 8}" '
            'stroke-linecap="round" stroke-linejoin="round" stroke-opacity="0.75" '
            'marker-end="url(#arrow)"/>'
        )
        sx, sy = centre(*ordered[0])
        out.append(
            f'<circle cx="{sx:g}" cy="{sy:g}" r="{cell // 7}" fill="#c0392b" fill-opacity="0.85"/>'
        )
    if caption:
        y = height - margin - cell // 8
        out.append(
            f'<text x="{width / 2:g}" y="{y}" font-size="{cell // 3}" text-anchor="middle" '
            f'fill="#fdfefe">{escape(caption)}</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"

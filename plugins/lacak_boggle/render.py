"""Pictures of a board: in the terminal (rich), as SVG and as PNG, with a word's path drawn.

rich is imported by the function that makes the terminal picture (an SVG, or a
result's JSON, needs none of it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import lacak
from lacak.drawing import Canvas

from .board import BLANK, Board

__all__ = ["board_canvas", "board_png", "board_renderable", "board_svg", "display_tile"]

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


def board_canvas(
    board: Board,
    path: Sequence[Sequence[int]] | None = None,
    *,
    caption: str | None = None,
    cell: int = 64,
) -> Canvas:
    """The board drawn on a :class:`lacak.drawing.Canvas`, with ``path`` as a line from
    tile to tile under the letters (which stay legible), its first tile marked and an
    arrow at its last.

    :param caption: text under the board (e.g. the word and its score).
    :param cell: tile size in pixels.
    :raises InvalidInputError: ``path`` is not a path on the board.
    """
    steps = _steps(board, path)
    rows, cols = board.shape
    gap = max(2, cell // 10)
    margin = gap * 2
    width = margin * 2 + cols * cell + (cols - 1) * gap
    height = margin * 2 + rows * cell + (rows - 1) * gap + (cell // 2 if caption else 0)
    canvas = Canvas(width, height, background="#2c3e50", title=caption or board.to_text())

    def centre(r: int, c: int) -> tuple[float, float]:
        return (margin + c * (cell + gap) + cell / 2, margin + r * (cell + gap) + cell / 2)

    for r, row in enumerate(board.tiles):
        for c, tile in enumerate(row):
            if tile == BLANK:
                fill = "#111111"
            elif (r, c) in steps:
                fill = "#a9dfbf" if steps[(r, c)] == 1 else "#f9e79f"
            else:
                fill = "#fdfefe"
            canvas.rect(margin + c * (cell + gap), margin + r * (cell + gap), cell, cell,
                        fill=fill, stroke="#1b2631", stroke_width=2, radius=cell // 8)  # fmt: skip
    if steps:  # (under the letters: the line joins them without hiding them)
        ordered = sorted(steps, key=steps.__getitem__)
        canvas.line([centre(r, c) for r, c in ordered], stroke="#c0392b", width=cell // 8,
                    opacity=0.6, arrow=True)  # fmt: skip
        canvas.circle(*centre(*ordered[0]), cell // 7, fill="#c0392b", opacity=0.6)
    for r, row in enumerate(board.tiles):
        for c, tile in enumerate(row):
            if tile != BLANK:
                size = int(cell * (0.5 if len(tile) == 1 else 0.4))
                canvas.text(*centre(r, c), display_tile(tile), size=size, fill="#1b2631",
                            bold=True)  # fmt: skip
    if caption:
        canvas.text(width / 2, height - margin - cell // 4, caption, size=cell // 3,
                    fill="#fdfefe")  # fmt: skip
    return canvas


def board_svg(
    board: Board,
    path: Sequence[Sequence[int]] | None = None,
    *,
    caption: str | None = None,
    cell: int = 64,
) -> str:
    """The board as a standalone SVG document, with ``path`` drawn as a line from tile to
    tile under the letters (:func:`board_canvas`)."""
    return board_canvas(board, path, caption=caption, cell=cell).svg()


def board_png(
    board: Board,
    path: Sequence[Sequence[int]] | None = None,
    *,
    caption: str | None = None,
    cell: int = 64,
) -> bytes:
    """The board as PNG bytes: the same picture as :func:`board_svg`."""
    return board_canvas(board, path, caption=caption, cell=cell).png()

"""Pictures of N-queens boards: text rows, and SVG or PNG (a :class:`lacak.drawing.Canvas`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import lacak
from lacak.drawing import Canvas

from .board import Queens, attacks

__all__ = ["board_text", "render"]

#: The largest board drawn square by square (a larger one is refused).
MAX_DRAWN = 100


def shown_state(puzzle: Queens, result: Any) -> Sequence[int | None]:
    """The board a picture shows: a found result's goal, else a local search's best
    board, else the puzzle's start."""
    if result is not None and result.found and result.states:
        return result.states[-1]
    best = getattr(result, "best", None)
    if result is not None and best is not None:
        return best
    return puzzle.initial


def board_text(rows: Sequence[int | None]) -> str:
    """The board as rows of ``Q`` and ``.``, the top row first.

    >>> print(board_text((1, 3, 0, 2)))
    . . Q .
    Q . . .
    . . . Q
    . Q . .
    """
    n = len(rows)
    return "\n".join(
        " ".join("Q" if rows[column] == row else "." for column in range(n)) for row in range(n)
    )


def render(
    puzzle: Queens, result: Any = None, format: str = "text", *, full: bool = False
) -> str | bytes:
    """A picture of the board (``result`` ``None``), or of the board a search ended at.

    :raises lacak.InvalidOptionError: an unknown format, or a picture of a board past
        :data:`MAX_DRAWN` columns.
    """
    rows = shown_state(puzzle, result)
    pairs = attacks(rows)
    placed = sum(row is not None for row in rows)
    said = f"{puzzle.n} queen{'s' * (puzzle.n != 1)}: {placed} placed, {pairs} attacking pair{'s' * (pairs != 1)}"
    if format == "text":
        return f"{said}\n{board_text(rows)}"
    if format not in ("svg", "png"):
        raise lacak.InvalidOptionError(f"queens boards are drawn as text, svg or png, not {format}")
    if puzzle.n > MAX_DRAWN:
        raise lacak.InvalidOptionError(
            f"a board of {puzzle.n} queens is too large to draw (at most {MAX_DRAWN}); use text"
        )
    cell = max(8, 320 // puzzle.n)
    canvas = Canvas(cell * puzzle.n, cell * puzzle.n, background="#ffffff", title=said)
    hit = _attacked(rows)
    for column in range(puzzle.n):
        for row in range(puzzle.n):
            shade = "#f0d9b5" if (row + column) % 2 == 0 else "#b58863"
            canvas.rect(column * cell, row * cell, cell, cell, fill=shade)
        placed_row = rows[column]
        if placed_row is not None:
            colour = "#c0392b" if column in hit else "#1d3557"
            canvas.circle((column + 0.5) * cell, (placed_row + 0.5) * cell, cell * 0.32,
                          fill=colour)  # fmt: skip
    return canvas.svg() if format == "svg" else canvas.png()


def _attacked(rows: Sequence[int | None]) -> set[int]:
    """The columns whose queen another attacks."""
    placed = [(c, r) for c, r in enumerate(rows) if r is not None]
    hit: set[int] = set()
    for i, (c1, r1) in enumerate(placed):
        for c2, r2 in placed[i + 1 :]:
            if r1 == r2 or abs(r1 - r2) == c2 - c1:
                hit.update((c1, c2))
    return hit

"""Pictures of sliding boards and solutions: text for the terminal, SVG and PNG for files.

The kind's ``render`` (:class:`lacak.PuzzleType`): the boards along a
solution side by side, each headed by its step and the blank's move, as
``lacak sliding solve`` prints them and ``-o path.svg`` draws them; a long
solution is cut in the middle (its first and last boards, and how many are
left out) unless ``full``.

>>> import lacak
>>> puzzle = lacak.parse("sliding", "123450786", goal="103425786")
>>> print(render(puzzle, lacak.solve(puzzle)))
path:  123450786 -> 123405786 -> 103425786
<BLANKLINE>
start   1: L    2: U
1 2 3   1 2 3   1 . 3
4 5 .   4 . 5   4 2 5
7 8 6   7 8 6   7 8 6
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import lacak
from lacak.drawing import Canvas

__all__ = ["BOARDS_PER_ROW", "render", "render_canvas", "render_png", "render_svg", "render_text"]

#: Boards drawn side by side on one line (text) or one row (SVG).
BOARDS_PER_ROW = 6


def _steps(puzzle: Any, result: Any) -> list[tuple[str, Sequence[int]]]:
    """``(heading, board)`` of every board to draw: the path, or the start and the goal."""
    if result is None or not result.found:
        return [("start", puzzle.initial), ("goal", puzzle.goal)]
    return [
        ("start" if step == 0 else f"{step}: {result.actions[step - 1]}", state)
        for step, state in enumerate(result.states)
    ]


def _side_by_side(blocks: list[list[str]], gap: str = "   ") -> list[str]:
    height = max(len(b) for b in blocks)
    widths = [max((len(line) for line in b), default=0) for b in blocks]
    lines = []
    for i in range(height):
        parts = [(b[i] if i < len(b) else "").ljust(w) for b, w in zip(blocks, widths, strict=True)]
        lines.append(gap.join(parts).rstrip())
    return lines


def render_text(
    puzzle: Any, result: Any = None, *, full: bool = False, per_row: int = BOARDS_PER_ROW
) -> str:
    """The boards along the solution, ``per_row`` to a line (the start and the goal without one).

    A found solution on a board of up to 9 cells is headed by its path in the
    puzzle's notation. Past
    :data:`lacak.output.CUT_ABOVE` boards, only the first and last
    :data:`lacak.output.SHOWN_AT_ENDS` are drawn unless ``full``.
    """
    steps = _steps(puzzle, result)
    gap = object()
    shown = lacak.output.cut_middle(steps, full=full, noun="board", gap=gap)
    out: list[str] = []
    if result is not None and result.found and puzzle.width * puzzle.height <= 9:
        # (on larger boards a line of states is a wall of numbers: the boards show the path)
        states = [puzzle.format_state(state) for state in result.states]
        path = lacak.output.summarise(states, full=full, noun="board", sep=" -> ")
        out += [f"path:  {path}", ""]
    # the boards before the cut, the cut on a line of its own, the boards after it
    parts: list[list[Any]] = [[]]
    for item in shown:
        if item is gap:
            hidden = len(steps) - (len(shown) - 1)
            parts += [[f"… {lacak.output.plural(hidden, 'board')} more; --full shows all …"], []]
        else:
            parts[-1].append(item)
    for part in parts:
        if part and isinstance(part[0], str):
            out += [part[0], ""]
            continue
        blocks = []
        for head, state in part:
            board = puzzle.board(state).splitlines()
            width = max(len(head), *(len(line) for line in board))
            blocks.append([head.ljust(width), *board])
        for i in range(0, len(blocks), per_row):
            out.extend(_side_by_side(blocks[i : i + per_row]))
            out.append("")
    return "\n".join(out).rstrip()


def render_canvas(
    puzzle: Any, result: Any = None, *, full: bool = True, per_row: int = BOARDS_PER_ROW
) -> Canvas:
    """The boards along the solution (the start and the goal without one) drawn on a
    :class:`lacak.drawing.Canvas`, a strip of boards as the course notes draw them.

    Tiles are numbered squares, the blank an empty grey one; each board is
    headed by its step and the blank's move. A long solution is cut in the
    middle unless ``full`` (the default for a picture written to a file).
    """
    rows, cols = puzzle.height, puzzle.width
    cell = max(12, min(32, 200 // max(rows, cols)))
    font = max(7, cell * 9 // 20)
    head = 18
    margin = 12
    board_w, board_h = cols * cell, rows * cell
    slot_w, slot_h = board_w + margin, board_h + head + margin
    steps = _steps(puzzle, result)
    gap = object()
    shown = lacak.output.cut_middle(steps, full=full, noun="board", gap=gap)
    hidden = len(steps) - (len(shown) - 1)
    across = min(per_row, len(shown))
    lines_of_boards = -(-len(shown) // across)
    canvas = Canvas(margin + across * slot_w, margin + lines_of_boards * slot_h,
                    background="#ffffff", font="sans-serif",
                    title=f"{rows}x{cols} sliding puzzle")  # fmt: skip
    for index, item in enumerate(shown):
        x0 = margin + (index % across) * slot_w
        y0 = margin + (index // across) * slot_h
        if item is gap:
            canvas.text(x0 + board_w / 2, y0 + head + board_h / 2,
                        f"… {lacak.output.plural(hidden, 'board')} more …", size=font)  # fmt: skip
            continue
        label, state = item
        canvas.text(x0, y0 + 8, label, size=12, anchor="start")
        top = y0 + head
        for position, tile in enumerate(state):
            r, c = divmod(position, cols)
            x, y = x0 + c * cell, top + r * cell
            canvas.rect(x, y, cell, cell, fill="#d9d9d9" if tile == 0 else "#fdf3d7",
                        stroke="#555555")  # fmt: skip
            if tile:
                canvas.text(x + cell / 2, y + cell / 2, str(tile), size=font)
    return canvas


def render_svg(
    puzzle: Any, result: Any = None, *, full: bool = True, per_row: int = BOARDS_PER_ROW
) -> str:
    """An SVG picture of the boards along the solution (:func:`render_canvas`)."""
    return render_canvas(puzzle, result, full=full, per_row=per_row).svg()


def render_png(
    puzzle: Any, result: Any = None, *, full: bool = True, per_row: int = BOARDS_PER_ROW
) -> bytes:
    """The same picture as :func:`render_svg`, as PNG bytes."""
    return render_canvas(puzzle, result, full=full, per_row=per_row).png()


def render(
    puzzle: Any, result: Any = None, format: str = "text", *, full: bool = False
) -> str | bytes:
    """The kind's ``render``: ``"text"`` (:func:`render_text`), ``"svg"``
    (:func:`render_svg`) or ``"png"`` (:func:`render_png`, bytes).

    :param result: a :class:`lacak.SearchResult` (its path is drawn when found),
        or ``None`` for the puzzle alone (its start and goal).
    :param full: draw every board of a long solution.
    :raises InvalidOptionError: another format.
    """
    if format == "text":
        return render_text(puzzle, result, full=full)
    if format == "svg":
        return render_svg(puzzle, result, full=full)
    if format == "png":
        return render_png(puzzle, result, full=full)
    raise lacak.InvalidOptionError(
        f"sliding puzzles are drawn as text, svg or png, not {format!r}"
    )

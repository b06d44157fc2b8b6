"""Masks: which cells of a grid a maze uses, as rows of ``.`` (a cell) and ``X`` (none).

Read one from ASCII art (:func:`mask_from_text`), from a black-and-white
picture (:func:`mask_from_png`: a dark pixel is a cell switched off, as in
Buck's *Mazes for Programmers*, chapter 6), or draw a word in Pillow's own
bitmap font (:func:`mask_from_word`: the letters are the maze). A mask works on
every grid whose cells are ``(row, col)``: the rectangle, hexagons, triangles,
octagons, wraps.

>>> mask_from_text("X..\\n...\\n..X")
('X..', '...', '..X')
"""

from __future__ import annotations

import io
from typing import Any

import lacak

__all__ = ["MAX_MASK_CELLS", "mask_from_png", "mask_from_text", "mask_from_word", "read_mask"]

#: The most cells a mask may have (as many as the largest maze).
MAX_MASK_CELLS = 1 << 22


def _checked(rows: list[str], source: str) -> tuple[str, ...]:
    if not rows or not rows[0]:
        raise lacak.InvalidOptionError(f"the mask {source} is empty")
    if len({len(row) for row in rows}) != 1:
        raise lacak.InvalidOptionError(f"the mask {source} has rows of different lengths")
    if len(rows) * len(rows[0]) > MAX_MASK_CELLS:
        raise lacak.InvalidOptionError(
            f"the mask {source} has {len(rows) * len(rows[0])} cells; at most {MAX_MASK_CELLS}"
        )
    if all("." not in row for row in rows):
        raise lacak.InvalidOptionError(f"the mask {source} switches every cell off")
    return tuple(rows)


def mask_from_text(text: str) -> tuple[str, ...]:
    """A mask from ASCII art: ``X`` (or ``x``, ``#``) switches a cell off, ``.`` (or a
    space) keeps it; rows are lines, or parts between ``/`` (``"X../..."``, the one-line
    form a maze records). Blank lines at the ends are dropped; short rows are padded
    with kept cells.

    :raises InvalidOptionError: another character, or no cell kept.
    """
    lines = text.replace("\r\n", "\n").replace("/", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    width = max((len(line) for line in lines), default=0)
    rows = []
    for number, line in enumerate(lines, 1):
        row = []
        for char in line.ljust(width):
            if char in "Xx#":
                row.append("X")
            elif char in ". ":
                row.append(".")
            else:
                raise lacak.InvalidOptionError(
                    f"line {number} of the mask has {char!r}: a mask is '.' (a cell) and 'X' (none)"
                )
        rows.append("".join(row))
    return _checked(rows, "text")


def mask_from_png(data: bytes, *, threshold: int = 128) -> tuple[str, ...]:
    """A mask from a picture (PNG, or any format Pillow reads): one cell a pixel, a
    pixel darker than ``threshold`` (of 255, in grey) switched off.

    :raises InvalidOptionError: not a picture, or too large.
    """
    from PIL import Image, UnidentifiedImageError  # (deferred: Pillow, for pictures only)

    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.width * image.height > MAX_MASK_CELLS:
                raise lacak.InvalidOptionError(
                    f"the mask picture has {image.width}x{image.height} pixels; at most "
                    f"{MAX_MASK_CELLS} (one cell each)"
                )
            grey = image.convert("L")
            pixels = grey.tobytes()
            width = grey.width
    except (UnidentifiedImageError, OSError, ValueError) as error:
        raise lacak.InvalidOptionError(f"the mask is not a picture Pillow reads: {error}") from None
    rows = [
        "".join("X" if value < threshold else "." for value in pixels[start : start + width])
        for start in range(0, len(pixels), width)
    ]
    return _checked(rows, "picture")


def mask_from_word(word: str, *, scale: int = 2) -> tuple[str, ...]:
    """A mask whose cells are the letters of ``word``, drawn in Pillow's built-in bitmap
    font (the same pixels on every machine), each pixel ``scale`` x ``scale`` cells,
    standing on a bar that joins them (so the maze is one piece); a stroke that touches
    neither the bar nor a letter on it (the dot of an ``i``) is left out.

    :raises InvalidOptionError: an empty word, a word the font draws nothing of, a scale
        outside 1-16.
    """
    from PIL import Image, ImageDraw, ImageFont  # (deferred: Pillow, for pictures only)

    if not isinstance(word, str) or not word.strip() or len(word) > 64:
        raise lacak.InvalidOptionError("a mask word is 1 to 64 characters of text")
    if isinstance(scale, bool) or not isinstance(scale, int) or not 1 <= scale <= 16:
        raise lacak.InvalidOptionError(f"a mask word's scale is 1 to 16, got {scale!r}")
    font = ImageFont.load_default_imagefont()
    left, top, right, bottom = font.getbbox(word)
    if right <= left or bottom <= top:
        raise lacak.InvalidOptionError(f"the font draws nothing of {word!r}")
    image = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(image).text((-left, -top), word, fill=255, font=font)
    pixels, width = image.tobytes(), image.width
    grid = [[pixels[r * width + c] > 0 for c in range(width)] for r in range(image.height)]
    grid = [row for row in grid if any(row)]
    if not grid:
        raise lacak.InvalidOptionError(f"the font draws nothing of {word!r}")
    used = [c for c in range(width) if any(row[c] for row in grid)]
    grid.append([used[0] <= c <= used[-1] for c in range(width)])  # the bar
    keep = _reached(grid, len(grid) - 1, used[0])
    rows = []
    for r in range(len(grid)):
        line = "".join("." if (r, c) in keep else "X" for c in range(width))
        line = "".join(char * scale for char in line)
        rows += [line] * scale
    return _checked(rows, f"of {word!r}")


def _reached(grid: list[list[bool]], row: int, col: int) -> set[tuple[int, int]]:
    """The on pixels ``(row, col)`` reaches, side by side or above and below."""
    seen = {(row, col)}
    stack = [(row, col)]
    while stack:
        r, c = stack.pop()
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if (0 <= rr < len(grid) and 0 <= cc < len(grid[0]) and grid[rr][cc]
                    and (rr, cc) not in seen):  # fmt: skip
                seen.add((rr, cc))
                stack.append((rr, cc))
    return seen


def read_mask(value: Any) -> tuple[str, ...] | None:
    """A generator's ``mask`` option as rows: ``None``; rows of ``.``/``X``; text
    (ASCII art, rows on lines or between ``/``); or a PNG's bytes.

    :raises InvalidOptionError: anything else.
    """
    if value is None:
        return None
    if isinstance(value, str):
        return mask_from_text(value)
    if isinstance(value, (list, tuple)) and all(isinstance(row, str) for row in value):
        return mask_from_text("\n".join(value))
    if isinstance(value, bytes) and value[:8] == b"\x89PNG\r\n\x1a\n":
        return mask_from_png(value)
    raise lacak.InvalidOptionError(
        f"a mask is rows of '.' and 'X' (a list of strings, or text), got {type(value).__name__}"
    )

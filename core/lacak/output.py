"""Text that people read: JSON that keeps short arrays on one line, counts with their nouns.

>>> print(dumps({"path": [[0, 0], [0, 1]], "found": True}))
{
  "path": [[0, 0], [0, 1]],
  "found": true
}
>>> plural(1, "heuristic"), plural(3, "point"), plural(2, "tile", "tiles")
('1 heuristic', '3 points', '2 tiles')
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = ["SHOWN_AT_ENDS", "cut_middle", "dumps", "plural", "summarise"]

#: Items shown at each end of a long sequence (a path, a table) unless asked for in full.
SHOWN_AT_ENDS = 12

#: Sequences longer than this are cut in the middle unless asked for in full.
CUT_ABOVE = 40

#: A list whose one-line form is at most this long stays on one line (if it holds no object).
INLINE_WIDTH = 72


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, the noun in the plural unless the count is one.

    :param many: the plural when it is not ``noun + "s"`` (``"boxes"``).
    """
    word = noun if count == 1 else (many if many is not None else noun + "s")
    return f"{count:,} {word}" if abs(count) >= 10_000 else f"{count} {word}"


def cut_middle(items: Sequence[T], *, full: bool, noun: str, gap: Any = None) -> list[T | Any]:
    """``items``, or its first and last :data:`SHOWN_AT_ENDS` with one marker between
    (``gap``, default the text ``"… (26 moves more; --full shows all) …"``).

    For a kind's ``render(..., full=...)`` cutting the rows of a long solution, as
    ``lacak KIND solve`` does unless ``--full``.

    >>> cut_middle(list("abcdefghijklmnopqrstuvwxyz" * 2), full=False, noun="letter")[12]
    '… (28 letters more; --full shows all) …'
    """
    if full or len(items) <= CUT_ABOVE:
        return list(items)
    hidden = len(items) - 2 * SHOWN_AT_ENDS
    marker = gap if gap is not None else f"… ({plural(hidden, noun)} more; --full shows all) …"
    return [*items[:SHOWN_AT_ENDS], marker, *items[-SHOWN_AT_ENDS:]]


def summarise(items: Sequence[str], *, full: bool, noun: str, sep: str = " ") -> str:
    """``items`` joined by ``sep``, cut in the middle when long (see :func:`cut_middle`).

    >>> summarise([str(i) for i in range(50)], full=False, noun="move")[:63]
    '0 1 2 3 4 5 6 7 8 9 10 11 … (26 moves more; --full shows all) …'
    """
    return sep.join(cut_middle(items, full=full, noun=noun))


def _inline(value: Any) -> str | None:
    """The one-line JSON of a list made only of scalars and such lists, if it is short."""
    if not isinstance(value, (list, tuple)):
        return None
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, dict):
            return None
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= INLINE_WIDTH else None


def _write(value: Any, indent: str, step: str, out: list[str]) -> None:
    if isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = indent + step
        out.append("{\n")
        for index, (key, item) in enumerate(value.items()):
            out.append(f"{inner}{json.dumps(str(key), ensure_ascii=False)}: ")
            _write(item, inner, step, out)
            out.append(",\n" if index < len(value) - 1 else "\n")
        out.append(indent + "}")
        return
    if isinstance(value, (list, tuple)):
        line = _inline(value)
        if line is not None:
            out.append(line)
            return
        inner = indent + step
        if all(not isinstance(item, (list, tuple, dict)) for item in value):
            # a long run of scalars (moves, words): as many to a line as fit
            out.append("[\n")
            texts = [json.dumps(item, ensure_ascii=False) for item in value]
            row: list[str] = []
            width = len(inner)
            for index, text in enumerate(texts):
                piece = text + ("," if index < len(texts) - 1 else "")
                if row and width + 1 + len(piece) > len(indent) + INLINE_WIDTH + 8:
                    out.append(inner + " ".join(row) + "\n")
                    row, width = [], len(inner)
                row.append(piece)
                width += len(piece) + 1
            out.append(inner + " ".join(row) + "\n" + indent + "]")
            return
        out.append("[\n")
        for index, item in enumerate(value):
            out.append(inner)
            _write(item, inner, step, out)
            out.append(",\n" if index < len(value) - 1 else "\n")
        out.append(indent + "]")
        return
    out.append(json.dumps(value, ensure_ascii=False))


def dumps(data: Any, indent: int = 2) -> str:
    """``data`` as indented JSON in which short arrays of scalars (a ``[row, col]``, a
    list of moves that fits) stay on one line, as people write them.

    It reads back to the same value as :func:`json.dumps` would give; only the
    white space differs.

    :param indent: spaces per level.
    """
    out: list[str] = []
    _write(data, "", " " * indent, out)
    return "".join(out)

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
#: An object inside a list (a record) stays on one line when the line, indented, is at
#: most this long and the object holds no other object.
RECORD_WIDTH = 100

#: Lists of at most this many scalars (cells ``[row, col]``) fill lines like scalars do.
TUPLE_SIZE = 3

#: One-line JSON with spaces after commas and colons (one encoder: made once).
_encoder = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))
_CONTAINERS = (list, tuple, dict)


def _encode(value: Any) -> str:
    """The one-line JSON of ``value``; a value JSON cannot hold (or an object with keys
    that are not text) gives text that is never short, so it is written part by part
    (where :func:`json.dumps` says what is wrong with it)."""
    try:
        return _encoder.encode(value)
    except (TypeError, ValueError):
        return "{" * (RECORD_WIDTH + 1)


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


def _inline(value: Any, text: str | None = None) -> str | None:
    """The one-line JSON of a list that holds no object, if it is short.

    :param text: the one-line JSON of ``value``, when known.
    """
    if not isinstance(value, (list, tuple)) or 3 * len(value) > INLINE_WIDTH + 1:
        return None  # (n items take at least 3n - 1 characters: too long already)
    text = _encode(value) if text is None else text
    if len(text) > INLINE_WIDTH or ("{" in text and _holds_object(value)):
        return None
    return text


def _holds_object(value: Any) -> bool:
    """Whether a list holds an object, at any depth."""
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, dict):
            return True
    return False


def _item_texts(value: list[Any] | tuple[Any, ...], text: str | None = None) -> list[str] | None:
    """Each item's one-line JSON, when every item is a scalar or a list of at most
    :data:`TUPLE_SIZE` scalars (a cell ``[row, col]``), so that the items can fill
    lines; else ``None`` (longer lists, such as a grid's rows, go one a line).

    :param text: the one-line JSON of ``value``, when known.
    """
    if not any(isinstance(item, _CONTAINERS) for item in value):
        return [_encode(item) for item in value]
    first = value[0]
    if isinstance(first, dict) or (isinstance(first, (list, tuple)) and len(first) > TUPLE_SIZE):
        return None  # (the common refusal, before encoding anything)
    text = _encode(value) if text is None else text
    if '"' not in text and text.startswith("[[") and text.endswith("]]"):
        # no text, so no object: lists of numbers (a path of [row, col] cells), cut at "], ["
        inner = text[2:-2]
        plain = inner.replace("], [", "")
        if (
            "[" not in plain
            and "]" not in plain
            and all(isinstance(item, (list, tuple)) for item in value)
            and max(map(len, value)) <= TUPLE_SIZE
        ):
            return ["[" + part + "]" for part in inner.split("], [")]
    for item in value:
        if isinstance(item, dict) or (
            isinstance(item, (list, tuple))
            and (len(item) > TUPLE_SIZE or any(isinstance(x, _CONTAINERS) for x in item))
        ):
            return None
    texts = [_encode(item) for item in value]
    return None if max(map(len, texts)) > INLINE_WIDTH else texts


def _record(value: dict[Any, Any], indent: str) -> str | None:
    """The one-line JSON of an object in a list, when it fits :data:`RECORD_WIDTH` and
    holds no other object."""
    if len(value) > RECORD_WIDTH // 6:
        return None
    for item in value.values():
        if isinstance(item, dict) or (
            isinstance(item, (list, tuple)) and len(item) > RECORD_WIDTH // 3
        ):
            return None
    text = _encode(value)
    if len(indent) + len(text) <= RECORD_WIDTH and text.count("{") == 1:
        return text
    return None


def _fill(texts: list[str], indent: str, step: str, out: list[str]) -> None:
    """Items' texts as many to a line as fit, in brackets."""
    inner = indent + step
    room = len(indent) + INLINE_WIDTH + 8 - len(inner) + 1  # (each piece counts a space)
    pieces = [text + "," for text in texts]
    pieces[-1] = texts[-1]
    rows: list[str] = []
    sizes = set(map(len, texts))
    if len(sizes) == 1:  # pieces of one width (cells of one-digit numbers): k a row
        per_row = max(1, room // (sizes.pop() + 2))
        rows = [" ".join(pieces[k : k + per_row]) for k in range(0, len(pieces), per_row)]
    else:
        start = 0
        width = 0
        for index, piece in enumerate(pieces):
            width += len(piece) + 1
            if width > room and index > start:
                rows.append(" ".join(pieces[start:index]))
                start, width = index, len(piece) + 1
        rows.append(" ".join(pieces[start:]))
    out.append("[\n" + inner + ("\n" + inner).join(rows) + "\n" + indent + "]")


def _write(value: Any, indent: str, step: str, out: list[str], in_list: bool = False) -> None:
    if isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = indent + step
        record = _record(value, indent) if in_list else None
        if record is not None:  # a record: one line when it is short
            out.append(record)
            return
        out.append("{\n")
        for index, (key, item) in enumerate(value.items()):
            out.append(f"{inner}{json.dumps(str(key), ensure_ascii=False)}: ")
            _write(item, inner, step, out)
            out.append(",\n" if index < len(value) - 1 else "\n")
        out.append(indent + "}")
        return
    if isinstance(value, (list, tuple)):
        text = _encode(value) if 3 * len(value) <= INLINE_WIDTH + 1 else None
        line = _inline(value, text)
        if line is not None:
            out.append(line)
            return
        texts = _item_texts(value, text)
        if texts is not None:  # scalars and short lists (moves, words, cells): fill lines
            _fill(texts, indent, step, out)
            return
        inner = indent + step
        out.append("[\n")
        for index, item in enumerate(value):
            out.append(inner)
            _write(item, inner, step, out, in_list=True)
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

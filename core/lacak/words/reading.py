"""Reading a dictionary file's JSON with positions: every message about a bad file
names its line and column (:class:`~lacak.DictionaryError`).
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any, NamedTuple

from ..errors import DictionaryError
from ..limits import check_deadline
from .normalize import _alphabet_problem, _text_problem
from .report import _NOT_TEXT, METADATA_KEYS

# -- JSON reading with positions ---------------------------------------------------

_PathStep = int | tuple[str, int]


def _json_type(value: Any) -> str:
    if isinstance(value, _Pairs):
        return "an object"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _skip(text: str, pos: int) -> int:
    """The first offset at or after ``pos`` that is not JSON white space."""
    while pos < len(text) and text[pos] in " \t\n\r":
        pos += 1
    return pos


def _locate(text: str, path: list[_PathStep]) -> int | None:
    """Offset of the value at ``path`` (list indexes, ``(key, nth occurrence)``), if found.

    Only called to describe an error, so it re-scans the text rather than
    slowing down the normal parse.
    """
    decoder = json.JSONDecoder()
    scanstring = json.decoder.scanstring  # type: ignore[attr-defined]
    try:
        pos = _skip(text, 0)
        for step in path:
            pos = _skip(text, pos + 1)  # after [ or {
            if isinstance(step, int):
                for _ in range(step):
                    _, pos = decoder.raw_decode(text, pos)
                    pos = _skip(text, _skip(text, pos) + 1)  # after ,
                continue
            key, nth = step
            seen = 0
            while True:
                name, pos = scanstring(text, pos + 1)
                pos = _skip(text, _skip(text, pos) + 1)  # after :
                if name == key:
                    seen += 1
                    if seen == nth:
                        break
                _, pos = decoder.raw_decode(text, pos)
                pos = _skip(text, _skip(text, pos) + 1)  # after ,
        return pos
    except (ValueError, IndexError):  # pragma: no cover - best effort
        return None


def _line_column(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _where(origin: str, line: int | None = None, column: int | None = None) -> str:
    if line is None:
        return origin
    return f"{origin}, line {line}, column {column}"


def _error(
    origin: str, message: str, text: str | None = None, path: list[_PathStep] | None = None
) -> DictionaryError:
    line = column = None
    if text is not None and path is not None:
        offset = _locate(text, path)
        if offset is not None:
            line, column = _line_column(text, offset)
    error = DictionaryError(f"{_where(origin, line, column)}: {message}")
    error.path, error.line, error.column = origin, line, column
    return error


class _Pairs(list[tuple[str, Any]]):
    """An object's key/value pairs in file order (duplicate keys kept)."""


#: A key written without quotes, as JavaScript allows (the reference tutorial prints
#: its dictionary as ``{A: ["ABAD", ...]}``): named in the error's hint.
_BARE_KEY = re.compile(r"([^\W\d]\w{0,40})\s*:")


#: Characters of a large plain word list parsed between two looks at the deadline.
_PIECE = 1 << 20


def _list_in_pieces(text: str) -> list[str] | None:
    """The words of a large plain JSON list of strings, parsed :data:`_PIECE` characters
    at a time with a look at the deadline before each piece; ``None`` for any other text
    (:func:`json.loads` then reads it whole, and says what is wrong with it).

    Only a text without a backslash is split: every ``"`` then opens or closes a
    string, so a quote is known to open one by the number of quotes before it, and
    the comma before it is outside every string. A piece that is not a list of
    strings (an object, a nested list, a cut that was not between two strings)
    fails to parse, and so gives ``None``: what is returned is what
    :func:`json.loads` would return.
    """
    body = text.strip()
    if len(body) <= _PIECE or body[:1] != "[" or body[-1:] != "]" or "\\" in body:
        return None
    words: list[str] = []
    pos, end = 1, len(body) - 1
    while pos < end:
        check_deadline("reading the words of a dictionary")
        cut = end
        quote = body.find('"', min(pos + _PIECE, end), end)
        if quote > 0 and body.count('"', pos, quote) % 2:  # it closes a string: the next opens
            quote = body.find('"', quote + 1, end)
        if quote > 0:
            cut = body.rfind(",", pos, quote)
            if cut < pos:
                return None
        try:
            piece = json.loads(f"[{body[pos:cut]}]")
        except ValueError:
            return None
        if set(map(type, piece)) - {str}:
            return None
        words += piece
        pos = cut + 1
    return words


def _decode(text: str, origin: str) -> Any:
    if not text.strip():
        raise _error(origin, "the file is empty (expected a JSON list of words or an object)")
    try:
        pieces = _list_in_pieces(text)
        if pieces is not None:
            return pieces
        return json.loads(text, object_pairs_hook=_Pairs)
    except json.JSONDecodeError as error:
        hint = ""
        bare = _BARE_KEY.match(text, error.pos)
        if error.msg.startswith("Expecting property name") and bare:
            key = bare.group(1)
            hint = f' (a key needs double quotes: "{key}": ..., not {key}: ...)'
        exc = DictionaryError(
            f"{_where(origin, error.lineno, error.colno)}: not valid JSON: {error.msg}{hint}"
        )
        exc.path, exc.line, exc.column = origin, error.lineno, error.colno
        raise exc from None
    except RecursionError:
        offset, depth = _deepest(text)
        line, column = _line_column(text, offset)
        exc = DictionaryError(
            f"{_where(origin, line, column)}: not valid JSON: nested too deeply "
            f"({depth} levels of lists and objects)"
        )
        exc.path, exc.line, exc.column = origin, line, column
        raise exc from None
    except ValueError as error:  # a number past Python's int digit limit (4,300 by default)
        limit = getattr(sys, "get_int_max_str_digits", lambda: 4300)() or 4300
        long_number = re.search(f"[0-9]{{{limit + 1},}}", text)
        if long_number is None:  # pragma: no cover - no other ValueError is known
            raise _error(origin, f"not valid JSON: {' '.join(str(error).split())}") from None
        line, column = _line_column(text, long_number.start())
        exc = DictionaryError(
            f"{_where(origin, line, column)}: not valid JSON: a number of "
            f"{len(long_number.group())} digits (at most {limit} can be read)"
        )
        exc.path, exc.line, exc.column = origin, line, column
        raise exc from None


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]')


def _deepest(text: str) -> tuple[int, int]:
    """``(offset, depth)`` of the first bracket opening the deepest level (strings skipped)."""
    depth = deepest = offset = 0
    for token in _TOKEN.finditer(text):
        char = token.group()[0]
        if char in "[{":
            depth += 1
            if depth > deepest:
                deepest, offset = depth, token.start()
        elif char in "]}":
            depth -= 1
    return offset, deepest


def _check_unique_keys(
    pairs: _Pairs, text: str, origin: str, prefix: list[_PathStep]
) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            nth = sum(1 for k, _ in pairs if k == key)
            raise _error(
                origin, f"the key {key!r} appears more than once", text, [*prefix, (key, nth)]
            )
        result[key] = value
    return result


def _word_list(value: Any, text: str, origin: str, path: list[_PathStep], what: str) -> list[str]:
    if not isinstance(value, list) or isinstance(value, _Pairs):
        raise _error(origin, f"{what} must be a list of words, not {_json_type(value)}", text, path)
    if set(map(type, value)) <= {str}:
        return value
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise _error(
                origin,
                f"word {index} of {what} must be a string, not {_json_type(item)}",
                text,
                [*path, index],
            )
    return value


def _seed_words(pairs: _Pairs, text: str, origin: str, path: list[_PathStep]) -> list[str]:
    groups = _check_unique_keys(pairs, text, origin, path)
    words: list[str] = []
    for key, value in groups.items():
        nth = 1
        words.extend(
            _word_list(value, text, origin, [*path, (key, nth)], f"the list under {key!r}")
        )
    return words


def _other_metadata(key: str, value: Any, text: str, origin: str) -> Any:
    """The value of ``count`` (a whole number) or ``filters`` (a list of strings)."""
    if key == "count":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise _error(
                origin,
                f"'count' must be a whole number of words, not {_json_type(value)}",
                text,
                [(key, 1)],
            )
        return value
    if not isinstance(value, list) or isinstance(value, _Pairs):
        raise _error(
            origin, f"'filters' must be a list of strings, not {_json_type(value)}", text, [(key, 1)]
        )
    for index, item in enumerate(value):
        problem = _text_problem(item) if isinstance(item, str) else None
        if not isinstance(item, str) or problem is not None:
            what = problem or f"must be a string, not {_json_type(item)}"
            raise _error(origin, f"item {index} of 'filters' {what}", text, [(key, 1), index])
    return tuple(value)


class _Parsed(NamedTuple):
    format: str
    words: list[str]
    metadata: dict[str, Any]
    notes: list[str]


def _parse(text: str, origin: str) -> _Parsed:
    data = _decode(text, origin)
    if isinstance(data, _Pairs):
        top = _check_unique_keys(data, text, origin, [])
        if "words" not in top:
            found = [key for key in METADATA_KEYS if key in top]
            if found:
                raise _error(
                    origin,
                    f"the object has metadata ({', '.join(found)}) but no 'words' key",
                    text,
                    [],
                )
            return _Parsed("seed", _seed_words(data, text, origin, []), {}, [])
        metadata: dict[str, Any] = {}
        notes: list[str] = []
        for key, value in top.items():
            if key == "words":
                continue
            if key not in METADATA_KEYS:
                notes.append(f"unknown key {key!r} ignored")
                continue
            if key in _NOT_TEXT:
                metadata[key] = _other_metadata(key, value, text, origin)
                continue
            if not isinstance(value, str):
                raise _error(
                    origin, f"{key!r} must be a string, not {_json_type(value)}", text, [(key, 1)]
                )
            problem = _text_problem(value)
            if problem is not None:
                raise _error(origin, f"{key!r} {problem}", text, [(key, 1)])
            metadata[key] = value
            if key == "alphabet":
                problem = _alphabet_problem(value)
                if problem is not None:
                    raise _error(origin, problem, text, [(key, 1)])
        raw = top["words"]
        if isinstance(raw, _Pairs):
            words = _seed_words(raw, text, origin, [("words", 1)])
        else:
            words = _word_list(raw, text, origin, [("words", 1)], "'words'")
        return _Parsed("object", words, metadata, notes)
    if isinstance(data, list):
        return _Parsed("list", _word_list(data, text, origin, [], "the file"), {}, [])
    raise _error(
        origin,
        f"expected a JSON list of words or an object, not {_json_type(data)}",
        text,
        [],
    )

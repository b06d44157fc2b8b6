"""Reading option values, sizes and cells: one reader for the library and every command.

Everything a user types as text — a heuristic's ``"w1=1,w2=2"``, a command's
``-O KEY=VALUE``, a size ``3x4``, a cell ``2,5``, a yes/no word — is read here,
so that every kind and every command agrees on what it means. Library code
uses these functions directly; the command line only passes text through.

Values are typed by the option's default: a ``bool`` default takes a yes/no
word (:data:`FLAG_WORDS`), an ``int`` default an integer, a ``float`` default
a finite number, anything else (``None``, a string) the text itself.
"""

from __future__ import annotations

import math
import re
import reprlib
from collections.abc import Iterable, Mapping
from typing import Any

from .errors import InvalidOptionError

__all__ = [
    "FLAG_WORDS",
    "as_flag",
    "convert",
    "parse_cell",
    "parse_options",
    "parse_pairs",
    "parse_size",
]

#: The words a yes/no option may be written as (what command lines pass), lower case.
FLAG_WORDS: Mapping[str, bool] = {
    **dict.fromkeys(("1", "true", "yes", "on"), True),
    **dict.fromkeys(("0", "false", "no", "off"), False),
}


def _kind_of(value: Any) -> str:
    """``list [1, 2]``, ``None``: how a value of the wrong type is named in a message."""
    return "None" if value is None else f"{type(value).__name__} {reprlib.repr(value)}"


def _shown(text: str, limit: int = 40) -> str:
    """``repr(text)``, shortened for an error message."""
    return (
        repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"
    )


def as_flag(value: Any, what: str) -> bool:
    """A yes/no option's value: a ``bool``, or one of :data:`FLAG_WORDS` (any case).

    Anything else is refused rather than read by its truth value (the string
    ``"no"`` is truthy).

    >>> as_flag("No", "option 'iterative'"), as_flag(True, "option 'iterative'")
    (False, True)

    :raises InvalidOptionError: not a bool nor one of those words; ``what`` names it.
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in FLAG_WORDS:
        return FLAG_WORDS[value.strip().lower()]
    raise InvalidOptionError(f"{what} must be true or false, got {value!r}")


def convert(text: str, default: Any, *, what: str, key: str) -> Any:
    """``text`` as a value of the type of ``default``.

    A ``bool`` default takes a yes/no word, an ``int`` default an integer, a
    ``float`` default a finite number; any other default (``None``, a string)
    takes the text as it is.

    >>> convert("2.5", 1.0, what="heuristic 'weighted'", key="w2")
    2.5
    >>> convert("off", True, what="strategy 'dfs'", key="iterative")
    False

    :param what: the component whose option it is, for the message.
    :param key: the option's name, for the message.
    :raises InvalidOptionError: the text is not a value of that type.
    """
    text = text.strip()
    if isinstance(default, bool):
        if text.lower() in FLAG_WORDS:
            return FLAG_WORDS[text.lower()]
        kind = "true or false (yes/no, on/off, 1/0)"
    elif isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            kind = "an int"
    elif isinstance(default, float):
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if math.isfinite(value):
            return value
        kind = "a float"
    else:
        return text
    raise InvalidOptionError(f"{what} option {key!r} must be {kind}, got {_shown(text)}")


def _check_defaults(defaults: Any, what: str) -> None:
    if not isinstance(defaults, Mapping):
        raise InvalidOptionError(
            f"{what} option defaults must be a mapping of names to values, not {_kind_of(defaults)}"
        )


def _unknown(key: str, defaults: Mapping[str, Any], what: str) -> InvalidOptionError:
    listed = ", ".join(map(str, defaults)) or "none"
    return InvalidOptionError(f"{what} has no option {key!r} (options: {listed})")


def parse_options(text: str, defaults: Mapping[str, Any], *, what: str) -> dict[str, Any]:
    """Parse ``"a=1,b=2"`` (or positional ``"1,2"``) against typed ``defaults``.

    This is the form options take after a component's name
    (``weighted:w1=1,w2=2``). Values take the type of their default (see
    :func:`convert`). Positional values fill the options in the order of
    ``defaults``.

    >>> parse_options("w1=1,w2=2.5", {"w1": 1.0, "w2": 1.0}, what="weighted")
    {'w1': 1.0, 'w2': 2.5}
    >>> parse_options("2,3", {"w1": 1.0, "w2": 1.0}, what="weighted")
    {'w1': 2.0, 'w2': 3.0}

    :raises InvalidOptionError: unknown option, too many values, or a bad value;
        ``text`` that is not a string or ``defaults`` that are not a mapping.
    """
    if not isinstance(text, str):
        raise InvalidOptionError(f"{what} options are text like 'a=1,b=2', not {_kind_of(text)}")
    _check_defaults(defaults, what)
    values = dict(defaults)
    names = list(defaults)
    if not text.strip():
        return values
    for position, item in enumerate(text.split(",")):
        key, sep, raw = item.partition("=")
        if sep:
            key = key.strip()
            if key not in defaults:
                raise _unknown(key, defaults, what)
        else:
            if position >= len(names):
                raise InvalidOptionError(
                    f"{what} takes at most {len(names)} option{'s' if len(names) != 1 else ''} "
                    f"({', '.join(map(str, names)) or 'none'}), got {_shown(text)}"
                )
            key, raw = names[position], key
        values[key] = convert(raw, defaults[key], what=what, key=key)
    return values


def parse_pairs(
    pairs: Iterable[str], defaults: Mapping[str, Any], *, what: str, flag: str = "-O"
) -> dict[str, Any]:
    """The options given as ``KEY=VALUE``, one per item (what ``-O KEY=VALUE`` collects).

    The key is the text before the first ``=``, the value all the text after it
    (spaces around either are dropped; commas belong to the value), typed like
    the option's default (see :func:`convert`). Only the options given are
    returned.

    >>> parse_pairs(["hand=left", "erase_loops = no"], {"hand": "right", "erase_loops": True},
    ...             what="strategy 'wall-follower'")
    {'hand': 'left', 'erase_loops': False}

    :param flag: the command-line flag the pairs came from, for the message.
    :raises InvalidOptionError: no ``=``, an empty or unknown key, or a value of the wrong type.
    """
    _check_defaults(defaults, what)
    options: dict[str, Any] = {}
    for pair in pairs:
        if not isinstance(pair, str):
            raise InvalidOptionError(f"{flag} takes KEY=VALUE text, not {_kind_of(pair)}")
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise InvalidOptionError(f"{flag} takes KEY=VALUE, got {_shown(pair)}")
        if key not in defaults:
            raise _unknown(key, defaults, what)
        options[key] = convert(value, defaults[key], what=what, key=key)
    return options


_SIZE = re.compile(r"^\s*([0-9]+)\s*(?:[x×X,]\s*([0-9]+)\s*)?$")

#: Sides with more digits than this are refused (a billion cells is past any use).
_SIZE_DIGITS = 9


def parse_size(text: str, *, what: str = "size", minimum: int = 1) -> tuple[int, int]:
    """``"3x4"`` → ``(3, 4)``, rows by columns; a single number ``"5"`` → ``(5, 5)``.

    Sizes are ``ROWSxCOLS`` everywhere in lacak (numpy's shape order): ``3x4``
    is 3 rows of 4 columns, for mazes, Boggle boards and sliding puzzles alike.
    Only the ASCII digits 0-9 count, and a side has at most nine digits.

    >>> parse_size("3x4"), parse_size(" 5 "), parse_size("2, 7")
    ((3, 4), (5, 5), (2, 7))

    :raises InvalidOptionError: not a string of the form ``AxB`` (or ``A``), a
        side of more than nine digits, or a side below ``minimum``.
    """
    match = _SIZE.match(text) if isinstance(text, str) else None
    if match is None:
        shown = _shown(text) if isinstance(text, str) else _kind_of(text)
        raise InvalidOptionError(f"{what} must look like 3x4, got {shown}")
    sides = [side.lstrip("0") or "0" for side in match.groups(match.group(1))]
    if any(len(side) > _SIZE_DIGITS for side in sides):
        raise InvalidOptionError(
            f"{what} is too large (at most {_SIZE_DIGITS} digits a side), got {_shown(text)}"
        )
    rows, cols = int(sides[0]), int(sides[1])
    if rows < minimum or cols < minimum:
        raise InvalidOptionError(f"{what} must be at least {minimum}x{minimum}, got {_shown(text)}")
    return rows, cols


def parse_cell(text: str, *, what: str = "cell") -> tuple[int, int]:
    """``"2,5"`` → ``(2, 5)``: a cell as ``ROW,COL`` (spaces allowed; ``2x5`` too).

    >>> parse_cell("0, 3")
    (0, 3)

    :raises InvalidOptionError: not two non-negative integers.
    """
    match = _SIZE.match(text) if isinstance(text, str) else None
    if match is None or match.group(2) is None or max(map(len, match.groups())) > _SIZE_DIGITS:
        shown = _shown(text) if isinstance(text, str) else _kind_of(text)
        raise InvalidOptionError(f"{what} must look like ROW,COL (e.g. 0,0), got {shown}")
    return int(match.group(1)), int(match.group(2))

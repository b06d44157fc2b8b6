"""Reading option values, sizes and cells: one reader for the library and every command.

Everything a user types as text — a heuristic's ``"w1=1,w2=2"``, a command's
``-O KEY=VALUE``, a size ``3x4``, a cell ``2,5``, a yes/no word — is read here,
so that every kind and every command agrees on what it means. Library code
uses these functions directly; the command line only passes text through.

Values are typed by the option's default: a ``bool`` default takes a yes/no
word (:data:`FLAG_WORDS`), an ``int`` default an integer, a ``float`` default
a finite number, anything else (``None``, a string) the text itself.

What an option may take from a request lacak does not trust (the web API's)
is declared by the component that has it, in its ``accepts`` (an
:class:`Accepts` per option: :class:`OneOf` fixed words, a bounded
:class:`Number`, bounded :class:`Text`, or a :class:`Named` component of a
registry catalogue, such as a registered dictionary), and read by
:func:`read_untrusted`: there, an option its component declares nothing for
takes a yes/no word, an integer or a finite number by its default, and never
text, since lacak cannot know whether the component reads text as a file.
The command line and the library read values with :func:`convert` as
before, and the component checks them itself.
"""

from __future__ import annotations

import math
import operator
import re
import reprlib
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

import attrs

from .errors import InvalidOptionError

__all__ = [
    "CATALOGUES",
    "FLAG_WORDS",
    "Accepts",
    "Named",
    "Number",
    "OneOf",
    "Text",
    "as_flag",
    "check_accepts",
    "check_untrusted",
    "convert",
    "describe_accepts",
    "parse_cell",
    "parse_options",
    "parse_pairs",
    "parse_size",
    "read_size",
    "read_untrusted",
    "recorded_options",
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


def read_size(
    size: Any,
    *,
    what: str = "size",
    minimum: int = 1,
    most: int | None = None,
    unit: str = "cells",
) -> tuple[int, int]:
    """A ``(rows, cols)`` size from what a user or a caller gives: ``"3x4"`` or ``"5"``
    (read by :func:`parse_size`), a pair of whole numbers ``(3, 4)`` (numpy's too) or one
    number ``5`` for a square. Every kind reads its sizes here, so that every bad size is
    refused in one shape of message: ``<what> must look like 3x4, got '3by4'``, ``<what>
    must be at least 2x2, got 1x5``, ``<what> must be at most 16,777,216 cells (4096x4096),
    got 5000x5000 = 25,000,000``.

    >>> read_size("3x4"), read_size((2, 5)), read_size(4)
    ((3, 4), (2, 5), (4, 4))
    >>> read_size((1, 5), what="board size", minimum=2)
    Traceback (most recent call last):
    ...
    lacak.errors.InvalidOptionError: board size must be at least 2x2, got 1x5

    :param what: what the size is, to name it in a message (``"maze size"``, ``"--size"``).
    :param minimum: the fewest rows and columns.
    :param most: the most ``unit`` (rows times columns), if any.
    :raises InvalidOptionError: none of those forms (a bool, 2.5, three numbers), a side
        below ``minimum``, or more than ``most`` cells.
    """
    if isinstance(size, str):
        rows, cols = parse_size(size, what=what, minimum=0)
    else:
        pair = tuple(size) if isinstance(size, (tuple, list)) else (size, size)
        try:
            # whole numbers only (numpy integers too): 2.5 is not read as 2, nor True as 1
            if len(pair) != 2 or any(isinstance(side, bool) for side in pair):
                raise TypeError
            rows, cols = operator.index(pair[0]), operator.index(pair[1])
        except TypeError:
            raise InvalidOptionError(
                f"{what} must look like 3x4 or (rows, cols) of whole numbers, "
                f"got {_kind_of(size)}"
            ) from None
    if rows < minimum or cols < minimum:
        raise InvalidOptionError(
            f"{what} must be at least {minimum}x{minimum}, got {rows}x{cols}"
        )
    if most is not None and rows * cols > most:
        side = math.isqrt(most)
        square = f" ({side}x{side})" if side * side == most else ""
        raise InvalidOptionError(
            f"{what} must be at most {most:,} {unit}{square}, got {rows}x{cols} = "
            f"{rows * cols:,}"
        )
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


# -- what an option accepts from a request lacak does not trust -------------------------------

#: The registry catalogues a :class:`Named` option may name.
CATALOGUES: Mapping[str, str] = {"dictionaries": "dictionary"}

#: ``names(catalogue) -> the names registered in it``: how a :class:`Named` option learns them.
NameLookup = Callable[[str], Collection[str]]

#: Characters no text taken from a request may hold: control characters (NUL included),
#: tabs and line breaks aside.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _out_of(what: str, key: str, expected: str, value: Any) -> InvalidOptionError:
    shown = _shown(value) if isinstance(value, str) else _kind_of(value)
    return InvalidOptionError(f"{what} option {key!r} takes {expected} here, got {shown}")


class Accepts:
    """What an option accepts from a request lacak does not trust (the web API's): the base
    of :class:`OneOf`, :class:`Number`, :class:`Text` and :class:`Named`.

    A component declares one per option in its ``accepts`` mapping (on
    :class:`~lacak.Searcher`, :class:`~lacak.Heuristic`, :class:`~lacak.Generator`,
    :class:`~lacak.PuzzleType` and :class:`~lacak.BatchKind`), and
    :func:`read_untrusted` holds a request's values to it. A declaration binds
    only such requests: the command line and the library give the component
    what :func:`convert` reads (a Boggle dictionary *file* included), and the
    component checks it as always. An option that names a file, a folder or a
    component declares :class:`Named`, so that only registered names reach it.
    """

    def check(self, value: Any, *, what: str, key: str, names: NameLookup) -> Any:
        """``value`` when this accepts it (text, or a value a component's own parser made).

        :param what: the component whose option it is, and ``key`` the option, for the message.
        :param names: the names registered in a catalogue (for :class:`Named`).
        :raises InvalidOptionError: it does not.
        """
        raise NotImplementedError

    def read(self, text: str, default: Any, *, what: str, key: str, names: NameLookup) -> Any:
        """The value of ``text`` (an option's text from a request) when this accepts it:
        text as it is, but for a :class:`Number`.

        :raises InvalidOptionError: it does not.
        """
        return self.check(text.strip(), what=what, key=key, names=names)

    def describe(self, default: Any = None) -> dict[str, Any]:
        """What this accepts, as JSON data (the web API's catalogue shows it), for an option
        whose default is ``default``."""
        raise NotImplementedError


@attrs.frozen(init=False)
class OneOf(Accepts):
    """One of fixed words: ``OneOf("left", "right")``."""

    #: The words accepted, exactly (case included).
    values: tuple[str, ...]

    def __init__(self, *values: str) -> None:
        if not values or not all(isinstance(v, str) and v for v in values):
            raise InvalidOptionError(f"OneOf takes one or more words, got {values!r}")
        self.__attrs_init__(values=tuple(values))

    def check(self, value: Any, *, what: str, key: str, names: NameLookup) -> Any:
        if isinstance(value, str) and value.strip() in self.values:
            return value.strip()
        raise _out_of(what, key, "one of " + ", ".join(self.values), value)

    def describe(self, default: Any = None) -> dict[str, Any]:
        return {"type": "one-of", "values": list(self.values)}


@attrs.frozen(kw_only=True)
class Number(Accepts):
    """A number from ``minimum`` to ``maximum`` (both included): ``Number(minimum=0,
    maximum=1)``; ``integer`` (default: when the option's default is an ``int``) asks for
    a whole number."""

    minimum: float
    maximum: float
    integer: bool | None = None

    def _integer(self, default: Any) -> bool:
        if self.integer is not None:
            return self.integer
        return isinstance(default, int) and not isinstance(default, bool)

    def _expected(self, integer: bool) -> str:
        return f"{'an integer' if integer else 'a number'} from {self.minimum:g} to {self.maximum:g}"

    def _in_range(self, value: Any, integer: bool, *, what: str, key: str) -> Any:
        whole = isinstance(value, int) and not isinstance(value, bool)
        real = whole or (isinstance(value, float) and math.isfinite(value))
        if (whole if integer else real) and self.minimum <= value <= self.maximum:
            return value
        raise _out_of(what, key, self._expected(integer), value)

    def check(self, value: Any, *, what: str, key: str, names: NameLookup) -> Any:
        integer = self.integer is True or (
            self.integer is None and isinstance(value, int) and not isinstance(value, bool)
        )
        return self._in_range(value, integer, what=what, key=key)

    def read(self, text: str, default: Any, *, what: str, key: str, names: NameLookup) -> Any:
        integer = self._integer(default)
        stripped = text.strip()
        value: Any = stripped
        try:
            if len(stripped) <= 40:  # (past that, no number of any use here)
                value = int(stripped) if integer else float(stripped)
        except ValueError:
            value = stripped
        return self._in_range(value, integer, what=what, key=key)

    def describe(self, default: Any = None) -> dict[str, Any]:
        kind = "integer" if self._integer(default) else "number"
        return {"type": kind, "minimum": self.minimum, "maximum": self.maximum}


@attrs.frozen(kw_only=True)
class Text(Accepts):
    """Text that names nothing on the server (a board, a cell): at most ``max_length``
    characters, no control characters, the whole of it matching ``pattern`` (a regular
    expression) when one is given; ``like`` is an example for the message."""

    max_length: int = 200
    pattern: str | None = None
    like: str = ""

    def check(self, value: Any, *, what: str, key: str, names: NameLookup) -> Any:
        if (
            isinstance(value, str)
            and len(value) <= self.max_length
            and not _CONTROL.search(value)
            and (self.pattern is None or re.fullmatch(self.pattern, value) is not None)
        ):
            return value
        expected = f"text of at most {self.max_length:,} characters"
        if self.like:
            expected += f" like {self.like!r}"
        raise _out_of(what, key, expected, value)

    def describe(self, default: Any = None) -> dict[str, Any]:
        return {"type": "text", "max_length": self.max_length, "pattern": self.pattern,
                "like": self.like}  # fmt: skip


@attrs.frozen
class Named(Accepts):
    """The name of a component registered in a catalogue of the registry (one of
    :data:`CATALOGUES`): ``Named("dictionaries")``, a registered dictionary. No path and no
    other text gets through, and the refusal is the same for all of them: it says nothing
    of what exists where."""

    catalogue: str = attrs.field(validator=attrs.validators.in_(tuple(CATALOGUES)))

    def check(self, value: Any, *, what: str, key: str, names: NameLookup) -> Any:
        if isinstance(value, str) and value.strip() and value.strip() in names(self.catalogue):
            return value.strip()
        raise InvalidOptionError(
            f"{what} option {key!r} takes the name of a registered "
            f"{CATALOGUES[self.catalogue]} here, and nothing else"
        )

    def describe(self, default: Any = None) -> dict[str, Any]:
        return {"type": "name", "catalogue": self.catalogue}


def _undeclared(what: str, key: str) -> InvalidOptionError:
    return InvalidOptionError(
        f"{what} option {key!r} takes text, and its plugin declares nothing about that text, "
        "so it is not accepted here (a plugin declares what an option accepts: docs/plugins)"
    )


def read_untrusted(
    text: Any,
    default: Any,
    accepts: Accepts | None,
    *,
    what: str,
    key: str,
    names: NameLookup,
) -> Any:
    """An option's value from a request lacak does not trust, as its component declares it.

    Declared (``accepts``): what the declaration accepts. Not declared: a yes/no
    word, an integer or a finite number when the default is a ``bool``, an ``int``
    or a ``float`` (see :func:`convert`), and never text (a ``None`` or text
    default), since a component may read text as a file name.

    >>> read_untrusted("left", "right", OneOf("left", "right"), what="strategy 'wall-follower'",
    ...                key="hand", names=lambda catalogue: ())
    'left'

    :param names: the names registered in a catalogue (for :class:`Named`).
    :raises InvalidOptionError: not text, or a value not accepted; the message names
        ``what`` and ``key`` and nothing else of the server.
    """
    if not isinstance(text, str):
        raise InvalidOptionError(f"{what} option {key!r} is given as text, not {_kind_of(text)}")
    if accepts is not None:
        return accepts.read(text, default, what=what, key=key, names=names)
    if isinstance(default, (bool, int, float)):
        return convert(text, default, what=what, key=key)
    raise _undeclared(what, key)


def check_untrusted(
    value: Any,
    default: Any,
    accepts: Accepts | None,
    *,
    what: str,
    key: str,
    names: NameLookup,
) -> Any:
    """The same as :func:`read_untrusted`, for a value a component's own parser has read
    from a request's text (a heuristic's ``"pdb:1,2,3/4,5,6"``).

    :raises InvalidOptionError: a value not accepted.
    """
    if accepts is not None:
        return accepts.check(value, what=what, key=key, names=names)
    number = (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, float) and math.isfinite(value)
    )
    if isinstance(default, bool) and isinstance(value, bool):
        return value
    if isinstance(default, (int, float)) and not isinstance(default, bool) and number:
        return value
    raise _undeclared(what, key)


def describe_accepts(default: Any, accepts: Accepts | None) -> dict[str, Any]:
    """What an option accepts from a request (see :func:`read_untrusted`), as JSON data:
    ``{"type": "one-of" | "integer" | "number" | "text" | "name" | "flag" |
    "not-accepted", ...}``."""
    if accepts is not None:
        return accepts.describe(default)
    if isinstance(default, bool):
        return {"type": "flag"}
    if isinstance(default, int):
        return {"type": "integer"}
    if isinstance(default, float):
        return {"type": "number"}
    return {"type": "not-accepted"}


def check_accepts(accepts: Any, options: Collection[str], what: str) -> None:
    """Check a component's ``accepts``: a mapping of its option names to :class:`Accepts`.

    :raises InvalidOptionError: not a mapping, a name that is not one of ``options``,
        or a declaration that is not an :class:`Accepts`.
    """
    if not isinstance(accepts, Mapping):
        raise InvalidOptionError(
            f"{what}: accepts must map option names to lacak.options.Accepts, "
            f"not {_kind_of(accepts)}"
        )
    for key, declared in accepts.items():
        if key not in options:
            raise _unknown(str(key), dict.fromkeys(options), what)
        if not isinstance(declared, Accepts):
            raise InvalidOptionError(
                f"{what} option {key!r}: what it accepts is a lacak.options.Accepts "
                f"(OneOf, Number, Text, Named), not {_kind_of(declared)}"
            )


def accepts_validator(*fields: str) -> Callable[[Any, Any, Any], None]:
    """An attrs validator of a component's ``accepts``: its names are among the options
    held by the component's ``fields`` (see :func:`check_accepts`)."""

    def validate(instance: Any, _attribute: Any, value: Any) -> None:
        options: set[str] = set()
        for field in fields:
            options.update(getattr(instance, field))
        name = getattr(instance, "name", None) or type(instance).__name__
        check_accepts(value, options, f"{type(instance).__name__.lower()} {name!r}")

    return validate


def recorded_options(value: Any, *, what: str) -> tuple[tuple[str, Any], ...]:
    """A generated instance's generator options as it records them (what makes it again,
    with its generator, size and seed): ``(name, value)`` pairs in name order, from a
    mapping or such pairs, each value a number, text or true/false (numpy scalars become
    Python numbers).

    :param what: the instance in messages (``"scramble"``, ``"shaken board"``).
    :raises InvalidPuzzleError: anything else.

    >>> recorded_options({"moves": 50, "goal": "first"}, what="scramble")
    (('goal', 'first'), ('moves', 50))
    """
    from .errors import InvalidPuzzleError  # (an instance's record, not an option given)
    from .results import plain

    if isinstance(value, Mapping):
        value = tuple(value.items())
    if not isinstance(value, (tuple, list)) or not all(
        isinstance(pair, tuple) and len(pair) == 2 for pair in value):  # fmt: skip
        raise InvalidPuzzleError(
            f"a {what}'s options are an object of its generator's options, got {value!r:.40}"
        )
    out = {}
    for key, item in value:
        item = plain(item)
        if not isinstance(key, str) or not key.isidentifier():
            raise InvalidPuzzleError(f"a {what} option's name is a word, got {key!r:.40}")
        if not isinstance(item, (bool, int, float, str)) or (
            isinstance(item, float) and not math.isfinite(item)):  # fmt: skip
            raise InvalidPuzzleError(
                f"{what} option {key!r} must be a number, text or true/false, got {item!r:.40}"
            )
        out[key] = item
    return tuple(sorted(out.items()))

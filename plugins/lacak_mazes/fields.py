"""The checked fields of a maze that are not cells: its texts and its generator options.

>>> generator_options({"hunt_chance": 0.3, "hunt": "columns"})
{'hunt': 'columns', 'hunt_chance': 0.3}
>>> check_text("wilson", "algorithm")
'wilson'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

import lacak

__all__ = ["check_text", "generator_options"]


def generator_options(value: Any) -> Mapping[str, Any]:
    """A maze's generator options, checked: names to numbers, text or yes/no, read-only,
    in name order (what the JSON holds under ``options``).

    :raises InvalidPuzzleError: not an object of such values.
    """
    if value is None:
        value = {}
    if not isinstance(value, Mapping):
        raise lacak.InvalidPuzzleError(
            f"a maze's 'options' is an object of its generator's options, got {value!r}"
        )
    for key, item in value.items():
        check_text(key, "a maze option's name")
        if isinstance(item, str):
            check_text(item, f"maze option {key!r}")
        elif not isinstance(item, (bool, int, float)) or item != item or item in (
            float("inf"), float("-inf")):  # fmt: skip
            raise lacak.InvalidPuzzleError(
                f"maze option {key!r} must be a number, text or true/false, got {item!r}"
            )
    return _Options(sorted(value.items()))


class _Options(dict[str, Any]):
    """A maze's generator options: a ``dict`` that cannot be changed (the maze is
    frozen), which pickles and compares as one."""

    def _frozen(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("a maze's options cannot be changed (attrs.evolve makes another)")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _frozen  # type: ignore[assignment]
    __ior__ = _frozen  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Options, (list(self.items()),))

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self.items()))


def check_text(value: Any, what: str) -> str:
    """``value`` if it is a string that prints anywhere: text (no lone surrogates, which
    cannot be written as UTF-8) without control characters (which would garble a terminal
    line or an SVG).

    :raises InvalidPuzzleError: not a string, a lone surrogate, or a control character.
    """
    if not isinstance(value, str):
        raise lacak.InvalidPuzzleError(f"{what} must be a string, got {value!r}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise lacak.InvalidPuzzleError(
            f"{what} must be text: {value!r} has a lone surrogate"
        ) from None
    if any(unicodedata.category(ch) == "Cc" for ch in value):
        raise lacak.InvalidPuzzleError(f"{what} must not hold control characters: {value!r}")
    return value

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
import numpy as np

__all__ = ["check_text", "generator_options", "readonly_cells", "weight_rows"]


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


def readonly_cells(value: Any) -> np.ndarray:
    """The cells of a bitmask maze as a read-only ``uint8`` grid.

    :raises InvalidPuzzleError: not a non-empty 2-D grid of bitmasks 0-15.
    """
    if isinstance(value, np.ndarray) and value.dtype == np.uint8 and not value.flags.writeable:
        array = value
    else:
        try:
            source = np.asarray(value)
            if source.dtype.kind not in "iu" and source.size:
                raise TypeError(f"not integers but {source.dtype}")
            if source.size and (source.min() < 0 or source.max() > 15):
                bad = np.argwhere((source < 0) | (source > 15))[0]
                raise lacak.InvalidPuzzleError(
                    f"cell {bad.tolist()} must be a bitmask 0-15 (N=1, E=2, S=4, W=8), "
                    f"got {source[tuple(bad)]}"
                )
            array = np.array(source, dtype=np.uint8, copy=True)
        except (TypeError, ValueError, OverflowError) as error:
            if isinstance(error, lacak.InvalidPuzzleError):
                raise
            raise lacak.InvalidPuzzleError(
                f"maze cells must be a grid of bitmasks 0-15: {error}"
            ) from None
        array.setflags(write=False)
    if array.ndim != 2 or array.shape[0] < 1 or array.shape[1] < 1:
        raise lacak.InvalidPuzzleError(
            f"maze cells must be a non-empty 2-D grid, got shape {array.shape}"
        )
    return array


def weight_rows(value: Any) -> np.ndarray | None:
    """Weights as a read-only ``float64`` grid of numbers of at least 1, or ``None``."""
    if value is None:
        return None
    try:
        array = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise lacak.InvalidPuzzleError("a maze's weights are rows of numbers") from None
    if array.ndim != 2 or not np.all(np.isfinite(array)) or (array.size and array.min() < 1):
        raise lacak.InvalidPuzzleError(
            "a maze's weights are rows of finite numbers of at least 1, one a cell"
        )
    array.setflags(write=False)
    return array

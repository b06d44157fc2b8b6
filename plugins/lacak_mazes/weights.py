"""Weighted cells: a cost to enter each cell of a maze (Buck, *Mazes for Programmers*,
chapter 9), given by the generators' ``weights`` option.

The option is one of:

- ``"LOW-HIGH"`` (``"1-9"``): whole numbers drawn uniformly from ``LOW`` to ``HIGH``,
  from the maze's seed (the same maze and weights on every machine); ``"random"`` is
  ``"1-9"``;
- ``"W1,W2,..."``: the weights themselves, one a cell in the grid's order (numbers of
  at least 1), which is how weights read from a picture are recorded;
- a PNG's bytes (or any picture Pillow reads): each cell's weight from the grey level
  under its centre, the picture stretched over the maze, **darker costs more**: black
  9, white 1 (:func:`weights_from_picture`).

A weighted maze on a grid has ``weights`` by cell index; the plain rectangle stays a
bitmask :class:`~lacak_mazes.Maze` whose ``weights`` are rows, one number a cell (its
JSON gains a ``"weights"`` key, nothing else changes).
A step into a cell costs its weight, so ``uniform-cost`` and ``astar`` (with
``manhattan``, the grid's admissible bound) find the cheapest way through; the
breadth-first strategies find the fewest steps.

>>> import lacak
>>> maze = lacak.generate("maze", "wilson", (3, 4), seed=1, weights="1-5")
>>> maze.weights.shape, set(maze.weights.ravel().tolist()) <= {1, 2, 3, 4, 5}
((3, 4), True)
>>> maze.options["weights"]
'1-5'
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

import attrs
import lacak

__all__ = ["apply_weights", "random_weights", "read_weights", "weights_from_picture"]

#: The range ``"random"`` stands for, and a picture's.
DEFAULT_RANGE = (1, 9)
#: The largest weight a range may reach.
MAX_WEIGHT = 1_000_000
#: The salt of the weights' random numbers (the generators' own are other numbers).
_SALT = 43

_RANGE = re.compile(r"\s*(\d+)\s*-\s*(\d+)\s*")


def read_weights(value: Any) -> tuple[int, int] | list[float] | bytes | None:
    """The ``weights`` option, checked: ``None`` (no weights), a range ``(low, high)``,
    a list of weights, or a picture's bytes.

    :raises InvalidOptionError: anything else, a range out of order or below 1, a
        weight below 1.
    """
    if value is None or value is False or (isinstance(value, str) and value.strip().lower()
                                           in ("", "none", "no")):  # fmt: skip
        return None
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    if isinstance(value, (list, tuple)):
        return _checked_list(value)
    if not isinstance(value, str):
        raise lacak.InvalidOptionError(
            f"a maze's weights are LOW-HIGH (like 1-9), 'random', a list of numbers or a "
            f"picture, got {value!r}"[:200]
        )
    text = value.strip().lower()
    if text == "random":
        return DEFAULT_RANGE
    match = _RANGE.fullmatch(text)
    if match:
        low, high = int(match.group(1)), int(match.group(2))
        if not 1 <= low <= high <= MAX_WEIGHT:
            raise lacak.InvalidOptionError(
                f"a weights range LOW-HIGH needs 1 <= LOW <= HIGH <= {MAX_WEIGHT}, got {value!r}"
            )
        return (low, high)
    if "," in text or re.fullmatch(r"[0-9.]+", text):
        try:
            return _checked_list([float(part) for part in text.split(",")])
        except ValueError:
            pass
    raise lacak.InvalidOptionError(
        f"a maze's weights are LOW-HIGH (like 1-9), 'random' or numbers between commas, "
        f"got {value!r}"[:200]
    )


def _checked_list(values: Any) -> list[float]:
    try:
        weights = [float(v) for v in values]
    except (TypeError, ValueError):
        raise lacak.InvalidOptionError("a maze's weights are numbers, one a cell") from None
    if any(not (1.0 <= w <= MAX_WEIGHT) for w in weights):
        raise lacak.InvalidOptionError(
            f"a maze's weights are numbers from 1 to {MAX_WEIGHT}, one a cell"
        )
    return weights


def random_weights(size: int, low: int, high: int, seed: int) -> list[int]:
    """``size`` whole numbers uniform in ``[low, high]``, from ``seed`` (PCG64, the same on
    every machine)."""
    from .generators._common import Rng  # (deferred: numpy)

    return [low + int(v) for v in Rng(seed, salt=_SALT).below(high - low + 1, size).tolist()]


def weights_from_picture(data: bytes, grid: Any, low: int = 1, high: int = 9) -> list[int]:
    """Each cell's weight from the grey under its centre in a picture stretched over the
    grid's drawing: black ``high``, white ``low``, the greys between rounded.

    :raises InvalidOptionError: not a picture Pillow reads.
    """
    from PIL import Image, UnidentifiedImageError  # (deferred: Pillow, for pictures only)

    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.width * image.height > 64_000_000:
                raise lacak.InvalidOptionError(
                    f"the weights picture has {image.width}x{image.height} pixels; too many"
                )
            grey = image.convert("L")
    except (UnidentifiedImageError, OSError, ValueError) as error:
        raise lacak.InvalidOptionError(
            f"the weights are not a picture Pillow reads: {error}"
        ) from None
    width, height = grid.extent
    pixels = grey.load()
    weights = []
    for x, y in grid.centres:
        px = min(grey.width - 1, max(0, int(x / width * grey.width)))
        py = min(grey.height - 1, max(0, int(y / height * grey.height)))
        level = pixels[px, py]
        weights.append(low + round((255 - level) / 255 * (high - low)))
    return weights


def _text(weights: Sequence[float]) -> str:
    return ",".join(str(int(w)) if w == int(w) else repr(w) for w in weights)


def apply_weights(maze: Any, value: Any, seed: int) -> tuple[Any, str | None]:
    """``maze`` with the weights the option ``value`` gives, and the option as the maze
    records it (``"1-9"``, or the weights between commas for a picture); ``(maze,
    None)`` for no weights. A bitmask :class:`~lacak_mazes.Maze` becomes a
    :class:`~lacak_mazes.gridmaze.GridMaze` on a ``rect`` grid.

    :raises InvalidOptionError: a bad option, or a list that is not one weight a cell.
    """
    spec = read_weights(value)
    if spec is None:
        return maze, None
    from .gridmaze import GridMaze  # (deferred: the maze code)

    plain = maze if not isinstance(maze, GridMaze) else None
    if plain is not None:  # the plain rectangle stays a bitmask maze, with weight rows
        maze = GridMaze.from_maze(maze)
    if isinstance(spec, tuple):
        low, high = spec
        weights: list[Any] = random_weights(maze.size, low, high, seed)
        recorded = f"{low}-{high}"
    elif isinstance(spec, bytes):
        weights = weights_from_picture(spec, maze.grid, *DEFAULT_RANGE)
        recorded = _text(weights)
    else:
        if len(spec) != maze.size:
            raise lacak.InvalidOptionError(
                f"the weights are one a cell: {maze.size} for {maze.grid.name}, got {len(spec)}"
            )
        weights = spec
        recorded = _text(weights)
    if plain is not None:
        rows = [weights[start : start + plain.width] for start in range(0, len(weights), plain.width)]
        return attrs.evolve(plain, weights=rows), recorded
    return attrs.evolve(maze, weights=weights), recorded

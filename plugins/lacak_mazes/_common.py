"""What the maze modules share: directions, sizes, seeds and block random numbers.

Cells are numbered row by row (``index = row * width + col``). Generators
that walk the grid in Python use flat integer indices and precomputed tables;
random numbers come from a :class:`numpy.random.PCG64` bit generator in
blocks, never one call per number.

Only the raw 64-bit output of PCG64 is used (``random_raw``), and every
derived number (floats, small integers) is computed here with plain integer
arithmetic, so a seed gives the same maze with any numpy version on any
machine: the bit generator's stream and its seeding (``SeedSequence``) are
fixed by numpy's stability policy, unlike the distribution methods.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import lacak

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "BIT",
    "DIRECTIONS",
    "DX",
    "DY",
    "LETTER",
    "MAX_CELLS",
    "OPPOSITE",
    "E",
    "N",
    "Rng",
    "S",
    "W",
    "check_probability",
    "check_seed",
    "check_size",
    "flat_offsets",
    "flat_steps",
    "is_integer",
    "trace_back",
]

#: Open-side bits of a cell.
N, E, S, W = 1, 2, 4, 8
#: Direction letters in bit order.
DIRECTIONS = "NESW"
#: Bit of each direction letter.
BIT = {"N": N, "E": E, "S": S, "W": W}
#: Direction letter of each bit.
LETTER = {N: "N", E: "E", S: "S", W: "W"}
#: The side a passage enters its neighbour by.
OPPOSITE = {N: S, E: W, S: N, W: E}
#: Row and column change of each bit.
DY = {N: -1, E: 0, S: 1, W: 0}
DX = {N: 0, E: 1, S: 0, W: -1}

#: Largest maze (in cells) a generator makes: 4096 x 4096.
MAX_CELLS = 1 << 24


def flat_offsets(width: int) -> dict[int, int]:
    """The change of flat index (``row * width + col``) a step through each side makes."""
    return {N: -width, E: 1, S: width, W: -1}


@functools.lru_cache(maxsize=64)
def flat_steps(width: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each bitmask: ``(flat offset, back bit)`` of every open side, ``N, E, S, W`` order.

    The back bit is the side of the neighbour that faces the cell left.
    """
    offset = flat_offsets(width)
    return tuple(
        tuple((offset[bit], OPPOSITE[bit]) for bit in (N, E, S, W) if mask & bit)
        for mask in range(16)
    )


def trace_back(came: bytearray, width: int, source: int, target: int) -> list[int]:
    """Flat cells from ``source`` to ``target``, following ``came`` back from ``target``.

    ``came[cell]`` is the bit of the side of ``cell`` that leads back towards ``source``.
    """
    offset = flat_offsets(width)
    path = [target]
    here = target
    while here != source:
        here += offset[came[here]]
        path.append(here)
    path.reverse()
    return path


def check_size(size: Any) -> tuple[int, int]:
    """Normalise a maze size: ``(rows, cols)``, ``"12x30"`` or one number for a square.

    >>> check_size((3, 4)), check_size("12x30"), check_size(5)
    ((3, 4), (12, 30), (5, 5))

    :raises InvalidOptionError: not two positive integers, or more than :data:`MAX_CELLS` cells.
    """
    if size is None:
        raise lacak.InvalidOptionError("a maze needs a size (rows, cols), e.g. (10, 20)")
    if isinstance(size, str):
        from lacak.options import parse_size

        return check_size(parse_size(size, what="maze size"))
    if isinstance(size, int) and not isinstance(size, bool):
        size = (size, size)
    try:
        rows, cols = size
    except (TypeError, ValueError):
        raise lacak.InvalidOptionError(
            f"a maze size is (rows, cols), e.g. (10, 20), not {size!r}"
        ) from None
    for value in (rows, cols):
        if not is_integer(value):
            raise lacak.InvalidOptionError(f"maze size must be whole numbers, got {size!r}")
    rows, cols = int(rows), int(cols)
    if rows < 1 or cols < 1:
        raise lacak.InvalidOptionError(f"a maze is at least 1x1, got {rows}x{cols}")
    if rows * cols > MAX_CELLS:
        raise lacak.InvalidOptionError(
            f"a {rows}x{cols} maze has {rows * cols:,} cells; the limit is {MAX_CELLS:,} (4096x4096)"
        )
    return rows, cols


def is_integer(value: Any) -> bool:
    """Whether ``value`` is a whole number: an ``int`` (not a ``bool``) or a numpy integer."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    import numpy as np

    return isinstance(value, np.integer)


def check_probability(value: Any, name: str, algorithm: str) -> float:
    """A generator's probability option as a float in [0, 1].

    :raises InvalidOptionError: not a number (a ``bool`` or a string is not one), or
        outside [0, 1].
    """
    from numbers import Real

    if isinstance(value, bool) or not isinstance(value, Real) or not 0.0 <= float(value) <= 1.0:
        raise lacak.InvalidOptionError(
            f"{algorithm} option {name!r} is a probability in [0, 1], got {value!r}"
        )
    return float(value)


def check_seed(seed: Any) -> int:
    """A seed as generators use it; ``None`` picks a fresh one (reported in the maze).

    :raises InvalidOptionError: not a non-negative integer.
    """
    if seed is None:
        import secrets  # here: it loads OpenSSL, which registering the solvers does not need

        return secrets.randbits(63)
    if not is_integer(seed):
        raise lacak.InvalidOptionError(f"a seed is a non-negative integer, got {seed!r}")
    if seed < 0:
        raise lacak.InvalidOptionError(f"a seed is a non-negative integer, got {seed}")
    return int(seed)


class Rng:
    """Random numbers for one maze, drawn from PCG64 in numpy blocks.

    :param seed: a non-negative integer.
    :param salt: mixed into the seed so that algorithms sharing a seed do not
        share their streams.
    """

    BLOCK = 1 << 16

    def __init__(self, seed: int, salt: int = 0) -> None:
        import numpy as np

        self._np = np
        self.bits = np.random.PCG64(np.random.SeedSequence([seed, salt]))

    def raw(self, count: int) -> np.ndarray:
        """``count`` raw unsigned 64-bit numbers."""
        return self.bits.random_raw(count)

    def floats(self, count: int) -> np.ndarray:
        """``count`` floats uniform in [0, 1), with 53 random bits each."""
        return (self.raw(count) >> self._np.uint64(11)).astype(self._np.float64) * (2.0**-53)

    def below(self, bound: int, count: int) -> np.ndarray:
        """``count`` integers uniform in ``range(bound)`` (``bound < 2**32``; bias < 2**-32)."""
        np = self._np
        high = self.raw(count) >> np.uint64(32)
        return ((high * np.uint64(bound)) >> np.uint64(32)).astype(np.int64)

    def blocks(self, draw: Any) -> Iterator[Any]:
        """Chain lists from ``draw(count)``; blocks start small and double up to BLOCK,
        so a tiny maze draws few numbers and a big one few blocks."""
        size = 64

        def block() -> list[Any]:
            nonlocal size
            values = draw(size).tolist()
            size = min(size * 2, self.BLOCK)
            return values

        return itertools.chain.from_iterable(iter(block, None))

    def float_stream(self) -> Iterator[float]:
        """An endless iterator of floats in [0, 1), refilled in blocks (``next`` is cheap)."""
        return self.blocks(self.floats)

"""What the generators share: sizes, seeds, probabilities and block random numbers.

Random numbers come from a :class:`numpy.random.PCG64` bit generator in
blocks, never one call per number. Only the raw 64-bit output of PCG64 is
used (``random_raw``), and every derived number (floats, small integers) is
computed here with plain integer arithmetic, so a seed gives the same maze
with any numpy version on any machine: the bit generator's stream and its
seeding (``SeedSequence``) are fixed by numpy's stability policy, unlike the
distribution methods.

This module is loaded with the generators' table (:mod:`lacak_mazes.generators`),
whenever the plugins register, so numpy is imported where a number is drawn.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from numbers import Real
from typing import TYPE_CHECKING, Any

import lacak
from lacak.options import read_size

from .._common import is_integer

if TYPE_CHECKING:
    import numpy as np

__all__ = ["MAX_CELLS", "Rng", "check_probability", "check_seed", "check_size"]

#: Largest maze (in cells) a generator makes: 4096 x 4096.
MAX_CELLS = 1 << 24


def check_size(size: Any) -> tuple[int, int]:
    """Normalise a maze size: ``(rows, cols)``, ``"12x30"`` or one number for a square.

    >>> check_size((3, 4)), check_size("12x30"), check_size(5)
    ((3, 4), (12, 30), (5, 5))

    :raises InvalidOptionError: not two positive integers, or more than :data:`MAX_CELLS` cells.
    """
    if size is None:
        raise lacak.InvalidOptionError("a maze needs a size (rows, cols), e.g. (10, 20)")
    return read_size(size, what="maze size", most=MAX_CELLS)


def check_probability(value: Any, name: str, algorithm: str) -> float:
    """A generator's probability option as a float in [0, 1].

    :raises InvalidOptionError: not a number (a ``bool`` or a string is not one), or
        outside [0, 1].
    """
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
        import numpy as np  # here: the table of generators is loaded without numpy

        self._np = np
        self.bits = np.random.PCG64(np.random.SeedSequence([seed, salt]))

    def raw(self, count: int) -> np.ndarray:
        """``count`` raw unsigned 64-bit numbers."""
        return self.bits.random_raw(count)

    def words(self) -> np.ndarray:
        """The bit generator's state as the compiled kernels take it, to go on with the
        same stream (:mod:`lacak_mazes.generators.compiled`): the 128-bit state and
        increment as four ``uint64`` words, high word first."""
        state = self.bits.state["state"]
        value, increment, mask = int(state["state"]), int(state["inc"]), (1 << 64) - 1
        words = [value >> 64, value & mask, increment >> 64, increment & mask]
        return self._np.array(words, dtype=self._np.uint64)

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

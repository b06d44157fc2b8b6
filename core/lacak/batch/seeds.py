"""A batch's job seeds: job ``i`` of a batch of seed ``s`` gets the same seed whatever runs it.

Seeds are derived from the batch seed with :class:`numpy.random.SeedSequence`
(:func:`derive_seeds`, :func:`job_seed`); a long batch draws them in blocks through a
mixer that gives the same numbers (:func:`_mixer`).
"""

from __future__ import annotations

import functools
import operator
import reprlib
from typing import Any

from ..errors import InvalidOptionError


def _whole(value: Any, what: str) -> int:
    """``value`` as a non-negative ``int`` (numpy integers too, never a bool)."""
    if isinstance(value, bool):
        raise InvalidOptionError(f"{what} must be a non-negative integer, got {value!r}")
    try:
        number = operator.index(value)
    except TypeError:
        raise InvalidOptionError(
            f"{what} must be a non-negative integer, got {reprlib.repr(value)}"
        ) from None
    if number < 0:
        raise InvalidOptionError(f"{what} must be a non-negative integer, got {number}")
    return number


def derive_seeds(seed: int, count: int) -> list[int]:
    """``count`` independent 63-bit seeds derived from ``seed``, stable everywhere:
    ``derive_seeds(seed, count)[i] == job_seed(seed, i)``, whatever ``count``.

    >>> derive_seeds(42, 2) == derive_seeds(42, 2) and len(set(derive_seeds(42, 2))) == 2
    True
    >>> derive_seeds(42, 3)[:2] == derive_seeds(42, 2)
    True

    :param seed: the batch seed, a non-negative integer (any size).
    :param count: how many seeds.
    :raises InvalidOptionError: ``seed`` or ``count`` is not a non-negative integer
        (``None`` included: a batch always has a seed, so it can be run again).
    """
    mixer = _mixer(_whole(seed, "the batch seed"))
    return [mixer.child(index) for index in range(_whole(count, "the number of seeds"))]


def job_seed(seed: int, index: int) -> int:
    """The seed of job ``index`` of a batch seeded ``seed``, found without making the ones
    before it (a batch of any length, or resumed): the first 63 bits of the state of
    :class:`numpy.random.SeedSequence` ``(seed, spawn_key=(index,))``, the ``index``-th
    child of ``SeedSequence(seed)``.

    >>> job_seed(42, 1) == derive_seeds(42, 2)[1]
    True
    >>> import numpy as np
    >>> child = np.random.SeedSequence(42).spawn(2)[1]
    >>> job_seed(42, 1) == int(child.generate_state(2, np.uint32).view(np.uint64)[0] >> 1)
    True

    :raises InvalidOptionError: ``seed`` or ``index`` is not a non-negative integer.
    """
    return _mixer(_whole(seed, "the batch seed")).child(_whole(index, "a job's index"))


# SeedSequence's hash (numpy/random/bit_generator.pyx, after M. E. O'Neill's seed_seq),
# in Python: the pool mixed from the batch seed is the same for every job, so it is
# made once and only the job's index is mixed in per job (4 us, not 15 us a job).
_M32 = 0xFFFFFFFF
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715


def _words(number: int) -> list[int]:
    """``number`` as 32-bit words, least significant first (``[0]`` for 0)."""
    out = []
    while True:
        out.append(number & _M32)
        number >>= 32
        if not number:
            return out


def _hashmix(value: int, const: int) -> tuple[int, int]:
    value ^= const
    const = (const * _MULT_A) & _M32
    value = (value * const) & _M32
    return value ^ (value >> 16), const


def _mix(x: int, y: int) -> int:
    mixed = (_MIX_L * x - _MIX_R * y) & _M32
    return mixed ^ (mixed >> 16)


class _Mixer:
    """The SeedSequence pool of a batch seed, before a spawn key is mixed in."""

    def __init__(self, seed: int) -> None:
        run = _words(seed)
        run += [0] * (4 - len(run))  # padded, as a SeedSequence with a spawn key pads it
        const = _INIT_A
        pool = []
        for word in run[:4]:
            value, const = _hashmix(word, const)
            pool.append(value)
        for src in range(4):
            for dst in range(4):
                if src != dst:
                    value, const = _hashmix(pool[src], const)
                    pool[dst] = _mix(pool[dst], value)
        for word in run[4:]:
            pool, const = self._add(pool, const, word)
        self.pool, self.const = pool, const

    @staticmethod
    def _add(pool: list[int], const: int, word: int) -> tuple[list[int], int]:
        pool = list(pool)
        for dst in range(4):
            value, const = _hashmix(word, const)
            pool[dst] = _mix(pool[dst], value)
        return pool, const

    def child(self, index: int) -> int:
        # _add for each 32-bit word of the index, written out: only the first two
        # words of the pool are read at the end (the other two never flow into them),
        # but the constant goes through all four hashes of every word
        p0, p1 = self.pool[0], self.pool[1]
        const = self.const
        while True:
            word = index & _M32
            value = word ^ const
            const = (const * _MULT_A) & _M32
            value = (value * const) & _M32
            mixed = (_MIX_L * p0 - _MIX_R * (value ^ (value >> 16))) & _M32
            p0 = mixed ^ (mixed >> 16)
            value = word ^ const
            const = (const * _MULT_A) & _M32
            value = (value * const) & _M32
            mixed = (_MIX_L * p1 - _MIX_R * (value ^ (value >> 16))) & _M32
            p1 = mixed ^ (mixed >> 16)
            const = (const * _MULT_A * _MULT_A) & _M32  # the hashes for the pool's words 2, 3
            index >>= 32
            if not index:
                break
        # generate_state(2, uint32), read as one little-endian uint64
        const = _INIT_B
        value = p0 ^ const
        const = (const * _MULT_B) & _M32
        value = (value * const) & _M32
        low = value ^ (value >> 16)
        value = p1 ^ const
        const = (const * _MULT_B) & _M32
        value = (value * const) & _M32
        return ((value ^ (value >> 16)) << 31) | (low >> 1)

    def children(self, first: int, count: int) -> list[int]:
        """``[child(i) for i in range(first, first + count)]``, with numpy (about 40 times
        faster a seed) for indices below 2**32; :meth:`child` for the rest."""
        import numpy as np  # (deferred: numpy is heavy to import)

        if first + count > 2**32 or count < 16:
            return [self.child(index) for index in range(first, first + count)]
        m32 = np.uint64(_M32)
        word = np.arange(first, first + count, dtype=np.uint64)
        const = self.const
        value = (word ^ np.uint64(const)) * np.uint64((const * _MULT_A) & _M32) & m32
        const = (const * _MULT_A) & _M32
        mixed = (np.uint64(_MIX_L * self.pool[0]) - np.uint64(_MIX_R) * (value ^ (value >> 16)))
        p0 = (mixed & m32) ^ ((mixed & m32) >> 16)
        value = (word ^ np.uint64(const)) * np.uint64((const * _MULT_A) & _M32) & m32
        mixed = (np.uint64(_MIX_L * self.pool[1]) - np.uint64(_MIX_R) * (value ^ (value >> 16)))
        p1 = (mixed & m32) ^ ((mixed & m32) >> 16)
        const = _INIT_B
        value = (p0 ^ np.uint64(const)) * np.uint64((const * _MULT_B) & _M32) & m32
        low = value ^ (value >> 16)
        const = (const * _MULT_B) & _M32
        value = (p1 ^ np.uint64(const)) * np.uint64((const * _MULT_B) & _M32) & m32
        seeds: list[int] = (((value ^ (value >> 16)) << 31) | (low >> 1)).tolist()
        return seeds


@functools.lru_cache(maxsize=16)
def _mixer(seed: int) -> _Mixer:
    return _Mixer(seed)

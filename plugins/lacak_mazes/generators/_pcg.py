"""numpy's PCG64 stream stepped in machine code, for the compiled maze kernels.

The kernels of :mod:`.compiled` (the rectangle) and :mod:`.compiled_graph` (every
grid) go on with the stream that the Python engine draws from: the bit
generator's 128-bit state and increment passed in as four 64-bit words, high
word first (:meth:`._common.Rng.words`). :func:`next_raw` steps it as numpy's
PCG64 does (a 128-bit LCG step, then the XSL-RR output), in 64-bit halves, and
:func:`next_float` makes a float as numpy does, the top 53 bits times
``2**-53``. The tests compare both with numpy's own numbers.

A kernel module that imports these has them inlined into its machine code, so
lacak's cache of that code is keyed by this file's source too
(:func:`lacak.store.compiled.cache_kernels` reads the sources of the kernels a
module imports).
"""

from __future__ import annotations

import lacak
import numba
import numpy as np

__all__ = ["next_float", "next_raw"]

_M32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_S58 = np.uint64(58)
_S11 = np.uint64(11)
_S63 = np.uint64(63)
_ONE = np.uint64(1)
#: PCG64's 128-bit multiplier, high and low words.
_MUL_HIGH = np.uint64(2549297995355413924)
_MUL_LOW = np.uint64(4865540595714422341)
_TWO_53 = 2.0**-53


@numba.njit(inline="always")
def _mulhi(a: np.uint64, b: np.uint64) -> np.uint64:  # pragma: no cover - machine code
    """The high 64 bits of the 128-bit product ``a * b``."""
    a0 = a & _M32
    a1 = a >> _S32
    b0 = b & _M32
    b1 = b >> _S32
    p00 = a0 * b0
    p01 = a0 * b1
    p10 = a1 * b0
    p11 = a1 * b1
    mid = (p00 >> _S32) + (p01 & _M32) + (p10 & _M32)
    return p11 + (p01 >> _S32) + (p10 >> _S32) + (mid >> _S32)


@numba.njit(inline="always")
def next_raw(words: np.ndarray) -> np.uint64:  # pragma: no cover - machine code
    """The next raw 64-bit number of the PCG64 stream ``words`` (advanced in place)."""
    high = words[0]
    low = words[1]
    new_low = low * _MUL_LOW
    new_high = _mulhi(low, _MUL_LOW) + high * _MUL_LOW + low * _MUL_HIGH
    added = new_low + words[3]
    carry = _ONE if added < new_low else np.uint64(0)
    new_high = new_high + words[2] + carry
    words[0] = new_high
    words[1] = added
    mixed = new_high ^ added
    turn = new_high >> _S58
    return (mixed >> turn) | (mixed << ((np.uint64(64) - turn) & _S63))


@numba.njit(inline="always")
def next_float(words: np.ndarray) -> float:  # pragma: no cover - machine code
    """The next float in ``[0, 1)`` of the stream ``words``: its top 53 bits."""
    return float(next_raw(words) >> _S11) * _TWO_53


lacak.store.compiled.cache_kernels(globals())

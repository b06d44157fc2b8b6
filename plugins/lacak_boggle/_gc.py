"""Pausing the cyclic garbage collector while many small objects are made.

A leaf of the plugin (it imports none of its modules): the word graph's compiler,
the results and the batches all use it.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["quiet_gc"]


@contextlib.contextmanager
def quiet_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while many small tuples are made.

    The solvers and results create no reference cycles, but allocating
    thousands of tuples triggers collections that rescan every live container
    (numba alone brings over 100,000); pausing them makes result assembly
    several times faster. The collector is turned back on afterwards if it was
    on (so nested or concurrent uses end with it on).
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()

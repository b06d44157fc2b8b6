"""Running many generate or solve jobs through any ``concurrent.futures.Executor``.

By default jobs run in a local process pool. For more than one machine, pass
a Dask executor::

    from distributed import Client
    client = Client("scheduler:8786")
    lacak.batch.generate_many("maze", "wilson", (100, 100), count=10_000, seed=1,
                              executor=client.get_executor())

Job seeds are derived from the batch seed with :class:`numpy.random.SeedSequence`,
so job ``i`` gets the same seed (and the same instance) whatever executor runs it.
"""

from __future__ import annotations

import operator
import os
import reprlib
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from .errors import InvalidOptionError
from .limits import Limits
from .results import SearchResult

if TYPE_CHECKING:
    import concurrent.futures

__all__ = ["derive_seeds", "generate_many", "run_many", "solve_many"]

T = TypeVar("T")
R = TypeVar("R")


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
    """``count`` independent 63-bit seeds derived from ``seed``, stable everywhere.

    >>> derive_seeds(42, 2) == derive_seeds(42, 2) and len(set(derive_seeds(42, 2))) == 2
    True

    :param seed: the batch seed, a non-negative integer (any size).
    :param count: how many seeds.
    :raises InvalidOptionError: ``seed`` or ``count`` is not a non-negative integer
        (``None`` included: a batch always has a seed, so it can be run again).
    """
    import numpy as np

    seed = _whole(seed, "the batch seed")
    count = _whole(count, "the number of seeds")

    children = np.random.SeedSequence(seed).spawn(count)
    return [int(c.generate_state(2, dtype=np.uint32).view(np.uint64)[0] >> 1) for c in children]


def run_many(
    function: Callable[[T], R],
    items: Iterable[T],
    *,
    executor: concurrent.futures.Executor | None = None,
    chunksize: int = 1,
) -> list[R]:
    """``[function(item) for item in items]``, run by ``executor``, in order.

    Without an executor a :class:`~concurrent.futures.ProcessPoolExecutor` with
    one worker per core is used (and shut down afterwards). ``function`` and the
    items must be picklable.
    """
    import concurrent.futures  # here, not at module level: it is slow to import

    items = list(items)
    if executor is None:
        if len(items) <= 1 or (os.cpu_count() or 1) == 1:
            return [function(item) for item in items]
        with concurrent.futures.ProcessPoolExecutor() as pool:
            return list(pool.map(function, items, chunksize=chunksize))
    if chunksize > 1 and isinstance(executor, concurrent.futures.ProcessPoolExecutor):
        return list(executor.map(function, items, chunksize=chunksize))
    return list(executor.map(function, items))


@attrs.frozen
class _Generate:
    kind: str
    algorithm: str
    size: Any
    options: dict[str, Any]

    def __call__(self, seed: int) -> Any:
        from .api import generate

        return generate(self.kind, self.algorithm, self.size, seed=seed, **self.options)


@attrs.frozen
class _Solve:
    strategy: str | None
    heuristic: str | None
    limits: Limits | None
    options: dict[str, Any]

    def __call__(self, puzzle: Any) -> SearchResult:
        from .api import solve

        return solve(
            puzzle, self.strategy, heuristic=self.heuristic, limits=self.limits, **self.options
        )


def generate_many(
    kind: str,
    algorithm: str,
    size: Any,
    *,
    count: int,
    seed: int,
    executor: concurrent.futures.Executor | None = None,
    **options: Any,
) -> list[Any]:
    """Generate ``count`` instances; instance ``i`` uses ``derive_seeds(seed, count)[i]``.

    ``seed`` is required (there is no "random" batch): the same seed gives the
    same instances on every machine and executor, so a batch can always be
    made again.

    :raises InvalidOptionError: ``seed`` or ``count`` is not a non-negative
        integer (``seed=None`` included).
    """
    return run_many(
        _Generate(kind, algorithm, size, options), derive_seeds(seed, count), executor=executor
    )


def solve_many(
    puzzles: Sequence[Any],
    strategy: str | None = None,
    *,
    heuristic: str | None = None,
    limits: Limits | None = None,
    executor: concurrent.futures.Executor | None = None,
    **options: Any,
) -> list[SearchResult]:
    """Solve every puzzle (picklable) with the named strategy and heuristic, in order."""
    return run_many(_Solve(strategy, heuristic, limits, options), puzzles, executor=executor)

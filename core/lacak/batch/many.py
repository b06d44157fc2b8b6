"""Many generate or solve jobs of the facade (:func:`lacak.generate`, :func:`lacak.solve`)
in one call: :func:`generate_many`, :func:`solve_many`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ..api import generate, solve
from ..limits import Limits
from ..results import SearchResult
from .jobs import Outcome
from .pool import run_many
from .seeds import derive_seeds

if TYPE_CHECKING:
    import concurrent.futures


@attrs.frozen
class _Generate:
    kind: str
    algorithm: str
    size: Any
    options: dict[str, Any]

    def __call__(self, seed: int) -> Any:
        return generate(self.kind, self.algorithm, self.size, seed=seed, **self.options)


@attrs.frozen
class _Solve:
    strategy: str | None
    heuristic: str | None
    limits: Limits | None
    options: dict[str, Any]

    def __call__(self, puzzle: Any) -> SearchResult:
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
    workers: int | None = None,
    **options: Any,
) -> list[Outcome[Any]]:
    """Generate ``count`` instances; instance ``i`` uses ``derive_seeds(seed, count)[i]``.

    ``seed`` is required (there is no "random" batch): the same seed gives the
    same instances on every machine and executor, so a batch can always be
    made again.

    :param executor: as for :func:`iter_many`.
    :param workers: as for :func:`iter_many`.
    :returns: one :class:`Outcome` per instance, in order: ``outcome.value`` is
        the instance, or ``outcome.error`` says why it could not be made.
    :raises InvalidOptionError: ``seed`` or ``count`` is not a non-negative
        integer (``seed=None`` included).
    """
    return run_many(_Generate(kind, algorithm, size, options), derive_seeds(seed, count),
                    executor=executor, workers=workers)  # fmt: skip


def solve_many(
    puzzles: Sequence[Any],
    strategy: str | None = None,
    *,
    heuristic: str | None = None,
    limits: Limits | None = None,
    executor: concurrent.futures.Executor | None = None,
    workers: int | None = None,
    **options: Any,
) -> list[Outcome[SearchResult]]:
    """Solve every puzzle (picklable) with the named strategy and heuristic.

    :param executor: as for :func:`iter_many`.
    :param workers: as for :func:`iter_many`.
    :returns: one :class:`Outcome` per puzzle, in order: ``outcome.value`` is
        its :class:`~lacak.SearchResult`, or ``outcome.error`` says why it has
        none (an unknown strategy is every job's
        :class:`~lacak.UnknownComponentError`).
    """
    return run_many(_Solve(strategy, heuristic, limits, options), puzzles, executor=executor,
                    workers=workers)  # fmt: skip

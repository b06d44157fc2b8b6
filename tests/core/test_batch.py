"""Batch runs give the same instances whatever executor runs them, Dask included."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import lacak
import numpy
import pytest
from hypothesis import given
from hypothesis import strategies as st


def values(records: list[lacak.batch.Outcome[object]]) -> list[object]:
    """The records' values, in order (raising the first error)."""
    assert [r.index for r in records] == list(range(len(records)))
    return [r.unwrap() for r in records]


def test_generate_many_is_executor_independent() -> None:
    serial = values(lacak.batch.generate_many("maze", "kruskal", (6, 7), count=4, seed=11,
                                              executor=None))
    with ThreadPoolExecutor(2) as pool:
        threaded = values(lacak.batch.generate_many("maze", "kruskal", (6, 7), count=4, seed=11,
                                                    executor=pool))
    assert serial == threaded
    assert len({maze.to_json() for maze in serial}) == 4  # derived seeds differ


def test_solve_many_on_a_process_pool() -> None:
    puzzles = [lacak.generate("sliding", "walk", (3, 3), seed=s, moves=12) for s in range(4)]
    results = values(lacak.batch.solve_many(puzzles, "bfs"))
    assert [r.length for r in results] == [lacak.solve(p, "bfs").length for p in puzzles]
    assert all(r.found for r in results)


def test_dask_executor() -> None:
    import distributed  # a test dependency (pyproject's [test] extra)

    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:
        on_dask = values(lacak.batch.generate_many("maze", "wilson", (5, 5), count=3, seed=2,
                                                   executor=client.get_executor()))
    assert on_dask == values(lacak.batch.generate_many("maze", "wilson", (5, 5), count=3,
                                                       seed=2, executor=None))


@given(seed=st.one_of(st.none(), st.integers(max_value=-1), st.booleans(), st.floats(),
                      st.text(max_size=3)),
       count=st.integers(0, 3))
def test_a_batch_needs_a_non_negative_integer_seed(seed: object, count: int) -> None:
    with pytest.raises(lacak.InvalidOptionError, match="the batch seed must be a non-negative"):
        lacak.batch.derive_seeds(seed, count)  # type: ignore[arg-type]
    with pytest.raises(lacak.InvalidOptionError, match="the batch seed"):
        lacak.batch.generate_many("maze", "kruskal", (3, 3), count=count, seed=seed)  # type: ignore[arg-type]


@given(seed=st.integers(0, 2**200), count=st.integers(-3, 4))
def test_derive_seeds_counts(seed: int, count: int) -> None:
    if count < 0:
        with pytest.raises(lacak.InvalidOptionError, match="the number of seeds"):
            lacak.batch.derive_seeds(seed, count)
        return
    seeds = lacak.batch.derive_seeds(seed, count)
    assert len(seeds) == count and all(0 <= s < 2**63 for s in seeds)
    assert lacak.batch.derive_seeds(numpy.uint64(seed % 2**64), count) == (
        lacak.batch.derive_seeds(seed % 2**64, count)
    )

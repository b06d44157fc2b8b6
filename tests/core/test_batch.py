"""Batch runs give the same instances whatever executor runs them, Dask included."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import lacak


def test_generate_many_is_executor_independent() -> None:
    serial = lacak.batch.generate_many("maze", "kruskal", (6, 7), count=4, seed=11,
                                       executor=None)
    with ThreadPoolExecutor(2) as pool:
        threaded = lacak.batch.generate_many("maze", "kruskal", (6, 7), count=4, seed=11,
                                             executor=pool)
    assert serial == threaded
    assert len({maze.to_json() for maze in serial}) == 4  # derived seeds differ


def test_solve_many_on_a_process_pool() -> None:
    puzzles = [lacak.generate("sliding", "walk", (3, 3), seed=s, moves=12) for s in range(4)]
    results = lacak.batch.solve_many(puzzles, "bfs")
    assert [r.length for r in results] == [lacak.solve(p, "bfs").length for p in puzzles]
    assert all(r.found for r in results)


def test_dask_executor() -> None:
    import distributed  # a test dependency (pyproject's [test] extra)

    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:
        on_dask = lacak.batch.generate_many("maze", "wilson", (5, 5), count=3, seed=2,
                                            executor=client.get_executor())
    assert on_dask == lacak.batch.generate_many("maze", "wilson", (5, 5), count=3, seed=2,
                                                executor=None)

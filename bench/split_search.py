"""One IDA* search split across workers (issue 15, item 4): 1 worker against 2.

For each Korf instance: the one-process ``idastar-tiles`` search, then the split search
on lacak's own pool of 1 and 2 processes (``workers=N``) and, with ``--dask``, on a
``LocalCluster`` of 2 processes. Each run reports wall and CPU seconds (this process and
its reaped children), nodes expanded (checked equal to the one-process run's), the load
average before and after (the machine is shared), and the speed-up over 1 worker.

``--overhead`` measures what a task costs on each executor apart from its search: many
tasks that search nothing (a node at the goal), sent as the split search sends them
(``lacak.batch.iter_many``, one task per job). ``--tasks ID`` measures the task sizes of
an instance's last iteration, split as the search splits it: each task run here, its
nodes and seconds. docs/split.md works from these figures.

Run::

    LACAK_CACHE_DIR=... python bench/split_search.py --ids 75,60 --dask --overhead 400
    python bench/split_search.py --tasks 60

The pattern database is built first (``lacak sliding pdb build 663``) and is not timed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from typing import Any

import lacak
from lacak.batch import iter_many
from lacak_sliding import korf
from lacak_sliding.tiles.idastar import split as tiles_split


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _worker_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def cluster_cpu(executor: Any) -> float:
    """CPU seconds used so far by a Dask cluster's worker processes (not our children)."""
    client = getattr(executor, "_client", None)
    return sum(client.run(_worker_cpu).values()) if client is not None else 0.0


def timed(puzzle: Any, heuristic: str, **kwargs: Any) -> dict[str, Any]:
    executor = kwargs.get("executor")
    before, c0, t0 = load(), cpu() + cluster_cpu(executor), time.perf_counter()
    result = lacak.solve(puzzle, "idastar-tiles", heuristic=heuristic, **kwargs)
    wall = time.perf_counter() - t0
    used = cpu() + cluster_cpu(executor) - c0
    return {"length": result.length, "expanded": result.stats.expanded,
            "generated": result.stats.generated, "wall": round(wall, 2),
            "cpu": round(used, 2), "load_before": before, "load_after": load()}  # fmt: skip


def compare(ids: list[int], heuristic: str, dask: bool, depth: int) -> list[dict[str, Any]]:
    from lacak_sliding.tiles.idastar import engines as tiles_engines

    tiles_engines.warm()  # the compiled engine loaded (compiled once) before any timing
    rows = []
    items = {i.id: i for i in korf.instances()}
    cluster: Any = None
    if dask:
        from lacak.batch import dataset

        cluster = dataset.dask_executor("local:2")
        executor, _threads = cluster.__enter__()
    try:
        for ident in ids:
            puzzle = korf.puzzle(items[ident])
            lacak.solve(puzzle, "idastar-tiles", heuristic=heuristic,
                        limits=lacak.Limits(max_expanded=1))  # load the database, untimed
            runs = {"one process": timed(puzzle, heuristic)}
            for n in (1, 2):
                runs[f"pool {n}"] = timed(puzzle, heuristic, workers=n, split_depth=depth)
            if dask:
                runs["dask 2"] = timed(puzzle, heuristic, executor=executor, split_depth=depth)
            base = runs["pool 1"]["wall"]
            rate1 = runs["pool 1"]["expanded"] / runs["pool 1"]["cpu"]
            for name, run in runs.items():
                assert run["expanded"] == runs["one process"]["expanded"], (ident, name)
                assert run["generated"] == runs["one process"]["generated"], (ident, name)
                run["run"] = name
                row = {"id": ident, "length": items[ident].length, **run,
                       "speedup_vs_pool_1": round(base / run["wall"], 2),
                       # what idle cores would give: nodes per CPU-second against 1 worker's
                       "cpu_bound_speedup": round(
                           (2 if run["run"] != "one process" and run["run"][-1] == "2" else 1)
                           * run["expanded"] / run["cpu"] / rate1, 2)}  # fmt: skip
                rows.append(row)
                print(json.dumps(row), flush=True)
    finally:
        if cluster is not None:
            cluster.__exit__(None, None, None)
    return rows


def overhead(count: int, dask: bool) -> list[dict[str, Any]]:
    """Seconds per task that searches nothing, on lacak's pool of 2 and on Dask."""
    puzzle = lacak.parse("sliding", "1 2 3 / 4 5 6 / 7 8 0")
    task = tiles_split._Task(puzzle, "manhattan", None, tuple(puzzle.goal), -1, 0, None, None)
    rows = []
    executors: list[tuple[str, Any, Any]] = [("pool 2", None, 2)]
    if dask:
        from lacak.batch import dataset

        executors.append(("dask 2", dataset.dask_executor("local:2"), None))
    for name, maker, workers in executors:
        executor = maker.__enter__()[0] if maker is not None else None
        try:
            list(iter_many(tiles_split._run, [task] * 20, executor=executor, workers=workers))
            before, t0 = load(), time.perf_counter()
            done = list(iter_many(tiles_split._run, [task] * count, executor=executor,
                                  workers=workers))  # fmt: skip
            wall = time.perf_counter() - t0
            assert all(d.ok for d in done)
            row = {"executor": name, "tasks": count, "wall": round(wall, 3),
                   "ms_per_task": round(1000 * wall / count, 3), "load_before": before,
                   "load_after": load()}  # fmt: skip
        finally:
            if maker is not None:
                maker.__exit__(None, None, None)
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def task_sizes(ident: int, heuristic: str, depth: int) -> dict[str, Any]:
    """The tasks of an instance's last iteration, each run here: nodes and seconds."""
    item = {i.id: i for i in korf.instances()}[ident]
    puzzle = korf.puzzle(item)
    h = lacak.default_registry().heuristic("sliding", heuristic)
    prepared = h.for_puzzle(puzzle)
    bound = item.length
    if not depth:
        splitter = tiles_split._Splitter(
            puzzle, h, heuristic, prepared, lacak.Limits(), lacak.Limits().start(),
            tiles_split.engine_for(puzzle, prepared, h, lacak.Limits(), lacak.Limits().start(),
                                None).search, None, 2, 0)  # fmt: skip
        it = splitter.pieces(bound)
    else:
        pieces, e, g = tiles_split.frontier(puzzle.initial, puzzle.goal, 4, 4, prepared,
                                            bound, depth)  # fmt: skip
        it = tiles_split._Iteration(bound, pieces, e, g)
    sizes, seconds = [], []
    c0 = time.process_time()
    for piece in it.pieces:
        if piece.goal or piece.tiles is None:
            continue
        task = tiles_split._Task(puzzle, heuristic, None, piece.tiles, piece.prev,
                                 bound - piece.depth, None, None)  # fmt: skip
        done = tiles_split._run(task)
        sizes.append(done.expanded)
        seconds.append(done.seconds)
        if done.cells is not None:
            break  # the solving task: the search ends here
    total = sum(sizes)
    used = time.process_time() - c0
    row = {"id": ident, "bound": bound, "tasks": len(sizes), "depth": it.pieces[0].depth,
           "nodes": total, "seconds": round(sum(seconds), 2),
           "nodes_per_second": round(total / max(sum(seconds), 1e-9)),
           "cpu": round(used, 2), "nodes_per_cpu_second": round(total / max(used, 1e-9)),
           "median_task_nodes": statistics.median(sizes),
           "mean_task_nodes": round(total / len(sizes)), "max_task_nodes": max(sizes),
           "largest_task_share": round(max(sizes) / total, 3),
           "mean_task_seconds": round(sum(seconds) / len(seconds), 4),
           "load": load()}  # fmt: skip
    print(json.dumps(row), flush=True)
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ids", default="", help="Korf instance ids, comma separated.")
    parser.add_argument("-H", "--heuristic", default="pdb-663")
    parser.add_argument("--dask", action="store_true", help="Also a LocalCluster of 2.")
    parser.add_argument("--split-depth", type=int, default=0)
    parser.add_argument("--overhead", type=int, default=0, metavar="N",
                        help="Measure N empty tasks per executor.")  # fmt: skip
    parser.add_argument("--tasks", type=int, default=0, metavar="ID",
                        help="Measure the task sizes of instance ID's last iteration.")  # fmt: skip
    args = parser.parse_args(argv)
    print(json.dumps({"cores": os.cpu_count(), "load": load(), "python": sys.version.split()[0]}))
    if args.overhead:
        overhead(args.overhead, args.dask)
    if args.tasks:
        task_sizes(args.tasks, args.heuristic, args.split_depth)
    if args.ids:
        ids = [int(x) for x in args.ids.split(",")]
        compare(ids, args.heuristic, args.dask, args.split_depth)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Task datasets at dataset speed (issue 27, item 5): lacak batch --task against its peers.

``lacak batch KIND --task`` against maze-dataset's own generation of the same mazes and
reasoning-gym's maze task.

Every row makes ``--count`` records (``--quick``: a tenth) and prints records/s by the
wall clock and by CPU (this process and its workers: on a shared machine 2 workers
get less than 2 CPUs, and records per CPU-second says what the work itself costs),
with the load average before the row. lacak's rows:

- **lacak batch, 1 and 2 workers**: :func:`lacak.batch.dataset.write` (what ``lacak
  batch KIND --task NAME --level L -w N -o FILE`` runs) to a JSON Lines file, each
  record an entry: question, answer proven optimal, metadata;
- **create_dataset, in process**: iterating :func:`lacak.tasks.create_dataset` and
  writing each entry as JSON (what ``lacak tasks make`` does: no pool, no digest).

Peers, on the same mazes:

- **maze-dataset** (1.4.2): ``MazeDataset.from_config`` of ``grid_n=N`` mazes made by
  ``LatticeMazeGenerators.gen_dfs`` (a randomised depth-first search, lacak's
  ``recursive-backtracker``, the generator the maze rows pin), each solved between
  two random cells, in one process and with ``gen_parallel`` on 2 processes; and
  again with each maze written as text (``as_ascii``) with its path, as a task's
  question and answer would be. Its endpoints are any two cells; lacak draws them
  again until the shortest path falls in the level's band.
- **reasoning-gym** (its ``maze`` task): a square grid of cells, each open with
  probability 0.7 inside a wall border, with a start and a goal whose breadth-first
  distance is in ``[min_dist, max_dist]``; its answer is that distance only (lacak's
  is the path). An ``N x N`` lacak maze is drawn as ``2N+1`` characters a side, so
  the comparable grid is ``min_grid_size = max_grid_size = 2N+1``, with distances
  ``N`` to ``2N`` (its open grids have no corridors: lacak's bands, doubled to
  characters, are past what its grids reach in 1,000 tries); its defaults (grids of
  5-10, distances 5-10) are a row too.

    bench/.venv/bin/python bench/tasks.py [--count 2000] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: lacak's rows: (task, level, options).
LACAK = [
    ("sliding", 1, {}),
    ("sliding", 6, {}),
    ("maze", 1, {}),
    ("maze", 3, {"shape": "8x8", "generator": "recursive-backtracker"}),
    ("maze", 5, {"shape": "16x16", "generator": "recursive-backtracker"}),
    ("boggle", 1, {}),
    ("boggle", 4, {}),
    ("boggle_best", 4, {}),
]

#: The maze sizes compared with the peers: (N, lacak's level there).
MAZES = [(8, 3), (16, 5)]


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _load() -> float:
    return os.getloadavg()[0]


def _timed(run: Callable[[], int]) -> dict[str, float]:
    load = _load()
    began, cpu = time.perf_counter(), _cpu()
    records = run()
    wall, used = time.perf_counter() - began, _cpu() - cpu
    return {"records": records, "wall": wall, "cpu": used, "load": load,
            "per_s": records / wall, "per_cpu_s": records / used if used else 0.0}  # fmt: skip


def lacak_batch(task: str, level: int, options: dict[str, Any], count: int,
                workers: int) -> int:  # fmt: skip
    import lacak.tasks
    from lacak.batch import dataset

    kind = lacak.tasks.tasks()[task][0]
    spec = dataset.spec(kind, task=task, level=level, task_options=options)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "tasks.jsonl"
        summary = dataset.write(spec, out, count=count, seed=1, workers=workers)
        assert summary.ok == count, summary.to_dict()
    return count


def lacak_in_process(task: str, level: int, options: dict[str, Any], count: int) -> int:
    import lacak.tasks

    with tempfile.TemporaryDirectory() as folder, open(Path(folder) / "t.jsonl", "w") as out:
        for entry in lacak.tasks.create_dataset(task, size=count, seed=1, level=level,
                                                **options):  # fmt: skip
            out.write(json.dumps(entry, ensure_ascii=False) + "\n")
    return count


def run_maze_dataset(n: int, count: int, *, parallel: bool, text: bool) -> int:
    from maze_dataset import MazeDataset, MazeDatasetConfig
    from maze_dataset.generation import LatticeMazeGenerators

    config = MazeDatasetConfig(name="bench", grid_n=n, n_mazes=count,
                               maze_ctor=LatticeMazeGenerators.gen_dfs)  # fmt: skip
    made = MazeDataset.from_config(config, do_generate=True, load_local=False,
                                   save_local=False, do_download=False, verbose=False,
                                   gen_parallel=parallel,
                                   pool_kwargs={"processes": 2} if parallel else None)  # fmt: skip
    assert len(made) == count, len(made)
    if text:
        with tempfile.TemporaryDirectory() as folder, open(Path(folder) / "m.jsonl", "w") as out:
            for maze in made:
                record = {"question": maze.as_ascii(), "answer": maze.solution.tolist()}
                out.write(json.dumps(record) + "\n")
    return count


def run_reasoning_gym(count: int, **config: Any) -> int:
    import reasoning_gym

    data = reasoning_gym.create_dataset("maze", size=count, seed=1, **config)
    with tempfile.TemporaryDirectory() as folder, open(Path(folder) / "r.jsonl", "w") as out:
        for entry in data:
            out.write(json.dumps(entry, ensure_ascii=False) + "\n")
    return count


def _version(name: str) -> str:
    import importlib.metadata

    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=2000, help="records a row makes")
    parser.add_argument("--quick", action="store_true", help="a tenth of --count")
    args = parser.parse_args()
    count = max(10, args.count // 10) if args.quick else args.count
    print(f"# {count:,} records a row (a tenth for sliding level 6 and boggle); "
          f"{os.cpu_count()} cores; maze-dataset {_version('maze-dataset')}, "
          f"reasoning-gym {_version('reasoning-gym')}")  # fmt: skip
    rows: list[tuple[str, str, dict[str, float]]] = []

    def row(group: str, name: str, run: Callable[[], int]) -> dict[str, float]:
        try:
            figures = _timed(run)
        except Exception as error:  # a peer that fails is shown, not hidden
            print(f"{group:<9} {name:<60} failed: {type(error).__name__}: {error}")
            sys.stdout.flush()
            return {}
        rows.append((group, name, figures))
        print(f"{group:<9} {name:<60} {figures['per_s']:>9,.0f} {figures['per_cpu_s']:>9,.0f} "
              f"{figures['wall']:>7.2f} {figures['load']:>5.1f}")  # fmt: skip
        sys.stdout.flush()
        return figures

    print(f"\n{'who':<9} {'workload':<60} {'rec/s':>9} {'rec/cpu-s':>9} {'wall s':>7} {'load':>5}")
    # warm the caches each row needs (pattern databases, dictionaries, imports): the
    # rows time making records, not a first build
    for task, level, options in LACAK:
        lacak_in_process(task, level, options, 2)
    import maze_dataset  # noqa: F401
    import reasoning_gym  # noqa: F401

    lacak_rows: dict[tuple[str, int, int], dict[str, float]] = {}
    for task, level, options in LACAK:
        many = (
            count
            if (task, level) not in {("sliding", 6)} and "boggle" not in task
            else (max(10, count // 10))
        )
        shown = ", ".join(str(v).replace("recursive-backtracker", "dfs") for v in options.values())
        label = f"{task} level {level}" + (f" ({shown})" if shown else "")
        for workers in (1, 2):
            lacak_rows[(task, level, workers)] = row(
                "lacak",
                f"batch -w {workers}: {label}",
                lambda t=task, lv=level, o=options, w=workers, m=many: lacak_batch(t, lv, o, m, w),
            )
        lacak_rows[(task, level, 0)] = row(
            "lacak",
            f"create_dataset in process: {label}",
            lambda t=task, lv=level, o=options, m=many: lacak_in_process(t, lv, o, m),
        )

    peers: dict[tuple[str, int], dict[str, float]] = {}
    for n, _level in MAZES:
        peers[("md", n)] = row(
            "maze-ds",
            f"{n}x{n} gen_dfs, 1 process",
            lambda n=n: run_maze_dataset(n, count, parallel=False, text=False),
        )
        peers[("md2", n)] = row(
            "maze-ds",
            f"{n}x{n} gen_dfs, gen_parallel 2 processes",
            lambda n=n: run_maze_dataset(n, count, parallel=True, text=False),
        )
        peers[("mdt", n)] = row(
            "maze-ds",
            f"{n}x{n} gen_dfs + as_ascii text, 1 process",
            lambda n=n: run_maze_dataset(n, count, parallel=False, text=True),
        )
        side = 2 * n + 1
        peers[("rg", n)] = row(
            "rg",
            f"maze {side}x{side} grid, distance {n}-{2 * n}",
            lambda s=side, n=n: run_reasoning_gym(
                count, min_grid_size=s, max_grid_size=s, min_dist=n, max_dist=2 * n
            ),
        )
    peers[("rg", 0)] = row(
        "rg", "maze, its defaults (grids 5-10, distance 5-10)", lambda: run_reasoning_gym(count)
    )

    print("\n# ratios: lacak's records/s over the peer's (wall; per CPU-second in brackets)")
    print(f"{'maze':<7} {'lacak row':<22} {'peer row':<40} {'wall':>7} {'cpu':>9}")
    shapes = {8: ("maze", 3), 16: ("maze", 5)}
    for n, (task, level) in shapes.items():
        for workers, mine_label in ((1, "batch -w 1"), (2, "batch -w 2"), (0, "in process")):
            mine = lacak_rows.get((task, level, workers)) or {}
            for key, peer_label in (
                (("md", n), "maze-dataset, 1 process"),
                (("md2", n), "maze-dataset, 2 processes"),
                (("mdt", n), "maze-dataset + text, 1 process"),
                (("rg", n), f"reasoning-gym maze {2 * n + 1}x{2 * n + 1}"),
            ):
                theirs = peers.get(key) or {}
                if not mine or not theirs:
                    continue
                wall = mine["per_s"] / theirs["per_s"]
                cpu = mine["per_cpu_s"] / theirs["per_cpu_s"] if theirs["per_cpu_s"] else 0.0
                print(f"{f'{n}x{n}':<7} {mine_label:<22} {peer_label:<40} {wall:>6.2f}x "
                      f"({cpu:>5.2f}x)")  # fmt: skip
    print(f"\n# load average at the end: {_load():.1f}")


if __name__ == "__main__":
    main()

"""idastar-tiles's engines against a plain C and a plain numba IDA* (issue 14), in one run.

Three tables, every figure with the load average it was measured under (the
machine is shared; its 2 cores are often busy):

1. **Node rate.** IDA* with the Manhattan distance on Korf's instances 1-3,
   each capped at ``--cap`` expanded nodes. The C anchor
   (``bench/ref/manhattan_idastar.c``, compiled here with ``cc -O2``; skipped
   without a C compiler), the numba anchor (``bench/ref/manhattan_numba.py``)
   and lacak's compiled engine visit exactly the same nodes (the counts are
   checked); the Python engine searches the first ``--python-cap`` of them.
   Generated nodes a second of CPU time, min and median of ``--runs`` runs.
2. **Korf's 100 with 6-6-3** (reflected lookup), lacak's compiled engine:
   search time (CPU and wall, the databases loaded beforehand) in all, and
   nodes a second, against the issue's target (under 3 s, at least 30 M
   generated nodes/s) and the Python engine's figure (``--python-korf`` runs
   it, about 30 s; else the last measured figure is shown).
3. **First use.** ``lacak sliding solve`` of Korf's instance 82 (6-6-3, 8.7 M
   generated nodes) in a new process: with numba's and lacak's caches empty
   (the engine is compiled once, then the search goes on compiled), again
   (the machine code is loaded), and in Python.

    .venv/bin/python bench/tiles_engine.py              # about a minute on a quiet machine
    .venv/bin/python bench/tiles_engine.py --runs 5 --python-korf
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import lacak
from lacak_sliding import korf
from lacak_sliding.tiles.idastar import engines as tiles_engines

HERE = Path(__file__).resolve().parent
#: Korf's 100 with 6-6-3 before the compiled engine (issue 14's table), CPU seconds.
PYTHON_KORF_BEFORE = "15-31 s (issue 14; about 3.2 M generated nodes/s)"


def load() -> str:
    return "{:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


def median_min(values: list[float]) -> tuple[float, float]:
    return min(values), statistics.median(values)


def timed(work: Callable[[], Any], runs: int) -> tuple[list[float], list[float], Any]:
    """CPU and wall seconds of ``runs`` calls of ``work``, and its last answer."""
    cpu, wall, answer = [], [], None
    for _ in range(runs):
        c0, w0 = time.process_time(), time.perf_counter()
        answer = work()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return cpu, wall, answer


def row(name: str, nodes: int, cpu: list[float], wall: list[float], before: str) -> None:
    cmin, cmed = median_min(cpu)
    wmin, wmed = median_min(wall)
    rate = nodes / cmin / 1e6 if cmin > 0 else float("inf")
    print(
        f"| {name} | {nodes:,} | {cmin:.3f} / {cmed:.3f} | {wmin:.3f} / {wmed:.3f} "
        f"| {rate:.1f} M | {before} / {load()} |"
    )


def solve_lacak(instance: korf.KorfInstance, spec: str, engine: str, cap: int | None) -> Any:
    os.environ[tiles_engines.ENGINE_VARIABLE] = engine
    puzzle = korf.puzzle(instance)
    return lacak.solve(puzzle, "idastar-tiles", heuristic=spec,
                       limits=lacak.Limits(max_expanded=cap))  # fmt: skip


# -- 1. node rate -----------------------------------------------------------------------------


def rate_table(runs: int, cap: int, python_cap: int) -> None:
    chosen = korf.instances()[:3]
    instances = [i.tiles for i in chosen]
    print(f"\n## Node rate: IDA* + Manhattan, Korf's 1-3, {cap:,} expanded nodes each\n")
    print("| engine | generated | CPU s min / median | wall s min / median "
          "| generated/s (CPU) | load before / after |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---|")
    reference: list[tuple[int, int]] | None = None

    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        print("| C, cc -O2 | skipped: no C compiler | | | | |")
    else:
        with tempfile.TemporaryDirectory() as tmp:
            exe = Path(tmp) / "manhattan_idastar"
            subprocess.run([cc, "-O2", "-o", str(exe), str(HERE / "ref/manhattan_idastar.c")],
                           check=True)  # fmt: skip
            text = "".join(" ".join(map(str, t)) + "\n" for t in instances)
            cpu, wall = [], []
            before = load()
            for _ in range(runs):
                w0 = time.perf_counter()
                out = subprocess.run([str(exe), str(cap)], input=text, capture_output=True,
                                     text=True, check=True).stdout.split("\n")  # fmt: skip
                wall.append(time.perf_counter() - w0)
                lines = [line.split() for line in out if line]
                cpu.append(sum(float(parts[3]) for parts in lines))
                counts = [(int(parts[1]), int(parts[2])) for parts in lines]
            reference = counts
            row("C, cc -O2 (recursive)", sum(g for g, _ in counts), cpu, wall, before)

    sys.path.insert(0, str(HERE / "ref"))
    try:
        import manhattan_numba
        import numpy as np

        boards = [np.array(t, dtype=np.int64) for t in instances]
        manhattan_numba.solve(boards[0], 10)  # compile (or load) first
        before = load()
        cpu, wall, answers = timed(lambda: [manhattan_numba.solve(b, cap) for b in boards], runs)
        counts = [(int(c[0]), int(c[1])) for _, c in answers]
        check(reference, counts, "numba anchor")
        reference = reference or counts
        row("numba, plain (recursive)", sum(g for g, _ in counts), cpu, wall, before)
    except ImportError as error:
        print(f"| numba, plain | skipped: {error} | | | | |")

    if tiles_engines.warm():
        before = load()
        cpu, wall, answers = timed(
            lambda: [solve_lacak(i, "manhattan", "numba", cap) for i in chosen], runs
        )
        counts = [(r.stats.generated, r.stats.expanded) for r in answers]
        check(reference, counts, "lacak compiled")
        row("lacak idastar-tiles, compiled", sum(g for g, _ in counts), cpu, wall, before)
    else:
        print(f"| lacak idastar-tiles, compiled | skipped: {tiles_engines.ENGINE.failure()} "
              "| | | | |")  # fmt: skip
    before = load()
    cpu, wall, answers = timed(
        lambda: [solve_lacak(i, "manhattan", "python", python_cap) for i in chosen], runs
    )
    row(f"lacak idastar-tiles, Python ({python_cap:,} expanded each)",
        sum(r.stats.generated for r in answers), cpu, wall, before)  # fmt: skip


def check(reference: list[tuple[int, int]] | None, counts: list[tuple[int, int]], who: str) -> None:
    if reference is not None and counts != reference:
        print(f"\n**{who} counted {counts}, the first engine {reference}**\n")


# -- 2. Korf's 100 ------------------------------------------------------------------------------


def korf_table(runs: int, python_korf: bool) -> None:
    instances = korf.instances()
    spec = "pdb-663"
    heuristic = lacak.default_registry().heuristic("sliding", spec)
    w0 = time.perf_counter()
    heuristic.for_puzzle(korf.puzzle(instances[0]))
    loaded = time.perf_counter() - w0
    print(f"\n## Korf's 100, idastar-tiles + {spec} (reflected lookup)\n")
    print(f"databases loaded (or built) in {loaded:.2f} s, not counted below\n")
    print("| engine | generated | CPU s min / median | wall s min / median "
          "| generated/s (CPU) | load before / after |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---|")
    engines = ["numba"] + (["python"] if python_korf else [])
    for engine in engines:
        if engine == "numba" and not tiles_engines.warm():
            print("| compiled | skipped: numba cannot run here | | | | |")
            continue
        before = load()

        def all_100(engine: str = engine) -> list[Any]:
            return [solve_lacak(i, spec, engine, None) for i in instances]

        cpu, wall, answers = timed(all_100, runs if engine == "numba" else 1)
        wrong = [i.id for i, r in zip(instances, answers, strict=True)
                 if r.length != i.length]  # fmt: skip
        nodes = sum(r.stats.generated for r in answers)
        row(f"lacak, {'compiled' if engine == 'numba' else 'Python'}", nodes, cpu, wall, before)
        if wrong:
            print(f"\n**lengths differ from the published ones on {wrong}**\n")
    if not python_korf:
        print(f"| lacak, Python (before) | | {PYTHON_KORF_BEFORE} | | | |")
    print("\ntarget (issue 14): under 3 s of search in all, at least 30 M generated nodes/s")


# -- 3. first use ---------------------------------------------------------------------------------


def first_use_table() -> None:
    instance = korf.instances()[81]
    tiles = " ".join(map(str, instance.tiles))
    goal = " ".join(map(str, range(16)))
    lacak_cli = Path(sys.executable).with_name("lacak")
    command = [str(lacak_cli), "sliding", "solve", tiles, "--goal", goal,
               "-s", "idastar-tiles", "-H", "pdb-663", "--json"]  # fmt: skip
    print(f"\n## First use: `lacak sliding solve` of Korf's {instance.id} (pdb-663), "
          "one process each\n")  # fmt: skip
    print("| run | wall s | CPU s (children) | length | generated | load before |")
    print("|---|---:|---:|---:|---:|---|")
    source = lacak.store.paths.cache_dir("pdb")
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "lacak"
        shutil.copytree(source, cache / "pdb")  # the databases are not what is measured
        env = dict(os.environ, LACAK_CACHE_DIR=str(cache), NUMBA_CACHE_DIR=str(Path(tmp) / "nb"))
        runs = [
            ("cold: numba's and lacak's caches empty (auto)", "auto"),
            ("again: the machine code is loaded (auto)", "auto"),
            ("Python only (LACAK_TILES_ENGINE=python)", "python"),
        ]
        for label, engine in runs:
            env[tiles_engines.ENGINE_VARIABLE] = engine
            before = load()
            c0 = os.times()
            w0 = time.perf_counter()
            done = subprocess.run(command, env=env, capture_output=True, text=True)
            wall = time.perf_counter() - w0
            c1 = os.times()
            cpu = (c1.children_user - c0.children_user) + (c1.children_system - c0.children_system)
            if done.returncode != 0:
                print(f"| {label} | failed: {done.stderr.strip()[:200]} | | | | {before} |")
                continue
            import json

            result = json.loads(done.stdout)
            print(f"| {label} | {wall:.2f} | {cpu:.2f} | {result['length']} "
                  f"| {result['stats']['generated']:,} | {before} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each row (min and median)")
    parser.add_argument("--cap", type=int, default=20_000_000,
                        help="expanded nodes per instance in the node-rate table")  # fmt: skip
    parser.add_argument("--python-cap", type=int, default=300_000,
                        help="expanded nodes per instance for the Python engine")  # fmt: skip
    parser.add_argument("--python-korf", action="store_true",
                        help="also run Korf's 100 in the Python engine (about 30 s)")  # fmt: skip
    parser.add_argument("--skip", action="append", default=[], choices=["rate", "korf", "first"],
                        help="leave a table out")  # fmt: skip
    args = parser.parse_args()
    print(f"# idastar-tiles engines ({time.strftime('%Y-%m-%d %H:%M')}, "
          f"{os.cpu_count()} cores, load average {load()})")  # fmt: skip
    if "rate" not in args.skip:
        rate_table(args.runs, args.cap, args.python_cap)
    if "korf" not in args.skip:
        korf_table(args.runs, args.python_korf)
    if "first" not in args.skip:
        first_use_table()


if __name__ == "__main__":
    main()

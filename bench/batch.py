"""``lacak batch`` on this machine (issue 15): 1 against 2 workers, per-job overhead, and a
100,000-maze dataset with its memory.

1. **Throughput, 1 and 2 workers**, through :func:`lacak.batch.dataset.records` (what
   ``lacak batch`` runs): 32x32 hunt-and-kill mazes with their solutions, 3x3
   sliding boards drawn uniformly and solved (astar-tiles + manhattan), and
   classic 4x4 Boggle boards solved with English, each workload several seconds
   long on 1 worker. Each pair is run ``--runs`` times alternately: best against
   best, and the median of each run's ratio. Besides records/s the table
   shows the CPU the run got (CPU seconds of this process and its workers over
   wall seconds): on a shared machine 2 workers cannot be 2x faster when they
   get less than 2 CPUs, and the *CPU-bound* speed-up (records per CPU-second,
   2 workers against 1) says how much the batch machinery itself costs.
2. **Per-job overhead of 1 ms jobs**: a ``spin`` kind whose generator burns
   about 1 ms of CPU, through the whole pipeline of ``lacak batch`` (generate,
   record, JSON, order, write to a file: :func:`lacak.batch.dataset.write`) on 1 and 2
   workers. Each job times its own work on its thread's CPU clock; the overhead
   is the run's CPU (this process and its workers) less the jobs' own. Jobs
   that do nothing give the pipeline's cost alone.
3. **100,000 32x32 mazes with their solutions** as ``lacak batch maze --size
   32x32 -n 100000 --solution -o FILE.jsonl.gz`` (a process of its own, 2
   workers): records/s, and the memory of the parent and of each worker sampled
   every half second (resident MB at each tenth of the run, and the peak).

    .venv/bin/python bench/batch.py [--runs 3] [--mazes 100000] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import lacak


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _load() -> str:
    one, five, _fifteen = os.getloadavg()
    return f"load {one:.1f} / {five:.1f}"


def _run(spec: Any, count: int, workers: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of a batch of ``count`` records on ``workers``."""
    import lacak

    began, cpu = time.perf_counter(), _cpu()
    n = 0
    for _record in lacak.batch.dataset.records(spec, count=count, seed=1, workers=workers):
        n += 1
    assert n == count
    return time.perf_counter() - began, _cpu() - cpu


def throughput(runs: int, quick: bool) -> None:
    import lacak

    scale = 4 if quick else 1
    # each sized to several seconds on 1 worker: a steady rate, not the pool's start-up
    workloads = [
        ("maze 32x32 hunt-and-kill + solution", lacak.batch.dataset.spec(
            "maze", size=(32, 32), kind_options={"solution": True}), 4000 // scale),
        ("sliding 3x3 uniform, solved (astar-tiles)", lacak.batch.dataset.spec(
            "sliding", size=(3, 3), kind_options={"uniform": True}), 4000 // scale),
        ("boggle classic4, eng", lacak.batch.dataset.spec("boggle"), 8000 // scale),
    ]  # fmt: skip
    print(f"\n## 1. Throughput, 1 and 2 workers ({runs} runs each, alternately; "
          f"{_load()} at the start)\n")
    print("| workload | records | 1 worker rec/s, best / median (CPU) | 2 workers rec/s, best "
          "/ median (CPU) | speed-up, best / median of runs | CPU-bound speed-up |")
    print("|---|---|---|---|---|---|")
    for label, spec, count in workloads:
        _run(spec, max(1, count // 20), 1)  # warm: caches, compiled dictionary
        walls: dict[int, list[float]] = {1: [], 2: []}
        cpus: dict[int, list[float]] = {1: [], 2: []}
        for _ in range(runs):
            for workers in (1, 2):
                wall, cpu = _run(spec, count, workers)
                walls[workers].append(wall)
                cpus[workers].append(cpu)
        # each run's ratio against the 1-worker run just before it (the machine's speed
        # drifts by 10-15% from minute to minute), and best against best
        ratios = sorted(one / two for one, two in zip(walls[1], walls[2], strict=True))
        w1, w2 = min(walls[1]), min(walls[2])
        c1 = cpus[1][walls[1].index(w1)]
        c2 = cpus[2][walls[2].index(w2)]
        bound = 2 * c1 / c2 if c2 else 0.0  # 2 x records per CPU-second, 2 workers against 1
        print(f"| {label} | {count:,} | {count / w1:,.0f} / {count / statistics.median(walls[1]):,.0f} "
              f"({c1 / w1:.2f}) | {count / w2:,.0f} / {count / statistics.median(walls[2]):,.0f} "
              f"({c2 / w2:.2f}) | {w1 / w2:.2f}x / {statistics.median(ratios):.2f}x | "
              f"{bound:.2f}x |")  # fmt: skip
    print(f"\n({_load()} at the end.) CPU: CPU seconds over wall seconds, this process and "
          "its workers; the CPU-bound speed-up is 2 x (records per CPU-second with 2 "
          "workers) / (records per CPU-second with 1).")


def _spin(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


class _Spin:
    kind = "spin"
    initial = 0

    def __init__(self, seed: int, cpu: float = 0.0) -> None:
        self.seed = seed
        self.cpu = cpu  # the CPU seconds the job's own work took (its thread's clock)

    def is_goal(self, state: int) -> bool:
        return True

    def successors(self, state: int) -> list[Any]:
        return []

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "cpu": self.cpu}


def _count(loops: int) -> int:
    total = 0
    for i in range(loops):
        total += i
    return total


def _loops_per_ms() -> int:
    """Iterations of :func:`_count` in 1 ms of this process's CPU (best of 5 runs of 20 ms)."""
    _count(100_000)
    best = float("inf")
    for _ in range(5):
        began = time.process_time()
        _count(200_000)
        best = min(best, time.process_time() - began)
    return max(1, int(200_000 / (best * 1000)))


def _make_spin(size: Any, seed: int, ms: float = 1.0, loops: int = 0) -> _Spin:
    """1 ms of CPU: ``loops`` iterations of a counting loop when given (no system call,
    as a real job), else a spin on the thread's CPU clock (robust to a loaded machine,
    but a system call every microsecond)."""
    began = time.thread_time()
    if loops:
        _count(loops)
    else:
        _spin(ms / 1000)
    return _Spin(seed, time.thread_time() - began)


class SpinPlugin:
    """The ``spin`` generator: 1 ms of CPU, then a trivial instance."""

    @lacak.hookimpl
    def register_generators(self, register: Any) -> None:
        import lacak

        register(lacak.Generator(kind="spin", name="spin", make=_make_spin,
                                 options={"ms": 1.0, "loops": 0}))  # fmt: skip


def _own(spec: Any, count: int, workers: int) -> tuple[float, float, float]:
    """(wall, CPU, the jobs' own CPU) seconds of a batch of ``spin`` jobs written to a
    JSON Lines file by :func:`lacak.batch.dataset.write` (what ``lacak batch`` runs)."""
    with tempfile.TemporaryDirectory(prefix="lacak-bench-") as folder:
        out = Path(folder) / "spin.jsonl"
        began, cpu = time.perf_counter(), _cpu()
        lacak.batch.dataset.write(spec, out, count=count, seed=1, workers=workers)
        wall, used = time.perf_counter() - began, _cpu() - cpu
        # the job's own CPU, read after the run, without parsing whole lines:
        # {"index":..,"seed":..,"ok":true,"instance":{"seed":..,"cpu":X},"digest":..}
        own = 0.0
        with out.open("rb") as lines:
            for line in lines:
                at = line.rindex(b'"cpu":') + 6
                own += float(line[at : line.index(b"}", at)])
    return wall, used, own


def overhead(quick: bool, runs: int) -> None:
    lacak.default_registry().add_plugin(SpinPlugin(), name="bench-spin")
    count = 1000 if quick else 5000
    loops = _loops_per_ms()
    print(f"\n## 2. Per-job overhead, 1 ms jobs ({_load()})\n")
    print("The pipeline's own cost: jobs that do nothing, then jobs of about 1 ms of CPU "
          "(CPU of this process and its workers). Each job times its own work on its "
          "thread's CPU clock, so the overhead is the run's CPU less the jobs' own, over the "
          "jobs' own, measured in the same run (this machine's speed drifts by 10-30% from "
          "minute to minute, so a plain loop run before would not do). Each case runs "
          f"{runs} times as a pair, all the jobs and a tenth of them: the difference gives "
          "the cost *per job* (the overhead column), the tenth what is paid once (starting "
          "and stopping the pool, the first job's set-up); *all in* is the whole run's "
          "overhead over its jobs, start-up included. Medians of the runs. Two kinds of 1 "
          f"ms job: a counting loop (no system call, as real work; {loops:,} iterations, "
          "calibrated here), and a spin on the thread's CPU clock (a system call every "
          "microsecond).\n")
    print("| run | jobs | wall s | jobs' own CPU per job | once per run | pipeline CPU per job "
          "| overhead | all in |")
    print("|---|---|---|---|---|---|---|---|")
    cases = [("empty jobs", {"ms": 0.0}, count * 4), ("counting loop", {"loops": loops}, count),
             ("CPU-clock spin", {}, count)]  # fmt: skip
    for label, options, jobs in cases:
        spec = lacak.batch.dataset.spec("spin", options=options)
        short = jobs // 10
        for workers in (1, 2):
            per_job, once, shares, whole, walls, owns = [], [], [], [], [], []
            for _ in range(runs):
                _w, cpu_s, own_s = _own(spec, short, workers)
                wall, cpu, own = _own(spec, jobs, workers)
                marginal = ((cpu - own) - (cpu_s - own_s)) / (jobs - short)
                per_job.append(marginal)
                once.append((cpu_s - own_s) - marginal * short)
                shares.append(marginal / (own / jobs))
                whole.append((cpu - own) / own)
                walls.append(wall)
                owns.append(own / jobs)
            empty = statistics.median(owns) < 1e-4
            print(f"| {label}, {workers} worker{'s' if workers > 1 else ''} | {jobs:,} | "
                  f"{statistics.median(walls):.2f} | {statistics.median(owns) * 1e6:,.0f} us | "
                  f"{statistics.median(once) * 1e3:.0f} ms | "
                  f"{statistics.median(per_job) * 1e6:.0f} us | "
                  f"{'-' if empty else f'{statistics.median(shares):.1%}'} | "
                  f"{'-' if empty else f'{statistics.median(whole):.1%}'} |")


def mazes(count: int) -> None:
    import psutil

    with tempfile.TemporaryDirectory(prefix="lacak-bench-") as folder:
        out = Path(folder) / "mazes.jsonl.gz"
        command = [sys.executable, "-m", "lacak", "batch", "maze", "--size", "32x32", "-n",
                   str(count), "--solution", "-w", "2", "-o", str(out), "--json"]  # fmt: skip
        env = {**os.environ, "LACAK_PROGRESS": "0"}
        began = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   env=env)  # fmt: skip
        watched = psutil.Process(process.pid)
        samples: list[tuple[float, float, list[float]]] = []
        while process.poll() is None:
            try:
                parent = watched.memory_info().rss / 2**20
                workers = [c.memory_info().rss / 2**20 for c in watched.children()]
            except psutil.Error:
                break
            samples.append((time.perf_counter() - began, parent, workers))
            time.sleep(0.5)
        stdout, stderr = process.communicate()
        wall = time.perf_counter() - began
        if process.returncode != 0:
            print(stderr.decode())
            raise SystemExit(f"lacak batch failed ({process.returncode})")
        summary = json.loads(stdout)
        size = out.stat().st_size
    print(f"\n## 3. {count:,} mazes 32x32 with their solutions, 2 workers ({_load()} at the end)\n")
    print(f"- {wall:.1f} s wall for the whole command ({count / wall:,.0f} records/s; the batch "
          f"itself {summary['records_per_second']:,.0f} records/s), {size / 2**20:,.1f} MB of "
          "gzipped JSON Lines")
    tenths = [samples[int(len(samples) * k / 10)] for k in range(10)] if samples else []
    print("- resident MB at each tenth of the run, parent / each worker: " + ", ".join(
        f"{p:.0f}/{'+'.join(f'{w:.0f}' for w in ws)}" for _t, p, ws in tenths))  # fmt: skip
    if samples:
        peak_parent = max(p for _t, p, _w in samples)
        peak_worker = max((max(ws) for _t, _p, ws in samples if ws), default=0.0)
        print(f"- peak resident: parent {peak_parent:.0f} MB, a worker {peak_worker:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--mazes", type=int, default=100_000)
    parser.add_argument("--quick", action="store_true", help="smaller workloads, 10,000 mazes")
    parser.add_argument("--only", choices=("throughput", "overhead", "mazes"), default=None)
    args = parser.parse_args()
    os.environ.setdefault("LACAK_PROGRESS", "0")
    print(f"# lacak batch: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    if args.only in (None, "throughput"):
        throughput(args.runs, args.quick)
    if args.only in (None, "overhead"):
        overhead(args.quick, args.runs)
    if args.only in (None, "mazes"):
        mazes(10_000 if args.quick else args.mazes)


if __name__ == "__main__":
    main()

"""A newcomer's first 15-puzzle solve: from empty caches, then again, with numba and without.

Each 15-puzzle example of the README and the docs runs as written (through a
shell, pipes included) in a fresh process, first with empty caches (a fresh
``LACAK_CACHE_DIR``, where lacak keeps the pattern databases and the compiled
engines' machine code, and a fresh ``NUMBA_CACHE_DIR``), then once more with
what that first run kept. ``fast`` is lacak[fast] (numba, the default engines);
``python`` is what a machine without it runs (``LACAK_TILES_ENGINE=python
LACAK_PDB_ENGINE=numpy``). Standard error is a pipe, as in a log: the one-time
work is announced in ``lacak:`` lines, shown under the table with the time the
run took, so that the estimates can be held to the waits (issue 25: within 2x). A
first compile runs in a process of its own beside the search and may outlive the
cold run; the warm run starts once it has finished.

Every row carries the load average before it: the machine is shared, so the
``cold/warm`` ratio (both measured in the same minute) is the steadier figure;
CPU is the processes' own (the shell, lacak, and any worker processes).

    .venv/bin/python bench/cold_start.py            # every example, fast and python
    .venv/bin/python bench/cold_start.py --rounds 3 # the median of three of each
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KORF_1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
KORF_GOAL = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"

#: ``(where, command)``: every 15-puzzle solve the README and docs show (``lacak`` is
#: this environment's).
EXAMPLES = [
    ("README.md", "lacak sliding scramble --size 4x4 --seed 3 --json | lacak sliding solve -"),
    ("docs/sliding.md",
     'lacak sliding solve "$(lacak sliding scramble --size 4x4 --seed 1 | head -1)"'),
    ("docs/pattern-databases.md",
     f'lacak sliding solve "{KORF_1}" --goal "{KORF_GOAL}" --strategy idastar-tiles '
     "--heuristic pdb-663"),
    ("docs/split.md",
     f'lacak sliding solve "{KORF_1}" --goal "{KORF_GOAL}" -H pdb-663 --workers 2'),
]  # fmt: skip

ENGINES = {
    "fast": {},
    "python": {"LACAK_TILES_ENGINE": "python", "LACAK_PDB_ENGINE": "numpy"},
}


def run(command: str, env: dict[str, str]) -> tuple[float, float, list[str], str]:
    """Run ``command`` in a shell: ``(wall s, CPU s, 'lacak:' lines, last stdout line)``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, shell=True, env=env, capture_output=True, text=True,
                          timeout=600, check=False)  # fmt: skip
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        sys.exit(f"{command!r} failed ({done.returncode}):\n{done.stderr}")
    said = [line for line in done.stderr.splitlines() if line.startswith("lacak:")]
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    return wall, cpu, said, last


def _compiled(cache: str, most: float = 60.0) -> None:
    """Wait until no first compile runs in the background for ``cache`` (a cold run may
    leave one finishing after its answer, and the warm run must not share the cores
    with it)."""
    ends = time.monotonic() + most
    while time.monotonic() < ends:
        busy = subprocess.run(["pgrep", "-f", "compile_main"], capture_output=True, check=False)
        if busy.returncode != 0:
            return
        time.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1, help="runs of each (the median)")
    parser.add_argument("--engines", default="fast,python", help="fast, python or both")
    args = parser.parse_args()
    bindir = str(Path(sys.executable).parent)
    rows = []
    notes: list[str] = []
    for engine in args.engines.split(","):
        for where, command in EXAMPLES:
            cold_runs, warm_runs, cpu_cold, cpu_warm = [], [], [], []
            load = os.getloadavg()[0]
            for _ in range(args.rounds):
                with tempfile.TemporaryDirectory(prefix="lacak-cold-") as folder:
                    env = {
                        **os.environ,
                        **ENGINES[engine],
                        "PATH": f"{bindir}:{os.environ.get('PATH', '')}",
                        "LACAK_CACHE_DIR": f"{folder}/cache",
                        "NUMBA_CACHE_DIR": f"{folder}/numba",
                    }
                    env.pop("LACAK_PROGRESS", None)
                    wall, cpu, said, last = run(command, env)
                    cold_runs.append(wall)
                    cpu_cold.append(cpu)
                    _compiled(f"{folder}/cache")
                    for line in said:
                        notes.append(f"{engine}, {where}: {line} [the run: {wall:.1f} s]")
                    wall, cpu, _said, _last = run(command, env)
                    warm_runs.append(wall)
                    cpu_warm.append(cpu)
            cold, warm = statistics.median(cold_runs), statistics.median(warm_runs)
            rows.append((engine, where, cold, statistics.median(cpu_cold), warm,
                         statistics.median(cpu_warm), cold / warm, load, last))  # fmt: skip
    print(f"# a first 15-puzzle solve, cold and warm ({os.cpu_count()} cores, median of "
          f"{args.rounds}; Python {sys.version.split()[0]})\n")  # fmt: skip
    print("| engines | example | cold wall s | cold CPU s | warm wall s | warm CPU s "
          "| cold/warm | load | result |")  # fmt: skip
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    for engine, where, cold, ccpu, warm, wcpu, ratio, load, last in rows:
        print(f"| {engine} | {where} | {cold:.2f} | {ccpu:.2f} | {warm:.2f} | {wcpu:.2f} "
              f"| {ratio:.2f}x | {load:.2f} | {last[:60]} |")  # fmt: skip
    if notes:
        print("\nWhat the cold runs said on standard error:\n")
        for note in dict.fromkeys(notes):
            print(f"- {note}")


if __name__ == "__main__":
    main()

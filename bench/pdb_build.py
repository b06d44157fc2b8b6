"""Pattern-database builds: wall and CPU time, peak memory, bytes per entry, numba against numpy.

Each group of each partition is built in a fresh process (so that its peak
resident memory is its own), by the compiled builder (``numba``, lacak[fast])
and, with ``--before``, by the numpy builder that was the only one before
issue 14 (the same table byte for byte: ``--check`` compares the digests).
Nothing is read from or written to the cache. Every row carries the load
average (1 minute) before and after it: the machine is shared, and CPU time
is the steadier figure.

    .venv/bin/python bench/pdb_build.py                         # 7-8 and 6-6-3 on 4x4, numba
    .venv/bin/python bench/pdb_build.py --partition 663 --before --check
    .venv/bin/python bench/pdb_build.py --partition 6666 --board 5x5
    .venv/bin/python bench/pdb_build.py --partition 78 --group 0 --before   # 6 GB, 20 CPU-min

Columns: ``entries`` (placements, one byte each on disk), ``wall``/``cpu``
seconds of the build alone (numba's machine code loaded before the clock
starts), ``peak RSS`` of the process, ``RSS/entry`` (peak bytes per
placement, the process's own ~100-150 MB of Python, numpy and numba included),
and ``max``, the largest distance in the table.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from typing import Any


def _child(width: int, height: int, partition: str, group: int, engine: str) -> dict[str, Any]:
    """Build one group here and return the figures (run in a fresh process)."""
    import resource
    import time

    from lacak_sliding import pdb
    from lacak_sliding.pdb import build as pdb_build

    goal = tuple(range(width * height))
    part = pdb.Partition.parse(partition, width, height, goal)
    tiles = part.groups[group]
    if engine == "numba":  # load (or compile) the machine code before the clock starts
        pdb_build.build_database(2, 2, (0, 1, 2, 3), (1,), engine="numba")
    load_before = os.getloadavg()[0]
    wall = time.perf_counter()
    cpu = time.process_time()
    table = pdb_build.build_database(width, height, goal, tiles, engine=engine)
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {
        "partition": part.label,
        "group": list(tiles),
        "engine": engine,
        "entries": int(table.size),
        "wall": wall,
        "cpu": cpu,
        "peak": peak,
        "max": int(table[table != 255].max()),
        "sha256": hashlib.sha256(table.tobytes()).hexdigest()[:16],
        "load": [load_before, os.getloadavg()[0]],
    }


def _run(width: int, height: int, partition: str, group: int, engine: str) -> dict[str, Any]:
    code = (
        "import json, sys; sys.path.insert(0, 'bench'); import pdb_build as b; "
        f"print(json.dumps(b._child({width}, {height}, {partition!r}, {group}, {engine!r})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    if out.returncode != 0:
        return {"engine": engine, "group": group, "error": out.stderr.strip().splitlines()[-1:]}
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--partition", action="append", default=None, help="named partition or groups (repeatable)"
    )
    parser.add_argument("--board", default="4x4", help="ROWSxCOLS (default 4x4)")
    parser.add_argument("--group", type=int, action="append", default=None,
                        help="only these groups (index in the partition; repeatable)")  # fmt: skip
    parser.add_argument("--before", action="store_true", help="also the numpy builder")
    parser.add_argument("--check", action="store_true", help="fail when the tables differ")
    args = parser.parse_args(argv)
    rows, cols = (int(v) for v in args.board.lower().split("x"))
    partitions = args.partition or (["78", "663"] if (rows, cols) == (4, 4) else ["default"])
    engines = ["numba", "numpy"] if args.before else ["numba"]

    from lacak_sliding import pdb

    print(f"# pattern-database builds on {rows}x{cols}, {os.cpu_count()} cores; "
          f"load average {', '.join(f'{v:.2f}' for v in os.getloadavg())}\n")  # fmt: skip
    print("| partition | group | builder | entries | wall s | cpu s | peak RSS | RSS/entry "
          "| max | load avg before/after |")  # fmt: skip
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---|")
    failed = False
    for name in partitions:
        part = pdb.Partition.parse(name, cols, rows, tuple(range(rows * cols)))
        groups = args.group if args.group is not None else range(len(part.groups))
        for g in groups:
            digests = set()
            for engine in engines:
                r = _run(cols, rows, name, g, engine)
                if "error" in r:
                    print(f"| {part.label} | {g} | {engine} | error: {r['error']} |")
                    failed = True
                    continue
                digests.add(r["sha256"])
                tiles = ",".join(map(str, r["group"]))
                print(
                    f"| {r['partition']} | {tiles} | {engine} | {r['entries']:,} | "
                    f"{r['wall']:.1f} | {r['cpu']:.1f} | {r['peak'] / 2**20:,.0f} MiB | "
                    f"{r['peak'] / r['entries']:.2f} B | {r['max']} | "
                    f"{r['load'][0]:.1f} / {r['load'][1]:.1f} |"
                )
                sys.stdout.flush()
            if args.check and len(digests) > 1:
                print(f"**the builders' tables differ for group {g}**")
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

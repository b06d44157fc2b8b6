"""Mazes on every grid: how each graph generator's time grows with the cells (issue 26).

    .venv/bin/python bench/maze_grids.py --grid hex --engine numba
    .venv/bin/python bench/maze_grids.py --engine python --sizes 250,500,1000
    .venv/bin/python bench/maze_grids.py --engine numba --sizes 250,500,1000,2000,4096

For each grid (``--grid``, repeatable or comma-separated; default every one:
cylinder, torus, hex, triangle, upsilon, polar, and ``mask``, the rectangle
with one cell in 16 switched off, which the graph generators make) and each
generator that walks a graph (``--only``), a child process (so that its peak
memory is its own) builds the grid at each ``--sizes`` side, smallest first,
``side x side`` cells (a polar grid: the number of rings whose cells come
closest to it), and times the generator alone on it (the grid is built
outside the timing; its row ``(grid arrays)`` times building its ids and
neighbours). Columns: CPU seconds (``time.process_time``) at each size; the
growth, CPU per cell at the largest size over CPU per cell at the smallest
(1.0: time in proportion to the cells); millions of cells a second at the
largest size (CPU); the child's peak resident memory (MB) at the largest.
A child that passes ``--timeout`` seconds leaves its larger sizes as ``-``.

``--engine`` sets ``LACAK_MAZE_ENGINE`` (``numba``: the kernels loaded and
compiled before the timing). Random walks cannot quite reach 1.0: Wilson's
expected walk grows as ``n log n`` for ``n`` cells, Aldous-Broder's cover time
as ``n (log n)^2``. The load average is printed before and after: this machine
is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

GRIDS = ("cylinder", "torus", "hex", "triangle", "upsilon", "polar", "mask")
GENERATORS = (
    "recursive-backtracker",
    "hunt-and-kill",
    "growing-tree",
    "wilson",
    "kruskal",
    "prim",
    "prim-frontier",
    "aldous-broder",
)

CHILD = r"""
import gc, json, os, resource, sys, time
from lacak_mazes.grids import make_grid
from lacak_mazes.generators import engine
from lacak_mazes.generators.graph import GRAPH_GENERATORS, check_connected

kind, name, sides, seed = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), int(sys.argv[4])


def grid_of(side):
    if kind == "polar":
        from lacak_mazes.grids import PolarGrid
        import itertools
        totals = list(itertools.accumulate(PolarGrid(5000).counts))  # (ring r's: a prefix)
        rings = min(range(1, len(totals) + 1), key=lambda r: abs(totals[r - 1] - side * side))
        return make_grid("polar", (rings, rings))
    if kind == "mask":
        mask = ["".join("X" if r % 4 == 2 and c % 4 == 2 else "." for c in range(side))
                for r in range(side)]
        return make_grid("rect", (side, side), mask=mask)
    return make_grid(kind, (side, side))


walk = GRAPH_GENERATORS[name]
if os.environ.get("LACAK_MAZE_ENGINE") == "numba":
    engine.GRAPH_ENGINE.load()
walk(grid_of(4), seed)  # imports and machine code, outside the timing
for side in sides:
    gc.collect()
    c0 = time.process_time()
    grid = grid_of(side)
    grid.flat
    check_connected(grid)
    c1 = time.process_time()
    w0 = time.perf_counter()
    links = walk(grid, seed)
    c2 = time.process_time()
    w1 = time.perf_counter()
    assert len(links) == grid.size - 1
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"side": side, "cells": grid.size, "grid": c1 - c0, "cpu": c2 - c1,
                      "wall": w1 - w0, "rss": rss}), flush=True)
    del grid, links
"""


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _run(kind: str, name: str, sides: list[int], seed: int, timeout: float) -> list[dict]:
    """The child's lines: one a size, until it finishes or times out."""
    found: list[dict] = []
    with subprocess.Popen(
        [sys.executable, "-c", CHILD, kind, name, json.dumps(sides), str(seed)],
        stdout=subprocess.PIPE,
        text=True,
    ) as child:
        try:
            out, _ = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            out, _ = child.communicate()
    for line in out.splitlines():
        if line.startswith("{"):
            found.append(json.loads(line))
    return found


def _fmt(seconds: float) -> str:
    return f"{seconds:.3f}" if seconds < 10 else f"{seconds:.1f}"


def table(kind: str, names: list[str], sides: list[int], seed: int, timeout: float) -> None:
    """Print one grid's growth table."""
    head = f"{'generator':<22}" + "".join(f" | {f'{s}^2':>8}" for s in sides)
    head += " | growth | Mcells/s | peak MB"
    print(f"## {kind}  (CPU seconds; engine {os.environ.get('LACAK_MAZE_ENGINE', 'auto')})")
    print(head)
    print("-" * len(head))
    grid_rows: dict[int, float] = {}
    for name in names:
        found = _run(kind, name, sides, seed, timeout)
        by = {row["side"]: row for row in found}
        for row in found:
            grid_rows[row["side"]] = min(grid_rows.get(row["side"], 1e9), row["grid"])
        cells = [f"{_fmt(by[s]['cpu']):>8}" if s in by else f"{'-':>8}" for s in sides]
        growth = rate = rss = "-"
        if len(found) >= 2:
            first, last = found[0], found[-1]
            per = (last["cpu"] / last["cells"]) / max(first["cpu"] / first["cells"], 1e-12)
            growth = f"{per:.2f}" + ("" if last["side"] == sides[-1] else "*")
        if found:
            last = found[-1]
            rate = f"{last['cells'] / max(last['cpu'], 1e-9) / 1e6:.1f}"
            rss = f"{last['rss']:.0f}"
        print(f"{name:<22}" + "".join(f" | {c}" for c in cells)
              + f" | {growth:>6} | {rate:>8} | {rss:>7}")  # fmt: skip
        sys.stdout.flush()
    print(f"{'(grid arrays)':<22}"
          + "".join(f" | {_fmt(grid_rows[s]) if s in grid_rows else '-':>8}" for s in sides))  # fmt: skip
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--grid", action="append", help=f"grids ({', '.join(GRIDS)}); default all")
    parser.add_argument("--only", default=",".join(GENERATORS), help="generators, comma-separated")
    parser.add_argument("--sizes", default="250,500,1000", help="sides (250,500,1000)")
    parser.add_argument("--engine", choices=("python", "numba", "auto"), default="python")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds a child may run")
    args = parser.parse_args()
    grids = [g for given in (args.grid or [",".join(GRIDS)]) for g in given.split(",")]
    sides = [int(s) for s in args.sizes.split(",")]
    os.environ["LACAK_MAZE_ENGINE"] = args.engine
    print(f"# Mazes on every grid: sides {', '.join(map(str, sides))} (cells = side^2), "
          f"engine {args.engine}, seed {args.seed}")  # fmt: skip
    print("# growth = CPU per cell at the largest size over the smallest (1.0: in proportion;")
    print("# * = the largest size timed out); Mcells/s and peak MB at the largest size")
    print(
        f"# python {sys.version.split()[0]}, {os.cpu_count()} cores; load average before: {_load()}"
    )
    print()
    began = time.perf_counter()
    for kind in grids:
        table(kind, args.only.split(","), sides, args.seed, args.timeout)
    print(f"# load average after: {_load()}; {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()

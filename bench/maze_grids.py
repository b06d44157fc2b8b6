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
compiled before the timing). ``--seeds 1,2,3`` times each size once a seed and
keeps the median (a random walk's time varies from seed to seed).

Two measures tell the algorithm's growth from the machine's:

- **draws/cell** (compiled engine): the random numbers the generator drew, per
  cell, at the smallest and the largest size, counted exactly from its PCG64
  stream's state before and after (the jump distance of the generator's
  128-bit LCG, as PCG's ``distance``). The walks draw about one a step, so
  this is their work: Wilson's expected walk grows as ``n log n`` for ``n``
  cells and Aldous-Broder's cover time as ``n (log n)^2``, and neither can be
  in proportion. ``per draw`` is the growth divided by the draws' growth: the
  time a unit of work takes at the largest size over the smallest.
- **the machine** (printed first): what this processor's memory does to the
  same sizes, with nothing of lacak's in it. Per cell of ``side^2`` 32-bit
  cells: one pass in order, one independent read at a random place (through
  a random permutation), and one dependent read (a pointer chase around a
  random cycle: each read's place is the last read's value). Their growth is
  what any algorithm that touches its cells in that order pays, once the
  cells no longer fit in the caches.

The load average is printed before and after: this machine is shared.
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
from lacak_mazes.generators._common import Rng
from lacak_mazes.generators.graph import GRAPH_GENERATORS, check_connected

kind, name, sides, seeds = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4])
streams = []  # every PCG64 stream a compiled kernel was given: counted after it
real_words = Rng.words


def words(self):
    state = real_words(self)
    streams.append((state.copy(), state))
    return state


Rng.words = words
MASK = (1 << 128) - 1
MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645  # PCG64's (numpy's)


def value(state, first):
    return (int(state[first]) << 64) | int(state[first + 1])


def distance(before, after):
    # How many steps PCG64's LCG took from before to after (O'Neill's
    # pcg_extras::distance: the jump found a bit at a time).
    here, there, plus, mult = value(before, 0), value(after, 0), value(before, 2), MULTIPLIER
    bit, steps = 1, 0
    while here != there:
        if (here & bit) != (there & bit):
            here = (here * mult + plus) & MASK
            steps |= bit
        bit <<= 1
        plus = ((mult + 1) * plus) & MASK
        mult = (mult * mult) & MASK
    return steps


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
walk(grid_of(4), seeds[0])  # imports and machine code, outside the timing
for side in sides:
    gc.collect()
    c0 = time.process_time()
    grid = grid_of(side)
    grid.flat
    check_connected(grid)
    c1 = time.process_time()
    for seed in seeds:
        streams.clear()
        w0 = time.perf_counter()
        c2 = time.process_time()
        links = walk(grid, seed)
        c3 = time.process_time()
        w1 = time.perf_counter()
        assert len(links) == grid.size - 1
        draws = sum(distance(*pair) for pair in streams) if streams else None
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps({"side": side, "seed": seed, "cells": grid.size, "grid": c1 - c0,
                          "cpu": c3 - c2, "wall": w1 - w0, "draws": draws, "rss": rss}),
              flush=True)
        del links
    del grid
"""

MACHINE = r"""
import json, sys, time
import numba, numpy as np


@numba.njit(cache=False)
def in_order(x):
    total = 0
    for i in range(len(x)):
        total += x[i]
    return total


@numba.njit(cache=False)
def gather(x, perm):
    total = 0
    for i in range(len(perm)):
        total += x[perm[i]]
    return total


@numba.njit(cache=False)
def chase(following):
    here = 0
    total = 0
    for _ in range(len(following)):
        here = following[here]
        total += here
    return total


rng = np.random.default_rng(1)
small = np.zeros(4, dtype=np.int32)
in_order(small), gather(small, small), chase(small)
for side in json.loads(sys.argv[1]):
    n = side * side
    perm = rng.permutation(n).astype(np.int32)
    x = np.ones(n, dtype=np.int32)
    following = np.empty(n, dtype=np.int32)
    following[perm] = np.roll(perm, -1)  # one cycle through every cell
    row = {"side": side, "cells": n}
    for label, run, args in (("in order", in_order, (x,)), ("random read", gather, (x, perm)),
                             ("dependent read", chase, (following,))):
        repeat = max(1, 4_000_000 // n)
        c0 = time.process_time()
        for _ in range(repeat):
            run(*args)
        row[label] = (time.process_time() - c0) / repeat / n * 1e9
    print(json.dumps(row), flush=True)
"""


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _run(kind: str, name: str, sides: list[int], seeds: list[int], timeout: float) -> list[dict]:
    """The child's sizes, each with the median of its seeds' CPU, draws and wall,
    until it finishes or times out (a size whose seeds did not all finish is left out)."""
    rows = _lines([kind, name, json.dumps(sides), json.dumps(seeds)], CHILD, timeout)
    found: list[dict] = []
    for side in sides:
        runs = [row for row in rows if row["side"] == side]
        if len(runs) < len(seeds):
            break
        row = dict(runs[-1])
        for key in ("cpu", "wall"):
            row[key] = _median([run[key] for run in runs])
        if all(run["draws"] is not None for run in runs):
            row["draws"] = _median([run["draws"] for run in runs])
        row["rss"] = max(run["rss"] for run in runs)
        found.append(row)
    return found


def _lines(arguments: list[str], code: str, timeout: float) -> list[dict]:
    """The JSON lines a child printed, until it finished or timed out."""
    found: list[dict] = []
    with subprocess.Popen(
        [sys.executable, "-c", code, *arguments],
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


def machine(sides: list[int], timeout: float) -> None:
    """Print the machine's own growth: reads in order, at random, and chased."""
    rows = _lines([json.dumps(sides)], MACHINE, timeout)
    labels = ("in order", "random read", "dependent read")
    sizes = [f"{row['side']}^2" for row in rows]
    head = f"{'ns a cell':<22}" + "".join(f" | {size:>8}" for size in sizes)
    head += " | growth"
    print("## the machine  (CPU ns a cell: nothing of lacak's; growth as below)")
    print(head)
    print("-" * len(head))
    for label in labels:
        cells = "".join(f" | {row[label]:>8.2f}" for row in rows)
        growth = rows[-1][label] / rows[0][label] if len(rows) >= 2 else float("nan")
        print(f"{label:<22}{cells} | {growth:>6.2f}")
    print()


def table(kind: str, names: list[str], sides: list[int], seeds: list[int], timeout: float) -> None:
    """Print one grid's growth table."""
    head = f"{'generator':<22}" + "".join(f" | {f'{s}^2':>8}" for s in sides)
    head += " | growth | draws/cell | per draw | Mcells/s | peak MB"
    print(f"## {kind}  (CPU seconds; engine {os.environ.get('LACAK_MAZE_ENGINE', 'auto')})")
    print(head)
    print("-" * len(head))
    grid_rows: dict[int, float] = {}
    for name in names:
        found = _run(kind, name, sides, seeds, timeout)
        by = {row["side"]: row for row in found}
        for row in found:
            grid_rows[row["side"]] = min(grid_rows.get(row["side"], 1e9), row["grid"])
        cells = [f"{_fmt(by[s]['cpu']):>8}" if s in by else f"{'-':>8}" for s in sides]
        growth = rate = rss = draws = per_draw = "-"
        if len(found) >= 2:
            first, last = found[0], found[-1]
            per = (last["cpu"] / last["cells"]) / max(first["cpu"] / first["cells"], 1e-12)
            growth = f"{per:.2f}" + ("" if last["side"] == sides[-1] else "*")
            if first.get("draws") and last.get("draws"):
                before, after = first["draws"] / first["cells"], last["draws"] / last["cells"]
                draws = f"{before:.3g}-{after:.3g}"
                per_draw = f"{per * before / after:.2f}"
        if found:
            last = found[-1]
            rate = f"{last['cells'] / max(last['cpu'], 1e-9) / 1e6:.1f}"
            rss = f"{last['rss']:.0f}"
        print(f"{name:<22}" + "".join(f" | {c}" for c in cells)
              + f" | {growth:>6} | {draws:>10} | {per_draw:>8} | {rate:>8} | {rss:>7}")  # fmt: skip
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
    parser.add_argument(
        "--seeds", default="1", help="seeds, comma-separated: the median of each size's"
    )
    parser.add_argument("--seed", type=int, help=argparse.SUPPRESS)  # (one seed: --seeds N)
    parser.add_argument("--no-machine", action="store_true", help="leave out the machine's table")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds a child may run")
    args = parser.parse_args()
    grids = [g for given in (args.grid or [",".join(GRIDS)]) for g in given.split(",")]
    sides = [int(s) for s in args.sizes.split(",")]
    seeds = [args.seed] if args.seed is not None else [int(s) for s in args.seeds.split(",")]
    os.environ["LACAK_MAZE_ENGINE"] = args.engine
    print(f"# Mazes on every grid: sides {', '.join(map(str, sides))} (cells = side^2), "
          f"engine {args.engine}, seeds {','.join(map(str, seeds))}")  # fmt: skip
    print("# growth = CPU per cell at the largest size over the smallest (1.0: in proportion;")
    print("# * = the largest size timed out); Mcells/s and peak MB at the largest size")
    print(
        f"# python {sys.version.split()[0]}, {os.cpu_count()} cores; load average before: {_load()}"
    )
    print()
    began = time.perf_counter()
    if not args.no_machine:
        machine(sides, args.timeout)
    for kind in grids:
        table(kind, args.only.split(","), sides, seeds, args.timeout)
    print(f"# load average after: {_load()}; {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()

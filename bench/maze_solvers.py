"""The classic maze solvers: lacak side by side with mazelib's, and lacak's on every grid.

    bench/.venv/bin/python bench/maze_solvers.py                  # 50x50, 100x100, 200x200
    bench/.venv/bin/python bench/maze_solvers.py --sizes 100 --timeout 30
    .venv/bin/python bench/maze_solvers.py --grids-only           # lacak alone, every grid

Each row solves one Kruskal maze (a perfect maze; with ``--braid P`` one with loops)
from the top-left cell to the bottom-right one. lacak's times are the best of
``--repeat`` runs; a peer's is one run in a child process with a timeout, so a slow
peer shows as "timeout" and a missing one as "missing". Loading the maze into the
peer's format is not timed. mazelib's solvers: ``Tremaux``, ``RandomMouse`` (random,
unseeded), and its transmuters ``DeadEndFiller`` and ``CuldeSacFiller`` (which fill,
then its ``ShortestPath`` follows what is left: timed together). "steps" is the path
length found (a walker's loop-erased walk; mazelib's as it returns it).

``--grids-only`` times every lacak maze strategy on every grid at about the same
number of cells (``--cells``), a table of seconds per strategy and grid.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from typing import Any

#: lacak's strategy -> mazelib's way to do the same.
PEERS = {
    "tremaux": "Tremaux",
    "random-mouse": "RandomMouse",
    "dead-end-fill": "DeadEndFiller",
    "cul-de-sac-fill": "CuldeSacFiller",
}
STRATEGIES = ("tree-path", "dead-end-fill", "cul-de-sac-fill", "wall-follower", "tremaux",
              "pledge", "random-mouse")  # fmt: skip
GRIDS = ("rect", "cylinder", "torus", "hex", "triangle", "upsilon", "polar")


def _maze(h: int, w: int, seed: int, braid: float) -> Any:
    import lacak

    return lacak.generate("maze", "kruskal", (h, w), seed=seed, braid=braid)


def _mazelib_run(solver: str, h: int, w: int, seed: int, braid: float) -> dict[str, Any]:
    """Load the maze into mazelib's grid (untimed), then time its solver."""
    import numpy as np
    from mazelib import Maze

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * h * w + 1000))
    cells = _maze(h, w, seed, braid).cells
    grid = np.ones((2 * h + 1, 2 * w + 1), dtype=np.int8)
    grid[1::2, 1::2] = 0
    grid[1:-1:2, 2:-1:2] = (cells[:, :-1] & 2) == 0
    grid[2:-1:2, 1:-1:2] = (cells[:-1, :] & 4) == 0
    peer = Maze(seed)
    peer.grid = grid
    peer.start, peer.end = (1, 0), (2 * h - 1, 2 * w)  # on the outer wall, by the corners
    started = time.perf_counter()
    if solver in ("DeadEndFiller", "CuldeSacFiller"):
        import importlib

        from mazelib.solve.ShortestPath import ShortestPath

        fillers = [getattr(importlib.import_module(f"mazelib.transmute.{name}"), name)()
                   for name in (["CuldeSacFiller", "DeadEndFiller"]
                                if solver == "CuldeSacFiller" else ["DeadEndFiller"])]  # fmt: skip
        peer.transmuters = fillers
        peer.transmute()
        peer.solver = ShortestPath()
    else:
        import importlib

        peer.solver = getattr(importlib.import_module(f"mazelib.solve.{solver}"), solver)()
    peer.solve()
    seconds = time.perf_counter() - started
    found = peer.solutions[0] if peer.solutions else None
    return {"seconds": seconds, "steps": (len(found) - 1) // 2 if found else None}


def run_peer(solver: str, h: int, w: int, seed: int, braid: float, timeout: float) -> str:
    """One mazelib run in a child process: its time, or why there is none."""
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--peer", solver, str(h), str(w), str(seed), str(braid)],
            capture_output=True, text=True, timeout=timeout, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return "timeout"
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        return "missing" if "No module named 'mazelib'" in last else f"failed: {last[:40]}"
    data = json.loads(done.stdout)
    return f"{data['seconds']:.4f} s ({data['steps']} steps)"


def best_of(repeat: int, puzzle: Any, name: str, **options: Any) -> tuple[float, Any]:
    """The best time of ``repeat`` solves, and the result."""
    import lacak

    best, result = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        result = lacak.solve(puzzle, name, **options)
        best = min(best, time.perf_counter() - started)
    return best, result


def versus(sizes: list[int], repeat: int, timeout: float, seed: int, braid: float) -> None:
    import lacak

    print("| size | strategy | lacak | steps | mazelib | ratio |")
    print("|---|---|---|---|---|---|")
    for side in sizes:
        maze = _maze(side, side, seed, braid)
        puzzle = maze.puzzle((0, 0), (side - 1, side - 1))
        limits = lacak.Limits(max_expanded=50_000_000)
        for name in STRATEGIES:
            options = {"seed": 1} if name == "random-mouse" else {}
            seconds, result = best_of(repeat, puzzle, name, limits=limits, **options)
            steps = result.length if result.found else str(result.stopped)
            peer = PEERS.get(name)
            shown, ratio = "-", "-"
            if peer is not None:
                shown = run_peer(peer, side, side, seed, braid, timeout)
                if shown.endswith("steps)"):
                    ratio = f"{float(shown.split()[0]) / seconds:.0f}x"
            print(f"| {side}x{side} | `{name}` | {seconds:.4f} s | {steps} | {shown} | {ratio} |",
                  flush=True)  # fmt: skip


def on_grids(cells: int, repeat: int, seed: int, braid: float) -> None:
    import math

    import lacak

    print("| strategy | " + " | ".join(GRIDS) + " |")
    print("|---|" + "---|" * len(GRIDS))
    mazes = {}
    for grid in GRIDS:
        side = max(3, round(math.sqrt(cells)))
        size = (side, side)
        if grid == "polar":
            rings = 2
            while sum(lacak.generate("maze", "kruskal", (rings, rings), seed=seed,
                                     grid="polar").grid.counts) < cells:  # fmt: skip
                rings += 1
            size = (rings, rings)
        maze = lacak.generate("maze", "kruskal", size, seed=seed, grid=grid, braid=braid)
        if hasattr(maze, "grid"):
            mazes[grid] = maze.puzzle(0, maze.size - 1)
        else:  # the plain rectangle's bitmask maze: cells are (row, col)
            mazes[grid] = maze.puzzle((0, 0), (side - 1, side - 1))
    for name in STRATEGIES:
        row = []
        for grid in GRIDS:
            puzzle = mazes[grid]
            seconds, result = best_of(repeat, puzzle, name)
            mark = "" if result.found else " (not found)"
            row.append(f"{seconds * 1000:.1f} ms{mark}")
        print(f"| `{name}` | " + " | ".join(row) + " |", flush=True)
    print("\ncells: " + ", ".join(f"{g} {mazes[g].maze.size}" for g in GRIDS))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--peer":
        solver, h, w, seed, braid = sys.argv[2:7]
        print(json.dumps(_mazelib_run(solver, int(h), int(w), int(seed), float(braid))))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="50,100,200", help="square sides, comma-separated")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per peer run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--braid", type=float, default=0.0)
    parser.add_argument("--grids-only", action="store_true")
    parser.add_argument("--cells", type=int, default=2500, help="cells a grid (--grids-only)")
    args = parser.parse_args()
    if args.grids_only:
        on_grids(args.cells, args.repeat, args.seed, args.braid)
        return
    versus([int(s) for s in args.sizes.split(",")], args.repeat, args.timeout, args.seed,
           args.braid)  # fmt: skip


if __name__ == "__main__":
    main()

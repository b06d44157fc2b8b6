"""Maze generation and solving: lacak side by side with peer libraries from PyPI.

    bash bench/setup.sh                     # bench/.venv with lacak and the peers
    bench/.venv/bin/python bench/mazes.py   # every generator at 500x500, then 1000x1000, then solving
    bench/.venv/bin/python bench/mazes.py --only wilson,kruskal --size 300 --timeout 30
    .venv/bin/python bench/mazes.py --scaling   # lacak alone: 250^2 .. 2000^2, every generator
    .venv/bin/python bench/mazes.py --scaling --sizes 1000 --carving   # with the carving order

Peers (bench/requirements-mazes.txt): mazelib, maze-dataset, amazed, aamaze.
Each peer run happens in a child process with a timeout (``--timeout``), so a
slow or broken peer shows as "timeout" or "failed: ..." and the rest go on;
a peer that is not installed shows as "missing". Times exclude imports and
are the best of ``--repeat`` runs for lacak, one run for a peer. Where it is
cheap the peer's maze is checked (a perfect maze has ``cells - 1``
passages) and its dead-end share is shown, which tells a uniform sampler
from a biased one.

Targets (issue 4): at 500x500 every lacak generator at least 5x faster than
the fastest peer offering it; at 1000x1000 under 3 s (issue 14: Wilson and
Aldous-Broder too, where issue 4 allowed Wilson 10 s); solving a 1000x1000
maze under 1 s.

``--scaling`` (issue 14) needs no peer: every lacak generator at each side of
``--sizes`` (250, 500, 1000, 2000), ``--repeat`` runs each with the seeds
``--seed``, ``--seed + 1``, ... (the same seeds for every size and
generator), CPU time (``time.process_time``) and wall time, min and median
of the runs, the load average before and after. The last column is the
growth: seconds per cell at the largest size over seconds per cell at the
smallest (median CPU), 1.0 for time in proportion to the cell count.
Random walks cannot quite reach 1.0: Wilson's expected walk length grows as
``n log n`` for ``n`` cells, Aldous-Broder's cover time as ``n (log n)^2``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

# -- peers ----------------------------------------------------------------------
# Each entry: peer -> {lacak generator: (module path, what to call)}.

PEER_GENERATORS: dict[str, dict[str, str]] = {
    "mazelib": {
        "hunt-and-kill": "HuntAndKill",
        "recursive-backtracker": "BacktrackingGenerator",
        "kruskal": "Kruskal",
        "eller": "Ellers",
        "prim": "Prims",
        "prim-frontier": "Prims",
        "wilson": "Wilsons",
        "aldous-broder": "AldousBroder",
        "binary-tree": "BinaryTree",
        "sidewinder": "Sidewinder",
        "growing-tree": "GrowingTree",
        "recursive-division": "Division",
    },
    "maze-dataset": {
        "recursive-backtracker": "gen_dfs",
        "kruskal": "gen_kruskal",
        "prim": "gen_prim",
        "prim-frontier": "gen_prim",
        "wilson": "gen_wilson",
        "recursive-division": "gen_recursive_division",
    },
    "amazed": {
        "hunt-and-kill": "HuntAndKill",
        "recursive-backtracker": "DepthFirstSearch",
        "kruskal": "RandomKruskal",
        "prim": "RandomPrim",
        "prim-frontier": "RandomPrim",
        "aldous-broder": "AldousBroder",
        "binary-tree": "BinaryTree",
        "sidewinder": "Sidewinder",
        "recursive-division": "RecursiveDivision",
    },
    "aamaze": {
        "recursive-backtracker": "RecursiveBacktracker",
        "kruskal": "Kruskals",
        "eller": "Eller",
        "prim": "Prims",
        "prim-frontier": "Prims",
        "wilson": "Wilsons",
        "growing-tree": "GrowingTree",
        "recursive-division": "RecursiveDivisor",
    },
}

PEER_SOLVERS = {"mazelib": "ShortestPath", "amazed": "Lee", "aamaze": "AStarSolver"}


def _seed_everything(seed: int) -> None:
    import random

    import numpy as np

    random.seed(seed)
    np.random.seed(seed % 2**32)


def _mazelib_stats(grid: Any, h: int, w: int) -> dict[str, Any]:
    import numpy as np

    grid = np.asarray(grid)
    cells = grid[1::2, 1::2] == 0
    passages = int((grid[1:-1:2, 2:-1:2] == 0).sum() + (grid[2:-1:2, 1:-1:2] == 0).sum())
    open_sides = np.zeros((h, w), dtype=int)
    east = grid[1:-1:2, 2:-1:2] == 0
    south = grid[2:-1:2, 1:-1:2] == 0
    open_sides[:, :-1] += east
    open_sides[:, 1:] += east
    open_sides[:-1, :] += south
    open_sides[1:, :] += south
    return {
        "perfect": bool(cells.all()) and passages == h * w - 1,
        "dead_ends": float((open_sides == 1).mean()),
    }


def _lattice_stats(maze: Any, h: int, w: int) -> dict[str, Any]:
    import numpy as np

    conn = np.asarray(maze.connection_list)  # (2, h, w): down, right
    passages = int(conn.sum())
    open_sides = np.zeros((h, w), dtype=int)
    down, right = conn[0], conn[1]
    open_sides += down
    open_sides[1:, :] += down[:-1, :]
    open_sides += right
    open_sides[:, 1:] += right[:, :-1]
    return {"perfect": passages == h * w - 1, "dead_ends": float((open_sides == 1).mean())}


def _peer_generate(peer: str, name: str, h: int, w: int, seed: int) -> tuple[float, dict[str, Any]]:
    """Run one peer generator; returns (seconds, checks)."""
    _seed_everything(seed)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * h * w + 1000))
    algo = PEER_GENERATORS[peer][name]
    if peer == "mazelib":
        import importlib

        from mazelib import Maze

        cls = getattr(importlib.import_module(f"mazelib.generate.{algo}"), algo)
        maze = Maze(seed)
        maze.generator = cls(h, w)
        started = time.perf_counter()
        maze.generate()
        seconds = time.perf_counter() - started
        return seconds, _mazelib_stats(maze.grid, h, w)
    if peer == "maze-dataset":
        from maze_dataset.generation import LatticeMazeGenerators

        make = getattr(LatticeMazeGenerators, algo)
        started = time.perf_counter()
        maze = make((h, w))
        seconds = time.perf_counter() - started
        return seconds, _lattice_stats(maze, h, w)
    if peer == "amazed":
        import amazed.builder as builders
        from amazed.maze import Maze

        maze = Maze(h, w)
        started = time.perf_counter()
        getattr(builders, algo)(maze, seed)
        return time.perf_counter() - started, {}
    if peer == "aamaze":
        import aamaze
        import aamaze.generation as generators

        maze = aamaze.Maze(w, h)
        started = time.perf_counter()
        getattr(generators, algo)(maze).generate_maze()
        return time.perf_counter() - started, {}
    raise ValueError(peer)


def _peer_solve(peer: str, h: int, w: int, seed: int) -> tuple[float, dict[str, Any]]:
    """Load lacak's Kruskal maze into the peer's own format (untimed), then time its
    shortest-path solver from the top-left to the bottom-right cell."""
    import lacak

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * h * w + 1000))
    maze = lacak.generate("maze", "kruskal", (h, w), seed=seed)
    cells = maze.cells
    if peer == "mazelib":
        import numpy as np
        from mazelib import Maze
        from mazelib.solve.ShortestPath import ShortestPath

        grid = np.ones((2 * h + 1, 2 * w + 1), dtype=np.int8)
        grid[1::2, 1::2] = 0
        grid[1:-1:2, 2:-1:2] = (cells[:, :-1] & 2) == 0
        grid[2:-1:2, 1:-1:2] = (cells[:-1, :] & 4) == 0
        peer_maze = Maze(seed)
        peer_maze.grid = grid
        # mazelib wants entrances on the outer wall: beside the two corner cells
        peer_maze.start, peer_maze.end = (1, 0), (2 * h - 1, 2 * w)
        peer_maze.solver = ShortestPath()
        started = time.perf_counter()
        peer_maze.solve()
        seconds = time.perf_counter() - started
        found = peer_maze.solutions[0] if peer_maze.solutions else None
        # mazelib's path lists grid squares from cell to cell (two per step)
        return seconds, {"length": (len(found) - 1) // 2 if found else None}
    if peer == "amazed":
        from amazed.maze import Maze
        from amazed.solver import Lee

        peer_maze = Maze(h, w)
        for r in range(h):
            for c in range(w):
                if cells[r, c] & 2:
                    peer_maze.path(r, c, Maze.EAST)
                if cells[r, c] & 4:
                    peer_maze.path(r, c, Maze.SOUTH)
        started = time.perf_counter()
        solver = Lee(peer_maze, start=(0, 0), end=(h - 1, w - 1))
        solver.solve()
        return time.perf_counter() - started, {"length": len(solver.steps) - 1}
    if peer == "aamaze":
        import aamaze
        from aamaze.solving.a_star import AStarSolver

        peer_maze = aamaze.Maze(w, h)
        # aamaze's y grows upwards; row r is y = r here, so its "top" is lacak's south
        for r in range(h):
            for c in range(w):
                mask = int(cells[r, c])
                walls = 15
                walls &= ~8 if mask & 4 else 15  # top <- south
                walls &= ~4 if mask & 1 else 15  # bottom <- north
                walls &= ~2 if mask & 8 else 15  # left <- west
                walls &= ~1 if mask & 2 else 15  # right <- east
                peer_maze.get_node_from_coordinates(c, r).walls = walls
        started = time.perf_counter()
        solution = AStarSolver(peer_maze).solve_maze()
        return time.perf_counter() - started, {"length": len(solution) - 1 if solution else None}
    raise ValueError(peer)


def _worker(args: list[str]) -> None:
    kind, peer, name, h, w, seed = args
    try:
        if kind == "generate":
            seconds, checks = _peer_generate(peer, name, int(h), int(w), int(seed))
        else:
            seconds, checks = _peer_solve(peer, int(h), int(w), int(seed))
        print(json.dumps({"seconds": seconds, **checks}))
    except ImportError as error:
        print(json.dumps({"error": f"missing ({error.name or error})"}))
    except BaseException as error:  # a peer failing is a result, not a crash
        print(json.dumps({"error": f"failed: {type(error).__name__}: {str(error)[:60]}"}))


def run_peer(
    kind: str, peer: str, name: str, h: int, w: int, seed: int, timeout: float
) -> dict[str, Any]:
    """Run one peer measurement in a child process."""
    command = [sys.executable, __file__, "--worker", kind, peer, name, str(h), str(w), str(seed)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout (>{timeout:g} s)"}
    lines = done.stdout.strip().splitlines()
    if not lines:
        return {
            "error": f"failed: {done.stderr.strip().splitlines()[-1][:60] if done.stderr.strip() else 'no output'}"
        }
    return json.loads(lines[-1])


# -- lacak ----------------------------------------------------------------------


def best_of(repeat: int, function: Callable[[], Any]) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - started)
    return best, result


def fmt(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds:.3f}" if seconds < 10 else f"{seconds:.1f}"


def scaling(
    names: list[str], sides: list[int], repeat: int, seed: int, carving: bool = False
) -> None:
    """Print the scaling table: every generator at every side, CPU and wall seconds
    (with ``carving``, each maze made with its carving order)."""
    import gc
    import statistics

    import lacak

    def load() -> str:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())

    print(
        f"# Scaling: lacak alone, sides {', '.join(map(str, sides))}; seconds, CPU and wall,"
        + (" carving=True" if carving else "")
    )
    print(
        f"# min / median of {repeat} runs (seeds {seed}..{seed + repeat - 1}); growth = CPU per cell"
    )
    print(f"# at {sides[-1]}^2 over CPU per cell at {sides[0]}^2 (1.0: linear in the cell count)")
    print(
        f"# python {sys.version.split()[0]}, {os.cpu_count()} cores; load average before: {load()}"
    )
    print()
    head = f"{'generator':<22}" + "".join(f" | {f'{s}^2 cpu':>13} {'wall':>13}" for s in sides)
    print(head + " | growth")
    print("-" * (len(head) + 9))
    for name in names:
        extra = {"carving": True} if carving else {}
        lacak.generate("maze", name, (3, 3), seed=seed, **extra)  # imports, outside the timing
        cells = []
        medians = []
        for side in sides:
            cpu, wall = [], []
            for run in range(repeat):
                gc.collect()
                w0, c0 = time.perf_counter(), time.process_time()
                lacak.generate("maze", name, (side, side), seed=seed + run, **extra)
                cpu.append(time.process_time() - c0)
                wall.append(time.perf_counter() - w0)
            medians.append(statistics.median(cpu))
            cells.append(
                f"{fmt(min(cpu)):>6}/{fmt(statistics.median(cpu)):<6} "
                f"{fmt(min(wall)):>6}/{fmt(statistics.median(wall)):<6}"
            )
        growth = (medians[-1] / sides[-1] ** 2) / (medians[0] / sides[0] ** 2)
        print(f"{name:<22}" + "".join(f" | {c}" for c in cells) + f" | {growth:5.2f}")
        sys.stdout.flush()
    print()
    print(f"# load average after: {load()}")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        _worker(sys.argv[2:])
        return
    import lacak

    names = sorted(lacak.generators("maze"))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--size", type=int, default=500, help="side of the side-by-side mazes (500)"
    )
    parser.add_argument(
        "--big", type=int, default=1000, help="side of the lacak-only mazes (1000; 0 skips)"
    )
    parser.add_argument("--only", default="", help="comma-separated generators (default: all)")
    parser.add_argument("--peers", default=",".join(PEER_GENERATORS), help="comma-separated peers")
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds per peer run (90)")
    parser.add_argument(
        "--repeat", type=int, default=3, help="lacak runs per measurement, best kept (3)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--solve-size", type=int, default=200, help="side for the side-by-side solve (200)"
    )
    parser.add_argument("--no-solve", action="store_true", help="skip the solving benchmark")
    parser.add_argument(
        "--scaling", action="store_true", help="only the scaling table (lacak alone; issue 14)"
    )
    parser.add_argument(
        "--sizes", default="250,500,1000,2000", help="sides for --scaling (250,500,1000,2000)"
    )
    parser.add_argument(
        "--carving",
        action="store_true",
        help="with --scaling: make each maze with its carving order (carving=True)",
    )
    args = parser.parse_args()
    only = [n for n in args.only.split(",") if n] or names
    unknown = sorted(set(only) - set(names))
    if unknown:
        parser.error(f"unknown generator(s) {', '.join(unknown)}; known: {', '.join(names)}")
    if args.scaling:
        scaling(only, [int(s) for s in args.sizes.split(",")], args.repeat, args.seed, args.carving)
        return
    peers = [p for p in args.peers.split(",") if p]
    size = args.size
    print(
        f"# Maze generation, {size}x{size} ({size * size:,} cells); seconds, best of {args.repeat} for lacak"
    )
    print(f"# python {sys.version.split()[0]}, {os.cpu_count()} cores; peers: {', '.join(peers)}")
    print()
    header = f"{'generator':<22} {'lacak':>7} {'dead':>5} | {'fastest peer':<28} {'x faster':>8} {'5x?':>4} | others"
    print(header)
    print("-" * len(header))
    summary = []
    for name in only:
        seconds, maze = best_of(
            args.repeat, lambda n=name: lacak.generate("maze", n, (size, size), seed=args.seed)
        )
        assert maze.is_perfect()
        dead = maze.stats()["dead_end_share"]
        results = {}
        for peer in peers:
            if name in PEER_GENERATORS.get(peer, {}):
                results[peer] = run_peer(
                    "generate", peer, name, size, size, args.seed, args.timeout
                )
        timed = {p: r for p, r in results.items() if "seconds" in r}
        others = []
        for peer, result in results.items():
            if "seconds" in result:
                note = f"{peer} {fmt(result['seconds'])}"
                if "dead_ends" in result:
                    note += f" ({result['dead_ends']:.0%} dead{'' if result.get('perfect') else ', NOT perfect'})"
            else:
                note = f"{peer} {result['error']}"
            others.append(note)
        if timed:
            fastest = min(timed, key=lambda p: timed[p]["seconds"])
            ratio = timed[fastest]["seconds"] / seconds
            best = f"{fastest} {fmt(timed[fastest]['seconds'])}"
            verdict = "yes" if ratio >= 5 else "NO"
            ratio_text = f"{ratio:8.1f}"
        else:
            best, ratio_text, verdict, ratio = "(no peer result)", f"{'-':>8}", "-", None
        print(
            f"{name:<22} {fmt(seconds):>7} {dead:>5.0%} | {best:<28} {ratio_text} {verdict:>4} | {'; '.join(others)}"
        )
        summary.append((name, seconds, ratio))
        sys.stdout.flush()

    if args.big:
        big = args.big
        print()
        print(
            f"# lacak alone, {big}x{big} ({big * big:,} cells): target < 3 s (issue 14: every generator)"
        )
        for name in only:
            seconds, maze = best_of(
                1, lambda n=name: lacak.generate("maze", n, (big, big), seed=args.seed)
            )
            verdict = "yes" if seconds < 3.0 else "NO"
            print(f"{name:<22} {fmt(seconds):>7}  target < 3 s: {verdict}")
            sys.stdout.flush()

    if not args.no_solve:
        print()
        print(
            "# Solving: top-left to bottom-right of the same lacak Kruskal maze, loaded into each peer"
        )
        for side in sorted({args.solve_size, args.big or args.solve_size}):
            maze = lacak.generate("maze", "kruskal", (side, side), seed=args.seed)
            puzzle = maze.puzzle((0, 0), (side - 1, side - 1))
            for strategy in ("tree-path", "dead-end-fill", "wall-follower"):
                seconds, result = best_of(
                    args.repeat, lambda s=strategy, p=puzzle: lacak.solve(p, s)
                )
                print(
                    f"lacak {strategy:<16} {side}x{side}: {fmt(seconds):>7} s  (path {result.length} steps)"
                )
            if side >= 1000:
                _t, result = best_of(1, lambda p=puzzle: lacak.solve(p, "tree-path"))
                print(f"  target: 1000x1000 under 1 s: {'yes' if _t < 1 else 'NO'}")
            if side == args.solve_size:
                base, _r = best_of(args.repeat, lambda p=puzzle: lacak.solve(p, "tree-path"))
                for peer, solver in PEER_SOLVERS.items():
                    if peer not in peers:
                        continue
                    result = run_peer("solve", peer, solver, side, side, args.seed, args.timeout)
                    if "seconds" in result:
                        same = (
                            "same path length"
                            if result.get("length") == _r.length
                            else (f"path {result.get('length')} steps, lacak {_r.length}")
                        )
                        print(
                            f"{peer:<7} {solver:<13} {side}x{side}: {fmt(result['seconds']):>7} s"
                            f"  ({result['seconds'] / base:.0f}x lacak tree-path; {same})"
                        )
                    else:
                        print(f"{peer:<7} {solver:<13} {side}x{side}: {result['error']}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()

"""Maze generation and solving: lacak side by side with peer libraries from PyPI.

    bash bench/setup.sh                     # bench/.venv with lacak and the peers
    bench/.venv/bin/python bench/mazes.py   # every generator at 500x500, then 1000x1000, then solving
    bench/.venv/bin/python bench/mazes.py --only wilson,kruskal --size 300 --timeout 30
    .venv/bin/python bench/mazes.py --scaling   # lacak alone: 250^2 .. 2000^2, every generator
    .venv/bin/python bench/mazes.py --scaling --sizes 1000 --carving   # with the carving order
    bench/.venv/bin/python bench/mazes.py --compiled   # issue 26: the compiled engine and the peers
    .venv/bin/python bench/mazes.py --scaling --engine numba --sizes 250,500,1000,2000,4096

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
``--engine python|numba`` sets ``LACAK_MAZE_ENGINE`` for the run.

``--compiled`` (issue 26, "mazes at compiled speed") runs, in one go: the walking
generators (recursive backtracker, hunt-and-kill, growing tree) and Wilson at each
side of ``--sides`` (100, 1000, 4096) with lacak's Python engine and its compiled one
(``LACAK_MAZE_ENGINE``, each in a child process: the compiled one loaded before the
timing), CPU and wall, cells a second, beside mazelib and maze-dataset (a child
process each, wall, with ``--timeout``) and the ratios; then ``lacak batch maze -a
wilson --size 32x32 --solution -n N -o FILE.npz`` with each engine (records a second,
wall, and the CPU of the whole command with its workers), beside the peers making the
same: a 32x32 Wilson maze with a path between two cells (maze-dataset: ``gen_wilson``
and ``generate_random_path``; mazelib: ``Wilsons``, entrances and ``ShortestPath``),
one process, as many as ``--timeout`` allows. Targets: >= 10 M cells/s for the walking
generators compiled, Wilson 1000x1000 under 1 s, >= 1,000 records/s for the batch.
The load average is printed before and after: this machine is shared.
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


def _lacak_generate(
    engine: str, name: str, h: int, w: int, seed: int
) -> tuple[float, dict[str, Any]]:
    """One lacak maze with the engine ``engine`` (loaded first): wall and CPU seconds."""
    os.environ["LACAK_MAZE_ENGINE"] = engine
    import lacak

    lacak.generate("maze", name, (3, 3), seed=seed)  # imports (and the kernels), untimed
    c0, w0 = time.process_time(), time.perf_counter()
    lacak.generate("maze", name, (h, w), seed=seed)
    return time.perf_counter() - w0, {"cpu": time.process_time() - c0}


def _peer_records(peer: str, h: int, w: int, budget: float) -> tuple[float, dict[str, Any]]:
    """As many ``h x w`` Wilson mazes with a path between two cells as ``budget`` seconds
    allow (at least one): seconds and count."""
    _seed_everything(1)
    count, started = 0, time.perf_counter()
    while count == 0 or time.perf_counter() - started < budget:
        if peer == "maze-dataset":
            from maze_dataset.generation import LatticeMazeGenerators

            maze = LatticeMazeGenerators.gen_wilson((h, w))
            path = maze.generate_random_path()
            assert len(path) >= 1
        elif peer == "mazelib":
            from mazelib import Maze
            from mazelib.generate.Wilsons import Wilsons
            from mazelib.solve.ShortestPath import ShortestPath

            maze = Maze()
            maze.generator = Wilsons(h, w)
            maze.generate()
            maze.generate_entrances()
            maze.solver = ShortestPath()
            maze.solve()
            assert maze.solutions
        else:
            raise ValueError(peer)
        count += 1
    return time.perf_counter() - started, {"count": count}


def _worker(args: list[str]) -> None:
    kind, peer, name, h, w, seed = args
    try:
        if kind == "generate":
            seconds, checks = _peer_generate(peer, name, int(h), int(w), int(seed))
        elif kind == "lacak":  # peer: the engine
            seconds, checks = _lacak_generate(peer, name, int(h), int(w), int(seed))
        elif kind == "records":  # 32x32 Wilson mazes with a solution, for a budget of seconds
            seconds, checks = _peer_records(peer, int(h), int(w), float(seed))
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


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _batch_rate(engine: str, count: int, seed: int) -> tuple[float, float]:
    """``lacak batch maze -a wilson --size 32x32 --solution`` to an ``.npz`` with the engine
    ``engine``: records a second (wall) and CPU seconds of the command and its workers."""
    import resource
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="lacak-bench-")
    try:
        lacak_command = shutil.which("lacak", path=os.path.dirname(sys.executable)) or "lacak"
        command = [lacak_command, "batch", "maze", "-a", "wilson", "--size", "32x32",
                   "--solution", "-n", str(count), "--seed", str(seed),
                   "-o", os.path.join(folder, "mazes.npz")]  # fmt: skip
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True,
                       env={**os.environ, "LACAK_MAZE_ENGINE": engine})  # fmt: skip
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return count / wall, cpu
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def compiled(sides: list[int], peers: list[str], seed: int, timeout: float, count: int) -> None:
    """Issue 26's tables: the compiled engine beside the Python one and the peers."""
    names = ["recursive-backtracker", "hunt-and-kill", "growing-tree", "wilson"]
    peer_names = [p for p in peers if p in ("mazelib", "maze-dataset")]
    print("# Mazes at compiled speed (issue 26): lacak's engines and the peers, one run")
    print(
        f"# python {sys.version.split()[0]}, {os.cpu_count()} cores; load average before: {_load()}"
    )
    print("# seconds: cpu/wall for lacak (a child process each, engine loaded before), wall for")
    print("# the peers; Mc/s: million cells a second (CPU) compiled; x: peer wall / lacak wall")
    print()
    head = (f"{'generator':<22} {'side':>5} | {'python cpu/wall':>17} | {'numba cpu/wall':>17} "
            f"{'Mc/s':>6} {'vs py':>6} | " + " | ".join(f"{p:<22}" for p in peer_names))  # fmt: skip
    print(head)
    print("-" * len(head))
    for name in names:
        for side in sides:
            cells = side * side
            runs = {}
            for engine in ("python", "numba"):
                limit = timeout if engine == "numba" or cells <= 1_100_000 else 0
                runs[engine] = (run_peer("lacak", engine, name, side, side, seed, limit)
                                if limit else {"error": "not run (> 1M)"})  # fmt: skip
            numba = runs["numba"]
            python = runs["python"]

            def pair(run: dict[str, Any]) -> str:
                if "seconds" not in run:
                    return f"{run['error'][:17]:>17}"
                return f"{fmt(run['cpu']):>8}/{fmt(run['seconds']):<8}"

            rate = f"{cells / numba['cpu'] / 1e6:6.1f}" if numba.get("cpu") else f"{'-':>6}"
            gain = (f"{python['seconds'] / numba['seconds']:5.1f}x" if "seconds" in python
                    and "seconds" in numba else f"{'-':>6}")  # fmt: skip
            notes = []
            for peer in peer_names:
                if name not in PEER_GENERATORS.get(peer, {}):
                    notes.append(f"{'(none)':<22}")
                    continue
                result = (run_peer("generate", peer, name, side, side, seed, timeout)
                          if cells <= 1_100_000 else {"error": "not run (> 1M cells)"})  # fmt: skip
                if "seconds" in result and "seconds" in numba:
                    notes.append(
                        f"{fmt(result['seconds']):>7} s {result['seconds'] / numba['seconds']:>9.0f}x  "
                    )
                else:
                    notes.append(f"{result.get('error', '?')[:22]:<22}")
            print(f"{name:<22} {side:>5} | {pair(python)} | {pair(numba)} {rate} {gain} | "
                  + " | ".join(notes))  # fmt: skip
            sys.stdout.flush()
    print()
    print(f"# lacak batch maze -a wilson --size 32x32 --solution -n {count} -o FILE.npz")
    print(
        f"# (records a second, wall; CPU seconds of the command and its workers); load: {_load()}"
    )
    rates = {}
    for engine in ("python", "numba"):
        number = count if engine == "numba" else max(200, count // 10)
        rate, cpu = _batch_rate(engine, number, seed)
        rates[engine] = rate
        print(f"lacak {engine:<8} {number:>6} records: {rate:8.0f} records/s wall, "
              f"{number / cpu:8.0f} records per CPU second ({cpu:.1f} s CPU)")  # fmt: skip
        sys.stdout.flush()
    for peer in peer_names:
        result = run_peer("records", peer, "wilson", 32, 32, min(20, int(timeout / 3)), timeout)
        if "seconds" in result:
            rate = result["count"] / result["seconds"]
            print(f"{peer:<14} {result['count']:>6} mazes:   {rate:8.2f} mazes/s (one process); "
                  f"lacak numba {rates['numba'] / rate:,.0f}x, python {rates['python'] / rate:,.0f}x")  # fmt: skip
        else:
            print(f"{peer:<14} {result['error']}")
        sys.stdout.flush()
    print()
    print(f"# load average after: {_load()}")


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
    parser.add_argument("--engine", choices=("auto", "python", "numba"),
                        help="LACAK_MAZE_ENGINE for --scaling")  # fmt: skip
    parser.add_argument("--compiled", action="store_true",
                        help="issue 26's tables: both engines, the peers, the batch rate")  # fmt: skip
    parser.add_argument("--sides", default="100,1000,4096", help="sides for --compiled")
    parser.add_argument("--count", type=int, default=10_000,
                        help="records of the --compiled batch (10000)")  # fmt: skip
    args = parser.parse_args()
    if args.engine:
        os.environ["LACAK_MAZE_ENGINE"] = args.engine
    only = [n for n in args.only.split(",") if n] or names
    unknown = sorted(set(only) - set(names))
    if unknown:
        parser.error(f"unknown generator(s) {', '.join(unknown)}; known: {', '.join(names)}")
    if args.compiled:
        peers = [p for p in args.peers.split(",") if p]
        compiled([int(s) for s in args.sides.split(",")], peers, args.seed, args.timeout,
                 args.count)  # fmt: skip
        return
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

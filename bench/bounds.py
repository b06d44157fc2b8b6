"""How long ``--timeout T`` commands take on the worst inputs of issue 10: T asked, T taken.

Each command runs as its own process (``python -m lacak ...``) under an
address-space limit (2.5 GB by default), as a user would run it; the table
shows the wall-clock seconds of the whole process (Python start-up included)
and, where the command prints JSON, the seconds the search reports (its clock
starts with the command, before the tables are built or the file is read).
Min and median of ``--runs`` runs.

Inputs: a 32x32 and a 2x512 sliding board (the biggest boards; the second, 2
rows of 512 tiles, has a Manhattan distance of about 170,000), weights of a million, and a
4096x4096 maze without endpoints (16 M cells, 40 MB of JSON).

    .venv/bin/python bench/bounds.py [--runs 3] [--timeouts 0.5,1,2] [--quick]
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


def _board(size: tuple[int, int], seed: int) -> str:
    from lacak_sliding.generators import random_board

    puzzle = random_board(size, seed)
    return puzzle.format_state(puzzle.initial)


def _maze_file(folder: Path) -> Path:
    import numpy as np
    from lacak_mazes import Maze

    rng = np.random.default_rng(1)
    east = rng.random((4096, 4096)) < 0.5
    east[-1, :] = True
    east[:, -1] = False
    south = ~east
    south[-1, :] = False
    path = folder / "maze-4096.json"
    path.write_text(Maze.from_edges(east, south).to_json())
    return path


def commands(folder: Path, quick: bool) -> list[tuple[str, list[str]]]:
    big = _board((32, 32), 1)
    wide = _board((2, 512), 1)
    weights = "weighted:w1=1000000,w2=1000000"
    out = [
        ("sliding 32x32 default (idastar-tiles + linear-conflict)", ["sliding", "solve", big]),
        ("sliding 32x32 astar-tiles + linear-conflict", ["sliding", "solve", big, "-s", "astar-tiles", "-H", "linear-conflict"]),
        ("sliding 32x32 astar-tiles, weights 10^6", ["sliding", "solve", big, "-s", "astar-tiles", "-H", weights]),
        ("sliding 32x32 idastar-tiles, weights 10^6", ["sliding", "solve", big, "-s", "idastar-tiles", "-H", weights]),
        ("sliding 2x512 astar-tiles + manhattan", ["sliding", "solve", wide, "--size", "2x512", "-s", "astar-tiles", "-H", "manhattan"]),
        ("sliding 2x512 idastar-tiles + manhattan", ["sliding", "solve", wide, "--size", "2x512", "-s", "idastar-tiles", "-H", "manhattan"]),
        ("sliding 32x32 astar (generic) + manhattan", ["sliding", "solve", big, "-s", "astar", "-H", "manhattan"]),
    ]  # fmt: skip
    if not quick:
        out.append(("maze 4096x4096 solve (reads 40 MB, suggests ends)", ["maze", "solve", str(_maze_file(folder))]))
    return out


def _limit(memory: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))


def run(args: list[str], timeout: float, memory: int) -> tuple[float, float | None, str]:
    """``(wall seconds, reported seconds or None, stopped)`` of one run."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "lacak", *args, "--timeout", str(timeout), "--json"],
        capture_output=True,
        text=True,
        preexec_fn=lambda: _limit(memory),
    )
    wall = time.perf_counter() - started
    try:
        report = json.loads(done.stdout)
    except ValueError:
        return wall, None, (done.stderr.strip().splitlines() or ["?"])[-1][:60]
    seconds = report.get("seconds", report.get("stats", {}).get("seconds"))
    return wall, seconds, report.get("stopped", "?")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeouts", default="0.5,1,2", help="comma-separated T values")
    parser.add_argument("--memory", type=float, default=2.5, help="address space, GB")
    parser.add_argument("--quick", action="store_true", help="no maze (its file takes ~10 s)")
    options = parser.parse_args(argv)
    timeouts = [float(t) for t in options.timeouts.split(",")]
    memory = int(options.memory * 1e9)
    base = [sys.executable, "-c", "import lacak"]
    startup = [_time(base) for _ in range(options.runs)]
    print(f"python start-up with 'import lacak': min {min(startup):.2f} s, "
          f"median {statistics.median(startup):.2f} s")  # fmt: skip
    print(f"{'command':55} {'T':>5} {'wall min':>9} {'median':>7} {'search':>7}  stopped")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["LACAK_CACHE_DIR"] = os.environ.get("LACAK_CACHE_DIR", tmp)
        for label, args in commands(Path(tmp), options.quick):
            for timeout in timeouts:
                runs = [run(args, timeout, memory) for _ in range(options.runs)]
                walls = [r[0] for r in runs]
                reported = [r[1] for r in runs if r[1] is not None]
                search = f"{statistics.median(reported):7.2f}" if reported else "      -"
                print(
                    f"{label:55} {timeout:5.1f} {min(walls):9.2f} "
                    f"{statistics.median(walls):7.2f} {search}  {runs[-1][2]}"
                )
    return 0


def _time(args: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(args, check=True)
    return time.perf_counter() - started


if __name__ == "__main__":
    sys.exit(main())

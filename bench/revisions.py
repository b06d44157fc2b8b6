"""Is lacak slower than it was? The engines' everyday workloads against an older revision.

    .venv/bin/python bench/revisions.py --baseline REV [--rounds N]

No peers: the same workloads on the code of this checkout and on the code of
git revision ``REV`` (``bench/baseline.py``: exported with ``git archive`` and
put first on ``PYTHONPATH``, each with its own cache folder), in fresh
interpreters, alternating the two round by round so that both see the same
load. Imports, plugin loading, dictionaries and the compile of the numba
engines are outside the timed part (each workload runs once untimed first).
A row prints the CPU time (``time.process_time``) of the workload, minimum
and median over its repeats in every round, for both revisions, their ratio
(this checkout / baseline, below 1 is faster), and the machine's load average
before and after: on a shared machine every figure is an upper bound.

The workloads use only API that both revisions have (``lacak.parse``,
``lacak.solve``, ``lacak.generate``, ``lacak_boggle.solve_many``,
``solve_board``); a workload that fails on one revision is shown as failed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import baseline  # bench/baseline.py: --baseline REV's tree

#: The workloads: name -> (set-up, not timed; the timed statement; repeats in a round).
WORKLOADS: dict[str, tuple[str, str, int]] = {
    "8-puzzle, 31 moves, astar-tiles + manhattan": (
        "p = lacak.parse('sliding', '867254301')",
        "lacak.solve(p, strategy='astar-tiles', heuristic='manhattan')",
        7,
    ),
    "8-puzzle, 31 moves, idastar-tiles + manhattan": (
        "p = lacak.parse('sliding', '867254301')",
        "lacak.solve(p, strategy='idastar-tiles', heuristic='manhattan')",
        7,
    ),
    "8-puzzle, 31 moves, generic astar + manhattan": (
        "p = lacak.parse('sliding', '867254301')",
        "lacak.solve(p, strategy='astar', heuristic='manhattan')",
        3,
    ),
    # the generic searchers of lacak_search (one node step, lacak_search._common.expand)
    "8-puzzle, 31 moves, generic bfs": (
        "p = lacak.parse('sliding', '867254301')",
        "lacak.solve(p, strategy='bfs')",
        3,
    ),
    "8-puzzle, 31 moves, generic dfs to depth 31": (
        "p = lacak.parse('sliding', '867254301')",
        "lacak.solve(p, strategy='dfs', limits=lacak.Limits(max_depth=31))",
        3,
    ),
    "8-puzzle, 20 moves, generic dfs iterative": (
        "p = lacak.parse('sliding', '462708135')",
        "lacak.solve(p, strategy='dfs', iterative=True)",
        3,
    ),
    "15-puzzle Korf 1, generic best-first + manhattan": (
        "p = lacak.parse('sliding', '14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3',"
        " goal=' '.join(map(str, range(16))))",
        "lacak.solve(p, strategy='best-first', heuristic='manhattan')",
        5,
    ),
    "15-puzzle Korf 1, generic weighted-astar w=3 + manhattan": (
        "p = lacak.parse('sliding', '14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3',"
        " goal=' '.join(map(str, range(16))))",
        "lacak.solve(p, strategy='weighted-astar', heuristic='manhattan', weight=3)",
        5,
    ),
    **{
        f"maze {name} 300x300": (
            "", f"lacak.generate('maze', '{name}', (300, 300), seed=1)", 3
        )
        for name in ("recursive-backtracker", "hunt-and-kill", "kruskal", "prim", "eller", "wilson")
    },
    "maze 200x200, solve (default strategy)": (
        "p = lacak.parse('maze', lacak.generate('maze', 'recursive-backtracker', (200, 200),"
        " seed=1).to_json())\n"
        "p = p if hasattr(p, 'successors') else p.with_endpoints().puzzle()  # 0.1: a Maze",
        "lacak.solve(p)",
        3,
    ),
    "Boggle 2,000 random 4x4 boards, eng, numba": (
        "import random, lacak_boggle\n"
        "rows = [''.join(random.Random(i).choice('ABCDEFGHIKLMNOPRSTUW') for _ in range(16))"
        " for i in range(2000)]\n"
        "boards = ['/'.join(b[j:j + 4] for j in range(0, 16, 4)) for b in rows]",
        "lacak_boggle.solve_many(boards, 'eng', engine='numba')",
        3,
    ),
    "Boggle 50 random 4x4 boards one by one, eng, dfs": (
        "import random, lacak_boggle\n"
        "rows = [''.join(random.Random(i).choice('ABCDEFGHIKLMNOPRSTUW') for _ in range(16))"
        " for i in range(50)]\n"
        "boards = ['/'.join(b[j:j + 4] for j in range(0, 16, 4)) for b in rows]",
        "[lacak_boggle.solve_board(b, 'eng', engine='dfs') for b in boards]",
        5,
    ),
}

CHILD = """
import json, sys, time, warnings
warnings.simplefilter('ignore')
import lacak
lacak.default_registry().load_plugins()
setup, statement, repeats = json.loads(sys.argv[1])
space = {'lacak': lacak}
exec(setup, space)
code = compile(statement, '<workload>', 'exec')
exec(code, space)
times = []
for _ in range(repeats):
    start = time.process_time()
    exec(code, space)
    times.append(time.process_time() - start)
print(json.dumps(times))
"""


def run(workload: tuple[str, str, int], env: dict[str, str], label: str) -> list[float] | None:
    """CPU seconds of each repeat in a fresh interpreter, or ``None`` when it failed."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(workload)],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode:
        print(f"  failed ({label}): {done.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    return list(json.loads(done.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", required=True, help="git revision to compare with")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    parser.add_argument("--only", default="", help="run only workloads whose name has this")
    args = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        envs = {
            "ours": {**os.environ, "LACAK_CACHE_DIR": str(tmp / "cache")},
            "theirs": baseline.export(args.baseline, tmp / "baseline"),
        }
        times: dict[str, dict[str, list[float] | None]] = {}
        for name, workload in WORKLOADS.items():
            if args.only not in name:
                continue
            ours: list[float] | None = []
            theirs: list[float] | None = []
            for _ in range(args.rounds):
                for label, env in envs.items():
                    got = run(workload, env, "this checkout" if label == "ours" else "baseline")
                    kept = ours if label == "ours" else theirs
                    if got is None or kept is None:
                        ours, theirs = (None, theirs) if label == "ours" else (ours, None)
                    else:
                        kept.extend(got)
            times[name] = {"ours": ours, "theirs": theirs}
            print(row(name, ours, theirs), flush=True)
    load_after = os.getloadavg()
    print(f"\nbaseline {args.baseline}; CPU ms, min / median of {args.rounds} rounds; "
          f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after "
          f"({os.cpu_count()} cores); {time.strftime('%Y-%m-%d')}")  # fmt: skip


def row(name: str, ours: list[float] | None, theirs: list[float] | None) -> str:
    """One table row: both revisions' min / median and the ratio of the medians."""

    def cell(times: list[float] | None) -> str:
        if not times:
            return f"{'failed':>17}"
        return f"{min(times) * 1e3:8.1f} /{statistics.median(times) * 1e3:7.1f}"

    ratio: Any = "-"
    if ours and theirs:
        ratio = f"{statistics.median(ours) / statistics.median(theirs):.2f}x"
    return f"{name:50s} {cell(ours)}  {cell(theirs)}  {ratio:>6}"


if __name__ == "__main__":
    main()

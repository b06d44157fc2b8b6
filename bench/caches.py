"""Cached loads: the ``eng`` dictionary with its word graph, and the 6-6-3 pattern databases.

    bench/.venv/bin/python bench/caches.py [--repeat N] [--skip-cli] [--baseline REV]

Every measurement runs in a fresh interpreter with a warm cache (the script
fills it first: a few seconds for the dictionary, about 20 s for 6-6-3 the
first time), so only the operating system's file cache is warm. Imports and
plugin loading are outside the timed part; CPU is the process's own time
(``time.process_time``), wall is ``time.perf_counter``. Rows:

- ``eng``: ``lacak.dictionary("eng")`` then ``compile_dictionary`` of it, as
  ``lacak boggle solve`` does (both from their disk caches);
- ``pdb-663 files``: the three group databases of 6-6-3 for Korf's goal
  (blank first) from the disk cache (``load_or_build(..., build=False)``);
- ``pdb-663 prepared``: the heuristic ready for a search (files plus the
  sparse tables every search builds from them), as ``bench/korf100.py``
  times its loading;
- ``cli …``: the whole command in a subprocess (wall, and the child's CPU),
  including start-up: ``lacak boggle solve`` of one board and ``lacak
  sliding solve`` of Korf's instance 55 (41 moves) with ``pdb-663``.

Each row prints the minimum and the median of ``--repeat`` runs, and the
machine's load average (``os.getloadavg``) before and after, since a shared
machine makes every figure an upper bound.

``--baseline REV`` also runs every row on the code of git revision ``REV``
(exported to a temporary folder and put first on ``PYTHONPATH``, with its
own cache folder), alternating the two run by run so that both see the same
load, and prints the ratio of the medians: how the verified caches compare
with the unverified ones of ``0cf3b2e``, for example.
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

import baseline  # bench/baseline.py: --baseline REV's tree

KORF_55 = "13 8 14 3 9 1 0 7 15 5 4 10 12 2 6 11"
KORF_GOAL = " ".join(map(str, range(16)))
BOARD = "SERS/PATG/LINE/SERS"

#: label -> (set-up, not timed; the timed part)
IN_PROCESS = {
    "eng (dictionary + word graph)": (
        "import lacak\nfrom lacak_boggle import wordgraph\nlacak.default_registry().load_plugins()",
        "d = lacak.dictionary('eng')\ng = wordgraph.compile_dictionary(d)\n"
        "assert g.from_cache and d.report.cached",
    ),
    "pdb-663 files (load_or_build)": (
        "import lacak, numpy\nfrom lacak_sliding import pdb\nfrom lacak_sliding.pdb import build as pdb_build\n"
        "goal = tuple(range(16))\npart = pdb.Partition.named('663', 4, 4, goal)",
        "for g in part.groups:\n"
        "    a = pdb.load_or_build(4, 4, goal, g, build=False)\n"
        "    assert a is not None",
    ),
    "pdb-663 prepared (files + sparse tables)": (
        "import lacak, numpy\nfrom lacak_sliding import pdb\nfrom lacak_sliding.pdb import build as pdb_build\n"
        "goal = tuple(range(16))\npart = pdb.Partition.named('663', 4, 4, goal)",
        "h = pdb.pattern_heuristic(part, reflect=True)",
    ),
}

TIMER = """
import time, sys
{setup}
c0, t0 = time.process_time(), time.perf_counter()
{body}
print(time.process_time() - c0, time.perf_counter() - t0)
"""

CLI = {
    "cli: lacak boggle solve (eng)": ["boggle", "solve", BOARD, "--json"],
    "cli: lacak sliding solve korf #55, pdb-663": [
        *("sliding", "solve", KORF_55, "--goal", KORF_GOAL),
        *("--heuristic", "pdb-663", "--json"),
    ],
}


def _in_process(setup: str, body: str, env: dict[str, str]) -> tuple[float, float]:
    code = TIMER.format(setup=setup, body=body)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"failed:\n{code}\n{done.stderr}")
    cpu, wall = done.stdout.split()
    return float(cpu), float(wall)


def _cli(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "lacak", *args], capture_output=True, text=True, env=env, check=False
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"failed: lacak {' '.join(args)}\n{done.stderr}")
    if done.stderr.strip():
        print(f"  (stderr: {done.stderr.strip().splitlines()[0]})")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def _warm(env: dict[str, str]) -> None:
    """Fill the cache folder of ``env`` (builds what is missing)."""
    subprocess.run(
        [sys.executable, "-m", "lacak", "sliding", "pdb", "build", "663", "--goal", "first",
         "--json"],
        env=env, check=True, capture_output=True,
    )  # fmt: skip
    for setup, body in IN_PROCESS.values():
        _in_process(setup, body.replace("assert", "pass #"), env)


def _figures(runs: list[tuple[float, float]]) -> dict[str, float]:
    cpu = [c * 1e3 for c, _ in runs]
    wall = [w * 1e3 for _, w in runs]
    return {
        "cpu_min": min(cpu),
        "cpu_median": statistics.median(cpu),
        "wall_min": min(wall),
        "wall_median": statistics.median(wall),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per row (min and median)")
    parser.add_argument("--cache-dir", default=None, help="cache folder (default: a temporary one)")
    parser.add_argument("--skip-cli", action="store_true", help="only the in-process rows")
    parser.add_argument("--baseline", default=None, help="git revision to compare with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        cache = args.cache_dir or str(Path(scratch) / "cache")
        setups = {"": {**os.environ, "LACAK_CACHE_DIR": cache}}
        if args.baseline:
            base = Path(scratch) / "baseline"
            base.mkdir()
            setups = {f"{args.baseline}: ": baseline.export(args.baseline, base), **setups}
        print("warming the caches up (builds what is missing) ...", flush=True)
        for env in setups.values():
            _warm(env)
        tasks: dict[str, Any] = {
            label: (lambda s=setup, b=body: lambda env: _in_process(s, b, env))()
            for label, (setup, body) in IN_PROCESS.items()
        }
        if not args.skip_cli:
            for label, cli_args in CLI.items():
                tasks[label] = (lambda a=cli_args: lambda env: _cli(a, env))()
        rows: dict[str, dict[str, list[tuple[float, float]]]] = {}
        load_before = os.getloadavg()
        for label, task in tasks.items():
            runs = rows.setdefault(label, {prefix: [] for prefix in setups})
            for _ in range(args.repeat):
                for prefix, env in setups.items():  # alternate: both see the same load
                    runs[prefix].append(task(env))
        load_after = os.getloadavg()
    print(
        f"{args.repeat} runs each; load average {load_before[0]:.2f} before, "
        f"{load_after[0]:.2f} after; milliseconds"
    )
    print(f"{'':56} {'CPU min':>8} {'CPU med':>8} {'wall min':>8} {'wall med':>8}")
    summary: dict[str, Any] = {}
    for label, by_setup in rows.items():
        figures = {prefix: _figures(runs) for prefix, runs in by_setup.items()}
        for prefix, values in figures.items():
            summary[prefix + label] = {k: round(v, 2) for k, v in values.items()}
            print(f"{prefix + label:56} " + " ".join(f"{v:8.1f}" for v in values.values()))
        if args.baseline:
            old, new = figures[f"{args.baseline}: "], figures[""]
            ratios = {k: new[k] / old[k] if old[k] else float("nan") for k in new}
            summary[f"ratio: {label}"] = {k: round(v, 3) for k, v in ratios.items()}
            print(
                f"{'  ratio (this / baseline)':56} "
                + " ".join(f"{v:8.3f}" for v in ratios.values())
            )
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())

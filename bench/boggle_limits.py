"""Boggle's bounds on the worst inputs: how long ``--timeout T`` takes, and what ``--max-paths`` costs.

    .venv/bin/python bench/boggle_limits.py [--repeat 3]

(any environment with lacak installed: no peers are involved). Each case runs
``python -m lacak boggle ...`` in a fresh process with a private cache
folder, as a user would, and reports its wall-clock time (best and worst of
``--repeat`` runs), the overshoot past ``T``, and the process's peak resident
memory (``ru_maxrss`` of that child, from ``os.wait4``). Cases:

- *timeout, 5x5 all-A, A*25*: the board and word that ran past 300 s before
  ``--timeout`` existed (the first path of the word is found at once; proving
  that no other word is there takes for ever);
- *timeout, compiling*: a word list of 400,000 random words (made here,
  seeded) that takes seconds to compile for Boggle the first time: the
  deadline stops the compilation (nothing is cached);
- *all paths, 4x4 all-A, A*14*: the case that took 8.5 GB in 120 s before
  ``--max-paths``; with the default cap (50,000 paths), smaller and larger
  ones, JSON and text.

The promise checked: ``--timeout T`` ends the command within about T + 1 s
(the rest is starting Python and lacak, and printing what was found).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ALL_A_5x5 = "/".join(["AAAAA"] * 5)
ALL_A_4x4 = "/".join(["AAAA"] * 4)


_MAKE_WORDS = """
import json, random, sys
rng = random.Random(7)
letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
words = {"".join(rng.choice(letters) for _ in range(rng.randint(3, 12))) for _ in range(400_000)}
open(sys.argv[1], "w").write(json.dumps(sorted(words)))
"""


def run(args: list[str], cache: Path) -> tuple[float, float, int]:
    """Run ``python -m lacak ARGS``: ``(seconds, peak MB, exit status)``."""
    env = {**os.environ, "LACAK_CACHE_DIR": str(cache)}
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "lacak", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    return seconds, usage.ru_maxrss / 1024, child.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per case (default 3)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        a25, a14, big = root / "a25.json", root / "a14.json", root / "big.json"
        a25.write_text(json.dumps(["A" * 25, "AAAA"]))
        a14.write_text(json.dumps(["A" * 14]))
        # made in a child process: a child forked from this one would start with
        # this process's memory, and its peak would count it
        subprocess.run([sys.executable, "-c", _MAKE_WORDS, str(big)], check=True)
        cases: list[tuple[str, float | None, list[str]]] = []
        for limit in (0.5, 1.0, 2.0):
            cases.append(
                (f"timeout {limit:g}, 5x5 all-A, A*25", limit,
                 ["boggle", "solve", ALL_A_5x5, "-d", str(a25), "--timeout", f"{limit:g}", "--json"])
            )  # fmt: skip
        for limit in (0.5, 1.0):
            cases.append(
                (f"timeout {limit:g}, compiling 400k words", limit,
                 ["boggle", "solve", "CAT/DOG", "-d", str(big), "--timeout", f"{limit:g}"])
            )  # fmt: skip
        for cap in ("1", "10000", "50000 (default)", "200000"):
            number = cap.split()[0]
            for shape in ("--json", ""):
                cases.append(
                    (f"all paths, max-paths {cap}, {shape or 'text'}", None,
                     ["boggle", "solve", ALL_A_4x4, "-d", str(a14), "--all-paths",
                      "--max-paths", number, *([shape] if shape else [])])
                )  # fmt: skip
        print(f"{'case':44} {'best s':>7} {'worst s':>8} {'past T':>7} {'peak MB':>8} {'exit':>5}")
        for label, limit, args in cases:
            runs = []
            for _ in range(options.repeat):
                cache = root / "cache"  # fresh each run: the word graph is compiled again
                for stale in cache.rglob("*"):
                    if stale.is_file():
                        stale.unlink()
                runs.append(run(args, cache))
            best = min(r[0] for r in runs)
            worst = max(r[0] for r in runs)
            past = f"{worst - limit:+.2f}" if limit is not None else ""
            peak = max(r[1] for r in runs)
            codes = ",".join(sorted({str(r[2]) for r in runs}))
            print(f"{label:44} {best:7.2f} {worst:8.2f} {past:>7} {peak:8.0f} {codes:>5}")


if __name__ == "__main__":
    main()

"""Boggle at machine speed (issue 14): lacak's compiled walk and the batch APIs
around it, against a plain C++ scorer on the same boards, on one core.

    .venv/bin/python bench/boggle_speed.py [--boards 20000] [--repeat 7] [--baseline REV]

Workload: ``--boards`` 4x4 boards shaken from the 1987 dice (``classic4``,
seeds 0, 1, ...), solved with lacak's English list (``eng``, 77,092 words) at
the official minimum length (3 letters). Every row runs in a fresh
interpreter, set up first (imports, dictionary, boards, the compiled walk
loaded, one pass to warm up), then timed ``--repeat`` times; each row shows
CPU time (the process's own, ``time.process_time``) and wall time, best and
median, as microseconds a board and boards a second. The machine is shared:
the load average is printed before and after (rows run one after the other,
each in its own interpreter).

Rows:

- *C++ anchor*: ``bench/boggle_anchor.cc`` (a trie scorer in the style of
  Dan Vanderkam's Boggler, the issue's "about 5 us a board"), compiled here
  with ``g++ -O3 -march=native``; scores only. Its counts and points are
  checked against lacak's on every board.
- *kernel*: the compiled walk alone (``lacak_boggle.compiled.walk``) in its
  three modes: scores only, words (ranks, and the best word's path), words
  with every first path.
- *score_many*: counts and points per board as arrays, from ``Board`` objects
  and from their text; with ``words=True`` and ``word_lists()``, the word
  lists too (the words-only mode).
- *solve_many*: one ``Outcome`` with a ``BoggleResult`` per board, each read
  as ``word_list`` and ``score`` (paths made only when asked for); and with
  every path asked for (``result.entries``).
- with ``--baseline REV``, the same ``solve_many`` row and the kernel on the
  code of git revision ``REV`` (exported to a temporary folder, first on
  ``PYTHONPATH``): the "before" figures, measured side by side.

- *lacak batch boggle*: records/s through :func:`lacak.batch.dataset.records` (what
  ``lacak batch boggle`` runs; one job a board, JSON records in order), with
  and without ``--scores-only``, on 1 and 2 workers (``--batch-boards``
  boards, each run a fresh process as on the command line, so loading the
  dictionary and the engine counts; CPU of this process and its workers, and
  the CPU-bound speed-up: 2 x records per CPU-second on 2 workers over that
  on 1). With ``--baseline`` the same on that revision.
- *Python peers* (when ``bench/.venv`` has them, ``bash bench/setup.sh``):
  bogglesolver, pyggle and boggled from ``bench/boggle.py``, word sets only,
  on the first ``--peer-boards`` boards, CPU time.

Then "where the time goes" in one ``solve_many`` (one process, best of the
repeats): parsing and tiles to columns, the walk, the result objects with the
garbage collector off, what the collector adds, and the rest (records,
reading the results). And "first use": ``lacak boggle solve-many`` over 2,000
boards as a whole process, with a fresh lacak cache and a fresh numba cache
(the first compile), then again (machine code cached), for ``--engine numba``
and ``--engine auto``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import baseline  # bench/baseline.py: --baseline REV's tree

ROOT = Path(__file__).resolve().parents[1]

SETUP = """
import gc, sys, time
import lacak, numpy as np
from lacak_boggle import shake, solve_many, compile_dictionary
from lacak_boggle import compiled
N = {boards}
eng = lacak.dictionary("eng")
graph = compile_dictionary(eng)
boards = [shake("classic4", s) for s in range(N)]
texts = [str(b) for b in boards]
columns = np.array([[graph.single_columns[t] for t in b.flat] for b in boards], dtype=np.int64)
compiled.warm()
"""

#: row -> (the code trees it runs on: "new", "old"; extra set-up; the timed body)
ROWS: dict[str, tuple[tuple[str, ...], str, str]] = {
    "kernel: scores only": (
        ("new",),
        "",
        "compiled.walk(graph, columns, (4, 4), 3, compiled.SCORES)",
    ),
    "kernel: words, best path": (
        ("new",),
        "",
        "compiled.walk(graph, columns, (4, 4), 3, compiled.WORDS)",
    ),
    "kernel: words and every first path": (
        ("new", "old"),
        "",
        "compiled.walk_boards(graph, columns, (4, 4), 3)",
    ),
    "score_many (Board objects)": (
        ("new",),
        "from lacak_boggle import score_many",
        "score_many(boards, eng, engine='numba')",
    ),
    "score_many (text)": (
        ("new",),
        "from lacak_boggle import score_many",
        "score_many(texts, eng, engine='numba')",
    ),
    "score_many(words=True) + word_lists()": (
        ("new",),
        "from lacak_boggle import score_many",
        "score_many(boards, eng, engine='numba', words=True).word_lists()",
    ),
    "solve_many + word_list + score": (
        ("new", "old"),
        "",
        "for r in solve_many(boards, eng, engine='numba'):\n    v = r.value; v.word_list; v.score",
    ),
    "solve_many + every path": (
        ("new", "old"),
        "",
        "for r in solve_many(boards, eng, engine='numba'):\n    r.value.entries[0] if r.value.count else None",
    ),
}

TIMER = """
{setup}
{extra}
def body():
{body}
body()
for _ in range({repeat}):
    c0, w0 = time.process_time(), time.perf_counter()
    body()
    print(time.process_time() - c0, time.perf_counter() - w0, flush=True)
"""

BREAKDOWN = """
{setup}
import json
from lacak_boggle.batch.arrays import WORDS, walk_arrays
from lacak_boggle.batch.plan import _Plan
from lacak.batch import Outcome
best = {{}}
def clock(label, f):
    c0 = time.process_time(); out = f(); t = time.process_time() - c0
    best[label] = min(best.get(label, 1e9), t)
    return out
for _ in range({repeat}):
    def plan():
        p = _Plan(graph, eng); p.add(enumerate(boards), None, False); p.tables(); return p
    p = clock("parse: tiles to graph columns (Board objects given)", plan)
    (members, table), = p.groups.values()
    found = clock("walk: the compiled kernel (words, best path)",
                  lambda: walk_arrays(graph, table, (4, 4), 3, "numba", WORDS))
    gc.disable()
    made = clock("results: a BoggleResult per board (collector off)",
                 lambda: found.results(graph, boards, "eng", 3, table))
    gc.enable(); del made; gc.collect()
    made = clock("results, collector on", lambda: found.results(graph, boards, "eng", 3, table))
    clock("records: an Outcome per board", lambda: [Outcome(i, value=r) for i, r in enumerate(made)])
    clock("reading word_list and score", lambda: [(r.word_list, r.score) for r in made])
    del made; gc.collect()
    clock("whole solve_many + reading", lambda: [(r.value.word_list, r.value.score)
                                                 for r in solve_many(boards, eng, engine="numba")])
print(json.dumps(best))
"""


def _run(code: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"failed:\n{code}\n{done.stderr}")
    return done.stdout


def _anchor(scratch: Path, boards: int, repeat: int) -> tuple[list[tuple[float, float]], bool]:
    """The C++ scorer's passes (CPU, wall) and whether it agrees with lacak on every board."""
    binary = scratch / "boggle_anchor"
    subprocess.run(
        ["g++", "-O3", "-march=native", "-o", str(binary), str(ROOT / "bench" / "boggle_anchor.cc")],
        check=True,
    )  # fmt: skip
    code = (
        SETUP.format(boards=boards)
        + f"""
from lacak_boggle import score_many
open({str(scratch / "words.txt")!r}, "w").write("\\n".join(eng.words) + "\\n")
lines = ["".join("q" if t == "QU" else t.lower() for t in b.flat) for b in boards]
open({str(scratch / "boards.txt")!r}, "w").write("\\n".join(lines) + "\\n")
s = score_many(boards, eng)
print("\\n".join(f"{{c}} {{p}}" for c, p in zip(s.count.tolist(), s.score.tolist())))
"""
    )
    expected = _run(code, dict(os.environ)).split()
    out = subprocess.run(
        [str(binary), str(scratch / "words.txt"), str(scratch / "boards.txt"), str(repeat)],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    got = " ".join(line for line in out if not line.startswith("seconds")).split()
    passes = [tuple(map(float, line.split()[1:])) for line in out if line.startswith("seconds")]
    return passes, got == expected  # type: ignore[return-value]


def _cli(args: list[str], env: dict[str, str], source: Path) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    with source.open() as stdin:
        done = subprocess.run(
            [sys.executable, "-m", "lacak", *args], stdin=stdin, capture_output=True, text=True,
            env=env, check=False,
        )  # fmt: skip
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"failed: lacak {' '.join(args)}\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def _first_use(scratch: Path) -> dict[str, tuple[float, float]]:
    """``lacak boggle solve-many`` over 2,000 boards: cold caches, then warm."""
    source = scratch / "boards-2000.txt"
    code = "from lacak_boggle import shake\nprint('\\n'.join(str(shake('classic4', s)) for s in range(2000)))"
    source.write_text(_run(code, dict(os.environ)))
    out = {}
    for engine in ("numba", "auto"):
        cold = scratch / f"cold-{engine}"
        env = {
            **os.environ,
            "LACAK_CACHE_DIR": str(cold / "lacak"),
            "NUMBA_CACHE_DIR": str(cold / "numba"),
        }
        args = ["boggle", "solve-many", "--engine", engine]
        out[f"solve-many --engine {engine}, fresh caches"] = _cli(args, env, source)
        out[f"solve-many --engine {engine}, caches warm"] = _cli(args, env, source)
    return out


BATCH = """
import os, resource, sys, time
import lacak
from lacak.batch import dataset
def cpu():
    a = resource.getrusage(resource.RUSAGE_SELF)
    b = resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime
options = {{"scores_only": True}} if {scores_only} else {{}}
spec = dataset.spec("boggle", kind_options=options)
# a fresh process, as the command line: each worker loads the dictionary and the engine
wall, used = time.perf_counter(), cpu()
n = sum(1 for _ in dataset.records(spec, count={boards}, seed=1, workers={workers}))
wall, used = time.perf_counter() - wall, cpu() - used
print(n / wall, used / wall, os.getloadavg()[0])
"""

PEERS = """
import sys, time
sys.path.insert(0, {bench!r})
import lacak
from lacak_boggle import shake
import boggle as peers
words = lacak.dictionary("eng").words
boards = [shake("classic4", s) for s in range({boards})]
for name in ("bogglesolver 0.0.1", "pyggle 1.2.0", "boggled 1.0.0"):
    try:
        solve = peers.PEERS[name](words)
        solve(boards[0], 3)
        best = 1e9
        for _ in range({repeat}):
            c = time.process_time()
            for b in boards:
                solve(b, 3)
            best = min(best, time.process_time() - c)
        print(name, "|", best / len(boards) * 1e6)
    except Exception as error:
        print(name, "|", f"{{type(error).__name__}}: {{error}}")
"""


def _batch(trees: dict[str, dict[str, str]], boards: int, baseline: str | None) -> dict[str, Any]:
    """``lacak batch boggle`` through :func:`lacak.batch.dataset.records`: 1 and 2 workers."""
    print(f"\nlacak batch boggle, {boards:,} classic4 boards, eng (records/s; CPU the run got; "
          "load average)")  # fmt: skip
    out: dict[str, Any] = {}
    for tree, env in trees.items():
        for scores_only in (False, True):
            label = ("--scores-only" if scores_only else "words and paths") + (
                f" ({baseline})" if tree == "old" else ""
            )
            got = {}
            for workers in (1, 2):
                code = BATCH.format(scores_only=scores_only, boards=boards, workers=workers)
                rate, cpus, load = map(float, _run(code, env).split())
                got[workers] = (rate, cpus, load)
            bound = 2 * (got[2][0] / got[2][1]) / (got[1][0] / got[1][1])
            print(f"  {label:<40} 1 worker {got[1][0]:8,.0f}/s ({got[1][1]:.2f} CPU, load "
                  f"{got[1][2]:.1f})  2 workers {got[2][0]:8,.0f}/s ({got[2][1]:.2f} CPU, load "
                  f"{got[2][2]:.1f})  speed-up {got[2][0] / got[1][0]:.2f}x, CPU-bound "
                  f"{bound:.2f}x")  # fmt: skip
            out[label] = got
    return out


def _peers(boards: int, repeat: int) -> dict[str, Any]:
    python = ROOT / "bench" / ".venv" / "bin" / "python"
    if not python.exists():
        print("\nPython peers: bench/.venv is missing (bash bench/setup.sh)")
        return {}
    code = PEERS.format(bench=str(ROOT / "bench"), boards=boards, repeat=repeat)
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=False)
    print(f"\nPython peers, first {boards} boards, word sets only (us a board, best CPU; "
          "boards/s)")  # fmt: skip
    out: dict[str, Any] = {}
    for line in done.stdout.splitlines():
        name, _, value = line.partition(" | ")
        try:
            us = float(value)
        except ValueError:
            print(f"  {name:<46} {value}")
            continue
        print(f"  {name:<46} {us:9.1f} {1e6 / us:10,.0f}")
        out[name] = us
    if done.returncode:
        print(done.stderr[-2000:])
    return out


def _show(label: str, runs: list[tuple[float, float]], boards: int) -> dict[str, float]:
    cpu = [c for c, _ in runs]
    wall = [w for _, w in runs]
    row = {
        "cpu_min_us": min(cpu) / boards * 1e6,
        "cpu_median_us": statistics.median(cpu) / boards * 1e6,
        "wall_min_us": min(wall) / boards * 1e6,
        "wall_median_us": statistics.median(wall) / boards * 1e6,
    }
    row["boards_per_s_cpu"] = 1e6 / row["cpu_min_us"]
    print(
        f"{label:<46} {row['cpu_min_us']:7.2f} {row['cpu_median_us']:7.2f} "
        f"{row['wall_min_us']:7.2f} {row['wall_median_us']:7.2f} {row['boards_per_s_cpu']:10,.0f}"
    )
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--baseline", default=None, help="git revision to compare with")
    parser.add_argument("--skip-first-use", action="store_true")
    parser.add_argument("--batch-boards", type=int, default=20_000)
    parser.add_argument("--peer-boards", type=int, default=200)
    args = parser.parse_args()
    summary: dict[str, Any] = {"boards": args.boards, "load_start": os.getloadavg()}
    print(
        f"Boggle at machine speed: {args.boards:,} classic4 4x4 boards, eng, min length 3; "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start"
    )
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        trees = {"new": dict(os.environ)}
        if args.baseline:
            base = scratch / "baseline"
            base.mkdir()
            trees["old"] = baseline.export(args.baseline, base)
        anchor, agrees = (None, None)
        if shutil.which("g++"):
            anchor, agrees = _anchor(scratch, args.boards, args.repeat)
        # one interpreter per row and tree, its passes read as they come
        procs = {}
        for label, (where, extra, body) in ROWS.items():
            for tree in where:
                if tree not in trees:
                    continue
                if tree == "old" and "walk(" in body and "walk_boards" not in body:
                    continue
                code = TIMER.format(setup=SETUP.format(boards=args.boards), extra=extra,
                                    body="    " + body.replace("\n", "\n    "),
                                    repeat=args.repeat)  # fmt: skip
                name = label if tree == "new" else f"{label} ({args.baseline})"
                procs[name] = code
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in procs}
        # rows run one after the other (one core each), each its passes in a row
        for name, code in procs.items():
            env = trees["old" if name.endswith(f"({args.baseline})") else "new"]
            for line in _run(code, env).splitlines():
                cpu, wall = map(float, line.split())
                runs[name].append((cpu, wall))
        print(f"\n{'row (us a board; boards/s from the best CPU)':<46} {'CPU min':>7} {'median':>7} "
              f"{'wall min':>7} {'median':>7} {'boards/s':>10}")  # fmt: skip
        rows = {}
        if anchor:
            rows["C++ anchor (scores only)"] = _show(
                "C++ anchor (scores only)", anchor, args.boards
            )
        for name, got in runs.items():
            rows[name] = _show(name, got, args.boards)
        summary["rows"] = rows
        summary["anchor_agrees"] = agrees
        if agrees is not None:
            print(f"C++ anchor: same count and points as lacak on every board: {agrees}")
        breakdown = json.loads(_run(BREAKDOWN.format(setup=SETUP.format(boards=args.boards),
                                                     repeat=args.repeat), trees["new"]))  # fmt: skip
        whole = breakdown["whole solve_many + reading"]
        print("\nWhere the time goes in solve_many (best CPU time of each step, one process):")
        parts = {
            "parse: tiles to graph columns (Board objects given)": None,
            "walk: the compiled kernel (words, best path)": None,
            "results: a BoggleResult per board (collector off)": None,
            "garbage collector (results, collector on - off)": breakdown["results, collector on"]
            - breakdown["results: a BoggleResult per board (collector off)"],
            "records: an Outcome per board": None,
            "reading word_list and score": None,
        }
        for label, value in parts.items():
            seconds = breakdown[label] if value is None else value
            print(f"  {label:<56} {seconds / args.boards * 1e6:7.2f} us  {seconds / whole:6.1%}")
        print(f"  {'whole solve_many + reading':<56} {whole / args.boards * 1e6:7.2f} us")
        summary["breakdown_us"] = {k: v / args.boards * 1e6 for k, v in breakdown.items()}
        summary["batch"] = _batch(trees, args.batch_boards, args.baseline)
        summary["peers_us"] = _peers(args.peer_boards, min(args.repeat, 3))
        if not args.skip_first_use:
            print(
                "\nFirst use: lacak boggle solve-many, 2,000 boards, whole process (CPU / wall s)"
            )
            first = _first_use(scratch)
            for label, (cpu, wall) in first.items():
                print(f"  {label:<52} {cpu:6.2f} {wall:6.2f}")
            summary["first_use"] = first
    summary["load_end"] = os.getloadavg()
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

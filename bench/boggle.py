"""Boggle solving: lacak against the PyPI peers, on the same boards with the same words.

    bash bench/setup.sh && bench/.venv/bin/python bench/boggle.py [--repeat 3] [--quick]

Workload (from issue 5): 200 4x4 boards shaken from the 1987 dice
(``classic4``, seeds 0-199) and 50 5x5 Big Boggle boards (``big5``, seeds
0-49), solved with lacak's English list (``eng``, 77,092 words from SCOWL's
size-60 lists) at the official minimum lengths (3 and 4 letters). Every solver
gets exactly those words; ``QU`` tiles are given to each peer the way it
documents them (pyggle: a ``q`` tile in official mode; the others: ``qu``).

Columns:

- *load s*: building the solver's dictionary structure from the word list,
  in a fresh interpreter (best of ``--repeat``; imports not timed). For
  lacak that is ``lacak.dictionary("eng")`` plus the compiled word graph
  from the disk cache ("cached"), or both built from scratch ("cold").
- *boards/s*: whole workload, best of ``--repeat`` runs (the runs go round
  all solvers in turn), dictionary already loaded; measured as the CPU time
  of this process (the machine may be shared: its wall clock would mostly
  measure the neighbours), except for the rows using several processes or
  threads, which use the wall clock (the processes: a pool started
  beforehand). lacak's rows: ``solve_board`` one board per call with the
  compiled (numba, ``lacak[fast]``) and the Python walk; ``solve_many`` with
  each engine (numba, numpy, dfs), in one process and with a worker per
  core (threads for numba, whose walk releases the GIL; processes for numpy). pyggle's trie is built once and reused (its ``Boggle`` class would
  rebuild it per board); boggler builds its per-letter trees per board by
  design and is timed on the first ``--boggler-boards`` boards only.
- *x fastest peer*: boards/s over the fastest peer's boards/s.
- *agree*: boards whose word set equals the reference's, and the words
  missed / wrongly added over all boards. The reference is a plain
  depth-first walk with a Python set of prefixes, written here and sharing
  nothing with lacak's solver.

Then "where the time goes": lacak's single-board solve split into its
steps, nodes per board, and nanoseconds per node, and a profile of the numpy
engine, so an accelerated engine knows what to aim at.

A peer that is not installed, or fails, gets its error in the table.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import lacak
import numpy as np
from lacak_boggle import Board, compile_dictionary, shake, solve_board, solve_many
from lacak_boggle.engines import compiled_available

# -- the workload -------------------------------------------------------------------


def workload(n4: int, n5: int) -> dict[str, list[Board]]:
    return {
        "4x4": [shake("classic4", seed) for seed in range(n4)],
        "5x5": [shake("big5", seed) for seed in range(n5)],
    }


MIN_LENGTH = {"4x4": 3, "5x5": 4}


class Reference:
    """Plain DFS with a set of every prefix of every word (no trie, no lacak code)."""

    def __init__(self, words: Sequence[str]) -> None:
        self.words = set(words)
        self.prefixes = {w[:k] for w in words for k in range(1, len(w) + 1)}

    def solve(self, board: Board, min_length: int) -> set[str]:
        rows, cols = board.shape
        tiles = board.flat
        adjacent = [
            [
                rr * cols + cc
                for rr in range(r - 1, r + 2)
                for cc in range(c - 1, c + 2)
                if 0 <= rr < rows and 0 <= cc < cols and (rr, cc) != (r, c)
            ]
            for r in range(rows)
            for c in range(cols)
        ]
        found: set[str] = set()

        def visit(cell: int, text: str, used: frozenset[int]) -> None:
            text += tiles[cell]
            if text not in self.prefixes:
                return
            if len(text) >= min_length and text in self.words:
                found.add(text)
            for n in adjacent[cell]:
                if n not in used and tiles[n] != "#":
                    visit(n, text, used | {n})

        for start in range(rows * cols):
            if tiles[start] != "#":
                visit(start, "", frozenset([start]))
        return found


# -- the solvers ------------------------------------------------------------------------

Solver = Callable[[Board, int], set[str]]


def lacak_single(eng: lacak.Dictionary, engine: str) -> Solver:
    def solve(board: Board, min_length: int) -> set[str]:
        return set(solve_board(board, eng, min_length=min_length, engine=engine).word_list)

    return solve


def lacak_batch(
    eng: lacak.Dictionary, engine: str, workers: int | None, executor: Any = None
) -> Callable[..., Any]:
    def solve_all(boards: Sequence[Board], min_length: int) -> list[set[str]]:
        results = solve_many(
            boards, eng, min_length=min_length, engine=engine, workers=workers, executor=executor
        )
        return [set(r.unwrap().word_list) for r in results]

    return solve_all


def bogglesolver_solver(words: Sequence[str]) -> Solver:
    from bogglesolver.boggle_board import Boggle
    from bogglesolver.load_english_dictionary import Edict
    from bogglesolver.solve_boggle import SolveBoggle

    edict = Edict()
    for word in words:
        edict.add_word(word.lower())
    solver = SolveBoggle.__new__(SolveBoggle)  # skip loading its own word list
    solver.use_test_words = False
    solver.edict = edict
    solver.boggle = Boggle()

    def solve(board: Board, min_length: int) -> set[str]:
        solver.min_word_len = min_length
        solver.set_board(board.cols, board.rows, [t.lower() for t in board.flat])
        return {w.upper() for w in solver.solve()}

    return solve


def pyggle_solver(words: Sequence[str]) -> Solver:
    from pyggle import Boggle

    lower = [w.lower() for w in words]
    game = Boggle([["a"]], lower, official=True)  # builds the trie once

    def solve(board: Board, min_length: int) -> set[str]:
        game.board = [["q" if t == "QU" else t.lower() for t in row] for row in board.tiles]
        return {w.upper() for w in game.solve_trie() if len(w) >= min_length}

    return solve


def boggled_solver(words: Sequence[str]) -> Solver:
    from boggled import BoggleBoard, BoggleSolver, BoggleWords

    tries = {}
    for minimum in (3, 4):
        trie = BoggleWords(minLength=minimum)
        trie.iteratorPopulateTrie(words)
        tries[minimum] = trie

    def solve(board: Board, min_length: int) -> set[str]:
        solver = BoggleSolver(BoggleBoard(" ".join(board.flat)), tries[min_length])
        solver.solve()
        return set(solver.foundWords)

    return solve


def boggler_solver(words: Sequence[str]) -> Solver:
    from boggler.boggler_utils import BoggleBoard, build_boggle_tree

    by_letter: dict[str, list[str]] = {}
    for word in words:
        by_letter.setdefault(word[0].lower(), []).append(word.lower())

    def solve(board: Board, min_length: int) -> set[str]:
        rows = [[t.lower() for t in row] for row in board.tiles]
        grid = BoggleBoard(rows, max_word_len=board.rows * board.cols + 1)
        alphabet = sorted({cell.letters for cell in grid.board.values()})
        found = set()
        for cell in grid.board.values():  # what its process pool runs, in this process
            tree = build_boggle_tree([alphabet, grid, cell, by_letter.get(cell.letters[0], [])])
            found.update(w.upper() for w, _ in tree.word_paths if len(w) >= min_length)
        return found

    return solve


PEERS: dict[str, Callable[[Sequence[str]], Solver]] = {
    "bogglesolver 0.0.1": bogglesolver_solver,
    "pyggle 1.2.0": pyggle_solver,
    "boggled 1.0.0": boggled_solver,
    "boggler 2.0.4": boggler_solver,
}

# -- load times, each in a fresh interpreter ----------------------------------------------

LOADERS = {
    "lacak solve_board, Python (1 core)": (
        "import lacak\nfrom lacak_boggle import compile_dictionary",
        "g = compile_dictionary(lacak.dictionary('eng'))",
    ),
    "lacak (cold: no caches)": (
        "import lacak\nfrom lacak_boggle import compile_dictionary",
        "g = compile_dictionary(lacak.dictionary('eng'))",
    ),
    "bogglesolver 0.0.1": (
        "from bogglesolver.load_english_dictionary import Edict",
        "e = Edict()\nfor w in open(TXT):\n    e.add_word(w.strip().lower())",
    ),
    "pyggle 1.2.0": (
        "from pyggle.boggle import Trie",
        "t = Trie()\nfor w in open(TXT):\n    t.insert(w.strip().lower())",
    ),
    "boggled 1.0.0": (
        "from boggled import BoggleWords",
        "b = BoggleWords(minLength=3)\nb.iteratorPopulateTrie(w.strip() for w in open(TXT))",
    ),
    "boggler 2.0.4": (
        "from boggler.boggler_utils import WordTree, WordNode",
        "ws = open(TXT).read().lower().split()\n"
        "for a in 'abcdefghijklmnopqrstuvwxyz':\n"
        "    WordTree(list('abcdefghijklmnopqrstuvwxyz') + ['qu'], WordNode(a), "
        "[w for w in ws if w[0] == a])",
    ),
}

TIMER = """
import sys, time
TXT = sys.argv[1]
{imports}
t0 = time.perf_counter()
{body}
print(time.perf_counter() - t0)
"""


def load_time(label: str, text_file: str, repeat: int) -> float | str:
    imports, body = LOADERS[label]
    env = dict(os.environ)
    if "cold" in label:
        env["LACAK_CACHE_DIR"] = tempfile.mkdtemp(prefix="lacak-cold-")
    best: float | None = None
    for _ in range(repeat):
        if "cold" in label:
            env["LACAK_CACHE_DIR"] = tempfile.mkdtemp(prefix="lacak-cold-")
        done = subprocess.run(
            [sys.executable, "-c", TIMER.format(imports=imports, body=body), text_file],
            capture_output=True,
            text=True,
            env=env,
        )
        if done.returncode != 0:
            return (done.stderr.strip().splitlines() or ["failed"])[-1][:60]
        seconds = float(done.stdout.strip().splitlines()[-1])
        best = seconds if best is None else min(best, seconds)
    return best if best is not None else "no runs"


# -- running --------------------------------------------------------------------------------


def timed(function: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Best CPU time of ``repeat`` runs, and the last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        result = function()
        best = min(best, time.process_time() - start)
    return best, result


def compare(found: list[set[str]], expected: list[set[str]]) -> tuple[int, int, int, list[str]]:
    same = sum(a == b for a, b in zip(found, expected, strict=False))
    missing = sum(len(b - a) for a, b in zip(found, expected, strict=False))
    extra = sum(len(a - b) for a, b in zip(found, expected, strict=False))
    examples = sorted({w for a, b in zip(found, expected, strict=False) for w in b - a})[:4]
    return same, missing, extra, examples


def where_the_time_goes(eng: lacak.Dictionary, boards: Sequence[Board]) -> None:
    from lacak_boggle.results import assemble as _assemble
    from lacak_boggle.walk import tile_columns as _tile_columns
    from lacak_boggle.walk import walk_fast as _walk_fast

    graph = compile_dictionary(eng)
    count = len(boards)
    prepared = []

    def prepare() -> None:
        prepared.clear()
        for b in boards:
            steps = _tile_columns(b, graph, "eng")
            prepared.append([0 if s is None else s[0] for s in steps])

    walked: list[Any] = []

    def walk() -> None:
        walked.clear()
        for cols in prepared:
            walked.append(_walk_fast(graph, cols, (4, 4), 3))

    def assemble() -> None:
        for b, (found, expanded, generated, deepest) in zip(boards, walked, strict=True):
            stats = lacak.SearchStats(expanded=expanded, generated=generated, depth=deepest)
            _ = _assemble(b, "eng", graph, found, min_length=3, all_paths=False, stats=stats)
            _ = _.word_list

    t_prep, _ = timed(prepare, 5)
    t_walk, _ = timed(walk, 5)
    t_asm, _ = timed(assemble, 5)
    t_all, _ = timed(lambda: [solve_board(b, eng, engine="dfs").word_list for b in boards], 5)
    expanded = sum(w[1] for w in walked) / count
    generated = sum(w[2] for w in walked) / count
    words = sum(len(w[0]) for w in walked) / count
    print("\nWhere the time goes: lacak solve_board, Python walk, 4x4 boards, one core")
    print(
        f"  per board: {expanded:.0f} nodes expanded, {generated:.0f} generated, {words:.0f} words found"
    )
    rows = [
        ("tiles -> graph columns", t_prep),
        ("depth-first walk (walk_fast)", t_walk),
        ("result (sort, paths, best word, BoggleResult)", t_asm),
        ("whole solve_board call", t_all),
    ]
    for label, seconds in rows:
        print(f"  {label:<48} {seconds / count * 1e6:8.1f} us/board  {seconds / t_all:6.1%}")
    print(
        f"  walk: {t_walk / count / expanded * 1e9:.0f} ns per expanded node, "
        f"{t_walk / count / generated * 1e9:.0f} ns per generated node"
    )

    from lacak_boggle.batch.arrays import walk_arrays

    columns = np.array(prepared, dtype=np.int64)
    if compiled_available():
        from lacak_boggle import compiled

        rows = [columns[i : i + 1] for i in range(count)]
        t_kernel, _ = timed(lambda: [compiled.walk_boards(graph, r, (4, 4), 3) for r in rows], 5)
        t_one, _ = timed(lambda: [solve_board(b, eng, engine="numba").word_list for b in boards], 5)
        print("\nWhere the time goes: lacak solve_board, compiled walk, one board per call")
        for label, seconds in [
            ("compiled walk (numba call, arrays back)", t_kernel),
            ("the rest: board, columns, BoggleResult", t_one - t_kernel),
            ("whole solve_board call", t_one),
        ]:
            print(f"  {label:<48} {seconds / count * 1e6:8.1f} us/board  {seconds / t_one:6.1%}")

    engines = ["numba", "numpy"] if compiled_available() else ["numpy"]
    for engine in engines:
        found: list[Any] = []

        def arrays(engine: str = engine, found: list[Any] = found) -> None:
            found[:] = [walk_arrays(graph, columns, (4, 4), 3, engine)]

        def results(found: list[Any] = found) -> None:
            for r in found[0].results(graph, boards, "eng", 3, "bench", 0.0):
                _ = r.word_list

        def objects(found: list[Any] = found) -> None:
            for r in found[0].results(graph, boards, "eng", 3, "bench", 0.0):
                _ = r.words

        t_arrays, _ = timed(arrays, 5)
        t_results, _ = timed(results, 5)
        t_objects, _ = timed(objects, 5)
        t_many, _ = timed(lambda e=engine: solve_many(boards, eng, engine=e), 5)
        print(f"\nWhere the time goes: solve_many {engine} engine, same boards, one process")
        for label, seconds in [
            (f"{engine} walk: words and smallest paths as arrays", t_arrays),
            ("BoggleResult per board (word lists, best word)", t_results),
            ("  ... and every word's FoundWord with its path", t_objects),
            ("whole solve_many call (parse, columns, walk, results)", t_many),
        ]:
            print(f"  {label:<56} {seconds / count * 1e6:8.1f} us/board  {seconds / t_many:6.1%}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards4", type=int, default=200)
    parser.add_argument("--boards5", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs")
    parser.add_argument("--boggler-boards", type=int, default=5)
    parser.add_argument("--batch-boards", type=int, default=2000, help="the large batch")
    parser.add_argument("--quick", action="store_true", help="fewer boards, one run")
    parser.add_argument("--no-profile", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.boards4, args.boards5, args.repeat, args.batch_boards = 40, 10, 2, 400

    eng = lacak.dictionary("eng")
    words = list(eng.words)
    compile_dictionary(eng)
    sets = workload(args.boards4, args.boards5)
    reference = Reference(words)
    expected = {
        size: [reference.solve(b, MIN_LENGTH[size]) for b in boards]
        for size, boards in sets.items()
    }
    cores = os.cpu_count() or 1
    print(
        f"Boggle: {args.boards4} 4x4 boards (classic4 dice) and {args.boards5} 5x5 (big5 dice), "
        f"{len(words):,} English words; best of {args.repeat}; {cores} cores, load average "
        f"{os.getloadavg()[0]:.1f} at the start; Python {sys.version.split()[0]}"
    )
    print(
        "reference words per board: "
        + ", ".join(
            f"{size} {sum(map(len, e)) / max(1, len(e)):.0f}" for size, e in expected.items()
        )
    )

    # Every (solver, board set) is a task; the repeats go round all tasks in
    # turn, so a burst of load on the machine hits every solver alike.
    tasks: list[tuple[str, str, Callable[[], Any], int]] = []
    errors: dict[tuple[str, str], str] = {}
    labels: list[str] = []

    def add_single(label: str, solver: Solver, limit: int | None = None) -> None:
        labels.append(label)
        for size, boards in sets.items():
            chosen = list(boards[:limit] if limit else boards)
            m = MIN_LENGTH[size]
            try:
                solver(chosen[0], m)  # warm up, and fail early
            except Exception as error:
                errors[(label, size)] = f"{type(error).__name__}: {error}"[:60]
                continue
            tasks.append(
                (label, size, lambda s=solver, c=chosen, m=m: [s(b, m) for b in c], len(chosen))
            )

    def add_batch(
        label: str,
        solve_all: Callable[..., Any],
        boards_by_size: dict[str, list[Board]] | None = None,
    ) -> None:
        labels.append(label)
        for size, boards in (boards_by_size or sets).items():
            m = MIN_LENGTH[size]
            solve_all(boards[:4], m)
            tasks.append((label, size, lambda f=solve_all, b=boards, m=m: f(b, m), len(boards)))

    engines = ["numba", "numpy"] if compiled_available() else ["numpy"]
    pool = concurrent.futures.ProcessPoolExecutor(cores)
    for engine in engines:  # start the workers, and load the compiled walk in each
        solve_many(sets["4x4"][:300], eng, executor=pool, engine=engine)
    if compiled_available():
        add_single("lacak solve_board, numba (1 core)", lacak_single(eng, "numba"))
    add_single("lacak solve_board, Python (1 core)", lacak_single(eng, "dfs"))
    for engine in engines:
        add_batch(f"lacak solve_many {engine} (1 proc)", lacak_batch(eng, engine, 1))
    add_batch("lacak solve_many dfs (1 proc)", lacak_batch(eng, "dfs", 1))

    # several workers: threads for the compiled walk (it releases the GIL; what
    # workers=N picks), the process pool for numpy
    def parallel(engine: str) -> tuple[str, Callable[..., Any]]:
        if engine == "numba":
            return f"{cores} threads", lacak_batch(eng, engine, cores)
        return f"{cores} procs", lacak_batch(eng, engine, cores, pool)

    for engine in engines:
        how, solve_all = parallel(engine)
        add_batch(f"lacak solve_many {engine} ({how})", solve_all)
    many = {"4x4": [shake("classic4", seed) for seed in range(args.batch_boards)]}
    for engine in engines:
        add_batch(
            f"lacak {engine}, {args.batch_boards} boards, 1 proc",
            lacak_batch(eng, engine, 1),
            many,
        )
        how, solve_all = parallel(engine)
        add_batch(f"lacak {engine}, {args.batch_boards} boards, {how}", solve_all, many)
    for label, make in PEERS.items():
        try:
            solver = make(words)
        except Exception as error:
            labels.append(label)
            errors[(label, "4x4")] = f"{type(error).__name__}: {error}"[:60]
            continue
        limit = args.boggler_boards if label.startswith("boggler") else None
        add_single(label, solver, limit)

    best: dict[tuple[str, str], float] = {}
    found: dict[tuple[str, str], Any] = {}
    for _ in range(args.repeat):
        for label, size, run, _n in tasks:
            # one process: its CPU time; several: the wall clock
            clock = (
                time.perf_counter if "procs" in label or "threads" in label else time.process_time
            )
            start = clock()
            try:
                result = run()
            except Exception as error:
                errors[(label, size)] = f"{type(error).__name__}: {error}"[:60]
                continue
            elapsed = clock() - start
            if elapsed < best.get((label, size), float("inf")):
                best[(label, size)] = elapsed
                found[(label, size)] = result
    pool.shutdown()

    rows: list[dict[str, Any]] = []
    expected_many: dict[str, list[set[str]]] = {}
    for label in labels:
        row: dict[str, Any] = {"label": label}
        for label_, size, _run, n in tasks:
            if label_ != label or (label, size) not in best:
                continue
            reference_sets = (expected.get(size) or [])[:n]
            if len(reference_sets) < n:  # the big batch
                if size not in expected_many:
                    expected_many[size] = [reference.solve(b, MIN_LENGTH[size]) for b in many[size]]
                reference_sets = expected_many[size]
            agreement = compare(found[(label, size)], reference_sets)
            row[size] = (n / best[(label, size)], agreement, n)
        for (label_, size), message in errors.items():
            if label_ == label:
                row[size] = message
        rows.append(row)

    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write("\n".join(w.lower() for w in words) + "\n")
        text_file = handle.name
    loads = {label: load_time(label, text_file, args.repeat) for label in LOADERS}
    Path(text_file).unlink()

    fastest = {
        size: max(
            (
                r[size][0]
                for r in rows
                if not r["label"].startswith("lacak") and isinstance(r.get(size), tuple)
            ),
            default=None,
        )
        for size in sets
    }
    header = (
        f"{'solver':<36} {'load s':>7} {'4x4 b/s':>9} {'x peer':>7} {'5x5 b/s':>9} {'x peer':>7}"
        f"  {'agree 4x4 (missed/extra)':<26} {'agree 5x5 (missed/extra)':<26}"
    )
    print()
    print(header)
    print("-" * len(header))
    for row in rows:
        load = loads.get(row["label"])
        load_text = (
            f"{load:7.3f}" if isinstance(load, float) else f"{'-' if load is None else 'error':>7}"
        )
        cells = [f"{row['label']:<36}", load_text]
        agreements = []
        for size in sets:
            value = row.get(size)
            if isinstance(value, tuple):
                rate, (same, missing, extra, _examples), n = value
                ratio = rate / fastest[size] if fastest[size] else float("nan")
                cells += [f"{rate:9.1f}", f"{ratio:7.2f}"]
                agreements.append(f"{same}/{n} ({missing}/{extra})")
            elif value is None:
                cells += [f"{'-':>9}", f"{'':>7}"]
                agreements.append("")
            else:
                cells += [f"{'error':>9}", f"{'':>7}"]
                agreements.append(str(value)[:26])
        print(" ".join(cells) + "  " + "  ".join(f"{a:<26}" for a in agreements))
    print(
        "boards/s: CPU time of this process for one-process rows (the machine is shared, so "
        "its wall clock mostly measures the neighbours); wall clock for the rows with "
        f"{cores} procs (a pool started beforehand, kept across calls) or {cores} threads."
    )
    lacak_cold = loads.get("lacak (cold: no caches)")
    if isinstance(lacak_cold, float):
        print(f"{'lacak (cold: no caches)':<36} {lacak_cold:7.3f}")
    print()
    for row in rows:
        for size in sets:
            value = row.get(size)
            if isinstance(value, tuple) and value[1][3]:
                print(f"  {row['label']} {size} misses e.g. {', '.join(value[1][3])}")
            elif isinstance(value, str):
                print(f"  {row['label']} {size}: {value}")
    if not args.no_profile:
        where_the_time_goes(eng, sets["4x4"])


if __name__ == "__main__":
    main()

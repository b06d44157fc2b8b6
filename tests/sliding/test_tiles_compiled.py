"""The compiled ``idastar-tiles`` engine: the same answers, paths and node counts as Python."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lacak
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from lacak import Limits, StopReason
from lacak.testing import replay
from lacak.testing import strategies as lst
from lacak.testing.strategies import CacheDamage
from lacak_sliding.generators import random_board, random_walk
from lacak_sliding.puzzle import SlidingPuzzle
from lacak_sliding.tiles.idastar import engines as tiles_engines

pytest.importorskip("numba")

#: ``(rows, cols)`` -> heuristics to try there (all run by the compiled engine).
SPECS = {
    (3, 3): [
        "manhattan",
        "misplaced",
        "weighted:2,1",
        "pdb",
        "pdb:1,2,3,4/5,6,7,8;reflect",
        "pdb:1,2,3/4,5,6,7,8;noreflect",
    ],
    (2, 4): ["manhattan", "pdb", "pdb:1,2,3/4,5,6,7"],
    (3, 4): ["manhattan", "pdb", "pdb:1,2,3/4,5,6/7,8,9,10,11"],
    (4, 4): ["manhattan", "pdb-555", "pdb-555:noreflect"],
    (5, 5): ["manhattan", "pdb:1,2,3/5,6,7;reflect"],
}


@pytest.fixture(scope="module", autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Databases and markers made by these tests go to a temporary cache, never the user's."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LACAK_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "lacak-cache"))
        assert tiles_engines.warm()
        yield


def solve(puzzle: Any, spec: str, engine: str, **kwargs: Any) -> lacak.SearchResult:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(tiles_engines.ENGINE_VARIABLE, engine)
        return lacak.solve(puzzle, "idastar-tiles", heuristic=spec, **kwargs)


def same(a: lacak.SearchResult, b: lacak.SearchResult) -> None:
    assert (a.found, a.stopped, a.actions, a.length) == (b.found, b.stopped, b.actions, b.length)
    assert (a.stats.expanded, a.stats.generated, a.stats.iterations, a.stats.depth) == (
        b.stats.expanded,
        b.stats.generated,
        b.stats.iterations,
        b.stats.depth,
    )


@st.composite
def cases(draw: st.DrawFn) -> tuple[SlidingPuzzle, str]:
    """A board and a heuristic: uniformly random boards up to 3x3 and 2x4, boards a random
    walk from the goal beyond (random 15-puzzles take minutes in Python)."""
    shape = draw(st.sampled_from(sorted(SPECS)))
    spec = draw(st.sampled_from(SPECS[shape]))
    seed = draw(lst.seeds())
    if shape in ((3, 3), (2, 4)):
        return random_board(shape, seed), spec
    moves = draw(st.integers(0, {(3, 4): 40, (4, 4): 40, (5, 5): 30}[shape]))
    return random_walk(shape, seed, moves=moves), spec


def test_kernel_runs_here() -> None:
    assert tiles_engines.ENGINE.load() is not None
    assert tiles_engines.ENGINE.failure() is None


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases())
@example(case=(random_board((3, 3), 0), "pdb:1,2,3,4/5,6,7,8;reflect"))
def test_same_answers_paths_and_counts(case: tuple[SlidingPuzzle, str]) -> None:
    puzzle, spec = case
    a = solve(puzzle, spec, "numba")
    b = solve(puzzle, spec, "python")
    same(a, b)
    assert a.found
    replay(puzzle, a)


@settings(max_examples=60, deadline=None)
@given(case=cases(), budget=st.integers(0, 5000))
def test_node_limit_stops_at_the_same_node(case: tuple[SlidingPuzzle, str], budget: int) -> None:
    puzzle, spec = case
    a = solve(puzzle, spec, "numba", limits=Limits(max_expanded=budget))
    b = solve(puzzle, spec, "python", limits=Limits(max_expanded=budget))
    same(a, b)
    assert a.stats.expanded <= budget
    if not a.found:
        assert a.stopped is StopReason.NODES and a.stats.expanded == budget


@settings(max_examples=30, deadline=None)
@given(seed=lst.seeds(), depth=st.integers(0, 30))
def test_depth_limit_stops_at_the_same_bound(seed: int, depth: int) -> None:
    puzzle = random_board((3, 3), seed)
    a = solve(puzzle, "manhattan", "numba", limits=Limits(max_depth=depth))
    b = solve(puzzle, "manhattan", "python", limits=Limits(max_depth=depth))
    same(a, b)


@pytest.mark.parametrize(
    ("size", "spec"),
    [
        ((3, 3), "pdb:1,2,3/4,5,6,7,8;reflect"),
        ((3, 3), "pdb:2,4,6/1,3;noreflect"),
        ((4, 4), "pdb-555"),
        ((3, 4), "pdb"),
        ((5, 5), "pdb:1,2,3/5,6,7;reflect"),
    ],
)
def test_rank_indexed_tables(size: tuple[int, int], spec: str, ranked_only: None) -> None:
    """Ranks change through the tiles a move between rows passes, on the mirrored board too."""
    heuristic = lacak.default_registry().heuristic("sliding", spec)
    for seed in range(6):
        puzzle = random_walk(size, seed, moves=36)
        assert not heuristic.for_puzzle(puzzle).sparse
        a = solve(puzzle, spec, "numba")
        same(a, solve(puzzle, spec, "python"))
        replay(puzzle, a)


HARD = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"  # Korf's 1, 57 moves; minutes with Manhattan


def test_time_limit() -> None:
    """The compiled search looks at the clock between slices of nodes and stops at the
    limit: counted on a clock that moves 10 ms a look, not timed."""
    puzzle = SlidingPuzzle.from_string(HARD, goal=" ".join(map(str, range(16))))
    looks = itertools.count()
    with lacak.limits.use_clock(lambda: next(looks) / 100):
        result = solve(puzzle, "manhattan", "numba", limits=Limits(seconds=0.5))
    assert not result.found and result.stopped is StopReason.TIME
    assert result.stats.expanded > 0
    assert next(looks) < 80  # the limit is 50 looks: a few past it, not minutes of search


def test_progress_past_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    class Task:
        def update(self, *, description: str | None = None, **_: Any) -> None:
            seen.append(description or "")

        def advance(self, amount: float = 1) -> None:
            pass

    class Reporter:
        def start(self, description: str, total: float | None) -> Task:
            return Task()

        def stop(self, task: Task) -> None:
            pass

        def announce(self, message: str) -> None:
            pass

    monkeypatch.setattr(lacak.Budget, "SHOW_AFTER", 0.0)
    puzzle = SlidingPuzzle.from_string(HARD, goal=" ".join(map(str, range(16))))
    with lacak.progress.reporting(Reporter()):
        solve(puzzle, "manhattan", "numba", limits=Limits(seconds=0.6))
    assert any("nodes expanded" in line for line in seen)


def test_auto_moves_to_the_compiled_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """``auto`` hands the search over between iterations; the counts are Python's."""
    runs: list[float] = []
    original = tiles_engines._Compiled.iterate

    def counted(self: Any, bound: float, tally: Any) -> Any:
        runs.append(bound)
        return original(self, bound, tally)

    monkeypatch.setattr(tiles_engines._Compiled, "iterate", counted)
    puzzle = random_walk((4, 4), 3, moves=60)
    a = solve(puzzle, "manhattan", "auto")
    assert runs  # loaded in this process: used from the first iteration
    same(a, solve(puzzle, "manhattan", "python"))


def test_auto_waits_before_loading(monkeypatch: pytest.MonkeyPatch) -> None:
    # (the database is built with numpy: the compiled builder is a CompiledEngine too)
    monkeypatch.setenv("LACAK_PDB_ENGINE", "numpy")
    engine = lacak.store.compiled.CompiledEngine
    monkeypatch.setattr(engine, "loaded", lambda self: False)
    monkeypatch.setattr(engine, "ready", lambda self: False)
    monkeypatch.setattr(engine, "load", lambda self, **_: pytest.fail("compiled too soon"))
    puzzle = random_board((3, 3), 7)
    solve(puzzle, "pdb", "auto")  # a few milliseconds: far below COMPILE_AFTER


def test_python_engine_when_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tiles_engines, "_Compiled", None)  # any use would fail
    result = solve(random_board((3, 3), 1), "manhattan", "python")
    assert result.found


def test_linear_conflict_stays_in_python() -> None:
    puzzle = random_walk((4, 4), 5, moves=30)
    same(solve(puzzle, "linear-conflict", "numba"), solve(puzzle, "linear-conflict", "python"))


def test_unknown_engine_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(tiles_engines.ENGINE_VARIABLE, "fortran")
    for heuristic in ("manhattan", "linear-conflict"):
        with pytest.raises(lacak.InvalidOptionError, match="LACAK_TILES_ENGINE='fortran'"):
            lacak.solve(random_board((3, 3), 1), "idastar-tiles", heuristic=heuristic)
    from lacak.cli import make_cli

    out = CliRunner().invoke(
        make_cli(), ["sliding", "solve", "8 6 7 / 2 5 4 / 3 0 1", "--strategy", "idastar-tiles"]
    )
    assert out.exit_code != 0
    assert "LACAK_TILES_ENGINE" in out.output
    assert "Traceback" not in out.output


def test_numba_asked_where_it_cannot_run(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = lacak.store.compiled.CompiledEngine(
        name="nothing", module="lacak_sliding.no_such_kernel", title="the missing engine"
    )
    monkeypatch.setattr(tiles_engines, "ENGINE", broken)
    monkeypatch.setenv(tiles_engines.ENGINE_VARIABLE, "numba")
    with pytest.raises(lacak.InvalidOptionError, match="the missing engine, which cannot run"):
        lacak.solve(random_board((3, 3), 1), "idastar-tiles", heuristic="manhattan")
    # auto carries on in Python
    monkeypatch.setenv(tiles_engines.ENGINE_VARIABLE, "auto")
    assert lacak.solve(random_board((3, 3), 1), "idastar-tiles", heuristic="manhattan").found


def test_first_compile_is_announced_once_per_machine(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    said: list[str] = []

    class Reporter:
        def start(self, description: str, total: float | None) -> Any:
            said.append(description)
            return lacak.progress._QUIET

        def stop(self, task: Any) -> None:
            pass

        def announce(self, message: str) -> None:
            said.append(message)

    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path))

    def fresh() -> lacak.store.compiled.CompiledEngine:
        return lacak.store.compiled.CompiledEngine(
            name="sliding-tiles", module="lacak_sliding.tiles.idastar.compiled", title="the engine"
        )

    first = fresh()
    assert not first.ready()
    with lacak.progress.reporting(Reporter()):
        assert first.load() is not None, first.failure()
    assert any("compiling the engine once for this machine" in s for s in said)
    said.clear()
    second = fresh()  # another process, as far as lacak knows
    assert second.ready()
    with lacak.progress.reporting(Reporter()):
        assert second.load() is not None
    assert said == []


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases(), budget=st.none() | st.integers(0, 40_000))
def test_hand_over_in_the_middle_of_an_iteration(
    case: tuple[SlidingPuzzle, str], budget: int | None
) -> None:
    """``auto`` hands a running generated search over at a checkpoint; the compiled engine
    goes on from that very node, so nothing differs from Python."""
    hand_over(*case, budget)


def hand_over(puzzle: SlidingPuzzle, spec: str, budget: int | None) -> list[int]:
    """Solve with a hand-over at the first checkpoint (every 64 nodes), check that the
    result is Python's, and return the lengths of the paths handed over."""
    engine = lacak.store.compiled.CompiledEngine
    handed: list[int] = []
    original = tiles_engines.take_over

    def take_over(*args: Any) -> Any:
        handed.append(len(args[3]))
        return original(*args)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(engine, "loaded", lambda self: False)
        mp.setattr(engine, "ready", lambda self: True)
        mp.setattr(tiles_engines, "LOAD_AFTER", 0.0)
        mp.setattr(tiles_engines, "take_over", take_over)
        mp.setattr("lacak_sliding.tiles.idastar.generated.CHECK_EVERY", 64)
        a = solve(puzzle, spec, "auto", limits=Limits(max_expanded=budget))
    b = solve(puzzle, spec, "python", limits=Limits(max_expanded=budget))
    same(a, b)
    return handed


def test_hand_over_happens() -> None:
    for spec in ("manhattan", "pdb-555", "pdb-555:noreflect"):
        puzzle = random_walk((4, 4), 3, moves=60)
        assert hand_over(puzzle, spec, None)
        assert hand_over(puzzle, spec, 5000)


@pytest.mark.parametrize("spec", ["weighted:0.5,0.5", "weighted:1.5,1"])
def test_tables_the_kernel_cannot_read_stay_in_python(
    spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tiles_engines, "_Compiled", None)  # any use would fail
    puzzle = random_board((3, 3), 4)
    same(solve(puzzle, spec, "numba"), solve(puzzle, spec, "python"))


def test_huge_table_values_stay_in_python() -> None:
    from lacak_sliding.tiles.idastar import AdditiveModel

    assert tiles_engines._compilable(AdditiveModel([[0, 1 << 40]], [0, 0], [0, 1]))
    assert not tiles_engines._compilable(AdditiveModel([[0, 1 << 70]], [0, 0], [0, 1]))
    assert not tiles_engines._compilable(AdditiveModel([[0.0, 1.5]], [0, 0], [0, 1]))


def test_the_kernel_returns_in_slices_untimed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Even without a time limit, Python gets control back now and then (Ctrl-C)."""
    from lacak_sliding.tiles.idastar import compiled as tiles_compiled

    calls: list[int] = []
    original = tiles_compiled.iterate

    def counted(*args: Any) -> Any:
        calls.append(1)
        return original(*args)

    monkeypatch.setattr(tiles_compiled, "iterate", counted)
    monkeypatch.setattr(tiles_engines, "SLICE", 1000)
    puzzle = random_walk((4, 4), 3, moves=60)
    a = solve(puzzle, "manhattan", "numba")
    assert len(calls) > a.stats.expanded // 1000 - a.stats.iterations
    same(a, solve(puzzle, "manhattan", "python"))


@pytest.mark.parametrize("size", [(17, 17), (32, 32), (2, 300)])
def test_boards_past_256_cells(size: tuple[int, int]) -> None:
    for seed in range(3):
        puzzle = random_walk(size, seed, moves=24)
        a = solve(puzzle, "manhattan", "numba")
        same(a, solve(puzzle, "manhattan", "python"))
        replay(puzzle, a)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases())
def test_the_stack_grows_when_full(case: tuple[SlidingPuzzle, str]) -> None:
    """The kernel's stack starts small and doubles; nothing else changes."""
    puzzle, spec = case
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(tiles_engines, "STACK", 1)
        a = solve(puzzle, spec, "numba")
    same(a, solve(puzzle, spec, "python"))


def test_huge_weights_need_no_huge_stack() -> None:
    """A bound in heuristic units (weights of a million) is not a depth: the stack starts
    small (it was sized by the bound, tens of millions of levels)."""
    spec = "weighted:w1=1000000,w2=1000000"
    for seed in range(3):
        puzzle = random_walk((6, 6), seed, moves=30)
        limits = Limits(max_expanded=20_000)
        python = solve(puzzle, spec, "python", limits=limits)
        tracemalloc.start()  # numpy's arrays are traced
        try:
            same(solve(puzzle, spec, "numba", limits=limits), python)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 50_000_000


# -- damaged machine code (issue 23, item 7) ---------------------------------------------------


def machine_code(folder: Path) -> list[Path]:
    """Every file of compiled code under ``folder``: lacak's (``engines/<module>/``) or
    numba's own (``*.nbi``, ``*.nbc``), wherever either put them."""
    numba_s = [path for path in folder.rglob("*.nb[ic]") if path.is_file()]
    lacak_s = [path for path in folder.rglob("engines/lacak_*/*") if path.is_file()]
    return sorted(numba_s + lacak_s)


@pytest.mark.slow
def test_damaged_machine_code_is_never_run(tmp_path: Path) -> None:
    """One flipped bit in the cached machine code of the compiled engine used to end
    ``lacak sliding solve`` with a segmentation fault, an illegal instruction or a raw
    ``LLVM bitcode parsing error``. Bits flipped in each file (seeded: one in its first 64
    bytes, one anywhere) never reach numba: the same answer, exit 0, one warning line.
    The machine code lives in lacak's cache folder whatever ``NUMBA_CACHE_DIR`` says."""
    env = {**os.environ, "LACAK_CACHE_DIR": str(tmp_path / "cache"),
           "NUMBA_CACHE_DIR": str(tmp_path / "numba"), tiles_engines.ENGINE_VARIABLE: "numba"}
    board = " ".join(map(str, random_board((3, 3), 4).initial))
    command = [sys.executable, "-m", "lacak", "sliding", "solve", board, "--strategy",
               "idastar-tiles", "--heuristic", "manhattan", "--json"]  # fmt: skip

    def run() -> tuple[int, Any, str]:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600,
                              check=False)  # fmt: skip
        answer = json.loads(done.stdout) if done.returncode == 0 else None
        if answer is not None:
            answer = {k: v for k, v in answer.items() if k != "stats"}
        return done.returncode, answer, done.stderr

    code, want, stderr = run()
    assert code == 0 and stderr == "", stderr
    files = machine_code(tmp_path)
    assert files
    good = {path: path.read_bytes() for path in files}
    rng = random.Random(23)
    for path in files:
        for position in (rng.randrange(64 * 8), rng.randrange(8 * len(good[path]))):
            for other, data in good.items():
                other.write_bytes(data)
            CacheDamage("flip", (position,)).apply(path)
            code, got, stderr = run()
            assert (code, got) == (0, want), (path.name, position, code, stderr)
            assert stderr.startswith("warning: ") and stderr.count("\n") == 1, stderr
            assert path.name in stderr, stderr
    assert all((tmp_path / "cache" / "engines") in path.parents for path in files)


def test_forced_numba_starts_no_compile_the_time_limit_cannot_cover(tmp_path: Path) -> None:
    """Issue 23, item 13: ``LACAK_TILES_ENGINE=numba ... --timeout 2`` on a machine
    without the machine code compiled it first (5.7 s). No compile starts now (none is
    written, none is in memory: counted by the files, not timed): the search runs in
    Python to its time limit, after one warning."""
    env = {**os.environ, "LACAK_CACHE_DIR": str(tmp_path / "cache"),
           "NUMBA_CACHE_DIR": str(tmp_path / "numba"), tiles_engines.ENGINE_VARIABLE: "numba"}
    command = [sys.executable, "-m", "lacak", "sliding", "solve", HARD, "--goal",
               " ".join(map(str, range(16))), "--strategy", "idastar-tiles", "--heuristic",
               "manhattan", "--timeout", "2", "--json"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120,
                          check=False)  # fmt: skip
    assert "Traceback" not in done.stderr
    result = json.loads(done.stdout)
    assert not result["found"] and result["stopped"] == "time-limit"
    warning = done.stderr.splitlines()[0]
    assert warning.startswith("warning: LACAK_TILES_ENGINE=numba: the sliding-tiles engine is "
                              "not compiled on this machine yet")  # fmt: skip
    assert "this run uses the Python engine" in warning and done.stderr.count("warning:") == 1
    assert machine_code(tmp_path) == []


#: Loads the engine from one cache folder, then asks a fresh engine for it in another.
_TWO_FOLDERS = """
import os, sys
import lacak.store.compiled

def fresh():
    return lacak.store.compiled.CompiledEngine(
        name="sliding-tiles", module="lacak_sliding.tiles.idastar.compiled", title="the engine"
    ).part_of("wide")  # (the part the 8-puzzle's Manhattan distance runs on)

os.environ["LACAK_CACHE_DIR"] = sys.argv[1]
assert fresh().load(compile=False) is not None, "the first folder is not ready"
os.environ["LACAK_CACHE_DIR"] = sys.argv[2]
engine = fresh()
assert engine.load() is not None, engine.failure()
assert engine.ready()
"""


def test_machine_code_loaded_from_one_cache_folder_is_kept_in_another(tmp_path: Path) -> None:
    """numba cannot serialise a kernel it loaded from machine code (it hands the object
    code to LLVM), so a process that loaded the engine from one cache folder and is then
    asked for it under another (as the test suite's processes are) keeps the bytes it
    loaded there, rather than failing to load it at all."""
    first, second = tmp_path / "first", tmp_path / "second"
    env = {**os.environ, "LACAK_CACHE_DIR": str(first), "LACAK_TILES_ENGINE": "numba"}
    subprocess.run([sys.executable, "-m", "lacak", "sliding", "solve", "123450786"],
                   env=env, check=True, capture_output=True, timeout=600)  # fmt: skip
    done = subprocess.run([sys.executable, "-c", _TWO_FOLDERS, str(first), str(second)],
                          env=env, capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert list((second / "engines").rglob("*")), "nothing kept in the second folder"

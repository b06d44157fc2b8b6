"""Every path is bounded (issue 10): limits cover set-up, memory grows with use, no recursion.

The worst inputs run as subprocesses under an address-space limit, so that a
regression fails the test instead of hanging or exhausting the machine.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar
from unittest import mock

import attrs
import lacak
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak import Limits, StopReason
from lacak.testing import replay
from lacak.testing import strategies as lst
from lacak_sliding.generators import random_board
from lacak_sliding.tiles import idastar as tiles_idastar
from lacak_sliding.tiles.idastar import generated, linear

#: Slack on top of --timeout for a command: a 2-core machine at load 10 gives the
#: process a fifth of a core, so its second of start-up takes several.
SLACK = 30.0

#: Address space a subprocess may use: enough for lacak, far from what the bad
#: inputs used to ask for.
MEMORY = 2_500_000_000

HUGE_WEIGHTS = "weighted:w1=1000000,w2=1000000"


@pytest.fixture(autouse=True, scope="module")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    old = os.environ.get("LACAK_CACHE_DIR")
    os.environ["LACAK_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if old is None:
        del os.environ["LACAK_CACHE_DIR"]
    else:
        os.environ["LACAK_CACHE_DIR"] = old


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


@contextlib.contextmanager
def memory_cap(extra: int = 1_500_000_000) -> Iterator[None]:
    """Within the block this process may map only ``extra`` more bytes: a regression that
    sizes memory from an estimate fails with a MemoryError instead of exhausting the machine."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/status") as status:
        kb = next(int(line.split()[1]) for line in status if line.startswith("VmSize:"))
    cap = kb * 1024 + extra
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def run_limited(args: list[str], timeout: float) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run ``python -m lacak ARGS`` under :data:`MEMORY`; the result and its wall-clock seconds."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "lacak", *args],
        capture_output=True,
        text=True,
        timeout=timeout + SLACK + 30,  # a hang fails here rather than holding the suite
        preexec_fn=_limit_memory,
        env=os.environ.copy(),
    )
    return done, time.perf_counter() - started


def board_text(size: tuple[int, int], seed: int) -> str:
    puzzle = random_board(size, seed)
    return puzzle.format_state(puzzle.initial)


# A board of 2 rows of 512 tiles (2x512): its Manhattan distance is about 170,000, so
# buckets sized from the first estimate were 43 million lists (a MemoryError after 13 s
# under 2.5 GB), and the recursive IDA* raised the recursion limit to 170,000.
WIDE = (2, 512)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("size", "strategy", "heuristic"),
    [
        (WIDE, "astar-tiles", "manhattan"),
        ((32, 32), "astar-tiles", HUGE_WEIGHTS),
        ((32, 32), "astar-tiles", "linear-conflict"),
        (WIDE, "idastar-tiles", "manhattan"),
        ((32, 32), "idastar-tiles", HUGE_WEIGHTS),
        ((32, 32), "idastar-tiles", "linear-conflict"),
    ],
)
def test_timeout_ends_the_command_on_the_worst_boards(
    size: tuple[int, int], strategy: str, heuristic: str
) -> None:
    timeout = 1.0
    args = ["sliding", "solve", board_text(size, 1), "--size", f"{size[0]}x{size[1]}"]
    args += ["-s", strategy, "-H", heuristic, "--timeout", str(timeout), "--json"]
    done, seconds = run_limited(args, timeout)
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["found"] is False and report["stopped"] == "time-limit"
    assert seconds < timeout + SLACK
    # the search's own clock starts with the command, before the tables are built
    assert report["stats"]["seconds"] < timeout + SLACK / 3


@pytest.mark.slow
def test_huge_weights_stop_at_the_node_limit_with_little_memory() -> None:
    """Buckets grow with use: 20,000 nodes with weights of a million fit in a small budget."""
    args = ["sliding", "solve", board_text((10, 10), 3), "-s", "astar-tiles", "-H", HUGE_WEIGHTS]
    args += ["--max-nodes", "20000", "--json"]
    done, seconds = run_limited(args, 10)
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["stopped"] == "node-limit" and report["stats"]["expanded"] == 20000
    assert seconds < 10 + SLACK


def test_pdb_78_without_enough_memory_says_what_was_too_big(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The numpy builder needs 6.2 GB for 7-8's 8-tile group: under 2.5 GB, one clear line."""
    monkeypatch.setenv("LACAK_PDB_ENGINE", "numpy")
    korf1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
    goal = " ".join(map(str, range(16)))
    done, _seconds = run_limited(
        ["sliding", "solve", korf1, "--goal", goal, "-H", "pdb-78", "--timeout", "60"], 60
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "not enough memory for the pattern databases 7-8 on 4x4" in lines[0]
    assert "518,918,400 placements" in lines[0] and "pdb-663" in lines[0]
    assert "internal error" not in lines[0]


def test_pdb_78_builds_within_2_5_gb_with_the_compiled_builder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The compiled builder needs 1.2 GB for 7-8: under 2.5 GB it builds, until --timeout."""
    pytest.importorskip("numba")
    monkeypatch.setenv("LACAK_PDB_ENGINE", "numba")
    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path))
    korf1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
    goal = " ".join(map(str, range(16)))
    # the builder compiled first: under --timeout 8 its first compile would not start (the
    # numpy builder would then run out of memory, as in the test above)
    warm = "from lacak_sliding.pdb.engines import BUILDER; assert BUILDER.load(), BUILDER.failure()"
    subprocess.run([sys.executable, "-c", warm], check=True, timeout=600,
                   env={**os.environ, "LACAK_CACHE_DIR": str(tmp_path)})  # fmt: skip
    done, seconds = run_limited(
        ["sliding", "solve", korf1, "--goal", goal, "-H", "pdb-78", "--timeout", "8"], 8
    )
    assert done.returncode == 1, done.stderr  # stopped by the time limit, not by memory
    assert "not enough memory" not in done.stderr and "internal error" not in done.stderr
    assert "not found with idastar-tiles + pdb-78" in done.stdout
    assert seconds < 8 + SLACK + 15  # the build stops at the deadline (checked between colours)
    assert not list((tmp_path / "pdb").glob("*.pdb"))  # nothing half-built is kept


def test_the_recursion_limit_is_never_changed() -> None:
    """A deep search (bound 170,000) in a fresh process leaves the limit as it found it."""
    script = (
        "import sys, lacak\n"
        "before = sys.getrecursionlimit()\n"
        f"p = lacak.parse('sliding', {board_text(WIDE, 1)!r}, size='2x512')\n"
        "for h in ('manhattan', 'linear-conflict', 'misplaced'):\n"
        "    r = lacak.solve(p, 'idastar-tiles', heuristic=h,"
        " limits=lacak.Limits(max_expanded=3000))\n"
        "    assert r.stopped is lacak.StopReason.NODES, r.stopped\n"
        "print(before, sys.getrecursionlimit())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_limit_memory,
    )
    assert done.returncode == 0, done.stderr
    before, after = done.stdout.split()
    assert before == after


@pytest.mark.parametrize("spec", ["manhattan", "linear-conflict", "pdb:1,2,3,4/5,6,7,8;reflect"])
def test_a_tight_recursion_limit_is_left_alone(spec: str) -> None:
    """Under a limit too tight to recurse, the search goes on with its own stack."""
    import inspect

    puzzle = random_board((3, 3), 5)
    heuristic = lacak.default_registry().heuristic("sliding", spec)
    heuristic.for_puzzle(puzzle)
    expected = lacak.solve(puzzle, "idastar-tiles", heuristic=heuristic)
    old = sys.getrecursionlimit()
    tight = len(inspect.stack(0)) + 40
    try:
        sys.setrecursionlimit(tight)
        result = tiles_idastar.idastar_tiles(puzzle, heuristic=heuristic, limits=Limits())
        assert sys.getrecursionlimit() == tight
    finally:
        sys.setrecursionlimit(old)
    replay(puzzle, result)
    assert result.actions == expected.actions
    assert (result.stats.expanded, result.stats.generated) == (
        expected.stats.expanded,
        expected.stats.generated,
    )


SPECS = [
    "manhattan",
    "misplaced",
    "weighted:1,1",
    "weighted:w1=3,w2=1000",
    "linear-conflict",
    "pdb",
    "pdb:1,2,3/4,5,6;reflect",
]


@settings(max_examples=40)
@given(
    seed=lst.seeds(),
    spec=st.sampled_from(SPECS),
    limit=st.sampled_from(["none", "nodes", "depth"]),
    count=st.integers(0, 2000),
)
def test_the_explicit_stack_visits_what_the_recursion_visits(
    seed: int, spec: str, limit: str, count: int
) -> None:
    """Forced onto the explicit stack from the first bound, the search finds the same path,
    stops for the same reason and counts the same nodes."""
    puzzle = random_board((3, 3), seed)
    limits = {
        # a weak or heavily weighted heuristic on a uniformly random board may need
        # millions of nodes in Python: "none" is a cap most searches stay under
        "none": Limits(max_expanded=200_000),
        "nodes": Limits(max_expanded=count),
        # (and a cap: under a depth limit a search with a heavily weighted heuristic
        # may try every path of that depth, 3**23 of them)
        "depth": Limits(max_depth=count % 25, max_expanded=200_000),
    }[limit]
    recursive = lacak.solve(puzzle, "idastar-tiles", heuristic=spec, limits=limits)
    with (
        mock.patch.object(generated, "stack_room", lambda: -(10**9)),
        mock.patch.object(linear, "stack_room", lambda: -(10**9)),
    ):
        iterative = lacak.solve(puzzle, "idastar-tiles", heuristic=spec, limits=limits)
    assert (iterative.found, iterative.stopped, iterative.actions) == (
        recursive.found,
        recursive.stopped,
        recursive.actions,
    )
    assert (
        iterative.stats.expanded,
        iterative.stats.generated,
        iterative.stats.iterations,
        iterative.stats.depth,
    ) == (
        recursive.stats.expanded,
        recursive.stats.generated,
        recursive.stats.iterations,
        recursive.stats.depth,
    )
    if iterative.found:
        replay(puzzle, iterative)


def _legal_partial(result: lacak.SearchResult, puzzle: Any) -> None:
    stats = result.stats
    assert min(stats.expanded, stats.generated, stats.max_frontier, stats.depth) >= 0
    assert stats.seconds >= 0
    if result.found:
        replay(puzzle, result)
    else:
        assert result.states == (puzzle.initial,) and result.actions == ()


@settings(max_examples=40)
@given(
    seed=lst.seeds(),
    size=st.sampled_from([(3, 3), (4, 4), (5, 5), (3, 8)]),
    strategy=st.sampled_from(["astar-tiles", "idastar-tiles", "astar", "idastar"]),
    spec=st.sampled_from(["manhattan", "linear-conflict", HUGE_WEIGHTS, "weighted:2,5"]),
    nodes=st.integers(0, 1500),
)
def test_a_node_limit_stops_with_legal_partial_stats(
    seed: int, size: tuple[int, int], strategy: str, spec: str, nodes: int
) -> None:
    puzzle = random_board(size, seed)
    with memory_cap():
        result = lacak.solve(puzzle, strategy, heuristic=spec, limits=Limits(max_expanded=nodes))
    _legal_partial(result, puzzle)
    assert result.stats.expanded <= nodes
    if not result.found:
        assert result.stopped is StopReason.NODES


@settings(max_examples=20)
@given(
    seed=lst.seeds(),
    size=st.sampled_from([(3, 3), (4, 4), (16, 16), (32, 32)]),
    strategy=st.sampled_from(["astar-tiles", "idastar-tiles", "astar", "idastar"]),
    spec=st.sampled_from(["manhattan", "linear-conflict", HUGE_WEIGHTS]),
)
def test_no_time_stops_before_the_first_node(
    seed: int, size: tuple[int, int], strategy: str, spec: str
) -> None:
    """``seconds=0``: the set-up is inside the limit, so nothing is searched at all."""
    puzzle = random_board(size, seed)
    with memory_cap():
        result = lacak.solve(puzzle, strategy, heuristic=spec, limits=Limits(seconds=0))
    _legal_partial(result, puzzle)
    assert not result.found and result.stopped is StopReason.TIME
    assert result.stats.expanded <= 1


@settings(max_examples=30)
@given(
    seed=lst.seeds(),
    w1=st.integers(0, 10**6),
    w2=st.integers(0, 10**6),
)
def test_astar_tiles_with_any_weights_finds_a_legal_path(seed: int, w1: int, w2: int) -> None:
    """Estimates of any spread: the open list moves to a heap and the path is still legal."""
    puzzle = random_board((3, 3), seed)
    spec = f"weighted:w1={w1},w2={w2}"
    with memory_cap():
        result = lacak.solve(puzzle, "astar-tiles", heuristic=spec)
    assert result.found
    replay(puzzle, result)
    if w1 + w2 <= 1:  # admissible: the fewest moves
        assert result.length == lacak.solve(puzzle, "bfs-tiles").length


def test_buckets_stay_small_with_huge_weights() -> None:
    """Memory grows with use: a few thousand nodes with weights of a million take a few MB."""
    import tracemalloc

    puzzle = random_board((6, 6), 2)
    heuristic = lacak.default_registry().heuristic("sliding", HUGE_WEIGHTS)
    heuristic.for_puzzle(puzzle)  # the tables are set-up, measured elsewhere
    tracemalloc.start()
    try:
        with memory_cap():
            result = lacak.solve(
                puzzle, "astar-tiles", heuristic=heuristic, limits=Limits(max_expanded=3000)
            )
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.stopped in (StopReason.NODES, StopReason.GOAL)
    assert peak < 40 * 2**20, peak


def test_timeout_through_the_library_covers_the_tables() -> None:
    """The 32x32 move tables look at the clock many times while they are built: by a
    clock that moves a second per look, 20 seconds stop the search inside them (before a
    node), and its own clock started before them (it used to start after: 2.5 s for 0.2)."""
    import itertools

    puzzle = random_board((32, 32), 4)
    ticks = itertools.count()
    with lacak.limits.use_clock(lambda: float(next(ticks))):
        result = lacak.solve(
            puzzle, "astar-tiles", heuristic="manhattan", limits=Limits(seconds=20)
        )
    assert result.stopped is StopReason.TIME and result.stats.expanded == 0
    assert 20 <= result.stats.seconds <= 20 + 2 and next(ticks) <= 20 + 4


#: Korf's first 15-puzzle (57 moves to the goal with the blank first).
KORF1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
BLANK_FIRST = " ".join(map(str, range(16)))


@pytest.mark.parametrize(
    ("strategy", "split"),
    [("idastar-tiles", False), ("idastar-tiles", True), ("astar-tiles", False),
     ("astar", False), ("idastar", False), ("weighted-astar", False)],
)  # fmt: skip
@pytest.mark.parametrize("limits", [Limits(max_expanded=0), Limits(seconds=0)])
def test_a_search_that_may_expand_no_node_prepares_no_heuristic(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, limits: Limits, strategy: str, split: bool
) -> None:
    """Issue 23: ``--max-nodes 0`` on a 15-puzzle built pdb-663 until the timeout, and
    ``--timeout 0`` loaded it (1.5 s). Nothing is prepared when no node may be expanded."""
    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path))
    prepared: list[str] = []
    real = lacak.Heuristic.for_puzzle

    def spy(self: lacak.Heuristic, puzzle: Any) -> Any:
        prepared.append(self.spec)
        return real(self, puzzle)

    monkeypatch.setattr(lacak.Heuristic, "for_puzzle", spy)
    puzzle = lacak.parse("sliding", KORF1, goal=BLANK_FIRST)
    options = {"workers": 1} if split else {}
    result = lacak.solve(puzzle, strategy, heuristic="pdb-663", limits=limits, **options)
    expected = StopReason.NODES if limits.max_expanded == 0 else StopReason.TIME
    assert result.stopped is expected and not result.found
    assert result.stats.expanded == 0
    assert prepared == []
    assert not list(tmp_path.glob("pdb/*"))  # no database was built


def test_a_split_task_that_starts_after_the_deadline_prepares_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker's task keeps the deadline from its start: one that arrives late stops
    at once, and one whose heuristic's preparing passes it stops there."""
    from lacak_sliding.tiles.idastar import split as tiles_split

    puzzle = lacak.parse("sliding", "8 6 7 / 2 5 4 / 3 0 1")
    task = tiles_split._Task(puzzle, "manhattan", None, tuple(puzzle.initial), -1, 40.0,
                             None, time.time() - 1)  # fmt: skip
    monkeypatch.setattr(tiles_split, "_PREPARED", tiles_split.collections.OrderedDict())
    prepared: list[Any] = []
    monkeypatch.setattr(tiles_split, "_prepared", lambda *args: prepared.append(args))
    done = tiles_split._run(task)
    assert (done.stopped, done.expanded, done.generated, prepared) == (StopReason.TIME, 0, 0, [])

    def slow(*_args: Any) -> Any:  # a build that checks the running deadline, as pdb's do
        lacak.check_deadline("building a pattern database")
        raise AssertionError("the deadline had passed")

    ticking = iter(range(10**6))
    monkeypatch.setattr(tiles_split, "_prepared", slow)
    with lacak.limits.use_clock(lambda: float(next(ticking))):
        late = tiles_split._run(attrs.evolve(task, deadline=time.time() + 1.5))
    assert late.stopped is StopReason.TIME and late.expanded == 0


class _SlowCluster:
    """A stand-in for ``distributed.LocalCluster`` that is up only once ``ready`` is set
    (starting a real one takes seconds), and says whether it was closed."""

    made: ClassVar[list[_SlowCluster]] = []
    ready: ClassVar[threading.Event] = threading.Event()

    def __init__(self, **options: Any) -> None:
        self.options = options
        self.closed = False
        assert self.ready.wait(60)
        self.made.append(self)

    def close(self) -> None:
        self.closed = True

    def __enter__(self) -> _SlowCluster:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


@pytest.fixture
def slow_cluster(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[_SlowCluster]]:
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(distributed, "LocalCluster", _SlowCluster)
    _SlowCluster.made = []
    _SlowCluster.ready = threading.Event()
    yield _SlowCluster
    _SlowCluster.ready.set()


def test_a_local_cluster_starts_within_the_deadline(slow_cluster: type[_SlowCluster]) -> None:
    """Issue 23: ``--scheduler local:2 --timeout 3`` took 5.8 s; starting the cluster
    (seconds on a busy machine) now counts: not up by the deadline, it is a time limit,
    and the cluster is closed once it is up."""
    from lacak.batch.cluster import local_cluster

    with (
        lacak.limits.use_clock(lambda: 5.0),  # (the deadline, 1.0, has passed)
        lacak.deadline(1.0),
        pytest.raises(lacak.LimitReachedError, match="starting a Dask cluster of 2 workers"),
        local_cluster(2, processes=True),
    ):
        raise AssertionError("the cluster was not up")
    slow_cluster.ready.set()
    thread = next(t for t in threading.enumerate() if t.name == "lacak-local-cluster")
    thread.join(60)
    (late,) = slow_cluster.made
    assert late.closed and late.options == {"n_workers": 2, "processes": True}
    with lacak.deadline(time.perf_counter() + 600), local_cluster(3) as cluster:
        assert cluster.options == {"n_workers": 3} and not cluster.closed
    assert cluster.closed
    with local_cluster(1) as cluster:  # no deadline: started here, as it was
        assert cluster.options == {"n_workers": 1}


def test_the_solve_command_counts_the_cluster_s_start_up(
    slow_cluster: type[_SlowCluster],
) -> None:
    from click.testing import CliRunner
    from lacak.cli import make_cli

    args = ["sliding", "solve", "8 6 7 / 2 5 4 / 3 0 1", "--scheduler", "local:2"]
    done = CliRunner().invoke(make_cli(), [*args, "--timeout", "0.05", "--json"])
    assert done.exit_code == 1, done.output
    report = json.loads(done.stdout)
    assert report["stopped"] == "time-limit" and report["found"] is False
    assert slow_cluster.made == []  # not up yet: it is closed once it is


def test_loading_pattern_databases_looks_at_the_deadline_between_them(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A split search's worker loads its databases under its task's deadline: each one
    (a tenth of a second or so) is a step between looks at the clock."""
    from lacak_sliding import pdb
    from lacak_sliding.pdb import lookup

    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path))
    partition = pdb.Partition.default(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    loaded: list[Any] = []
    real = lookup.group_table
    monkeypatch.setattr(lookup, "group_table", lambda *a, **k: loaded.append(a) or real(*a, **k))
    monkeypatch.setattr(lookup, "memory", {})
    with (
        lacak.limits.use_clock(lambda: 10.0),
        lacak.deadline(5.0),
        pytest.raises(lacak.LimitReachedError, match=r"loading the .* pattern databases"),
    ):
        pdb.pattern_heuristic(partition)
    assert loaded == []
    looks = iter(range(10**6))
    with lacak.limits.use_clock(lambda: float(next(looks))), lacak.deadline(10**6):
        heuristic = pdb.pattern_heuristic(partition)
    assert len(loaded) == len(partition.groups) + len(partition.singletons)
    assert next(looks) >= len(loaded) + 1  # a look before each, and one before the last step
    assert heuristic.partition == partition

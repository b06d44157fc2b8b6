"""``idastar-tiles`` split across workers (:mod:`lacak_sliding.tiles.idastar.split`): the same path,
length and node counts as the one-process search, on any executor and any split depth;
a worker that dies loses nothing; bad requests are refused in one line."""

from __future__ import annotations

import concurrent.futures as cf
import json
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import lacak
import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st
from lacak import Limits
from lacak.cli import make_cli
from lacak.testing import replay
from lacak_sliding import korf
from lacak_sliding.generators import random_walk
from lacak_sliding.puzzle import SlidingPuzzle


@pytest.fixture(scope="module", autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Databases built by these tests go to a temporary cache, never the user's."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LACAK_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "lacak-cache"))
        yield


class SerialExecutor(cf.Executor):
    """Runs each task when it is submitted, in this thread (results still pickled)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        future: cf.Future[Any] = cf.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:
            future.set_exception(error)
        return future


def summary(result: lacak.SearchResult) -> tuple[Any, ...]:
    """Everything of a result but the seconds."""
    s = result.stats
    return (result.found, str(result.stopped), result.length, tuple(result.actions),
            s.expanded, s.generated, s.iterations, s.depth, s.max_frontier)  # fmt: skip


def one(puzzle: Any, heuristic: Any, **kwargs: Any) -> lacak.SearchResult:
    return lacak.solve(puzzle, "idastar-tiles", heuristic=heuristic, **kwargs)


def opaque(spec: str) -> lacak.Heuristic:
    """A registered heuristic hidden behind a plain function: the explicit-stack engine,
    and a heuristic that travels with each task (it has no registered name)."""
    return lacak.Heuristic(name=f"opaque-{spec}", kind="sliding", admissible=True,
                           estimate=_Opaque(spec))  # fmt: skip


class _Opaque:
    def __init__(self, spec: str) -> None:
        self.spec = spec

    def __call__(self, puzzle: Any, state: Any) -> float:
        heuristic = lacak.default_registry().heuristic("sliding", self.spec)
        return heuristic(puzzle, state)


# -- the same search on every executor ----------------------------------------------


@st.composite
def boards(draw: st.DrawFn) -> SlidingPuzzle:
    rows, cols = draw(st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 2), (3, 4)]))
    moves = draw(st.integers(0, 40))
    seed = draw(st.integers(0, 2**32))
    return random_walk((rows, cols), moves=moves, seed=seed)


HEURISTICS = ["manhattan", "linear-conflict", "misplaced", "pdb", "pdb:1,2/3,4;reflect"]


@settings(max_examples=60)
@given(
    puzzle=boards(),
    heuristic=st.sampled_from(HEURISTICS),
    depth=st.integers(0, 9),
    max_depth=st.none() | st.integers(0, 30),
)
def test_split_equals_one_process_on_random_boards(
    puzzle: SlidingPuzzle, heuristic: str, depth: int, max_depth: int | None
) -> None:
    if heuristic.startswith("pdb:") and puzzle.width * puzzle.height < 5:
        heuristic = "pdb"
    elif heuristic.endswith(";reflect") and puzzle.width != puzzle.height:
        heuristic = heuristic.removesuffix(";reflect")  # reflection needs a square board
    limits = Limits(max_depth=max_depth)
    expected = summary(one(puzzle, heuristic, limits=limits))
    with cf.ThreadPoolExecutor(2) as pool:
        split = one(puzzle, heuristic, limits=limits, executor=pool, split_depth=depth)
    assert summary(split) == expected
    serial = one(puzzle, heuristic, limits=limits, executor=SerialExecutor(), split_depth=depth)
    assert summary(serial) == expected


@settings(max_examples=30)
@given(puzzle=boards(), depth=st.integers(1, 8), nodes=st.integers(0, 3000))
@example(puzzle=random_walk((3, 3), moves=40, seed=15), depth=4, nodes=855)  # a task's cap was
# once the limit less every node above the frontier, and stopped it too soon
def test_a_node_limit_stops_where_the_one_process_search_stops(
    puzzle: SlidingPuzzle, depth: int, nodes: int
) -> None:
    limits = Limits(max_expanded=nodes)
    expected = one(puzzle, "manhattan", limits=limits)
    with cf.ThreadPoolExecutor(2) as pool:
        split = one(puzzle, "manhattan", limits=limits, executor=pool, split_depth=depth)
    # generated is what the tasks counted when a limit stops them (docs/split.md)
    assert summary(split)[:5] == summary(expected)[:5]
    assert split.stats.iterations == expected.stats.iterations


@settings(max_examples=15)
@given(puzzle=boards(), depth=st.integers(0, 6))
def test_split_equals_one_process_through_the_explicit_stack(
    puzzle: SlidingPuzzle, depth: int
) -> None:
    heuristic = opaque("manhattan")
    expected = summary(one(puzzle, heuristic))
    assert summary(one(puzzle, heuristic, workers=1, split_depth=depth)) == expected


EASY = [i for i in korf.instances() if i.length <= 44]


@pytest.mark.parametrize("item", EASY[:4], ids=lambda i: f"korf{i.id}-{i.length}")
def test_korf_instances_on_a_process_pool_and_lacak_s_pool(item: korf.KorfInstance) -> None:
    puzzle = korf.puzzle(item)
    expected = one(puzzle, "pdb-555")
    assert expected.length == item.length
    with cf.ProcessPoolExecutor(2) as pool:
        split = one(puzzle, "pdb-555", executor=pool, split_depth=4)
    replay(puzzle, split)
    assert summary(split) == summary(expected)
    assert summary(one(puzzle, "pdb-555", workers=2, split_depth=6)) == summary(expected)


def test_korf_instance_cut_short_by_the_depth_limit() -> None:
    puzzle = korf.puzzle(korf.instances()[0])  # 57 moves
    limits = Limits(max_depth=47)
    expected = one(puzzle, "linear-conflict", limits=limits)
    assert str(expected.stopped) == "depth-limit"
    with cf.ProcessPoolExecutor(2) as pool:
        split = one(puzzle, "linear-conflict", limits=limits, executor=pool, split_depth=7)
    assert summary(split) == summary(expected)


def test_the_first_solution_in_task_order_ends_the_search() -> None:
    """Several tasks hold a path at the last bound: the one-process search returns the
    first in its order, and so does the split search, whichever task finishes first."""
    puzzle = random_walk((3, 3), moves=60, seed=3)
    expected = one(puzzle, "manhattan")
    for depth in (2, 4, 8):
        with cf.ThreadPoolExecutor(4) as pool:
            split = one(puzzle, "manhattan", executor=pool, split_depth=depth)
        assert summary(split) == summary(expected)


def test_with_the_depth_left_to_choose_small_iterations_stay_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first iterations are searched whole here, the large ones split; the answer is
    the same either way. (The Python engine: compiled, the whole search is quick enough
    to stay here.)"""
    monkeypatch.setenv("LACAK_TILES_ENGINE", "python")
    puzzle = random_walk((4, 4), moves=80, seed=2)  # 44 moves, a second in one process
    expected = one(puzzle, "manhattan")
    sent: list[Any] = []

    class Watching(SerialExecutor):
        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
            sent.append(args)
            return super().submit(fn, *args, **kwargs)

    assert summary(one(puzzle, "manhattan", executor=Watching())) == summary(expected)
    assert 0 < len(sent) < expected.stats.iterations * 2000


def test_limits() -> None:
    puzzle = korf.puzzle(korf.instances()[0])
    nodes = one(puzzle, "manhattan", workers=1, limits=Limits(max_expanded=5000))
    assert str(nodes.stopped) == "node-limit" and nodes.stats.expanded == 5000
    assert not nodes.found
    started = time.perf_counter()
    timed = one(puzzle, "manhattan", workers=1, limits=Limits(seconds=0.5))
    assert str(timed.stopped) == "time-limit" and not timed.found
    assert time.perf_counter() - started < 0.5 + 10  # generous slack on a shared machine


def test_unsolvable_board_is_exhausted_at_once() -> None:
    puzzle = SlidingPuzzle.from_string("2 1 3 / 4 5 6 / 7 8 0", allow_unsolvable=True)
    result = one(puzzle, "manhattan", workers=2)
    assert summary(result) == summary(one(puzzle, "manhattan"))


# -- a worker that dies --------------------------------------------------------------


def _kill_a_worker_soon(killed: list[int], after: float) -> threading.Thread:
    def kill() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            children = multiprocessing.active_children()
            if children:
                time.sleep(after)
                children = multiprocessing.active_children()
                if children:
                    os.kill(children[0].pid, signal.SIGKILL)
                    killed.append(children[0].pid)
                return
            time.sleep(0.01)

    thread = threading.Thread(target=kill, daemon=True)
    thread.start()
    return thread


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_a_killed_worker_of_lacak_s_pool_loses_nothing() -> None:
    puzzle = random_walk((4, 4), moves=80, seed=11)  # 48 moves, 2.3 million nodes
    expected = one(puzzle, "manhattan")
    killed: list[int] = []
    thread = _kill_a_worker_soon(killed, after=0.3)
    split = one(puzzle, "manhattan", workers=2, split_depth=6)
    thread.join()
    assert killed, "no worker was killed: the search ended too soon"
    assert summary(split) == summary(expected)


# -- what is refused -----------------------------------------------------------------


def test_a_strategy_that_does_not_split_is_refused_naming_those_that_do() -> None:
    puzzle = lacak.parse("sliding", "123405786")
    with pytest.raises(lacak.InvalidOptionError, match="strategies that can: idastar-tiles"):
        lacak.solve(puzzle, "astar", heuristic="manhattan", workers=2)
    searcher = lacak.searchers()["astar"]
    with pytest.raises(lacak.InvalidOptionError, match="runs in one process"):
        searcher(puzzle, heuristic=lacak.default_registry().heuristic("sliding", "manhattan"),
                 executor=SerialExecutor())  # fmt: skip


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"workers": 2, "executor": SerialExecutor()}, "not both"),
        ({"workers": 0}, "positive integer"),
        ({"executor": "local:2"}, "concurrent.futures.Executor"),
        ({"workers": 1, "trace": True}, "trace"),
        ({"workers": 1, "split_depth": -1}, "split_depth"),
        ({"split_depth": 3}, "give an executor or workers"),
    ],
)
def test_bad_requests(kwargs: dict[str, Any], message: str) -> None:
    puzzle = lacak.parse("sliding", "123405786")
    with pytest.raises(lacak.InvalidOptionError, match=message):
        lacak.solve(puzzle, "idastar-tiles", heuristic="manhattan", **kwargs)


def test_registered_as_splitting() -> None:
    assert lacak.searchers()["idastar-tiles"].splits
    assert not lacak.searchers()["astar"].splits


# -- the command line ----------------------------------------------------------------

BOARD = "8 6 7 / 2 5 4 / 3 0 1"


def run(*args: str) -> Any:
    return CliRunner().invoke(make_cli(), list(args))


def test_cli_workers_gives_the_one_process_answer() -> None:
    alone = run("sliding", "solve", BOARD, "-H", "manhattan", "--json")
    split = run("sliding", "solve", BOARD, "-H", "manhattan", "--json", "-w", "2",
                "-O", "split_depth=5")  # fmt: skip
    assert alone.exit_code == split.exit_code == 0, split.output
    a, b = json.loads(alone.output), json.loads(split.output)
    for data in (a, b):
        del data["stats"]["seconds"]
    assert a == b


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-s", "astar", "-w", "2"], "strategies that can: idastar-tiles"),
        (["-w", "2", "--scheduler", "local:2"], "give one"),
        (["--scheduler", "nowhere"], "tcp://HOST:PORT"),
        (["--scheduler", "local:x"], "positive integer"),
        (["-w", "2", "--trace", "t.json"], "--trace"),
    ],
)
def test_cli_refusals_are_one_line(args: list[str], message: str, tmp_path: Any) -> None:
    os.chdir(tmp_path)
    result = CliRunner().invoke(make_cli(), ["sliding", "solve", BOARD, *args])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], result.output
    assert "Traceback" not in result.output


def test_cli_without_dask_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    result = run("sliding", "solve", BOARD, "--scheduler", "local:2")
    assert result.exit_code == 2
    assert "pip install 'lacak[dask]'" in result.output


@pytest.mark.parametrize("heuristic", ["manhattan", "pdb:1,2,3/4,5,6/7,8;reflect"])
def test_split_tasks_count_as_one_process_with_the_compiled_engine_forced(
    heuristic: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the compiled engine forced, the split search's tasks run compiled and still
    count as the one-process search. A task starts below the root with a move it must
    not undo (its ``prev``), which the kernel is given."""
    pytest.importorskip("numba")
    from lacak_sliding.tiles.idastar import engines as tiles_engines

    monkeypatch.setenv("LACAK_TILES_ENGINE", "numba")  # compiled from the first iteration
    puzzle = lacak.parse("sliding", "8 6 7 / 2 5 4 / 3 0 1")
    expected = one(puzzle, heuristic)
    ran: list[int] = []
    iterate = tiles_engines._Compiled.iterate

    def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        ran.append(self.search.prev)
        return iterate(self, *args, **kwargs)

    monkeypatch.setattr(tiles_engines._Compiled, "iterate", counting)
    for depth in (1, 2, 5):
        ran.clear()
        assert summary(one(puzzle, heuristic, executor=SerialExecutor(), split_depth=depth)) == (
            summary(expected)
        )
        assert any(prev >= 0 for prev in ran)  # the tasks below the root ran compiled


@settings(max_examples=25, deadline=None)
@given(moves=st.integers(10, 60), seed=st.integers(0, 2**16), depth=st.integers(1, 6))
def test_compiled_tasks_agree_with_the_python_search(moves: int, seed: int, depth: int) -> None:
    """Random 8-puzzles split at random depths: the compiled tasks (each told the move it
    must not undo) give the path and the node counts of the one-process Python search."""
    pytest.importorskip("numba")
    puzzle = random_walk((3, 3), moves=moves, seed=seed)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LACAK_TILES_ENGINE", "python")
        expected = one(puzzle, "manhattan")
        mp.setenv("LACAK_TILES_ENGINE", "numba")
        split = one(puzzle, "manhattan", executor=SerialExecutor(), split_depth=depth)
    assert summary(split) == summary(expected)


def test_a_split_search_that_runs_long_makes_the_compiled_engine_ready_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Tasks load the compiled engine only when its machine code is ready; a split
    search past COMPILE_AFTER seconds makes it ready, once, in the calling process."""
    from lacak_sliding.tiles.idastar import engines as tiles_engines

    called: list[Any] = []
    monkeypatch.setattr(tiles_engines, "COMPILE_AFTER", 0.0)
    monkeypatch.setattr(tiles_engines, "compile_for_split", called.append)
    monkeypatch.setenv("LACAK_TILES_ENGINE", "python")  # the tasks stay in Python here
    puzzle = random_walk((3, 3), moves=60, seed=3)
    result = one(puzzle, "manhattan", executor=SerialExecutor(), split_depth=2)
    assert summary(result) == summary(one(puzzle, "manhattan"))
    assert len(called) == 1


def test_compile_for_split_loads_only_what_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    from lacak_sliding.tiles.idastar import engines as tiles_engines
    from lacak_sliding.tiles.idastar.deepen import engine_for

    loads: list[int] = []

    class Engine:  # stands for the compiled engine: not loaded, not ready, available
        def part_of(self, part: str, seconds: str | None = None) -> Engine:
            return self  # (either part: it is this fake)

        def loaded(self) -> bool:
            return bool(loads)

        def ready(self) -> bool:
            return False

        def available(self) -> bool:
            return True

        def load(self, *, compile: bool = True) -> None:
            loads.append(1)

    monkeypatch.setattr(tiles_engines, "ENGINE", Engine())
    monkeypatch.delenv("LACAK_TILES_ENGINE", raising=False)
    puzzle = lacak.parse("sliding", "8 6 7 / 2 5 4 / 3 0 1")
    heuristic = lacak.resolve_heuristic(puzzle, "manhattan")
    assert heuristic is not None
    budget = Limits().start()
    engine = engine_for(puzzle, heuristic.for_puzzle(puzzle), heuristic, Limits(), budget, None)
    monkeypatch.setenv("LACAK_TILES_ENGINE", "python")
    tiles_engines.compile_for_split(engine)
    assert loads == []  # the Python engine was asked for
    monkeypatch.delenv("LACAK_TILES_ENGINE")
    tiles_engines.compile_for_split(engine)
    tiles_engines.compile_for_split(engine)  # loaded now: nothing more
    assert loads == [1]


class _Background:
    """Stands for the compiled engine's part while its first compile runs elsewhere."""

    def __init__(self, states: list[str]) -> None:
        self.states = states
        self.loads: list[bool] = []

    def ready(self) -> bool:
        return False

    def available(self) -> bool:
        return True

    def compile_in_background(self) -> str:
        return self.states.pop(0) if len(self.states) > 1 else self.states[0]

    def load(self, *, compile: bool = True) -> object:
        self.loads.append(compile)
        return object()


class _Search:
    def __init__(self, elapsed: float) -> None:
        import time

        self.started = time.perf_counter() - elapsed
        self.deadline = None

    def clock(self) -> float:
        return 0.0


def test_auto_takes_over_once_the_background_compile_is_done() -> None:
    from lacak_sliding.tiles.idastar.engines import _Timer

    engine = _Background(["running", "running", "ready"])
    timer = _Timer(_Search(elapsed=30.0), engine)
    assert [timer(), timer()] == [False, False]  # the search goes on in Python
    assert engine.loads == []  # nothing compiled here meanwhile, however long it ran
    assert timer() is True
    assert engine.loads == [False]  # loaded what the other process compiled


def test_auto_compiles_here_when_the_background_cannot() -> None:
    from lacak_sliding.tiles.idastar import engines as tiles_engines
    from lacak_sliding.tiles.idastar.engines import _Timer

    early = _Background(["failed"])
    timer = _Timer(_Search(elapsed=tiles_engines.COMPILE_AFTER / 2), early)
    assert timer() is False and early.loads == []  # not yet: the rule of COMPILE_AFTER
    late = _Background(["failed"])
    timer = _Timer(_Search(elapsed=tiles_engines.COMPILE_AFTER + 1), late)
    assert timer() is True and late.loads == [True]  # compiled in this process

"""One IDA* search split across many workers: ``idastar-tiles`` with an executor.

``lacak.solve(puzzle, "idastar-tiles", executor=...)`` (or ``workers=N``, or
``lacak sliding solve BOARD --scheduler ...``) runs each IDA* iteration in
two parts:

1. **Above the frontier**, here: a depth-first walk of the iteration's tree
   down to the *split depth* ``d``, in the searcher's order, testing and
   counting nodes as the one-process search does. Every node at depth ``d``
   within the bound becomes a **task**: its board, the blank's previous cell
   (the move back is never made) and the bound less its depth.
2. **Below it**, on the executor: each task searches its subtree with the very
   iteration of the one-process searcher (``engine.iterate`` of
   :mod:`lacak_sliding.tiles.idastar`, whichever engine serves the heuristic),
   so it finds the same nodes in the same order and counts them alike.

The tasks of an iteration are numbered in the order the one-process search
would reach them. An iteration is **decided** once every task before the first
one that found a path (or hit a limit) has finished: that path is the one the
one-process search returns, and the counts are exactly its counts — the nodes
above the frontier it would have visited up to that task, the whole subtrees
of the tasks before, and the solving task's own nodes up to its goal. An
iteration with no path gives the next bound (``bound + 2``). So the path has
least cost (an admissible heuristic never passes the optimal length before the
iteration whose bound it is), and the result equals the one-process result in
everything but seconds.

Workers are kept busy across iterations: while an iteration's last tasks run,
the next iteration's first tasks are already sent (at most one iteration
ahead); their work counts only if that iteration is reached.

Heavy artefacts are not shipped: a task carries the heuristic's spec
(``pdb-663``) and each worker prepares it once (a pattern database comes from
the worker's memory or disk cache) and keeps it for the tasks that follow. A
worker that dies loses nothing: lacak's own pool (``workers=N``) runs its task
again, and Dask does the same on a cluster (:mod:`lacak.batch`).

Limits: ``max_depth`` as in the one-process search; ``seconds`` is a deadline
every task keeps, preparing its heuristic included (a task that reaches it stops
the search, ``time-limit``), and a search with no time left (or
``max_expanded=0``) prepares and sends nothing;
``max_expanded`` stops the search as soon as the nodes counted in the one-process
order pass it (``node-limit``, ``expanded`` then reports the limit, and
``generated`` what the tasks counted).

.. rubric:: Examples

>>> import lacak
>>> puzzle = lacak.parse("sliding", "8 6 7 / 2 5 4 / 3 0 1")
>>> one = lacak.solve(puzzle, "idastar-tiles", heuristic="manhattan")
>>> split = lacak.solve(puzzle, "idastar-tiles", heuristic="manhattan", workers=1)
>>> (split.length, split.stats.expanded, split.stats.generated) == (
...     one.length, one.stats.expanded, one.stats.generated)
True
"""

from __future__ import annotations

import collections
import functools
import os
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs
import lacak
from lacak import SearchResult, StopReason
from lacak.batch import iter_many
from lacak.batch.cluster import dask_client

from .deepen import checked, compile_for_split, engine_for, take_over, upgrade
from .iteration import Search, Tally, finish, neighbours, solvable

__all__ = ["LOCAL_SECONDS", "MIN_TASKS", "TASKS_PER_WORKER", "Piece", "frontier", "split_search"]

#: Tasks wanted per worker in each iteration (the split depth grows until there are
#: as many): subtrees differ in size by orders of magnitude, and many small tasks
#: keep every worker busy to the end of an iteration.
TASKS_PER_WORKER = 32

#: Tasks in flight per worker (one running, the others queued where it runs).
WINDOW_PER_WORKER = 4

#: Fewest tasks wanted in an iteration, however few the workers.
MIN_TASKS = 64

#: With the split depth left to choose, an iteration expected to take less than this
#: many seconds in one process is searched here, whole: sending it out would cost more
#: than it saves. (Expected: the last iteration's time, times the growth of the node
#: counts from the one before; the first iteration is searched here.)
LOCAL_SECONDS = 0.5

#: The growth assumed from the first iteration to the second.
FIRST_GROWTH = 8.0


@attrs.frozen
class Piece:
    """One item of an iteration, in the one-process search's order: a task (a node at
    the split depth) or the goal met above the frontier (``goal``).

    ``expanded`` and ``generated`` are the counts above the frontier when the
    one-process search reaches it (the node generated, not yet expanded; the goal
    expanded)."""

    #: The blank's cells from the root's child down to this node.
    cells: tuple[int, ...]
    #: The node's tiles (``None`` for the goal).
    tiles: tuple[int, ...] | None
    #: The blank's cell in the node's parent.
    prev: int
    #: The node's depth.
    depth: int
    expanded: int
    generated: int
    goal: bool = False


def frontier(
    start: Sequence[int],
    goal: Sequence[int],
    width: int,
    height: int,
    estimate: Callable[[tuple[int, ...]], float],
    bound: float,
    depth: int,
) -> tuple[list[Piece], int, int]:
    """The pieces of the iteration of ``bound`` split at ``depth``, and the nodes it
    expands and generates above the frontier (all of them: the counts when no task
    finds a path).

    Nodes are visited and counted as :mod:`lacak_sliding.tiles.idastar` does:
    children in the order D, R, L, U of the blank, the move back skipped, a child
    searched when its depth plus ``estimate`` is at most ``bound``. A goal above
    the frontier ends the walk (it is the last piece).
    """
    nbrs = neighbours(width, height)
    board = list(start)
    goal_board = list(goal)
    pieces: list[Piece] = []
    path: list[int] = []
    counts = [0, 0]

    def visit(z: int, prev: int, g: int) -> bool:
        counts[0] += 1
        if board == goal_board:
            pieces.append(Piece(tuple(path), None, prev, g, counts[0], counts[1], goal=True))
            return True
        g1 = g + 1
        for _action, nz in nbrs[z]:
            if nz == prev:
                continue
            t = board[nz]
            board[z], board[nz] = t, 0
            counts[1] += 1
            path.append(nz)
            try:
                if g1 + estimate(tuple(board)) <= bound:
                    if g1 >= depth:
                        pieces.append(Piece(tuple(path), tuple(board), z, g1, counts[0], counts[1]))
                    elif visit(nz, z, g1):
                        return True
            finally:
                path.pop()
                board[z], board[nz] = 0, t
        return False

    visit(list(start).index(0), -1, 0)
    return pieces, counts[0], counts[1]


@attrs.frozen
class _Subtree:
    """The board a task searches from (what the engines read of a puzzle)."""

    width: int
    height: int
    initial: tuple[int, ...]
    goal: tuple[int, ...]


@attrs.frozen
class _Task:
    """What a worker needs to search one subtree: no table travels with it."""

    #: The puzzle (for preparing the heuristic: its size and goal).
    puzzle: Any
    #: The heuristic's spec, resolved in the worker (``None``: ``heuristic`` travels).
    spec: str | None
    heuristic: lacak.Heuristic | None
    tiles: tuple[int, ...]
    prev: int
    #: The bound less the node's depth.
    bound: float
    max_expanded: int | None
    #: :func:`time.time` by which the task stops (``None``: none).
    deadline: float | None


@attrs.frozen
class _Done:
    """A task's answer: its counts, and the path below its node or the limit it hit."""

    expanded: int
    generated: int
    cells: tuple[int, ...] | None = None
    stopped: StopReason | None = None
    #: How long the task took where it ran.
    seconds: float = 0.0


#: Prepared heuristics of this process, by (spec, size, goal): each worker prepares
#: (loads) a heuristic once and keeps it for the tasks that follow.
_PREPARED: collections.OrderedDict[tuple[Any, ...], tuple[lacak.Heuristic, Any]] = (
    collections.OrderedDict()
)
_KEEP = 4


def _prepared(
    puzzle: Any, spec: str | None, heuristic: lacak.Heuristic | None
) -> tuple[lacak.Heuristic, Any]:
    key = (spec if spec is not None else id(heuristic), puzzle.width, puzzle.height,
           tuple(puzzle.goal))  # fmt: skip
    found = _PREPARED.get(key)
    if found is None:
        if heuristic is None:
            heuristic = lacak.resolve_heuristic(puzzle, spec)
        assert heuristic is not None
        found = (heuristic, heuristic.for_puzzle(puzzle))
        _PREPARED[key] = found
        while len(_PREPARED) > _KEEP:
            _PREPARED.popitem(last=False)
    return found


def _run(task: _Task) -> _Done:
    """Search one subtree with the one-process search's own iteration (in a worker).

    The task's deadline covers preparing the heuristic (a worker's first task loads
    or builds its pattern databases): a task that starts late, or whose preparing
    passes the deadline, stops at once (``time-limit``, no node counted).
    """
    started = time.perf_counter()
    seconds = None if task.deadline is None else max(0.0, task.deadline - time.time())
    limits = lacak.Limits(max_expanded=task.max_expanded, seconds=seconds)
    budget = limits.start()
    try:
        if budget.time_up():
            raise lacak.LimitReachedError("the time limit was reached before the task began")
        with budget:
            heuristic, prepared = _prepared(task.puzzle, task.spec, task.heuristic)
    except lacak.LimitReachedError:
        if not budget.time_up():
            raise
        return _Done(0, 0, None, StopReason.TIME, time.perf_counter() - started)
    puzzle = task.puzzle
    node = _Subtree(puzzle.width, puzzle.height, task.tiles, tuple(puzzle.goal))
    engine = engine_for(node, prepared, heuristic, limits, budget, None)
    engine.search.prev = task.prev
    tally = Tally()
    # the compiled engine wherever it serves: loaded (once per worker) from the first task
    engine = upgrade(engine, tally, eager=True)
    if not engine.fits(task.bound):
        engine = engine.fallback()
    step = engine.iterate(task.bound, tally)
    if step.resume is not None:  # the compiled engine goes on from the same node
        engine, step = take_over(engine, task.bound, tally, step.resume)
    cells = tuple(step.found) if step.found is not None else None
    return _Done(tally.expanded, tally.generated, cells, step.stopped,
                 time.perf_counter() - started)  # fmt: skip


@attrs.define
class _Iteration:
    """The pieces of one iteration and the answers of its tasks so far."""

    bound: float
    pieces: list[Piece]
    expanded: int
    generated: int
    done: dict[int, _Done] = attrs.field(factory=dict)

    def outcome(self) -> tuple[str, int, int, Any] | None:
        """``None`` while undecided; else ``(how, expanded, generated, what)`` in the
        one-process order: ``("found", ..., cells)``, ``("stopped", ..., reason)`` or
        ``("exhausted", ..., None)``."""
        expanded = generated = 0
        for i, piece in enumerate(self.pieces):
            if piece.goal:
                return ("found", expanded + piece.expanded, generated + piece.generated,
                        piece.cells)  # fmt: skip
            answer = self.done.get(i)
            if answer is None:
                return None
            if answer.cells is not None:
                return ("found", expanded + piece.expanded + answer.expanded,
                        generated + piece.generated + answer.generated,
                        piece.cells + answer.cells)  # fmt: skip
            if answer.stopped is not None:
                return ("stopped", expanded + piece.expanded + answer.expanded,
                        generated + piece.generated + answer.generated, answer.stopped)  # fmt: skip
            expanded += answer.expanded
            generated += answer.generated
        return ("exhausted", expanded + self.expanded, generated + self.generated, None)


def _worker_count(executor: Any, workers: int | None) -> int:
    if workers is not None:
        return workers
    count = getattr(executor, "_max_workers", None)
    if isinstance(count, int) and count > 0:
        return count
    client = dask_client(executor)
    if client is not None:
        try:
            return max(1, sum(client.nthreads().values()))
        except Exception:  # a client that cannot say: count on the cores here
            pass
    return os.cpu_count() or 1


def split_search(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None = None,
    executor: Any = None,
    workers: int | None = None,
    split_depth: int = 0,
) -> SearchResult:
    """IDA* on a sliding puzzle with each iteration split into subtree tasks run by
    ``executor`` (or lacak's own pool of ``workers`` processes): the result of
    :func:`~lacak_sliding.tiles.idastar.idastar_tiles`, counts included.

    :param split_depth: the depth the tasks start at; 0 chooses, per iteration, the
        least depth giving :data:`TASKS_PER_WORKER` tasks per worker (at least
        :data:`MIN_TASKS`). The result does not depend on it.
    :raises InvalidOptionError: a trace (it records one process's search), a negative
        ``split_depth``, or an inadmissible heuristic with a depth limit.
    :raises InvalidPuzzleError: the puzzle is not a sliding puzzle.
    """
    heuristic = checked(puzzle, heuristic)
    if trace is not None:
        raise lacak.InvalidOptionError(
            "a trace records a search in one process: not with an executor or workers"
        )
    if isinstance(split_depth, bool) or not isinstance(split_depth, int) or split_depth < 0:
        raise lacak.InvalidOptionError(
            f"split_depth is a non-negative integer (0: choose), not {split_depth!r}"
        )
    start = tuple(puzzle.initial)
    budget = limits.start()
    if not solvable(start, tuple(puzzle.goal), puzzle.width):
        return finish(puzzle, heuristic, budget, Tally(), StopReason.EXHAUSTED, None, 0)
    spent = budget.exceeded(0)
    if spent is not None:  # no node may be expanded: nothing to prepare, nothing to send
        return finish(puzzle, heuristic, budget, Tally(), spent, None, 0)
    spec: str | None = heuristic.spec
    try:
        if lacak.resolve_heuristic(puzzle, spec) != heuristic:
            spec = None
    except lacak.LacakError:
        spec = None  # not a registered heuristic: it travels with each task
    try:
        with budget:
            _, prepared = _prepared(puzzle, spec, heuristic)
    except lacak.LimitReachedError:
        if not budget.time_up():
            raise
        return finish(puzzle, heuristic, budget, Tally(), StopReason.TIME, None, 0)
    search = engine_for(puzzle, prepared, heuristic, limits, budget, None)
    if search.search.depth_cut is not None:
        raise lacak.InvalidOptionError(
            "a split search needs an admissible heuristic when the depth is limited"
        )
    splitter = _Splitter(puzzle, heuristic, spec, prepared, limits, budget, search.search,
                         executor, workers, split_depth)  # fmt: skip
    splitter.compile_once = functools.partial(compile_for_split, search)
    return splitter.run(search.first_bound())


#: How a search ends: why, the path's cells (when found), the depth to report.
_End = tuple[StopReason, list[int] | None, int]


class _Splitter:
    """One split search: makes the iterations' tasks, sends them, reads the answers."""

    def __init__(
        self,
        puzzle: Any,
        heuristic: lacak.Heuristic,
        spec: str | None,
        prepared: Any,
        limits: lacak.Limits,
        budget: lacak.Budget,
        search: Search,
        executor: Any,
        workers: int | None,
        split_depth: int,
    ) -> None:
        self.puzzle = puzzle
        self.heuristic = heuristic
        self.spec = spec
        self.prepared = prepared
        self.limits = limits
        self.budget = budget
        self.search = search
        self.executor = executor
        self.workers = workers
        self.split_depth = split_depth
        count = _worker_count(executor, workers)
        self.target = max(MIN_TASKS, TASKS_PER_WORKER * count)
        self.window = max(32, WINDOW_PER_WORKER * count)
        self.tally = Tally()
        # the deadline as wall-clock time, which every worker's clock reads alike
        self.deadline = (
            None
            if budget.deadline is None
            else time.time() + (budget.deadline - lacak.limits.now())
        )
        #: The iterations made and not yet decided, the first undecided in front.
        self.iterations: list[_Iteration] = []
        #: The bound of the next iteration to make.
        self.next_bound = 0.0
        #: Job index (of the running :func:`~lacak.batch.iter_many`) -> iteration, piece.
        self.where: list[tuple[_Iteration, int]] = []
        #: (nodes expanded, seconds of work) of each iteration decided so far.
        self.history: list[tuple[int, float]] = []
        #: Whether an iteration was split (later ones are larger: they are split too).
        self.splitting = bool(split_depth)
        #: Makes the compiled engine ready for the tasks once the search proves long
        #: (called once, after :data:`~lacak_sliding.tiles.idastar.engines.COMPILE_AFTER` seconds).
        self.compile_once: Callable[[], None] | None = None
        self.started = time.perf_counter()

    def long(self) -> bool:
        """Whether the search has run long enough to pay for the compiled engine."""
        from .engines import COMPILE_AFTER  # (deferred: the module imports numpy)

        return time.perf_counter() - self.started >= COMPILE_AFTER

    def small(self) -> bool:
        """Whether the next iteration is expected to be quick enough to search here."""
        if self.splitting:
            return False
        if not self.history:
            return True
        nodes, seconds = self.history[-1]
        growth = FIRST_GROWTH
        if len(self.history) > 1:
            growth = max(1.0, nodes / max(1, self.history[-2][0]))
        return seconds * growth < LOCAL_SECONDS

    def here(self, bound: float) -> _Iteration:
        """The iteration of ``bound`` searched whole in this process (one task: the root)."""
        s = self.search
        it = _Iteration(bound, [Piece((), s.start, -1, 0, 0, 0)], 0, 0)
        it.done[0] = _run(self.task(s.start, -1, bound, 0))
        return it

    def task(self, tiles: tuple[int, ...], prev: int, bound: float, above: int) -> _Task:
        """The task of a node, ``above`` nodes expanded above the frontier before it."""
        left = None
        if self.limits.max_expanded is not None:
            # at most what is left when the task starts, in the one-process order (the
            # tasks before it are not counted yet): the sum is checked when decided
            left = max(0, self.limits.max_expanded - self.tally.expanded - above)
        return _Task(self.puzzle, self.spec, None if self.spec else self.heuristic, tiles, prev,
                     bound, left, self.deadline)  # fmt: skip

    def pieces(self, bound: float) -> _Iteration:
        """The iteration of ``bound``, split at the given depth or the least that gives
        enough tasks."""
        s = self.search
        width, height = s.width, s.height

        def split(depth: int) -> _Iteration:
            pieces, expanded, generated = frontier(
                s.start, s.goal, width, height, self.prepared, bound, depth
            )
            return _Iteration(bound, pieces, expanded, generated)

        if self.split_depth:
            return split(self.split_depth)
        depth = 1
        it = split(depth)
        while (
            len(it.pieces) < self.target and depth < bound and it.pieces and not it.pieces[-1].goal
        ):
            depth += 1
            it = split(depth)
        return it

    def jobs(self) -> Iterator[_Task]:
        """The tasks of the iterations from :attr:`next_bound` on, made as the executor
        takes them, at most one iteration ahead of the first undecided one."""
        max_depth = self.search.max_depth
        while len(self.iterations) < 2:
            bound = self.next_bound
            if (max_depth is not None and bound > max_depth) or self.small():
                return
            self.splitting = True
            it = self.pieces(bound)
            self.iterations.append(it)
            self.next_bound = bound + 2
            for i, piece in enumerate(it.pieces):
                if piece.goal:
                    break
                assert piece.tiles is not None
                self.where.append((it, i))
                yield self.task(piece.tiles, piece.prev, bound - piece.depth, piece.expanded)

    def run(self, bound: float) -> SearchResult:
        """Search from the first bound to the end: a path, a limit, or no path."""
        self.next_bound = bound
        end: _End | None = self.limit_before(bound)
        while end is None:
            end = self.settle()
            if end is not None:
                break
            if self.small():
                self.iterations.append(self.here(self.next_bound))
                self.next_bound += 2
                continue
            self.where = []
            # tasks in flight: enough for every worker of a cluster, however many
            outcomes = iter_many(_run, self.jobs(), executor=self.executor,
                                 workers=self.workers, window=self.window)  # fmt: skip
            try:
                for record in outcomes:
                    it, i = self.where[record.index]
                    it.done[i] = record.unwrap()
                    end = self.settle()
                    if self.compile_once is not None and self.long():
                        compile_once, self.compile_once = self.compile_once, None
                        compile_once()
                    if self.search.watch.on:  # someone watches the progress display
                        self.search.watch(self.tally.expanded + sum(
                            d.expanded for made in self.iterations for d in made.done.values()))
                    if end is not None:
                        break
            finally:
                outcomes.close()  # a search decided early cancels the tasks left
        how, cells, depth = end
        return finish(self.puzzle, self.heuristic, self.budget, self.tally, how, cells, depth)

    def limit_before(self, bound: float) -> _End | None:
        """What stops the search before the iteration of ``bound`` (as the one-process
        search checks between iterations)."""
        max_depth = self.search.max_depth
        if max_depth is not None and bound > max_depth:
            return (StopReason.DEPTH, None, max_depth)
        if self.deadline is not None and time.time() >= self.deadline:
            return (StopReason.TIME, None, int(bound))
        return None

    def settle(self) -> _End | None:
        """Count the decided iterations in front, in order, into the tally: the end of
        the search (why, the path's cells, the depth) when one ends it, else ``None``."""
        max_expanded = self.limits.max_expanded
        while self.iterations:
            it = self.iterations[0]
            result = it.outcome()
            if result is None:
                return None
            self.iterations.pop(0)
            how, expanded, generated, what = result
            self.tally.iterations += 1
            self.tally.expanded += expanded
            self.tally.generated += generated
            self.history.append((expanded, sum(d.seconds for d in it.done.values())))
            if max_expanded is not None and self.tally.expanded > max_expanded:
                self.tally.expanded = max_expanded
                return (StopReason.NODES, None, int(it.bound))
            if how == "found":
                return (StopReason.GOAL, list(what), len(what))
            if how == "stopped":
                return (what, None, int(it.bound))
            end = self.limit_before(it.bound + 2)
            if end is not None:
                return end
        return None

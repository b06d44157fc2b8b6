"""What every engine of one ``idastar-tiles`` search shares: its board, limits and counts.

An engine (:class:`Engine`: the generated search, linear conflict, the explicit
stack, the compiled kernel) runs one IDA* iteration at a time: it reads the
:class:`Search` (the puzzle, the heuristic, the limits, the blank's neighbours),
counts into a :class:`Tally` carried from iteration to iteration (and from
engine to engine), and says how the iteration ended with a :class:`Step`. The
loop that drives them is :func:`lacak_sliding.tiles.idastar.deepen.deepen`;
:func:`finish` makes the :class:`~lacak.SearchResult` at the end.

Iterations: every move moves the blank by one cell, so the length of every
solution has the parity of the blank's distance to its goal cell; the bound
starts at the root's estimate rounded up to that parity (:func:`first_bound`)
and grows by two.
"""

from __future__ import annotations

import inspect
import math
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import attrs
import lacak
from lacak import SearchResult, StopReason

__all__ = [
    "STACK_MARGIN",
    "Abort",
    "Engine",
    "Handover",
    "Search",
    "Step",
    "Tally",
    "Watch",
    "depth_cap",
    "finish",
    "first_bound",
    "neighbours",
    "parity",
    "solvable",
    "stack_room",
    "tile_cells",
]

#: Blank moves in the order children are tried: the order of
#: ``SlidingPuzzle.successors`` (D, R, L, U).
_ORDER = (("D", 1, 0), ("R", 0, 1), ("L", 0, -1), ("U", -1, 0))

#: Frames kept free below the recursion limit for what a recursive search
#: calls at its deepest point (the limit check, a line's conflicts, an error).
STACK_MARGIN = 100


class Abort(Exception):
    """Stops the search; carries the blank cells of the stack, deepest first."""

    def __init__(self, reason: StopReason) -> None:
        super().__init__(reason)
        self.reason = reason
        self.stack: list[int] = []


class Handover(Abort):
    """Stops the generated search so that the compiled engine goes on from its node."""


def neighbours(width: int, height: int) -> list[list[tuple[str, int]]]:
    out = []
    for z in range(width * height):
        r, c = divmod(z, width)
        moves = []
        for action, dr, dc in _ORDER:
            rr, cc = r + dr, c + dc
            if 0 <= rr < height and 0 <= cc < width:
                moves.append((action, rr * width + cc))
        out.append(moves)
    return out


def solvable(tiles: Sequence[int], goal: Sequence[int], width: int) -> bool:
    def invariant(state: Sequence[int]) -> int:
        seq = [t for t in state if t]
        inv = sum(1 for i, a in enumerate(seq) for b in seq[i + 1 :] if a > b)
        if width % 2 == 0:
            inv += list(state).index(0) // width
        return inv % 2

    return invariant(tiles) == invariant(goal)


def tile_cells(state: Sequence[int]) -> list[int]:
    where = [0] * len(state)
    for cell, tile in enumerate(state):
        where[tile] = cell
    return where


def parity(start: Sequence[int], goal: Sequence[int], width: int) -> int:
    a, b = list(start).index(0), list(goal).index(0)
    return (abs(a // width - b // width) + abs(a % width - b % width)) % 2


def first_bound(h0: float, parity: int) -> int:
    bound = math.ceil(h0)
    if bound % 2 != parity:
        bound += 1
    return bound


def stack_room() -> int:
    """How many more frames a recursive search may use here: the recursion limit,
    less the frames in use and :data:`STACK_MARGIN` (the limit itself is never changed)."""
    frame = inspect.currentframe()
    used = 0
    while frame is not None:
        used += 1
        frame = frame.f_back
    return sys.getrecursionlimit() - used - STACK_MARGIN


def depth_cap(limits: lacak.Limits) -> int | None:
    caps = [v for v in (limits.max_depth, limits.max_frontier) if v is not None]
    return min(caps) if caps else None


# -- the one iteration loop ---------------------------------------------------------


@attrs.define
class Tally:
    """The counts of one search, carried from iteration to iteration (and engine to engine)."""

    expanded: int = 0
    generated: int = 0
    iterations: int = 0


@attrs.frozen
class Step:
    """How one iteration ended: a path (the blank's cells after the root), a limit that
    struck (with the depth to report), or the next bound."""

    found: list[int] | None = None
    #: The blank's cells from the root to the node where another engine goes on.
    resume: list[int] | None = None
    stopped: StopReason | None = None
    depth: int = 0
    next_bound: float = 0.0


class Search:
    """What every engine of one search shares: the puzzle, the heuristic and the limits."""

    def __init__(
        self, puzzle: Any, heuristic: lacak.Heuristic, limits: lacak.Limits, budget: lacak.Budget
    ) -> None:
        self.puzzle = puzzle
        self.heuristic = heuristic
        self.limits = limits
        self.budget = budget
        #: When the search began (after preparing the heuristic).
        self.started = time.perf_counter()
        self.width, self.height = puzzle.width, puzzle.height
        self.start = tuple(puzzle.initial)
        self.goal = list(puzzle.goal)
        self.nbrs = neighbours(self.width, self.height)
        self.parity = parity(self.start, self.goal, self.width)
        self.max_expanded = limits.max_expanded
        self.max_depth = depth_cap(limits)
        # the budget's deadline (it may be a running command's, earlier than its own)
        self.deadline = budget.deadline
        #: The clock the deadline is a time of (lacak.limits.now's: a test's fake one too).
        self.clock = lacak.limits.clock()
        #: Shows a search past a second on the progress display, when someone is watching.
        self.watch = Watch(budget)
        #: Whether the clock must be read now and then (a deadline, or someone watching).
        self.timed = self.deadline is not None or self.watch.on
        #: Asked at the generated search's checkpoints: whether the compiled engine
        #: takes over now (set by :func:`lacak_sliding.tiles.idastar.engines.upgrade`).
        self.handover: Callable[[], bool] | None = None
        # an inadmissible heuristic may put a goal within max_depth beyond a bound larger
        # than max_depth: then children deeper than max_depth are cut, and the bound grows
        # until no child within max_depth was cut by it (only the explicit stack does this)
        self.depth_cut = None if heuristic.admissible else self.max_depth
        #: The blank's cell before the start (a subtree searched on its own, as a task of
        #: :mod:`lacak_sliding.tiles.idastar.split`): the first move does not go back there.
        self.prev = -1


class Watch:
    """Reports a search running past a second to :mod:`lacak.progress` (expanded nodes and
    rate), at most five times a second; ``on`` is false when nobody is watching."""

    def __init__(self, budget: lacak.Budget) -> None:
        self.on = lacak.progress.active()
        self.started = budget.started
        self.shown = 0.0

    def __call__(self, expanded: int) -> None:
        now = time.perf_counter()
        if now - self.shown > 0.2:
            self.shown = now
            seconds = now - self.started
            if seconds >= lacak.Budget.SHOW_AFTER:
                lacak.progress.searching(expanded, seconds)


class Engine(Protocol):
    """One way to run IDA* iterations; :func:`deepen` drives every engine the same."""

    search: Search

    def first_bound(self) -> float:
        """The first iteration's bound: the root's estimate, rounded up to the parity."""

    def fits(self, bound: float) -> bool:
        """Whether this engine can search an iteration of ``bound`` here (stack room)."""

    def fallback(self) -> Engine:
        """The explicit-stack engine that goes on where this one cannot (same nodes, same order)."""

    def iterate(self, bound: float, tally: Tally) -> Step:
        """Search one iteration of ``bound``, counting into ``tally``."""


def finish(
    puzzle: Any,
    heuristic: lacak.Heuristic,
    budget: lacak.Budget,
    tally: Tally,
    stopped: StopReason,
    cells: list[int] | None,
    depth: int,
) -> SearchResult:
    """The result: the path from the blank's cells when found (``cells``), else why it stopped."""
    start = tuple(puzzle.initial)
    states: list[tuple[int, ...]] | None = None
    actions: list[str] = []
    if cells is not None:
        width = puzzle.width
        names = {width: "D", -width: "U", 1: "R", -1: "L"}
        states = [start]
        board = list(start)
        z = board.index(0)
        for nz in cells:
            actions.append(names[nz - z])
            board[z], board[nz] = board[nz], 0
            states.append(tuple(board))
            z = nz
    return SearchResult.finished(
        start,
        stopped,
        states=states,
        actions=actions,
        expanded=tally.expanded,
        generated=tally.generated,
        max_frontier=depth,
        depth=depth,
        iterations=tally.iterations,
        budget=budget,
        heuristic=heuristic,
        strategy="idastar-tiles",
    )

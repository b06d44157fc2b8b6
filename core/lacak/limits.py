"""Bounds on a search, and the budget object searchers count against.

Every searcher accepts a :class:`Limits` and stops cleanly, returning what it
has, when one of them is reached. Searchers keep their counters in local
variables on the hot path and ask a :class:`Budget` about them; the budget
reads the clock only every few hundred checks, so a limit costs almost nothing.

The time limit covers set-up too. There is one *deadline* for the work
running now (a :mod:`contextvars` variable, so threads and tasks keep their
own): ``with budget:`` sets it to a budget's deadline, ``with deadline(at):``
to a time of one's own. A budget started inside (``limits.start()``) ends no
later than it, and set-up code (reading a file, building a table or a
database) calls :func:`check_deadline` between chunks of its work::

    with limits.start() as budget:
        maze = load(file)        # calls check_deadline("reading the maze") now and then
        result = lacak.solve(maze.puzzle(), limits=limits)   # same deadline

A budget also reports a search running past a second to
:mod:`lacak.progress` (only when someone is watching). In the ``lacak``
script, plugin code that runs on well past the deadline in force ends the
process with one line naming it (:func:`lacak.plugin.isolation.watchdog`).

Every time these bounds read is :func:`now` (:func:`time.perf_counter` unless
:func:`use_clock` gives another clock for the block), so a test can prove a
bound by counting the looks at a fake clock instead of timing the machine::

    ticks = itertools.count()
    with use_clock(lambda: float(next(ticks))):   # one "second" per look
        result = lacak.solve(puzzle, limits=Limits(seconds=5))  # stops after 5 looks
"""

from __future__ import annotations

import contextlib
import contextvars
import enum
import math
import reprlib
import time
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from . import progress
from .errors import InvalidOptionError, LimitReachedError

__all__ = [
    "Budget",
    "Limits",
    "StopReason",
    "check_deadline",
    "clock",
    "current_deadline",
    "deadline",
    "now",
    "use_clock",
]


class StopReason(str, enum.Enum):
    """Why a search stopped."""

    #: A goal was reached.
    GOAL = "goal"
    #: The whole (reachable, depth-bounded) space was searched without a goal.
    EXHAUSTED = "exhausted"
    #: The goal may lie deeper than ``Limits.max_depth``.
    DEPTH = "depth-limit"
    #: ``Limits.max_expanded`` nodes were expanded.
    NODES = "node-limit"
    #: ``Limits.seconds`` elapsed.
    TIME = "time-limit"
    #: The frontier or closed set reached its size limit.
    MEMORY = "memory-limit"

    def __str__(self) -> str:
        return self.value

    @property
    def is_limit(self) -> bool:
        """True when a limit, not the search itself, ended the search."""
        return self not in (StopReason.GOAL, StopReason.EXHAUSTED)


def _count(name: str) -> Callable[[object, Any, Any], None]:
    """A validator: ``None`` or a non-negative ``int`` (not a bool), of any size."""

    def check(_instance: object, _attribute: attrs.Attribute, value: Any) -> None:
        if value is None:
            return
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidOptionError(
                f"{name} must be a non-negative integer, got {reprlib.repr(value)}"
            )

    return check


def _seconds(value: Any) -> Any:
    """Whole seconds become a float (an ``int`` too large for a float is refused)."""
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:
            raise InvalidOptionError(
                f"seconds must be a finite non-negative number, got {reprlib.repr(value)}"
            ) from None
    return value


def _check_seconds(_instance: object, _attribute: attrs.Attribute, value: Any) -> None:
    # ``not 0 <= value < inf`` also refuses nan, which compares false with everything
    if value is not None and (not isinstance(value, float) or not 0.0 <= value < math.inf):
        raise InvalidOptionError(
            "seconds must be a finite non-negative number (None for no time limit), "
            f"got {reprlib.repr(value)}"
        )


@attrs.frozen(kw_only=True)
class Limits:
    """Bounds that every searcher honours. ``None`` means unbounded.

    Counts are non-negative integers (any size); ``seconds`` is a finite,
    non-negative number (``nan`` and ``inf`` are refused: ``None`` is "no
    limit").

    >>> Limits(max_depth=20, seconds=1.5)
    Limits(max_depth=20, max_expanded=None, seconds=1.5, max_frontier=None, max_closed=None)
    """

    #: Deepest level (number of moves from the start) a search may look at.
    max_depth: int | None = attrs.field(default=None, validator=_count("max_depth"))
    #: Most nodes a search may expand (check for the goal and generate children of).
    max_expanded: int | None = attrs.field(default=None, validator=_count("max_expanded"))
    #: Wall-clock seconds a search may run: finite and non-negative.
    seconds: float | None = attrs.field(default=None, converter=_seconds, validator=_check_seconds)
    #: Largest frontier (open list) a search may hold.
    max_frontier: int | None = attrs.field(default=None, validator=_count("max_frontier"))
    #: Largest closed (visited) set a search may hold.
    max_closed: int | None = attrs.field(default=None, validator=_count("max_closed"))

    def start(self) -> Budget:
        """Start the clock and return a :class:`Budget` for one search.

        Inside a deadline (``with budget:`` of a running budget, or
        :func:`deadline`), the new budget's deadline is the earlier of its own
        and that one, so a search started after a slow set-up still ends when
        the command's time is up.
        """
        return Budget(self)


#: Limits with no bound at all.
UNLIMITED = Limits()


_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "lacak_deadline", default=None
)

# -- the clock (injectable, for tests that count instead of timing) -----------------------

_CLOCK: contextvars.ContextVar[Callable[[], float]] = contextvars.ContextVar(
    "lacak_clock", default=time.perf_counter
)


def clock() -> Callable[[], float]:
    """The clock :func:`now` reads in the block running now: :func:`time.perf_counter`,
    or the one :func:`use_clock` set. A search loop that reads the time often keeps it
    and calls it, rather than :func:`now` at each look."""
    return _CLOCK.get()


def now() -> float:
    """The time every deadline and budget is read against: :func:`time.perf_counter`,
    or the clock :func:`use_clock` set for the block running now."""
    return _CLOCK.get()()


@contextlib.contextmanager
def use_clock(clock: Callable[[], float]) -> Iterator[None]:
    """Within the block (this thread or task), lacak's limits read ``clock`` instead of
    :func:`time.perf_counter`: budgets started there, :func:`deadline` times and
    :func:`check_deadline`.

    For tests that bound work without timing the machine: a clock that moves one
    unit per look turns ``seconds=k`` into "at most ``k`` looks at the clock".

    >>> import itertools
    >>> ticks = itertools.count()
    >>> with use_clock(lambda: float(next(ticks))):
    ...     budget = Limits(seconds=2).start()   # started at 0: the deadline is 2
    ...     budget.time_up(), budget.time_up(), budget.time_up()
    (False, True, True)
    """
    token = _CLOCK.set(clock)
    try:
        yield
    finally:
        _CLOCK.reset(token)


def current_deadline() -> float | None:
    """The time (of :func:`now`) the work running now must end by, or ``None``."""
    return _DEADLINE.get()


@contextlib.contextmanager
def deadline(at: float | None) -> Iterator[None]:
    """Within the block, lacak's long preparation work stops at ``at``.

    ``at`` is a time of :func:`now` (``None``: no deadline; a
    :class:`Budget`'s :attr:`~Budget.deadline` fits). Work that happens
    before a search can count its nodes, such as normalising the words of a
    dictionary file read for the first time, calls :func:`check_deadline`
    between batches, so a search's time limit also bounds its set-up.
    Blocks nest; the inner deadline holds inside (``with budget:`` is the
    same with the budget's deadline, which is never later than the outer one).

    >>> import time
    >>> with deadline(time.perf_counter() + 60):
    ...     check_deadline("waiting")  # still in time: nothing happens
    """
    token = _DEADLINE.set(at)
    watched = _watched(at)
    try:
        yield
    finally:
        _left(watched)
        _DEADLINE.reset(token)


#: The ``lacak`` script's watchdog (:mod:`lacak.plugin.isolation.watch`): what it is
#: told when a deadline begins (``entered(at) -> entry``) and ends (``left(entry)``).
_WATCHDOG: list[Callable[..., Any]] = []


def watch_deadlines(entered: Callable[[float | None], object], left: Callable[[object], None]) -> None:
    """Tell ``entered(at)`` of each deadline (``perf_counter`` time, or ``None``) that comes
    into force in a block, and ``left(entry)`` (with what ``entered`` returned) when it ends:
    how the watchdog, which lives in the plugin host, learns of the kernel's deadlines."""
    _WATCHDOG[:] = [entered, left]


def _watched(at: float | None) -> object:
    """Tell the ``lacak`` script's watchdog (:func:`lacak.plugin.isolation.watchdog`) that the
    deadline ``at`` is in force, so that plugin code running long past it ends the
    process; a fake clock's times (:func:`use_clock`) are not the watchdog's."""
    if not _WATCHDOG or _CLOCK.get() is not time.perf_counter:
        return None
    return _WATCHDOG[0](at)


def _left(watched: object) -> None:
    if watched is not None and _WATCHDOG:
        _WATCHDOG[1](watched)


def check_deadline(doing: str) -> None:
    """Raise :class:`~lacak.LimitReachedError` when the deadline of the work running now
    (:func:`deadline`, ``with budget:``) has passed.

    :param doing: what was being done, as a gerund phrase ("reading the maze").
    :raises LimitReachedError: ``the time limit was reached while <doing>``.
    """
    at = _DEADLINE.get()
    if at is not None and now() >= at:
        raise LimitReachedError(f"the time limit was reached while {doing}")


@attrs.define
class Budget:
    """A running search's view of its :class:`Limits`.

    Call :meth:`exceeded` with the current counters; it returns the
    :class:`StopReason` of the first limit reached, or ``None``.

    ``with budget:`` makes its deadline the :func:`current_deadline` within the
    block: searches started there end no later, and set-up code checks it with
    :func:`check_deadline`.
    """

    limits: Limits
    started: float = attrs.field(factory=now, init=False)
    _calls: int = attrs.field(default=0, init=False)
    _deadline: float | None = attrs.field(default=None, init=False)
    _tokens: list[tuple[contextvars.Token[float | None], object]] = attrs.field(
        factory=list, init=False
    )
    _watch: bool = attrs.field(default=False, init=False)
    _shown_at: float = attrs.field(default=0.0, init=False)

    #: How many :meth:`exceeded` calls may pass between two looks at the clock.
    CLOCK_EVERY = 256

    #: A search is shown on the progress display once it has run this many seconds.
    SHOW_AFTER = 1.0

    def __attrs_post_init__(self) -> None:
        if self.limits.seconds is not None:
            self._deadline = self.started + self.limits.seconds
        outer = _DEADLINE.get()
        if outer is not None and (self._deadline is None or outer < self._deadline):
            self._deadline = outer
        self._watch = progress.active()

    def __enter__(self) -> Budget:
        self._tokens.append((_DEADLINE.set(self._deadline), _watched(self._deadline)))
        return self

    def __exit__(self, *_exc: object) -> None:
        token, watched = self._tokens.pop()
        _left(watched)
        _DEADLINE.reset(token)

    @property
    def deadline(self) -> float | None:
        """The time (of :func:`now`) at which the time is up (``None``: no time limit)."""
        return self._deadline

    def elapsed(self) -> float:
        """Seconds since the budget was started."""
        return now() - self.started

    def time_up(self) -> bool:
        """Whether the deadline has passed (reads the clock each call)."""
        return self._deadline is not None and now() >= self._deadline

    def check_time(self, what: str) -> None:
        """Raise :class:`~lacak.LimitReachedError` when the deadline has passed.

        For set-up loops (between chunks of work, not per item).

        :param what: what was being done, as a gerund phrase ("reading the maze").
        :raises LimitReachedError: the time is up.
        """
        if self.time_up():
            raise LimitReachedError(f"the time limit was reached while {what}")

    def exceeded(self, expanded: int, frontier: int = 0, closed: int = 0) -> StopReason | None:
        """The first limit the counters have reached, or ``None``."""
        limits = self.limits
        if limits.max_expanded is not None and expanded >= limits.max_expanded:
            return StopReason.NODES
        if limits.max_frontier is not None and frontier > limits.max_frontier:
            return StopReason.MEMORY
        if limits.max_closed is not None and closed > limits.max_closed:
            return StopReason.MEMORY
        if self._deadline is not None or self._watch:
            self._calls += 1
            if self._calls >= self.CLOCK_EVERY or expanded < self.CLOCK_EVERY:
                self._calls = 0
                at = now()
                if self._deadline is not None and at >= self._deadline:
                    return StopReason.TIME
                if self._watch and at - self._shown_at > 0.2:
                    self._show(expanded, at)
        return None

    def _show(self, expanded: int, now: float) -> None:
        """Tell the progress display how the search goes, once it has run a while."""
        self._shown_at = now
        seconds = now - self.started
        if seconds >= self.SHOW_AFTER:
            progress.searching(expanded, seconds)

    def depth_allowed(self, depth: int) -> bool:
        """Whether a node at ``depth`` may be generated."""
        return self.limits.max_depth is None or depth <= self.limits.max_depth

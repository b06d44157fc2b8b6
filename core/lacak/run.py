"""One solve run: what ``lacak KIND solve``, the web API's ``/api/kinds/KIND/solve``
and a batch job's solve step each do, in one place (tox's ``execute()`` is the shape).

:func:`solve_run` reads and parses the puzzle, chooses the strategy and heuristic
(:func:`lacak.choose`), types the strategy's options, records an optional trace and
searches, all under ONE deadline that covers reading and preparing too. A time
limit reached before the search began gives the "stopped before the search"
result (:func:`stopped_before_search`). The surfaces only translate their input
into its arguments and its :class:`Run` into their output.

This is a kernel module: it imports nothing from :mod:`lacak.cli`, :mod:`lacak.web`
or :mod:`lacak.batch` (they import it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from . import api
from .errors import LimitReachedError
from .interfaces import Heuristic, Searcher, describe_state
from .limits import Limits, StopReason
from .plugin.registry import Registry, default_registry
from .results import SearchResult, SearchStats
from .trace import SearchTrace

__all__ = ["NOT_CHOSEN", "Run", "solve_run", "stopped_before_search"]

#: The ``strategy`` of a result when the time ran out before a strategy was chosen.
NOT_CHOSEN = "none"

#: Strategy options: already typed, or a function of the chosen searcher that types
#: them (called inside the deadline, after the choice).
OptionsLike = Mapping[str, Any] | Callable[[Searcher], Mapping[str, Any]] | None


@attrs.define
class Run:
    """What one solve run gave."""

    #: The kind searched.
    kind: str
    #: The puzzle searched (``None`` when the time ran out before it was read).
    instance: Any
    #: What :func:`lacak.choose` decided (``None``: the time ran out before).
    choice: api.Choice | None
    #: The search's result (for a run stopped before the search, one that found
    #: nothing, stopped by ``time-limit``).
    result: SearchResult
    #: The kind's advice when a limit stopped the search, or ``None``.
    advice: str | None = None
    #: The recorded trace, when one was asked for.
    trace: SearchTrace | None = None
    #: When the time ran out before the search: the error that said so.
    stopped_before: LimitReachedError | None = None
    #: The kind's extras (``extras(puzzle, result)``), handed to the result.
    extras: Any = None

    @property
    def label(self) -> str | None:
        """The choice's label (``"A* with manhattan"``), or ``None``."""
        return self.choice.label if self.choice is not None else None

    @property
    def notes(self) -> tuple[str, ...]:
        """What the choice noted."""
        return tuple(self.choice.notes) if self.choice is not None else ()

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON data (docs/result.schema.json), with the kind's extras
        (none for a run stopped before the search: there is no puzzle)."""
        if self.stopped_before is not None:
            return self.result.to_dict()
        return self.result.to_dict(self.instance, extras=self.extras)


def stopped_before_search(
    kind: str,
    *,
    strategy: str | None,
    heuristic: str | Heuristic | None,
    seconds: float,
) -> SearchResult:
    """The result of a run whose time ran out before the search began: found nothing,
    stopped by ``time-limit``, the strategy :data:`NOT_CHOSEN` when none was named."""
    if isinstance(heuristic, Heuristic):
        heuristic = heuristic.spec
    return SearchResult(
        found=False,
        stopped=StopReason.TIME,
        stats=SearchStats(seconds=seconds),
        strategy=strategy or NOT_CHOSEN,
        kind=kind,
        heuristic=heuristic if heuristic and heuristic != api.NO_HEURISTIC else None,
    )


def solve_run(
    kind: str,
    source: str | Callable[[], Any],
    *,
    parse_options: Mapping[str, Any] | None = None,
    strategy: str | None = None,
    heuristic: str | Heuristic | None = None,
    options: OptionsLike = None,
    limits: Limits | None = None,
    trace: int | bool | SearchTrace | None = None,
    before_search: Callable[[Any, api.Choice, dict[str, Any]], None] | None = None,
    catch_early_stop: bool = True,
    registry: Registry | None = None,
) -> Run:
    """Read, parse, choose, type the options, search: one solve run of ``kind``.

    :param source: the puzzle's text (parsed with ``parse_options``), or a function
        that reads and gives the puzzle (called inside the deadline).
    :param strategy: the strategy's name (``None``: the best for the instance).
    :param heuristic: the heuristic's spec or object (``None``: the best).
    :param options: the strategy's options, typed or a function of the searcher.
    :param limits: the bounds; ``limits.seconds`` covers reading and preparing too.
    :param trace: a :class:`SearchTrace` to record into, a number of nodes to
        record (``True``: the default number), or nothing.
    :param before_search: called as ``(puzzle, choice, options)`` just before the
        search, inside the deadline (a surface's own checks; it may add options).
    :param catch_early_stop: give the "stopped before the search" :class:`Run` when
        the time runs out before the search (else the error propagates).
    :raises LimitReachedError: a limit reached before the search other than the
        time, or any when ``catch_early_stop`` is false.
    """
    reg = registry if registry is not None else default_registry()
    kind_type = reg.puzzle_types().get(kind)  # (a batch kind may have no PuzzleType)
    limits = limits if limits is not None else Limits()
    budget = limits.start()
    choice: api.Choice | None = None
    recorder: SearchTrace | None = None
    with budget:
        try:
            if callable(source):
                puzzle = source()
            else:
                puzzle = api.parse(kind, source, registry=reg, **dict(parse_options or {}))
            choice = api.choose(puzzle, strategy, heuristic, registry=reg)
            typed = dict(options(choice.searcher) if callable(options) else (options or {}))
            if isinstance(trace, SearchTrace):
                recorder = trace
            elif trace:
                describe = functools.partial(describe_state, puzzle)
                recorder = (
                    SearchTrace(describe=describe)
                    if trace is True
                    else SearchTrace(max_nodes=int(trace), describe=describe)
                )
            if before_search is not None:
                before_search(puzzle, choice, typed)
        except LimitReachedError as stop:
            if not catch_early_stop or not budget.time_up():
                raise
            if choice is not None:
                strategy, heuristic = choice.searcher.name, choice.heuristic
            result = stopped_before_search(
                kind, strategy=strategy, heuristic=heuristic, seconds=budget.elapsed()
            )
            return Run(kind, None, None, result, stopped_before=stop,
                       advice=f"the time limit was reached before the search began: {stop}")  # fmt: skip
        if choice.objective is not None:
            typed["objective"] = choice.objective
        result = choice.searcher(
            puzzle, heuristic=choice.heuristic, limits=limits, trace=recorder, **typed
        )
    advice = None
    if result.stopped.is_limit and kind_type is not None and kind_type.advice is not None:
        advice = kind_type.advice(puzzle, result)
    return Run(kind, puzzle, choice, result, advice=advice, trace=recorder,
               extras=kind_type.extras if kind_type is not None else None)  # fmt: skip

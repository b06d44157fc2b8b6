"""Limits and the budget searchers count against."""

from __future__ import annotations

import lacak
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from lacak.testing import strategies as lst


@given(limits=lst.limits())
def test_limits_are_frozen_and_round_trip(limits: lacak.Limits) -> None:
    import attrs

    assert lacak.Limits(**attrs.asdict(limits)) == limits
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        limits.max_depth = 3  # type: ignore[misc]


@given(
    field=st.sampled_from(["max_depth", "max_expanded", "max_frontier", "max_closed"]),
    value=st.one_of(st.integers(max_value=-1), st.floats(allow_nan=True), st.text(), st.booleans()),
)
def test_bad_integer_limits_are_rejected(field: str, value: object) -> None:
    with pytest.raises(lacak.InvalidOptionError, match=field):
        lacak.Limits(**{field: value})


@given(
    value=st.one_of(
        st.floats(max_value=-1e-9),
        st.just("1s"),
        st.booleans(),
        st.just(float("nan")),
        st.just(float("inf")),
        st.integers(min_value=2**1024),
        st.integers(max_value=-1),
    )
)
@example(value=10**400)
@example(value=float("nan"))
def test_bad_seconds_are_rejected(value: object) -> None:
    with pytest.raises(lacak.InvalidOptionError, match="seconds must be a finite"):
        lacak.Limits(seconds=value)  # type: ignore[arg-type]


@given(value=st.integers(0, 10**300) | st.floats(0, 1e300))
def test_any_finite_non_negative_seconds_are_kept(value: float) -> None:
    assert lacak.Limits(seconds=value).seconds == float(value)


@given(
    field=st.sampled_from(["max_depth", "max_expanded", "max_frontier", "max_closed"]),
    value=st.integers(0, 10**400),
)
@example(field="max_depth", value=10**400)
def test_integer_limits_of_any_size_are_kept(field: str, value: int) -> None:
    limits = lacak.Limits(**{field: value})
    assert getattr(limits, field) == value
    assert limits.start().exceeded(0) in (None, lacak.StopReason.NODES)


@given(
    limits=lst.limits(),
    expanded=st.integers(0, 10_000),
    frontier=st.integers(0, 10_000),
    closed=st.integers(0, 10_000),
)
def test_budget_reports_the_limit_reached(
    limits: lacak.Limits, expanded: int, frontier: int, closed: int
) -> None:
    budget = limits.start()
    reason = budget.exceeded(expanded, frontier, closed)
    if limits.max_expanded is not None and expanded >= limits.max_expanded:
        assert reason is lacak.StopReason.NODES
    elif (limits.max_frontier is not None and frontier > limits.max_frontier) or (
        limits.max_closed is not None and closed > limits.max_closed
    ):
        assert reason is lacak.StopReason.MEMORY
    elif limits.seconds is None or limits.seconds > 60:
        assert reason is None
    if reason is not None:
        assert reason.is_limit


def test_zero_seconds_stops_at_once() -> None:
    budget = lacak.Limits(seconds=0).start()
    assert budget.exceeded(0) is lacak.StopReason.TIME


@given(depth=st.integers(0, 100), limit=st.none() | st.integers(0, 100))
def test_depth_allowed(depth: int, limit: int | None) -> None:
    allowed = lacak.Limits(max_depth=limit).start().depth_allowed(depth)
    assert allowed == (limit is None or depth <= limit)


def test_stop_reasons_that_are_limits() -> None:
    assert not lacak.StopReason.GOAL.is_limit
    assert not lacak.StopReason.EXHAUSTED.is_limit
    assert {r for r in lacak.StopReason if r.is_limit} == {
        lacak.StopReason.DEPTH,
        lacak.StopReason.NODES,
        lacak.StopReason.TIME,
        lacak.StopReason.MEMORY,
    }
    assert str(lacak.StopReason.DEPTH) == "depth-limit"


def test_a_budget_knows_its_deadline() -> None:
    assert lacak.Limits().start().deadline is None
    budget = lacak.Limits(seconds=2.5).start()
    assert budget.deadline == budget.started + 2.5


def test_check_deadline_raises_only_past_the_innermost_deadline() -> None:
    import time

    lacak.check_deadline("outside any deadline")  # no deadline: nothing happens
    with lacak.deadline(time.perf_counter() - 1):
        with pytest.raises(
            lacak.LimitReachedError, match="the time limit was reached while sorting"
        ):
            lacak.check_deadline("sorting")
        with lacak.deadline(None):
            lacak.check_deadline("inside a block without a deadline")
        with lacak.deadline(time.perf_counter() + 60):
            lacak.check_deadline("well in time")
        with pytest.raises(lacak.LimitReachedError):
            lacak.check_deadline("back in the outer block")
    lacak.check_deadline("after the block")


def test_reading_a_dictionary_file_stops_at_the_deadline(tmp_path, monkeypatch) -> None:
    import json
    import time

    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "words.json"
    # 20,000 different four-letter words (i written in base 26 with the letters A-Z)
    words = ["".join(chr(65 + i // 26**k % 26) for k in range(4)) for i in range(20_000)]
    path.write_text(json.dumps(words))
    with (
        lacak.deadline(time.perf_counter()),
        pytest.raises(lacak.LimitReachedError, match="reading"),
    ):
        lacak.Dictionary.from_file(path)
    assert not list((tmp_path / "cache").rglob("*.marshal"))  # nothing half-read is cached
    with lacak.deadline(time.perf_counter() + 600):
        assert len(lacak.Dictionary.from_file(path)) == 20_000


# -- the running budget: limits cover set-up (issue 10) ---------------------------------


def test_a_budget_s_deadline_is_the_current_one_inside_its_block() -> None:
    assert lacak.current_deadline() is None
    outer = lacak.Limits(seconds=60).start()
    with outer as entered:
        assert entered is outer and lacak.current_deadline() == outer.deadline
        inner = lacak.Limits(seconds=5).start()
        with inner:
            assert lacak.current_deadline() == inner.deadline
        assert lacak.current_deadline() == outer.deadline
    assert lacak.current_deadline() is None


@given(own=st.none() | st.floats(0, 100), outer=st.none() | st.floats(0, 100))
def test_a_search_started_inside_a_budget_ends_no_later(
    own: float | None, outer: float | None
) -> None:
    """A command starts its clock before loading; the search it then starts inherits the deadline."""
    command = lacak.Limits(seconds=outer).start()
    with command:
        search = lacak.Limits(seconds=own).start()
    deadlines = [
        d
        for d in (command.deadline, None if own is None else search.started + own)
        if d is not None
    ]
    assert search.deadline == (min(deadlines) if deadlines else None)


def test_check_time_raises_once_the_deadline_has_passed() -> None:
    budget = lacak.Limits(seconds=0).start()
    assert budget.time_up()
    with pytest.raises(lacak.LimitReachedError, match="time limit was reached while reading"):
        budget.check_time("reading the maze")
    relaxed = lacak.Limits(seconds=3600).start()
    assert not relaxed.time_up()
    relaxed.check_time("reading the maze")  # no error
    unlimited = lacak.Limits().start()
    assert unlimited.deadline is None and not unlimited.time_up()


def test_a_searcher_that_runs_out_of_memory_is_an_out_of_memory_error() -> None:
    def greedy(puzzle: object, **_kwargs: object) -> lacak.SearchResult:
        raise MemoryError

    searcher = lacak.Searcher(name="greedy", search=greedy)
    with pytest.raises(lacak.OutOfMemoryError, match="strategy 'greedy'") as raised:
        searcher(lacak.testing.GraphPuzzle(edges={}, initial=0, goals={1}))
    assert isinstance(raised.value, lacak.LacakError)


def test_an_injected_clock_is_what_budgets_and_deadlines_read() -> None:
    """``use_clock``: a test counts looks at a fake clock instead of timing the machine."""
    import itertools

    from lacak.limits import now, use_clock

    ticks = itertools.count()
    with use_clock(lambda: float(next(ticks))):
        assert now() == 0.0
        budget = lacak.Limits(seconds=3).start()  # started at 1: up at 4
        assert budget.deadline == 4.0
        assert [budget.time_up() for _ in range(3)] == [False, False, True]  # looks 2, 3, 4
        with lacak.deadline(10.0):
            lacak.check_deadline("waiting")  # 5
            inner = lacak.Limits(seconds=100).start()  # no later than the outer deadline
            assert inner.deadline == 10.0
        with lacak.deadline(0.0), pytest.raises(lacak.LimitReachedError, match="waiting"):
            lacak.check_deadline("waiting")
    import time

    assert abs(now() - time.perf_counter()) < 600  # the real clock again
    assert lacak.Limits(seconds=60).start().time_up() is False

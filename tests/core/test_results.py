"""Building results: ``SearchResult.from_path``, ``from_states`` and ``not_found``."""

from __future__ import annotations

import itertools

import attrs
import lacak
import pytest
from hypothesis import given
from hypothesis import strategies as st
from lacak.output import plural
from lacak.testing import GraphPuzzle, replay
from lacak.testing import strategies as lst


@st.composite
def walks(draw: st.DrawFn) -> tuple[GraphPuzzle, list[tuple[str, int, float]]]:
    """A random graph and a random walk along its edges, to the graph's one goal."""
    puzzle = draw(lst.graph_puzzles())
    state, walk = puzzle.initial, []
    for _ in range(draw(st.integers(0, 6))):
        moves = puzzle.successors(state)
        if not moves:
            break
        action, state, cost = draw(st.sampled_from(moves))
        walk.append((action, state, cost))
    return attrs.evolve(puzzle, goals={state}), walk


@given(walks())
def test_from_states_and_from_path_agree(case: tuple[GraphPuzzle, list]) -> None:
    puzzle, walk = case
    states = [puzzle.initial, *(s for _, s, _ in walk)]
    actions = [a for a, _, _ in walk]
    cost = sum(c for _, _, c in walk)
    stats = lacak.SearchStats(expanded=len(states))
    built = lacak.SearchResult.from_states(states, actions, cost=cost, stats=stats, strategy="t")
    assert built == lacak.SearchResult.from_path(walk, puzzle.initial, stats=stats, strategy="t")
    assert built.found and built.stopped is lacak.StopReason.GOAL
    assert built.states == tuple(states) and built.actions == tuple(actions)
    assert built.goal == states[-1] and built.length == len(walk)
    assert replay(puzzle, built) == pytest.approx(cost) == built.cost
    assert built.check() is built


@given(st.lists(st.integers(), min_size=1, max_size=8))
def test_from_states_costs_one_per_action_by_default(states: list[int]) -> None:
    actions = [f"{a}>{b}" for a, b in itertools.pairwise(states)]
    result = lacak.SearchResult.from_states(iter(states), iter(actions))
    assert result.cost == float(len(actions)) and isinstance(result.cost, float)
    assert result.states == tuple(states) and result.actions == tuple(actions)


@pytest.mark.parametrize(("states", "actions"), [([], []), ([0], ["a"]), ([0, 1, 2], ["a"])])
def test_from_states_refuses_a_broken_path(states: list[int], actions: list[str]) -> None:
    expected = f"{plural(len(actions), 'action')} has {plural(len(actions) + 1, 'state')}"
    with pytest.raises(ValueError, match=expected):
        lacak.SearchResult.from_states(states, actions)


@pytest.mark.parametrize(
    "stopped", [reason for reason in lacak.StopReason if reason is not lacak.StopReason.GOAL]
)
def test_not_found(stopped: lacak.StopReason) -> None:
    trace = lacak.SearchTrace()
    stats = lacak.SearchStats(expanded=3, seconds=0.5)
    result = lacak.SearchResult.not_found(
        "start", stopped, stats=stats, strategy="t", heuristic="h", trace=trace
    )
    assert result == lacak.SearchResult(
        found=False, states=("start",), stopped=stopped, stats=stats, strategy="t", heuristic="h"
    )
    assert result.trace is trace and result.actions == () and result.cost == 0.0
    assert result.goal is None and result.length == 0
    error = lacak.LimitReachedError if stopped.is_limit else lacak.UnsolvableError
    with pytest.raises(error):
        result.check()


def test_not_found_refuses_the_goal() -> None:
    with pytest.raises(ValueError, match="without a goal"):
        lacak.SearchResult.not_found("start", lacak.StopReason.GOAL)


@attrs.frozen(kw_only=True)
class _Richer(lacak.SearchResult):
    note: str = ""


def test_subclasses_get_their_own_class_and_fields() -> None:
    found = _Richer.from_states(["a", "b"], ["x"], note="found")
    missing = _Richer.not_found("a", lacak.StopReason.EXHAUSTED, note="missing")
    walked = _Richer.from_path([("x", "b", 1.0)], "a", note="walked")
    assert [type(r) for r in (found, missing, walked)] == [_Richer] * 3
    assert (found.note, missing.note, walked.note) == ("found", "missing", "walked")

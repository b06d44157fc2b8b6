"""Sliding-puzzle heuristics: admissible against exact distances, consistent, fast forms agree."""

from __future__ import annotations

import random
from typing import Any

import lacak
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.testing import HeuristicContract
from lacak_sliding.heuristics import LinearConflict, TileTable, line_conflicts
from lacak_sliding.puzzle import SlidingPuzzle, goal_tiles

from .helpers import SMALL, boards, distances, walks

ADMISSIBLE = ["misplaced", "manhattan", "linear-conflict", "weighted:w1=0.5,w2=0.5", "weighted:0,1"]


class _Contract(HeuristicContract):
    kind = "sliding"

    def puzzles(self) -> st.SearchStrategy[Any]:
        # exact distances come from one Dijkstra per example: keep 3x3 boards near the goal
        return boards(sizes=SMALL, custom_goal=True) | walks(max_moves=12)


class TestMisplaced(_Contract):
    heuristic = "misplaced"


class TestManhattan(_Contract):
    heuristic = "manhattan"


class TestLinearConflict(_Contract):
    heuristic = "linear-conflict"


class TestWeightedAdmissible(_Contract):
    heuristic = "weighted:w1=0.25,w2=0.75"


class TestWeightedDefault(_Contract):
    heuristic = "weighted"


def _heuristic(spec: str) -> lacak.Heuristic:
    return lacak.default_registry().heuristic("sliding", spec)


def _sample(width: int, height: int, count: int) -> list[tuple[int, ...]]:
    states = sorted(distances(width, height))
    if len(states) <= count:
        return states
    return random.Random(width * 31 + height).sample(states, count)


@pytest.mark.parametrize("spec", ADMISSIBLE)
@pytest.mark.parametrize(("width", "height", "count"), [(2, 3, 400), (3, 2, 400), (3, 3, 1500)])
def test_admissible_and_consistent_over_the_space(
    spec: str, width: int, height: int, count: int
) -> None:
    heuristic = _heuristic(spec)
    assert heuristic.admissible  # consistency is checked below, flagged or not
    goal = goal_tiles(width, height)
    puzzle = SlidingPuzzle(width=width, height=height, initial=goal, goal=goal)
    h = heuristic.for_puzzle(puzzle)
    true = distances(width, height)
    for state in _sample(width, height, count):
        value = h(state)
        assert 0 <= value <= true[state], (state, value, true[state])
        for _a, other, cost in puzzle.successors(state):
            assert value <= cost + h(other) + 1e-9, (state, other)
    assert h(goal) == 0


def test_weighted_is_admissible_only_when_the_weights_allow() -> None:
    assert _heuristic("weighted:w1=0.5,w2=0.5").admissible
    assert _heuristic("weighted:0.2,0.3").admissible
    assert not _heuristic("weighted").admissible
    assert not _heuristic("weighted:1,2").admissible
    # and the default really overestimates: one move away, H1 + H2 = 2
    puzzle = lacak.parse("sliding", "123456708")
    assert _heuristic("weighted")(puzzle, puzzle.initial) == 2
    with pytest.raises(lacak.InvalidOptionError):
        _heuristic("weighted:-1,1").for_puzzle(puzzle)


@pytest.mark.parametrize(
    "weights",
    [
        {"w1": float("inf")},
        {"w2": float("-inf")},
        {"w1": float("nan")},
        {"w1": "x"},
        {"w2": "1"},
        {"w1": None},
        {"w1": True},
        {"w1": -1},
        {"w2": 10**400},
        {"w1": 1e10},
    ],
)
def test_weighted_refuses_weights_that_are_not_finite_numbers(weights: dict[str, Any]) -> None:
    raw = lacak.heuristics("sliding")["weighted"]
    with pytest.raises(lacak.InvalidOptionError, match="must be a number from 0 to"):
        raw.configure(**weights)
    puzzle = lacak.parse("sliding", "123450786")
    with pytest.raises(lacak.InvalidOptionError):
        raw.estimate(puzzle, puzzle.initial, **weights)


@pytest.mark.parametrize("text", ["w1=inf", "w2=nan", "w1=-inf", "inf,1", "w1=1e400"])
def test_weighted_refuses_infinite_weights_in_specs(text: str) -> None:
    with pytest.raises(lacak.InvalidOptionError):
        _heuristic(f"weighted:{text}")


def test_catalogue_flags_are_coherent() -> None:
    # consistent implies admissible, for the catalogue entries and their configured copies
    for name, heuristic in lacak.heuristics("sliding").items():
        for h in (heuristic, heuristic.configure()):
            assert h.admissible or not h.consistent, name
    for spec in ("weighted:0.5,0.5", "weighted:1,1", "weighted:3,0"):
        h = _heuristic(spec)
        assert h.admissible or not h.consistent, spec
    # weights summing to at most 1 keep both misplaced and manhattan's steps of at
    # most 1: admissible and consistent (checked over the space above)
    assert _heuristic("weighted:0.5,0.5").consistent
    assert _heuristic("weighted:0,1").consistent
    assert not _heuristic("weighted:1,1").consistent


def test_reference_values_h1_h2() -> None:
    # the textbook's best-first example with H1 + H2: start 123450786 (h = 4), goal 103425786;
    # its children 123405786 (h = 2) and 120453786 (h = 6)
    puzzle = lacak.parse("sliding", "123450786", goal="103425786")
    h1, h2, both = (_heuristic(s) for s in ("misplaced", "manhattan", "weighted"))
    values = {
        text: (h1(puzzle, state), h2(puzzle, state), both(puzzle, state))
        for text, state in (
            (t, lacak.parse("sliding", t).initial) for t in ("123450786", "123405786", "120453786")
        )
    }
    assert values == {"123450786": (2, 2, 4), "123405786": (1, 1, 2), "120453786": (3, 3, 6)}
    assert _heuristic("weighted:w1=2,w2=0.5")(puzzle, puzzle.initial) == 5


@settings(max_examples=40)
@given(
    puzzle=boards(sizes=((3, 3), (4, 4), (4, 3), (2, 5)), custom_goal=True), seed=st.integers(0, 99)
)
def test_tables_update_incrementally_along_a_walk(puzzle: SlidingPuzzle, seed: int) -> None:
    """What a specialised searcher does: h(child) = h(parent) + table[t][blank] - table[t][cell]."""
    for spec in ("manhattan", "misplaced", "weighted:2,3"):
        table = _heuristic(spec).for_puzzle(puzzle)
        assert isinstance(table, TileTable)
        rng = random.Random(seed)
        state = puzzle.initial
        h = table(state)
        for _ in range(20):
            blank = state.index(0)
            _a, child, _c = rng.choice(puzzle.successors(state))
            cell = child.index(0)
            tile = state[cell]
            h += table.table[tile][blank] - table.table[tile][cell]
            state = child
            assert h == table(state) == _heuristic(spec)(puzzle, state)


@settings(max_examples=40)
@given(puzzle=boards(sizes=((3, 3), (4, 4), (5, 2)), custom_goal=True))
def test_linear_conflict_parts(puzzle: SlidingPuzzle) -> None:
    lc = LinearConflict(puzzle.width, puzzle.height, puzzle.goal)
    manhattan = _heuristic("manhattan")(puzzle, puzzle.initial)
    assert lc(puzzle.initial) == manhattan + 2 * lc.conflicts(puzzle.initial)
    assert lc(puzzle.initial) % 2 == manhattan % 2


@settings(max_examples=60)
@given(values=st.lists(st.integers(0, 9), unique=True, max_size=8))
def test_line_conflicts_is_length_minus_longest_increasing_run(values: list[int]) -> None:
    # brute force: the largest subset that is increasing
    best = 0
    for mask in range(1 << len(values)):
        chosen = [v for i, v in enumerate(values) if mask >> i & 1]
        if chosen == sorted(chosen):
            best = max(best, len(chosen))
    assert line_conflicts(values) == len(values) - best

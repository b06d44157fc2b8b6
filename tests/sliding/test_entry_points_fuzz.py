"""The sliding-puzzle constructors fed arbitrary values: only a LacakError escapes
(the rule of docs/api.md, "Bad input"; see tests/core/test_entry_points_fuzz.py)."""

from __future__ import annotations

from typing import Any

import lacak
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.testing import only_lacak_errors
from lacak.testing import strategies as lst
from lacak_sliding.puzzle import SlidingPuzzle

SETTINGS = settings(deadline=None)

values = st.one_of(
    lst.anything(),
    st.sampled_from(["123450786", "1 2 3 / 4 5 0 / 7 8 6", "3x3", "2x3", "1,0,3,2"]),
    st.lists(st.integers(-1, 9), max_size=10),
    st.tuples(st.integers(-1, 4), st.integers(-1, 4)),
)


@SETTINGS
@given(
    text=values,
    goal=st.none() | values,
    size=st.none() | values,
    allow_unsolvable=st.booleans() | values,
)
def test_from_string(text: Any, goal: Any, size: Any, allow_unsolvable: Any) -> None:
    only_lacak_errors(
        SlidingPuzzle.from_string, text, goal=goal, size=size, allow_unsolvable=allow_unsolvable
    )


@SETTINGS
@given(
    fields=st.fixed_dictionaries(
        {
            "width": st.integers(1, 4) | values,
            "height": st.integers(1, 4) | values,
            "initial": values,
            "goal": values,
        },
        optional={"notation": values, "seed": values},
    )
)
def test_constructor(fields: dict[str, Any]) -> None:
    only_lacak_errors(SlidingPuzzle, **fields)


@SETTINGS
@given(state=values, action=values, notation=st.none() | values)
def test_puzzle_methods(state: Any, action: Any, notation: Any) -> None:
    puzzle = SlidingPuzzle.from_string("123450786")
    only_lacak_errors(puzzle.with_initial, state)
    only_lacak_errors(puzzle.apply, puzzle.initial, action)
    only_lacak_errors(puzzle.format_state, puzzle.initial, notation)


@pytest.mark.parametrize("value", ["no", "false", 0])
def test_allow_unsolvable_is_a_yes_no_value(value: Any) -> None:
    # "no" was truthy: the unsolvable board was accepted
    if value == 0:
        with pytest.raises(lacak.InvalidOptionError, match="allow_unsolvable"):
            SlidingPuzzle.from_string("123456870", allow_unsolvable=value)
    else:
        with pytest.raises(lacak.UnsolvableError):
            lacak.parse("sliding", "123456870", allow_unsolvable=value)

"""The maze library entry points fed arbitrary values: only a LacakError escapes
(the rule of docs/api.md, "Bad input"; see tests/core/test_entry_points_fuzz.py)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.testing import only_lacak_errors
from lacak.testing import strategies as lst
from lacak_mazes import Maze

SETTINGS = settings(deadline=None)

cells = st.lists(st.lists(st.integers(-1, 16), min_size=1, max_size=3), min_size=1, max_size=3)
values = st.one_of(
    lst.anything(),
    cells,
    st.tuples(st.integers(-1, 3), st.integers(-1, 3)),
    st.lists(st.lists(st.integers(0, 3), min_size=2, max_size=2), max_size=3),
)
fields = st.fixed_dictionaries(
    {"cells": st.sampled_from([[[2, 8]], [[0]], [[4], [1]]]) | values},
    optional={
        key: values for key in ("start", "end", "solution", "algorithm", "seed", "height", "width")
    },
)


def _json(value: Any) -> str:
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


@SETTINGS
@given(data=fields | values)
def test_from_dict_and_from_json(data: Any) -> None:
    only_lacak_errors(Maze.from_dict, data)
    only_lacak_errors(Maze.from_json, _json(data))
    only_lacak_errors(Maze.from_json, data)


@SETTINGS
@given(rows=values, extra=st.dictionaries(st.sampled_from(["start", "end", "seed"]), values))
def test_from_rows(rows: Any, extra: dict[str, Any]) -> None:
    only_lacak_errors(Maze.from_rows, rows, **extra)
    only_lacak_errors(Maze, rows, **extra)


@SETTINGS
@given(start=st.none() | values, end=st.none() | values)
def test_puzzle_ends(start: Any, end: Any) -> None:
    maze = Maze.from_rows([[2, 12], [0, 1]])
    only_lacak_errors(maze.puzzle, start, end)
    only_lacak_errors(maze.with_endpoints, start, end)

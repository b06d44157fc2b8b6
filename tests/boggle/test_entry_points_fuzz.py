"""The Boggle library entry points fed arbitrary values: only a LacakError escapes
(the rule of docs/api.md, "Bad input"; see tests/core/test_entry_points_fuzz.py)."""

from __future__ import annotations

from typing import Any

import lacak
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from lacak.testing import only_lacak_errors
from lacak.testing import strategies as lst
from lacak_boggle import Board, check, solve_board

SETTINGS = settings(deadline=None)

TINY = lacak.Dictionary(name="tiny", language="en", words=["CAT", "ACT", "AT"], alphabet="ACTX")
values = st.one_of(
    lst.anything(),
    st.sampled_from(["CAT/XAT", "ca t", "AB/CD", "#", "QU"]),
    st.lists(st.lists(st.sampled_from(["A", "Qu", "#", "", "1", "ab"]), max_size=3), max_size=3),
)
boards = values | st.sampled_from(["CAT/XAT", "TA/CX"]).map(Board.from_string)
dictionaries = st.just(TINY) | st.just("tiny-missing") | values


@SETTINGS
@given(
    board=boards,
    dictionary=dictionaries,
    min_length=st.none() | values,
    all_paths=values,
    limits=st.none() | lst.limits() | values,
    trace=st.none() | values,
    engine=st.sampled_from(["auto", "dfs"]) | values,
)
@example(
    board=None,
    dictionary="eng",
    min_length=None,
    all_paths=False,
    limits=None,
    trace=None,
    engine="auto",
)  # reported: a TypeError
@example(
    board=0,
    dictionary="eng",
    min_length=None,
    all_paths=False,
    limits=None,
    trace=None,
    engine="auto",
)  # reported
@example(
    board=b"AB",
    dictionary="eng",
    min_length=None,
    all_paths=False,
    limits=None,
    trace=None,
    engine="auto",
)  # reported
@example(
    board="CAT/XAT",
    dictionary=b"/tmp/words.json",
    min_length=None,
    all_paths=False,
    limits=None,
    trace=None,
    engine="auto",
)
@example(
    board="CAT/XAT",
    dictionary=TINY,
    min_length=None,
    all_paths=False,
    limits=42,
    trace=None,
    engine="auto",
)
def test_solve_board(
    board: Any,
    dictionary: Any,
    min_length: Any,
    all_paths: Any,
    limits: Any,
    trace: Any,
    engine: Any,
) -> None:
    only_lacak_errors(
        solve_board, board, dictionary, min_length=min_length, all_paths=all_paths,
        limits=limits, trace=trace, engine=engine,
    )  # fmt: skip


@SETTINGS
@given(board=boards, word=st.sampled_from(["cat", "at"]) | values, dictionary=dictionaries,
       min_length=st.none() | values)  # fmt: skip
def test_check(board: Any, word: Any, dictionary: Any, min_length: Any) -> None:
    only_lacak_errors(check, board, word, dictionary, min_length=min_length)


@SETTINGS
@given(value=values)
def test_board_constructors(value: Any) -> None:
    only_lacak_errors(Board.parse, value)
    only_lacak_errors(Board.from_string, value)
    only_lacak_errors(Board.from_rows, value)
    only_lacak_errors(Board, tiles=value)


@pytest.mark.parametrize("board", [None, 0, b"AB", [b"AB"], [["A"], "B"], 3.5])
def test_a_board_of_the_wrong_type_is_an_invalid_puzzle(board: Any) -> None:
    with pytest.raises(lacak.InvalidPuzzleError, match=r"board|row 1"):
        solve_board(board, TINY)


@pytest.mark.parametrize("value", ["no", "", 2, None])
def test_all_paths_is_a_yes_no_value(value: Any) -> None:
    # "no" was truthy: every path of every word was collected
    if value == "no":
        assert not solve_board("CAT/XAT", TINY, all_paths=value).get("CAT").paths[1:]
    else:
        with pytest.raises(lacak.InvalidOptionError, match="all_paths"):
            solve_board("CAT/XAT", TINY, all_paths=value)

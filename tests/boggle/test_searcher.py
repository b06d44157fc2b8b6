"""The ``boggle`` strategy through lacak's Searcher interface and contract."""

from __future__ import annotations

import lacak
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.testing import SearcherContract, replay, shortest_cost
from lacak_boggle import Board, BoggleResult, solve_board

from .strategies import cases


@st.composite
def board_puzzles(draw: st.DrawFn) -> Board:
    tiles, dictionary = draw(cases(max_side=4))
    min_length = draw(st.integers(1, 3))
    return Board.from_rows(tiles).with_dictionary(dictionary, min_length)


class TestBoggleStrategy(SearcherContract):
    strategy = "boggle"

    def puzzles(self):
        return board_puzzles()


@settings(max_examples=60, deadline=None)
@given(board=board_puzzles())
def test_generic_search_finds_a_shortest_word(board: Board) -> None:
    result = lacak.solve(board, "boggle")
    assert isinstance(result, BoggleResult)
    if result.found:
        replay(board, result)
    fewest = shortest_cost(board)
    bfs = lacak.solve(board, "bfs")
    assert bfs.found == result.found == (fewest is not None)
    if bfs.found:
        replay(board, bfs)
        word = board.spell(bfs.actions)
        assert word in result
        every = solve_board(board, all_paths=True).words
        assert bfs.cost == fewest == min(len(p) for w in every for p in w.paths)


def test_solve_uses_the_boggle_strategy_by_default(tiny: lacak.Dictionary) -> None:
    board = Board.from_string("CAT/OAT").with_dictionary(tiny)
    result = lacak.solve(board)
    assert result.strategy == "boggle"
    assert result.word_list == ["CAT", "COAT", "TACO"] == solve_board(board).word_list
    assert lacak.solve(Board.from_string("CAT"), dictionary=tiny).word_list == ["CAT"]
    two = lacak.solve(Board.from_string("CAT"), dictionary=tiny, min_length=2)
    assert two.word_list == ["AT", "CAT", "TA"]
    paths = lacak.solve(Board.from_string("AA/AT"), dictionary=tiny, min_length=2, all_paths=True)
    assert len(paths.get("AT").paths) == 3


def test_the_strategy_refuses_other_puzzles() -> None:
    searcher = lacak.searchers()["boggle"]
    assert searcher.kinds == frozenset({"boggle"})
    assert set(searcher.options) == {
        "dictionary",
        "min_length",
        "all_paths",
        "max_words",
        "max_paths",
    }
    with pytest.raises(lacak.InvalidPuzzleError):
        lacak.solve(lacak.parse("sliding", "123450786"), "boggle")
    with pytest.raises(lacak.InvalidOptionError):
        lacak.solve(Board.from_string("CAT"), "boggle", colour="red")


def test_parse_with_a_dictionary(tiny: lacak.Dictionary) -> None:
    board = lacak.parse("boggle", "CAT/OAT", dictionary="eng", min_length=3)
    assert board.dictionary is lacak.dictionary("eng") and board.min_length == 3
    with pytest.raises(lacak.InvalidOptionError):
        lacak.parse("boggle", "CAT", colour="red")

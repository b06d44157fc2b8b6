"""Parsing, validating and printing boards; the board as a lacak Puzzle."""

from __future__ import annotations

import lacak
import pytest
from hypothesis import given, settings
from lacak_boggle import BLANK, Board

from . import reference
from .strategies import boards, cases


def test_the_text_forms() -> None:
    expected = (("A", "H", "O", "R", "J"), ("Q", "Q", "U", "O", "I"))
    assert Board.from_string("AHORJ/QQUOI").tiles == expected
    assert Board.from_string("AHORJ\nQQUOI\n").tiles == expected
    assert Board.from_string("  ahorj / qquoi ").tiles == expected
    assert Board.from_string("A H O R J / Q Q U O I").tiles == expected
    assert Board.from_string("A,H,O,R,J/Q,Q,U,O,I").tiles == expected
    assert Board.from_string("A QU E / T H #").tiles == (("A", "QU", "E"), ("T", "H", "#"))
    assert Board.from_string("AQuE/TH#").tiles == (("A", "QU", "E"), ("T", "H", "#"))
    assert Board.from_string("In Th Er").tiles == (("IN", "TH", "ER"),)
    assert Board.from_string("X").shape == (1, 1)
    assert Board.from_string("ABCDEFG").shape == (1, 7)
    assert Board.from_string("A\r\nB\r\nC").shape == (3, 1)
    assert Board.from_rows([["a", "Qu"], ["#", "ß"]]).tiles == (("A", "QU"), ("#", "ẞ"))
    assert Board.parse("AB/CD") == Board.parse([["A", "B"], ["C", "D"]])


def test_the_reference_board() -> None:
    board = lacak.parse("boggle", "AHORJ/QQUOI/SSCPD/MUPSM/AUULI")
    assert isinstance(board, Board)
    assert board.shape == (5, 5)
    assert board.tile((1, 2)) == "U"
    assert str(board) == "AHORJ/QQUOI/SSCPD/MUPSM/AUULI"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("   \n ", "empty"),
        ("AB//CD", "row 1 of the board is empty"),
        ("ABC/DE", "ragged board: row 1 has 2 tiles but row 0 has 3"),
        ("A,,B", r"empty cell at \[0, 1\]"),
        ("AB/C3", r"tile '3' at \[1, 1\] is not made of letters"),
        ("A B / C -", r"tile '-' at \[1, 1\]"),
        ("A.B", r"tile '.' at \[0, 1\]"),
        ("A Q1 B", r"tile 'Q1' at \[0, 1\]"),
    ],
)
def test_bad_boards_are_reported_clearly(text: str, message: str) -> None:
    with pytest.raises(lacak.InvalidPuzzleError, match=message):
        Board.from_string(text)


def test_bad_rows() -> None:
    with pytest.raises(lacak.InvalidPuzzleError, match="no rows"):
        Board.from_rows([])
    with pytest.raises(lacak.InvalidPuzzleError, match="row 0 is empty"):
        Board.from_rows([[]])
    with pytest.raises(lacak.InvalidPuzzleError, match=r"empty cell at \[1, 0\]"):
        Board.from_rows([["A"], [""]])
    with pytest.raises(lacak.InvalidPuzzleError, match="must be a sequence of tiles"):
        Board.from_rows(["AB", "CD"])
    with pytest.raises(lacak.InvalidPuzzleError, match="not text"):
        Board.from_rows([["A", 3]])
    with pytest.raises(lacak.InvalidPuzzleError):
        Board.from_string(42)  # type: ignore[arg-type]
    with pytest.raises(lacak.InvalidOptionError):
        Board.from_string("AB").with_dictionary(None, min_length=0)


@settings(max_examples=100, deadline=None)
@given(tiles=boards())
def test_text_round_trip(tiles: list[list[str]]) -> None:
    board = Board.from_rows(tiles)
    assert Board.from_string(board.to_text()) == board
    assert Board.from_rows(board.to_rows()) == board
    assert hash(Board.from_string(board.to_text())) == hash(board)


def test_equality_ignores_dictionary_and_seed(tiny: lacak.Dictionary) -> None:
    plain = Board.from_string("CAT/DOG")
    assert plain.with_dictionary(tiny, 2) == plain
    assert Board(tiles=plain.tiles, seed=5) == plain


def test_is_path() -> None:
    board = Board.from_string("AB#/CDE")
    assert board.is_path([(0, 0), (1, 1), (0, 1)])
    assert not board.is_path([])
    assert not board.is_path([(0, 0), (0, 0)])
    assert not board.is_path([(0, 0), (1, 2)])  # not adjacent
    assert not board.is_path([(0, 1), (0, 2)])  # blank
    assert not board.is_path([(2, 0)])  # off the board
    assert board.spell([(1, 0), (0, 0), (0, 1)]) == "CAB"
    assert list(board.neighbours((0, 0))) == [(0, 1), (1, 0), (1, 1)]


def test_a_board_is_a_puzzle(tiny: lacak.Dictionary) -> None:
    board = Board.from_string("CAT/XQY")
    assert isinstance(board, lacak.Puzzle)
    assert board.kind == "boggle" and board.initial == ()
    moves = list(board.successors(()))
    assert len(moves) == 6 and moves[0] == ((0, 0), ((0, 0),), 1.0)
    with pytest.raises(lacak.InvalidPuzzleError, match="no dictionary"):
        board.is_goal(((0, 0),))
    game = board.with_dictionary(tiny)
    # with a dictionary, only paths that start some word are successors: no word starts
    # with X or Y, and Q starts QUA
    assert [cell for cell, _, _ in game.successors(())] == [(0, 0), (0, 1), (0, 2), (1, 1)]
    assert [cell for cell, _, _ in game.successors(((0, 0),))] == [(0, 1)]
    assert game.is_goal(((0, 0), (0, 1), (0, 2)))
    assert not game.is_goal(((0, 1), (0, 2)))  # AT is shorter than 3 letters
    assert board.with_dictionary(tiny, 2).is_goal(((0, 1), (0, 2)))
    assert game.format_state(((0, 0), (0, 1))) == "CA" and game.format_state(()) == "·"


@settings(max_examples=60, deadline=None)
@given(case=cases(max_side=3))
def test_successors_follow_the_rules(case) -> None:
    tiles, dictionary = case
    board = Board.from_rows(tiles)
    game = board.with_dictionary(dictionary, 1)
    stack = [()]
    seen = 0
    while stack and seen < 300:
        path = stack.pop()
        seen += 1
        for cell, nxt, cost in game.successors(path):
            assert nxt == (*path, cell) and cost == 1.0
            assert board.is_path(nxt)
            assert board.tile(cell) != BLANK
            assert any(w.startswith(board.spell(nxt)) for w in dictionary.words)
            stack.append(nxt)
        if path:
            assert game.is_goal(path) == (board.spell(path) in dictionary)
            assert reference.spellings(tiles, board.spell(path))


def test_validate_board() -> None:
    from lacak_boggle.board import validate_board

    kinds = lacak.default_registry().puzzle_types()
    assert kinds["boggle"].validate is not None
    validate_board(Board.from_string("AB"))
    with pytest.raises(lacak.InvalidPuzzleError):
        validate_board("AB")


@settings(max_examples=60, deadline=None)
@given(rows=boards(multi=False))
def test_the_plain_text_form_reads_as_the_general_one(rows: list[list[str]]) -> None:
    """``CATS/DOGE``-style text takes a short cut; it gives the board the rows give."""
    from lacak_boggle import board as module

    text = "/".join("".join(row) for row in rows)
    assert module._PLAIN.fullmatch(text)
    assert Board.from_string(text).tiles == Board.from_rows(rows).tiles
    assert Board.from_string(text.lower()).tiles == Board.from_rows(rows).tiles  # the long way
    assert str(Board.from_string(text)) == text


def test_remembered_tiles_never_let_a_bad_tile_through(monkeypatch) -> None:
    from lacak_boggle import board as module

    monkeypatch.setattr(module, "_NORMAL", {})
    monkeypatch.setattr(module, "_GOOD", set())
    monkeypatch.setattr(module, "_NORMAL_SIZE", 3)
    for _ in range(2):  # the second time from what was remembered
        assert Board.from_rows([["a", "Qu"], ["#", "ß"]]).tiles == (("A", "QU"), ("#", "ẞ"))
        for rows, message in (
            ([["A", "3"]], "tile '3' at \\[0, 1\\] is not made of letters"),
            ([["A", ""]], "empty cell at \\[0, 1\\]"),
            ([["A", 3]], "the tile at \\[0, 1\\] is not text"),
            ([["A", ["B"]]], "the tile at \\[0, 1\\] is not text"),
            ([["A", "B"], ["C"]], "ragged board"),
        ):
            with pytest.raises(lacak.InvalidPuzzleError, match=message):
                Board.from_rows(rows)
    assert len(module._NORMAL) <= 3 and len(module._GOOD) <= 3
    assert "3" not in module._GOOD and "" not in module._GOOD

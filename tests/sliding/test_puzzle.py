"""Parsing, writing, moves and solvability of sliding puzzles."""

from __future__ import annotations

import itertools

import lacak
import pytest
from hypothesis import given, settings
from lacak_sliding.puzzle import SlidingPuzzle, goal_tiles, inversions, is_solvable

from .helpers import SMALL, boards, distances


def test_the_forms_of_a_board() -> None:
    expected = (1, 2, 3, 4, 5, 0, 7, 8, 6)
    for text in (
        "123450786",
        "1 2 3 / 4 5 0 / 7 8 6",
        "1 2 3\n4 5 0\n7 8 6",
        "1,2,3,4,5,0,7,8,6",
        "1 2 3 4 5 0 7 8 6",
        " 1, 2,3 ,4,5,0,7,8,6 ",
    ):
        puzzle = lacak.parse("sliding", text)
        assert (puzzle.width, puzzle.height, puzzle.initial) == (3, 3, expected), text
    assert lacak.parse("sliding", "123450786").goal == (1, 2, 3, 4, 5, 6, 7, 8, 0)


def test_states_are_written_in_the_input_notation() -> None:
    cases = {
        "123450786": "103425786",
        "1 2 3 / 4 5 0 / 7 8 6": "1 0 3 / 4 2 5 / 7 8 6",
        "1,2,3,4,5,0,7,8,6": "1,0,3,4,2,5,7,8,6",
        "1 2 3 4 5 0 7 8 6": "1 0 3 4 2 5 7 8 6",
    }
    for text, goal_text in cases.items():
        puzzle = lacak.parse("sliding", text, goal="103425786")
        assert puzzle.format_state(puzzle.goal) == goal_text
        assert lacak.parse("sliding", puzzle.format_state(puzzle.initial)).initial == puzzle.initial


def test_boards_past_nine_tiles_are_spaced() -> None:
    puzzle = lacak.parse("sliding", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15")
    assert (puzzle.width, puzzle.height) == (4, 4)
    assert puzzle.format_state(puzzle.goal) == "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"


def test_non_square_boards_need_a_size_or_rows() -> None:
    wide = lacak.parse("sliding", "123405", size="2x3")  # 2 rows of 3 tiles
    assert (wide.width, wide.height, wide.goal) == (3, 2, (1, 2, 3, 4, 5, 0))
    tall = lacak.parse("sliding", "1 2 / 3 0 / 5 4", allow_unsolvable=True)
    assert (tall.width, tall.height) == (2, 3)
    with pytest.raises(lacak.InvalidPuzzleError, match="--size"):
        lacak.parse("sliding", "123405")


@pytest.mark.parametrize(
    ("text", "options", "message"),
    [
        ("12345678", {}, "not a square"),
        ("1234567890", {}, "not a square"),
        ("123456788", {}, "repeats 8 and lacks 0"),
        ("12345678a", {}, "not a tile number"),
        ("1 2 3 / 4 5 / 6 7 0", {}, "different lengths"),
        ("123450786", {"size": "2x3"}, "has 9 tiles"),
        ("1 2 3 / 4 5 0 / 7 8 6", {"size": "4x4"}, "size is 4x4"),
        ("", {}, "empty"),
        ("10", {"size": "2x1"}, "at least 2x2"),
        ("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", {}, "past 15"),
        ("123450786", {"goal": "12345678"}, "goal"),
        ("123450786", {"goal": "123456789"}, "goal"),
        ("-1 2 3 4", {}, "not a tile number"),
    ],
)
def test_malformed_boards_are_clear_errors(text: str, options: dict, message: str) -> None:
    with pytest.raises((lacak.InvalidPuzzleError, lacak.InvalidOptionError), match=message):
        lacak.parse("sliding", text, **options)


def test_unsolvable_boards_say_why() -> None:
    with pytest.raises(lacak.UnsolvableError, match=r"inversions.*1 \(odd\).*0 \(even\)"):
        lacak.parse("sliding", "123456870")
    with pytest.raises(lacak.UnsolvableError, match="row of the blank"):
        lacak.parse("sliding", "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0")
    assert not lacak.parse("sliding", "123456870", allow_unsolvable=True).solvable


@pytest.mark.parametrize(("width", "height"), [*SMALL, (2, 4), (4, 2)])
def test_solvability_rule_agrees_with_reachability(width: int, height: int) -> None:
    reachable = distances(width, height)
    goal = goal_tiles(width, height)
    for tiles in itertools.permutations(range(width * height)):
        assert is_solvable(tiles, goal, width) == (tiles in reachable)


@settings(max_examples=30)
@given(puzzle=boards(sizes=SMALL, custom_goal=True))
def test_solvability_with_any_goal(puzzle: SlidingPuzzle) -> None:
    reachable = distances(puzzle.width, puzzle.height, puzzle.goal)
    assert puzzle.initial in reachable
    swapped = list(puzzle.initial)
    a, b = [p for p, t in enumerate(swapped) if t][:2]
    swapped[a], swapped[b] = swapped[b], swapped[a]
    assert not is_solvable(swapped, puzzle.goal, puzzle.width)
    assert tuple(swapped) not in reachable


@settings(max_examples=40)
@given(puzzle=boards(sizes=((2, 2), (2, 3), (3, 3), (3, 4))))
def test_moves_are_the_blank_moving_and_reverse(puzzle: SlidingPuzzle) -> None:
    state = puzzle.initial
    blank = state.index(0)
    steps = {"U": -puzzle.width, "D": puzzle.width, "L": -1, "R": 1}
    for action, nxt, cost in puzzle.successors(state):
        assert cost == 1
        assert nxt.index(0) == blank + steps[action]
        assert nxt[blank] == state[nxt.index(0)]
        assert puzzle.apply(state, action) == nxt
        back = {a: s for a, s, _ in puzzle.predecessors(state)}
        assert state in {s for _a, s, _c in puzzle.successors(nxt)}
        assert (action, state) in [(a, s) for a, s, _ in puzzle.predecessors(nxt)]
        assert len(back) == len(puzzle.successors(state))


def test_move_order_is_the_classic_table() -> None:
    puzzle = lacak.parse("sliding", "123450786")
    assert [a for a, _s, _c in puzzle.successors(puzzle.initial)] == ["D", "L", "U"]
    centre = lacak.parse("sliding", "123405786")
    assert [a for a, _s, _c in centre.successors(centre.initial)] == ["D", "R", "L", "U"]
    with pytest.raises(lacak.InvalidOptionError):
        puzzle.apply(puzzle.initial, "R")


def test_puzzle_type_and_protocols() -> None:
    puzzle = lacak.parse("sliding", "123405786")
    assert isinstance(puzzle, lacak.ReversiblePuzzle)
    assert puzzle.kind == "sliding" and puzzle.default_heuristic == "manhattan"
    validate = lacak.default_registry().puzzle_types()["sliding"].validate
    validate(puzzle)
    with pytest.raises(lacak.UnsolvableError):
        validate(lacak.parse("sliding", "123456870", allow_unsolvable=True))
    with pytest.raises(lacak.InvalidPuzzleError):
        validate("123456780")
    with pytest.raises(lacak.InvalidPuzzleError, match="repeats"):
        SlidingPuzzle(width=2, height=2, initial=(1, 1, 2, 0), goal=(1, 2, 3, 0))


def test_inversions() -> None:
    assert inversions((1, 2, 3, 4, 5, 6, 7, 8, 0)) == 0
    assert inversions((8, 7, 6, 5, 4, 3, 2, 1, 0)) == 28
    assert inversions((0, 2, 1)) == 1


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: lacak.parse("sliding", "123450786", goal=tuple("123456780")), "integer"),
        (lambda: lacak.parse("sliding", "123450786", goal=(None,) * 9), "integer"),
        (lambda: lacak.parse("sliding", "123450786", goal=5), "sequence of integers"),
        (lambda: lacak.parse("sliding", "123450786", goal=(1.0, 2, 3, 4, 5, 6, 7, 8, 0)), "integer"),
        (lambda: SlidingPuzzle(width=3, height=3, initial=None, goal=range(9)), "sequence"),
        (lambda: SlidingPuzzle(width=3, height=3, initial="123450786", goal=range(9)), "text"),
        (lambda: SlidingPuzzle(width=3, height=3, initial=[True, *range(1, 9)], goal=range(9)), "integer"),
        (lambda: SlidingPuzzle(width=40, height=40, initial=range(1600), goal=range(1600)), "1,024"),
        (lambda: lacak.parse("sliding", " ".join(map(str, range(1089)))), "1,024"),
    ],
)
def test_bad_tiles_and_sizes_are_invalid_puzzle_errors(make: object, message: str) -> None:
    with pytest.raises(lacak.InvalidPuzzleError, match=message):
        make()  # type: ignore[operator]


def test_sizes_are_capped() -> None:
    with pytest.raises(lacak.InvalidOptionError, match="at most 1,024 cells"):
        lacak.parse("sliding", "123450786", size="100x100")
    big = SlidingPuzzle(width=32, height=32, initial=range(1024), goal=range(1024))
    assert big.apply(big.initial, "R")[:2] == (1, 0)


def test_tiles_may_be_any_integers() -> None:
    import numpy as np

    puzzle = SlidingPuzzle(width=3, height=3, initial=np.arange(9), goal=range(9))
    assert puzzle.initial == tuple(range(9)) and type(puzzle.initial[0]) is int


@pytest.mark.parametrize("state", [(1, 2, 3), (1, 2, 3, 4, 5, 6, 7, 8, 9), None])
def test_apply_to_a_malformed_state(state: object) -> None:
    puzzle = lacak.parse("sliding", "123450786")
    with pytest.raises(lacak.InvalidPuzzleError, match="board with a blank"):
        puzzle.apply(state, "U")  # type: ignore[arg-type]

"""The ``queens`` kind: text form, moves of both forms, generators, and systematic search."""

from __future__ import annotations

import itertools
from typing import Any, ClassVar

import lacak
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.testing import GeneratorContract, only_lacak_errors, replay
from lacak_queens.board import MAX_SIZE, Queens, attacks, parse


def brute_attacks(rows: tuple[int | None, ...]) -> int:
    placed = [(c, r) for c, r in enumerate(rows) if r is not None]
    return sum(1 for (c1, r1), (c2, r2) in itertools.combinations(placed, 2)
               if r1 == r2 or abs(r1 - r2) == abs(c1 - c2))  # fmt: skip


@st.composite
def boards(draw: st.DrawFn, *, complete: bool | None = None, max_n: int = 12) -> Queens:
    n = draw(st.integers(1, max_n))
    rows = draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n))
    filled = n if complete or (complete is None and draw(st.booleans())) else draw(
        st.integers(0, n - 1 if n > 1 else 0))  # fmt: skip
    return Queens(n=n, initial=tuple(rows[:filled]) + (None,) * (n - filled))


@given(boards())
def test_text_form_reads_back(board: Queens) -> None:
    assert parse(board.to_text()) == board
    assert lacak.parse("queens", lacak.puzzle_text(board)) == board


@given(boards())
def test_attacks_counts_the_pairs(board: Queens) -> None:
    assert attacks(board.initial) == brute_attacks(board.initial)


@given(boards(complete=True, max_n=8))
def test_complete_boards_move_one_queen_within_its_column(board: Queens) -> None:
    children = list(board.successors(board.initial))
    assert len(children) == board.n * (board.n - 1)
    for action, child, cost in children:
        changed = [c for c in range(board.n) if child[c] != board.initial[c]]
        assert len(changed) == 1 and cost == 1.0
        assert action == f"Q{changed[0] + 1}={child[changed[0]] + 1}"
    assert board.is_goal(board.initial) == (attacks(board.initial) == 0)


@given(boards(complete=False, max_n=10))
def test_incremental_boards_place_a_safe_queen_in_the_next_column(board: Queens) -> None:
    column = board.initial.index(None)
    for _action, child, _cost in board.successors(board.initial):
        assert child[:column] == board.initial[:column]
        assert child[column] is not None and child[column + 1 :] == board.initial[column + 1 :]
        assert brute_attacks(child) == brute_attacks(board.initial)  # the new queen is safe
    assert not board.is_goal(board.initial)


def solutions(n: int) -> int:
    """Every full board of the incremental form reachable from the empty board."""
    puzzle = lacak.parse("queens", str(n))
    stack, count = [puzzle.initial], 0
    while stack:
        state = stack.pop()
        count += puzzle.is_goal(state)
        stack.extend(child for _a, child, _c in puzzle.successors(state))
    return count


def test_the_incremental_form_reaches_every_solution() -> None:
    # OEIS A000170
    assert [solutions(n) for n in range(1, 9)] == [1, 0, 0, 2, 10, 4, 40, 92]


@pytest.mark.parametrize("strategy", ["dfs", "bfs", "iddfs", "uniform-cost"])
@pytest.mark.parametrize("n", [1, 4, 5, 6, 8])
def test_systematic_search_places_n_queens(strategy: str, n: int) -> None:
    if strategy not in lacak.searchers():
        pytest.skip(f"{strategy} is not registered")
    puzzle = lacak.parse("queens", str(n))
    result = lacak.solve(puzzle, strategy)
    assert result.found and result.length == n
    replay(puzzle, result)
    assert attacks(result.goal) == 0


@pytest.mark.parametrize("n", [2, 3])
def test_boards_without_a_solution_are_exhausted(n: int) -> None:
    result = lacak.solve(lacak.parse("queens", str(n)), "dfs")
    assert not result.found and str(result.stopped) == "exhausted"


def test_the_default_choices() -> None:
    assert lacak.choose(lacak.parse("queens", "8")).label == "dfs + attacks" or (
        lacak.choose(lacak.parse("queens", "8")).searcher.name == "dfs"
    )
    complete = lacak.generate("queens", "random", 8, seed=5)
    choice = lacak.choose(complete)
    assert choice.label == "best-first + attacks"
    result = lacak.solve(complete)
    assert result.found
    replay(complete, result)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "got nothing"),
        ("0", "1 to 1000 queens, not 0"),
        ("1239", "column 4: a row of a board of 4 is 1 to 4, not 9"),
        ("1.3.", "placed from the left"),
        ("1,2,x", "a queens board is"),
        (",".join(["1"] * (MAX_SIZE + 1)), "1 to 1000 queens"),
    ],
)
def test_bad_boards_are_refused_in_one_line(text: str, fragment: str) -> None:
    with pytest.raises(lacak.InvalidPuzzleError, match=fragment):
        lacak.parse("queens", text)


@given(st.text(max_size=30))
def test_any_text_gives_a_board_or_a_lacak_error(text: str) -> None:
    only_lacak_errors(lacak.parse, "queens", text)


@given(
    st.one_of(st.integers(-5, 2000), st.text(max_size=8), st.tuples(st.integers(), st.integers()))
)
def test_any_size_gives_a_board_or_a_lacak_error(size: Any) -> None:
    only_lacak_errors(lacak.generate, "queens", "random", size, seed=1)


def test_random_boards_are_seeded_and_complete() -> None:
    board = lacak.generate("queens", "random", 8, seed=1)
    assert board.complete and board == lacak.generate("queens", "random", "8x8", seed=1)
    assert lacak.generate("queens", "random", 8, seed=2) != board
    assert lacak.generate("queens", "empty", 6).initial == (None,) * 6


class TestRandomBoards(GeneratorContract):
    kind = "queens"
    algorithm = "random"

    def sizes(self) -> st.SearchStrategy[Any]:
        return st.integers(1, 30)


class TestEmptyBoards(GeneratorContract):
    kind = "queens"
    algorithm = "empty"
    max_examples: ClassVar[int] = 10

    def sizes(self) -> st.SearchStrategy[Any]:
        return st.integers(1, 30)


@settings(max_examples=20, deadline=None)
@given(boards(max_n=8))
def test_pictures(board: Queens) -> None:
    text = lacak.picture(board).text()
    assert text.splitlines()[0].startswith(f"{board.n} queen")
    assert text.count("Q") == sum(row is not None for row in board.initial)
    svg = lacak.picture(board).svg()
    assert svg.startswith("<svg") and svg.count("<circle") == sum(
        r is not None for r in board.initial
    )


@pytest.mark.parametrize("module", ["lacak_queens.board", "lacak_queens.render"])
def test_docstring_examples(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0

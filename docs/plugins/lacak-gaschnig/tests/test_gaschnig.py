"""The example plugin, tested the way a plugin author would: with lacak.testing."""

from __future__ import annotations

import lacak
from hypothesis import strategies as st
from lacak.testing import HeuristicContract


@st.composite
def small_sliding_puzzles(draw: st.DrawFn) -> object:
    """Random solvable 2x3 and 3x3 boards, made by random walks from the goal."""
    width, height = draw(st.sampled_from([(3, 2), (2, 3), (3, 3)]))
    return lacak.generate("sliding", "walk", (width, height), seed=draw(st.integers(0, 10**6)),
                          moves=draw(st.integers(0, 14)))


class TestGaschnigContract(HeuristicContract):
    kind = "sliding"
    heuristic = "gaschnig"

    def puzzles(self) -> st.SearchStrategy[object]:
        return small_sliding_puzzles()


def test_gaschnig_is_registered_through_its_entry_point() -> None:
    assert "gaschnig" in lacak.heuristics("sliding")
    assert any(info.name == "gaschnig" for info in lacak.plugins())


def test_gaschnig_between_misplaced_and_true_distance() -> None:
    puzzle = lacak.parse("sliding", "123405786")
    h = lacak.heuristics("sliding")["gaschnig"]
    assert h(puzzle, puzzle.initial) == 2


def test_solving_with_gaschnig_is_optimal() -> None:
    puzzle = lacak.parse("sliding", "867254301")
    with_gaschnig = lacak.solve(puzzle, "astar", heuristic="gaschnig")
    with_manhattan = lacak.solve(puzzle, "astar", heuristic="manhattan")
    assert with_gaschnig.length == with_manhattan.length == 31

"""Seeded scramblers: reproducible, solvable, uniform, within k moves."""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

import lacak
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.testing import GeneratorContract
from lacak.testing import strategies as lst
from lacak_sliding.generators import random_board, random_walk

from .helpers import distances


class _Sizes(GeneratorContract):
    kind = "sliding"

    def sizes(self) -> st.SearchStrategy[Any]:
        return st.tuples(st.integers(2, 5), st.integers(2, 5))


class TestRandom(_Sizes):
    algorithm = "random"


class TestWalk(_Sizes):
    algorithm = "walk"
    options: ClassVar[dict[str, Any]] = {"moves": 30}


def test_same_seed_same_board_on_every_machine() -> None:
    # pinned: these come from getrandbits only, which is stable across Python versions
    assert random_board((3, 3), seed=1).initial == (7, 3, 1, 5, 8, 0, 6, 4, 2)
    assert (
        random_walk((3, 3), seed=1, moves=6).initial == random_walk("3x3", seed=1, moves=6).initial
    )
    assert lacak.generate("sliding", "random", "4x4", seed=5) == random_board((4, 4), seed=5)


def test_random_is_uniform_over_solvable_2x2_boards() -> None:
    counts = Counter(random_board((2, 2), seed=seed).initial for seed in range(2400))
    assert set(counts) == set(distances(2, 2))  # all 12 solvable boards, nothing else
    assert all(150 <= c <= 250 for c in counts.values()), counts


@settings(max_examples=40)
@given(size=st.sampled_from([(2, 3), (3, 2), (3, 3)]), seed=lst.seeds(), moves=st.integers(0, 40))
def test_walk_is_within_k_moves(size: tuple[int, int], seed: int, moves: int) -> None:
    puzzle = random_walk(size, seed, moves=moves)
    assert (puzzle.rows, puzzle.cols) == size
    assert distances(puzzle.width, puzzle.height)[puzzle.initial] <= moves
    assert distances(puzzle.width, puzzle.height)[puzzle.initial] % 2 == moves % 2
    assert puzzle.seed == seed


@settings(max_examples=20)
@given(size=st.sampled_from([(2, 2), (2, 3), (3, 2)]), goal_seed=lst.seeds(), seed=lst.seeds())
def test_custom_goals(size: tuple[int, int], goal_seed: int, seed: int) -> None:
    goal = random_board(size, goal_seed).initial
    text = ",".join(map(str, goal))
    for puzzle in (
        random_board(size, seed, goal=text),
        random_walk(size, seed, moves=9, goal=text),
    ):
        assert puzzle.goal == goal
        assert puzzle.initial in distances(puzzle.width, puzzle.height, goal)


def test_no_seed_picks_one_and_reports_it() -> None:
    puzzle = random_board((3, 3))
    assert puzzle.seed is not None
    assert random_board((3, 3), puzzle.seed) == puzzle


def test_bad_options() -> None:
    import pytest

    with pytest.raises(lacak.InvalidOptionError):
        random_walk((3, 3), 1, moves=-1)
    # a walk is bounded (10**20 moves ran for ever), and so is the board
    with pytest.raises(lacak.InvalidOptionError, match="1,000,000"):
        random_walk((3, 3), 1, moves=10**20)
    with pytest.raises(lacak.InvalidOptionError, match="at most 1,024 cells"):
        random_board((30000, 30000), 1)
    with pytest.raises(lacak.InvalidOptionError, match="at most 1,024 cells"):
        random_walk("33x32", 1, moves=1)
    assert random_walk("32x32", 1, moves=3).width == 32
    with pytest.raises(lacak.InvalidOptionError):
        random_board("1x3", 1)
    with pytest.raises(lacak.InvalidOptionError):
        random_board((3, 3), -5)
    with pytest.raises(lacak.InvalidOptionError):
        lacak.generate("sliding", "random", (3, 3), seed=1, moves=3)

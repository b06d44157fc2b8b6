"""8-queens hill climbing against AIMA (3rd ed., 4.1.1), counted over 500 seeded starts.

The book: steepest ascent from random boards solves 14% (4 steps on average when it
succeeds, 3 when stuck); with up to 100 sideways moves, 94% (21 steps when it succeeds,
64 when it fails). A binomial rate over 500 starts has a standard deviation of about
1.6 points at 14% and 1.1 at 94%: the bands below are about three of them, so an
algorithm that is not steepest ascent (one that stops on plateaus when it should not, or
never stops) fails them. bench/queens_hill_climbing.py measures over thousands.
"""

from __future__ import annotations

import lacak
import pytest

STARTS = 500


def climb(sideways: int) -> tuple[float, float, float]:
    solved = solved_steps = stuck_steps = 0
    for seed in range(STARTS):
        board = lacak.generate("queens", "random", 8, seed=seed)
        result = lacak.solve(board, "hill-climbing", sideways=sideways, seed=seed)
        assert result.restarts == 0
        if result.found:
            solved += 1
            solved_steps += result.steps
        else:
            stuck_steps += result.steps
    return solved / STARTS, solved_steps / solved, stuck_steps / (STARTS - solved)


def test_steepest_ascent_solves_about_14_percent() -> None:
    rate, when_solved, when_stuck = climb(0)
    assert rate == pytest.approx(0.14, abs=0.05)
    assert when_solved == pytest.approx(4, abs=0.7)
    assert when_stuck == pytest.approx(3, abs=0.5)


def test_a_hundred_sideways_moves_solve_about_94_percent() -> None:
    rate, when_solved, when_stuck = climb(100)
    assert rate == pytest.approx(0.94, abs=0.035)
    assert when_solved == pytest.approx(21, abs=4)
    assert when_stuck == pytest.approx(64, abs=15)


def test_random_restarts_solve_them_all() -> None:
    for seed in range(50):
        board = lacak.generate("queens", "random", 8, seed=seed)
        result = lacak.solve(board, "hill-climbing", sideways=100, restarts=20, seed=seed)
        assert result.found and result.value == 0

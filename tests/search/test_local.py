"""The local search strategies: legal states, honest values, seeds, limits, refusals.

Their boards are N-queens boards (the ``queens`` kind declares an objective); a few
checks use a tiny objective of their own to see the strategies alone.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import lacak
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.testing import only_lacak_errors

LOCAL = sorted(name for name, s in lacak.searchers().items() if s.objective)

#: Small budgets, so a property runs in milliseconds whatever the strategy.
SMALL = {
    "hill-climbing": {"restarts": 3, "sideways": 5},
    "first-choice": {"restarts": 3, "tries": 30},
    "simulated-annealing": {"steps": 300},
    "beam": {"k": 4},
    "genetic": {"population": 10, "generations": 20},
}


def test_every_local_strategy_is_covered() -> None:
    assert set(LOCAL) == set(SMALL)


def boards() -> st.SearchStrategy[Any]:
    return st.builds(
        lambda n, seed: lacak.generate("queens", "random", n, seed=seed),
        st.integers(4, 8),
        st.integers(0, 2**32),
    )


def neighbours(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """One queen moved within its column."""
    return len(a) == len(b) and sum(x != y for x, y in zip(a, b, strict=True)) == 1


@pytest.mark.parametrize("name", LOCAL)
@settings(max_examples=25, deadline=None)
@given(board=boards(), seed=st.integers(0, 2**32))
def test_results_are_legal_and_honest(name: str, board: Any, seed: int) -> None:
    """The best board is a board of the puzzle, its value is the objective's, a found
    result's last state is a goal, and a climb's path moves one queen at a time."""
    objective = lacak.objective_of(board)
    result = lacak.solve(board, name, seed=seed, **SMALL[name])
    assert isinstance(result, lacak.LocalSearchResult)
    best = result.best
    assert len(best) == board.n and all(0 <= row < board.n for row in best)
    assert result.value == objective.value(best)
    assert result.found == (result.value == 0) == board.is_goal(best)
    assert result.value >= objective.value(board.initial)  # never worse than the start
    if result.found:
        assert result.goal == best and str(result.stopped) == "goal"
        assert result.length == len(result.states) - 1 == result.cost
        for a, b, action in zip(result.states, result.states[1:], result.actions, strict=False):
            assert neighbours(a, b)
            assert action == objective.move(a, b)
        if name in ("hill-climbing", "first-choice", "simulated-annealing") and not result.restarts:
            assert result.states[0] == board.initial
    else:
        assert str(result.stopped) == "exhausted"
    data = lacak.result_json(result, board)
    assert data["local"]["value"] == result.value
    assert data["local"]["best"] == board.format_state(best)


@pytest.mark.parametrize("name", LOCAL)
@settings(max_examples=10, deadline=None)
@given(board=boards(), seed=st.integers(0, 2**32))
def test_the_same_seed_gives_the_same_search(name: str, board: Any, seed: int) -> None:
    one = lacak.solve(board, name, seed=seed, **SMALL[name])
    two = lacak.solve(board, name, seed=seed, **SMALL[name])
    assert (one.best, one.value, one.states, one.actions, one.restarts, one.steps) == (
        two.best, two.value, two.states, two.actions, two.restarts, two.steps)  # fmt: skip
    assert attrs_stats(one) == attrs_stats(two)


def attrs_stats(result: Any) -> tuple[int, ...]:
    stats = result.stats
    return stats.expanded, stats.generated, stats.max_frontier, stats.depth, stats.iterations


@pytest.mark.parametrize("name", LOCAL)
@settings(max_examples=10, deadline=None)
@given(n=st.integers(8, 12), cap=st.integers(0, 30), seed=st.integers(0, 1000))
def test_a_node_limit_bounds_the_work(name: str, n: int, cap: int, seed: int) -> None:
    board = lacak.generate("queens", "random", n, seed=seed)
    options = {**SMALL[name], "restarts": 1000} if "restarts" in SMALL[name] else SMALL[name]
    result = lacak.solve(board, name, limits=lacak.Limits(max_expanded=cap), **options)
    assert result.stats.expanded <= cap + (options.get("k", 1) if name == "beam" else 0) + (
        options.get("population", 1) if name == "genetic" else 0)  # fmt: skip
    if not result.found:
        assert str(result.stopped) in ("node-limit", "exhausted")


@pytest.mark.parametrize("name", LOCAL)
def test_a_time_limit_stops_it_counted_by_a_fake_clock(name: str) -> None:
    """Each look at the clock is one "second": a search asked for 5 stops after a few looks,
    however many restarts or steps it was allowed."""
    board = lacak.generate("queens", "random", 30, seed=1)
    options = dict(SMALL[name])
    options.update({"restarts": 10**6} if "restarts" in options else {})
    options.update({"steps": 10**8} if name == "simulated-annealing" else {})
    options.update({"generations": 10**8} if name == "genetic" else {})
    ticks = itertools.count()
    with lacak.limits.use_clock(lambda: float(next(ticks))):
        result = lacak.solve(board, name, limits=lacak.Limits(seconds=5), **options)
    assert not result.found and str(result.stopped) == "time-limit"


def test_hill_climbing_on_a_line_and_a_plateau() -> None:
    """A tiny objective: climb to 7 on the numbers; then a plateau only sideways moves cross."""
    line = lacak.Objective(value=lambda x: -abs(x - 7), neighbours=lambda x: (x - 1, x + 1),
                           random_state=lambda rng: rng.randrange(20), best=0, start=0)  # fmt: skip
    result = lacak.solve(_Start(0), "hill-climbing", objective=line)
    assert result.found and result.states == tuple(range(8)) and result.steps == 7
    assert result.actions == tuple(range(1, 8))  # (no move() declared: the neighbour itself)

    # value 0 from 0 to 9, 1 at 10: three sideways moves are not enough from 5, six are
    plateau = lacak.Objective(value=lambda x: 1 if x >= 10 else 0,
                              neighbours=lambda x: (x + 1,), random_state=lambda rng: 0,
                              best=1, start=5)  # fmt: skip
    assert not lacak.solve(_Start(5), "hill-climbing", objective=plateau, sideways=3).found
    found = lacak.solve(_Start(5), "hill-climbing", objective=plateau, sideways=6)
    assert found.found and found.best == 10


class _Start:
    """A puzzle of no registered kind, for a caller's own objective."""

    kind = "number-line"

    def __init__(self, initial: int) -> None:
        self.initial = initial

    def is_goal(self, state: int) -> bool:
        return False

    def successors(self, state: int) -> Any:
        return ()


def test_without_a_best_value_the_search_runs_its_restarts_and_keeps_the_best() -> None:
    peaks = lacak.Objective(value=lambda x: math.sin(x / 3.0) * x,
                            neighbours=lambda x: (max(0, x - 1), min(99, x + 1)),
                            random_state=lambda rng: rng.randrange(100))  # fmt: skip
    result = lacak.solve(_Start(0), "hill-climbing", objective=peaks, restarts=30)
    assert not result.found and result.restarts == 30 and result.stats.iterations == 31
    assert result.value == max(math.sin(x / 3.0) * x for x in range(100))


@pytest.mark.parametrize("name", LOCAL)
def test_a_kind_without_an_objective_is_refused_naming_it(name: str) -> None:
    puzzle = lacak.parse("sliding", "123405786")
    with pytest.raises(lacak.InvalidPuzzleError, match="'sliding' declares no objective"):
        lacak.solve(puzzle, name)


def test_genetic_needs_a_crossover() -> None:
    line = lacak.Objective(value=float, neighbours=lambda x: (x + 1,),
                           random_state=lambda rng: 0)  # fmt: skip
    with pytest.raises(lacak.InvalidPuzzleError, match="declares no crossover"):
        lacak.solve(_Start(0), "genetic", objective=line)


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("hill-climbing", {"sideways": -1}),
        ("hill-climbing", {"restarts": 1.5}),
        ("hill-climbing", {"seed": -3}),
        ("first-choice", {"tries": 0}),
        ("simulated-annealing", {"schedule": "fast"}),
        ("simulated-annealing", {"temperature": float("nan")}),
        ("beam", {"k": 0}),
        ("genetic", {"mutation": 1.5}),
        ("genetic", {"population": 1}),
        ("genetic", {"elitism": "maybe"}),
    ],
)
def test_bad_options_are_refused(name: str, options: dict[str, Any]) -> None:
    board = lacak.generate("queens", "random", 8, seed=1)
    with pytest.raises(lacak.InvalidOptionError):
        lacak.solve(board, name, **options)


@pytest.mark.parametrize("schedule", ["exponential", "linear", "logarithmic"])
def test_every_schedule_cools_to_the_end(schedule: str) -> None:
    from lacak_search.local import SCHEDULES

    cool = SCHEDULES[schedule]
    temperatures = [cool(t, 10.0, 0.01, 100) for t in range(101)]
    assert temperatures[0] == 10.0 and temperatures[-1] == 0.0
    assert all(a >= b for a, b in itertools.pairwise(temperatures))
    board = lacak.generate("queens", "random", 8, seed=2)
    result = lacak.solve(board, "simulated-annealing", schedule=schedule, temperature=1.0,
                         steps=50_000)  # fmt: skip
    assert result.found


def test_options_from_text_fuzz() -> None:
    """What the command line or a script may pass: only lacak errors come back."""
    board = lacak.generate("queens", "random", 6, seed=0)
    for value in (None, "x", -1, 10**30, float("inf"), True, ()):
        for name, searcher in lacak.searchers().items():
            if searcher.objective:
                for key in searcher.options:
                    only_lacak_errors(lacak.solve, board, name, **{key: value},
                                      limits=lacak.Limits(max_expanded=50))  # fmt: skip

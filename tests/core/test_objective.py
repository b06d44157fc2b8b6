"""The kernel's part of local search: :class:`lacak.Objective`, ``PuzzleType.objective``,
``Searcher.objective``, and how :func:`lacak.choose` hands a puzzle's objective on."""

from __future__ import annotations

import random
from typing import Any

import attrs
import lacak
import pytest
from hypothesis import given
from hypothesis import strategies as st

from .plugin_helpers import make_registry


@attrs.frozen
class Number:
    """Count from ``start`` to ``target`` by +1: a puzzle, and an objective on numbers."""

    target: int
    start: int = 0
    kind = "number"

    @property
    def initial(self) -> int:
        return self.start

    def is_goal(self, state: int) -> bool:
        return state == self.target

    def successors(self, state: int) -> Any:
        yield "+1", state + 1, 1.0


def number_objective(puzzle: Number) -> lacak.Objective:
    return lacak.Objective(
        value=lambda n: -abs(n - puzzle.target),
        neighbours=lambda n: (n - 1, n + 1),
        random_state=lambda rng: rng.randrange(100),
        best=0,
    )


def climb(puzzle: Any, *, heuristic: Any, limits: lacak.Limits, trace: Any,
          objective: lacak.Objective) -> lacak.LocalSearchResult:  # fmt: skip
    """Steepest ascent, as small as it gets: enough to see the objective arrive."""
    state, steps = puzzle.initial, 0
    while True:
        best = max(objective.neighbours(state), key=objective.value)
        if objective.value(best) <= objective.value(state):
            break
        state, steps = best, steps + 1
    value = objective.value(state)
    fields = {"best": state, "value": value, "steps": steps, "expanded": steps + 1}
    if objective.reached(value):
        return lacak.LocalSearchResult.finished(puzzle.initial, lacak.StopReason.GOAL,
                                                states=(state,), **fields)  # fmt: skip
    return lacak.LocalSearchResult.finished(puzzle.initial, lacak.StopReason.EXHAUSTED, **fields)


class Plugin:
    def __init__(self, objective: Any = number_objective) -> None:
        self.objective = objective

    @lacak.hookimpl
    def register_puzzles(self, register: Any) -> None:
        register(lacak.PuzzleType(kind="number", parse=lambda text: Number(int(text)),
                                  objective=self.objective))  # fmt: skip

    @lacak.hookimpl
    def register_searchers(self, register: Any) -> None:
        register(lacak.Searcher(name="climb", search=climb, objective=True))
        register(lacak.Searcher(name="plain", search=climb))


def test_choose_hands_the_kinds_objective_to_a_local_search_only() -> None:
    registry = make_registry(Plugin())
    puzzle = Number(7)
    choice = lacak.choose(puzzle, "climb", registry=registry)
    assert choice.objective is not None and choice.objective.best == 0
    assert lacak.choose(puzzle, "plain", registry=registry).objective is None
    result = lacak.solve(puzzle, "climb", registry=registry)
    assert isinstance(result, lacak.LocalSearchResult)
    assert result.found and result.best == 7 and result.value == 0 and result.steps == 7
    assert result.to_dict(puzzle)["local"] == {"value": 0, "best": "7", "restarts": 0,
                                               "steps": 7}  # fmt: skip


def test_a_callers_objective_wins() -> None:
    registry = make_registry(Plugin())
    mine = attrs.evolve(number_objective(Number(3)), best=None)
    result = lacak.solve(Number(7), "climb", registry=registry, objective=mine)
    assert not result.found and result.best == 3


def test_a_kind_without_an_objective_is_refused_in_one_line() -> None:
    registry = make_registry(Plugin(objective=None))
    with pytest.raises(lacak.InvalidPuzzleError, match="'number' declares no objective"):
        lacak.solve(Number(7), "climb", registry=registry)
    with pytest.raises(lacak.InvalidPuzzleError, match="strategy 'climb' is a local search"):
        registry.searchers()["climb"](Number(7))


def test_a_puzzle_may_carry_its_own_objective() -> None:
    registry = make_registry(Plugin(objective=None))

    @attrs.frozen
    class Own(Number):
        @property
        def objective(self) -> lacak.Objective:
            return number_objective(self)

    assert lacak.solve(Own(4), "climb", registry=registry).found
    assert registry.searchers()["climb"](Own(4)).found
    assert lacak.objective_of(Own(4), registry=registry).best == 0


def test_a_kind_that_gives_no_objective_is_a_plugin_bug() -> None:
    registry = make_registry(Plugin(objective=lambda puzzle: "not one"))
    with pytest.raises(lacak.PluginError, match=r"not a lacak\.Objective"):
        lacak.objective_of(Number(7), registry=registry)
    with pytest.raises(lacak.InvalidOptionError, match=r"must be a lacak\.Objective"):
        lacak.solve(Number(7), "climb", registry=registry, objective="nope")  # type: ignore[arg-type]


@given(st.lists(st.integers(-50, 50), max_size=20), st.randoms(use_true_random=False))
def test_the_objectives_defaults(states: list[int], rng: random.Random) -> None:
    objective = number_objective(Number(5))
    assert objective.score(states) == [objective.value(s) for s in states]
    for state in states:
        assert objective.neighbour(state, rng) in (state - 1, state + 1)
    none = lacak.Objective(value=float, neighbours=lambda s: (), random_state=lambda rng: 0)
    assert none.neighbour(3, rng) is None
    assert not none.reached(1e9)


def test_values_must_give_one_value_a_state() -> None:
    objective = attrs.evolve(number_objective(Number(1)), values=lambda states: [0.0])
    assert objective.score([4]) == [0.0]
    with pytest.raises(lacak.PluginError, match="gave 1 values for 2 states"):
        objective.score([1, 2])

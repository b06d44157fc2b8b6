"""Contract test suites that every registered component should pass.

Subclass one in a pytest module and name the component; the inherited tests
run against it. Override ``puzzles()`` / ``sizes()`` to feed instances of your
own puzzle kind. The built-in plugins' tests use these same suites.
"""

from __future__ import annotations

from typing import Any, ClassVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ..api import generate, resolve_heuristic, solve
from ..limits import Limits, StopReason
from ..plugin.registry import Registry, default_registry
from ..trace import SearchTrace
from .reference import distances_to_goal, fewest_moves, replay, shortest_cost
from .strategies import graph_puzzles, seeds

__all__ = ["GeneratorContract", "HeuristicContract", "SearcherContract"]

# One contract method runs for many subclasses (one per component): that is the
# point of a contract suite, so the "differing executors" check does not apply.
_HEALTH = [HealthCheck.too_slow, HealthCheck.differing_executors]
_SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=_HEALTH)


class _Contract:
    registry: ClassVar[Registry | None] = None

    def _registry(self) -> Registry:
        return self.registry if self.registry is not None else default_registry()


class SearcherContract(_Contract):
    """What every search strategy promises.

    - a returned path is legal, ends in a goal, and its reported cost is its real cost;
    - a complete strategy finds a goal whenever one is reachable (and says
      ``exhausted`` only when none is);
    - an optimal strategy returns least-cost paths, and one flagged
      ``fewest_moves`` paths of the fewest actions;
    - ``max_expanded`` is honoured; tracing does not change the answer.
    """

    #: The strategy's registered name.
    strategy: ClassVar[str]
    #: A heuristic spec, for strategies that take one (``None``: the puzzle's default).
    heuristic: ClassVar[str | None] = None
    #: Whether it always finds a reachable goal when unlimited.
    complete: ClassVar[bool] = True
    #: Options passed to the strategy.
    options: ClassVar[dict[str, Any]] = {}

    def puzzles(self) -> st.SearchStrategy[Any]:
        """Puzzles to search; default: small random graphs."""
        return graph_puzzles()

    def _solve(self, puzzle: Any, **kwargs: Any) -> Any:
        return solve(
            puzzle,
            self.strategy,
            heuristic=self.heuristic,
            registry=self._registry(),
            **{**self.options, **kwargs},
        )

    @_SETTINGS
    @given(data=st.data())
    def test_path_is_legal_and_reaches_goal(self, data: st.DataObject) -> None:
        """A found path is legal, ends in a goal and costs what the result says."""
        puzzle = data.draw(self.puzzles(), label="puzzle")
        result = self._solve(puzzle)
        if result.found:
            replay(puzzle, result)
            assert result.stopped is StopReason.GOAL
        else:
            assert result.stopped is not StopReason.GOAL
            assert not result.actions

    @_SETTINGS
    @given(data=st.data())
    def test_complete(self, data: st.DataObject) -> None:
        """A complete strategy finds a reachable goal, and says ``exhausted`` only when none is."""
        if not self.complete:
            return
        puzzle = data.draw(self.puzzles(), label="puzzle")
        best = shortest_cost(puzzle)
        result = self._solve(puzzle)
        assert result.found == (best is not None), (best, result.stopped)
        if best is None:
            assert result.stopped is StopReason.EXHAUSTED

    @_SETTINGS
    @given(data=st.data())
    def test_optimal(self, data: st.DataObject) -> None:
        """An ``optimal`` strategy returns a least-cost path (against Dijkstra)."""
        searcher = self._registry().searchers()[self.strategy]
        if not searcher.optimal:
            return
        puzzle = data.draw(self.puzzles(), label="puzzle")
        heuristic = resolve_heuristic(puzzle, self.heuristic, registry=self._registry())
        if heuristic is not None and not heuristic.admissible:
            return
        best = shortest_cost(puzzle)
        result = self._solve(puzzle)
        if best is not None:
            assert result.found
            assert abs(result.cost - best) < 1e-9, (result.cost, best)

    @_SETTINGS
    @given(data=st.data())
    def test_fewest_moves(self, data: st.DataObject) -> None:
        """A ``fewest_moves`` strategy returns a path of the fewest actions (against BFS)."""
        searcher = self._registry().searchers()[self.strategy]
        if not searcher.fewest_moves:
            return
        puzzle = data.draw(self.puzzles(), label="puzzle")
        least = fewest_moves(puzzle)
        result = self._solve(puzzle)
        if least is not None:
            assert result.found
            assert result.length == least, (result.length, least)

    @_SETTINGS
    @given(data=st.data(), budget=st.integers(0, 30))
    def test_node_limit(self, data: st.DataObject, budget: int) -> None:
        """``Limits(max_expanded=n)`` is honoured: never more than ``n`` nodes expanded."""
        puzzle = data.draw(self.puzzles(), label="puzzle")
        result = self._solve(puzzle, limits=Limits(max_expanded=budget))
        assert result.stats.expanded <= budget
        if not result.found:
            assert result.stopped in (StopReason.NODES, StopReason.EXHAUSTED, StopReason.DEPTH)

    @_SETTINGS
    @given(data=st.data())
    def test_trace_does_not_change_the_answer(self, data: st.DataObject) -> None:
        """Recording a trace gives the same result as searching without one."""
        puzzle = data.draw(self.puzzles(), label="puzzle")
        plain = self._solve(puzzle)
        trace = SearchTrace()
        traced = self._solve(puzzle, trace=trace)
        assert (plain.found, plain.cost, plain.length) == (traced.found, traced.cost, traced.length)
        ids = {node.id for node in trace.nodes}
        for node in trace.nodes:
            assert node.parent is None or node.parent in ids


class HeuristicContract(_Contract):
    """What a heuristic promises: non-negative, zero at goals when admissible,
    never above the true remaining cost when admissible, and consistent when it says so."""

    #: The puzzle kind it is registered for.
    kind: ClassVar[str]
    #: The heuristic spec (``"name"`` or ``"name:options"``).
    heuristic: ClassVar[str]

    def puzzles(self) -> st.SearchStrategy[Any]:
        """Small puzzles of ``kind`` whose true distances are cheap to compute."""
        raise NotImplementedError("override puzzles() to return a strategy of puzzles")

    def _heuristic(self) -> Any:
        return self._registry().heuristic(self.kind, self.heuristic)

    @_SETTINGS
    @given(data=st.data())
    def test_admissible(self, data: st.DataObject) -> None:
        """Never negative, zero at a goal, and, when it claims admissibility, never above the true cost."""
        heuristic = self._heuristic()
        puzzle = data.draw(self.puzzles(), label="puzzle")
        h = heuristic.for_puzzle(puzzle)
        value = h(puzzle.initial)
        assert value >= 0
        if heuristic.admissible:
            (true,) = distances_to_goal(puzzle, [puzzle.initial]).values()
            if true is not None:
                assert value <= true + 1e-9, (value, true)
            if puzzle.is_goal(puzzle.initial):
                assert value == 0

    @_SETTINGS
    @given(data=st.data())
    def test_consistent(self, data: st.DataObject) -> None:
        """When it claims consistency: ``h(s) <= cost(s, s2) + h(s2)`` along every step."""
        heuristic = self._heuristic()
        if not heuristic.consistent:
            return
        puzzle = data.draw(self.puzzles(), label="puzzle")
        h = heuristic.for_puzzle(puzzle)
        here = h(puzzle.initial)
        for _action, state, cost in puzzle.successors(puzzle.initial):
            assert here <= cost + h(state) + 1e-9

    def test_prepared_agrees_with_estimate(self) -> None:
        """``for_puzzle`` (the fast form) and ``estimate`` give the same numbers."""
        heuristic = self._heuristic()

        @_SETTINGS
        @given(puzzle=self.puzzles())
        def check(puzzle: Any) -> None:
            fast = heuristic.for_puzzle(puzzle)
            assert fast(puzzle.initial) == heuristic(puzzle, puzzle.initial)
            for _a, state, _c in puzzle.successors(puzzle.initial):
                assert fast(state) == heuristic(puzzle, state)

        check()


class GeneratorContract(_Contract):
    """What a generator promises: the same seed gives the same instance, and
    every instance passes its kind's ``validate``."""

    #: The kind of instance (``"maze"``, ...).
    kind: ClassVar[str]
    #: The generator's registered name.
    algorithm: ClassVar[str]
    #: Options passed to the generator.
    options: ClassVar[dict[str, Any]] = {}
    #: How many examples each property runs.
    max_examples: ClassVar[int] = 30

    def sizes(self) -> st.SearchStrategy[Any]:
        """Sizes to generate; override for your kind."""
        raise NotImplementedError("override sizes() to return a strategy of sizes")

    def _generate(self, size: Any, seed: int) -> Any:
        return generate(
            self.kind, self.algorithm, size, seed=seed, registry=self._registry(), **self.options
        )

    def test_same_seed_same_instance(self) -> None:
        """The same size and seed give an equal instance."""
        @settings(max_examples=self.max_examples, deadline=None, suppress_health_check=_HEALTH)
        @given(size=self.sizes(), seed=seeds())
        def check(size: Any, seed: int) -> None:
            assert self._generate(size, seed) == self._generate(size, seed)

        check()

    def test_instances_are_valid(self) -> None:
        """Every instance passes the kind's ``validate`` (for mazes: perfect and well formed)."""
        puzzle_types = self._registry().puzzle_types()
        validate = puzzle_types[self.kind].validate if self.kind in puzzle_types else None

        @settings(max_examples=self.max_examples, deadline=None, suppress_health_check=_HEALTH)
        @given(size=self.sizes(), seed=seeds())
        def check(size: Any, seed: int) -> None:
            instance = self._generate(size, seed)
            if validate is not None:
                validate(instance)

        check()

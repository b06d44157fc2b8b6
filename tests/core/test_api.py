"""The facade, results, traces, options parsing, batch runs and the contract suites."""

from __future__ import annotations

import json
from typing import Any

import attrs
import lacak
import pytest
from hypothesis import given
from hypothesis import strategies as st
from lacak.testing import GeneratorContract, GraphPuzzle, SearcherContract, replay, shortest_cost
from lacak.testing import strategies as lst

from .plugin_helpers import CorePlugin, make_registry

REGISTRY = make_registry(CorePlugin())


@given(puzzle=lst.graph_puzzles())
def test_solve_through_the_facade_is_optimal(puzzle: GraphPuzzle) -> None:
    result = lacak.solve(puzzle, "test-dijkstra", registry=REGISTRY)
    best = shortest_cost(puzzle)
    assert result.found == (best is not None)
    if result.found:
        assert replay(puzzle, result) == best
        assert result.check() is result
    else:
        with pytest.raises(lacak.UnsolvableError):
            result.check()


def test_limit_reached_result_raises_on_check() -> None:
    puzzle = GraphPuzzle(edges={0: (("a", 1, 1.0),), 1: (("b", 2, 1.0),)}, initial=0, goals={2})
    result = lacak.solve(
        puzzle, "test-dijkstra", limits=lacak.Limits(max_expanded=1), registry=REGISTRY
    )
    assert not result.found and result.stopped is lacak.StopReason.NODES
    with pytest.raises(lacak.LimitReachedError, match="node-limit"):
        result.check()


def test_unknown_strategy_and_option_errors() -> None:
    puzzle = GraphPuzzle(edges={}, initial=0, goals={0})
    with pytest.raises(lacak.UnknownComponentError, match="did you mean 'test-dijkstra'"):
        lacak.solve(puzzle, "test-dijkstra2", registry=REGISTRY)
    with pytest.raises(lacak.InvalidOptionError, match="takes no option 'speed'"):
        lacak.solve(puzzle, "test-dijkstra", registry=REGISTRY, speed=3)


def test_heuristics_by_name_function_or_object() -> None:
    puzzle = GraphPuzzle(edges={}, initial=0, goals={0})
    zero = lacak.resolve_heuristic(puzzle, "zero", registry=REGISTRY)
    assert zero is not None and zero.admissible and zero(puzzle, 0) == 0

    def mine(puzzle: Any, state: Any) -> float:
        return 7

    wrapped = lacak.resolve_heuristic(puzzle, mine, registry=REGISTRY)
    assert wrapped is not None and wrapped.name == "mine" and not wrapped.admissible
    assert wrapped.for_puzzle(puzzle)(0) == 7
    with pytest.raises(lacak.InvalidOptionError):
        lacak.resolve_heuristic(puzzle, 42, registry=REGISTRY)  # type: ignore[arg-type]


def test_heuristic_admissibility_can_depend_on_options() -> None:
    weighted = lacak.Heuristic(
        name="w", kind="k", estimate=lambda p, s, w=1.0: w, options={"w": 1.0},
        admissible=True, consistent=True, admissible_for=lambda o: o["w"] <= 1,
    )
    assert weighted.configure("w=0.5").admissible
    heavy = weighted.configure(w=2.0)
    assert not heavy.admissible and not heavy.consistent and heavy.spec == "w:w=2.0"
    # consistency may depend on the options too, and never outlives admissibility
    flexible = attrs.evolve(
        weighted, admissible=False, consistent=False, consistent_for=lambda o: o["w"] <= 0.5
    )
    assert flexible.configure(w=0.25).consistent and flexible.configure(w=0.25).admissible
    assert not flexible.configure(w=0.75).consistent and flexible.configure(w=0.75).admissible
    assert not attrs.evolve(flexible, admissible_for=lambda o: False).configure(w=0.1).consistent


@given(
    defaults=st.dictionaries(lst.names(max_size=5), st.one_of(st.integers(), st.floats(
        allow_nan=False, allow_infinity=False), st.booleans()), min_size=1, max_size=4),
    data=st.data(),
)
def test_parse_options_round_trips(defaults: dict[str, Any], data: st.DataObject) -> None:
    chosen = {}
    for key, default in defaults.items():
        if isinstance(default, bool):
            chosen[key] = data.draw(st.booleans())
        elif isinstance(default, int):
            chosen[key] = data.draw(st.integers(-1000, 1000))
        else:
            chosen[key] = data.draw(st.floats(-1e6, 1e6, allow_nan=False))
    text = ",".join(f"{k}={v}" for k, v in chosen.items())
    assert lacak.parse_options(text, defaults, what="test") == chosen


def test_generate_and_the_generator_contract() -> None:
    first = lacak.generate("graph", "random", 8, seed=3, registry=REGISTRY)
    assert first == lacak.generate("graph", "random", 8, seed=3, registry=REGISTRY)
    with pytest.raises(lacak.InvalidOptionError, match="no option 'colour'"):
        lacak.generate("graph", "random", 8, seed=3, registry=REGISTRY, colour="red")


class TestDijkstraContract(SearcherContract):
    """The searcher contract, run against the core tests' own uniform-cost search."""

    registry = REGISTRY
    strategy = "test-dijkstra"


class TestGraphGeneratorContract(GeneratorContract):
    registry = REGISTRY
    kind = "graph"
    algorithm = "random"

    def sizes(self) -> st.SearchStrategy[int]:
        return st.integers(1, 10)


def test_the_searcher_contract_catches_a_wrong_searcher() -> None:
    """A contract that could not fail would prove nothing: feed it a cheating searcher."""

    def cheat(puzzle: Any, **_: Any) -> lacak.SearchResult:
        return lacak.SearchResult(found=True, actions=("teleport",), states=(puzzle.initial, 0),
                                  stopped=lacak.StopReason.GOAL)

    class Cheat:
        @lacak.hookimpl
        def register_searchers(self, register: Any) -> None:
            register(lacak.Searcher(name="cheat", search=cheat))

    class TestCheat(SearcherContract):
        registry = make_registry(Cheat())
        strategy = "cheat"

    with pytest.raises(AssertionError):
        TestCheat().test_path_is_legal_and_reaches_goal()


def test_trace_exports() -> None:
    puzzle = GraphPuzzle(edges={0: (("a", 1, 1.0), ("b", 2, 4.0)), 1: (("c", 2, 1.0),)},
                         initial=0, goals={2})
    result = lacak.solve(puzzle, "test-dijkstra", trace=True, registry=REGISTRY)
    assert result.trace is not None and result.cost == 2
    data = json.loads(result.trace.to_json())
    assert data["nodes"][0]["parent"] is None
    assert sum(n["goal"] for n in data["nodes"]) == 1
    dot = result.trace.to_dot()
    assert dot.startswith("digraph") and "peripheries=2" in dot and "n0 -> n1" in dot
    from rich.console import Console

    console = Console(width=80, record=True)
    console.print(result.trace.to_rich())
    assert "goal" in console.export_text()


def test_trace_truncates() -> None:
    trace = lacak.SearchTrace(max_nodes=2)
    root = trace.add(None, "a")
    trace.add(root, "b", "x", depth=1)
    assert trace.add(root, "c", "y", depth=1) == -1 and trace.truncated
    assert trace.add(-1, "d") == -1


def test_batch_seeds_and_runs_are_deterministic() -> None:
    seeds = lacak.batch.derive_seeds(42, 5)
    assert seeds == lacak.batch.derive_seeds(42, 5) and len(set(seeds)) == 5
    assert all(0 <= s < 2**63 for s in seeds)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        threaded = lacak.batch.run_many(abs, [-1, -2, 3], executor=pool)
    here = lacak.batch.run_many(abs, [-1, -2, 3], executor=None)
    assert [r.unwrap() for r in threaded] == [r.unwrap() for r in here] == [1, 2, 3]
    assert [r.index for r in threaded] == [r.index for r in here] == [0, 1, 2]


SMALL = GraphPuzzle(edges={0: (("a", 1, 1.0),)}, initial=0, goals={1})


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        ({"strategy": 5}, "strategy must be a name or a lacak.Searcher, not int"),
        ({"strategy": ["bfs"]}, "strategy must be a name"),
        ({"strategy": "test-dijkstra", "limits": {"max_depth": 3}}, "limits must be a lacak.Limits"),
        ({"strategy": "test-dijkstra", "limits": 3}, "limits must be a lacak.Limits"),
        ({"strategy": "test-dijkstra", "trace": "yes"}, "trace must be True, False"),
        ({"strategy": "test-dijkstra", "heuristic": 3}, "a heuristic must be a name"),
    ],
)
def test_solve_rejects_arguments_of_the_wrong_type(arguments: dict[str, Any], fragment: str) -> None:
    with pytest.raises(lacak.InvalidOptionError, match=fragment):
        lacak.solve(SMALL, registry=REGISTRY, **arguments)


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        ({"limits": {"max_depth": 3}}, "limits must be a lacak.Limits"),
        ({"heuristic": lambda p, s: 0}, "heuristic must be a lacak.Heuristic"),
        ({"trace": True}, "trace must be a lacak.SearchTrace"),
    ],
)
def test_a_searcher_called_directly_checks_its_arguments(
    arguments: dict[str, Any], fragment: str
) -> None:
    searcher = REGISTRY.searchers()["test-dijkstra"]
    with pytest.raises(lacak.InvalidOptionError, match=fragment):
        searcher(SMALL, **arguments)


@given(name=st.one_of(st.none(), st.integers(), st.lists(st.text(max_size=2), max_size=2),
                      st.dictionaries(st.text(max_size=1), st.integers(), max_size=1),
                      st.text(max_size=6), st.sampled_from(["zer", "zero ", "graf", "scaled:"])))
def test_lookups_with_any_name_raise_unknown_component_error(name: Any) -> None:
    lookups = (
        lambda: lacak.heuristics(name, registry=REGISTRY),
        lambda: lacak.generators(name, registry=REGISTRY),
        lambda: lacak.generate(name, "random", 3, seed=1, registry=REGISTRY),
        lambda: lacak.generate("graph", name, 3, seed=1, registry=REGISTRY),
        lambda: lacak.parse(name, "text", registry=REGISTRY),
        lambda: lacak.searchers(registry=REGISTRY)[name],
        lambda: REGISTRY.heuristic("graph", name),
    )
    known = {"graph", "random", "zero", "scaled", "test-dijkstra"}
    if isinstance(name, str) and name.partition(":")[0].strip() in known:
        return
    for lookup in lookups:
        with pytest.raises((lacak.UnknownComponentError, lacak.InvalidOptionError)) as info:
            lookup()
        assert str(info.value).startswith(("unknown ", "a heuristic spec is a string"))
    if name is not None and not isinstance(name, str):
        with pytest.raises(lacak.InvalidOptionError, match="a heuristic must be a name"):
            lacak.solve(SMALL, "test-dijkstra", heuristic=name, registry=REGISTRY)


def test_unknown_component_message_has_a_separator_before_the_list() -> None:
    assert str(lacak.UnknownComponentError("strategy", "zzz", ["bfs", "dfs"])) == (
        "unknown strategy 'zzz'. Available: bfs, dfs."
    )
    assert str(lacak.UnknownComponentError("strategy", "bsf", ["bfs", "dfs"])) == (
        "unknown strategy 'bsf'; did you mean 'bfs'? Available: bfs, dfs."
    )
    assert str(lacak.UnknownComponentError("strategy", None, [])) == (
        "unknown strategy None. No strategy is registered."
    )

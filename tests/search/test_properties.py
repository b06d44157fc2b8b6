"""Properties of the generic strategies beyond the contract: depth limits, traces, options, errors."""

from __future__ import annotations

from typing import Any

import lacak
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak import Limits, StopReason
from lacak.testing import GraphPuzzle, replay, shortest_cost
from lacak.testing import strategies as lst

from .helpers import ReversibleGraph, reversible_graphs, unit_graphs

ZERO = lacak.Heuristic(
    name="zero", kind="graph", estimate=lambda _p, _s: 0, admissible=True, consistent=True
)

#: strategy name -> extra options; every one of them is complete under a depth limit on unit costs
DEPTH_COMPLETE = {
    "bfs": {},
    "dfs": {},
    "dfs-iterative": {"iterative": True},
    "idastar": {},
    "astar": {},
    "uniform-cost": {},
}
ALL = ["dfs", "bfs", "uniform-cost", "best-first", "astar", "weighted-astar", "idastar"]


def run(puzzle: Any, name: str, **kwargs: Any) -> lacak.SearchResult:
    options = dict(DEPTH_COMPLETE.get(name, {}))
    options.update(kwargs.pop("options", {}))
    strategy = name.removesuffix("-iterative")
    heuristic = ZERO if lacak.searchers()[strategy].heuristic != "unused" else None
    return lacak.solve(puzzle, strategy, heuristic=heuristic, **options, **kwargs)


def fewest_moves(puzzle: Any) -> int | None:
    unit = GraphPuzzle(
        edges={s: tuple((a, t, 1.0) for a, t, _c in m) for s, m in puzzle.edges.items()},
        initial=puzzle.initial,
        goals=puzzle.goals,
    )
    best = shortest_cost(unit)
    return None if best is None else int(best)


@pytest.mark.parametrize("name", sorted(DEPTH_COMPLETE))
@settings(max_examples=40)
@given(puzzle=unit_graphs(), depth=st.integers(0, 6))
def test_depth_limit_finds_exactly_the_goals_within_it(
    name: str, puzzle: GraphPuzzle, depth: int
) -> None:
    best = fewest_moves(puzzle)
    result = run(puzzle, name, limits=Limits(max_depth=depth))
    assert result.found == (best is not None and best <= depth), (best, result.stopped)
    if result.found:
        replay(puzzle, result)
        assert result.length <= depth
    elif best is None:
        assert result.stopped in (StopReason.EXHAUSTED, StopReason.DEPTH)
    else:
        assert result.stopped is StopReason.DEPTH


@settings(max_examples=40)
@given(puzzle=reversible_graphs(), depth=st.integers(0, 6))
def test_bidirectional_depth_limit(puzzle: ReversibleGraph, depth: int) -> None:
    best = shortest_cost(puzzle)
    result = lacak.solve(puzzle, "bidirectional-bfs", limits=Limits(max_depth=depth))
    assert result.found == (best is not None and best <= depth)
    if result.found:
        assert replay(puzzle, result) == best


@settings(max_examples=40)
@given(puzzle=lst.graph_puzzles())
def test_bfs_finds_fewest_moves_whatever_the_costs(puzzle: GraphPuzzle) -> None:
    result = lacak.solve(puzzle, "bfs")
    best = fewest_moves(puzzle)
    assert result.found == (best is not None)
    if result.found:
        replay(puzzle, result)
        assert result.length == best


@pytest.mark.parametrize("name", ALL)
@settings(max_examples=25)
@given(puzzle=lst.graph_puzzles())
def test_trace_records_a_tree_in_expansion_order(name: str, puzzle: GraphPuzzle) -> None:
    trace = lacak.SearchTrace()
    result = run(puzzle, name, trace=trace)
    nodes = trace.nodes
    assert nodes and nodes[0].parent is None and nodes[0].state == puzzle.initial
    orders = sorted(n.order for n in nodes if n.order is not None)
    assert orders == list(range(1, len(orders) + 1))
    by_id = {n.id: n for n in nodes}
    for node in nodes:
        if node.parent is not None:
            parent = by_id[node.parent]
            assert node.depth == parent.depth + 1
            assert node.state in {s for _a, s, _c in puzzle.successors(parent.state)}
    goals = [n for n in nodes if n.goal]
    if result.found:
        assert len(goals) == 1 and goals[0].state == result.states[-1]
        assert goals[0].depth == result.length
    else:
        assert not goals
    assert len(orders) <= result.stats.expanded


@settings(max_examples=30)
@given(puzzle=unit_graphs())
def test_bfs_expands_level_by_level(puzzle: GraphPuzzle) -> None:
    trace = lacak.SearchTrace()
    lacak.solve(puzzle, "bfs", trace=trace)
    expanded = sorted((n for n in trace.nodes if n.order), key=lambda n: n.order)
    depths = [n.depth for n in expanded]
    assert depths == sorted(depths)


@pytest.mark.parametrize("name", ALL)
def test_zero_seconds_stops_at_once(name: str) -> None:
    line = GraphPuzzle(edges={i: (("n", i + 1, 1.0),) for i in range(50)}, initial=0, goals={50})
    result = run(line, name, limits=Limits(seconds=0))
    assert not result.found and result.stopped is StopReason.TIME
    assert result.stats.expanded == 0


@pytest.mark.parametrize("name", ["bfs", "uniform-cost", "astar", "best-first"])
def test_frontier_limit_stops_cleanly(name: str) -> None:
    fan = GraphPuzzle(
        edges={0: tuple((str(i), i, 1.0) for i in range(1, 20))}, initial=0, goals={99}
    )
    result = run(fan, name, limits=Limits(max_frontier=5))
    assert not result.found and result.stopped is StopReason.MEMORY


def test_parent_rule_only_refuses_the_grandparent() -> None:
    # 0 <-> 1 -> 2 -> 0: with the parent rule, 1 -> 0 is refused but 2 -> 0 is not.
    cycle = GraphPuzzle(
        edges={0: (("a", 1, 1.0),), 1: (("back", 0, 1.0), ("b", 2, 1.0)), 2: (("c", 0, 1.0),)},
        initial=0,
        goals={9},
    )
    trace = lacak.SearchTrace()
    result = lacak.solve(cycle, "bfs", duplicates="parent", limits=Limits(max_depth=3), trace=trace)
    assert result.stopped is StopReason.DEPTH
    assert [n.action for n in trace.nodes] == [None, "a", "b", "c"]


def test_bidirectional_needs_a_reversible_puzzle() -> None:
    graph = GraphPuzzle(edges={0: (("a", 1, 1.0),)}, initial=0, goals={1})
    with pytest.raises(lacak.InvalidPuzzleError, match="ReversiblePuzzle"):
        lacak.solve(graph, "bidirectional-bfs")


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("bfs", {"duplicates": "nope"}),
        ("dfs", {"duplicates": ""}),
        ("astar", {"duplicates": "seen"}),
        ("weighted-astar", {"weight": 0.5}),
        ("weighted-astar", {"weight": float("inf")}),
        ("bfs", {"weight": 2.0}),
    ],
)
def test_bad_options_are_clear_errors(name: str, options: dict[str, Any]) -> None:
    graph = GraphPuzzle(edges={0: (("a", 1, 1.0),)}, initial=0, goals={1})
    with pytest.raises(lacak.InvalidOptionError):
        lacak.solve(graph, name, heuristic=ZERO, **options)


def test_heuristic_required() -> None:
    graph = GraphPuzzle(edges={0: (("a", 1, 1.0),)}, initial=0, goals={1})
    with pytest.raises(lacak.InvalidOptionError, match="needs a heuristic"):
        lacak.solve(graph, "astar")


@settings(max_examples=40)
@given(puzzle=lst.graph_puzzles())
def test_idastar_counts_iterations_and_agrees_with_dijkstra(puzzle: GraphPuzzle) -> None:
    result = lacak.solve(puzzle, "idastar")
    best = shortest_cost(puzzle)
    assert result.found == (best is not None)
    if result.found:
        assert replay(puzzle, result) == best
    assert result.stats.iterations >= 1

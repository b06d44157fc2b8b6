"""Properties of the generic strategies beyond the contract: depth limits, traces, options, errors."""

from __future__ import annotations

import math
from typing import Any

import attrs
import lacak
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from lacak import Limits, StopReason
from lacak.testing import GraphPuzzle, distances_to_goal, replay, shortest_cost
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


def least_cost_within(puzzle: GraphPuzzle, depth: int) -> float | None:
    """The least cost of a path of at most ``depth`` moves to a goal (Bellman-Ford by layers)."""
    best = 0.0 if puzzle.is_goal(puzzle.initial) else math.inf
    layer = {puzzle.initial: 0.0}
    for _ in range(depth):
        following: dict[Any, float] = {}
        for state, cost in layer.items():
            for _action, target, step in puzzle.successors(state):
                if cost + step < following.get(target, math.inf):
                    following[target] = cost + step
        layer = following
        for state, cost in layer.items():
            if puzzle.is_goal(state):
                best = min(best, cost)
    return None if best == math.inf else best


#: Shares of the true remaining cost a test heuristic may estimate.
SHARES = st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0]), min_size=12, max_size=12)


def admissible_heuristic(puzzle: GraphPuzzle, shares: list[float]) -> lacak.Heuristic:
    """h = a share of the true remaining cost (one share per state): admissible, often
    inconsistent."""
    exact = distances_to_goal(puzzle, puzzle.edges)
    values = {s: (v or 0.0) * shares[i % len(shares)] for i, (s, v) in enumerate(exact.items())}
    return lacak.Heuristic(
        name="fraction", kind="graph", estimate=lambda _p, s: values.get(s, 0.0), admissible=True
    )


#: cost-ordered strategies -> (options, cost bound as a multiple of the least cost or None)
COST_ORDERED: dict[str, tuple[dict[str, Any], float | None]] = {
    "uniform-cost": ({}, 1.0),
    "astar": ({}, 1.0),
    "weighted-astar": ({"weight": 1.5}, 1.5),
    "best-first": ({}, None),
}

# The reviewer's graph: the cheap way to c is three moves, the dear one direct, and g is one
# move past c. With max_depth=3 only s-c-g (cost 11) fits; the cheap deep copy of c must not
# replace the shallow one.
CHEAP_BUT_DEEP = GraphPuzzle(
    edges={
        "s": (("a", "a", 1.0), ("c", "c", 10.0)),
        "a": (("b", "b", 1.0),),
        "b": (("c", "c", 1.0),),
        "c": (("g", "g", 1.0),),
    },
    initial="s",
    goals={"g"},
)


@pytest.mark.parametrize("name", sorted(COST_ORDERED))
def test_cost_ordered_depth_limit_keeps_the_shallow_copy(name: str) -> None:
    options, _bound = COST_ORDERED[name]
    heuristic = None if name == "uniform-cost" else ZERO
    limited = lacak.solve(
        CHEAP_BUT_DEEP, name, heuristic=heuristic, limits=Limits(max_depth=3), **options
    )
    assert limited.found and limited.actions == ("c", "g") and limited.cost == 11.0
    free = lacak.solve(CHEAP_BUT_DEEP, name, heuristic=heuristic, **options)
    if name != "best-first":
        assert free.actions == ("a", "b", "c", "g") and free.cost == 4.0


@pytest.mark.parametrize("name", sorted(COST_ORDERED))
@settings(max_examples=80, deadline=None)
@given(puzzle=lst.graph_puzzles(max_states=7), depth=st.integers(0, 5), shares=SHARES)
@example(puzzle=CHEAP_BUT_DEEP, depth=3, shares=[0.0] * 12)
def test_cost_ordered_depth_limit_finds_the_cheapest_path_within_it(
    name: str, puzzle: GraphPuzzle, depth: int, shares: list[float]
) -> None:
    """With max_depth, a goal within the limit is found, at the least cost among paths of at
    most max_depth moves (uniform-cost, astar), or within the weight of it (weighted-astar)."""
    options, bound = COST_ORDERED[name]
    heuristic = None if name == "uniform-cost" else admissible_heuristic(puzzle, shares)
    best = least_cost_within(puzzle, depth)
    result = lacak.solve(
        puzzle, name, heuristic=heuristic, limits=Limits(max_depth=depth), **options
    )
    assert result.found == (best is not None), (best, result.stopped)
    if result.found:
        assert replay(puzzle, result) == result.cost
        assert result.length <= depth
        assert best is not None
        if bound is not None:
            assert result.cost <= bound * best + 1e-9, (result.cost, best)
    else:
        assert result.stopped in (StopReason.EXHAUSTED, StopReason.DEPTH)
    assert result.stats.depth <= depth


def deepest_generated(trace: lacak.SearchTrace) -> int:
    return max(node.depth for node in trace.nodes)


@pytest.mark.parametrize("name", ALL)
@settings(max_examples=40, deadline=None)
@given(puzzle=lst.graph_puzzles(), depth=st.none() | st.integers(0, 5))
def test_stats_depth_is_the_deepest_node_generated(
    name: str, puzzle: GraphPuzzle, depth: int | None
) -> None:
    """``stats.depth`` is the deepest level of a node generated (the root is level 0), so a
    node whose children are all refused as duplicates does not raise it."""
    trace = lacak.SearchTrace()
    result = run(puzzle, name, limits=Limits(max_depth=depth), trace=trace)
    assert result.stats.depth == deepest_generated(trace)
    if depth is not None:
        assert result.stats.depth <= depth


def test_stats_depth_ignores_children_refused_as_duplicates() -> None:
    # 0 -> 1, 0 -> 2, 1 -> 0: expanding 1 generates nothing (0 is closed, or on the path), so
    # the tree is one level deep although 2 is still waiting
    loop = GraphPuzzle(
        edges={0: (("a", 1, 1.0), ("b", 2, 1.0)), 1: (("c", 0, 1.0),)}, initial=0, goals={9}
    )
    for name in ALL:
        assert run(loop, name).stats.depth == 1, name


@settings(max_examples=40)
@given(puzzle=reversible_graphs(), depth=st.none() | st.integers(0, 6))
def test_bidirectional_stats_depth(puzzle: ReversibleGraph, depth: int | None) -> None:
    """Bidirectional depth is the two sides' depths together: the path length when found,
    never more than max_depth."""
    result = lacak.solve(puzzle, "bidirectional-bfs", limits=Limits(max_depth=depth))
    if result.found:
        assert result.stats.depth == result.length
    if depth is not None:
        assert result.stats.depth <= depth


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("dfs", {"iterative": "maybe"}),
        ("dfs", {"iterative": ""}),
        ("dfs", {"iterative": 1}),
        ("dfs", {"iterative": None}),
        ("weighted-astar", {"weight": True}),
        ("weighted-astar", {"weight": "2"}),
        ("weighted-astar", {"weight": float("nan")}),
        ("bfs", {"duplicates": ["closed"]}),
        ("astar", {"duplicates": None}),
    ],
)
def test_option_types_are_checked(name: str, options: dict[str, Any]) -> None:
    graph = GraphPuzzle(edges={0: (("a", 1, 1.0),)}, initial=0, goals={1})
    with pytest.raises(lacak.InvalidOptionError, match="must be"):
        lacak.solve(graph, name, heuristic=ZERO, **options)


@pytest.mark.parametrize(
    ("value", "iterative"),
    [(True, True), (False, False), ("no", False), ("OFF", False), ("yes", True), ("1", True)],
)
def test_iterative_takes_bools_and_the_words_command_lines_pass(
    value: Any, iterative: bool
) -> None:
    # plain DFS follows the first child: a, c, d (3 moves); iterative deepening finds b, e
    graph = GraphPuzzle(
        edges={
            0: (("a", 1, 1.0), ("b", 2, 1.0)),
            1: (("c", 3, 1.0),),
            3: (("d", 9, 1.0),),
            2: (("e", 9, 1.0),),
        },
        initial=0,
        goals={9},
    )
    result = lacak.solve(graph, "dfs", iterative=value)
    assert result.actions == (("b", "e") if iterative else ("a", "c", "d"))
    assert result.stats.iterations == (3 if iterative else 1)


#: The strategies this plugin registers (local search, which needs an objective, apart).
OWN = sorted(name for name, s in lacak.searchers().items()
             if lacak.searchers().owner(name) == "search" and not s.objective)  # fmt: skip

# Two moves costing 2 against one move costing 5: fewest moves is not least cost.
DEAR_SHORTCUT = ReversibleGraph(
    graph=GraphPuzzle(
        edges={0: (("shortcut", 2, 5.0), ("a", 1, 1.0)), 1: (("b", 2, 1.0),)},
        initial=0,
        goals={2},
    ),
    goal=2,
)


@pytest.mark.parametrize("name", OWN)
def test_registered_optimal_means_least_cost_whatever_the_step_costs(name: str) -> None:
    """``Searcher.optimal`` promises least-cost paths; a strategy that returns a dearer path
    on a weighted graph (bfs, bidirectional-bfs: fewest moves) must not claim it."""
    searcher = lacak.searchers()[name]
    heuristic = ZERO if searcher.heuristic == "required" else None
    result = lacak.solve(DEAR_SHORTCUT, name, heuristic=heuristic)
    assert result.found
    if result.cost > 2.0:
        assert not searcher.optimal, (name, result.actions)
        if "fewest moves" in searcher.description:
            assert "least cost only when every step costs the same" in searcher.description


@pytest.mark.parametrize("name", [n for n in OWN if lacak.searchers()[n].optimal])
@settings(max_examples=40)
@given(puzzle=reversible_graphs(unit_costs=False))
def test_optimal_strategies_agree_with_dijkstra_on_weighted_graphs(
    name: str, puzzle: ReversibleGraph
) -> None:
    heuristic = ZERO if lacak.searchers()[name].heuristic == "required" else None
    result = lacak.solve(puzzle, name, heuristic=heuristic)
    best = shortest_cost(puzzle)
    assert result.found == (best is not None)
    if result.found:
        assert replay(puzzle, result) == best


@settings(max_examples=40)
@given(puzzle=reversible_graphs(unit_costs=False))
def test_bidirectional_finds_fewest_moves_whatever_the_costs(puzzle: ReversibleGraph) -> None:
    result = lacak.solve(puzzle, "bidirectional-bfs")
    best = fewest_moves(attrs.evolve(puzzle.graph, goals={puzzle.goal}))
    assert result.found == (best is not None)
    if result.found:
        replay(puzzle, result)
        assert result.length == best

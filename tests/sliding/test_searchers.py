"""Every strategy on sliding puzzles: legal, reaches the goal, optimal where claimed; the fast ones agree."""

from __future__ import annotations

from typing import Any, ClassVar

import lacak
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak import Limits, StopReason
from lacak.testing import SearcherContract, replay
from lacak_sliding.puzzle import SlidingPuzzle

from .helpers import SMALL, boards, true_distance, walks

#: strategy -> options; the generic ones come from lacak_search, the -tiles ones from lacak_sliding
STRATEGIES: dict[str, dict[str, Any]] = {
    "dfs": {},
    "bfs": {},
    "bidirectional-bfs": {},
    "uniform-cost": {},
    "best-first": {},
    "astar": {},
    "weighted-astar": {"weight": 1.5},
    "idastar": {},
    "iddfs": {"duplicates": "closed"},
    "rbfs": {},
    "astar-tiles": {},
    "bfs-tiles": {},
}
OPTIMAL = [
    "bfs",
    "bidirectional-bfs",
    "uniform-cost",
    "astar",
    "idastar",
    "iddfs",
    "rbfs",
    "astar-tiles",
    "bfs-tiles",
]
INFORMED_OPTIMAL = ["astar", "idastar", "astar-tiles"]


def test_every_registered_strategy_is_covered() -> None:
    mine = {
        name
        for name, s in lacak.searchers().items()
        if (lacak.searchers().owner(name) == "search" and not s.objective)  # (not local search)
        or name in ("astar-tiles", "bfs-tiles")
    }
    assert mine == set(STRATEGIES)
    for name in OPTIMAL:
        # bfs and bidirectional-bfs find fewest moves: least cost here (unit step
        # costs), but not flagged optimal, which means least cost for any costs
        searcher = lacak.searchers()[name]
        assert searcher.optimal == (name not in ("bfs", "bidirectional-bfs", "iddfs"))
        assert searcher.optimal or searcher.fewest_moves


def solve(puzzle: SlidingPuzzle, name: str, heuristic: str | None = None, **kwargs: Any) -> Any:
    return lacak.solve(puzzle, name, heuristic=heuristic, **STRATEGIES[name], **kwargs)


@pytest.mark.parametrize("name", sorted(STRATEGIES))
@settings(max_examples=30)
@given(puzzle=boards(sizes=SMALL, custom_goal=True))
def test_small_boards_legal_and_optimal_where_claimed(name: str, puzzle: SlidingPuzzle) -> None:
    result = solve(puzzle, name)
    replay(puzzle, result)
    if name in OPTIMAL:
        assert result.length == true_distance(puzzle)


@pytest.mark.parametrize("name", [*INFORMED_OPTIMAL, "bfs-tiles", "bidirectional-bfs"])
@settings(max_examples=12)
@given(puzzle=boards(sizes=((3, 3),)))
def test_random_3x3_boards_solved_optimally(name: str, puzzle: SlidingPuzzle) -> None:
    heuristic = "linear-conflict" if name == "idastar" else None
    result = solve(puzzle, name, heuristic=heuristic)
    assert replay(puzzle, result) == true_distance(puzzle)


@pytest.mark.parametrize(
    "heuristic", ["misplaced", "manhattan", "linear-conflict", "weighted:0.5,0.5"]
)
@settings(max_examples=15)
@given(puzzle=walks(size=(3, 3), max_moves=24))
def test_astar_tiles_agrees_with_astar(heuristic: str, puzzle: SlidingPuzzle) -> None:
    fast = lacak.solve(puzzle, "astar-tiles", heuristic=heuristic)
    slow = lacak.solve(puzzle, "astar", heuristic=heuristic)
    replay(puzzle, fast)
    assert fast.length == slow.length == true_distance(puzzle)
    assert fast.heuristic == slow.heuristic


@settings(max_examples=10)
@given(puzzle=boards(sizes=((4, 3), (3, 4), (4, 4))), seed=st.integers(0, 5))
def test_astar_tiles_on_bigger_boards_agrees_with_idastar(puzzle: SlidingPuzzle, seed: int) -> None:
    from lacak_sliding.generators import random_walk

    walk = random_walk((puzzle.width, puzzle.height), seed, moves=18)
    fast = lacak.solve(walk, "astar-tiles", heuristic="linear-conflict")
    slow = lacak.solve(walk, "idastar", heuristic="manhattan")
    replay(walk, fast)
    assert fast.length == slow.length


@pytest.mark.parametrize("heuristic", ["weighted", "weighted:w1=1.5,w2=1"])
@settings(max_examples=10)
@given(puzzle=boards(sizes=((3, 3),)))
def test_inadmissible_heuristics_still_give_legal_paths(
    heuristic: str, puzzle: SlidingPuzzle
) -> None:
    result = lacak.solve(puzzle, "astar-tiles", heuristic=heuristic)
    replay(puzzle, result)
    assert result.heuristic.startswith("weighted")


@settings(max_examples=15)
@given(puzzle=boards(sizes=((3, 3),)), weight=st.sampled_from([1.0, 1.5, 2.0, 3.0]))
def test_weighted_astar_within_its_bound(puzzle: SlidingPuzzle, weight: float) -> None:
    result = lacak.solve(puzzle, "weighted-astar", heuristic="manhattan", weight=weight)
    assert replay(puzzle, result) <= weight * true_distance(puzzle)


def test_bfs_tiles_enumerates_the_whole_8_puzzle() -> None:
    # an unreachable goal: the search must visit every reachable board, 181,440 of them
    puzzle = lacak.parse("sliding", "123456780", goal="123456870", allow_unsolvable=True)
    result = lacak.solve(puzzle, "bfs-tiles")
    assert not result.found and result.stopped is StopReason.EXHAUSTED
    assert result.stats.expanded == 181_440
    assert result.stats.generated == 181_440 - 1
    assert result.stats.depth == 31


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_unsolvable_small_board_is_exhausted_not_hung(name: str) -> None:
    puzzle = lacak.parse("sliding", "2 1 / 3 0", allow_unsolvable=True)
    result = solve(puzzle, name, limits=Limits(max_expanded=10_000))
    assert not result.found and result.stopped is StopReason.EXHAUSTED


@pytest.mark.parametrize("name", sorted(STRATEGIES))
@settings(max_examples=15)
@given(puzzle=boards(sizes=((3, 3),)), budget=st.integers(0, 60), depth=st.integers(0, 8))
def test_limits_stop_cleanly(name: str, puzzle: SlidingPuzzle, budget: int, depth: int) -> None:
    result = solve(puzzle, name, limits=Limits(max_expanded=budget, max_depth=depth))
    assert result.stats.expanded <= budget
    if result.found:
        replay(puzzle, result)
        assert result.length <= depth
    else:
        assert result.stopped in (StopReason.NODES, StopReason.DEPTH)
        assert result.states == (puzzle.initial,)
    timed = solve(puzzle, name, limits=Limits(seconds=0))
    assert timed.found == (puzzle.initial == puzzle.goal) or timed.stopped is StopReason.TIME


@pytest.mark.parametrize("name", ["dfs", "bfs", "best-first"])
def test_reference_example_depth_two(name: str) -> None:
    puzzle = lacak.parse("sliding", "123450786", goal="103425786")
    result = lacak.solve(puzzle, name, limits=Limits(max_depth=2))
    assert result.found and result.length == 2
    assert result.actions == ("L", "U")


def test_reference_dfs_visits_nodes_in_the_textbook_order() -> None:
    puzzle = lacak.parse("sliding", "123450786", goal="103425786")
    trace = lacak.SearchTrace(describe=puzzle.format_state)
    lacak.solve(puzzle, "dfs", limits=Limits(max_depth=2), duplicates="parent", trace=trace)
    order = sorted((n for n in trace.nodes if n.order), key=lambda n: n.order)
    assert [puzzle.format_state(n.state) for n in order] == [
        "123450786",
        "123456780",
        "123456708",
        "123405786",
        "123485706",
        "123045786",
        "103425786",
    ]


def test_reference_example_three_moves() -> None:
    puzzle = lacak.parse("sliding", "123845706", goal="123804765")
    for name in STRATEGIES:
        result = solve(puzzle, name)
        replay(puzzle, result)
        if name in OPTIMAL:
            assert result.length == 3


@settings(max_examples=10)
@given(puzzle=walks(size=(3, 3), max_moves=10))
def test_tiles_searchers_trace_like_the_generic_ones(puzzle: SlidingPuzzle) -> None:
    for name in ("astar-tiles", "bfs-tiles"):
        trace = lacak.SearchTrace()
        result = lacak.solve(puzzle, name, trace=trace)
        goal_nodes = [n for n in trace.nodes if n.goal]
        assert len(goal_nodes) == 1 and goal_nodes[0].state == puzzle.goal
        assert goal_nodes[0].depth == result.length
        by_id = {n.id: n for n in trace.nodes}
        for node in trace.nodes:
            if node.parent is not None:
                assert node.state in {
                    s for _a, s, _c in puzzle.successors(by_id[node.parent].state)
                }


def test_tiles_searchers_refuse_other_puzzles() -> None:
    from lacak.testing import GraphPuzzle

    graph = GraphPuzzle(edges={0: (("a", 1, 1.0),)}, initial=0, goals={1})
    with pytest.raises(lacak.InvalidPuzzleError):
        lacak.solve(graph, "astar-tiles", heuristic=lambda p, s: 0)


class _SlidingContract(SearcherContract):
    def puzzles(self) -> st.SearchStrategy[Any]:
        return boards(sizes=SMALL, custom_goal=True)


class TestAstarTilesContract(_SlidingContract):
    strategy = "astar-tiles"
    heuristic = "manhattan"


class TestAstarTilesLinearConflict(_SlidingContract):
    strategy = "astar-tiles"
    heuristic = "linear-conflict"


class TestBfsTilesContract(_SlidingContract):
    strategy = "bfs-tiles"


class TestIdastarSliding(_SlidingContract):
    strategy = "idastar"
    heuristic = "manhattan"


class TestBidirectionalSliding(_SlidingContract):
    strategy = "bidirectional-bfs"


class TestDfsIterativeSliding(_SlidingContract):
    strategy = "dfs"
    options: ClassVar[dict[str, Any]] = {"iterative": True}


class TestBfsSliding(_SlidingContract):
    strategy = "bfs"


class TestDfsSliding(_SlidingContract):
    strategy = "dfs"


class TestUniformCostSliding(_SlidingContract):
    strategy = "uniform-cost"


class TestAstarSliding(_SlidingContract):
    strategy = "astar"
    heuristic = "linear-conflict"


class TestWeightedAstarSliding(_SlidingContract):
    strategy = "weighted-astar"
    heuristic = "manhattan"


class TestBestFirstSliding(_SlidingContract):
    strategy = "best-first"
    heuristic = "weighted"

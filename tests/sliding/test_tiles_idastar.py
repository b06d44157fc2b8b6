"""``idastar-tiles``: optimal, agrees with the generic searches, counts honestly, honours limits."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any, ClassVar

import lacak
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak import Limits, StopReason
from lacak.testing import SearcherContract, replay
from lacak.testing import strategies as lst
from lacak_sliding.generators import random_board, random_walk
from lacak_sliding.puzzle import SlidingPuzzle, goal_tiles
from lacak_sliding.tiles import idastar as tiles_idastar
from lacak_sliding.tiles.idastar.generated import generated_source

from .helpers import distances


@pytest.fixture(scope="module", autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Databases built by these tests go to a temporary cache, never the user's; the
    Python engines run whatever this process loaded before (the compiled engine has
    its own tests, tests/sliding/test_tiles_compiled.py)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LACAK_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "lacak-cache"))
        mp.setenv("LACAK_TILES_ENGINE", "python")
        yield


def fast(puzzle: Any, heuristic: str = "manhattan", **kwargs: Any) -> lacak.SearchResult:
    return lacak.solve(puzzle, "idastar-tiles", heuristic=heuristic, **kwargs)


def slow_twin(puzzle: Any, spec: str, **kwargs: Any) -> lacak.SearchResult:
    """The same search through the general path: the same values, but not recognisably additive."""
    heuristic = lacak.default_registry().heuristic("sliding", spec)
    prepared = heuristic.for_puzzle(puzzle)
    opaque = lacak.Heuristic(
        name=heuristic.name,
        kind="sliding",
        admissible=heuristic.admissible,
        estimate=lambda _p, s: prepared(s),
        prepare=lambda _p: lambda s: prepared(s),
    )
    return lacak.solve(puzzle, "idastar-tiles", heuristic=opaque, **kwargs)


def test_registered() -> None:
    searcher = lacak.searchers()["idastar-tiles"]
    assert searcher.optimal
    assert searcher.kinds == frozenset({"sliding"})
    assert searcher.heuristic == "required"


# -- optimality and agreement ---------------------------------------------------------------


@settings(max_examples=40)
@given(seed=lst.seeds(), heuristic=st.sampled_from(["manhattan", "pdb", "pdb:1,2,3/4,5,6;reflect"]))
def test_agrees_with_astar_on_random_8_puzzles(seed: int, heuristic: str) -> None:
    puzzle = random_board((3, 3), seed)
    result = fast(puzzle, heuristic)
    replay(puzzle, result)
    assert result.length == distances(3, 3)[puzzle.initial]
    reference = lacak.solve(puzzle, "astar-tiles", heuristic="manhattan")
    assert result.length == reference.length


@settings(max_examples=25)
@given(
    seed=lst.seeds(), moves=st.integers(0, 30), heuristic=st.sampled_from(["manhattan", "pdb-555"])
)
def test_agrees_with_generic_idastar_on_shallow_15_puzzles(
    seed: int, moves: int, heuristic: str
) -> None:
    puzzle = random_walk((4, 4), seed, moves=moves)
    result = fast(puzzle, heuristic)
    replay(puzzle, result)
    generic = lacak.solve(puzzle, "idastar", heuristic="manhattan")
    assert result.length == generic.length
    assert result.length <= moves


@settings(max_examples=30)
@given(
    size=st.sampled_from([(2, 2), (2, 3), (3, 2), (2, 4), (4, 2)]),
    seed=lst.seeds(),
    goal_seed=lst.seeds(),
    heuristic=st.sampled_from(["manhattan", "misplaced", "pdb", "linear-conflict"]),
)
def test_optimal_on_small_boards_with_any_goal(
    size: tuple[int, int], seed: int, goal_seed: int, heuristic: str
) -> None:
    goal = random_board(size, goal_seed).initial
    puzzle = random_board(size, seed, goal=" ".join(map(str, goal)))
    result = fast(puzzle, heuristic)
    replay(puzzle, result)
    assert result.length == distances(puzzle.width, puzzle.height, goal)[puzzle.initial]


@pytest.mark.parametrize("size", [(4, 3), (3, 4), (2, 5)])
def test_other_shapes_match_astar(size: tuple[int, int]) -> None:
    for seed in range(3):
        puzzle = random_walk(size, seed, moves=40)
        result = fast(puzzle, "pdb")
        replay(puzzle, result)
        assert result.length == lacak.solve(puzzle, "astar-tiles", heuristic="manhattan").length


def test_reflection_changes_nodes_not_answers() -> None:
    puzzle = random_walk((4, 4), 11, moves=60)
    plain = fast(puzzle, "pdb-555:noreflect")
    mirrored = fast(puzzle, "pdb-555:reflect")
    assert plain.length == mirrored.length
    assert mirrored.stats.expanded <= plain.stats.expanded


def test_korf_goal_with_blank_first() -> None:
    goal = tuple(range(16))
    puzzle = SlidingPuzzle(
        width=4,
        height=4,
        initial=random_walk(
            (4, 4), 3, moves=40, goal="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
        ).initial,
        goal=goal,
    )
    result = fast(puzzle, "pdb-555")
    replay(puzzle, result)
    assert result.length == lacak.solve(puzzle, "idastar", heuristic="manhattan").length


def test_start_is_goal() -> None:
    puzzle = SlidingPuzzle(width=3, height=3, initial=goal_tiles(3, 3), goal=goal_tiles(3, 3))
    result = fast(puzzle)
    assert result.found and result.length == 0
    assert result.stats.expanded == 1 and result.stats.generated == 0


def test_unsolvable_is_exhausted_at_once() -> None:
    puzzle = SlidingPuzzle.from_string("123456870", allow_unsolvable=True)
    result = fast(puzzle)
    assert not result.found and result.stopped is StopReason.EXHAUSTED
    assert result.stats.expanded == 0
    with pytest.raises(lacak.UnsolvableError):
        result.check()


# -- honest counts ---------------------------------------------------------------------------


@settings(max_examples=30)
@given(
    seed=lst.seeds(),
    spec=st.sampled_from(
        [
            "manhattan",
            "misplaced",
            "pdb",
            "pdb:1,2,3/4,5,6;reflect",
            "weighted:1,1",
            "linear-conflict",
        ]
    ),
)
def test_fast_path_counts_like_the_general_path(seed: int, spec: str) -> None:
    """The generated search and the plain recursive one visit the same nodes in the same order."""
    puzzle = random_board((3, 3), seed)
    a = fast(puzzle, spec)
    b = slow_twin(puzzle, spec)
    assert a.actions == b.actions
    assert (a.stats.expanded, a.stats.generated, a.stats.iterations) == (
        b.stats.expanded,
        b.stats.generated,
        b.stats.iterations,
    )


@settings(max_examples=40)
@given(
    seed=lst.seeds(),
    budget=st.integers(0, 3000),
    spec=st.sampled_from(["manhattan", "pdb:1,2,3,4/5,6,7,8;reflect", "linear-conflict"]),
)
def test_node_limit_is_exact_and_counts_stay_honest(seed: int, budget: int, spec: str) -> None:
    puzzle = random_board((3, 3), seed)
    a = fast(puzzle, spec, limits=Limits(max_expanded=budget))
    b = slow_twin(puzzle, spec, limits=Limits(max_expanded=budget))
    assert a.stats.expanded <= budget
    assert (a.found, a.stopped, a.actions) == (b.found, b.stopped, b.actions)
    assert (a.stats.expanded, a.stats.generated) == (b.stats.expanded, b.stats.generated)
    if not a.found:
        assert a.stopped is StopReason.NODES
        assert a.stats.expanded == budget


def test_generated_counts_children_without_the_inverse_move() -> None:
    # one move (U, tried last) from the goal: the root generates its three children,
    # the other two exceed the bound, the goal generates none
    puzzle = lacak.parse("sliding", "123475608", goal="123405678")
    result = fast(puzzle)
    assert result.actions == ("U",)
    assert [a for a, _s, _c in puzzle.successors(puzzle.initial)] == ["R", "L", "U"]
    assert result.stats.expanded == 2
    assert result.stats.generated == 3
    # from the goal's neighbour on the other side, the goal is the first child tried
    first = fast(lacak.parse("sliding", "103425678", goal="123405678"))
    assert first.actions == ("D",)
    assert (first.stats.expanded, first.stats.generated) == (2, 1)


# -- limits ----------------------------------------------------------------------------------


def test_depth_limit() -> None:
    puzzle = random_walk((3, 3), 7, moves=20)
    length = fast(puzzle).length
    assert length > 4
    stopped = fast(puzzle, limits=Limits(max_depth=length - 1))
    assert not stopped.found and stopped.stopped is StopReason.DEPTH
    assert fast(puzzle, limits=Limits(max_depth=length)).length == length
    by_frontier = fast(puzzle, limits=Limits(max_frontier=length - 2))
    assert not by_frontier.found


def test_inadmissible_heuristic_finds_goal_within_max_depth() -> None:
    # weighted (1, 1) estimates 4 here, twice the true distance 2
    puzzle = lacak.parse("sliding", "123450786", goal="103425786")
    result = fast(puzzle, "weighted", limits=Limits(max_depth=2))
    assert result.found and result.length == 2
    assert replay(puzzle, result) == result.length
    too_short = fast(puzzle, "weighted", limits=Limits(max_depth=1))
    assert not too_short.found and too_short.stopped is StopReason.DEPTH


HEURISTIC_SPECS = [*lacak.heuristics("sliding"), "weighted:w1=3,w2=0.5", "weighted:w1=0,w2=7"]


@settings(max_examples=60, deadline=None)
@given(
    size=st.sampled_from([(3, 3), (2, 3), (3, 2)]),
    seed=lst.seeds(),
    moves=st.integers(0, 12),
    spec=st.sampled_from(HEURISTIC_SPECS),
    slack=st.integers(0, 3),
)
def test_any_heuristic_finds_a_goal_within_max_depth(
    size: tuple[int, int], seed: int, moves: int, spec: str, slack: int
) -> None:
    puzzle = random_walk(size, seed, moves=moves)
    heuristic = lacak.default_registry().heuristic("sliding", spec)
    try:
        heuristic.for_puzzle(puzzle)
    except lacak.InvalidOptionError:
        return  # a database made for another board size
    distance = distances(puzzle.width, puzzle.height, puzzle.goal)[puzzle.initial]
    result = fast(puzzle, heuristic, limits=Limits(max_depth=distance + slack))
    assert result.found, (spec, result.stopped)
    assert distance <= result.length <= distance + slack
    assert replay(puzzle, result) == result.length
    if heuristic.admissible:
        assert result.length == distance


def test_time_limit() -> None:
    puzzle = SlidingPuzzle.from_string(
        "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", goal=" ".join(map(str, range(16)))
    )
    looks = itertools.count()  # a clock that moves a millisecond a look
    with lacak.limits.use_clock(lambda: next(looks) / 1000):
        result = fast(puzzle, "manhattan", limits=Limits(seconds=0.05))
    assert not result.found and result.stopped is StopReason.TIME
    assert result.stats.expanded > 0
    assert next(looks) < 80  # the limit is 50 looks: a few past it, not minutes of search


@pytest.mark.parametrize("heuristic", ["linear-conflict", "opaque"])
def test_time_limit_in_the_other_paths(heuristic: str) -> None:
    puzzle = SlidingPuzzle.from_string(
        "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", goal=" ".join(map(str, range(16)))
    )
    limits = Limits(seconds=0.05)
    if heuristic == "opaque":
        result = slow_twin(puzzle, "manhattan", limits=limits)
    else:
        result = fast(puzzle, heuristic, limits=limits)
    assert not result.found and result.stopped is StopReason.TIME


def test_linear_conflict_runs_incrementally() -> None:
    """Linear conflict's own path: the same tree as the general one, with the values it computes."""
    puzzle = random_walk((4, 4), 5, moves=44)
    a = fast(puzzle, "linear-conflict")
    b = slow_twin(puzzle, "linear-conflict")
    replay(puzzle, a)
    assert (a.actions, a.stats.expanded, a.stats.generated) == (
        b.actions,
        b.stats.expanded,
        b.stats.generated,
    )
    assert a.length == lacak.solve(puzzle, "astar-tiles", heuristic="linear-conflict").length


def test_zero_budget() -> None:
    puzzle = random_walk((3, 3), 1, moves=5)
    result = fast(puzzle, limits=Limits(max_expanded=0))
    assert not result.found and result.stopped is StopReason.NODES
    assert result.stats.expanded == 0 and result.stats.generated == 0


# -- traces and errors -------------------------------------------------------------------------


def test_trace_records_the_tree_and_keeps_the_answer() -> None:
    puzzle = random_walk((3, 3), 2, moves=8)
    plain = fast(puzzle)
    traced = fast(puzzle, trace=True)
    assert traced.actions == plain.actions
    assert traced.trace is not None and traced.trace.nodes
    assert any(node.goal for node in traced.trace.nodes)
    expanded = [n for n in traced.trace.nodes if n.order is not None]
    assert len(expanded) == traced.stats.expanded


def test_not_a_sliding_puzzle() -> None:
    from lacak.testing import GraphPuzzle

    graph = GraphPuzzle(edges={}, initial=0, goals={0})
    with pytest.raises(lacak.InvalidPuzzleError, match="solves sliding puzzles"):
        lacak.solve(graph, "idastar-tiles", heuristic=lambda _p, _s: 0)
    with pytest.raises(lacak.InvalidPuzzleError, match="needs a sliding puzzle"):
        tiles_idastar.idastar_tiles(graph, heuristic=None, limits=Limits())


def test_generated_source_compiles_for_every_shape() -> None:
    for width in range(2, 6):
        for height in range(2, 6):
            for reflect in (False, True):
                source = generated_source(width, height, reflect)
                compile(source, "<test>", "exec")


class TestContractManhattan(SearcherContract):
    strategy = "idastar-tiles"
    heuristic: ClassVar[str | None] = "manhattan"

    def puzzles(self) -> st.SearchStrategy[SlidingPuzzle]:
        return st.tuples(lst.seeds(), st.integers(0, 14)).map(
            lambda a: random_walk((3, 3), a[0], moves=a[1])
        )


class TestContractPdb(TestContractManhattan):
    heuristic: ClassVar[str | None] = "pdb:1,2,3,4/5,6,7,8;reflect"


@pytest.mark.parametrize(
    ("size", "spec"),
    [
        ((3, 3), "pdb:1,2,3/4,5,6,7,8;reflect"),
        ((3, 3), "pdb:2,4,6/1,3;noreflect"),
        ((4, 4), "pdb-555"),
        ((4, 3), "pdb"),
    ],
)
def test_rank_indexed_tables_search_the_same_tree(
    size: tuple[int, int], spec: str, ranked_only: None
) -> None:
    """Moves between rows update a rank through the tiles they pass; nothing else changes."""
    from lacak_sliding.pdb import lookup

    puzzles = [random_walk(size, seed, moves=36) for seed in range(6)]
    ranked = [fast(p, spec) for p in puzzles]
    heuristic = lacak.default_registry().heuristic("sliding", spec)
    assert not heuristic.for_puzzle(puzzles[0]).sparse
    lookup.SPARSE_LIMIT = 1 << 28  # restored by the fixture
    lookup.forget_memory()
    sparse = [fast(p, spec) for p in puzzles]
    assert heuristic.for_puzzle(puzzles[0]).sparse
    for a, b, puzzle in zip(ranked, sparse, puzzles, strict=True):
        replay(puzzle, a)
        assert (a.actions, a.stats.expanded, a.stats.generated) == (
            b.actions,
            b.stats.expanded,
            b.stats.generated,
        )


def test_long_solutions_recurse_deep_enough() -> None:
    """One frame per move: a search deeper than Python's recursion limit raises the limit."""
    import inspect
    import sys

    puzzle = random_board((6, 2), 5)
    heuristic = lacak.default_registry().heuristic("sliding", "pdb")
    heuristic.for_puzzle(puzzle)  # build outside the tight limit
    length = fast(puzzle, heuristic).length
    assert length > 40
    old = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(len(inspect.stack(0)) + 40)
        result = tiles_idastar.idastar_tiles(puzzle, heuristic=heuristic, limits=Limits())
    finally:
        sys.setrecursionlimit(max(old, sys.getrecursionlimit()))
    replay(puzzle, result)
    assert result.length == length

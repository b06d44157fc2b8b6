"""Solving mazes: the maze strategies under the searcher contract, MazePuzzle, manhattan,
and every registered generic strategy through lacak.solve."""

from __future__ import annotations

from typing import Any, ClassVar

import lacak
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from lacak.testing import HeuristicContract, SearcherContract, replay, shortest_cost
from lacak_mazes import Maze, MazePuzzle

from .helpers import (
    braid_mazes,
    cells_of,
    distances,
    grid_edges,
    maze_from_pairs,
    on_outer_wall,
    opened_mazes,
    perfect_mazes,
    pieces_touching,
)


@st.composite
def maze_puzzles(draw: st.DrawFn, perfect: bool = False) -> MazePuzzle:
    maze = draw(
        perfect_mazes(max_side=8)
        if perfect
        else st.one_of(perfect_mazes(max_side=8), braid_mazes())
    )
    return maze.puzzle(draw(cells_of(maze)), draw(cells_of(maze)))


class MazeSearcherContract(SearcherContract):
    def puzzles(self) -> st.SearchStrategy[Any]:
        return maze_puzzles()


class TestTreePath(MazeSearcherContract):
    strategy = "tree-path"


class TestDeadEndFill(MazeSearcherContract):
    strategy = "dead-end-fill"


class TestWallFollowerRight(SearcherContract):
    strategy = "wall-follower"

    def puzzles(self) -> st.SearchStrategy[Any]:
        return maze_puzzles(perfect=True)


class TestWallFollowerLeft(TestWallFollowerRight):
    options: ClassVar[dict[str, Any]] = {"hand": "left"}


class TestManhattan(HeuristicContract):
    kind = "maze"
    heuristic = "manhattan"

    def puzzles(self) -> st.SearchStrategy[Any]:
        return maze_puzzles()


@settings(max_examples=40)
@given(maze_puzzles(perfect=True))
def test_maze_strategies_agree_on_perfect_mazes(puzzle: MazePuzzle) -> None:
    expected = puzzle.maze.path(puzzle.initial, puzzle.goal)
    for name in ("tree-path", "dead-end-fill", "wall-follower"):
        result = lacak.solve(puzzle, name)
        assert result.states == expected, name
        replay(puzzle, result)


@settings(max_examples=30)
@given(maze_puzzles(perfect=True), st.sampled_from(["right", "left"]))
def test_wall_follower_walk_without_erasing(puzzle: MazePuzzle, hand: str) -> None:
    result = lacak.solve(puzzle, "wall-follower", hand=hand, erase_loops=False)
    replay(puzzle, result)
    assert result.length >= len(puzzle.maze.path(puzzle.initial, puzzle.goal)) - 1
    # a hand on the wall walks each passage at most twice
    assert result.length <= 2 * puzzle.maze.passages


def test_wall_follower_gives_up_around_an_island() -> None:
    # a 3x3 ring around a closed centre cell; the goal is the closed centre
    maze = Maze.from_rows([[6, 10, 12], [5, 0, 5], [3, 10, 9]])
    result = lacak.solve(maze.puzzle((0, 0), (1, 1)), "wall-follower")
    assert not result.found and result.stopped is lacak.StopReason.EXHAUSTED
    assert not lacak.solve(maze.puzzle((0, 0), (1, 1)), "tree-path").found


#: The reported case: a 3x3 room with every inner wall knocked out, corner to corner.
OPEN_ROOM = Maze.from_rows([[6, 14, 12], [7, 15, 13], [3, 11, 9]])


@st.composite
def outer_wall_cells(draw: st.DrawFn, maze: Maze) -> tuple[int, int]:
    """A cell on the grid's border."""
    border = [
        (r, c) for r in range(maze.height) for c in range(maze.width) if on_outer_wall(maze, (r, c))
    ]
    return draw(st.sampled_from(border))


@st.composite
def opened_puzzles_on_the_outer_wall(draw: st.DrawFn) -> MazePuzzle:
    maze = draw(opened_mazes())
    return maze.puzzle(draw(outer_wall_cells(maze)), draw(outer_wall_cells(maze)))


@settings(max_examples=150)
@given(opened_puzzles_on_the_outer_wall(), st.sampled_from(["right", "left"]), st.booleans())
@example(OPEN_ROOM.puzzle((0, 0), (2, 2)), "right", True)
@example(OPEN_ROOM.puzzle((1, 0), (0, 1)), "right", True)
@example(OPEN_ROOM.puzzle((0, 1), (2, 1)), "left", False)
def test_wall_follower_reaches_an_end_on_the_outer_wall(
    puzzle: MazePuzzle, hand: str, erase_loops: bool
) -> None:
    # both ends on the outer wall, loops anywhere: found whenever bfs finds a path
    result = lacak.solve(puzzle, "wall-follower", hand=hand, erase_loops=erase_loops)
    assert result.found == lacak.solve(puzzle, "tree-path").found
    if result.found:
        replay(puzzle, result)
        assert result.states[0] == puzzle.initial and result.states[-1] == puzzle.goal
        if erase_loops:
            assert len(set(result.states)) == len(result.states)  # a simple path


@settings(max_examples=150)
@given(
    st.one_of(opened_mazes(), braid_mazes()).flatmap(
        lambda maze: st.tuples(cells_of(maze), cells_of(maze)).map(lambda ends: maze.puzzle(*ends))
    ),
    st.sampled_from(["right", "left"]),
)
def test_wall_follower_fails_exactly_where_its_docs_say(puzzle: MazePuzzle, hand: str) -> None:
    # found exactly when the end can be reached and one wall piece touches both end cells
    maze = puzzle.maze
    reachable = puzzle.goal in distances(maze, puzzle.initial)
    shared = pieces_touching(maze, puzzle.initial) & pieces_touching(maze, puzzle.goal)
    result = lacak.solve(puzzle, "wall-follower", hand=hand)
    assert result.found == (reachable and bool(shared))
    if result.found:
        replay(puzzle, result)
    else:
        assert result.stopped is lacak.StopReason.EXHAUSTED
        # each (cell, heading) is walked at most once over all the tries
        assert result.stats.expanded <= 4 * maze.height * maze.width + 4


def test_wall_follower_gives_up_beside_an_island() -> None:
    # a 4x4 room with one inner wall, between (1, 2) and (2, 2): an island. The end (2, 2)
    # touches the island and free posts, the start (0, 0) the outer wall and a free post:
    # reachable, but no wall leads from one to the other
    edges = [e for e in grid_edges(4, 4) if e != ((1, 2), (2, 2))]
    puzzle = maze_from_pairs(4, 4, edges).puzzle((0, 0), (2, 2))
    assert lacak.solve(puzzle, "tree-path").found
    for hand in ("right", "left"):
        result = lacak.solve(puzzle, "wall-follower", hand=hand)
        assert not result.found and result.stopped is lacak.StopReason.EXHAUSTED


@settings(max_examples=30)
@given(maze_puzzles())
def test_puzzle_is_reversible(puzzle: MazePuzzle) -> None:
    state = puzzle.initial
    forward = {(action, nxt) for action, nxt, _cost in puzzle.successors(state)}
    for action, previous, cost in puzzle.predecessors(state):
        assert cost == 1
        assert (action, state) in {(a, s) for a, s, _c in puzzle.successors(previous)}
    assert len(forward) == int(puzzle.maze.degrees()[state])
    assert isinstance(puzzle, lacak.ReversiblePuzzle)


def test_generic_strategies_solve_mazes() -> None:
    """Every registered strategy that takes any puzzle finds a path; optimal ones the shortest."""
    maze = lacak.generate("maze", "kruskal", (9, 11), seed=4).with_endpoints()
    puzzle = maze.puzzle()
    best = shortest_cost(puzzle)
    generic = [
        name
        for name, searcher in lacak.searchers().items()
        if searcher.handles(puzzle) and not searcher.objective
    ]  # (local search: none)
    assert {"tree-path", "dead-end-fill", "wall-follower"} <= set(generic)
    for name in generic:
        searcher = lacak.searchers()[name]
        heuristic = "manhattan" if searcher.heuristic != "unused" else None
        result = lacak.solve(puzzle, name, heuristic=heuristic, limits=lacak.Limits(seconds=10))
        assert result.found, name
        replay(puzzle, result)
        if searcher.optimal:
            assert result.cost == best, name


@pytest.mark.parametrize("strategy", ["bfs", "astar"])
def test_search_plugin_strategies(strategy: str) -> None:
    if strategy not in lacak.searchers():
        pytest.skip(f"no {strategy!r} strategy registered")
    maze = lacak.generate("maze", "wilson", (15, 15), seed=8).with_endpoints()
    result = lacak.solve(
        maze.puzzle(), strategy, heuristic="manhattan" if strategy == "astar" else None
    )
    assert result.states == maze.solution


def test_default_strategy_and_heuristic() -> None:
    maze = lacak.generate("maze", "eller", (6, 6), seed=2).with_endpoints()
    result = lacak.solve(maze.puzzle())
    assert result.strategy == "tree-path" and result.states == maze.solution
    assert lacak.heuristics("maze")["manhattan"].admissible


@settings(max_examples=30)
@given(st.data(), st.integers(0, 40))
def test_node_limits_and_depth_limits(data: st.DataObject, budget: int) -> None:
    puzzle = data.draw(maze_puzzles())
    for name in ("tree-path", "dead-end-fill", "wall-follower"):
        result = lacak.solve(puzzle, name, limits=lacak.Limits(max_expanded=budget))
        assert result.stats.expanded <= budget
        if result.found:
            replay(puzzle, result)
    reach = distances(puzzle.maze, puzzle.initial)
    if puzzle.goal in reach:
        depth = reach[puzzle.goal]
        deep_enough = lacak.solve(puzzle, "tree-path", limits=lacak.Limits(max_depth=depth))
        assert deep_enough.found
        if depth > 0:
            too_shallow = lacak.solve(puzzle, "tree-path", limits=lacak.Limits(max_depth=depth - 1))
            assert not too_shallow.found and too_shallow.stopped is lacak.StopReason.DEPTH


def test_strategy_errors() -> None:
    maze = lacak.generate("maze", "eller", (4, 4), seed=2)
    with pytest.raises(lacak.InvalidPuzzleError, match="no start and end"):
        maze.puzzle()
    with pytest.raises(lacak.InvalidOptionError, match="hand"):
        lacak.solve(maze.puzzle((0, 0), (3, 3)), "wall-follower", hand="middle")
    graph = lacak.testing.GraphPuzzle(edges={}, initial=0, goals=[0])
    with pytest.raises(lacak.InvalidPuzzleError, match="solves maze puzzles"):
        lacak.solve(graph, "tree-path")


def test_solving_a_big_maze_is_linear() -> None:
    """A 300x300 maze: the fast path and the checked path (with limits) give the same answer."""
    maze = lacak.generate("maze", "recursive-backtracker", (300, 300), seed=1).with_endpoints()
    fast = lacak.solve(maze.puzzle(), "tree-path")
    checked = lacak.solve(maze.puzzle(), "tree-path", limits=lacak.Limits(max_expanded=10**7))
    assert fast.states == checked.states == maze.solution
    assert fast.stats.expanded == checked.stats.expanded
    assert fast.stats.max_frontier == checked.stats.max_frontier


def test_dead_end_fill_runs_on_one_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """One clock for the whole solve: filling and the search after it share one Budget."""
    starts = []
    original = lacak.Limits.start

    def counting(self: lacak.Limits) -> lacak.Budget:
        starts.append(self)
        return original(self)

    monkeypatch.setattr(lacak.Limits, "start", counting)
    maze = lacak.generate("maze", "kruskal", (8, 8), seed=2).with_endpoints()
    for limits in (lacak.Limits(), lacak.Limits(seconds=60)):
        starts.clear()
        result = lacak.solve(maze.puzzle(), "dead-end-fill", limits=limits)
        assert result.found and len(starts) == 1


@settings(max_examples=40)
@given(maze_puzzles(), st.integers(0, 30), st.sampled_from(["max_closed", "max_frontier"]))
def test_dead_end_fill_honours_memory_limits_while_filling(
    puzzle: MazePuzzle, bound: int, limit: str
) -> None:
    """Filled cells count as the closed set and cells waiting to be filled as the frontier,
    so a memory limit stops the filling too; what is found is still a shortest path."""
    result = lacak.solve(puzzle, "dead-end-fill", limits=lacak.Limits(**{limit: bound}))
    unlimited = lacak.solve(puzzle, "dead-end-fill")
    if result.found:
        assert replay(puzzle, result) == unlimited.cost
        if limit == "max_closed":
            assert result.stats.expanded <= bound + 1
    else:
        assert result.stopped in (lacak.StopReason.MEMORY, lacak.StopReason.EXHAUSTED)
        if result.stopped is lacak.StopReason.EXHAUSTED:
            assert not unlimited.found


def test_dead_end_fill_memory_limit_stops_the_filling() -> None:
    # a comb: a corridor along the top with ten one-cell teeth below, ends at the corners
    top = [6] + [14] * 8 + [12]
    maze = Maze.from_rows([top, [1] * 10])
    puzzle = maze.puzzle((0, 0), (0, 9))
    assert lacak.solve(puzzle, "dead-end-fill").found
    closed = lacak.solve(puzzle, "dead-end-fill", limits=lacak.Limits(max_closed=3))
    assert not closed.found and closed.stopped is lacak.StopReason.MEMORY
    assert closed.stats.expanded <= 4
    frontier = lacak.solve(puzzle, "dead-end-fill", limits=lacak.Limits(max_frontier=3))
    assert not frontier.found and frontier.stopped is lacak.StopReason.MEMORY


@pytest.mark.parametrize(("value", "erase"), [(True, True), ("no", False), ("ON", True)])
def test_wall_follower_erase_loops_takes_yes_no_values(value: object, erase: bool) -> None:
    # a comb walked with the right hand: every tooth is a back-and-forth
    maze = Maze.from_rows([[6] + [14] * 3 + [12], [1] * 5])
    puzzle = maze.puzzle((0, 0), (0, 4))
    result = lacak.solve(puzzle, "wall-follower", erase_loops=value)
    # the hand starts on the outer wall (west of the start), so the walk goes down the
    # first tooth and the three middle ones, not the last (the end is above it)
    assert result.length == (4 if erase else 4 + 2 * 4)


@pytest.mark.parametrize("value", ["nah", "", None, 1, [True]])
def test_wall_follower_refuses_other_erase_loops_values(value: object) -> None:
    maze = Maze.from_rows([[2, 8]])
    with pytest.raises(lacak.InvalidOptionError, match="erase_loops"):
        lacak.solve(maze.puzzle((0, 0), (0, 1)), "wall-follower", erase_loops=value)

"""The one maze breadth-first search, run a chunk at a time, against a search that looks at
its limits before every expansion (what ``tree-path``'s checked loop did before, issue 11)."""

from __future__ import annotations

from collections import deque
from typing import Any

import lacak
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak import StopReason
from lacak_mazes import Maze, MazePuzzle
from lacak_mazes import solvers as maze_solvers
from lacak_mazes.breadth_first import BreadthFirst, reach

from .helpers import braid_mazes, cells_of, distances, opened_mazes, perfect_mazes


def reference(puzzle: MazePuzzle, limits: lacak.Limits, trace: lacak.SearchTrace) -> dict[str, Any]:
    """Breadth-first search node by node, checking every limit before each expansion."""
    maze = puzzle.maze
    start, goal = puzzle.initial, puzzle.goal
    queue: deque[tuple[int, int]] = deque([start])
    depth = {start: 0}
    parent: dict[tuple[int, int], tuple[int, int] | None] = {start: None}
    ids = {start: trace.add(None, start, None, depth=0, g=0.0)}
    expanded = generated = deepest = 0
    top = 1
    cut = found = False
    stopped = StopReason.EXHAUSTED
    while queue:
        if limits.max_expanded is not None and expanded >= limits.max_expanded:
            stopped = StopReason.NODES
            break
        if limits.max_frontier is not None and len(queue) > limits.max_frontier:
            stopped = StopReason.MEMORY
            break
        if limits.max_closed is not None and len(depth) > limits.max_closed:
            stopped = StopReason.MEMORY
            break
        here = queue.popleft()
        expanded += 1
        trace.expand(ids[here])
        if here == goal:
            found, stopped = True, StopReason.GOAL
            trace.mark_goal(ids[here])
            break
        for action, there in maze.neighbors(here):
            if there in depth:
                continue
            if limits.max_depth is not None and depth[here] + 1 > limits.max_depth:
                cut = True
                continue
            depth[there] = depth[here] + 1
            parent[there] = here
            queue.append(there)
            generated += 1
            deepest = max(deepest, depth[there])
            ids[there] = trace.add(ids[here], there, action, depth=depth[there], g=depth[there])
        top = max(top, len(queue))
    if not found and stopped is StopReason.EXHAUSTED and cut:
        stopped = StopReason.DEPTH
    path: list[tuple[int, int]] = []
    if found:
        cell: tuple[int, int] | None = goal
        while cell is not None:
            path.append(cell)
            cell = parent[cell]
        path.reverse()
    return {
        "found": found,
        "stopped": stopped,
        "states": tuple(path) if found else (start,),
        "expanded": expanded,
        "generated": generated,
        "max_frontier": top,
        "depth": deepest,
    }


@st.composite
def limits(draw: st.DrawFn) -> lacak.Limits:
    def bound(high: int) -> Any:
        return draw(st.none() | st.integers(0, high))

    return lacak.Limits(
        max_expanded=bound(60), max_depth=bound(20), max_frontier=bound(6), max_closed=bound(30)
    )


@settings(max_examples=300, deadline=None)
@given(
    maze=st.one_of(perfect_mazes(max_side=8), braid_mazes(), opened_mazes()),
    data=st.data(),
    limits=limits(),
    chunk=st.integers(1, 7),
)
def test_chunked_search_stops_where_a_node_by_node_search_does(
    maze: Maze, data: st.DataObject, limits: lacak.Limits, chunk: int
) -> None:
    puzzle = maze.puzzle(data.draw(cells_of(maze)), data.draw(cells_of(maze)))
    expected_trace = lacak.SearchTrace()
    expected = reference(puzzle, limits, expected_trace)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(maze_solvers, "CHUNK", chunk)  # many chunks, even in a small maze
        trace = lacak.SearchTrace()
        result = lacak.solve(puzzle, "tree-path", limits=limits, trace=trace)
    stats = result.stats
    got = {
        "found": result.found,
        "stopped": result.stopped,
        "states": result.states,
        "expanded": stats.expanded,
        "generated": stats.generated,
        "max_frontier": stats.max_frontier,
        "depth": stats.depth,
    }
    assert got == expected
    assert [(n.id, n.parent, n.state, n.action, n.depth, n.order, n.goal) for n in trace.nodes] == [
        (n.id, n.parent, n.state, n.action, n.depth, n.order, n.goal) for n in expected_trace.nodes
    ]


@settings(max_examples=60)
@given(st.one_of(perfect_mazes(max_side=8), braid_mazes()).flatmap(
    lambda maze: st.tuples(st.just(maze), cells_of(maze))))  # fmt: skip
def test_reach_finds_every_reachable_cell_in_order_of_distance(case: Any) -> None:
    maze, source = case
    width = maze.width
    search = reach(maze.cells.tobytes(), width, source[0] * width + source[1])
    cells = [divmod(index, width) for index in search.queue]
    expected = distances(maze, source)
    assert set(cells) == set(expected) and len(cells) == len(expected)
    assert [expected[cell] for cell in cells] == sorted(expected.values())
    assert search.exhausted and search.expanded == len(cells)
    for cell in cells:
        path = search.path(cell[0] * width + cell[1])
        assert len(path) - 1 == expected[cell]


def test_a_blocked_cell_is_never_entered() -> None:
    # a corridor (0,0)-(0,1)-(0,2) with its middle blocked
    maze = Maze.from_rows([[2, 10, 8]])
    search = BreadthFirst(maze.cells.tobytes(), 3, 0, blocked=bytes([0, 1, 0]))
    assert not search.run(target=2) and search.queue == [0] and search.exhausted

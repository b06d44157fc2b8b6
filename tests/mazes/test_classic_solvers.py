"""The classic maze solvers (Trémaux, Pledge, random mouse, cul-de-sac filling) and the
maze strategies on every grid: legal paths that reach the end, optimal where claimed,
each guarantee where its documentation gives it, seeded, bounded by limits."""

from __future__ import annotations

import itertools
from typing import Any, ClassVar

import lacak
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.testing import SearcherContract, replay, shortest_cost
from lacak_mazes import Maze
from lacak_mazes.gridmaze import GridMaze

GRIDS = ("rect", "cylinder", "torus", "hex", "triangle", "upsilon", "polar")
#: The grids drawn flat, with one outer wall round them all.
FLAT = ("rect", "hex", "triangle", "upsilon", "polar")
#: Every maze strategy of the plugin.
MAZE_STRATEGIES = ("tree-path", "dead-end-fill", "wall-follower", "tremaux", "pledge",
                   "random-mouse", "cul-de-sac-fill")  # fmt: skip
OPTIMAL = ("tree-path", "dead-end-fill", "cul-de-sac-fill")


@st.composite
def grid_mazes(draw: st.DrawFn, grids: tuple[str, ...] = GRIDS, braid: bool = True,
               weights: bool = False, on_grid: bool = False, weave: bool = False) -> Any:  # fmt: skip
    """A maze by Wilson's algorithm on one of ``grids`` (the plain rectangle as a bitmask
    Maze, or as a GridMaze with ``on_grid``), perhaps braided, perhaps weighted; with
    ``weave``, a rectangle may be Kruskal's weave instead (passages under others)."""
    grid = draw(st.sampled_from(grids))
    if grid == "polar":
        rings = draw(st.integers(1, 4))
        size = (rings, rings)
    else:
        least = {"rect": 1, "cylinder": 3, "torus": 3}.get(grid, 2)
        size = (draw(st.integers(3 if grid == "torus" else 1, 5)), draw(st.integers(least, 6)))
    options: dict[str, Any] = {"grid": grid}
    if braid:
        options["braid"] = draw(st.sampled_from([0.0, 0.5, 1.0]))
    if weights:
        options["weights"] = draw(st.sampled_from(["1-1", "1-5", "2-9", "1-100"]))
    algorithm = "wilson"
    if weave and grid == "rect" and min(size) >= 3 and draw(st.booleans()):
        algorithm, options["weave"] = "kruskal", 0.8
    maze = lacak.generate("maze", algorithm, size, seed=draw(st.integers(0, 2**32)), **options)
    if on_grid and isinstance(maze, Maze):
        maze = GridMaze.from_maze(maze)
    return maze


def cells(maze: Any) -> list[Any]:
    if isinstance(maze, Maze):
        return [(r, c) for r in range(maze.height) for c in range(maze.width)]
    return list(range(maze.size))


def outer_cells(maze: Any) -> list[Any]:
    """The cells on the outline (of a flat grid without a mask: its outer wall)."""
    if isinstance(maze, Maze):
        return [(r, c) for r, c in cells(maze)
                if r in (0, maze.height - 1) or c in (0, maze.width - 1)]  # fmt: skip
    return [i for i in range(maze.size) if any(s.neighbour < 0 for s in maze.grid.sides[i])]


@st.composite
def grid_puzzles(draw: st.DrawFn, **options: Any) -> Any:
    maze = draw(grid_mazes(**options))
    every = cells(maze)
    return maze.puzzle(draw(st.sampled_from(every)), draw(st.sampled_from(every)))


def steps(maze: Any) -> int:
    return int(maze.passages)


# -- the searcher contract, on every grid ------------------------------------------------


class GridContract(SearcherContract):
    def puzzles(self) -> st.SearchStrategy[Any]:
        return grid_puzzles(weights=True, weave=True)


class TestTreePathOnGrids(GridContract):
    strategy = "tree-path"


class TestDeadEndFillOnGrids(GridContract):
    strategy = "dead-end-fill"


class TestCulDeSacFill(GridContract):
    strategy = "cul-de-sac-fill"


class TestTremaux(GridContract):
    strategy = "tremaux"


class TestRandomMouse(GridContract):
    strategy = "random-mouse"
    options: ClassVar[dict[str, Any]] = {"seed": 7}


class TestPledge(GridContract):
    strategy = "pledge"
    complete = False


class TestWallFollowerOnGrids(SearcherContract):
    strategy = "wall-follower"

    def puzzles(self) -> st.SearchStrategy[Any]:
        return grid_puzzles(braid=False, on_grid=True, weave=True)


# -- what each promises ------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(grid_puzzles(braid=False, weave=True))
def test_every_strategy_finds_the_one_path_of_a_perfect_maze(puzzle: Any) -> None:
    """On a perfect maze, every strategy that finds the end returns its one simple path
    (the walkers with loops erased); all but Pledge always find it."""
    expected = shortest_cost(puzzle)
    assert expected is not None
    for name in MAZE_STRATEGIES:
        result = lacak.solve(puzzle, name)
        if name == "pledge" and not result.found:
            continue
        assert result.found, name
        assert replay(puzzle, result) == expected, name
        assert len(set(result.states)) == len(result.states), name


@settings(max_examples=60, deadline=None)
@given(grid_puzzles(weights=True, weave=True))
def test_optimal_strategies_agree_with_dijkstra(puzzle: Any) -> None:
    """On weighted mazes with loops: the optimal ones, uniform-cost and A* find the
    least cost, the one a plain Dijkstra finds."""
    best = _dijkstra(puzzle)
    names = [*OPTIMAL, "uniform-cost", "astar"]
    for name in names:
        heuristic = "manhattan" if name == "astar" else None
        result = lacak.solve(puzzle, name, heuristic=heuristic)
        assert result.found, name
        assert replay(puzzle, result) == pytest.approx(best), name


def _dijkstra(puzzle: Any) -> float:
    """The least cost from start to end, by the textbook's Dijkstra (a list scanned for
    the least, no heap): slow and plain."""
    dist = {puzzle.initial: 0.0}
    done: set[Any] = set()
    while True:
        here = min((c for c in dist if c not in done), key=dist.__getitem__)
        if puzzle.is_goal(here):
            return dist[here]
        done.add(here)
        for _action, there, cost in puzzle.successors(here):
            if dist[here] + cost < dist.get(there, float("inf")):
                dist[there] = dist[here] + cost


@settings(max_examples=80, deadline=None)
@given(grid_puzzles(weave=True))
def test_tremaux_walks_each_passage_at_most_twice(puzzle: Any) -> None:
    result = lacak.solve(puzzle, "tremaux")
    assert result.found
    replay(puzzle, result)
    assert len(set(result.states)) == len(result.states)  # the marked-once passages: simple
    assert result.stats.expanded <= 2 * steps(puzzle.maze) + 1


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from(["right", "left"]),
       st.sampled_from([None, 0.0, 90.0, 135.0, 300.0]))  # fmt: skip
def test_pledge_escapes_to_the_outer_wall_from_anywhere(
    data: st.DataObject, hand: str, direction: float | None
) -> None:
    """From any start, loops or not, Pledge reaches an end on the outer wall of a flat grid."""
    maze = data.draw(grid_mazes(grids=FLAT))
    puzzle = maze.puzzle(data.draw(st.sampled_from(cells(maze))),
                         data.draw(st.sampled_from(outer_cells(maze))))  # fmt: skip
    result = lacak.solve(puzzle, "pledge", hand=hand, direction=direction)
    assert result.found
    replay(puzzle, result)


def test_pledge_leaves_an_island_the_wall_follower_circles() -> None:
    # a 4x4 room with one free-standing wall between (1, 2) and (2, 2) (an island):
    # the wall follower starting beside it goes round it for ever; Pledge escapes
    from .helpers import grid_edges, maze_from_pairs

    edges = [e for e in grid_edges(4, 4) if e != ((1, 2), (2, 2))]
    puzzle = maze_from_pairs(4, 4, edges).puzzle((2, 2), (0, 0))
    assert not lacak.solve(puzzle, "wall-follower").found
    result = lacak.solve(puzzle, "pledge", direction=90)
    assert result.found
    replay(puzzle, result)


def test_pledge_gives_up_where_it_can_only_repeat() -> None:
    # a cylinder's ring of open cells: heading east goes round and round
    maze = lacak.generate("maze", "kruskal", (3, 5), seed=1, grid="cylinder", braid=1.0)
    puzzle = maze.puzzle((0, 0), (2, 4))
    result = lacak.solve(puzzle, "pledge", direction=0)
    assert result.found or result.stopped is lacak.StopReason.EXHAUSTED
    closed = Maze.from_rows([[2, 8], [0, 0]])  # the end is a closed cell
    stuck = lacak.solve(closed.puzzle((0, 0), (1, 1)), "pledge")
    assert not stuck.found and stuck.stopped is lacak.StopReason.EXHAUSTED


@settings(max_examples=40, deadline=None)
@given(grid_puzzles(), st.integers(0, 2**31))
def test_random_mouse_is_seeded(puzzle: Any, seed: int) -> None:
    first = lacak.solve(puzzle, "random-mouse", seed=seed, erase_loops=False)
    again = lacak.solve(puzzle, "random-mouse", seed=seed, erase_loops=False)
    assert first.states == again.states and first.stats.expanded == again.stats.expanded
    assert first.found
    replay(puzzle, first)


def test_random_mouse_walks_differ_by_seed_and_stay_within_the_cover_time() -> None:
    """Different seeds, different walks; the simple random walk (``backtrack``) takes on
    average fewer steps than the cover-time bound 2 * passages * (cells - 1)."""
    maze = lacak.generate("maze", "wilson", (4, 4), seed=5, grid="hex").with_endpoints()
    puzzle = maze.puzzle()
    walks = {lacak.solve(puzzle, "random-mouse", seed=s, erase_loops=False).states
             for s in range(10)}  # fmt: skip
    assert len(walks) > 1
    lengths = [lacak.solve(puzzle, "random-mouse", seed=s, backtrack=True).stats.expanded
               for s in range(200)]  # fmt: skip
    assert sum(lengths) / len(lengths) <= 2 * maze.passages * (maze.size - 1)


def test_random_mouse_finishes_when_the_end_cannot_be_reached() -> None:
    maze = Maze.from_rows([[2, 8], [0, 0]])
    result = lacak.solve(maze.puzzle((0, 0), (1, 1)), "random-mouse")
    assert not result.found and result.stopped is lacak.StopReason.EXHAUSTED


@settings(max_examples=80, deadline=None)
@given(grid_puzzles(braid=False, on_grid=True, weave=True), st.sampled_from(["right", "left"]))
def test_wall_follower_finds_the_end_of_a_perfect_maze_on_every_grid(
    puzzle: Any, hand: str
) -> None:
    """A perfect maze has one wall (one face, even on a torus): the hand finds the end."""
    result = lacak.solve(puzzle, "wall-follower", hand=hand, erase_loops=False)
    assert result.found
    replay(puzzle, result)
    assert result.length <= 2 * steps(puzzle.maze)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_wall_follower_on_the_rect_grid_walks_as_on_the_bitmask(data: st.DataObject) -> None:
    """The generic wall follower on a GridMaze of the rectangle walks exactly the way
    the bitmask one does, given ends on the outer wall."""
    maze = data.draw(grid_mazes(grids=("rect",)))
    ends = outer_cells(maze)
    start, end = data.draw(st.sampled_from(ends)), data.draw(st.sampled_from(ends))
    plain = lacak.solve(maze.puzzle(start, end), "wall-follower")
    on_grid = GridMaze.from_maze(maze)
    generic = lacak.solve(on_grid.puzzle(on_grid.grid.cell_of(start), on_grid.grid.cell_of(end)),
                          "wall-follower")  # fmt: skip
    assert plain.found and generic.found
    assert [on_grid.grid.ids[i] for i in generic.states] == list(plain.states)


def test_cul_de_sac_fill_fills_a_noose() -> None:
    # a corridor from (0, 0) to (0, 3) along the top; below (0, 1) a stalk to a 2x2 loop
    edges = [((0, 0), (0, 1)), ((0, 1), (0, 2)), ((0, 2), (0, 3)), ((0, 1), (1, 1)),
             ((1, 1), (2, 1)), ((2, 1), (2, 2)), ((2, 2), (3, 2)), ((3, 2), (3, 1)),
             ((3, 1), (2, 1))]  # fmt: skip
    from .helpers import maze_from_pairs

    puzzle = maze_from_pairs(4, 4, edges).puzzle((0, 0), (0, 3))
    dead_end = lacak.solve(puzzle, "dead-end-fill")
    cul_de_sac = lacak.solve(puzzle, "cul-de-sac-fill")
    assert dead_end.states == cul_de_sac.states
    # dead-end filling leaves the loop to be searched; cul-de-sac filling fills it
    assert cul_de_sac.stats.generated < dead_end.stats.generated


# -- limits, traces, options --------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(grid_puzzles(), st.integers(0, 40))
def test_limits_stop_every_strategy_cleanly(puzzle: Any, budget: int) -> None:
    for name in MAZE_STRATEGIES:
        result = lacak.solve(puzzle, name, limits=lacak.Limits(max_expanded=budget))
        assert result.stats.expanded <= budget, name
        if result.found:
            replay(puzzle, result)
        depth = lacak.solve(puzzle, name, limits=lacak.Limits(max_depth=2))
        if depth.found:
            assert depth.length <= 2 or name in ("tremaux",), name
            replay(puzzle, depth)


@pytest.mark.parametrize("name", MAZE_STRATEGIES)
def test_a_time_limit_stops_a_walk_by_the_clock(name: str) -> None:
    maze = lacak.generate("maze", "wilson", (12, 12), seed=3, grid="hex").with_endpoints()
    ticks = itertools.count()
    with lacak.limits.use_clock(lambda: float(next(ticks))):
        result = lacak.solve(maze.puzzle(), name, limits=lacak.Limits(seconds=3))
    assert not result.found and result.stopped is lacak.StopReason.TIME


@pytest.mark.parametrize("name", MAZE_STRATEGIES)
def test_every_strategy_records_a_trace(name: str) -> None:
    maze = lacak.generate("maze", "kruskal", (5, 5), seed=2, grid="triangle",
                          braid=0.5).with_endpoints()  # fmt: skip
    trace = lacak.SearchTrace()
    result = lacak.solve(maze.puzzle(), name, trace=trace)
    assert result.found and trace.nodes
    assert [node.state for node in trace.nodes if node.goal] == [maze.end]
    assert any(node.order is not None for node in trace.nodes)


@pytest.mark.parametrize(
    ("name", "options", "match"),
    [
        ("pledge", {"hand": "middle"}, "hand"),
        ("pledge", {"direction": "north"}, "direction"),
        ("pledge", {"erase_loops": "perhaps"}, "erase_loops"),
        ("random-mouse", {"seed": -1}, "seed"),
        ("random-mouse", {"seed": "x"}, "seed"),
        ("random-mouse", {"backtrack": "perhaps"}, "backtrack"),
        ("wall-follower", {"hand": "up"}, "hand"),
    ],
)
def test_bad_options_are_one_line_errors(name: str, options: dict[str, Any], match: str) -> None:
    maze = lacak.generate("maze", "wilson", (3, 3), seed=1, grid="hex").with_endpoints()
    with pytest.raises(lacak.InvalidOptionError, match=match) as caught:
        lacak.solve(maze.puzzle(), name, **options)
    assert "\n" not in str(caught.value)


def test_the_maze_strategies_refuse_other_puzzles() -> None:
    graph = lacak.testing.GraphPuzzle(edges={}, initial=0, goals=[0])
    for name in MAZE_STRATEGIES:
        with pytest.raises(lacak.InvalidPuzzleError):
            lacak.solve(graph, name)


def test_cli_solves_a_hex_maze_with_each_classic_solver(tmp_path: Any) -> None:
    from click.testing import CliRunner
    from lacak.cli import make_cli

    maze = lacak.generate("maze", "wilson", (4, 5), seed=4, grid="hex", braid=0.5)
    path = tmp_path / "hex.json"
    path.write_text(maze.with_endpoints().to_json())
    runner = CliRunner()
    for name in MAZE_STRATEGIES:
        result = runner.invoke(make_cli(), ["maze", "solve", str(path), "-s", name, "--json"])
        assert result.exit_code == 0, (name, result.output)
        assert '"found": true' in result.output
    bad = runner.invoke(make_cli(), ["maze", "solve", str(path), "-s", "pledge", "-O", "hand=up"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output


def test_every_maze_strategy_is_in_the_docs_tables() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "mazes.md").read_text()
    for name in MAZE_STRATEGIES:
        assert f"| `{name}` |" in text, name
        assert f"`{name}`" in text.split("### The classic solvers", 1)[1], name

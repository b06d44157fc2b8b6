"""Weighted cells: the generators' ``weights`` option (a range, a list, a picture's grey
levels), the rectangle as a GridMaze, and the cheapest way through by uniform-cost and A*."""

from __future__ import annotations

import io
import json
from typing import Any

import lacak
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.cli import make_cli
from lacak.testing import replay
from lacak_mazes import Maze
from lacak_mazes.gridmaze import GridMaze
from lacak_mazes.remake import remake
from lacak_mazes.weights import read_weights, weights_from_picture

from .test_classic_solvers import GRIDS, grid_mazes


def _png(pixels: list[list[int]]) -> bytes:
    from PIL import Image

    image = Image.new("L", (len(pixels[0]), len(pixels)))
    for y, row in enumerate(pixels):
        for x, value in enumerate(row):
            image.putpixel((x, y), value)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


#: A picture black on the left half, white on the right.
HALF = _png([[0] * 4 + [255] * 4 for _ in range(8)])


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(GRIDS), st.integers(0, 2**32), st.integers(1, 20), st.integers(0, 30))
def test_weights_are_in_range_seeded_and_recorded(grid: str, seed: int, low: int,
                                                  spread: int) -> None:  # fmt: skip
    size = (3, 3) if grid == "polar" else (3, 4)
    spec = f"{low}-{low + spread}"
    made = lacak.generate("maze", "kruskal", size, seed=seed, grid=grid, weights=spec)
    assert isinstance(made, Maze if grid == "rect" else GridMaze) and made.weights is not None
    maze = made if isinstance(made, GridMaze) else GridMaze.from_maze(made)
    assert low <= maze.weights.min() and maze.weights.max() <= low + spread
    assert maze.options["weights"] == spec
    again = lacak.generate("maze", "kruskal", size, seed=seed, grid=grid, weights=spec)
    assert again == made
    # the same passages as without weights: weights only add costs
    plain = lacak.generate("maze", "kruskal", size, seed=seed, grid=grid)
    plain_links = GridMaze.from_maze(plain).links if isinstance(plain, Maze) else plain.links
    assert sorted(map(sorted, maze.links.tolist())) == sorted(map(sorted, plain_links.tolist()))
    # made again from its JSON, byte for byte
    read = lacak.parse("maze", made.to_json()).maze
    assert remake(read).to_json() == made.to_json()


def test_a_weighted_rectangle_keeps_its_bitmask_json_and_gains_weight_rows() -> None:
    maze = lacak.generate("maze", "wilson", (4, 6), seed=2, weights="random", braid=0.5)
    assert isinstance(maze, Maze) and maze.weights.shape == (4, 6)
    assert maze.options["weights"] == "1-9" and maze.options["braid"] == 0.5
    data = json.loads(maze.to_json())
    plain = json.loads(lacak.generate("maze", "wilson", (4, 6), seed=2, braid=0.5).to_json())
    assert set(data) - set(plain) == {"weights"} and data["cells"] == plain["cells"]
    assert len(data["weights"]) == 4 and all(len(row) == 6 for row in data["weights"])
    on_grid = GridMaze.from_maze(maze)
    assert on_grid.weights.tolist() == maze.weights.ravel().tolist()
    assert on_grid.to_maze() == maze
    puzzle = lacak.parse("maze", maze.to_json()).maze.with_endpoints().puzzle()
    assert lacak.solve(puzzle).cost == lacak.solve(puzzle, "uniform-cost").cost


@settings(max_examples=40, deadline=None)
@given(grid_mazes(grids=("rect",)))
def test_from_maze_and_back(maze: Maze) -> None:
    maze = maze.with_endpoints()
    on_grid = GridMaze.from_maze(maze)
    assert on_grid.passages == maze.passages and on_grid.loops() == maze.passages - maze.size + 1
    assert [on_grid.grid.ids[i] for i in on_grid.solution] == list(maze.solution)
    assert on_grid.to_maze() == maze
    assert lacak.solve(on_grid.puzzle(), "bfs").length == lacak.solve(maze.puzzle()).length


def test_to_maze_refuses_what_a_bitmask_cannot_hold() -> None:
    hexes = lacak.generate("maze", "wilson", (3, 3), seed=1, grid="hex")
    with pytest.raises(lacak.InvalidPuzzleError, match="plain rect"):
        hexes.to_maze()
    woven = lacak.generate("maze", "kruskal", (6, 6), seed=1, weave=1.0)
    with pytest.raises(lacak.InvalidPuzzleError, match="tunnels"):
        woven.to_maze()


@settings(max_examples=60, deadline=None)
@given(grid_mazes(weights=True, on_grid=True), st.data())
def test_uniform_cost_and_astar_find_the_least_cost(maze: Any, data: st.DataObject) -> None:
    """uniform-cost and A* (manhattan: the grid's admissible bound) give the same least
    cost, the one brute force over every simple path gives."""
    every = list(range(maze.size))
    puzzle = maze.puzzle(data.draw(st.sampled_from(every)), data.draw(st.sampled_from(every)))
    best = _cheapest_simple_path(puzzle)
    for name, heuristic in (("uniform-cost", None), ("astar", "manhattan")):
        result = lacak.solve(puzzle, name, heuristic=heuristic)
        assert result.found
        assert replay(puzzle, result) == pytest.approx(best), name
    assert lacak.choose(puzzle).label == "uniform-cost"


def _cheapest_simple_path(puzzle: Any) -> float:
    """The least cost over every simple path from start to end (depth-first, all of them)."""
    best = float("inf")
    on_path = {puzzle.initial}

    def walk(here: Any, cost: float) -> None:
        nonlocal best
        if cost >= best:
            return
        if puzzle.is_goal(here):
            best = cost
            return
        for _action, there, step in puzzle.successors(here):
            if there not in on_path:
                on_path.add(there)
                walk(there, cost + step)
                on_path.discard(there)

    walk(puzzle.initial, 0.0)
    return best


def test_weights_from_a_picture_darker_costs_more() -> None:
    maze = lacak.generate("maze", "wilson", (4, 4), seed=3, weights=HALF)
    assert maze.weights.ravel().tolist() == [9, 9, 1, 1] * 4
    # recorded as the numbers themselves, so the maze can be made again without the picture
    assert maze.options["weights"] == ",".join(["9,9,1,1"] * 4)
    assert remake(lacak.parse("maze", maze.to_json()).maze) == maze
    polar = lacak.generate("maze", "wilson", (3, 3), seed=3, grid="polar", weights=HALF)
    centres = polar.grid.centres
    width = polar.grid.extent[0]
    for (x, _y), weight in zip(centres, polar.weights.tolist(), strict=True):
        assert weight == (9 if x < width / 2 else 1)
    grey = weights_from_picture(_png([[128]]), polar.grid, 1, 9)
    assert set(grey) == {5}


@pytest.mark.parametrize(
    "value", ["0-3", "9-1", "abc", "1-", 5, [1, 2], "0.5,2", b"not a picture", "1-2000000"]
)
def test_bad_weights_are_one_line_errors(value: Any) -> None:
    with pytest.raises(lacak.InvalidOptionError) as caught:
        lacak.generate("maze", "wilson", (2, 3), seed=1, weights=value)
    assert "\n" not in str(caught.value)


def test_read_weights() -> None:
    assert read_weights(None) is None and read_weights("") is None
    assert read_weights("random") == (1, 9)
    assert read_weights(" 2 - 7 ") == (2, 7)
    assert read_weights("1,2.5,3") == [1.0, 2.5, 3.0]


def test_cli_weights_and_weights_png(tmp_path: Any) -> None:
    runner = CliRunner()
    cli = make_cli()
    made = runner.invoke(cli, ["maze", "generate", "-a", "wilson", "--size", "4x5", "--seed",
                               "2", "--weights", "1-5", "--endpoints", "--json"])  # fmt: skip
    assert made.exit_code == 0, made.output
    data = json.loads(made.output)
    assert data["options"] == {"weights": "1-5"} and len(data["weights"]) == 4
    path = tmp_path / "weighted.json"
    path.write_text(made.output)
    solved = runner.invoke(cli, ["maze", "solve", str(path), "--json"])
    assert solved.exit_code == 0, solved.output
    result = json.loads(solved.output)
    assert result["strategy"] == "uniform-cost"
    maze = GridMaze.from_maze(lacak.parse("maze", made.output).maze)
    path_cells = [maze.grid.cell_of(cell) for cell in result["maze"]["path"]]
    assert result["cost"] == sum(maze.weights[i] for i in path_cells[1:])
    again = runner.invoke(cli, ["maze", "generate", "--from", str(path), "--json"])
    assert again.output == made.output
    picture = tmp_path / "half.png"
    picture.write_bytes(HALF)
    hexes = runner.invoke(cli, ["maze", "generate", "-a", "wilson", "--grid", "hex", "--size",
                                "4x4", "--seed", "1", "--weights-png", str(picture), "--json"])  # fmt: skip
    assert hexes.exit_code == 0, hexes.output
    assert set(json.loads(hexes.output)["weights"]) == {1, 9}
    both = runner.invoke(cli, ["maze", "generate", "--weights", "1-3", "--weights-png",
                               str(picture), "--size", "3x3"])  # fmt: skip
    assert both.exit_code != 0 and "not both" in both.output
    bad = runner.invoke(cli, ["maze", "generate", "--weights", "9-1", "--size", "3x3"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output
    assert len(bad.output.strip().splitlines()) == 1


@pytest.mark.parametrize("name", ["lacak_mazes.weights", "lacak_mazes.gridmaze"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    failures, tried = doctest.testmod(importlib.import_module(name),
                                      optionflags=doctest.NORMALIZE_WHITESPACE)  # fmt: skip
    assert failures == 0 and tried > 0

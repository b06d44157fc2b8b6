"""The JSON of a maze on every grid: it fits docs/maze.schema.json, ``lacak maze solve -``
reads it back, and ``lacak maze generate --from FILE`` makes it again byte for byte."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import lacak
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from lacak.cli import make_cli
from lacak_mazes.gridmaze import GridMaze
from lacak_mazes.grids import GRIDS

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "maze.schema.json"
SCHEMA = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)

#: Every built-in grid, with options that make a maze on it (the rectangle needs a mask
#: to be a maze on a grid; a wrap or another shape is one by itself).
MASK = "X....X/......./...X.../......./X.....X"
GRID_CASES: dict[str, dict[str, Any]] = {
    "rect-mask": {"mask": MASK},
    **{name: {"grid": name} for name in GRIDS if name != "rect"},
    "hex-mask": {"grid": "hex", "mask": MASK},
    "torus-braided": {"grid": "torus", "braid": 0.5},
    "upsilon-weighted": {"grid": "upsilon", "weights": "1-9"},
}
#: Woven mazes: rectangles, by the generators that weave.
WOVEN: dict[str, dict[str, Any]] = {"rect-woven": {"weave": 0.8}}


def _size(case: dict[str, Any]) -> Any:
    if "mask" in case:
        return None
    return (5, 5) if case.get("grid") == "polar" else (5, 7)


def _made(name: str, algorithm: str = "wilson", seed: int = 3) -> Any:
    case = {**GRID_CASES, **WOVEN}[name]
    if "weave" in case and algorithm not in ("kruskal", "recursive-backtracker", "growing-tree"):
        algorithm = "kruskal"
    return lacak.generate("maze", algorithm, _size(case), seed=seed, **case)


@pytest.fixture(scope="module")
def cli() -> Any:
    return make_cli()


def _errors(data: Any) -> list[str]:
    return [error.message for error in VALIDATOR.iter_errors(data)]


def test_the_schema_is_a_valid_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("name", sorted({**GRID_CASES, **WOVEN}))
def test_every_grid_s_maze_fits_the_schema(name: str) -> None:
    maze = _made(name)
    assert isinstance(maze, GridMaze)
    for shown in (maze, maze.with_endpoints(solution=False), maze.with_endpoints()):
        data = json.loads(shown.to_json())
        assert _errors(data) == [], name
        assert "grid" in data and len(data["cells"]) == maze.size


def test_a_weighted_maze_fits_the_schema() -> None:
    maze = _made("hex")
    weighted = GridMaze(maze.grid, maze.links, weights=[1 + i % 4 for i in range(maze.size)])
    assert _errors(weighted.with_endpoints().to_dict()) == []
    assert "tunnels" in _made("rect-woven").to_dict()


def test_a_weighted_rectangle_fits_the_schema_and_is_made_again(cli: Any, tmp_path: Path) -> None:
    maze = lacak.generate("maze", "kruskal", (4, 6), seed=3, weights="2-5").with_endpoints()
    assert _errors(json.loads(maze.to_json())) == []
    solved = CliRunner().invoke(cli, ["maze", "solve", "-", "--json"], input=maze.to_json())
    assert solved.exit_code == 0, solved.output
    assert json.loads(solved.stdout)["found"]
    args = ["maze", "generate", "-a", "kruskal", "--size", "4x6", "--seed", "3", "--weights",
            "2-5", "--solution", "--json"]  # fmt: skip
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    saved = tmp_path / "weighted.json"
    saved.write_text(first.stdout, encoding="utf-8")
    again = CliRunner().invoke(cli, ["maze", "generate", "--from", str(saved), "--json"])
    assert again.exit_code == 0, again.output
    assert again.stdout == first.stdout


def test_the_rectangle_s_links_form_fits_the_schema_and_is_read_back(cli: Any) -> None:
    maze = lacak.generate("maze", "prim", (4, 6), seed=5).with_endpoints()
    data = json.loads(maze.to_json(links=True))
    assert _errors(data) == [] and data["grid"]["type"] == "rect"
    solved = CliRunner().invoke(cli, ["maze", "solve", "-", "--json"], input=json.dumps(data))
    assert solved.exit_code == 0, solved.output
    assert json.loads(solved.stdout)["maze"]["path"] == [list(c) for c in maze.solution]


@pytest.mark.parametrize("carving", [False, True])
def test_the_rectangle_fits_the_schema(carving: bool) -> None:
    maze = lacak.generate("maze", "hunt-and-kill", (4, 6), seed=2, carving=carving)
    for shown in (maze, maze.with_endpoints()):
        assert _errors(json.loads(shown.to_json())) == []


@pytest.mark.parametrize(
    "broken",
    [
        {"links": "none"},  # not a list of pairs
        {"links": [[0, 1, 2]]},  # not a pair
        {"cells": []},  # no cell
        {"grid": {"rows": 2, "cols": 2}},  # no type
        {"grid": {"type": "polar", "rings": 3, "rows": 3}},  # rings and rows
        {"grid": {"type": "hex", "rows": 2, "cols": 3, "mask": ["X.?"]}},  # not a mask
        {"surprise": 1},  # a key no maze has
        {"start": "0,0"},  # an id is a list
    ],
)
def test_the_schema_refuses_what_is_no_maze(broken: dict[str, Any]) -> None:
    data = {**_made("hex").with_endpoints().to_dict(), **broken}
    assert _errors(data)


def test_a_maze_on_a_grid_without_its_links_is_no_maze() -> None:
    data = _made("triangle").to_dict()
    del data["links"]
    assert _errors(data)


@pytest.mark.parametrize("name", sorted({**GRID_CASES, **WOVEN}))
def test_solve_reads_every_grid_s_json_back(cli: Any, name: str) -> None:
    maze = _made(name).with_endpoints()
    result = CliRunner().invoke(cli, ["maze", "solve", "-", "--json"], input=maze.to_json())
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["found"]
    path = answer["maze"]["path"]
    assert path[0] == list(maze.grid.ids[maze.start])
    assert path[-1] == list(maze.grid.ids[maze.end])
    if maze.is_perfect():  # one path joins two cells: it is the maze's own solution
        assert path == [list(maze.grid.ids[c]) for c in maze.solution]
    else:
        assert len(path) <= len(maze.solution)
    # without --json: the path found, and a picture or a line saying how to draw one
    plain = CliRunner().invoke(cli, ["maze", "solve", "-"], input=maze.to_json())
    assert plain.exit_code == 0, plain.output
    assert plain.stdout.startswith(f"found: {len(path) - 1} moves")


@pytest.mark.parametrize("name", sorted({**GRID_CASES, **WOVEN}))
def test_generate_from_a_file_makes_it_again_byte_for_byte(
    cli: Any, tmp_path: Path, name: str
) -> None:
    case = {**GRID_CASES, **WOVEN}[name]
    args = ["maze", "generate", "-a", "kruskal", "--seed", "11", "--solution", "--json"]
    if "mask" in case:
        mask = tmp_path / "mask.txt"
        mask.write_text(case["mask"].replace("/", "\n") + "\n", encoding="utf-8")
        args += ["--mask", str(mask)]
    else:
        args += ["--size", "x".join(map(str, _size(case)))]
    if "grid" in case:
        args += ["--grid", case["grid"]]
    for option in ("braid", "weights", "weave"):
        if option in case:
            args += [f"--{option}", str(case[option])]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    saved = tmp_path / "maze.json"
    saved.write_text(first.stdout, encoding="utf-8")
    again = CliRunner().invoke(cli, ["maze", "generate", "--from", str(saved), "--json"])
    assert again.exit_code == 0, again.output
    assert again.stdout == first.stdout
    assert _errors(json.loads(first.stdout)) == []
    # the library reads it back as the same maze
    maze = GridMaze.from_json(first.stdout)
    assert maze.to_json() == first.stdout.rstrip("\n")


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(sorted(GRID_CASES)),
    algorithm=st.sampled_from(["wilson", "recursive-backtracker", "prim-frontier", "growing-tree"]),
    seed=st.integers(0, 2**32),
    ends=st.booleans(),
)
def test_any_grid_maze_fits_and_reads_back_as_itself(
    name: str, algorithm: str, seed: int, ends: bool
) -> None:
    maze = _made(name, algorithm, seed)
    if ends:
        maze = maze.with_endpoints()
    text = maze.to_json()
    data = json.loads(text)
    assert _errors(data) == []
    assert GridMaze.from_json(text) == maze
    # the links alone prove a perfect maze, knowing nothing of the grid
    if not maze.options.get("braid"):
        assert len(data["links"]) == len(data["cells"]) - 1
        assert maze.is_perfect()


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["hex", "triangle", "upsilon", "torus", "cylinder", "polar"]),
    st.integers(0, 2**20),
    st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), max_size=4),
)
def test_passages_that_are_no_passages_are_refused(name: str, seed: int, extra: list) -> None:
    """The whole-array check of the links refuses what the one-by-one check does, with
    its message: a pair of cells that are not neighbours, or a passage listed twice."""
    size: Any = 3 if name == "polar" else (4, 5)
    maze = lacak.generate("maze", "wilson", size, seed=seed, grid=name)
    links = maze.links.tolist() + [[a % maze.size, b % maze.size] for a, b in extra]
    neighbours = maze.grid.neighbours
    pairs = [tuple(sorted(link)) for link in links]
    bad = any(b not in neighbours[a] for a, b in links) or len(set(pairs)) < len(pairs)
    if bad:
        with pytest.raises(lacak.InvalidPuzzleError, match=r"not neighbours|listed twice"):
            GridMaze(maze.grid, links)
    else:
        assert GridMaze(maze.grid, links).passages == len(links)

"""The maze page's data on every grid, from the library through the API: the maze's JSON,
the shapes it is drawn with (``geometry``, the grid's own), the grid options as text, a
solve's trace by cell id, and lacak's own pictures for the downloads."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import lacak
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from lacak.cli import make_cli
from lacak_mazes.geometry import grid_geometry
from lacak_mazes.grids import GRIDS

MASK = "X...X/...../..X../....."


def made(client: TestClient, **fields: Any) -> dict[str, Any]:
    response = client.post("/api/kinds/maze/generate", json={"algorithm": "wilson", **fields})
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize("grid", sorted(set(GRIDS) - {"rect"}))
def test_a_maze_on_a_grid_comes_with_the_grid_s_own_shapes(client: TestClient, grid: str) -> None:
    size = "4x4" if grid == "polar" else "4x6"
    answer = made(client, size=size, seed=3, options={"grid": grid}, prepare={"endpoints": "true"})
    rows, cols = map(int, size.split("x"))
    maze = lacak.generate("maze", "wilson", (rows, cols), seed=3, grid=grid)
    assert answer["instance"] == maze.with_endpoints(solution=False).to_dict()
    assert answer["geometry"] == json.loads(json.dumps(grid_geometry(maze.grid)))
    assert answer["stats"] == json.loads(json.dumps(maze.stats()))


def test_the_rectangle_keeps_its_bitmasks_and_has_no_shapes(client: TestClient) -> None:
    answer = made(client, size="4x6", seed=3)
    assert answer["geometry"] is None and "grid" not in answer["instance"]
    masked = made(client, seed=3, options={"mask": MASK})  # a mask: a maze on a grid
    assert masked["instance"]["grid"] == {"type": "rect", "rows": 4, "cols": 5,
                                          "mask": MASK.split("/")}  # fmt: skip
    assert len(masked["instance"]["cells"]) == 17  # 20 less three
    assert masked["geometry"]["first"][-1] == len(masked["geometry"]["sides"])


@pytest.mark.parametrize(
    ("options", "field", "says"),
    [
        ({"grid": "klein-bottle"}, "options.grid", "one of"),
        ({"mask": "X../../etc/passwd"}, "options.mask", "option 'mask'"),
        ({"braid": "2"}, "options.braid", "from 0 to 1"),
        ({"grid": "polar", "mask": MASK}, None, "a polar grid takes no mask"),
    ],
)
def test_bad_grid_options_are_refused_by_their_field(
    client: TestClient, options: dict[str, str], field: str | None, says: str
) -> None:
    response = client.post("/api/kinds/maze/generate",
                           json={"algorithm": "wilson", "size": "5x5", "seed": 1,
                                 "options": options})  # fmt: skip
    assert response.status_code == 422, response.text
    body = response.json()
    assert body.get("field") == field
    assert says in body["detail"], body


def test_a_grid_maze_is_solved_with_its_trace_by_cell_id(client: TestClient) -> None:
    answer = made(client, size="5x5", seed=2, options={"grid": "hex"},
                  prepare={"endpoints": "true"})  # fmt: skip
    puzzle = json.dumps(answer["instance"])
    solved = client.post("/api/kinds/maze/solve", json={"puzzle": puzzle, "trace": 100}).json()
    maze = lacak.generate("maze", "wilson", (5, 5), seed=2, grid="hex").with_endpoints()
    ids = maze.grid.ids
    assert solved["result"]["maze"]["path"] == [list(ids[c]) for c in maze.solution]
    states = {node["state"] for node in solved["trace"]["nodes"]}
    assert states <= {",".join(map(str, cell)) for cell in ids}


@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_a_grid_maze_s_pictures_are_what_the_command_line_writes(
    client: TestClient, tmp_path: Path, fmt: str
) -> None:
    answer = made(client, size="5x5", seed=4, options={"grid": "polar", "braid": "0.5"},
                  prepare={"solution": "true"}, picture=fmt)  # fmt: skip
    picture = answer["picture"]
    data = base64.b64decode(picture["data"]) if picture["base64"] else picture["data"].encode()
    target = tmp_path / f"maze.{fmt}"
    result = CliRunner().invoke(make_cli(), [
        "maze", "generate", "-a", "wilson", "--grid", "polar", "--size", "5x5", "--seed", "4",
        "--braid", "0.5", "--solution", "-o", str(target)])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert data == target.read_bytes()

"""The maze page's data from the library through the API: the generator's own carving
order, the suggested start and end, and lacak's own pictures for the downloads."""

from __future__ import annotations

import base64
import json
import time
from pathlib import Path
from typing import Any

import lacak
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from lacak.cli import make_cli
from lacak.web import work

from .conftest import SMALL

BODY = {"algorithm": "wilson", "size": "6x9", "seed": 4}


def made(client: TestClient, **fields: Any) -> dict[str, Any]:
    response = client.post("/api/kinds/maze/generate", json={**BODY, **fields})
    assert response.status_code == 200, response.text
    return response.json()


def cli_output(tmp_path: Path, *args: str) -> bytes:
    """What ``lacak maze generate`` writes for the same maze as :data:`BODY`."""
    target = tmp_path / f"out-{len(list(tmp_path.iterdir()))}"
    result = CliRunner().invoke(
        make_cli(),
        ["maze", "generate", "-a", "wilson", "--size", "6x9", "--seed", "4", "-o", str(target), *args],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    return target.read_bytes()


def test_the_carving_comes_only_when_asked_and_leaves_the_maze_as_it_is(
    client: TestClient,
) -> None:
    plain = made(client)
    carved = made(client, options={"carving": "true"})
    assert "carving" not in plain["instance"]
    expected = lacak.generate("maze", "wilson", (6, 9), seed=4, carving=True)
    assert carved["instance"]["carving"] == expected.carving.to_dict()
    assert {k: v for k, v in carved["instance"].items() if k != "carving"} == plain["instance"]
    assert carved["stats"] == plain["stats"]
    division = made(client, algorithm="recursive-division", options={"carving": "true"})
    assert division["instance"]["carving"]["adds"] == "walls"


def test_every_generator_offers_the_carving(client: TestClient) -> None:
    catalogue = client.get("/api/kinds/maze").json()
    for generator in catalogue["generators"]:
        if generator["metadata"].get("module", "").startswith("lacak_mazes."):
            options = {o["name"]: o["default"] for o in generator["options"]}
            assert options["carving"] is False, generator["name"]


def test_the_suggested_ends_are_the_library_s(client: TestClient) -> None:
    ends = made(client, prepare={"endpoints": "true"})["instance"]
    maze = lacak.generate("maze", "wilson", (6, 9), seed=4).with_endpoints(solution=False)
    assert [ends["start"], ends["end"]] == [list(maze.start), list(maze.end)]
    assert ends["solution"] is None
    solved = made(client, prepare={"solution": "true"})["instance"]
    assert solved == lacak.generate("maze", "wilson", (6, 9), seed=4).with_endpoints().to_dict()
    assert made(client)["instance"]["start"] is None  # nothing unless asked


@pytest.mark.parametrize(
    ("prepare", "flags"),
    [({}, []), ({"endpoints": "true"}, ["--endpoints"]), ({"solution": "true"}, ["--solution"])],
)
@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_pictures_are_what_the_command_line_writes(
    client: TestClient, tmp_path: Path, prepare: dict[str, str], flags: list[str], fmt: str
) -> None:
    picture = made(client, prepare=prepare, picture=fmt)["picture"]
    data = base64.b64decode(picture["data"]) if picture["base64"] else picture["data"].encode()
    assert picture["format"] == fmt and picture["base64"] == (fmt == "png")
    assert data == cli_output(tmp_path, "-f", fmt, *flags)


def test_the_json_download_is_what_the_command_line_writes(
    client: TestClient, tmp_path: Path
) -> None:
    text = made(client, prepare={"solution": "true"})["text"]
    assert text.encode() == cli_output(tmp_path, "--json", "--solution").rstrip(b"\n")
    assert json.loads(text)["solution"]


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"picture": "gif"}, "draws text, svg, png, not 'gif'"),
        ({"prepare": {"doors": "true"}}, "has no option 'doors'"),
        ({"prepare": {"endpoints": "maybe"}}, "true or false"),
        ({"options": {"carving": "sometimes"}}, "true or false"),
    ],
)
def test_bad_maze_requests_are_refused_in_one_line(
    client: TestClient, fields: dict[str, Any], expected: str
) -> None:
    response = client.post("/api/kinds/maze/generate", json={**BODY, **fields})
    assert response.status_code == 422
    assert expected in response.json()["detail"]


def test_a_kind_without_preparations_refuses_them(client: TestClient) -> None:
    response = client.post(
        "/api/kinds/sliding/generate",
        json={"algorithm": lacak.generators("sliding").__iter__().__next__(), "size": "3x3",
              "seed": 1, "prepare": {"endpoints": "true"}},
    )  # fmt: skip
    assert response.status_code == 422 and "has no option 'endpoints'" in response.json()["detail"]


def test_generation_runs_under_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Work past the server's time cap stops with lacak's limit error, freeing the worker."""
    from lacak_mazes.maze import Maze

    def slow(self: Maze, *args: Any, **kwargs: Any) -> Any:
        time.sleep(0.3)
        lacak.check_deadline("finding the ends")
        raise AssertionError("the deadline was not set")

    monkeypatch.setattr(Maze, "with_endpoints", slow)
    caps = work.Caps(max_seconds=0.1, max_cells=SMALL.max_cells)
    with pytest.raises(lacak.LimitReachedError, match="time limit"):
        work.generate(
            "maze",
            {"algorithm": "wilson", "size": "6x9", "seed": 4, "prepare": {"endpoints": "true"}},
            caps,
        )


def test_an_instance_without_its_own_render_is_drawn_by_its_kind(client: TestClient) -> None:
    from lacak.plugin.registry import default_registry

    body = {"algorithm": next(iter(lacak.generators("sliding"))), "size": "3x3", "seed": 1}
    answer = client.post("/api/kinds/sliding/generate", json={**body, "picture": "svg"}).json()
    kind = default_registry().puzzle_types()["sliding"]
    assert kind.render is not None
    puzzle = lacak.generate("sliding", body["algorithm"], (3, 3), seed=1)
    assert answer["picture"] == {
        "format": "svg", "data": kind.render(puzzle, None, "svg"), "base64": False
    }


def test_a_third_party_generator_without_the_option_is_offered_without_it() -> None:
    """The page animates the carving of generators that list 'carving' among their
    options; a third-party one that does not is made as it is, and asking it is refused."""
    import numpy as np
    from lacak.plugin.registry import Registry
    from lacak.web import create_app
    from lacak.web.pool import Pool
    from lacak_mazes import Maze

    def serpentine(size: Any, seed: Any = None) -> Maze:
        rows, cols = size
        south = np.zeros((rows, cols), dtype=bool)
        for r in range(rows - 1):
            south[r, cols - 1 if r % 2 == 0 else 0] = True
        return Maze.from_edges(np.ones((rows, cols), dtype=bool), south, seed=seed)

    class Serpentine:
        @lacak.hookimpl
        def register_generators(self, register: Any) -> None:
            register(lacak.Generator(kind="maze", name="serpentine", make=serpentine))

    registry = Registry()
    registry.load_plugins()
    registry.add_plugin(Serpentine(), "serpentine")
    app = create_app(caps=SMALL, pool=Pool(1, processes=False, registry=registry), registry=registry)
    with TestClient(app) as local:
        listed = local.get("/api/kinds/maze").json()["generators"]
        assert next(g for g in listed if g["name"] == "serpentine")["options"] == []
        body = {"algorithm": "serpentine", "size": "4x5", "seed": 1}
        assert local.post("/api/kinds/maze/generate", json=body).status_code == 200
        refused = local.post(
            "/api/kinds/maze/generate", json={**body, "options": {"carving": "true"}}
        )
        assert refused.status_code == 422 and "no option 'carving'" in refused.json()["detail"]

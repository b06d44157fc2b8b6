"""The JSON API: the documented shapes, lacak's own answers, and clear 4xx for bad input."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import time
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import lacak
import pytest
from fastapi.testclient import TestClient
from lacak.web.pool import Pool
from lacak.web.work import Caps

from .conftest import SMALL, make_app

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "docs" / "result.schema.json").read_text("utf-8")
)


def maze_text(seed: int = 3, size: tuple[int, int] = (6, 9)) -> tuple[Any, str]:
    """A generated maze with its suggested ends, and its JSON text."""
    maze = lacak.generate("maze", "wilson", size, seed=seed).with_endpoints(solution=False)
    return maze, maze.to_json()


def test_every_registered_kind_is_listed_the_third_party_one_included(client: TestClient) -> None:
    kinds = {k["kind"]: k for k in client.get("/api/kinds").json()}
    assert set(kinds) == set(lacak.default_registry().puzzle_types())
    assert {"maze", "boggle", "sliding", "jugs"} <= set(kinds)
    assert kinds["jugs"]["plugin"] == "jugs" and kinds["jugs"]["example"] == "3,5:4"


def test_a_kinds_catalogue_is_the_registry_s(client: TestClient) -> None:
    data = client.get("/api/kinds/sliding").json()
    strategies = {s["name"] for s in data["strategies"]}
    expected = {n for n, s in lacak.searchers().items()
                if (not s.kinds or "sliding" in s.kinds) and not s.objective}  # fmt: skip
    assert strategies == expected and "astar-tiles" in strategies and "tree-path" not in strategies
    assert {h["name"] for h in data["heuristics"]} == set(lacak.heuristics("sliding"))
    weighted = next(h for h in data["heuristics"] if h["name"] == "weighted")
    assert {o["name"] for o in weighted["options"]} == {"w1", "w2"}
    assert {g["name"] for g in client.get("/api/kinds/maze").json()["generators"]} == set(
        lacak.generators("maze")
    )
    queens = {s["name"] for s in client.get("/api/kinds/queens").json()["strategies"]}
    assert {"hill-climbing", "genetic", "dfs"} <= queens  # (a kind with an objective)
    jugs = client.get("/api/kinds/jugs").json()
    assert jugs["generators"] == [] and [h["name"] for h in jugs["heuristics"]] == ["off-target"]
    assert {o["name"] for o in jugs["options"]} == {"start", "tap"}


def test_an_unknown_kind_is_404_with_the_kinds_listed(client: TestClient) -> None:
    for response in (
        client.get("/api/kinds/nope"),
        client.post("/api/kinds/nope/solve", json={"puzzle": "x"}),
        client.post("/api/kinds/nope/generate", json={"algorithm": "x"}),
    ):
        assert response.status_code == 404
        assert "no puzzle kind 'nope'" in response.json()["detail"]
        assert "sliding" in response.json()["detail"]


def test_dictionaries_are_the_registry_s(client: TestClient) -> None:
    names = [d["name"] for d in client.get("/api/dictionaries").json()]
    assert names == sorted(lacak.dictionaries()) and "ind" in names


def test_a_generated_maze_is_in_the_maze_format_and_made_again_by_its_seed(
    client: TestClient,
) -> None:
    body = {"algorithm": "hunt-and-kill", "size": "7x11", "seed": 5, "options": {"hunt": "columns"}}
    made = client.post("/api/kinds/maze/generate", json=body).json()
    expected = lacak.generate("maze", "hunt-and-kill", (7, 11), seed=5, hunt="columns")
    assert made["instance"] == expected.to_dict()
    assert made["stats"] == expected.stats()
    assert made["seed"] == 5 and made["size"] == [7, 11]
    assert lacak.parse("maze", made["text"]) is not None
    again = client.post("/api/kinds/maze/generate", json={**body, "seed": None}).json()
    assert isinstance(again["seed"], int)  # a seed drawn for the request, and given back
    remade = client.post("/api/kinds/maze/generate", json={**body, "seed": again["seed"]}).json()
    assert remade["instance"] == again["instance"]


def test_a_shaken_board_comes_back_as_text_that_parses(client: TestClient) -> None:
    made = client.post("/api/kinds/boggle/generate", json={"algorithm": "big5", "seed": 2}).json()
    assert lacak.parse("boggle", made["text"]) == lacak.generate("boggle", "big5", seed=2)


def test_a_maze_solved_through_the_api_is_lacak_s_result(client: TestClient) -> None:
    maze, text = maze_text()
    answer = client.post(
        "/api/kinds/maze/solve", json={"puzzle": text, "strategy": "astar", "trace": 500}
    ).json()
    result = answer["result"]
    jsonschema.validate(result, SCHEMA)
    puzzle = maze.puzzle()
    expected = lacak.solve(puzzle, "astar")
    assert result["found"] and result["length"] == expected.length
    assert result["actions"] == list(expected.actions)
    assert answer["choice"]["strategy"] == "astar" and answer["choice"]["heuristic"] == "manhattan"
    order = sorted((n for n in answer["trace"]["nodes"] if n["order"]), key=lambda n: n["order"])
    assert len(order) == expected.stats.expanded
    assert answer["limits"]["seconds"] == SMALL.default_seconds


def test_a_boggle_board_solved_through_the_api_has_every_word_with_its_path(
    client: TestClient,
) -> None:
    board = "AHORJ/QQUOI/SSCPD/MUPSM/AUULI"
    answer = client.post(
        "/api/kinds/boggle/solve",
        json={"puzzle": board, "options": {"dictionary": "ind", "min_length": "2"}},
    ).json()
    jsonschema.validate(answer["result"], SCHEMA)
    data = answer["result"]["boggle"]
    puzzle = lacak.parse("boggle", board, dictionary="ind", min_length=2)
    assert data == lacak.result_json(lacak.solve(puzzle), puzzle)["boggle"]
    assert data["count"] > 100
    for word in data["words"]:
        path = word["path"]
        assert "".join(data["board"][r][c] for r, c in path).upper() == word["word"]
        steps = itertools.pairwise(path)
        assert all(max(abs(a - c), abs(b - d)) == 1 for (a, b), (c, d) in steps)


def test_the_course_notes_tree_comes_back_numbered_in_expansion_order(client: TestClient) -> None:
    answer = client.post(
        "/api/kinds/sliding/solve",
        json={"puzzle": "123450786", "options": {"goal": "103425786"}, "strategy": "bfs",
              "limits": {"max_depth": 2}, "trace": 100},
    ).json()
    assert answer["result"]["actions"] == ["L", "U"]
    nodes = answer["trace"]["nodes"]
    assert nodes[0]["state"] == "123450786" and nodes[0]["order"] == 1
    goal = [n for n in nodes if n["goal"]]
    assert [n["state"] for n in goal] == ["103425786"]
    orders = sorted(n["order"] for n in nodes if n["order"])
    assert orders == list(range(1, len(orders) + 1))


def test_a_third_party_kind_is_solved_and_drawn_by_its_own_renderer(client: TestClient) -> None:
    answer = client.post(
        "/api/kinds/jugs/solve", json={"puzzle": "3,5:4", "picture": "text", "trace": 50}
    ).json()
    puzzle = lacak.parse("jugs", "3,5:4")
    result = lacak.solve(puzzle)
    assert answer["result"] == {**lacak.result_json(result, puzzle), "stats": answer["result"]["stats"]}
    kind = lacak.default_registry().puzzle_types()["jugs"]
    assert answer["picture"] == {
        "format": "text", "data": kind.render(puzzle, result, "text", full=True), "base64": False,
    }  # fmt: skip
    assert answer["choice"]["label"] == lacak.choose(puzzle).label


def test_boggle_draws_its_board_as_svg(client: TestClient) -> None:
    answer = client.post(
        "/api/kinds/boggle/solve", json={"puzzle": "CAT/DOG/SUN", "picture": "svg"}
    ).json()
    assert answer["picture"]["format"] == "svg" and answer["picture"]["data"].startswith("<svg")


def _refused(client: TestClient, path: str, body: Any) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == 422, response.text
    data = response.json()
    assert set(data) <= {"detail", "error", "field"} and "\n" not in data["detail"]
    return data


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"puzzle": "12345678"}, "not a square board"),
        ({"puzzle": "123450786", "strategy": "tree-path"}, "strategy 'tree-path'"),
        ({"puzzle": "123450786", "strategy": "nope"}, "unknown strategy 'nope'"),
        ({"puzzle": "123450786", "heuristic": "nope"}, "nope"),
        ({"puzzle": "123450786", "heuristic": "weighted:w1=x"}, "w1"),
        ({"puzzle": "123450786", "options": {"bogus": "1"}}, "no option 'bogus'"),
        ({"puzzle": "123450786", "options": {"allow_unsolvable": "perhaps"}}, "true or false"),
        ({"puzzle": "123450786", "strategy": "bfs", "strategy_options": {"x": "1"}}, "'x'"),
        ({"puzzle": "123450786", "limits": {"seconds": 1000}}, "at most 3 seconds"),
        ({"puzzle": "123450786", "limits": {"max_nodes": 10**9}}, "at most 200,000"),
        ({"puzzle": "123450786", "trace": 10**5}, "traced nodes"),
        ({"puzzle": "123450786", "picture": "gif"}, "draws text, svg, png, not 'gif'"),
        ({"puzzle": "x" * (SMALL.max_text + 1)}, "characters"),
    ],
)
def test_bad_solve_requests_get_lacak_s_one_line_message(
    client: TestClient, body: dict[str, Any], expected: str
) -> None:
    assert expected in _refused(client, "/api/kinds/sliding/solve", body)["detail"]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("sliding/solve", {"puzzle": "12345678"}, "puzzle"),
        ("sliding/solve", {"puzzle": "123450786", "options": {"goal": "1234"}}, "options.goal"),
        ("sliding/solve", {"puzzle": "12345", "options": {"goal": "1234"}}, "puzzle"),
        ("sliding/solve", {"puzzle": "123450786", "options": {"bogus": "1"}}, "options.bogus"),
        ("sliding/solve", {"puzzle": "123450786", "strategy": "nope"}, "strategy"),
        ("sliding/solve", {"puzzle": "123450786", "heuristic": "weighted:w1=x"}, "heuristic"),
        ("sliding/solve", {"puzzle": "123450786", "strategy": "bfs",
                           "strategy_options": {"x": "1"}}, "strategy_options.x"),
        ("sliding/solve", {"puzzle": "123450786", "limits": {"seconds": 1000}}, "limits.seconds"),
        ("sliding/solve", {"puzzle": "123450786", "limits": {"max_depth": "deep"}},
         "limits.max_depth"),
        ("sliding/solve", {"puzzle": "123450786", "trace": 10**5}, "trace"),
        ("sliding/solve", {"puzzle": "123450786", "picture": "gif"}, "picture"),
        ("boggle/solve", {"puzzle": "AB/C"}, "puzzle"),
        ("boggle/solve", {"puzzle": "AB/CD", "options": {"min_length": "0"}}, "options.min_length"),
        ("boggle/solve", {"puzzle": "AB/CD", "options": {"dictionary": "nope"}},
         "options.dictionary"),
        ("maze/generate", {"algorithm": "nope", "size": "3x3"}, "algorithm"),
        ("maze/generate", {"algorithm": "wilson", "size": "0x25"}, "size"),
        ("maze/generate", {"algorithm": "wilson", "size": "100x100"}, "size"),
        ("maze/generate", {"algorithm": "wilson", "size": "3x3", "seed": -1}, "seed"),
        ("maze/generate", {"algorithm": "hunt-and-kill", "size": "3x3",
                           "options": {"hunt_chance": "lots"}}, "options.hunt_chance"),
        ("maze/generate", {"algorithm": "wilson", "size": "3x3",
                           "prepare": {"endpoints": "maybe"}}, "prepare.endpoints"),
    ],
)  # fmt: skip
def test_an_error_about_one_part_of_the_request_names_it(
    client: TestClient, path: str, body: dict[str, Any], field: str
) -> None:
    """Issue 25, item 3: the answer names the field, so that a page shows the message by
    its input."""
    assert _refused(client, f"/api/kinds/{path}", body)["field"] == field


def test_an_error_about_no_one_part_names_none(client: TestClient) -> None:
    data = _refused(client, "/api/kinds/sliding/solve", {"puzzle": "123450786",
                                                         "strategy": "tree-path"})  # fmt: skip
    assert "field" not in data and "strategy 'tree-path'" in data["detail"]


def test_the_message_is_the_library_s(client: TestClient) -> None:
    with pytest.raises(lacak.LacakError) as raised:
        lacak.parse("sliding", "1234")
    data = _refused(client, "/api/kinds/sliding/solve", {"puzzle": "1234"})
    assert data["detail"] == " ".join(str(raised.value).split())
    assert data["error"] == type(raised.value).__name__


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"puzzle": 5},
        {"puzzle": "123450786", "surprise": 1},
        {"puzzle": "123450786", "limits": {"seconds": -1}},
        {"puzzle": "123450786", "limits": {"max_depth": "deep"}},
        {"puzzle": "123450786", "options": {"goal": 7}},
        {"puzzle": "123450786", "picture": "<svg>"},
        {"puzzle": "123450786", "strategy": "s" * 500},
    ],
)
def test_malformed_requests_are_refused_by_the_models(
    client: TestClient, body: dict[str, Any]
) -> None:
    assert _refused(client, "/api/kinds/sliding/solve", body)["error"] == "ValidationError"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"algorithm": "nope", "size": "3x3"}, "unknown generator for maze 'nope'"),
        ({"algorithm": "wilson", "size": "100x100"}, "at most 2,500"),
        ({"algorithm": "wilson", "size": "3 by 3"}, "must look like 3x4"),
        ({"algorithm": "wilson", "size": "3x3", "options": {"bias": "NW"}}, "no option 'bias'"),
        ({"algorithm": "hunt-and-kill", "size": "3x3", "options": {"hunt_chance": "lots"}},
         "hunt_chance"),
    ],
)
def test_bad_generate_requests_get_lacak_s_one_line_message(
    client: TestClient, body: dict[str, Any], expected: str
) -> None:
    assert expected in _refused(client, "/api/kinds/maze/generate", body)["detail"]


def test_a_body_past_the_limit_is_413() -> None:
    with TestClient(make_app(max_body=1000)) as small:
        response = small.post("/api/kinds/sliding/solve", json={"puzzle": "1" * 2000})
        assert response.status_code == 413 and "1,000 bytes" in response.json()["detail"]
        response = small.post(
            "/api/kinds/sliding/solve",
            content=(b'{"puzzle": "' + b"1" * 2000 + b'"}' for _ in range(1)),
            headers={"content-type": "application/json"},
        )  # streamed, with no length given
        assert response.status_code == 413


def test_a_search_stops_at_its_time_limit_and_says_so(client: TestClient) -> None:
    started = time.perf_counter()
    answer = client.post(
        "/api/kinds/sliding/solve",
        json={"puzzle": "15 14 13 12 / 11 10 9 8 / 7 6 5 4 / 3 1 2 0", "strategy": "bfs",
              "limits": {"seconds": 0.5}},
    ).json()
    # (the search runs in a worker process, which a fake clock cannot reach: slack that
    # a machine at load 10 still meets, far below the minutes the search would take)
    assert time.perf_counter() - started < 0.5 + 20
    assert answer["result"]["stopped"] in ("time-limit", "memory-limit")
    assert answer["result"]["found"] is False


def test_only_loopback_host_names_when_told() -> None:
    hosts = ["127.0.0.1", "localhost"]
    with TestClient(make_app(trusted_hosts=hosts), base_url="http://127.0.0.1") as local:
        assert local.get("/api/kinds").status_code == 200
    with TestClient(make_app(trusted_hosts=hosts), base_url="http://rebound.example") as other:
        assert other.get("/api/kinds").status_code == 400


def test_the_pages_and_the_api_docs_fetch_nothing_from_elsewhere(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "/static/main.js" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    docs = client.get("/api/docs").text
    assert "/api/docs-static/swagger-ui-bundle.js" in docs and "/api/openapi.json" in docs
    assert "cdn" not in docs.lower()
    assert client.get("/api/docs-static/swagger-ui-bundle.js").status_code == 200
    for name in ("main.js", "ui.js", "maze.js", "boggle.js", "sliding.js", "generic.js", "app.css"):
        text = client.get(f"/static/{name}").text
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")
        assert "https://" not in text


def test_concurrent_requests_each_get_their_own_answer() -> None:
    app = make_app(pool=Pool(3, processes=False))

    async def main() -> list[dict[str, Any]]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            requests = [
                http.post("/api/kinds/maze/generate",
                          json={"algorithm": "wilson", "size": "12x12", "seed": seed})
                for seed in range(12)
            ] + [
                http.post("/api/kinds/sliding/solve", json={"puzzle": board})
                for board in ("123405786", "123450786", "120453786", "103425786")
            ]  # fmt: skip
            return [r.json() for r in await asyncio.gather(*requests)]

    answers = asyncio.run(main())
    for seed, made in enumerate(answers[:12]):
        assert made["instance"] == lacak.generate("maze", "wilson", (12, 12), seed=seed).to_dict()
    for board, answer in zip(("123405786", "123450786", "120453786", "103425786"), answers[12:],
                             strict=True):  # fmt: skip
        assert answer["result"]["length"] == lacak.solve(lacak.parse("sliding", board)).length


def test_a_full_pool_refuses_at_once_with_503() -> None:
    pool = Pool(1, queue=0, processes=False)
    app = make_app(pool=pool)
    slow = {"puzzle": "15 14 13 12 / 11 10 9 8 / 7 6 5 4 / 3 1 2 0", "strategy": "bfs",
            "limits": {"seconds": 1.0}}  # fmt: skip

    async def main() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            first = asyncio.ensure_future(http.post("/api/kinds/sliding/solve", json=slow))
            while pool.pending == 0:
                await asyncio.sleep(0.01)
            second = await http.post("/api/kinds/sliding/solve", json={"puzzle": "123405786"})
            return [await first, second]

    first, second = asyncio.run(main())
    assert first.status_code == 200
    assert second.status_code == 503 and second.headers["retry-after"] == "1"
    assert second.json()["error"] == "Busy"


def test_worker_processes_serve_and_a_dead_worker_is_replaced() -> None:
    pool = Pool(1, processes=True)
    app = make_app(pool=pool, caps=Caps(max_seconds=5.0))
    slow = {"puzzle": "15 14 13 12 / 11 10 9 8 / 7 6 5 4 / 3 1 2 0", "strategy": "bfs",
            "limits": {"seconds": 5.0}}  # fmt: skip

    async def main() -> list[httpx.Response]:
        import signal

        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test",
                                     timeout=60) as http:  # fmt: skip
            ok = await http.post("/api/kinds/jugs/solve", json={"puzzle": "3,5:4"})
            doomed = asyncio.ensure_future(http.post("/api/kinds/sliding/solve", json=slow))
            await asyncio.sleep(1.0)
            for process in list(pool._executor._processes.values()):  # type: ignore[attr-defined]
                os.kill(process.pid, signal.SIGKILL)
            lost = await doomed
            after = await http.post("/api/kinds/jugs/solve", json={"puzzle": "3,5:4"})
            return [ok, lost, after]

    try:
        ok, lost, after = asyncio.run(main())
    finally:
        pool.close()
    assert ok.status_code == 200 and ok.json()["result"]["length"] == 6
    assert lost.status_code == 503 and lost.json()["error"] == "WorkerDied"
    assert after.status_code == 200 and after.json()["result"]["length"] == 6

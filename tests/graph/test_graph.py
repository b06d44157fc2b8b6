"""The ``graph`` kind: AIMA's Romania results, files, untrusted text, random graphs."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import lacak
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.cli import make_cli
from lacak.testing import HeuristicContract, one_line_error, only_lacak_errors, replay
from lacak.testing.reference import distances_to_goal, shortest_cost

ROMANIA = lacak.parse("graph", "romania", start="Arad", goal="Bucharest")


@pytest.mark.parametrize(
    ("strategy", "heuristic", "cost", "route"),
    [
        (
            "astar",
            "straight-line",
            418,
            ["Arad", "Sibiu", "Rimnicu Vilcea", "Pitesti", "Bucharest"],
        ),
        ("uniform-cost", None, 418, ["Arad", "Sibiu", "Rimnicu Vilcea", "Pitesti", "Bucharest"]),
        ("best-first", "straight-line", 450, ["Arad", "Sibiu", "Fagaras", "Bucharest"]),
        (
            "idastar",
            "straight-line",
            418,
            ["Arad", "Sibiu", "Rimnicu Vilcea", "Pitesti", "Bucharest"],
        ),
        ("bfs", None, 450, ["Arad", "Sibiu", "Fagaras", "Bucharest"]),
    ],
)
def test_romania_gives_the_books_routes(strategy: str, heuristic: str | None, cost: int,
                                        route: list[str]) -> None:  # fmt: skip
    result = lacak.solve(ROMANIA, strategy, heuristic=heuristic)
    assert result.found and result.cost == cost and list(result.states) == route
    assert replay(ROMANIA, result) == cost


def test_greedy_expands_only_the_books_nodes() -> None:
    """AIMA figure 3.23: greedy best-first with h_SLD expands Arad, Sibiu, Fagaras."""
    result = lacak.solve(ROMANIA, "best-first", heuristic="straight-line", trace=True)
    assert result.stats.expanded == 4  # (the goal, Bucharest, is expanded: tested)
    assert [n.state for n in sorted(result.trace.nodes, key=lambda n: n.order or 99)][:3] == [
        "Arad", "Sibiu", "Fagaras"]  # fmt: skip


def test_the_default_choice_is_astar_with_straight_line() -> None:
    assert lacak.choose(ROMANIA).label == "astar + straight-line"
    assert lacak.solve(ROMANIA).cost == 418


def test_straight_line_is_the_books_table_and_admissible_on_romania() -> None:
    from lacak_graph.graph import straight_line

    assert straight_line(ROMANIA, "Arad") == 366 and straight_line(ROMANIA, "Bucharest") == 0
    true = distances_to_goal(ROMANIA, ROMANIA.graph.nodes)
    assert all(straight_line(ROMANIA, node) <= true[node] for node in ROMANIA.graph.nodes)
    # another goal has no table: the Euclidean distance between AIMA's coordinates
    to_iasi = lacak.parse("graph", "romania", start="Arad", goal="Iasi")
    assert straight_line(to_iasi, "Arad") == pytest.approx(math.dist((91, 492), (473, 506)))


class TestStraightLine(HeuristicContract):
    kind = "graph"
    heuristic = "straight-line"

    def puzzles(self) -> st.SearchStrategy[Any]:
        return st.sampled_from(["Arad", "Oradea", "Neamt", "Eforie", "Drobeta"]).map(
            lambda start: lacak.parse("graph", "romania", start=start, goal="Bucharest"))  # fmt: skip


@st.composite
def plane_graphs(draw: st.DrawFn) -> str:
    """Random graphs of points in the plane, every edge at least as long as its straight
    line (so the straight-line heuristic is admissible), as JSON text."""
    n = draw(st.integers(2, 9))
    points = [draw(st.tuples(st.integers(0, 50), st.integers(0, 50))) for _ in range(n)]
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), min_size=1,
                          max_size=20))  # fmt: skip
    edges = [[f"n{a}", f"n{b}", math.dist(points[a], points[b]) + draw(st.integers(0, 5))]
             for a, b in pairs if a != b] or [["n0", "n1", 1 + math.dist(points[0], points[1])]]  # fmt: skip
    return json.dumps({
        "edges": edges, "directed": draw(st.booleans()),
        "coordinates": {f"n{i}": list(p) for i, p in enumerate(points)},
    })  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(text=plane_graphs(), data=st.data())
def test_astar_and_uniform_cost_are_optimal_on_random_plane_graphs(text: str, data: Any) -> None:
    graph = json.loads(text)
    nodes = sorted({name for a, b, _c in graph["edges"] for name in (a, b)})
    start, goal = data.draw(st.sampled_from(nodes)), data.draw(st.sampled_from(nodes))
    route = lacak.parse("graph", text, start=start, goal=goal)
    best = shortest_cost(route)
    for strategy in ("astar", "uniform-cost", "idastar"):
        result = lacak.solve(
            route, strategy, heuristic="straight-line" if strategy != "uniform-cost" else None
        )
        assert result.found == (best is not None)
        if best is not None:
            assert replay(route, result) == pytest.approx(best)


def test_csv_reads_like_json() -> None:
    csv = "from,to,cost\nA,B,1\nB,C,2\nA,C,5\n"
    route = lacak.parse("graph", csv, start="A", goal="C")
    assert lacak.solve(route, "uniform-cost").cost == 3
    assert lacak.parse("graph", lacak.puzzle_text(route), start="A", goal="C").graph.edge_count == 3


@pytest.mark.parametrize(
    ("text", "options", "error", "fragment"),
    [
        ("romania", {"start": "Paris"}, lacak.InvalidOptionError, "'Paris' is not a node"),
        ('{"edges": []}', {}, lacak.InvalidPuzzleError, "at least one edge"),
        ('{"edges": [["A", "B", -1]]}', {}, lacak.InvalidPuzzleError, "finite number >= 0"),
        ('{"edges": [["A", "B"]]}', {}, lacak.InvalidPuzzleError, "[from, to, cost]"),
        ("A,B\n", {}, lacak.InvalidPuzzleError, "from,to,cost"),
        ('{"edges": [["A", "B", 1]]}', {}, lacak.InvalidOptionError, "needs its start"),
        ("/etc/passwd", {}, lacak.InvalidPuzzleError, "a graph is a shipped one"),
    ],
)
def test_bad_graphs_are_refused(text: str, options: dict[str, Any], error: type,
                                fragment: str) -> None:  # fmt: skip
    with pytest.raises(error, match=fragment.replace("[", r"\[").replace("]", r"\]")):
        lacak.parse("graph", text, **options)


def test_the_library_never_opens_a_file(tmp_path: Path) -> None:
    """A path given as the graph's text is refused, even when the file holds a graph: only
    the command line reads files, so the web API reads nothing on the server."""
    path = tmp_path / "map.json"
    path.write_text('{"edges": [["A", "B", 1]], "start": "A", "goal": "B"}')
    with pytest.raises(lacak.InvalidPuzzleError):
        lacak.parse("graph", str(path))


@given(st.text(max_size=60))
def test_any_text_gives_a_route_or_a_lacak_error(text: str) -> None:
    only_lacak_errors(lacak.parse, "graph", text, start="A", goal="B")


def test_lacak_testing_graph_puzzles_keep_lacaks_defaults() -> None:
    """lacak.testing's GraphPuzzle says its kind is "graph" too: this kind leaves it alone."""
    from lacak.testing import GraphPuzzle

    puzzle = GraphPuzzle(edges={0: (("a", 1, 1.0),)}, initial=0, goals={1})
    assert lacak.choose(puzzle).label == "bfs"
    assert "graph" not in lacak.result_json(lacak.solve(puzzle), puzzle)


# -- the command line ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def cli() -> Any:
    return make_cli()


def run(cli: Any, *args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


@pytest.mark.parametrize(("strategy", "cost"), [("astar", 418), ("uniform-cost", 418),
                                                ("best-first", 450)])  # fmt: skip
def test_cli_romania(cli: Any, strategy: str, cost: int) -> None:
    result = run(cli, "graph", "solve", "romania", "--from", "Arad", "--to", "Bucharest",
                 "-s", strategy, "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["cost"] == cost and data["graph"]["from"] == "Arad"
    assert data["heuristic"] == (None if strategy == "uniform-cost" else "straight-line")


def test_cli_reads_a_file_and_standard_input(cli: Any, tmp_path: Path) -> None:
    path = tmp_path / "roads.csv"
    path.write_text("A,B,1\nB,C,2\nA,C,5\n")
    result = run(cli, "graph", "solve", str(path), "--from", "A", "--to", "C")
    assert result.exit_code == 0, result.output
    assert "route: A -1-> B -2-> C" in result.stdout and "cost: 3" in result.stdout
    piped = run(cli, "graph", "solve", "-", "--start", "C", "--goal", "A", "--json",
                input=path.read_text())  # fmt: skip
    assert json.loads(piped.stdout)["cost"] == 3


def test_cli_draws_romania(cli: Any, tmp_path: Path) -> None:
    out = tmp_path / "route.svg"
    result = run(cli, "graph", "solve", "romania", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith("<svg") and "Rimnicu Vilcea" in out.read_text()


def test_cli_unknown_node_is_one_line(cli: Any) -> None:
    result = run(cli, "graph", "solve", "romania", "--from", "Paris")
    assert result.exit_code == 2
    one_line_error(result, "'Paris' is not a node")


def test_the_web_api_reads_no_server_path(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from lacak.web import create_app
    from lacak.web.pool import Pool

    path = tmp_path / "map.json"
    path.write_text('{"edges": [["A", "B", 1]], "start": "A", "goal": "B"}')
    with TestClient(create_app(pool=Pool(1, processes=False))) as client:
        refused = client.post("/api/kinds/graph/solve", json={"puzzle": str(path)})
        assert refused.status_code == 422 and '"edges"' not in refused.text
        shipped = client.post("/api/kinds/graph/solve",
                              json={"puzzle": "romania", "options": {"start": "Arad"}})  # fmt: skip
        assert shipped.status_code == 200, shipped.text
        assert shipped.json()["result"]["cost"] == 418
        sent = client.post("/api/kinds/graph/solve", json={"puzzle": path.read_text()})
        assert sent.status_code == 200 and sent.json()["result"]["cost"] == 1

"""``lacak compare`` and lacak.batch.compare: AIMA's compare_searchers (issue 28)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import lacak
import pytest
from click.testing import CliRunner
from lacak.batch.compare import chart, compare, generated, split_strategy, table
from lacak.cli import make_cli

BOARDS = ["123405786", "867254301"]


def test_a_row_per_strategy_and_instance_in_order() -> None:
    rows = compare("sliding", BOARDS, ["bfs", "astar+manhattan"])
    assert [(r.strategy, r.instance) for r in rows] == [
        ("bfs", BOARDS[0]), ("bfs", BOARDS[1]),
        ("astar + manhattan", BOARDS[0]), ("astar + manhattan", BOARDS[1]),
    ]  # fmt: skip
    by = {(r.strategy, r.instance): r for r in rows}
    for board in BOARDS:  # both optimal here; A* expands fewer (why A* beats breadth-first)
        bfs, astar = by["bfs", board], by["astar + manhattan", board]
        assert bfs.found and astar.found and bfs.length == astar.length == bfs.cost
        assert astar.expanded < bfs.expanded
    assert by["bfs", "867254301"].length == 31  # the hardest 8-puzzle board
    assert list(rows[0].to_dict()) == ["strategy", "instance", "found", "stopped", "expanded",
                                       "generated", "max_frontier", "length", "cost", "seconds"]


def test_a_limit_is_a_row_that_found_nothing() -> None:
    (row,) = compare("sliding", ["867254301"], ["bfs"], limits=lacak.Limits(max_expanded=10))
    assert not row.found and row.stopped == "node-limit" and row.length is None
    assert "no (node-limit)" in table([row])


def test_the_chart_draws_every_bar() -> None:
    rows = compare("sliding", BOARDS, ["bfs", "astar+manhattan", "idastar+manhattan"])
    svg = chart(rows).svg()
    assert svg.startswith("<svg") and "astar + manhattan" in svg and "idastar + manhattan" in svg
    assert chart(rows, measure="generated").png().startswith(b"\x89PNG")
    with pytest.raises(lacak.InvalidOptionError):
        chart(rows, measure="seconds")


def test_generated_instances_are_the_batch_s() -> None:
    first = generated("sliding", 3, seed=5, size=(3, 3))
    again = generated("sliding", 3, seed=5, size=(3, 3))
    assert [n for n, _ in first] == [n for n, _ in again] and len(first) == 3
    assert [p.initial for _, p in first] == [p.initial for _, p in again]
    mazes = generated("maze", 2, seed=1, size=(5, 5))
    assert all(lacak.solve(p, "bfs").found for _, p in mazes)


@pytest.mark.parametrize("spec", ["", "+manhattan", "astar+"])
def test_bad_strategy_specs(spec: str) -> None:
    with pytest.raises(lacak.InvalidOptionError):
        split_strategy(spec)


@pytest.fixture(scope="module")
def cli() -> Any:
    return make_cli()


def run(cli: Any, *args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(cli, list(args), input=input)


def test_cli_table_json_and_chart(cli: Any, tmp_path: Path) -> None:
    done = run(cli, "compare", "sliding", *BOARDS, "-s", "bfs", "-s", "astar+manhattan")
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert lines[0].split()[:3] == ["strategy", "instance", "found"] and len(lines) == 5
    done = run(cli, "compare", "sliding", "-", "-s", "bfs", "-s", "astar", "--json",
               input="123405786\n120453786\n")  # fmt: skip
    data = json.loads(done.stdout)
    assert data["kind"] == "sliding" and len(data["rows"]) == 4
    out = tmp_path / "chart.svg"
    done = run(cli, "compare", "maze", "--generate", "2", "--size", "6x6", "-s", "bfs", "-s",
               "astar", "-o", str(out))  # fmt: skip
    assert done.exit_code == 0, done.output
    assert out.read_text().startswith("<svg") and "seed " in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["sliding", "-s", "bfs"], "give instances"),
        (["nokind", "1", "-s", "bfs"], "unknown puzzle kind"),
        (["sliding", "123405786", "-s", "nosuch"], "nosuch"),
        (["sliding", "123405786", "-s", "bfs", "-o", "x.txt"], ".svg or .png"),
        (["sliding", "123405786", "-s", "bfs", "--size", "3x3"], "--generate"),
    ],
)
def test_cli_bad_input_is_one_line(cli: Any, args: list[str], message: str) -> None:
    done = run(cli, "compare", *args)
    assert done.exit_code == 2 and message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.output

"""``lacak queens solve`` end to end, through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lacak.cli import make_cli
from lacak.testing import one_line_error


@pytest.fixture(scope="module")
def cli() -> Any:
    return make_cli()


def run(cli: Any, *args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def test_hill_climbing_with_sideways_and_restarts_as_json(cli: Any) -> None:
    result = run(cli, "queens", "solve", "43682185", "-s", "hill-climbing",
                 "-O", "sideways=100", "-O", "restarts=10", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["found"] and data["strategy"] == "hill-climbing"
    assert data["states"][0] == "43682185" and data["queens"]["attacks"] == 0
    assert data["local"]["value"] == 0 and data["local"]["best"] == data["states"][-1]
    assert len(data["actions"]) == data["local"]["steps"] == data["length"]


def test_a_stuck_climb_says_so_and_exits_1(cli: Any) -> None:
    result = run(cli, "queens", "solve", "11111111", "-s", "hill-climbing", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 1 and not data["found"]
    assert data["local"]["value"] < 0 and data["stopped"] == "exhausted"


def test_the_default_places_queens_depth_first(cli: Any) -> None:
    result = run(cli, "queens", "solve", "8")
    assert result.exit_code == 0, result.output
    assert "found: 8 moves with dfs" in result.stdout
    assert "8 queens: 8 placed, 0 attacking pairs" in result.stdout
    assert result.stdout.count("Q . ") + result.stdout.count(". Q") >= 8


def test_standard_input_and_a_picture(cli: Any, tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    result = run(cli, "queens", "solve", "-", "-s", "simulated-annealing", "-o", str(out),
                 input="1,5,8,6,3,7,2,3\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith("<svg")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("queens", "solve", "1239"), "not 9"),
        (("queens", "solve", "8", "-s", "genetic", "-O", "population=1"), "population"),
        (("sliding", "solve", "123405786", "-s", "hill-climbing"), "declares no objective"),
        (("queens", "solve", "8", "-s", "simulated-annealing", "-O", "schedule=fast"), "schedule"),
    ],
)
def test_bad_input_is_one_line(cli: Any, args: tuple[str, ...], fragment: str) -> None:
    result = run(cli, *args)
    assert result.exit_code == 2
    one_line_error(result, fragment)

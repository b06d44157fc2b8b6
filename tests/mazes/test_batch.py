"""``lacak batch maze``: the maze kind's batch options (--endpoints, --solution) and records."""

from __future__ import annotations

import json

import lacak
from click.testing import CliRunner
from lacak.batch import job_seed
from lacak.cli import make_cli


def batch(*args: str) -> list[dict]:  # type: ignore[type-arg]
    result = CliRunner().invoke(make_cli(), ["batch", "maze", "--seed", "4", "-w", "1", *args])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_records_are_the_generator_s_mazes() -> None:
    records = batch("-a", "prim", "--size", "4x6", "-n", "5")
    for record in records:
        maze = lacak.generate("maze", "prim", (4, 6), seed=job_seed(4, record["index"]))
        assert record["instance"] == maze.to_dict()
        assert record["instance"]["start"] is None and "result" not in record


def test_endpoints_solution_and_solve() -> None:
    (ends,) = batch("--size", "5x5", "-n", "1", "--endpoints")
    assert ends["instance"]["start"] and ends["instance"]["solution"] is None
    (both,) = batch("--size", "5x5", "-n", "1", "--solution", "--solve")
    maze = both["instance"]
    assert maze["start"] == ends["instance"]["start"] and maze["solution"][0] == maze["start"]
    result = both["result"]
    assert result["kind"] == "maze" and result["strategy"] == "tree-path" and result["found"]
    assert result["maze"]["path"] == maze["solution"]
    assert result["length"] == len(maze["solution"]) - 1


def test_a_least_solution_length_draws_again() -> None:
    records = batch("--size", "6x6", "-n", "8", "--min-solution-length", "20")
    assert all(r["result"]["length"] >= 20 for r in records)
    assert records[-1]["index"] >= 7

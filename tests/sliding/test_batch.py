"""``lacak batch sliding``: boards by random walk (--moves) or uniform (--uniform), solved,
graded by optimal length."""

from __future__ import annotations

import json

import lacak
import pytest
from click.testing import CliRunner
from lacak.batch import dataset, job_seed
from lacak.cli import make_cli


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(make_cli(), ["batch", "sliding", "--size", "3x3", "--seed", "2",
                                           "-w", "1", *args])  # fmt: skip


def records(*args: str) -> list[dict]:  # type: ignore[type-arg]
    result = run(*args)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_walks_of_m_moves_are_solved_optimally() -> None:
    for record in records("-n", "6", "--moves", "12"):
        puzzle = lacak.generate("sliding", "walk", (3, 3), seed=job_seed(2, record["index"]),
                                moves=12)  # fmt: skip
        assert record["instance"] == puzzle.to_dict()
        assert record["instance"]["board"] == puzzle.format_state(puzzle.initial)
        assert record["result"]["found"] and record["result"]["length"] <= 12
        assert record["result"]["length"] == lacak.solve(puzzle, "bfs").length


def test_uniform_boards_graded_by_optimal_length() -> None:
    graded = records("-n", "5", "--uniform", "--min-solution-length", "24",
                     "--max-solution-length", "24", "-s", "astar", "-H", "manhattan")  # fmt: skip
    assert [r["result"]["length"] for r in graded] == [24] * 5
    assert all(r["result"]["strategy"] == "astar" for r in graded)
    for record in graded:
        board = lacak.generate("sliding", "random", (3, 3), seed=record["seed"])
        assert record["instance"] == board.to_dict()
        assert record["instance"]["generator"] == "random"


def test_moves_and_uniform_exclude_each_other() -> None:
    both = run("-n", "2", "--moves", "5", "--uniform")
    assert both.exit_code == 2 and "give one" in both.stderr
    other = run("-n", "2", "-a", "walk", "--uniform")
    assert other.exit_code == 2 and "contradicts" in other.stderr


def test_bounds_with_a_strategy_that_is_not_optimal_say_so() -> None:
    result = run("-n", "2", "--moves", "6", "-s", "dfs", "--max-depth", "6",
                 "--max-solution-length", "6")  # fmt: skip
    assert "note: strategy 'dfs' does not find shortest solutions" in result.stderr
    assert "note:" not in run("-n", "2", "--moves", "6", "-s", "bfs",
                              "--max-solution-length", "6").stderr  # fmt: skip


def test_unique_compares_boards_not_the_seeds_they_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each record's board records its own job's seed; ``--unique`` still finds two boards
    alike: a 2x2 goal has two boards one move away, so no third is ever drawn."""
    monkeypatch.setattr(dataset, "MAX_REJECTED", 50)
    result = run("-n", "3", "--size", "2x2", "--moves", "1", "--unique", "--no-solve")
    assert result.exit_code == 1 and "gave up: 50 draws in a row were rejected" in result.stderr
    boards = [json.loads(line)["instance"]["board"] for line in result.stdout.splitlines()]
    assert sorted(boards) == ["1032", "1203"]

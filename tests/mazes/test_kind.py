"""The ``maze`` puzzle kind on the one pipeline (issue 11): ``lacak.parse`` gives a puzzle,
``lacak.choose`` and ``lacak maze solve`` choose alike, and results have the common JSON."""

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
from lacak_mazes import Maze, MazePuzzle

from .helpers import braid_mazes, cells_of, perfect_mazes

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "docs" / "result.schema.json").read_text("utf-8")
)


def test_parse_gives_a_puzzle_that_solves() -> None:
    """0.1.0: lacak.parse("maze", text) gave a Maze, and lacak.solve of it failed."""
    maze = lacak.generate("maze", "wilson", (6, 7), seed=1).with_endpoints()
    puzzle = lacak.parse("maze", maze.to_json())
    assert isinstance(puzzle, MazePuzzle) and isinstance(puzzle, lacak.ReversiblePuzzle)
    assert puzzle.maze == maze and (puzzle.initial, puzzle.goal) == (maze.start, maze.end)
    assert lacak.solve(puzzle).states == maze.solution
    assert lacak.parse("maze", maze.to_json().encode()) == puzzle  # bytes too


def test_the_endpoints_given_then_the_file_s_then_suggested() -> None:
    bare = lacak.generate("maze", "kruskal", (5, 5), seed=2)
    suggested = bare.with_endpoints(solution=False)
    puzzle = lacak.parse("maze", bare.to_json())
    assert (puzzle.initial, puzzle.goal) == (suggested.start, suggested.end)
    assert puzzle.maze == bare  # kept as read
    given_start = lacak.parse("maze", bare.to_json(), start="0,0")
    farthest = bare.with_endpoints((0, 0), solution=False).end
    assert (given_start.initial, given_start.goal) == ((0, 0), farthest)
    given_end = lacak.parse("maze", bare.to_json(), end=(4, 4))
    assert (
        given_end.goal == (4, 4)
        and given_end.initial == bare.with_endpoints(end=(4, 4), solution=False).start
    )
    in_file = bare.with_endpoints((1, 1), (3, 2))
    assert lacak.parse("maze", in_file.to_json()).initial == (1, 1)
    both = lacak.parse("maze", in_file.to_json(), start=" 2, 2 ", end="0,4")
    assert (both.initial, both.goal) == ((2, 2), (0, 4))


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"start": "0;0"}, lacak.InvalidOptionError, "start must look like ROW,COL"),
        ({"end": "9,0"}, lacak.InvalidPuzzleError, r"end \[9, 0\] is outside the 3x3 maze"),
        ({"start": (0.5, 1)}, lacak.InvalidPuzzleError, "start must be"),
        ({"goal": "1,1"}, lacak.InvalidOptionError, "no option 'goal'"),
    ],
)
def test_bad_endpoints_are_refused(options: dict[str, Any], error: type, message: str) -> None:
    text = lacak.generate("maze", "kruskal", (3, 3), seed=1).to_json()
    with pytest.raises(error, match=message):
        lacak.parse("maze", text, **options)


def test_format_state_is_the_command_line_s_row_col() -> None:
    puzzle = lacak.parse("maze", '{"cells": [[2, 12], [2, 9]]}')
    assert puzzle.format_state((1, 0)) == "1,0"
    assert lacak.options.parse_cell(puzzle.format_state((12, 3))) == (12, 3)


def test_the_kind_chooses_tree_path_and_manhattan() -> None:
    puzzle = lacak.parse("maze", lacak.generate("maze", "eller", (5, 5), seed=3).to_json())
    assert lacak.choose(puzzle).label == "tree-path"
    assert lacak.choose(puzzle, heuristic="manhattan").label == "astar + manhattan"
    assert lacak.choose(puzzle, heuristic="none").label == "tree-path"
    # strategies that need a heuristic get the kind's: lacak.solve(puzzle, "best-first") works
    for strategy in ("best-first", "astar", "idastar"):
        if strategy in lacak.searchers():
            assert lacak.choose(puzzle, strategy).label == f"{strategy} + manhattan"
            assert lacak.solve(puzzle, strategy).found


def test_a_result_s_json_has_the_maze_under_its_own_key() -> None:
    maze = lacak.generate("maze", "prim", (3, 4), seed=6).with_endpoints()
    puzzle = lacak.parse("maze", maze.to_json())
    data = lacak.result_json(lacak.solve(puzzle), puzzle)
    assert not list(Draft202012Validator(SCHEMA).iter_errors(data))
    assert data["maze"] == {
        "rows": 3,
        "cols": 4,
        "start": list(maze.start),
        "end": list(maze.end),
        "path": [list(cell) for cell in maze.solution],
    }
    assert data["states"] == [f"{r},{c}" for r, c in maze.solution]
    stopped = lacak.result_json(lacak.solve(puzzle, limits=lacak.Limits(max_expanded=0)), puzzle)
    assert stopped["maze"]["path"] is None and stopped["states"] == [
        puzzle.format_state(maze.start)
    ]


def test_a_generated_maze_and_its_puzzle_validate() -> None:
    kind = lacak.default_registry().puzzle_types()["maze"]
    assert kind.validate is not None
    maze = lacak.generate("maze", "kruskal", (4, 4), seed=1)
    kind.validate(maze)
    kind.validate(lacak.parse("maze", maze.to_json()))
    with pytest.raises(lacak.InvalidPuzzleError, match="loops"):
        kind.validate(Maze.from_rows([[6, 12], [3, 9]]))


#: (strategy, heuristic) as given to both: None is "let lacak choose".
CHOICES = [
    (None, None),
    (None, "manhattan"),
    (None, "none"),
    ("tree-path", None),
    ("dead-end-fill", None),
    ("wall-follower", None),
    ("bfs", None),
    ("best-first", None),
    ("astar", None),
    ("astar", "manhattan"),
    ("tree-path", "manhattan"),
]


def _without_seconds(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "stats": {k: v for k, v in data["stats"].items() if k != "seconds"}}


@pytest.fixture(scope="module")
def cli() -> Any:
    return make_cli()


@settings(max_examples=40)
@given(
    maze=st.one_of(perfect_mazes(max_side=7), braid_mazes(max_side=6)),
    choice=st.sampled_from(CHOICES),
    data=st.data(),
)
def test_the_library_and_the_command_choose_and_solve_alike(
    cli: Any, maze: Maze, choice: tuple[str | None, str | None], data: st.DataObject
) -> None:
    strategy, heuristic = choice
    if strategy is not None and strategy not in lacak.searchers():
        return
    ends = {
        name: f"{cell[0]},{cell[1]}"
        for name in ("start", "end")
        if (cell := data.draw(st.none() | cells_of(maze), label=name)) is not None
    }
    text = maze.to_json()
    puzzle = lacak.parse("maze", text, **ends)
    expected = lacak.choose(puzzle, strategy, heuristic)
    library = lacak.solve(puzzle, strategy, heuristic=heuristic)
    args = ["maze", "solve", "-"]
    args += [item for name, value in ends.items() for item in (f"--{name}", value)]
    args += ["-s", strategy] if strategy else []
    args += ["-H", heuristic] if heuristic else []
    shown = CliRunner().invoke(cli, [*args, "--json"], input=text)
    assert shown.exit_code == (0 if library.found else 1), shown.output
    assert _without_seconds(json.loads(shown.stdout)) == _without_seconds(lacak.result_json(library, puzzle))
    said = CliRunner().invoke(cli, args, input=text).stdout.splitlines()[0]
    assert said.endswith(f"with {expected.label}") or said.startswith(
        f"not found with {expected.label}:"
    )

"""``lacak sliding ...`` end to end with click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.cli import make_cli

#: The common keys of every kind's result (docs/results.md), then the kind's own.
JSON_KEYS = [
    "kind",
    "strategy",
    "heuristic",
    "found",
    "stopped",
    "length",
    "cost",
    "actions",
    "states",
    "stats",
    "sliding",
]
STATS_KEYS = {"expanded", "generated", "max_frontier", "depth", "seconds", "iterations"}


@pytest.fixture(scope="module")
def cli():  # type: ignore[no-untyped-def]
    return make_cli()


def run(cli, *args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("strategy", ["dfs", "bfs", "best-first"])
def test_reference_depth_two(cli, strategy: str) -> None:  # type: ignore[no-untyped-def]
    result = run(
        cli,
        "sliding",
        "solve",
        "123450786",
        "--goal",
        "103425786",
        "--max-depth",
        "2",
        "--strategy",
        strategy,
    )
    assert result.exit_code == 0, result.output
    assert "found: 2 moves" in result.output
    assert "moves: L U" in result.output
    assert "123450786 -> 123405786 -> 103425786" in result.output
    assert "expanded " in result.output and "generated " in result.output


def test_reference_three_moves_json(cli) -> None:  # type: ignore[no-untyped-def]
    result = run(cli, "sliding", "solve", "123845706", "--goal", "123804765", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert list(data) == JSON_KEYS and set(data["stats"]) == STATS_KEYS
    assert data["found"] is True and data["length"] == 3 and data["stopped"] == "goal"
    assert data["actions"] == ["R", "U", "L"] and data["cost"] == 3
    assert data["states"][0] == "123845706" and data["states"][-1] == "123804765"
    assert len(data["states"]) == len(data["actions"]) + 1
    # the kind's choice for boards of up to 9 cells (plugins/lacak_sliding/choice.py)
    assert data["strategy"] == "idastar-tiles" and data["heuristic"] == "manhattan"
    assert data["kind"] == "sliding" and data["stats"]["depth"] == 3
    assert data["sliding"] == {
        "rows": 3,
        "cols": 3,
        "start": "123845706",
        "goal": "123804765",
        "notation": "compact",
    }


def test_states_use_the_input_notation(cli) -> None:  # type: ignore[no-untyped-def]
    result = run(cli, "sliding", "solve", "1 2 3 / 4 5 0 / 7 8 6", "--json", "--strategy", "bfs")
    data = json.loads(result.output)
    assert data["states"] == ["1 2 3 / 4 5 0 / 7 8 6", "1 2 3 / 4 5 6 / 7 8 0"]
    assert data["heuristic"] is None


def test_boards_along_the_path_are_drawn(cli) -> None:  # type: ignore[no-untyped-def]
    result = run(cli, "sliding", "solve", "123405786")
    assert result.exit_code == 0
    assert "start" in result.output and "1: " in result.output and "2: " in result.output
    assert "4 . 5" in result.output and "7 8 ." in result.output  # the start and the goal boards


def test_not_found_is_reported_with_status_1(cli) -> None:  # type: ignore[no-untyped-def]
    result = run(
        cli,
        "sliding",
        "solve",
        "123450786",
        "--goal",
        "103425786",
        "--max-depth",
        "1",
        "--strategy",
        "bfs",
        "--json",
    )
    assert result.exit_code == 1
    data = json.loads(result.stdout)  # the note on the limit goes to stderr
    assert data["found"] is False and data["stopped"] == "depth-limit"
    assert result.stderr.startswith("note: stopped early (depth-limit: --max-depth 1 was reached)")
    assert data["actions"] == [] and data["length"] is None
    text = run(cli, "sliding", "solve", "867254301", "--max-nodes", "5")
    assert text.exit_code == 1 and "node-limit" in text.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["123456870"], "inversions"),
        (["12345678"], "not a square"),
        (["123456788"], "repeats 8"),
        (["12345678x"], "not a tile number"),
        (["123450786", "--size", "2x3"], "has 9 tiles"),
        (["123450786", "--size", "abc"], "must look like 3x4, got 'abc'"),
        (["123450786", "--strategy", "astr"], "did you mean 'astar'"),
        (["123450786", "--heuristic", "manhatan"], "did you mean 'manhattan'"),
        (["123450786", "--heuristic", "weighted:w1=x"], "w1"),
        (["123450786", "--heuristic", "weighted:w1=inf", "--strategy", "idastar-tiles"], "w1"),
        (["123450786", "--heuristic", "weighted:w2=nan", "--strategy", "astar-tiles"], "w2"),
        (["123450786", "--trace", "tree.txt"], ".json, .dot, .svg or .png files, not 'tree.txt'"),
        (["123450786", "--strategy", "weighted-astar", "-O", "weight=0.1"], "weight"),
        (["123450786", "--strategy", "bfs", "--option", "duplicates=maybe"], "duplicates"),
        (["123450786", "--strategy", "bfs", "--option", "nonsense"], "KEY=VALUE"),
        (["123450786", "--max-depth", "-1"], "--max-depth"),
        (["123450786", "--size", "60x60"], "at most 1,024 cells"),
    ],
)
def test_bad_input_is_one_line_and_status_2(cli, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    result = run(cli, "sliding", "solve", *args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:"), result.output
    assert message in lines[0]
    assert "Traceback" not in result.output


def test_trace_files(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    as_json, as_dot = tmp_path / "t.json", tmp_path / "t.dot"
    base = ["sliding", "solve", "123450786", "--goal", "103425786", "--strategy", "bfs"]
    assert run(cli, *base, "--trace", str(as_json)).exit_code == 0
    assert run(cli, *base, "--trace", str(as_dot)).exit_code == 0
    data = json.loads(as_json.read_text())
    nodes = data["nodes"]
    assert nodes[0]["state"] == "123450786" and nodes[0]["parent"] is None
    assert [n["state"] for n in nodes if n["goal"]] == ["103425786"]
    dot = as_dot.read_text()
    assert dot.startswith("digraph") and "peripheries=2" in dot


def test_tree_drawing(cli) -> None:  # type: ignore[no-untyped-def]
    result = run(
        cli,
        "sliding",
        "solve",
        "123450786",
        "--goal",
        "103425786",
        "--max-depth",
        "2",
        "--strategy",
        "dfs",
        "--tree",
    )
    assert result.exit_code == 0
    assert "search tree" in result.output and "← goal" in result.output
    assert "U 103425786 #7 d=2" in result.output


def test_scramble_same_seed_same_board(cli) -> None:  # type: ignore[no-untyped-def]
    first = run(cli, "sliding", "scramble", "--size", "3x3", "--seed", "42")
    second = run(cli, "sliding", "scramble", "--size", "3x3", "--seed", "42")
    assert first.exit_code == 0 and first.output == second.output
    board = first.output.splitlines()[0]
    assert run(cli, "sliding", "solve", board).exit_code == 0
    data = json.loads(
        run(
            cli, "sliding", "scramble", "--size", "3x4", "--moves", "12", "--seed", "7", "--json"
        ).output
    )
    assert list(data) == ["board", "size", "rows", "cols", "goal", "generator", "moves", "seed",
                          "options"]  # fmt: skip
    assert data["moves"] == 12 and data["options"] == {}
    assert data["size"] == "3x4" and data["generator"] == "walk" and data["seed"] == 7
    assert (data["rows"], data["cols"]) == (3, 4)  # ROWSxCOLS: 3 rows of 4 tiles
    solved = json.loads(
        run(cli, "sliding", "solve", data["board"], "--size", "3x4", "--json").output
    )
    assert solved["found"] and solved["length"] <= 12


def test_scramble_without_seed_reports_one(cli) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(run(cli, "sliding", "scramble", "--json").output)
    again = json.loads(
        run(cli, "sliding", "scramble", "--seed", str(data["seed"]), "--json").output
    )
    assert again["board"] == data["board"]
    assert run(cli, "sliding", "scramble", "--size", "1x3").exit_code == 2
    for args, message in [
        (["--size", "30000x30000"], "at most 1,024 cells"),
        (["--moves", "100000000000000000000"], "1,000,000"),
    ]:
        refused = run(cli, "sliding", "scramble", *args)
        assert refused.exit_code == 2 and message in refused.output
        assert refused.output.count("\n") == 1


def test_strategies_and_heuristics_listings(cli) -> None:  # type: ignore[no-untyped-def]
    strategies = json.loads(run(cli, "sliding", "strategies", "--json").output)["strategies"]
    by_name = {s["name"]: s for s in strategies}
    assert {"dfs", "bfs", "best-first", "astar", "idastar", "astar-tiles", "bfs-tiles"} <= set(
        by_name
    )
    assert by_name["astar"]["optimal"] and not by_name["best-first"]["optimal"]
    assert by_name["dfs"]["options"] == {"duplicates": "closed", "iterative": False}
    heuristics = json.loads(run(cli, "sliding", "heuristics", "--json").output)["heuristics"]
    admissible = {h["name"]: h["admissible"] for h in heuristics}
    assert admissible["manhattan"] and admissible["misplaced"] and admissible["linear-conflict"]
    assert admissible["weighted"] is False
    assert run(cli, "sliding", "strategies").exit_code == 0
    assert "manhattan" in run(cli, "sliding", "heuristics").output


def test_optional_heuristic_defaults_and_can_be_turned_off(cli) -> None:  # type: ignore[no-untyped-def]
    informed = json.loads(
        run(cli, "sliding", "solve", "123405786", "-s", "idastar", "--json").output
    )
    assert informed["heuristic"] == "manhattan" and informed["length"] == 2
    blind = json.loads(
        run(cli, "sliding", "solve", "123405786", "-s", "idastar", "-H", "none", "--json").output
    )
    assert blind["heuristic"] is None and blind["length"] == 2
    assert blind["stats"]["expanded"] > informed["stats"]["expanded"]
    refused = run(cli, "sliding", "solve", "123405786", "-s", "astar", "-H", "none")
    assert refused.exit_code == 2 and "needs a heuristic" in refused.output
    noted = run(cli, "sliding", "solve", "123405786", "-s", "bfs", "-H", "manhattan")
    assert noted.exit_code == 0 and "does not use a heuristic" in noted.output


@settings(max_examples=20, deadline=None)
@given(
    shape=st.sampled_from([(2, 3), (3, 2), (3, 3), (2, 4), (4, 4)]),
    seed=st.integers(0, 2**32),
    goal_first=st.booleans(),
)
def test_a_scramble_s_json_is_a_board_with_its_goal_and_size(
    shape: tuple[int, int], seed: int, goal_first: bool
) -> None:
    """``lacak sliding scramble --json | lacak sliding solve -``: the scramble's board,
    goal and size come along, so the pipe needs no jq (README)."""
    import lacak

    size = f"{shape[0]}x{shape[1]}"
    n = shape[0] * shape[1]
    goal = " ".join(map(str, [0, *range(1, n)] if goal_first else [*range(1, n), 0]))
    made = CliRunner().invoke(make_cli(), ["sliding", "scramble", "--size", size, "--seed",
                                           str(seed), "--goal", goal, "--json"])  # fmt: skip
    assert made.exit_code == 0, made.output
    scramble = json.loads(made.stdout)
    puzzle = lacak.parse("sliding", made.stdout)
    expected = lacak.parse("sliding", scramble["board"], size=size, goal=goal)
    assert (puzzle.initial, puzzle.goal, puzzle.width) == (
        expected.initial, expected.goal, expected.width)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"board": ', "starts with '{' but is not JSON"),
        ('{"tiles": "123450786"}', 'the board as text under "board"'),
        ('{"board": [1, 2]}', 'the board as text under "board"'),
        ('{"board": "123450786", "goal": 5}', "the scramble's 'goal' must be text"),
    ],
)
def test_json_that_is_not_a_scramble_is_one_clear_line(cli, text: str, message: str) -> None:  # type: ignore[no-untyped-def]
    result = CliRunner().invoke(cli, ["sliding", "solve", "-"], input=text)
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ") and message in result.stderr
    assert result.stderr.count("\n") == 1

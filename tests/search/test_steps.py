"""Searches step by step (issue 28): the course notes' worked examples, queue by queue.

The expected lists are written from the notes (``../shared/reference``, the 8-puzzle
chapter: start 123450786, goal 103425786, depth limit 2; best-first with H1 + H2 and the
rule that a child equal to its grandparent is not made), not from lacak's output.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import lacak
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from lacak import Limits
from lacak.cli import make_cli

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "docs" / "result.schema.json").read_text("utf-8")
)

START, GOAL = "123450786", "103425786"


def _steps(strategy: str, **options: Any) -> lacak.SearchTrace:
    puzzle = lacak.parse("sliding", START, goal=GOAL)
    trace = lacak.SearchTrace(describe=puzzle.format_state, steps=True)
    result = lacak.solve(puzzle, strategy, limits=Limits(max_depth=2), trace=trace, **options)
    assert result.found and result.actions == ("L", "U")
    return trace


def _lists(trace: lacak.SearchTrace) -> list[tuple[str, list[str], list[str]]]:
    return [(s["node"], s["open"], s["closed"]) for s in trace.steps_to_list()]


def test_the_notes_best_first_example_step_by_step() -> None:
    trace = _steps("best-first", heuristic="weighted", duplicates="parent")
    steps = trace.steps_to_list()
    # 1. antrian1 = [A]; P = A (h = 4) is no goal: A moves to antrian2, its children
    #    123405786 (h = 2), 123456780 (h = 6), 120453786 (h = 6) join antrian1, best first
    #    (the two h = 6 ones in the order made: the notes leave that tie open)
    # 2. P = B = 123405786 (h = 2): to antrian2; its children 123485706 (h = 4),
    #    123045786 (h = 4), 103425786 (h = 0); 123450786, the grandparent, is not made
    # 3. P = 103425786: MATCH
    assert _lists(trace) == [
        ("123450786", ["123405786", "123456780", "120453786"], ["123450786"]),
        (
            "123405786",
            ["103425786", "123485706", "123045786", "123456780", "120453786"],
            ["123450786", "123405786"],
        ),
        ("103425786", ["123485706", "123045786", "123456780", "120453786"],
         ["123450786", "123405786", "103425786"]),
    ]  # fmt: skip
    assert [s["h"] for s in steps] == [4, 2, 0]
    assert [(c["state"], c["h"]) for c in steps[0]["children"]] == [
        ("123456780", 6), ("123405786", 2), ("120453786", 6)
    ]  # fmt: skip
    assert [(c["state"], c["pruned"]) for c in steps[1]["children"]] == [
        ("123485706", None), ("123450786", "parent"), ("123045786", None), ("103425786", None)
    ]  # fmt: skip
    # lettered as the notes letter them: A the root, B the node examined next
    # (123405786), C and D its brothers, E to G B's children
    assert [s["label"] for s in steps] == ["A", "B", "E"]
    assert {c["label"] for c in steps[0]["children"]} == {"B", "C", "D"}
    assert {c["label"] for c in steps[1]["children"] if c["label"]} == {"E", "F", "G"}
    assert steps[-1]["goal"] and not any(s["goal"] for s in steps[:-1])
    text = trace.steps_text()
    assert "antrian1 (to examine): B C D" in text
    assert "antrian2 (examined): A B" in text
    assert "step 3: P = E 103425786 (g=2, h=0) = goal" in text


def test_the_notes_depth_first_example_step_by_step() -> None:
    # the stack, top first: the first child made is searched first, down to depth 2,
    # where nodes are checked and given no children; then back to the nearest parent
    trace = _steps("dfs", duplicates="parent")
    a, b, c, d = "123450786", "123456780", "123405786", "120453786"
    assert _lists(trace) == [
        (a, [b, c, d], [a]),
        (b, ["123456708", c, d], [a, b]),
        ("123456708", [c, d], [a, b, "123456708"]),
        (c, ["123485706", "123045786", "103425786", d], [a, b, "123456708", c]),
        ("123485706", ["123045786", "103425786", d], [a, b, "123456708", c, "123485706"]),
        ("123045786", ["103425786", d], [a, b, "123456708", c, "123485706", "123045786"]),
        ("103425786", [d], [a, b, "123456708", c, "123485706", "123045786", "103425786"]),
    ]
    steps = trace.steps_to_list()
    assert {c["pruned"] for c in steps[2]["children"]} == {"depth"}  # (at the depth limit)
    assert "open (stack, top first): E C D" in trace.steps_text()


def test_the_notes_breadth_first_example_step_by_step() -> None:
    # level 1 is checked whole, then level 2 from its left: 123456708, 123485706,
    # 123045786, then 103425786 matches; nodes at the depth limit get no children
    trace = _steps("bfs", duplicates="parent")
    a, b, c, d = "123450786", "123456780", "123405786", "120453786"
    e, f, g, goal, i = "123456708", "123485706", "123045786", "103425786", "102453786"
    assert [(node, waiting) for node, waiting, _closed in _lists(trace)] == [
        (a, [b, c, d]),
        (b, [c, d, e]),
        (c, [d, e, f, g, goal]),
        (d, [e, f, g, goal, i]),
        (e, [f, g, goal, i]),
        (f, [g, goal, i]),
        (g, [goal, i]),
        (goal, [i]),
    ]
    assert _lists(trace)[-1][2] == [a, b, c, d, e, f, g, goal]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    strategy=st.sampled_from(
        ["dfs", "bfs", "best-first", "astar", "uniform-cost", "weighted-astar", "idastar"]
    ),
    moves=st.integers(0, 8),
    bounded=st.booleans(),
)
def test_every_step_takes_the_head_of_the_open_list(
    seed: int, strategy: str, moves: int, bounded: bool
) -> None:
    puzzle = lacak.generate("sliding", "walk", "3x3", moves=moves, seed=seed)
    trace = lacak.SearchTrace(describe=puzzle.format_state, steps=True, max_steps=300)
    bounded = bounded or strategy == "dfs"  # (a depth limit keeps copies of states apart)
    limits = Limits(max_depth=moves + 2 if bounded else None, max_expanded=300)
    lacak.solve(puzzle, strategy, limits=limits, trace=trace)
    steps = trace.step_list()
    assert steps, "every search expands its start"
    assert trace.nodes[steps[0].node].parent is None
    for before, step in itertools.pairwise(steps):
        node = trace.nodes[step.node]
        if strategy != "idastar" or node.parent is not None:  # (a new IDA* iteration)
            assert before.open and before.open[0] == step.node
            assert step.closed[:-1] == before.closed and step.closed[-1] == step.node
        made = [c.id for c in step.children if c.pruned is None]
        for child in made:
            assert trace.nodes[child].parent == step.node
        assert set(step.open).isdisjoint(step.closed)


def test_steps_stop_at_max_steps() -> None:
    puzzle = lacak.parse("sliding", "867254301")
    trace = lacak.SearchTrace(steps=True, max_steps=5)
    lacak.solve(puzzle, "bfs", trace=trace, limits=Limits(max_expanded=50))
    assert len(trace.step_list()) == 5 and trace.steps_truncated
    assert "not recorded" in trace.steps_text()


def test_no_steps_unless_asked() -> None:
    puzzle = lacak.parse("sliding", START, goal=GOAL)
    trace = lacak.SearchTrace()
    lacak.solve(puzzle, "astar", trace=trace)
    assert trace.step_list() == [] and not trace.stepping


def test_letters() -> None:
    assert [lacak.trace.letters(n) for n in (0, 6, 25, 26, 51, 52)] == [
        "A", "G", "Z", "AA", "AZ", "BA"
    ]  # fmt: skip


# -- the command line ------------------------------------------------------------------


@pytest.fixture(scope="module")
def cli():  # type: ignore[no-untyped-def]
    return make_cli()


def run(cli, *args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args))


def test_cli_steps_as_the_notes_lay_them_out(cli) -> None:  # type: ignore[no-untyped-def]
    done = run(cli, "sliding", "solve", START, "--goal", GOAL, "-s", "best-first", "-H",
               "weighted", "--max-depth", "2", "-O", "duplicates=parent", "--steps")  # fmt: skip
    assert done.exit_code == 0, done.output
    out = done.stdout
    assert "step 1: P = A 123450786 (g=0, h=4)" in out
    assert "children: B 123405786 (g=1, h=2), C 123456780 (g=1, h=6), D 120453786" in out
    assert "antrian1 (to examine): B C D\n  antrian2 (examined): A\n" in out
    assert "pruned: 123450786 (parent)" in out
    assert "found: 2 moves" in out


def test_cli_steps_json_matches_the_schema(cli) -> None:  # type: ignore[no-untyped-def]
    done = run(cli, "sliding", "solve", START, "--goal", GOAL, "-s", "bfs", "--steps", "--json")
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    Draft202012Validator(SCHEMA).validate(data)
    assert [s["node"] for s in data["steps"]][:2] == [START, "123456780"]
    for key in ("node", "g", "h", "children", "open", "closed"):
        assert key in data["steps"][0]


def test_cli_steps_for_any_kind(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    maze = lacak.generate("maze", "kruskal", (4, 5), seed=3)
    file = tmp_path / "maze.json"
    file.write_text(maze.to_json())
    done = run(cli, "maze", "solve", str(file), "--steps", "--json")
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    Draft202012Validator(SCHEMA).validate(data)
    assert data["strategy"] == "astar" and data["steps"][0]["node"] == data["states"][0]
    assert data["steps"][-1]["node"] == data["states"][-1] and data["steps"][-1]["goal"]
    assert "searching with astar" in done.stderr


def test_cli_steps_refused_by_an_engine_that_records_none(cli) -> None:  # type: ignore[no-untyped-def]
    done = run(cli, "sliding", "solve", START, "--goal", GOAL, "-s", "idastar-tiles", "--steps")
    assert done.exit_code == 2
    assert "records no steps" in done.stderr and "Traceback" not in done.output


def test_the_web_api_bounds_the_steps_it_records() -> None:
    from lacak.web import work

    caps = work.Caps()
    asked = {"puzzle": "867254301", "strategy": "bfs", "steps": caps.max_steps + 1}
    with pytest.raises(lacak.InvalidOptionError, match="at most 500"):
        work.solve("sliding", asked)
    small = work.Caps(max_steps=4, max_step_list=2)
    answer = work.solve("sliding", {**asked, "steps": 4, "limits": {"max_nodes": 100}}, small)
    steps = answer["steps"]
    assert len(steps["list"]) == 4 and steps["truncated"]
    assert steps["open"] == "open (queue, front first)"
    assert all(len(s["open"]) <= 2 for s in steps["list"])
    assert steps["list"][-1]["open_size"] > 2
    with pytest.raises(lacak.InvalidOptionError, match="records no steps"):
        work.solve("sliding", {"puzzle": "867254301", "strategy": "idastar-tiles", "steps": 3})


def test_ties_last_puts_a_new_node_before_its_equals_as_the_notes_queue_does() -> None:
    """The notes insert a node into antrian1 before those of equal value: with
    ``ties="last"`` their first step reads B 123405786, C 120453786, D 123456780."""
    trace = _steps("best-first", heuristic="weighted", duplicates="parent", ties="last")
    first = trace.steps_to_list()[0]
    assert first["open"] == ["123405786", "120453786", "123456780"]
    letters = {c["state"]: c["label"] for c in first["children"]}
    assert letters == {"123405786": "B", "120453786": "C", "123456780": "D"}
    with pytest.raises(lacak.InvalidOptionError, match="first or last"):
        lacak.solve(lacak.parse("sliding", START, goal=GOAL), "best-first",
                    heuristic="weighted", ties="middle")  # fmt: skip


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**16))
def test_ties_change_only_the_order_of_equal_nodes(seed: int) -> None:
    """Either tie rule takes the open node of least h; both find a goal when one exists."""
    puzzle = lacak.generate("sliding", "walk", (3, 3), seed=seed)
    for ties in ("first", "last"):
        trace = lacak.SearchTrace(steps=True)
        result = lacak.solve(puzzle, "best-first", heuristic="manhattan", ties=ties, trace=trace)
        assert result.found
        steps = trace.steps_to_list()
        for before, after in itertools.pairwise(steps):
            assert after["node"] == before["open"][0]

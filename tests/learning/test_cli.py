"""``lacak tasks``: list, make, score from the command line (issue 27, item 2)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from lacak.cli import make_cli


@pytest.fixture(scope="module")
def cli() -> object:
    return make_cli()


def test_make_then_score_the_reference_answers(cli: object) -> None:
    made = CliRunner().invoke(cli, ["tasks", "make", "sliding", "-n", "3", "--level", "2"])
    assert made.exit_code == 0, made.output
    entries = [json.loads(line) for line in made.stdout.splitlines()]
    assert [e["metadata"]["index"] for e in entries] == [0, 1, 2]
    again = CliRunner().invoke(cli, ["tasks", "make", "sliding", "-n", "2", "--level", "2"])
    assert again.stdout.splitlines() == made.stdout.splitlines()[:2]
    answered = [{**e, "response": e["answer"]} for e in entries]
    answered[2]["response"] = "not moves"
    text = "".join(json.dumps(e) + "\n" for e in answered)
    scored = CliRunner().invoke(cli, ["tasks", "score", "-", "--json"], input=text)
    assert scored.exit_code == 0, scored.output
    assert json.loads(scored.stdout) == {"scores": [1.0, 1.0, 0.0], "mean": 2 / 3, "count": 3}


def test_size_and_options_reach_the_task(cli: object) -> None:
    args = [
        "tasks",
        "make",
        "maze",
        "-n",
        "1",
        "--size",
        "5x6",
        "-O",
        "generator=kruskal",
        "--json",
    ]
    made = CliRunner().invoke(cli, args)
    assert made.exit_code == 0, made.output
    entry = json.loads(made.stdout)["entries"][0]
    assert entry["metadata"]["shape"] == "5x6" and entry["metadata"]["generator"] == "kruskal"


def test_list_names_every_task_and_its_levels(cli: object) -> None:
    listed = CliRunner().invoke(cli, ["tasks", "list", "--json"])
    tasks = {row["task"]: row for row in json.loads(listed.stdout)["tasks"]}
    assert {"sliding", "maze", "boggle", "boggle_best"} <= set(tasks)
    assert len(tasks["sliding"]["levels"]) == 9


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["tasks", "make", "slidng"], None, "unknown task"),
        (["tasks", "make", "maze", "--level", "40"], None, "levels 1 to"),
        (["tasks", "make", "maze", "-O", "nokey"], None, "KEY=VALUE"),
        (["tasks", "score", "-"], "not json\n", "line 1 is not JSON"),
        (["tasks", "score", "-"], "[1]\n", "line 1 is not an entry"),
    ],
)
def test_bad_input_is_one_error_line(cli: object, args: list, stdin: str, message: str) -> None:
    result = CliRunner().invoke(cli, args, input=stdin)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output

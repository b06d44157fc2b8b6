"""``lacak batch KIND --task``: task datasets through the batch engine (issue 27, item 5):
the same entries as :func:`lacak.tasks.create_dataset`, the same bytes on any executor,
resumable byte for byte, traces, and one-line errors for bad input."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import lacak
import lacak.tasks as tasks
import pytest
from click.testing import CliRunner
from lacak.batch import dataset, job_seed
from lacak.cli import make_cli

#: (kind, task, level, options): every task of the built-in kinds, small.
CASES = [
    ("sliding", "sliding", 2, {}),
    ("sliding", "sliding", 1, {"shape": "2x3"}),
    ("maze", "maze", 1, {}),
    ("maze", "maze", 2, {"shape": "5x9", "braid": 0.5}),
    ("boggle", "boggle", 1, {}),
    ("boggle", "boggle_best", 2, {}),
]


def cli(*args: str) -> Any:
    return CliRunner().invoke(make_cli(), ["batch", *args])


def entry_of(record: dict[str, Any]) -> dict[str, Any]:
    return {key: record[key] for key in ("question", "answer", "metadata")}


@pytest.mark.parametrize(("kind", "task", "level", "options"), CASES)
def test_records_are_the_entries_create_dataset_makes(
    kind: str, task: str, level: int, options: dict[str, Any]
) -> None:
    spec = dataset.spec(kind, task=task, level=level, task_options=options)
    lines = [r.line for r in dataset.records(spec, count=4, seed=11, workers=1)]
    made = tasks.create_dataset(task, size=4, seed=11, level=level, **options)
    records = [json.loads(line) for line in lines]
    assert [entry_of(r) for r in records] == list(made)
    assert [list(r) for r in records] == [
        ["index", "seed", "ok", "question", "answer", "metadata", "digest"]
    ] * 4
    for index, record in enumerate(records):
        assert record["index"] == index and record["ok"]
        assert record["seed"] == job_seed(11, index) == tasks.entry_seed(11, index)
        assert tasks.score_answer(record["answer"], record) == 1.0


def test_the_cli_writes_the_same_entries_as_tasks_make(tmp_path: Path) -> None:
    out = tmp_path / "maze.jsonl"
    result = cli("maze", "--task", "-n", "5", "--seed", "3", "--level", "2", "--size", "7x7",
                 "-w", "1", "-o", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    made = CliRunner().invoke(make_cli(), ["tasks", "make", "maze", "-n", "5", "--seed", "3",
                                           "--level", "2", "--size", "7x7"])  # fmt: skip
    assert made.exit_code == 0, made.output
    expected = [json.loads(line) for line in made.stdout.splitlines()]
    assert [entry_of(json.loads(line)) for line in out.read_text().splitlines()] == expected


@pytest.mark.parametrize(("kind", "args"), [
    ("sliding", ["--task", "--level", "3"]),
    ("maze", ["--task", "maze", "--level", "2", "-O", "braid=0.3"]),
    ("boggle", ["--task", "boggle_best", "--level", "1"]),
])  # fmt: skip
def test_one_process_and_two_workers_write_the_same_bytes(
    tmp_path: Path, kind: str, args: list[str]
) -> None:
    files = {}
    for name, how in (("one", ["-w", "1"]), ("two", ["-w", "2", "--chunk-size", "2"])):
        out = tmp_path / f"{name}.jsonl.gz"
        result = cli(kind, *args, "-n", "12", "--seed", "4", *how, "-o", str(out))
        assert result.exit_code == 0, result.output
        files[name] = out.read_bytes()
    assert files["one"] == files["two"]


@pytest.mark.parametrize("name", ["t.jsonl", "t.jsonl.gz"])
@pytest.mark.parametrize("cut", [0, 1, 7])
def test_resume_finishes_a_cut_file_byte_for_byte(tmp_path: Path, name: str, cut: int) -> None:
    whole, part = tmp_path / "whole" / name, tmp_path / "part" / name
    whole.parent.mkdir(), part.parent.mkdir()
    args = ["sliding", "--task", "--level", "2", "-n", "12", "--seed", "9"]
    assert cli(*args, "-w", "1", "-o", str(whole)).exit_code == 0
    data = whole.read_bytes()
    lines = (gzip.decompress(data) if name.endswith(".gz") else data).splitlines(keepends=True)
    kept = b"".join(lines[:cut]) + lines[cut][:30]  # a crash in the middle of a line
    part.write_bytes(gzip.compress(kept, mtime=0)[:-8] if name.endswith(".gz") else kept)
    result = cli(*args, "-o", str(part), "--resume", "-w", "2", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert (summary["records"], summary["written"]) == (12, 12 - cut)
    assert part.read_bytes() == data


def test_resume_refuses_another_level_or_seed(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    assert cli("maze", "--task", "-n", "3", "--seed", "2", "-o", str(out)).exit_code == 0
    level = cli("maze", "--task", "--level", "2", "-n", "6", "--seed", "2", "-o", str(out),
                "--resume")  # fmt: skip
    assert level.exit_code == 2 and "was not written by this command" in level.stderr
    seed = cli("maze", "--task", "-n", "6", "--seed", "5", "-o", str(out), "--resume")
    assert seed.exit_code == 2 and "not a record of this batch" in seed.stderr
    plain = cli("maze", "--size", "4x4", "-n", "6", "--seed", "2", "-o", str(out), "--resume")
    assert plain.exit_code == 2 and "was not written by this command" in plain.stderr
    more = cli("maze", "--task", "-n", "6", "--seed", "2", "-o", str(out), "--resume")
    assert more.exit_code == 0 and len(out.read_text().splitlines()) == 6


@pytest.mark.parametrize("kind", ["maze", "sliding"])
def test_a_trace_is_the_token_search_of_the_entry_s_puzzle(kind: str) -> None:
    spec = dataset.spec(kind, task=kind, level=1, trace="tokens")
    assert spec.strategy == "astar"
    records = [json.loads(r.line) for r in dataset.records(spec, count=3, seed=1, workers=1)]
    made = tasks.create_dataset(kind, size=3, seed=1, level=1)
    assert [entry_of(r) for r in records] == list(made)
    for record in records:
        words = record["tokens"].split()
        assert words[0] == "create" and "plan" in words
        # the plan is the reference answer's length: astar is optimal on these puzzles
        assert words.count("plan") == record["metadata"]["optimal_length"] + 1


@pytest.mark.parametrize(("args", "message"), [
    (["maze", "--task", "queens"], "the maze kind has no task 'queens' (its tasks: maze)"),
    (["boggle", "--task", "--level", "9"], "task 'boggle' has levels 1 to 6, got 9"),
    (["boggle", "--task", "boggle_best", "--level", "0"], "--level"),
    (["sliding", "--level", "2"], "--level is a task's level: give --task too"),
    (["sliding", "--task", "-a", "uniform"], "a task batch (--task) takes no -a"),
    (["maze", "--task", "--solve"], "a task batch (--task) takes no --solve"),
    (["maze", "--task", "--min-solution-length", "3"], "takes no --min-solution-length"),
    (["maze", "--task", "-s", "bfs"], "a strategy needs --trace tokens"),
    (["maze", "--task", "-O", "colour=red"], "task 'maze' has no option 'colour'"),
    (["maze", "--task", "-O", "braid=lots"], "task 'maze' option 'braid' must be a float"),
    (["boggle", "--task", "--size", "4x4"], "task 'boggle' takes no size"),
    (["boggle", "--task", "--trace", "tokens"], "task 'boggle' has no search trace"),
    (["maze", "--task", "-o", "x.npz"], "a task batch's entries are text"),
    (["maze", "--task", "--level", "2", "--size", "2x2"], "has no path of 7 steps"),
])  # fmt: skip
def test_bad_input_is_one_line(tmp_path: Path, monkeypatch: Any, args: list[str],
                               message: str) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    result = cli(*args, "-n", "2", "-w", "1")
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output and len(result.stderr.strip().splitlines()) == 1


def test_a_kind_with_several_tasks_wants_one_named() -> None:
    # boggle's own task is the default; a kind with no task named after it lists them
    result = cli("boggle", "--task", "-n", "1", "-w", "1")
    assert result.exit_code == 0 and json.loads(result.stdout)["metadata"]["task"] == "boggle"
    result = cli("queens", "--task", "-n", "1")
    assert result.exit_code == 2 and "the queens kind declares no task" in result.stderr


def test_the_api_refuses_task_options_without_a_task() -> None:
    with pytest.raises(lacak.InvalidOptionError, match="for a task's batch"):
        dataset.spec("maze", level=2)
    with pytest.raises(lacak.InvalidOptionError, match="takes no --size"):
        dataset.spec("maze", task="maze", size=(5, 5))

"""Searches as Searchformer token traces (issue 27): written, replayed, and every mutation
of one rejected."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import lacak
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak import Limits
from lacak.cli import make_cli
from lacak.testing import strategies as lst
from lacak.tokens import TraceMismatchError, replay_tokens, tokens

#: Strategy -> the heuristic it searches sliding boards with.
SLIDING = {
    "astar": "manhattan",
    "uniform-cost": None,
    "best-first": "misplaced",
    "bfs": None,
    "dfs": None,
}


def _record(
    puzzle: Any, strategy: str, heuristic: str | None, **limits: Any
) -> tuple[Any, list[str], Any]:
    trace = lacak.SearchTrace(describe=lambda s: lacak.describe_state(puzzle, s))
    result = lacak.solve(
        puzzle, strategy, heuristic=heuristic or "none" if strategy != "best-first" else heuristic,
        limits=Limits(**limits), trace=trace,
    )  # fmt: skip
    words = tokens(trace, result.states if result.found else None)
    resolved = lacak.resolve_heuristic(puzzle, heuristic) if heuristic else None
    return result, words, resolved


def test_the_notes_example_as_tokens() -> None:
    puzzle = lacak.parse("sliding", "123450786", goal="103425786")
    result, words, h = _record(puzzle, "astar", "manhattan")
    assert " ".join(words) == (
        "create 123450786 c0 c2 close 123450786 c0 c2 "
        "create 123456780 c1 c3 create 123405786 c1 c1 create 120453786 c1 c3 "
        "close 123405786 c1 c1 "
        "create 123485706 c2 c2 create 123045786 c2 c2 create 103425786 c2 c0 "
        "close 103425786 c2 c0 plan 123450786 plan 123405786 plan 103425786"
    )
    assert replay_tokens(puzzle, words, "astar", heuristic=h) == result.stats.expanded == 3


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 10),
    strategy=st.sampled_from(sorted(SLIDING)),
)
def test_random_sliding_traces_replay(seed: int, moves: int, strategy: str) -> None:
    puzzle = lacak.generate("sliding", "walk", "3x3", moves=moves, seed=seed)
    depth = {"max_depth": moves} if strategy == "dfs" else {}
    result, words, h = _record(puzzle, strategy, SLIDING[strategy], **depth)
    assert result.found
    closes = replay_tokens(puzzle, words, strategy, heuristic=h, max_depth=depth.get("max_depth"))
    assert closes == result.stats.expanded


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), strategy=st.sampled_from(["astar", "bfs", "best-first"]))
def test_random_maze_traces_replay(seed: int, strategy: str) -> None:
    maze = lacak.generate("maze", "kruskal", (5, 6), seed=seed).with_endpoints()
    puzzle = lacak.parse("maze", maze.to_json())
    heuristic = None if strategy == "bfs" else "manhattan"
    result, words, h = _record(puzzle, strategy, heuristic)
    assert words[:3] == ["create", *map(str, puzzle.initial)]  # a cell: row col
    assert replay_tokens(puzzle, words, strategy, heuristic=h) == result.stats.expanded


@settings(max_examples=40, deadline=None)
@given(graph=lst.graph_puzzles(max_states=10, unit_costs=False),
       strategy=st.sampled_from(["astar", "uniform-cost", "bfs"]))  # fmt: skip
def test_random_graph_traces_replay_found_or_not(graph: Any, strategy: str) -> None:
    """Any step costs (A* without a heuristic reopens states); no goal: an exhausted trace."""
    trace = lacak.SearchTrace()
    zero = (lambda _puzzle, _state: 0) if strategy == "astar" else None
    result = lacak.solve(graph, strategy, heuristic=zero, trace=trace)
    words = tokens(trace, result.states if result.found else None)
    assert replay_tokens(graph, words, strategy) == result.stats.expanded


def _events(words: list[str], width: int = 1) -> list[tuple[int, int]]:
    """(start, end) of each create/close event."""
    spans, at = [], 0
    while at < len(words) and words[at] != "plan":
        spans.append((at, at + 3 + width))
        at += 3 + width
    return spans


def _bump(word: str) -> str:
    return f"c{float(word[1:]) + 1:g}"


MUTATIONS = ["g", "h", "drop-create", "twice", "drop-goal", "plan-skip", "cut", "word", "order"]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), mutation=st.sampled_from(MUTATIONS), pick=st.integers(0, 999))
def test_every_mutation_is_rejected(seed: int, mutation: str, pick: int) -> None:
    puzzle = lacak.generate("sliding", "walk", "3x3", moves=6, seed=seed)
    result, words, h = _record(puzzle, "astar", "manhattan")
    if result.length < 2:
        return  # (a path too short to mutate every way)
    spans = _events(words)
    creates = [s for s in spans[1:] if words[s[0]] == "create"]
    w = list(words)
    if mutation == "g":
        at = creates[pick % len(creates)][0]
        w[at + 2] = _bump(w[at + 2])
    elif mutation == "h":
        at = spans[pick % len(spans)][0]
        w[at + 3] = _bump(w[at + 3])
    elif mutation == "drop-create":
        start, end = creates[pick % len(creates)]
        del w[start:end]
    elif mutation == "twice":
        start, end = creates[pick % len(creates)]
        w[end:end] = w[start:end]
    elif mutation == "drop-goal":
        start, end = spans[-1]
        assert w[start] == "close"
        del w[start:end]
    elif mutation == "plan-skip":
        plans = [i for i, word in enumerate(w) if word == "plan"]
        del w[plans[1] : plans[1] + 2]  # (a state of the plan left out)
    elif mutation == "cut":
        start, _end = spans[pick % len(spans)]
        del w[start + 2 :]
    elif mutation == "word":
        w[spans[pick % len(spans)][0]] = "open"
    else:  # a close moved before the creates of the node closed before it
        closes = [s for s in spans[1:] if words[s[0]] == "close"]
        if len(closes) < 2:
            return
        second = closes[1]
        first_create = next(s for s in creates if s[0] > closes[0][0])
        moved = w[second[0] : second[1]]
        del w[second[0] : second[1]]
        w[first_create[0] : first_create[0]] = moved
    with pytest.raises(TraceMismatchError):
        replay_tokens(puzzle, w, "astar", heuristic=h)


def test_a_trace_of_another_strategy_is_rejected() -> None:
    puzzle = lacak.parse("sliding", "867254301")
    _result, words, h = _record(puzzle, "best-first", "misplaced", max_expanded=10_000)
    with pytest.raises(TraceMismatchError):
        replay_tokens(puzzle, words, "astar", heuristic=h)


def test_tokens_refuse_a_cut_trace_and_idastar() -> None:
    puzzle = lacak.parse("sliding", "867254301")
    trace = lacak.SearchTrace(max_nodes=10)
    result = lacak.solve(puzzle, "bfs", trace=trace, limits=Limits(max_expanded=50))
    with pytest.raises(lacak.InvalidOptionError, match="cut at 10 nodes"):
        tokens(trace, result.states)
    trace = lacak.SearchTrace()
    lacak.solve(lacak.parse("sliding", "123405786"), "idastar", trace=trace)
    with pytest.raises(lacak.InvalidOptionError, match="IDA"):
        tokens(trace)
    with pytest.raises(lacak.InvalidOptionError, match="replay_tokens checks"):
        replay_tokens(puzzle, ["create"], "idastar")


@pytest.fixture(scope="module")
def cli():  # type: ignore[no-untyped-def]
    return make_cli()


def test_cli_tokens_for_sliding_and_mazes(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    runner = CliRunner()
    done = runner.invoke(cli, ["sliding", "solve", "123450786", "--goal", "103425786",
                               "--trace-format", "tokens"])  # fmt: skip
    assert done.exit_code == 0, done.output
    assert done.stdout.startswith("create 123450786 c0 c2 close 123450786 c0 c2 create")
    maze = lacak.generate("maze", "kruskal", (4, 4), seed=2)
    file = tmp_path / "maze.json"
    file.write_text(maze.to_json())
    out = tmp_path / "trace.txt"
    done = runner.invoke(cli, ["maze", "solve", str(file), "-s", "astar", "--trace", str(out),
                               "--trace-format", "tokens"])  # fmt: skip
    assert done.exit_code == 0, done.output
    words = out.read_text().split()
    puzzle = lacak.parse("maze", maze.to_json())
    h = lacak.resolve_heuristic(puzzle, "manhattan")
    assert replay_tokens(puzzle, words, "astar", heuristic=h) >= 1
    done = runner.invoke(cli, ["maze", "solve", str(file), "-s", "bfs", "--json",
                               "--trace-format", "tokens"])  # fmt: skip
    data = json.loads(done.stdout)
    assert data["tokens"][:1] == ["create"] and data["tokens"][-3] == "plan"
    assert replay_tokens(puzzle, data["tokens"], "bfs") == data["stats"]["expanded"]


@pytest.mark.parametrize("kind", ["sliding", "maze"])
def test_batch_records_hold_token_traces_that_replay(cli, tmp_path: Path, kind: str) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "traces.jsonl"
    size = "3x3" if kind == "sliding" else "4x5"
    done = CliRunner().invoke(cli, ["batch", kind, "-n", "3", "--seed", "4", "--size", size,
                                    "--trace", "tokens", "-o", str(out)])  # fmt: skip
    assert done.exit_code == 0, done.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 3
    for record in records:
        result = record["result"]
        assert result["strategy"] == "astar" and record["tokens"].startswith("create ")
        if kind == "sliding":
            instance = record["instance"]
            puzzle = lacak.parse("sliding", instance["board"], goal=instance["goal"])
        else:
            puzzle = lacak.parse("maze", json.dumps(record["instance"]))
        h = lacak.resolve_heuristic(puzzle, result["heuristic"])
        closes = replay_tokens(puzzle, record["tokens"], "astar", heuristic=h)
        assert closes == result["stats"]["expanded"]


def test_a_plain_trace_writes_the_puzzle_s_text_when_given_the_puzzle() -> None:
    puzzle = lacak.parse("sliding", "123405786")
    trace = lacak.SearchTrace()  # (describe=str: a board's tuple)
    result = lacak.solve(puzzle, "bfs", trace=trace)
    with pytest.raises(TraceMismatchError, match="starts with create 123405786"):
        replay_tokens(puzzle, tokens(trace, result.states), "bfs")
    assert replay_tokens(puzzle, tokens(trace, result.states, puzzle=puzzle), "bfs") >= 1

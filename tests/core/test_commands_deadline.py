"""``lacak KIND solve --timeout T``: the clock starts with the command, so reading and preparing
the puzzle count, for every kind (issue 11; the maze command did it alone before)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import attrs
import lacak
import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator
from lacak.cli import make_cli, output_format

from .plugin_helpers import CorePlugin, make_registry

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "docs" / "result.schema.json").read_text("utf-8")
)


@attrs.frozen
class Slow:
    """Reach 2 from 1 by ``+1``: a puzzle whose reading takes ``seconds``."""

    kind = "slow"
    initial = 1

    def is_goal(self, state: int) -> bool:
        return state == 2

    def successors(self, state: int) -> Any:
        yield "+1", state + 1, 1.0


def _parse(text: str, refuse: bool = False) -> Slow:
    """Reads for ``text`` seconds, looking at the deadline as long set-up work does."""
    if refuse:  # a plugin's own limit, not the command's clock
        raise lacak.LimitReachedError("the slow puzzle refuses to be read")
    ends = time.perf_counter() + float(text)
    while time.perf_counter() < ends:
        time.sleep(0.01)
        lacak.check_deadline("reading the slow puzzle")
    return Slow()


class SlowPlugin:
    @lacak.hookimpl
    def register_puzzles(self, register: Any) -> None:
        register(lacak.PuzzleType(kind="slow", parse=_parse, options={"refuse": False}))


def run(*args: str) -> Any:
    registry = make_registry(CorePlugin(), SlowPlugin())
    return CliRunner().invoke(make_cli(registry), ["slow", "solve", *args])


def test_a_timeout_while_reading_is_a_search_stopped_by_the_time_limit() -> None:
    started = time.perf_counter()
    text = run("5", "-s", "test-dijkstra", "--timeout", "0.2")
    assert time.perf_counter() - started < 4  # not the five seconds of reading
    assert text.exit_code == 1, text.output
    assert text.stdout.startswith("not found: --timeout was reached before the search began")
    assert "while reading the slow puzzle" in text.stdout
    data = json.loads(run("5", "--timeout", "0.2", "-H", "none", "--json").stdout)
    assert not list(Draft202012Validator(SCHEMA).iter_errors(data))
    assert data["found"] is False and data["stopped"] == "time-limit"
    assert data["kind"] == "slow" and data["states"] == [] and data["heuristic"] is None
    assert data["strategy"] == "none"  # no strategy was chosen: there was no puzzle yet
    asked = json.loads(run("5", "-s", "test-dijkstra", "--timeout", "0.2", "--json").stdout)
    assert asked["strategy"] == "test-dijkstra"


def test_the_same_puzzle_in_time_is_solved() -> None:
    result = run("0.05", "-s", "test-dijkstra", "--timeout", "60")
    assert result.exit_code == 0, result.output
    assert "found: 1 move with test-dijkstra" in result.stdout


def test_a_limit_error_that_is_not_the_clock_is_bad_input() -> None:
    result = run("0", "-s", "test-dijkstra", "--refuse", "--timeout", "60")
    assert result.exit_code == 2
    assert "the slow puzzle refuses to be read" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("json", "m.svg", False), "-f json contradicts -o m.svg"),
        ((None, "m.svg", True), "--json contradicts -o m.svg"),
        (("svg", "m.png", False), "-f svg contradicts -o m.png"),
    ],
)
def test_a_contradiction_names_the_flag_given(args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(lacak.InvalidOptionError, match=message):
        output_format(*args, ("text", "svg", "png"))

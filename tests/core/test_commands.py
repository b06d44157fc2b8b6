"""The command kit: ``lacak KIND solve`` for a kind that has no command code at all."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import lacak
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from lacak.cli import make_cli, output_format
from lacak.output import dumps, summarise
from lacak.results import COMMON_KEYS

from .plugin_helpers import CorePlugin, make_registry


@attrs.frozen
class Counter:
    """Reach ``target`` from 1 by ``+1`` and ``*2``: a puzzle kind of the test's own."""

    target: int
    kind = "counter"
    initial = 1

    def is_goal(self, state: int) -> bool:
        return state == self.target

    def successors(self, state: int) -> Any:
        if state < 4 * self.target:
            yield "+1", state + 1, 1.0
            yield "*2", state * 2, 1.0

    def format_state(self, state: int) -> str:
        return f"n={state}"


def _parse(text: str, limit: int = 0) -> Counter:
    try:
        target = int(text)
    except ValueError:
        raise lacak.InvalidPuzzleError(f"a counter puzzle is a whole number, got {text!r}") from None
    if target < 1 or (limit and target > limit):
        raise lacak.InvalidPuzzleError(f"the target must be between 1 and {limit or 'any'}")
    return Counter(target)


class CounterPlugin:
    @lacak.hookimpl
    def register_puzzles(self, register: Any) -> None:
        register(
            lacak.PuzzleType(
                kind="counter",
                parse=_parse,
                options={"limit": 0},
                help={"limit": "Refuse targets above this."},
                description="reach a number from 1 by +1 and *2",
                example="10",
                extras=lambda puzzle, result: {"counter": {"target": puzzle.target}},
                advice=lambda puzzle, result: "raise --max-nodes",
            )
        )


def run(*args: str, input: str | None = None) -> Any:
    registry = make_registry(CorePlugin(), CounterPlugin())
    return CliRunner().invoke(make_cli(registry), list(args), input=input)


def test_a_kind_without_command_code_gets_lacak_kind_solve() -> None:
    result = run("counter", "solve", "10", "-s", "test-dijkstra")
    assert result.exit_code == 0, result.output
    assert "found: 4 moves with test-dijkstra" in result.output
    assert "n=1 -> n=2 -> n=4 -> n=5 -> n=10" in result.output


def test_json_has_the_common_shape_and_the_kind_s_extras() -> None:
    result = run("counter", "solve", "10", "-s", "test-dijkstra", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data)[: len(COMMON_KEYS)] == list(COMMON_KEYS)
    assert data["kind"] == "counter" and data["length"] == 4
    assert data["actions"] == ["+1", "*2", "+1", "*2"]
    assert data["states"][0] == "n=1"
    assert data["counter"] == {"target": 10}
    assert '"actions": ["+1", "*2", "+1", "*2"]' in result.stdout  # short arrays on one line


def test_solve_is_the_same_through_the_library_and_the_command() -> None:
    registry = make_registry(CorePlugin(), CounterPlugin())
    puzzle = lacak.parse("counter", "37", registry=registry)
    library = lacak.solve(puzzle, "test-dijkstra", registry=registry)
    result = CliRunner().invoke(
        make_cli(registry), ["counter", "solve", "37", "-s", "test-dijkstra", "--json"]
    )
    data = json.loads(result.stdout)
    expected = lacak.result_json(library, puzzle, registry=registry)
    data["stats"].pop("seconds"), expected["stats"].pop("seconds")
    assert data == json.loads(dumps(expected))


def test_declared_parse_options_become_flags() -> None:
    result = run("counter", "solve", "50", "--limit", "20", "-s", "test-dijkstra")
    assert result.exit_code == 2
    assert result.stderr.strip() == "Error: the target must be between 1 and 20"


def test_standard_input_is_read_for_dash() -> None:
    result = run("counter", "solve", "-", "-s", "test-dijkstra", "--json", input="6\n")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["length"] == 3


def test_a_limit_is_exit_status_1_with_the_kind_s_advice() -> None:
    result = run("counter", "solve", "1000", "-s", "test-dijkstra", "--max-nodes", "3")
    assert result.exit_code == 1
    assert "not found with test-dijkstra: --max-nodes was reached" in result.output
    assert "hint: raise --max-nodes" in result.output


def test_unknown_strategy_lists_only_those_for_the_kind() -> None:
    result = run("counter", "solve", "10", "-s", "nosuch")
    assert result.exit_code == 2
    assert "unknown strategy 'nosuch' for counter puzzles" in result.stderr


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["-f", "json", "-o", "x.svg"], "-f json contradicts -o x.svg"),
        (["--json", "-f", "text"], "--json prints JSON; it cannot go with -f text"),
        (["-o", "x.svg"], "this kind draws text, json, not svg"),
        (["-O", "nokey"], "-O takes KEY=VALUE"),
        (["-O", "x=1"], "has no option 'x'"),
        (["--trace", "t.gif"], "--trace writes .json, .dot, .svg or .png files, not 't.gif'"),
    ],
)
def test_bad_output_and_option_combinations_are_one_line(args: list[str], fragment: str) -> None:
    with CliRunner().isolated_filesystem():
        result = run("counter", "solve", "10", "-s", "test-dijkstra", *args)
    assert result.exit_code == 2, result.output
    assert fragment in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_output_to_a_json_file_and_traces_in_three_formats(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    for suffix in (".json", ".dot", ".svg"):
        trace = tmp_path / f"tree{suffix}"
        result = run(
            "counter", "solve", "6", "-s", "test-dijkstra", "-o", str(out), "--trace", str(trace)
        )
        assert result.exit_code == 0, result.output
        assert trace.stat().st_size > 0
    assert json.loads(out.read_text())["length"] == 3
    assert (tmp_path / "tree.svg").read_text().startswith("<svg")
    assert json.loads((tmp_path / "tree.json").read_text())["nodes"][0]["state"] == "n=1"


def test_tree_is_cut_to_the_terminal_with_a_note() -> None:
    result = run("counter", "solve", "300", "-s", "test-dijkstra", "--tree")
    assert result.exit_code == 0
    assert "more nodes" in result.output
    assert "--trace FILE.svg" in result.stderr


@given(st.lists(st.text(min_size=1, max_size=3), max_size=120), st.booleans())
def test_summarise_keeps_both_ends_and_counts_the_rest(items: list[str], full: bool) -> None:
    text = summarise(items, full=full, noun="move")
    if full or len(items) <= 40:
        assert text == " ".join(items)
    else:
        assert text.startswith(" ".join(items[:12]))
        assert text.endswith(" ".join(items[-12:]))
        assert f"({len(items) - 24} moves more" in text


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
        lambda children: st.lists(children, max_size=30)
        | st.dictionaries(st.text(max_size=5), children, max_size=5),
        max_leaves=60,
    )
)
def test_dumps_reads_back_as_json_dumps(data: Any) -> None:
    assert json.loads(dumps(data)) == json.loads(json.dumps(data))


@pytest.mark.parametrize(
    ("format", "output", "as_json", "expected"),
    [
        (None, None, False, "text"),
        (None, "m.svg", False, "svg"),
        (None, "m.PNG", False, "png"),
        ("svg", "m.svg", False, "svg"),
        (None, None, True, "json"),
        (None, "out.txt", False, "text"),
        (None, "noext", False, "text"),
    ],
)
def test_output_format_follows_flag_then_suffix(
    format: str | None, output: str | None, as_json: bool, expected: str
) -> None:
    assert output_format(format, output, as_json, ("text", "svg", "png")) == expected


# -- what a kind may need of the kit ----------------------------------------------------------


@attrs.frozen
class Slow:
    """A puzzle whose parse takes long (like loading a large word list) and checks the
    deadline as lacak's long preparation work does."""

    kind = "slow"
    initial = 0

    def is_goal(self, state: int) -> bool:
        return state == 3

    def successors(self, state: int) -> Any:
        yield "+1", state + 1, 1.0


def _slow_parse(text: str, seconds: str = "0") -> Slow:
    import time

    until = time.perf_counter() + float(seconds)
    while time.perf_counter() < until:
        lacak.check_deadline("reading a slow puzzle")
        time.sleep(0.01)
    seen.append(lacak.default_registry())
    return Slow()


seen: list[Any] = []


class SlowPlugin:
    @lacak.hookimpl
    def register_puzzles(self, register: Any) -> None:
        register(
            lacak.PuzzleType(
                kind="slow",
                parse=_slow_parse,
                options={"seconds": None},
                flags={"seconds": "-S"},
                advice=lambda puzzle, result: "try again",
            )
        )


def run_slow(*args: str) -> Any:
    registry = make_registry(CorePlugin(), SlowPlugin())
    return registry, CliRunner().invoke(make_cli(registry), ["slow", "solve", *args])


def test_timeout_counts_reading_the_puzzle() -> None:
    import time

    started = time.perf_counter()
    _registry, result = run_slow("x", "-S", "30", "-s", "test-dijkstra", "--timeout", "0.3")
    assert time.perf_counter() - started < 20  # 0.3 s + slack for a loaded machine, not 30 s
    assert result.exit_code == 1
    assert result.stdout.startswith("not found: --timeout was reached before the search began")
    assert "the time limit was reached while reading a slow puzzle" in result.stdout


def test_a_kind_s_code_sees_the_command_line_s_registry_and_short_flags() -> None:
    seen.clear()
    registry, result = run_slow("x", "-S", "0", "-s", "test-dijkstra")
    assert result.exit_code == 0, result.output
    assert seen == [registry]  # not the process-wide registry
    help_text = CliRunner().invoke(make_cli(registry), ["slow", "solve", "--help"]).stdout
    assert "-S, --seconds" in help_text


@pytest.mark.parametrize(
    ("flags", "fragment"),
    [
        ({"seconds": "-s"}, "but every solve command has it"),
        ({"seconds": "-xy"}, "a dash and one letter"),
        ({"other": "-x"}, "which is not one of its options"),
    ],
)
def test_short_flags_the_kit_cannot_offer_are_refused(flags: dict[str, str], fragment: str) -> None:
    from lacak.cli import solve_command

    class BadFlags:
        @lacak.hookimpl
        def register_puzzles(self, register: Any) -> None:
            register(lacak.PuzzleType(kind="slow", parse=_slow_parse,
                                      options={"seconds": None}, flags=flags))  # fmt: skip

    registry = make_registry(CorePlugin(), BadFlags())
    with pytest.raises(lacak.InvalidOptionError, match=fragment):
        solve_command("slow", registry=registry)


class Partial:
    """Results that carry what was found so far when a limit stops them (like Boggle's)."""

    @lacak.hookimpl
    def register_searchers(self, register: Any) -> None:
        def search(puzzle: Any, **_kwargs: Any) -> lacak.SearchResult:
            return lacak.SearchResult(
                found=True, actions=("+1",), states=(0, 1), cost=1.0,
                stopped=lacak.StopReason.NODES,
            )  # fmt: skip

        register(lacak.Searcher(name="partial", search=search, kinds={"slow"}))


def test_a_partial_result_exits_1_with_a_note() -> None:
    registry = make_registry(CorePlugin(), SlowPlugin(), Partial())
    cli = make_cli(registry)
    for args in ([], ["--json"]):
        result = CliRunner().invoke(cli, ["slow", "solve", "x", "-s", "partial", "--max-nodes",
                                          "7", *args])  # fmt: skip
        assert result.exit_code == 1, result.output
        assert result.stderr == (
            "note: stopped early (node-limit: --max-nodes 7 was reached); try again\n"
        )
    done = CliRunner().invoke(cli, ["slow", "solve", "x", "-s", "test-dijkstra"])
    assert done.exit_code == 0 and done.stderr == ""

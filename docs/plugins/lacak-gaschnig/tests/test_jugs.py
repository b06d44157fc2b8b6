"""The water-jug kind, tested the way a plugin author would: against a brute-force model,
with lacak.testing's contracts, and through the ``lacak`` command it gets for free."""

from __future__ import annotations

import doctest
import itertools
import json
import os
import shutil
import subprocess
import sys
from collections import deque
from pathlib import Path
from typing import Any

import lacak
import lacak_jugs
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.cli import make_cli
from lacak.output import dumps
from lacak.testing import HeuristicContract, one_line_error, only_lacak_errors, replay
from lacak.testing import strategies as lst

# ---------------------------------------------------------------- a model of the rules


def model_moves(capacities: tuple[int, ...], state: tuple[int, ...], tap: bool) -> set[tuple]:
    """Every contents one move away, written from the rules and nothing else."""
    out = set()
    jugs = range(len(capacities))
    for i in jugs:
        if tap:
            out.add(tuple(capacities[k] if k == i else state[k] for k in jugs))
            out.add(tuple(0 if k == i else state[k] for k in jugs))
        for j in jugs:
            if i != j:
                both = state[i] + state[j]
                into = min(capacities[j], both)
                out.add(tuple(into if k == j else both - into if k == i else state[k] for k in jugs))
    out.discard(state)
    return out


def model_fewest_moves(
    capacities: tuple[int, ...], start: tuple[int, ...], target: Any, tap: bool
) -> int | None:
    """Brute-force breadth-first search over every contents: the fewest moves, or None."""

    def goal(state: tuple[int, ...]) -> bool:
        return state == target if isinstance(target, tuple) else target in state

    distance = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if goal(state):
            return distance[state]
        for following in model_moves(capacities, state, tap):
            if following not in distance:
                distance[following] = distance[state] + 1
                queue.append(following)
    return None


def every_state(capacities: tuple[int, ...]) -> list[tuple[int, ...]]:
    return list(itertools.product(*(range(c + 1) for c in capacities)))


# ---------------------------------------------------------------- instances


@st.composite
def jug_instances(draw: st.DrawFn, exact: bool | None = None) -> dict[str, Any]:
    """Small random instances: 1 to 3 jugs of 1 to 6 litres, any start, either kind of target."""
    capacities = tuple(draw(st.lists(st.integers(1, 6), min_size=1, max_size=3)))
    within = st.tuples(*(st.integers(0, c) for c in capacities))
    exact = draw(st.booleans()) if exact is None else exact
    target = draw(within) if exact else draw(st.integers(0, max(capacities)))
    start = draw(within) if draw(st.booleans()) else (0,) * len(capacities)
    tap = draw(st.booleans())
    text = ",".join(map(str, capacities)) + ":" + (
        ",".join(map(str, target)) if isinstance(target, tuple) else str(target)
    )
    return {"capacities": capacities, "start": start, "target": target, "tap": tap, "text": text}


def as_puzzle(instance: dict[str, Any]) -> Any:
    return lacak.parse(
        "jugs",
        instance["text"],
        start=",".join(map(str, instance["start"])),
        tap=instance["tap"],
    )


def fewest(instance: dict[str, Any]) -> int | None:
    return model_fewest_moves(
        instance["capacities"], instance["start"], instance["target"], instance["tap"]
    )


def jug_puzzles(exact: bool | None = None) -> st.SearchStrategy[Any]:
    return jug_instances(exact).map(as_puzzle)


# ---------------------------------------------------------------- the puzzle


def test_the_module_s_examples() -> None:
    assert doctest.testmod(lacak_jugs).failed == 0


@pytest.mark.parametrize(
    ("text", "options", "moves"),
    [
        ("3,5:4", {}, 6),  # Die Hard with a Vengeance
        ("8,5,3:4,4,0", {"start": "8,0,0", "tap": False}, 7),  # Tartaglia: share 8 fairly
        ("3,5:5", {}, 1),
        ("3,5:0", {}, 0),  # the start is a goal
        ("2,4:3", {}, None),  # 3 is no multiple of gcd(2, 4)
        ("8,5,3:4,4,0", {"start": "8,0,0", "tap": "no"}, 7),
        ("4,9:6", {}, 8),
    ],
)
def test_known_answers(text: str, options: dict[str, Any], moves: int | None) -> None:
    result = lacak.solve(lacak.parse("jugs", text, **options))
    assert (result.length if result.found else None) == moves
    if moves is None:
        assert result.stopped is lacak.StopReason.EXHAUSTED


@settings(max_examples=40)
@given(jug_instances())
def test_successors_follow_the_rules(instance: dict[str, Any]) -> None:
    puzzle = as_puzzle(instance)
    for state in every_state(instance["capacities"]):
        moves = list(puzzle.successors(state))
        assert len({action for action, _s, _c in moves}) == len(moves)
        assert all(cost == 1 for _a, _s, cost in moves)
        got = {following for _a, following, _c in moves}
        assert got == model_moves(instance["capacities"], state, instance["tap"])


@settings(max_examples=30)
@given(jug_instances(exact=True))
def test_predecessors_undo_successors(instance: dict[str, Any]) -> None:
    puzzle = as_puzzle(instance)
    assert isinstance(puzzle, lacak.ReversiblePuzzle)
    forward = set()
    for state in every_state(instance["capacities"]):
        forward |= {(state, action, after) for action, after, _c in puzzle.successors(state)}
    backward = set()
    for state in every_state(instance["capacities"]):
        backward |= {(before, action, state) for action, before, _c in puzzle.predecessors(state)}
    assert forward == backward


def test_an_amount_in_any_jug_is_not_reversible() -> None:
    assert not isinstance(lacak.parse("jugs", "3,5:4"), lacak.ReversiblePuzzle)
    result = CliRunner().invoke(make_cli(), ["jugs", "solve", "3,5:4", "-s", "bidirectional-bfs"])
    one_line_error(result, "needs a puzzle with one 'goal' state")


#: The generic strategies (those for any kind of puzzle), with the heuristic they take.
# the systematic ones: a local search (searcher.objective) climbs only what declares an
# objective, which the jugs do not (the test below checks the one-line refusal)
GENERIC = sorted(name for name, searcher in lacak.searchers().items()
                 if not searcher.kinds and not searcher.objective)  # fmt: skip
LOCAL = sorted(name for name, searcher in lacak.searchers().items() if searcher.objective)


@pytest.mark.parametrize("strategy", LOCAL)
def test_a_local_search_says_the_jugs_declare_no_objective(strategy: str) -> None:
    result = run("8,5,3:4,4,0", "--start", "8,0,0", "--no-tap", "-s", strategy)
    assert result.exit_code == 2 and "objective" in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1


def test_the_generic_strategies_are_there() -> None:
    assert {"dfs", "bfs", "uniform-cost", "astar", "idastar", "bidirectional-bfs"} <= set(GENERIC)


@pytest.mark.parametrize("strategy", GENERIC)
@settings(max_examples=25)
@given(instance=jug_instances())
def test_every_generic_strategy_solves_jugs(strategy: str, instance: dict[str, Any]) -> None:
    """Legal paths to a goal, of the fewest moves from the optimal strategies; 'exhausted'
    exactly when the brute force finds no way."""
    puzzle = as_puzzle(instance)
    searcher = lacak.searchers()[strategy]
    if strategy == "bidirectional-bfs" and not isinstance(puzzle, lacak.ReversiblePuzzle):
        with pytest.raises(lacak.InvalidPuzzleError):
            lacak.solve(puzzle, strategy)
        return
    best = fewest(instance)
    # IDA*, RBFS and IDDFS keep no closed set (at most the path): proving that no path
    # exists can take them exponentially long
    linear = strategy in ("idastar", "rbfs", "iddfs")
    limits = lacak.Limits(max_expanded=50_000) if linear else None
    result = lacak.solve(puzzle, strategy, limits=limits)
    assert result.kind == "jugs"
    if result.found:
        assert best is not None
        assert replay(puzzle, result) == result.length
        if searcher.optimal or searcher.fewest_moves:
            assert result.length == best, (result.actions, best)
    elif best is not None:
        assert result.stopped.is_limit and limits is not None
    else:
        assert result.stopped is lacak.StopReason.EXHAUSTED or (limits and result.stopped.is_limit)


# ---------------------------------------------------------------- the heuristic


class TestOffTargetContract(HeuristicContract):
    """Admissible and consistent, as it says, for both kinds of target."""

    kind = "jugs"
    heuristic = "off-target"

    def puzzles(self) -> st.SearchStrategy[Any]:
        return jug_puzzles()


@pytest.mark.parametrize(
    ("text", "options"),
    [("3,5:4", {}), ("8,5,3:4,4,0", {"tap": False}), ("2,3,6:1,2,3", {}), ("4,9:6", {})],
)
def test_off_target_never_overestimates_anywhere(text: str, options: dict[str, Any]) -> None:
    """Every contents, not only starts: the estimate against the brute-force distance."""
    puzzle = lacak.parse("jugs", text, **options)
    for state in every_state(puzzle.capacities):
        true = model_fewest_moves(puzzle.capacities, state, puzzle.target, puzzle.tap)
        estimate = lacak_jugs.off_target(puzzle, state)
        assert estimate >= 0
        if true is not None:
            assert estimate <= true, (state, estimate, true)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("text", "options", "error", "fragment"),
    [
        ("3,5", {}, lacak.InvalidPuzzleError, "CAPACITIES:TARGET"),
        ("3,x:4", {}, lacak.InvalidPuzzleError, "whole numbers"),
        ("3,5:9", {}, lacak.InvalidPuzzleError, "no jug holds 9"),
        ("0,5:1", {}, lacak.InvalidPuzzleError, "each at least 1"),
        ("3,-5:1", {}, lacak.InvalidPuzzleError, "cannot be negative"),
        ("3,5:1,2,3", {}, lacak.InvalidPuzzleError, "one per jug (2), not 3"),
        ("3,5:4,6", {}, lacak.InvalidPuzzleError, "jug A holds 3, not 4"),
        (",".join(["1"] * 27) + ":1", {}, lacak.InvalidPuzzleError, "1 to 26 capacities"),
        ("3,5:4", {"start": "4,0"}, lacak.InvalidOptionError, "start: jug A holds 3, not 4"),
        ("3,5:4", {"start": "1"}, lacak.InvalidOptionError, "one amount per jug (2), got 1"),
        ("3,5:4", {"start": [1, True]}, lacak.InvalidOptionError, "sequence of whole numbers"),
        ("3,5:4", {"tap": "maybe"}, lacak.InvalidOptionError, "must be true or false"),
        ("3,5:4", {"pour": 1}, lacak.InvalidOptionError, "takes no option 'pour'"),
    ],
)
def test_bad_input_is_one_clear_error(
    text: str, options: dict[str, Any], error: type, fragment: str
) -> None:
    with pytest.raises(error, match=None) as caught:
        lacak.parse("jugs", text, **options)
    assert fragment in str(caught.value)


@given(text=lst.anything(), start=lst.anything(), tap=lst.anything())
def test_parse_takes_anything(text: Any, start: Any, tap: Any) -> None:
    only_lacak_errors(lacak.parse, "jugs", text, start=start, tap=tap)


@given(text=st.text(alphabet="0123456789,: -x\n", max_size=20))
def test_parse_takes_any_text(text: str) -> None:
    only_lacak_errors(lacak.parse, "jugs", text)


# ---------------------------------------------------------------- the command, in-process


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(make_cli(), ["jugs", "solve", *args], input=input)


def test_solve_draws_the_solution() -> None:
    result = run("3,5:4")
    assert result.exit_code == 0, result.output
    assert "found: 6 moves with bfs" in result.output
    assert "jugs A=3 B=5 (empty); goal: 4 in any jug" in result.output
    assert "6  pour(B,A)  3  4  <- goal" in result.output


def test_options_become_flags_and_dash_reads_standard_input() -> None:
    result = run("-", "--start", "8,0,0", "--no-tap", "--json", input="8,5,3:4,4,0\n")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["length"] == 7 and data["states"][0] == "8,0,0" and data["states"][-1] == "4,4,0"
    assert data["jugs"] == {"capacities": [8, 5, 3], "start": [8, 0, 0], "target": [4, 4, 0],
                            "tap": False}  # fmt: skip


@pytest.mark.parametrize("strategy", GENERIC)
def test_every_generic_strategy_from_the_command_line(strategy: str) -> None:
    result = run("8,5,3:4,4,0", "--start", "8,0,0", "--no-tap", "-s", strategy, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["kind"] == "jugs" and data["strategy"] == strategy and data["found"]
    if lacak.searchers()[strategy].heuristic != "unused":
        assert data["heuristic"] == "off-target"  # the kind's choice
    searcher = lacak.searchers()[strategy]
    if searcher.optimal or searcher.fewest_moves:
        assert data["length"] == 7


def test_a_heuristic_alone_picks_astar() -> None:
    result = run("3,5:4", "-H", "off-target")
    assert result.exit_code == 0, result.output
    assert "found: 6 moves with astar + off-target" in result.output


def test_library_and_command_choose_and_answer_the_same() -> None:
    puzzle = lacak.parse("jugs", "4,9:6")
    library = lacak.solve(puzzle)
    expected = json.loads(dumps(lacak.result_json(library, puzzle)))
    data = json.loads(run("4,9:6", "--json").stdout)
    for record in (data, expected):
        record["stats"].pop("seconds")
    assert data == expected
    assert data["strategy"] == "bfs" and data["length"] == 8


def test_unsolvable_is_exit_status_1() -> None:
    result = run("2,4:3")
    assert result.exit_code == 1
    assert "not found with bfs: no path exists (stopped: exhausted)" in result.output


@pytest.mark.parametrize(
    ("flags", "stopped"),
    [(["--max-nodes", "3"], "node-limit"), (["--max-depth", "2"], "depth-limit")],
)
def test_limits_stop_with_exit_status_1_and_advice(flags: list[str], stopped: str) -> None:
    result = run("3,5:4", *flags)
    assert result.exit_code == 1, result.output
    assert f"(stopped: {stopped})" in result.output
    if stopped == "node-limit":
        assert "hint: these jugs hold at most 24 different contents" in result.output
    data = json.loads(run("3,5:4", *flags, "--json").stdout)
    assert data["found"] is False and data["stopped"] == stopped and data["length"] is None


def test_tree_and_traces(tmp_path: Path) -> None:
    result = run("3,5:4", "--tree")
    assert result.exit_code == 0, result.output
    assert "search tree" in result.output and "fill(B) 0,5" in result.output
    for suffix in (".svg", ".json", ".dot"):
        trace = tmp_path / f"tree{suffix}"
        assert run("3,5:4", "--trace", str(trace)).exit_code == 0
    assert (tmp_path / "tree.svg").read_text().startswith("<svg")
    assert json.loads((tmp_path / "tree.json").read_text())["nodes"][0]["state"] == "0,0"
    assert "digraph" in (tmp_path / "tree.dot").read_text()


def test_a_long_path_is_cut_unless_full() -> None:
    # depth-first search wanders: its path is far longer than the six moves needed
    short = run("97,98:1", "-s", "dfs")
    assert short.exit_code == 0, short.output
    assert "--full shows all" in short.output
    full = run("97,98:1", "-s", "dfs", "--full")
    assert "--full shows all" not in full.output
    assert len(full.output.splitlines()) > len(short.output.splitlines())


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["3,5:9"], "no jug holds 9"),
        (["3,5:4", "--start", "9,9"], "start: jug A holds 3, not 9"),
        (["3,5:4", "-s", "astar-tiles"], "for 'jugs':"),
        (["3,5:4", "-s", "nosuch"], "unknown strategy 'nosuch' for jugs puzzles"),
        (["3,5:4", "-H", "manhattan"], "manhattan"),
        (["3,5:4", "-f", "svg"], "'svg' is not one of"),
    ],
)
def test_bad_input_on_the_command_line_is_one_line(args: list[str], fragment: str) -> None:
    one_line_error(run(*args), fragment)


class KindAndParseOnly:
    """The tutorial's first registration: a kind and its parser, nothing more."""

    @lacak.hookimpl
    def register_puzzles(self, register: Any) -> None:
        register(lacak.PuzzleType(kind="jugs", parse=lacak_jugs.parse,
                                  options={"start": None, "tap": True}))  # fmt: skip


def test_a_kind_and_its_parser_are_enough_for_the_command() -> None:
    import lacak_search  # the generic strategies, in a registry of their own

    registry = lacak.Registry(entry_points=False)
    registry.add_plugin(lacak_search, "search")
    registry.add_plugin(KindAndParseOnly(), "jugs")
    cli = make_cli(registry)
    result = CliRunner().invoke(cli, ["jugs", "solve", "3,5:4"])
    assert result.exit_code == 0, result.output
    assert "found: 6 moves with bfs" in result.output
    assert "path:  0,0 -> 0,5 -> 3,2 -> 0,2 -> 2,0 -> 2,5 -> 3,4" in result.output
    result = CliRunner().invoke(cli, ["jugs", "solve", "3,5:4", "-s", "uniform-cost", "--json"])
    assert json.loads(result.stdout)["states"][-1] == "3,4"


def test_help_shows_the_example_and_the_kind_s_flags() -> None:
    result = CliRunner().invoke(make_cli(), ["jugs", "solve", "--help"])
    assert result.exit_code == 0
    assert "'3,5:4'" in result.output
    assert "--no-tap" in result.output and "--start" in result.output


# ---------------------------------------------------------------- the installed command


def installed_lacak() -> str:
    """The ``lacak`` script of this environment (next to this Python), else on PATH."""
    script = shutil.which("lacak", path=str(Path(sys.executable).parent)) or shutil.which("lacak")
    if script is None:
        pytest.fail("no installed 'lacak' command: pip install -e . -e ./docs/plugins/lacak-gaschnig")
    return script


def lacak_process(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LACAK_PROGRESS": "0"}
    return subprocess.run(
        [installed_lacak(), *args], input=input, capture_output=True, text=True, env=env,
        timeout=120, check=False,
    )  # fmt: skip


def test_installed_lacak_solves_jugs() -> None:
    done = lacak_process("jugs", "solve", "3,5:4", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["kind"] == "jugs" and data["length"] == 6 and data["jugs"]["target"] == 4
    piped = lacak_process("jugs", "solve", "-", "-s", "astar", input="3,5:4")
    assert piped.returncode == 0, piped.stderr
    assert "found: 6 moves with astar + off-target" in piped.stdout
    bad = lacak_process("jugs", "solve", "3,5")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("Error: a jugs puzzle is CAPACITIES:TARGET")
    assert bad.stderr.count("\n") == 1


def test_installed_lacak_lists_both_plugins() -> None:
    done = lacak_process("plugins", "--json")
    assert done.returncode == 0, done.stderr
    plugins = {info["name"]: info for info in json.loads(done.stdout)["plugins"]}
    jugs = plugins["jugs"]
    assert jugs["distribution"] == "lacak-gaschnig" and not jugs["builtin"]
    assert jugs["registered"] == {"register_puzzles": ["jugs"],
                                  "register_heuristics": ["jugs/off-target"]}  # fmt: skip
    assert plugins["gaschnig"]["registered"] == {"register_heuristics": ["sliding/gaschnig"]}
    listing = lacak_process("plugins")
    assert listing.returncode == 0
    assert "jugs" in listing.stdout and "lacak_jugs" in listing.stdout

"""docs/result.schema.json is the contract of a search result's JSON: real output of every
registered kind, through the library (``to_dict``) and ``lacak KIND solve --json``, fits it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import click
import lacak
import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator
from lacak.cli import make_cli
from lacak.results import COMMON_KEYS

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "result.schema.json"
SCHEMA = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)



@attrs.frozen
class Case:
    """A small instance of a kind: its text, ``parse`` options, and the same as command flags."""

    text: str
    options: dict[str, Any] = attrs.field(factory=dict)
    flags: tuple[str, ...] = ()
    #: Whether ``lacak KIND solve`` takes a file (the text is written to one).
    file: bool = False


def _maze_text() -> str:
    maze = lacak.generate("maze", "hunt-and-kill", (3, 4), seed=1)
    return str(maze.with_endpoints().to_json())


#: Small instances of the built-in kinds; any other kind is solved from its ``example``.
BUILT_IN = {
    "sliding": Case("123450786", {"goal": "103425786"}, ("--goal", "103425786")),
    "maze": Case(_maze_text(), file=True),
    "boggle": Case("CAT/ODG", {"dictionary": "eng"}, ("--dictionary", "eng")),
}


def _kinds() -> list[str]:
    return sorted(lacak.default_registry().puzzle_types())


def _case(kind: str) -> Case:
    if kind in BUILT_IN:
        return BUILT_IN[kind]
    example = lacak.default_registry().puzzle_types()[kind].example
    if not example:
        pytest.skip(f"puzzle kind {kind!r} gives no example to solve")
    return Case(example)


def _has_objective(puzzle: Any) -> bool:
    try:
        lacak.objective_of(puzzle)
    except lacak.InvalidPuzzleError:
        return False
    return True


def _puzzle(kind: str, case: Case) -> Any:
    instance = lacak.parse(kind, case.text, **case.options)
    assert isinstance(instance, lacak.Puzzle), f"lacak.parse({kind!r}, ...) gives no Puzzle"
    return instance


def check(data: Any) -> None:
    """``data`` fits the schema, and what a schema cannot say holds too."""
    errors = sorted(VALIDATOR.iter_errors(data), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)
    assert list(data)[: len(COMMON_KEYS)] == list(COMMON_KEYS)  # common keys first, in order
    if data["found"]:
        assert len(data["actions"]) == data["length"]
        assert len(data["states"]) == data["length"] + 1


def check_with_puzzle(data: Any) -> None:
    """A result made with its puzzle writes states in the kind's notation: strings."""
    check(data)
    assert all(isinstance(state, str) for state in data["states"]), data["states"]


def test_the_schema_is_valid_draft_2020_12() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_the_schema_names_what_the_code_writes() -> None:
    assert SCHEMA["required"] == list(COMMON_KEYS)
    assert set(SCHEMA["$defs"]["stopReason"]["enum"]) == {str(r) for r in lacak.StopReason}
    stats = SCHEMA["$defs"]["stats"]
    assert stats["required"] == list(lacak.SearchStats().to_dict())


def test_the_built_in_kinds_are_registered() -> None:
    assert set(BUILT_IN) <= set(_kinds())


# ---------------------------------------------------------------- the library


def _extras(puzzle: Any) -> Any:
    """The extras of ``puzzle``'s kind, which the caller hands to ``to_dict``."""
    return lacak.default_registry().puzzle_types()[puzzle.kind].extras


@pytest.mark.parametrize("kind", _kinds())
def test_library_result_fits_the_schema(kind: str) -> None:
    puzzle = _puzzle(kind, _case(kind))
    result = lacak.solve(puzzle)
    assert result.found
    check_with_puzzle(lacak.SearchResult.to_dict(result, puzzle, extras=_extras(puzzle)))
    check(lacak.SearchResult.to_dict(result))  # without the puzzle: states as plain data


@pytest.mark.parametrize(
    "kind",
    _kinds(),
)
def test_a_result_s_own_to_dict_fits_the_schema(kind: str) -> None:
    """``result.to_dict(puzzle, extras=...)`` and ``lacak.result_json(result, puzzle)``, as a
    user calls them (a kind's result class may override ``to_dict``)."""
    puzzle = _puzzle(kind, _case(kind))
    result = lacak.solve(puzzle)
    check_with_puzzle(result.to_dict(puzzle, extras=_extras(puzzle)))
    check_with_puzzle(lacak.result_json(result, puzzle))


@pytest.mark.parametrize("kind", _kinds())
@pytest.mark.parametrize(
    "limits",
    [lacak.Limits(max_expanded=0), lacak.Limits(max_depth=0), lacak.Limits(seconds=0)],
    ids=["nodes", "depth", "time"],
)
def test_a_search_stopped_by_a_limit_fits_the_schema(kind: str, limits: lacak.Limits) -> None:
    puzzle = _puzzle(kind, _case(kind))
    result = lacak.solve(puzzle, limits=limits)
    data = lacak.SearchResult.to_dict(result, puzzle, extras=_extras(puzzle))
    check_with_puzzle(data)
    if not data["found"]:
        assert data["stopped"] in {"node-limit", "depth-limit", "time-limit"}


def test_every_strategy_s_result_fits_the_schema() -> None:
    """Each strategy that can solve a kind's small instance, with and without a heuristic."""
    checked = 0
    for kind in _kinds():
        puzzle = _puzzle(kind, _case(kind))
        for name, searcher in lacak.searchers().items():
            if not searcher.handles(puzzle) or (
                name == "bidirectional-bfs" and not isinstance(puzzle, lacak.ReversiblePuzzle)
            ):
                continue
            if searcher.objective and not _has_objective(puzzle):
                continue  # a local search needs the kind's objective
            heuristic = None
            if searcher.heuristic == "required" and lacak.choose(puzzle, name).heuristic is None:
                # the kind picks none: take any of its heuristics, if it has one
                kinds_with_heuristics = lacak.default_registry().kinds("register_heuristics")
                if kind not in kinds_with_heuristics:
                    continue
                heuristic = next(iter(lacak.heuristics(kind)))
            result = lacak.solve(
                puzzle, name, heuristic=heuristic, limits=lacak.Limits(max_expanded=20_000)
            )
            check_with_puzzle(lacak.SearchResult.to_dict(result, puzzle, extras=_extras(puzzle)))
            checked += 1
    assert checked >= 3 * len(_kinds())


# ---------------------------------------------------------------- the command line


def _solve_json(kind: str, tmp_path: Path, *more: str) -> Any:
    case = _case(kind)
    cli = make_cli()
    group = cli.commands.get(kind)
    if not isinstance(group, click.Group) or "solve" not in group.commands:
        pytest.fail(f"puzzle kind {kind!r} has no 'lacak {kind} solve' command")
    argument = case.text
    if case.file:
        path = tmp_path / f"{kind}.json"
        path.write_text(case.text, encoding="utf-8")
        argument = str(path)
    result = CliRunner().invoke(cli, [kind, "solve", argument, *case.flags, *more, "--json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("kind", _kinds())
def test_solve_json_fits_the_schema(kind: str, tmp_path: Path) -> None:
    data = _solve_json(kind, tmp_path)
    assert data["found"] and data["kind"] == kind
    check_with_puzzle(data)


@pytest.mark.parametrize("kind", _kinds())
def test_solve_json_stopped_by_a_limit_fits_the_schema(kind: str, tmp_path: Path) -> None:
    data = _solve_json(kind, tmp_path, "--max-nodes", "0")
    assert data["found"] is False and data["stopped"] == "node-limit"
    check_with_puzzle(data)


# ---------------------------------------------------------------- the schema refuses


def _good() -> dict[str, Any]:
    puzzle = lacak.parse("sliding", "123405786")
    return lacak.result_json(lacak.solve(puzzle, "bfs"), puzzle)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda d: d.pop("states"), "a common key missing"),
        (lambda d: d.update(actions="ESWSEEN"), "actions as one string (0.1.0's maze JSON)"),
        (lambda d: d.update(moves=["R", "D"]), "an extra that is not an object"),
        (lambda d: d.update(stopped="exhausted"), "found, but stopped other than at the goal"),
        (lambda d: d.update(found=False), "not found, with a path and a length"),
        (lambda d: d["stats"].update(nodes=3), "a stat the schema does not know"),
        (lambda d: d["stats"].pop("depth"), "a stat missing"),
        (lambda d: d.update(length=-1), "a negative length"),
        (lambda d: d.update(stopped="gave-up"), "an unknown stop reason"),
        (lambda d: d.update(heuristic=""), "an empty heuristic name"),
    ],
)
def test_the_schema_refuses_other_shapes(change: Any, why: str) -> None:
    data = _good()
    check(data)
    change(data)
    assert not VALIDATOR.is_valid(data), why


def test_extras_are_objects_under_a_key_of_their_own() -> None:
    data = _good()
    data["sliding"] = {"rows": 3, "cols": 3}
    check(data)


# ---------------------------------------------------------------- batch records


@pytest.mark.parametrize(("kind", "flags"), [
    ("maze", ["--size", "4x5", "--solve"]),
    ("sliding", ["--size", "3x3", "--moves", "8"]),
    ("boggle", ["--dice", "classic4"]),
])  # fmt: skip
def test_lacak_batch_records_hold_results_of_the_schema(kind: str, flags: list[str]) -> None:
    """``lacak batch`` records carry the documented result (``stats.seconds`` is ``null``
    there unless ``--timings``, which the schema allows)."""
    for timings in ([], ["--timings"]):
        result = CliRunner().invoke(make_cli(), ["batch", kind, "-n", "3", "-w", "1", *flags,
                                                 *timings])  # fmt: skip
        assert result.exit_code == 0, result.output
        for line in result.stdout.splitlines():
            data = json.loads(line)["result"]
            check_with_puzzle(data)
            assert (data["stats"]["seconds"] is None) == (not timings)

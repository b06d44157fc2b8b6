"""One grammar for every command: a walk over everything under ``lacak --help``.

Every command that prints results takes ``--json`` and prints one JSON
document; every command that takes a board, a puzzle or a file takes ``-``
for standard input; every ``--size`` says ROWSxCOLS; every ``solve`` has the
same options; every short flag (``-s``) means one thing in every command. A
command added later without an entry in :data:`RUNS` fails here, so the
grammar cannot drift.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import click
import lacak
import pytest
from click.testing import CliRunner
from lacak.cli import make_cli

#: A small maze, as ``lacak maze generate --json`` writes it.
MAZE = json.dumps(lacak.generate("maze", "kruskal", (3, 4), seed=1).to_dict())

#: A maze task's entry with a model's response, as ``lacak tasks score`` reads it.
TASK_ENTRY = json.dumps({**lacak.tasks.create_dataset("maze", size=1)[0], "response": "[]"}) + "\n"

#: For each command: the arguments of a run with ``--json`` (``-`` reads ``stdin``), and
#: what that run reads on standard input. ``None`` in the stdin column: the command
#: takes no board or file. ``{out}`` stands for a file in a fresh folder (a batch
#: writes its records there and prints its summary as JSON).
RUNS: dict[str, tuple[list[str], str | None]] = {
    "plugins": ([], None),
    "batch boggle": (["-n", "2", "-d", "eng", "-w", "1", "-o", "{out}"], None),
    "batch maze": (["-n", "2", "--size", "3x4", "-w", "1", "-o", "{out}"], None),
    "batch queens": (["-n", "2", "--size", "6", "-w", "1", "-o", "{out}"], None),
    "batch sliding": (["-n", "2", "--size", "2x3", "-w", "1", "-o", "{out}"], None),
    "boggle best": (["--size", "2x3", "--evaluations", "50", "--engine", "numpy"], None),
    "boggle check": (["-", "CAT", "-d", "eng"], "CAT/OXI"),
    "boggle dice": ([], None),
    "boggle shake": (["--seed", "1"], None),
    "boggle solve": (["-", "-d", "eng"], "CAT/ODG"),
    "boggle solve-many": (["-", "-d", "eng"], "CAT/ODG\nSEA/TEN\n"),
    "compare": (["sliding", "123405786", "-s", "bfs", "-s", "astar"], None),
    "dictionaries export": (["-"], '["abad", "abadi"]'),
    "dictionaries list": ([], None),
    "dictionaries show": (["-"], '["abad", "abadi"]'),
    "dictionaries validate": (["-"], '["abad", "abadi"]'),
    "graph solve": (["-", "--from", "A", "--to", "C"], "A,B,1\nB,C,2\n"),
    "jugs amounts": (["-"], "3,5"),
    "jugs solve": (["-"], "3,5:4"),
    "maze algorithms": ([], None),
    "maze generate": (["--size", "3x4", "--seed", "1"], None),
    "maze solve": (["-"], MAZE),
    "maze stats": (["-"], MAZE),
    "queens solve": (["-"], "43682185"),
    "sliding estimate": (["-"], "123405786"),
    "sliding heuristics": ([], None),
    "sliding pdb build": (["4,5", "--size", "2x3"], None),
    "sliding pdb info": (["4,5", "--size", "2x3"], None),
    "sliding pdb list": ([], None),
    "sliding scramble": (["--size", "3x3", "--seed", "1"], None),
    "sliding solve": (["-"], "123405786"),
    "sliding strategies": ([], None),
    "tasks list": ([], None),
    "tasks make": (["maze", "-n", "2", "--size", "3x4"], None),
    "tasks score": (["-"], TASK_ENTRY),
}

#: Commands that serve rather than print a result: they run until stopped, so they
#: take no ``--json`` and have no run here (``tests/web`` starts ``lacak serve``).
SERVERS = {"serve"}

#: Options every ``lacak KIND solve`` has, whatever the kind.
SOLVE_OPTIONS = {
    "-s", "--strategy", "-H", "--heuristic", "-O", "--option", "--max-depth", "--max-nodes",
    "--timeout", "--json", "--trace", "--tree", "--full", "-f", "--format", "-o", "--output",
}  # fmt: skip

#: Argument names that hold a board, a puzzle or a file.
INPUT_ARGUMENTS = {"board", "puzzle", "file", "source", "start"}


def _commands(group: click.Group, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))
        else:
            yield " ".join((*path, name)), command


def _every_command(group: click.Group, path: str = "lacak") -> Iterator[tuple[str, Any]]:
    """Every command and group, the root too (``lacak -V``), with its path."""
    yield path, group
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            yield from _every_command(command, f"{path} {name}")
        else:
            yield f"{path} {name}", command


def _short_flags(command: Any) -> Iterator[tuple[str, str]]:
    """``(short flag, meaning)`` of each of ``command``'s options: the meaning is the
    option's first long flag (``--strategy``), else its name."""
    for param in command.params:
        if not isinstance(param, click.Option):
            continue
        flags = [*param.opts, *param.secondary_opts]
        longs = [flag for flag in flags if flag.startswith("--")]
        meaning = longs[0] if longs else str(param.name)
        for flag in flags:
            if not flag.startswith("--"):
                yield flag, meaning


def short_flag_meanings(cli: click.Group) -> dict[str, dict[str, list[str]]]:
    """For each short flag: its meanings, each with the commands that give it."""
    meanings: dict[str, dict[str, list[str]]] = {}
    for path, command in _every_command(cli):
        for flag, meaning in _short_flags(command):
            meanings.setdefault(flag, {}).setdefault(meaning, []).append(path)
    return meanings


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return make_cli()


@pytest.fixture(autouse=True)
def own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    # 'pdb build' writes a database: into a folder of this test's own
    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "grammar-cache"))


def _all(cli: Any) -> dict[str, Any]:
    return {path: command for path, command in _commands(cli) if path not in SERVERS}


def test_every_command_is_walked(cli: Any) -> None:
    assert set(dict(_commands(cli))) >= SERVERS, "a server command went away: update SERVERS"
    assert sorted(_all(cli)) == sorted(RUNS), "a command was added or removed: update RUNS"


def test_every_command_takes_json(cli: Any) -> None:
    lacking = [path for path, command in _all(cli).items() if "--json" not in _opts(command)]
    assert not lacking


@pytest.mark.parametrize("path", sorted(RUNS))
def test_json_output_is_one_json_document(cli: Any, path: str, tmp_path: Any) -> None:
    args, stdin = RUNS[path]
    args = [arg.replace("{out}", str(tmp_path / "out.jsonl")) for arg in args]
    result = CliRunner().invoke(cli, [*path.split(), *args, "--json"], input=stdin)
    assert result.exit_code in (0, 1), result.output
    lines = result.stdout.splitlines()
    if path == "boggle solve-many":  # JSON Lines: one document a board
        assert len(lines) == 2 and all(json.loads(line) for line in lines)
    else:
        json.loads(result.stdout)


@pytest.mark.parametrize("path", sorted(path for path, (_a, stdin) in RUNS.items() if stdin))
def test_board_and_file_arguments_take_standard_input(cli: Any, path: str) -> None:
    args, stdin = RUNS[path]
    assert "-" in args
    result = CliRunner().invoke(cli, [*path.split(), *args], input=stdin)
    assert result.exit_code in (0, 1), result.output
    assert result.stdout.strip()


def test_every_board_or_file_argument_has_a_stdin_run(cli: Any) -> None:
    for path, command in _all(cli).items():
        names = {p.name for p in command.params if isinstance(p, click.Argument)}
        if names & INPUT_ARGUMENTS:
            assert RUNS[path][1] is not None, f"{path} takes a board or file: give a '-' run"


def test_every_size_option_says_rows_by_columns(cli: Any) -> None:
    for path, command in _all(cli).items():
        for param in command.params:
            if isinstance(param, click.Option) and "--size" in param.opts:
                text = f"{param.help or ''} {param.metavar or ''}"
                assert "ROWSxCOLS" in text or "rows" in text.lower(), (path, text)


def test_every_solve_has_the_same_options(cli: Any) -> None:
    solves = [path for path in _all(cli) if path.endswith(" solve")]
    assert {"sliding solve", "maze solve", "boggle solve", "jugs solve"} <= set(solves)
    for path in solves:
        missing = SOLVE_OPTIONS - _opts(_all(cli)[path])
        assert not missing, (path, missing)


def _opts(command: Any) -> set[str]:
    return {opt for p in command.params if isinstance(p, click.Option) for opt in p.opts}


def test_every_short_flag_has_one_meaning(cli: Any) -> None:
    """``-s`` is ``--strategy`` wherever it is given, ``-o`` always ``--output``: a short
    flag that means two things in two commands fails here, naming them."""
    twice = {flag: found for flag, found in short_flag_meanings(cli).items() if len(found) > 1}
    assert not twice, f"short flags with more than one meaning: {twice}"


def test_help_is_minus_h_everywhere(cli: Any) -> None:
    """``-h`` is help in every command: no option takes it."""
    for path, command in _every_command(cli):
        assert all(flag != "-h" for flag, _meaning in _short_flags(command)), path
        shown = CliRunner().invoke(cli, [*path.split()[1:], "-h"])
        assert shown.exit_code == 0 and shown.stdout.startswith("Usage: "), (path, shown.output)


def test_the_walk_sees_two_meanings() -> None:
    """The check above fails on a short flag with two meanings (two made-up commands)."""
    group = click.Group("lacak")
    group.add_command(click.Command("a", params=[click.Option(["-s", "--size"])]))
    group.add_command(click.Command("b", params=[click.Option(["-s", "--strategy"])]))
    group.add_command(click.Command("c", params=[click.Option(["-q", "--quiet/--loud"])]))
    assert short_flag_meanings(group) == {
        "-s": {"--size": ["lacak a"], "--strategy": ["lacak b"]},
        "-q": {"--quiet": ["lacak c"]},
    }


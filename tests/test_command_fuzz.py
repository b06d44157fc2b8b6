"""Random command lines: whatever is typed, ``lacak`` answers or refuses in one line.

Hypothesis draws command lines from the command tree itself (every command under
``lacak --help`` but the server, its own options and arguments), with values
that are sometimes right and often wrong: sizes, boards, dictionaries, strategy
and heuristic names, paths of every sort (missing, a folder, ``/dev/null``, a
file of junk, ``-``), numbers out of range, text that is empty, long or not
printable. The promise checked on each run (docs/faults.md):

- no traceback and no "internal error", only exit statuses 0, 1 or 2;
- a refusal (status 2) is one ``Error:`` line on stderr;
- ``--json`` that succeeds prints JSON (one document, or JSON Lines);
- nothing is written outside the run's own folder.

Every run is bounded: ``--timeout`` (or ``--seconds``, for ``boggle best``) is always
given where a command takes it,
counts are small, and one worker at most. ``--hypothesis-profile=thorough`` draws
many more command lines (the adversarial pass of issue 23 ran about 950).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import lacak
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lacak.cli import make_cli

#: Commands that serve rather than answer (they run until stopped).
SKIPPED = {"serve"}

#: A small maze, as ``lacak maze generate --json`` writes it.
MAZE = json.dumps(lacak.generate("maze", "kruskal", (3, 4), seed=1).to_dict())

JUNK = st.sampled_from(
    ["", " ", "-", "--", "x", "0", "-1", "nan", "inf", "1e999", "\x00", "é", "日本", "a" * 300,
     "3x", "x3", "0x0", "1x1", "99999999999x2", "1,2,3", "a=b", "=", "%s", "{}", "[]", "null",
     "../../etc/passwd", "/etc/passwd", "/dev/zero", "/proc/self/mem", "~", "$HOME"]
)  # fmt: skip

SIZES = st.sampled_from(["2x2", "2x3", "3x3", "3x4", "4x4", "1x5", "5x5", "6x10", "3", "2,3"])
BOARDS = st.sampled_from(
    ["123450786", "123405786", "8 6 7 / 2 5 4 / 3 0 1", "(1,2,3,8,4,5,7,0,6)", "1230", "3,5:4",
     "120453786", "CAT/ODG", "AHORJ/QQUOI/SSCPD/MUPSM/AUULI", "A QU E/R S T/L N E", MAZE, "-"]
)  # fmt: skip
NAMES = st.sampled_from(
    ["eng", "ind", "bfs", "dfs", "astar", "idastar", "best-first", "greedy", "manhattan",
     "misplaced", "weighted:w1=1,w2=2", "linear-conflict", "pdb-555", "none", "kruskal", "wilson",
     "hunt-and-kill", "classic4", "big5", "random", "walk", "boggle", "1,2,3/4,5", "4,5", "6"]
)  # fmt: skip
PAIRS = st.sampled_from(
    ["duplicates=none", "iterative=yes", "weight=1.5", "hunt=columns", "hunt_chance=0.3",
     "moves=5", "goal=123405786", "nope=1", "=1", "x"]
)  # fmt: skip
INTS = st.one_of(st.integers(-2, 6), st.sampled_from([2**31, 10**12, -(10**9)]))
FLOATS = st.one_of(st.sampled_from([0, 0.5, 1, 2]), st.floats(-5, 5), st.just(float("nan")))

#: Options whose values are drawn from a pool of their own, by the option's long name.
BY_NAME: dict[str, st.SearchStrategy[Any]] = {
    "--size": SIZES,
    "-s": NAMES,
    "--goal": BOARDS,
    "--strategy": NAMES,
    "-H": NAMES,
    "--heuristic": NAMES,
    "--algorithm": NAMES,
    "-a": NAMES,
    "--dictionary": NAMES,
    "-d": NAMES,
    "--dice": NAMES,
    "--option": PAIRS,
    "-O": PAIRS,
    "--start": st.sampled_from(["0,0", "1,2", "9,9", "x"]),
    "--end": st.sampled_from(["0,0", "2,3", "-1,0"]),
    "--color": st.sampled_from(["wall=black", "red", "path=#ff0000"]),
}
ARGUMENTS: dict[str, st.SearchStrategy[Any]] = {
    "partition": NAMES,
    "name": NAMES,
    "capacities": st.sampled_from(["3,5", "0", "3,5,8"]),
    "word": st.sampled_from(["CAT", "DOG", "QUERY", ""]),
}


def _commands(group: click.Group, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))
        elif name not in SKIPPED:
            yield " ".join((*path, name)), command


CLI = make_cli()
COMMANDS = dict(_commands(CLI))


@st.composite
def _paths(draw: st.DrawFn, folder: Path) -> str:
    """A path of every sort, inside ``folder`` or one that lacak must not write."""
    return draw(
        st.sampled_from(
            [str(folder / "out.json"), str(folder / "out.jsonl"), str(folder / "out.svg"),
             str(folder / "out.png"), str(folder / "out.jsonl.gz"), str(folder / "out.npz"),
             str(folder / "out.txt"), str(folder / "junk.json"), str(folder / "maze.json"),
             str(folder), str(folder / "missing" / "x.json"), "/dev/null", "-"]
        )
    )  # fmt: skip


def _value(draw: st.DrawFn, param: click.Parameter, folder: Path) -> str:
    names = [*param.opts] if isinstance(param, click.Option) else []
    for name in names:
        if name in BY_NAME:
            return str(draw(BY_NAME[name] | JUNK))
    if isinstance(param, click.Argument):
        pool = ARGUMENTS.get(param.name or "", BOARDS | _paths(folder))
        return str(draw(pool | JUNK))
    kind = param.type
    if isinstance(kind, click.Choice):
        return str(draw(st.sampled_from(list(kind.choices)) | JUNK))
    if isinstance(kind, (click.types.IntParamType, click.IntRange)):
        return str(draw(INTS))
    if isinstance(kind, (click.types.FloatParamType, click.FloatRange)):
        return str(draw(FLOATS))
    if isinstance(kind, click.Path) or {"-o", "--output", "--trace"} & set(names):
        return draw(_paths(folder))
    return str(draw(NAMES | BOARDS | JUNK))


@st.composite
def command_lines(draw: st.DrawFn, folder: Path) -> tuple[str, list[str], str]:
    """A command's path, its arguments, and what is on its standard input."""
    path = draw(st.sampled_from(sorted(COMMANDS)))
    command = COMMANDS[path]
    args: list[str] = []
    for param in command.params:
        if isinstance(param, click.Argument):
            args.append(_value(draw, param, folder))
    options = [p for p in command.params if isinstance(p, click.Option) and p.opts[0] != "--help"]
    for param in draw(st.lists(st.sampled_from(options), max_size=4, unique_by=id)):
        flag = param.opts[0]
        if flag in ("--timeout", "--seconds", "-w", "--workers", "--scheduler", "--chunk-size",
                    "-n"):  # fmt: skip
            continue  # bounded below
        if param.is_flag:
            args.append(flag)
        else:
            args += [flag, _value(draw, param, folder)]
    declared = {opt for p in options for opt in p.opts}
    if "--timeout" in declared:
        args += ["--timeout", draw(st.sampled_from(["0", "0.5", "2"]))]
    if "--seconds" in declared:  # (boggle best: a search that runs for its seconds)
        args += ["--seconds", draw(st.sampled_from(["0", "0.2"]))]
    if "-n" in declared:
        args += ["-n", draw(st.sampled_from(["0", "1", "3"]))]
    for bounded in ("-w", "--workers"):
        if bounded in declared:
            args += [bounded, "1"]
            break
    stdin = draw(BOARDS | JUNK | st.just(MAZE))
    return path, args, stdin


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("fuzz")
    (base / "junk.json").write_text('{"api_token": "secret"', encoding="utf-8")
    (base / "maze.json").write_text(MAZE, encoding="utf-8")
    return base


@pytest.fixture(scope="module", autouse=True)
def own_folders(tmp_path_factory: pytest.TempPathFactory, folder: Path) -> Iterator[None]:
    """A cache of the module's own, and the run's folder as the working directory (so a
    relative path a command line names lands where it is checked)."""
    saved, cwd = os.environ.get("LACAK_CACHE_DIR"), os.getcwd()
    os.environ["LACAK_CACHE_DIR"] = str(tmp_path_factory.mktemp("fuzz-cache"))
    os.chdir(folder)
    yield
    os.chdir(cwd)
    if saved is None:
        os.environ.pop("LACAK_CACHE_DIR", None)
    else:
        os.environ["LACAK_CACHE_DIR"] = saved


def _run(folder: Path, path: str, args: list[str], stdin: str) -> None:
    before = set(os.listdir(folder))
    result = CliRunner().invoke(CLI, [*path.split(), *args], input=stdin)
    line = f"lacak {path} {' '.join(args)!s}"
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{line}: raised {result.exception!r}") from result.exception
    assert result.exit_code in (0, 1, 2), (line, result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout, (line, result.stderr)
    assert "internal error" not in result.stderr, (line, result.stderr)
    if result.exit_code == 2:
        errors = [text for text in result.stderr.splitlines() if text.startswith("Error:")]
        assert len(errors) == 1, (line, result.stderr)
    to_stdout = ("-o" not in args and "--output" not in args) or "-" in args
    if result.exit_code == 0 and "--json" in args and to_stdout and result.stdout.strip():
        text = result.stdout.strip()
        try:
            json.loads(text)
        except ValueError:  # JSON Lines (solve-many, a batch to -)
            for row in text.splitlines():
                json.loads(row)
    written = set(os.listdir(folder)) - before
    assert all(name.startswith("out.") or name == "missing" for name in written), (line, written)
    for name in written:  # the next command line starts from the same folder
        target = folder / name
        if target.is_file():
            target.unlink()


@settings(
    # 150 under the default profile (60 examples), more under --hypothesis-profile=thorough
    max_examples=max(1, 150 * settings.default.max_examples // 60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_random_command_lines_answer_or_refuse_in_one_line(folder: Path, data: st.DataObject) -> None:
    path, args, stdin = data.draw(command_lines(folder))
    _run(folder, path, args, stdin)


@pytest.mark.parametrize(
    "line",
    [
        ["boggle", "solve", "CAT/ODG", "--dictionary", "{folder}/junk.json"],
        ["maze", "solve", "/dev/null"],
        ["maze", "stats", "\x00"],
        ["dictionaries", "validate", "a\x00b"],
        ["sliding", "solve", "-", "--goal", "-"],
        ["dictionaries", "show", "{folder}"],
        ["sliding", "solve", "123450786", "--timeout", "0", "--json"],
        ["batch", "maze", "-n", "1", "--size", "0x3", "-o", "{folder}/out.jsonl"],
        ["sliding", "scramble", "--size", ""],
        ["sliding", "estimate", "123450786", "--size", ""],
        ["batch", "sliding", "-n", "1", "--size", "", "-o", "{folder}/out.jsonl"],
    ],
)
def test_pinned_command_lines(folder: Path, line: list[str]) -> None:
    """Command lines the fuzzer found once, or that the adversarial pass of issue 23 tried."""
    args = [arg.replace("{folder}", str(folder)) for arg in line]
    _run(folder, " ".join(args[:2]), args[2:], "123450786")

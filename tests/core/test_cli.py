"""The root command line: version, plugins, one-line errors."""

from __future__ import annotations

import errno
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import click
import lacak
import pytest
from click.testing import CliRunner
from hypothesis import example, given
from hypothesis import strategies as st
from lacak.cli import make_cli, parse_size, read_input
from lacak.testing import one_line_error

from .plugin_helpers import CorePlugin, make_registry


class CommandPlugin:
    @lacak.hookimpl
    def register_commands(self, cli: click.Group) -> None:
        @cli.command("fail")
        @click.argument("what")
        def fail(what: str) -> None:
            if what == "lacak":
                raise lacak.InvalidPuzzleError("the board has\nan empty cell")
            if what == "size":
                parse_size("3by3")
            if what == "noisy":
                click.echo("half an answer")
                raise lacak.InvalidOptionError("then an error")
            if what == "warned":
                click.echo("note: first a note", err=True)
                raise lacak.InvalidOptionError("then an error")
            if what == "denied":
                raise PermissionError(errno.EACCES, "Permission denied", "/out/m.jsonl")
            if what == "full":
                raise OSError(errno.ENOSPC, "No space left on device")
            if what == "plugin":
                raise lacak.PluginError("plugin 'p' failed in strategy 's': ValueError: v") \
                    from ValueError("v")
            raise RuntimeError("a bug")

        @cli.command("read")
        @click.argument("source")
        def read(source: str) -> None:
            click.echo(json.dumps(read_input(source)))


def run(*args: str, registry: Any = None, input: str | bytes | None = None) -> Any:
    cli = make_cli(registry or make_registry(CorePlugin(), CommandPlugin()))
    return CliRunner().invoke(cli, list(args), input=input)


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0 and result.output.startswith("lacak, version ")


def test_lacak_errors_are_one_line_with_status_2() -> None:
    result = run("fail", "lacak")
    assert result.exit_code == 2
    assert result.stderr == "Error: the board has an empty cell\n"
    assert "Traceback" not in result.output
    sized = run("fail", "size")
    assert sized.exit_code == 2 and sized.stderr.count("\n") == 1
    assert "3x4" in sized.stderr


def test_usage_errors_are_one_line_with_status_2() -> None:
    for args in (["nonsense"], ["plugins", "--bogus"], ["fail"]):
        result = run(*args)
        assert result.exit_code == 2, args
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: "), args


def test_one_line_error_checks_what_the_cli_promises() -> None:
    assert one_line_error(run("fail", "lacak")) == "Error: the board has an empty cell"
    assert one_line_error(run("fail", "size"), "3x4").startswith("Error: size must look like")
    with pytest.raises(AssertionError, match="'4x4' is not in the error line"):
        one_line_error(run("fail", "size"), "4x4")
    with pytest.raises(AssertionError, match="exit status 0, not 2"):
        one_line_error(run("--version"))
    with pytest.raises(AssertionError, match="exit status 1, not 2"):
        one_line_error(run("fail", "bug"))  # a bug, not bad input
    with pytest.raises(AssertionError, match="something went to stdout"):
        one_line_error(run("fail", "noisy"))
    with pytest.raises(AssertionError, match="stderr is not one line"):
        one_line_error(run("fail", "warned"))


@given(a=st.integers(1, 10**9 - 1), b=st.integers(1, 10**9 - 1),
       sep=st.sampled_from(["x", "X", "×", ",", " x ", " , "]))
def test_parse_size_reads_both_sides(a: int, b: int, sep: str) -> None:
    assert parse_size(f"{a}{sep}{b}") == (a, b)
    assert parse_size(f" {a} ") == (a, a)


@given(text=st.text() | st.from_regex(r"\A[0-9²٣]{1,5000}(x[0-9]{1,5000})?\Z"),
       minimum=st.integers(0, 3))
@example(text="²", minimum=1)
@example(text="٣x4", minimum=1)
@example(text="9" * 5000, minimum=1)
@example(text="3x" + "1" * 4301, minimum=1)
@example(text="0" * 20 + "7", minimum=1)
def test_parse_size_gives_sides_or_an_invalid_option_error(text: str, minimum: int) -> None:
    try:
        a, b = parse_size(text, what="--size", minimum=minimum)
    except lacak.InvalidOptionError as error:
        assert str(error).startswith("--size ") and len(str(error)) < 200
        return
    assert minimum <= a < 10**9 and minimum <= b < 10**9
    assert all(ch in "0123456789xX×," or ch.isspace() for ch in text)


@pytest.mark.parametrize("size", [None, 5, (3, 4), b"3x4"])
def test_parse_size_needs_text(size: object) -> None:
    with pytest.raises(lacak.InvalidOptionError, match="must look like 3x4"):
        parse_size(size)  # type: ignore[arg-type]


def test_read_input_from_a_file_or_stdin(tmp_path: Path) -> None:
    text = "ÄRGER/QU\r\nline two\rthree\n"
    (tmp_path / "in.txt").write_bytes(text.encode("utf-8"))
    expected = "ÄRGER/QU\nline two\nthree\n"
    for args, stdin in (([str(tmp_path / "in.txt")], None), (["-"], text.encode("utf-8"))):
        result = run("read", *args, input=stdin)
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout) == expected


def test_read_input_drops_a_byte_order_mark(tmp_path: Path) -> None:
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbf123405786\r\n")
    for args, stdin in (([str(tmp_path / "bom.txt")], None), (["-"], b"\xef\xbb\xbfABC")):
        result = run("read", *args, input=stdin)
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout) in ("123405786\n", "ABC")
    assert read_input(str(tmp_path / "bom.txt")) == "123405786\n"


def test_read_input_errors_are_one_line(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.txt")
    assert one_line_error(run("read", missing)).startswith(f"Error: cannot read {missing!r}: ")
    assert one_line_error(run("read", str(tmp_path))) == (
        f"Error: {tmp_path} is not a regular file (a folder)"
    )
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    assert one_line_error(run("read", str(binary))) == f"Error: {binary} is not a UTF-8 text file"
    assert one_line_error(run("read", "-", input=b"\xff")) == (
        "Error: standard input is not a UTF-8 text file"
    )


def test_debug_shows_the_exception() -> None:
    result = run("--debug", "fail", "lacak")
    assert isinstance(result.exception, lacak.InvalidPuzzleError)


def test_plugins_command_lists_components() -> None:
    result = run("plugins", "--all")
    assert result.exit_code == 0
    assert "test-dijkstra" in result.output and "commands" in result.output


def test_plugins_counts_agree_with_their_nouns(monkeypatch: pytest.MonkeyPatch) -> None:
    """``lacak plugins`` says "1 puzzle, 2 searchers", never "1 puzzles"."""
    monkeypatch.setenv("COLUMNS", "200")  # (one table row a plugin)
    result = run("plugins", registry=lacak.default_registry())
    assert result.exit_code == 0, result.output
    jugs = next(line for line in result.output.splitlines() if "lacak_jugs" in line)
    assert "1 puzzle, 1 heuristic, commands" in jugs
    assert re.search(r"\b1 (puzzles|searchers|heuristics|generators|dictionaries)\b",
                     result.output) is None  # fmt: skip
    assert re.search(r"\b15 searchers\b", result.output)  # (lacak_search: 10, and 5 local)


@given(st.integers(0, 20_000), st.sampled_from(
    ["puzzles", "searchers", "heuristics", "generators", "dictionaries"]))
def test_a_hook_count_is_singular_for_one_only(count: int, noun: str) -> None:
    from lacak.cli.plugins import counted

    said = counted(count, noun)
    number, word = said.split(" ")
    assert int(number.replace(",", "")) == count
    assert (word == noun) == (count != 1)
    assert word in (noun, {"dictionaries": "dictionary"}.get(noun, noun[:-1]))


def test_plugin_commands_that_fail_to_register_are_skipped() -> None:
    class BadCommands:
        @lacak.hookimpl
        def register_commands(self, cli: click.Group) -> None:
            raise RuntimeError("no commands today")

    with pytest.warns(lacak.PluginWarning, match="no commands today"):
        registry = make_registry(CorePlugin(), BadCommands(), CommandPlugin())
        result = run("fail", "lacak", registry=registry)
    assert result.exit_code == 2  # the other plugin's command still works


def test_installed_script_runs_without_traceback() -> None:
    """The real console script: plugin warnings and errors are single lines."""
    proc = subprocess.run(
        [sys.executable, "-m", "lacak", "plugins", "--json"], capture_output=True, text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert '"plugins"' in proc.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "lacak", "no-such-command"], capture_output=True, text=True,
        check=False,
    )
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


MARKUP = ["[/etc/lacak]", "[bold red]x[/]", "[/]", "a\\", "[link=x]y"]


def test_plugins_command_prints_plugin_text_as_it_is() -> None:
    """Names, components and error texts from plugins are never read as rich markup."""

    class Bracketed:
        @lacak.hookimpl
        def register_searchers(self, register: Any) -> None:
            for name in MARKUP:
                register(lacak.Searcher(name=name, search=lambda p, **kw: None))

        @lacak.hookimpl
        def register_heuristics(self, register: Any) -> None:
            raise ImportError("cannot read [/etc/lacak] [bold]config[/bold]")

    with pytest.warns(lacak.PluginWarning, match=r"\[/etc/lacak\]"):
        registry = lacak.Registry(entry_points=False)
        registry.add_plugin(Bracketed(), name="[red]odd[/]")
        for args in (["plugins"], ["plugins", "--all"]):
            result = CliRunner().invoke(make_cli(registry), args, env={"COLUMNS": "300"})
            assert result.exit_code == 0, result.output
            assert "[red]odd[/]" in result.stdout
            assert "cannot read [/etc/lacak] [bold]config[/bold]" in result.stdout
    assert all(name in result.stdout for name in MARKUP)


def test_print_catalogue_prints_entries_as_they_are(capsys: pytest.CaptureFixture[str]) -> None:
    from lacak.cli import print_catalogue

    print_catalogue("catalogue", [(name, ["[i]fact[/i]"], name) for name in MARKUP])
    out = capsys.readouterr().out
    assert out.count("[i]fact[/i]") == len(MARKUP)
    assert all(out.count(name) >= 2 for name in MARKUP)


def test_plugin_commands_that_exit_while_registering_are_skipped() -> None:
    class Quitter:
        @lacak.hookimpl
        def register_commands(self, cli: click.Group) -> None:
            raise SystemExit(4)

    with pytest.warns(lacak.PluginWarning, match="SystemExit: 4"):
        result = run("fail", "lacak", registry=make_registry(CorePlugin(), Quitter(),
                                                             CommandPlugin()))
    assert one_line_error(result) == "Error: the board has an empty cell"


def _hello(text: str) -> click.Command:
    @click.command("hello")
    def hello() -> None:
        click.echo(text)

    return hello


class Greeter:
    """Adds ``lacak hello`` and a ``lacak greet`` group with ``lacak greet loud``."""

    @lacak.hookimpl
    def register_commands(self, cli: click.Group) -> None:
        cli.add_command(_hello("hello from the first plugin"))

        @cli.group("greet")
        def greet() -> None:
            """Greetings."""

        greet.add_command(_hello("HELLO"), "loud")


def test_a_plugin_that_raises_in_register_commands_adds_nothing() -> None:
    class HalfDone:
        @lacak.hookimpl
        def register_commands(self, cli: click.Group) -> None:
            cli.add_command(_hello("half"), "half")
            cli.commands["greet"].add_command(_hello("sneaky"), "quiet")  # type: ignore[attr-defined]
            cli.add_command(_hello("replaced"), "plugins")
            raise RuntimeError("then a bug")

    with pytest.warns(lacak.PluginWarning, match="then a bug; its commands are skipped"):
        registry = make_registry(Greeter(), HalfDone(), CommandPlugin())
        cli = make_cli(registry)
    core = set(make_cli(make_registry()).commands)  # (plugins, serve, tasks, ...)
    assert {"plugins", "serve"} <= core
    assert sorted(set(cli.commands) - core) == ["fail", "greet", "hello", "read"]
    assert sorted(cli.commands["greet"].commands) == ["loud"]  # type: ignore[attr-defined]
    result = CliRunner().invoke(cli, ["plugins", "--json"])
    assert result.exit_code == 0, result.output
    (failure,) = json.loads(result.stdout)["failures"]
    assert (failure["plugin"], failure["stage"]) == ("plugin1", "register_commands")


def test_a_command_name_already_taken_keeps_the_first_and_names_both() -> None:
    class Clasher:
        @lacak.hookimpl
        def register_commands(self, cli: click.Group) -> None:
            cli.add_command(_hello("hello from the second plugin"))
            cli.add_command(_hello("not the plugins command"), "plugins")
            cli.commands["greet"].add_command(_hello("quiet"), "loud")  # type: ignore[attr-defined]
            cli.add_command(_hello("mine"), "mine")

    with pytest.warns(lacak.PluginWarning, match="the first one is kept") as warned:
        registry = make_registry(Greeter(), Clasher())
        cli = make_cli(registry)
    messages = sorted(str(w.message) for w in warned)
    assert messages == [
        "plugin 'plugin1' failed in register_commands: DuplicateComponentError: command "
        f"{name!r} is registered by both {first} and plugin 'plugin1'; the first one is kept"
        for name, first in sorted([("greet loud", "plugin 'plugin0'"), ("hello", "plugin 'plugin0'"),
                                   ("plugins", "lacak itself")])
    ]
    runner = CliRunner()
    assert runner.invoke(cli, ["hello"]).stdout == "hello from the first plugin\n"
    assert runner.invoke(cli, ["greet", "loud"]).stdout == "HELLO\n"
    assert runner.invoke(cli, ["mine"]).stdout == "mine\n"  # its other commands are kept
    listing = runner.invoke(cli, ["plugins", "--json"])
    assert listing.exit_code == 0, listing.output
    assert len(json.loads(listing.stdout)["failures"]) == 3


def test_a_plugin_cannot_remove_a_command() -> None:
    class Remover:
        @lacak.hookimpl
        def register_commands(self, cli: click.Group) -> None:
            del cli.commands["plugins"]

    with pytest.warns(lacak.PluginWarning, match="removed command 'plugins' of lacak itself"):
        cli = make_cli(make_registry(Remover()))
    assert "plugins" in cli.commands


class Statuses:
    """Commands that return values, exit on purpose, or hit a bug."""

    @lacak.hookimpl
    def register_commands(self, cli: click.Group) -> None:
        @cli.command("returns")
        @click.argument("kind", type=click.Choice(["int", "bool", "text"]))
        @click.argument("value", type=int)
        def returns(kind: str, value: int) -> object:
            return {"int": value, "bool": bool(value), "text": str(value)}[kind]

        @cli.command("exits")
        @click.argument("code", type=int)
        @click.pass_context
        def exits(ctx: click.Context, code: int) -> None:
            ctx.exit(code)

        @cli.group("deep")
        def deep() -> None:
            """A group whose command has a bug."""

        @deep.command("bug")
        @click.argument("kind")
        def bug(kind: str) -> None:
            if kind == "key":
                {}["missing"]
            raise ValueError("the tiles\nare\tgone")


def test_only_an_int_a_command_returns_is_its_exit_status() -> None:
    registry = make_registry(Statuses())
    assert run("returns", "int", "3", registry=registry).exit_code == 3
    assert run("returns", "bool", "1", registry=registry).exit_code == 0
    assert run("returns", "text", "3", registry=registry).exit_code == 0


@pytest.mark.parametrize("code", [0, 1, 3, 42])
def test_ctx_exit_sets_the_exit_status(code: int) -> None:
    assert run("exits", str(code), registry=make_registry(Statuses())).exit_code == code


@pytest.mark.parametrize(
    ("kind", "error"),
    [("value", "ValueError: the tiles are gone"), ("key", "KeyError: 'missing'")],
)
def test_a_bug_in_a_command_is_one_line_with_status_1(kind: str, error: str) -> None:
    result = run("deep", "bug", kind, registry=make_registry(Statuses()))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        f"Error: internal error in lacak deep bug: {error} "
        "(rerun with --debug for the traceback)\n"
    )
    assert "Traceback" not in result.output


def test_debug_shows_a_bug_as_a_traceback() -> None:
    result = run("--debug", "deep", "bug", "value", registry=make_registry(Statuses()))
    assert isinstance(result.exception, ValueError)
    assert "internal error" not in result.output


@pytest.mark.parametrize(
    ("what", "code", "line"),
    [
        ("denied", 2, "Error: cannot open '/out/m.jsonl': Permission denied"),
        ("full", 1, "Error: No space left on device"),
        ("plugin", 2, "Error: plugin 'p' failed in strategy 's': ValueError: v "
                      "(rerun with --debug for the traceback)"),
    ],
)
def test_files_and_plugins_that_fail_are_one_line(what: str, code: int, line: str) -> None:
    result = run("fail", what)
    assert (result.exit_code, result.stderr) == (code, line + "\n")


def test_an_output_folder_that_cannot_be_written_is_bad_input(tmp_path: Path) -> None:
    """A real ``lacak batch`` asked to write where no file can be (a folder under a file;
    a read-only folder, unless root, whom permissions do not stop)."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    targets = [blocker / "m.jsonl"]
    if os.name == "posix" and os.geteuid() != 0:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o555)
        targets.append(locked / "m.jsonl")
    for target in targets:
        result = subprocess.run(
            [sys.executable, "-m", "lacak", "batch", "maze", "--size", "3x3", "-n", "2",
             "-o", str(target)], capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert result.returncode == 2, result.stderr
        (line,) = result.stderr.strip().splitlines()
        assert line.startswith("Error: ") and "Traceback" not in result.stderr


def test_ctrl_c_is_one_line_and_status_130_however_often_it_is_pressed() -> None:
    """A real ``lacak`` process searching for long, sent SIGINT (as Ctrl-C does) again and
    again: one line, exit status 130, never a traceback or ``Aborted.``."""
    fifteen = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"
    far = "0 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1"
    process = subprocess.Popen(
        [sys.executable, "-m", "lacak", "sliding", "solve", fifteen, "--goal", far, "-s", "bfs",
         "-H", "manhattan", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "LACAK_PROGRESS": "0"},
    )  # fmt: skip
    assert process.stderr is not None
    note = process.stderr.readline()  # the search begins once it is said
    assert note.startswith("note: strategy 'bfs' does not use a heuristic"), note
    time.sleep(0.5)
    for _ in range(5):
        process.send_signal(signal.SIGINT)
        time.sleep(0.02)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert out == "" and err == "interrupted (Ctrl-C)\n"


def _on_a_terminal(args: list[str], columns: int, lines: int = 40) -> str:
    """What ``lacak ARGS`` writes to standard output when that is a terminal of the size
    given (0 x 0: one that does not know its size) and standard error is a pipe."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    process = subprocess.Popen([sys.executable, "-m", "lacak", *args], stdout=slave,
                               stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                               env={**env, "LACAK_PROGRESS": "0"})  # fmt: skip
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # (the terminal closes with the process)
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    assert process.wait(timeout=120) == 0, process.stderr.read() if process.stderr else ""
    return out.decode().replace("\r\n", "\n")


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX terminal")
def test_the_real_standard_output_decides_colours_and_width() -> None:
    """While a command runs, descriptor 1 points at stderr (a pipe here): whether the
    real standard output is a terminal, and its size, still decide the picture."""
    wide = _on_a_terminal(["plugins"], columns=132)
    assert "\x1b[" in wide  # colours: it is a terminal
    plain = re.sub(r"\x1b\[[0-9;]*m", "", wide)
    assert 80 < max(len(line) for line in plain.splitlines()) <= 132
    unknown = _on_a_terminal(["maze", "generate", "--size", "3x4", "--seed", "1"], columns=0,
                             lines=0)  # fmt: skip
    assert "hunt-and-kill 3x4, seed 1" in unknown and "\x1b[" in unknown
    piped = subprocess.run([sys.executable, "-m", "lacak", "maze", "generate", "--size", "3x4",
                            "--seed", "1"], capture_output=True, text=True, timeout=120)  # fmt: skip
    assert piped.returncode == 0 and "\x1b[" not in piped.stdout
    assert "hunt-and-kill 3x4, seed 1" in piped.stdout

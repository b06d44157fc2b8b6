"""The ``lacak`` command line: the root group, ``lacak plugins``, and helpers for plugin commands.

Plugins add their groups through the ``register_commands(cli)`` hook. Any
:class:`~lacak.LacakError` (and any usage error) a command raises becomes one
line on stderr and exit status 2; ``lacak --debug ...`` (or ``LACAK_DEBUG=1``)
shows the traceback instead. Ctrl-C ends a command with one line and exit
status 130, however often it is pressed.

While a command runs, only lacak's own output reaches standard output: what
plugin code prints (in a search, a component, a hook, from C) goes to stderr
(:func:`lacak.plugin.isolation.stdout_for_lacak`). The ``lacak`` script also watches
plugin code against the command's time limit (:func:`lacak.plugin.isolation.watchdog`).
"""

from __future__ import annotations

import contextvars
import errno
import io
import os
import signal
import sys
import threading
import traceback
import warnings
from collections.abc import Sequence
from typing import Any

import click

from . import progress
from .batch_command import add_batch_commands
from .commands import add_kind_commands, output_format, solve_command, write_output
from .errors import InvalidInputError, LacakError, PluginError
from .options import parse_size
from .plugin import isolation
from .plugin.loader import PluginFailure, PluginInfo, PluginOverride, PluginWarning, one_line
from .plugin.registry import Registry, default_registry
from .store.cache import CacheWarning
from .store.paths import dictionary_limit, input_limit, read_bounded
from .version import __version__

__all__ = [
    "LacakGroup",
    "building_registry",
    "echo_json",
    "main",
    "make_cli",
    "output_format",
    "parse_size",
    "print_catalogue",
    "read_input",
    "registry_of",
    "solve_command",
    "write_output",
]


def _debug(args: Sequence[str]) -> bool:
    return "--debug" in args or os.environ.get("LACAK_DEBUG", "") not in ("", "0")


def _command_path(error: BaseException) -> str:
    """The path of the innermost command running when ``error`` was raised (``lacak maze solve``)."""
    innermost: click.Context | None = None
    for frame, _line in traceback.walk_tb(error.__traceback__):
        ctx = frame.f_locals.get("ctx")
        if isinstance(ctx, click.Context):
            innermost = ctx
    names = []
    while innermost is not None and innermost.parent is not None:
        names.append(innermost.info_name or "")
        innermost = innermost.parent
    return " ".join(["lacak", *reversed(names)])  # the root is "lacak" whatever argv[0] was


#: The ``errno`` values of an :class:`OSError` that say a path the user gave cannot be
#: used (exit status 2, bad input); any other (a full disk) is exit status 1.
_PATH_ERRNOS = frozenset(
    getattr(errno, name) for name in ("EACCES", "EPERM", "EROFS", "ENOENT", "ENOTDIR",
                                      "EISDIR", "EEXIST", "ENAMETOOLONG", "ELOOP", "ENXIO")
    if hasattr(errno, name)
)  # fmt: skip


class _Interrupted(BaseException):
    """Ctrl-C in a command, carried past click (which would print a blank line and
    ``Aborted!``) to :meth:`LacakGroup.main`."""


def _interrupted() -> int:
    """Report Ctrl-C in one line and ignore it from now on (what is still to do, freeing
    memory and ending workers, must not be cut into a traceback): exit status 130."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    stderr = sys.stderr
    start = "\n" if hasattr(stderr, "isatty") and stderr.isatty() else ""  # (after the ^C)
    click.echo(f"{start}interrupted (Ctrl-C)", err=True)
    return 130


def _os_error(error: OSError) -> tuple[str, int]:
    """The line and exit status of an :class:`OSError` no command turned into a lacak
    error: 2 when a path cannot be used (a read-only folder), else 1."""
    reason = error.strerror or str(error)
    if error.filename is not None and error.filename2 is not None:
        line = f"Error: cannot move {str(error.filename)!r} to {str(error.filename2)!r}: {reason}"
    elif error.filename is not None:
        line = f"Error: cannot open {str(error.filename)!r}: {reason}"
    else:
        line = f"Error: {reason}"
    return line, 2 if error.errno in _PATH_ERRNOS else 1


class LacakGroup(click.Group):
    """A click group that reports errors as one line instead of a traceback.

    A :class:`~lacak.LacakError` (bad input) or a usage error becomes
    ``Error: ...`` on stderr with exit status 2 (for a plugin's error, a
    :class:`~lacak.PluginError` naming the plugin and the component, with a hint
    of ``--debug``); a file or folder that cannot be used (a read-only output
    folder) also exits 2; any other exception from a command is a bug, reported
    as ``Error: internal error in <command>: ...`` with exit status 1. Ctrl-C is
    ``interrupted (Ctrl-C)`` and exit status 130, however often it is pressed.
    ``--debug`` (or ``LACAK_DEBUG=1``) shows the traceback instead. A command
    sets another exit status with ``ctx.exit(code)``; an ``int`` it returns is
    also taken as its exit status (``lacak boggle check`` relies on it),
    anything else it returns is ignored. While it runs, only lacak's own output
    reaches standard output (:func:`lacak.plugin.isolation.stdout_for_lacak`).
    """

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; Ctrl-C in it goes to :meth:`main` as it is."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as error:
            raise _Interrupted from error

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command line: a :class:`~lacak.LacakError` becomes one ``Error:`` line on
        stderr and exit status 2, any other exception one line naming the internal error and
        exit status 1 (``--debug`` before the command shows the traceback).

        :param args: the arguments (default ``sys.argv[1:]``); the others are click's.
        """
        argv = list(sys.argv[1:] if args is None else args)
        try:
            with isolation.stdout_for_lacak(), progress.reporting(_reporter()):
                result = super().main(
                    argv,
                    prog_name=prog_name or "lacak",
                    complete_var=complete_var,
                    standalone_mode=False,
                    **extra,
                )
        except LacakError as error:
            if _debug(argv):
                raise
            hint = ""
            if isinstance(error, PluginError) and error.__cause__ is not None:
                hint = " (rerun with --debug for the traceback)"
            click.echo(f"Error: {' '.join(str(error).split())}{hint}", err=True)
            code = 2
        except (_Interrupted, KeyboardInterrupt):
            code = _interrupted()
        except click.exceptions.Abort as error:
            if isinstance(error.__cause__ or error.__context__, KeyboardInterrupt):
                code = _interrupted()  # (Ctrl-C while click itself ran: a prompt, parsing)
            else:
                click.echo("Aborted.", err=True)
                code = 1
        except click.ClickException as error:
            message = " ".join(error.format_message().split())
            hint = ""
            if isinstance(error, click.UsageError) and error.ctx is not None:
                hint = f" (see '{error.ctx.command_path} --help')"
            click.echo(f"Error: {message}{hint}", err=True)
            code = error.exit_code
        except OSError as error:  # e.g. an unwritable output file
            if _debug(argv):
                raise
            line, code = _os_error(error)
            click.echo(line, err=True)
        except Exception as error:  # a bug (most likely in a plugin's command)
            if _debug(argv):
                raise
            click.echo(
                f"Error: internal error in {_command_path(error)}: {one_line(error)} "
                "(rerun with --debug for the traceback)",
                err=True,
            )
            code = 1
        else:  # ctx.exit(code), or what the command returned
            code = result if isinstance(result, int) and not isinstance(result, bool) else 0
        if standalone_mode:
            sys.exit(code)
        return code


_BUILDING: contextvars.ContextVar[Registry | None] = contextvars.ContextVar(
    "lacak_cli_building", default=None
)


def building_registry() -> Registry:
    """The registry the CLI is being built from (inside ``register_commands`` hooks),
    else the process-wide one; :func:`lacak.cli.solve_command` looks kinds up in it."""
    registry = _BUILDING.get()
    return registry if registry is not None else default_registry()


def _reporter() -> progress.Reporter | None:
    """A progress display on standard error when it is a terminal (``LACAK_PROGRESS=0``:
    never), so long work is never silent and scripts never see it."""
    if os.environ.get("LACAK_PROGRESS", "") == "0":
        return None
    stderr = sys.stderr
    return progress.RichReporter() if hasattr(stderr, "isatty") and stderr.isatty() else None


def registry_of(ctx: click.Context | None = None) -> Registry:
    """The registry the running CLI was built with (for plugin commands)."""
    ctx = ctx or click.get_current_context(silent=True)
    while ctx is not None:
        if isinstance(ctx.obj, Registry):
            return ctx.obj
        ctx = ctx.parent
    return default_registry()


def echo_json(data: Any) -> None:
    """Print ``data`` as indented JSON on stdout, short arrays on one line
    (:func:`lacak.output.dumps`)."""
    from .output import dumps

    click.echo(dumps(data))


def print_catalogue(title: str, entries: Sequence[tuple[str, Sequence[str], str]]) -> None:
    """Print a listing of components that stays readable in an 80-column terminal.

    Each entry is ``(name, facts, description)``: the name in bold, the short
    facts joined on one line, the description on the next. Entries are
    printed as plain text (brackets in them are not rich markup).
    """
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, title_justify="left", show_header=False, box=None, pad_edge=False)
    table.add_column("name", style="bold", no_wrap=True)
    table.add_column("details", overflow="fold")
    for index, (name, facts, description) in enumerate(entries):
        details = Text(" · ".join(f for f in facts if f), style="cyan")
        if description:
            details.append("\n" + description, style="default")
        table.add_row(Text(name), details, end_section=index < len(entries) - 1)
    Console().print(table)


def read_input(source: str, *, dictionary: bool = False) -> str:
    """The text of the file ``source``, or of standard input when ``source`` is ``"-"``.

    The bytes are read as UTF-8 (a leading byte-order mark is dropped) and line
    endings become ``"\\n"``, as in text mode. The file must be a regular file, and
    at most :func:`lacak.store.paths.input_limit` bytes are read (see
    :func:`lacak.store.paths.read_bounded`).

    :param dictionary: the text is a dictionary: :func:`lacak.store.paths.dictionary_limit` bounds it.
    :raises InvalidInputError: the file cannot be read, is not a regular file, is
        larger than the limit, or the bytes are not UTF-8.
    """
    if dictionary:
        limit, what, setting = dictionary_limit(), "dictionary files", "LACAK_MAX_DICTIONARY_MB"
    else:
        limit, what, setting = input_limit(), "puzzle files and input", "LACAK_MAX_INPUT_MB"
    try:
        if source == "-":
            stdin = sys.stdin
            buffer = getattr(stdin, "buffer", None)
            stream = buffer or io.BytesIO(stdin.read(limit + 1).encode())
            data = read_bounded(stream, limit, what=what, setting=setting)
        else:
            data = read_bounded(source, limit, what=what, setting=setting)
    except OSError as error:
        raise InvalidInputError(f"cannot read {source!r}: {error.strerror or error}") from None
    try:
        text = data.decode("utf-8-sig")  # as "utf-8", without a leading BOM
    except UnicodeDecodeError:
        name = "standard input" if source == "-" else source
        raise InvalidInputError(f"{name} is not a UTF-8 text file") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _print_plugins(
    infos: Sequence[PluginInfo],
    failures: Sequence[PluginFailure],
    overrides: Sequence[PluginOverride],
    unused: Sequence[str],
    show_all: bool,
) -> None:
    """The table of ``lacak plugins``, with its notes, failures and overrides."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    # Names, versions and error messages come from plugins: plain Text, never markup.
    console = Console()
    table = Table(title="lacak plugins", title_justify="left")
    table.add_column("plugin", style="bold")
    table.add_column("version")
    table.add_column("module")
    table.add_column("registered")
    builtins = {info.name for info in infos if info.builtin}
    notes = []
    for info in infos:
        parts = []
        for hook, names in info.registered.items():
            label = hook.removeprefix("register_")
            parts.append(f"{label}: {', '.join(names)}" if show_all else f"{len(names)} {label}")
        if "register_commands" in info.hooks:
            parts.append("commands")
        version = info.version or ""
        if info.builtin:
            version = f"built-in {version}".strip()
        elif info.distribution:
            version = f"{info.distribution} {version}".strip()
        table.add_row(
            Text(info.name),
            Text(version),
            Text(info.module),
            Text("\n".join(parts) if show_all else ", ".join(parts)),
        )
        if info.entry_point is not None and info.entry_point != info.name:
            why = (
                f"built-in plugin {info.entry_point!r} has that name"
                if info.entry_point in builtins
                else "several distributions use that name"
            )
            notes.append(
                f"{info.name}: loaded under this name, as its entry point "
                f"{info.entry_point!r} is taken ({why})"
            )
    console.print(table)
    for note in notes:
        console.print(Text(f"note: {note}", style="yellow"))
    if overrides:
        replaced = Table(
            title="built-in components replaced (LACAK_OVERRIDE)",
            title_justify="left",
            style="yellow",
        )
        replaced.add_column("component", style="bold")
        replaced.add_column("built-in plugin")
        replaced.add_column("replaced by")
        for override in overrides:
            replaced.add_row(
                Text(f"{override.hook.removeprefix('register_')}: {override.component}"),
                Text(override.builtin),
                Text(override.plugin),
            )
        console.print(replaced)
    if unused:
        console.print(
            Text(
                f"note: LACAK_OVERRIDE entries that replaced nothing: {', '.join(unused)}",
                style="yellow",
            )
        )
    if failures:
        failed = Table(title="failed plugins (skipped)", title_justify="left", style="red")
        failed.add_column("plugin", style="bold")
        failed.add_column("stage")
        failed.add_column("error", overflow="fold")
        for f in failures:
            culprit = f.plugin
            if (
                f.distribution
                and f.plugin not in builtins
                and not f.plugin.startswith(f"{f.distribution}:")
            ):
                culprit += f" ({f.distribution})"
            failed.add_row(Text(culprit), Text(f.stage), Text(f.error))
        console.print(failed)


def _plugins_command() -> click.Command:
    @click.command("plugins")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON.")
    @click.option("--all", "show_all", is_flag=True, help="List every registered component.")
    @click.pass_context
    def plugins(ctx: click.Context, as_json: bool, show_all: bool) -> None:
        """List the installed plugins, what they registered, and those that failed."""
        registry = registry_of(ctx)
        infos = registry.plugins()
        failures = registry.failures
        overrides = registry.overrides
        unused = registry.unused_overrides()
        if as_json:
            echo_json(
                {
                    "plugins": [info.to_dict() for info in infos],
                    "failures": [
                        {
                            "plugin": f.plugin,
                            "stage": f.stage,
                            "error": f.error,
                            "distribution": f.distribution,
                        }
                        for f in failures
                    ],
                    "overrides": [override.to_dict() for override in overrides],
                    "unused_overrides": unused,
                }
            )
            return
        _print_plugins(infos, failures, overrides, unused, show_all)

    return plugins


def _serve_command() -> click.Command:
    @click.command("serve")
    @click.option(
        "--host",
        default="127.0.0.1",
        show_default=True,
        help="Address to listen on (loopback: this machine only; others get a warning).",
    )
    @click.option(
        "--port",
        type=click.IntRange(0, 65535),
        default=8000,
        show_default=True,
        help="Port (0: any free one, said on start).",
    )
    @click.option("--open", "open_browser", is_flag=True, help="Open the pages in a browser.")
    @click.option(
        "--workers",
        type=click.IntRange(1, 64),
        default=2,
        show_default=True,
        help="Worker processes for generations and searches.",
    )
    @click.option(
        "--memory",
        "memory_mb",
        type=click.IntRange(0),
        default=4096,
        show_default=True,
        help="Address-space limit of each worker process, in MB (0: none).",
    )
    def serve(host: str, port: int, open_browser: bool, workers: int, memory_mb: int) -> int:
        """Serve interactive pages for every puzzle kind, and a JSON API under /api/.

        Mazes (generate, solve, animate), Boggle (solve, words and their paths),
        sliding puzzles (step through a solution, search trees) and a page for any
        other kind a plugin adds; the API is described at /api/openapi.json and
        /api/docs. Needs the web extra: pip install 'lacak[web]'. Ctrl-C stops it
        (exit status 130), as SIGTERM does (0).
        """
        from . import web

        return web.serve(
            host,
            port,
            open_browser=open_browser,
            workers=workers,
            memory_mb=memory_mb or None,
            say=lambda line: click.echo(line, err=True),
            warn=lambda line: click.echo(line, err=True),
        )

    return serve


def make_cli(registry: Registry | None = None) -> click.Group:
    """Build the ``lacak`` command group with every plugin's commands added."""
    registry = registry if registry is not None else default_registry()

    @click.group(cls=LacakGroup, context_settings={"help_option_names": ["-h", "--help"]})
    @click.version_option(__version__, "--version", "-V", prog_name="lacak")
    @click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
    @click.pass_context
    def cli(ctx: click.Context, debug: bool) -> None:
        """lacak: classic search and puzzle algorithms, extended by plugins.

        Sliding-tile puzzles, mazes and Boggle come as built-in plugins; run
        'lacak plugins' to see what is installed.
        """
        ctx.obj = registry

    cli.add_command(_plugins_command())
    cli.add_command(_serve_command())
    token = _BUILDING.set(registry)
    try:
        registry.add_commands(cli)
        add_kind_commands(cli, registry)
        add_batch_commands(cli, registry)
    finally:
        _BUILDING.reset(token)
    return cli


def _show_warning(message: Any, category: type[Warning], *_args: Any, **_kwargs: Any) -> None:
    label = "warning" if issubclass(category, (PluginWarning, CacheWarning)) else category.__name__
    click.echo(f"{label}: {' '.join(str(message).split())}", err=True)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``lacak`` script: :func:`make_cli`, run under lacak's watchdog
    (:func:`lacak.plugin.isolation.watchdog`: plugin code that runs well past the command's
    time limit, or holds the interpreter past a plugin's, ends the process)."""
    with warnings.catch_warnings(), isolation.watchdog():
        warnings.simplefilter("default", PluginWarning)
        warnings.simplefilter("always", CacheWarning)  # lacak.store.cache gives each one once
        warnings.showwarning = _show_warning
        try:
            cli = make_cli()
        except LacakError as error:  # a bad LACAK_* setting
            click.echo(f"Error: {error}", err=True)
            sys.exit(2)
        except KeyboardInterrupt:  # while the plugins load
            sys.exit(_interrupted())
        cli.main(args=argv, prog_name="lacak")

"""The ``lacak`` command line: the root group, and the kit for plugins' commands.

The package holds one module per concern: :mod:`lacak.cli.kit` (what every command
shares: the registry, reading input, writing output; re-exported here),
:mod:`lacak.cli.solve` (``lacak KIND solve``), :mod:`lacak.cli.batch` (``lacak batch
KIND``), :mod:`lacak.cli.plugins` (``lacak plugins``) and :mod:`lacak.cli.serve`
(``lacak serve``); this module builds the root group (:func:`make_cli`) and runs it
(:func:`main`, the ``lacak`` script).

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

import errno
import importlib
import os
import signal
import sys
import threading
import traceback
import warnings
from collections.abc import Sequence
from typing import Any

import click

from .. import progress
from ..errors import LacakError, PluginError
from ..options import parse_size
from ..plugin import isolation
from ..plugin.loader import PluginWarning, one_line
from ..plugin.registry import Registry, default_registry
from ..store.cache import CacheWarning
from ..version import __version__
from .batch import add_batch_commands, batch_command
from .compare import compare_command
from .kit import (
    FORMAT_SUFFIXES,
    Size,
    building,
    building_registry,
    echo_json,
    flag_name,
    kind_option,
    output_format,
    print_catalogue,
    read_from,
    read_input,
    registry_of,
    short_flags,
    write_output,
)
from .plugins import plugins_command
from .serve import serve_command
from .solve import add_kind_commands, solve_command
from .tasks import tasks_command

__all__ = [
    "FORMAT_SUFFIXES",
    "LacakGroup",
    "Size",
    "add_batch_commands",
    "add_kind_commands",
    "batch_command",
    "building_registry",
    "echo_json",
    "flag_name",
    "kind_option",
    "main",
    "make_cli",
    "output_format",
    "parse_size",
    "plugins_command",
    "print_catalogue",
    "read_from",
    "read_input",
    "registry_of",
    "serve_command",
    "short_flags",
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


#: Short flags that meant something else before lacak 0.2: ``(flag, the long flag it
#: was, what it is now)``; a command that has the long flag but not the short one names it.
_OLD_SHORT_FLAGS = (("-s", "--size", "--strategy"),)


def _renamed(error: click.NoSuchOption, ctx: click.Context) -> str:
    """A hint for a short flag the command lost (``maze generate -s 8x8``), else ``""``."""
    longs = {opt for p in ctx.command.params for opt in getattr(p, "opts", ())}
    for short, was, now in _OLD_SHORT_FLAGS:
        if error.option_name == short and was in longs:
            return f" ({short} is {now} now, in every command: give {was})"
    return ""


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
                if isinstance(error, click.NoSuchOption):
                    hint = _renamed(error, error.ctx) or hint
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


def _reporter() -> progress.Reporter | None:
    """A progress display on standard error when it is a terminal, else one line for each
    announcement of one-time work (``LACAK_PROGRESS=0``: nothing), so that long work is
    never silent and standard output never sees it."""
    if os.environ.get("LACAK_PROGRESS", "") == "0":
        return None
    stderr = sys.stderr
    if hasattr(stderr, "isatty") and stderr.isatty():
        return progress.RichReporter()
    return progress.LineReporter()


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

    cli.add_command(plugins_command())
    cli.add_command(serve_command())
    cli.add_command(tasks_command())
    cli.add_command(compare_command())
    with building(registry):
        registry.add_commands(cli)
        add_kind_commands(cli, registry)
        add_batch_commands(cli, registry)
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


#: Names ``lacak.cli`` held before it became a package only because the module imported
#: them (never its own): each still works for one release, with a warning naming its home.
_IMPORTED_BEFORE = {
    "InvalidInputError": "lacak.errors",
    "PluginFailure": "lacak.plugin.loader",
    "PluginInfo": "lacak.plugin.loader",
    "PluginOverride": "lacak.plugin.loader",
    "dictionary_limit": "lacak.store.paths",
    "input_limit": "lacak.store.paths",
    "read_bounded": "lacak.store.paths",
}


def __getattr__(name: str) -> Any:
    """A name ``lacak.cli`` only imported before 0.2 (:data:`_IMPORTED_BEFORE`), with a
    :class:`DeprecationWarning` naming the module it is from."""
    home = _IMPORTED_BEFORE.get(name)
    if home is None:
        raise AttributeError(f"module 'lacak.cli' has no attribute {name!r}")
    warnings.warn(
        f"lacak.cli.{name} is deprecated: import it from {home} (it goes in the next release)",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(importlib.import_module(home), name)


"""The command kit: what every lacak command shares, for the core's and plugins' commands.

The registry the running command line was built with (:func:`registry_of`,
:func:`building_registry`), reading input (:func:`read_input`), writing output
(:func:`write_output`, :func:`output_format`, :func:`echo_json`,
:func:`print_catalogue`), and the options a kind declares turned into click options
(:func:`kind_option`, :func:`short_flags`). Every name here is also importable from
:mod:`lacak.cli`.
"""

from __future__ import annotations

import contextlib
import contextvars
import io
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import click

from ..errors import InvalidInputError, InvalidOptionError
from ..options import read_size
from ..output import dumps
from ..plugin.registry import Registry, default_registry
from ..store.paths import dictionary_limit, input_limit, read_bounded

__all__ = [
    "FORMAT_SUFFIXES",
    "Size",
    "building",
    "building_registry",
    "echo_json",
    "flag_name",
    "kind_option",
    "output_format",
    "print_catalogue",
    "read_from",
    "read_input",
    "registry_of",
    "short_flags",
    "write_output",
]

#: The registry :func:`lacak.cli.make_cli` is building the command line from.
_BUILDING: contextvars.ContextVar[Registry | None] = contextvars.ContextVar(
    "lacak_cli_building", default=None
)


class Size(click.ParamType):
    """A ``--size`` option's type: ``ROWSxCOLS`` text read by :func:`lacak.options.read_size`
    into ``(rows, cols)``, for every kind's commands.

    A bad size is an :class:`~lacak.InvalidOptionError` (one ``Error:`` line, exit status
    2), the same message the library gives for it::

        @click.option("--size", type=Size("maze size", most=MAX_CELLS), default=None)

    :param what: what the size is in a message (default: the option's flag, ``--size``).
    """

    name = "size"

    def __init__(
        self,
        what: str | None = None,
        *,
        minimum: int = 1,
        most: int | None = None,
        unit: str = "cells",
    ) -> None:
        self.what, self.minimum, self.most, self.unit = what, minimum, most, unit

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        """``ROWSxCOLS``, in the option's help."""
        return "ROWSxCOLS"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> tuple[int, int]:
        """``(rows, cols)`` of the text given (or of a default given as a pair).

        :raises InvalidOptionError: a bad size (:func:`lacak.options.read_size`).
        """
        return read_size(value, what=self._what(param), minimum=self.minimum,
                         most=self.most, unit=self.unit)  # fmt: skip

    def _what(self, param: click.Parameter | None) -> str:
        if self.what is not None:
            return self.what
        longs = [opt for opt in getattr(param, "opts", ()) if opt.startswith("--")]
        return longs[0] if longs else "size"


@contextlib.contextmanager
def building(registry: Registry) -> Iterator[Registry]:
    """While the command line is built from ``registry``: :func:`building_registry` gives it."""
    token = _BUILDING.set(registry)
    try:
        yield registry
    finally:
        _BUILDING.reset(token)


def building_registry() -> Registry:
    """The registry the CLI is being built from (inside ``register_commands`` hooks),
    else the process-wide one; :func:`lacak.cli.solve_command` looks kinds up in it."""
    registry = _BUILDING.get()
    return registry if registry is not None else default_registry()


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
    click.echo(dumps(data))


def print_catalogue(title: str, entries: Sequence[tuple[str, Sequence[str], str]]) -> None:
    """Print a listing of components that stays readable in an 80-column terminal.

    Each entry is ``(name, facts, description)``: the name in bold, the short
    facts joined on one line, the description on the next. Entries are
    printed as plain text (brackets in them are not rich markup).
    """
    # (deferred: rich takes ~25 ms to import, and most runs print no table)
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


def read_from(
    ctx: click.Context,
    source: str,
    gives: Mapping[str, str],
    *,
    makes: str,
    records: str,
    reads: str | None = None,
) -> str:
    """The text of ``--from FILE`` (a generated instance's JSON, to make it again), after
    refusing the flags that FILE answers: the one reading of every kind's ``--from``.

    :param gives: the command's parameter names FILE answers, to their flags.
    :param makes: what the command does with FILE (``"makes the maze"``).
    :param records: what FILE records (``"generator, size, seed, options, ends"``).
    :param reads: what FILE must hold (``"a scramble's JSON (lacak sliding scramble
        --json)"``): text that is no JSON object is refused, saying so.
    :raises InvalidOptionError: a flag FILE answers was given too.
    :raises InvalidPuzzleError: ``reads`` and FILE holds no JSON object.
    """
    from ..errors import InvalidPuzzleError  # (what FILE holds is an instance)

    given = [flag for name, flag in gives.items()
             if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE]  # fmt: skip
    if given:
        raise InvalidOptionError(
            f"--from {makes} its file records ({records}): not with {', '.join(given)}"
        )
    text = read_input(source)
    if reads is not None and not text.lstrip().startswith("{"):
        where = "standard input" if source == "-" else repr(source)
        raise InvalidPuzzleError(f"--from reads {reads}, and {where} holds no JSON object")
    return text


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


#: What a file name's suffix says about its format (``-o maze.svg`` draws SVG).
FORMAT_SUFFIXES: Mapping[str, str] = {
    ".json": "json",
    ".svg": "svg",
    ".png": "png",
    ".txt": "text",
}

def output_format(
    format: str | None, output: str | None, as_json: bool, formats: tuple[str, ...]
) -> str:
    """The format to write: ``-f``, else ``--json``, else ``-o``'s suffix, else ``"text"``.

    :raises InvalidOptionError: ``-f`` and ``--json`` or ``-o``'s suffix disagree
        (``-f json -o m.svg``), or the format is not one the kind draws.
    """
    inferred = None
    if output and output != "-":
        inferred = FORMAT_SUFFIXES.get(Path(output).suffix.lower())
    asked = f"-f {format}"
    if as_json:
        if format not in (None, "json"):
            raise InvalidOptionError(f"--json prints JSON; it cannot go with -f {format}")
        asked = "--json" if format is None else asked
        format = "json"
    if format is not None and inferred is not None and format != inferred:
        raise InvalidOptionError(
            f"{asked} contradicts -o {output} (a .{inferred} file); give one or make them agree"
        )
    chosen = format or inferred or "text"
    if chosen not in ("json", *formats):
        raise InvalidOptionError(f"this kind draws {', '.join((*formats, 'json'))}, not {chosen}")
    return chosen


def write_output(data: str | bytes | Any, output: str | None, *, what: str = "") -> None:
    """Write ``data`` to the file ``output`` (announced on stderr), or to standard output.

    A rich renderable (a kind's coloured text picture) is printed through rich
    on a terminal and as plain text elsewhere.

    :raises InvalidOptionError: the file cannot be written, or binary data
        would go to a terminal.
    """
    if not isinstance(data, (str, bytes)):
        if (output is None or output == "-") and sys.stdout.isatty():
            # (deferred: rich takes ~25 ms to import, and most runs print no table)
            from rich.console import Console

            Console(highlight=False).print(data, soft_wrap=True)
            return
        data = data.plain if hasattr(data, "plain") else str(data)
    if output and output != "-":
        path = Path(output)
        try:
            if isinstance(data, bytes):
                path.write_bytes(data)
            else:
                path.write_text(data if data.endswith("\n") else data + "\n", encoding="utf-8")
        except OSError as error:
            raise InvalidOptionError(
                f"cannot write {output!r}: {error.strerror or error}"
            ) from None
        click.echo(f"wrote {path}" + (f" ({what})" if what else ""), err=True)
        return
    if isinstance(data, bytes):
        if sys.stdout.isatty():
            raise InvalidOptionError("that picture is binary: give -o FILE (or pipe the output)")
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    click.echo(data.rstrip("\n"))


def flag_name(name: str) -> str:
    """The long flag of an option's name: ``max_depth`` -> ``--max-depth``."""
    return "--" + name.replace("_", "-")


def kind_option(
    name: str, default: Any, help_text: str, short: str | None = None
) -> Callable[[Any], Any]:
    """A click option ``--NAME`` (and ``short``, if any) for a declared option, typed by
    its default; ``None`` when not given, so only what the user gave is passed on."""
    flag = flag_name(name)
    flags = [short] if short else []
    if isinstance(default, bool):
        return click.option(
            f"{flag}/--no-{name.replace('_', '-')}", *flags, name, default=None, help=help_text
        )
    if isinstance(default, tuple):
        return click.option(flag, *flags, name, multiple=True, help=help_text)
    if isinstance(default, int):
        return click.option(flag, *flags, name, type=int, default=None, help=help_text)
    if isinstance(default, float):
        return click.option(flag, *flags, name, type=float, default=None, help=help_text)
    return click.option(flag, *flags, name, default=None, help=help_text)


def short_flags(
    kind: str,
    flags: Mapping[str, str],
    declared: set[str],
    *,
    taken: frozenset[str],
    owner: str,
) -> dict[str, str]:
    """A kind's short flags, checked: ``-x`` form, for a declared option, none taken twice.

    :param taken: the short flags the command has for itself (``owner``: "every solve
        command").

    :raises InvalidOptionError: a short flag the kit cannot offer.
    """
    seen: dict[str, str] = {}
    for option, short in flags.items():
        if option not in declared:
            raise InvalidOptionError(
                f"puzzle kind {kind!r} gives the short flag {short!r} to {option!r}, "
                "which is not one of its options"
            )
        if not (isinstance(short, str) and len(short) == 2 and short[0] == "-"
                and short[1].isalnum()):  # fmt: skip
            raise InvalidOptionError(
                f"puzzle kind {kind!r}: a short flag is a dash and one letter, not {short!r}"
            )
        if short in taken or short in seen:
            holder = owner if short in taken else f"option {seen[short]!r}"
            raise InvalidOptionError(
                f"puzzle kind {kind!r} gives {short!r} to {option!r}, but {holder} has it"
            )
        seen[short] = option
    return dict(flags)

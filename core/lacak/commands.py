"""The command kit: ``lacak KIND solve`` built from a puzzle kind, with one grammar for all.

A plugin's puzzle kind (:class:`~lacak.PuzzleType`) declares how to parse,
choose, render and describe; :func:`solve_command` turns that into a click
command with the same options for every kind::

    lacak KIND solve PUZZLE [-s STRATEGY] [-H HEURISTIC] [-O KEY=VALUE ...]
                            [--max-depth N] [--max-nodes N] [--timeout S]
                            [--json] [--trace FILE] [--tree] [--full]
                            [-f FORMAT] [-o FILE] [--KIND-OPTION VALUE ...]
                            [-w N | --scheduler tcp://HOST:PORT | --scheduler local:N]

``-w``/``--workers`` and ``--scheduler`` split one search across worker processes
(lacak's own pool, or a Dask cluster, with the grammar of ``lacak batch``); only a
strategy that :attr:`~lacak.Searcher.splits` takes them, the others refuse them with
one line naming those that can.

A built-in plugin adds it to its own group; a third-party kind with no
command code at all gets a ``lacak KIND`` group holding it
(:func:`add_kind_commands`, called when the CLI is built).

Exit status: 0 when the goal was reached, 1 when the search ended without it
(no path, or a limit), 2 for bad input. A kind whose searches give what they
found so far when a limit stops them (Boggle's words) gets 1 for such a
partial result too, with a note on stderr: ``note: stopped early (time-limit:
--timeout was reached); <the kind's advice>``. JSON output gets that note for
any search a limit stopped.
"""

from __future__ import annotations

import contextlib
import functools
import shutil
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NoReturn

import click

from .errors import InvalidOptionError, LimitReachedError
from .limits import Budget, Limits, StopReason
from .options import parse_pairs
from .output import dumps, plural, summarise
from .plugin.registry import Registry, using
from .results import SearchResult

__all__ = [
    "FORMAT_SUFFIXES",
    "add_kind_commands",
    "output_format",
    "solve_command",
    "write_output",
]

#: What a file name's suffix says about its format (``-o maze.svg`` draws SVG).
FORMAT_SUFFIXES: Mapping[str, str] = {
    ".json": "json",
    ".svg": "svg",
    ".png": "png",
    ".txt": "text",
}

#: What each stop reason means on the command line.
WHY = {
    "exhausted": "no path exists",
    "depth-limit": "the goal is deeper than --max-depth",
    "node-limit": "--max-nodes was reached",
    "time-limit": "--timeout was reached",
    "memory-limit": "a memory limit was reached",
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


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _kind_option(
    name: str, default: Any, help_text: str, short: str | None = None
) -> Callable[[Any], Any]:
    """A click option ``--NAME`` (and ``short``, if any) for a declared option, typed by
    its default; ``None`` when not given, so only what the user gave is passed on."""
    flag = _flag(name)
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


#: The short flags every solve command has (a kind's :attr:`~lacak.PuzzleType.flags`
#: cannot take them).
SHORT_FLAGS = frozenset({"-s", "-H", "-O", "-f", "-o", "-h", "-w"})


def _short_flags(kind: str, flags: Mapping[str, str], declared: set[str]) -> dict[str, str]:
    """A kind's short flags, checked: ``-x`` form, for a declared option, none taken twice.

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
        if short in SHORT_FLAGS or short in seen:
            taken = "every solve command" if short in SHORT_FLAGS else f"option {seen[short]!r}"
            raise InvalidOptionError(
                f"puzzle kind {kind!r} gives {short!r} to {option!r}, but {taken} has it"
            )
        seen[short] = option
    return dict(flags)


def _trace_writer(path: Path) -> Callable[[Any], str]:
    suffix = path.suffix.lower()
    writers: dict[str, Callable[[Any], str]] = {
        ".json": lambda trace: trace.to_json(lines=True) + "\n",  # (a node a line: fast)
        ".dot": lambda trace: trace.to_dot(),
        ".gv": lambda trace: trace.to_dot(),
        ".svg": lambda trace: trace.to_svg(),
    }
    if suffix not in writers:
        raise InvalidOptionError(f"--trace writes .json, .dot or .svg files, not {path.name!r}")
    return writers[suffix]


def _tree_size() -> tuple[int, int]:
    """``(nodes, depth)`` of a tree that fits the terminal."""
    size = shutil.get_terminal_size((80, 24))
    return max(20, size.lines * 2), max(3, (size.columns - 40) // 4)


def _read_puzzle(argument: str, reads: str) -> str:
    from .cli import read_input

    if argument == "-" or reads == "file":
        return read_input(argument)
    return argument


def _report_text(
    kind_type: Any,
    puzzle: Any,
    result: SearchResult,
    label: str,
    *,
    full: bool,
    render_options: dict[str, Any],
) -> None:
    from .interfaces import describe_state

    draws = kind_type.render is not None and "text" in kind_type.formats
    if draws and kind_type.text_report:
        write_output(kind_type.render(puzzle, result, "text", full=full, **render_options), None)
        advice = kind_type.advice(puzzle, result) if kind_type.advice is not None else None
        if advice and result.stopped.is_limit:
            click.echo(f"hint: {advice}")
    elif result.found:
        click.echo(f"found: {plural(result.length, 'move')} with {label}")
        if result.actions:
            moves = summarise([str(a) for a in result.actions], full=full, noun="move")
        else:
            moves = "(none: the start is the goal)"
        click.echo(f"moves: {moves}")
        if draws:
            picture = kind_type.render(puzzle, result, "text", full=full, **render_options)
            click.echo("")
            write_output(picture, None)
        else:
            states = [describe_state(puzzle, s) for s in result.states]
            click.echo(f"path:  {summarise(states, full=full, noun='state', sep=' -> ')}")
    else:
        why = WHY.get(str(result.stopped), str(result.stopped))
        click.echo(f"not found with {label}: {why} (stopped: {result.stopped})")
        advice = kind_type.advice(puzzle, result) if kind_type.advice is not None else None
        if advice and result.stopped.is_limit:
            click.echo(f"hint: {advice}")
    stats = result.stats
    extra = f", {plural(stats.iterations, 'iteration')}" if stats.iterations > 1 else ""
    click.echo(
        f"\nexpanded {stats.expanded:,}, generated {stats.generated:,}, max frontier "
        f"{stats.max_frontier:,}, depth {stats.depth}{extra}, {stats.seconds:.4f} s"
    )


def _registry_now() -> Registry:
    from .cli import building_registry

    return building_registry()


def solve_command(
    kind: str, *, name: str = "solve", registry: Registry | None = None
) -> click.Command:
    """The ``solve`` command of puzzle kind ``kind``, built from its :class:`~lacak.PuzzleType`.

    Every kind's command has the same options (see the module docstring); the
    kind's declared ``options``, ``solve_options`` and ``render_options`` add
    ``--NAME`` flags, and its ``formats`` the pictures ``-f``/``-o`` can write.

    :param registry: where the kind is looked up (default: the registry the
        CLI is being built from).
    :raises UnknownComponentError: no puzzle kind ``kind`` is registered.
    """
    registry = registry if registry is not None else _registry_now()
    kind_type = registry.puzzle_types()[kind]
    formats = tuple(kind_type.formats)
    taken = {"strategy", "heuristic", "option", "max_depth", "max_nodes", "timeout", "json",
             "trace", "tree", "full", "format", "output", "puzzle", "workers",
             "scheduler"}  # fmt: skip
    declared: list[tuple[str, str, Any]] = []  # (group, name, default)
    for group, options in (
        ("parse", kind_type.options),
        ("solve", kind_type.solve_options),
        ("render", kind_type.render_options),
    ):
        for option, default in options.items():
            if option in taken:
                raise InvalidOptionError(
                    f"puzzle kind {kind!r} declares option {option!r}, which every solve "
                    "command already has"
                )
            taken.add(option)
            declared.append((group, option, default))
    what = "FILE" if kind_type.reads == "file" else "PUZZLE"
    example = ""
    if kind_type.example:
        holding = "a file holding, e.g.," if kind_type.reads == "file" else "e.g."
        example = f" ({holding} {kind_type.example!r})"
    summary = (
        f"Solve the {kind} puzzle in {what} ('-' reads standard input){example}.\n\n"
        "The strategy and heuristic are the best for the instance unless given "
        f"(the same choice as lacak.solve). Exit status: 0 when solved, 1 when the "
        "search ended without a solution or a limit cut it short, 2 for bad input."
    )

    @click.command(name, help=summary, short_help=f"Solve a {kind} puzzle: path, counts, picture.")
    @click.argument("puzzle", metavar=what)
    @click.option(
        "-s",
        "--strategy",
        default=None,
        help="Search strategy (default: the best for the instance).",
    )
    @click.option(
        "-H", "--heuristic", default=None, help="Heuristic with options (name:a=1,b=2), or 'none'."
    )
    @click.option(
        "-O",
        "--option",
        "pairs",
        multiple=True,
        metavar="KEY=VALUE",
        help="Strategy option: one KEY=VALUE each time (repeatable).",
    )
    @click.option(
        "--max-depth", type=click.IntRange(min=0), default=None, help="Deepest level to search."
    )
    @click.option(
        "--max-nodes", type=click.IntRange(min=0), default=None, help="Most nodes to expand."
    )
    @click.option(
        "--timeout",
        type=click.FloatRange(min=0),
        default=None,
        help="Seconds before giving up (reading the puzzle counts).",
    )
    @click.option(
        "--json", "as_json", is_flag=True, help="Print the result as JSON (docs/results.md)."
    )
    @click.option(
        "--trace",
        "trace_file",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Write the search tree to FILE.json, FILE.dot or FILE.svg.",
    )
    @click.option(
        "--tree", is_flag=True, help="Draw the search tree in the terminal (as much as fits)."
    )
    @click.option("--full", is_flag=True, help="Show a long path in full.")
    @click.option(
        "-f",
        "--format",
        "format_",
        type=click.Choice(("json", *formats)),
        default=None,
        help="Output format (default: from -o's suffix, else text).",
    )
    @click.option("-o", "--output", default=None, help="Write the result to FILE.")
    @click.option("-w", "--workers", type=click.IntRange(min=1), default=None,
                  help="Split the search across N worker processes (strategies that can).")
    @click.option("--scheduler", default=None, metavar="tcp://HOST:PORT|local:N",
                  help="Split the search across a Dask cluster (pip install 'lacak[dask]'), "
                  "or a LocalCluster of N processes.")
    @click.pass_context
    def command(ctx: click.Context, **values: Any) -> None:  # fmt: skip
        _solve(ctx, kind, declared, **values)

    shorts = _short_flags(kind, kind_type.flags, {option for _g, option, _d in declared})
    for group, option, default in declared:  # (on a built command each option is appended)
        help_text = kind_type.help.get(option, f"{kind} {group} option {option!r}.")
        command = _kind_option(option, default, help_text, shorts.get(option))(command)
    return command


def _solve(
    ctx: click.Context,
    kind: str,
    declared: list[tuple[str, str, Any]],
    *,
    puzzle: str,
    strategy: str | None,
    heuristic: str | None,
    pairs: tuple[str, ...],
    max_depth: int | None,
    max_nodes: int | None,
    timeout: float | None,
    as_json: bool,
    trace_file: Path | None,
    tree: bool,
    full: bool,
    format_: str | None,
    output: str | None,
    workers: int | None,
    scheduler: str | None,
    **kind_values: Any,
) -> None:
    from .cli import registry_of

    registry = registry_of(ctx)
    if workers is not None and scheduler is not None:
        raise InvalidOptionError(
            "--workers sets lacak's own pool and --scheduler a Dask cluster: give one"
        )
    with using(registry):  # what the kind's code looks up is in this command line's registry
        _solve_in(ctx, registry, kind, declared, puzzle=puzzle, strategy=strategy,
                  heuristic=heuristic, pairs=pairs, max_depth=max_depth, max_nodes=max_nodes,
                  timeout=timeout, as_json=as_json, trace_file=trace_file, tree=tree,
                  full=full, format_=format_, output=output, workers=workers,
                  scheduler=scheduler, **kind_values)  # fmt: skip


def _solve_in(
    ctx: click.Context,
    registry: Registry,
    kind: str,
    declared: list[tuple[str, str, Any]],
    *,
    puzzle: str,
    strategy: str | None,
    heuristic: str | None,
    pairs: tuple[str, ...],
    max_depth: int | None,
    max_nodes: int | None,
    timeout: float | None,
    as_json: bool,
    trace_file: Path | None,
    tree: bool,
    full: bool,
    format_: str | None,
    output: str | None,
    workers: int | None = None,
    scheduler: str | None = None,
    **kind_values: Any,
) -> None:
    from . import api
    from .interfaces import describe_state
    from .trace import SearchTrace

    kind_type = registry.puzzle_types()[kind]
    fmt = output_format(format_, output, as_json, tuple(kind_type.formats))
    given: dict[str, dict[str, Any]] = {"parse": {}, "solve": {}, "render": {}}
    for group, option, _default in declared:
        value = kind_values.get(option)
        if value is not None and value != ():
            given[group][option] = value
    write_trace = _trace_writer(trace_file) if trace_file is not None else None
    limits = Limits(max_depth=max_depth, max_expanded=max_nodes, seconds=timeout)
    # --timeout covers reading and preparing the puzzle too: the clock starts now, and
    # the search started inside ends no later
    budget = limits.start()
    with budget:
        try:
            text = _read_puzzle(puzzle, kind_type.reads)
            instance = kind_type(text, **given["parse"])
            choice = api.choose(instance, strategy, heuristic, registry=registry)
        except LimitReachedError as stop:
            if not budget.time_up():
                raise
            _stopped_before_search(ctx, kind, stop, strategy, heuristic, budget, fmt, output)
        for note in choice.notes:
            click.echo(f"note: {note}", err=True)
        options = parse_pairs(
            pairs, choice.searcher.options, what=f"strategy {choice.searcher.name!r}"
        )
        unknown = sorted(set(given["solve"]) - set(choice.searcher.options))
        if unknown:
            raise InvalidOptionError(
                f"strategy {choice.searcher.name!r} takes no option "
                f"{', '.join(_flag(u) for u in unknown)}"
            )
        options.update(given["solve"])
        recorder = None
        if write_trace is not None or tree:
            recorder = SearchTrace(describe=functools.partial(describe_state, instance))
        with contextlib.ExitStack() as stack:
            if workers is not None or scheduler is not None:
                api.check_splits(choice.searcher, instance, registry=registry)
                if recorder is not None:
                    raise InvalidOptionError(
                        "--trace and --tree record a search in one process: not with "
                        "--workers or --scheduler"
                    )
                if scheduler is not None:
                    from .batch.dataset import dask_executor

                    try:  # (a local:N cluster starts within the --timeout)
                        options["executor"] = stack.enter_context(dask_executor(scheduler))[0]
                    except LimitReachedError as stop:
                        if not budget.time_up():
                            raise
                        _stopped_before_search(ctx, kind, stop, strategy, heuristic, budget,
                                               fmt, output)  # fmt: skip
                else:
                    options["workers"] = workers
            result = choice.searcher(
                instance, heuristic=choice.heuristic, limits=limits, trace=recorder, **options
            )
    if write_trace is not None and recorder is not None and trace_file is not None:
        data = write_trace(recorder)
        try:
            trace_file.write_text(data, encoding="utf-8")
        except OSError as error:
            raise InvalidOptionError(
                f"cannot write {str(trace_file)!r}: {error.strerror or error}"
            ) from None
    if fmt == "json":
        write_output(dumps(result.to_dict(instance, registry=registry)), output)
    elif fmt == "text" and (output is None or output == "-"):
        _report_text(
            kind_type, instance, result, choice.label, full=full, render_options=given["render"]
        )
    else:
        if kind_type.render is None:
            raise InvalidOptionError(f"puzzle kind {kind!r} draws no pictures")
        picture = kind_type.render(instance, result if result.found else None, fmt,
                                   full=True, **given["render"])  # fmt: skip
        write_output(picture, output, what=f"{kind} {fmt}")
        if not result.found:
            why = WHY.get(str(result.stopped), str(result.stopped))
            click.echo(f"not found with {choice.label}: {why}", err=True)
    if result.stopped.is_limit and (result.found or fmt == "json"):
        _note_stop(kind_type, instance, result, limits)
    if tree and recorder is not None:
        from rich.console import Console

        nodes, depth = _tree_size()
        Console(stderr=fmt == "json" or output is not None).print(
            recorder.to_rich(max_nodes=nodes, max_depth=depth)
        )
        if len(recorder.nodes) > nodes:
            click.echo(
                f"note: the tree has {plural(len(recorder.nodes), 'node')}; "
                "--trace FILE.svg (or .json, .dot) writes all of it",
                err=True,
            )
    ctx.exit(0 if result.found and not result.stopped.is_limit else 1)


def _note_stop(kind_type: Any, puzzle: Any, result: SearchResult, limits: Limits) -> None:
    """One line on stderr for a search a limit stopped, when the output does not say it:
    a partial result (a kind that gives what it found so far), or JSON."""
    given = {
        "time-limit": ("--timeout", limits.seconds),
        "node-limit": ("--max-nodes", limits.max_expanded),
        "depth-limit": ("--max-depth", limits.max_depth),
    }.get(str(result.stopped))
    if given is not None and given[1] is not None:
        why = f"{given[0]} {given[1]:g} was reached"
    else:
        why = WHY.get(str(result.stopped), str(result.stopped))
    advice = kind_type.advice(puzzle, result) if kind_type.advice is not None else None
    partial = "" if advice or not result.found else "; the result is partial"
    click.echo(
        f"note: stopped early ({result.stopped}: {why}){partial}"
        + (f"; {advice}" if advice else ""),
        err=True,
    )


#: The ``strategy`` of a result when the time ran out before a strategy was chosen.
NOT_CHOSEN = "none"


def _stopped_before_search(
    ctx: click.Context,
    kind: str,
    stop: LimitReachedError,
    strategy: str | None,
    heuristic: str | None,
    budget: Budget,
    fmt: str,
    output: str | None,
) -> NoReturn:
    """Report a ``--timeout`` that ran out before the search began (while reading or
    preparing the puzzle) as a search stopped by it: exit status 1, and in JSON a result
    that found nothing, with no states and no kind extras (there is no puzzle yet)."""
    from .api import NO_HEURISTIC
    from .results import SearchStats

    result = SearchResult(
        found=False,
        stopped=StopReason.TIME,
        stats=SearchStats(seconds=budget.elapsed()),
        strategy=strategy or NOT_CHOSEN,
        kind=kind,
        heuristic=heuristic if heuristic and heuristic != NO_HEURISTIC else None,
    )
    if fmt == "json":
        write_output(dumps(result.to_dict()), output)
    else:
        click.echo(f"not found: --timeout was reached before the search began ({stop})")
    ctx.exit(1)


def add_kind_commands(cli: click.Group, registry: Registry) -> None:
    """Give every registered puzzle kind a ``lacak KIND solve`` command.

    A kind whose plugin added a group of the kind's name gets ``solve`` added
    to it when the group has none; a kind with no group gets a new group
    ``lacak KIND`` holding ``solve`` (a third-party kind needs no command code).
    """
    from .errors import LacakError
    from .plugin.loader import warn

    types = registry.puzzle_types()
    for kind in sorted(types):
        existing = cli.commands.get(kind)
        if existing is not None and (
            not isinstance(existing, click.Group) or "solve" in existing.commands
        ):
            continue
        try:
            command = solve_command(kind, registry=registry)
        except LacakError as error:  # a kind that declares options the kit cannot offer
            warn(f"puzzle kind {kind!r} of plugin {types.owner(kind)!r} gets no solve command: "
                 f"{error}")  # fmt: skip
            continue
        if existing is None:
            existing = click.Group(kind, help=types[kind].description or f"{kind} puzzles.")
            cli.add_command(existing)
        existing.add_command(command)

"""``lacak KIND solve``, built from a puzzle kind, with one grammar for all kinds.

A plugin's puzzle kind (:class:`~lacak.PuzzleType`) declares how to parse,
choose, render and describe; :func:`solve_command` turns that into a click
command with the same options for every kind::

    lacak KIND solve PUZZLE [-s STRATEGY] [-H HEURISTIC] [-O KEY=VALUE ...]
                            [--max-depth N] [--max-nodes N] [--timeout S]
                            [--json] [--trace FILE] [--trace-format FORMAT] [--tree]
                            [--steps] [--full]
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
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import click

from .. import api, run
from ..batch.dataset import dask_executor
from ..errors import InvalidOptionError, LacakError
from ..interfaces import describe_state
from ..limits import Limits
from ..options import parse_pairs
from ..output import dumps, plural, summarise
from ..plugin.loader import warn
from ..plugin.registry import Registry, using
from ..results import SearchResult
from ..tokens import tokens
from ..trace import SearchTrace
from .kit import (
    FORMAT_SUFFIXES,
    building_registry,
    kind_option,
    output_format,
    read_input,
    registry_of,
    short_flags,
    write_output,
)
from .kit import flag_name as _flag

__all__ = [
    "FORMAT_SUFFIXES",  # (from lacak.cli.kit: lacak.commands gave them)
    "NOT_CHOSEN",
    "SHORT_FLAGS",
    "add_kind_commands",
    "output_format",
    "solve_command",
    "write_output",
]

#: What each stop reason means on the command line.
WHY = {
    "exhausted": "no path exists",
    "depth-limit": "the goal is deeper than --max-depth",
    "node-limit": "--max-nodes was reached",
    "time-limit": "--timeout was reached",
    "memory-limit": "a memory limit was reached",
}


#: The formats of ``-o``/``-f`` that are pictures (``--tree -o FILE.svg`` gets a note:
#: ``-o`` writes the result's picture, ``--trace`` the tree's).
_PICTURES = frozenset({"svg", "png"})

#: The short flags every solve command has (a kind's :attr:`~lacak.PuzzleType.flags`
#: cannot take them).
SHORT_FLAGS = frozenset({"-s", "-H", "-O", "-f", "-o", "-h", "-w"})


#: What ``--trace-format`` names (``--trace FILE`` otherwise goes by the suffix).
TRACE_FORMATS = ("json", "dot", "svg", "png", "tokens")

#: How many steps ``--steps`` records at most (each keeps both lists).
MAX_STEPS = 1_000


def _trace_writer(path: Path, how: str | None = None) -> Callable[[Any], str | bytes]:
    suffix = "." + how if how is not None else path.suffix.lower()
    writers: dict[str, Callable[[Any], str | bytes]] = {
        ".json": lambda trace: trace.to_json(lines=True) + "\n",  # (a node a line: fast)
        ".dot": lambda trace: trace.to_dot(),
        ".gv": lambda trace: trace.to_dot(),
        ".svg": lambda trace: trace.to_svg(),  # (one drawing, lacak.drawing's Canvas)
        ".png": lambda trace: trace.to_png(),
        ".tokens": lambda pair: " ".join(tokens(*pair)) + "\n",
    }
    if suffix not in writers:
        raise InvalidOptionError(
            f"--trace writes .json, .dot, .svg or .png files, not {path.name!r} "
            "(--trace-format tokens writes any)"
        )
    return writers[suffix]


def _records_steps(ran: run.Run, what: str) -> SearchTrace:
    """The run's trace, if its strategy recorded what ``what`` needs (a generic one does)."""
    recorder = ran.trace
    if recorder is None or recorder.order is None:
        name = ran.choice.searcher.name if ran.choice is not None else "?"
        raise InvalidOptionError(
            f"strategy {name!r} records no {what}: name a generic one with -s "
            "(dfs, bfs, best-first, astar, uniform-cost, weighted-astar, idastar)"
        )
    return recorder


def _tree_size() -> tuple[int, int]:
    """``(nodes, depth)`` of a tree that fits the terminal."""
    size = shutil.get_terminal_size((80, 24))
    return max(20, size.lines * 2), max(3, (size.columns - 40) // 4)


def _read_puzzle(argument: str, reads: str) -> str:
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
             "scheduler", "steps", "trace_format"}  # fmt: skip
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
        help="Write the search tree to FILE.json, FILE.dot, or a picture: FILE.svg, FILE.png.",
    )
    @click.option(
        "--trace-format",
        type=click.Choice(TRACE_FORMATS),
        default=None,
        help="What --trace FILE holds (default: from its suffix); 'tokens': the search as "
        'Searchformer tokens (printed, or under "tokens" with --json, without --trace).',
    )
    @click.option(
        "--tree", is_flag=True, help="Draw the search tree in the terminal (as much as fits)."
    )
    @click.option(
        "--steps",
        is_flag=True,
        help="Show the search step by step: each node taken, its children, the open and "
        'closed lists (with --json: under "steps").',
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
    @click.option(
        "-w",
        "--workers",
        type=click.IntRange(min=1),
        default=None,
        help="Split the search across N worker processes (strategies that can).",
    )
    @click.option(
        "--scheduler",
        default=None,
        metavar="tcp://HOST:PORT|local:N",
        help="Split the search across a Dask cluster (pip install 'lacak[dask]'), "
        "or a LocalCluster of N processes.",
    )
    @click.pass_context
    def command(ctx: click.Context, **values: Any) -> None:  # fmt: skip
        _solve(ctx, kind, declared, **values)

    shorts = short_flags(kind, kind_type.flags, {option for _g, option, _d in declared},
                         taken=SHORT_FLAGS, owner="every solve command")  # fmt: skip
    for group, option, default in declared:  # (on a built command each option is appended)
        help_text = kind_type.help.get(option, f"{kind} {group} option {option!r}.")
        command = kind_option(option, default, help_text, shorts.get(option))(command)
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
    steps: bool = False,
    trace_format: str | None = None,
    **kind_values: Any,
) -> None:
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
                  scheduler=scheduler, steps=steps, trace_format=trace_format,
                  **kind_values)  # fmt: skip


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
    steps: bool = False,
    trace_format: str | None = None,
    **kind_values: Any,
) -> None:
    kind_type = registry.puzzle_types()[kind]
    fmt = output_format(format_, output, as_json, tuple(kind_type.formats))
    given: dict[str, dict[str, Any]] = {"parse": {}, "solve": {}, "render": {}}
    for group, option, _default in declared:
        value = kind_values.get(option)
        if value is not None and value != ():
            given[group][option] = value
    if trace_format not in (None, "tokens") and trace_file is None:
        raise InvalidOptionError(f"--trace-format {trace_format} says what --trace FILE holds: "
                                 "give --trace FILE too")  # fmt: skip
    write_trace = _trace_writer(trace_file, trace_format) if trace_file is not None else None
    limits = Limits(max_depth=max_depth, max_expanded=max_nodes, seconds=timeout)
    want_tokens = trace_format == "tokens"
    traced: bool | SearchTrace = write_trace is not None or tree or want_tokens
    if steps:
        traced = SearchTrace(steps=True, max_steps=MAX_STEPS)
    if (steps or want_tokens) and strategy is None:
        # the kind's own choice may be a specialised engine, which records no steps
        strategy = "bfs" if heuristic == api.NO_HEURISTIC else "astar"
        what = "--steps" if steps else "--trace-format tokens"
        click.echo(f"note: {what}: searching with {strategy} (name another with -s)", err=True)

    def read() -> Any:
        return kind_type(_read_puzzle(puzzle, kind_type.reads), **given["parse"])

    def before_search(instance: Any, choice: api.Choice, options: dict[str, Any]) -> None:
        for note in choice.notes:
            click.echo(f"note: {note}", err=True)
        options.update(parse_pairs(
            pairs, choice.searcher.options, what=f"strategy {choice.searcher.name!r}"
        ))  # fmt: skip
        unknown = sorted(set(given["solve"]) - set(choice.searcher.options))
        if unknown:
            raise InvalidOptionError(
                f"strategy {choice.searcher.name!r} takes no option "
                f"{', '.join(_flag(u) for u in unknown)}"
            )
        options.update(given["solve"])
        if workers is not None or scheduler is not None:
            api.check_splits(choice.searcher, instance, registry=registry)
            if traced:
                raise InvalidOptionError(
                    "--trace and --tree record a search in one process: not with "
                    "--workers or --scheduler"
                )
            if scheduler is not None:  # (a local:N cluster starts within the --timeout)
                options["executor"] = stack.enter_context(dask_executor(scheduler))[0]
            else:
                options["workers"] = workers

    # --timeout covers reading and preparing the puzzle too: one deadline for the run
    with contextlib.ExitStack() as stack:
        ran = run.solve_run(kind, read, strategy=strategy, heuristic=heuristic, limits=limits,
                            trace=traced, before_search=before_search,
                            registry=registry)  # fmt: skip
    if ran.stopped_before is not None:
        _stopped_before_search(ctx, ran, fmt, output)
    instance, result, recorder = ran.instance, ran.result, ran.trace
    assert ran.choice is not None
    choice = ran.choice
    if isinstance(traced, SearchTrace) and recorder is not None:
        recorder.describe = functools.partial(describe_state, instance)
    token_list: list[str] | None = None
    if want_tokens:
        token_list = tokens(_records_steps(ran, "token trace"), result.states if result.found
                            else None)  # fmt: skip
    if steps and _records_steps(ran, "steps").steps_truncated:
        click.echo(f"note: --steps keeps the first {MAX_STEPS:,} steps of a search (each "
                   "holds both lists): a smaller search shows them all", err=True)  # fmt: skip
    if write_trace is not None and recorder is not None and trace_file is not None:
        data = write_trace((recorder, result.states if result.found else None)
                           if want_tokens else recorder)  # fmt: skip
        try:
            if isinstance(data, bytes):
                trace_file.write_bytes(data)
            else:
                trace_file.write_text(data, encoding="utf-8")
        except OSError as error:
            raise InvalidOptionError(
                f"cannot write {str(trace_file)!r}: {error.strerror or error}"
            ) from None
    if fmt == "json":
        report = ran.to_dict()
        if steps and recorder is not None:
            report["steps"] = recorder.steps_to_list()
        if token_list is not None and trace_file is None:
            report["tokens"] = token_list
        write_output(dumps(report), output)
    elif fmt == "text" and (output is None or output == "-"):
        if steps and recorder is not None:
            click.echo(f"{choice.label}, step by step:")
            click.echo(recorder.steps_text())
        if token_list is not None and trace_file is None:
            click.echo(" ".join(token_list))
            click.echo("")
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
        _note_stop(result, ran.advice, limits)
    if tree and recorder is not None:
        # (deferred: rich takes ~25 ms to import, and most runs print no table)
        from rich.console import Console

        nodes, depth = _tree_size()
        Console(stderr=fmt != "text" or output is not None).print(
            recorder.to_rich(max_nodes=nodes, max_depth=depth)
        )
        if fmt in _PICTURES and output not in (None, "-") and trace_file is None:
            # `--tree -o tree.svg` reads as "the tree, in a file"; -o writes the result
            click.echo(
                f"note: -o {output} holds the result's picture; --trace FILE.svg "
                "(or .png, .json, .dot) writes the search tree to a file",
                err=True,
            )
        elif len(recorder.nodes) > nodes:
            click.echo(
                f"note: the tree has {plural(len(recorder.nodes), 'node')}; "
                "--trace FILE.svg (or .png, .json, .dot) writes all of it",
                err=True,
            )
    ctx.exit(0 if result.found and not result.stopped.is_limit else 1)


def _note_stop(result: SearchResult, advice: str | None, limits: Limits) -> None:
    """One line on stderr for a search a limit stopped, when the output does not say it:
    a partial result (a kind that gives what it found so far), or JSON; with the kind's
    ``advice`` (the solve run's)."""
    given = {
        "time-limit": ("--timeout", limits.seconds),
        "node-limit": ("--max-nodes", limits.max_expanded),
        "depth-limit": ("--max-depth", limits.max_depth),
    }.get(str(result.stopped))
    if given is not None and given[1] is not None:
        why = f"{given[0]} {given[1]:g} was reached"
    else:
        why = WHY.get(str(result.stopped), str(result.stopped))
    partial = "" if advice or not result.found else "; the result is partial"
    click.echo(
        f"note: stopped early ({result.stopped}: {why}){partial}"
        + (f"; {advice}" if advice else ""),
        err=True,
    )


#: The ``strategy`` of a result when the time ran out before a strategy was chosen.
NOT_CHOSEN = run.NOT_CHOSEN


def _stopped_before_search(
    ctx: click.Context, ran: run.Run, fmt: str, output: str | None
) -> NoReturn:
    """Report a ``--timeout`` that ran out before the search began (while reading or
    preparing the puzzle) as a search stopped by it: exit status 1, and in JSON a result
    that found nothing, with no states and no kind extras (there is no puzzle yet)."""
    if fmt == "json":
        write_output(dumps(ran.to_dict()), output)
    else:
        click.echo(
            f"not found: --timeout was reached before the search began ({ran.stopped_before})"
        )
    ctx.exit(1)


def add_kind_commands(cli: click.Group, registry: Registry) -> None:
    """Give every registered puzzle kind a ``lacak KIND solve`` command.

    A kind whose plugin added a group of the kind's name gets ``solve`` added
    to it when the group has none; a kind with no group gets a new group
    ``lacak KIND`` holding ``solve`` (a third-party kind needs no command code).
    """
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

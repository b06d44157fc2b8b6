"""``lacak batch KIND``: datasets and experiments from the command line, for every kind.

The core builds one command per puzzle kind that has generators, from the
kind's :class:`~lacak.BatchKind` (its own options, its default generator and
whether it solves), so a third-party kind gets it with no command code::

    lacak batch KIND -n COUNT [--seed S] [-a GENERATOR] [--size ROWSxCOLS] [-O KEY=VALUE ...]
                     [--solve/--no-solve] [-s STRATEGY] [-H HEURISTIC]
                     [--max-depth N] [--max-nodes N] [--timeout S]
                     [--min-solution-length L] [--max-solution-length L] [--unique]
                     [-w N | --scheduler tcp://HOST:PORT | --scheduler local:N] [--chunk-size N]
                     [-o FILE] [--resume | --overwrite] [--timings] [--trace tokens] [--json]
                     [--KIND-OPTION ...]
    lacak batch KIND --task [NAME] [--level L] -n COUNT [--seed S] [--size ROWSxCOLS]
                     [-O KEY=VALUE ...] [--trace tokens [-s STRATEGY]] [the same executor,
                     file and resume options]

``--task`` makes each record an entry of one of the kind's tasks (:mod:`lacak.tasks`):
its ``question``, ``answer`` and ``metadata``, the same as
``lacak.tasks.create_dataset(NAME, seed=S, level=L)[index]`` gives; ``--size`` and ``-O``
are then the task's options.

Records go to ``-o FILE`` (``--output``; JSON Lines; gzipped for ``.gz``; stacked arrays for
``.npz``) or standard output; a progress bar (on a terminal) and a summary
table go to standard error. Exit status: 0 when every record succeeded, 1 when
some failed (a job raised, or a limit stopped its search) or the batch gave up,
2 for bad input, 130 when interrupted (the file then holds the records
finished so far, and ``--resume`` checks it record by record and finishes it).
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

import click

from ..batch import dataset
from ..errors import InvalidOptionError, LacakError, LimitReachedError
from ..interfaces import BatchKind
from ..limits import Limits
from ..options import parse_pairs
from ..output import dumps, plural
from ..plugin.loader import warn
from ..plugin.registry import Registry, using
from .kit import Size, kind_option, short_flags

__all__ = ["add_batch_commands", "batch_command"]

#: The options every ``lacak batch KIND`` has (a kind's own cannot take their names).
COMMON = frozenset({
    "count", "seed", "algorithm", "size", "gen_options", "solve", "strategy", "heuristic",
    "max_depth", "max_nodes", "timeout", "min_solution_length", "max_solution_length",
    "unique", "workers", "scheduler", "chunk_size", "out", "resume", "overwrite", "timings",
    "trace", "as_json", "task", "level",
})  # fmt: skip

#: The short flags every ``lacak batch KIND`` has.
SHORT = frozenset({"-n", "-a", "-O", "-s", "-H", "-w", "-o", "-h"})


def add_batch_commands(cli: click.Group, registry: Registry) -> None:
    """Add the ``lacak batch`` group, with ``lacak batch KIND`` for every kind that has
    generators."""
    group = click.Group(
        "batch",
        help="Make datasets: many instances of a kind, generated (and solved) in parallel, "
        "streamed to JSON Lines, resumable (docs/batch.md).",
    )
    for kind in registry.kinds("register_generators"):
        try:
            group.add_command(batch_command(kind, registry=registry))
        except LacakError as error:  # a kind that declares options the command cannot offer
            warn(f"puzzle kind {kind!r} gets no batch command: {error}")
    if group.commands:
        cli.add_command(group)


def batch_command(kind: str, *, registry: Registry) -> click.Command:
    """The ``lacak batch KIND`` command, built from the kind's :class:`~lacak.BatchKind`.

    :raises InvalidOptionError: the kind declares an option or a short flag the
        command already has.
    """
    kind_type = registry.puzzle_types().get(kind)
    batch = (kind_type.batch if kind_type is not None else None) or BatchKind()
    for option in batch.options:
        if option in COMMON:
            raise InvalidOptionError(
                f"puzzle kind {kind!r} declares batch option {option!r}, which every batch "
                "command already has"
            )
    shorts = short_flags(kind, batch.flags, set(batch.options), taken=SHORT,
                         owner="every batch command")  # fmt: skip
    names = ", ".join(sorted(registry.generators(kind)))
    generator = batch.generator or "the kind's only one"
    solves = "solved" if batch.solve else "not solved"
    summary = (
        f"Make COUNT {kind} instances with the generator (default {generator}), each from "
        f"its own seed, {solves} unless told (--solve/--no-solve), as JSON Lines records "
        "in job order: the same file whatever runs the jobs.\n\n"
        "Exit status: 0 when every record succeeded, 1 when some failed or the batch gave "
        "up, 2 for bad input, 130 when interrupted (--resume finishes the file)."
    )

    @click.command(kind, help=summary, short_help=f"Make a dataset of {kind} instances.")
    @click.option("-n", "--count", type=click.IntRange(min=0), required=True,
                  help="Records to make.")
    @click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
                  help="The batch's seed: job i's seed is derived from it.")
    @click.option("-a", "--algorithm", default=None,
                  help=f"Generator: {names} (default {generator}).")
    @click.option("--size", type=Size(), default=None, metavar="ROWSxCOLS",
                  help="Size, ROWSxCOLS: 3x4 is 3 rows by 4 columns (default: the generator's).")
    @click.option("-O", "--option", "gen_options", multiple=True, metavar="KEY=VALUE",
                  help="Generator option: one KEY=VALUE each time (repeatable).")
    @click.option("--solve/--no-solve", default=None,
                  help=f"Solve each instance (default: {'yes' if batch.solve else 'no'}).")
    @click.option("-s", "--strategy", default=None,
                  help="Search strategy (default: the best for each instance).")
    @click.option("-H", "--heuristic", default=None,
                  help="Heuristic with options (name:a=1,b=2), or 'none'.")
    @click.option("--max-depth", type=click.IntRange(min=0), default=None,
                  help="Deepest level each search may look at.")
    @click.option("--max-nodes", type=click.IntRange(min=0), default=None,
                  help="Most nodes each search may expand.")
    @click.option("--timeout", type=click.FloatRange(min=0), default=None,
                  help="Seconds each job may take (generating counts).")
    @click.option("--min-solution-length", type=click.IntRange(min=0), default=None,
                  metavar="L", help="Keep instances whose solution has at least L moves "
                  "(draw others again; implies --solve).")
    @click.option("--max-solution-length", type=click.IntRange(min=0), default=None,
                  metavar="L", help="Keep instances whose solution has at most L moves.")
    @click.option("--unique", is_flag=True,
                  help="Keep no instance equal to an earlier one (draw again).")
    @click.option("-w", "--workers", type=click.IntRange(min=1), default=None,
                  help="Worker processes (default: one per core; jobs never run in the "
                  "process that writes the file).")
    @click.option("--scheduler", default=None, metavar="tcp://HOST:PORT|local:N",
                  help="Run the jobs on a Dask cluster (pip install 'lacak[dask]'), or on a "
                  "LocalCluster of N processes.")
    @click.option("--chunk-size", type=click.IntRange(min=1), default=None,
                  help="Jobs sent to a worker at a time (default: grows to ~0.25 s of work).")
    @click.option("-o", "--output", "--out", "out", default=None, metavar="FILE",
                  help="Write the records to FILE: .jsonl, .jsonl.gz or .npz (default: "
                  "standard output; --out is the old spelling).")
    @click.option("--resume", is_flag=True,
                  help="Finish the FILE an interrupted run left (the same bytes as one run).")
    @click.option("--overwrite", is_flag=True, help="Replace FILE if it exists.")
    @click.option("--timings", is_flag=True,
                  help="Put wall-clock seconds in the records (the file then differs "
                  "from run to run).")
    @click.option("--json", "as_json", is_flag=True,
                  help="Print the summary as JSON on standard output (needs -o FILE).")
    @click.option("--trace", "trace", type=click.Choice(["tokens"]), default=None,
                  help="Put each search in its record as Searchformer tokens ('tokens'); "
                  "solves with astar unless -s names another.")
    @click.option("--task", is_flag=False, flag_value="", default=None, metavar="[NAME]",
                  help="Make entries of the kind's task NAME (default: the kind's own) "
                  "instead: question, answer, metadata (see 'lacak tasks list').")
    @click.option("--level", type=click.IntRange(min=1), default=None,
                  help="The task's level (with --task; default 1).")
    @click.pass_context
    def command(ctx: click.Context, **values: Any) -> None:  # fmt: skip
        with using(registry):
            _run(ctx, kind, batch, registry, **values)

    for option, default in batch.options.items():
        help_text = batch.help.get(option, f"{kind} batch option {option!r}.")
        command = kind_option(option, default, help_text, shorts.get(option))(command)
    return command


def _run(ctx: click.Context, kind: str, batch: Any, registry: Registry, **values: Any) -> None:
    kind_values = {name: values.pop(name) for name in list(batch.options)}
    given = {k: v for k, v in kind_values.items() if v is not None and v != ()}
    if values["as_json"] and values["out"] in (None, "-"):
        raise InvalidOptionError(
            "--json prints the summary on standard output, where the records would go: "
            "give -o FILE"
        )
    if values["scheduler"] is not None and values["workers"] is not None:
        raise InvalidOptionError(
            "--workers sets lacak's own pool and --scheduler a Dask cluster: give one"
        )
    task, level = values.pop("task"), values.pop("level")
    if task is None and level is not None:
        raise InvalidOptionError("--level is a task's level: give --task too")
    size = values["size"]
    limits = None
    if any(values[k] is not None for k in ("max_depth", "max_nodes", "timeout")):
        limits = Limits(max_depth=values["max_depth"], max_expanded=values["max_nodes"],
                        seconds=values["timeout"])  # fmt: skip
    common = {
        "generator": values["algorithm"],
        "size": size,
        "kind_options": given,
        "solve": values["solve"],
        "strategy": values["strategy"],
        "heuristic": values["heuristic"],
        "limits": limits,
        "min_length": values["min_solution_length"],
        "max_length": values["max_solution_length"],
        "unique": values["unique"],
        "timings": values["timings"],
        "trace": values["trace"],
        "registry": registry,
    }
    if task is not None:
        plan = _task_plan(kind, task, level, values["gen_options"], common)
    else:
        plan = dataset.spec(kind, **common)  # the generator, so that -O values are typed by it
        generator = registry.generators(kind)[plan.generator]
        options = parse_pairs(values["gen_options"], generator.options,
                              what=f"generator {plan.generator!r}")  # fmt: skip
        plan = dataset.spec(kind, options=options, **{**common, "generator": plan.generator})
    bounded = plan.min_length is not None or plan.max_length is not None
    if bounded and plan.strategy is not None:
        searcher = registry.searchers()[plan.strategy]
        if not (searcher.optimal or searcher.fewest_moves):
            click.echo(f"note: strategy {plan.strategy!r} does not find shortest solutions: the "
                       "lengths kept are its own, not the instances' least", err=True)  # fmt: skip
    summary = dataset.Summary(kind, values["count"])
    with contextlib.ExitStack() as stack:
        executor = None
        workers = values["workers"]
        if values["scheduler"] is not None:
            executor, threads = stack.enter_context(dataset.dask_executor(values["scheduler"]))
            summary.workers = workers = threads
        else:
            summary.workers = workers or os.cpu_count() or 1
        code = 0
        try:
            dataset.write(plan, values["out"], count=values["count"], seed=values["seed"],
                          resume=values["resume"], overwrite=values["overwrite"],
                          executor=executor, workers=workers, chunksize=values["chunk_size"],
                          summary=summary)  # fmt: skip
        except KeyboardInterrupt:
            code = 130
        except LimitReachedError:
            code = 1
        if code == 0 and not summary.succeeded:
            code = 1
    _report(summary, values["as_json"])
    if summary.interrupted:
        where = summary.out or "the output"
        if where.lower().endswith(".npz"):
            where += ".jsonl (turned into the .npz when complete)"
        are = "is" if summary.records == 1 else "are"
        click.echo(f"interrupted: {summary.records:,} of {plural(summary.count, 'record')} {are} "
                   f"in {where}; run the same command with --resume to finish it", err=True)  # fmt: skip
    if summary.gave_up:
        click.echo(f"Error: {summary.gave_up}", err=True)
    ctx.exit(code)


def _task_plan(kind: str, name: str, level: int | None, pairs: tuple[str, ...],
               common: dict[str, Any]) -> Any:  # fmt: skip
    """The spec of a task batch (``--task``): ``--size`` and ``-O`` are the task's options."""
    from .. import tasks as tasking  # (deferred: only task batches need it)

    registry = common["registry"]
    own = {task_name: task for task_name, (owner, task) in
           tasking.tasks(registry=registry).items() if owner == kind}  # fmt: skip
    if not own:
        raise InvalidOptionError(f"the {kind} kind declares no task (see 'lacak tasks list')")
    if not name:
        if kind in own:
            name = kind
        elif len(own) == 1:
            (name,) = own
        else:
            raise InvalidOptionError(f"name one of the {kind} tasks: --task {'|'.join(own)}")
    if name not in own:
        raise InvalidOptionError(
            f"the {kind} kind has no task {name!r} (its tasks: {', '.join(own)})"
        )
    declared = own[name]
    options = parse_pairs(pairs, declared.options, what=f"task {name!r}")
    size = common.pop("size")
    if size is not None:
        if "shape" not in declared.options:
            raise InvalidOptionError(f"task {name!r} takes no size (its options: "
                                     f"{', '.join(declared.options) or 'none'})")  # fmt: skip
        options["shape"] = f"{size[0]}x{size[1]}"
    return dataset.spec(kind, task=name, level=level, task_options=options, **common)


def _report(summary: Any, as_json: bool) -> None:
    """The summary: a table on standard error, or JSON on standard output."""
    if as_json:
        click.echo(dumps(summary.to_dict()))
        return
    # (deferred: rich takes ~25 ms to import, and most runs print no table)
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    data = summary.to_dict()
    where = f" to {summary.out}" if summary.out else ""
    rate = data["records_per_second"]
    written = plural(summary.written, "record")
    speed = f"{rate:,.0f} records/s, " if rate else ""
    head = (
        f"{summary.kind} batch: {written} written{where} in {summary.seconds:.1f} s "
        f"({speed}{plural(summary.workers, 'worker')})"
    )
    console = Console(stderr=True, highlight=False)
    console.print(Text(head, style="bold"), soft_wrap=True)
    counts = Table(show_header=False, box=None, pad_edge=False)
    counts.add_column("what", style="bold")
    counts.add_column("count", justify="right")
    counts.add_column("detail")
    total = f"{summary.records:,} of {summary.count:,}"
    counts.add_row("records", total, "" if summary.records == summary.written
                   else f"{summary.records - summary.written:,} from the earlier run")  # fmt: skip
    counts.add_row("ok", f"{summary.ok:,}", "")
    errors = ", ".join(f"{name} {n:,}" for name, n in sorted(summary.errors.items()))
    counts.add_row("failed", f"{summary.failed:,}", Text(errors))
    if summary.rejected:
        reasons = ", ".join(f"{name} {n:,}" for name, n in sorted(summary.rejected.items()))
        counts.add_row("drawn again", f"{sum(summary.rejected.values()):,}", Text(reasons))
    console.print(counts)
    if data["measures"] or (summary.written and summary.job_seconds):
        table = Table(show_header=True, box=None, pad_edge=False, header_style="bold")
        table.add_column("measure")
        for column in ("mean", "min", "max"):
            table.add_column(column, justify="right")
        for label, entry in data["measures"].items():
            table.add_row(Text(label), _number(entry["mean"]), _number(entry["min"]),
                          _number(entry["max"]))  # fmt: skip
        if summary.written and summary.job_seconds:
            mean = summary.job_seconds / (summary.written + sum(summary.rejected.values()))
            table.add_row("seconds a job", f"{mean:.4f}", "", "")
        console.print(table)


def _number(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.2f}"

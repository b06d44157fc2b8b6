"""``lacak compare KIND INSTANCE... -s S1 -s S2``: strategies side by side, AIMA's
``compare_searchers`` (:mod:`lacak.batch.compare`)::

    lacak compare KIND [INSTANCE ...] -s STRATEGY[+HEURISTIC] [-s ...] [-H HEURISTIC]
                  [--generate N [--seed S] [--size RxC] [-a GENERATOR]]
                  [--max-depth N] [--max-nodes N] [--timeout S]
                  [--json] [-o chart.svg|chart.png] [--measure expanded|generated|max_frontier]

A row per strategy and instance: found, expanded, generated, max frontier, length, cost,
seconds; as a table, as JSON (``--json``: ``{"kind", "rows": [...]}``), and ``-o`` draws
the chart (nodes expanded, log scale).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..batch import compare as comparing
from ..errors import InvalidOptionError
from ..limits import Limits
from ..output import dumps
from ..plugin.registry import using
from .kit import Size, read_input, registry_of, write_output

__all__ = ["compare_command"]


def compare_command() -> click.Command:
    """The ``lacak compare`` command."""

    @click.command("compare", short_help="Strategies side by side on the same instances.")
    @click.argument("kind")
    @click.argument("instances", nargs=-1, metavar="[INSTANCE]...")
    @click.option("-s", "--strategy", "strategies", multiple=True, required=True,
                  metavar="NAME[+HEURISTIC]",
                  help="A strategy to compare (repeatable); astar+manhattan gives it a "
                  "heuristic of its own.")
    @click.option("-H", "--heuristic", default=None,
                  help="The heuristic of the strategies that name none (default: the kind's).")
    @click.option("--generate", "count", type=click.IntRange(min=1, max=10_000), default=None,
                  help="Compare on N instances made as 'lacak batch KIND -n N' makes them.")
    @click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
                  help="The generated instances' batch seed.")
    @click.option("--size", type=Size(), default=None, metavar="ROWSxCOLS",
                  help="The generated instances' size.")
    @click.option("-a", "--algorithm", default=None, help="The generator (default: the kind's).")
    @click.option("--max-depth", type=click.IntRange(min=0), default=None,
                  help="Deepest level each search may look at.")
    @click.option("--max-nodes", type=click.IntRange(min=0), default=None,
                  help="Most nodes each search may expand.")
    @click.option("--timeout", type=click.FloatRange(min=0), default=None,
                  help="Seconds each search may take.")
    @click.option("--json", "as_json", is_flag=True, help="Print the rows as JSON.")
    @click.option("-o", "--output", default=None, metavar="FILE.svg|FILE.png",
                  help="Draw the chart into FILE (SVG or PNG).")
    @click.option("--measure", type=click.Choice(["expanded", "generated", "max_frontier"]),
                  default="expanded", show_default=True, help="What the chart's bars show.")
    @click.pass_context
    def command(ctx: click.Context, **values: Any) -> None:  # fmt: skip
        """Compare strategies on the same instances of KIND (AIMA's compare_searchers):
        a row per strategy and instance with the nodes expanded and generated, the
        largest frontier, the path's length and cost, and the seconds.

        INSTANCE is a puzzle's text (a file's name for kinds that read files; '-' reads
        them from standard input, one a line), or --generate N makes them.
        """
        registry = registry_of(ctx)
        with using(registry):
            _compare(ctx, registry, **values)

    return command


def _compare(ctx: click.Context, registry: Any, *, kind: str, instances: tuple[str, ...],
             strategies: tuple[str, ...], heuristic: str | None, count: int | None, seed: int,
             size: Any, algorithm: str | None, max_depth: int | None, max_nodes: int | None,
             timeout: float | None, as_json: bool, output: str | None,
             measure: str) -> None:  # fmt: skip
    kind_type = registry.puzzle_types()[kind]  # (an unknown kind: one line naming the kinds)
    puzzles: list[Any] = []
    names: list[str] = []
    for given in instances:
        if kind_type.reads == "file":
            puzzles.append(read_input(given))
            names.append(Path(given).name if given != "-" else "stdin")
        elif given == "-":
            lines = [line.strip() for line in read_input("-").splitlines() if line.strip()]
            puzzles.extend(lines)
            names.extend(lines)
        else:
            puzzles.append(given)
            names.append(given)
    if count is not None:
        for name, puzzle in comparing.generated(kind, count, seed=seed, generator=algorithm,
                                                size=size, registry=registry):  # fmt: skip
            puzzles.append(puzzle)
            names.append(name)
    elif size is not None or algorithm is not None:
        raise InvalidOptionError("--size and -a say how --generate makes instances: give it too")
    if not puzzles:
        raise InvalidOptionError("give instances to compare on, or --generate N")
    if output is not None and Path(output).suffix.lower() not in (".svg", ".png"):
        raise InvalidOptionError(f"-o draws the chart as .svg or .png, not {output!r}")
    limits = Limits(max_depth=max_depth, max_expanded=max_nodes, seconds=timeout)
    rows = comparing.compare(kind, puzzles, strategies, heuristic=heuristic, limits=limits,
                             names=names, registry=registry)  # fmt: skip
    if as_json:
        click.echo(dumps({"kind": kind, "rows": [row.to_dict() for row in rows]}))
    else:
        click.echo(comparing.table(rows), nl=False)
    if output is not None:
        picture = comparing.chart(rows, measure=measure,
                                  title=f"{kind}: nodes {measure.replace('_', ' ')} (log scale)")
        data = picture.png() if output.lower().endswith(".png") else picture.svg()
        write_output(data, output, what="chart")
    ctx.exit(0)

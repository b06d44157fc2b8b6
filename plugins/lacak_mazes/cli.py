"""``lacak maze ...``: generate, solve, measure and list maze generators.

Imported on every ``lacak`` start (to add the group), so it imports only
click and lacak at module level; the maze modules load when a command runs.

``lacak maze solve`` is the core's command kit (:func:`lacak.cli.solve_command`)
built from the ``maze`` puzzle kind (:mod:`lacak_mazes.kind`): the same
grammar as every ``lacak KIND solve``. The other commands follow it too:
``--size ROWSxCOLS``, ``-O KEY=VALUE`` (one each time), ``-f``/``-o`` (the
format follows ``-o``'s suffix, and a contradiction is an error), ``--json``
where they print results, ``-`` for standard input where they read a file.

Bad input is a :class:`lacak.LacakError`: one line on stderr, exit status 2.
A search that ends without reaching the end (the maze's walls cut the two
ends apart, or a limit) is not an error: ``solve`` reports it and exits with
status 1.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from typing import Any

import click
import lacak
from lacak.cli import (
    Size,
    echo_json,
    output_format,
    read_from,
    read_input,
    registry_of,
    solve_command,
    write_output,
)
from lacak.options import parse_cell, parse_pairs

from .kind import BATCH
from .render import PICTURE_HELP, best_cell_width, caption
from .render import picture as draw

__all__ = ["maze_group"]

#: The formats of ``maze generate`` other than JSON (as the ``maze`` kind draws).
_PICTURES = ("text", "svg", "png")

_SIZE_HELP = "ROWSxCOLS, e.g. 10x25: 10 rows of 25 cells"


def _picture_options(function: Any) -> Any:
    """The picture flags of ``maze generate``: the ``maze`` kind's render options, which
    ``maze solve`` offers too."""
    options = [
        click.option("--ascii", "ascii", is_flag=True, default=False, help=PICTURE_HELP["ascii"]),
        click.option("--cell-width", type=int, default=0, help=PICTURE_HELP["cell_width"]),
        click.option("--cell-size", type=int, default=0, help=PICTURE_HELP["cell_size"]),
        click.option("--wall-width", type=int, default=0, help=PICTURE_HELP["wall_width"]),
        click.option(
            "--color", "color", multiple=True, metavar="NAME=COLOUR", help=PICTURE_HELP["color"]
        ),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def _generate_command() -> click.Command:
    @click.command("generate")
    @click.option(
        "-a",
        "--algorithm",
        default="hunt-and-kill",
        show_default=True,
        help="Generator (see 'lacak maze algorithms').",
    )
    @click.option(
        "--size",
        type=Size("maze size"),
        default=None,
        metavar="ROWSxCOLS",
        help=f"Size, {_SIZE_HELP} (default: what fits the terminal).",
    )
    @click.option(
        "--seed",
        type=click.IntRange(min=0),
        default=None,
        help="Random seed (default: a fresh one, shown with the maze).",
    )
    @click.option(
        "-O",
        "--option",
        "gen_options",
        multiple=True,
        metavar="KEY=VALUE",
        help="Generator option, e.g. policy=mix: one KEY=VALUE each time (repeat -O for more; "
        "all the text after '=' is the value).",
    )
    @click.option(
        "--grid",
        default=None,
        metavar="NAME",
        help="Grid: rect (default), cylinder, torus, hex, triangle, upsilon or polar "
        "(SIZE is then its rings); see docs/mazes.md.",
    )
    @click.option(
        "--mask",
        "mask_file",
        default=None,
        metavar="FILE",
        help="Only the cells a mask keeps: ASCII art ('.' a cell, 'X' none) or a black-and-"
        "white PNG (dark pixels are no cell); the size is the mask's.",
    )
    @click.option(
        "--mask-word",
        default=None,
        metavar="WORD",
        help="Only the cells of WORD's letters, drawn in a built-in font (3 cells a pixel).",
    )
    @click.option(
        "--braid",
        type=click.FloatRange(0.0, 1.0),
        default=None,
        metavar="P",
        help="Link away a share P (0-1) of the dead ends, making loops.",
    )
    @click.option(
        "--weave",
        type=click.FloatRange(0.0, 1.0),
        default=None,
        metavar="P",
        help="Let passages cross under others (rectangles; kruskal, recursive-backtracker, "
        "growing-tree), each possible crossing taken with probability P.",
    )
    @click.option(
        "--weights",
        default=None,
        metavar="LOW-HIGH",
        help="Give each cell a cost to enter, drawn from LOW to HIGH (e.g. 1-9; 'random' is "
        "1-9); solved by uniform-cost and astar.",
    )
    @click.option(
        "--weights-png",
        "weights_png",
        default=None,
        metavar="FILE",
        help="Each cell's cost from a picture's grey under it, stretched over the maze: "
        "black 9, white 1 (darker costs more).",
    )
    @click.option(
        "--from",
        "from_file",
        default=None,
        metavar="FILE",
        help="Make again the maze of a maze's JSON (FILE, or - for standard input): its "
        "generator, size, seed, options and ends.",
    )
    # off unless given: the defaults the maze kind declares for a made maze (its batch
    # options, which lacak batch maze and the page of lacak serve take too)
    @click.option(
        "--endpoints",
        is_flag=True,
        flag_value=True,
        default=BATCH.options["endpoints"],
        help="Suggest a start and end: the ends of the longest path.",
    )
    @click.option(
        "--start", default=None, metavar="ROW,COL", help="Start cell (implies --endpoints)."
    )
    @click.option("--end", default=None, metavar="ROW,COL", help="End cell (implies --endpoints).")
    @click.option(
        "--solution",
        is_flag=True,
        flag_value=True,
        default=BATCH.options["solution"],
        help="Show the solution (implies --endpoints).",
    )
    @click.option(
        "--json", "as_json", is_flag=True, help="Print the maze as JSON (docs/mazes.md; -f json)."
    )
    @click.option(
        "-f",
        "--format",
        "format_",
        type=click.Choice(("json", *_PICTURES)),
        default=None,
        help="Output format (default: from -o's suffix, else text).",
    )
    @click.option(
        "-o",
        "--output",
        type=click.Path(dir_okay=False),
        default=None,
        help="Write to FILE (.svg, .png, .json, .txt) instead of the terminal.",
    )
    @_picture_options
    @click.pass_context
    def generate(
        ctx: click.Context,
        algorithm: str,
        size: tuple[int, int] | None,
        seed: int | None,
        gen_options: tuple[str, ...],
        grid: str | None,
        mask_file: str | None,
        mask_word: str | None,
        braid: float | None,
        weave: float | None,
        weights: str | None,
        weights_png: str | None,
        from_file: str | None,
        endpoints: bool,
        start: str | None,
        end: str | None,
        solution: bool,
        as_json: bool,
        format_: str | None,
        output: str | None,
        **picture: Any,
    ) -> None:
        """Generate a maze and draw it (default: box drawing in the terminal).

        \b
        Examples:
          lacak maze generate --size 10x25 --seed 7 --solution
          lacak maze generate -a wilson --size 40x60 --seed 1 --solution -o maze.png
          lacak maze generate -a growing-tree -O policy=mix -O newest=0.3 --size 20x40 --json
          lacak maze generate --from maze.json -o maze.svg
          lacak maze generate -a wilson --grid hex --size 12x16 --seed 2 --solution -o hex.svg
          lacak maze generate -a kruskal --mask-word LACAK --braid 0.5 --seed 1 -o word.png
        """
        registry = registry_of(ctx)
        if from_file is not None:
            _remade(ctx, from_file, format_, output, as_json, picture)
            return
        generator = registry.generators("maze")[algorithm]
        fmt = output_format(format_, output, as_json, _PICTURES)
        first = parse_cell(start, what="--start") if start is not None else None
        last = parse_cell(end, what="--end") if end is not None else None
        if size is None:
            terminal = shutil.get_terminal_size((80, 24))
            width = picture["cell_width"] or 3
            shape = (
                max(2, (terminal.lines - 4) // 2),
                max(2, (terminal.columns - 1) // (width + 1)),
            )
            if not picture["cell_width"]:
                picture["cell_width"] = best_cell_width(shape[1], terminal.columns)
        else:
            shape = size
        options = parse_pairs(gen_options, generator.options, what=f"generator {algorithm!r}")
        options.update(_grid_options(ctx, grid, mask_file, mask_word, braid))
        if weave is not None:
            options["weave"] = weave
        options.update(_weights_option(weights, weights_png))
        made = generator(None if "mask" in options and size is None else shape, seed, **options)
        if endpoints or solution or first is not None or last is not None:
            made = made.with_endpoints(first, last, solution=solution)
        title = caption(made)
        data = draw(made, fmt, title=title, **picture) if fmt != "json" else made.to_json()
        write_output(data, output, what=title)

    return generate


def _grid_options(ctx: click.Context, grid: str | None, mask_file: str | None,
                  mask_word: str | None, braid: float | None) -> dict[str, Any]:  # fmt: skip
    """The generator options ``--grid``, ``--mask``, ``--mask-word`` and ``--braid`` give."""
    options: dict[str, Any] = {}
    if grid is not None:
        options["grid"] = grid
    if mask_file is not None and mask_word is not None:
        raise click.UsageError("give --mask or --mask-word, not both")
    if mask_file is not None:
        from lacak.store.paths import input_limit, read_bounded  # (deferred: as above)

        from .grids.masks import mask_from_png, mask_from_text  # (deferred: as above)

        try:
            data = read_bounded(mask_file, input_limit(), what="mask files",
                                setting="LACAK_MAX_INPUT_MB")  # fmt: skip
        except OSError as error:
            raise lacak.InvalidInputError(
                f"cannot read {mask_file!r}: {error.strerror or error}"
            ) from None
        if data[:8] == b"\x89PNG\r\n\x1a\n":
            rows = mask_from_png(data)
        else:
            try:
                rows = mask_from_text(data.decode("utf-8"))
            except UnicodeDecodeError:
                raise lacak.InvalidInputError(f"{mask_file} is neither text nor a PNG") from None
        options["mask"] = "/".join(rows)
    if mask_word is not None:
        from .grids.masks import mask_from_word  # (deferred: as above)

        options["mask"] = "/".join(mask_from_word(mask_word, scale=3))
    if braid is not None:
        options["braid"] = braid
    return options


def _weights_option(weights: str | None, picture: str | None) -> dict[str, Any]:
    """The generator option ``weights`` that ``--weights`` or ``--weights-png`` gives."""
    if weights is not None and picture is not None:
        raise click.UsageError("give --weights or --weights-png, not both")
    if weights is not None:
        return {"weights": weights}
    if picture is None:
        return {}
    from lacak.store.paths import input_limit, read_bounded  # (deferred: as above)

    try:
        data = read_bounded(picture, input_limit(), what="weight pictures",
                            setting="LACAK_MAX_INPUT_MB")  # fmt: skip
    except OSError as error:
        raise lacak.InvalidInputError(
            f"cannot read {picture!r}: {error.strerror or error}"
        ) from None
    return {"weights": data}


#: What ``--from`` gives, and the flag each would be given by.
_FROM_GIVES = {"algorithm": "-a/--algorithm", "size": "--size", "seed": "--seed",
               "gen_options": "-O", "grid": "--grid", "mask_file": "--mask",
               "mask_word": "--mask-word", "braid": "--braid", "weave": "--weave",
               "weights": "--weights", "weights_png": "--weights-png",
               "endpoints": "--endpoints", "start": "--start",
               "end": "--end", "solution": "--solution"}  # fmt: skip


def _remade(
    ctx: click.Context,
    source: str,
    format_: str | None,
    output: str | None,
    as_json: bool,
    picture: dict[str, Any],
) -> None:
    """``lacak maze generate --from FILE``: the maze FILE's JSON records, made again."""
    # (deferred: the commands are built on every start)
    from .remake import remake

    text = read_from(ctx, source, _FROM_GIVES, makes="makes the maze",
                     records="generator, size, seed, options, ends")  # fmt: skip
    fmt = output_format(format_, output, as_json, _PICTURES)
    made = remake(_read_maze(text), registry=registry_of(ctx))
    title = caption(made)
    data = draw(made, fmt, title=title, **picture) if fmt != "json" else made.to_json()
    write_output(data, output, what=title)


def _read_maze(text: str) -> Any:
    """The maze of a JSON text: a :class:`~lacak_mazes.Maze`, or a
    :class:`~lacak_mazes.gridmaze.GridMaze` when it names a grid."""
    # (deferred: the commands are built on every start, without mazes)
    from .kind import parse

    return parse(text).maze


def maze_group() -> click.Group:
    """The ``lacak maze`` group: ``generate``, ``solve`` (the command kit's), ``stats``,
    ``algorithms``. Built afresh for each CLI, as ``solve`` is built from the registry's
    ``maze`` kind."""
    group = click.Group("maze", help="Generate, solve, draw and measure mazes.")
    group.add_command(_generate_command())
    group.add_command(solve_command("maze"))
    group.add_command(stats)
    group.add_command(algorithms)
    return group


@click.command("stats")
@click.argument("file", required=False, metavar="[FILE]")
@click.option(
    "-a",
    "--algorithm",
    default="hunt-and-kill",
    show_default=True,
    help="Generator, when no FILE is given.",
)
@click.option(
    "--size",
    type=Size("maze size"),
    default="50x50",
    show_default=True,
    metavar="ROWSxCOLS",
    help=f"Size, {_SIZE_HELP}, when no FILE is given.",
)
@click.option(
    "--seed", type=click.IntRange(min=0), default=None, help="Seed, when no FILE is given."
)
@click.option(
    "-O",
    "--option",
    "gen_options",
    multiple=True,
    metavar="KEY=VALUE",
    help="Generator option: one KEY=VALUE each time (repeat -O for more).",
)
@click.option(
    "--endpoints",
    is_flag=True,
    help="Add the longest path as the solution first (its length is then reported).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@click.pass_context
def stats(
    ctx: click.Context,
    file: str | None,
    algorithm: str,
    size: tuple[int, int],
    seed: int | None,
    gen_options: tuple[str, ...],
    endpoints: bool,
    as_json: bool,
) -> None:
    """Texture statistics of the maze in FILE (JSON, '-' for standard input), or of a
    freshly generated one.

    Dead-end share, corridor straightness, junctions and branching, solution length.
    """
    if file is not None:
        subject = _read_maze(read_input(file))
    else:
        generator = registry_of(ctx).generators("maze")[algorithm]
        options = parse_pairs(gen_options, generator.options, what=f"generator {algorithm!r}")
        subject = generator(size, seed, **options)
    if endpoints and subject.solution is None:
        subject = subject.with_endpoints()
    numbers = subject.stats()
    if as_json:
        echo_json(numbers)
        return
    labels = {
        "dead_end_share": "dead ends",
        "straightness": "straight corridors",
        "junction_share": "junctions",
        "branching": "ways on at a junction",
        "corridor_length": "mean steps between dead ends and junctions",
        "horizontal_share": "passages running east-west",
    }
    width = max(len(key) for key in numbers)
    for key, value in numbers.items():
        if value is None:
            continue
        shares = ("dead_end_share", "straightness", "horizontal_share", "junction_share",
                  "solution_share")  # fmt: skip
        shown = f"{value:.1%}" if key in shares else value
        if key == "braid":
            shown = (f"{value['achieved']:.1%} of {value['dead_ends_before']} dead ends removed "
                     f"(asked {value['asked']:.0%})")  # fmt: skip
        note = f"  ({labels[key]})" if key in labels else ""
        click.echo(f"{key:<{width}}  {shown}{note}")


@click.command("algorithms")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
@click.pass_context
def algorithms(ctx: click.Context, as_json: bool) -> None:
    """List the maze generators with their metadata (third-party ones too)."""
    catalogue = registry_of(ctx).generators("maze")
    rows: list[dict[str, Any]] = []
    for name in sorted(catalogue):
        generator = catalogue[name]
        meta = dict(generator.metadata)
        rows.append(
            {
                "name": name,
                "description": generator.description,
                "perfect": meta.get("perfect"),
                "uniform": meta.get("uniform"),
                "dead_ends": meta.get("dead_ends"),
                "texture": meta.get("texture"),
                "options": dict(generator.options),
                "option_ranges": _option_ranges(meta.get("option_ranges")),
                "plugin": catalogue.owner(name),
            }
        )
    if as_json:
        echo_json({"algorithms": rows})
        return
    # rich's tables here: rich is not loaded on every start
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    # options every generator with options takes, with one default (carving), are said
    # once, under the table
    optioned = [row["options"] for row in rows if row["options"]]
    common = {key for key in (set.intersection(*map(set, optioned)) if optioned else set())
              if len({repr(options[key]) for options in optioned}) == 1}  # fmt: skip
    table = Table(title="maze generators", title_justify="left")
    table.add_column("name", no_wrap=True, style="bold")
    table.add_column("perfect,\nuniform", no_wrap=True)
    table.add_column("dead\nends", justify="right", no_wrap=True)
    table.add_column("description (options)", ratio=1)
    for row in rows:
        # names, descriptions and options come from plugins: Text, never markup
        options = ", ".join(
            f"{k}={v}" + _range_text(row["option_ranges"].get(k))
            for k, v in row["options"].items()
            if k not in common
        )
        description = Text(str(row["description"]))
        if options:
            description.append(f" ({options})", style="dim")
        table.add_row(
            Text(row["name"]),
            f"{_yes(row['perfect'])}, {_yes(row['uniform'])}",
            f"{row['dead_ends']:.0%}" if isinstance(row["dead_ends"], (int, float)) else "?",
            description,
        )
    console = Console(emoji=False)
    console.print(table)
    if common:
        said = ", ".join(f"{key}={optioned[0][key]}" for key in sorted(common))
        console.print(Text(f"Every generator with options also takes {said} (-O KEY=VALUE).",
                           style="dim"))  # fmt: skip
    missing = [row["name"] for row in rows if _unsaid(row)]
    if missing:
        # a '?' in the table is the generator's silence, not lacak's ignorance: say so
        console.print(
            Text(
                f"?: not in the generator's metadata ({', '.join(missing)}). A generator says "
                "'perfect' and 'uniform' (true or false) and 'dead_ends' (the share of cells "
                "with one opening, from 0 to 1: measure it with lacak maze stats on a large "
                "maze)."
            )
        )


def _unsaid(row: dict[str, Any]) -> bool:
    """Whether a generator leaves out a fact the table shows (it is shown as ``?``)."""
    return (
        row["perfect"] is None
        or row["uniform"] is None
        or not isinstance(row["dead_ends"], (int, float))
    )


def _option_ranges(value: Any) -> dict[str, Any]:
    """A generator's ``option_ranges`` metadata, or ``{}`` when it is not a mapping (it
    comes from a plugin: a malformed one is not shown rather than crashing the list)."""
    if not isinstance(value, Mapping):
        return {}
    return {str(key): dict(spec) for key, spec in value.items() if isinstance(spec, Mapping)}


def _range_text(spec: dict[str, Any] | None) -> str:
    """`` [a|b|c]`` for choices, `` [0 to 1]``, `` [>= 0]`` or `` [<= 9]`` for numbers."""
    if not spec:
        return ""
    choices = spec.get("choices")
    if isinstance(choices, (list, tuple)):
        return " [" + "|".join(map(str, choices)) + "]"
    low, high = spec.get("min"), spec.get("max")
    if low is not None and high is not None:
        return f" [{low:g} to {high:g}]" if _is_number(low, high) else f" [{low} to {high}]"
    if low is not None:
        return f" [>= {low}]"
    if high is not None:
        return f" [<= {high}]"
    return ""


def _is_number(*values: Any) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def _yes(value: Any) -> str:
    return "?" if value is None else ("yes" if value else "no")

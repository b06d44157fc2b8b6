"""``lacak maze ...``: generate, solve, measure and list maze generators.

Imported on every ``lacak`` start (to add the group), so it imports only
click and lacak at module level; the maze modules load when a command runs.

Bad input is a :class:`lacak.LacakError`: one line on stderr, exit status 2.
A search that ends without reaching the end (the maze's walls cut the two
ends apart, or a strategy's limit) is not an error: ``solve`` reports it and
exits with status 1, as ``lacak sliding solve`` does.
"""

from __future__ import annotations

import math
import shutil
import sys
from pathlib import Path
from typing import Any

import click
import lacak
from lacak.cli import echo_json, parse_size, read_input, registry_of

__all__ = ["maze"]

_FORMATS = ("unicode", "text", "svg", "png", "json")
_SUFFIXES = {".svg": "svg", ".png": "png", ".json": "json", ".txt": "unicode"}


def _cell(text: str | None, what: str) -> tuple[int, int] | None:
    if text is None:
        return None
    parts = text.replace(" ", "").split(",")
    try:
        row, col = (int(part) for part in parts)
    except ValueError:
        raise lacak.InvalidOptionError(
            f"{what} must look like ROW,COL (e.g. 0,0), got {text!r}"
        ) from None
    return row, col


#: The words a yes/no option takes on the command line.
_YES = ("true", "yes", "on", "1")
_NO = ("false", "no", "off", "0")


def _typed(text: str, default: Any, what: str, key: str) -> Any:
    """``text`` as a value of the type of ``default``: a bool (true/false, yes/no, on/off,
    1/0), an int, a finite float, or the text itself.

    :raises InvalidOptionError: the text is not a value of that type.
    """
    if isinstance(default, bool):
        word = text.lower()
        if word in _YES or word in _NO:
            return word in _YES
        kind = "true or false (yes/no, on/off, 1/0)"
    elif isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            kind = "an int"
    elif isinstance(default, float):
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if math.isfinite(value):
            return value
        kind = "a float"
    else:
        return text
    raise lacak.InvalidOptionError(f"{what} option {key!r} must be {kind}, got {text!r}")


def _options(
    pairs: tuple[str, ...], defaults: dict[str, Any], what: str, flag: str
) -> dict[str, Any]:
    """The options given as ``KEY=VALUE``, one per occurrence of ``flag``.

    The key is the text before the first ``=``, the value all the text after it
    (spaces around either are dropped; commas are part of the value), typed like
    the option's default.

    :raises InvalidOptionError: no ``=``, an unknown key, or a value of the wrong type.
    """
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise lacak.InvalidOptionError(f"{flag} takes KEY=VALUE, got {pair!r}")
        if key not in defaults:
            raise lacak.InvalidOptionError(
                f"{what} has no option {key!r} (options: {', '.join(defaults) or 'none'})"
            )
        options[key] = _typed(value.strip(), defaults[key], what, key)
    return options


def _colors(pairs: tuple[str, ...]) -> dict[str, str]:
    from .render import COLORS

    colors = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip()
        if not sep or name not in COLORS:
            raise lacak.InvalidOptionError(
                f"--color takes NAME=COLOUR with NAME one of {', '.join(COLORS)}, got {pair!r}"
            )
        colors[name] = value.strip()
    return colors


def _format_of(format: str | None, output: str | None) -> str:
    if format is not None:
        return format
    if output and output != "-":
        return _SUFFIXES.get(Path(output).suffix.lower(), "unicode")
    return "unicode"


def _terminal_size() -> tuple[int, int]:
    size = shutil.get_terminal_size((80, 24))
    return size.columns, size.lines


def _emit(
    maze: Any,
    format: str,
    output: str | None,
    *,
    caption: str,
    cell_width: int | None,
    picture: dict[str, Any],
) -> None:
    """Write the maze picture to ``output`` (a file) or stdout."""
    from .render import best_cell_width, render, rich_text

    if format in ("text", "unicode"):
        width = cell_width or best_cell_width(maze.width, _terminal_size()[0])
        options: dict[str, Any] = {"cell_width": width}
    elif format in ("svg", "png"):
        options = picture
    else:
        options = {}
    data = render(maze, format, **options)
    if output and output != "-":
        path = Path(output)
        try:
            if isinstance(data, bytes):
                path.write_bytes(data)
            else:
                path.write_text(data + ("" if data.endswith("\n") else "\n"), encoding="utf-8")
        except OSError as error:
            raise lacak.InvalidOptionError(
                f"cannot write {output!r}: {error.strerror or error}"
            ) from None
        click.echo(f"wrote {path} ({caption})", err=True)
        return
    stdout = sys.stdout
    if isinstance(data, bytes):
        if stdout.isatty():
            raise lacak.InvalidOptionError("PNG is binary: give -o FILE.png (or pipe the output)")
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    if format in ("text", "unicode") and stdout.isatty():
        from rich.console import Console
        from rich.text import Text

        console = Console(highlight=False)
        console.print(
            rich_text(maze, unicode=format == "unicode", cell_width=options["cell_width"]),
            soft_wrap=True,
        )
        # a Text, not a str: the caption holds data (the maze's algorithm name), which
        # rich must not read as markup or emoji codes
        console.print(Text(caption, style="dim"), soft_wrap=True)
        return
    click.echo(data)
    if format in ("text", "unicode"):
        click.echo(caption)


def _caption(maze: Any) -> str:
    parts = [f"{maze.algorithm or 'maze'} {maze.height}x{maze.width}"]
    if maze.seed is not None:
        parts.append(f"seed {maze.seed}")
    if maze.solution is not None:
        parts.append(f"solution {len(maze.solution) - 1} steps")
    elif maze.start is not None:
        parts.append(f"start {list(maze.start)}, end {list(maze.end)}")
    return ", ".join(parts)


_picture_options = [
    click.option(
        "-f",
        "--format",
        type=click.Choice(_FORMATS),
        default=None,
        help="Picture format (default: from -o's suffix, else unicode).",
    ),
    click.option(
        "-o",
        "--output",
        type=click.Path(dir_okay=False),
        default=None,
        help="Write to FILE instead of the terminal.",
    ),
    click.option(
        "--cell-width",
        type=click.IntRange(1, 5),
        default=None,
        help="Characters per cell in text pictures (default: widest that fits).",
    ),
    click.option("--cell-size", type=int, default=None, help="Pixels per cell (SVG, PNG)."),
    click.option(
        "--wall-width", type=int, default=None, help="Wall thickness in pixels (SVG, PNG)."
    ),
    click.option(
        "--color",
        "colors",
        multiple=True,
        metavar="NAME=COLOUR",
        help="wall, background, solution, start or end colour (SVG, PNG); repeatable.",
    ),
]


def _with_picture_options(function: Any) -> Any:
    for option in reversed(_picture_options):
        function = option(function)
    return function


def _picture(
    cell_size: int | None, wall_width: int | None, colors: tuple[str, ...]
) -> dict[str, Any]:
    picture: dict[str, Any] = {"cell_size": cell_size, "wall_width": wall_width}
    picture.update(_colors(colors))
    return picture


@click.group("maze")
def maze() -> None:
    """Generate, solve, draw and measure mazes."""


@maze.command("generate")
@click.option(
    "-a",
    "--algorithm",
    default="hunt-and-kill",
    show_default=True,
    help="Generator (see 'lacak maze algorithms').",
)
@click.option(
    "-s",
    "--size",
    default=None,
    metavar="HxW",
    help="Rows x columns (default: what fits the terminal).",
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
    "--endpoints", is_flag=True, help="Suggest a start and end: the ends of the longest path."
)
@click.option("--start", default=None, metavar="ROW,COL", help="Start cell (implies --endpoints).")
@click.option("--end", default=None, metavar="ROW,COL", help="End cell (implies --endpoints).")
@click.option("--solution", is_flag=True, help="Show the solution (implies --endpoints).")
@click.option("--json", "as_json", is_flag=True, help="Print the maze as JSON (same as -f json).")
@_with_picture_options
@click.pass_context
def generate(
    ctx: click.Context,
    algorithm: str,
    size: str | None,
    seed: int | None,
    gen_options: tuple[str, ...],
    endpoints: bool,
    start: str | None,
    end: str | None,
    solution: bool,
    as_json: bool,
    format: str | None,
    output: str | None,
    cell_width: int | None,
    cell_size: int | None,
    wall_width: int | None,
    colors: tuple[str, ...],
) -> None:
    """Generate a maze and draw it (default: Unicode in the terminal).

    \b
    Examples:
      lacak maze generate --size 10x25 --seed 7 --solution
      lacak maze generate -a wilson -s 40x60 --seed 1 --solution -o maze.png
      lacak maze generate -a growing-tree -O policy=mix -O newest=0.3 -s 20x40 --json
    """
    from .render import best_cell_width

    registry = registry_of(ctx)
    generator = registry.generators("maze")[algorithm]
    if as_json:
        if format not in (None, "json"):
            raise lacak.InvalidOptionError(f"--json prints JSON; it cannot go with -f {format}")
        format = "json"
    fmt = _format_of(format, output)
    picture = _picture(cell_size, wall_width, colors)
    if size is None:
        columns, lines = _terminal_size()
        width = cell_width or 3
        cols = max(2, (columns - 1) // (width + 1))
        rows = max(2, (lines - 4) // 2)
        if cell_width is None:
            cell_width = best_cell_width(cols, columns)
        shape = (rows, cols)
    else:
        shape = parse_size(size, what="maze size")
    options = _options(gen_options, dict(generator.options), f"generator {algorithm!r}", "--option")
    result = generator(shape, seed, **options)
    first, last = _cell(start, "--start"), _cell(end, "--end")
    if endpoints or solution or first is not None or last is not None:
        result = result.with_endpoints(first, last, solution=solution)
    _emit(result, fmt, output, caption=_caption(result), cell_width=cell_width, picture=picture)


def _read_maze(file: str) -> Any:
    from .maze import Maze

    return Maze.from_json(read_input(file))


def _search_report(result: Any, puzzle: Any) -> dict[str, Any]:
    return {
        "strategy": result.strategy,
        "heuristic": result.heuristic,
        "found": result.found,
        "stopped": str(result.stopped),
        "start": list(puzzle.initial),
        "end": list(puzzle.goal),
        "length": result.length,
        "cost": result.cost,
        "actions": "".join(result.actions),
        "path": [list(state) for state in result.states] if result.found else None,
        "stats": result.stats.to_dict(),
    }


#: What each limit's stop reason means on this command line.
_WHY = {
    "depth-limit": "no path within --max-depth",
    "node-limit": "--max-nodes was reached",
    "time-limit": "--timeout was reached",
    "memory-limit": "a memory limit was reached",
}


def _stopped_while_loading(
    ctx: click.Context,
    stop: lacak.LimitReachedError,
    strategy: str,
    heuristic: str | None,
    budget: lacak.Budget,
    as_json: bool,
) -> None:
    """Report a --timeout that passed before the search began (exit status 1, as a search's)."""
    if as_json:
        echo_json(
            {
                "strategy": strategy,
                "heuristic": heuristic,
                "found": False,
                "stopped": str(lacak.StopReason.TIME),
                "start": None,
                "end": None,
                "length": 0,
                "cost": 0.0,
                "actions": "",
                "path": None,
                "stats": lacak.SearchStats(seconds=budget.elapsed()).to_dict(),
            }
        )
    else:
        click.echo(f"no path: {strategy} did not start: --timeout was reached ({stop})")
    ctx.exit(1)


@maze.command("solve")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--strategy",
    default="tree-path",
    show_default=True,
    help="Any registered strategy (lacak plugins --all): tree-path, dead-end-fill, "
    "wall-follower, bfs, astar, ...",
)
@click.option(
    "--heuristic", default=None, help="Heuristic for strategies that use one (manhattan)."
)
@click.option(
    "-S",
    "--strategy-option",
    "strategy_options",
    multiple=True,
    metavar="KEY=VALUE",
    help="Strategy option, e.g. hand=left: one KEY=VALUE each time (repeat -S for more).",
)
@click.option("--max-depth", type=int, default=None, help="Deepest level to search.")
@click.option("--max-nodes", type=int, default=None, help="Most cells to expand.")
@click.option("--timeout", type=float, default=None, help="Seconds before giving up.")
@click.option(
    "--start", default=None, metavar="ROW,COL", help="Start (default: the file's, else suggested)."
)
@click.option(
    "--end", default=None, metavar="ROW,COL", help="End (default: the file's, else suggested)."
)
@click.option("--json", "as_json", is_flag=True, help="Print the search result as JSON.")
@_with_picture_options
@click.pass_context
def solve(
    ctx: click.Context,
    file: str,
    strategy: str,
    heuristic: str | None,
    strategy_options: tuple[str, ...],
    max_depth: int | None,
    max_nodes: int | None,
    timeout: float | None,
    start: str | None,
    end: str | None,
    as_json: bool,
    format: str | None,
    output: str | None,
    cell_width: int | None,
    cell_size: int | None,
    wall_width: int | None,
    colors: tuple[str, ...],
) -> None:
    """Solve the maze in FILE (JSON, '-' for stdin) and draw it with its solution.

    Without --start/--end the file's endpoints are used, and if it has none,
    the ends of the longest path. A search that stops without a path (none
    exists, or a limit was reached) is reported with exit status 1.
    """
    registry = registry_of(ctx)
    limits = lacak.Limits(max_depth=max_depth, max_expanded=max_nodes, seconds=timeout)
    picture = _picture(cell_size, wall_width, colors)
    searcher = registry.searchers()[strategy]
    options = _options(
        strategy_options, dict(searcher.options), f"strategy {strategy!r}", "--strategy-option"
    )
    # --timeout covers reading the maze and suggesting its ends: the clock starts now,
    # and the search started inside ends no later
    budget = limits.start()
    with budget:
        try:
            loaded = _read_maze(file)
            first = _cell(start, "--start") or loaded.start
            last = _cell(end, "--end") or loaded.end
            if first is None or last is None:
                suggested = loaded.with_endpoints(first, last, solution=False)
                first, last = suggested.start, suggested.end
        except lacak.LimitReachedError as stop:
            if not budget.time_up():
                raise
            _stopped_while_loading(ctx, stop, strategy, heuristic, budget, as_json)
        puzzle = loaded.puzzle(first, last)
        result = lacak.solve(
            puzzle, searcher, heuristic=heuristic, limits=limits, registry=registry, **options
        )
    if as_json:
        echo_json(_search_report(result, puzzle))
        ctx.exit(0 if result.found else 1)
    if not result.found:
        # not an error: the search ran and says why it stopped (as lacak sliding solve does)
        why = _WHY.get(str(result.stopped))
        click.echo(
            f"no path from {list(puzzle.initial)} to {list(puzzle.goal)}: {result.strategy} "
            f"stopped ({result.stopped}{', ' + why if why else ''}) after "
            f"{result.stats.expanded} cells expanded"
        )
        ctx.exit(1)
    solved = loaded.with_solution(result.states)
    caption = _caption(solved) + f", {result.strategy}: {result.stats.expanded} cells expanded"
    _emit(
        solved,
        _format_of(format, output),
        output,
        caption=caption,
        cell_width=cell_width,
        picture=picture,
    )


@maze.command("stats")
@click.argument("file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "-a",
    "--algorithm",
    default="hunt-and-kill",
    show_default=True,
    help="Generator, when no FILE is given.",
)
@click.option(
    "-s",
    "--size",
    default="50x50",
    show_default=True,
    metavar="HxW",
    help="Size, when no FILE is given.",
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
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def stats(
    ctx: click.Context,
    file: str | None,
    algorithm: str,
    size: str,
    seed: int | None,
    gen_options: tuple[str, ...],
    endpoints: bool,
    as_json: bool,
) -> None:
    """Texture statistics of the maze in FILE, or of a freshly generated one.

    Dead-end share, corridor straightness, junctions and branching, solution length.
    """
    if file is not None:
        subject = _read_maze(file)
    else:
        generator = registry_of(ctx).generators("maze")[algorithm]
        options = _options(
            gen_options, dict(generator.options), f"generator {algorithm!r}", "--option"
        )
        subject = generator(parse_size(size, what="maze size"), seed, **options)
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
        shown = (
            f"{value:.1%}"
            if key
            in (
                "dead_end_share",
                "straightness",
                "horizontal_share",
                "junction_share",
                "solution_share",
            )
            else value
        )
        note = f"  ({labels[key]})" if key in labels else ""
        click.echo(f"{key:<{width}}  {shown}{note}")


@maze.command("algorithms")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
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
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(title="maze generators", title_justify="left")
    table.add_column("name", no_wrap=True, style="bold")
    table.add_column("perfect")
    table.add_column("uniform")
    table.add_column("dead ends", justify="right")
    table.add_column("description (options)")
    for row in rows:
        # names, descriptions and options come from plugins: Text, never markup
        options = ", ".join(
            f"{k}={v}" + _range_text(row["option_ranges"].get(k)) for k, v in row["options"].items()
        )
        description = Text(str(row["description"]))
        if options:
            description.append(f" ({options})", style="dim")
        table.add_row(
            Text(row["name"]),
            _yes(row["perfect"]),
            _yes(row["uniform"]),
            f"{row['dead_ends']:.0%}" if isinstance(row["dead_ends"], (int, float)) else "?",
            description,
        )
    Console(emoji=False).print(table)


def _option_ranges(value: Any) -> dict[str, Any]:
    """A generator's ``option_ranges`` metadata, or ``{}`` when it is not a mapping (it
    comes from a plugin: a malformed one is not shown rather than crashing the list)."""
    from collections.abc import Mapping

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

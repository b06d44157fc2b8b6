"""``lacak sliding``: solve, scramble, and list strategies and heuristics.

Bad input raises :class:`lacak.LacakError` subclasses, which the root command
prints as one line on stderr with exit status 2. A search that ends without
reaching the goal is not an error: it is reported, with exit status 1.
The ``--json`` outputs are documented in ``docs/sliding.md``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import lacak
from lacak.cli import echo_json, print_catalogue, registry_of

#: Strategy used when none is named: the fast optimal one for the board size.
AUTO = "auto"


def _searchers_for_sliding(registry: lacak.Registry) -> dict[str, lacak.Searcher]:
    return {
        name: s for name, s in registry.searchers().items() if not s.kinds or "sliding" in s.kinds
    }


def _pick_strategy(registry: lacak.Registry, puzzle: Any, heuristic: str | None) -> str:
    """``auto``: ``idastar-tiles`` for boards past 3x3 when a plugin provides it, else ``astar-tiles``."""
    searchers = registry.searchers()
    cells = puzzle.width * puzzle.height
    if cells > 9 and "idastar-tiles" in searchers:
        return "idastar-tiles"
    if "astar-tiles" in searchers:
        return "astar-tiles"
    return "astar"


def _default_heuristic(puzzle: Any) -> str:
    return "manhattan" if puzzle.width * puzzle.height <= 9 else "linear-conflict"


def _side_by_side(blocks: list[list[str]], gap: str = "   ") -> list[str]:
    height = max(len(b) for b in blocks)
    widths = [max((len(line) for line in b), default=0) for b in blocks]
    lines = []
    for i in range(height):
        parts = [(b[i] if i < len(b) else "").ljust(w) for b, w in zip(blocks, widths, strict=True)]
        lines.append(gap.join(parts).rstrip())
    return lines


def render_path(puzzle: Any, result: lacak.SearchResult, per_row: int = 6) -> str:
    """The boards along the path, ``per_row`` to a line, each headed by its step and move."""
    blocks = []
    for step, state in enumerate(result.states):
        head = "start" if step == 0 else f"{step}: {result.actions[step - 1]}"
        board = puzzle.board(state).splitlines()
        width = max(len(head), *(len(line) for line in board))
        blocks.append([head.ljust(width), *board])
    out = []
    for i in range(0, len(blocks), per_row):
        out.extend(_side_by_side(blocks[i : i + per_row]))
        out.append("")
    return "\n".join(out).rstrip()


def _write_trace(trace: lacak.SearchTrace, path: Path) -> None:
    suffix = path.suffix.lower()
    if suffix == ".json":
        path.write_text(trace.to_json(indent=1) + "\n", encoding="utf-8")
    elif suffix in (".dot", ".gv"):
        path.write_text(trace.to_dot(), encoding="utf-8")
    else:
        raise lacak.InvalidOptionError(f"--trace writes .json or .dot files, not {path.name!r}")


@click.group("sliding")
def sliding() -> None:
    """Sliding-tile puzzles: the 8-puzzle, the 15-puzzle, any W x H board.

    Boards are tiles row by row with 0 for the blank: 123450786, or
    "1 2 3 / 4 5 0 / 7 8 6", or space/comma separated past 9 tiles. Moves
    name the direction the blank moves: U, D, L, R.
    """


@sliding.command("solve")
@click.argument("start")
@click.option(
    "--goal", "-g", default=None, help="Goal board (default: tiles in order, blank last)."
)
@click.option("--size", "-s", default=None, help="Board size WxH, for boards that are not square.")
@click.option(
    "--strategy",
    "-S",
    default=AUTO,
    show_default=True,
    help="Search strategy (see 'lacak sliding strategies'); auto = the fast optimal one.",
)
@click.option(
    "--heuristic",
    "-H",
    default=None,
    help="Heuristic with options, e.g. manhattan, weighted:w1=1,w2=2 (see 'lacak sliding "
    "heuristics'); 'none' runs idastar without one.",
)
@click.option(
    "--strategy-option",
    "--option",
    "-O",
    "options",
    multiple=True,
    help="Strategy option KEY=VALUE (repeatable), as in 'lacak maze solve'.",
)
@click.option("--max-depth", type=int, default=None, help="Deepest level to search.")
@click.option("--max-nodes", type=int, default=None, help="Most nodes to expand.")
@click.option("--timeout", type=float, default=None, help="Seconds before giving up.")
@click.option(
    "--trace",
    "trace_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the search tree to FILE.json or FILE.dot.",
)
@click.option("--tree", is_flag=True, help="Draw the search tree in the terminal.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/sliding.md).")
@click.pass_context
def solve_command(
    ctx: click.Context,
    start: str,
    goal: str | None,
    size: str | None,
    strategy: str,
    heuristic: str | None,
    options: tuple[str, ...],
    max_depth: int | None,
    max_nodes: int | None,
    timeout: float | None,
    trace_file: Path | None,
    tree: bool,
    as_json: bool,
) -> None:
    """Solve START and show the path, the boards along it and the node counts.

    Exit status: 0 when the goal was reached, 1 when the search ended without
    it (a limit, or no path), 2 for bad input.

    \b
    Examples:
      lacak sliding solve 123845706 --goal 123804765
      lacak sliding solve 123450786 --goal 103425786 --max-depth 2 --strategy dfs
      lacak sliding solve "1 2 3 / 4 0 6 / 7 5 8" --strategy best-first --heuristic weighted:1,2
    """
    registry = registry_of(ctx)
    limits = lacak.Limits(max_depth=max_depth, max_expanded=max_nodes, seconds=timeout)
    # --timeout counts from here: the search started below ends no later than this budget
    with limits.start():
        result, puzzle, name, trace = _solve(
            registry, start, goal, size, strategy, heuristic, options, limits, trace_file, tree
        )
    if trace is not None and trace_file is not None:
        _write_trace(trace, trace_file)
    if as_json:
        echo_json(
            {
                "found": result.found,
                "strategy": result.strategy or name,
                "heuristic": result.heuristic,
                "length": result.length if result.found else None,
                "moves": list(result.actions),
                "states": [puzzle.format_state(s) for s in result.states] if result.found else [],
                "expanded": result.stats.expanded,
                "generated": result.stats.generated,
                "max_frontier": result.stats.max_frontier,
                "seconds": round(result.stats.seconds, 6),
                "stopped": str(result.stopped),
            }
        )
    else:
        _print_result(puzzle, result, name)
    if tree and trace is not None:
        from rich.console import Console

        Console(stderr=as_json).print(trace.to_rich())
    ctx.exit(0 if result.found else 1)


def _solve(
    registry: lacak.Registry,
    start: str,
    goal: str | None,
    size: str | None,
    strategy: str,
    heuristic: str | None,
    options: tuple[str, ...],
    limits: lacak.Limits,
    trace_file: Path | None,
    tree: bool,
) -> tuple[lacak.SearchResult, Any, str, lacak.SearchTrace | None]:
    """Parse the board, pick the strategy and heuristic, and search: ``(result, puzzle, name, trace)``."""
    puzzle = registry.puzzle_types()["sliding"].parse(start, goal=goal, size=size)
    name = _pick_strategy(registry, puzzle, heuristic) if strategy == AUTO else strategy
    searcher = registry.searchers()[name]
    if not searcher.handles(puzzle):
        raise lacak.InvalidOptionError(
            f"strategy {name!r} does not solve sliding puzzles (it solves "
            f"{', '.join(sorted(searcher.kinds))})"
        )
    heuristic_obj = None
    if searcher.heuristic == "unused":
        if heuristic and heuristic != "none":
            click.echo(
                f"note: strategy {name!r} does not use a heuristic; ignoring {heuristic!r}",
                err=True,
            )
    elif heuristic == "none":
        if searcher.heuristic == "required":
            raise lacak.InvalidOptionError(f"strategy {name!r} needs a heuristic")
    else:
        heuristic_obj = registry.heuristic("sliding", heuristic or _default_heuristic(puzzle))
    strategy_options: dict[str, Any] = {}
    for item in options:
        if "=" not in item:
            raise lacak.InvalidOptionError(f"--option takes KEY=VALUE, got {item!r}")
        strategy_options.update(
            lacak.parse_options(item, searcher.options, what=f"strategy {name!r}")
        )
    trace = None
    if trace_file is not None or tree:
        trace = lacak.SearchTrace(describe=puzzle.format_state)
    result = searcher(
        puzzle, heuristic=heuristic_obj, limits=limits, trace=trace, **strategy_options
    )
    return result, puzzle, name, trace


def _print_result(puzzle: Any, result: lacak.SearchResult, name: str) -> None:
    label = name + (f" + {result.heuristic}" if result.heuristic else "")
    stats = result.stats
    if result.found:
        moves = " ".join(result.actions) if result.actions else "(none: the start is the goal)"
        click.echo(f"found: {result.length} moves with {label}")
        click.echo(f"moves: {moves}")
        click.echo(f"path:  {' -> '.join(puzzle.format_state(s) for s in result.states)}")
        click.echo("")
        click.echo(render_path(puzzle, result))
    else:
        reasons = {
            "exhausted": "no path exists",
            "depth-limit": "the goal is deeper than --max-depth",
            "node-limit": "--max-nodes was reached",
            "time-limit": "--timeout was reached",
            "memory-limit": "the memory limit was reached",
        }
        click.echo(
            f"not found with {label}: {reasons.get(str(result.stopped), str(result.stopped))} "
            f"(stopped: {result.stopped})"
        )
    click.echo("")
    extra = f", iterations {stats.iterations}" if stats.iterations > 1 else ""
    click.echo(
        f"expanded {stats.expanded}, generated {stats.generated}, max frontier "
        f"{stats.max_frontier}, depth {stats.depth}{extra}, {stats.seconds:.4f} s"
    )


@sliding.command("scramble")
@click.option("--size", "-s", default="3x3", show_default=True, help="Board size WxH.")
@click.option(
    "--moves",
    "-k",
    type=int,
    default=None,
    help="Scramble by K random moves (default: uniformly random board).",
)
@click.option(
    "--seed",
    type=int,
    default=None,
    help="Seed; the same seed gives the same board (default: a new one, printed).",
)
@click.option("--goal", "-g", default="", help="Goal board (default: tiles in order, blank last).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/sliding.md).")
@click.pass_context
def scramble_command(
    ctx: click.Context, size: str, moves: int | None, seed: int | None, goal: str, as_json: bool
) -> None:
    """Print a scrambled board that can reach the goal.

    \b
    Examples:
      lacak sliding scramble --size 3x3 --seed 7
      lacak sliding scramble --size 4x4 --moves 50 --seed 1 --json
    """
    registry = registry_of(ctx)
    if seed is None:
        import secrets

        seed = secrets.randbits(32)
    generators = registry.generators("sliding")
    options: dict[str, Any] = {}
    if moves is None:
        generator = "random"
    else:
        generator, options["moves"] = "walk", moves
    if goal:
        options["goal"] = goal
    puzzle = generators[generator](size, seed, **options)
    board = puzzle.format_state(puzzle.initial)
    if as_json:
        echo_json(
            {
                "board": board,
                "size": f"{puzzle.width}x{puzzle.height}",
                "goal": puzzle.format_state(puzzle.goal),
                "generator": generator,
                "moves": moves,
                "seed": seed,
            }
        )
        return
    click.echo(board)
    click.echo(puzzle.board(puzzle.initial))
    how = f"{moves} random moves from the goal" if moves is not None else "uniformly random"
    click.echo(f"seed {seed} ({how}; repeat with --seed {seed})")


@sliding.command("strategies")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/sliding.md).")
@click.pass_context
def strategies_command(ctx: click.Context, as_json: bool) -> None:
    """List the strategies that can solve sliding puzzles."""
    registry = registry_of(ctx)
    catalogue = registry.searchers()
    rows: list[dict[str, Any]] = []
    for name, s in sorted(_searchers_for_sliding(registry).items()):
        rows.append(
            {
                "name": name,
                # every move costs 1 here: the fewest moves are the least cost
                "optimal": s.optimal or s.fewest_moves,
                "heuristic": s.heuristic,
                "specialised": bool(s.kinds),
                "options": dict(s.options),
                "plugin": catalogue.owner(name),
                "description": s.description,
            }
        )
    if as_json:
        echo_json({"strategies": rows})
        return
    print_catalogue(
        "strategies for sliding puzzles",
        [
            (
                row["name"],
                [
                    "optimal" if row["optimal"] else "not optimal",
                    f"heuristic {row['heuristic']}",
                    "options " + ", ".join(f"{k}={v}" for k, v in row["options"].items())
                    if row["options"]
                    else "",
                    f"plugin {row['plugin']}",
                ],
                row["description"],
            )
            for row in rows
        ],
    )


@sliding.command("heuristics")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/sliding.md).")
@click.pass_context
def heuristics_command(ctx: click.Context, as_json: bool) -> None:
    """List the heuristics for sliding puzzles, and whether each is admissible."""
    registry = registry_of(ctx)
    catalogue = registry.heuristics("sliding")
    rows: list[dict[str, Any]] = []
    for name in sorted(catalogue):
        h = catalogue[name]
        configured = h.configure() if h.options else h
        rows.append(
            {
                "name": name,
                "admissible": configured.admissible,
                "consistent": configured.consistent,
                "admissible_depends_on_options": h.admissible_for is not None,
                "options": dict(h.options),
                "plugin": catalogue.owner(name),
                "description": h.description,
            }
        )
    if as_json:
        echo_json({"heuristics": rows})
        return
    entries = []
    for row in rows:
        admissible = "admissible" if row["admissible"] else "not admissible"
        if row["admissible_depends_on_options"]:
            admissible += " (depends on options)"
        entries.append(
            (
                row["name"],
                [
                    admissible,
                    "consistent" if row["consistent"] else "",
                    "options " + ", ".join(f"{k}={v}" for k, v in row["options"].items())
                    if row["options"]
                    else "",
                    f"plugin {row['plugin']}",
                ],
                row["description"],
            )
        )
    print_catalogue("heuristics for sliding puzzles", entries)

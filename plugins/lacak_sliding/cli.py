"""``lacak sliding``: solve, estimate, scramble, list strategies and heuristics, pattern databases.

``solve`` is the command kit's (:func:`lacak.cli.solve_command`), built from
the ``sliding`` puzzle kind; the rest speak the same grammar: ``--size
ROWSxCOLS``, ``--goal G`` in any board notation, ``--json``, and ``-`` for a
board read from standard input. Bad input raises :class:`lacak.LacakError`
subclasses, which the root command prints as one line on stderr with exit
status 2. The ``--json`` outputs are documented in ``docs/sliding.md``.
"""

from __future__ import annotations

import secrets
import shlex
from typing import Any

import click
import lacak
from lacak.cli import (
    echo_json,
    print_catalogue,
    read_from,
    read_input,
    registry_of,
    solve_command,
)

from . import heuristics as tile_heuristics
from .choice import strongest
from .pdb.cli import pdb_group
from .pdb.spec import prepare as prepare_pattern_database

__all__ = ["sliding_group"]

GROUP_HELP = """Sliding-tile puzzles: the 8-puzzle, the 15-puzzle, any ROWSxCOLS board.

Boards are tiles row by row with 0 for the blank: 123450786,
"1 2 3 / 4 5 0 / 7 8 6", "1,2,3,4,5,0,7,8,6", the vector (1,2,3,4,5,0,7,8,6),
or space/comma separated past 9 tiles; '-' reads the board from standard
input. Sizes are ROWSxCOLS (3x4: 3 rows of 4 tiles). Moves name the
direction the blank moves: U, D, L, R.
"""

SOLVE_EXAMPLES = """\b
Examples:
  lacak sliding solve 123845706 --goal 123804765
  lacak sliding solve 123450786 --goal 103425786 --max-depth 2 --strategy dfs --tree
  lacak sliding solve "1 2 3 / 4 0 6 / 7 5 8" -s best-first -H weighted:1,2
  lacak sliding scramble --size 4x4 --seed 7 | head -1 | lacak sliding solve -
  lacak sliding solve 867254301 -o path.svg


The first 15-puzzle solve on a machine unpacks the 6-6-3 pattern databases
lacak ships (under a second) and, with lacak[fast], compiles the search
engine in the background (2-3 s) while it searches in Python; both are kept
for later runs. To do it ahead of time (say,
before timing solves): lacak sliding pdb build 663 (other boards and goals:
lacak sliding pdb build default --size 3x4 --goal first, ...).
"""


def _board_text(argument: str) -> str:
    """``argument``, or standard input when it is ``-`` (a board may span lines)."""
    return read_input(argument) if argument == "-" else argument


def _sliding_searchers(registry: lacak.Registry) -> dict[str, lacak.Searcher]:
    return {
        name: s for name, s in registry.searchers().items() if not s.kinds or "sliding" in s.kinds
    }


_size_option = click.option(
    "--size",
    default=None,
    help="Board size ROWSxCOLS (3x4: 3 rows of 4 tiles), for a board that is not square "
    "and not written in rows.",
)
_goal_option = click.option(
    "--goal", default=None, help="Goal board (default: tiles in order, blank last)."
)


# -- estimate -------------------------------------------------------------------------


def _is_pattern_database(heuristic: lacak.Heuristic) -> bool:
    return getattr(heuristic.prepare, "__module__", None) == prepare_pattern_database.__module__


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else float(value)


def _details(heuristic: lacak.Heuristic, puzzle: Any) -> dict[str, Any]:
    """What the course notes' H1 and H2 count, for ``misplaced`` and ``manhattan``."""
    if heuristic.estimate is tile_heuristics.misplaced:
        return {"tiles": tile_heuristics.misplaced_tiles(puzzle, puzzle.initial)}
    if heuristic.estimate is tile_heuristics.manhattan:
        terms = tile_heuristics.manhattan_terms(puzzle, puzzle.initial)
        return {"distances": [list(term) for term in terms]}
    return {}


def _detail_text(details: dict[str, Any]) -> str:
    if "tiles" in details:
        tiles = details["tiles"]
        return "tiles " + ", ".join(map(str, tiles)) if tiles else "none"
    if "distances" in details:
        terms = details["distances"]
        return ", ".join(f"{t}: {d}" for t, d in terms) if terms else "none"
    return ""


def estimate_command() -> click.Command:
    @click.command("estimate")
    @click.argument("board")
    @_goal_option
    @_size_option
    @click.option(
        "-H",
        "--heuristic",
        "specs",
        multiple=True,
        metavar="HEURISTIC",
        help="A heuristic with options (repeatable; default: every one but the pattern "
        "databases, which build tables: name them, e.g. -H pdb-663).",
    )
    @click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/sliding.md).")
    @click.pass_context
    def command(
        ctx: click.Context,
        board: str,
        goal: str | None,
        size: str | None,
        specs: tuple[str, ...],
        as_json: bool,
    ) -> None:
        """Print each heuristic's estimate of BOARD's distance to the goal.

        BOARD in any board notation, or '-' for standard input. Misplaced
        tiles (H1) and Manhattan distance (H2) also say what they count.

        \b
        Examples (the course notes' H1 = 3, tiles 1, 4, 5; H2 = 4):
          lacak sliding estimate 523146780 -H misplaced -H manhattan
          lacak sliding estimate "(1,2,3,8,4,5,7,0,6)" --goal "(1,2,3,8,0,4,7,6,5)"
        """
        registry = registry_of(ctx)
        puzzle = lacak.parse(
            "sliding",
            _board_text(board),
            goal=goal,
            size=size,
            allow_unsolvable=True,
            registry=registry,
        )
        catalogue = registry.heuristics("sliding")
        if specs:
            chosen = [registry.heuristic("sliding", spec) for spec in specs]
        else:
            chosen = [h for h in catalogue.values() if not _is_pattern_database(h)]
        rows = []
        for heuristic in chosen:
            value = heuristic.for_puzzle(puzzle)(puzzle.initial)
            rows.append(
                {
                    "heuristic": heuristic.spec,
                    "value": _number(value),
                    "admissible": heuristic.admissible,
                    **_details(heuristic, puzzle),
                }
            )
        data = {
            "board": puzzle.format_state(puzzle.initial),
            "goal": puzzle.format_state(puzzle.goal),
            "rows": puzzle.height,
            "cols": puzzle.width,
            "solvable": puzzle.solvable,
            "estimates": rows,
        }
        if as_json:
            echo_json(data)
            return
        click.echo(f"board {data['board']} ({puzzle.size}), goal {data['goal']}")
        if not puzzle.solvable:
            click.echo("(the goal cannot be reached from this board; the estimates stand)")
        click.echo("")
        width = max(len("heuristic"), *(len(row["heuristic"]) for row in rows))
        click.echo(f"{'heuristic':<{width}}  {'value':>6}  admissible  counts")
        for row in rows:
            value = row["value"]
            shown = f"{value:g}" if isinstance(value, float) else str(value)
            click.echo(
                f"{row['heuristic']:<{width}}  {shown:>6}  "
                f"{'yes' if row['admissible'] else 'no':<10}  {_detail_text(row)}".rstrip()
            )
        if not specs:
            best = strongest(puzzle, registry)
            if best.startswith("pdb"):
                click.echo(f"\npattern databases are not shown unless named: -H {best}")

    return command


# -- scramble -------------------------------------------------------------------------


def scramble_command() -> click.Command:
    @click.command("scramble")
    @click.option(
        "--size",
        default="3x3",
        show_default=True,
        help="Board size ROWSxCOLS (3x4: 3 rows of 4 tiles).",
    )
    @click.option(
        "--moves",
        "-k",
        type=int,
        default=None,
        help="Scramble by K random moves (default: a uniformly random board).",
    )
    @click.option(
        "--seed",
        type=int,
        default=None,
        help="Seed; the same seed gives the same board (default: a new one, printed).",
    )
    @_goal_option
    @click.option(
        "--from",
        "from_file",
        default=None,
        metavar="FILE",
        help="Make again the board of a scramble's JSON (FILE, or - for standard input): "
        "its generator, size, seed, moves and goal.",
    )
    @click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/sliding.md).")
    @click.pass_context
    def command(
        ctx: click.Context,
        size: str,
        moves: int | None,
        seed: int | None,
        goal: str | None,
        from_file: str | None,
        as_json: bool,
    ) -> None:
        """Print a scrambled board that can reach the goal.

        The first line is the board, ready for 'lacak sliding solve -'; the
        last says what makes it again.

        \b
        Examples:
          lacak sliding scramble --size 3x3 --seed 7
          lacak sliding scramble --size 3x4 --moves 50 --seed 1 --json > board.json
          lacak sliding scramble --from board.json
        """
        registry = registry_of(ctx)
        if from_file is not None:
            puzzle = _remade(ctx, from_file, registry)
        else:
            if seed is None:
                seed = secrets.randbits(32)
            options: dict[str, Any] = {}
            if moves is None:
                generator = "random"
            else:
                generator, options["moves"] = "walk", moves
            if goal:
                options["goal"] = goal
            puzzle = registry.generators("sliding")[generator](size, seed, **options)
        if as_json:
            echo_json(puzzle.to_dict())
            return
        click.echo(puzzle.format_state(puzzle.initial))
        click.echo(puzzle.board(puzzle.initial))
        click.echo(_made_line(puzzle))

    return command


#: What ``--from`` gives, and the flag each would be given by.
_FROM_GIVES = {"size": "--size", "moves": "--moves", "seed": "--seed", "goal": "--goal"}


def _remade(ctx: click.Context, source: str, registry: lacak.Registry) -> Any:
    """``lacak sliding scramble --from FILE``: the board FILE's JSON records, made again."""
    # (deferred: the commands are built on every start)
    from .puzzle import SlidingPuzzle
    from .remake import remake

    text = read_from(ctx, source, _FROM_GIVES, makes="makes the board",
                     records="generator, size, seed, moves, goal",
                     reads="a scramble's JSON (lacak sliding scramble --json)")  # fmt: skip
    saved = SlidingPuzzle.from_string(text, allow_unsolvable=True)
    return remake(saved, registry=registry)


def _made_line(puzzle: Any) -> str:
    """The line under a scramble: what makes it again, and the flags that do
    (``walk 3x4, seed 1, moves=50 (repeat with --size 3x4 --moves 50 --seed 1)``)."""
    # (deferred: the commands are built on every start)
    from .puzzle import goal_tiles
    from .remake import made_with

    line = made_with(puzzle)
    options = puzzle.options
    if puzzle.generator not in ("random", "walk") or set(options) - {"moves"}:
        return line
    flags = ["--size", puzzle.size]
    if "moves" in options:
        flags += ["--moves", str(options["moves"])]
    flags += ["--seed", str(puzzle.seed)]
    if puzzle.goal != goal_tiles(puzzle.cols, puzzle.rows):
        flags += ["--goal", puzzle.to_dict()["goal"]]
    return f"{line} (repeat with {shlex.join(flags)})"


# -- strategies and heuristics ----------------------------------------------------------


def strategies_command() -> click.Command:
    @click.command("strategies")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/sliding.md).")
    @click.pass_context
    def command(ctx: click.Context, as_json: bool) -> None:
        """List the strategies that can solve sliding puzzles."""
        registry = registry_of(ctx)
        catalogue = registry.searchers()
        rows: list[dict[str, Any]] = []
        for name, s in sorted(_sliding_searchers(registry).items()):
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

    return command


def heuristics_command() -> click.Command:
    @click.command("heuristics")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/sliding.md).")
    @click.pass_context
    def command(ctx: click.Context, as_json: bool) -> None:
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

    return command


def sliding_group() -> click.Group:
    """The ``lacak sliding`` group, made afresh for each CLI (its ``solve`` comes from the
    kind registered in the registry the CLI is built from)."""
    group = click.Group("sliding", help=GROUP_HELP)
    solve = solve_command("sliding")
    solve.epilog = SOLVE_EXAMPLES
    group.add_command(solve)
    group.add_command(estimate_command())
    group.add_command(scramble_command())
    group.add_command(strategies_command())
    group.add_command(heuristics_command())
    group.add_command(pdb_group)
    return group

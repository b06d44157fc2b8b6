"""``lacak boggle``: solve, check, shake, list dice, and solve many boards.

``lacak boggle solve`` is lacak's own :func:`lacak.cli.solve_command`, built
from the ``boggle`` puzzle kind (:mod:`lacak_boggle.kind`): the same options
as every ``lacak KIND solve``. The other commands speak the same grammar:
``-`` reads a board (or a file of boards) from standard input, ``--json``
prints JSON, ``-f/--format`` and ``-o FILE`` write pictures (the format
follows the file's suffix), sizes are ``ROWSxCOLS``.
"""

from __future__ import annotations

import json
import textwrap
from typing import Any

import click
import lacak
from lacak.cli import (
    Size,
    output_format,
    read_from,
    read_input,
    registry_of,
    solve_command,
    write_output,
)
from lacak.output import dumps, plural

from ._trays import DICE_INFO

# Every start of ``lacak`` loads this module to build the commands: the Boggle code (boards,
# dice, solver, batches, pictures) and rich are imported inside the commands that use them.

__all__ = [
    "best_command",
    "boggle_group",
    "check_command",
    "dice_command",
    "shake_command",
    "solve_many_command",
]

_DICTIONARY_HELP = (
    "Dictionary name (see 'lacak dictionaries list') or a dictionary file; "
    "default eng (or $LACAK_BOGGLE_DICTIONARY)."
)

#: ``--max-paths`` when not given: ``solver.DEFAULT_MAX_PATHS`` (repeated here so that
#: ``lacak --help`` loads no solver).
_MAX_PATHS = 50_000

_PICTURES = ("text", "svg", "png")


def _read_board(text: str) -> Any:
    from .board import Board  # (deferred: the commands are built on every start)

    return Board.from_string(read_input("-") if text == "-" else text)


def _min_length(value: int | None) -> int | None:
    if value is not None and value < 1:
        raise lacak.InvalidOptionError(f"--min-length must be at least 1, got {value}")
    return value


def _limits(timeout: float | None) -> lacak.Limits | None:
    return None if timeout is None else lacak.Limits(seconds=timeout)


def _max_paths(value: int) -> int | None:
    return None if value == 0 else value


def _format_option(what: str) -> Any:
    return click.option(
        "-f",
        "--format",
        "format_",
        type=click.Choice(("json", *_PICTURES)),
        default=None,
        help=f"Output format: {what} (default: from -o's suffix, else text).",
    )


_output_option = click.option(
    "-o", "--output", default=None, metavar="FILE", help="Write to FILE (.txt, .svg, .png, .json)."
)


def boggle_group() -> click.Group:
    """A new ``lacak boggle`` group: ``solve`` (built by lacak from the puzzle kind),
    ``check``, ``shake``, ``dice``, ``solve-many`` and ``best``."""

    @click.group("boggle")
    def boggle() -> None:
        """Boggle boards: find every word, shake real dice, check a word.

        Boards are rows split by '/' (or newlines), one character per tile, or
        tiles split by spaces when a tile has several letters:
        'AHORJ/QQUOI/SSCPD/MUPSM/AUULI', 'A QU E / T H #'. A '#' is a blank
        tile; '-' reads the board from standard input. Sizes are ROWSxCOLS
        (3x5: 3 rows of 5 tiles).
        """

    boggle.add_command(solve_command("boggle"))
    for command in (check_command, shake_command, dice_command, solve_many_command, best_command):
        boggle.add_command(command)
    return boggle


@click.command("shake")
@click.option(
    "--dice",
    default="classic4",
    show_default=True,
    type=click.Choice([*DICE_INFO, "random"]),
    help="Which dice to shake; 'random' draws letters weighted by a dictionary.",
)
@click.option(
    "--seed", type=int, default=None, help="Same seed, same board (default: a new one, printed)."
)
@click.option(
    "--size",
    type=Size(),
    default=None,
    metavar="ROWSxCOLS",
    help="Board size, rows by columns (3x5: 3 rows of 5 tiles): any size for --dice "
    "random (default 4x4); a dice set fills its own tray (classic4 4x4, big5 5x5, "
    "superbig6 6x6).",
)
@click.option(
    "-d",
    "--dictionary",
    default=None,
    metavar="NAME|FILE",
    help="Letter frequencies for --dice random.",
)
@click.option(
    "--from",
    "from_file",
    default=None,
    metavar="FILE",
    help="Shake again the board of a shaken board's JSON (FILE, or - for standard input): "
    "its dice, size, seed and dictionary.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (docs/boggle.md).")
@_format_option("text, svg, png or json")
@_output_option
@click.pass_context
def shake_command(
    ctx: click.Context,
    dice: str,
    seed: int | None,
    size: tuple[int, int] | None,
    dictionary: str | None,
    from_file: str | None,
    as_json: bool,
    format_: str | None,
    output: str | None,
) -> None:
    """Shake a set of dice into a board (print it, and its dice, size and seed).

    \b
    Examples:
      lacak boggle shake --seed 7
      lacak boggle shake --dice random --size 3x5 -d ind --seed 2 --json > board.json
      lacak boggle shake --from board.json -o board.svg
    """
    # (deferred: the commands are built on every start)
    from .dice import DICE_SETS, random_board, shake
    from .remake import made_with

    fmt = output_format(format_, output, as_json, _PICTURES)
    if from_file is not None:
        board = _shaken_again(ctx, from_file)
    else:
        if seed is not None and seed < 0:
            raise lacak.InvalidOptionError(f"--seed must be a non-negative integer, got {seed}")
        shape = size
        if dice == "random":
            board = random_board(shape or (4, 4), seed, dictionary=dictionary,
                                 registry=registry_of(ctx))  # fmt: skip
        else:
            tray = DICE_SETS[dice]
            if shape is not None and shape != (tray.rows, tray.cols):
                raise lacak.InvalidOptionError(
                    f"the {dice} dice fill a {tray.rows}x{tray.cols} tray, not --size {shape[0]}x{shape[1]}; "
                    "--dice random makes boards of any size"
                )
            board = shake(dice, seed)
    if fmt == "json":
        write_output(dumps(board.to_dict()), output)
        return
    # (deferred: the commands are built on every start)
    from .kind import Picture
    from .render import board_canvas, board_renderable

    caption = made_with(board)
    if fmt in ("svg", "png"):
        canvas = board_canvas(board, caption=caption)
        write_output(canvas.svg() if fmt == "svg" else canvas.png(), output,
                     what=f"boggle {fmt}")  # fmt: skip
        return
    # the text form not through rich: the line must not wrap
    picture = Picture([board_renderable(board)], f"{board.to_text()}\n{caption}\n")
    write_output(picture, output, what="boggle board")


#: What ``shake --from`` gives, and the flag each would be given by.
_FROM_GIVES = {"dice": "--dice", "seed": "--seed", "size": "--size", "dictionary": "-d"}


def _shaken_again(ctx: click.Context, source: str) -> Any:
    """``lacak boggle shake --from FILE``: the board FILE's JSON records, shaken again."""
    # (deferred: the commands are built on every start)
    from .board import Board
    from .remake import remake

    text = read_from(ctx, source, _FROM_GIVES, makes="shakes the board",
                     records="dice, size, seed, dictionary",
                     reads="a shaken board's JSON (lacak boggle shake --json)")  # fmt: skip
    return remake(Board.from_string(text), registry=registry_of(ctx))


@click.command("check")
@click.argument("board")
@click.argument("word")
@click.option("-d", "--dictionary", default=None, metavar="NAME|FILE", help=_DICTIONARY_HELP)
@click.option("-m", "--min-length", type=int, default=None, help="Shortest word that counts.")
@click.option(
    "--timeout",
    type=float,
    default=None,
    metavar="SECONDS",
    help="Stop looking for paths after SECONDS (loading and compiling the dictionary "
    "included); with no path found by then the answer is 'not decided' (exit status 1).",
)
@click.option(
    "--max-paths",
    type=click.IntRange(min=0),
    default=_MAX_PATHS,
    show_default=True,
    metavar="N",
    help="Stop rather than keep more than N paths of the word; 0 for no limit.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (docs/boggle.md).")
@_format_option("text, svg, png (the board and the word's path) or json")
@_output_option
@click.pass_context
def check_command(
    ctx: click.Context,
    board: str,
    word: str,
    dictionary: str | None,
    min_length: int | None,
    timeout: float | None,
    max_paths: int,
    as_json: bool,
    format_: str | None,
    output: str | None,
) -> int:
    """Is WORD on BOARD ('-' reads it from stdin), where, and is it in the dictionary?

    Exits with status 0 when the word counts (on the board, in the
    dictionary, long enough), 1 when it does not or when a limit stopped the
    search before a path was found (a note on stderr says so), 2 on bad input.
    """
    from .solver import check  # (deferred: the commands are built on every start)

    fmt = output_format(format_, output, as_json, _PICTURES)
    parsed = _read_board(board)
    answer = check(
        parsed,
        word,
        dictionary,
        min_length=_min_length(min_length),
        limits=_limits(timeout),
        max_paths=_max_paths(max_paths),
        registry=registry_of(ctx),
    )
    if answer.stopped is not None:
        if answer.stopped is lacak.StopReason.TIME:
            why = f"--timeout {timeout:g} was reached"
        else:
            why = f"--max-paths {max_paths} was reached"
        found = f"{plural(len(answer.paths), 'path')} found" if answer.paths else "no path found"
        click.echo(f"note: stopped early ({answer.stopped}: {why}); {found} so far", err=True)
    if fmt == "json":
        write_output(dumps(answer.to_dict()), output)
    elif fmt in ("svg", "png"):
        from .render import board_canvas  # (deferred: the commands are built on every start)

        caption = f"{answer.word}: {'valid' if answer.valid else 'not valid'}"
        canvas = board_canvas(parsed, answer.path, caption=caption)
        write_output(canvas.svg() if fmt == "svg" else canvas.png(), output,
                     what=f"boggle {fmt}")  # fmt: skip
    else:
        write_output(_check_picture(parsed, answer), output, what="boggle check")
    return 0 if answer.valid else 1


def _check_picture(board: Any, answer: Any) -> Any:
    """The board with the word's path, and what holds, as a text picture."""
    from rich.text import Text  # (deferred: rich takes ~25 ms to import)

    # (deferred: the commands are built on every start)
    from .kind import Picture
    from .render import board_renderable

    lines = []
    if answer.on_board:
        where = json.dumps([list(c) for c in answer.path or ()])
        more = (
            f" (and {plural(len(answer.paths) - 1, 'more path')})" if len(answer.paths) > 1 else ""
        )
        more += "" if answer.complete else " (the search stopped early)"
        lines.append(f"{answer.word} is on the board: {where}{more}")
    elif answer.complete:
        lines.append(f"{answer.word} is not on the board")
    else:
        lines.append(f"{answer.word}: no path found before the search stopped")
    if answer.in_dictionary is None:
        lines.append(f"whether dictionary {answer.dictionary} has {answer.word} is not known")
    else:
        lines.append(
            f"{answer.word} is {'' if answer.in_dictionary else 'not '}in dictionary "
            f"{answer.dictionary}"
        )
    if not answer.long_enough:
        lines.append(f"{answer.word} is shorter than {plural(answer.min_length, 'letter')}")
    if answer.valid:
        verdict = f"valid, {plural(answer.score, 'point')}"
    elif answer.on_board or answer.complete:
        verdict = "does not count"
    else:
        verdict = "not decided: the search stopped before a path was found"
    parts: list[Any] = [board_renderable(board, answer.path)]
    parts += [Text(line) for line in lines]
    parts.append(Text(verdict, style="bold"))
    return Picture(parts)


@click.command("dice")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (docs/boggle.md).")
def dice_command(as_json: bool) -> None:
    """List the dice sets 'shake' knows, with every die's faces."""
    from .dice import DICE_SETS  # (deferred: the commands are built on every start)

    if as_json:
        write_output(
            dumps(
                {
                    "dice_sets": [
                        {
                            "name": d.name,
                            "rows": d.rows,
                            "cols": d.cols,
                            "description": d.description,
                            "dice": [list(die) for die in d.dice],
                        }
                        for d in DICE_SETS.values()
                    ]
                }
            ),
            None,
        )
        return
    from .render import display_tile  # (deferred: the commands are built on every start)

    for d in DICE_SETS.values():
        click.echo(f"{d.name} ({d.rows}x{d.cols}): {d.description}")
        click.echo("  " + " ".join("".join(display_tile(f) for f in die) for die in d.dice))


@click.command("solve-many")
@click.argument("source", default="-")
@click.option("-d", "--dictionary", default=None, metavar="NAME|FILE", help=_DICTIONARY_HELP)
@click.option("-m", "--min-length", type=int, default=None, help="Shortest word that counts.")
@click.option(
    "--engine",
    type=click.Choice(["auto", "numba", "numpy", "dfs"]),
    default="auto",
    show_default=True,
    help="numba: the compiled walk (pip install 'lacak[fast]'); numpy: all boards "
    "level by level; dfs: the Python walk; auto: $LACAK_BOGGLE_ENGINE if set, else "
    "numba for 10,000 boards or more once it is compiled on this machine (200,000 "
    "or more: compiled first), numpy from 8 boards, else dfs (docs/boggle.md, Engines).",
)
@click.option(
    "--workers",
    type=int,
    default=1,
    show_default=True,
    help="Workers: threads for numba, processes for the others (0: one per core).",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0),
    default=None,
    metavar="SECONDS",
    help="Stop each board's walk after SECONDS (reading and compiling the dictionary must "
    "end by then too); a board stopped gets a 'stopped' record, and the exit status is 1.",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON object per board (JSON lines)."
)
@click.pass_context
def solve_many_command(
    ctx: click.Context,
    source: str,
    dictionary: str | None,
    min_length: int | None,
    engine: str,
    workers: int,
    timeout: float | None,
    as_json: bool,
) -> None:
    """Solve every board in SOURCE (a file, or '-' for stdin: the default), one a line.

    Prints one record per board, in order: ``COUNT<TAB>SCORE<TAB>BOARD``, or
    with --json one JSON object per line (a board's result, as
    ``boggle solve --json`` prints it). A board that cannot be solved (it does
    not parse, its letters are not in the dictionary, its worker died) gets an
    error record in its place, ``error<TAB>MESSAGE<TAB>BOARD`` or
    ``{"board": ..., "error": {"type": ..., "message": ...}}``, and the other
    boards go on. With --timeout, each board's walk has SECONDS: a board that
    takes longer gets ``stopped<TAB>MESSAGE<TAB>BOARD`` (with --json its result
    so far, ``"stopped": "time-limit"``). Exit status 0 when every board was
    solved; 2 when any could not be, 1 when any was stopped (and none failed),
    after every record is printed, with one line on stderr naming them.
    """
    if workers < 0:
        raise lacak.InvalidOptionError(f"--workers must be 0 or more, got {workers}")
    lines = [line.strip() for line in read_input(source).splitlines()]
    numbered = [(n, line) for n, line in enumerate(lines, 1) if line]
    options: dict[str, Any] = {
        "min_length": _min_length(min_length),
        "engine": engine,
        "workers": None if workers == 0 else workers,
        "registry": registry_of(ctx),
        "limits": _limits(timeout),
    }
    boards = [line for _, line in numbered]
    try:
        failed, stopped = (
            _print_json(boards, dictionary, options)
            if as_json
            else _print_scores(boards, dictionary, options)
        )
    except lacak.LimitReachedError as error:  # in the set-up: no board was walked
        click.echo(f"stopped: --timeout {timeout:g} was reached before any board was walked "
                   f"({' '.join(str(error).split())})", err=True)  # fmt: skip
        ctx.exit(1)

    def where(found: list[int]) -> str:
        numbers = [numbered[k][0] for k in found]
        return ", ".join(map(str, numbers[:10])) + (", ..." if len(numbers) > 10 else "")

    if stopped:
        click.echo(f"note: {len(stopped)} of {plural(len(boards), 'board')} stopped at "
                   f"--timeout {timeout:g} (line {where(stopped)}); their records say how far "
                   "they got", err=True)  # fmt: skip
    if failed:
        click.echo(f"Error: {len(failed)} of {plural(len(boards), 'board')} could not be solved "
                   f"(line {where(failed)}); their records say why", err=True)  # fmt: skip
        ctx.exit(2)
    if stopped:
        ctx.exit(1)


def _error_text(error: BaseException | None) -> str:
    """An error record's message, on one line whatever the error says."""
    return " ".join(str(error).split())


def _print_json(
    boards: list[str], dictionary: str | None, options: dict[str, Any]
) -> tuple[list[int], list[int]]:
    """``solve-many --json``: each board's result; returns the boards that failed, and
    those a limit stopped."""
    from .batch import solve_many  # (deferred: the commands are built on every start)

    failed = []
    stopped = []
    for k, (line, record) in enumerate(zip(boards, solve_many(boards, dictionary, **options),
                                           strict=True)):  # fmt: skip
        if record.value is not None:
            if record.value.stopped.is_limit:
                stopped.append(k)
            click.echo(json.dumps(record.value.to_dict(), ensure_ascii=False))
            continue
        failed.append(k)
        kind = type(record.error).__name__
        click.echo(json.dumps({"board": line, "error": {"type": kind,
                                                        "message": _error_text(record.error)}},
                              ensure_ascii=False))  # fmt: skip
    return failed, stopped


def _print_scores(
    boards: list[str], dictionary: str | None, options: dict[str, Any]
) -> tuple[list[int], list[int]]:
    """``solve-many``: each board's count, points and canonical text, from
    :func:`~lacak_boggle.score_many` (no word lists are made); returns the
    boards that failed, and those a limit stopped."""
    # (deferred: the commands are built on every start)
    from .batch import score_many
    from .board import _PLAIN, Board

    scores = score_many(boards, dictionary, **options)
    out = []
    for k, (line, count, points) in enumerate(
        zip(boards, scores.count.tolist(), scores.score.tolist(), strict=True)
    ):
        if k in scores.errors:
            error = scores.errors[k]
            what = "stopped" if isinstance(error, lacak.LimitReachedError) else "error"
            out.append(f"{what}\t{_error_text(error)}\t{line}")
            continue
        # the plain form is its own canonical text; others are read again for theirs
        text = line if _PLAIN.fullmatch(line) else Board.from_string(line).to_text()
        out.append(f"{count}\t{points}\t{text}")
    if out:
        click.echo("\n".join(out))
    stopped = [k for k, e in scores.errors.items() if isinstance(e, lacak.LimitReachedError)]
    return sorted(set(scores.errors) - set(stopped)), sorted(stopped)


#: Most tiles ``lacak boggle best`` searches (:data:`lacak_boggle.space.MAX_TILES`, repeated
#: so that building the commands loads no numpy).
_BEST_TILES = 63


@click.command("best")
@click.option("--size", type=Size(most=_BEST_TILES, unit="tiles"), default="4x4",
              show_default=True, help="Board size, ROWSxCOLS (at most 63 tiles).")  # fmt: skip
@click.option("-d", "--dictionary", default=None, metavar="NAME|FILE", help=_DICTIONARY_HELP)
@click.option("-s", "--strategy", default="hill-climbing", show_default=True,
              help="Local search strategy (hill-climbing, simulated-annealing, beam, genetic).")  # fmt: skip
@click.option("-O", "--option", "pairs", multiple=True, metavar="KEY=VALUE",
              help="Strategy option: one KEY=VALUE each time (repeatable), e.g. sideways=100.")  # fmt: skip
@click.option("--seconds", type=click.FloatRange(min=0), default=None,
              help="Stop after this many seconds (default: 10, unless --evaluations or "
              "--restarts bounds the search).")  # fmt: skip
@click.option("--evaluations", type=click.IntRange(min=1), default=None,
              help="Stop once N boards were scored (a count: same seed, same board anywhere).")  # fmt: skip
@click.option("--restarts", type=click.IntRange(min=0), default=None,
              help="Runs after the first, each from a new random board (default: until "
              "--seconds or --evaluations).")  # fmt: skip
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Same seed and --evaluations, same board.")  # fmt: skip
@click.option("-m", "--min-length", type=int, default=None, help="Shortest word that counts.")
@click.option("--engine", type=click.Choice(("auto", "numba", "numpy", "dfs")), default="auto",
              show_default=True, help="Engine that scores boards (numba: lacak[fast]).")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print JSON (docs/boggle.md).")
@click.pass_context
def best_command(
    ctx: click.Context,
    size: tuple[int, int],
    dictionary: str | None,
    strategy: str,
    pairs: tuple[str, ...],
    seconds: float | None,
    evaluations: int | None,
    restarts: int | None,
    seed: int,
    min_length: int | None,
    engine: str,
    as_json: bool,
) -> None:
    """Search for the board with the most points: lacak's local search strategies over
    boards (tile changes and swaps, mirror images folded), scored by the batch engine.

    Prints the best board (text 'lacak boggle solve' reads), its points and words, and
    how many runs (each from a random board) ended on it.

    \b
    Examples:
      lacak boggle best --size 4x4 -d eng --seconds 30 --seed 1
      lacak boggle best --size 5x5 -s simulated-annealing --seconds 60 --json
      lacak boggle best --evaluations 20000 -O sideways=100
    """
    # (deferred: the commands are built on every start)
    from lacak.options import parse_pairs

    from .best import best_board

    registry = registry_of(ctx)
    searcher = registry.searchers()[strategy]
    allowed = {k: v for k, v in searcher.options.items() if k != "seed"}
    options = parse_pairs(pairs, allowed, what=f"strategy {strategy!r}")
    found = best_board(
        size, dictionary, strategy=strategy, seconds=seconds, evaluations=evaluations,
        restarts=restarts, seed=seed, min_length=_min_length(min_length), engine=engine,
        registry=registry, **options,
    )  # fmt: skip
    if as_json:
        click.echo(dumps(found.to_dict()))
        return
    rows, cols = found.board.shape
    runs = len(found.runs)
    lines = [
        found.board.to_text(),
        f"{plural(found.score, 'point')}, {plural(len(found.words), 'word')} "
        f"({found.dictionary}, words of {found.min_length} letters or more)",
        f"found by {found.found} of {plural(runs, 'run')} ({found.strategy}, seed {found.seed}); "
        f"{plural(found.evaluations, f'{rows}x{cols} board')} scored in {found.seconds:.1f} s "
        f"({found.engine}), stopped by {found.stopped}",
        "",
        *(" ".join(row) for row in found.board.to_rows()),
        "",
        textwrap.fill(" ".join(found.words), width=78, break_on_hyphens=False),
    ]
    click.echo("\n".join(lines))

"""``lacak boggle``: solve, shake, check, list dice, and solve many boards."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import lacak
from lacak.cli import echo_json, parse_size, read_input, registry_of

from . import _DICE_INFO

__all__ = ["boggle"]

_DICTIONARY_HELP = (
    "Dictionary name (see 'lacak dictionaries list') or a dictionary file; "
    "default eng (or $LACAK_BOGGLE_DICTIONARY)."
)


def _read_board(text: str) -> Any:
    from .board import Board

    return Board.from_string(read_input("-") if text == "-" else text)


def _min_length(value: int | None) -> int | None:
    if value is not None and value < 1:
        raise lacak.InvalidOptionError(f"--min-length must be at least 1, got {value}")
    return value


#: ``--max-paths`` when not given: ``solver.DEFAULT_MAX_PATHS`` (repeated here so that
#: ``lacak --help`` loads no solver).
_MAX_PATHS = 50_000

_TIMEOUT_HELP = (
    "Stop after SECONDS (loading and compiling the dictionary included) and show "
    "what was found; exit status 1."
)


def _limits(timeout: float | None) -> lacak.Limits | None:
    return None if timeout is None else lacak.Limits(seconds=timeout)


def _max_paths(value: int) -> int | None:
    return None if value == 0 else value


def _console() -> Any:
    from rich.console import Console

    return Console(highlight=False)


def _write_svg(path: str, svg: str) -> None:
    Path(path).write_text(svg, encoding="utf-8")


@click.group("boggle")
def boggle() -> None:
    """Boggle boards: find every word, shake real dice, check a word.

    Boards are rows split by '/' (or newlines), one character per tile, or
    tiles split by spaces when a tile has several letters:
    'AHORJ/QQUOI/SSCPD/MUPSM/AUULI', 'A QU E / T H #'. A '#' is a blank tile.
    """


@boggle.command("solve")
@click.argument("board")
@click.option("-d", "--dictionary", default=None, metavar="NAME|FILE", help=_DICTIONARY_HELP)
@click.option(
    "-m",
    "--min-length",
    type=int,
    default=None,
    help="Shortest word that counts (default: 3 up to 4x4, 4 on larger boards).",
)
@click.option("--all-paths", is_flag=True, help="List every path of every word.")
@click.option("--timeout", type=float, default=None, metavar="SECONDS", help=_TIMEOUT_HELP)
@click.option(
    "--max-words",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Stop once N words are found (in the walk's order) and show them; exit status 1.",
)
@click.option(
    "--max-paths",
    type=click.IntRange(min=0),
    default=_MAX_PATHS,
    show_default=True,
    metavar="N",
    help="With --all-paths: stop rather than keep more than N paths, all words together "
    "(bounds memory: about 2 kB a 14-tile path at the peak of --json); 0 for no limit. "
    "Exit status 1 when reached.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/boggle.md).")
@click.option(
    "--svg", "svg", default=None, metavar="FILE", help="Draw the board and the best word."
)
@click.pass_context
def solve_command(
    ctx: click.Context,
    board: str,
    dictionary: str | None,
    min_length: int | None,
    all_paths: bool,
    timeout: float | None,
    max_words: int | None,
    max_paths: int,
    as_json: bool,
    svg: str | None,
) -> None:
    """Find every word on BOARD ('-' reads it from stdin).

    Exit status: 0 when the whole board was searched, 1 when a limit
    (--timeout, --max-words, --max-paths) stopped the search early (the
    words found so far are shown, with a note on stderr), 2 for bad input.
    """
    from .solver import solve_board

    limits = _limits(timeout)
    parsed = _read_board(board)
    result = solve_board(
        parsed,
        dictionary,
        min_length=_min_length(min_length),
        all_paths=all_paths,
        limits=limits,
        max_words=max_words,
        max_paths=_max_paths(max_paths),
        registry=registry_of(ctx),
    )
    with lacak.memory_guard(f"printing {result.count} words", "lower --max-paths or --max-words"):
        _show_solution(parsed, result, all_paths=all_paths, as_json=as_json, svg=svg)
    if not result.complete:
        if result.stopped is lacak.StopReason.TIME:
            why = f"--timeout {timeout:g} was reached"
        elif max_words is not None and result.count >= max_words:
            why = f"--max-words {max_words} was reached"
        else:
            why = f"--max-paths {max_paths} was reached"
        if result.count:
            found = (
                f"showing the {result.count} word{'' if result.count == 1 else 's'} found so far"
            )
        else:
            found = "no word found so far"
        click.echo(
            f"note: stopped early ({result.stopped}: {why}); {found}, the board may have more",
            err=True,
        )
        ctx.exit(1)


def _show_solution(
    parsed: Any, result: Any, *, all_paths: bool, as_json: bool, svg: str | None
) -> None:
    best = result.best()
    if svg:
        from .render import board_svg

        caption = f"{best.word} ({best.score} points)" if best else "no words"
        _write_svg(svg, board_svg(parsed, best.path if best else None, caption=caption))
    if as_json:
        _echo_solution_json(result.to_dict())
        return
    from rich.columns import Columns

    from .render import board_renderable
    from .results import cells_of, score

    console = _console()
    title = f"best: {best.word} ({best.score})" if best else None
    console.print(board_renderable(parsed, best.path if best else None, title=title))
    console.print(
        f"[bold]{result.count}[/] words, [bold]{result.score}[/] points "
        f"(dictionary {result.dictionary}, at least {result.min_length} letters)"
    )
    if all_paths:
        # plain lines, each path as JSON, made from the cell indices (there may be
        # many thousands of paths: rich would take long to wrap them)
        at = [json.dumps(list(cell)) for cell in cells_of(*parsed.shape)]
        entries = sorted(result.entries, key=lambda e: (-score(len(e[0])), -len(e[0]), e[0]))
        console.file.flush()
        for word, paths in entries:
            shown = "  ".join(["[" + ", ".join([at[i] for i in p]) + "]" for p in paths])
            click.echo(f"{word} ({score(len(word))}): {shown}")
    elif result.count:
        ordered = sorted(result.words, key=lambda w: (-w.score, -len(w.word), w.word))
        console.print(Columns([f"{w.word} [dim]{w.score}[/]" for w in ordered], padding=(0, 2)))


def _echo_solution_json(data: dict[str, Any]) -> None:
    """Print a solution's JSON indented, with each word on one line (as in
    docs/boggle.md): readable, and written by the C encoder, so a result with
    many thousands of paths prints in a fraction of a second."""
    lines = ["{"]
    last = len(data) - 1
    for k, (key, value) in enumerate(data.items()):
        comma = "," if k < last else ""
        if key == "words" and value:
            lines.append('  "words": [')
            end = len(value) - 1
            lines += [
                f"    {json.dumps(word, ensure_ascii=False)}{',' if j < end else ''}"
                for j, word in enumerate(value)
            ]
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    click.echo("\n".join(lines))


@boggle.command("shake")
@click.option(
    "--dice",
    default="classic4",
    show_default=True,
    type=click.Choice([*_DICE_INFO, "random"]),
    help="Which dice to shake; 'random' draws letters weighted by a dictionary.",
)
@click.option(
    "--seed", type=int, default=None, help="Same seed, same board (default: a new one, printed)."
)
@click.option("--size", default="4x4", show_default=True, help="Board size for --dice random.")
@click.option(
    "-d",
    "--dictionary",
    default=None,
    metavar="NAME|FILE",
    help="Letter frequencies for --dice random.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def shake_command(
    ctx: click.Context,
    dice: str,
    seed: int | None,
    size: str,
    dictionary: str | None,
    as_json: bool,
) -> None:
    """Shake a set of dice into a board (print it and its seed)."""
    from .dice import random_board, shake

    if seed is not None and seed < 0:
        raise lacak.InvalidOptionError(f"--seed must be a non-negative integer, got {seed}")
    if dice == "random":
        board = random_board(
            parse_size(size, what="--size"), seed, dictionary=dictionary, registry=registry_of(ctx)
        )
    else:
        board = shake(dice, seed)
    if as_json:
        echo_json(
            {"dice": dice, "seed": board.seed, "board": board.to_rows(), "text": board.to_text()}
        )
        return
    from .render import board_renderable

    console = _console()
    console.print(board_renderable(board))
    click.echo(board.to_text())  # not through rich: the line must not wrap
    click.echo(f"dice {dice}, seed {board.seed}")


@boggle.command("check")
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
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option(
    "--svg", "svg", default=None, metavar="FILE", help="Draw the board and the word's path."
)
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
    svg: str | None,
) -> int:
    """Is WORD on BOARD, where, and is it in the dictionary?

    Exits with status 0 when the word counts (on the board, in the
    dictionary, long enough), 1 when it does not or when a limit stopped the
    search before a path was found (a note on stderr says so), 2 on bad input.
    """
    from .solver import check

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
        found = f"{len(answer.paths)} paths found" if answer.paths else "no path found"
        click.echo(f"note: stopped early ({answer.stopped}: {why}); {found} so far", err=True)
    if svg:
        from .render import board_svg

        caption = f"{answer.word}: {'valid' if answer.valid else 'not valid'}"
        _write_svg(svg, board_svg(parsed, answer.path, caption=caption))
    if as_json:
        echo_json(answer.to_dict())
    else:
        from .render import board_renderable

        console = _console()
        console.print(board_renderable(parsed, answer.path))
        if answer.on_board:
            where = json.dumps([list(c) for c in answer.path or ()])
            more = f" (and {len(answer.paths) - 1} more paths)" if len(answer.paths) > 1 else ""
            more += "" if answer.complete else " (the search stopped early)"
            console.print(f"{answer.word} is on the board: {where}{more}")
        elif answer.complete:
            console.print(f"{answer.word} is not on the board")
        else:
            console.print(f"{answer.word}: no path found before the search stopped")
        if answer.in_dictionary is None:
            console.print(f"whether dictionary {answer.dictionary} has {answer.word} is not known")
        else:
            console.print(
                f"{answer.word} is {'' if answer.in_dictionary else 'not '}in dictionary "
                f"{answer.dictionary}"
            )
        if not answer.long_enough:
            console.print(f"{answer.word} is shorter than {answer.min_length} letters")
        if answer.valid:
            verdict = f"valid, {answer.score} points"
        elif answer.on_board or answer.complete:
            verdict = "does not count"
        else:
            verdict = "not decided: the search stopped before a path was found"
        console.print(f"[bold]{verdict}[/]")
    return 0 if answer.valid else 1


@boggle.command("dice")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def dice_command(as_json: bool) -> None:
    """List the dice sets 'shake' knows, with every die's faces."""
    from .dice import DICE_SETS

    if as_json:
        echo_json(
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
        )
        return
    from .render import display_tile

    for d in DICE_SETS.values():
        click.echo(f"{d.name} ({d.rows}x{d.cols}): {d.description}")
        click.echo("  " + " ".join("".join(display_tile(f) for f in die) for die in d.dice))


@boggle.command("solve-many")
@click.argument("source", default="-")
@click.option("-d", "--dictionary", default=None, metavar="NAME|FILE", help=_DICTIONARY_HELP)
@click.option("-m", "--min-length", type=int, default=None, help="Shortest word that counts.")
@click.option(
    "--engine",
    type=click.Choice(["auto", "numba", "numpy", "dfs"]),
    default="auto",
    show_default=True,
    help="numba: the compiled walk (pip install 'lacak[fast]'); numpy: all boards "
    "level by level; dfs: the Python walk; auto: numba when installed and worth "
    "its start-up, else numpy (dfs for fewer than 8 boards).",
)
@click.option(
    "--workers",
    type=int,
    default=1,
    show_default=True,
    help="Workers: threads for numba, processes for the others (0: one per core).",
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
    as_json: bool,
) -> None:
    """Solve every board in SOURCE (a file, or '-' for stdin), one board per line.

    Prints one record per board, in order: ``COUNT<TAB>SCORE<TAB>BOARD``, or
    with --json one JSON object per line (a board's result, as
    ``boggle solve --json`` prints it). A board that cannot be solved (it does
    not parse, its letters are not in the dictionary, its worker died) gets an
    error record in its place, ``error<TAB>MESSAGE<TAB>BOARD`` or
    ``{"board": ..., "error": {"type": ..., "message": ...}}``, and the other
    boards go on. Exit status 0 when every board was solved; 2 when any was
    not, after every record is printed, with one line on stderr naming them.
    """
    from .batch import solve_many

    if workers < 0:
        raise lacak.InvalidOptionError(f"--workers must be 0 or more, got {workers}")
    lines = [line.strip() for line in read_input(source).splitlines()]
    numbered = [(n, line) for n, line in enumerate(lines, 1) if line]
    records = solve_many(
        [line for _, line in numbered],
        dictionary,
        min_length=_min_length(min_length),
        engine=engine,
        workers=None if workers == 0 else workers,
        registry=registry_of(ctx),
    )
    failed = []
    for (number, line), record in zip(numbered, records, strict=True):
        result, error = record.value, record.error
        if result is not None:
            if as_json:
                click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
            else:
                click.echo(f"{result.count}\t{result.score}\t{result.board.to_text()}")
            continue
        failed.append(number)
        message = " ".join(str(error).split())  # one line, whatever the error says
        if as_json:
            kind = type(error).__name__
            click.echo(json.dumps({"board": line, "error": {"type": kind, "message": message}},
                                  ensure_ascii=False))  # fmt: skip
        else:
            click.echo(f"error\t{message}\t{line}")
    if failed:
        shown = ", ".join(map(str, failed[:10])) + (", ..." if len(failed) > 10 else "")
        click.echo(f"Error: {len(failed)} of {len(records)} boards could not be solved "
                   f"(line {shown}); their records say why", err=True)  # fmt: skip
        ctx.exit(2)

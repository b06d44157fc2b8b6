"""The ``boggle`` puzzle kind's part of lacak's pipeline: choose, render, extras, advice.

lacak's core owns *parse → choose → solve → result → render*; these are the
functions the ``boggle`` :class:`lacak.PuzzleType` declares for it, so that
:func:`lacak.solve`, :meth:`BoggleResult.to_dict
<lacak_boggle.BoggleResult.to_dict>` and ``lacak boggle solve`` (built by
:func:`lacak.cli.solve_command`) agree. rich is imported where a text picture is
made (reading, solving and a result's JSON need none of it).
"""

from __future__ import annotations

import functools
import io
import json
import os
from collections.abc import Iterator
from typing import Any

import lacak
from lacak.output import plural

# every batch job shakes a board (lacak_boggle.dice) and solves it: this module imports both,
# so they are loaded once, in the process that plans the batch, before workers are forked
from . import dice as _dice  # noqa: F401
from .board import BatchBoard, Board
from .engines import ENGINE_VARIABLE, engine_for_job, load_compiled
from .render import board_png, board_renderable, board_svg
from .results import BoggleResult, cells_of, score
from .solver import resolve_dictionary, whole_number
from .wordgraph import compile_dictionary

__all__ = [
    "Picture",
    "advice",
    "batch_instance",
    "batch_plan",
    "batch_prepare",
    "batch_record",
    "choose",
    "extras",
    "objective",
    "parse",
    "render",
]

#: What the kind's text and SVG pictures are made in.
FORMATS = ("text", "svg", "png")


def parse(text: str, **options: Any) -> Board:
    """A board from text; with ``dictionary``/``min_length`` options, one searchable
    as a Puzzle by any strategy (lacak checks that no other option is given).

    ``min_length`` may be a whole number written as text (what the command line
    passes).

    :raises InvalidPuzzleError: not a board.
    :raises InvalidOptionError: a bad ``min_length``.
    """
    board = Board.from_string(text)
    if options:
        dictionary = resolve_dictionary(options.get("dictionary"))
        board = board.with_dictionary(
            dictionary, whole_number(options.get("min_length"), "min_length")
        )
    return board


def choose(puzzle: Any, heuristic: str | None, registry: Any) -> tuple[str, str | None]:
    """The ``boggle`` strategy, always: it finds every word at once (no heuristic helps)."""
    return "boggle", None


def extras(puzzle: Any, result: lacak.SearchResult) -> dict[str, Any]:
    """The Boggle keys of a result's JSON, under ``"boggle"``.

    For a :class:`BoggleResult` its whole answer (:meth:`BoggleResult.answer`);
    for another strategy's result (``-s bfs``: one word) the board, the
    dictionary and the word found.
    """
    if isinstance(result, BoggleResult):
        return {"boggle": result.answer()}
    board: Board = puzzle
    return {
        "boggle": {
            "board": board.to_rows(),
            "dictionary": board.dictionary.name if board.dictionary is not None else None,
            "min_length": board.effective_min_length,
            "word": board.spell(result.actions) if result.found else None,
        }
    }


def objective(puzzle: Any) -> lacak.Objective:
    """What local search climbs on a ``boggle`` puzzle: the points of boards, for the
    search for the best board (a :class:`lacak_boggle.best.BoardSearch`, as
    :func:`lacak_boggle.best_board` and ``lacak boggle best`` make it).

    :raises InvalidPuzzleError: a board itself, whose search is for its words: there is
        no board to climb to from one of its paths.
    """
    found = getattr(puzzle, "objective", None)
    if isinstance(found, lacak.Objective):
        return found
    raise lacak.InvalidPuzzleError(
        "local search on Boggle climbs over boards, not over the paths of one board: "
        "search for the best board with 'lacak boggle best' (lacak_boggle.best_board)"
    )


def advice(puzzle: Any, result: lacak.SearchResult) -> str | None:
    """What the words found so far are, and what would find more, when a limit stopped
    the search (``None`` when none did)."""
    if not isinstance(result, BoggleResult) or not result.stopped.is_limit:
        return None
    if result.count:
        shown = f"showing the {plural(result.count, 'word')} found so far, the board may have more"
    else:
        shown = "no word found so far, the board may have more"
    stopped = result.stopped
    if stopped is lacak.StopReason.MEMORY and result.bound == "max_words":
        return f"--max-words {result.count} was reached; {shown}"
    if stopped is lacak.StopReason.MEMORY and result.bound == "max_paths":
        kept = sum(len(paths) for _word, paths in result.entries)
        return f"--max-paths {kept} was reached; {shown} (--max-paths 0 keeps every path)"
    if stopped is lacak.StopReason.TIME:
        return f"{shown}; a longer --timeout may find them"
    return shown


# -- batches (lacak batch boggle) -----------------------------------------------------------


def batch_plan(
    *, dice: str | None = None, engine: str | None = None, **given: Any
) -> dict[str, Any]:
    """``--dice D`` names the generator: a dice set (``classic4``, ``big5``, ...) or ``random``.

    This runs once, in the process that starts the workers, before the jobs. It
    also loads what every job needs: the modules, the dictionary (``-d``, among
    ``given``) with its compiled word graph, and the engine a job would choose
    (``--engine numba`` compiles the walk now if this machine has not compiled
    it yet, announced). Workers forked from this process then start with them
    instead of each loading them (about 0.1 s for the dictionary, 0.7 s for the
    compiled walk).

    :raises InvalidOptionError: an unknown engine, or ``numba`` where it cannot run.
    :raises UnknownComponentError: no such dictionary.
    :raises DictionaryError: a dictionary file that cannot be read.
    """
    if engine_for_job(engine or "auto") == "numba":
        load_compiled().warm()  # the machine code itself, not only numba
    compile_dictionary(_batch_dictionary(given.get("dictionary")))
    return {"generator": dice} if dice is not None else {}


def batch_prepare(
    board: Board, *, solve: bool = False, dictionary: str | None = None, min_length: int = 0,
    scores_only: bool = False, engine: str = "auto", **_options: Any,
) -> Board:  # fmt: skip
    """A shaken board with the dictionary its words are looked up in (loaded once per
    worker: the registry and the compiled word graph are cached), as a
    :class:`~lacak_boggle.board.BatchBoard` naming the engine that walks it
    (:func:`~lacak_boggle.engines.engine_for_job`) and whether only its counts
    are recorded."""
    if not solve:
        return board

    return BatchBoard(
        tiles=board.tiles, seed=board.seed, dice=board.dice, options=board.options,
        dictionary=_batch_dictionary(dictionary),
        min_length=min_length or None, scores_only=scores_only,
        engine=_batch_engine(engine, os.environ.get(ENGINE_VARIABLE)),
    )  # fmt: skip


@functools.lru_cache(maxsize=8)
def _batch_engine(engine: str, _variable: str | None) -> str:
    """The engine of a batch's jobs, decided once per worker process (and value of
    ``LACAK_BOGGLE_ENGINE``): every job of a worker walks with the same engine, and
    no job looks at the disk to decide."""
    return engine_for_job(engine)


@functools.lru_cache(maxsize=4)
def _batch_dictionary(name: str | None) -> lacak.Dictionary:
    """The dictionary of a batch's jobs, resolved once per worker process (so that a
    batch looks its words up in one list, and its jobs do not look at the disk)."""
    return resolve_dictionary(name)


def batch_instance(board: Board) -> dict[str, Any]:
    """A board in a batch's records: its JSON (:meth:`Board.to_dict
    <lacak_boggle.board.Board.to_dict>`, what ``lacak boggle shake --json`` prints), which
    records what makes it again."""
    return board.to_dict()


#: What ``--scores-only`` keeps of a result's ``"boggle"`` answer.
SCORE_KEYS = ("dictionary", "min_length", "complete", "count", "score", "best")


def batch_record(data: dict[str, Any], *, scores_only: bool = False, **_options: Any) -> Any:
    """With ``--scores-only``, a record's result keeps its counts and score, not its words
    (nor the best word's path)."""
    result = data.get("result")
    if not scores_only or not isinstance(result, dict):
        return data
    answer = result.get("boggle") or {}
    kept = {key: result[key] for key in ("kind", "strategy", "found", "stopped", "stats")
            if key in result}  # fmt: skip
    kept["boggle"] = {key: answer.get(key) for key in SCORE_KEYS}
    return {**data, "result": kept}


# -- pictures -------------------------------------------------------------------------------


class Picture:
    """A text picture: rich renderables on a terminal, and their plain text elsewhere.

    :param parts: rich renderables, shown in order.
    :param lines: plain text printed after them as it is (many lines of paths:
        rich would take long to wrap them).
    """

    def __init__(self, parts: list[Any], lines: str = "") -> None:
        self.parts = parts
        self.lines = lines

    def __rich_console__(self, console: Any, options: Any) -> Iterator[Any]:
        from rich.text import Text  # (deferred: rich takes ~25 ms to import)

        yield from self.parts
        if self.lines:
            yield Text(self.lines, no_wrap=True, overflow="ignore", end="")

    @functools.cached_property
    def plain(self) -> str:
        """The picture as plain text (``COLUMNS`` wide, else 80)."""
        from rich.console import Console  # (deferred: rich takes ~25 ms to import)

        out = io.StringIO()
        console = Console(file=out, color_system=None, highlight=False, soft_wrap=False)
        for part in self.parts:
            console.print(part)
        return out.getvalue() + self.lines

    def __str__(self) -> str:
        return self.plain


def render(
    puzzle: Any, result: lacak.SearchResult | None, format: str, *, full: bool = False
) -> Any:
    """The board, with the best word's path (or the path found) drawn.

    ``text``: a :class:`Picture`: the board with the path's tiles highlighted and
    numbered, then for a :class:`BoggleResult` the counts and the words by
    score (with every path of each word, one word a line, when all paths were
    collected). ``svg``: a standalone SVG document with the path drawn as a
    line under the letters (:func:`~lacak_boggle.board_svg`); ``png``: the same
    picture as PNG bytes.

    :param result: what to draw on the board, or ``None`` for the board alone.
    :param full: accepted from ``lacak KIND solve``; every word is always shown.
    :raises InvalidOptionError: a format the kind does not draw.
    """
    board: Board = puzzle
    path: tuple[Any, ...] | None = None
    caption: str | None = None
    if isinstance(result, BoggleResult):
        best = result.best()
        if best is not None:
            path = best.path
            caption = f"{best.word} ({plural(best.score, 'point')})"
        else:
            caption = "no word"
    elif result is not None and result.found:
        path = tuple(result.actions)
        word = board.spell(path)
        caption = f"{word} ({plural(score(len(word)), 'point')})"
    if format == "svg":
        return board_svg(board, path, caption=caption)
    if format == "png":
        return board_png(board, path, caption=caption)
    if format != "text":
        raise lacak.InvalidOptionError(
            f"Boggle boards are drawn as text, svg or png, not {format!r}"
        )
    title = caption
    if isinstance(result, BoggleResult) and path:  # (short: the title wraps to the board's width)
        best = result.best()
        title = f"best: {best.word} ({best.score})" if best else None
    parts: list[Any] = [board_renderable(board, path, title=title)]
    lines = ""
    if isinstance(result, BoggleResult):
        parts.append(
            f"[bold]{plural(result.count, 'word')}[/], [bold]{plural(result.score, 'point')}[/] "
            f"(dictionary {result.dictionary}, at least {plural(result.min_length, 'letter')})"
        )
        if result.all_paths:
            lines = _every_path(result)
        elif result.count:
            from rich.columns import Columns  # (deferred: rich takes ~25 ms to import)

            ordered = sorted(result.words, key=lambda w: (-w.score, -len(w.word), w.word))
            parts.append(Columns([f"{w.word} [dim]{w.score}[/]" for w in ordered], padding=(0, 2)))
    return Picture(parts, lines)


def _every_path(result: BoggleResult) -> str:
    """One line per word, best first: ``WORD (points): [[r, c], ...]  [[r, c], ...]``."""
    at = [json.dumps(list(cell)) for cell in cells_of(*result.board.shape)]
    entries = sorted(result.entries, key=lambda e: (-score(len(e[0])), -len(e[0]), e[0]))
    return "".join(
        f"{word} ({score(len(word))}): "
        + "  ".join(["[" + ", ".join([at[i] for i in p]) + "]" for p in paths])
        + "\n"
        for word, paths in entries
    )

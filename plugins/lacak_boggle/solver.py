"""Solving a board: every word on it (:func:`solve_board`, the ``boggle`` strategy) and
whether one word counts (:func:`check`).

This module is the solving API: it reads the arguments, loads the dictionary
and its compiled word graph (both under the time limit), and hands the board
to an engine: the Python walks of :mod:`lacak_boggle.walk` or the compiled
walk, chosen by :mod:`lacak_boggle.engines` (``engine="auto"`` is described
there). Every engine reports, for each word, the smallest path in row-major
order, and the same node counts.
"""

from __future__ import annotations

import bisect
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import lacak

from ._gc import quiet_gc
from .board import BatchBoard, Board, normalise_tile
from .engines import (
    compiled_available,
    engine_for_board,
    forced_engine,
    require_compiled,
    solve_compiled,
)
from .results import BoggleResult, WordCheck, assemble, make_result
from .walk import tile_columns, walk_fast, walk_general, word_paths
from .wordgraph import CompileStopped, compile_dictionary

__all__ = [
    "DEFAULT_DICTIONARY",
    "DEFAULT_MAX_PATHS",
    "check",
    "resolve_dictionary",
    "search_board",
    "solve_board",
]

DEFAULT_DICTIONARY = "eng"

DictionaryLike = lacak.Dictionary | str | os.PathLike[str] | None


def default_dictionary_name() -> str:
    """``LACAK_BOGGLE_DICTIONARY`` if set, else :data:`DEFAULT_DICTIONARY`."""
    return os.environ.get("LACAK_BOGGLE_DICTIONARY", "").strip() or DEFAULT_DICTIONARY


def _looks_like_file(text: str) -> bool:
    return (
        os.sep in text
        or "/" in text
        or text.lower().endswith((".json", ".txt"))
        or (os.path.isfile(text) and not text.isidentifier())
    )


def resolve_dictionary(
    dictionary: DictionaryLike, *, registry: lacak.Registry | None = None
) -> lacak.Dictionary:
    """Turn a name, a file path or a :class:`lacak.Dictionary` into a Dictionary.

    ``None`` means :func:`default_dictionary_name`. A string that is a registered
    dictionary's name is that dictionary (even beside a file of that name: a
    file is given as ``./NAME``); else a string with a path separator or a
    ``.json``/``.txt`` suffix, or naming a file, is read as a file with
    ``lacak.Dictionary.from_file``; any other string names a registered
    dictionary (an unknown one: the error lists the close matches).

    :raises UnknownComponentError: no dictionary has that name.
    :raises DictionaryError: the file cannot be read.
    :raises InvalidOptionError: not a name, a path or a Dictionary.
    """
    if isinstance(dictionary, lacak.Dictionary):
        return dictionary
    if dictionary is None:
        dictionary = default_dictionary_name()
    if not isinstance(dictionary, (str, os.PathLike)):
        raise lacak.InvalidOptionError(
            f"a dictionary must be a name, a file or a lacak.Dictionary, "
            f"not {type(dictionary).__name__}"
        )
    if isinstance(dictionary, str) and dictionary in lacak.dictionaries(registry=registry):
        return lacak.dictionary(dictionary, registry=registry)
    if isinstance(dictionary, os.PathLike) or _looks_like_file(dictionary):
        path = Path(dictionary)
        if not path.exists():
            raise lacak.DictionaryError(f"dictionary file {str(path)!r} does not exist")
        return lacak.Dictionary.from_file(path)  # (it refuses what is not a regular file)
    return lacak.dictionary(dictionary, registry=registry)


# -- checking arguments --------------------------------------------------------------------


def _check_trace(trace: Any) -> None:
    """Refuse a ``trace`` of the wrong type (before any work)."""
    if trace is not None and not isinstance(trace, lacak.SearchTrace):
        raise lacak.InvalidOptionError(
            f"trace must be a lacak.SearchTrace (or None), not {type(trace).__name__}"
        )


def _check_min_length(min_length: int | None, board: Board) -> int:
    if min_length is None:
        return board.effective_min_length
    if isinstance(min_length, bool) or not isinstance(min_length, int) or min_length < 1:
        raise lacak.InvalidOptionError(f"min_length must be a positive integer, got {min_length!r}")
    return min_length


def _check_count(value: Any, name: str) -> int | None:
    """``None`` or a non-negative ``int`` (not a bool).

    :raises InvalidOptionError: anything else.
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise lacak.InvalidOptionError(
            f"{name} must be a non-negative integer (None for no limit), got {value!r}"
        )
    return value


def _check_limits(limits: Any) -> lacak.Limits:
    if limits is None:
        return lacak.UNLIMITED
    if not isinstance(limits, lacak.Limits):
        raise lacak.InvalidOptionError(
            f"limits must be a lacak.Limits (or None), not {type(limits).__name__}"
        )
    return limits


#: Paths a solve with ``all_paths`` (or a :func:`check`) keeps at most, all words
#: together, unless told otherwise (``max_paths``, ``--max-paths``). A kept path of 14
#: tiles, with what is made of it for the result and its JSON, measured about 2 kB
#: at the peak of ``lacak boggle solve --all-paths --json``: the default keeps such a
#: solve within about 150 MB (docs/boggle.md, "Limits", has the measurements).
DEFAULT_MAX_PATHS = 50_000


def _stopped_early(
    board: Board, name: str, min_length: int, all_paths: bool, budget: lacak.Budget
) -> BoggleResult:
    """The result of a solve whose time ran out before the walk began."""
    stats = lacak.SearchStats(seconds=budget.elapsed())
    return make_result(
        board, name, (), min_length=min_length, all_paths=all_paths, stats=stats,
        stopped=lacak.StopReason.TIME,
    )  # fmt: skip


# -- solving a board ----------------------------------------------------------------------


def solve_board(
    board: Board | str,
    dictionary: DictionaryLike = None,
    *,
    min_length: int | None = None,
    all_paths: bool = False,
    limits: lacak.Limits | None = None,
    max_words: int | None = None,
    max_paths: int | None = DEFAULT_MAX_PATHS,
    trace: lacak.SearchTrace | None = None,
    registry: lacak.Registry | None = None,
    engine: str = "auto",
) -> BoggleResult:
    """Find every word of ``dictionary`` on ``board``.

    :param board: a :class:`Board` or its text form.
    :param dictionary: a :class:`lacak.Dictionary`, a registered name, a file,
        or ``None`` for the board's own dictionary, else the default (``eng``).
    :param min_length: shortest word that counts, in letters (``QU`` counts
        two); default the official rule: 3 up to 4x4, 4 on larger boards.
    :param all_paths: collect every path of every word, not only the first.
    :param limits: stop early: ``seconds`` (counted from the call, so it
        covers compiling the dictionary too), ``max_expanded``, ``max_depth``
        in tiles, ``max_frontier`` (tiles on a path). The result then has
        ``complete=False``, ``stopped`` set to the limit's
        :class:`~lacak.StopReason`, and the words found so far.
    :param max_words: stop (``memory-limit``) rather than keep more words
        (the walk's order, not alphabetical).
    :param max_paths: with ``all_paths``, stop (``memory-limit``) rather than
        keep more paths, all words together; default :data:`DEFAULT_MAX_PATHS`
        (50,000), ``None`` for no limit. Without ``all_paths`` a word keeps
        one path and this does not apply.
    :param trace: record the search tree.
    :param engine: ``"dfs"`` (the depth-first walk in Python), ``"numba"``
        (the same walk compiled, from ``lacak[fast]``) or ``"auto"``: the
        engine ``LACAK_BOGGLE_ENGINE`` names, else the Python walk (one board
        takes a fraction of a millisecond; see :mod:`lacak_boggle.engines`).
        Both give the same result; limits (``limits``, ``max_words``),
        traces, ``all_paths`` and multi-letter tiles other than dice digraphs
        always use the Python walk, which honours every limit (so does
        ``engine="numba"`` then).
    :returns: a :class:`BoggleResult` (words alphabetical, one path each).
    :raises InvalidPuzzleError: a bad board. (A tile with a letter the dictionary's
        words never use is no error: no word starts on it or passes through it.)
    :raises InvalidOptionError: a bad ``min_length``, ``engine``, ``all_paths`` (a yes/no
        value, see :func:`lacak.as_flag`), ``limits``, ``trace``, ``max_words`` or
        ``max_paths``.
    :raises OutOfMemoryError: the dictionary's graph or the words and paths
        found do not fit in memory (lower ``max_paths`` or ``max_words``).

    .. rubric:: Examples

    >>> import lacak
    >>> words = lacak.Dictionary(
    ...     name="tiny", language="en", words=["CAT", "ACT", "TAX", "AT"], alphabet="ACQTXY"
    ... )
    >>> result = solve_board("CAT/XQY", words, min_length=2)
    >>> result.word_list, result.score
    (['AT', 'CAT', 'TAX'], 2)
    >>> result.get("tax").path
    ((0, 2), (0, 1), (1, 0))
    >>> cut = solve_board("CAT/XQY", words, min_length=2, max_words=1)
    >>> cut.word_list, cut.complete, str(cut.stopped)
    (['CAT'], False, 'memory-limit')
    """
    started = time.perf_counter()
    limits = _check_limits(limits)
    budget = limits.start()  # the clock starts now: loading and compiling count
    max_words = _check_count(max_words, "max_words")
    max_paths = _check_count(max_paths, "max_paths")
    board = Board.parse(board)
    all_paths = lacak.as_flag(all_paths, "all_paths")
    _check_trace(trace)
    if engine not in ("auto", "dfs", "numba"):
        raise lacak.InvalidOptionError(
            f"unknown engine {engine!r} for one board; choose auto, dfs or numba"
        )
    if engine == "auto":
        forced_engine()  # a LACAK_BOGGLE_ENGINE naming no engine raises, whatever walks
    if engine == "numba" and not compiled_available():
        require_compiled()  # raises, saying why (the walk is loaded only when it runs)
    if dictionary is None and board.dictionary is not None:
        dictionary = board.dictionary
        if min_length is None:
            min_length = board.min_length
    min_length = _check_min_length(min_length, board)
    deadline = budget.deadline
    try:
        # reading a word list the first time, and compiling it, count against the time
        with lacak.deadline(deadline):
            words = resolve_dictionary(dictionary, registry=registry)
    except lacak.LimitReachedError:
        return _stopped_early(board, _name_of(dictionary), min_length, all_paths, budget)
    try:
        graph = compile_dictionary(words, deadline=deadline)
    except CompileStopped:
        return _stopped_early(board, words.name, min_length, all_paths, budget)
    steps = tile_columns(board, graph)
    try:
        if (
            (limits is lacak.UNLIMITED or limits == lacak.UNLIMITED)
            and max_words is None
            and trace is None
            and not all_paths
            and all(s is None or len(s) == 1 for s in steps)
        ):
            columns = [0 if s is None else s[0] for s in steps]
            if engine_for_board(engine, len(columns)) == "numba":
                return solve_compiled(board, words.name, graph, columns, min_length, started)
            with quiet_gc():
                found, expanded, generated, deepest = walk_fast(
                    graph, columns, board.shape, min_length
                )
                stats = lacak.SearchStats(
                    expanded=expanded,
                    generated=generated,
                    max_frontier=deepest,
                    depth=deepest,
                    seconds=time.perf_counter() - started,
                )
                return assemble(
                    board, words.name, graph, found, min_length=min_length, all_paths=False,
                    stats=stats,
                )  # fmt: skip
        walked = walk_general(
            graph, board, steps, min_length=min_length, all_paths=all_paths, budget=budget,
            max_words=max_words, max_paths=max_paths, trace=trace,
        )  # fmt: skip
        result = assemble(
            board, words.name, graph, walked.found, min_length=min_length, all_paths=all_paths,
            stats=walked.stats, stopped=walked.stopped, cut=walked.cut, nested=True,
            bound=walked.bound,
        )  # fmt: skip
    except lacak.OutOfMemoryError:
        raise
    except MemoryError:  # (a try costs nothing here; ``memory_guard`` a microsecond a call)
        rows, cols = board.shape
        raise lacak.OutOfMemoryError(
            f"not enough memory for the words and paths found on the {rows}x{cols} board; "
            "lower max_paths (--max-paths) or max_words (--max-words)"
        ) from None
    if trace is not None and result.found:
        _mark_goal(trace, result.actions)
    return result


def _mark_goal(trace: lacak.SearchTrace, actions: tuple[Any, ...]) -> None:
    for node in trace.nodes:
        if node.state == actions:
            trace.mark_goal(node.id)
            return


def search_board(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None = None,
    limits: lacak.Limits | None = None,
    trace: lacak.SearchTrace | None = None,
    dictionary: DictionaryLike = None,
    min_length: int | str | None = None,
    all_paths: bool = False,
    max_words: int | str | None = None,
    max_paths: int | None = DEFAULT_MAX_PATHS,
) -> BoggleResult:
    """The ``boggle`` strategy: :func:`solve_board` behind the :class:`lacak.Searcher` interface.

    The board's own dictionary (``board.with_dictionary(...)``) is used unless
    ``dictionary`` is given. ``heuristic`` is ignored (the word graph prunes).
    ``limits``, ``max_words`` and ``max_paths`` bound the search as in
    :func:`solve_board`, with the command line's conventions (what ``-O`` and
    ``lacak boggle solve`` pass): ``min_length`` may be a whole number written
    as text (``"4"``), and ``max_words=0`` or ``max_paths=0`` (like ``None``)
    means no limit. A :class:`~lacak_boggle.board.BatchBoard` (a job of ``lacak
    batch boggle``) is walked by the engine it names; any other board by
    ``engine="auto"``'s choice for one board.
    """
    if not isinstance(puzzle, Board):
        raise lacak.InvalidPuzzleError(
            f"the boggle strategy solves Boggle boards, not {type(puzzle).__name__}"
        )
    return solve_board(
        puzzle,
        dictionary,
        min_length=whole_number(min_length, "min_length"),
        all_paths=all_paths,
        limits=limits,
        max_words=_no_limit_at_zero(whole_number(max_words, "max_words")),
        max_paths=_no_limit_at_zero(max_paths),
        trace=trace,
        engine=puzzle.engine if isinstance(puzzle, BatchBoard) else "auto",
    )


def _no_limit_at_zero(value: Any) -> Any:
    """``None`` for the integer 0 (a count of 0 means no limit on the command line)."""
    return None if isinstance(value, int) and not isinstance(value, bool) and value == 0 else value


def whole_number(value: Any, name: str) -> Any:
    """``value`` as an ``int`` when it is a whole number written as text (``" 4"``), else
    unchanged (so the checks of :func:`solve_board` judge it).

    :raises InvalidOptionError: text that is not a whole number.

    >>> whole_number("4", "min_length"), whole_number(None, "max_words")
    (4, None)
    """
    if not isinstance(value, str):
        return value
    try:
        return int(value.strip())
    except ValueError:
        raise lacak.InvalidOptionError(f"{name} must be a whole number, got {value!r}") from None


# -- checking one word ----------------------------------------------------------------------


def _name_of(dictionary: DictionaryLike) -> str:
    """The name a dictionary not loaded yet will have (for a result stopped while loading it)."""
    if isinstance(dictionary, lacak.Dictionary):
        return dictionary.name
    if dictionary is None:
        return default_dictionary_name()
    if isinstance(dictionary, os.PathLike) or _looks_like_file(str(dictionary)):
        return Path(dictionary).stem or "dictionary"
    return str(dictionary)


def _in_sorted(words: Sequence[str], word: str) -> bool:
    at = bisect.bisect_left(words, word)
    return at < len(words) and words[at] == word


def check(
    board: Board | str,
    word: str,
    dictionary: DictionaryLike = None,
    *,
    min_length: int | None = None,
    limits: lacak.Limits | None = None,
    max_paths: int | None = DEFAULT_MAX_PATHS,
    registry: lacak.Registry | None = None,
) -> WordCheck:
    """Is ``word`` on ``board`` (where?), is it in ``dictionary``, and does it count?

    Agrees with :func:`solve_board`: ``check(...).valid`` exactly when the word
    is in the solve result, with the same first path.

    >>> import lacak
    >>> words = lacak.Dictionary(name="tiny", language="en", words=["CAT", "ACT"], alphabet="ACQTXY")
    >>> answer = check("CAT/XQY", "cat", words)
    >>> answer.valid, answer.path
    (True, ((0, 0), (0, 1), (0, 2)))
    >>> check("CAT/XQY", "TAC", words).on_board, check("CAT/XQY", "TAC", words).in_dictionary
    (True, False)

    :param limits: stop looking for paths at ``seconds`` (counted from the
        call, compiling the dictionary included) or ``max_expanded`` (paths
        extended); the answer then has ``stopped`` set and the paths found
        so far (``on_board`` is certain when one was found).
    :param max_paths: keep at most this many paths (``None``: all); one more
        stops the search with ``memory-limit``. Default :data:`DEFAULT_MAX_PATHS`.
    :raises InvalidPuzzleError: a bad board.
    :raises InvalidOptionError: an empty word, a bad ``min_length``, ``limits``
        or ``max_paths``.
    """
    limits = _check_limits(limits)
    budget = limits.start()
    max_paths = _check_count(max_paths, "max_paths")
    board = Board.parse(board)
    if dictionary is None and board.dictionary is not None:
        dictionary = board.dictionary
        if min_length is None:
            min_length = board.min_length
    wanted = normalise_tile(word) if isinstance(word, str) else ""
    if not wanted or not wanted.isalpha():
        raise lacak.InvalidOptionError(f"the word to check must be letters, got {word!r}")
    min_length = _check_min_length(min_length, board)
    unknown = WordCheck(
        word=wanted, dictionary=_name_of(dictionary), min_length=min_length, paths=(),
        in_dictionary=None, stopped=lacak.StopReason.TIME,
    )  # fmt: skip
    try:
        with lacak.deadline(budget.deadline):
            words = resolve_dictionary(dictionary, registry=registry)
    except lacak.LimitReachedError:
        return unknown  # nothing is known, not even whether the dictionary has the word
    try:
        graph = compile_dictionary(words, deadline=budget.deadline)
    except CompileStopped:
        return attrs.evolve(
            unknown, dictionary=words.name, in_dictionary=_in_sorted(words.words, wanted)
        )
    with lacak.memory_guard(
        f"the paths of {wanted[:20]!r} on the {board.rows}x{board.cols} board",
        "lower max_paths (--max-paths)",
    ):
        paths, stopped = word_paths(board, wanted, budget, max_paths)
        return WordCheck(
            word=wanted,
            dictionary=words.name,
            min_length=min_length,
            paths=tuple(paths),
            in_dictionary=graph.contains(wanted),
            stopped=stopped,
        )

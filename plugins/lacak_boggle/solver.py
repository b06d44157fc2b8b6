"""Finding every word on a board: a depth-first walk of the board and the word graph together.

The walk starts at every tile and moves to free neighbours (a bitmask holds the
tiles in use, neighbour lists are precomputed per board shape), following the
word graph's edge for the tile's letters at each step; a path no word starts
with is dropped at once. Every tile with one column in the graph (a letter,
or a dice digraph such as ``QU``) takes one table lookup; other multi-letter
tiles are walked letter by letter. Words are recognised by the rank summed
along the path (their index in the dictionary), so no string is built until
the result is assembled.

Neighbours are tried in row-major order and starting tiles too, so the first
path found for a word is its lexicographically smallest sequence of cell
indices: the path :func:`solve_board`, :func:`check` and the batch engines
all report.
"""

from __future__ import annotations

import bisect
import functools
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import lacak

from .board import BLANK, Board, neighbours
from .results import BoggleResult, Entries, WordCheck, cells_of, quiet_gc
from .wordgraph import CompileStopped, WordGraph, compile_dictionary, follow

__all__ = [
    "DEFAULT_DICTIONARY",
    "DEFAULT_MAX_PATHS",
    "check",
    "resolve_dictionary",
    "search_board",
    "solve_board",
]

#: The dictionary used when none is named (override with ``LACAK_BOGGLE_DICTIONARY``).
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

    ``None`` means :func:`default_dictionary_name`. A string with a path
    separator or a ``.json``/``.txt`` suffix is read as a file with
    ``lacak.Dictionary.from_file``; any other string names a registered
    dictionary.

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
    if isinstance(dictionary, os.PathLike) or _looks_like_file(dictionary):
        path = Path(dictionary)
        if not path.is_file():
            raise lacak.DictionaryError(f"dictionary file {str(path)!r} does not exist")
        return lacak.Dictionary.from_file(path)
    return lacak.dictionary(dictionary, registry=registry)


# -- preparing a board for a graph ---------------------------------------------------


def _tile_columns(board: Board, graph: WordGraph, name: str) -> list[tuple[int, ...] | None]:
    """Per cell: the graph columns its tile walks (one for letters and digraphs), or
    ``None`` for a blank.

    :raises InvalidPuzzleError: a tile uses a letter outside the dictionary's alphabet.
    """
    flat = board.flat
    single = graph.single_columns
    fast = [single.get(tile) for tile in flat]
    if None not in fast:  # every tile a letter, a compiled digraph or a blank
        return [(col,) if col else None for col in fast]
    out: list[tuple[int, ...] | None] = []
    cols = board.cols
    for index, tile in enumerate(flat):
        if tile == BLANK:
            out.append(None)
            continue
        whole = graph.column(tile)
        if whole:
            out.append((whole,))
            continue
        steps = tuple(graph.column(ch) for ch in tile)
        if not all(steps):
            bad = "".join(sorted({ch for ch in tile if not graph.column(ch)}))
            letters = "".join(sorted(graph.letters))
            r, c = divmod(index, cols)
            raise lacak.InvalidPuzzleError(
                f"tile {tile!r} at [{r}, {c}] uses {bad!r}, which is outside the alphabet "
                f"of dictionary {name!r} ({letters or 'no letters'})"
            )
        out.append(steps)
    return out


# -- the fast walk -----------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _around_bits(rows: int, cols: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    return tuple(tuple((m, 1 << m) for m in cell) for cell in neighbours(rows, cols))


def _walk_fast(
    graph: WordGraph, columns: list[int], shape: tuple[int, int], min_length: int = 1
) -> tuple[dict[int, list[int]], int, int, int]:
    """Every word, first path each, on a board whose tiles are all one column.

    The walk keeps its own stack (each level's neighbours still to try and
    its graph state) instead of recursing, so a board of any size with words
    of any length walks in constant Python stack; it measured as fast as the
    recursive walk it replaced (within 1% on the benchmark's boards).

    :param columns: each cell's graph column (0 for a blank).
    :param min_length: words shorter than this (in letters) are not collected
        (they are walked through all the same: the node counts do not change).
    :returns: ``(found, expanded, generated, deepest)`` where ``found`` maps a
        word's rank to its first path (cell indices).
    """
    table = graph.transitions
    ranks = graph.ranks
    lengths = graph.word_lengths
    rows, width = shape
    cells = rows * width
    around = _around_bits(rows, width)
    if 0 in columns:
        nbrs = [tuple([(m, b, columns[m]) for m, b in cell if columns[m]]) for cell in around]
    else:
        nbrs = [tuple([(m, b, columns[m]) for m, b in cell]) for cell in around]
    # the letters around each tile (a digraph tile by its first letter), to skip
    # states no neighbour can continue
    first = graph.first_letters
    letters_near = [0] * cells
    for i, cell in enumerate(nbrs):
        mask = 0
        for _m, _b, col in cell:
            mask |= first[col]
        letters_near[i] = mask
    found: dict[int, list[int]] = {}
    path = [-1] * (cells + 1)
    expanded = 0
    leaves = 0
    # one entry per level above the current one: (its neighbours still to try,
    # graph offset, rank so far, tiles in use, path length after its next tile)
    stack: list[tuple[Any, int, int, int, int]] = []
    push, pop = stack.append, stack.pop
    for start in range(cells):
        col = columns[start]
        if not col:
            continue
        child = table[col]
        if not child:
            continue
        r = ranks[col]
        path[0] = start
        if child < 0:
            if r not in found and (min_length <= 1 or lengths[r] >= min_length):
                found[r] = [start]
            if child == -1:
                leaves += 1
                continue
            child = -2 - child
        expanded += 1
        todo = iter(nbrs[start])
        offset, rank, visited, after = child, r, 1 << start, 2
        while True:
            for m, bit, col in todo:
                if visited & bit:
                    continue
                child = table[offset + col]
                if not child:
                    continue
                r = rank + ranks[offset + col]
                path[after - 1] = m
                if child < 0:  # the path spells a word
                    # (a tile is at least one letter: only short paths need a length check)
                    if r not in found and (after >= min_length or lengths[r] >= min_length):
                        found[r] = path[:after]
                    if child == -1:  # and no word goes on
                        leaves += 1
                        continue
                    child = -2 - child
                expanded += 1  # (with no children when no neighbour's letter continues it)
                if table[child] & letters_near[m]:
                    push((todo, offset, rank, visited, after))
                    todo = iter(nbrs[m])
                    offset, rank, visited, after = child, r, visited | bit, after + 1
                    break
            else:  # this level is done: back to the one above
                if not stack:
                    break
                todo, offset, rank, visited, after = pop()
    # The deepest level reached is the last slot of ``path`` ever written.
    deepest = cells + 1
    while deepest and path[deepest - 1] < 0:
        deepest -= 1
    # the root is expanded too; generated = every prefix path created
    return found, expanded + 1, expanded + leaves, deepest


# -- the general walk ----------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class _Walked:
    """What :func:`_walk_general` found and why it stopped."""

    #: rank -> the word's paths (cell indices): all of them, or the first
    found: dict[int, list[list[int]]]
    stats: lacak.SearchStats
    #: the limit that stopped the walk, or ``None``
    stopped: lacak.StopReason | None
    #: whether ``max_depth`` cut some path short
    cut: bool


def _walk_general(
    graph: WordGraph,
    board: Board,
    steps: list[tuple[int, ...] | None],
    *,
    min_length: int,
    all_paths: bool,
    budget: lacak.Budget,
    max_words: int | None = None,
    max_paths: int | None = None,
    trace: lacak.SearchTrace | None = None,
) -> _Walked:
    """The same walk for any tiles, with all paths, limits and tracing.

    Like :func:`_walk_fast` it keeps its own stack, so no board or word is
    too deep for it. Before a node is expanded the budget is asked (expanded
    nodes, the path's length as the frontier, the clock every few hundred
    nodes); ``max_depth`` stops paths at that many tiles.

    :param min_length: words shorter than this are walked through but not kept.
    :param max_words: stop (``memory-limit``) rather than keep one word more.
    :param max_paths: with ``all_paths``, stop (``memory-limit``) rather than
        keep one path more, all words together.
    :returns: the words found so far, with their paths, and why the walk stopped.
    """
    table, ranks = graph.transitions, graph.ranks
    lengths = graph.word_lengths
    rows, width = board.shape
    cells = rows * width
    around = neighbours(rows, width)
    nbrs = [tuple(m for m in around[i] if steps[m] is not None) for i in range(cells)]
    starts = tuple(m for m in range(cells) if steps[m] is not None)
    exceeded = budget.exceeded
    max_depth = budget.limits.max_depth
    found: dict[int, list[list[int]]] = {}
    kept = 0  # paths kept, all words together
    path: list[int] = []
    expanded = generated = deepest = 0
    stopped: lacak.StopReason | None = None
    cut = False
    memory = lacak.StopReason.MEMORY

    node = trace.add(None, (), None, depth=0, g=0.0) if trace is not None else -1
    stopped = exceeded(0, 0)
    if stopped is None and max_depth is not None and max_depth <= 0:
        cut = True
    elif stopped is None:
        expanded = 1
        if trace is not None:
            trace.expand(node)
        # one entry per level above the current one: (its tiles still to try,
        # graph offset, rank so far, tiles in use, its trace node)
        stack: list[tuple[Any, int, int, int, int]] = []
        todo: Any = iter(starts)
        offset = rank = visited = 0
        while True:
            for m in todo:
                if visited >> m & 1:
                    continue
                moved = follow(table, ranks, offset, rank, steps[m])
                if moved is None:
                    continue
                child, r, final = moved
                generated += 1
                path.append(m)
                depth = len(path)
                if depth > deepest:
                    deepest = depth
                child_node = -1
                if trace is not None:
                    child_node = trace.add(
                        node,
                        tuple([divmod(i, width) for i in path]),
                        divmod(m, width),
                        depth=depth,
                        g=float(depth),
                    )
                if final and lengths[r] >= min_length:
                    paths = found.get(r)
                    if paths is None:
                        if max_words is not None and len(found) >= max_words:
                            stopped = memory
                            break
                        if all_paths and max_paths is not None and kept >= max_paths:
                            stopped = memory
                            break
                        found[r] = [path[:]]
                        kept += 1
                    elif all_paths:
                        if max_paths is not None and kept >= max_paths:
                            stopped = memory
                            break
                        paths.append(path[:])
                        kept += 1
                if child >= 0:  # some word goes on: expand the path
                    stopped = exceeded(expanded, depth)
                    if stopped is not None:
                        break
                    if max_depth is not None and depth >= max_depth:
                        cut = True
                    else:
                        expanded += 1
                        if trace is not None:
                            trace.expand(child_node)
                        stack.append((todo, offset, rank, visited, node))
                        todo = iter(nbrs[m])
                        offset, rank, visited, node = child, r, visited | 1 << m, child_node
                        break
                path.pop()
            else:  # this level is done: back to the one above
                if not stack:
                    break
                todo, offset, rank, visited, node = stack.pop()
                path.pop()
                continue
            if stopped is not None:
                break
    stats = lacak.SearchStats(
        expanded=expanded,
        generated=generated,
        max_frontier=deepest,
        depth=deepest,
        seconds=budget.elapsed(),
    )
    return _Walked(found=found, stats=stats, stopped=stopped, cut=cut)


# -- the compiled walk ----------------------------------------------------------------------

#: Seconds a process spends solving without the compiled walk before ``engine="auto"``
#: turns to it: about what loading numba and the walk's cached machine code costs
#: (the ski-rental rule: in hindsight never worse than twice the better choice).
SWITCH_AFTER = 0.5
#: Rough cost of one board in the Python walk, to estimate a call ahead of it.
PYTHON_SECONDS_PER_BOARD = 2.5e-4

_uncompiled = [0.0]  # seconds this process spent solving without the compiled walk


_compiled_failure: list[str] = []  # why the compiled walk could not load, if it could not


def compiled_available() -> bool:
    """Whether the compiled engine can run: numba is installed (``lacak[fast]``)
    and did not fail to load in this process."""
    return _numba_spec() is not None and not _compiled_failure


def load_compiled() -> Any:
    """The compiled walk's module (:mod:`lacak_boggle.compiled`), or ``None`` when
    it cannot be loaded: numba missing, or failing (an incompatible numpy, no
    writable cache folder, ...). The reason is kept: the engine is then not
    available in this process, and ``"auto"`` keeps to the others.
    """
    if _numba_spec() is None or _compiled_failure:
        return None
    try:
        from . import compiled
    except Exception as error:  # numba is a third party: any failure means "not here"
        _compiled_failure.append(f"{type(error).__name__}: {error}")
        return None
    return compiled


def require_compiled() -> Any:
    """:func:`load_compiled`, for a caller that asked for ``engine="numba"``.

    :raises InvalidOptionError: the compiled walk cannot run here, saying why.
    """
    module = load_compiled()
    if module is None:
        reason = _compiled_failure[0] if _compiled_failure else "numba is not installed"
        raise lacak.InvalidOptionError(
            f"the numba engine cannot run ({reason}); pip install 'lacak[fast]', "
            "or choose another engine"
        )
    return module


@functools.lru_cache(maxsize=1)
def _numba_spec() -> Any:
    import importlib.util

    return importlib.util.find_spec("numba")


def compiled_due(estimate: float) -> bool:
    """Whether ``engine="auto"`` should use the compiled walk for work expected to
    take ``estimate`` seconds without it: numba is installed, and the walk is
    loaded already, or this work plus what the process spent without it reaches
    :data:`SWITCH_AFTER`."""
    if not compiled_available():
        return False
    return "lacak_boggle.compiled" in sys.modules or _uncompiled[0] + estimate >= SWITCH_AFTER


def note_uncompiled(seconds: float) -> None:
    """Count ``seconds`` spent solving without the compiled walk (see :func:`compiled_due`)."""
    _uncompiled[0] += seconds


def engine_for_board(engine: str, cells: int = 16) -> str:
    """What ``engine`` means for one board of ``cells`` tiles (all single-column):
    ``"auto"`` is ``"numba"`` when :func:`compiled_due`, else ``"dfs"``.

    :raises InvalidOptionError: ``"numba"`` without numba installed.
    """
    if engine == "numba":
        require_compiled()
    if cells > 64:
        return "dfs"
    if engine != "auto":
        return engine
    return "numba" if compiled_due(PYTHON_SECONDS_PER_BOARD) else "dfs"


def _solve_compiled(
    board: Board, name: str, graph: WordGraph, columns: list[int], min_length: int, started: float
) -> BoggleResult:
    import numpy as np

    compiled = require_compiled()
    rows = np.array([columns], dtype=np.int64)
    _, rank, paths, sizes, expanded, generated, deepest = compiled.walk_boards(
        graph, rows, board.shape, min_length
    )
    ranks = rank.tolist()
    words = graph.words
    spelled = [words[r] for r in ranks]
    best = None
    if ranks:
        longest = max(map(len, spelled))
        top = next(i for i, w in enumerate(spelled) if len(w) == longest)
        best = tuple(paths[top, : sizes[top]].tolist())

    def make_paths() -> list[tuple[tuple[int, ...], ...]]:
        return [(tuple(p[:n]),) for p, n in zip(paths.tolist(), sizes.tolist(), strict=True)]

    depth = int(deepest[0])
    stats = lacak.SearchStats(
        expanded=int(expanded[0]),
        generated=int(generated[0]),
        max_frontier=depth,
        depth=depth,
        seconds=time.perf_counter() - started,
    )
    return make_result(
        board, name, Entries(spelled, make_paths), min_length=min_length, all_paths=False,
        stats=stats, best=best,
    )  # fmt: skip


# -- results ------------------------------------------------------------------------------


def _assemble(
    board: Board,
    name: str,
    graph: WordGraph,
    found: dict[int, Any],
    *,
    min_length: int,
    all_paths: bool,
    stats: lacak.SearchStats,
    stopped: lacak.StopReason | None = None,
    cut: bool = False,
    nested: bool = False,
) -> BoggleResult:
    """The result for ``found`` (rank -> first path, or -> paths when ``nested``)."""
    words = graph.words
    if nested:
        lengths = graph.word_lengths
        ranks = [r for r in sorted(found) if lengths[r] >= min_length]
    else:  # the fast walk collected only long enough words
        ranks = sorted(found)
    spelled = [words[r] for r in ranks]
    best = None
    if ranks:
        # Points never fall as words grow, so the best word is the first (alphabetical)
        # of the longest ones.
        longest = max(map(len, spelled))
        top = ranks[next(i for i, w in enumerate(spelled) if len(w) == longest)]
        best = tuple(found[top][0] if nested else found[top])

    def paths() -> list[tuple[tuple[int, ...], ...]]:
        if nested:
            return [tuple([tuple(p) for p in found[r]]) for r in ranks]
        return [(tuple(found[r]),) for r in ranks]

    return make_result(
        board, name, Entries(spelled, paths), min_length=min_length, all_paths=all_paths,
        stats=stats, stopped=stopped, cut=cut, best=best,
    )  # fmt: skip


def make_result(
    board: Board,
    name: str,
    entries: Entries | Sequence[tuple[str, tuple[tuple[int, ...], ...]]],
    *,
    min_length: int,
    all_paths: bool,
    stats: lacak.SearchStats,
    stopped: lacak.StopReason | None = None,
    cut: bool = False,
    strategy: str = "boggle",
    best: tuple[int, ...] | None = None,
) -> BoggleResult:
    """Build the :class:`BoggleResult` for ``entries`` (sorted ``(word, paths)`` pairs).

    ``stopped`` is the result's :attr:`~lacak.SearchResult.stopped` whether or
    not words were found: the limit that cut the search short (else
    ``depth-limit`` when ``cut``, ``goal`` with words, ``exhausted`` without).

    :param stopped: the limit that stopped the search, or ``None``.
    :param cut: whether ``max_depth`` cut some path short.
    :param best: the first path of the best word (the first of the longest
        words), when the caller knows it; else it is looked up in ``entries``.
    """
    entries = Entries.of(entries)
    if stopped is not None:
        reason = stopped
    elif cut:
        reason = lacak.StopReason.DEPTH
    elif entries.words:
        reason = lacak.StopReason.GOAL
    else:
        reason = lacak.StopReason.EXHAUSTED
    fields: dict[str, Any] = {
        "stats": stats,
        "strategy": strategy,
        "board": board,
        "dictionary": name,
        "min_length": min_length,
        "all_paths": all_paths,
        "complete": stopped is None and not cut,
    }
    if entries.words:
        if best is None:
            spelled = entries.words
            longest = max(map(len, spelled))
            best = entries[next(i for i, w in enumerate(spelled) if len(w) == longest)][1][0]
        at = cells_of(*board.shape)
        cells = tuple([at[i] for i in best])
        states = tuple([cells[:k] for k in range(len(cells) + 1)])
        # what BoggleResult.from_states builds, without its checks (this is a hot path)
        return BoggleResult(
            found=True,
            actions=cells,
            states=states,
            cost=float(len(cells)),
            stopped=reason,
            entries=entries,
            **fields,
        )
    return BoggleResult.not_found((), reason, entries=entries, **fields)


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
        Python walk until the process has spent :data:`SWITCH_AFTER` seconds
        in it, then the compiled one when numba is installed (see
        :func:`compiled_due`).
        Both give the same result; limits (``limits``, ``max_words``),
        traces, ``all_paths`` and multi-letter tiles other than dice digraphs
        always use the Python walk, which honours every limit (so does
        ``engine="numba"`` then).
    :returns: a :class:`BoggleResult` (words alphabetical, one path each).
    :raises InvalidPuzzleError: a bad board, or a tile outside the dictionary's alphabet.
    :raises InvalidOptionError: a bad ``min_length``, ``engine``, ``all_paths`` (a yes/no
        value, see :func:`lacak.as_flag`), ``limits``, ``trace``, ``max_words`` or
        ``max_paths``.
    :raises OutOfMemoryError: the dictionary's graph or the words and paths
        found do not fit in memory (lower ``max_paths`` or ``max_words``).

    Examples
    --------
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
    steps = _tile_columns(board, graph, words.name)
    try:
        if (
            (limits is lacak.UNLIMITED or limits == lacak.UNLIMITED)
            and max_words is None
            and trace is None
            and not all_paths
            and all(s is None or len(s) == 1 for s in steps)
        ):
            columns = [0 if s is None else s[0] for s in steps]
            chosen = engine_for_board(engine, len(columns))
            if chosen == "numba" and load_compiled() is not None:
                return _solve_compiled(board, words.name, graph, columns, min_length, started)
            walking = time.perf_counter()
            with quiet_gc():
                found, expanded, generated, deepest = _walk_fast(
                    graph, columns, board.shape, min_length
                )
                if engine == "auto":  # the walk's time only (not loading the dictionary)
                    note_uncompiled(time.perf_counter() - walking)
                stats = lacak.SearchStats(
                    expanded=expanded,
                    generated=generated,
                    max_frontier=deepest,
                    depth=deepest,
                    seconds=time.perf_counter() - started,
                )
                return _assemble(
                    board, words.name, graph, found, min_length=min_length, all_paths=False,
                    stats=stats,
                )  # fmt: skip
        walked = _walk_general(
            graph, board, steps, min_length=min_length, all_paths=all_paths, budget=budget,
            max_words=max_words, max_paths=max_paths, trace=trace,
        )  # fmt: skip
        result = _assemble(
            board, words.name, graph, walked.found, min_length=min_length, all_paths=all_paths,
            stats=walked.stats, stopped=walked.stopped, cut=walked.cut, nested=True,
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
    min_length: int | None = None,
    all_paths: bool = False,
    max_words: int | None = None,
    max_paths: int | None = DEFAULT_MAX_PATHS,
) -> BoggleResult:
    """The ``boggle`` strategy: :func:`solve_board` behind the :class:`lacak.Searcher` interface.

    The board's own dictionary (``board.with_dictionary(...)``) is used unless
    ``dictionary`` is given. ``heuristic`` is ignored (the word graph prunes).
    ``limits``, ``max_words`` and ``max_paths`` bound the search as in
    :func:`solve_board`.
    """
    if not isinstance(puzzle, Board):
        raise lacak.InvalidPuzzleError(
            f"the boggle strategy solves Boggle boards, not {type(puzzle).__name__}"
        )
    return solve_board(
        puzzle,
        dictionary,
        min_length=min_length,
        all_paths=all_paths,
        limits=limits,
        max_words=max_words,
        max_paths=max_paths,
        trace=trace,
    )


# -- checking one word ----------------------------------------------------------------------


def _word_paths(
    board: Board, word: str, budget: lacak.Budget, max_paths: int | None
) -> tuple[list[tuple[tuple[int, int], ...]], lacak.StopReason | None]:
    """The paths whose tiles spell exactly ``word``, in row-major depth-first order.

    A walk with its own stack (no recursion: a board or a word of any size).
    The budget is asked before each path is extended.

    :returns: ``(paths, stopped)``: every path (or those found when a limit
        stopped the walk) and the limit's reason, or ``None``.
    """
    rows, width = board.shape
    flat = board.flat
    around = neighbours(rows, width)
    at = cells_of(rows, width)
    size = len(word)
    out: list[tuple[tuple[int, int], ...]] = []
    path: list[int] = []
    stopped: lacak.StopReason | None = None
    expanded = 0
    # one entry per level above the current one: (its tiles still to try,
    # letters spelled so far, tiles in use)
    stack: list[tuple[Any, int, int]] = []
    todo: Any = iter(range(rows * width) if word else ())
    done = visited = 0
    while True:
        for m in todo:
            tile = flat[m]
            if visited >> m & 1 or tile == BLANK or not word.startswith(tile, done):
                continue
            path.append(m)
            reached = done + len(tile)
            if reached == size:
                if max_paths is not None and len(out) >= max_paths:
                    stopped = lacak.StopReason.MEMORY
                    break
                out.append(tuple([at[i] for i in path]))
            else:
                stopped = budget.exceeded(expanded, len(path))
                if stopped is not None:
                    break
                expanded += 1
                stack.append((todo, done, visited))
                todo, done, visited = iter(around[m]), reached, visited | 1 << m
                break
            path.pop()
        else:  # this level is done: back to the one above
            if not stack:
                break
            todo, done, visited = stack.pop()
            path.pop()
            continue
        if stopped is not None:
            break
    return out, stopped


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
    :raises InvalidPuzzleError: a bad board, or a tile outside the dictionary's alphabet.
    :raises InvalidOptionError: an empty word, a bad ``min_length``, ``limits``
        or ``max_paths``.
    """
    from .board import normalise_tile

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
        # the tiles are not checked against the alphabet: the board is not looked at
        return attrs.evolve(
            unknown, dictionary=words.name, in_dictionary=_in_sorted(words.words, wanted)
        )
    _tile_columns(board, graph, words.name)  # the same alphabet check as solve_board
    with lacak.memory_guard(
        f"the paths of {wanted[:20]!r} on the {board.rows}x{board.cols} board",
        "lower max_paths (--max-paths)",
    ):
        paths, stopped = _word_paths(board, wanted, budget, max_paths)
        return WordCheck(
            word=wanted,
            dictionary=words.name,
            min_length=min_length,
            paths=tuple(paths),
            in_dictionary=graph.contains(wanted),
            stopped=stopped,
        )

"""A batch sorted out: boards parsed (or read straight from text), grouped by shape and
minimum length for the array engines, set aside for the Python walk, and walked piece
by piece (:func:`_walk_plan`); with the limits of a batch's boards."""

from __future__ import annotations

import concurrent.futures
import itertools
import os
import traceback
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import attrs
import lacak
import lacak.batch
from lacak.batch import Outcome

from ..board import Board, official_min_length
from ..engines import ENGINES, engine_for_batch, load_compiled
from ..results import BoggleResult
from ..solver import DictionaryLike, resolve_dictionary, solve_board
from ..solver import _check_limits as check
from ..walk import tile_columns
from ..wordgraph import WordGraph, compile_dictionary
from .arrays import PATHS, _Found, solve_columns
from .jobs import _job, _Piece, _pieces, _run_pieces

#: Fewer boards than this are solved in this process even when workers are asked
#: for: starting processes would cost more than it saves.
PARALLEL_FROM = 256


def _parse_all(
    boards: Iterable[Board | str | Sequence[Sequence[str]]],
) -> list[Board | lacak.InvalidPuzzleError]:
    """Each board parsed, or the error that says (naming its index) why it cannot be."""
    out: list[Board | lacak.InvalidPuzzleError] = []
    for i, board in enumerate(boards):
        try:
            out.append(Board.parse(board))
        except lacak.InvalidPuzzleError as error:
            out.append(lacak.InvalidPuzzleError(f"board {i}: {error}"))
    return out


def _check_options(workers: Any, min_length: Any, engine: str) -> None:
    """The call's own options (a bad one raises at once, before any board is read)."""
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, int) or workers < 1
    ):
        raise lacak.InvalidOptionError(f"workers must be a positive integer, got {workers!r}")
    if min_length is not None and (
        isinstance(min_length, bool) or not isinstance(min_length, int) or min_length < 1
    ):
        raise lacak.InvalidOptionError(f"min_length must be a positive integer, got {min_length!r}")
    if engine not in ENGINES:
        engine_for_batch(engine, 0)  # raises, naming the engines


@attrs.define(eq=False)
class _Plan:
    """A batch sorted out: boards of one minimum length and shape go to the array
    engines together, as their tiles' graph columns; the others are walked here."""

    graph: WordGraph
    words: lacak.Dictionary
    #: (minimum length, shape) -> the boards' indices and their columns (a list of
    #: rows, or an array once :meth:`tables` made it)
    groups: dict[tuple[int, tuple[int, int]], tuple[list[int], Any]] = attrs.Factory(dict)
    #: groups read straight from text (:func:`_plain_groups`) or added at once
    #: (:meth:`_add_uniform`): indices and columns
    plain: dict[tuple[int, tuple[int, int]], list[tuple[list[int], Any]]] = attrs.Factory(dict)
    #: the boards for the Python walk (all paths, odd tiles, more than 63 tiles)
    alone: list[int] = attrs.Factory(list)
    #: boards that do not parse
    failed: dict[int, lacak.InvalidPuzzleError] = attrs.Factory(dict)

    def add(
        self, boards: Iterable[tuple[int, Board]], min_length: int | None, all_paths: bool
    ) -> None:
        """Sort out parsed boards (with their indices in the batch)."""
        boards = list(boards)
        if not all_paths and self._add_uniform(boards, min_length):
            return
        graph = self.graph
        column = graph.single_columns.get
        groups = self.groups
        key: Any = None
        members: list[int] = []
        rows: list[Any] = []
        chain = itertools.chain.from_iterable
        for index, board in boards:
            tiles = board.tiles  # (not board.flat: a cached property costs more than this)
            columns = list(map(column, chain(tiles)))
            if None in columns:  # other multi-letter tiles, or letters no word uses (blanks)
                steps = tile_columns(board, graph)
                columns = [0 if t is None else t[0] if len(t) == 1 else None for t in steps]
            if all_paths or None in columns or len(columns) > 63:  # the Python walk's boards
                self.alone.append(index)
                continue
            shape = (len(tiles), len(tiles[0]))
            least = min_length if min_length is not None else board.min_length
            here = (official_min_length(*shape) if least is None else least, shape)
            if here != key:  # another group than the board before's
                key = here
                members, rows = groups.setdefault(key, ([], []))
            members.append(index)
            rows.append(columns)

    def _add_uniform(self, boards: list[tuple[int, Board]], min_length: int | None) -> bool:
        """The usual batch at once, without a loop over its boards in Python: boards of
        one shape and minimum length whose tiles each take one column of the graph
        (:meth:`add` sorts out any other batch board by board).

        :returns: whether the boards were added (``False``: nothing was).
        """
        if not boards:
            return False
        tiles = [board.tiles for _, board in boards]
        heights = set(map(len, tiles))
        lines = list(itertools.chain.from_iterable(tiles))
        widths = set(map(len, lines))
        if len(heights) != 1 or len(widths) != 1:
            return False
        shape = (heights.pop(), widths.pop())
        cells = shape[0] * shape[1]
        if cells > 63:
            return False
        if min_length is None:
            asked = {board.min_length for _, board in boards}
            if len(asked) != 1:
                return False
            least = asked.pop()
        else:
            least = min_length
        table = _tile_columns(self.graph, list(itertools.chain.from_iterable(lines)))
        if table is None:
            return False
        key = (official_min_length(*shape) if least is None else least, shape)
        members = [index for index, _ in boards]
        self.plain.setdefault(key, []).append((members, table.reshape(len(boards), cells)))
        return True

    @property
    def arrayed(self) -> int:
        """The boards for the array engines."""
        return sum(len(members) for members, _ in self.groups.values())

    def tables(self) -> None:
        """Each group's columns as one ``int64`` array ``(boards, cells)`` (the boards
        read straight from text first)."""
        import numpy as np  # (deferred: the Python walk's boards are sorted out without numpy)

        for key in {**self.plain, **self.groups}:
            members, rows = self.groups.get(key, ([], []))
            cells = key[1][0] * key[1][1]
            blocks = [*self.plain.pop(key, [])]
            if len(rows):
                table = rows
                if isinstance(rows, list):  # (fromiter: twice as fast as np.array here)
                    flat = itertools.chain.from_iterable(rows)
                    table = np.fromiter(flat, dtype=np.int64, count=len(rows) * cells)
                blocks.append((members, table.reshape(len(members), cells)))
            if len(blocks) == 1:
                self.groups[key] = blocks[0]
            else:
                self.groups[key] = ([i for block, _ in blocks for i in block],
                                    np.concatenate([table for _, table in blocks]))  # fmt: skip


def _tile_columns(graph: WordGraph, tiles: list[str]) -> Any:
    """The graph columns of many tiles at once, as an ``int64`` array, read with numpy
    from their ASCII bytes; ``None`` when a tile is not ASCII or takes no one column
    (a tile of more than two letters, a letter no word uses, a digraph not of the dice).
    """
    import numpy as np  # (deferred: the Python walk's boards are sorted out without numpy)

    if not tiles:
        return np.zeros(0, dtype=np.int64)
    try:  # the tiles, a NUL between two (a tile has letters or "#" only)
        raw = np.frombuffer("\0".join(tiles).encode("ascii"), dtype=np.uint8)
    except UnicodeEncodeError:
        return None
    # a one-letter tile is looked up by its byte, a two-letter one by both (128 and up)
    lookup = np.full(128 * 128, -1, dtype=np.int64)
    for tile, column in graph.single_columns.items():
        if tile.isascii() and len(tile) <= 2:
            code = tile.encode("ascii")
            lookup[code[0] if len(code) == 1 else code[0] * 128 + code[1]] = column
    starts = np.zeros(len(tiles), dtype=np.int64)
    between = np.flatnonzero(raw == 0)
    if len(between) != len(tiles) - 1:  # (a NUL in a tile)
        return None
    starts[1:] = between + 1
    sizes = np.diff(starts, append=len(raw) + 1) - 1
    if sizes.min() < 1 or sizes.max() > 2:
        return None
    key = raw[starts].astype(np.int64)
    two = np.flatnonzero(sizes == 2)
    key[two] = key[two] * 128 + raw[starts[two] + 1]
    columns = lookup[key]
    return None if (columns < 0).any() else columns


def _plain_groups(
    plan: _Plan, lines: list[tuple[int, str]], min_length: int | None
) -> list[tuple[int, str]]:
    """Put the boards written in :data:`_PLAIN` text, or in the canonical text of boards
    with dice digraphs (:meth:`Board.to_text`: ``"A B C / D Qu E"``, one space between
    tiles), into ``plan`` without making :class:`Board` objects; their tiles read as
    :meth:`Board.from_string` reads them (a lone ``Q`` is a Q, ``Qu`` the QU die).
    What is left is returned.

    Python only sorts the texts out (by form and length); the plain ones are checked
    and read with numpy, the spaced ones' tiles looked up together."""
    import numpy as np  # (deferred: the Python walk's boards are sorted out without numpy)

    graph = plan.graph
    # a byte's column (0 for a letter no word uses: a blank), -1 for a byte no tile has
    lookup = np.full(256, -1, dtype=np.int64)
    lookup[ord("#")] = 0
    for code in range(ord("A"), ord("Z") + 1):
        lookup[code] = graph.column(chr(code))
    # the tiles of the spaced form: A-Z, #, and the dice digraphs the graph has columns for
    tokens = {chr(code): int(lookup[code]) for code in range(ord("A"), ord("Z") + 1)}
    tokens["#"] = 0
    for symbol in graph.columns:
        if len(symbol) == 2 and symbol.isascii():
            tokens[symbol[0] + symbol[1].lower()] = tokens[symbol] = graph.column(symbol)
    by_length: dict[int, list[tuple[int, str]]] = {}
    # per shape: the boards' indices and texts, and all their tiles in a row
    spaced: dict[tuple[int, int], tuple[list[tuple[int, str]], list[str]]] = {}
    rest = []
    for item in lines:
        text = item[1]
        if " " not in text:
            if text.isascii():
                by_length.setdefault(len(text), []).append(item)
            else:
                rest.append(item)
            continue
        # "A B / C Qu": a "/" after every ``width`` tiles, and nowhere else
        parts = text.split(" ")
        width = parts.index("/") if "/" in parts else len(parts)
        height = (len(parts) + 1) // (width + 1)
        if (
            width
            and height * (width + 1) - 1 == len(parts)
            and height * width <= 63
            and parts[width :: width + 1] == ["/"] * (height - 1)
        ):
            del parts[width :: width + 1]
            if "/" not in parts:
                boards, tiles = spaced.setdefault((height, width), ([], []))
                boards.append(item)
                tiles += parts
                continue
        rest.append(item)
    for length, items in by_length.items():
        width = items[0][1].find("/")
        width = length if width < 0 else width
        height = (length + 1) // (width + 1)
        if not width or height * (width + 1) - 1 != length or height * width > 63:
            rest += items  # (each board of another shape, or not a board)
            continue
        raw = np.frombuffer("".join([t for _, t in items]).encode("ascii"), dtype=np.uint8)
        raw = raw.reshape(len(items), length)
        slash = np.zeros(length, dtype=bool)
        slash[width :: width + 1] = True
        table = lookup[raw[:, ~slash]]
        good = (raw[:, slash] == ord("/")).all(axis=1) & (table >= 0).all(axis=1)
        keep = good.tolist()
        rest += [item for item, ok in zip(items, keep, strict=True) if not ok]
        if not any(keep):
            continue
        least = min_length if min_length is not None else official_min_length(height, width)
        members = [index for (index, _), ok in zip(items, keep, strict=True) if ok]
        plan.plain.setdefault((least, (height, width)), []).append((members, table[good]))
    for (height, width), (items, tiles) in spaced.items():
        cells = height * width
        found = list(map(tokens.get, tiles))
        if None in found:  # another tile somewhere: those boards the long way
            rows = [found[k : k + cells] for k in range(0, len(found), cells)]
            ok = [None not in row for row in rows]
            rest += [item for item, good in zip(items, ok, strict=True) if not good]
            items = [item for item, good in zip(items, ok, strict=True) if good]
            found = [c for row, good in zip(rows, ok, strict=True) if good for c in row]
            if not items:
                continue
        least = min_length if min_length is not None else official_min_length(height, width)
        block = np.array(found, dtype=np.int64).reshape(len(items), cells)
        plan.plain.setdefault((least, (height, width)), []).append(([i for i, _ in items], block))
    return rest


@attrs.frozen(eq=False)
class _Done:
    """What became of one piece of a group: its boards' arrays, or the error."""

    members: list[int]
    least: int
    columns: Any
    found: list[_Found] | None = None
    error: Outcome[Any] | None = None


def _walk_plan(
    plan: _Plan,
    engine: str,
    workers: int | None,
    executor: concurrent.futures.Executor | None,
    mode: int,
    cap: int = 0,
    seconds: float | None = None,
) -> Iterator[_Done]:
    """The array engines over every group of ``plan``, piece by piece, as the pieces
    finish (in this process, on threads, or on processes; see :func:`solve_many`);
    ``cap``: each board's walk stops at that many nodes expanded (0: never);
    ``seconds``: a board's time limit, which no first compile of the walk may outlast."""
    plan.tables()
    arrayed = plan.arrayed
    deadline = None if seconds is None else lacak.limits.now() + seconds
    chosen = engine_for_batch(engine, arrayed, deadline=deadline)
    count = workers if workers is not None else (os.cpu_count() or 1)
    if executor is not None and workers == 1:
        count = os.cpu_count() or 1  # the executor decides; give it a job per core at least
    parallel = executor is not None or (count > 1 and arrayed >= PARALLEL_FROM)
    # whether workers may be on other machines, without this one's disk cache
    remote = executor is not None and not isinstance(
        executor, concurrent.futures.ThreadPoolExecutor | concurrent.futures.ProcessPoolExecutor
    )
    graph = plan.graph
    if chosen == "numba" and arrayed:
        compiled = load_compiled()
        if compiled is not None:
            compiled.pack_graph(graph)  # made once, before any thread needs it
    pieces: list[_Piece] = []
    for (least, shape), (members, table) in plan.groups.items():
        if not parallel:
            try:
                if mode == PATHS and not cap:
                    found = solve_columns(graph, table, shape, least, chosen)
                else:
                    found = solve_columns(graph, table, shape, least, chosen, mode, cap)
            except Exception as error:  # one group's failure is its boards' records
                failure: Outcome[Any] = Outcome(
                    0, error=error, traceback="".join(traceback.format_exception(error))
                )
                yield _Done(members, least, table, error=failure)
            else:
                yield _Done(members, least, table, found)
            continue
        job = _job(graph, plan.words, least, chosen, shape, remote=remote, mode=mode, cap=cap)
        pieces += _pieces(job, members, table, count)
    if pieces:
        for piece, outcome in _run_pieces(pieces, chosen, count, executor):
            if outcome.ok:
                yield _Done(piece.members, piece.job.min_length, piece.columns, outcome.unwrap())
            else:
                yield _Done(piece.members, piece.job.min_length, piece.columns, error=outcome)


#: Nodes a board's walk may expand in the array engines (and the Python walk of a
#: batch) when the batch has limits; a board that reaches it is walked again alone,
#: under the limits. Real boards stay far below (about 800 for 4x4 and 2,600 for 6x6
#: boards of the English list at most; 5,500 for 8x8).
PROBE_NODES = 1 << 15


def _check_limits(limits: Any) -> lacak.Limits:
    return check(limits)


def _cap(limits: lacak.Limits) -> int:
    """The engines' cap for a batch with ``limits``: 0 for none (no limits), -1 when the
    Python walk must take every board (a depth or frontier limit, no time or nodes at
    all), else the nodes a board's walk may expand before it is walked again alone."""
    if limits == lacak.UNLIMITED:
        return 0
    if (
        limits.max_depth is not None
        or limits.max_frontier is not None
        or limits.seconds == 0
        or limits.max_expanded == 0
    ):
        return -1
    if limits.max_expanded is not None:
        return min(PROBE_NODES, limits.max_expanded)
    return PROBE_NODES


def _prepare(
    dictionary: DictionaryLike, registry: lacak.Registry | None, limits: lacak.Limits
) -> tuple[lacak.Dictionary, _Plan]:
    """The dictionary and an empty plan with its graph, read and compiled under the
    limits' time (a board's ``seconds`` bound the set-up too).

    :raises LimitReachedError: the time passed while reading or compiling.
    """
    budget = limits.start()
    with lacak.deadline(budget.deadline):
        words = resolve_dictionary(dictionary, registry=registry)
        return words, _Plan(compile_dictionary(words, deadline=budget.deadline), words)


def _solve_here(
    index: int,
    board: Board,
    words: lacak.Dictionary,
    min_length: int | None,
    all_paths: bool,
    limits: lacak.Limits | None = None,
) -> Outcome[BoggleResult]:
    """One board by the Python walk, in this process, as its record."""
    try:
        result = solve_board(board, words, min_length=min_length, all_paths=all_paths,
                             engine="dfs", limits=limits)  # fmt: skip
    except Exception as error:
        return Outcome(index, error=error, traceback="".join(traceback.format_exception(error)))
    return Outcome(index, value=result)

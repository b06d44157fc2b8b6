"""Solving thousands of boards at once.

Three engines, all exact and all reporting each word's lexicographically
smallest path (so they agree with :func:`~lacak_boggle.solve_board` result for
result, node counts included):

``numba``
    the depth-first walk compiled (:mod:`lacak_boggle.compiled`, from the
    optional extra ``lacak[fast]``), over every board of a shape in one call.
``numpy``
    a level-synchronous walk over *all* boards together. The frontier is a set
    of arrays (board, cell, visited mask, graph state, rank); one level
    expands every frontier entry to its up to eight neighbours at once,
    drops used tiles, looks the next state up in the dense transition table,
    and keeps what is still the start of a word. Words are collected with the
    index of the entry that found them; paths are rebuilt from per-level
    parent indices at the end, and the smallest path per word is chosen with
    one ``lexsort``.
``dfs``
    the single-board depth-first walk in Python, board after board.

Every engine hands back the same arrays (:class:`_Found`: per word found its
board, rank and path; per board its node counts), and :meth:`_Found.results`
makes the :class:`~lacak_boggle.BoggleResult` objects, whose path tuples are
only made when asked for. ``engine="auto"`` is described in
:mod:`lacak_boggle.engines`; boards the array engines cannot take (more than 63
tiles, multi-letter tiles that are not dice digraphs) and ``all_paths`` use
the Python walk of :func:`~lacak_boggle.solve_board`.

With ``workers`` > 1 (or an executor), this process maps the tiles to graph
columns and sends jobs of at most :data:`JOB_BOARDS` boards as one integer
array; workers load the compiled dictionary from the disk cache by its
digest (nothing big is pickled) and send back the engine's arrays, and this
process builds each job's results while the workers solve the next. Without
an executor, the numba engine runs its jobs on threads (its walk releases
the GIL), the others on processes.
"""

from __future__ import annotations

import concurrent.futures
import functools
import itertools
import os
import time
import traceback
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import attrs
import lacak
import lacak.batch
from lacak.batch import Outcome

from ._gc import quiet_gc
from .board import Board, neighbours, official_min_length
from .engines import ENGINES, engine_for_batch, load_compiled
from .results import BoggleResult, Entries, cells_of, found_result, make_result
from .solver import DictionaryLike, resolve_dictionary, solve_board
from .walk import tile_columns, walk_fast
from .wordgraph import WordGraph, compile_dictionary, load_graph

__all__ = ["ENGINES", "BoggleScores", "score_many", "solve_many"]

#: Boards per numpy pass (bounds the frontier's memory).
CHUNK = 256
#: Fewer boards than this are solved in this process even when workers are asked
#: for: starting processes would cost more than it saves.
PARALLEL_FROM = 256
#: Boards per job sent to a worker (several jobs per worker balance the load, and
#: let this process build one job's results while the workers solve the next).
JOB_BOARDS = 256


def _numpy_walk(
    graph: WordGraph, columns: Any, shape: tuple[int, int], min_length: int, cap: int = 0
) -> _Found:
    """The level-synchronous engine for boards of one shape.

    :param columns: ``(boards, cells)`` int array of each tile's graph column
        (0 for a blank).
    :param cap: with a cap (> 0), a board whose walk passes ``cap`` nodes expanded (the
        root not counted) leaves the frontier, and so do the largest boards of a
        frontier over :data:`FRONTIER_CAP` entries; :attr:`_Found.over` names them.
    :returns: the words found (the smallest path of each, words shorter
        than ``min_length`` dropped) and per-board node counts, as arrays;
        :meth:`_Found.solved` makes the results' Python objects.
    """
    import numpy as np

    table, ranks = graph.arrays()
    lengths = graph.lengths()
    boards, cells = columns.shape
    flat_cols = np.ascontiguousarray(columns, dtype=np.int64).ravel()
    around = neighbours(*shape)
    nbr = np.full((cells, 8), -1, dtype=np.int64)
    for i, ns in enumerate(around):
        nbr[i, : len(ns)] = ns
    safe_nbr = np.where(nbr < 0, 63, nbr)
    # the letters around each tile of each board (a digraph by its first letter),
    # ANDed with a state's letter mask to drop entries no neighbour continues
    first = np.array(graph.first_letters, dtype=np.uint64).view(np.int64)
    tile_bits = np.concatenate(
        [first[np.ascontiguousarray(columns, dtype=np.int64)], np.zeros((boards, 1), np.int64)],
        axis=1,
    )
    near = np.bitwise_or.reduce(tile_bits[:, np.where(nbr < 0, cells, nbr)], axis=2).ravel()

    # level 0: every non-blank tile of every board
    board_ix = np.repeat(np.arange(boards, dtype=np.int64), cells)
    cell_ix = np.tile(np.arange(cells, dtype=np.int64), boards)
    col = flat_cols
    keep = col != 0
    board_ix, cell_ix, col = board_ix[keep], cell_ix[keep], col[keep]
    raw = table[col]
    keep = raw != 0
    board_ix, cell_ix, col, raw = board_ix[keep], cell_ix[keep], col[keep], raw[keep]
    rank = ranks[col].astype(np.int64)

    level_cells = [cell_ix]
    level_parent = [np.full(len(cell_ix), -1, dtype=np.int64)]
    hits: list[tuple[Any, Any, Any, int]] = []

    def step(level: int, b: Any, raw: Any, r: Any) -> Any:
        """Record the words among the new entries; return their next offsets (-1: none)."""
        final = np.nonzero(raw < 0)[0]
        if len(final):
            rr = r[final]
            long_enough = lengths[rr] >= min_length
            if long_enough.any():
                hits.append((b[final[long_enough]], rr[long_enough], final[long_enough], level))
        return np.where(raw < -1, -2 - raw, raw)

    nxt = step(0, board_ix, raw, rank)
    # per-board search statistics, counted as the depth-first walk counts them
    generated = np.bincount(board_ix, minlength=boards)
    deepest = np.where(generated > 0, 1, 0)
    inner = np.nonzero(nxt > 0)[0]
    f_gen = inner
    f_board, f_cell, f_node, f_rank = board_ix[inner], cell_ix[inner], nxt[inner], rank[inner]
    # blank tiles count as used from the start, so no later step looks at them
    blanks = (
        (np.ascontiguousarray(columns) == 0)
        * np.left_shift(np.int64(1), np.arange(cells, dtype=np.int64))
    ).sum(axis=1)
    # bit 63 (never a tile) is set too: the missing neighbours of edge tiles point
    # at it, so they read as used
    edge = np.int64(np.iinfo(np.int64).min)
    f_vis = np.left_shift(np.int64(1), f_cell) | blanks[f_board] | edge
    flat_nbr = nbr.ravel()
    level = 0
    expanded = np.ones(boards, dtype=np.int64)  # the root
    over = np.zeros(boards, dtype=bool)
    while len(f_board):
        expanded += np.bincount(f_board, minlength=boards)
        if cap:
            heavy = _too_long(expanded, f_board, boards, cap)
            if heavy is not None:
                over |= heavy
                stay = np.flatnonzero(~heavy[f_board])
                f_gen, f_board, f_cell = f_gen[stay], f_board[stay], f_cell[stay]
                f_node, f_rank, f_vis = f_node[stay], f_rank[stay], f_vis[stay]
        alive = np.nonzero(table[f_node] & near[f_board * cells + f_cell])[0]
        if len(alive) < len(f_board):
            f_gen, f_board, f_cell = f_gen[alive], f_board[alive], f_cell[alive]
            f_node, f_rank, f_vis = f_node[alive], f_rank[alive], f_vis[alive]
        level += 1
        free = (np.right_shift(f_vis[:, None], safe_nbr[f_cell]) & 1) == 0
        pick = np.flatnonzero(free)
        rep = pick >> 3
        ncell = flat_nbr[(f_cell[rep] << 3) | (pick & 7)]
        b = f_board[rep]
        offset = f_node[rep] + flat_cols[b * cells + ncell]
        raw = table[offset]
        keep = raw != 0
        rep, ncell, b, offset, raw = rep[keep], ncell[keep], b[keep], offset[keep], raw[keep]
        r = f_rank[rep] + ranks[offset]
        level_cells.append(ncell)
        level_parent.append(f_gen[rep])
        made = np.bincount(b, minlength=boards)
        generated += made
        deepest[made > 0] = level + 1
        nxt = step(level, b, raw, r)
        inner = np.nonzero(nxt > 0)[0]
        f_gen = inner
        f_board = b[inner]
        f_cell = ncell[inner]
        f_node = nxt[inner]
        f_rank = r[inner]
        f_vis = f_vis[rep[inner]] | np.left_shift(np.int64(1), f_cell)

    if not hits:
        none = np.zeros(0, dtype=np.int64)
        return _Found.from_paths(graph, cells, none, none, np.zeros((0, 1), dtype=np.int64),
                                 none, expanded, generated, deepest, over)  # fmt: skip
    hb = np.concatenate([h[0] for h in hits])
    hr = np.concatenate([h[1] for h in hits])
    hi = np.concatenate([h[2] for h in hits])
    hk = np.concatenate([np.full(len(h[0]), h[3], dtype=np.int64) for h in hits])
    depth = int(hk.max()) + 1
    paths = np.full((len(hb), depth), -1, dtype=np.int64)
    cur = hi.copy()
    for j in range(depth - 1, -1, -1):
        active = np.nonzero(hk >= j)[0]
        at = cur[active]
        paths[active, j] = level_cells[j][at]
        cur[active] = level_parent[j][at]
    # One entry per (board, word): its smallest path. Most words are found once;
    # only the repeated ones need a lexicographic sort of their paths.
    key = hb * len(graph.words) + hr
    order = np.argsort(key, kind="stable")
    ordered = key[order]
    repeated = np.zeros(len(order), dtype=bool)
    same = ordered[1:] == ordered[:-1]
    repeated[1:] |= same
    repeated[:-1] |= same
    chosen = order[~repeated]
    if same.any():
        sub = order[repeated]
        sub = sub[np.lexsort((*(paths[sub, j] for j in range(depth - 1, -1, -1)), key[sub]))]
        firsts = np.ones(len(sub), dtype=bool)
        firsts[1:] = key[sub][1:] != key[sub][:-1]
        chosen = np.concatenate([chosen, sub[firsts]])
        chosen = chosen[np.argsort(key[chosen], kind="stable")]
    return _Found.from_paths(graph, cells, hb[chosen], hr[chosen], paths[chosen],
                             hk[chosen] + 1, expanded, generated, deepest, over)  # fmt: skip


#: Frontier entries the numpy engine holds at most when its walks are capped (a batch
#: with a time limit): beyond it, the boards with the most entries leave it.
FRONTIER_CAP = 1 << 20


def _too_long(expanded: Any, f_board: Any, boards: int, cap: int) -> Any:
    """The boards to take out of a capped numpy walk (a bool array), or ``None``: those
    past ``cap`` nodes expanded, and the largest ones while the frontier holds more than
    :data:`FRONTIER_CAP` entries."""
    import numpy as np

    heavy = expanded > cap  # (``expanded`` counts the root)
    if len(f_board) > FRONTIER_CAP:
        sizes = np.bincount(f_board, minlength=boards) * ~heavy
        largest = np.argsort(-sizes, kind="stable")
        dropped = np.cumsum(sizes[largest])
        needed = int(np.searchsorted(dropped, int(sizes.sum()) - FRONTIER_CAP)) + 1
        heavy[largest[:needed]] = True
    return heavy if heavy.any() else None


#: What an engine gives back for a batch (as :mod:`lacak_boggle.compiled` names them):
#: per board counts and points only; also each word's rank and the best word's
#: first path; also every word's first path.
SCORES, WORDS, PATHS = 0, 1, 2
#: :func:`~lacak_boggle.results.score` by length, up to 8 letters (and more).
_POINTS = (0, 0, 0, 1, 1, 2, 3, 5, 11)


@attrs.frozen(eq=False)
class _Found:
    """What an engine found, as arrays (cheap to send between processes)."""

    boards: int
    #: board and rank of each word found, by (board, rank) (empty for ``SCORES``)
    board: Any
    rank: Any
    #: each word's first path, padded, and its length; ``None`` when not made (``WORDS``)
    paths: Any
    sizes: Any
    #: per board: nodes expanded, generated, deepest level, words, points
    expanded: Any
    generated: Any
    deepest: Any
    count: Any
    score: Any
    #: per board (not for ``SCORES``): the best word's index among its words (-1: none),
    #: its first path (padded with -1) and that path's length
    best: Any = None
    best_paths: Any = None
    best_sizes: Any = None
    #: the engine that walked the boards
    engine: str = ""
    #: per board, whether its walk stopped at the cap of a walk with limits (its words
    #: are then a part of them, and it is walked again with the limits); ``None``: none
    over: Any = None

    @classmethod
    def from_paths(
        cls,
        graph: WordGraph,
        cells: int,
        board: Any,
        rank: Any,
        paths: Any,
        sizes: Any,
        expanded: Any,
        generated: Any,
        deepest: Any,
        over: Any = None,
    ) -> _Found:
        """The record of an engine that gives every word's path (numpy, dfs): the
        per-board words, points and best word worked out from them."""
        import numpy as np

        boards = len(expanded)
        lengths = graph.lengths()[rank].astype(np.int64)
        count = np.bincount(board, minlength=boards).astype(np.int64)
        points = np.array(_POINTS, dtype=np.int64)[np.minimum(lengths, 8)]
        score = np.bincount(board, weights=points, minlength=boards).round().astype(np.int64)
        # the best word of each board: the first (alphabetical) of its longest
        starts = np.searchsorted(board, np.arange(boards))
        has = count > 0
        order = np.lexsort((np.arange(len(rank)), -lengths, board))
        rows = order[starts[has]]
        best = np.full(boards, -1, dtype=np.int64)
        best[has] = rows - starts[has]
        best_paths = np.full((boards, cells), -1, dtype=np.int64)
        width = min(paths.shape[1], cells)
        best_paths[has, :width] = paths[rows, :width]
        best_sizes = np.zeros(boards, dtype=np.int64)
        best_sizes[has] = sizes[rows]
        return cls(boards, board, rank, paths, sizes, expanded, generated, deepest, count,
                   score, best, best_paths, best_sizes, over=over)  # fmt: skip

    def results(
        self,
        graph: WordGraph,
        boards: Sequence[Board],
        name: str,
        min_length: int,
        columns: Any,
        strategy: str | None = None,
        seconds: float = 0.0,
    ) -> list[BoggleResult]:
        """One :class:`BoggleResult` per board; path tuples are made only when asked for
        (from the arrays, or by walking the board again when they were not made).

        :param columns: the boards' tiles as graph columns (to walk a board again).
        :param strategy: each result's ``strategy``; default ``boggle-ENGINE``.
        :param seconds: each result's ``stats.seconds``.
        """
        import numpy as np

        strategy = strategy or f"boggle-{self.engine}"
        shape = boards[0].shape if boards else (0, 0)
        spelled = tuple(graph.word_array()[self.rank].tolist())
        ends = np.cumsum(self.count).tolist()
        counts = zip(
            self.expanded.tolist(), self.generated.tolist(), self.deepest.tolist(),
            self.score.tolist(), self.best_paths.tolist(), self.best_sizes.tolist(),
            strict=True,
        )  # fmt: skip
        # each board's path tuples, made when first asked for
        if self.paths is not None:
            paths_of = functools.partial(_paths_from, self.paths, self.sizes, ends)
        else:
            paths_of = functools.partial(_paths_again, graph, columns, shape, min_length)
        at = cells_of(*shape)
        stats_of = lacak.SearchStats
        out = []
        lo = 0
        with quiet_gc():
            for b, (board, (expanded, generated, depth, points, best, size)) in enumerate(
                zip(boards, counts, strict=True)
            ):
                hi = ends[b]
                stats = stats_of(
                    expanded=expanded,
                    generated=generated,
                    max_frontier=depth,
                    depth=depth,
                    seconds=seconds,
                )
                entries = Entries.later(spelled[lo:hi], paths_of, b, points)
                if size:
                    cells = tuple([at[i] for i in best[:size]])
                    out.append(found_result(board, name, entries, cells, min_length=min_length,
                                            stats=stats, strategy=strategy))  # fmt: skip
                else:
                    out.append(make_result(board, name, entries, min_length=min_length,
                                           all_paths=False, stats=stats, strategy=strategy))  # fmt: skip
                lo = hi
        return out


def _trimmed(paths: Any, sizes: Any) -> list[list[int]]:
    """Rows of a padded path array cut to their lengths, as lists."""
    return [row[:n] for row, n in zip(paths.tolist(), sizes.tolist(), strict=True)]


def _paths_from(paths: Any, sizes: Any, ends: list[int], board: int) -> list[Any]:
    """One board's path tuples from an engine's arrays (``ends``: where each board's
    words end)."""
    lo = ends[board - 1] if board else 0
    rows = _trimmed(paths[lo : ends[board]], sizes[lo : ends[board]])
    return [(tuple(row),) for row in rows]


def _paths_again(
    graph: WordGraph, columns: Any, shape: tuple[int, int], min_length: int, board: int
) -> list[Any]:
    """One board's path tuples, by walking it again with every path kept (the
    compiled walk when it loads here, else the Python walk: the same paths)."""
    row = columns[board : board + 1]
    compiled = load_compiled()
    if compiled is not None:
        walked = compiled.walk(graph, row, shape, min_length, PATHS)
        rows = _trimmed(walked.paths, walked.sizes)
    else:  # pragma: no cover - numba failing after the walk that used it
        found = walk_fast(graph, row[0].tolist(), shape, min_length)[0]
        rows = [found[r] for r in sorted(found)]
    return [(tuple(row),) for row in rows]


def _from_dfs(
    graph: WordGraph, columns: Any, shape: tuple[int, int], min_length: int, cap: int = 0
) -> _Found:
    """The depth-first walk, board after board, with its findings as :class:`_Found` arrays
    (``cap``: each board's walk stops at ``cap`` nodes expanded, see :func:`walk_fast`)."""
    import numpy as np

    boards = len(columns)
    board: list[int] = []
    rank: list[int] = []
    paths: list[list[int]] = []
    counts = []
    with quiet_gc():
        for b, cols in enumerate(columns.tolist()):
            found, expanded, generated, depth = walk_fast(graph, cols, shape, min_length, cap)
            ranks = sorted(found)
            board += [b] * len(ranks)
            rank += ranks
            paths += [found[r] for r in ranks]
            counts.append((expanded, generated, depth))
    width = max([len(p) for p in paths], default=1)
    padded = np.full((len(paths), width), -1, dtype=np.int64)
    sizes = np.array([len(p) for p in paths], dtype=np.int64)
    for size in np.unique(sizes).tolist():
        group = np.nonzero(sizes == size)[0]
        padded[group, :size] = np.array([paths[i] for i in group.tolist()], dtype=np.int64)
    stats = np.array(counts, dtype=np.int64).reshape(boards, 3)
    over = stats[:, 0] > cap if cap else None  # (``walk_fast`` counts the root)
    return _Found.from_paths(graph, shape[0] * shape[1], np.array(board, dtype=np.int64),
                             np.array(rank, dtype=np.int64), padded, sizes, stats[:, 0],
                             stats[:, 1], stats[:, 2], over)  # fmt: skip


def walk_arrays(
    graph: WordGraph,
    columns: Any,
    shape: tuple[int, int],
    min_length: int,
    engine: str,
    mode: int = PATHS,
    cap: int = 0,
) -> _Found:
    """Solve boards of one shape (``columns``: their tiles' graph columns) with ``engine``.

    :param mode: what to give back (:data:`SCORES`, :data:`WORDS`, :data:`PATHS`); the
        compiled walk gives only that, the other engines give every path.
    :param cap: stop each board's walk at this many nodes expanded (0: never), and
        name the boards it stopped in :attr:`_Found.over`.
    """
    if engine == "numba":
        compiled = load_compiled()
        if compiled is not None:
            w = compiled.walk(graph, columns, shape, min_length, mode, cap)
            return _Found(len(columns), w.board, w.rank, w.paths if mode == PATHS else None,
                          w.sizes if mode == PATHS else None, w.expanded, w.generated,
                          w.deepest, w.found, w.score, w.best, w.best_paths, w.best_sizes,
                          engine="numba", over=w.over if cap else None)  # fmt: skip
        engine = "numpy"  # numba fails to load here (a worker's machine): the same answers
    if engine == "numpy":
        # its frontier holds every prefix path of a level at once: boards of one
        # repeated letter with long words of it make it explode
        with lacak.memory_guard(
            f"the numpy engine's frontier for {len(columns)} boards of {shape[0]}x{shape[1]}",
            "use engine='numba' or 'dfs'",
        ):
            found = _numpy_walk(graph, columns, shape, min_length, cap)
    else:
        found = _from_dfs(graph, columns, shape, min_length, cap)
    return attrs.evolve(found, engine=engine)


def _passes(engine: str) -> int:
    """Boards per call of an array engine (the numpy frontier's memory grows with it)."""
    return CHUNK if engine == "numpy" else 8 * CHUNK


def solve_columns(
    graph: WordGraph,
    columns: Any,
    shape: tuple[int, int],
    min_length: int,
    engine: str,
    mode: int = PATHS,
    cap: int = 0,
) -> list[_Found]:
    """:func:`walk_arrays` in passes of at most :func:`_passes` boards."""
    size = _passes(engine)
    return [
        walk_arrays(graph, columns[k : k + size], shape, min_length, engine, mode, cap)
        for k in range(0, len(columns), size)
    ]


@attrs.frozen
class _Chunk:
    """A picklable job: solve boards of one shape, given as their tiles' graph
    columns, with a graph the worker loads from the disk cache by its digest."""

    digest: str
    alphabet: str
    words: tuple[str, ...] | None
    min_length: int
    engine: str
    shape: tuple[int, int]
    mode: int = PATHS
    #: each board's walk stops at this many nodes expanded (0: never)
    cap: int = 0

    def __call__(self, columns: Any) -> list[_Found]:
        graph = load_graph(self.digest, self.words, self.alphabet)
        if self.mode == PATHS and not self.cap:
            return solve_columns(graph, columns, self.shape, self.min_length, self.engine)
        return solve_columns(graph, columns, self.shape, self.min_length, self.engine,
                             self.mode, self.cap)  # fmt: skip


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
        import numpy as np

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
    import numpy as np

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
    import numpy as np

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


def solve_many(
    boards: Iterable[Board | str | Sequence[Sequence[str]]],
    dictionary: DictionaryLike = None,
    *,
    min_length: int | None = None,
    all_paths: bool = False,
    engine: str = "auto",
    workers: int | None = 1,
    executor: concurrent.futures.Executor | None = None,
    registry: lacak.Registry | None = None,
    limits: lacak.Limits | None = None,
) -> list[Outcome[BoggleResult]]:
    """Solve many boards with one dictionary: one record per board, in order.

    :param boards: :class:`Board` objects or their text forms (any mix of sizes).
    :param dictionary: as for :func:`~lacak_boggle.solve_board` (default ``eng``).
    :param min_length: one minimum for every board; default: each board's official one.
    :param all_paths: collect every path (uses the depth-first engine).
    :param engine: ``"auto"``, ``"numba"``, ``"numpy"`` or ``"dfs"`` (``"auto"``:
        see :mod:`lacak_boggle.engines`); boards the array engines cannot take fall
        back to the depth-first walk.
    :param workers: workers to use (threads for the numba engine, processes
        for the others); ``None`` means one per core, ``1`` (the default)
        solves in this process. Batches of fewer than ``PARALLEL_FROM`` (256)
        boards are solved in this process.
    :param executor: any :class:`concurrent.futures.Executor` (a Dask
        client's, or a process pool kept for many calls) to run the jobs,
        whatever the batch's size: at least one per core (or per worker when
        ``workers`` > 1), at most ``JOB_BOARDS`` boards each.
    :param limits: **each board's** limits, as :func:`~lacak_boggle.solve_board`
        takes them: a board that reaches one has the result that function gives
        (``stopped`` set, the words found so far). ``seconds`` also bounds the
        set-up (reading and compiling the dictionary), which raises
        :class:`~lacak.LimitReachedError` when it passes them. Every engine walks
        with a cap of :data:`PROBE_NODES` nodes a board (no real board comes
        near it); a board that reaches it is walked again alone, by the Python
        walk, under ``limits``.
    :returns: one :class:`lacak.batch.Outcome` per board, in order. Its
        ``value`` is a :class:`BoggleResult` with the same words, paths,
        scores and node counts as :func:`~lacak_boggle.solve_board` gives
        (``strategy`` is ``boggle-ENGINE``, or ``boggle`` for boards left to
        the Python walk; ``seconds`` is the wait for the board's job, shared
        among its boards); or its ``error`` says why the board has none: an
        :class:`~lacak.InvalidPuzzleError` naming the board, the error of the
        job that solved it, or a :class:`~lacak.WorkerDiedError`. A process
        worker that dies is replaced and its job run again (by
        :func:`lacak.batch.iter_many`); a job whose worker dies twice is run
        again board by board, so that only a board that kills its worker is
        lost. Word lists, counts and scores are there at once; the path
        tuples of a result are made when first asked for (the compiled walk
        finds them then, walking that board again).
    :raises InvalidOptionError: an unknown engine, ``"numba"`` where the
        compiled walk cannot run, or a bad number of workers.

    >>> import lacak
    >>> words = lacak.Dictionary(name="tiny", language="en", words=["CAT", "ACT", "TAX"], alphabet="ACQTXY")
    >>> [r.value.word_list for r in solve_many(["CAT/XQY", "ACT/QXY"], words)]
    [['CAT', 'TAX'], ['ACT']]
    >>> solve_many(["CAT", "CA/T"], words)[1].error
    InvalidPuzzleError('board 1: ragged board: row 1 has 1 tile but row 0 has 2')
    """
    _check_options(workers, min_length, engine)
    started = time.perf_counter()
    limits = _check_limits(limits)
    parsed = _parse_all(boards)
    words, plan = _prepare(dictionary, registry, limits)
    cap = _cap(limits)
    records: list[Outcome[BoggleResult] | None] = [None] * len(parsed)
    for i, board in enumerate(parsed):
        if not isinstance(board, Board):
            records[i] = Outcome(i, error=board)
    plan.add(((i, b) for i, b in enumerate(parsed) if isinstance(b, Board)), min_length,
             all_paths or cap < 0)  # fmt: skip
    for i in plan.alone:
        records[i] = _solve_here(i, parsed[i], words, min_length, all_paths, limits)  # type: ignore[arg-type]
    clock = [started]  # the first piece's boards share the preparation too
    for done in _walk_plan(plan, engine, workers, executor, WORDS, max(cap, 0), limits.seconds):
        if done.error is not None:
            for i in done.members:
                records[i] = Outcome(i, error=done.error.error, attempts=done.error.attempts,
                                     traceback=done.error.traceback)  # fmt: skip
            continue
        assert done.found is not None
        # each board's seconds: the wait for its piece, shared among the piece's boards
        now = time.perf_counter()
        share = (now - clock[0]) / max(1, len(done.members))
        clock[0] = now
        at = 0
        for pack in done.found:
            chunk = done.members[at : at + pack.boards]
            solved = [parsed[i] for i in chunk]
            made = pack.results(plan.graph, solved, words.name, done.least,  # type: ignore[arg-type]
                                done.columns[at : at + pack.boards], seconds=share)  # fmt: skip
            for i, result in zip(chunk, made, strict=True):
                records[i] = Outcome(i, value=result)
            if pack.over is not None:  # walked again alone, under the limits
                for i, over in zip(chunk, pack.over.tolist(), strict=True):
                    if over:
                        records[i] = _solve_here(i, parsed[i], words, min_length, False,  # type: ignore[arg-type]
                                                 limits)  # fmt: skip
            at += pack.boards
    return [r for r in records if r is not None]


def _stopped(index: int, result: BoggleResult) -> lacak.LimitReachedError:
    """The error of a board of :func:`score_many` that a limit stopped: it has no scores."""
    why = {
        lacak.StopReason.TIME: "the time limit",
        lacak.StopReason.NODES: "the node limit",
        lacak.StopReason.DEPTH: "the depth limit",
    }.get(result.stopped, "a limit")
    return lacak.LimitReachedError(
        f"board {index}: {why} was reached after {result.count} words found "
        f"({result.score} points)"
    )


#: Nodes a board's walk may expand in the array engines (and the Python walk of a
#: batch) when the batch has limits; a board that reaches it is walked again alone,
#: under the limits. Real boards stay far below (about 800 for 4x4 and 2,600 for 6x6
#: boards of the English list at most; 5,500 for 8x8).
PROBE_NODES = 1 << 15


def _check_limits(limits: Any) -> lacak.Limits:
    from .solver import _check_limits as check

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


@attrs.frozen(eq=False)
class BoggleScores:
    """What :func:`score_many` found: per board of the batch, in order, numpy arrays
    (and, when asked for, the words: :meth:`words`, :meth:`word_lists`).

    A board that has no scores (it does not parse, its job failed, its worker
    died) holds ``-1`` in every array, and :attr:`errors` says why; check
    :attr:`ok` (or call :meth:`unwrap`) before averaging.
    """

    #: The dictionary's name.
    dictionary: str
    #: Words found on each board (``int64``).
    count: Any
    #: Their official points together (``int64``).
    score: Any
    #: The shortest word length that counted on each board (``int64``).
    min_length: Any
    #: Nodes the walk expanded, generated, and the longest path it made (``int64``),
    #: as :attr:`lacak.SearchStats.expanded`, ``generated`` and ``depth`` count them.
    expanded: Any
    generated: Any
    depth: Any
    #: Board index -> why that board has no scores (as :attr:`lacak.batch.Outcome.error`).
    errors: dict[int, BaseException] = attrs.field(factory=dict, repr=False)
    #: The engine that walked the boards (the array engines; the Python walk for
    #: boards they cannot take).
    engine: str = ""
    #: With ``words=True``: every board's words by rank (index in the dictionary's
    #: word list), board after board, and where each board's start (``len + 1``).
    ranks: Any = attrs.field(default=None, repr=False)
    offsets: Any = attrs.field(default=None, repr=False)
    #: The dictionary's words (rank -> word) as a numpy object array.
    vocabulary: Any = attrs.field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.count)

    def words(self, board: int) -> tuple[str, ...]:
        """The words found on board ``board`` (its index in the batch), alphabetical.

        :raises InvalidOptionError: the words were not asked for (``words=True``).
        :raises BaseException: that board's error, when it has no words.
        """
        self._check_words()
        if board in self.errors:
            raise self.errors[board]
        lo, hi = self.offsets[board], self.offsets[board + 1]
        return tuple(self.vocabulary[self.ranks[lo:hi]].tolist())

    def word_lists(self) -> list[list[str] | None]:
        """Every board's words, alphabetical (``None`` for a board in :attr:`errors`).

        :raises InvalidOptionError: the words were not asked for (``words=True``).
        """
        self._check_words()
        # one object array of every word found, then a list per board: faster than one
        # long list cut in slices (each word's reference is copied once, not twice)
        spelled = self.vocabulary.take(self.ranks)
        bounds = self.offsets.tolist()
        with quiet_gc():  # a list a board: collections would rescan every live container
            out: list[list[str] | None] = [
                spelled[a:b].tolist() for a, b in itertools.pairwise(bounds)
            ]
        for board in self.errors:
            out[board] = None
        return out

    def _check_words(self) -> None:
        if self.ranks is None:
            raise lacak.InvalidOptionError(
                "score_many kept no words; ask for them with score_many(..., words=True)"
            )

    @property
    def ok(self) -> Any:
        """Per board, whether it has scores (a boolean array)."""
        return self.count >= 0

    def unwrap(self) -> BoggleScores:
        """``self`` when every board has scores.

        :raises BaseException: the first failed board's error.
        """
        if self.errors:
            raise self.errors[min(self.errors)]
        return self


def score_many(
    boards: Iterable[Board | str | Sequence[Sequence[str]]],
    dictionary: DictionaryLike = None,
    *,
    min_length: int | None = None,
    engine: str = "auto",
    workers: int | None = 1,
    executor: concurrent.futures.Executor | None = None,
    registry: lacak.Registry | None = None,
    words: bool = False,
    limits: lacak.Limits | None = None,
) -> BoggleScores:
    """The number of words and the points of many boards, for statistics: what
    :func:`solve_many` finds, in arrays, without a result object per board (and
    without the words themselves unless ``words=True``).

    Boards given as text in the plainest form (capital letters ``A``-``Z`` or
    ``#``, one a tile, rows split by ``/``: ``"CATS/DOGE/..."``) are read
    straight into the engines, without :class:`Board` objects; other boards
    and forms are parsed as :func:`solve_many` parses them. Options as for
    :func:`solve_many`; a board that reaches one of its ``limits`` has no scores
    (they would be a part of its words'), and its error is a
    :class:`~lacak.LimitReachedError` that says how far it got.

    :param words: also keep each board's words (:meth:`BoggleScores.words`,
        :meth:`BoggleScores.word_lists`); their paths are never made (solve a
        board with :func:`~lacak_boggle.solve_board` for those).
    :returns: per board, in order: words, points, the minimum length that
        counted and the node counts (the same as :func:`solve_many`'s
        results have); boards with none are in :attr:`BoggleScores.errors`.
    :raises InvalidOptionError: an unknown engine, ``"numba"`` where the
        compiled walk cannot run, or a bad number of workers.

    >>> import lacak
    >>> tiny = lacak.Dictionary(name="tiny", language="en", words=["CAT", "ACT", "TAX"], alphabet="ACQTXY")
    >>> scores = score_many(["CAT/XQY", "ACT/QXY", "CA/T"], tiny)
    >>> scores.count.tolist(), scores.score.tolist(), scores.ok.tolist()
    ([2, 1, -1], [2, 1, -1], [True, True, False])
    >>> scores.errors[2]
    InvalidPuzzleError('board 2: ragged board: row 1 has 1 tile but row 0 has 2')
    >>> score_many(["CAT/XQY", "ACT/QXY"], tiny, words=True).word_lists()
    [['CAT', 'TAX'], ['ACT']]
    """
    import numpy as np

    _check_options(workers, min_length, engine)
    limits = _check_limits(limits)
    items = list(boards)
    dictionary_, plan = _prepare(dictionary, registry, limits)
    cap = _cap(limits)
    texts = [(i, b) for i, b in enumerate(items) if type(b) is str and cap >= 0]
    rest = set() if not texts else {i for i, _ in _plain_groups(plan, texts, min_length)}
    parsed: dict[int, Board] = {}
    for i, item in enumerate(items):
        if type(item) is str and i not in rest:
            continue
        if isinstance(item, Board):  # (as Board.parse gives it, without the call)
            parsed[i] = item
            continue
        try:
            board = Board.parse(item)
        except lacak.InvalidPuzzleError as error:
            plan.failed[i] = lacak.InvalidPuzzleError(f"board {i}: {error}")
            continue
        parsed[i] = board
    plan.add(parsed.items(), min_length, cap < 0)
    total = len(items)
    out = {name: np.full(total, -1, dtype=np.int64)
           for name in ("count", "score", "least", "expanded", "generated", "depth")}  # fmt: skip
    errors: dict[int, BaseException] = dict(plan.failed)
    found: list[tuple[Any, Any, Any]] = []  # (boards, their word counts, their ranks)

    def alone(i: int) -> None:
        """Board ``i`` by the Python walk here, under the limits, into the arrays."""
        board = parsed[i] if i in parsed else Board.parse(items[i])
        record = _solve_here(i, board, dictionary_, min_length, False, limits)
        result = record.value
        if result is not None and result.stopped.is_limit:
            record = Outcome(i, error=_stopped(i, result))
        if record.error is not None:
            errors[i] = record.error
            return
        result = record.unwrap()
        if words:
            ranked = [plan.graph.rank(word) for word in result.word_list]
            found.append(([i], [len(ranked)], np.array(ranked, dtype=np.int64)))
        for name, value in (("count", result.count), ("score", result.score),
                            ("least", result.min_length), ("expanded", result.stats.expanded),
                            ("generated", result.stats.generated),
                            ("depth", result.stats.depth)):  # fmt: skip
            out[name][i] = value

    for i in plan.alone:
        alone(i)
    engines = set()
    mode = WORDS if words else SCORES
    for done in _walk_plan(plan, engine, workers, executor, mode, max(cap, 0), limits.seconds):
        if done.error is not None:
            for i in done.members:
                errors[i] = done.error.error  # type: ignore[assignment]
            continue
        assert done.found is not None
        at = 0
        for pack in done.found:
            chunk = np.array(done.members[at : at + pack.boards], dtype=np.int64)
            out["count"][chunk] = pack.count
            out["score"][chunk] = pack.score
            out["least"][chunk] = done.least
            out["expanded"][chunk] = pack.expanded
            out["generated"][chunk] = pack.generated
            out["depth"][chunk] = pack.deepest
            over = pack.over
            if words and over is not None and over.any():  # their words are found again
                others = ~over[pack.board]
                found.append((chunk, np.where(over, 0, pack.count), pack.rank[others]))
            elif words:
                found.append((chunk, pack.count, pack.rank))
            if over is not None:
                for i in chunk[over].tolist():
                    for values in out.values():
                        values[i] = -1
                    alone(i)
            engines.add(pack.engine)
            at += pack.boards
    kept: dict[str, Any] = {}
    if words:
        sizes = np.zeros(total, dtype=np.int64)
        for boards_, counts, _ in found:
            sizes[boards_] = counts
        offsets = np.zeros(total + 1, dtype=np.int64)
        np.cumsum(sizes, out=offsets[1:])
        ranks = np.empty(int(offsets[-1]), dtype=np.int64)
        if (
            len(found) == 1
            and len(found[0][2]) == len(ranks)
            and bool(np.all(np.diff(np.asarray(found[0][0])) > 0))
        ):  # one group, its boards in order: its ranks as they are (a copy: the engine's
            # buffer may be larger)
            ranks = np.array(found[0][2], dtype=np.int64)
            found = []
        for boards_, listed, got in found:
            counts = np.asarray(listed, dtype=np.int64)
            starts = np.repeat(offsets[np.asarray(boards_)] - (np.cumsum(counts) - counts), counts)
            ranks[starts + np.arange(len(got))] = got
        kept = {"ranks": ranks, "offsets": offsets, "vocabulary": plan.graph.word_array()}
    return BoggleScores(
        dictionary=dictionary_.name, count=out["count"], score=out["score"],
        min_length=out["least"], expanded=out["expanded"], generated=out["generated"],
        depth=out["depth"], errors=dict(sorted(errors.items())),
        engine="+".join(sorted(engines)) or "dfs", **kept,
    )  # fmt: skip


@attrs.frozen(eq=False)
class _Piece:
    """A job's worth of boards: their indices, the job, and their tiles' columns."""

    members: list[int]
    job: _Chunk
    columns: Any


def _solve_piece(piece: tuple[_Chunk, Any]) -> list[_Found]:
    """What a worker runs for a piece: ``job(columns)``."""
    job, columns = piece
    return job(columns)


def _pieces(job: _Chunk, members: list[int], table: Any, count: int) -> list[_Piece]:
    """One group's boards in pieces: at least ``count``, at most ``JOB_BOARDS`` boards each."""
    boards = len(members)
    parts = max(count, -(-boards // JOB_BOARDS))
    size = -(-boards // parts)
    return [_Piece(members[k : k + size], job, table[k : k + size]) for k in range(0, boards, size)]


def _run_pieces(
    pieces: list[_Piece], engine: str, count: int, executor: concurrent.futures.Executor | None
) -> Iterator[tuple[_Piece, Outcome[list[_Found]]]]:
    """Each piece with its record, as the pieces finish (so that this process builds
    one piece's results while the workers solve the next).

    Without an executor the compiled walk runs on threads (it releases the GIL;
    the threads share the graph, and results need no pickling) and the other
    engines on lacak's process pool, which replaces a dead worker and runs its
    job again. A piece whose worker died twice there is run again board by
    board, so that only the boards that kill a worker are lost.
    """
    items = [(piece.job, piece.columns) for piece in pieces]
    if executor is None and engine == "numba":
        with concurrent.futures.ThreadPoolExecutor(max_workers=count) as threads:
            for outcome in lacak.batch.iter_many(_solve_piece, items, executor=threads):
                yield pieces[outcome.index], outcome
        return
    if executor is not None:
        for outcome in lacak.batch.iter_many(_solve_piece, items, executor=executor):
            yield pieces[outcome.index], outcome
        return
    died: list[tuple[_Piece, Outcome[list[_Found]]]] = []
    for outcome in lacak.batch.iter_many(_solve_piece, items, workers=max(2, count)):
        piece = pieces[outcome.index]
        if isinstance(outcome.error, lacak.WorkerDiedError):
            died.append((piece, outcome))
        else:
            yield piece, outcome
    if not died:
        return
    # board by board: a piece of one board each, with its own record
    singles = [
        (_Piece([i], piece.job, piece.columns[k : k + 1]), outcome)
        for piece, outcome in died
        for k, i in enumerate(piece.members)
    ]
    items = [(one.job, one.columns) for one, _ in singles]
    for outcome in lacak.batch.iter_many(_solve_piece, items, workers=max(2, count)):
        one, before = singles[outcome.index]
        error = outcome.error
        if isinstance(error, lacak.WorkerDiedError):
            (board,) = one.members
            attempts = before.attempts + outcome.attempts
            error = lacak.WorkerDiedError(
                f"worker died ({error.how}) solving board {board}: twice with the other "
                "boards of its job, and twice alone",
                index=board, exitcode=error.exitcode, attempts=attempts,
            )  # fmt: skip
            outcome = attrs.evolve(outcome, error=error, attempts=attempts)
        yield one, outcome


def _job(
    graph: WordGraph,
    words: lacak.Dictionary,
    min_length: int,
    engine: str,
    shape: tuple[int, int],
    *,
    remote: bool,
    mode: int = PATHS,
    cap: int = 0,
) -> _Chunk:
    """The job for one group; it carries the words when the workers may lack the
    disk cache (a remote executor such as Dask's, or no cache here)."""
    from .wordgraph import _cache_file, _is_sound

    cached = _cache_file(graph.digest)
    local = not remote and cached is not None and _is_sound(cached, graph.digest)
    return _Chunk(graph.digest, words.alphabet, None if local else graph.words, min_length,
                  engine, shape, mode, cap)  # fmt: skip

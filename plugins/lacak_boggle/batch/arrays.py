"""The array engines' walks over boards of one shape, and what they give back.

Every engine hands back the same arrays (:class:`_Found`: per word found its
board, rank and path; per board its node counts), and :meth:`_Found.results`
makes the :class:`~lacak_boggle.BoggleResult` objects, whose path tuples are
only made when asked for. The engines are described in :mod:`lacak_boggle.batch`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import attrs
import lacak
import lacak.batch

from .._gc import quiet_gc
from ..board import Board, neighbours
from ..engines import load_compiled
from ..results import BoggleResult, Entries, cells_of, found_result, make_result
from ..walk import walk_fast
from ..wordgraph import WordGraph

#: Boards per numpy pass (bounds the frontier's memory).
CHUNK = 256


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
    import numpy as np  # (deferred: a batch is planned, and a board walked in Python, without numpy)

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
    import numpy as np  # (deferred: a batch is planned, and a board walked in Python, without numpy)

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
        import numpy as np  # (deferred: a batch is planned, and a board walked in Python, without numpy)

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
        import numpy as np  # (deferred: a batch is planned, and a board walked in Python, without numpy)

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
    import numpy as np  # (deferred: a batch is planned, and a board walked in Python, without numpy)

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

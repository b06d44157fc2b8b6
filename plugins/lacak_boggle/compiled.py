"""A compiled Boggle engine: the depth-first walk as machine code, with numba.

This is :func:`lacak_boggle.walk.walk_fast` (the pure-Python walk) written
once more as a numba kernel over many boards at a time. The kernel keeps the
Python walk's order exactly (starting tiles and neighbours in ascending cell
index, an explicit stack holding each level's neighbours still to try), so
the first path found for a word is its lexicographically smallest one, and
it counts nodes the same way (``expanded``, ``generated``, ``deepest``). It
prunes the same way too: a state is only entered when its letter mask shares
a letter with the tiles around it.

The graph as the kernel reads it
    The word graph's dense tables (a row of 33 columns per state for English:
    7.5 MB with the ranks) are packed once per graph into one ``int64`` array
    (:func:`pack_graph`, about 0.8 MB for English, so that it stays in a
    core's L2 cache): per state a header word, the bit mask of the columns
    that have an edge (bit ``col``), followed by one word per edge in column
    order, the rank increment in the high 32 bits and the transition (encoded
    as in the dense table, with offsets into the packed array) in the low 32.
    The edge of column ``col`` is at ``base + 1 + popcount(header & (bit - 1))``.
    Graphs of more than 62 columns (no 64-bit mask holds them) keep their
    dense rows in the same array (``base + col``), with the letter mask as the
    header, exactly as the dense table has it.

Words found
    A board's words are kept in a two-level bit set over the ranks (one bit
    per dictionary word, and one bit per 64-word block that has any): testing
    it says whether a word was found before, and reading it back block by
    block gives the board's words in rank (alphabetical) order without a
    sort. Only the blocks used are cleared for the next board.

What a call gives (:func:`walk`, by ``mode``)
    ``SCORES``: per board the node counts, the number of words and their
    points; ``WORDS``: also each word's rank and the first path of the best
    word (the first of the longest); ``PATHS``: also every word's first path.

Requires the optional extra ``lacak[fast]`` (numba); the rest of the plugin
imports this module lazily, only when the compiled engine is used, through
:func:`lacak_boggle.engines.load_compiled` (which announces the first compile
on a machine and remembers it; :mod:`lacak_boggle.engines` also decides when
``engine="auto"`` uses this walk).

Machine code is cached on disk (``@numba.njit(cache=True)``, next to this file
in ``__pycache__`` or in the folder named by ``NUMBA_CACHE_DIR``): the first
use on a machine compiles one kernel (a few seconds), later processes import
numba in about 0.3 seconds and load the code in about 0.1. :func:`warm` pays
that cost up front (``lacak_boggle.warm()`` announces it).
"""

from __future__ import annotations

import functools
import weakref
from typing import TYPE_CHECKING, NamedTuple

import numba
import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

from .board import neighbours

if TYPE_CHECKING:
    from .wordgraph import WordGraph

__all__ = ["PATHS", "SCORES", "WORDS", "Walk", "pack_graph", "walk", "walk_boards", "warm"]

#: Tiles a board may have: the visited set is one 64-bit mask.
MAX_CELLS = 64
#: What :func:`walk` gives: per board counts and points only ...
SCORES = 0
#: ... and each word's rank, with the best word's first path ...
WORDS = 1
#: ... and every word's first path.
PATHS = 2
#: Most columns a graph may have for the packed layout (a 64-bit mask of them,
#: bit 63 left alone: it is the sign bit, and the letter masks stop at bit 62).
PACKED_COLUMNS = 63

#: Official points by word length in letters (index 8 and up: 11); as :func:`results.score`.
_POINTS = np.array([0, 0, 0, 1, 1, 2, 3, 5, 11], dtype=np.int64)


@intrinsic
def _popcount(typingctx, value):  # pragma: no cover - compiled
    """The number of bits set in an ``int64`` (one instruction)."""

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def _lowest(typingctx, value):  # pragma: no cover - compiled
    """The index of the lowest bit set in a non-zero ``int64`` (one instruction)."""

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


@functools.lru_cache(maxsize=64)
def _neighbour_table(rows: int, cols: int) -> np.ndarray:
    """Each cell's neighbours in ascending order, padded with -1: ``(cells, 8)`` int64."""
    table = np.full((rows * cols, 8), -1, dtype=np.int64)
    for i, around in enumerate(neighbours(rows, cols)):
        table[i, : len(around)] = around
    table.setflags(write=False)
    return table


class Packed(NamedTuple):
    """A graph as the kernel reads it (see the module documentation)."""

    #: headers and edges, ``int64``
    packed: np.ndarray
    #: per column, the bit its edge has in a header (packed: ``1 << col``;
    #: dense rows: its first letter's bit, as in the letter masks)
    probe: np.ndarray
    #: per column, the letters of its symbol (a dice digraph: 2)
    widths: np.ndarray
    #: whether the states are packed (else dense rows of one word per column)
    compact: bool


#: Per graph (by id, with a weak reference to check it is still the same object):
#: its packed form, so that a call looks it up once.
_packed: dict[int, tuple[weakref.ref[WordGraph], Packed]] = {}


def pack_graph(graph: WordGraph) -> Packed:
    """``graph`` in the kernel's layout (made once per graph, then looked up).

    :raises ValueError: a graph too large for 32-bit offsets (no real dictionary).
    """
    key = id(graph)
    hit = _packed.get(key)
    if hit is not None and hit[0]() is graph:
        return hit[1]
    table, ranks = graph.arrays()
    stride = graph.stride
    rows = len(table) // stride
    dense = table.reshape(rows, stride).astype(np.int64)
    rank = ranks.reshape(rows, stride).astype(np.int64)
    widths = np.array([len(symbol) for symbol in graph.columns], dtype=np.int64)
    compact = stride <= PACKED_COLUMNS
    if compact:
        edges = dense[:, 1:] != 0
        degree = edges.sum(axis=1)
        base = np.zeros(rows + 1, dtype=np.int64)
        np.cumsum(1 + degree, out=base[1:])
        size = int(base[-1])
        bits = np.left_shift(np.int64(1), np.arange(1, stride, dtype=np.int64))
        header = (edges * bits).sum(axis=1) if stride > 1 else np.zeros(rows, np.int64)
        # a transition's offset (row * stride) becomes the row's base
        old = dense[:, 1:][edges]
        moved = np.where(old > 0, base[np.maximum(old, 0) // stride], 0)
        final = old < -1
        moved[final] = -2 - base[(-2 - old[final]) // stride]
        moved[old == -1] = -1
        within = np.cumsum(edges, axis=1)[edges]  # 1 + the edges before, in the row
        at = np.repeat(base[:-1], degree) + within
        packed = np.zeros(size, dtype=np.int64)
        packed[base[:-1]] = header
        values, increments = moved, rank[:, 1:][edges]
        probe = np.left_shift(np.int64(1), np.arange(stride, dtype=np.int64))
        probe[0] = 0
    else:
        at = np.arange(rows * stride, dtype=np.int64).reshape(rows, stride)[:, 1:].ravel()
        packed = np.zeros(rows * stride, dtype=np.int64)
        packed[::stride] = dense[:, 0]
        values, increments = dense[:, 1:].ravel(), rank[:, 1:].ravel()
        probe = np.array(graph.first_letters, dtype=np.uint64).view(np.int64)
    if values.size and (values.max() >= 2**31 or values.min() < -(2**31)):
        raise ValueError("the word graph is too large for the compiled walk")
    packed[at] = np.left_shift(increments, 32) | (values & 0xFFFFFFFF)
    for array in (packed, probe, widths):
        array.setflags(write=False)
    found = Packed(packed, probe, widths, compact)
    _packed[key] = (weakref.ref(graph, lambda _ref: _packed.pop(key, None)), found)
    return found


@numba.njit(cache=True, nogil=True)
def _widen(values: np.ndarray, size: int) -> np.ndarray:  # pragma: no cover - compiled
    """A copy of the 2-D ``values`` with ``size`` columns (the new ones undefined)."""
    bigger = np.empty((values.shape[0], size), dtype=np.int64)
    bigger[:, : values.shape[1]] = values
    return bigger


@numba.njit(cache=True, nogil=True)
def _kernel(
    packed, probe, widths, compact, words_total, nbr, columns, min_length, mode
):  # pragma: no cover - compiled
    """Walk every board; see :func:`walk` for the results.

    :returns: ``(words, paths, stats, best)``: ``words`` is ``(3, found)``
        (board, rank, path length per word; empty in ``SCORES`` mode),
        ``paths`` ``(found, width)`` (``PATHS`` mode, else ``(0, 1)``),
        ``stats`` ``(6, boards)`` (expanded, generated, deepest, words,
        points, best word's index among the board's words or -1), ``best``
        ``(boards, cells + 1)``: the best word's first path, its length last.
    """
    boards, cells = columns.shape
    stride = probe.shape[0]
    stats = np.zeros((6, boards), dtype=np.int64)
    best = np.full((boards if mode >= 1 else 0, cells + 1), -1, dtype=np.int64)
    # per word in the output, by columns: board, rank, path length; its path, a column each
    # WORDS: room for 4 words a tile to start with (a 4x4 board has about 60): pages are
    # only taken when written, and growing copies everything found so far. PATHS: the
    # paths (filled with -1, so every page is written) grow with the words, from 256
    capacity = boards * cells * 4 + 256 if mode == 1 else 256 if mode == 2 else 0
    out_words = np.empty((3, capacity), dtype=np.int64)
    out_paths = np.full((256 if mode == 2 else 0, cells), -1, dtype=np.int64)
    count = 0

    # the words found on the current board: a bit per rank, and a bit per 64-rank block
    blocks = (words_total + 63) >> 6
    level0 = np.zeros(blocks, dtype=np.int64)
    level1 = np.zeros((blocks + 63) >> 6, dtype=np.int64)
    # PATHS mode: each word's place among the board's found paths, and those paths
    where = np.empty(words_total if mode == 2 else 0, dtype=np.int32)
    found_paths = np.empty((64 if mode == 2 else 0, cells + 1), dtype=np.int64)

    work = np.empty((8, cells + 1), dtype=np.int64)
    near = work[0]  # per tile: the header bits of the tiles around it
    path = work[1]  # the cells of the path being walked
    # the stack, one level per tile of the path below the top (whose values are in
    # variables): the state's base, the rank so far, its letters, the tiles in
    # use, the state's header, and the neighbours still to try
    st_base = work[2]
    st_rank = work[3]
    st_letters = work[4]
    st_used = work[5]
    st_header = work[6]
    st_todo = work[7]
    # per tile and header bit: the tiles around it whose column has that bit, so that
    # the neighbours a state has an edge to are found a column at a time
    by_bit = np.zeros((cells, 64), dtype=np.int64)
    bit_of = np.empty(stride, dtype=np.int64)  # the index of each column's header bit
    for c in range(stride):
        bit_of[c] = _lowest(probe[c]) if probe[c] != 0 else 0

    root = packed[0] if packed.shape[0] else 0
    for b in range(boards):
        cols = columns[b]
        for i in range(cells):
            if cols[i] < 0 or cols[i] >= stride:
                raise ValueError("a tile's column is not a column of the graph")
        for i in range(cells):
            letters = near[i]
            if b > 0:  # empty what the board before put here
                while letters != 0:
                    by_bit[i, _lowest(letters)] = 0
                    letters &= letters - 1
            letters = 0
            for k in range(8):
                m = nbr[i, k]
                if m < 0:
                    break
                if cols[m] != 0:
                    letters |= probe[cols[m]]
                    by_bit[i, bit_of[cols[m]]] |= np.int64(1) << m
            near[i] = letters
        # the walk, once (PATHS: again, with room for them, when the board has more words
        # than found_paths has rows: it grows here, outside the walk, because an array
        # assigned anew inside the walk's loop costs a reference count update per entry)
        while True:
            expanded = 0
            leaves = 0
            deepest = 0
            words = 0
            score = 0
            best_length = 0
            best_rank = -1
            found = 0
            for start in range(cells):
                col = cols[start]
                if col == 0 or (root & probe[col]) == 0:
                    continue
                if compact:
                    entry = packed[1 + _popcount(root & (probe[col] - 1))]
                else:
                    entry = packed[col]
                if entry == 0:
                    continue
                value = (entry << 32) >> 32
                rank = entry >> 32
                letters = widths[col]
                path[0] = start
                deepest = max(deepest, 1)
                depth = 1  # the length of the path ending at the entry just generated
                cell = start
                # the stack's top level (its entry's path is path[: top + 1]) and its values
                top = -1
                t_base = t_rank = t_letters = t_used = t_header = t_todo = 0
                while True:  # once per generated entry: the start, then each the stack makes
                    if value < 0:  # the path spells a word (of ``letters`` letters)
                        if letters >= min_length:
                            block = rank >> 6
                            bit = np.int64(1) << (rank & 63)
                            had = level0[block]
                            if (had & bit) == 0:  # the first path of this word
                                if had == 0:
                                    level1[block >> 6] |= np.int64(1) << (block & 63)
                                level0[block] = had | bit
                                words += 1
                                score += _POINTS[min(letters, 8)]
                                if mode >= 1 and (
                                    letters > best_length
                                    or (letters == best_length and rank < best_rank)
                                ):
                                    best_length = letters
                                    best_rank = rank
                                    for j in range(depth, best[b, cells]):  # (a longer path before)
                                        best[b, j] = -1
                                    for j in range(depth):
                                        best[b, j] = path[j]
                                    best[b, cells] = depth
                                if mode == 2:
                                    if found < found_paths.shape[0]:  # (else walked again)
                                        where[rank] = found
                                        for j in range(depth):
                                            found_paths[found, j] = path[j]
                                        found_paths[found, cells] = depth
                                    found += 1
                        if value == -1:  # and no word goes on: a leaf
                            leaves += 1
                            value = 0
                        else:
                            value = -2 - value
                    if value > 0:
                        expanded += 1
                        # the tiles around this one whose column the state has an edge
                        # for (or, dense rows, whose letter it has): no children when none
                        header = packed[value]
                        shared = header & near[cell]
                        if shared != 0:
                            used = t_used | (np.int64(1) << cell)
                            todo = 0
                            while shared != 0:
                                todo |= by_bit[cell, _lowest(shared)]
                                shared &= shared - 1
                            todo &= ~used
                            if todo != 0:
                                if top >= 0:  # the top goes down to the stack
                                    st_base[top] = t_base
                                    st_rank[top] = t_rank
                                    st_letters[top] = t_letters
                                    st_used[top] = t_used
                                    st_header[top] = t_header
                                    st_todo[top] = t_todo
                                top = depth - 1
                                t_base = value
                                t_rank = rank
                                t_letters = letters
                                t_used = used
                                t_header = header
                                t_todo = todo
                    # the next entry: the top's lowest free neighbour with an edge
                    while True:
                        if t_todo == 0:
                            if top <= 0:
                                top = -1
                                break
                            top -= 1
                            t_base = st_base[top]
                            t_rank = st_rank[top]
                            t_letters = st_letters[top]
                            t_used = st_used[top]
                            t_header = st_header[top]
                            t_todo = st_todo[top]
                            continue
                        cell = _lowest(t_todo)
                        t_todo &= t_todo - 1
                        col = cols[cell]
                        if compact:
                            entry = packed[t_base + 1 + _popcount(t_header & (probe[col] - 1))]
                        else:
                            entry = packed[t_base + col]
                            if entry == 0:
                                continue
                        value = (entry << 32) >> 32
                        rank = t_rank + (entry >> 32)
                        letters = t_letters + widths[col]
                        depth = top + 2
                        path[top + 1] = cell
                        deepest = max(deepest, depth)
                        break
                    if top < 0:
                        break
            if found <= found_paths.shape[0]:
                break
            found_paths = np.empty((2 * found, cells + 1), dtype=np.int64)
            for upper in range(level1.shape[0]):  # the words found so far forgotten
                high = level1[upper]
                level1[upper] = 0
                while high != 0:
                    level0[(upper << 6) + _lowest(high)] = 0
                    high &= high - 1
            best[b] = -1
        stats[0, b] = expanded + 1  # the root counts too
        stats[1, b] = expanded + leaves
        stats[2, b] = deepest
        stats[3, b] = words
        stats[4, b] = score
        stats[5, b] = -1
        # the board's words in rank order, block by block; the sets emptied on the way
        if mode >= 1 and count + words > out_words.shape[1]:
            size = max(2 * out_words.shape[1], count + words)
            out_words = _widen(out_words, size)
            if mode == 2:
                bigger = np.full((size, cells), -1, dtype=np.int64)
                bigger[:count] = out_paths[:count]
                out_paths = bigger
        first_word = count
        for upper in range(level1.shape[0]):
            high = level1[upper]
            if high == 0:
                continue
            level1[upper] = 0
            while high != 0:
                block = (upper << 6) + _lowest(high)
                high &= high - 1
                low = level0[block]
                level0[block] = 0
                if mode == 0:
                    continue
                while low != 0:
                    rank = (block << 6) + _lowest(low)
                    low &= low - 1
                    out_words[0, count] = b
                    out_words[1, count] = rank
                    if rank == best_rank:
                        stats[5, b] = count - first_word
                    if mode == 2:
                        k = where[rank]
                        depth = found_paths[k, cells]
                        out_words[2, count] = depth
                        for j in range(depth):
                            out_paths[count, j] = found_paths[k, j]
                    else:
                        out_words[2, count] = 0
                    count += 1

    paths = np.full((count if mode == 2 else 0, 1), -1, dtype=np.int64)
    if mode == 2:
        width = 1
        for e in range(count):
            width = max(width, out_words[2, e])
        paths = out_paths[:count, :width].copy()
    # four arrays, not more: boxing each returned array costs a few hundred nanoseconds;
    # the words are a view of what was filled (no copy)
    return out_words[:, :count], paths, stats, best


class Walk(NamedTuple):
    """What :func:`walk` found: numpy ``int64`` arrays."""

    #: per word found, its board, sorted by board then rank (empty in ``SCORES`` mode)
    board: np.ndarray
    #: per word found, its rank (index in ``graph.words``)
    rank: np.ndarray
    #: per word found (``PATHS`` mode), its first path as cell indices, padded with -1
    #: to the longest (at least one column); ``(0, 1)`` in the other modes
    paths: np.ndarray
    #: per word found (``PATHS`` mode), its path's length; zeros in ``WORDS`` mode
    sizes: np.ndarray
    #: per board: nodes expanded (the root included), generated, longest path generated
    expanded: np.ndarray
    generated: np.ndarray
    deepest: np.ndarray
    #: per board: the words found (at least ``min_length`` letters) and their points
    found: np.ndarray
    score: np.ndarray
    #: per board (``WORDS``, ``PATHS``): the best word's index among the board's words, or -1
    best: np.ndarray
    #: per board (``WORDS``, ``PATHS``): the best word's first path, padded with -1
    #: (``(boards, cells)``), and its length (``best_sizes``, 0 for no word)
    best_paths: np.ndarray
    best_sizes: np.ndarray


def walk(
    graph: WordGraph,
    columns: np.ndarray,
    shape: tuple[int, int],
    min_length: int,
    mode: int = PATHS,
) -> Walk:
    """Every word on each board (first path each) and the walk's node counts.

    :param graph: the compiled dictionary.
    :param columns: ``(boards, rows * cols)`` int64 array of each tile's graph
        column (``0`` for a blank); every tile must be one column (a letter or
        a dice digraph), as for ``walk_fast``.
    :param shape: ``(rows, cols)`` of every board.
    :param min_length: words shorter than this (in letters) are left out.
    :param mode: :data:`SCORES`, :data:`WORDS` or :data:`PATHS` (what to give back).
    :returns: the words (sorted by board then rank), their paths as asked for,
        and per board its node counts (exactly as ``walk_fast`` counts them),
        words, points and best word.
    :raises ValueError: a board of more than 64 tiles, ``columns`` of the
        wrong shape, a column the graph does not have, or an unknown mode.
    """
    rows, cols = shape
    cells = rows * cols
    if cells > MAX_CELLS:
        raise ValueError(
            f"the compiled walk takes boards of at most {MAX_CELLS} tiles, not {cells}"
        )
    if columns.ndim != 2 or columns.shape[1] != cells:
        raise ValueError(f"columns must have shape (boards, {cells}), not {columns.shape}")
    if mode not in (SCORES, WORDS, PATHS):
        raise ValueError(f"unknown mode {mode!r}")
    if columns.dtype != np.int64 or not columns.flags.c_contiguous:
        columns = np.ascontiguousarray(columns, dtype=np.int64)
    if not columns.flags.writeable:  # (a read-only array would be compiled for again)
        columns = columns.copy()
    g = pack_graph(graph)
    words, paths, stats, best = _kernel(
        g.packed, g.probe, g.widths, g.compact, len(graph.words),
        _neighbour_table(rows, cols), columns, int(min_length), mode,
    )  # fmt: skip
    if mode == SCORES:
        best_paths = np.zeros((0, cells), dtype=np.int64)
        best_sizes = np.zeros(0, dtype=np.int64)
    else:
        best_paths, best_sizes = best[:, :cells], np.maximum(best[:, cells], 0)
    return Walk(
        words[0], words[1], paths, words[2], stats[0], stats[1], stats[2],
        stats[3], stats[4], stats[5], best_paths, best_sizes,
    )  # fmt: skip


def walk_boards(
    graph: WordGraph, columns: np.ndarray, shape: tuple[int, int], min_length: int
) -> tuple[np.ndarray, ...]:
    """:func:`walk` with every path, as the seven arrays the batch engines share.

    :returns: ``(board, rank, paths, sizes, expanded, generated, deepest)``,
        int64 arrays: per word found, its board, its rank (index in
        ``graph.words``), its path (cell indices, padded with ``-1`` to the
        longest path found, at least one column) and the path's length,
        sorted by board then rank; per board, the nodes expanded (the root
        included) and generated and the longest path generated, exactly as
        ``walk_fast`` counts them.
    :raises ValueError: as :func:`walk`.

    >>> import lacak
    >>> from lacak_boggle.wordgraph import compile_words
    >>> graph = compile_words(["ACT", "AT", "CAT", "TA"], "ACTX")
    >>> cols = np.array([[graph.column(t) for t in "CATX"]])
    >>> board, rank, paths, sizes, expanded, generated, deepest = walk_boards(
    ...     graph, cols, (2, 2), 2)
    >>> [graph.words[r] for r in rank.tolist()], paths.tolist()
    (['ACT', 'AT', 'CAT', 'TA'], [[1, 0, 2], [1, 2, -1], [0, 1, 2], [2, 1, -1]])
    """
    found = walk(graph, columns, shape, min_length, PATHS)
    return found[:7]


def warm() -> None:
    """Compile (or load from the cache) the kernel, on a tiny board."""
    from .wordgraph import compile_words

    graph = compile_words(["AB", "BA"], "AB")
    cols = np.array([[graph.column("A"), graph.column("B")]], dtype=np.int64)
    walk(graph, cols, (1, 2), 1, PATHS)

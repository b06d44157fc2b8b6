"""A compiled Boggle engine: the depth-first walk as machine code, with numba.

This is :func:`lacak_boggle.walk.walk_fast` (the pure-Python walk) written
once more as a numba kernel over many boards at a time. The kernel keeps the
Python walk's order exactly (starting tiles and neighbours in ascending cell
index, an explicit stack holding each level's next neighbour to try), so the
first path found for a word is its lexicographically smallest one, and it
counts nodes the same way (``expanded``, ``generated``, ``deepest``). It
prunes the same way too: a state is only entered when its column-0 letter mask
shares a letter with the tiles around it. Words already found on the board are
skipped with a small open-addressing set of ranks, so nothing proportional to
the dictionary is allocated per call; each board's words are sorted by rank
before the next board starts.

Requires the optional extra ``lacak[fast]`` (numba); the rest of the plugin
imports this module lazily, only when the compiled engine is used, through
:func:`lacak_boggle.engines.load_compiled` (which announces the first compile
on a machine and remembers it; :mod:`lacak_boggle.engines` also decides when
``engine="auto"`` uses this walk).

Machine code is cached on disk (``@numba.njit(cache=True)``, next to this file
in ``__pycache__`` or in the folder named by ``NUMBA_CACHE_DIR``): the first
use on a machine compiles for about 6 seconds (2 more for the second table
type: one kernel is compiled per ``int32`` or ``int64`` transition table),
later processes import numba in about 0.3 seconds and load the code in about
0.15. :func:`warm` pays that cost up front (``lacak_boggle.warm()`` announces it).

Measured with English (``eng``), CPU time, best of 5, on a shared 2-core AMD
EPYC, against ``walk_fast`` on the same boards:

=============================  =============  ==============  ========
boards                         compiled       ``walk_fast``   speed-up
=============================  =============  ==============  ========
200 4x4 (1987 dice), one call  21 us a board  200 us          9.5x
the same, one board per call   27 us a board  200 us          7.3x
50 5x5 (Big Boggle), one call  60 us a board  520 us          8.7x
=============================  =============  ==============  ========

A call costs about 4 microseconds besides the walk (1.6 in Python: checks and
cached look-ups; 2.5 in the kernel call: numba's dispatch, the buffers, boxing
three result arrays). The walk is bound by memory more than by instructions:
a 4x4 board generates about 350 nodes, each a jump to a random row of the
3 MB transition table and the 3 MB rank table, so the same board walked 200
times over takes about 5 microseconds a walk. A layout with each transition
and its rank side by side in one int64 measured about 17% faster, at the cost
of a second, 6 MB copy of the graph; it is not used.
"""

from __future__ import annotations

import functools
import weakref
from typing import TYPE_CHECKING

import numba
import numpy as np

from .board import neighbours

if TYPE_CHECKING:
    from .wordgraph import WordGraph

__all__ = ["walk_boards", "warm"]

#: Tiles a board may have: the visited set is one 64-bit mask.
MAX_CELLS = 64

#: ``1 << cell`` as int64 (cell 63 is the sign bit).
_BITS = np.left_shift(np.int64(1), np.arange(MAX_CELLS, dtype=np.int64))
#: The index of a lone bit ``b``: ``_LOWEST[(b * _DE_BRUIJN) >> 58 & 63]`` (a de Bruijn
#: sequence makes the product's top six bits distinct for each of the 64 bits).
_DE_BRUIJN = 0x03F79D71B4CB0A89
_LOWEST = np.zeros(MAX_CELLS, dtype=np.int64)
for _i in range(MAX_CELLS):
    _LOWEST[((_DE_BRUIJN << _i) % 2**64) >> 58] = _i
del _i
#: Fibonacci hashing's multiplier (2**64 / golden ratio) for the set of ranks found.
_HASH = 0x9E3779B97F4A7C15 - 2**64


@functools.lru_cache(maxsize=64)
def _neighbour_table(rows: int, cols: int) -> np.ndarray:
    """Each cell's neighbours in ascending order, padded with -1: ``(cells, 8)`` int64."""
    table = np.full((rows * cols, 8), -1, dtype=np.int64)
    for i, around in enumerate(neighbours(rows, cols)):
        table[i, : len(around)] = around
    table.setflags(write=False)
    return table


#: Per graph (by id, with a weak reference to check it is still the same object):
#: the arrays the kernel takes, so that a call looks them up once.
_arrays: dict[int, tuple[weakref.ref[WordGraph], tuple[np.ndarray, ...]]] = {}


def _graph_arrays(graph: WordGraph) -> tuple[np.ndarray, ...]:
    """``(transitions, ranks, lengths, first letters)`` of ``graph`` as numpy arrays.

    The first-letter bits are int64 (bit 63 wraps to the sign bit).
    """
    key = id(graph)
    hit = _arrays.get(key)
    if hit is not None and hit[0]() is graph:
        return hit[1]
    table, ranks = graph.arrays()
    first = np.array(graph.first_letters, dtype=np.uint64).view(np.int64)
    first.setflags(write=False)
    arrays = (table, ranks, graph.lengths(), first)
    _arrays[key] = (weakref.ref(graph, lambda _ref: _arrays.pop(key, None)), arrays)
    return arrays


@numba.njit(cache=True, nogil=True)
def _widen(values: np.ndarray, size: int) -> np.ndarray:  # pragma: no cover - compiled
    """A copy of the 2-D ``values`` with ``size`` columns (the new ones undefined)."""
    bigger = np.empty((values.shape[0], size), dtype=np.int64)
    bigger[:, : values.shape[1]] = values
    return bigger


@numba.njit(cache=True, nogil=True)
def _kernel(table, ranks, lengths, first, nbr, bits, columns, min_length):  # pragma: no cover
    """Walk every board; see :func:`walk_boards` for the results.

    :returns: ``(words, paths, stats)``: ``words`` is ``(3, found)`` (board,
        rank, path length per word), ``paths`` ``(found, width)``, ``stats``
        ``(3, boards)`` (expanded, generated, deepest).
    """
    boards, cells = columns.shape
    stats = np.zeros((3, boards), dtype=np.int64)
    # per word found, by columns: board, rank, path length; and its path, one per column
    found_words = np.empty((3, 256), dtype=np.int64)
    found_paths = np.empty((cells, 256), dtype=np.int64)
    count = 0

    # the ranks found on the current board: open addressing, linear probing, -1 free
    slots = 64
    seen = np.full(slots, -1, dtype=np.int64)
    mask = slots - 1
    stored = 0

    work = np.empty((8, cells + 1), dtype=np.int64)
    near = work[0]  # per tile: the letters around it
    around = work[1]  # per tile: the non-blank tiles around it (a bit each)
    path = work[2]  # the cells of the path being walked
    # the stack, one level per tile of the path: the graph state, the rank so far,
    # the tiles in use, the state's letters, and the neighbours still to try
    st_offset = work[3]
    st_rank = work[4]
    st_used = work[5]
    st_letters = work[6]
    st_todo = work[7]

    stride = first.shape[0]
    for b in range(boards):
        cols = columns[b]
        for i in range(cells):
            if cols[i] < 0 or cols[i] >= stride:
                raise ValueError("a tile's column is not a column of the graph")
        for i in range(cells):
            letters = 0
            tiles = 0
            for k in range(8):
                m = nbr[i, k]
                if m < 0:
                    break
                if cols[m] != 0:
                    letters |= first[cols[m]]  # a digraph by its first letter
                    tiles |= bits[m]
            near[i] = letters
            around[i] = tiles
        begin = count
        expanded = 0
        leaves = 0
        deepest = 0
        for start in range(cells):
            col = cols[start]
            if col == 0:
                continue
            value = np.int64(table[col])
            if value == 0:
                continue
            rank = np.int64(ranks[col])
            path[0] = start
            deepest = max(deepest, 1)
            depth = 1  # the length of the path ending at the entry just generated
            top = -1  # the stack's top level (its entry's path is path[: top + 1])
            while True:  # once per generated entry: the start, then each the stack makes
                if value < 0:  # the path spells a word
                    if lengths[rank] >= min_length:
                        h = ((rank * _HASH) >> 32) & mask
                        while seen[h] != -1 and seen[h] != rank:
                            h = (h + 1) & mask
                        if seen[h] == -1:  # the first path of this word
                            seen[h] = rank
                            stored += 1
                            if count == found_words.shape[1]:
                                found_words = _widen(found_words, 2 * count)
                                found_paths = _widen(found_paths, 2 * count)
                            found_words[0, count] = b
                            found_words[1, count] = rank
                            found_words[2, count] = depth
                            for j in range(depth):
                                found_paths[j, count] = path[j]
                            count += 1
                            if 2 * stored > slots:  # keep the set at most half full
                                slots *= 2
                                mask = slots - 1
                                seen = np.full(slots, -1, dtype=np.int64)
                                for e in range(begin, count):
                                    r = found_words[1, e]
                                    h = ((r * _HASH) >> 32) & mask
                                    while seen[h] != -1:
                                        h = (h + 1) & mask
                                    seen[h] = r
                    if value == -1:  # and no word goes on: a leaf
                        leaves += 1
                        value = 0
                    else:
                        value = -2 - value
                if value > 0:
                    expanded += 1
                    # a start is always walked; deeper states only when a letter
                    # around the tile continues them (else: expanded, no children)
                    cell = path[depth - 1]
                    state_letters = np.int64(table[value])
                    if depth == 1 or (state_letters & near[cell]) != 0:
                        used = (st_used[top] if top >= 0 else 0) | bits[cell]
                        top = depth - 1
                        st_offset[top] = value
                        st_rank[top] = rank
                        st_used[top] = used
                        st_letters[top] = state_letters
                        st_todo[top] = around[cell] & ~used
                # the next entry: the top's lowest free neighbour with an edge
                value = 0
                while top >= 0:
                    todo = st_todo[top]
                    if todo == 0:
                        top -= 1
                        continue
                    low = todo & -todo
                    st_todo[top] = todo ^ low
                    m = _LOWEST[((low * _DE_BRUIJN) >> 58) & 63]
                    col = cols[m]
                    # the state's letter mask rules most letters out without
                    # reading their column
                    if (st_letters[top] & first[col]) == 0:
                        continue
                    offset = st_offset[top] + col
                    value = np.int64(table[offset])
                    if value == 0:
                        continue
                    rank = st_rank[top] + ranks[offset]
                    depth = top + 2
                    path[top + 1] = m
                    deepest = max(deepest, depth)
                    break
                if value == 0:
                    break
        stats[0, b] = expanded + 1  # the root counts too
        stats[1, b] = expanded + leaves
        stats[2, b] = deepest
        # empty the set (in reverse insertion order, so every probe still finds
        # its key), then sort the board's words by rank
        for e in range(count - 1, begin - 1, -1):
            r = found_words[1, e]
            h = ((r * _HASH) >> 32) & mask
            while seen[h] != r:
                h = (h + 1) & mask
            seen[h] = -1
        stored = 0
        if count - begin > 1:
            order = np.argsort(found_words[1, begin:count]) + begin
            words_block = found_words[:, order]
            paths_block = found_paths[:, order]
            found_words[:, begin:count] = words_block
            found_paths[:, begin:count] = paths_block

    width = 1
    for e in range(count):
        width = max(width, found_words[2, e])
    paths = np.full((count, width), -1, dtype=np.int64)
    for e in range(count):
        for j in range(found_words[2, e]):
            paths[e, j] = found_paths[j, e]
    # three arrays, not seven: boxing each returned array costs a few hundred nanoseconds
    return found_words[:, :count].copy(), paths, stats


def walk_boards(
    graph: WordGraph, columns: np.ndarray, shape: tuple[int, int], min_length: int
) -> tuple[np.ndarray, ...]:
    """Every word on each board (first path each) and the walk's node counts.

    :param graph: the compiled dictionary.
    :param columns: ``(boards, rows * cols)`` int64 array of each tile's graph
        column (``0`` for a blank); every tile must be one column (a letter or
        a dice digraph), as for ``walk_fast``.
    :param shape: ``(rows, cols)`` of every board.
    :param min_length: words shorter than this (in letters) are left out.
    :returns: ``(board, rank, paths, sizes, expanded, generated, deepest)``,
        int64 arrays: per word found, its board, its rank (index in
        ``graph.words``), its path (cell indices, padded with ``-1`` to the
        longest path found, at least one column) and the path's length,
        sorted by board then rank; per board, the nodes expanded (the root
        included) and generated and the longest path generated, exactly as
        ``walk_fast`` counts them.
    :raises ValueError: a board of more than 64 tiles, ``columns`` of the
        wrong shape, or a column the graph does not have.

    >>> import lacak
    >>> from lacak_boggle.wordgraph import compile_words
    >>> graph = compile_words(["ACT", "AT", "CAT", "TA"], "ACTX")
    >>> cols = np.array([[graph.column(t) for t in "CATX"]])
    >>> board, rank, paths, sizes, expanded, generated, deepest = walk_boards(
    ...     graph, cols, (2, 2), 2)
    >>> [graph.words[r] for r in rank.tolist()], paths.tolist()
    (['ACT', 'AT', 'CAT', 'TA'], [[1, 0, 2], [1, 2, -1], [0, 1, 2], [2, 1, -1]])
    """
    rows, cols = shape
    cells = rows * cols
    if cells > MAX_CELLS:
        raise ValueError(
            f"the compiled walk takes boards of at most {MAX_CELLS} tiles, not {cells}"
        )
    if columns.ndim != 2 or columns.shape[1] != cells:
        raise ValueError(f"columns must have shape (boards, {cells}), not {columns.shape}")
    if columns.dtype != np.int64 or not columns.flags.c_contiguous:
        columns = np.ascontiguousarray(columns, dtype=np.int64)
    table, ranks, lengths, first = _graph_arrays(graph)
    words, paths, stats = _kernel(
        table, ranks, lengths, first, _neighbour_table(rows, cols), _BITS, columns, int(min_length)
    )
    return words[0], words[1], paths, words[2], stats[0], stats[1], stats[2]


def warm() -> None:
    """Compile (or load from the cache) the kernel for both table types, on a tiny board."""
    from .wordgraph import compile_words

    graph = compile_words(["AB", "BA"], "AB")
    cols = np.array([[graph.column("A"), graph.column("B")]], dtype=np.int64)
    walk_boards(graph, cols, (1, 2), 1)
    table, ranks, lengths, first = _graph_arrays(graph)
    _kernel(table.astype(np.int64), ranks, lengths, first, _neighbour_table(1, 2), _BITS, cols, 1)

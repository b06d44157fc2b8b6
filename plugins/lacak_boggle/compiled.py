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
    7.5 MB with the ranks) are packed once per graph (:func:`pack_graph`) into
    two ``int32`` arrays of the same length, ``links`` (0.4 MB for English, so
    that the walk's chain of loads stays in a core's L2 cache) and ``incs``:
    per state a header, the bit mask of the columns that have an edge (bit
    ``col - 1``; one word, or two, low half first, for graphs of more than 33
    columns), followed by one word per edge in column order, the transition
    (encoded as in the dense table, with offsets into ``links``) in ``links``
    and the rank increment in ``incs``. The edge of column ``col`` is at
    ``base + header words + popcount(header & (bit - 1))``. Graphs of more
    than 63 columns (no 64-bit mask holds them) keep their dense rows in the
    same arrays (column ``col`` at ``base + 2 + col - 1``), with the letter
    mask as the two-word header, exactly as the dense table has it.

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

Machine code is kept on disk in lacak's cache folder (``engines/`` of
:func:`lacak.store.paths.cache_dir`, whatever ``NUMBA_CACHE_DIR`` says), checked
before numba loads it (:func:`lacak.store.compiled.cache_kernels`, called at the end
of this module): the first use on a machine compiles one kernel (a few
seconds), later processes import numba in about 0.3 seconds and load the code
in about 0.1. :func:`warm` pays that cost up front (``lacak_boggle.warm()``
announces it).
"""

from __future__ import annotations

import functools
import weakref
from typing import TYPE_CHECKING, NamedTuple

import lacak
import numba
import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

from .board import neighbours
from .wordgraph import compile_words

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


#: An array index the kernel knows is not negative: numba adds the length to a negative
#: signed index (a few instructions and a register at every access), not to an unsigned
#: one; about 3% of the walk's time.
_ix = np.uint64


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

    #: headers and transitions, ``int32``
    links: np.ndarray
    #: the rank increment of each edge, at its transition's index (``int32``)
    incs: np.ndarray
    #: per column, the bit its edge has in a header (packed: ``1 << (col - 1)``;
    #: dense rows: its first letter's bit, as in the letter masks)
    probe: np.ndarray
    #: per column, the letters of its symbol (a dice digraph: 2)
    widths: np.ndarray
    #: whether the states are packed (else dense rows of one word per column)
    compact: bool
    #: the words of a header (1 or 2)
    header_words: int


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
    if compact:  # the edges a state has, behind a mask of them
        hw = 1 if stride <= 33 else 2
        edges = dense[:, 1:] != 0
        bits = np.left_shift(np.int64(1), np.arange(stride - 1, dtype=np.int64))
        header = (edges * bits).sum(axis=1) if stride > 1 else np.zeros(rows, np.int64)
        probe = np.concatenate([[0], bits])
    else:  # every column, behind the letter mask
        hw = 2
        edges = np.ones((rows, stride - 1), dtype=bool)
        header = dense[:, 0]
        probe = np.array(graph.first_letters, dtype=np.uint64).view(np.int64)
    degree = edges.sum(axis=1)
    base = np.zeros(rows + 1, dtype=np.int64)
    np.cumsum(hw + degree, out=base[1:])
    if base[-1] >= 2**31:
        raise ValueError("the word graph is too large for the compiled walk")
    # a transition's offset (row * stride) becomes the row's base
    old = dense[:, 1:][edges]
    moved = np.where(old > 0, base[np.maximum(old, 0) // stride], old)
    final = old < -1
    moved[final] = -2 - base[(-2 - old[final]) // stride]
    within = np.cumsum(edges, axis=1)[edges] - 1  # the edges before, in the row
    at = np.repeat(base[:-1] + hw, degree) + within
    links = np.zeros(int(base[-1]), dtype=np.int64)
    links[base[:-1]] = header & 0xFFFFFFFF
    if hw == 2:
        links[base[:-1] + 1] = (header >> 32) & 0xFFFFFFFF
    links[at] = moved & 0xFFFFFFFF
    incs = np.zeros(len(links), dtype=np.int32)
    incs[at] = rank[:, 1:][edges]
    links = links.astype(np.uint32).view(np.int32)
    for array in (links, incs, probe, widths):
        array.setflags(write=False)
    found = Packed(links, incs, probe, widths, compact, hw)
    _packed[key] = (weakref.ref(graph, lambda _ref: _packed.pop(key, None)), found)
    return found


@numba.njit(nogil=True)
def _widen(values: np.ndarray, size: int) -> np.ndarray:  # pragma: no cover - compiled
    """A copy of the 2-D ``values`` with ``size`` columns (the new ones undefined)."""
    bigger = np.empty((values.shape[0], size), dtype=np.int64)
    bigger[:, : values.shape[1]] = values
    return bigger


@numba.njit(nogil=True)
def _kernel(
    links, incs, probe, widths, compact, hw, words_total, nbr, columns, min_length, mode, cap
):  # pragma: no cover - compiled
    """Walk every board; see :func:`walk` for the results.

    :returns: ``(words, paths, stats, best)``: ``words`` is ``(3, found)``
        (board, rank, path length per word; empty in ``SCORES`` mode),
        ``paths`` ``(found, width)`` (``PATHS`` mode, else ``(0, 1)``),
        ``stats`` ``(7, boards)`` (expanded, generated, deepest, words,
        points, best word's index among the board's words or -1, 1 when the
        walk stopped at ``cap`` nodes expanded), ``best``
        ``(boards, cells + 1)``: the best word's first path, its length last.
    """
    # (``_ix(i)``: an index known not to be negative, in the walk's loop)
    boards, cells = columns.shape
    stride = probe.shape[0]
    stats = np.zeros((7, boards), dtype=np.int64)
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
    # PATHS mode: each word's place among the board's found paths, and those paths (a
    # row a word of the dictionary, a byte a cell: no board finds more, so the array
    # never grows inside the walk, where an array assigned anew would cost a reference
    # count update per entry; pages are only taken when written)
    where = np.empty(words_total if mode == 2 else 0, dtype=np.int32)
    found_paths = np.empty((words_total if mode == 2 else 0, cells + 1), dtype=np.int8)

    work = np.empty((9, cells + 1), dtype=np.int64)
    path = work[0]  # the cells of the path being walked
    # the stack, by the index in the path of the tile whose neighbours are tried (the
    # deepest level's values are in variables too): the state's base, the rank so
    # far, its letters, the tiles in use (its own and the blanks included), the
    # state's header, and the neighbours still to try
    st_base = work[1]
    st_rank = work[2]
    st_letters = work[3]
    st_used = work[4]
    st_header = work[5]
    st_todo = work[6]
    # per tile of the board: what finds its edge in a state (packed: the header bits
    # of the columns before its own; dense rows: its column - 1), and its letters
    tile_key = work[7]
    tile_width = work[8]
    # per tile and neighbour (8 slots): the header bit of the neighbour's column (63
    # for a blank or an unused slot) and the neighbour's cell (the tile itself in an
    # unused slot: it is always in use); the neighbours a state has an edge to come
    # from 8 shifts, without a branch
    slot_bit = np.empty((cells, 8), dtype=np.int64)
    slot_cell = np.empty((cells, 8), dtype=np.int64)
    for i in range(cells):
        for k in range(8):
            m = nbr[i, k]
            slot_cell[i, k] = m if m >= 0 else i
    bit_of = np.empty(stride, dtype=np.int64)  # the index of each column's header bit
    for c in range(stride):
        bit_of[c] = _lowest(probe[c]) if probe[c] != 0 else 63
    bit_of[0] = 63

    root = np.int64(0)  # the root's header
    if links.shape[0]:
        root = np.int64(links[0]) & 0xFFFFFFFF
        if hw == 2:
            root |= np.int64(links[1]) << 32
    for b in range(boards):
        cols = columns[b]
        # blanks count as used from the start (bit 63 is set in the headers of dense
        # rows whose letters are past bit 62, so a blank's slot bit may be set)
        blanks = np.int64(0)
        for i in range(cells):
            c = cols[i]
            if c == 0:
                blanks |= np.int64(1) << i
            if c < 0 or c >= stride:
                raise ValueError("a tile's column is not a column of the graph")
            tile_key[i] = probe[c] - 1 if compact else c - 1
            tile_width[i] = widths[c]
        for i in range(cells):
            for k in range(8):
                m = nbr[i, k]
                slot_bit[i, k] = bit_of[cols[m]] if m >= 0 else 63
        expanded = 0
        leaves = 0
        deepest = 0
        words = 0
        score = 0
        best_length = 0
        best_rank = -1
        found = 0
        over = False  # the walk reached ``cap`` nodes expanded
        for start in range(cells):
            if over:
                break
            col = cols[start]
            if col == 0 or (root & probe[col]) == 0:
                continue
            if compact:
                at = hw + _popcount(root & (probe[col] - 1))
            else:
                at = hw + col - 1
            value = np.int64(links[at])
            if value == 0:
                continue
            rank = np.int64(incs[at])
            letters = widths[col]
            path[0] = start
            deepest = max(deepest, 1)
            d = 0  # the entry just generated ends the path path[: d + 1]
            cell = start
            used = blanks  # the tiles of path[:d], and the blanks
            # the values of the deepest level of the stack
            base = header = rank_before = letters_before = np.int64(0)
            while True:  # once per generated entry: the start, then each the stack makes
                if value < 0:  # the path spells a word (of ``letters`` letters)
                    if letters >= min_length:
                        block = rank >> 6
                        bit = np.int64(1) << (rank & 63)
                        had = level0[_ix(block)]
                        if (had & bit) == 0:  # the first path of this word
                            if had == 0:
                                level1[block >> 6] |= np.int64(1) << (block & 63)
                            level0[_ix(block)] = had | bit
                            words += 1
                            score += _POINTS[min(letters, 8)]
                            if mode >= 1 and (
                                letters > best_length
                                or (letters == best_length and rank < best_rank)
                            ):
                                best_length = letters
                                best_rank = rank
                                for j in range(d + 1, best[b, cells]):  # (a longer one)
                                    best[b, j] = -1
                                for j in range(d + 1):
                                    best[b, j] = path[j]
                                best[b, cells] = d + 1
                            if mode == 2:
                                where[rank] = found
                                for j in range(d + 1):
                                    found_paths[found, j] = path[j]
                                found_paths[found, cells] = d + 1
                                found += 1
                    if value == -1:  # and no word goes on: a leaf
                        leaves += 1
                    value = -2 - value
                todo = np.int64(0)
                if value > 0:
                    expanded += 1
                    if expanded == cap:  # a board too long to walk here (cap 0: no end)
                        over = True
                        break
                    # the free tiles around this one whose column the state has an
                    # edge for (or, dense rows, whose first letter it has)
                    mask = np.int64(links[_ix(value)]) & 0xFFFFFFFF
                    if hw == 2:
                        mask |= np.int64(links[value + 1]) << 32
                    for k in range(8):
                        todo |= ((mask >> slot_bit[_ix(cell), k]) & 1) << slot_cell[_ix(cell), k]
                    mine = used | (np.int64(1) << cell)
                    todo &= ~mine
                    if todo != 0:  # the deepest level of the stack
                        st_base[_ix(d)] = base = value
                        st_header[_ix(d)] = header = mask
                        st_rank[_ix(d)] = rank_before = rank
                        st_letters[_ix(d)] = letters_before = letters
                        st_used[_ix(d)] = used = mine
                # the next entry: the deepest level's lowest free neighbour with an edge
                level = d
                while True:
                    if todo == 0:  # back to the deepest level with neighbours left
                        level -= 1
                        while level >= 0:
                            todo = st_todo[_ix(level)]
                            if todo != 0:
                                break
                            level -= 1
                        if level < 0:
                            break
                        base = st_base[_ix(level)]
                        header = st_header[_ix(level)]
                        rank_before = st_rank[_ix(level)]
                        letters_before = st_letters[_ix(level)]
                        used = st_used[_ix(level)]
                    cell = _lowest(todo)
                    todo &= todo - 1
                    if compact:
                        at = base + hw + _popcount(header & tile_key[_ix(cell)])
                    else:
                        at = base + hw + tile_key[_ix(cell)]
                    value = np.int64(links[_ix(at)])
                    if compact or value != 0:
                        break
                if level < 0:
                    break
                st_todo[_ix(level)] = todo
                d = level + 1
                path[_ix(d)] = cell
                rank = rank_before + incs[_ix(at)]
                letters = letters_before + tile_width[_ix(cell)]
                deepest = max(deepest, d + 1)
        stats[0, b] = expanded + 1  # the root counts too
        stats[1, b] = expanded + leaves
        stats[2, b] = deepest
        stats[3, b] = words
        stats[4, b] = score
        stats[5, b] = -1
        stats[6, b] = over
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
    #: per board, whether its walk stopped at ``max_expanded`` nodes (what it found
    #: is then a part of its words)
    over: np.ndarray


def walk(
    graph: WordGraph,
    columns: np.ndarray,
    shape: tuple[int, int],
    min_length: int,
    mode: int = PATHS,
    max_expanded: int = 0,
) -> Walk:
    """Every word on each board (first path each) and the walk's node counts.

    :param graph: the compiled dictionary.
    :param columns: ``(boards, rows * cols)`` int64 array of each tile's graph
        column (``0`` for a blank); every tile must be one column (a letter or
        a dice digraph), as for ``walk_fast``.
    :param shape: ``(rows, cols)`` of every board.
    :param min_length: words shorter than this (in letters) are left out.
    :param mode: :data:`SCORES`, :data:`WORDS` or :data:`PATHS` (what to give back).
    :param max_expanded: stop a board's walk once it has expanded this many nodes
        (the root not counted; 0: no limit), and say so in :attr:`Walk.over`.
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
        g.links, g.incs, g.probe, g.widths, g.compact, g.header_words, len(graph.words),
        _neighbour_table(rows, cols), columns, int(min_length), mode, int(max_expanded),
    )  # fmt: skip
    if mode == SCORES:
        best_paths = np.zeros((0, cells), dtype=np.int64)
        best_sizes = np.zeros(0, dtype=np.int64)
    else:
        best_paths, best_sizes = best[:, :cells], np.maximum(best[:, cells], 0)
    return Walk(
        words[0], words[1], paths, words[2], stats[0], stats[1], stats[2],
        stats[3], stats[4], stats[5], best_paths, best_sizes, stats[6] != 0,
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
    graph = compile_words(["AB", "BA"], "AB")
    cols = np.array([[graph.column("A"), graph.column("B")]], dtype=np.int64)
    walk(graph, cols, (1, 2), 1, PATHS)


lacak.store.compiled.cache_kernels(globals())  # machine code in lacak's checked cache

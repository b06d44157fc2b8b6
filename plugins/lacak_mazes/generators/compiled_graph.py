"""The generators that walk a graph, on any grid, as machine code with numba (``lacak[fast]``).

Each kernel here is the pure-Python loop of its generator in
:mod:`lacak_mazes.generators.graph` written once more, statement for
statement, on the grid's flat neighbours (:attr:`lacak_mazes.grids.Grid.flat`:
cell ``c``'s neighbours are ``targets[offsets[c]:offsets[c + 1]]``, in the
order ``Grid.neighbours`` lists them) and the same random numbers, so that a
seed gives the same maze, byte for byte, with either engine (the tests compare
them over many seeds, sizes and every grid):

- :func:`growing_tree` -- the growing tree of every policy (``newest`` is the
  recursive backtracker);
- :func:`hunt_and_kill` -- the walk and its hunts in any scan order, with
  ``hunt_chance``;
- :func:`wilson`, :func:`aldous_broder` -- the uniform spanning trees' walks;
- :func:`kruskal` (the one that is not its loop: the same shuffle, then Borůvka
  rounds, which find the same tree, its links sorted into Kruskal's order),
  :func:`prim` (its heap split into buckets by weight, :func:`prim_tree`, which
  pops what the one heap pops), :func:`prim_frontier`;
- :func:`reached` -- how many cells cell 0 reaches (:func:`.graph.check_connected`).

Random numbers: the Python generators draw floats from
:class:`._common.Rng`'s stream (:class:`.graph._Random`), one raw PCG64 number
a float, top 53 bits times ``2**-53``, and ``pick(n)`` is ``int(float * n)``.
The kernels start from the same bit generator's state, as four 64-bit words
(:meth:`._common.Rng.words`), and step it as numpy's PCG64 does (a 128-bit LCG
step, then the XSL-RR output), so they draw the very same floats in the same
order; every float a Python generator draws, its kernel draws at the same
place. Each kernel returns the links, an ``n x 2`` array, in the order made.

Loaded through :data:`lacak_mazes.generators.engine.GRAPH_ENGINE`, which
decides when to use it (``LACAK_MAZE_ENGINE``, as for the rectangle's
kernels); its machine code is kept in lacak's checked cache.
"""

from __future__ import annotations

import lacak
import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from ._pcg import next_float as _chance  # (graph._Random.chance)

__all__ = [
    "aldous_broder",
    "growing_tree",
    "hunt_and_kill",
    "kruskal",
    "prim",
    "prim_frontier",
    "prim_tree",
    "reached",
    "warm",
    "wilson",
]

_S58 = np.uint64(58)
_ONE = np.uint64(1)
#: The growing tree's policies, by number.
POLICIES = {"newest": 0, "oldest": 1, "random": 2, "mix": 3}


@numba.njit(inline="always")
def _pick(words: np.ndarray, n: int) -> np.int64:  # pragma: no cover - machine code
    """:meth:`.graph._Random.pick`: ``int(chance * n)``."""
    return np.int64(_chance(words) * n)


@numba.njit(inline="always")
def _shuffle(words: np.ndarray, items: np.ndarray) -> None:  # pragma: no cover
    """:meth:`.graph._Random.shuffle`: Fisher-Yates, in place."""
    for i in range(len(items) - 1, 0, -1):
        j = _pick(words, i + 1)
        items[i], items[j] = items[j], items[i]


@numba.njit(inline="always")
def _shuffle_ahead(words: np.ndarray, items: np.ndarray) -> None:  # pragma: no cover
    """:func:`_shuffle`, the same swaps, but 256 picks drawn before their swaps: the
    swaps' cache misses then overlap, no longer each waiting on the random number
    generator (a third less time for tens of millions of items)."""
    picks = np.empty(256, dtype=np.int64)
    i = len(items) - 1
    while i > 0:
        n = min(256, i)
        for t in range(n):
            picks[t] = _pick(words, i - t + 1)
        for t in range(n):
            j = picks[t]
            items[i - t], items[j] = items[j], items[i - t]
        i -= n


@numba.njit(inline="always")
def _most(offsets: np.ndarray) -> int:  # pragma: no cover - machine code
    """The most neighbours a cell has."""
    most = 0
    for c in range(len(offsets) - 1):
        most = max(most, offsets[c + 1] - offsets[c])
    return most


@numba.njit(cache=False)
def reached(offsets, targets):  # pragma: no cover - machine code
    """How many cells cell 0 reaches."""
    size = len(offsets) - 1
    seen = np.zeros(size, dtype=np.bool_)
    stack = np.empty(size, dtype=np.int64)
    seen[0] = True
    stack[0] = 0
    top = 1
    count = 1
    while top:
        top -= 1
        here = stack[top]
        for p in range(offsets[here], offsets[here + 1]):
            there = targets[p]
            if not seen[there]:
                seen[there] = True
                count += 1
                stack[top] = there
                top += 1
    return count


@numba.njit(cache=False)
def aldous_broder(offsets, targets, words):  # pragma: no cover - machine code
    """:func:`.graph.aldous_broder`."""
    size = len(offsets) - 1
    links = np.empty((size - 1, 2), dtype=np.int64)
    here = _pick(words, size)
    visited = np.zeros(size, dtype=np.bool_)
    visited[here] = True
    left = size - 1
    made = 0
    while left:
        start = offsets[here]
        there = targets[start + _pick(words, offsets[here + 1] - start)]
        if not visited[there]:
            visited[there] = True
            links[made, 0] = here
            links[made, 1] = there
            made += 1
            left -= 1
        here = there
    return links


@numba.njit(cache=False)
def wilson(offsets, targets, words):  # pragma: no cover - machine code
    """:func:`.graph.wilson`."""
    size = len(offsets) - 1
    links = np.empty((size - 1, 2), dtype=np.int64)
    in_tree = np.zeros(size, dtype=np.bool_)
    in_tree[_pick(words, size)] = True
    exit_ = np.full(size, -1, dtype=np.int64)
    made = 0
    for start in range(size):
        here = start
        while not in_tree[here]:
            first = offsets[here]
            exit_[here] = targets[first + _pick(words, offsets[here + 1] - first)]
            here = exit_[here]
        here = start
        while not in_tree[here]:
            in_tree[here] = True
            links[made, 0] = here
            links[made, 1] = exit_[here]
            made += 1
            here = exit_[here]
    return links


@numba.njit(cache=False)
def _edges(offsets, targets):  # pragma: no cover - machine code
    """Every pair of neighbours ``(a, b)``, ``a < b``, in order (``Grid.edges``)."""
    size = len(offsets) - 1
    count = 0
    for a in range(size):
        for p in range(offsets[a], offsets[a + 1]):
            if a < targets[p]:
                count += 1
    first = np.empty(count, dtype=targets.dtype)  # (32-bit when the cells fit: half the
    second = np.empty(count, dtype=targets.dtype)  # memory Kruskal's rounds read)
    k = 0
    for a in range(size):
        for p in range(offsets[a], offsets[a + 1]):
            if a < targets[p]:
                first[k] = a
                second[k] = targets[p]
                k += 1
    return first, second


@numba.njit(cache=False)
def _contract(
    ends_a, ends_b, ranks, count, comps, into_a, into_b, into_ranks, chosen, best, best_edge, succ
):  # pragma: no cover - machine code
    """One Borůvka round on the ``count`` edges ``(ends_a, ends_b, ranks)`` between
    ``comps`` components: each component's lowest-ranked edge joins the tree (``chosen``,
    by rank), the components they join are numbered afresh, and the edges still between
    two of them are written, renamed, to ``into_*`` (which may be the same arrays: an
    edge is written no later than it is read). Returns ``(edges left, components)``."""
    none = len(chosen)
    for c in range(comps):
        best[c] = none
    for e in range(count):  # (one pass in order: the edges' ends are near each other)
        r = ranks[e]
        a = ends_a[e]
        b = ends_b[e]
        if r < best[a]:
            best[a] = r
            best_edge[a] = e
        if r < best[b]:
            best[b] = r
            best_edge[b] = e
    for c in range(comps):
        if best[c] == none:  # (no edge out: a piece of a disconnected grid)
            succ[c] = c
            continue
        chosen[best[c]] = True
        e = best_edge[c]
        succ[c] = ends_b[e] if ends_a[e] == c else ends_a[e]
    for c in range(comps):  # two components that chose the same edge: the lower is a root
        s = succ[c]
        if s != c and succ[s] == c and c < s:
            succ[c] = c
    changed = True
    while changed:  # pointer jumping to each tree's root (a few passes)
        changed = False
        for c in range(comps):
            s = succ[c]
            t = succ[s]
            if s != t:
                succ[c] = t
                changed = True
    fresh = 0
    for c in range(comps):  # number the roots (best[] is free now)
        if succ[c] == c:
            best[c] = fresh
            fresh += 1
    for c in range(comps):
        succ[c] = best[succ[c]]
    kept = 0
    for e in range(count):
        a = succ[ends_a[e]]
        b = succ[ends_b[e]]
        if a != b:
            into_a[kept] = a
            into_b[kept] = b
            into_ranks[kept] = ranks[e]
            kept += 1
    return kept, fresh


@numba.njit(cache=False)
def _boruvka(first, second, order, ranks, size):  # pragma: no cover - machine code
    """The minimum spanning forest of the edges ``(first[k], second[k])`` of ``size``
    cells, edge ``order[i]`` weighing ``i``, by Borůvka rounds (``ranks``: room for each
    edge's weight); whether each place in ``order`` is in the forest."""
    m = len(first)
    for i in range(m):
        ranks[order[i]] = i
    chosen = np.zeros(m, dtype=np.bool_)
    best = np.empty(size, dtype=np.int64)
    best_edge = np.empty(size, dtype=np.int64)
    succ = np.empty(size, dtype=np.int64)
    if m:
        ends_a = np.empty(m, dtype=first.dtype)
        ends_b = np.empty(m, dtype=first.dtype)
        count, comps = _contract(first, second, ranks, m, size, ends_a, ends_b, ranks,
                                 chosen, best, best_edge, succ)  # fmt: skip
        while count:
            count, comps = _contract(ends_a, ends_b, ranks, count, comps, ends_a, ends_b,
                                     ranks, chosen, best, best_edge, succ)  # fmt: skip
    return chosen


@numba.njit(cache=False)
def kruskal(offsets, targets, words):  # pragma: no cover - machine code
    """:func:`.graph.kruskal` (without a weave): the same shuffle of the walls, but the
    tree found by Borůvka rounds, each wall weighted by its place in the shuffled order.
    Kruskal's tree is the minimum spanning tree (forest) of those distinct weights, which
    is unique, so Borůvka finds the same one; its walls, sorted by place, are Kruskal's
    links in Kruskal's order, each ``(a, b)`` with ``a < b`` as :attr:`Grid.edges` lists
    it. Each round is a few passes in order over arrays that shrink, where a union-find
    joining the walls in their random order took a cache miss a wall."""
    size = len(offsets) - 1
    first, second = _edges(offsets, targets)
    m = len(first)
    order = np.arange(m, dtype=np.int64)
    _shuffle_ahead(words, order)
    if m < 2**31:  # (32-bit ranks: half the memory)
        chosen = _boruvka(first, second, order, np.empty(m, dtype=np.int32), size)
    else:
        chosen = _boruvka(first, second, order, np.empty(m, dtype=np.int64), size)
    links = np.empty((size - 1 if size else 0, 2), dtype=np.int64)
    made = 0
    for i in range(m):
        if chosen[i]:
            k = order[i]
            links[made, 0] = first[k]
            links[made, 1] = second[k]
            made += 1
    return links[:made]


@numba.njit(inline="always")
def _first(w1, k1, w2, k2):  # pragma: no cover - machine code
    """Whether heap entry ``(w1, k1)`` comes before ``(w2, k2)``: ``w`` a weight's
    bits, ``k`` is ``cell << 32 | there``. Weights are not negative, so their bits order
    as they do, and this is Python's order of the tuples ``(weight, cell, there)``."""
    return w1 < w2 or (w1 == w2 and k1 < k2)


@numba.njit(inline="always")
def _heap_push(heap, count, w, k):  # pragma: no cover - machine code
    """Put ``(w, k)`` into the binary heap ``heap[:count]``: it sifts up."""
    i = count
    while i > 0:
        up = (i - 1) >> 1
        if _first(w, k, heap[up, 0], heap[up, 1]):
            heap[i, 0] = heap[up, 0]
            heap[i, 1] = heap[up, 1]
            i = up
        else:
            break
    heap[i, 0] = w
    heap[i, 1] = k


@numba.njit(inline="always")
def _heap_pop(heap, count):  # pragma: no cover - machine code
    """Take the top off the binary heap ``heap[:count]`` (not empty): the last entry
    sifts down from the top."""
    count -= 1
    w = heap[count, 0]
    k = heap[count, 1]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= count:
            break
        if child + 1 < count and _first(
            heap[child + 1, 0], heap[child + 1, 1], heap[child, 0], heap[child, 1]
        ):
            child += 1
        if _first(heap[child, 0], heap[child, 1], w, k):
            heap[i, 0] = heap[child, 0]
            heap[i, 1] = heap[child, 1]
            i = child
        else:
            break
    heap[i, 0] = w
    heap[i, 1] = k


@intrinsic
def _prefetch(typingctx, array, index):  # pragma: no cover - compiled
    """Ask the processor for ``array[index]``'s cache line, without waiting for it (a
    hint: an index past the end does no harm)."""
    if not isinstance(array, types.Array) or not isinstance(index, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        item = cgutils.get_item_pointer(
            context, builder, signature.args[0],
            context.make_array(signature.args[0])(context, builder, args[0]),
            [context.cast(builder, args[1], signature.args[1], types.intp)],
            wraparound=False,
        )  # fmt: skip
        byte = ir.IntType(8).as_pointer()
        word = ir.IntType(32)
        hint = ir.FunctionType(ir.VoidType(), [byte, word, word, word])
        call = cgutils.get_or_insert_function(builder.module, hint, "llvm.prefetch.p0i8")
        builder.call(call, [builder.bitcast(item, byte), word(0), word(3), word(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen


#: Entries in each block of Prim's overflow buckets.
_BLOCK = 256


@numba.njit(inline="always")
def _bucket_bits(slots: int) -> int:  # pragma: no cover - machine code
    """Prim's buckets, as a power of two: about 8192 neighbour slots (4096 walls) a
    bucket, from 1 (a small grid: one bucket, one plain heap) to 65536."""
    bits = 0
    while bits < 16 and slots >> (bits + 13):
        bits += 1
    return bits


@numba.njit(cache=False)
def prim_tree(offsets, targets, weight, start, bits):  # pragma: no cover - machine code
    """Prim's tree from cell ``start`` over the weights ``weight`` (one a neighbour
    slot, in ``[0, 1)``, both sides of a wall alike): the links in the order
    :func:`.graph.prim`'s :mod:`heapq` of ``(weight, cell, there)`` makes them.

    A bucketed heap, ``2**bits`` buckets: ``bucket(w) = int(w * 2**bits)`` is exact
    (a power of two) and never lower for a higher weight. A small binary heap holds
    every entry whose bucket is at most ``top``, the highest bucket moved into it so
    far; the others wait in their buckets (lists of blocks of :data:`_BLOCK` entries).
    A push goes to the heap if its bucket is at most ``top``, else to its bucket. When
    the heap is empty, the lowest bucket that holds entries moves into it (``top``
    becomes that bucket). Every entry in the heap is then below every entry waiting
    (a lower bucket), so the heap's top is the least of all, in the tuples' order:
    the pops are those of one heap of everything, the links the same, in the same
    order. Two shortcuts drop only pops that make no link: an entry whose far cell
    is in the maze when its bucket moves is left out (Python pops it for nothing),
    and the loop ends when every cell is in (what is left is such entries).

    Why: one heap of everything grows to millions of entries (most of them waiting
    above the weights the tree is taking), and each pop sifts through twenty or
    more levels of cache misses; this one stays a few thousand entries, in the
    processor's cache, and the waiting entries are written once, in blocks, most
    of them never read (their cells join the maze by cheaper walls first). A push
    to the heap also asks for the far cell's row: it is often the next one visited.
    """
    size = len(offsets) - 1
    slots = len(targets)
    buckets = 1 << bits
    scale = float(buckets)
    weight_bits = weight.view(np.int64)
    heap = np.empty((max(slots, 1), 2), dtype=np.int64)  # (weight bits, cell << 32 | there)
    pool = np.empty((slots + (buckets + 1) * _BLOCK, 2), dtype=np.int64)  # the buckets' blocks
    following = np.empty(len(pool) // _BLOCK, dtype=np.int32)  # the next block, or -1
    head = np.full(buckets, -1, dtype=np.int32)  # each bucket's first and last block
    tail = np.full(buckets, -1, dtype=np.int32)
    fill = np.zeros(buckets, dtype=np.int64)  # entries in its last block
    spare = -1  # blocks emptied, in a chain
    fresh = 0  # the first block never used
    count = 0  # entries in the heap
    top = -1  # the highest bucket moved into the heap
    lowest = buckets  # no bucket below this one holds entries
    visited = np.zeros(size, dtype=np.bool_)
    links = np.empty((max(size - 1, 0), 2), dtype=np.int64)
    made = 0
    cell = start
    while True:
        visited[cell] = True
        if made == size - 1:
            break  # every cell is in: the entries left would make no link
        for p in range(offsets[cell], offsets[cell + 1]):
            there = targets[p]
            if visited[there]:
                continue
            key = (np.int64(cell) << 32) | there
            k = min(np.int64(weight[p] * scale), buckets - 1)  # (in range, whatever it is)
            if k <= top:
                _prefetch(targets, offsets[there])
                _prefetch(weight, offsets[there])
                _heap_push(heap, count, weight_bits[p], key)
                count += 1
                continue
            block = tail[k]
            n = fill[k]
            if block < 0 or n == _BLOCK:  # a new block at the bucket's end
                if spare >= 0:
                    new = spare
                    spare = following[spare]
                else:
                    new = fresh
                    fresh += 1
                following[new] = -1
                if block < 0:
                    head[k] = new
                else:
                    following[block] = new
                tail[k] = block = new
                n = 0
            pool[block * _BLOCK + n, 0] = weight_bits[p]
            pool[block * _BLOCK + n, 1] = key
            fill[k] = n + 1
            lowest = min(lowest, k)
        cell = -1
        while cell < 0:
            if count == 0:  # the lowest bucket moves into the heap
                if lowest == buckets:
                    break
                top = lowest
                block = head[top]
                while block >= 0:
                    end = block * _BLOCK + (_BLOCK if following[block] >= 0 else fill[top])
                    for e in range(block * _BLOCK, end):
                        if not visited[pool[e, 1] & 0xFFFFFFFF]:
                            _heap_push(heap, count, pool[e, 0], pool[e, 1])
                            count += 1
                    after = following[block]
                    following[block] = spare
                    spare = block
                    block = after
                head[top] = tail[top] = -1
                fill[top] = 0
                lowest = top + 1
                while lowest < buckets and head[lowest] < 0:
                    lowest += 1
                continue
            key = heap[0, 1]
            _heap_pop(heap, count)
            count -= 1
            there = key & 0xFFFFFFFF
            if not visited[there]:
                links[made, 0] = key >> 32
                links[made, 1] = there
                made += 1
                cell = there
        if cell < 0:
            break
    return links[:made]


@numba.njit(cache=False)
def prim(offsets, targets, words):  # pragma: no cover - machine code
    """:func:`.graph.prim`: the same weights and start, then :func:`prim_tree`."""
    size = len(offsets) - 1
    weight = np.empty(len(targets), dtype=np.float64)  # each side's wall weight
    for a in range(size):  # (drawn in the order of Grid.edges)
        for p in range(offsets[a], offsets[a + 1]):
            b = targets[p]
            if a < b:
                w = _chance(words)
                weight[p] = w
                for q in range(offsets[b], offsets[b + 1]):  # the wall from b's side
                    if targets[q] == a:
                        weight[q] = w
                        break
    start = _pick(words, size)
    return prim_tree(offsets, targets, weight, start, _bucket_bits(len(targets)))


@numba.njit(cache=False)
def prim_frontier(offsets, targets, words):  # pragma: no cover - machine code
    """:func:`.graph.prim_frontier`.

    Each step reads a random frontier cell, out of the cache on a large grid: its
    neighbours' offsets, then the neighbours, then their states, each read waiting on
    the one before. The same floats in the same order, but:

    - one pass over the cell's neighbours finds those inside (the draw's choice) and
      adds the unseen ones to the frontier (the reference's second pass, at the
      start of the next step: nothing between them reads or writes those states, and
      the cell is in the maze only after both);
    - the next step's pick is drawn a step early, and the cell it takes if this step
      adds no cell to the frontier is read before this step's neighbours, so their
      cache misses overlap (a read whose value is kept only so that it is made);
    - no branches in the neighbour loop (each neighbour written, then counted or
      not: which are in the maze is a coin toss to the processor).

    At 4096^2 a fifth to a third less time, at 250^2 more than half."""
    size = len(offsets) - 1
    state = np.zeros(size, dtype=np.uint8)  # 0 unseen, 1 frontier, 2 in the maze
    frontier = np.empty(size, dtype=np.int32)
    inside = np.empty(_most(offsets), dtype=np.int32)
    links = np.empty((size - 1, 2), dtype=np.int64)
    count = 0
    made = 0
    cell = _pick(words, size)
    state[cell] = 2
    for p in range(offsets[cell], offsets[cell + 1]):
        there = targets[p]
        fresh = state[there] == 0
        frontier[count] = there  # (kept only when fresh: count moves on)
        state[there] |= np.uint8(fresh)
        count += fresh
    u = _chance(words)  # the next frontier pick's float
    touched = 0
    while count:
        k = np.int64(u * count)  # _pick(words, count)
        cell = frontier[k]
        frontier[k] = frontier[count - 1]
        count -= 1
        v = _chance(words)  # this step's pick among the cells inside
        u = _chance(words)
        if count:  # the next step's cell, if the frontier does not grow: read it now
            ahead = frontier[np.int64(u * count)]
            touched += targets[offsets[ahead]]
        n = 0
        for p in range(offsets[cell], offsets[cell + 1]):
            there = targets[p]
            mark = state[there]
            inside[n] = there  # (kept only when inside: n moves on)
            n += mark == 2
            fresh = mark == 0
            frontier[count] = there
            state[there] |= np.uint8(fresh)
            count += fresh
        state[cell] = 2
        links[made, 0] = inside[np.int64(v * n)]  # _pick(words, n)
        links[made, 1] = cell
        made += 1
    if touched < 0:  # (never: the reads ahead are used, so they are made)
        links[0, 0] = -1
    return links


@numba.njit(cache=False)
def growing_tree(offsets, targets, words, policy, newest):  # pragma: no cover
    """:func:`.graph.growing_tree` without a weave (``policy``: :data:`POLICIES`)."""
    size = len(offsets) - 1
    visited = np.zeros(size, dtype=np.bool_)
    active = np.empty(size, dtype=np.int64)
    free = np.empty(_most(offsets), dtype=np.int64)
    links = np.empty((size - 1, 2), dtype=np.int64)
    made = 0
    first = _pick(words, size)
    visited[first] = True
    active[0] = first
    count = 1
    head = 0
    while head < count:
        if policy == 0:
            k = count - 1
        elif policy == 1:
            k = head
        elif policy == 2:
            k = head + _pick(words, count - head)
        elif _chance(words) < newest:
            k = count - 1
        else:
            k = head + _pick(words, count - head)
        here = active[k]
        n = 0
        for p in range(offsets[here], offsets[here + 1]):
            if not visited[targets[p]]:
                free[n] = targets[p]
                n += 1
        if n:
            there = free[_pick(words, n)]
            visited[there] = True
            links[made, 0] = here
            links[made, 1] = there
            made += 1
            active[count] = there
            count += 1
        elif k == count - 1:
            count -= 1
        elif k == head:
            head += 1
        else:
            active[k] = active[head]
            head += 1
    return links


#: De Bruijn's sequence and table: the index of a 64-bit word's lowest set bit.
_DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
_LOWEST = np.zeros(64, dtype=np.int64)
for _bit in range(64):
    _LOWEST[((1 << _bit) * 0x03F79D71B4CB0A89 & (2**64 - 1)) >> 58] = _bit


@numba.njit(inline="always")
def _lowest(word: np.uint64) -> np.int64:  # pragma: no cover - machine code
    """The index of ``word``'s lowest set bit (``word`` not 0)."""
    return _LOWEST[((word & (~word + _ONE)) * _DE_BRUIJN) >> _S58]


@numba.njit(inline="always")
def _mark(bits: np.ndarray, summary: np.ndarray, position: np.int64) -> None:  # pragma: no cover
    word = position >> 6
    bits[word] |= _ONE << np.uint64(position & 63)
    summary[word >> 6] |= _ONE << np.uint64(word & 63)


@numba.njit(inline="always")
def _unmark(bits: np.ndarray, summary: np.ndarray, position: np.int64) -> None:  # pragma: no cover
    word = position >> 6
    bits[word] &= ~(_ONE << np.uint64(position & 63))
    if bits[word] == 0:
        summary[word >> 6] &= ~(_ONE << np.uint64(word & 63))


@numba.njit(inline="always")
def _place(place: np.ndarray, cell: np.int64) -> np.int64:  # pragma: no cover - machine code
    """``cell``'s place in the scan order: ``place[cell]``, or ``cell`` itself when
    ``place`` is empty (the cells' own order)."""
    return cell if len(place) == 0 else np.int64(place[cell])


@numba.njit(cache=False)
def hunt_and_kill(offsets, targets, words, order, shuffle, hunt_chance):  # pragma: no cover
    """:func:`.graph.hunt_and_kill`: ``order`` the scan order (shuffled first when
    ``shuffle``, ``hunt="random"``), or empty for the cells' own order (``rows``).

    A hunt finds the first cell in scan order that is unvisited beside a visited one:
    those cells are kept as bits by their place in the order (set when a neighbour is
    visited, cleared when the cell is), with a summary word a 64 of them, so a hunt
    reads a few words instead of rescanning the cells it passed before (the same cell
    the scan finds, in time that grows with the cells, not their square). In the
    cells' own order a cell's place is the cell: no order, no places (at 4096^2, two
    arrays of 134 MB fewer, made by the caller, and one less to read a step)."""
    size = len(offsets) - 1
    if shuffle:
        _shuffle(words, order)
    place = np.empty(len(order), dtype=np.int32)
    for i in range(len(order)):
        place[order[i]] = i
    bits = np.zeros((size + 63) >> 6, dtype=np.uint64)
    summary = np.zeros((len(bits) + 63) >> 6, dtype=np.uint64)
    low = 0  # summary words before it are 0
    visited = np.zeros(size, dtype=np.bool_)
    free = np.empty(_most(offsets), dtype=np.int64)
    links = np.empty((size - 1, 2), dtype=np.int64)
    made = 0
    here = _pick(words, size)
    left = size - 1
    while True:
        visited[here] = True  # (here is a cell just visited)
        _unmark(bits, summary, _place(place, here))
        for p in range(offsets[here], offsets[here + 1]):
            there = targets[p]
            if not visited[there]:
                at = _place(place, there)
                _mark(bits, summary, at)
                low = min(low, at >> 12)
        if not left:
            break
        n = 0
        for p in range(offsets[here], offsets[here + 1]):
            if not visited[targets[p]]:
                free[n] = targets[p]
                n += 1
        if n and not (hunt_chance != 0.0 and _chance(words) < hunt_chance):
            there = free[_pick(words, n)]
            links[made, 0] = here
            links[made, 1] = there
            made += 1
            here = there
            left -= 1
            continue
        while summary[low] == 0:
            low += 1
        word = (low << 6) + _lowest(summary[low])
        found = (word << 6) + _lowest(bits[word])
        if len(order):
            found = np.int64(order[found])
        n = 0
        for p in range(offsets[found], offsets[found + 1]):
            if visited[targets[p]]:
                free[n] = targets[p]
                n += 1
        links[made, 0] = free[_pick(words, n)]
        links[made, 1] = found
        made += 1
        left -= 1
        here = found
    return links


def warm() -> None:
    """Compile (or load from lacak's cache) every kernel, on a tiny grid."""
    offsets = np.array([0, 1, 3, 4], dtype=np.int32)
    targets = np.array([1, 0, 2, 1], dtype=np.int32)  # (the types of the real calls)

    def words() -> np.ndarray:
        return np.array([1, 2, 3, 5], dtype=np.uint64)

    reached(offsets, targets)
    aldous_broder(offsets, targets, words())
    wilson(offsets, targets, words())
    kruskal(offsets, targets, words())
    prim(offsets, targets, words())
    prim_tree(offsets, targets, np.array([0.5, 0.5, 0.25, 0.25]), 0, 0)
    prim_frontier(offsets, targets, words())
    growing_tree(offsets, targets, words(), 3, 0.5)
    hunt_and_kill(offsets, targets, words(), np.arange(3, dtype=np.int32), True, 0.5)


lacak.store.compiled.cache_kernels(globals())  # machine code in lacak's checked cache

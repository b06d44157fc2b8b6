"""The compiled pattern-database build: the breadth-first search as machine code, with numba.

The same search as :func:`lacak_sliding.pdb.build.build_database` (abstract
states are a placement plus the blank's region, named here by the region's
index among the free regions in order of their lowest cell), the same perfect
hash, the same table byte for byte, laid out the way the C solvers do it:

- no frontier lists. Each abstract state has two bits, in one byte per
  placement for the blank's first four regions (an *overflow* table, a byte
  per placement of the rare sets that split the free cells five ways or more,
  holds the others): *unseen*, *this level*, *next level* or *done*. A level
  scans the placements (eight at a time, skipping words with nothing of this
  level), expands the states of this level, marks their unseen children *next
  level* and themselves *done*, and the two middle codes trade meanings
  between levels. With the distance byte, that is two bytes per placement
  (7-8's group of eight tiles: 1.04 GB, against 6.2 GB for the numpy build);
- in parallel without locks or atomics: placements are grouped in blocks by
  the cell of the group's first tile (a block is a contiguous range of ranks).
  A state's children lie in its own block, or, when the first tile moves, in a
  neighbouring cell's. Cells at grid distance three or more have disjoint
  neighbourhoods, so the cells are coloured five ways (``(row + 2 * col) % 5``)
  and the blocks of one colour are expanded at once, by a pool of threads
  (the kernel releases the GIL), with no two threads writing one byte;
- the regions of every set of occupied cells are tabulated once, indexed by
  the set's rank in colex order (two or four lookups in small tables), so a
  child's region is one more lookup.

Requires the optional extra ``lacak[fast]`` (numba). Machine code is kept in
lacak's cache folder, checked before numba loads it
(:func:`lacak.store.compiled.cache_kernels`, called at the end of this module);
:mod:`lacak_sliding.pdb.build` imports this module only when it builds, and
falls back to numpy when numba is absent.
"""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import lacak
import numba
import numpy as np

from .engines import MAX_CELLS, compiled_supports
from .placements import neighbour_table

__all__ = ["MAX_CELLS", "PARALLEL_FROM", "build_compiled", "supported", "warm"]

#: Placements from which a build runs on several threads.
PARALLEL_FROM = 1 << 22

#: Distance of a placement the search never reaches.
UNREACHED = 255

#: Children a block collects before marking them (see :func:`_flush`).
_BUFFER = 1024

#: Regions of one placement whose codes live in the main byte.
_MAIN_SLOTS = 4

_M5 = np.int64(0x5555555555555555)
#: Bits set in each byte, and the place of each of them.
_BYTE_BITS = np.array([bin(b).count("1") for b in range(256)], dtype=np.int64)
_BYTE_SELECT = np.zeros((256, 8), dtype=np.int64)
for _b in range(256):
    for _d, _c in enumerate(c for c in range(8) if _b >> c & 1):
        _BYTE_SELECT[_b, _d] = _c
del _b, _d, _c
#: The index of a lone bit ``b``: ``_LOWEST[(b * _DE_BRUIJN) >> 58 & 63]`` (a de Bruijn
#: sequence makes the product's top six bits distinct for each of the 64 bits).
_DE_BRUIJN = np.int64(0x03F79D71B4CB0A89)
_LOWEST = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _LOWEST[((0x03F79D71B4CB0A89 << _i) % 2**64) >> 58] = _i
del _i


def _binomials(n: int) -> np.ndarray:
    table = np.zeros((n + 2, n + 2), dtype=np.int64)
    for a in range(n + 2):
        for b in range(a + 1):
            table[a, b] = math.comb(a, b)
    return table


def supported(width: int, height: int, k: int) -> bool:
    """Whether :func:`build_compiled` can build a group of ``k`` tiles on this board."""
    return compiled_supports(width * height, k)


@numba.njit(nogil=True, error_model="numpy", inline="always")
def _popcount(x: np.int64) -> np.int64:  # pragma: no cover - compiled
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


def _key_tables(n: int, k: int) -> np.ndarray:
    """``keys[chunk, byte, before]``: the part of a set's colex rank from the cells
    ``8 * chunk + b`` for the bits ``b`` of ``byte``, when ``before`` cells of the set
    lie below the chunk (the colex rank of cells ``c_0 < c_1 < ...`` is the sum of
    ``comb(c_i, i + 1)``)."""
    chunks = -(-n // 8)
    keys = np.zeros((chunks, 256, k + 1), dtype=np.int64)
    for chunk in range(chunks):
        for byte in range(256):
            cells = [8 * chunk + b for b in range(8) if byte >> b & 1]
            for before in range(k + 1):
                keys[chunk, byte, before] = sum(
                    math.comb(c, before + m + 1) for m, c in enumerate(cells)
                )
    return keys


@numba.njit(nogil=True, error_model="numpy", inline="always")
def _key(occ: np.int64, keys: np.ndarray) -> np.int64:  # pragma: no cover - compiled
    """The colex rank of the set of occupied cells ``occ``: its row of the region tables."""
    key = np.int64(0)
    before = 0
    for chunk in range(keys.shape[0]):
        byte = (occ >> (8 * chunk)) & 255
        key += keys[chunk, byte, before]
        before += _BYTE_BITS[byte]
    return key


@numba.njit(nogil=True, error_model="numpy", inline="always")
def _select(mask: np.int64, d: np.int64) -> np.int64:  # pragma: no cover - compiled
    """The cell of the ``d``-th set bit of ``mask`` (from 0), a byte at a time."""
    base = 0
    while True:
        byte = (mask >> base) & 255
        bits = _BYTE_BITS[byte]
        if d < bits:
            return base + _BYTE_SELECT[byte, d]
        d -= bits
        base += 8


@numba.njit(nogil=True, error_model="numpy")
def _region_tables(n, k, nbr, keys, rows):  # pragma: no cover - compiled
    """``(count, slot_of, slot_region)`` for every set of ``k`` occupied cells.

    ``slot_of[key, cell]``: the index of the free region holding ``cell``
    (regions in order of their lowest cell; 255 for an occupied cell);
    ``slot_region[key, s]``: region ``s`` as a bitmask; ``count[key]``: regions.
    """
    count = np.zeros(rows, dtype=np.uint8)
    slot_of = np.full((rows, n), 255, dtype=np.uint8)
    slot_region = np.zeros((rows, n - k), dtype=np.int64)
    stack = np.empty(n, dtype=np.int64)
    full = (np.int64(1) << n) - 1
    occ = (np.int64(1) << k) - 1
    last = occ << (n - k)
    while True:
        key = _key(occ, keys)
        free = full ^ occ
        s = 0
        for c in range(n):
            if (free >> c) & 1 and slot_of[key, c] == 255:
                region = np.int64(0)
                top = 0
                stack[0] = c
                slot_of[key, c] = s
                while top >= 0:
                    p = stack[top]
                    top -= 1
                    region |= np.int64(1) << p
                    for d in range(4):
                        q = nbr[d, p]
                        if q < n and (free >> q) & 1 and slot_of[key, q] == 255:
                            slot_of[key, q] = s
                            top += 1
                            stack[top] = q
                slot_region[key, s] = region
                s += 1
        count[key] = s
        if occ == last:
            break
        # Gosper's hack: the next mask with k bits set
        low = occ & -occ
        ripple = occ + low
        occ = (((ripple ^ occ) >> 2) // low) | ripple
    return count, slot_of, slot_region


@numba.njit(nogil=True, error_model="numpy")
def _lehmer(pos, occ, k, fact):  # pragma: no cover - compiled
    """The rank of the order of the tiles on the sorted cells of ``occ``."""
    total = np.int64(0)
    for i in range(k):
        order = _popcount(occ & ((np.int64(1) << pos[i]) - 1))
        digit = order
        for j in range(i):
            if _popcount(occ & ((np.int64(1) << pos[j]) - 1)) < order:
                digit -= 1
        total += digit * fact[k - 1 - i]
    return total


@numba.njit(nogil=True, error_model="numpy", inline="always")
def _expand(pos, tile_at, rank, occ, region, level_next, n, k, near, edges, weights, keys,
            slot_of, ovf_base, ovf_width, fact, ovf, child, buf, fill):  # pragma: no cover
    """The children of one state (placement ``pos``/``rank``, blank in ``region``).

    Children in the main table go to ``buf`` from ``fill`` on (as ``rank * 4 +
    region``), to be marked by :func:`_flush`; the others are marked here.

    :returns: ``(states marked, new fill)``.
    """
    new = 0
    width = edges[0]
    # the group's cells next to the region, each with the region's cells next to it
    border = (
        (region << width)
        | (region >> width)
        | ((region << 1) & edges[1])
        | ((region >> 1) & edges[2])
    ) & occ
    while border:
        low = border & -border
        border ^= low
        p = _LOWEST[((low * _DE_BRUIJN) >> 58) & 63]
        i = tile_at[p]
        targets = near[p] & region
        while targets:
            low = targets & -targets
            targets ^= low
            q = _LOWEST[((low * _DE_BRUIJN) >> 58) & 63]
            lo = min(p, q)
            hi = max(p, q)
            step = (hi - lo) * weights[i]
            # a move between rows passes the cells in between: a tile there ranked before
            # this one lowers its digit's change by one, one ranked after changes its own
            between = occ & ((np.int64(1) << hi) - (np.int64(1) << (lo + 1)))
            while between:
                one = between & -between
                between ^= one
                j = tile_at[_LOWEST[((one * _DE_BRUIJN) >> 58) & 63]]
                if j < i:
                    step -= weights[i]
                else:
                    step += weights[j]
            crank = rank + step if q > p else rank - step
            cocc = occ ^ (np.int64(1) << p) ^ (np.int64(1) << q)
            ckey = _key(cocc, keys)
            slot = np.int64(slot_of[ckey, p])
            if slot < 4:
                buf[fill] = crank * 4 + slot
                fill += 1
            else:
                for j in range(k):
                    child[j] = pos[j]
                child[i] = q
                at = ovf_base[ckey] + _lehmer(child, cocc, k, fact) * ovf_width + (slot - 4) // 4
                shift = 2 * ((slot - 4) % 4)
                byte = ovf[at]
                if (byte >> shift) & 3 == 0:
                    ovf[at] = byte | (level_next << shift)
                    new += 1
    return new, fill


@numba.njit(nogil=True, error_model="numpy")
def _flush(st, buf, fill, level_next):  # pragma: no cover - compiled
    """Mark the unseen children in ``buf[:fill]``; returns how many were unseen.

    The bytes are read once before they are changed, so that the processor
    fetches many of them from memory at once (the reads do not wait on each other).
    """
    touch = np.uint8(0)
    for j in range(fill):
        touch |= st[buf[j] >> 2]
    new = 0
    for j in range(fill):
        crank = buf[j] >> 2
        shift = 2 * (buf[j] & 3)
        byte = st[crank]
        if (byte >> shift) & 3 == 0:
            st[crank] = byte | (level_next << shift)
            new += 1
    return new + (touch & 0)


@numba.njit(nogil=True, error_model="numpy")
def _block(cell, level, cur, n, k, near, edges, weights, inv_weights, keys, count,
           slot_of, slot_region, ovf_base, ovf_width, fact, st, st64, ovf, dist,
           ovf_sets, ovf_cells, ovf_first):  # pragma: no cover - compiled
    """Expand the states of this level in the block of ``cell``: ``(new states, placements
    reached)``."""
    nxt = 3 - cur
    pos = np.empty(k, dtype=np.int64)
    child = np.empty(k, dtype=np.int64)
    tile_at = np.zeros(n, dtype=np.int64)  # the tile on each occupied cell
    digits = np.full(k, -1, dtype=np.int64)
    useds = np.zeros(k + 1, dtype=np.int64)
    buf = np.empty(_BUFFER, dtype=np.int64)
    fill = 0
    begin = cell * weights[0]
    end = begin + weights[0]
    new = 0
    reached = 0
    # the byte a state of this level has in each of the four fields (as a mask test)
    word = begin >> 3
    hit = np.int64(0)
    while True:
        # the next placement with a state of this level: the lowest byte of ``hit``
        # holding a field equal to ``cur``, else the next word that has one
        while hit == 0 and (word << 3) < end:
            x = st64[word]
            lo_bits = x & _M5
            hi_bits = (x >> 1) & _M5
            hit = (lo_bits & ~hi_bits) if cur == 1 else (hi_bits & ~lo_bits)
            if word << 3 < begin:  # bytes before the block
                hit &= -(np.int64(1) << (8 * (begin - (word << 3))))
            if (word << 3) + 8 > end:  # bytes after it
                hit &= (np.int64(1) << (8 * (end - (word << 3)))) - 1
            word += 1
        if hit == 0:
            break
        low = hit & -hit
        at = _LOWEST[((low * _DE_BRUIJN) >> 58) & 63] >> 3
        hit &= ~(np.int64(255) << (8 * at))
        i = ((word - 1) << 3) + at
        byte = np.int64(st[i])
        # unrank i into the cells of the tiles, from the first digit that differs from
        # the last placement's (consecutive placements share most of theirs)
        rem = i
        first = k
        for t in range(k):
            w = weights[t]
            digit = np.int64(rem * inv_weights[t])
            while digit * w > rem:
                digit -= 1
            while (digit + 1) * w <= rem:
                digit += 1
            rem -= digit * w
            if digit != digits[t] and first == k:
                first = t
            digits[t] = digit
        for t in range(first, k):
            before = useds[t]
            c = _select(~before, digits[t])
            pos[t] = c
            useds[t + 1] = before | (np.int64(1) << c)
        used = useds[k]
        for t in range(k):
            tile_at[pos[t]] = t
        key = _key(used, keys)
        for s in range(min(4, np.int64(count[key]))):
            shift = 2 * s
            if (byte >> shift) & 3 == cur:
                made, fill = _expand(pos, tile_at, i, used, slot_region[key, s], nxt, n, k, near, edges,
                                     weights, keys, slot_of, ovf_base, ovf_width, fact,
                                     ovf, child, buf, fill)  # fmt: skip
                new += made
                byte = (byte & ~(3 << shift)) | (3 << shift)
        st[i] = byte
        if dist[i] == 255:
            dist[i] = level
            reached += 1
        if fill > buf.size - 16 * k:
            new += _flush(st, buf, fill, nxt)
            fill = 0
    # states in the overflow table whose first tile stands on this cell
    block = fact[k - 1]
    for m in range(ovf_first[cell], ovf_first[cell + 1]):
        row = ovf_sets[m, 0]
        j = ovf_sets[m, 1]  # the first tile's index among the set's sorted cells
        key = ovf_sets[m, 2]
        occ = ovf_sets[m, 3]
        base = ovf_base[key]
        for order in range(j * block, (j + 1) * block):
            at = base + order * ovf_width
            any_cur = False
            for b in range(ovf_width):
                byte = np.int64(ovf[at + b])
                for s in range(4):
                    if (byte >> (2 * s)) & 3 == cur:
                        any_cur = True
            if not any_cur:
                continue
            # the order's Lehmer code back to cells, then the rank
            rem = order
            taken = 0
            for t in range(k):
                f = fact[k - 1 - t]
                digit = rem // f
                rem -= digit * f
                c = 0
                while True:
                    if not (taken >> c) & 1:
                        if digit == 0:
                            break
                        digit -= 1
                    c += 1
                taken |= 1 << c
                pos[t] = ovf_cells[row, c]
            rank = np.int64(0)
            for t in range(k):
                tile_at[pos[t]] = t
                digit = pos[t]
                for u in range(t):
                    if pos[u] < pos[t]:
                        digit -= 1
                rank += digit * weights[t]
            for b in range(ovf_width):
                byte = np.int64(ovf[at + b])
                for s in range(4):
                    slot = 4 + 4 * b + s
                    shift = 2 * s
                    if slot < count[key] and (byte >> shift) & 3 == cur:
                        made, fill = _expand(pos, tile_at, rank, occ, slot_region[key, slot], nxt,
                                             n, k, near, edges, weights, keys, slot_of,
                                             ovf_base, ovf_width, fact, ovf, child, buf,
                                             fill)  # fmt: skip
                        new += made
                        if fill > buf.size - 4 * k:
                            new += _flush(st, buf, fill, nxt)
                            fill = 0
                        byte = (byte & ~(3 << shift)) | (3 << shift)
                ovf[at + b] = byte
            if dist[rank] == 255:
                dist[rank] = level
                reached += 1
    new += _flush(st, buf, fill, nxt)
    return new, reached


def build_compiled(
    width: int,
    height: int,
    goal: Sequence[int],
    tiles: Sequence[int],
    *,
    progress: Callable[[int, int, int], None] | None = None,
    workers: int | None = None,
) -> np.ndarray:
    """The pattern database of ``tiles``, as :func:`lacak_sliding.pdb.build.build_database`.

    :param workers: threads expanding blocks at once (default: the cores this
        process may use; one for databases under :data:`PARALLEL_FROM` placements).

    :param progress: called between colours of every level with ``(level,
        placements reached, placements in total)``; it may raise to stop the build.
    :returns: the uint8 distances by placement rank (255: never reached).
    :raises ValueError: a board or group :func:`supported` refuses.
    """
    n = width * height
    k = len(tiles)
    if not supported(width, height, k):
        raise ValueError(f"the compiled build does not take {k} tiles on {width}x{height}")
    size = math.perm(n, k)
    weights = np.array([math.perm(n - i - 1, k - i - 1) for i in range(k)], dtype=np.int64)
    inv_weights = 1.0 / weights.astype(np.float64)
    fact = np.array([math.factorial(i) for i in range(k + 1)], dtype=np.int64)
    nbr = neighbour_table(width, height)
    # for the cells next to a region: the board's width, the cells not in the first
    # column, the cells not in the last one (bitmasks)
    edges = np.array([width, sum(1 << c for c in range(n) if c % width),
                      sum(1 << c for c in range(n) if c % width != width - 1)], dtype=np.int64)  # fmt: skip
    # near[cell]: the cells next to ``cell``, as a bitmask
    near = np.zeros(n, dtype=np.int64)
    for d in range(4):
        for c in range(n):
            if nbr[d, c] < n:
                near[c] |= 1 << int(nbr[d, c])
    binom = _binomials(n)
    keys = _key_tables(n, k)
    count, slot_of, slot_region = _region_tables(n, k, nbr, keys, math.comb(n, k))

    # the overflow table: a few bytes per placement of the sets with more than four regions
    most = int(count.max())
    ovf_width = max(0, -(-(most - _MAIN_SLOTS) // 4))
    ovf_base = np.full(count.size, -1, dtype=np.int64)
    split = np.flatnonzero(count > _MAIN_SLOTS) if ovf_width else np.zeros(0, dtype=np.int64)
    block = math.factorial(k)
    ovf_base[split] = np.arange(split.size, dtype=np.int64) * block * ovf_width
    ovf = np.zeros(max(1, split.size * block * ovf_width), dtype=np.uint8)
    # per set: its sorted cells, and per cell (for the blocks): (set row, index of the
    # cell among the set's, key, occupied mask)
    occs = _colex_masks(n, k, binom, split)
    ovf_cells = np.zeros((max(1, split.size), k), dtype=np.int64)
    by_cell: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n)]
    for row, (key, occ) in enumerate(zip(split.tolist(), occs.tolist(), strict=True)):
        cells = [c for c in range(n) if occ >> c & 1]
        ovf_cells[row] = cells
        for j, c in enumerate(cells):
            by_cell[c].append((row, j, key, occ))
    ovf_first = np.zeros(n + 1, dtype=np.int64)
    flat = [entry for c in range(n) for entry in by_cell[c]]
    ovf_first[1:] = np.cumsum([len(by_cell[c]) for c in range(n)])
    ovf_sets = np.array(flat, dtype=np.int64).reshape(-1, 4) if flat else np.zeros((1, 4), np.int64)

    st = np.zeros(-(-size // 8) * 8, dtype=np.uint8)
    st64 = st.view(np.uint64).view(np.int64)
    dist = np.full(size, 255, dtype=np.uint8)

    # the goal: every tile home, the blank in its region
    where = {tile: cell for cell, tile in enumerate(goal)}
    start = [where[t] for t in tiles]
    occ0 = sum(1 << c for c in start)
    key0 = int(_key(np.int64(occ0), keys))
    slot0 = int(slot_of[key0, where[0]])
    rank0 = 0
    for i, p in enumerate(start):
        rank0 += (p - sum(1 for q in start[:i] if q < p)) * int(weights[i])
    if slot0 < _MAIN_SLOTS:
        st[rank0] |= 1 << (2 * slot0)
    else:
        pos0 = np.array(start, dtype=np.int64)
        at = int(ovf_base[key0]) + int(_lehmer(pos0, np.int64(occ0), k, fact)) * ovf_width
        ovf[at + (slot0 - 4) // 4] |= 1 << (2 * ((slot0 - 4) % 4))

    colours = [
        [c for c in range(n) if (c // width + 2 * (c % width)) % 5 == colour] for colour in range(5)
    ]
    colours = [c for c in colours if c]
    if workers is None:
        workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
        workers = workers if size >= PARALLEL_FROM else 1
    args = (n, k, near, edges, weights, inv_weights, keys, count, slot_of, slot_region,
            ovf_base, ovf_width, fact, st, st64, ovf, dist, ovf_sets, ovf_cells,
            ovf_first)  # fmt: skip
    with contextlib.ExitStack() as stack:
        pool = None
        if workers > 1:
            pool = stack.enter_context(ThreadPoolExecutor(workers, "lacak-pdb-build"))
        reached = 0
        level = 0
        while True:
            if level >= UNREACHED:
                raise ValueError("a pattern database distance does not fit in a byte")
            cur = 1 + (level & 1)
            new = 0
            for cells in colours:

                def expand(cell: int, level: int = level, cur: int = cur) -> tuple[int, int]:
                    return _block(cell, level, cur, *args)

                results = pool.map(expand, cells) if pool else map(expand, cells)
                for made, got in results:
                    new += int(made)
                    reached += int(got)
                if progress:
                    progress(level, reached, size)
            if not new:
                break
            level += 1
    return dist


def _colex_masks(n: int, k: int, binom: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """The occupied masks of the sets ranked ``keys`` in colex order."""
    out = np.zeros(keys.size, dtype=np.int64)
    for idx, key in enumerate(keys.tolist()):
        mask = 0
        rest = key
        for i in range(k, 0, -1):
            c = i - 1
            while int(binom[c + 1, i]) <= rest:
                c += 1
            rest -= int(binom[c, i])
            mask |= 1 << c
        out[idx] = mask
    return out


def warm() -> None:
    """Compile (or load from lacak's cache) every kernel of the build, on a 3x2 board
    (the kernels' types do not depend on the board)."""
    build_compiled(3, 2, (1, 2, 3, 4, 5, 0), (1, 2), workers=1)


lacak.store.compiled.cache_kernels(globals())  # machine code in lacak's checked cache

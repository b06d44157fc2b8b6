"""Building pattern databases: a vectorised breadth-first search of an abstract space.

A pattern database for a group of tiles holds, for every placement of those
tiles on the board, the fewest moves *of those tiles* needed to bring them to
their goal cells. The other tiles are indistinguishable and moving them costs
nothing, so the blank roams freely through the connected region of cells the
group does not occupy. An abstract state is therefore a placement plus the
blank's region (named by its lowest cell); a move slides one group tile into
an adjacent cell of the region, costs 1, and leaves the blank where the tile
was. Because every real move moves exactly one tile, the sums over disjoint
groups never overestimate: the databases are *additive* (Korf and Felner 2002).

Placements are numbered by a perfect hash (the rank of a k-permutation of the
cells, :class:`Placements`), so the database is one byte per placement. The
search runs level by level on numpy arrays: each level's frontier is expanded
for every tile and direction at once, the children are ranked, the ones seen
before are dropped (a bitmask of visited regions per placement), and the rest
form the next level.

That numpy search is the fallback. When numba is installed (``lacak[fast]``),
:func:`build_database` runs the compiled search of
:mod:`lacak_sliding.pdb.compiled` instead: the same table byte for byte, in a
sixth of the memory and on every core (7-8's group of eight tiles: about 1.2 GB
instead of 6.2 GB). ``LACAK_PDB_ENGINE=numpy`` (or ``numba``) forces one.

This module needs numpy; it is imported only when a database is built or loaded.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Callable, Iterator, Sequence

import lacak
import numpy as np

from .engines import BUILDER, ENGINE_VARIABLE, ENGINES, choose_engine, compiled_available
from .placements import Placements, neighbour_table

__all__ = [
    "BUILDER",
    "ENGINES",
    "ENGINE_VARIABLE",
    "build_database",
    "build_numpy",
    "choose_engine",
    "compiled_available",
    "region_tables",
]

#: Distance of a placement the search never reaches.
UNREACHED = 255

#: Placements of the frontier expanded at once (bounds the memory of one step).
CHUNK = 1 << 19

#: ``progress(level, placements_done, placements_total)``
Progress = Callable[[int, int, int], None]


def _grow(region: np.ndarray, free: np.ndarray, width: int, n: int) -> np.ndarray:
    """One flood step: ``region`` plus its free neighbours (bitmasks of cells)."""
    not_first_col = sum(1 << p for p in range(n) if p % width)
    not_last_col = sum(1 << p for p in range(n) if p % width != width - 1)
    grown = (
        region
        | (region << width)
        | (region >> width)
        | ((region << 1) & not_first_col)
        | ((region >> 1) & not_last_col)
    )
    return grown & free


def flood(seed: np.ndarray, free: np.ndarray, width: int, n: int) -> np.ndarray:
    """The connected regions of ``free`` cells containing the ``seed`` cells (int64 bitmasks)."""
    region = seed & free
    active = np.arange(region.size)
    sub_region, sub_free = region, free
    while active.size:
        grown = _grow(sub_region, sub_free, width, n)
        changed = grown != sub_region
        region[active] = grown
        active = active[changed]
        sub_region, sub_free = grown[changed], sub_free[changed]
    return region


def lowest_cell(mask: np.ndarray) -> np.ndarray:
    """The index of the lowest set bit of each (non-zero) int64 mask."""
    low = (mask & -mask).astype(np.float64)
    return np.log2(low).astype(np.int64)


_REGION_TABLES: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}


def region_tables(width: int, height: int) -> tuple[np.ndarray, np.ndarray] | None:
    """For boards of at most 16 cells: ``(region, lowest)`` indexed by ``free * n + cell``.

    ``region`` is the connected region of the free-cell mask holding ``cell``;
    ``lowest`` is that region's lowest cell. Larger boards flood on demand.
    """
    n = width * height
    if n > 16:
        return None
    key = (width, height)
    if key not in _REGION_TABLES:
        free = np.repeat(np.arange(1 << n, dtype=np.int64), n)
        seed = np.tile(np.int64(1) << np.arange(n, dtype=np.int64), 1 << n)
        region = flood(seed, free, width, n)
        lowest = np.where(region != 0, lowest_cell(np.where(region == 0, 1, region)), n)
        _REGION_TABLES[key] = (region.astype(np.uint32), lowest.astype(np.uint8))
    return _REGION_TABLES[key]


#: Largest number of free-cell masks for which a board past 16 cells gets region tables.
COMBINATION_TABLES = 1 << 21


def combination_region_tables(
    width: int, height: int, k: int
) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """Region tables for the free-cell masks of boards with exactly ``k`` cells taken.

    Every state of a ``k``-tile group has ``n - k`` free cells, so only
    ``comb(n, k)`` masks occur: ``masks`` lists them sorted, and
    ``(region, lowest)`` are indexed by ``searchsorted(masks, free) * n + cell``.
    """
    n = width * height
    full = (1 << n) - 1
    taken = np.array(
        [sum(1 << c for c in combo) for combo in itertools.combinations(range(n), k)],
        dtype=np.int64,
    )
    masks = np.sort(full ^ taken)
    free = np.repeat(masks, n)
    seed = np.tile(np.int64(1) << np.arange(n, dtype=np.int64), masks.size)
    region = flood(seed, free, width, n)
    lowest = np.where(region != 0, lowest_cell(np.where(region == 0, 1, region)), n)
    return masks, (region, lowest.astype(np.uint8))


def build_database(
    width: int,
    height: int,
    goal: Sequence[int],
    tiles: Sequence[int],
    *,
    progress: Progress | None = None,
    engine: str = "auto",
) -> np.ndarray:
    """The pattern database of ``tiles``: one uint8 distance per placement rank.

    Both builders give the same table byte for byte: the compiled one
    (:mod:`lacak_sliding.pdb.compiled`, with numba: two bytes per placement,
    several threads) and the numpy one below (about 12 bytes per placement).

    :param width: board width.
    :param height: board height.
    :param goal: the goal state (tiles row by row, 0 = blank).
    :param tiles: the group, in the order that defines the placement ranks.
    :param progress: called as the search goes with
        ``(level, placements reached, placements in total)``.
    :param engine: ``auto``, ``numba`` or ``numpy`` (see :func:`choose_engine`).
    :returns: array ``dist`` with ``dist[rank]`` the least number of moves of
        the group's tiles that brings the placement to the goal; 255 for the
        placements no board can have (only when the group fills, or nearly
        fills, the board).
    :raises InvalidOptionError: see :func:`choose_engine`.
    """
    if choose_engine(width, height, len(tiles), engine) == "numba":
        # its first compile is not started when the time limit in force might not cover
        # it (the numpy builder then, told once); asked for by name, it must run
        forced = engine == "numba" or os.environ.get(ENGINE_VARIABLE, "").strip() == "numba"
        try:
            module = BUILDER.require_by(
                lacak.current_deadline(), f"{ENGINE_VARIABLE}=numba" if forced else "",
                instead="the numpy builder",
            )  # fmt: skip
        except lacak.InvalidOptionError:  # numba failed to load here
            if forced:
                raise
            module = None
        if module is not None:
            return module.build_compiled(width, height, goal, tiles, progress=progress)
    return build_numpy(width, height, goal, tiles, progress=progress)


def build_numpy(
    width: int,
    height: int,
    goal: Sequence[int],
    tiles: Sequence[int],
    *,
    progress: Progress | None = None,
) -> np.ndarray:
    """:func:`build_database` on numpy arrays: level by level, the frontier in batches."""
    n = width * height
    k = len(tiles)
    where = {tile: cell for cell, tile in enumerate(goal)}
    hasher = Placements(n, k)
    size = hasher.size
    weights = hasher.weights
    nbr = neighbour_table(width, height)
    tables = region_tables(width, height)
    full = (1 << n) - 1
    vis_type = np.uint16 if n <= 16 else np.uint32 if n <= 32 else np.uint64
    visited = np.zeros(size, dtype=vis_type)
    dist = np.full(size, UNREACHED, dtype=np.uint8)
    # claim[rank]: which child of the current batch claimed a placement (for de-duplication)
    claim = np.zeros(size, dtype=np.int32 if size < 1 << 31 else np.int64)
    one = np.int64(1)

    masks = row_of = None
    if tables is None and math.comb(n, k) <= COMBINATION_TABLES:
        masks, tables = combination_region_tables(width, height, k)
        if n <= 26:  # a direct index of the masks (at most 256 MB) beats a binary search
            row_of = np.zeros(1 << n, dtype=np.int32)
            row_of[masks] = np.arange(masks.size, dtype=np.int32)

    def regions(free: np.ndarray, cell: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(region mask, lowest cell) of the free region holding ``cell``."""
        if tables is not None:
            if masks is None:
                row = free
            elif row_of is not None:
                row = row_of[free]
            else:
                row = np.searchsorted(masks, free)
            flat = row * n + cell
            return tables[0][flat].astype(np.int64), tables[1][flat].astype(np.int64)
        region = flood(one << cell, free, width, n)
        return region, lowest_cell(region)

    start = np.array([[where[t]] for t in tiles], dtype=np.uint8)
    occ0 = sum(1 << where[t] for t in tiles)
    _, low0 = regions(np.array([full ^ occ0], dtype=np.int64), np.array([where[0]]))
    rank0 = hasher.rank(start)
    visited[rank0] |= (one << low0).astype(vis_type)
    dist[rank0] = 0
    rank_type = np.uint32 if size <= 1 << 32 else np.int64
    # a level's frontier is a list of parts (placements, regions, ranks), consumed in
    # batches of about CHUNK states and freed as it goes, so that the memory of a
    # level is the states it holds, never a second copy
    frontier: list[Part] = [(start, low0.astype(np.uint8), rank0.astype(rank_type))]
    reached = 1
    level = 0
    if progress:
        progress(level, reached, size)
    while frontier:
        next_parts: list[Part] = []
        for pos, low8, parent_rank in _batches(frontier):
            low = low8.astype(np.int64)
            cells = pos.astype(np.int64)
            occ = np.zeros(low.size, dtype=np.int64)
            for i in range(k):
                occ |= one << cells[i]
            free = full ^ occ
            region, _ = regions(free, low)
            parts = []
            for i in range(k):
                p = cells[i]
                for d in range(4):
                    q = nbr[d][p]
                    sel = np.flatnonzero((region >> q) & 1)
                    if not sel.size:
                        continue
                    ps, qs = p[sel], q[sel]
                    rank = parent_rank[sel].astype(np.int64) + _rank_step(
                        cells, sel, i, ps, qs, d, width, weights
                    )
                    _, lows = regions(free[sel] ^ (one << ps) ^ (one << qs), ps)
                    fresh = np.flatnonzero(((visited[rank].astype(np.int64) >> lows) & 1) == 0)
                    if not fresh.size:
                        continue
                    sel = sel[fresh]
                    child = pos[:, sel]
                    child[i] = qs[fresh]
                    parts.append((child, lows[fresh], rank[fresh]))
            if not parts:
                continue
            child_pos = np.concatenate([c for c, _, _ in parts], axis=1)
            child_low = np.concatenate([lo for _, lo, _ in parts])
            ranks = np.concatenate([r for _, _, r in parts])
            del parts
            keep, winners = _distinct(ranks, child_low, claim, n)
            new = ranks[winners]
            new = new[dist[new] == UNREACHED]
            dist[new] = level + 1
            reached += new.size
            ranks, child_low = ranks[keep], child_low[keep]
            np.bitwise_or.at(visited, ranks, (one << child_low).astype(vis_type))
            next_parts.append(
                (child_pos[:, keep], child_low.astype(np.uint8), ranks.astype(rank_type))
            )
            if progress:
                progress(level + 1, reached, size)
        level += 1
        frontier = next_parts
        if progress:
            progress(level, reached, size)
    return dist


Part = tuple[np.ndarray, np.ndarray, np.ndarray]


def _batches(parts: list[Part]) -> Iterator[Part]:
    """Batches of about :data:`CHUNK` states, taken from the front of ``parts`` (emptying it)."""
    while parts:
        batch = [parts.pop(0)]
        count = batch[0][1].size
        while parts and count + parts[0][1].size <= CHUNK:
            count += parts[0][1].size
            batch.append(parts.pop(0))
        if len(batch) == 1:
            pos, low, rank = batch[0]
        else:
            pos = np.concatenate([b[0] for b in batch], axis=1)
            low = np.concatenate([b[1] for b in batch])
            rank = np.concatenate([b[2] for b in batch])
        del batch
        for begin in range(0, low.size, CHUNK):
            yield (
                pos[:, begin : begin + CHUNK],
                low[begin : begin + CHUNK],
                rank[begin : begin + CHUNK],
            )


def _rank_step(
    cells: np.ndarray,
    sel: np.ndarray,
    i: int,
    ps: np.ndarray,
    qs: np.ndarray,
    direction: int,
    width: int,
    weights: Sequence[int],
) -> np.ndarray:
    """How the rank changes when tile ``i`` moves from ``ps`` to ``qs`` (rows ``sel``).

    Sideways, no other cell lies between the two, so only tile ``i``'s digit
    changes, by one. Up or down, the ``width - 1`` cells between matter: an
    earlier tile there lowers tile ``i``'s digit change by one, and tile ``i``
    passing a later tile changes that tile's digit by one.
    """
    if direction >= 2:  # left or right
        return (qs - ps) * weights[i]
    lo = np.minimum(ps, qs)
    hi = np.maximum(ps, qs)
    step = np.full(sel.size, width * weights[i], dtype=np.int64)
    for j in range(cells.shape[0]):
        if j == i:
            continue
        other = cells[j][sel]
        between = (other > lo) & (other < hi)
        step += between * (-weights[i] if j < i else weights[j])
    return step if direction == 1 else -step


def _distinct(
    ranks: np.ndarray, lows: np.ndarray, claim: np.ndarray, n: int
) -> tuple[np.ndarray, np.ndarray]:
    """Indexes of the distinct (rank, region) children, and of one child per rank.

    Each child claims its placement in ``claim``; the last claim wins. A
    loser in a different region than its placement's winner is a different
    state (rare: a placement that splits the free cells), kept too.
    """
    index = np.arange(ranks.size, dtype=claim.dtype)
    claim[ranks] = index
    winner = claim[ranks]
    won = np.flatnonzero(winner == index)
    lost = np.flatnonzero(winner != index)
    if lost.size:
        other = lost[lows[lost] != lows[winner[lost]]]
        if other.size:
            _, first = np.unique(ranks[other] * n + lows[other], return_index=True)
            return np.concatenate([won, other[first]]), won
    return won, won

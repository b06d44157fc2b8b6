"""The plain rectangle's walking generators as machine code, with numba (``lacak[fast]``).

Each kernel here is the pure-Python loop of its generator written once more,
statement for statement, on the same padded flat grid (:mod:`._grid`) and the
same random numbers, so that a seed gives the same maze, byte for byte, with
either engine (the tests compare them over many seeds and sizes):

- :func:`depth_first` -- :func:`._grid.carve_depth_first` (the recursive
  backtracker, and the growing tree's ``newest``);
- :func:`hunt_and_kill` -- :func:`.huntkill._links`'s walk and hunts (rows, and
  ``hunt="random"``; columns are rows on the transposed grid), with ``hunt_chance``;
- :func:`growing_tree` -- the growing tree's ``oldest``, ``random`` and ``mix``;
- :func:`wilson` -- Wilson's loop-erased walks (the Python engine's plain loop,
  which its numpy blocks copy move for move);
- :func:`spanning_tree` -- Kruskal's and Prim's minimum spanning tree of distinct
  random weights (unique: Borůvka rounds on a union-find give the same one);
- :func:`breadth_first` -- :class:`lacak_mazes.breadth_first.BreadthFirst`'s
  search, for the endpoints and solutions of ``lacak batch maze``;
- :func:`binary_tree` and :func:`sidewinder` -- :mod:`.simple`'s numpy arrays, a
  cell at a time (sidewinder's picks from a second copy of the stream, moved on
  past the closing coins with :meth:`numpy.random.PCG64.advance`);
- :func:`eller` -- :func:`.eller.eller`'s rows, with a union-find on one row;
- :func:`division` -- :func:`.division.recursive_division`'s levels of rooms;
- :func:`aldous_broder` -- :func:`.aldous_broder.aldous_broder`'s folded walk in
  numpy blocks, move for move (it also counts the moves);
- :func:`prim_frontier` -- :func:`.prim.prim_frontier`'s loop.

Random numbers: what the Python engine draws in numpy blocks up front (each
cell's order of neighbours, the start cell) is drawn the same way and handed
in; what it draws as it goes (floats, Wilson's moves) the kernels draw from
the same PCG64 stream, continued where the Python side left it: the bit
generator's 128-bit state and increment are passed in as four 64-bit words
(:meth:`._common.Rng.words`) and :func:`._pcg.next_raw` steps it as numpy's PCG64 does (a
128-bit LCG step, then the XSL-RR output), in 64-bit halves. A float is the
top 53 bits times ``2**-53`` and a move two bits of a raw number, low bits
first, as :mod:`._common` and :mod:`._walk` make them.

Loaded through :data:`lacak_mazes.generators.engine.ENGINE`, which decides
when to use it (``LACAK_MAZE_ENGINE``); its machine code is kept in lacak's
checked cache (:func:`lacak.store.compiled.cache_kernels`).
"""

from __future__ import annotations

import lacak
import numba
import numpy as np

from ._pcg import next_float as _float
from ._pcg import next_raw as _next

__all__ = [
    "aldous_broder",
    "binary_tree",
    "breadth_first",
    "cells_from_exits",
    "cells_from_links",
    "choices",
    "depth_first",
    "division",
    "edge_weights",
    "eller",
    "growing_tree",
    "hunt_and_kill",
    "prim_frontier",
    "raw",
    "sidewinder",
    "spanning_tree",
    "warm",
    "wilson",
]

_S32 = np.uint64(32)
_S11 = np.uint64(11)
_S63 = np.uint64(63)
_THREE = np.uint64(3)
_SENTINEL = 2
#: OPPOSITE, by bit (N=1, E=2, S=4, W=8).
_OPPOSITE = np.array([0, 4, 8, 0, 1, 0, 0, 0, 2], dtype=np.uint8)


@numba.njit(cache=False)
def raw(words: np.ndarray, count: int) -> np.ndarray:  # pragma: no cover - machine code
    """The next ``count`` raw numbers of the stream (to check :func:`_next` against numpy)."""
    out = np.empty(count, dtype=np.uint64)
    for i in range(count):
        out[i] = _next(words)
    return out


@numba.njit(cache=False)
def choices(words, size, height, width):  # pragma: no cover
    """What the Python engine draws first: each of the ``size`` padded cells' order of
    neighbours (``Rng.below(24, size)``, as ``uint8``), then the start cell
    (:meth:`._grid.Padded.random_cell`, a padded index)."""
    choice = np.empty(size, dtype=np.uint8)
    for i in range(size):
        choice[i] = np.uint8(((_next(words) >> _S32) * np.uint64(24)) >> _S32)
    pick = np.int64(((_next(words) >> _S32) * np.uint64(height * width)) >> _S32)
    return choice, (pick // width + 1) * (width + 1) + pick % width


@numba.njit(cache=False)
def cells_from_links(link, height, width):  # pragma: no cover
    """:func:`._grid.maze_from_links` of a padded ``link`` array: the open-side bitmasks
    (``height x width``), each cell open towards its parent and its children."""
    P = width + 1
    cells = np.zeros((height, width), dtype=np.uint8)
    for row in range(height):
        for col in range(width):
            bit = link[(row + 1) * P + col]
            cells[row, col] |= bit
            if bit == 1:
                cells[row - 1, col] |= 4
            elif bit == 2:
                cells[row, col + 1] |= 8
            elif bit == 4:
                cells[row + 1, col] |= 1
            elif bit == 8:
                cells[row, col - 1] |= 2
    return cells


@numba.njit(cache=False)
def cells_from_exits(exits, height, width):  # pragma: no cover
    """:func:`cells_from_links` of Wilson's ``exits`` (each cell's offset to its parent)."""
    P = width + 1
    link = np.zeros(exits.size, dtype=np.uint8)
    for i in range(exits.size):
        offset = exits[i]
        if offset == -P:
            link[i] = 1
        elif offset == 1:
            link[i] = 2
        elif offset == P:
            link[i] = 4
        elif offset == -1:
            link[i] = 8
    return cells_from_links(link, height, width)


@numba.njit(inline="always")
def _carve(state, link, offsets, backs, order, here):  # pragma: no cover
    """Carve from ``here`` to its first unvisited neighbour in its order; -1 if none."""
    for k in range(4):
        there = here + offsets[order, k]
        if state[there] == 0:
            state[there] = 1
            link[there] = backs[order, k]
            return there
    return -1


@numba.njit(cache=False)
def depth_first(state, link, offsets, backs, choice, start):  # pragma: no cover
    """:func:`._grid.carve_depth_first`: ``state`` and ``link`` (``uint8``, padded) are
    filled in; ``offsets`` and ``backs`` (24 x 4) are the orders of the steps."""
    stack = np.empty(state.size, dtype=np.int64)
    top = 0
    stack[0] = start
    here = start
    while True:
        there = _carve(state, link, offsets, backs, choice[here], here)
        if there >= 0:
            top += 1
            stack[top] = there
            here = there
        else:
            if top == 0:
                break
            top -= 1
            here = stack[top]


@numba.njit(cache=False)
def growing_tree(
    state, link, offsets, backs, choice, start, policy, p_newest, words
):  # pragma: no cover
    """The growing tree's ``oldest`` (0), ``random`` (1) and ``mix`` (2) policies, as
    :func:`.growing_tree.growing_tree` runs them."""
    active = np.empty(state.size + 1, dtype=np.int64)
    active[0] = start
    count = 1
    if policy == 0:
        head = 0
        while head < count:
            there = _carve(state, link, offsets, backs, choice[active[head]], active[head])
            if there < 0:
                head += 1
            else:
                active[count] = there
                count += 1
    elif policy == 1:
        while count:
            pick = int(_float(words) * count)
            here = active[pick]
            there = _carve(state, link, offsets, backs, choice[here], here)
            if there < 0:
                active[pick] = active[count - 1]
                count -= 1
            else:
                active[count] = there
                count += 1
    else:
        dead = np.zeros(state.size, dtype=np.uint8)
        alive = 1
        while alive:
            if _float(words) < p_newest:
                while dead[active[count - 1]]:
                    count -= 1
                pick = count - 1
            else:
                pick = int(_float(words) * count)
                while dead[active[pick]]:
                    pick = int(_float(words) * count)
            here = active[pick]
            there = _carve(state, link, offsets, backs, choice[here], here)
            if there < 0:
                dead[here] = 1
                alive -= 1
                if alive and 2 * alive < count:
                    kept = 0
                    for i in range(count):
                        if not dead[active[i]]:
                            active[kept] = active[i]
                            kept += 1
                    count = kept
            else:
                active[count] = there
                count += 1
                alive += 1


@numba.njit(cache=False)
def hunt_and_kill(
    state, link, offsets, backs, choice, here, width, height, by_rows, chance, words
):  # pragma: no cover
    """:func:`.huntkill._links`'s walk and hunts, on ``state`` and ``link``: the hunt by
    rows (``by_rows``) or of a random cell next to the maze, with ``hunt_chance``."""
    P = width + 1
    size = state.size
    steps = np.empty(4, dtype=np.int64)  # N, E, S, W
    steps[0] = -P
    steps[1] = 1
    steps[2] = P
    steps[3] = -1
    step_backs = np.array([4, 8, 1, 2], dtype=np.uint8)
    origin = P
    state[here] = 1
    first_visited = here
    scan = origin
    row1 = origin + P
    row2 = origin + 2 * P
    first_row1 = here if row1 <= here < row2 else size
    watch = first_visited if first_visited > row2 else row2
    remaining = height * width - 1
    walked = np.empty(size + 1, dtype=np.int64)
    walked[0] = here
    n_walked = 1
    candidates = np.empty(size + 1, dtype=np.int64)
    n_candidates = 0
    listed = np.zeros(size, dtype=np.uint8)
    keep = np.log1p(-chance) if 0.0 < chance < 1.0 else 0.0
    joins = np.empty(4, dtype=np.int64)
    while True:
        if chance == 0.0:
            stop = -1
        elif keep != 0.0:
            steps_on = np.log1p(-_float(words)) / keep
            stop = remaining - int(steps_on) - 1 if steps_on < remaining else -1
        else:
            stop = remaining - 1
        while True:
            there = _carve(state, link, offsets, backs, choice[here], here)
            if there < 0:
                break
            here = there
            remaining -= 1
            if by_rows:
                if there < watch:
                    if there < first_visited:
                        first_visited = there
                        watch = first_visited if first_visited > row2 else row2
                    if row1 <= there < first_row1:
                        first_row1 = there
            else:
                walked[n_walked] = there
                n_walked += 1
            if remaining == stop:
                break
        if remaining == 0:
            break
        if by_rows:
            while state[scan] != 0:
                scan += 1
            if scan != origin:
                target = scan
            else:
                row_start = first_visited - first_visited % P
                if row_start > P:
                    target = first_visited - P
                else:
                    target = first_visited - 1
                    if first_row1 < target + P:
                        target = first_row1 - P
        else:
            for w in range(n_walked):
                cell = walked[w]
                for k in range(4):
                    there = cell + steps[k]
                    if state[there] == 0 and listed[there] == 0:
                        listed[there] = 1
                        candidates[n_candidates] = there
                        n_candidates += 1
            n_walked = 0
            while True:
                pick = int(_float(words) * n_candidates)
                target = candidates[pick]
                candidates[pick] = candidates[n_candidates - 1]
                n_candidates -= 1
                if state[target] == 0:
                    break
            walked[n_walked] = target
            n_walked += 1
        n_joins = 0
        for k in range(4):
            if state[target + steps[k]] == 1:
                joins[n_joins] = k
                n_joins += 1
        k = joins[int(_float(words) * n_joins)]
        link[target] = _OPPOSITE[step_backs[k]]
        state[target] = 1
        remaining -= 1
        if by_rows and target < watch:
            if target < first_visited:
                first_visited = target
                watch = first_visited if first_visited > row2 else row2
            if row1 <= target < first_row1:
                first_row1 = target
        here = target
        if remaining == 0:
            break


@numba.njit(cache=False)
def wilson(state, exits, root, P, words):  # pragma: no cover
    """Wilson's loop-erased walks on the padded ``state`` from each cell not in the tree,
    row by row, to the tree grown from ``root``; ``exits`` (``int64``) gets each cell's
    offset towards its parent, as :func:`.wilson.wilson`'s ``exits``."""
    offsets = np.empty(4, dtype=np.int64)
    offsets[0] = -P
    offsets[1] = 1
    offsets[2] = P
    offsets[3] = -1
    state[root] = 1
    size = state.size
    bits = np.uint64(0)
    left = 0
    start = 0
    while True:
        while start < size and state[start] != 0:
            start += 1
        if start == size:
            break
        here = start
        while True:
            if left == 0:
                bits = _next(words)
                left = 32
            offset = offsets[np.int64(bits & _THREE)]
            bits >>= np.uint64(2)
            left -= 1
            there = here + offset
            seen = state[there]
            if seen == _SENTINEL:
                continue
            exits[here] = offset
            here = there
            if seen:
                break
        here = start
        while state[here] == 0:
            state[here] = 1
            here += exits[here]
        start += 1


@numba.njit(cache=False)
def breadth_first(cells, width, source, target):  # pragma: no cover
    """:class:`lacak_mazes.breadth_first.BreadthFirst` run from ``source`` until
    ``target`` is expanded (-1: none): ``(came, queue, reached, expanded)``, the
    first ``reached`` cells of ``queue`` being those the search reached. (A side open
    off the grid, which a checked maze has not, is not followed.)"""
    size = cells.size
    came = np.zeros(size, dtype=np.uint8)
    queue = np.empty(size, dtype=np.int64)
    came[source] = 16
    queue[0] = source
    reached = 1
    head = 0
    while head < reached:
        here = queue[head]
        head += 1
        if here == target:
            return came, queue, reached, head
        mask = cells[here]
        if mask & 1:
            there = here - width
            if there >= 0 and came[there] == 0:
                came[there] = 4
                queue[reached] = there
                reached += 1
        if mask & 2:
            there = here + 1
            if there < size and came[there] == 0:
                came[there] = 8
                queue[reached] = there
                reached += 1
        if mask & 4:
            there = here + width
            if there < size and came[there] == 0:
                came[there] = 1
                queue[reached] = there
                reached += 1
        if mask & 8:
            there = here - 1
            if there >= 0 and came[there] == 0:
                came[there] = 2
                queue[reached] = there
                reached += 1
    return came, queue, reached, head


@numba.njit(cache=False)
def edge_weights(words, height, width, bits):  # pragma: no cover
    """:func:`.kruskal.edge_weights` from the stream ``words``: each wall's random high
    bits (a raw number shifted right by ``1 + bits``) with its number in the low ``bits``;
    the ``(east, south)`` arrays."""
    count_east = height * (width - 1)
    count = count_east + (height - 1) * width
    weights = np.empty(count, dtype=np.int64)
    shift = np.uint64(1 + bits)
    low = np.uint64(bits)
    for i in range(count):
        weights[i] = np.int64(((_next(words) >> shift) << low) | np.uint64(i))
    return (weights[:count_east].reshape(height, width - 1),
            weights[count_east:].reshape(height - 1, width))  # fmt: skip


@numba.njit(inline="always")
def _root(parent, x):  # pragma: no cover
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@numba.njit(inline="always")
def _ends(e, count_east, width):  # pragma: no cover
    """The two flat cells of wall ``e`` (east walls first, then south walls, row by row)."""
    if e < count_east:
        row = e // (width - 1)
        a = e + row
        return a, a + 1
    a = e - count_east
    return a, a + width


@numba.njit(cache=False)
def spanning_tree(east_weight, south_weight):  # pragma: no cover
    """:func:`.kruskal.minimum_spanning_tree` for distinct weights (Kruskal's and Prim's):
    the same tree (a minimum spanning tree of distinct weights is unique), by Borůvka
    rounds on a union-find. Returns the ``(east, south)`` passage arrays."""
    height = east_weight.shape[0]
    width = south_weight.shape[1]
    east_flat = east_weight.ravel()
    south_flat = south_weight.ravel()
    count_east = east_flat.size
    walls = count_east + south_flat.size
    n = height * width
    parent = np.arange(n)
    best = np.full(n, -1, dtype=np.int64)
    best_weight = np.zeros(n, dtype=np.int64)
    alive = np.arange(walls)
    count = walls
    roots = np.arange(n)
    components = n
    east = np.zeros((height, width), dtype=np.bool_)
    south = np.zeros((height, width), dtype=np.bool_)
    while count:
        kept = 0
        for i in range(count):
            e = alive[i]
            a, b = _ends(e, count_east, width)
            a = _root(parent, a)
            b = _root(parent, b)
            if a == b:
                continue
            alive[kept] = e
            kept += 1
            weight = east_flat[e] if e < count_east else south_flat[e - count_east]
            if best[a] < 0 or weight < best_weight[a]:
                best[a] = e
                best_weight[a] = weight
            if best[b] < 0 or weight < best_weight[b]:
                best[b] = e
                best_weight[b] = weight
        count = kept
        for i in range(components):
            e = best[roots[i]]
            if e < 0:
                continue
            best[roots[i]] = -1
            a, b = _ends(e, count_east, width)
            a = _root(parent, a)
            b = _root(parent, b)
            if a == b:
                continue
            parent[a] = b
            if e < count_east:
                row = e // (width - 1)
                east[row, e - row * (width - 1)] = True
            else:
                south[(e - count_east) // width, (e - count_east) % width] = True
        left = 0
        for i in range(components):
            if parent[roots[i]] == roots[i]:
                roots[left] = roots[i]
                left += 1
        components = left
    return east, south


@numba.njit(cache=False)
def binary_tree(words, height, width, vertical, horizontal):  # pragma: no cover
    """:func:`.simple.binary_tree`'s maze from the stream ``words``: a coin (a raw
    number's top bit) a cell, row by row; the open-side bitmasks."""
    cells = np.zeros((height, width), dtype=np.uint8)
    edge_row = 0 if vertical == 1 else height - 1
    edge_col = 0 if horizontal == 8 else width - 1
    up = -1 if vertical == 1 else 1
    side = -1 if horizontal == 8 else 1
    back_v = _OPPOSITE[vertical]
    back_h = _OPPOSITE[horizontal]
    for row in range(height):
        for col in range(width):
            coin = (_next(words) >> _S63) != 0
            if row == edge_row:
                if col == edge_col:
                    continue
                coin = False
            elif col == edge_col:
                coin = True
            if coin:
                cells[row, col] |= vertical
                cells[row + up, col] |= back_v
            else:
                cells[row, col] |= horizontal
                cells[row, col + side] |= back_h
    return cells


@numba.njit(cache=False)
def sidewinder(words, picks, height, width):  # pragma: no cover
    """:func:`.simple.sidewinder`'s maze: ``words`` is the stream of the closing coins
    (a raw number's top bit a cell, rows 1 on), ``picks`` the same stream after all of
    them, of each run's cell that opens north; the open-side bitmasks."""
    cells = np.zeros((height, width), dtype=np.uint8)
    for col in range(width - 1):  # the top row's corridor
        cells[0, col] |= 2
        cells[0, col + 1] |= 8
    for row in range(1, height):
        first = 0
        for col in range(width):
            close = (_next(words) >> _S63) != 0  # (drawn at the east edge too)
            if not close and col < width - 1:
                cells[row, col] |= 2
                cells[row, col + 1] |= 8
                continue
            length = np.uint64(col - first + 1)
            pick = first + np.int64(((_next(picks) >> _S32) * length) >> _S32)
            cells[row, pick] |= 1
            cells[row - 1, pick] |= 4
            first = col + 1
    return cells


@numba.njit(cache=False)
def eller(words, height, width, join_bound, down):  # pragma: no cover
    """:func:`.eller.eller`'s maze, row by row with the same random numbers (a row's
    join coins, then its keys and its extra coins down); the open-side bitmasks. Sets
    are labelled 0 .. width-1 afresh each row (the labels never reach the maze)."""
    cells = np.zeros((height, width), dtype=np.uint8)
    labels = np.arange(width)
    parent = np.empty(width, dtype=np.int64)
    roots = np.empty(width, dtype=np.int64)
    coins = np.empty(width, dtype=np.int64)
    keys = np.empty(width, dtype=np.float64)
    best = np.empty(width, dtype=np.int64)
    renamed = np.empty(width, dtype=np.int64)
    going = np.empty(width, dtype=np.bool_)
    for row in range(height):
        last = row == height - 1
        for col in range(width):
            coins[col] = np.int64(_next(words) >> _S11)
            parent[col] = col
        for col in range(width - 1):
            if last or coins[col] < join_bound:
                a = _root(parent, labels[col])
                b = _root(parent, labels[col + 1])
                if a != b:
                    parent[b] = a
                    cells[row, col] |= 2
                    cells[row, col + 1] |= 8
        if last:
            break
        for col in range(width):
            roots[col] = _root(parent, labels[col])
            best[col] = -1
            renamed[col] = -1
        for col in range(width):
            keys[col] = _float(words)
        # one cell per set goes down: the one with the smallest key (the first on a tie)
        for col in range(width):
            r = roots[col]
            if best[r] < 0 or keys[col] < keys[best[r]]:
                best[r] = col
        for col in range(width):
            going[col] = _float(words) < down
        for col in range(width):
            if best[roots[col]] == col:
                going[col] = True
        count = 0
        for col in range(width):
            if going[col]:
                cells[row, col] |= 4
                cells[row + 1, col] |= 1
                r = roots[col]
                if renamed[r] < 0:
                    renamed[r] = count
                    count += 1
                labels[col] = renamed[r]
            else:
                labels[col] = count
                count += 1
    return cells


@numba.njit(cache=False)
def division(words, height, width):  # pragma: no cover
    """:func:`.division.recursive_division`'s maze: the rooms of a level in the same
    order, each level's floats drawn as there (every room's coin, then every cut, then
    every gap); the open-side bitmasks."""
    n = height * width
    passages = np.ones(2 * n, dtype=np.bool_)  # south of cell i at i, east of it at n + i
    top = np.zeros(1, dtype=np.int64)
    left = np.zeros(1, dtype=np.int64)
    rows = np.full(1, height, dtype=np.int64)
    cols = np.full(1, width, dtype=np.int64)
    count = 1
    while True:
        kept = 0
        for i in range(count):
            if rows[i] >= 2 and cols[i] >= 2:
                top[kept] = top[i]
                left[kept] = left[i]
                rows[kept] = rows[i]
                cols[kept] = cols[i]
                kept += 1
        count = kept
        if not count:
            break
        draws = np.empty(3 * count, dtype=np.float64)
        for i in range(3 * count):
            draws[i] = _float(words)
        next_top = np.empty(2 * count, dtype=np.int64)
        next_left = np.empty(2 * count, dtype=np.int64)
        next_rows = np.empty(2 * count, dtype=np.int64)
        next_cols = np.empty(2 * count, dtype=np.int64)
        for i in range(count):
            r = rows[i]
            c = cols[i]
            h = r > c or (r == c and draws[i] < 0.5)
            across = r if h else c
            along = c if h else r
            cut = 1 + np.int64(draws[count + i] * (across - 1))
            gap = np.int64(draws[2 * count + i] * along)
            if h:
                first = (top[i] + cut - 1) * width + left[i]
                step = 1
            else:
                first = n + top[i] * width + left[i] + cut - 1
                step = width
            for k in range(along):
                passages[first + k * step] = k == gap
            next_top[i] = top[i]
            next_left[i] = left[i]
            next_rows[i] = cut if h else r
            next_cols[i] = c if h else cut
            next_top[count + i] = top[i] + cut if h else top[i]
            next_left[count + i] = left[i] if h else left[i] + cut
            next_rows[count + i] = r - cut if h else r
            next_cols[count + i] = c if h else c - cut
        top, left, rows, cols = next_top, next_left, next_rows, next_cols
        count *= 2
    cells = np.zeros((height, width), dtype=np.uint8)
    for row in range(height):
        for col in range(width):
            i = row * width + col
            if col < width - 1 and passages[n + i]:
                cells[row, col] |= 2
                cells[row, col + 1] |= 8
            if row < height - 1 and passages[i]:
                cells[row, col] |= 4
                cells[row + 1, col] |= 1
    return cells


@numba.njit(cache=False)
def aldous_broder(words, height, width, start):  # pragma: no cover
    """:func:`.aldous_broder.aldous_broder`'s walk, move for move: two bits of a raw
    number a move, low bits first, on the free walk folded into the grid (as
    :func:`._walk.folded` makes it); the open-side bitmasks and the number of moves."""
    n = height * width
    cells = np.zeros((height, width), dtype=np.uint8)
    entered = np.zeros(n, dtype=np.bool_)
    entered[start] = True
    y = start // width  # the free walk, modulo twice the side
    x = start % width
    row = y
    col = x
    count = 1
    walked = 0
    while count < n:
        bits = _next(words)
        for _ in range(32):
            move = np.int64(bits & _THREE)
            bits >>= np.uint64(2)
            if move == 0 or move == 2:
                y += move - 1
                if y < 0:
                    y += 2 * height
                elif y == 2 * height:
                    y = 0
                new_row = y if y < height else 2 * height - 1 - y
                new_col = col
            else:
                x += 2 - move
                if x < 0:
                    x += 2 * width
                elif x == 2 * width:
                    x = 0
                new_row = row
                new_col = x if x < width else 2 * width - 1 - x
            walked += 1
            cell = new_row * width + new_col
            if not entered[cell]:
                entered[cell] = True
                if new_row < row:  # came from the south
                    cells[new_row, new_col] |= 4
                    cells[row, col] |= 1
                elif new_row > row:
                    cells[new_row, new_col] |= 1
                    cells[row, col] |= 4
                elif new_col < col:
                    cells[new_row, new_col] |= 2
                    cells[row, col] |= 8
                else:
                    cells[new_row, new_col] |= 8
                    cells[row, col] |= 2
                count += 1
                if count == n:
                    break
            row = new_row
            col = new_col
    return cells, walked


@numba.njit(cache=False)
def prim_frontier(state, link, start, P, words):  # pragma: no cover
    """:func:`.prim.prim_frontier`'s loop on the padded ``state`` and ``link``: a random
    frontier cell a step (swapped with the last), joined to a random visited neighbour
    (no number drawn when it has one). The neighbour loop has no branches (each
    neighbour written, then counted or not: which are in the maze is a coin toss to
    the processor): a third less time in the cache, a tenth at 4096^2, where each
    step's random cell is a cache miss."""
    offsets = np.empty(4, dtype=np.int64)  # Padded.steps: N, E, S, W, with their backs
    offsets[0] = -P
    offsets[1] = 1
    offsets[2] = P
    offsets[3] = -1
    backs = np.array([4, 8, 1, 2], dtype=np.uint8)
    frontier = np.empty(state.size, dtype=np.int32)
    listed = np.zeros(state.size, dtype=np.uint8)
    joins = np.empty(4, dtype=np.uint8)
    count = 0
    state[start] = 1
    for k in range(4):
        there = start + offsets[k]
        if state[there] == 0:
            listed[there] = 1
            frontier[count] = there
            count += 1
    while count:
        pick = int(_float(words) * count)
        here = np.int64(frontier[pick])
        frontier[pick] = frontier[count - 1]
        count -= 1
        n_joins = 0
        for k in range(4):
            there = here + offsets[k]
            mark = state[there]
            joins[n_joins] = backs[k]  # (kept when in the maze: n_joins moves on)
            n_joins += mark == 1
            fresh = (mark == 0) & (listed[there] == 0)
            frontier[count] = there  # (kept when fresh: count moves on)
            listed[there] |= np.uint8(fresh)
            count += fresh
        back = joins[int(_float(words) * n_joins)] if n_joins > 1 else joins[0]
        link[here] = _OPPOSITE[back]
        state[here] = 1


def warm() -> None:
    """Compile (or load from lacak's cache) every kernel, on tiny mazes."""
    offsets = np.zeros((24, 4), dtype=np.int64)
    backs = np.zeros((24, 4), dtype=np.uint8)
    words = np.array([1, 2, 3, 5], dtype=np.uint64)
    state = np.array([2, 2, 2, 0, 0, 2, 2, 2, 2], dtype=np.uint8)
    link = np.zeros(9, dtype=np.uint8)
    choice = np.zeros(9, dtype=np.uint8)  # (the types of the real calls: no compile later)
    raw(words, 1)
    choices(words.copy(), 9, 1, 2)
    cells_from_links(link, 1, 2)
    cells_from_exits(np.zeros(9, dtype=np.int64), 1, 2)
    depth_first(state.copy(), link, offsets, backs, choice, 3)
    growing_tree(state.copy(), link, offsets, backs, choice, 3, 0, 0.5, words)
    hunt_and_kill(state.copy(), link, offsets, backs, choice, 3, 2, 1, True, 0.0, words)
    wilson(state.copy(), np.zeros(9, dtype=np.int64), 3, 3, words)
    spanning_tree(*edge_weights(words.copy(), 1, 2, 1))
    breadth_first(np.frombuffer(bytes([2, 8]), dtype=np.uint8), 2, 0, -1)  # (read-only)
    binary_tree(words.copy(), 2, 2, 1, 8)
    sidewinder(words.copy(), words.copy(), 2, 2)
    eller(words.copy(), 2, 2, 1 << 52, 0.5)
    division(words.copy(), 2, 2)
    aldous_broder(words.copy(), 2, 2, 0)
    prim_frontier(state.copy(), link, 3, 3, words)


lacak.store.compiled.cache_kernels(globals())  # machine code in lacak's checked cache

"""``astar-tiles``: A* specialised for sliding puzzles.

It finds the same answers as the generic ``astar`` but works on a compact
encoding (:mod:`lacak_sliding.tiles.encoding`): a whole board is one Python
``int`` (``bits`` per cell, the blank's position in the low bits), a move is
two integer operations, and an additive heuristic (:class:`~lacak_sliding.heuristics.TileTable`) is
updated by one table lookup for the tile that moved. It keeps its open list in buckets by ``f`` (integer heuristics), so pushing and
popping cost O(1), and stores one ``g`` per state; the path is read back by
walking from the goal to a neighbour with a smaller ``g``.

Memory grows with the search, not with the estimates: the buckets cover only
the window of ``f`` values the open list holds (relative to the start's), at
most :data:`DENSE_BUCKETS` or two per board generated; a search whose
estimates spread wider (weights of a million) moves its open list to a heap.
The time limit covers the set-up (preparing the heuristic, the move tables).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Any

import attrs
import lacak
from lacak import SearchResult, StopReason

from ..heuristics import LinearConflict, line_conflicts
from ..puzzle import SlidingPuzzle
from .encoding import Encoding, actions_along, check_puzzle, slow_limits

__all__ = ["Encoding", "astar_tiles"]

#: Bits of an open-list entry that hold ``g`` (entries are ``key << G_BITS | g``);
#: paths are cut at ``G_MASK`` moves (the search then reports ``depth-limit``).
G_BITS = 20
G_MASK = (1 << G_BITS) - 1

#: Buckets the open list may hold whatever the search generated (64 bytes each);
#: past that, at most two per board generated, else the open list becomes a heap.
DENSE_BUCKETS = 1 << 16


class _NotIntegral(Exception):
    pass


def _slot_bits(n: int) -> int:
    return 5 if n <= 9 else 7 if n <= 16 else 8


class _Plan:
    """What ``astar-tiles`` derives from a board size and a prepared heuristic, kept for reuse.

    ``check()`` is called between the rows of the tables (a 32x32 board has
    four million entries): it raises to abandon the plan.
    """

    def __init__(self, puzzle: SlidingPuzzle, prepared: Any, check: Callable[[], None]) -> None:
        self.prepared = prepared
        self.enc = enc = Encoding(puzzle.width, puzzle.height)
        self.moves = moves = enc.moves(puzzle)
        n = enc.n
        table = getattr(prepared, "table", None)
        self.conflict: LinearConflict | None = (
            prepared if isinstance(prepared, LinearConflict) else None
        )
        if self.conflict is not None:
            table = self.conflict.manhattan.table
        self.integral = table is None or all(isinstance(v, int) for row in table for v in row)
        self.table = table if self.integral else None
        self.deltas: list[list[list[int]]] = []
        self.fast_moves: list[list[tuple[int, int, int, list[int]]]] = []
        if self.table is not None:
            t_ = self.table
            bits = _slot_bits(n)
            for b in range(n):
                check()
                rows = [[t_[t][b] - t_[t][c] for t in range(n)] for (_s, _m, _d, _a, c) in moves[b]]
                self.deltas.append(rows)
                self.fast_moves.append(
                    [
                        (sh, mul, db, [d << bits for d in rows[i]])
                        for i, (sh, mul, db, _a, _c) in enumerate(moves[b])
                    ]
                )
        self.line_cache: dict[tuple[int, int], int] = {}


_PLANS: dict[tuple[int, int, int], _Plan] = {}


def _plan_for(puzzle: SlidingPuzzle, prepared: Any, check: Callable[[], None]) -> _Plan:
    key = (puzzle.width, puzzle.height, id(prepared))
    plan = _PLANS.get(key)
    if plan is None or plan.prepared is not prepared or plan.enc.width != puzzle.width:
        if len(_PLANS) >= 32:
            _PLANS.clear()
        plan = _Plan(puzzle, prepared, check)
        _PLANS[key] = plan
    if not plan.integral:
        raise _NotIntegral
    return plan


def astar_tiles(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None = None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None = None,
) -> SearchResult:
    """A* specialised for sliding puzzles; same answers as ``astar``, many times faster.

    Additive heuristics (``misplaced``, ``manhattan``, integer-weighted
    ``weighted``, and any heuristic whose prepared form has a
    ``table[tile][position]``) are updated incrementally; ``linear-conflict``
    recomputes only the two lines a move touches (cached by line content);
    any other heuristic is called on the decoded board. A heuristic with
    non-integer values is handed to the generic ``astar`` strategy.

    ``limits.seconds`` counts from the call: preparing the heuristic (a
    pattern database built now) and the move tables count against it.

    :raises InvalidPuzzleError: the puzzle is not a sliding puzzle.
    :raises OutOfMemoryError: the boards stored do not fit in memory (the
        message says how many there were).

    .. rubric:: Examples

    >>> import lacak
    >>> p = lacak.parse("sliding", "123845706", goal="123804765")
    >>> lacak.solve(p, "astar-tiles", heuristic="manhattan").actions
    ('R', 'U', 'L')
    """
    puzzle = check_puzzle(puzzle, "astar-tiles")
    budget = limits.start()
    with budget:  # searches and set-up started inside share the deadline
        if heuristic is None:
            heuristic = lacak.resolve_heuristic(puzzle, puzzle.default_heuristic)
            assert heuristic is not None
        try:
            return _astar(puzzle, heuristic, limits, budget, trace)
        except _NotIntegral:
            return lacak.solve(
                puzzle, "astar", heuristic=heuristic, limits=limits, trace=trace or False
            )


def _stopped_in_setup(
    puzzle: SlidingPuzzle,
    heuristic: lacak.Heuristic,
    budget: lacak.Budget,
    trace: lacak.SearchTrace | None,
    stopped: StopReason = StopReason.TIME,
) -> SearchResult:
    return SearchResult.finished(
        puzzle.initial,
        stopped,
        budget=budget,
        heuristic=heuristic,
        strategy="astar-tiles",
        trace=trace,
    )


def _astar(
    puzzle: SlidingPuzzle,
    heuristic: lacak.Heuristic,
    limits: lacak.Limits,
    budget: lacak.Budget,
    trace: lacak.SearchTrace | None,
) -> SearchResult:
    size = f"{puzzle.width}x{puzzle.height}"
    what = f"preparing {heuristic.spec} and the move tables of a {size} board"
    spent = budget.exceeded(0)
    if spent is not None:  # no node may be expanded: nothing to prepare (a pattern database)
        return _stopped_in_setup(puzzle, heuristic, budget, trace, spent)
    try:
        # a pattern database built now checks the running budget between batches
        prepared = heuristic.for_puzzle(puzzle)
        plan = _plan_for(puzzle, prepared, lambda: budget.check_time(what))
    except lacak.LimitReachedError:
        if not budget.time_up():
            raise
        return _stopped_in_setup(puzzle, heuristic, budget, trace)
    if budget.time_up():
        return _stopped_in_setup(puzzle, heuristic, budget, trace)
    g_of: dict[int, int] = {}
    try:
        return _run(puzzle, heuristic, limits, budget, trace, prepared, plan, g_of)
    except MemoryError:
        stored = len(g_of)
        g_of.clear()
        raise lacak.OutOfMemoryError(
            f"not enough memory for astar-tiles on this {size} board: "
            f"{stored:,} boards were stored when memory ran out; set --timeout or "
            "--max-nodes, or use idastar-tiles, which keeps one path only"
        ) from None


def _run(
    puzzle: SlidingPuzzle,
    heuristic: lacak.Heuristic,
    limits: lacak.Limits,
    budget: lacak.Budget,
    trace: lacak.SearchTrace | None,
    prepared: Any,
    plan: _Plan,
    g_of: dict[int, int],
) -> SearchResult:
    enc, moves, deltas, table, conflict = (
        plan.enc,
        plan.moves,
        plan.deltas,
        plan.table,
        plan.conflict,
    )
    mask, blank_mask = enc.mask, enc.blank_mask
    width = puzzle.width
    line_cache = plan.line_cache
    rows_shift = [enc.shift[r * width] for r in range(puzzle.height)]
    row_mask = (1 << (enc.bits * width)) - 1
    bits = enc.bits
    col_shifts = [[enc.shift[r * width + c] for r in range(puzzle.height)] for c in range(width)]

    def row_conf(key: int, r: int) -> int:
        content = (key >> rows_shift[r]) & row_mask
        cached = line_cache.get((r, content))
        if cached is None:
            tiles = [(content >> (i * bits)) & mask for i in range(width)]
            assert conflict is not None
            cached = line_conflicts(
                [conflict.goal_col[t] for t in tiles if t and conflict.goal_row[t] == r]
            )
            line_cache[(r, content)] = cached
        return cached

    def col_conf(key: int, c: int) -> int:
        tiles = [(key >> s) & mask for s in col_shifts[c]]
        content = -1 - sum(t << (i * bits) for i, t in enumerate(tiles))
        cached = line_cache.get((c, content))
        if cached is None:
            assert conflict is not None
            cached = line_conflicts(
                [conflict.goal_row[t] for t in tiles if t and conflict.goal_col[t] == c]
            )
            line_cache[(c, content)] = cached
        return cached

    def full_h(key: int) -> int:
        value = prepared(enc.decode(key))
        if value != int(value):
            raise _NotIntegral
        return int(value)

    start = enc.encode(puzzle.initial)
    goal = enc.encode(puzzle.goal)
    h0 = full_h(start)
    g_of[start] = 0
    # Open list: buckets indexed by f * slots + (slots - 1 - g), so ties on f go
    # to the deepest node (smallest h) first; g past the slots shares slot 0.
    # Indexes are relative to f_off (the start's f at first): the buckets span
    # only the f values the open list holds. Past the bucket allowance the open
    # list becomes a heap of (index, entry) (``dense`` false).
    slot_bits = _slot_bits(enc.n)
    slots = 1 << slot_bits
    low = slots - 1
    f_off = h0
    cur = low
    buckets: list[list[int]] = [[] for _ in range(slots)]
    buckets[cur].append(start << G_BITS)
    heap: list[tuple[int, int]] = []
    dense = True
    tid_of: dict[int, int] = {}
    if trace is not None:
        tid_of[start] = trace.add(None, puzzle.initial, h=h0)
    max_exp = limits.max_expanded
    depth_cap = G_MASK if limits.max_depth is None else min(limits.max_depth, G_MASK)
    slow = slow_limits(limits)
    expanded = generated = 0
    open_size = max_frontier = 1
    deepest = 0
    cut = False
    stopped = StopReason.EXHAUSTED
    found = None
    top = len(buckets)
    general = True
    if trace is None and conflict is None and table is not None and not slow:
        loop = _table_loop(
            buckets, cur, slot_bits, f_off, g_of, goal, plan.fast_moves, mask, blank_mask,
            max_exp, depth_cap,
        )  # fmt: skip
        stopped, found = loop.stopped or StopReason.EXHAUSTED, loop.found
        expanded, generated, max_frontier = loop.expanded, loop.generated, loop.max_frontier
        deepest, cut, open_size, f_off = loop.deepest, loop.cut, loop.open_size, loop.f_off
        general = loop.spill is not None
        if loop.spill is not None:  # the estimates spread too wide for buckets
            heap = _to_heap(buckets, loop.spill)
            buckets, dense = [], False
    while general:
        if dense:
            while cur < top and not buckets[cur]:
                cur += 1
            if cur >= top:
                stopped = StopReason.DEPTH if cut else StopReason.EXHAUSTED
                break
            entry = buckets[cur].pop()
        else:
            if not heap:
                stopped = StopReason.DEPTH if cut else StopReason.EXHAUSTED
                break
            cur, entry = heapq.heappop(heap)
        open_size -= 1
        key = entry >> G_BITS
        g = entry & G_MASK
        if g_of[key] != g:
            continue  # a cheaper copy was queued since
        if max_exp is not None and expanded >= max_exp:
            stopped = StopReason.NODES
            break
        if slow:
            stop = budget.exceeded(expanded, open_size + 1, len(g_of))
            if stop is not None:
                stopped = stop
                break
        expanded += 1
        if trace is not None:
            trace.expand(tid_of.get(key, -1))
        if key == goal:
            found = key
            stopped = StopReason.GOAL
            break
        ng = g + 1
        if ng > depth_cap:
            cut = True
            continue
        h = (cur >> slot_bits) + f_off - g
        blank = key & blank_mask
        for i, (sh, mul, db, action, cell) in enumerate(moves[blank]):
            t = (key >> sh) & mask
            child = key + t * mul + db
            old = g_of.get(child)
            if old is not None and old <= ng:
                continue
            g_of[child] = ng
            if conflict is not None:
                if db == 1 or db == -1:  # horizontal: the columns of blank and cell change
                    c1, c2 = blank % width, cell % width
                    extra = (col_conf(child, c1) + col_conf(child, c2)) - (
                        col_conf(key, c1) + col_conf(key, c2)
                    )
                else:
                    r1, r2 = blank // width, cell // width
                    extra = (row_conf(child, r1) + row_conf(child, r2)) - (
                        row_conf(key, r1) + row_conf(key, r2)
                    )
                nh = h + deltas[blank][i][t] + 2 * extra
            elif table is not None:
                nh = h + deltas[blank][i][t]
            else:
                nh = full_h(child)
            index = (ng + nh - f_off) << slot_bits | (low - ng if ng < low else 0)
            item = child << G_BITS | ng
            if dense:
                if index >= top:
                    if cur >= slots and cur << 1 >= top:  # drop the empty buckets below cur
                        drop = cur >> slot_bits << slot_bits
                        del buckets[:drop]
                        top -= drop
                        cur -= drop
                        index -= drop
                        f_off += drop >> slot_bits
                    if index >= max(DENSE_BUCKETS, generated << 1):
                        heap, buckets, dense = _to_heap(buckets, []), [], False
                    elif index >= top:
                        buckets.extend([] for _ in range(index + 1 - top))
                        top = len(buckets)
                elif index < cur:
                    if index < 0:  # an inconsistent estimate: f fell below every bucket
                        allowed = max(DENSE_BUCKETS, generated << 1)
                        grow = _grow_below(index, top, slot_bits, allowed)
                        if grow:
                            buckets[:0] = [[] for _ in range(grow)]
                            top += grow
                            cur += grow
                            index += grow
                            f_off -= grow >> slot_bits
                        else:
                            heap, buckets, dense = _to_heap(buckets, []), [], False
                    if dense:
                        cur = index
            if dense:
                buckets[index].append(item)
            else:
                heapq.heappush(heap, (index, item))
            generated += 1
            open_size += 1
            if trace is not None:
                tid_of[child] = trace.add(
                    tid_of.get(key, -1), enc.decode(child), action, depth=ng, g=ng, h=nh
                )
        if ng > deepest:
            deepest = ng
        if open_size > max_frontier:
            max_frontier = open_size
    path = None
    if found is not None:
        keys = _walk_back(found, g_of, moves, mask, blank_mask)
        path = [enc.decode(k) for k in keys]
        if trace is not None:
            trace.mark_goal(tid_of.get(found, -1))
    return SearchResult.finished(
        puzzle.initial,
        stopped,
        states=path,
        actions=actions_along(path, puzzle.width) if path is not None else (),
        expanded=expanded,
        generated=generated,
        max_frontier=max_frontier,
        depth=deepest,
        budget=budget,
        heuristic=heuristic,
        strategy="astar-tiles",
        trace=trace,
    )


def _grow_below(index: int, top: int, slot_bits: int, allowed: int) -> int:
    """Buckets to add below the first so that ``index`` (negative) fits, or 0 if past ``allowed``.

    A multiple of the slots per ``f``; generous (half the buckets again) so
    that a search whose ``f`` keeps falling does not copy the list each time.
    """
    low = (1 << slot_bits) - 1
    need = (low - index) >> slot_bits << slot_bits
    if top + need > allowed:
        return 0
    generous = max(need, (top >> (slot_bits + 1)) << slot_bits)
    return generous if top + generous <= allowed else need


def _to_heap(buckets: list[list[int]], spill: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The open list as a heap of ``(index, entry)``: every bucket's entries and ``spill``."""
    heap = [(index, entry) for index, bucket in enumerate(buckets) for entry in bucket]
    heap.extend(spill)
    heapq.heapify(heap)
    return heap


@attrs.define(kw_only=True)
class _Loop:
    """Where :func:`_table_loop` stopped; ``spill`` is not ``None`` when it handed over."""

    stopped: StopReason | None
    found: int | None
    expanded: int
    generated: int
    max_frontier: int
    deepest: int
    cut: bool
    open_size: int
    f_off: int
    spill: list[tuple[int, int]] | None


def _table_loop(
    buckets: list[list[int]],
    cur: int,
    slot_bits: int,
    f_off: int,
    g_of: dict[int, int],
    goal: int,
    moves: list[list[tuple[int, int, int, list[int]]]],
    mask: int,
    blank_mask: int,
    max_exp: int | None,
    depth_cap: int,
) -> _Loop:
    """The A* loop for additive table heuristics without trace or clock: the hot path.

    ``moves[blank]`` lists ``(shift, multiplier, blank delta, h deltas)`` with the
    h change of each moving tile already shifted into bucket-index units.
    Bucket indexes are relative to ``f_off``; the loop drops the empty buckets
    below the lowest it still needs and adds buckets below the first for an
    inconsistent estimate. When the buckets would pass their allowance it
    finishes the node it is expanding and returns, with the children that did
    not fit in ``spill``, for the general loop to go on with a heap.
    """
    limit = (1 << 62) if max_exp is None else max_exp
    slots = 1 << slot_bits
    low = slots - 1
    never = 1 << 62
    top = len(buckets)
    expanded = generated = deepest = pops = 0
    max_frontier = 1
    cut = False
    get = g_of.get
    spill: list[tuple[int, int]] = []

    def done(stopped: StopReason | None, found: int | None = None) -> _Loop:
        return _Loop(
            stopped=stopped,
            found=found,
            expanded=expanded,
            generated=generated,
            max_frontier=max_frontier,
            deepest=deepest,
            cut=cut,
            open_size=generated + 1 - pops,
            f_off=f_off,
            spill=spill if stopped is None else None,
        )

    while True:
        while cur < top and not buckets[cur]:
            cur += 1
        if cur >= top:
            return done(StopReason.DEPTH if cut else StopReason.EXHAUSTED)
        entry = buckets[cur].pop()
        pops += 1
        key = entry >> G_BITS
        g = entry & G_MASK
        if g_of[key] != g:
            continue
        if expanded >= limit:
            return done(StopReason.NODES)
        expanded += 1
        if key == goal:
            return done(StopReason.GOAL, key)
        ng = g + 1
        if ng > depth_cap:
            cut = True
            continue
        # the child's bucket index is base + (h change << slot_bits)
        base = ((cur >> slot_bits) + 1) << slot_bits | (low - ng if ng < low else 0)
        for sh, mul, db, delta in moves[key & blank_mask]:
            t = (key >> sh) & mask
            child = key + t * mul + db
            if get(child, never) <= ng:
                continue
            g_of[child] = ng
            index = base + delta[t]
            if index >= top:
                if cur >= slots and cur << 1 >= top:  # drop the empty buckets below cur
                    drop = cur >> slot_bits << slot_bits
                    del buckets[:drop]
                    top -= drop
                    cur -= drop
                    base -= drop
                    index -= drop
                    f_off += drop >> slot_bits
                    for i in range(len(spill)):  # keep spilled children in step
                        spill[i] = (spill[i][0] - drop, spill[i][1])
                if index >= max(DENSE_BUCKETS, generated << 1):
                    spill.append((index, child << G_BITS | ng))
                    generated += 1
                    continue
                if index >= top:
                    buckets.extend([] for _ in range(index + 1 - top))
                    top = len(buckets)
            elif index < cur:
                if index < 0:  # an inconsistent estimate: f fell below every bucket
                    grow = _grow_below(index, top, slot_bits, max(DENSE_BUCKETS, generated << 1))
                    if not grow:
                        spill.append((index, child << G_BITS | ng))
                        generated += 1
                        continue
                    buckets[:0] = [[] for _ in range(grow)]
                    top += grow
                    cur += grow
                    base += grow
                    index += grow
                    f_off -= grow >> slot_bits
                    for i in range(len(spill)):  # keep spilled children in step
                        spill[i] = (spill[i][0] + grow, spill[i][1])
                cur = index
            buckets[index].append(child << G_BITS | ng)
            generated += 1
        if ng > deepest:
            deepest = ng
        if generated + 1 - pops > max_frontier:
            max_frontier = generated + 1 - pops
        if spill:
            return done(None)


def _walk_back(
    key: int,
    g_of: dict[int, int],
    moves: list[list[tuple[int, int, int, str, int]]],
    mask: int,
    blank_mask: int,
) -> list[int]:
    """Keys from the start to ``key``, stepping each time to the neighbour with the least ``g``."""
    keys = [key]
    g = g_of[key]
    while g > 0:
        best = None
        best_g = g
        for sh, mul, db, _a, _c in moves[key & blank_mask]:
            other = key + ((key >> sh) & mask) * mul + db
            og = g_of.get(other)
            if og is not None and og < best_g:
                best, best_g = other, og
        assert best is not None, "broken search tree"
        key, g = best, best_g
        keys.append(key)
    keys.reverse()
    return keys

"""Specialised searchers for sliding puzzles: ``astar-tiles`` and ``bfs-tiles``.

They find the same answers as the generic ``astar`` and ``bfs`` but work on
a compact encoding: a whole board is one Python ``int`` (``bits`` per cell,
the blank's position in the low bits), a move is two integer operations, and
an additive heuristic (:class:`~lacak_sliding.heuristics.TileTable`) is
updated by one table lookup for the tile that moved. ``astar-tiles`` keeps
its open list in buckets by ``f`` (integer heuristics), so pushing and
popping cost O(1), and stores one ``g`` per state; the path is read back by
walking from the goal to a neighbour with a smaller ``g``.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from typing import Any

import lacak
from lacak import SearchResult, SearchStats, StopReason

from .heuristics import LinearConflict, line_conflicts
from .pdb import BuildStopped, build_deadline
from .puzzle import SlidingPuzzle

__all__ = ["Encoding", "astar_tiles", "bfs_tiles"]

#: Bits of an open-list entry that hold ``g`` (entries are ``key << G_BITS | g``).
G_BITS = 20
G_MASK = (1 << G_BITS) - 1


class Encoding:
    """Boards as ints: ``key = blank + sum(tile << (blank_bits + p * bits))``.

    >>> e = Encoding(3, 3)
    >>> e.decode(e.encode((1, 2, 3, 4, 5, 0, 7, 8, 6)))
    (1, 2, 3, 4, 5, 0, 7, 8, 6)
    """

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.n = n = width * height
        self.bits = max(1, (n - 1).bit_length())
        self.mask = (1 << self.bits) - 1
        self.blank_bits = max(1, (n - 1).bit_length())
        self.blank_mask = (1 << self.blank_bits) - 1
        self.shift = [self.blank_bits + p * self.bits for p in range(n)]

    def encode(self, tiles: tuple[int, ...]) -> int:
        """The key of a board."""
        key = tiles.index(0)
        for p, t in enumerate(tiles):
            key |= t << self.shift[p]
        return key

    def decode(self, key: int) -> tuple[int, ...]:
        """The board of a key."""
        mask = self.mask
        return tuple((key >> s) & mask for s in self.shift)

    def moves(self, puzzle: SlidingPuzzle) -> list[list[tuple[int, int, int, str, int]]]:
        """Per blank position: ``(shift of the cell, key multiplier, blank delta, action, cell)``.

        Moving the blank from ``b`` to ``c`` where tile ``t`` stands turns
        ``key`` into ``key + t * multiplier + (c - b)``.
        """
        table = []
        for b in range(self.n):
            row = []
            for action, c in puzzle.neighbours(b):
                row.append(
                    (self.shift[c], (1 << self.shift[b]) - (1 << self.shift[c]), c - b, action, c)
                )
            table.append(row)
        return table


def _check_puzzle(puzzle: Any, strategy: str) -> SlidingPuzzle:
    if not isinstance(puzzle, SlidingPuzzle):
        raise lacak.InvalidPuzzleError(
            f"strategy {strategy!r} solves lacak_sliding.SlidingPuzzle boards, "
            f"not {type(puzzle).__name__}"
        )
    return puzzle


def _result(
    puzzle: SlidingPuzzle,
    strategy: str,
    heuristic: lacak.Heuristic | None,
    budget: lacak.Budget,
    stopped: StopReason,
    path: list[tuple[int, ...]] | None,
    *,
    expanded: int,
    generated: int,
    max_frontier: int,
    depth: int,
    trace: lacak.SearchTrace | None,
) -> SearchResult:
    stats = SearchStats(
        expanded=expanded,
        generated=generated,
        max_frontier=max_frontier,
        depth=depth,
        seconds=budget.elapsed(),
    )
    label = heuristic.spec if heuristic is not None else None
    if path is None:
        return SearchResult.not_found(
            puzzle.initial, stopped, stats=stats, strategy=strategy, heuristic=label, trace=trace
        )
    width = puzzle.width
    names = {width: "D", -width: "U", 1: "R", -1: "L"}
    actions = [names[b.index(0) - a.index(0)] for a, b in itertools.pairwise(path)]
    return SearchResult.from_states(
        path, actions, stats=stats, strategy=strategy, heuristic=label, trace=trace
    )


def _slow_limits(limits: lacak.Limits) -> bool:
    return (
        limits.seconds is not None
        or limits.max_frontier is not None
        or limits.max_closed is not None
    )


class _NotIntegral(Exception):
    pass


def _slot_bits(n: int) -> int:
    return 5 if n <= 9 else 7 if n <= 16 else 8


class _Plan:
    """What ``astar-tiles`` derives from a board size and a prepared heuristic, kept for reuse."""

    def __init__(self, puzzle: SlidingPuzzle, prepared: Any) -> None:
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
            self.deltas = [
                [[t_[t][b] - t_[t][c] for t in range(n)] for (_s, _m, _d, _a, c) in moves[b]]
                for b in range(n)
            ]
            bits = _slot_bits(n)
            self.fast_moves = [
                [
                    (sh, mul, db, [d << bits for d in self.deltas[b][i]])
                    for i, (sh, mul, db, _a, _c) in enumerate(moves[b])
                ]
                for b in range(n)
            ]
        self.line_cache: dict[tuple[int, int], int] = {}


_PLANS: dict[tuple[int, int, int], _Plan] = {}


def _plan_for(puzzle: SlidingPuzzle, prepared: Any) -> _Plan:
    key = (puzzle.width, puzzle.height, id(prepared))
    plan = _PLANS.get(key)
    if plan is None or plan.prepared is not prepared or plan.enc.width != puzzle.width:
        if len(_PLANS) >= 32:
            _PLANS.clear()
        plan = _PLANS[key] = _Plan(puzzle, prepared)
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

    :raises InvalidPuzzleError: the puzzle is not a sliding puzzle.

    Examples
    --------
    >>> import lacak
    >>> p = lacak.parse("sliding", "123845706", goal="123804765")
    >>> lacak.solve(p, "astar-tiles", heuristic="manhattan").actions
    ('R', 'U', 'L')
    """
    puzzle = _check_puzzle(puzzle, "astar-tiles")
    if heuristic is None:
        heuristic = lacak.resolve_heuristic(puzzle, puzzle.default_heuristic)
        assert heuristic is not None
    try:
        return _astar(puzzle, heuristic, limits, trace)
    except _NotIntegral:
        return lacak.solve(
            puzzle, "astar", heuristic=heuristic, limits=limits, trace=trace or False
        )


def _astar(
    puzzle: SlidingPuzzle,
    heuristic: lacak.Heuristic,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None,
) -> SearchResult:
    budget = limits.start()
    deadline = None if limits.seconds is None else budget.started + limits.seconds
    try:
        with build_deadline(deadline):  # a pattern database built now counts against the time
            prepared = heuristic.for_puzzle(puzzle)
    except BuildStopped:
        return _result(
            puzzle,
            "astar-tiles",
            heuristic,
            budget,
            StopReason.TIME,
            None,
            expanded=0,
            generated=0,
            max_frontier=0,
            depth=0,
            trace=trace,
        )
    plan = _plan_for(puzzle, prepared)
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
    g_of: dict[int, int] = {start: 0}
    # Open list: buckets indexed by f * slots + (slots - 1 - g), so ties on f go
    # to the deepest node (smallest h) first; g past the slots shares slot 0.
    slot_bits = _slot_bits(enc.n)
    slots = 1 << slot_bits
    low = slots - 1
    cur = h0 << slot_bits | low
    buckets: list[list[int]] = [[] for _ in range(cur + 1)]
    buckets[cur].append(start << G_BITS)
    tid_of: dict[int, int] = {}
    if trace is not None:
        tid_of[start] = trace.add(None, puzzle.initial, h=h0)
    max_exp = limits.max_expanded
    max_depth = limits.max_depth
    slow = _slow_limits(limits)
    expanded = generated = 0
    open_size = max_frontier = 1
    deepest = 0
    cut = False
    stopped = StopReason.EXHAUSTED
    found = None
    top = len(buckets)
    if trace is None and conflict is None and table is not None and not slow:
        stopped, found, expanded, generated, max_frontier, deepest = _table_loop(
            buckets,
            cur,
            slot_bits,
            g_of,
            goal,
            plan.fast_moves,
            mask,
            blank_mask,
            max_exp,
            max_depth,
        )
    else:
        while True:
            while cur < top and not buckets[cur]:
                cur += 1
            if cur >= top:
                stopped = StopReason.DEPTH if cut else StopReason.EXHAUSTED
                break
            entry = buckets[cur].pop()
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
            if max_depth is not None and ng > max_depth:
                cut = True
                continue
            h = (cur >> slot_bits) - g
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
                index = (ng + nh) << slot_bits | (low - ng if ng < low else 0)
                if index >= top:
                    buckets.extend([] for _ in range(index + 1 - top))
                    top = len(buckets)
                elif index < cur:
                    cur = index
                buckets[index].append(child << G_BITS | ng)
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
    return _result(
        puzzle,
        "astar-tiles",
        heuristic,
        budget,
        stopped,
        path,
        expanded=expanded,
        generated=generated,
        max_frontier=max_frontier,
        depth=deepest,
        trace=trace,
    )


def _table_loop(
    buckets: list[list[int]],
    cur: int,
    slot_bits: int,
    g_of: dict[int, int],
    goal: int,
    moves: list[list[tuple[int, int, int, list[int]]]],
    mask: int,
    blank_mask: int,
    max_exp: int | None,
    max_depth: int | None,
) -> tuple[StopReason, int | None, int, int, int, int]:
    """The A* loop for additive table heuristics without trace or clock: the hot path.

    ``moves[blank]`` lists ``(shift, multiplier, blank delta, h deltas)`` with the
    h change of each moving tile already shifted into bucket-index units.

    :returns: ``(stopped, goal key or None, expanded, generated, max_frontier, deepest)``.
    """
    limit = (1 << 62) if max_exp is None else max_exp
    depth_limit = (1 << 62) if max_depth is None else max_depth
    low = (1 << slot_bits) - 1
    never = 1 << 62
    top = len(buckets)
    expanded = generated = deepest = pops = 0
    max_frontier = 1
    cut = False
    get = g_of.get
    while True:
        while cur < top and not buckets[cur]:
            cur += 1
        if cur >= top:
            stopped = StopReason.DEPTH if cut else StopReason.EXHAUSTED
            return stopped, None, expanded, generated, max_frontier, deepest
        entry = buckets[cur].pop()
        pops += 1
        key = entry >> G_BITS
        g = entry & G_MASK
        if g_of[key] != g:
            continue
        if expanded >= limit:
            return StopReason.NODES, None, expanded, generated, max_frontier, deepest
        expanded += 1
        if key == goal:
            return StopReason.GOAL, key, expanded, generated, max_frontier, deepest
        ng = g + 1
        if ng > depth_limit:
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
                buckets.extend([] for _ in range(index + 1 - top))
                top = len(buckets)
            elif index < cur:
                cur = index
            buckets[index].append(child << G_BITS | ng)
            generated += 1
        if ng > deepest:
            deepest = ng
        if generated + 1 - pops > max_frontier:
            max_frontier = generated + 1 - pops


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


def bfs_tiles(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None = None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None = None,
) -> SearchResult:
    """Breadth-first search specialised for sliding puzzles: fewest moves, level by level.

    Checks each child for the goal as it is generated, so the goal's level is
    not expanded; with an unreachable goal it enumerates every reachable
    board (181,440 for the 8-puzzle).

    Examples
    --------
    >>> import lacak
    >>> p = lacak.parse("sliding", "123450786", goal="103425786")
    >>> lacak.solve(p, "bfs-tiles").actions
    ('L', 'U')
    """
    puzzle = _check_puzzle(puzzle, "bfs-tiles")
    budget = limits.start()
    enc = Encoding(puzzle.width, puzzle.height)
    moves = enc.moves(puzzle)
    mask, blank_mask = enc.mask, enc.blank_mask
    start = enc.encode(puzzle.initial)
    goal = enc.encode(puzzle.goal)
    parent: dict[int, int] = {start: -1}
    tid_of: dict[int, int] = {}
    if trace is not None:
        tid_of[start] = trace.add(None, puzzle.initial)
    max_exp = limits.max_expanded
    max_depth = limits.max_depth
    slow = _slow_limits(limits)
    expanded = generated = 0
    max_frontier = 1
    depth = 0
    found: int | None = None
    stopped = StopReason.EXHAUSTED
    layer = [start]
    if max_exp is not None and max_exp == 0:
        stopped, layer = StopReason.NODES, []
    elif start == goal:
        found, stopped, layer = start, StopReason.GOAL, []
        expanded = 1
    while layer:
        if max_depth is not None and depth >= max_depth:
            stopped = StopReason.DEPTH
            break
        following: list[int] = []
        append = following.append
        for key in layer:
            if max_exp is not None and expanded >= max_exp:
                stopped = StopReason.NODES
                break
            if slow:
                stop = budget.exceeded(expanded, len(layer) + len(following), len(parent))
                if stop is not None:
                    stopped = stop
                    break
            expanded += 1
            if trace is not None:
                trace.expand(tid_of.get(key, -1))
            for sh, mul, db, action, _cell in moves[key & blank_mask]:
                child = key + ((key >> sh) & mask) * mul + db
                if child in parent:
                    continue
                parent[child] = key
                append(child)
                if trace is not None:
                    tid_of[child] = trace.add(
                        tid_of.get(key, -1), enc.decode(child), action, depth=depth + 1, g=depth + 1
                    )
                if child == goal:
                    found = child
                    break
            if found is not None:
                break
        generated += len(following)
        if following:
            depth += 1
        if len(following) > max_frontier:
            max_frontier = len(following)
        if found is not None:
            stopped = StopReason.GOAL
            break
        if stopped is not StopReason.EXHAUSTED:
            break
        layer = following
    path = None
    if found is not None:
        keys: list[Hashable] = []
        key = found
        while key != -1:
            keys.append(key)
            key = parent[key]
        keys.reverse()
        path = [enc.decode(k) for k in keys]  # type: ignore[arg-type]
        if trace is not None:
            trace.mark_goal(tid_of.get(found, -1))
    return _result(
        puzzle,
        "bfs-tiles",
        None,
        budget,
        stopped,
        path,
        expanded=expanded,
        generated=generated,
        max_frontier=max_frontier,
        depth=depth,
        trace=trace,
    )

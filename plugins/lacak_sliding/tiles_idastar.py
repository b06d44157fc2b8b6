"""``idastar-tiles``: iterative-deepening A* specialised for sliding puzzles.

The generic ``idastar`` works on any :class:`lacak.Puzzle`: it builds a
tuple per child and calls the heuristic on it. This one knows the board. It
keeps one mutable board, the blank's cell and, for additive heuristics, one
index per tile group; a move slides one tile, so only that tile's group index
changes (by a precomputed amount) and the estimate is updated with two table
lookups. Nothing is allocated per node. The depth-first search itself is
generated as Python source, one function per blank cell, with the cell's
moves unrolled, the inverse of the last move skipped and the table lookups
inlined.

Heuristics it runs at full speed: the pattern databases of
:mod:`lacak_sliding.pdb` (with or without the reflected lookup), and every
table heuristic of :mod:`lacak_sliding.heuristics` (``manhattan``,
``misplaced``, ``weighted``). ``linear-conflict`` has an incremental path of
its own. Any other heuristic works through a slower path that builds the
state and calls it. The path found has least cost whenever the heuristic is
admissible.

Iterations: every move moves the blank by one cell, so the length of every
solution has the parity of the blank's distance to its goal cell; the bound
starts at the root's estimate (rounded up to that parity) and grows by two.

Counts are exact: ``expanded`` counts nodes tested for the goal and given
children, ``generated`` the children whose estimate was computed (the
inverse move is not generated).

Examples
--------
>>> import lacak
>>> puzzle = lacak.parse("sliding", "1 2 3 / 4 5 6 / 0 7 8")
>>> result = lacak.solve(puzzle, "idastar-tiles", heuristic="manhattan")
>>> result.actions, result.stats.expanded
(('R', 'R'), 3)
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import lacak
from lacak import SearchResult, SearchStats, StopReason

from .pdb import BuildStopped, build_deadline

__all__ = ["AdditiveModel", "additive_model", "idastar_tiles"]

#: Blank moves in the order children are tried: the order of
#: ``SlidingPuzzle.successors`` (D, R, L, U).
_ORDER = (("D", 1, 0), ("R", 0, 1), ("L", 0, -1), ("U", -1, 0))

#: Expanded nodes between two looks at the time limit.
CHECK_EVERY = 4096


class _Abort(Exception):
    """Stops the search; carries the blank cells of the stack, deepest first."""

    def __init__(self, reason: StopReason) -> None:
        super().__init__(reason)
        self.reason = reason
        self.stack: list[int] = []


def _neighbours(width: int, height: int) -> list[list[tuple[str, int]]]:
    out = []
    for z in range(width * height):
        r, c = divmod(z, width)
        moves = []
        for action, dr, dc in _ORDER:
            rr, cc = r + dr, c + dc
            if 0 <= rr < height and 0 <= cc < width:
                moves.append((action, rr * width + cc))
        out.append(moves)
    return out


class AdditiveModel:
    """An additive heuristic in the form the fast search needs.

    ``tables[g]`` is indexable by an int (``bytes`` or a list); tile ``t``
    belongs to table ``group[t]`` with weight ``weight[t]``; the estimate is
    ``sum(tables[g][index[g]])``. A table's index is either *sparse*,
    ``sum(weight[t] * cell(t))`` over its tiles, or (``ranked``) the rank of
    the placement of its tiles (``members[g]``, in order) as numbered by
    :class:`lacak_sliding.pdb_build.Placements`, ``weight`` then being the rank
    weights. The blank has weight 0 (it is in table 0, whose index it never
    changes). With a mirror (``mirror_cells``, ``mirror_tiles``), the estimate
    is the larger of that sum and the sum over the mirrored board.
    """

    def __init__(
        self,
        tables: Sequence[Any],
        group: Sequence[int],
        weight: Sequence[int],
        mirror: tuple[Sequence[int], Sequence[int]] | None = None,
        *,
        integral: bool = True,
        members: Sequence[Sequence[int]] | None = None,
    ) -> None:
        self.tables = list(tables)
        self.group = list(group)
        self.weight = list(weight)
        self.mirror = mirror
        self.integral = integral
        #: ``members[g]``: the tiles of table ``g`` in rank order, for ranked indexes.
        self.members = [list(m) for m in members] if members is not None else None

    @property
    def ranked(self) -> bool:
        """Whether tables are indexed by placement rank (moves across a row need more work)."""
        return self.members is not None

    def indexes(self, where: Sequence[int]) -> list[int]:
        """Each table's index when tile ``t`` stands on ``where[t]``."""
        out = [0] * len(self.tables)
        if self.members is None:
            for t, cell in enumerate(where):
                if t:
                    out[self.group[t]] += self.weight[t] * cell
            return out
        for g, tiles in enumerate(self.members):
            cells = [where[t] for t in tiles]
            total = 0
            for i, (t, c) in enumerate(zip(tiles, cells, strict=True)):
                total += (c - sum(1 for e in cells[:i] if e < c)) * self.weight[t]
            out[g] = total
        return out

    def value(self, where: Sequence[int]) -> float:
        """The (unreflected) sum for tiles standing on ``where``."""
        return sum(tab[i] for tab, i in zip(self.tables, self.indexes(where), strict=True))

    def mirrored(self, where: Sequence[int]) -> list[int]:
        """``where`` for the mirrored board."""
        assert self.mirror is not None
        cells, tiles = self.mirror
        out = [0] * len(where)
        for t, cell in enumerate(where):
            out[tiles[t]] = cells[cell]
        return out

    def crossing(self, t: int) -> list[int]:
        """How passing tile ``u`` changes tile ``t``'s table index: ``crossing(t)[u]``.

        For ranked tables, when ``t`` moves one row down past ``u`` of its own
        table, ``t``'s digit grows by one less if ``u`` comes earlier, and
        ``u``'s digit grows by one if it comes later. Zero for sparse tables,
        other tables' tiles and the blank.
        """
        n = len(self.group)
        out = [0] * n
        if self.members is None or t == 0:
            return out
        tiles = self.members[self.group[t]]
        mine = tiles.index(t)
        for j, u in enumerate(tiles):
            if j < mine:
                out[u] = -self.weight[t]
            elif j > mine:
                out[u] = self.weight[u]
        return out


def additive_model(prepared: Any, puzzle: Any) -> AdditiveModel | None:
    """The :class:`AdditiveModel` of a prepared heuristic, or ``None`` if it is not additive.

    Understood: pattern-database heuristics
    (:class:`~lacak_sliding.pdb.PatternHeuristic`; sparse tables when every
    group has one, else every group by rank) and tile tables
    (``table[tile][cell]``, as prepared by ``manhattan``, ``misplaced`` and
    ``weighted``).
    """
    n = puzzle.width * puzzle.height
    goal = tuple(puzzle.goal)
    if (
        getattr(prepared, "group_of", None) is not None
        and tuple(getattr(prepared, "goal", ())) == goal
        and (prepared.width, prepared.height) == (puzzle.width, puzzle.height)
    ):
        group = [max(g, 0) for g in prepared.group_of]
        mirror = (prepared.mirror_cells, prepared.mirror_tiles) if prepared.reflect else None
        if getattr(prepared, "sparse", False):
            tables = [g.sparse for g in prepared.groups]
            return AdditiveModel(tables, group, prepared.weight, mirror)
        weight = [0] * n
        for table in prepared.groups:
            for t, w in zip(table.tiles, table.rank_weights, strict=True):
                weight[t] = w
        return AdditiveModel(
            [g.compact_bytes() for g in prepared.groups],
            group,
            weight,
            mirror,
            members=[g.tiles for g in prepared.groups],
        )
    table = getattr(prepared, "table", None)
    if (
        table is not None
        and not callable(table)
        and getattr(prepared, "width", None) == puzzle.width
        and getattr(prepared, "height", None) == puzzle.height
        and tuple(getattr(prepared, "goal", goal)) == goal
        and len(table) == n
        and all(len(row) == n for row in table)
    ):
        rows = [list(row) for row in table]
        integral = all(float(v).is_integer() for row in rows for v in row)
        if integral:
            rows = [[int(v) for v in row] for row in rows]
        # one table per tile, indexed by the tile's cell; the blank's row is ignored
        rows[0] = [0] * n
        return AdditiveModel(rows, list(range(n)), [1] * n, integral=integral)
    return None


def _solvable(tiles: Sequence[int], goal: Sequence[int], width: int) -> bool:
    def invariant(state: Sequence[int]) -> int:
        seq = [t for t in state if t]
        inv = sum(1 for i, a in enumerate(seq) for b in seq[i + 1 :] if a > b)
        if width % 2 == 0:
            inv += list(state).index(0) // width
        return inv % 2

    return invariant(tiles) == invariant(goal)


def _between(a: int, b: int, width: int) -> list[int]:
    """Cells strictly between ``a`` and ``b`` in row-major order (a vertical move's crossings)."""
    lo, hi = min(a, b), max(a, b)
    return list(range(lo + 1, hi)) if hi - lo == width else []


def _source(
    width: int, height: int, reflect: bool, ranked: bool = False, mirror: Sequence[int] = ()
) -> str:
    """Python source of the depth-first search: ``make(...)`` returns one function per cell.

    With ``ranked`` tables a vertical move also adds the crossing terms of the
    tiles on the cells it passes (for the mirrored board, the real cells
    whose mirrors it passes), read from the per-tile ``X`` lists.
    """
    n = width * height
    nbrs = _neighbours(width, height)
    lines = [
        "def make(board, goal, gi, ri, IS, IN, IE, IW, b, chk, lim0, path):",
        "    n = 0",
        "    lim = lim0",
        "    c2 = 0",
        "    c3 = 0",
    ]
    args = "prev, g, h, k" if reflect else "prev, g, h"
    for z in range(n):
        degree = len(nbrs[z])
        counter = {3: "c2", 4: "c3"}.get(degree)
        lines.append(f"    def f{z}({args}):")
        lines.append(f"        nonlocal n, lim{', ' + counter if counter else ''}")
        lines.append("        n += 1")
        lines.append("        if n >= lim:")
        lines.append("            lim = chk(n)")
        if counter:
            lines.append(f"        {counter} += 1")
        # a move writes the tile's new cell, and restores its old one when the child
        # returns; the blank's cell keeps a stale tile, cleared before comparing
        lines.append("        if h == 0:")
        lines.append(f"            board[{z}] = 0")
        lines.append("            if board == goal:")
        lines.append("                return True")
        lines.append("        g1 = g + 1")
        lines.append("        c = b - g1  # a child is searched when its estimate is at most c")
        for _action, nz in nbrs[z]:
            d = z - nz  # the tile moves from nz to z
            table = {width: "IS", -width: "IN", 1: "IE", -1: "IW"}[d]
            ind = "        "
            lines.append(f"{ind}if prev != {nz}:")
            ind += "    "
            lines.append(f"{ind}t = board[{nz}]")
            cross = _between(nz, z, width) if ranked else []
            rcross = (
                [mirror[c] for c in _between(mirror[nz], mirror[z], width)]
                if ranked and reflect
                else []
            )
            names = ["gr", "tb", "dx"] + (["X"] if cross else [])
            if reflect:
                names += ["rg", "rt", "rx"] + (["RX"] if rcross else [])
            lines.append(f"{ind}{', '.join(names)} = {table}[t]")
            lines.append(f"{ind}o = gi[gr]")
            extra = "".join(f" + X[board[{c}]]" for c in cross)
            lines.append(f"{ind}w = o + dx{extra}")
            lines.append(f"{ind}h1 = h - tb[o] + tb[w]")
            lines.append(f"{ind}if h1 <= c:")
            ind += "    "
            if reflect:
                lines.append(f"{ind}ro = ri[rg]")
                rextra = "".join(f" + RX[board[{c}]]" for c in rcross)
                lines.append(f"{ind}rw = ro + rx{rextra}")
                lines.append(f"{ind}k1 = k - rt[ro] + rt[rw]")
                lines.append(f"{ind}if k1 <= c:")
                ind += "    "
            lines.append(f"{ind}board[{z}] = t")
            lines.append(f"{ind}gi[gr] = w")
            if reflect:
                lines.append(f"{ind}ri[rg] = rw")
            call = f"f{nz}({z}, g1, h1, k1)" if reflect else f"f{nz}({z}, g1, h1)"
            lines.append(f"{ind}try:")
            lines.append(f"{ind}    found = {call}")
            lines.append(f"{ind}except _Abort as stop:")
            lines.append(f"{ind}    stop.stack.append({nz})")
            lines.append(f"{ind}    raise")
            lines.append(f"{ind}if found:")
            lines.append(f"{ind}    path.append({nz})")
            lines.append(f"{ind}    return True")
            # the child may have written a tile into its blank cell, this move's source
            lines.append(f"{ind}board[{nz}] = t")
            lines.append(f"{ind}gi[gr] = o")
            if reflect:
                lines.append(f"{ind}ri[rg] = ro")
        lines.append("        return False")
    lines.append("    def counts():")
    lines.append("        return n, c2, c3")
    lines.append("    return [" + ", ".join(f"f{z}" for z in range(n)) + "], counts")
    return "\n".join(lines) + "\n"


_COMPILED: dict[tuple[Any, ...], Any] = {}


def _maker(width: int, height: int, reflect: bool, ranked: bool, mirror: Sequence[int]) -> Any:
    key = (width, height, reflect, ranked, tuple(mirror) if ranked else ())
    if key not in _COMPILED:
        namespace: dict[str, Any] = {"_Abort": _Abort}
        source = _source(width, height, reflect, ranked, mirror)
        code = compile(source, f"<idastar-tiles {width}x{height}>", "exec")
        exec(code, namespace)
        _COMPILED[key] = namespace["make"]
    return _COMPILED[key]


def _move_tables(model: AdditiveModel, width: int) -> dict[str, list[tuple[Any, ...]]]:
    """Per tile and direction of the tile's move: what the generated search unpacks.

    ``(group, table, index delta[, X])`` and, with a mirror, the same for the
    mirrored tile. ``X`` (ranked tables, moves between rows) is the signed
    crossing list of :meth:`AdditiveModel.crossing`.
    """
    n = len(model.group)
    out: dict[str, list[tuple[Any, ...]]] = {}
    crossings = [model.crossing(t) for t in range(n)] if model.ranked else []
    for name, delta in (("IS", width), ("IN", -width), ("IE", 1), ("IW", -1)):
        vertical = abs(delta) == width
        sign = 1 if delta > 0 else -1
        rows: list[tuple[Any, ...]] = []
        for t in range(n):
            g = model.group[t]
            row: tuple[Any, ...] = (g, model.tables[g], model.weight[t] * delta)
            if model.ranked and vertical:
                row += ([sign * x for x in crossings[t]],)
            if model.mirror is not None:
                cells, tiles = model.mirror
                # the mirrored tile moves between mirrored cells; the step is the same
                # for every cell (the mirror is linear), so take it where the move fits
                src = next(
                    p for p in range(n) if 0 <= p + delta < n and _adjacent(p, p + delta, width)
                )
                rd = cells[src + delta] - cells[src]
                rt = tiles[t]
                rg = model.group[rt]
                row += (rg, model.tables[rg], model.weight[rt] * rd)
                if model.ranked and abs(rd) == width:
                    rsign = 1 if rd > 0 else -1
                    row += ([rsign * crossings[rt][tiles[u]] for u in range(n)],)
            rows.append(row)
        out[name] = rows
    return out


def _adjacent(a: int, b: int, width: int) -> bool:
    return abs(a - b) == width or (abs(a - b) == 1 and a // width == b // width)


def _path_fix(nbrs: list[list[tuple[str, int]]], cells: Sequence[int], last_expanded: bool) -> int:
    """Generated children credited but never evaluated along a path of blank cells (root first).

    The fast search credits every expanded node with all its children at
    once (``degree - 1``, and one more for the root). Along the path of the
    last iteration, a node evaluated only the children up to the next cell on
    the path; the last node evaluated none when it was expanded (the goal)
    and was never credited when a limit struck before its expansion.
    """
    back = 0
    last = len(cells) - 1
    for i, z in enumerate(cells):
        prev = cells[i - 1] if i else -1
        options = [nz for _a, nz in nbrs[z] if nz != prev]
        if i < last:
            back += len(options) - (options.index(cells[i + 1]) + 1)
        elif last_expanded:
            back += len(options)
    return back


def idastar_tiles(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None = None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None = None,
) -> SearchResult:
    """Solve a sliding puzzle optimally with IDA* on one mutable board.

    :param puzzle: a sliding puzzle (``width``, ``height``, ``initial``, ``goal``).
    :param heuristic: an admissible heuristic for an optimal answer; pattern
        databases and table heuristics (Manhattan, misplaced) run fastest.
    :param limits: ``max_depth`` caps the bound; ``max_expanded`` and
        ``seconds`` stop the search cleanly (checked every node and every
        few thousand nodes respectively); ``max_frontier`` caps the path length.
    :param trace: record the search tree (uses the slower general path).
    :returns: the :class:`~lacak.SearchResult`; ``stats.iterations`` counts the bounds.
    :raises InvalidPuzzleError: the puzzle is not a sliding puzzle.
    """
    for attribute in ("width", "height", "initial", "goal"):
        if not hasattr(puzzle, attribute):
            raise lacak.InvalidPuzzleError(
                f"idastar-tiles needs a sliding puzzle; this one has no {attribute!r}"
            )
    if heuristic is None:
        raise lacak.InvalidOptionError("idastar-tiles needs a heuristic")
    width = puzzle.width
    start = tuple(puzzle.initial)
    goal = tuple(puzzle.goal)
    budget = limits.start()
    label = heuristic.spec
    if not _solvable(start, goal, width):
        return SearchResult.not_found(
            start,
            StopReason.EXHAUSTED,
            stats=SearchStats(seconds=budget.elapsed(), iterations=0),
            strategy="idastar-tiles",
            heuristic=label,
        )
    try:
        # a pattern database built now counts against the time limit
        with build_deadline(_deadline(limits, budget)):
            prepared = heuristic.for_puzzle(puzzle)
    except BuildStopped:
        return SearchResult.not_found(
            start,
            StopReason.TIME,
            stats=SearchStats(seconds=budget.elapsed(), iterations=0),
            strategy="idastar-tiles",
            heuristic=label,
        )
    if not heuristic.admissible and _depth_cap(limits) is not None:
        # the fast paths stop once the bound passes the depth cap, which only an
        # admissible heuristic allows: the general path cuts on depth instead
        return _general(puzzle, prepared, heuristic, limits, budget, trace)
    model = None if trace is not None else additive_model(prepared, puzzle)
    if model is not None:
        goal_where = _where(goal)
        if model.value(goal_where) != 0 or (
            model.mirror is not None and model.value(model.mirrored(goal_where)) != 0
        ):
            model = None  # the fast path tests for the goal only where h == 0
    if model is None:
        if trace is None and _is_linear_conflict(prepared, puzzle):
            return _linear(puzzle, prepared, heuristic, limits, budget)
        return _general(puzzle, prepared, heuristic, limits, budget, trace)
    return _fast(puzzle, model, heuristic, limits, budget)


def _where(state: Sequence[int]) -> list[int]:
    where = [0] * len(state)
    for cell, tile in enumerate(state):
        where[tile] = cell
    return where


def _parity(start: Sequence[int], goal: Sequence[int], width: int) -> int:
    a, b = list(start).index(0), list(goal).index(0)
    return (abs(a // width - b // width) + abs(a % width - b % width)) % 2


def _first_bound(h0: float, parity: int) -> int:
    bound = math.ceil(h0)
    if bound % 2 != parity:
        bound += 1
    return bound


def _result(
    puzzle: Any,
    start: tuple[int, ...],
    cells: list[int],
    found: bool,
    stopped: StopReason,
    *,
    expanded: int,
    generated: int,
    depth: int,
    seconds: float,
    iterations: int,
    label: str,
) -> SearchResult:
    stats = SearchStats(
        expanded=expanded,
        generated=generated,
        max_frontier=depth,
        depth=depth,
        seconds=seconds,
        iterations=iterations,
    )
    if not found:
        return SearchResult.not_found(
            start, stopped, stats=stats, strategy="idastar-tiles", heuristic=label
        )
    width = puzzle.width
    names = {width: "D", -width: "U", 1: "R", -1: "L"}
    actions = []
    states = [start]
    board = list(start)
    z = board.index(0)
    for nz in cells:
        actions.append(names[nz - z])
        board[z], board[nz] = board[nz], 0
        states.append(tuple(board))
        z = nz
    return SearchResult.from_states(
        states, actions, stats=stats, strategy="idastar-tiles", heuristic=label
    )


def _deep_enough(bound: int) -> None:
    """Let Python recurse as deep as the bound (one frame per move; 3.11 frames are cheap)."""
    needed = int(bound) + 200
    if sys.getrecursionlimit() < needed:
        sys.setrecursionlimit(needed)


def _deadline(limits: lacak.Limits, budget: lacak.Budget) -> float | None:
    return None if limits.seconds is None else budget.started + limits.seconds


def _fast(
    puzzle: Any,
    model: AdditiveModel,
    heuristic: lacak.Heuristic,
    limits: lacak.Limits,
    budget: lacak.Budget,
) -> SearchResult:
    width, height = puzzle.width, puzzle.height
    start = tuple(puzzle.initial)
    goal = list(puzzle.goal)
    nbrs = _neighbours(width, height)
    reflect = model.mirror is not None
    make = _maker(width, height, reflect, model.ranked, model.mirror[0] if model.mirror else ())
    moves = _move_tables(model, width)
    where = _where(start)
    gi0 = model.indexes(where)
    h0 = sum(tab[i] for tab, i in zip(model.tables, gi0, strict=True))
    ri0: list[int] = []
    k0 = 0
    if reflect:
        ri0 = model.indexes(model.mirrored(where))
        k0 = sum(tab[i] for tab, i in zip(model.tables, ri0, strict=True))
    bound = _first_bound(max(h0, k0), _parity(start, goal, width))
    max_expanded = limits.max_expanded
    max_depth = _depth_cap(limits)
    deadline = _deadline(limits, budget)
    expanded = credited = 0
    iterations = 0
    z0 = start.index(0)

    def finish(found: bool, stopped: StopReason, cells: list[int], depth: int) -> SearchResult:
        return _result(
            puzzle,
            start,
            cells,
            found,
            stopped,
            expanded=expanded,
            generated=credited,
            depth=depth,
            seconds=budget.elapsed(),
            iterations=iterations,
            label=heuristic.spec,
        )

    while True:
        if max_depth is not None and bound > max_depth:
            # with an admissible heuristic, a goal within max_depth is found at a smaller bound
            return finish(False, StopReason.DEPTH, [], max_depth)
        if deadline is not None and time.perf_counter() >= deadline:
            return finish(False, StopReason.TIME, [], bound)
        iterations += 1
        _deep_enough(bound)
        base = expanded

        def chk(count: int, base: int = base) -> int:
            """At a checkpoint of the node counter: the next checkpoint, or abort."""
            done = base + count  # the node about to be expanded is number ``done``
            if max_expanded is not None and done > max_expanded:
                raise _Abort(StopReason.NODES)
            if deadline is not None and time.perf_counter() >= deadline:
                raise _Abort(StopReason.TIME)
            nxt = count + CHECK_EVERY
            if max_expanded is not None:
                nxt = min(nxt, max_expanded - base + 1)
            return nxt

        first = CHECK_EVERY if max_expanded is None else min(CHECK_EVERY, max_expanded - base + 1)
        path: list[int] = []
        functions, counts = make(
            list(start),
            goal,
            list(gi0),
            list(ri0),
            moves["IS"],
            moves["IN"],
            moves["IE"],
            moves["IW"],
            bound,
            chk,
            first,
            path,
        )
        try:
            found = functions[z0](-1, 0, h0, k0) if reflect else functions[z0](-1, 0, h0)
        except _Abort as abort:
            n, c2, c3 = counts()
            cells = [z0, *reversed(abort.stack)]
            # the node where the limit struck was counted in n but not expanded
            expanded += n - 1
            root_expanded = len(cells) > 1
            credited += (n - 1) + c2 + 2 * c3 + (1 if root_expanded else 0)
            credited -= _path_fix(nbrs, cells, last_expanded=False)
            return finish(False, abort.reason, [], bound)
        n, c2, c3 = counts()
        expanded += n
        credited += n + c2 + 2 * c3 + 1
        if found:
            cells = list(reversed(path))
            credited -= _path_fix(nbrs, [z0, *cells], last_expanded=True)
            return finish(True, StopReason.GOAL, cells, len(cells))
        bound += 2


def _depth_cap(limits: lacak.Limits) -> int | None:
    caps = [v for v in (limits.max_depth, limits.max_frontier) if v is not None]
    return min(caps) if caps else None


def _general(
    puzzle: Any,
    h: Callable[[tuple[int, ...]], float],
    heuristic: lacak.Heuristic,
    limits: lacak.Limits,
    budget: lacak.Budget,
    trace: lacak.SearchTrace | None,
) -> SearchResult:
    """IDA* on the same board, calling ``h`` on each child's tuple (any heuristic, traces)."""
    width, height = puzzle.width, puzzle.height
    start = tuple(puzzle.initial)
    goal = list(puzzle.goal)
    nbrs = _neighbours(width, height)
    names = {width: "D", -width: "U", 1: "R", -1: "L"}
    parity = _parity(start, goal, width)
    h0 = h(start)
    bound = _first_bound(h0, parity)
    max_expanded = limits.max_expanded
    max_depth = _depth_cap(limits)
    deadline = _deadline(limits, budget)
    # an inadmissible heuristic may put a goal within max_depth beyond a bound
    # larger than max_depth: then children deeper than max_depth are cut, and the
    # bound grows until no child within max_depth was cut by it
    depth_cut = None if heuristic.admissible else max_depth
    counters = {"expanded": 0, "generated": 0}
    cut = {"depth": False, "bound": math.inf}
    iterations = 0
    board = list(start)
    path: list[int] = []

    def dfs(z: int, prev: int, g: int, hv: float, tid: int) -> bool:
        done = counters["expanded"]
        if max_expanded is not None and done >= max_expanded:
            raise _Abort(StopReason.NODES)
        if deadline is not None and done % 256 == 0 and time.perf_counter() >= deadline:
            raise _Abort(StopReason.TIME)
        counters["expanded"] = done + 1
        if trace is not None:
            trace.expand(tid)
        if board == goal:
            if trace is not None:
                trace.mark_goal(tid)
            return True
        g1 = g + 1
        for _action, nz in nbrs[z]:
            if nz == prev:
                continue
            t = board[nz]
            board[z] = t
            board[nz] = 0
            state = tuple(board)
            h1 = h(state)
            counters["generated"] += 1
            child = -1
            if trace is not None:
                child = trace.add(tid, state, names[nz - z], depth=g1, g=float(g1), h=h1)
            if depth_cut is not None and g1 > depth_cut:
                cut["depth"] = True
            elif g1 + h1 > bound:
                cut["bound"] = min(cut["bound"], g1 + h1)
            elif dfs(nz, z, g1, h1, child):
                path.append(nz)
                return True
            board[nz] = t
            board[z] = 0
        return False

    def finish(found: bool, stopped: StopReason, cells: list[int], depth: int) -> SearchResult:
        return _result(
            puzzle,
            start,
            cells,
            found,
            stopped,
            expanded=counters["expanded"],
            generated=counters["generated"],
            depth=depth,
            seconds=budget.elapsed(),
            iterations=iterations,
            label=heuristic.spec,
        )

    z0 = start.index(0)
    while True:
        if depth_cut is None and max_depth is not None and bound > max_depth:
            # a goal within max_depth would have been found at a smaller bound when h is
            # admissible
            return finish(False, StopReason.DEPTH, [], max_depth)
        if deadline is not None and time.perf_counter() >= deadline:
            return finish(False, StopReason.TIME, [], bound)
        iterations += 1
        _deep_enough(bound)
        board[:] = start
        path.clear()
        tid = trace.add(None, start, depth=0, g=0.0, h=h0) if trace is not None else -1
        cut["depth"], cut["bound"] = False, math.inf
        try:
            found = dfs(z0, -1, 0, h0, tid)
        except _Abort as abort:
            return finish(False, abort.reason, [], bound)
        if found:
            return finish(True, StopReason.GOAL, list(reversed(path)), len(path))
        if depth_cut is None:
            bound += 2
        elif cut["bound"] == math.inf:
            # every child within max_depth was searched
            stopped = StopReason.DEPTH if cut["depth"] else StopReason.EXHAUSTED
            return finish(False, stopped, [], depth_cut)
        else:
            bound = max(bound + 2, _first_bound(cut["bound"], parity))


def _is_linear_conflict(prepared: Any, puzzle: Any) -> bool:
    """Whether ``prepared`` is the prepared ``linear-conflict`` of this puzzle's board and goal."""
    table = getattr(getattr(prepared, "manhattan", None), "table", None)
    return (
        table is not None
        and all(
            hasattr(prepared, name)
            for name in ("goal_row", "goal_col", "row_conflicts", "col_conflicts")
        )
        and getattr(prepared, "width", None) == puzzle.width
        and getattr(prepared, "height", None) == puzzle.height
        and tuple(getattr(prepared.manhattan, "goal", ())) == tuple(puzzle.goal)
    )


def _linear(
    puzzle: Any,
    lc: Any,
    heuristic: lacak.Heuristic,
    limits: lacak.Limits,
    budget: lacak.Budget,
) -> SearchResult:
    """IDA* with linear conflict kept up to date: the same search as the general path.

    Manhattan distance changes by the moved tile's table entry. A move along
    a row keeps the order of the tiles in that row, so only the two columns
    the tile leaves and enters can change their conflicts, and only when one
    of them is the tile's goal column (it counts only there); across rows
    likewise. That one line is recomputed from the board.
    """
    width, height = puzzle.width, puzzle.height
    start = tuple(puzzle.initial)
    goal = list(puzzle.goal)
    nbrs = _neighbours(width, height)
    md = [list(row) for row in lc.manhattan.table]
    goal_row, goal_col = lc.goal_row, lc.goal_col
    row_conflicts, col_conflicts = lc.row_conflicts, lc.col_conflicts
    board = list(start)
    rows = [row_conflicts(board, r) for r in range(height)]
    cols = [col_conflicts(board, c) for c in range(width)]
    m0 = sum(md[t][p] for p, t in enumerate(start) if t)
    h0 = m0 + 2 * (sum(rows) + sum(cols))
    bound = _first_bound(h0, _parity(start, goal, width))
    max_expanded = limits.max_expanded
    max_depth = _depth_cap(limits)
    deadline = _deadline(limits, budget)
    counters = {"expanded": 0, "generated": 0}
    iterations = 0
    path: list[int] = []

    def dfs(z: int, prev: int, g: int, m: int, conflicts: int) -> bool:
        done = counters["expanded"]
        if max_expanded is not None and done >= max_expanded:
            raise _Abort(StopReason.NODES)
        if deadline is not None and done % 256 == 0 and time.perf_counter() >= deadline:
            raise _Abort(StopReason.TIME)
        counters["expanded"] = done + 1
        if board == goal:
            return True
        g1 = g + 1
        budget_h = bound - g1
        for _action, nz in nbrs[z]:
            if nz == prev:
                continue
            t = board[nz]
            board[z] = t
            board[nz] = 0
            table = md[t]
            m1 = m - table[nz] + table[z]
            line = -1
            value = 0
            if nz // width == z // width:  # along a row: columns nz % width, z % width
                c = goal_col[t]
                if c == nz % width or c == z % width:
                    line, value = c, col_conflicts(board, c)
                    c1 = conflicts - cols[c] + value
                else:
                    c1 = conflicts
            else:
                r = goal_row[t]
                if r == nz // width or r == z // width:
                    line, value = width + r, row_conflicts(board, r)
                    c1 = conflicts - rows[r] + value
                else:
                    c1 = conflicts
            counters["generated"] += 1
            if m1 + 2 * c1 <= budget_h:
                old = 0
                if line >= width:
                    old, rows[line - width] = rows[line - width], value
                elif line >= 0:
                    old, cols[line] = cols[line], value
                found = dfs(nz, z, g1, m1, c1)
                if line >= width:
                    rows[line - width] = old
                elif line >= 0:
                    cols[line] = old
                if found:
                    path.append(nz)
                    return True
            board[nz] = t
            board[z] = 0
        return False

    def finish(found: bool, stopped: StopReason, cells: list[int], depth: int) -> SearchResult:
        return _result(
            puzzle,
            start,
            cells,
            found,
            stopped,
            expanded=counters["expanded"],
            generated=counters["generated"],
            depth=depth,
            seconds=budget.elapsed(),
            iterations=iterations,
            label=heuristic.spec,
        )

    z0 = start.index(0)
    conflicts0 = sum(rows) + sum(cols)
    while True:
        if max_depth is not None and bound > max_depth:
            return finish(False, StopReason.DEPTH, [], max_depth)
        if deadline is not None and time.perf_counter() >= deadline:
            return finish(False, StopReason.TIME, [], bound)
        iterations += 1
        _deep_enough(bound)
        board[:] = start
        path.clear()
        try:
            found = dfs(z0, -1, 0, m0, conflicts0)
        except _Abort as abort:
            return finish(False, abort.reason, [], bound)
        if found:
            return finish(True, StopReason.GOAL, list(reversed(path)), len(path))
        bound += 2

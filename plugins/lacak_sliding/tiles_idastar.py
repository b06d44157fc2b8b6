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

Depth: the recursive searches use one Python frame per move, so they run
only while the bound (the deepest a node can lie) fits well within the
recursion limit the process has; past it (or on a board too big for the
generated code), the search goes on with an explicit stack
(:func:`_iterative`), which visits the same nodes in the same order. The
process's recursion limit is never changed. The time limit covers preparing
the heuristic (building a pattern database, say).

.. rubric:: Examples

>>> import lacak
>>> puzzle = lacak.parse("sliding", "1 2 3 / 4 5 6 / 0 7 8")
>>> result = lacak.solve(puzzle, "idastar-tiles", heuristic="manhattan")
>>> result.actions, result.stats.expanded
(('R', 'R'), 3)
"""

from __future__ import annotations

import inspect
import math
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import attrs
import lacak
from lacak import SearchResult, StopReason

__all__ = ["AdditiveModel", "additive_model", "idastar_tiles"]

#: Blank moves in the order children are tried: the order of
#: ``SlidingPuzzle.successors`` (D, R, L, U).
_ORDER = (("D", 1, 0), ("R", 0, 1), ("L", 0, -1), ("U", -1, 0))

#: Expanded nodes between two looks at the time limit.
CHECK_EVERY = 4096

#: Largest board (cells) the depth-first search is generated as Python source
#: for; bigger boards (their bounds run to thousands of moves anyway) use the
#: explicit stack.
MAX_GENERATED_CELLS = 64

#: Frames kept free below the recursion limit for what a recursive search
#: calls at its deepest point (the limit check, a line's conflicts, an error).
STACK_MARGIN = 100


class _Abort(Exception):
    """Stops the search; carries the blank cells of the stack, deepest first."""

    def __init__(self, reason: StopReason) -> None:
        super().__init__(reason)
        self.reason = reason
        self.stack: list[int] = []


class _Handover(_Abort):
    """Stops the generated search so that the compiled engine goes on from its node."""


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
        with lacak.memory_guard(
            f"the lookup tables of {prepared.name} in idastar-tiles (a copy of each "
            f"database in memory: {sum(g.compact.size for g in prepared.groups):,} bytes)",
            "use a partition of smaller groups (pdb-663 on 4x4), or run with more memory",
        ):
            tables = [g.compact_bytes() for g in prepared.groups]
        return AdditiveModel(
            tables,
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
        # ``type`` first: a 32x32 board's table has a million entries
        if not all(set(map(type, row)) <= {int} for row in rows):
            integral = all(float(v).is_integer() for row in rows for v in row)
            if integral:
                rows = [[int(v) for v in row] for row in rows]
        else:
            integral = True
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
    crossing list of :meth:`AdditiveModel.crossing`. Made once per model and width
    (a split search's worker makes an engine for every task); read, never changed.
    """
    known: dict[int, dict[str, list[tuple[Any, ...]]]] | None = getattr(model, "_moves", None)
    if known is None:
        known = {}
        setattr(model, "_moves", known)  # noqa: B010 - a note kept on the model
    if width not in known:
        known[width] = _make_move_tables(model, width)
    return known[width]


def _make_move_tables(model: AdditiveModel, width: int) -> dict[str, list[tuple[Any, ...]]]:
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


def _path_fix(
    nbrs: list[list[tuple[str, int]]], cells: Sequence[int], last_expanded: bool, prev: int = -1
) -> int:
    """Generated children credited but never evaluated along a path of blank cells (root first).

    The fast search credits every expanded node with all its children at
    once (``degree - 1``, and one more for a root with no ``prev`` cell). Along the path of the
    last iteration, a node evaluated only the children up to the next cell on
    the path; the last node evaluated none when it was expanded (the goal)
    and was never credited when a limit struck before its expansion.
    """
    back = 0
    last = len(cells) - 1
    for i, z in enumerate(cells):
        came = cells[i - 1] if i else prev
        options = [nz for _a, nz in nbrs[z] if nz != came]
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
    executor: Any = None,
    workers: int | None = None,
    split_depth: int = 0,
) -> SearchResult:
    """Solve a sliding puzzle optimally with IDA* on one mutable board.

    :param puzzle: a sliding puzzle (``width``, ``height``, ``initial``, ``goal``).
    :param heuristic: an admissible heuristic for an optimal answer; pattern
        databases and table heuristics (Manhattan, misplaced) run fastest.
    :param limits: ``max_depth`` caps the bound; ``max_expanded`` and
        ``seconds`` stop the search cleanly (checked every node and every
        few thousand nodes respectively; the time counts from the call, so
        preparing the heuristic counts too, and a search that may expand no
        node, ``max_expanded=0`` or no time left, prepares nothing);
        ``max_frontier`` caps the path length.
    :param trace: record the search tree (uses the slower general path).
    :param executor: split each iteration into subtree tasks run on this
        :class:`concurrent.futures.Executor` (:mod:`lacak_sliding.tiles_split`).
    :param workers: the same on this many processes of lacak's own pool.
    :param split_depth: with ``executor`` or ``workers``: the depth of the nodes each
        task starts from (0: deep enough for many tasks per worker).
    :returns: the :class:`~lacak.SearchResult`; ``stats.iterations`` counts the bounds.
    :raises InvalidPuzzleError: the puzzle is not a sliding puzzle.
    """
    if executor is not None or workers is not None:
        from .tiles_split import split_search

        return split_search(puzzle, heuristic=heuristic, limits=limits, trace=trace,
                            executor=executor, workers=workers, split_depth=split_depth)  # fmt: skip
    if split_depth:
        raise lacak.InvalidOptionError(
            "split_depth splits a search across workers: give an executor or workers too"
        )
    heuristic = _checked(puzzle, heuristic)
    start = tuple(puzzle.initial)
    budget = limits.start()
    if not _solvable(start, tuple(puzzle.goal), puzzle.width):
        return _finish(puzzle, heuristic, budget, _Tally(), StopReason.EXHAUSTED, None, 0)
    spent = budget.exceeded(0)
    if spent is not None:  # no node may be expanded: nothing to prepare (a pattern database)
        return _finish(puzzle, heuristic, budget, _Tally(), spent, None, 0)
    try:
        # a pattern database built now counts against the time limit: its build
        # checks the running budget between batches
        with budget:
            prepared = heuristic.for_puzzle(puzzle)
    except lacak.LimitReachedError:
        if not budget.time_up():
            raise
        return _finish(puzzle, heuristic, budget, _Tally(), StopReason.TIME, None, 0)
    return _deepen(puzzle, _engine(puzzle, prepared, heuristic, limits, budget, trace))


def _checked(puzzle: Any, heuristic: lacak.Heuristic | None) -> lacak.Heuristic:
    """``heuristic``, once ``puzzle`` is known to be a sliding puzzle and a heuristic is
    given (the checks of every ``idastar-tiles`` search, split or not).

    :raises InvalidPuzzleError: the puzzle is not a sliding puzzle.
    :raises InvalidOptionError: no heuristic.
    """
    for attribute in ("width", "height", "initial", "goal"):
        if not hasattr(puzzle, attribute):
            raise lacak.InvalidPuzzleError(
                f"idastar-tiles needs a sliding puzzle; this one has no {attribute!r}"
            )
    if heuristic is None:
        raise lacak.InvalidOptionError("idastar-tiles needs a heuristic")
    return heuristic


def _engine(
    puzzle: Any,
    prepared: Any,
    heuristic: lacak.Heuristic,
    limits: lacak.Limits,
    budget: lacak.Budget,
    trace: lacak.SearchTrace | None,
) -> _Engine:
    """The fastest engine that runs ``prepared`` on this board (see the module docstring)."""
    search = _Search(puzzle, heuristic, limits, budget)
    if not heuristic.admissible and search.max_depth is not None:
        # the fast engines stop once the bound passes the depth cap, which only an
        # admissible heuristic allows: the explicit stack cuts on depth instead
        return _Stack(search, _Calls(prepared), trace)
    model = None if trace is not None else additive_model(prepared, puzzle)
    if model is not None:
        goal_where = _where(puzzle.goal)
        if model.value(goal_where) != 0 or (
            model.mirror is not None and model.value(model.mirrored(goal_where)) != 0
        ):
            model = None  # the generated search tests for the goal only where h == 0
    if model is not None:
        return _Generated(search, model, prepared)
    if trace is None and _is_linear_conflict(prepared, puzzle):
        return _Linear(search, prepared)
    return _Stack(search, _Calls(prepared), trace)


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


def _stack_room() -> int:
    """How many more frames a recursive search may use here: the recursion limit,
    less the frames in use and :data:`STACK_MARGIN` (the limit itself is never changed)."""
    frame = inspect.currentframe()
    used = 0
    while frame is not None:
        used += 1
        frame = frame.f_back
    return sys.getrecursionlimit() - used - STACK_MARGIN


def _lowest(model: AdditiveModel) -> float:
    """A lower bound on the model's estimate: the sum of its tables' negative minima.

    A node at depth ``g`` is searched only if ``g + h <= bound``, so the
    recursion is at most ``bound - _lowest(model)`` frames deep. Byte tables
    (pattern databases) are never negative and are not scanned.
    """
    total = 0.0
    for table in model.tables:
        if isinstance(table, (bytes, bytearray)) or not len(table):
            continue
        low = min(table)
        if low < 0:
            total += low
    return total


def _depth_cap(limits: lacak.Limits) -> int | None:
    caps = [v for v in (limits.max_depth, limits.max_frontier) if v is not None]
    return min(caps) if caps else None


# -- the one iteration loop ---------------------------------------------------------


@attrs.define
class _Tally:
    """The counts of one search, carried from iteration to iteration (and engine to engine)."""

    expanded: int = 0
    generated: int = 0
    iterations: int = 0


@attrs.frozen
class _Step:
    """How one iteration ended: a path (the blank's cells after the root), a limit that
    struck (with the depth to report), or the next bound."""

    found: list[int] | None = None
    #: The blank's cells from the root to the node where another engine goes on.
    resume: list[int] | None = None
    stopped: StopReason | None = None
    depth: int = 0
    next_bound: float = 0.0


class _Search:
    """What every engine of one search shares: the puzzle, the heuristic and the limits."""

    def __init__(
        self, puzzle: Any, heuristic: lacak.Heuristic, limits: lacak.Limits, budget: lacak.Budget
    ) -> None:
        self.puzzle = puzzle
        self.heuristic = heuristic
        self.limits = limits
        self.budget = budget
        #: When the search began (after preparing the heuristic).
        self.started = time.perf_counter()
        self.width, self.height = puzzle.width, puzzle.height
        self.start = tuple(puzzle.initial)
        self.goal = list(puzzle.goal)
        self.nbrs = _neighbours(self.width, self.height)
        self.parity = _parity(self.start, self.goal, self.width)
        self.max_expanded = limits.max_expanded
        self.max_depth = _depth_cap(limits)
        # the budget's deadline (it may be a running command's, earlier than its own)
        self.deadline = budget.deadline
        #: Shows a search past a second on the progress display, when someone is watching.
        self.watch = _Watch(budget)
        #: Whether the clock must be read now and then (a deadline, or someone watching).
        self.timed = self.deadline is not None or self.watch.on
        #: Asked at the generated search's checkpoints: whether the compiled engine
        #: takes over now (set by :func:`lacak_sliding.tiles_engines.upgrade`).
        self.handover: Callable[[], bool] | None = None
        # an inadmissible heuristic may put a goal within max_depth beyond a bound larger
        # than max_depth: then children deeper than max_depth are cut, and the bound grows
        # until no child within max_depth was cut by it (only the explicit stack does this)
        self.depth_cut = None if heuristic.admissible else self.max_depth
        #: The blank's cell before the start (a subtree searched on its own, as a task of
        #: :mod:`lacak_sliding.tiles_split`): the first move does not go back there.
        self.prev = -1


class _Watch:
    """Reports a search running past a second to :mod:`lacak.progress` (expanded nodes and
    rate), at most five times a second; ``on`` is false when nobody is watching."""

    def __init__(self, budget: lacak.Budget) -> None:
        self.on = lacak.progress.active()
        self.started = budget.started
        self.shown = 0.0

    def __call__(self, expanded: int) -> None:
        now = time.perf_counter()
        if now - self.shown > 0.2:
            self.shown = now
            seconds = now - self.started
            if seconds >= lacak.Budget.SHOW_AFTER:
                lacak.progress.searching(expanded, seconds)


class _Engine(Protocol):
    """One way to run IDA* iterations; :func:`_deepen` drives every engine the same."""

    search: _Search

    def first_bound(self) -> float:
        """The first iteration's bound: the root's estimate, rounded up to the parity."""

    def fits(self, bound: float) -> bool:
        """Whether this engine can search an iteration of ``bound`` here (stack room)."""

    def fallback(self) -> _Engine:
        """The explicit-stack engine that goes on where this one cannot (same nodes, same order)."""

    def iterate(self, bound: float, tally: _Tally) -> _Step:
        """Search one iteration of ``bound``, counting into ``tally``."""


def _deepen(puzzle: Any, engine: _Engine) -> SearchResult:
    """The IDA* iteration loop every engine shares: limits between iterations, the switch
    to the explicit stack when a bound gets too deep to recurse, and the result."""
    search = engine.search
    tally = _Tally()
    bound = engine.first_bound()
    max_depth = search.max_depth
    while True:
        if search.depth_cut is None and max_depth is not None and bound > max_depth:
            # with an admissible heuristic, a goal within max_depth is found at a smaller bound
            return _finish(puzzle, search.heuristic, search.budget, tally, StopReason.DEPTH,
                           None, max_depth)  # fmt: skip
        if search.deadline is not None and time.perf_counter() >= search.deadline:
            return _finish(puzzle, search.heuristic, search.budget, tally, StopReason.TIME,
                           None, int(bound))  # fmt: skip
        # the compiled engine takes over when it pays (lacak_sliding.tiles_engines)
        engine = _upgrade(engine, tally)
        if not engine.fits(bound):  # too deep to recurse here: the explicit stack goes on
            engine = engine.fallback()
        tally.iterations += 1
        step = engine.iterate(bound, tally)
        if step.resume is not None:  # the compiled engine goes on from the same node
            engine, step = _take_over(engine, bound, tally, step.resume)
        if step.found is not None:
            return _finish(puzzle, search.heuristic, search.budget, tally, StopReason.GOAL,
                           step.found, len(step.found))  # fmt: skip
        if step.stopped is not None:
            return _finish(puzzle, search.heuristic, search.budget, tally, step.stopped,
                           None, step.depth)  # fmt: skip
        bound = step.next_bound


def _upgrade(engine: _Engine, tally: _Tally, *, eager: bool = False) -> _Engine:
    from .tiles_engines import upgrade

    return upgrade(engine, tally, eager=eager)


def _take_over(engine: _Engine, bound: float, tally: _Tally, cells: list[int]) -> Any:
    from .tiles_engines import take_over

    return take_over(engine, bound, tally, cells)


def _finish(
    puzzle: Any,
    heuristic: lacak.Heuristic,
    budget: lacak.Budget,
    tally: _Tally,
    stopped: StopReason,
    cells: list[int] | None,
    depth: int,
) -> SearchResult:
    """The result: the path from the blank's cells when found (``cells``), else why it stopped."""
    start = tuple(puzzle.initial)
    states: list[tuple[int, ...]] | None = None
    actions: list[str] = []
    if cells is not None:
        width = puzzle.width
        names = {width: "D", -width: "U", 1: "R", -1: "L"}
        states = [start]
        board = list(start)
        z = board.index(0)
        for nz in cells:
            actions.append(names[nz - z])
            board[z], board[nz] = board[nz], 0
            states.append(tuple(board))
            z = nz
    return SearchResult.finished(
        start,
        stopped,
        states=states,
        actions=actions,
        expanded=tally.expanded,
        generated=tally.generated,
        max_frontier=depth,
        depth=depth,
        iterations=tally.iterations,
        budget=budget,
        heuristic=heuristic,
        strategy="idastar-tiles",
    )


# -- the engines --------------------------------------------------------------------


class _Generated:
    """The generated recursive search (:func:`_source`) on an :class:`AdditiveModel`:
    pattern databases and table heuristics at full speed."""

    def __init__(self, search: _Search, model: AdditiveModel, prepared: Any) -> None:
        self.search = search
        self.model = model
        self.prepared = prepared
        width, height = search.width, search.height
        self.reflect = model.mirror is not None
        self.generated_code = width * height <= MAX_GENERATED_CELLS
        if self.generated_code:
            mirror = model.mirror[0] if model.mirror else ()
            self.make = _maker(width, height, self.reflect, model.ranked, mirror)
            self.moves = _move_tables(model, width)
        self.floor = _lowest(model)
        where = _where(search.start)
        self.gi0 = model.indexes(where)
        self.h0 = sum(tab[i] for tab, i in zip(model.tables, self.gi0, strict=True))
        self.ri0: list[int] = []
        self.k0 = 0
        if self.reflect:
            self.ri0 = model.indexes(model.mirrored(where))
            self.k0 = sum(tab[i] for tab, i in zip(model.tables, self.ri0, strict=True))

    def first_bound(self) -> float:
        return _first_bound(max(self.h0, self.k0), self.search.parity)

    def fits(self, bound: float) -> bool:
        return self.generated_code and bound - self.floor <= _stack_room()

    def fallback(self) -> _Engine:
        model = self.model
        evaluator = (
            _Calls(self.prepared) if model.ranked else _AdditiveEval(model, self.search.start)
        )
        return _Stack(self.search, evaluator, None)

    def iterate(self, bound: float, tally: _Tally) -> _Step:
        search = self.search
        max_expanded, deadline, watch = search.max_expanded, search.deadline, search.watch
        handover = search.handover
        base = tally.expanded
        z0 = search.start.index(0)

        def chk(count: int) -> int:
            """At a checkpoint of the node counter: the next checkpoint, or abort."""
            done = base + count  # the node about to be expanded is number ``done``
            if max_expanded is not None and done > max_expanded:
                raise _Abort(StopReason.NODES)
            if deadline is not None and time.perf_counter() >= deadline:
                raise _Abort(StopReason.TIME)
            if watch.on:
                watch(done)
            if handover is not None and handover():
                raise _Handover(StopReason.TIME)
            nxt = count + CHECK_EVERY
            if max_expanded is not None:
                nxt = min(nxt, max_expanded - base + 1)
            return nxt

        first = CHECK_EVERY if max_expanded is None else min(CHECK_EVERY, max_expanded - base + 1)
        path: list[int] = []
        moves = self.moves
        functions, counts = self.make(
            list(search.start),
            search.goal,
            list(self.gi0),
            list(self.ri0),
            moves["IS"],
            moves["IN"],
            moves["IE"],
            moves["IW"],
            bound,
            chk,
            first,
            path,
        )
        prev = search.prev
        root_extra = 1 if prev < 0 else 0  # a root with no parent has one more child
        try:
            if self.reflect:
                found = functions[z0](prev, 0, self.h0, self.k0)
            else:
                found = functions[z0](prev, 0, self.h0)
        except _Abort as abort:
            n, c2, c3 = counts()
            cells = [z0, *reversed(abort.stack)]
            # the node where the limit struck was counted in n but not expanded
            tally.expanded += n - 1
            root_expanded = len(cells) > 1
            tally.generated += (n - 1) + c2 + 2 * c3 + (root_extra if root_expanded else 0)
            tally.generated -= _path_fix(search.nbrs, cells, last_expanded=False, prev=prev)
            if isinstance(abort, _Handover):
                return _Step(resume=cells)
            return _Step(stopped=abort.reason, depth=int(bound))
        n, c2, c3 = counts()
        tally.expanded += n
        tally.generated += n + c2 + 2 * c3 + root_extra
        if found:
            cells = list(reversed(path))
            tally.generated -= _path_fix(search.nbrs, [z0, *cells], last_expanded=True, prev=prev)
            return _Step(found=cells)
        return _Step(next_bound=bound + 2)


class _Linear:
    """IDA* with linear conflict kept up to date, recursively: the same search as the
    explicit stack with :class:`_LinearEval`.

    Manhattan distance changes by the moved tile's table entry. A move along
    a row keeps the order of the tiles in that row, so only the two columns
    the tile leaves and enters can change their conflicts, and only when one
    of them is the tile's goal column (it counts only there); across rows
    likewise. That one line is recomputed from the board.
    """

    def __init__(self, search: _Search, lc: Any) -> None:
        self.search = search
        self.lc = lc
        width, height = search.width, search.height
        start = search.start
        self.md = [list(row) for row in lc.manhattan.table]
        self.board = list(start)
        self.rows = [lc.row_conflicts(self.board, r) for r in range(height)]
        self.cols = [lc.col_conflicts(self.board, c) for c in range(width)]
        self.m0 = sum(self.md[t][p] for p, t in enumerate(start) if t)
        self.conflicts0 = sum(self.rows) + sum(self.cols)

    def first_bound(self) -> float:
        return _first_bound(self.m0 + 2 * self.conflicts0, self.search.parity)

    def fits(self, bound: float) -> bool:
        return bound <= _stack_room()

    def fallback(self) -> _Engine:
        return _Stack(self.search, _LinearEval(self.lc, self.search.width), None)

    def iterate(self, bound: float, tally: _Tally) -> _Step:
        search, lc = self.search, self.lc
        width = search.width
        nbrs, goal, md = search.nbrs, search.goal, self.md
        goal_row, goal_col = lc.goal_row, lc.goal_col
        row_conflicts, col_conflicts = lc.row_conflicts, lc.col_conflicts
        max_expanded, deadline = search.max_expanded, search.deadline
        timed, watch = search.timed, search.watch
        board, rows, cols = self.board, self.rows, self.cols
        counters = {"expanded": tally.expanded, "generated": tally.generated}
        path: list[int] = []

        def dfs(z: int, prev: int, g: int, m: int, conflicts: int) -> bool:
            done = counters["expanded"]
            if max_expanded is not None and done >= max_expanded:
                raise _Abort(StopReason.NODES)
            if timed and done % 256 == 0:
                if deadline is not None and time.perf_counter() >= deadline:
                    raise _Abort(StopReason.TIME)
                if watch.on:
                    watch(done)
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

        board[:] = search.start
        try:
            found = dfs(search.start.index(0), search.prev, 0, self.m0, self.conflicts0)
        except _Abort as abort:
            return _Step(stopped=abort.reason, depth=int(bound))
        finally:
            tally.expanded, tally.generated = counters["expanded"], counters["generated"]
        if found:
            return _Step(found=list(reversed(path)))
        return _Step(next_bound=bound + 2)


class _Stack:
    """IDA* with an explicit stack: no recursion, any depth, traces, any heuristic.

    ``evaluator`` gives the estimates: ``root(board)`` at the start of an
    iteration, ``child(board, z, nz, t)`` after tile ``t`` moved from ``nz``
    to the blank's cell ``z``, ``enter()`` when that child is searched and
    ``leave()`` when the search backs out of it. Children are visited in the
    same order, and counted the same way, as by the recursive engines, so a
    search that moves here when its bound gets deep goes on seamlessly.
    """

    def __init__(self, search: _Search, evaluator: Any, trace: lacak.SearchTrace | None) -> None:
        self.search = search
        self.evaluator = evaluator
        self.trace = trace

    def first_bound(self) -> float:
        return _first_bound(self.evaluator.root(list(self.search.start)), self.search.parity)

    def fits(self, bound: float) -> bool:
        return True

    def fallback(self) -> _Engine:
        return self

    def iterate(self, bound: float, tally: _Tally) -> _Step:
        search, evaluator, trace = self.search, self.evaluator, self.trace
        width = search.width
        start, goal, nbrs = search.start, search.goal, search.nbrs
        names = {width: "D", -width: "U", 1: "R", -1: "L"}
        max_expanded, deadline, depth_cut = search.max_expanded, search.deadline, search.depth_cut
        timed, watch = search.timed, search.watch
        expanded, generated = tally.expanded, tally.generated

        def out_of_budget() -> StopReason | None:
            """Checked before each expansion, as the recursive engines do."""
            if max_expanded is not None and expanded >= max_expanded:
                return StopReason.NODES
            if timed and expanded % 256 == 0:
                if deadline is not None and time.perf_counter() >= deadline:
                    return StopReason.TIME
                if watch.on:
                    watch(expanded)
            return None

        def done(step: _Step) -> _Step:
            tally.expanded, tally.generated = expanded, generated
            return step

        board = list(start)
        h0 = evaluator.root(board)
        tid = trace.add(None, start, depth=0, g=0.0, h=h0) if trace is not None else -1
        cut_depth, cut_bound = False, math.inf
        stop = out_of_budget()
        if stop is not None:
            return done(_Step(stopped=stop, depth=int(bound)))
        expanded += 1
        if trace is not None:
            trace.expand(tid)
        if board == goal:
            if trace is not None:
                trace.mark_goal(tid)
            return done(_Step(found=[]))
        # one entry per level of the path: the blank's cell, the next neighbour to
        # try, the tile that moved to reach it, and its trace id
        cells = [start.index(0)]
        nexts = [0]
        moved = [0]
        tids = [tid]
        while True:
            level = len(cells) - 1
            z = cells[level]
            options = nbrs[z]
            i = nexts[level]
            if i == len(options):
                if level == 0:
                    break
                cells.pop()
                nexts.pop()
                tids.pop()
                t = moved.pop()
                board[z] = t  # the tile goes back; the blank returns to the parent's cell
                board[cells[-1]] = 0
                evaluator.leave()
                continue
            nexts[level] = i + 1
            nz = options[i][1]
            if nz == (cells[level - 1] if level else search.prev):
                continue
            t = board[nz]
            board[z] = t
            board[nz] = 0
            h1 = evaluator.child(board, z, nz, t)
            generated += 1
            g1 = level + 1
            child = -1
            if trace is not None:
                child = trace.add(
                    tids[level], tuple(board), names[nz - z], depth=g1, g=float(g1), h=h1
                )
            if depth_cut is not None and g1 > depth_cut:
                cut_depth = True
            elif g1 + h1 > bound:
                if g1 + h1 < cut_bound:
                    cut_bound = g1 + h1
            else:
                stop = out_of_budget()
                if stop is not None:
                    return done(_Step(stopped=stop, depth=int(bound)))
                expanded += 1
                if trace is not None:
                    trace.expand(child)
                if board == goal:
                    if trace is not None:
                        trace.mark_goal(child)
                    return done(_Step(found=[*cells[1:], nz]))
                evaluator.enter()
                cells.append(nz)
                nexts.append(0)
                moved.append(t)
                tids.append(child)
                continue
            board[nz] = t
            board[z] = 0
        if depth_cut is None:
            return done(_Step(next_bound=bound + 2))
        if cut_bound == math.inf:
            # every child within max_depth was searched
            stopped = StopReason.DEPTH if cut_depth else StopReason.EXHAUSTED
            return done(_Step(stopped=stopped, depth=depth_cut))
        return done(_Step(next_bound=max(bound + 2, _first_bound(cut_bound, search.parity))))


class _Calls:
    """Estimates for :class:`_Stack` by calling a heuristic on each child's board."""

    def __init__(self, h: Callable[[tuple[int, ...]], float]) -> None:
        self.h = h

    def root(self, board: list[int]) -> float:
        return self.h(tuple(board))

    def child(self, board: list[int], z: int, nz: int, t: int) -> float:
        return self.h(tuple(board))

    def enter(self) -> None:
        pass

    def leave(self) -> None:
        pass


class _AdditiveEval:
    """Estimates for :class:`_Stack` from a sparse-indexed :class:`AdditiveModel`.

    Each table's index moves by ``weight[t] * (new cell - old cell)`` when tile
    ``t`` moves (the same lookups as the generated search, without recursion);
    with a mirror the mirrored board's sum is kept too and the larger counts.
    """

    def __init__(self, model: AdditiveModel, start: Sequence[int]) -> None:
        self.tables = model.tables
        self.group = model.group
        self.weight = model.weight
        self.model = model
        self.start = list(start)
        self.mirror = model.mirror
        self.gi: list[int] = []
        self.ri: list[int] = []
        self.sums: list[tuple[float, float]] = []
        self.undo: list[tuple[int, int, int, int]] = []
        self.pending: tuple[int, int, int, int, float, float] = (0, 0, 0, 0, 0.0, 0.0)

    def root(self, board: list[int]) -> float:
        where = _where(board)
        self.gi = self.model.indexes(where)
        h = sum(tab[i] for tab, i in zip(self.tables, self.gi, strict=True))
        k = 0.0
        if self.mirror is not None:
            self.ri = self.model.indexes(self.model.mirrored(where))
            k = sum(tab[i] for tab, i in zip(self.tables, self.ri, strict=True))
        self.sums = [(h, k)]
        self.undo = []
        return max(h, k) if self.mirror is not None else h

    def child(self, board: list[int], z: int, nz: int, t: int) -> float:
        h, k = self.sums[-1]
        g = self.group[t]
        o = self.gi[g]
        w = o + self.weight[t] * (z - nz)
        tab = self.tables[g]
        h1 = h - tab[o] + tab[w]
        if self.mirror is None:
            self.pending = (g, w, 0, 0, h1, 0.0)
            return h1
        cells, tiles = self.mirror
        rt = tiles[t]
        rg = self.group[rt]
        ro = self.ri[rg]
        rw = ro + self.weight[rt] * (cells[z] - cells[nz])
        rtab = self.tables[rg]
        k1 = k - rtab[ro] + rtab[rw]
        self.pending = (g, w, rg, rw, h1, k1)
        return max(h1, k1)

    def enter(self) -> None:
        g, w, rg, rw, h1, k1 = self.pending
        self.undo.append((g, self.gi[g], rg, self.ri[rg] if self.mirror is not None else 0))
        self.gi[g] = w
        if self.mirror is not None:
            self.ri[rg] = rw
        self.sums.append((h1, k1))

    def leave(self) -> None:
        g, o, rg, ro = self.undo.pop()
        self.gi[g] = o
        if self.mirror is not None:
            self.ri[rg] = ro
        self.sums.pop()


class _LinearEval:
    """Linear conflict for :class:`_Stack`, kept up to date as :class:`_Linear` does."""

    def __init__(self, lc: Any, width: int) -> None:
        self.md = [list(row) for row in lc.manhattan.table]
        self.goal_row, self.goal_col = lc.goal_row, lc.goal_col
        self.row_conflicts, self.col_conflicts = lc.row_conflicts, lc.col_conflicts
        self.width = width
        self.rows: list[int] = []
        self.cols: list[int] = []
        self.sums: list[tuple[int, int]] = []
        self.undo: list[tuple[int, int]] = []
        self.pending: tuple[int, int, int, int] = (0, 0, -1, 0)

    def root(self, board: list[int]) -> float:
        width = self.width
        height = len(board) // width
        self.rows = [self.row_conflicts(board, r) for r in range(height)]
        self.cols = [self.col_conflicts(board, c) for c in range(width)]
        m0 = sum(self.md[t][p] for p, t in enumerate(board) if t)
        c0 = sum(self.rows) + sum(self.cols)
        self.sums = [(m0, c0)]
        self.undo = []
        return m0 + 2 * c0

    def child(self, board: list[int], z: int, nz: int, t: int) -> float:
        width = self.width
        m, conflicts = self.sums[-1]
        table = self.md[t]
        m1 = m - table[nz] + table[z]
        line, value, c1 = -1, 0, conflicts
        if nz // width == z // width:  # along a row: columns nz % width, z % width
            c = self.goal_col[t]
            if c == nz % width or c == z % width:
                line, value = c, self.col_conflicts(board, c)
                c1 = conflicts - self.cols[c] + value
        else:
            r = self.goal_row[t]
            if r == nz // width or r == z // width:
                line, value = width + r, self.row_conflicts(board, r)
                c1 = conflicts - self.rows[r] + value
        self.pending = (m1, c1, line, value)
        return m1 + 2 * c1

    def enter(self) -> None:
        m1, c1, line, value = self.pending
        width = self.width
        old = 0
        if line >= width:
            old, self.rows[line - width] = self.rows[line - width], value
        elif line >= 0:
            old, self.cols[line] = self.cols[line], value
        self.undo.append((line, old))
        self.sums.append((m1, c1))

    def leave(self) -> None:
        line, old = self.undo.pop()
        width = self.width
        if line >= width:
            self.rows[line - width] = old
        elif line >= 0:
            self.cols[line] = old
        self.sums.pop()


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

"""The generated recursive search of ``idastar-tiles``: pattern databases and table
heuristics at full speed.

The depth-first search is generated as Python source (:func:`generated_source`),
one function per blank cell, with the cell's moves unrolled, the inverse of the
last move skipped and the table lookups of the :class:`~.model.AdditiveModel`
inlined: a move slides one tile, so only that tile's group index changes (by a
precomputed amount, :func:`move_tables`) and the estimate is updated with two
table lookups. Nothing is allocated per node. The source is compiled once per
board shape (:func:`maker`) and :class:`Generated` runs it, one iteration at a
time; the recursion uses one Python frame per move, so the engine runs only while
the bound fits well within the recursion limit (:func:`~.iteration.stack_room`),
and hands over to the explicit stack (:class:`~.stack.Stack`) past it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lacak import StopReason

from .iteration import (
    Abort,
    Engine,
    Handover,
    Search,
    Step,
    Tally,
    first_bound,
    neighbours,
    stack_room,
    tile_cells,
)
from .model import AdditiveModel, lowest
from .stack import AdditiveEval, Calls, Stack

__all__ = [
    "CHECK_EVERY",
    "MAX_GENERATED_CELLS",
    "Generated",
    "between",
    "generated_source",
    "maker",
    "move_tables",
]

#: Expanded nodes between two looks at the time limit.
CHECK_EVERY = 4096

#: Largest board (cells) the depth-first search is generated as Python source
#: for; bigger boards (their bounds run to thousands of moves anyway) use the
#: explicit stack.
MAX_GENERATED_CELLS = 64


def between(a: int, b: int, width: int) -> list[int]:
    """Cells strictly between ``a`` and ``b`` in row-major order (a vertical move's crossings)."""
    lo, hi = min(a, b), max(a, b)
    return list(range(lo + 1, hi)) if hi - lo == width else []


def generated_source(
    width: int, height: int, reflect: bool, ranked: bool = False, mirror: Sequence[int] = ()
) -> str:
    """Python source of the depth-first search: ``make(...)`` returns one function per cell.

    With ``ranked`` tables a vertical move also adds the crossing terms of the
    tiles on the cells it passes (for the mirrored board, the real cells
    whose mirrors it passes), read from the per-tile ``X`` lists.
    """
    n = width * height
    nbrs = neighbours(width, height)
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
            cross = between(nz, z, width) if ranked else []
            rcross = (
                [mirror[c] for c in between(mirror[nz], mirror[z], width)]
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
            lines.append(f"{ind}except Abort as stop:")
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


def maker(width: int, height: int, reflect: bool, ranked: bool, mirror: Sequence[int]) -> Any:
    key = (width, height, reflect, ranked, tuple(mirror) if ranked else ())
    if key not in _COMPILED:
        namespace: dict[str, Any] = {"Abort": Abort}
        source = generated_source(width, height, reflect, ranked, mirror)
        code = compile(source, f"<idastar-tiles {width}x{height}>", "exec")
        exec(code, namespace)
        _COMPILED[key] = namespace["make"]
    return _COMPILED[key]


def move_tables(model: AdditiveModel, width: int) -> dict[str, list[tuple[Any, ...]]]:
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


class Generated:
    """The generated recursive search (:func:`generated_source`) on an :class:`AdditiveModel`:
    pattern databases and table heuristics at full speed."""

    def __init__(self, search: Search, model: AdditiveModel, prepared: Any) -> None:
        self.search = search
        self.model = model
        self.prepared = prepared
        width, height = search.width, search.height
        self.reflect = model.mirror is not None
        self.generated_code = width * height <= MAX_GENERATED_CELLS
        if self.generated_code:
            mirror = model.mirror[0] if model.mirror else ()
            self.make = maker(width, height, self.reflect, model.ranked, mirror)
            self.moves = move_tables(model, width)
        self.floor = lowest(model)
        where = tile_cells(search.start)
        self.gi0 = model.indexes(where)
        self.h0 = sum(tab[i] for tab, i in zip(model.tables, self.gi0, strict=True))
        self.ri0: list[int] = []
        self.k0 = 0
        if self.reflect:
            self.ri0 = model.indexes(model.mirrored(where))
            self.k0 = sum(tab[i] for tab, i in zip(model.tables, self.ri0, strict=True))

    def first_bound(self) -> float:
        return first_bound(max(self.h0, self.k0), self.search.parity)

    def fits(self, bound: float) -> bool:
        return self.generated_code and bound - self.floor <= stack_room()

    def fallback(self) -> Engine:
        model = self.model
        evaluator = Calls(self.prepared) if model.ranked else AdditiveEval(model, self.search.start)
        return Stack(self.search, evaluator, None)

    def iterate(self, bound: float, tally: Tally) -> Step:
        search = self.search
        max_expanded, deadline, watch = search.max_expanded, search.deadline, search.watch
        clock = search.clock
        handover = search.handover
        base = tally.expanded
        z0 = search.start.index(0)

        def chk(count: int) -> int:
            """At a checkpoint of the node counter: the next checkpoint, or abort."""
            done = base + count  # the node about to be expanded is number ``done``
            if max_expanded is not None and done > max_expanded:
                raise Abort(StopReason.NODES)
            if deadline is not None and clock() >= deadline:
                raise Abort(StopReason.TIME)
            if watch.on:
                watch(done)
            if handover is not None and handover():
                raise Handover(StopReason.TIME)
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
        except Abort as abort:
            n, c2, c3 = counts()
            cells = [z0, *reversed(abort.stack)]
            # the node where the limit struck was counted in n but not expanded
            tally.expanded += n - 1
            root_expanded = len(cells) > 1
            tally.generated += (n - 1) + c2 + 2 * c3 + (root_extra if root_expanded else 0)
            tally.generated -= _path_fix(search.nbrs, cells, last_expanded=False, prev=prev)
            if isinstance(abort, Handover):
                return Step(resume=cells)
            return Step(stopped=abort.reason, depth=int(bound))
        n, c2, c3 = counts()
        tally.expanded += n
        tally.generated += n + c2 + 2 * c3 + root_extra
        if found:
            cells = list(reversed(path))
            tally.generated -= _path_fix(search.nbrs, [z0, *cells], last_expanded=True, prev=prev)
            return Step(found=cells)
        return Step(next_bound=bound + 2)

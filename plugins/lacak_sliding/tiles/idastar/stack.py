"""``idastar-tiles`` on an explicit stack: no recursion, any depth, traces, any heuristic.

:class:`Stack` is the general path: a heuristic it knows nothing of is called on
each child's board (:class:`Calls`), a sparse-indexed additive model is kept up
to date move by move (:class:`AdditiveEval`). It visits the same nodes, in the
same order, as the recursive engines, so a search goes on here when its bound
gets too deep to recurse, and it records the search tree when a trace is asked.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import lacak
from lacak import StopReason

from .iteration import Engine, Search, Step, Tally, first_bound, tile_cells
from .model import AdditiveModel

__all__ = ["AdditiveEval", "Calls", "Stack"]


class Stack:
    """IDA* with an explicit stack: no recursion, any depth, traces, any heuristic.

    ``evaluator`` gives the estimates: ``root(board)`` at the start of an
    iteration, ``child(board, z, nz, t)`` after tile ``t`` moved from ``nz``
    to the blank's cell ``z``, ``enter()`` when that child is searched and
    ``leave()`` when the search backs out of it. Children are visited in the
    same order, and counted the same way, as by the recursive engines, so a
    search that moves here when its bound gets deep goes on seamlessly.
    """

    def __init__(self, search: Search, evaluator: Any, trace: lacak.SearchTrace | None) -> None:
        self.search = search
        self.evaluator = evaluator
        self.trace = trace

    def first_bound(self) -> float:
        return first_bound(self.evaluator.root(list(self.search.start)), self.search.parity)

    def fits(self, bound: float) -> bool:
        return True

    def fallback(self) -> Engine:
        return self

    def iterate(self, bound: float, tally: Tally) -> Step:
        search, evaluator, trace = self.search, self.evaluator, self.trace
        width = search.width
        start, goal, nbrs = search.start, search.goal, search.nbrs
        names = {width: "D", -width: "U", 1: "R", -1: "L"}
        max_expanded, deadline, depth_cut = search.max_expanded, search.deadline, search.depth_cut
        clock = search.clock
        timed, watch = search.timed, search.watch
        expanded, generated = tally.expanded, tally.generated

        def out_of_budget() -> StopReason | None:
            """Checked before each expansion, as the recursive engines do."""
            if max_expanded is not None and expanded >= max_expanded:
                return StopReason.NODES
            if timed and expanded % 256 == 0:
                if deadline is not None and clock() >= deadline:
                    return StopReason.TIME
                if watch.on:
                    watch(expanded)
            return None

        def done(step: Step) -> Step:
            tally.expanded, tally.generated = expanded, generated
            return step

        board = list(start)
        h0 = evaluator.root(board)
        tid = trace.add(None, start, depth=0, g=0.0, h=h0) if trace is not None else -1
        cut_depth, cut_bound = False, math.inf
        stop = out_of_budget()
        if stop is not None:
            return done(Step(stopped=stop, depth=int(bound)))
        expanded += 1
        if trace is not None:
            trace.expand(tid)
        if board == goal:
            if trace is not None:
                trace.mark_goal(tid)
            return done(Step(found=[]))
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
                    return done(Step(stopped=stop, depth=int(bound)))
                expanded += 1
                if trace is not None:
                    trace.expand(child)
                if board == goal:
                    if trace is not None:
                        trace.mark_goal(child)
                    return done(Step(found=[*cells[1:], nz]))
                evaluator.enter()
                cells.append(nz)
                nexts.append(0)
                moved.append(t)
                tids.append(child)
                continue
            board[nz] = t
            board[z] = 0
        if depth_cut is None:
            return done(Step(next_bound=bound + 2))
        if cut_bound == math.inf:
            # every child within max_depth was searched
            stopped = StopReason.DEPTH if cut_depth else StopReason.EXHAUSTED
            return done(Step(stopped=stopped, depth=depth_cut))
        return done(Step(next_bound=max(bound + 2, first_bound(cut_bound, search.parity))))


class Calls:
    """Estimates for :class:`Stack` by calling a heuristic on each child's board."""

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


class AdditiveEval:
    """Estimates for :class:`Stack` from a sparse-indexed :class:`AdditiveModel`.

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
        where = tile_cells(board)
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

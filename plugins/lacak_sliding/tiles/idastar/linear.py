"""``idastar-tiles`` with linear conflict kept up to date as the search moves.

Linear conflict (Manhattan distance plus two per tile that must leave its goal
row or column) has no table, but an incremental path of its own: recursively
(:class:`Linear`), and on the explicit stack (:class:`LinearEval`, for bounds too
deep to recurse); both visit and count the same nodes.
"""

from __future__ import annotations

from typing import Any

from lacak import StopReason

from .iteration import Abort, Engine, Search, Step, Tally, first_bound, stack_room
from .stack import Stack

__all__ = ["Linear", "LinearEval", "is_linear_conflict"]


class Linear:
    """IDA* with linear conflict kept up to date, recursively: the same search as the
    explicit stack with :class:`LinearEval`.

    Manhattan distance changes by the moved tile's table entry. A move along
    a row keeps the order of the tiles in that row, so only the two columns
    the tile leaves and enters can change their conflicts, and only when one
    of them is the tile's goal column (it counts only there); across rows
    likewise. That one line is recomputed from the board.
    """

    def __init__(self, search: Search, lc: Any) -> None:
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
        return first_bound(self.m0 + 2 * self.conflicts0, self.search.parity)

    def fits(self, bound: float) -> bool:
        return bound <= stack_room()

    def fallback(self) -> Engine:
        return Stack(self.search, LinearEval(self.lc, self.search.width), None)

    def iterate(self, bound: float, tally: Tally) -> Step:
        search, lc = self.search, self.lc
        width = search.width
        nbrs, goal, md = search.nbrs, search.goal, self.md
        goal_row, goal_col = lc.goal_row, lc.goal_col
        row_conflicts, col_conflicts = lc.row_conflicts, lc.col_conflicts
        max_expanded, deadline, clock = search.max_expanded, search.deadline, search.clock
        timed, watch = search.timed, search.watch
        board, rows, cols = self.board, self.rows, self.cols
        counters = {"expanded": tally.expanded, "generated": tally.generated}
        path: list[int] = []

        def dfs(z: int, prev: int, g: int, m: int, conflicts: int) -> bool:
            done = counters["expanded"]
            if max_expanded is not None and done >= max_expanded:
                raise Abort(StopReason.NODES)
            if timed and done % 256 == 0:
                if deadline is not None and clock() >= deadline:
                    raise Abort(StopReason.TIME)
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
        except Abort as abort:
            return Step(stopped=abort.reason, depth=int(bound))
        finally:
            tally.expanded, tally.generated = counters["expanded"], counters["generated"]
        if found:
            return Step(found=list(reversed(path)))
        return Step(next_bound=bound + 2)


class LinearEval:
    """Linear conflict for :class:`Stack`, kept up to date as :class:`Linear` does."""

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


def is_linear_conflict(prepared: Any, puzzle: Any) -> bool:
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

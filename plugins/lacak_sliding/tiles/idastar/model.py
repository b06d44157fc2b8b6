"""An additive heuristic in the form the fast ``idastar-tiles`` engines need.

:func:`additive_model` reads a prepared heuristic: the pattern databases of
:mod:`lacak_sliding.pdb` (sparse tables, or tables by placement rank) and the
tile tables of :mod:`lacak_sliding.heuristics` (``manhattan``, ``misplaced``,
``weighted``) become an :class:`AdditiveModel`: tables, each tile's table and
weight, and the board's mirror for the reflected lookup. A move slides one
tile, so one table index changes, and the estimate with two lookups.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import lacak

__all__ = ["AdditiveModel", "additive_model", "lowest"]


class AdditiveModel:
    """An additive heuristic in the form the fast search needs.

    ``tables[g]`` is indexable by an int (``bytes`` or a list); tile ``t``
    belongs to table ``group[t]`` with weight ``weight[t]``; the estimate is
    ``sum(tables[g][index[g]])``. A table's index is either *sparse*,
    ``sum(weight[t] * cell(t))`` over its tiles, or (``ranked``) the rank of
    the placement of its tiles (``members[g]``, in order) as numbered by
    :class:`lacak_sliding.pdb.placements.Placements`, ``weight`` then being the rank
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


def lowest(model: AdditiveModel) -> float:
    """A lower bound on the model's estimate: the sum of its tables' negative minima.

    A node at depth ``g`` is searched only if ``g + h <= bound``, so the
    recursion is at most ``bound - lowest(model)`` frames deep. Byte tables
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

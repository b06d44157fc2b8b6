"""Additive pattern databases for sliding puzzles: partitions, lookups, the registered heuristics.

A *partition* splits the tiles into disjoint groups. Each group's pattern
database (built by :mod:`lacak_sliding.pdb_build`) holds, for every placement
of the group's tiles, the fewest moves of those tiles that bring them home;
the sum over the groups never overestimates the true distance, because every
move moves one tile of one group (Korf and Felner 2002, "Disjoint pattern
database heuristics"). Tiles left out of every group count their Manhattan
distance (a one-tile database), so any partition gives an admissible
heuristic.

The *reflected lookup* (Culberson and Schaeffer; Felner, Korf and Hanan 2004)
mirrors the board about its diagonal through the blank's goal cell, looks the
mirrored board up in the same databases, and takes the larger of the two sums.

Databases are built by :mod:`lacak_sliding.pdb_build` and cached on disk by
:mod:`lacak_sliding.pdb_cache` (one verified file per group, keyed by board
size, goal and group), and in memory per process; a second run loads instead
of building. A first use that builds is announced, and its progress shown,
through :mod:`lacak.progress`.

.. rubric:: Examples

>>> part = Partition.parse("1,2,3/4,5,6", 3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
>>> part.groups, part.singletons
(((1, 2, 3), (4, 5, 6)), (7, 8))
>>> Partition.named("663", 4, 4, tuple(range(16))).label
'6-6-3'
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import lacak
from lacak.options import OneOf

from .pdb_cache import (
    FORMAT,
    UNREACHED,
    BuildProgress,
    BuildStopped,
    _lock,
    _memory,
    build_deadline,
    cache_folder,
    cached_databases,
    database_path,
    inspect_database,
    is_cached,
    load_or_build,
    other_files,
    usable_folder,
)

__all__ = [
    "BUILD_SECONDS_PER_PLACEMENT",
    "COMPILED_SECONDS_PER_PLACEMENT",
    "FORMAT",
    "NAMED_PARTITIONS",
    "SPARSE_LIMIT",
    "UNREACHED",
    "BuildProgress",
    "BuildStopped",
    "GroupTable",
    "Partition",
    "PatternHeuristic",
    "build_announcement",
    "build_deadline",
    "build_estimate",
    "cache_folder",
    "cached_databases",
    "database_path",
    "group_table",
    "inspect_database",
    "is_cached",
    "load_or_build",
    "memory_note",
    "missing_groups",
    "other_files",
    "pattern_heuristic",
    "reflection",
    "seconds_per_placement",
]

#: Largest ``cells ** tiles`` for which a group gets a sparse lookup table
#: (one byte per entry, indexed by ``sum(cell_i * cells ** i)``, kept up to date
#: with one addition per move). Bigger groups are looked up by their rank.
SPARSE_LIMIT = 1 << 28

# Layouts with the blank's goal cell in the top-left corner: one letter per
# cell naming its group ("." is the blank's cell). Other corners are mirrors.
_LAYOUTS: dict[str, tuple[int, int, str]] = {
    "555": (4, 4, ".aaa/baac/bbcc/bbcc"),
    # 6-6-3: of the layouts tried on Korf's instances, the one with the fewest nodes
    "663": (4, 4, ".abb/aabb/aabb/accc"),
    "78": (4, 4, ".aaa/aaaa/bbbb/bbbb"),
    "44": (3, 3, ".aa/baa/bbb"),
    "6666": (5, 5, ".aabb/aaabb/ccabb/ccddd/ccddd"),
}

#: Named partitions and the board each is for.
NAMED_PARTITIONS: dict[str, tuple[int, int]] = {
    name: (w, h) for name, (w, h, _layout) in _LAYOUTS.items()
}

#: Most placements (bytes) one group's database may have: 2**31 (an 8-tile group on 4x4
#: has 518,918,400).
MAX_ENTRIES = 1 << 31

#: Most cells a board with pattern databases may have: the build keeps the free cells
#: of a placement as bits of one 64-bit integer.
MAX_CELLS = 63

#: Most memory (bytes) a database build may be expected to need (see :func:`build_bytes`).
MAX_BUILD_BYTES = 8 << 30


def build_bytes(
    cells: int, entries: int, *, compiled: bool | None = None, tiles: int | None = None
) -> int:
    """The memory a build of ``entries`` placements on a board of ``cells`` cells needs at least.

    The compiled builder (numba, :mod:`lacak_sliding.pdb_compiled`) needs two
    bytes per placement (the distance and two bits for each of the blank's
    first four regions) and a little more for the rare placements that split
    the free cells five ways or more. The numpy builder needs, per placement,
    the distance (1 byte), a bitmask of the blank regions seen (2, 4 or 8 bytes
    by board size) and a de-duplication slot (4 or 8 bytes); the frontier
    comes on top (about as much again at the widest level).

    :param compiled: for the compiled builder (default: whichever a build of a group of
        ``tiles`` tiles here uses; any size when ``tiles`` is not given).
    :param tiles: the group's size.

    >>> round(build_bytes(16, 518_918_400, compiled=False) / 2**30, 2)  # 7-8's group of 8, GiB
    3.38
    >>> round(build_bytes(16, 518_918_400, compiled=True) / 2**30, 2)
    1.0
    """
    if compiled is None:
        from .pdb_engines import compiled_available, compiled_supports

        compiled = compiled_available() and (tiles is None or compiled_supports(cells, tiles))
    if compiled:
        return entries * 2 + entries // 16
    visited = 2 if cells <= 16 else 4 if cells <= 32 else 8
    claim = 4 if entries < 1 << 31 else 8
    return entries * (1 + visited + claim)


#: Largest group the default partitions of other board sizes use.
_DEFAULT_GROUP = 6


def _layout_groups(layout: str, width: int, height: int) -> list[list[int]]:
    """Cells of each group of a layout, for a board with the blank's goal cell at 0."""
    rows = layout.split("/")
    assert len(rows) == height and all(len(r) == width for r in rows), layout
    letters = sorted({ch for row in rows for ch in row} - {"."})
    return [
        [r * width + c for r in range(height) for c in range(width) if rows[r][c] == letter]
        for letter in letters
    ]


def _mirror(width: int, height: int, blank: int) -> Callable[[int], int]:
    """The mirror taking the top-left corner to the corner nearest ``blank``."""
    br, bc = divmod(blank, width)
    flip_r = br > (height - 1) / 2
    flip_c = bc > (width - 1) / 2

    def move(cell: int) -> int:
        r, c = divmod(cell, width)
        return (height - 1 - r if flip_r else r) * width + (width - 1 - c if flip_c else c)

    return move


def _orient(cells: list[list[int]], width: int, height: int, blank: int) -> list[list[int]]:
    """Mirror a layout made for the blank in the top-left corner to the corner nearest ``blank``.

    When the blank's goal cell is not a corner, the group holding that cell
    takes the corner cell instead.
    """
    move = _mirror(width, height, blank)
    corner = move(0)
    return [[corner if move(c) == blank else move(c) for c in group] for group in cells]


def _check_goal(width: int, height: int, goal: Sequence[int]) -> tuple[int, ...]:
    goal = tuple(int(t) for t in goal)
    if sorted(goal) != list(range(width * height)):
        raise lacak.InvalidPuzzleError(
            f"the goal must hold 0 to {width * height - 1} once each, got {goal!r}"
        )
    return goal


@attrs.frozen(kw_only=True)
class Partition:
    """Disjoint groups of tiles of one board and goal.

    Build one with :meth:`named`, :meth:`default` or :meth:`parse`; tiles in
    no group are :attr:`singletons` and count their Manhattan distance.
    """

    #: Board width.
    width: int
    #: Board height.
    height: int
    #: The goal state, tiles row by row, 0 = blank.
    goal: tuple[int, ...] = attrs.field(converter=lambda v: tuple(int(t) for t in v))
    #: The groups, each a sorted tuple of tiles (the order defines ranks in the database).
    groups: tuple[tuple[int, ...], ...]
    #: The name it was made from (``"663"``, ``"default"``, ``"custom"``).
    name: str = "custom"

    def __attrs_post_init__(self) -> None:
        n = self.width * self.height
        if n > MAX_CELLS:
            raise lacak.InvalidOptionError(
                f"pattern databases work on boards of at most {MAX_CELLS} cells; "
                f"{self.width}x{self.height} has {n}"
            )
        seen: set[int] = set()
        for group in self.groups:
            if not group:
                raise lacak.InvalidOptionError("a pattern database group cannot be empty")
            for tile in group:
                if not 1 <= tile < n:
                    raise lacak.InvalidOptionError(
                        f"tile {tile} is not on a {self.width}x{self.height} board "
                        f"(tiles are 1 to {n - 1}; the blank is never in a group)"
                    )
                if tile in seen:
                    raise lacak.InvalidOptionError(
                        f"tile {tile} is in two groups; pattern database groups must be disjoint"
                    )
                seen.add(tile)
            if math.perm(n, len(group)) > MAX_ENTRIES:
                raise lacak.InvalidOptionError(
                    f"a group of {len(group)} tiles on a {self.width}x{self.height} board has "
                    f"{math.perm(n, len(group)):,} placements, more than the "
                    f"{MAX_ENTRIES:,} a pattern database may hold; use smaller groups"
                )
            need = build_bytes(n, math.perm(n, len(group)), tiles=len(group))
            if need > MAX_BUILD_BYTES:
                raise lacak.InvalidOptionError(
                    f"building the database of a group of {len(group)} tiles on a "
                    f"{self.width}x{self.height} board needs more than {need / 2**30:.1f} GiB "
                    f"of memory (at most {MAX_BUILD_BYTES / 2**30:.0f} GiB allowed); "
                    "use smaller groups"
                )

    # -- construction ------------------------------------------------------------

    @classmethod
    def _from_cells(
        cls, cells: list[list[int]], width: int, height: int, goal: tuple[int, ...], name: str
    ) -> Partition:
        groups = sorted(
            (tuple(sorted(goal[c] for c in group)) for group in cells), key=lambda g: (-len(g), g)
        )
        return cls(width=width, height=height, goal=goal, groups=tuple(groups), name=name)

    @classmethod
    def named(cls, name: str, width: int, height: int, goal: Sequence[int]) -> Partition:
        """A named partition (``555``, ``663``, ``78`` for 4x4, ``44`` for 3x3, ``6666`` for 5x5).

        The layout is mirrored so that its empty corner is the one nearest the
        blank's goal cell.

        :raises InvalidOptionError: unknown name, or a board it is not made for.
        """
        goal = _check_goal(width, height, goal)
        if name == "default":
            return cls.default(width, height, goal)
        if name not in _LAYOUTS:
            raise lacak.InvalidOptionError(
                f"unknown pattern database partition {name!r} "
                f"(named ones: {', '.join(_LAYOUTS)}, or 'default', or groups like '1,2,3/4,5,6')"
            )
        w, h, layout = _LAYOUTS[name]
        if (w, h) != (width, height):
            raise lacak.InvalidOptionError(
                f"partition {name!r} is for {w}x{h} boards, not {width}x{height}"
            )
        cells = _orient(_layout_groups(layout, w, h), w, h, goal.index(0))
        return cls._from_cells(cells, width, height, goal, name)

    @classmethod
    def default(cls, width: int, height: int, goal: Sequence[int]) -> Partition:
        """The partition used when none is named.

        ``663`` on 4x4, ``44`` on 3x3; other boards get balanced groups of at
        most six tiles (five past 20 cells, so that a first use builds in
        minutes: 5-5-5-5-4 on 5x5, where ``6666`` is the stronger, slower
        choice), read row by row from the blank's corner.
        """
        goal = _check_goal(width, height, goal)
        preferred = {(4, 4): "663", (3, 3): "44"}.get((width, height))
        if preferred:
            return cls.named(preferred, width, height, goal)
        n = width * height
        blank = goal.index(0)
        # cells read row by row from the blank's corner, cut into balanced groups
        move = _mirror(width, height, blank)
        order = [move(c) for c in range(n) if move(c) != blank]
        largest = _DEFAULT_GROUP if n <= 20 else _DEFAULT_GROUP - 1
        count = -(-len(order) // largest)
        size, extra = divmod(len(order), count)
        cells, start = [], 0
        for i in range(count):
            end = start + size + (1 if i < extra else 0)
            cells.append(order[start:end])
            start = end
        return cls._from_cells(cells, width, height, goal, "default")

    @classmethod
    def parse(cls, text: str, width: int, height: int, goal: Sequence[int]) -> Partition:
        """A partition from text: a name, or groups of tiles like ``"1,2,3,4,5,6/7,8,9"``.

        :raises InvalidOptionError: malformed text or groups.
        """
        goal = _check_goal(width, height, goal)
        if not isinstance(text, str):
            raise lacak.InvalidOptionError(
                f"a pattern database partition is text such as '663' or '1,2,3/4,5,6', "
                f"got {text!r}"
            )
        text = text.strip()
        if not text or text == "default":
            return cls.default(width, height, goal)
        if text in _LAYOUTS:
            return cls.named(text, width, height, goal)
        groups = []
        for part in text.split("/"):
            tokens = [t for t in re.split(r"[\s,]+", part.strip()) if t]
            if not tokens:
                raise lacak.InvalidOptionError(
                    f"empty group in pattern database partition {text!r}"
                )
            try:
                groups.append(tuple(sorted(int(t) for t in tokens)))
            except ValueError:
                raise lacak.InvalidOptionError(
                    f"pattern database partition {text!r} must be groups of tile numbers "
                    "separated by '/', tiles separated by ',' (or a name: "
                    f"{', '.join(_LAYOUTS)})"
                ) from None
        return cls(width=width, height=height, goal=goal, groups=tuple(groups), name="custom")

    # -- views -------------------------------------------------------------------

    @property
    def singletons(self) -> tuple[int, ...]:
        """Tiles in no group (each counts its Manhattan distance)."""
        grouped = {t for g in self.groups for t in g}
        return tuple(t for t in range(1, self.width * self.height) if t not in grouped)

    @property
    def label(self) -> str:
        """Group sizes joined by dashes, e.g. ``6-6-3`` (a named partition's own order: ``7-8``)."""
        if self.name in _LAYOUTS:
            return "-".join(self.name)
        return "-".join(str(len(g)) for g in self.groups)

    @property
    def text(self) -> str:
        """The groups written as ``"1,2,3/4,5,6"``."""
        return "/".join(",".join(map(str, g)) for g in self.groups)

    def entries(self) -> int:
        """Total placements (bytes) over the groups' databases."""
        n = self.width * self.height
        return sum(math.perm(n, len(g)) for g in self.groups)


# -- reflection -------------------------------------------------------------------


def reflection(
    width: int, height: int, goal: Sequence[int]
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The mirror that maps the goal to itself: ``(cell map, tile map)``, or ``None``.

    The board is mirrored about the main diagonal when the blank's goal cell
    is on it, else about the anti-diagonal when it is on that one; tile ``t``
    becomes the tile whose goal cell is the mirror of ``t``'s goal cell, so
    the mirrored goal is the goal again and distances are unchanged.
    Non-square boards, or a blank on neither diagonal, have none.

    >>> cells, tiles = reflection(3, 3, (0, 1, 2, 3, 4, 5, 6, 7, 8))
    >>> cells[1], tiles[1], tiles[3]
    (3, 3, 1)
    """
    if width != height:
        return None
    n = width * width
    blank = list(goal).index(0)
    r, c = divmod(blank, width)
    if r == c:
        cells = tuple((p % width) * width + p // width for p in range(n))
    elif r + c == width - 1:
        cells = tuple((width - 1 - p % width) * width + (width - 1 - p // width) for p in range(n))
    else:
        return None
    where = [0] * n
    for p, t in enumerate(goal):
        where[t] = p
    tiles = tuple(goal[cells[where[t]]] for t in range(n))
    return cells, tiles


@attrs.define(kw_only=True, eq=False)
class GroupTable:
    """One group's database ready for lookups.

    ``compact`` holds the distances by placement rank. :meth:`make_sparse`
    adds ``sparse``, a ``bytes`` table indexed by ``sum(cell[tile_i] * cells
    ** i)`` for the group's tiles in order, so that a search moving tile
    ``tile_i`` from ``a`` to ``b`` updates the index by ``(b - a) * cells **
    i``; groups too big for that (``cells ** k`` above :data:`SPARSE_LIMIT`)
    are looked up by rank.
    """

    #: The group's tiles, in database order.
    tiles: tuple[int, ...]
    #: Board cells.
    cells: int
    #: Distances by placement rank (numpy uint8 array).
    compact: Any = attrs.field(repr=False)
    #: Distances by sparse index, once :meth:`make_sparse` made them, else ``None``.
    sparse: bytes | None = attrs.field(default=None, repr=False, init=False)
    _compact_bytes: bytes | None = attrs.field(default=None, repr=False, init=False)

    @property
    def sparse_size(self) -> int:
        """Entries of the sparse table: ``cells ** tiles``."""
        return int(self.cells ** len(self.tiles))

    def make_sparse(self) -> bytes:
        """Build (once) and return the sparse table."""
        if self.sparse is None:
            import numpy as np

            from .pdb_build import Placements

            hasher = Placements(self.cells, len(self.tiles))
            self.sparse = hasher.sparse_table(np.asarray(self.compact)).tobytes()
        return self.sparse

    def compact_bytes(self) -> bytes:
        """``compact`` as ``bytes`` (fast to index from Python), made once."""
        if self._compact_bytes is None:
            self._compact_bytes = self.compact.tobytes()
        return self._compact_bytes

    @property
    def rank_weights(self) -> tuple[int, ...]:
        """Rank weight of each tile: ``(cells - i - 1)! / (cells - k)!``."""
        k = len(self.tiles)
        return tuple(math.perm(self.cells - i - 1, k - i - 1) for i in range(k))

    @property
    def weights(self) -> tuple[int, ...]:
        """Sparse-index weight of each tile: ``cells ** i``."""
        return tuple(self.cells**i for i in range(len(self.tiles)))

    def rank(self, cells_of: Sequence[int]) -> int:
        """Placement rank of the tiles standing on ``cells_of`` (in group order)."""
        n = self.cells
        k = len(self.tiles)
        total = 0
        for i, p in enumerate(cells_of):
            digit = p - sum(1 for q in cells_of[:i] if q < p)
            weight = 1
            for j in range(i + 1, k):
                weight *= n - j
            total += digit * weight
        return total

    def lookup(self, cells_of: Sequence[int]) -> int:
        """The distance for the group's tiles on ``cells_of`` (slow path, any size)."""
        if self.sparse is not None:
            n = self.cells
            return self.sparse[sum(p * n**i for i, p in enumerate(cells_of))]
        return int(self.compact[self.rank(cells_of)])


def group_table(
    width: int,
    height: int,
    goal: Sequence[int],
    tiles: Sequence[int],
    *,
    progress: BuildProgress | None = None,
) -> GroupTable:
    """The :class:`GroupTable` of one group, cached in memory, loaded or built."""
    import numpy as np

    goal = tuple(goal)
    tiles = tuple(tiles)
    key = ("group", width, height, goal, tiles)
    with _lock:
        table = _memory.get(key)
        if table is not None:
            return table
        n = width * height
        if len(tiles) == 1:
            where = goal.index(tiles[0])
            compact = np.array(
                [
                    abs(p // width - where // width) + abs(p % width - where % width)
                    for p in range(n)
                ],
                dtype=np.uint8,
            )
        else:
            compact = load_or_build(width, height, goal, tiles, progress=progress)
        table = GroupTable(tiles=tiles, cells=n, compact=compact)
        _memory[key] = table
        return table


class PatternHeuristic:
    """A prepared additive pattern-database heuristic: call it on a state.

    It also describes itself for specialised searchers: every tile (the blank
    and singleton tiles included) belongs to one entry of :attr:`tables`, with
    a sparse-index :attr:`weight`; the estimate is the sum over the tables of
    ``table[index]``, where a table's index is the sum of ``weight[t] * cell``
    over its tiles. With :attr:`reflect`, the estimate is the larger of that
    sum and the same sum for the mirrored board (:attr:`mirror_cells`,
    :attr:`mirror_tiles`).

    :ivar partition: the :class:`Partition`.
    :ivar reflect: whether the reflected lookup is used.
    :ivar groups: the :class:`GroupTable` of each group, then of each singleton.
    """

    def __init__(self, partition: Partition, groups: Sequence[GroupTable], reflect: bool) -> None:
        self.partition = partition
        self.width = partition.width
        self.height = partition.height
        self.goal = partition.goal
        self.reflect = reflect
        self.groups = tuple(groups)
        n = self.width * self.height
        self.cells = n
        #: ``group_of[t]``: index into :attr:`groups` of tile ``t`` (-1 for the blank).
        self.group_of = [-1] * n
        #: ``weight[t]``: the tile's sparse-index weight within its group (0 for the blank).
        self.weight = [0] * n
        for g, table in enumerate(self.groups):
            for i, tile in enumerate(table.tiles):
                self.group_of[tile] = g
                self.weight[tile] = n**i
        mirror = reflection(self.width, self.height, self.goal) if reflect else None
        if reflect and mirror is None:
            raise lacak.InvalidOptionError(
                "the reflected lookup needs a square board whose blank's goal cell is on a "
                f"diagonal; this {self.width}x{self.height} goal has the blank at cell "
                f"{self.goal.index(0)}"
            )
        self.mirror_cells, self.mirror_tiles = mirror if mirror else ((), ())
        #: Whether every group has a sparse table; when one group is too big for
        #: one, none gets one (searches then look every group up by rank).
        self.sparse = all(t.sparse_size <= SPARSE_LIMIT for t in self.groups)
        if self.sparse:
            for table in self.groups:
                table.make_sparse()

    @property
    def name(self) -> str:
        return f"pdb-{self.partition.label}" + ("+reflect" if self.reflect else "")

    def _sum(self, where: Sequence[int]) -> int:
        total = 0
        for table in self.groups:
            total += table.lookup([where[t] for t in table.tiles])
        return total

    def __call__(self, state: Sequence[int]) -> int:
        n = self.cells
        where = [0] * n
        for p, t in enumerate(state):
            where[t] = p
        value = self._sum(where)
        if self.reflect:
            cells, tiles = self.mirror_cells, self.mirror_tiles
            mirrored = [0] * n
            for t in range(n):
                mirrored[tiles[t]] = cells[where[t]]
            value = max(value, self._sum(mirrored))
        return value

    def indexes(self, where: Sequence[int]) -> list[int]:
        """Sparse index of each group for tiles standing on ``where[t]``."""
        return [sum(where[t] * self.weight[t] for t in table.tiles) for table in self.groups]


#: Seconds a database build takes per placement with the numpy builder, measured on 2
#: shared cores (6-6-3's 11.5 million placements in about 30 s, 5x5's 25.8 million in 47 s).
BUILD_SECONDS_PER_PLACEMENT = 2.5e-6

#: The same for the compiled builder (numba, ``lacak[fast]``): CPU seconds per placement
#: measured on shared cores (0.6 us for 6-6-3's six-tile groups and 7-8's eight-tile one),
#: over the two threads it runs on.
COMPILED_SECONDS_PER_PLACEMENT = 0.35e-6


def seconds_per_placement(*, compiled: bool | None = None) -> float:
    """What announcements and advice say a build takes per placement, by builder.

    :param compiled: for the compiled builder (default: whichever a build here uses).
    """
    if compiled is None:
        from .pdb_engines import compiled_available

        compiled = compiled_available()
    return COMPILED_SECONDS_PER_PLACEMENT if compiled else BUILD_SECONDS_PER_PLACEMENT


def missing_groups(partition: Partition) -> list[tuple[int, ...]]:
    """The groups of ``partition`` whose databases are neither in memory nor in the cache."""
    return [g for g in partition.groups if len(g) > 1 and not is_cached(partition, g)]


def build_estimate(
    partition: Partition,
    groups: Sequence[Sequence[int]] | None = None,
    *,
    compiled: bool | None = None,
) -> str:
    """``"about 30 s"`` or ``"a few seconds"``: how long building ``groups`` (default all of
    the partition's) takes, from :func:`seconds_per_placement`.

    >>> build_estimate(Partition.named("663", 4, 4, tuple(range(16))), compiled=False)
    'about 30 s'
    >>> build_estimate(Partition.named("78", 4, 4, tuple(range(16))), compiled=True)
    'about 3 minutes'
    """
    n = partition.width * partition.height
    chosen = partition.groups if groups is None else groups
    placements = sum(math.perm(n, len(g)) for g in chosen if len(g) > 1)
    seconds = placements * seconds_per_placement(compiled=compiled)
    if seconds < 5:
        return "a few seconds"
    if seconds < 100:
        return f"about {max(10, round(seconds / 10) * 10)} s"
    return f"about {round(seconds / 60)} minutes"


def build_announcement(partition: Partition, groups: Sequence[Sequence[int]]) -> str:
    """What a first use says before building ``groups`` of ``partition``: what, about how
    long, and where the databases are kept for later runs."""
    folder = usable_folder()
    where = (
        f"later runs load them from {folder}"
        if folder is not None
        else "the cache folder cannot be written, so they last for this run only"
    )
    return (
        f"building the {partition.label} pattern databases for "
        f"{partition.height}x{partition.width} boards once ({build_estimate(partition, groups)}); "
        + where
    )


def pattern_heuristic(
    partition: Partition, *, reflect: bool = False, progress: BuildProgress | None = None
) -> PatternHeuristic:
    """The prepared heuristic of ``partition``, loading or building its databases.

    A build is announced through :mod:`lacak.progress` (what is built, about
    how long it takes, where it is kept) and shows each group's progress there
    (a bar on a terminal); ``progress`` is called too, with ``(tiles, level,
    reached, total)``.
    """
    key = (
        "heuristic",
        partition.width,
        partition.height,
        partition.goal,
        partition.groups,
        reflect,
    )
    with _lock:
        cached = _memory.get(key)
        if cached is not None:
            return cached
        missing = missing_groups(partition)
        if missing and lacak.progress.active():
            lacak.progress.announce(build_announcement(partition, missing))
        doing = f"loading the {partition.label} pattern databases"
        with lacak.memory_guard(*memory_note(partition)):
            steps = [(g, progress) for g in partition.groups]
            steps += [((t,), None) for t in partition.singletons]
            tables = []
            for g, shown in steps:
                lacak.check_deadline(doing)  # (a database loads in a tenth of a second or so)
                tables.append(group_table(partition.width, partition.height, partition.goal, g,
                                          progress=shown))  # fmt: skip
            lacak.check_deadline(doing)
            heuristic = PatternHeuristic(partition, tables, reflect)
        _memory[key] = heuristic
        return heuristic


def memory_note(partition: Partition) -> tuple[str, str]:
    """``(what, hint)`` for :func:`lacak.memory_guard` when a partition's databases do not fit.

    >>> memory_note(Partition.named("78", 4, 4, tuple(range(16))))[1]
    'use a partition of smaller groups (pdb-663 or pdb-555 need far less), or run with more memory'
    """
    n = partition.width * partition.height
    size = f"{partition.width}x{partition.height}"
    if not partition.groups:
        return f"the pattern databases of {partition.label} on {size}", "run with more memory"
    largest = max(partition.groups, key=len)
    entries = math.perm(n, len(largest))
    what = (
        f"the pattern databases {partition.label} on {size} (the largest group, "
        f"{len(largest)} tiles, has {entries:,} placements; building it needs about "
        f"{build_bytes(n, entries, tiles=len(largest)) / 2**30:.1f} GiB)"
    )
    hint = "use a partition of smaller groups"
    if (partition.width, partition.height) == (4, 4):
        hint += " (pdb-663 or pdb-555 need far less)"
    return what, hint + ", or run with more memory"


def forget_memory() -> None:
    """Drop the databases held in memory (the disk cache stays)."""
    with _lock:
        _memory.clear()


# -- the registered heuristics --------------------------------------------------------

_REFLECT = re.compile(r"^\s*(no-?)?reflect(?:\s*=\s*(\w+))?\s*$", re.IGNORECASE)
_REFLECT_VALUES = {
    "yes": "yes",
    "true": "yes",
    "on": "yes",
    "1": "yes",
    "no": "no",
    "false": "no",
    "off": "no",
    "0": "no",
    "auto": "auto",
}
_GROUPS = re.compile(r"^[\d\s,/]+$")
#: What ``reflect`` accepts from a request lacak does not trust (:func:`parse_spec`'s words).
_REFLECT_ACCEPTS = OneOf(*sorted(set(_REFLECT_VALUES.values())))


def parse_spec(text: str, *, partition: bool = True) -> dict[str, Any]:
    """Options of a pattern-database heuristic from the text after ``name:``.

    Parts are separated by ``;``: a partition (a name such as ``663`` or
    groups such as ``1,2,3/4,5,6``, optionally written ``partition=...``) and
    ``reflect``, ``noreflect`` or ``reflect=yes|no|auto``.

    >>> parse_spec("1,2,3/4,5,6;reflect")
    {'partition': '1,2,3/4,5,6', 'reflect': 'yes'}
    >>> parse_spec("reflect=no", partition=False)
    {'reflect': 'no'}

    :raises InvalidOptionError: a part that is neither.
    """
    out: dict[str, Any] = {}
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        match = _REFLECT.match(part)
        if match:
            negated, value = match.group(1), (match.group(2) or "yes").lower()
            if value not in _REFLECT_VALUES:
                raise lacak.InvalidOptionError(
                    f"reflect must be yes, no or auto, got {match.group(2)!r}"
                )
            value = _REFLECT_VALUES[value]
            if negated:
                if value == "auto":
                    raise lacak.InvalidOptionError("noreflect takes no value")
                value = "no" if value == "yes" else "yes"
            out["reflect"] = value
            continue
        if not partition:
            raise lacak.InvalidOptionError(
                f"this pattern database takes only reflect=yes|no|auto, got {part!r}"
            )
        key, sep, value = part.partition("=")
        if sep and key.strip() == "partition":
            part = value.strip()
        elif sep:
            raise lacak.InvalidOptionError(
                f"pattern database options are a partition and reflect, got {part!r}"
            )
        if part not in _LAYOUTS and part != "default" and not _GROUPS.match(part):
            raise lacak.InvalidOptionError(
                f"pattern database partition {part!r} must be a name ({', '.join(_LAYOUTS)}, "
                "default) or groups of tiles like 1,2,3/4,5,6"
            )
        out["partition"] = part
    return out


def _want_reflect(value: Any, width: int, height: int, goal: Sequence[int]) -> bool:
    if isinstance(value, bool):
        value = "yes" if value else "no"
    value = _REFLECT_VALUES.get(str(value).lower())
    if value is None:
        raise lacak.InvalidOptionError("reflect must be yes, no or auto")
    if value == "auto":
        return reflection(width, height, goal) is not None
    return value == "yes"


def _board(puzzle: Any) -> tuple[int, int, tuple[int, ...]]:
    try:
        return int(puzzle.width), int(puzzle.height), tuple(puzzle.goal)
    except AttributeError:
        raise lacak.InvalidPuzzleError(
            "pattern databases need a sliding puzzle (width, height, goal)"
        ) from None


def prepare(puzzle: Any, partition: str = "default", reflect: Any = "auto") -> PatternHeuristic:
    """The ``prepare`` of the ``pdb`` heuristics: load (or build) and return the lookup."""
    width, height, goal = _board(puzzle)
    part = Partition.parse(partition, width, height, goal)
    return pattern_heuristic(part, reflect=_want_reflect(reflect, width, height, goal))


def estimate(
    puzzle: Any, state: Sequence[int], partition: str = "default", reflect: Any = "auto"
) -> int:
    """The ``pdb`` estimate of ``state`` (the databases stay in memory after the first call)."""
    return prepare(puzzle, partition, reflect)(state)


def _named(name: str) -> tuple[Callable[..., PatternHeuristic], Callable[..., int]]:
    def prepare_named(puzzle: Any, reflect: Any = "auto") -> PatternHeuristic:
        width, height, goal = _board(puzzle)
        part = Partition.named(name, width, height, goal)
        return pattern_heuristic(part, reflect=_want_reflect(reflect, width, height, goal))

    def estimate_named(puzzle: Any, state: Sequence[int], reflect: Any = "auto") -> int:
        return prepare_named(puzzle, reflect)(state)

    prepare_named.__doc__ = f"Prepared ``pdb-{name}``."
    estimate_named.__doc__ = f"The ``pdb-{name}`` estimate."
    return prepare_named, estimate_named


def heuristics() -> list[lacak.Heuristic]:
    """The pattern-database heuristics the plugin registers for kind ``sliding``."""
    out = [
        lacak.Heuristic(
            name="pdb",
            kind="sliding",
            estimate=estimate,
            prepare=prepare,
            admissible=True,
            consistent=False,
            options={"partition": "default", "reflect": "auto"},
            # a request lacak does not trust (the web API's) names a partition: groups of
            # tiles would build databases of any size for it
            accepts={"partition": OneOf("default", *_LAYOUTS), "reflect": _REFLECT_ACCEPTS},
            parse=parse_spec,
            description=(
                "additive pattern databases, any partition (pdb:1,2,3/4,5,6;reflect); "
                "default 6-6-3 on 4x4, 4-4 on 3x3, 5-5-5-5-4 on 5x5; cached on disk"
            ),
        )
    ]
    for name, (w, h) in NAMED_PARTITIONS.items():
        if name == "44":
            continue
        prep, est = _named(name)
        label = "-".join(name)
        out.append(
            lacak.Heuristic(
                name=f"pdb-{name}",
                kind="sliding",
                estimate=est,
                prepare=prep,
                admissible=True,
                consistent=False,
                options={"reflect": "auto"},
                accepts={"reflect": _REFLECT_ACCEPTS},
                parse=lambda text: parse_spec(text, partition=False),
                description=(
                    f"additive pattern databases {label} for {w}x{h} boards "
                    "(Korf & Felner 2002), with the reflected lookup; cached on disk"
                ),
            )
        )
    return out

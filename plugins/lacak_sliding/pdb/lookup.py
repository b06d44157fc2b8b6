"""Pattern databases ready for lookups: each group's table, the additive heuristic, and
what a build costs.

:func:`pattern_heuristic` gives the prepared heuristic of a
:class:`~lacak_sliding.pdb.partition.Partition`: one :class:`GroupTable` per
group (and per singleton tile), loaded from the disk cache
(:mod:`lacak_sliding.pdb.cache`) or built, and kept in memory per process; a
second run loads instead of building. A first use that builds is announced,
and its progress shown, through :mod:`lacak.progress`, with the estimate of
:func:`build_estimate`. :class:`PatternHeuristic` sums the groups' distances
(the larger of that sum and the mirrored board's, with the reflected lookup).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs
import lacak

from .cache import (
    BuildProgress,
    is_cached,
    is_shipped,
    load_or_build,
    lock,
    memory,
    usable_folder,
)
from .engines import compiled_available
from .partition import Partition, build_bytes, reflection

__all__ = [
    "BUILD_SECONDS_PER_PLACEMENT",
    "COMPILED_SECONDS_PER_PLACEMENT",
    "SPARSE_LIMIT",
    "GroupTable",
    "PatternHeuristic",
    "build_announcement",
    "build_estimate",
    "forget_memory",
    "group_table",
    "memory_note",
    "missing_groups",
    "pattern_heuristic",
    "seconds_per_placement",
]

#: Largest ``cells ** tiles`` for which a group gets a sparse lookup table
#: (one byte per entry, indexed by ``sum(cell_i * cells ** i)``, kept up to date
#: with one addition per move). Bigger groups are looked up by their rank.
SPARSE_LIMIT = 1 << 28


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

    def make_sparse(self, indexes: dict[tuple[int, int], Any] | None = None) -> bytes:
        """Build (once) and return the sparse table (``indexes``: see
        :meth:`~lacak_sliding.pdb.placements.Placements.sparse_table`)."""
        if self.sparse is None:
            # numpy, and the placements' hash, only once a table is made (a build or a load)
            import numpy as np

            from .placements import Placements

            hasher = Placements(self.cells, len(self.tiles))
            self.sparse = hasher.sparse_table(np.asarray(self.compact), indexes).tobytes()
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
    import numpy as np  # (deferred: registering the heuristics imports this module)

    goal = tuple(goal)
    tiles = tuple(tiles)
    key = ("group", width, height, goal, tiles)
    with lock:
        table = memory.get(key)
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
        memory[key] = table
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
            indexes: dict[tuple[int, int], Any] = {}  # (shared by groups of one size)
            for table in self.groups:
                table.make_sparse(indexes)

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
        compiled = compiled_available()
    return COMPILED_SECONDS_PER_PLACEMENT if compiled else BUILD_SECONDS_PER_PLACEMENT


def missing_groups(partition: Partition) -> list[tuple[int, ...]]:
    """The groups of ``partition`` whose databases are neither in memory nor in the cache,
    nor shipped with lacak (those unpack in a fraction of a second)."""
    return [
        g
        for g in partition.groups
        if len(g) > 1 and not is_cached(partition, g) and not is_shipped(partition, g)
    ]


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
    with lock:
        cached = memory.get(key)
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
        memory[key] = heuristic
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
    with lock:
        memory.clear()


# -- the registered heuristics --------------------------------------------------------

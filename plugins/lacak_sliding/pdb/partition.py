"""Partitions of a board's tiles into disjoint groups, and the board's reflection.

A *partition* splits the tiles into disjoint groups. Each group's pattern
database (built by :mod:`lacak_sliding.pdb.build`) holds, for every placement
of the group's tiles, the fewest moves of those tiles that bring them home;
the sum over the groups never overestimates the true distance, because every
move moves one tile of one group (Korf and Felner 2002, "Disjoint pattern
database heuristics"). Tiles left out of every group count their Manhattan
distance (a one-tile database), so any partition gives an admissible
heuristic.

The *reflected lookup* (Culberson and Schaeffer; Felner, Korf and Hanan 2004)
mirrors the board about its diagonal through the blank's goal cell
(:func:`reflection`), looks the mirrored board up in the same databases, and
takes the larger of the two sums (:mod:`lacak_sliding.pdb.lookup`).

A partition refuses groups whose databases could not be held or built
(:data:`MAX_ENTRIES`, :func:`build_bytes`), before anything is built.

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

import attrs
import lacak

from .engines import compiled_available, compiled_supports

__all__ = [
    "MAX_BUILD_BYTES",
    "MAX_CELLS",
    "MAX_ENTRIES",
    "NAMED_PARTITIONS",
    "Partition",
    "build_bytes",
    "reflection",
]

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

    The compiled builder (numba, :mod:`lacak_sliding.pdb.compiled`) needs two
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

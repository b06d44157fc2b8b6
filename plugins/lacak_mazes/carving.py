"""The order a generator made its maze in: :class:`Carving`.

Every built-in generator takes the option ``carving`` (``False`` by default).
Asked (``lacak.generate("maze", "wilson", (10, 20), seed=1, carving=True)``,
``lacak maze generate -O carving=true``), it returns the same maze, cell for
cell, with :attr:`Maze.carving <lacak_mazes.Maze.carving>` set: its steps in
the order the algorithm took them. Each step is a passage between two
adjacent cells, ``(row, col, side)``: cell ``[row, col]`` and its neighbour
across ``side`` (``N=1, E=2, S=4, W=8``).

- ``adds="passages"`` (every generator but one): start from a grid with every
  wall standing; each step knocks one down. For generators that grow a tree
  (the backtracker, hunt-and-kill, Prim, Wilson, Aldous-Broder, the growing
  tree) the step's cell is the one the step reached and ``side`` faces where it
  came from; for the others it is the western or northern cell of the passage.
- ``adds="walls"`` (recursive division): start from one open room (every inner
  wall down); each step puts one wall up.

A generator whose steps are of more than one kind marks those of the other kinds:
``marks`` maps a name to the indices of the steps of that kind. Hunt-and-kill marks
``"hunt"``, the steps a hunt took (the scan found an unvisited cell next to the
maze and joined it to the maze); its other steps are the walk's. The others mark
nothing.

Replaying every step gives exactly the maze; :class:`~lacak_mazes.Maze`
checks that whenever a maze has a carving, so a carving read from JSON that
does not make its maze is refused. The same seed gives the same steps.

>>> import lacak
>>> maze = lacak.generate("maze", "recursive-backtracker", (2, 3), seed=4, carving=True)
>>> len(maze.carving), maze.carving.adds
(5, 'passages')
>>> bool((maze.carving.replay(2, 3) == maze.cells).all())
True
>>> hunted = lacak.generate("maze", "hunt-and-kill", (4, 5), seed=4, carving=True)
>>> hunted.carving.marks  # steps 13 and 18 are hunts, the other 17 the walks'
{'hunt': (13, 18)}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import lacak
import numpy as np

from ._common import BIT, LETTER, E, N, S, W

__all__ = ["ADDS", "Carving"]

#: What a step does: open a passage, or put a wall up.
ADDS = ("passages", "walls")


def _steps(value: Any) -> np.ndarray:
    try:
        steps = np.array(value, dtype=np.int64, copy=True)
    except (TypeError, ValueError, OverflowError):
        raise lacak.InvalidPuzzleError(
            "carving steps are [row, col, side] triples of integers"
        ) from None
    if steps.size == 0:
        steps = steps.reshape(0, 3)
    if steps.ndim != 2 or steps.shape[1] != 3:
        raise lacak.InvalidPuzzleError(
            f"carving steps are [row, col, side] triples, got an array of shape {steps.shape}"
        )
    steps.setflags(write=False)
    return steps


def _marks(value: Any) -> Mapping[str, tuple[int, ...]]:
    """Marks as names to ascending tuples of step indices (see :attr:`Carving.marks`)."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise lacak.InvalidPuzzleError(
            "a carving's marks map a name to the indices of its steps of that kind"
        )
    marks: dict[str, tuple[int, ...]] = {}
    for name, indices in value.items():
        items = indices.tolist() if isinstance(indices, np.ndarray) else indices
        if (
            not isinstance(name, str)
            or not name
            or not isinstance(items, (list, tuple))
            or not all(isinstance(i, (int, np.integer)) and not isinstance(i, bool) for i in items)
        ):
            raise lacak.InvalidPuzzleError(
                f"a carving's mark is a name with a list of step numbers, got {name!r}: {indices!r}"
            )
        marks[name] = tuple(sorted({int(i) for i in items}))
    return marks


@attrs.frozen(eq=False)
class Carving:
    """The steps a generator took, in order (see the module's docstring).

    ``steps`` is a read-only ``k x 3`` integer array of ``(row, col, side)``.
    """

    #: The steps: one ``(row, col, side bit)`` row each, in order.
    steps: np.ndarray = attrs.field(converter=_steps)
    #: ``"passages"`` (each step opens one) or ``"walls"`` (each step puts one up).
    adds: str = attrs.field(default="passages", kw_only=True)
    #: Steps of other kinds than the generator's usual one, by kind: a name and the
    #: indices of its steps, ascending (hunt-and-kill's ``"hunt"``). Empty for most.
    marks: Mapping[str, tuple[int, ...]] = attrs.field(factory=dict, converter=_marks,
                                                      kw_only=True)  # fmt: skip

    def __attrs_post_init__(self) -> None:
        if self.adds not in ADDS:
            raise lacak.InvalidPuzzleError(
                f"a carving adds 'passages' or 'walls', not {self.adds!r}"
            )
        count = len(self)
        for name, indices in self.marks.items():
            outside = [i for i in indices if not 0 <= i < count]
            if outside:
                raise lacak.InvalidPuzzleError(
                    f"the carving's mark {name!r} names step {outside[0]}, but it has "
                    f"{count} steps (0 to {count - 1})"
                )

    def marked(self, name: str) -> np.ndarray:
        """Whether each step is of kind ``name`` (a boolean array, one per step; all
        false for a kind the carving does not mark).

        >>> Carving.of([0, 0], [1, 2], [8, 8], marks={"hunt": [1]}).marked("hunt").tolist()
        [False, True]
        """
        out = np.zeros(len(self), dtype=bool)
        out[list(self.marks.get(name, ()))] = True
        return out

    @classmethod
    def of(
        cls,
        rows: Any,
        cols: Any,
        sides: Any,
        *,
        adds: str = "passages",
        marks: Mapping[str, Any] | None = None,
    ) -> Carving:
        """A carving from three equal-length sequences: the rows, columns and sides."""
        return cls(
            np.stack(
                [
                    np.asarray(rows, dtype=np.int64).ravel(),
                    np.asarray(cols, dtype=np.int64).ravel(),
                    np.asarray(sides, dtype=np.int64).ravel(),
                ],
                axis=1,
            ),
            adds=adds,
            marks=marks or {},
        )

    def __len__(self) -> int:
        return int(self.steps.shape[0])

    def passages(self, height: int, width: int) -> np.ndarray:
        """The passage each step names, numbered ``r * width + c`` for the one south of
        ``[r, c]`` and ``height * width + r * width + c`` for the one east of it.

        :raises InvalidPuzzleError: a step with a side that is not N, E, S or W, or
            one that leaves the grid.
        """
        rows, cols, sides = self.steps.T
        bad = ~np.isin(sides, (N, E, S, W))
        if bad.any():
            at = int(np.flatnonzero(bad)[0])
            raise lacak.InvalidPuzzleError(
                f"carving step {at} has side {int(sides[at])}, not one of N=1, E=2, S=4, W=8"
            )
        # the western or northern cell of each passage, and whether it runs east
        top = rows - (sides == N)
        left = cols - (sides == W)
        east = (sides == E) | (sides == W)
        # a south passage needs the row below, an east one the column to the right
        outside = (top < 0) | (left < 0) | (top + ~east >= height) | (left + east >= width)
        if outside.any():
            at = int(np.flatnonzero(outside)[0])
            row, col, side = (int(v) for v in self.steps[at])
            raise lacak.InvalidPuzzleError(
                f"carving step {at} leaves the {height}x{width} grid: "
                f"[{row}, {col}] to the {LETTER[side]}"
            )
        return np.where(east, height * width, 0) + top * width + left

    def replay(self, height: int, width: int, upto: int | None = None) -> np.ndarray:
        """The cells (open-side bitmasks) after the first ``upto`` steps (all by default),
        starting from every wall standing (``adds="passages"``) or one open room
        (``adds="walls"``).

        :raises InvalidPuzzleError: a step outside the grid, or one passage named twice.
        """
        numbers = self.passages(height, width)[:upto]
        n = height * width
        unique, counts = np.unique(numbers, return_counts=True)
        if (counts > 1).any():
            twice = int(unique[counts > 1][0])
            at = [int(i) for i in np.flatnonzero(numbers == twice)[:2]]
            raise lacak.InvalidPuzzleError(
                f"carving steps {at[0]} and {at[1]} name the same passage"
            )
        opened = np.zeros(2 * n, dtype=bool)
        opened[numbers] = True
        if self.adds == "walls":
            opened = ~opened
        south = opened[:n].reshape(height, width).copy()
        east = opened[n:].reshape(height, width).copy()
        south[-1, :] = False
        east[:, -1] = False
        cells = np.zeros((height, width), dtype=np.uint8)
        cells[:, :-1] |= east[:, :-1] * np.uint8(E)
        cells[:, 1:] |= east[:, :-1] * np.uint8(W)
        cells[:-1, :] |= south[:-1, :] * np.uint8(S)
        cells[1:, :] |= south[:-1, :] * np.uint8(N)
        return cells

    def check(self, cells: np.ndarray) -> None:
        """Check that replaying the steps gives exactly ``cells``.

        :raises InvalidPuzzleError: a bad step, or a replay that is not the maze.
        """
        height, width = cells.shape
        replayed = self.replay(height, width)
        if not np.array_equal(replayed, cells):
            row, col = (int(v) for v in np.argwhere(replayed != cells)[0])
            raise lacak.InvalidPuzzleError(
                f"the carving does not make this maze: replayed, cell [{row}, {col}] is "
                f"{int(replayed[row, col])}, the maze has {int(cells[row, col])}"
            )

    def to_dict(self) -> dict[str, Any]:
        """The JSON object: ``adds`` and ``steps``, a list of ``[row, col, side]`` with the
        side a letter (``"N"``, ``"E"``, ``"S"``, ``"W"``); and ``marks``, the indices of
        the steps of each marked kind, when it marks any."""
        data: dict[str, Any] = {
            "adds": self.adds,
            "steps": [[row, col, LETTER[side]] for row, col, side in self.steps.tolist()],
        }
        if self.marks:
            data["marks"] = {name: list(indices) for name, indices in self.marks.items()}
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Carving:
        """A carving from the JSON object :meth:`to_dict` writes.

        :raises InvalidPuzzleError: not such an object.
        """
        if not isinstance(data, Mapping) or not isinstance(data.get("steps"), list):
            raise lacak.InvalidPuzzleError(
                "a maze's 'carving' is an object with 'adds' and a list of 'steps'"
            )
        rows, cols, sides = [], [], []
        for number, step in enumerate(data["steps"]):
            if (
                not isinstance(step, list)
                or len(step) != 3
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in step[:2])
                or step[2] not in BIT
            ):
                raise lacak.InvalidPuzzleError(
                    f"carving step {number} is [row, col, side] with side N, E, S or W, "
                    f"got {step!r}"
                )
            rows.append(step[0])
            cols.append(step[1])
            sides.append(BIT[step[2]])
        adds = data.get("adds", "passages")
        if adds not in ADDS:
            raise lacak.InvalidPuzzleError(f"a carving adds 'passages' or 'walls', not {adds!r}")
        return cls.of(rows, cols, sides, adds=adds, marks=data.get("marks"))

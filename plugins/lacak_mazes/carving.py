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

Replaying every step gives exactly the maze; :class:`~lacak_mazes.Maze`
checks that whenever a maze has a carving, so a carving read from JSON that
does not make its maze is refused. The same seed gives the same steps.

>>> import lacak
>>> maze = lacak.generate("maze", "recursive-backtracker", (2, 3), seed=4, carving=True)
>>> len(maze.carving), maze.carving.adds
(5, 'passages')
>>> bool((maze.carving.replay(2, 3) == maze.cells).all())
True
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


@attrs.frozen(eq=False)
class Carving:
    """The steps a generator took, in order (see the module's docstring).

    ``steps`` is a read-only ``k x 3`` integer array of ``(row, col, side)``.
    """

    #: The steps: one ``(row, col, side bit)`` row each, in order.
    steps: np.ndarray = attrs.field(converter=_steps)
    #: ``"passages"`` (each step opens one) or ``"walls"`` (each step puts one up).
    adds: str = attrs.field(default="passages", kw_only=True)

    def __attrs_post_init__(self) -> None:
        if self.adds not in ADDS:
            raise lacak.InvalidPuzzleError(
                f"a carving adds 'passages' or 'walls', not {self.adds!r}"
            )

    @classmethod
    def of(cls, rows: Any, cols: Any, sides: Any, *, adds: str = "passages") -> Carving:
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
        side a letter (``"N"``, ``"E"``, ``"S"``, ``"W"``)."""
        return {
            "adds": self.adds,
            "steps": [[row, col, LETTER[side]] for row, col, side in self.steps.tolist()],
        }

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
        return cls.of(rows, cols, sides, adds=adds)

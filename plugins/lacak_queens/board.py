"""N queens on an N x N board, none attacking another: the puzzle in its two forms.

A board has one column per queen; a state is the row of each column's queen (0 at the
top), or ``None`` for a column still empty. Written as text, rows count from 1: ``15863724``
(one digit a column, 4 to 9 columns), ``1,5,8,6,3,7,2,4`` (commas, for any size), ``.``
for an empty column (``15......``), and a size of one to three digits, ``8``, for an
empty board of 8.

- **Complete** (every column has a queen; what local search climbs): an action moves
  one queen within its column, ``Q3=5`` (the queen of column 3 to row 5); a goal is a
  board with no two queens attacking.
- **Incremental** (columns filled from the left; what depth-first and breadth-first
  search build): an action places a queen in the leftmost empty column, on a row no
  queen attacks (``Q3=5``); a goal is a full board. AIMA's ``NQueensProblem``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import lacak

__all__ = [
    "MAX_SIZE",
    "Queens",
    "attacks",
    "objective",
    "parse",
    "random_board",
    "to_text",
]

#: The largest board read or made (N queens on N x N).
MAX_SIZE = 1000

#: How the text form looks, for error messages.
FORM = (
    "one row a column, counted from 1 ('15863724', or '1,5,8,6,3,7,2,4' past 9 columns), "
    "'.' for an empty column, or a size of 1 to 3 digits ('8') for an empty board"
)

Rows = tuple[int | None, ...]


def attacks(rows: Sequence[int | None]) -> int:
    """The pairs of queens that attack each other (same row or diagonal; empty columns
    hold none): 0 for a solution.

    >>> attacks((0, 4, 7, 5, 2, 6, 1, 3)), attacks((0, 1, 2, 3))
    (0, 6)
    """
    n = len(rows)
    seen_row = [0] * n
    seen_down = [0] * (2 * n)
    seen_up = [0] * (2 * n)
    pairs = 0
    for column, row in enumerate(rows):
        if row is None:
            continue
        down, up = row - column + n, row + column
        pairs += seen_row[row] + seen_down[down] + seen_up[up]
        seen_row[row] += 1
        seen_down[down] += 1
        seen_up[up] += 1
    return pairs


def _move(column: int, row: int) -> str:
    """``Q3=5``: the queen of column ``column`` (from 0) to row ``row`` (from 0), from 1."""
    return f"Q{column + 1}={row + 1}"


@attrs.frozen(kw_only=True)
class Queens:
    """An N-queens puzzle: ``n`` queens on an ``n`` x ``n`` board, starting at ``initial``.

    Complete when every column of ``initial`` has a queen (local search moves them),
    incremental otherwise (queens are placed from the left; see the module's docstring).
    """

    #: The board's size: ``n`` queens, ``n`` rows, ``n`` columns.
    n: int
    #: The row of each column's queen (from 0), ``None`` for an empty column.
    initial: Rows

    kind = "queens"

    @property
    def complete(self) -> bool:
        """Whether every column of the start has a queen (the complete-state form)."""
        return None not in self.initial

    def is_goal(self, state: Rows) -> bool:
        """A full board with no two queens attacking."""
        return None not in state and attacks(state) == 0

    def successors(self, state: Rows) -> Iterator[tuple[str, Rows, float]]:
        """Complete form: every queen to every other row of its column, column 1 first.
        Incremental form: a queen in the leftmost empty column, on each row no queen
        attacks, the top row first."""
        n = self.n
        if self.complete:
            for column, now in enumerate(state):
                for row in range(n):
                    if row != now:
                        yield _move(column, row), (*state[:column], row, *state[column + 1 :]), 1.0
            return
        if None not in state:
            return
        column = state.index(None)
        for row in range(n):
            if all(
                other != row and abs(other - row) != column - c
                for c, other in enumerate(state[:column])
                if other is not None
            ):
                yield _move(column, row), (*state[:column], row, *state[column + 1 :]), 1.0

    def format_state(self, state: Rows) -> str:
        """The state as text (:func:`to_text`)."""
        return _rows_text(state)

    def to_text(self) -> str:
        """The puzzle's start as text, which :func:`parse` reads back."""
        return _rows_text(self.initial)


def _rows_text(rows: Sequence[int | None]) -> str:
    marks = ["." if row is None else str(row + 1) for row in rows]
    if len(marks) == 1:  # ("1" alone is the empty board of 1)
        return marks[0] + ","
    return ("" if 4 <= len(rows) <= 9 else ",").join(marks)


def to_text(puzzle: Queens) -> str:
    """The text form of ``puzzle``'s start (``15863724``), which :func:`parse` reads."""
    return puzzle.to_text()


def parse(text: str) -> Queens:
    """Read an N-queens board (see :data:`FORM`).

    >>> parse("15863724").initial
    (0, 4, 7, 5, 2, 6, 1, 3)
    >>> parse("4").initial, parse("2,4,.,.").complete
    ((None, None, None, None), False)

    :raises lacak.InvalidPuzzleError: not of that form, a row outside the board, or
        queens not placed from the left in an incomplete board.
    """
    body = text.strip()
    if re.fullmatch(r"[0-9]{1,3}", body):  # a size: 4 digits or more are a board's rows
        size = int(body)
        if not 1 <= size <= MAX_SIZE:
            raise lacak.InvalidPuzzleError(f"a board has 1 to {MAX_SIZE} queens, not {size}")
        return Queens(n=size, initial=(None,) * size)
    if "," in body or re.search(r"\s", body):
        marks = [part for part in re.split(r"[\s,]+", body) if part]
    else:
        marks = list(body)
    if not marks:
        raise lacak.InvalidPuzzleError(f"a queens board is {FORM}; got nothing")
    n = len(marks)
    if n > MAX_SIZE:
        raise lacak.InvalidPuzzleError(f"a board has 1 to {MAX_SIZE} queens, not {n}")
    rows: list[int | None] = []
    for column, mark in enumerate(marks, start=1):
        if mark in (".", "-"):
            rows.append(None)
            continue
        if not re.fullmatch(r"[0-9]{1,4}", mark):
            raise lacak.InvalidPuzzleError(f"a queens board is {FORM}; got {body[:40]!r}")
        row = int(mark)
        if not 1 <= row <= n:
            raise lacak.InvalidPuzzleError(
                f"column {column}: a row of a board of {n} is 1 to {n}, not {row}"
            )
        rows.append(row - 1)
    puzzle = Queens(n=n, initial=tuple(rows))
    validate(puzzle)
    return puzzle


def validate(puzzle: Any) -> None:
    """Check a queens puzzle's invariants.

    :raises lacak.InvalidPuzzleError: a row outside the board, the wrong number of
        columns, or queens not placed from the left in an incomplete board.
    """
    if not isinstance(puzzle, Queens):
        raise lacak.InvalidPuzzleError(f"not a queens puzzle: {type(puzzle).__name__}")
    n, rows = puzzle.n, puzzle.initial
    if not 1 <= n <= MAX_SIZE or len(rows) != n:
        raise lacak.InvalidPuzzleError(f"a board of {n} queens has {n} columns, not {len(rows)}")
    for column, row in enumerate(rows, start=1):
        if row is not None and not (isinstance(row, int) and 0 <= row < n):
            raise lacak.InvalidPuzzleError(f"column {column}: no row {row!r} on a board of {n}")
    if None in rows and any(row is not None for row in rows[rows.index(None) :]):
        raise lacak.InvalidPuzzleError(
            "an incomplete board has its queens placed from the left (columns 1, 2, ...), "
            f"then empty columns; got {_rows_text(rows)!r}"
        )


def _size(size: Any) -> int:
    """An N-queens size: ``8``, ``"8"``, ``"8x8"`` or ``(8, 8)``.

    :raises lacak.InvalidOptionError: anything else, or out of range.
    """
    n: Any = size
    if isinstance(size, str):
        rows, _x, cols = size.strip().lower().partition("x")
        whole = re.fullmatch(r"[0-9]{1,4}", rows) is not None
        n = int(rows) if whole and (not _x or cols == rows) else None
    elif isinstance(size, tuple) and len(size) == 2 and size[0] == size[1]:
        n = size[0]
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_SIZE:
        raise lacak.InvalidOptionError(
            f"a queens board's size is N (or NxN), 1 to {MAX_SIZE}, not {size!r}"
        )
    return n


def random_board(size: Any = 8, seed: int | None = None) -> Queens:
    """A complete board: one queen a column, each on a row drawn at random.

    >>> random_board(8, seed=1).to_text()
    '32528887'

    :param size: ``N`` (default 8).
    :raises lacak.InvalidOptionError: a size that is not 1 to :data:`MAX_SIZE`.
    """
    n = _size(8 if size is None else size)
    rng = random.Random(seed)
    return Queens(n=n, initial=tuple(rng.randrange(n) for _ in range(n)))


def empty_board(size: Any = 8, seed: int | None = None) -> Queens:
    """An empty board of ``N`` (the incremental form: place queens from the left).

    :raises lacak.InvalidOptionError: a size that is not 1 to :data:`MAX_SIZE`.
    """
    n = _size(8 if size is None else size)
    return Queens(n=n, initial=(None,) * n)


# -- the objective of local search ------------------------------------------------------


def objective(puzzle: Queens) -> lacak.Objective:
    """What local search climbs on ``puzzle``: complete boards, valued by minus the pairs
    of queens attacking (0 is a goal); a neighbour moves one queen within its column
    (``n * (n - 1)`` of them), a random state puts each queen on a random row, and two
    boards cross at a random column (AIMA 4.1.4). A complete puzzle's first climb starts
    at its board; an incomplete one's at a random board."""
    n = puzzle.n

    def value(rows: tuple[int, ...]) -> int:
        return -attacks(rows)

    def neighbours(rows: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        for column, now in enumerate(rows):
            head, tail = rows[:column], rows[column + 1 :]
            for row in range(n):
                if row != now:
                    yield (*head, row, *tail)

    def values(boards: Sequence[tuple[int, ...]]) -> list[int]:
        return [-attacks(rows) for rows in boards]

    def random_state(rng: random.Random) -> tuple[int, ...]:
        return tuple(rng.randrange(n) for _ in range(n))

    def random_neighbour(rows: tuple[int, ...], rng: random.Random) -> tuple[int, ...] | None:
        if n < 2:
            return None
        column = rng.randrange(n)
        row = rng.randrange(n - 1)
        if row >= rows[column]:
            row += 1
        return (*rows[:column], row, *rows[column + 1 :])

    def crossover(a: tuple[int, ...], b: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
        cut = rng.randrange(n + 1)
        return a[:cut] + b[cut:]

    def mutate(rows: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
        column = rng.randrange(n)
        return (*rows[:column], rng.randrange(n), *rows[column + 1 :])

    def move(a: tuple[int, ...], b: tuple[int, ...]) -> str:
        changed = [c for c in range(n) if a[c] != b[c]]
        return " ".join(_move(c, b[c]) for c in changed)

    return lacak.Objective(
        value=value,
        neighbours=neighbours,
        values=values,
        random_state=random_state,
        random_neighbour=random_neighbour,
        best=0,
        crossover=crossover,
        mutate=mutate,
        move=move,
        start=puzzle.initial if puzzle.complete else None,
    )

"""The sliding-tile puzzle: boards of any size, parsing, solvability.

A state is a tuple of ints, the tiles row by row, ``0`` for the blank:
``(1, 2, 3, 4, 5, 0, 7, 8, 6)`` is written ``123450786`` (or as a vector,
``(1,2,3,4,5,0,7,8,6)``). An action names the direction the **blank**
moves: ``U``, ``D``, ``L``, ``R``. Sizes are ``ROWSxCOLS`` (numpy's shape
order, as everywhere in lacak): ``3x4`` is 3 rows of 4 tiles.

>>> p = SlidingPuzzle.from_string("123450786")
>>> [(a, p.format_state(s)) for a, s, _ in p.successors(p.initial)]
[('D', '123456780'), ('L', '123405786'), ('U', '120453786')]
"""

from __future__ import annotations

import json
import operator
import re
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import attrs
import lacak
from lacak.options import read_size
from lacak.output import plural

__all__ = [
    "MOVES",
    "NOTATIONS",
    "OPPOSITE",
    "SlidingPuzzle",
    "extras",
    "goal_tiles",
    "inversions",
    "is_solvable",
    "parse",
    "parse_board_size",
    "parse_tiles",
    "solvability_problem",
    "validate",
]

#: Blank moves in the order children are generated (the order of the
#: classic 8-puzzle move table: down, right, left, up).
MOVES: tuple[tuple[str, int, int], ...] = (("D", 1, 0), ("R", 0, 1), ("L", 0, -1), ("U", -1, 0))
#: The move that undoes each move.
OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}

#: How a board may be written: ``123450786``, ``1 2 3 4 5 0 7 8 6``, ``1,2,3,4,5,0,7,8,6``,
#: ``1 2 3 / 4 5 0 / 7 8 6`` and ``(1,2,3,4,5,0,7,8,6)`` (the vector of the course notes).
NOTATIONS = ("compact", "spaces", "commas", "rows", "vector")


def goal_tiles(width: int, height: int) -> tuple[int, ...]:
    """The default goal: tiles in order, blank last (``123456780``)."""
    n = width * height
    return (*range(1, n), 0)


def inversions(tiles: Sequence[int]) -> int:
    """Pairs of tiles in the wrong order, read row by row, the blank ignored.

    >>> inversions((1, 2, 3, 4, 5, 6, 8, 7, 0))
    1
    """
    seq = [t for t in tiles if t]
    return sum(1 for i, a in enumerate(seq) for b in seq[i + 1 :] if a > b)


def _invariant(tiles: Sequence[int], width: int) -> int:
    # Odd widths: every move keeps the parity of the inversions. Even widths: a
    # vertical move changes the inversions by width-1 (odd) and the blank's row
    # by one, so inversions + blank row keeps its parity.
    value = inversions(tiles)
    if width % 2 == 0:
        value += list(tiles).index(0) // width
    return value % 2


def is_solvable(tiles: Sequence[int], goal: Sequence[int], width: int) -> bool:
    """Whether moves can turn ``tiles`` into ``goal`` on a board ``width`` wide.

    >>> is_solvable((1, 2, 3, 4, 5, 6, 8, 7, 0), goal_tiles(3, 3), 3)
    False
    """
    return _invariant(tiles, width) == _invariant(goal, width)


def solvability_problem(tiles: Sequence[int], goal: Sequence[int], width: int) -> str | None:
    """Why ``tiles`` cannot reach ``goal`` (one sentence), or ``None`` when it can."""
    if is_solvable(tiles, goal, width):
        return None
    a, b = inversions(tiles), inversions(goal)

    def parity(v: int) -> str:
        return "even" if v % 2 == 0 else "odd"

    if width % 2:
        why = (
            f"on a board {width} wide every move keeps the parity of the number of inversions "
            f"(pairs of tiles in the wrong order, read row by row, blank ignored); the start has "
            f"{a} ({parity(a)}) and the goal has {b} ({parity(b)})"
        )
    else:
        ra = list(tiles).index(0) // width + 1
        rb = list(goal).index(0) // width + 1
        why = (
            f"on a board {width} wide every move keeps the parity of the number of inversions "
            f"(pairs of tiles in the wrong order, read row by row, blank ignored) plus the row of "
            f"the blank; the start has {a} inversions with the blank in row {ra} "
            f"({parity(a + ra)}), the goal has {b} with the blank in row {rb} ({parity(b + rb)})"
        )
    return why + "; swapping any two tiles of the start would make it solvable"


_ROWS = re.compile(r"\s*[/\n;]\s*")
_TOKEN = re.compile(r"[\s,]+")


#: Most cells a board may have (32x32): the searchers' tables grow with the square of it.
MAX_CELLS = 1024


def _too_big(rows: int, cols: int) -> str | None:
    if rows * cols <= MAX_CELLS:
        return None
    return (
        f"a sliding puzzle has at most {MAX_CELLS:,} cells (32x32), "
        f"got {rows}x{cols} = {rows * cols:,}"
    )


def parse_board_size(size: Any) -> tuple[int, int] | None:
    """``"3x4"``, ``(3, 4)`` or ``4`` -> ``(rows, cols)``; ``None`` (or ``""``) stays ``None``.

    Sizes are ``ROWSxCOLS``, numpy's shape order: ``"3x4"`` and ``(3, 4)`` are
    3 rows of 4 tiles; one number is a square board.

    >>> parse_board_size("3x4"), parse_board_size((2, 5)), parse_board_size(4)
    ((3, 4), (2, 5), (4, 4))

    :raises InvalidOptionError: not a size, smaller than 2x2 or more than
        :data:`MAX_CELLS` cells.
    """
    if size is None or (isinstance(size, str) and not size):
        return None
    return read_size(size, what="sliding puzzle size", minimum=2, most=MAX_CELLS)


def _unwrap_vector(text: str, what: str) -> tuple[str, bool]:
    """``"(1,2,3)"`` -> ``("1,2,3", True)``: a board written as a vector in parentheses."""
    opened, closed = text.startswith("("), text.endswith(")")
    if opened != closed or text.count("(") != int(opened) or text.count(")") != int(closed):
        raise lacak.InvalidPuzzleError(
            f"the {what} {text!r} has unbalanced parentheses; a vector is written "
            "(1,2,3,8,0,4,7,6,5)"
        )
    if not opened:
        return text, False
    inner = text[1:-1].strip()
    if not inner:
        raise lacak.InvalidPuzzleError(f"the {what} {text!r} is empty")
    return inner, True


def parse_tiles(
    text: str, shape: tuple[int, int] | None = None, *, what: str = "board"
) -> tuple[tuple[int, ...], int, int, str]:
    """Read a board: ``"123450786"``, ``"1 2 3 / 4 5 0 / 7 8 6"``, ``"1,2,3,..."``,
    ``"(1,2,3,4,5,0,7,8,6)"``.

    >>> parse_tiles("(1, 2, 3, 8, 0, 4, 7, 6, 5)")
    ((1, 2, 3, 8, 0, 4, 7, 6, 5), 3, 3, 'vector')
    >>> parse_tiles("123405", (2, 3))[1:]
    (2, 3, 'compact')

    :param shape: ``(rows, cols)``; needed when the tile count is not a
        square and the text has no rows.
    :returns: ``(tiles, rows, cols, notation)``.
    :raises InvalidPuzzleError: malformed text, a size mismatch, or tiles
        that are not ``0 .. n-1`` each exactly once.
    """
    if not isinstance(text, str):
        raise lacak.InvalidPuzzleError(f"the {what} must be text, got {type(text).__name__}")
    stripped = text.strip()
    if not stripped:
        raise lacak.InvalidPuzzleError(f"the {what} is empty")
    body, vector = _unwrap_vector(stripped, what)
    rows_text: list[list[str]] | None = None
    if _ROWS.search(body):
        rows_text = [_TOKEN.split(r.strip()) for r in _ROWS.split(body) if r.strip()]
        tokens = [t for r in rows_text for t in r]
        notation = "rows"
        if len(rows_text) == 1:
            rows_text = None
    elif "," in body:
        tokens = [t.strip() for t in body.split(",")]
        notation = "commas"
    elif re.search(r"\s", body):
        tokens = body.split()
        notation = "spaces"
    else:
        tokens = list(body)
        notation = "compact"
    for token in tokens:
        if not token.isdigit() or not token.isascii():
            hint = (
                ""
                if notation != "compact"
                else " (past 9 tiles, separate them by spaces or commas)"
            )
            raise lacak.InvalidPuzzleError(
                f"the {what} {stripped!r} holds {token!r}, which is not a tile number{hint}"
            )
    tiles = tuple(int(t) for t in tokens)
    n = len(tiles)
    if rows_text is not None:
        widths = {len(r) for r in rows_text}
        if len(widths) != 1:
            raise lacak.InvalidPuzzleError(
                f"the rows of the {what} {stripped!r} have different lengths "
                f"({', '.join(str(len(r)) for r in rows_text)})"
            )
        rows, cols = len(rows_text), widths.pop()
        if shape is not None and (rows, cols) != shape:
            raise lacak.InvalidPuzzleError(
                f"the {what} {stripped!r} is {rows}x{cols} (rows x columns), but the size is "
                f"{shape[0]}x{shape[1]}"
            )
    elif shape is not None:
        rows, cols = shape
        if n != rows * cols:
            raise lacak.InvalidPuzzleError(
                f"the {what} {stripped!r} has {plural(n, 'tile')}, but a {rows}x{cols} board "
                f"has {rows * cols}"
            )
    else:
        side = round(n**0.5)
        if side * side != n:
            raise lacak.InvalidPuzzleError(
                f"the {what} {stripped!r} has {n} tiles, which is not a square board; "
                f"give the size (--size ROWSxCOLS) or write it in rows ('1 2 3 / 4 5 0')"
            )
        rows = cols = side
    if rows < 2 or cols < 2:
        raise lacak.InvalidPuzzleError(
            f"a sliding puzzle is at least 2x2, the {what} {stripped!r} is {rows}x{cols}"
        )
    check_tiles(tiles, rows * cols, what=f"the {what} {stripped!r}")
    if vector:
        notation = "vector"
    elif notation == "compact" and n > 10:
        notation = "spaces"
    return tiles, rows, cols, notation


def check_tiles(tiles: Sequence[int], n: int, *, what: str) -> None:
    """Raise unless ``tiles`` holds ``0 .. n-1`` each exactly once."""
    if len(tiles) != n:
        raise lacak.InvalidPuzzleError(f"{what} has {len(tiles)} tiles, expected {n}")
    if sorted(tiles) == list(range(n)):
        return
    counts: dict[int, int] = {}
    for t in tiles:
        counts[t] = counts.get(t, 0) + 1
    problems = []
    repeated = sorted(t for t, c in counts.items() if c > 1)
    missing = sorted(set(range(n)) - set(counts))
    extra = sorted(t for t in counts if t >= n)
    if repeated:
        problems.append("repeats " + ", ".join(map(str, repeated)))
    if missing:
        problems.append("lacks " + ", ".join(map(str, missing)))
    if extra:
        problems.append(f"has tiles past {n - 1}: " + ", ".join(map(str, extra)))
    raise lacak.InvalidPuzzleError(
        f"{what} {' and '.join(problems)} (it must hold 0 to {n - 1} once each, 0 = blank)"
    )


def _as_tiles(tiles: Iterable[int]) -> tuple[int, ...]:
    """``tiles`` as a tuple of ints (numpy integers too).

    :raises InvalidPuzzleError: not a sequence of integers.
    """
    if isinstance(tiles, str | bytes):
        raise lacak.InvalidPuzzleError(
            f"tiles must be a sequence of integers, not text ({tiles!r}); "
            "parse text with SlidingPuzzle.from_string or lacak.parse"
        )
    try:
        items = tuple(tiles)
    except TypeError:
        raise lacak.InvalidPuzzleError(
            f"tiles must be a sequence of integers, got {type(tiles).__name__}"
        ) from None
    out = []
    for t in items:
        if isinstance(t, bool):
            raise lacak.InvalidPuzzleError(f"a tile must be an integer, got {t!r}")
        try:
            out.append(operator.index(t))
        except TypeError:
            raise lacak.InvalidPuzzleError(f"a tile must be an integer, got {t!r}") from None
    return tuple(out)


def _neighbours(width: int, height: int) -> tuple[tuple[tuple[str, int], ...], ...]:
    table = []
    for p in range(width * height):
        r, c = divmod(p, width)
        moves = []
        for action, dr, dc in MOVES:
            rr, cc = r + dr, c + dc
            if 0 <= rr < height and 0 <= cc < width:
                moves.append((action, rr * width + cc))
        table.append(tuple(moves))
    return tuple(table)


def _generator_options(value: Any) -> tuple[tuple[str, Any], ...]:
    """A scramble's generator options as it keeps them (:func:`lacak.options.recorded_options`).

    :raises InvalidPuzzleError: not names to numbers, text or true/false.
    """
    return lacak.options.recorded_options(value, what="scramble")


@attrs.frozen(kw_only=True)
class SlidingPuzzle:
    """A sliding-tile puzzle: a board of ``height`` rows and ``width`` columns, a start and a goal.

    It is a :class:`lacak.ReversiblePuzzle`: ``successors`` moves the blank
    forwards, ``predecessors`` backwards, every move costs 1. Construct it
    with :meth:`from_string` (or :func:`lacak.parse`); the constructor checks
    the tiles but not solvability.

    .. rubric:: Examples

    >>> p = SlidingPuzzle.from_string("1 2 3 / 4 5 0 / 7 8 6", goal="103425786")
    >>> p.rows, p.cols, p.initial
    (3, 3, (1, 2, 3, 4, 5, 0, 7, 8, 6))
    >>> p.format_state(p.goal)
    '1 0 3 / 4 2 5 / 7 8 6'
    """

    kind: ClassVar[str] = "sliding"
    #: Heuristic used when a strategy needs one and none is named.
    default_heuristic: ClassVar[str] = "manhattan"

    #: Columns (tiles per row).
    width: int
    #: Rows.
    height: int
    #: The start: tiles row by row, 0 = blank.
    initial: tuple[int, ...] = attrs.field(converter=_as_tiles)
    #: The goal, same layout; default tiles in order with the blank last.
    goal: tuple[int, ...] = attrs.field(converter=_as_tiles)
    #: How states are written: ``compact``, ``spaces``, ``commas`` or ``rows``.
    notation: str = attrs.field(default="", eq=False)
    #: The seed a generator made it from, if any.
    seed: int | None = attrs.field(default=None, eq=False)
    #: The registered generator that made it (``"random"``, ``"walk"``), or ``""``: with
    #: the size, :attr:`seed`, :attr:`options` and the goal, what makes it again
    #: (:func:`lacak_sliding.remake.remake`, ``lacak sliding scramble --from FILE``).
    generator: str = attrs.field(default="", eq=False, repr=False)
    #: The options its generator was given besides the goal (``{"moves": 50}`` for
    #: ``walk``, ``{}`` for ``random``), in name order; read-only (:attr:`options`).
    _options: tuple[tuple[str, Any], ...] = attrs.field(
        default=(), eq=False, repr=False, converter=_generator_options
    )
    _moves: tuple[tuple[tuple[str, int], ...], ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        for name in ("width", "height"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 2:
                raise lacak.InvalidPuzzleError(
                    f"a sliding puzzle's {name} must be >= 2, got {value!r}"
                )
        problem = _too_big(self.height, self.width)
        if problem:
            raise lacak.InvalidPuzzleError(problem)
        n = self.width * self.height
        check_tiles(self.initial, n, what="the start")
        check_tiles(self.goal, n, what="the goal")
        notation = self.notation or ("compact" if n <= 10 else "spaces")
        if notation not in NOTATIONS or (notation == "compact" and n > 10):
            raise lacak.InvalidOptionError(f"unknown or unusable notation {self.notation!r}")
        object.__setattr__(self, "notation", notation)
        object.__setattr__(self, "_moves", _neighbours(self.width, self.height))

    @property
    def rows(self) -> int:
        """Rows of the board (its :attr:`height`)."""
        return self.height

    @property
    def cols(self) -> int:
        """Columns of the board (its :attr:`width`)."""
        return self.width

    @property
    def size(self) -> str:
        """The size as written on the command line: ``"ROWSxCOLS"`` (``"3x4"``)."""
        return f"{self.height}x{self.width}"

    @property
    def options(self) -> dict[str, Any]:
        """The options its :attr:`generator` was given besides the goal (``{"moves": 50}``
        for ``walk``): a new ``dict`` each time (the puzzle is frozen)."""
        return dict(self._options)

    # -- construction --------------------------------------------------------

    @classmethod
    def from_string(
        cls,
        text: str,
        *,
        goal: str | Sequence[int] | None = None,
        size: Any = None,
        allow_unsolvable: bool = False,
    ) -> SlidingPuzzle:
        """Parse a start board (and optionally a goal board).

        :param text: ``"123450786"``, ``"1 2 3 / 4 5 0 / 7 8 6"``, a space or
            comma separated list, a vector ``"(1,2,3,4,5,0,7,8,6)"``, or the JSON
            ``lacak sliding scramble --json`` prints (its ``board``, with its
            ``goal`` and ``size`` unless they are given).
        :param goal: the goal in any of those forms, or a tuple; default
            tiles in order with the blank last.
        :param size: ``"ROWSxCOLS"`` or ``(rows, cols)`` for boards that are not
            square and not written in rows (``"2x3"``: 2 rows of 3 tiles).
        :param allow_unsolvable: skip the solvability check (a yes/no value, see
            :func:`lacak.as_flag`).
        :raises InvalidPuzzleError: malformed text or tiles.
        :raises InvalidOptionError: a bad ``size`` or ``allow_unsolvable``.
        :raises UnsolvableError: the goal cannot be reached from the start (the
            message says why).
        """
        allow_unsolvable = lacak.as_flag(allow_unsolvable, "allow_unsolvable")
        made: dict[str, Any] = {}
        if isinstance(text, str) and text.lstrip().startswith("{"):
            scramble = _scramble_json(text)
            text = scramble["board"]
            if (goal is None or goal == "") and (size is None or size == ""):
                # what made it comes along, unless another goal or size makes it another
                made = {key: scramble[key] for key in ("generator", "seed", "options")}
            goal = scramble.get("goal") if goal is None or goal == "" else goal
            size = scramble.get("size") if size is None or size == "" else size
        tiles, rows, cols, notation = parse_tiles(text, parse_board_size(size))
        width, height = cols, rows
        if goal is None or goal == "":
            goal_t = goal_tiles(width, height)
        elif isinstance(goal, str):
            goal_t, *_ = parse_tiles(goal, (rows, cols), what="goal")
        else:
            goal_t = _as_tiles(goal)
        puzzle = cls(width=width, height=height, initial=tiles, goal=goal_t, notation=notation,
                     **made)  # fmt: skip
        if not allow_unsolvable:
            puzzle.check_solvable()
        return puzzle

    def check_solvable(self) -> None:
        """Raise :class:`lacak.UnsolvableError`, saying why, when the goal is unreachable."""
        problem = solvability_problem(self.initial, self.goal, self.width)
        if problem:
            raise lacak.UnsolvableError(
                f"{self.format_state(self.initial)} cannot reach the goal "
                f"{self.format_state(self.goal)}: {problem}"
            )

    @property
    def solvable(self) -> bool:
        """Whether the goal can be reached from the start."""
        return is_solvable(self.initial, self.goal, self.width)

    def with_initial(self, tiles: Iterable[int]) -> SlidingPuzzle:
        """The same board and goal with another start."""
        return attrs.evolve(self, initial=_as_tiles(tiles))

    def to_dict(self) -> dict[str, Any]:
        """The board as JSON data, what ``lacak sliding scramble --json`` prints (and
        :meth:`from_string` reads back): ``board``, ``size`` (``"ROWSxCOLS"``), ``rows``,
        ``cols``, ``goal`` (``board`` and ``goal`` in the default notation), then what
        makes it again: ``generator``, ``moves`` (a ``walk``'s), ``seed`` and
        ``options`` (the other :attr:`options`: ``{}`` for ``random`` and ``walk``),
        ``null`` and ``{}`` for a board no generator made (see ``docs/sliding.md``).

        .. rubric:: Examples

        >>> from lacak_sliding.generators import random_walk
        >>> data = random_walk("2x3", seed=4, moves=6).to_dict()
        >>> data["size"], data["generator"], data["moves"], data["seed"], data["options"]
        ('2x3', 'walk', 6, 4, {})
        """
        notation = "compact" if len(self.initial) <= 10 else "spaces"
        options = self.options
        moves = options.pop("moves", None)
        return {
            "board": self.format_state(self.initial, notation),
            "size": self.size,
            "rows": self.height,
            "cols": self.width,
            "goal": self.format_state(self.goal, notation),
            "generator": self.generator or None,
            "moves": moves,
            "seed": self.seed,
            "options": options,
        }

    # -- the Puzzle protocol -------------------------------------------------

    def is_goal(self, state: tuple[int, ...]) -> bool:
        """Whether ``state`` is the goal."""
        return state == self.goal

    def successors(self, state: tuple[int, ...]) -> list[tuple[str, tuple[int, ...], int]]:
        """``(blank move, next state, 1)`` for each legal move, in the order D, R, L, U."""
        blank = state.index(0)
        out = []
        for action, other in self._moves[blank]:
            tiles = list(state)
            tiles[blank] = tiles[other]
            tiles[other] = 0
            out.append((action, tuple(tiles), 1))
        return out

    def predecessors(self, state: tuple[int, ...]) -> list[tuple[str, tuple[int, ...], int]]:
        """``(move, previous state, 1)``: ``move`` leads from the previous state to ``state``."""
        return [(OPPOSITE[a], s, c) for a, s, c in self.successors(state)]

    def neighbours(self, position: int) -> tuple[tuple[str, int], ...]:
        """``(move, position)`` pairs the blank can go to from ``position``."""
        return self._moves[position]

    def apply(self, state: tuple[int, ...], action: str) -> tuple[int, ...]:
        """The state after the blank moves ``action``.

        :raises InvalidOptionError: the move would leave the board or is not U/D/L/R.
        :raises InvalidPuzzleError: ``state`` is not a board of this puzzle's size with a blank.
        """
        try:
            blank = state.index(0) if len(state) == len(self._moves) else -1
        except (AttributeError, TypeError, ValueError):
            blank = -1
        if blank < 0:
            raise lacak.InvalidPuzzleError(
                f"not a {self.size} board with a blank: {state!r:.80}"
            )
        for a, other in self._moves[blank]:
            if a == action:
                tiles = list(state)
                tiles[blank], tiles[other] = tiles[other], 0
                return tuple(tiles)
        raise lacak.InvalidOptionError(
            f"the blank cannot move {action!r} from {self.format_state(state)}"
        )

    # -- text ----------------------------------------------------------------

    def _repr_svg_(self) -> str:
        """The start and the goal as a picture in Jupyter."""
        from .pictures import render_svg  # (deferred: pictures only when shown)

        return render_svg(self)

    def format_state(self, state: Sequence[int], notation: str | None = None) -> str:
        """Write ``state`` in this puzzle's notation (the one it was read in)."""
        notation = notation or self.notation
        if notation == "compact":
            return "".join(map(str, state))
        if notation == "commas":
            return ",".join(map(str, state))
        if notation == "vector":
            return "(" + ",".join(map(str, state)) + ")"
        if notation == "rows":
            w = self.width
            return " / ".join(
                " ".join(map(str, state[r * w : (r + 1) * w])) for r in range(self.height)
            )
        return " ".join(map(str, state))

    def board(self, state: Sequence[int]) -> str:
        """A multi-line picture of ``state`` with the blank shown as ``.``."""
        cell = len(str(self.width * self.height - 1))
        lines = []
        for r in range(self.height):
            row = state[r * self.width : (r + 1) * self.width]
            lines.append(" ".join(("." if t == 0 else str(t)).rjust(cell) for t in row))
        return "\n".join(lines)


def validate(instance: Any) -> None:
    """The :class:`lacak.PuzzleType` check: a well-formed, solvable sliding puzzle.

    :raises InvalidPuzzleError: not a :class:`SlidingPuzzle` or malformed.
    :raises UnsolvableError: its goal cannot be reached.
    """
    if not isinstance(instance, SlidingPuzzle):
        raise lacak.InvalidPuzzleError(f"not a sliding puzzle: {type(instance).__name__}")
    n = instance.width * instance.height
    check_tiles(instance.initial, n, what="the start")
    check_tiles(instance.goal, n, what="the goal")
    instance.check_solvable()


def _scramble_json(text: str) -> dict[str, Any]:
    """The JSON of a scramble (``lacak sliding scramble --json``): its ``board`` text, its
    ``goal`` and ``size`` when it has them, and what made it (``generator``, ``seed``, and
    ``options`` with its ``moves``; ``""``, ``None`` and ``{}`` when it says nothing).

    :raises InvalidPuzzleError: not JSON, not an object with a ``board`` text, or a
        key of what made it of the wrong type.
    """
    try:
        data = json.loads(text)
    except ValueError as error:
        raise lacak.InvalidPuzzleError(
            f"the board starts with '{{' but is not JSON ({error}); a board is written "
            "123450786, 1 2 3 / 4 5 0 / 7 8 6, or is a scramble's JSON"
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("board"), str):
        raise lacak.InvalidPuzzleError(
            "a board given as JSON is a scramble's (lacak sliding scramble --json): an "
            'object with the board as text under "board"'
        )
    for key in ("goal", "size", "generator"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise lacak.InvalidPuzzleError(f"the scramble's {key!r} must be text")
    for key in ("seed", "moves"):
        number = data.get(key)
        if number is not None and (type(number) is not int or number < 0):
            raise lacak.InvalidPuzzleError(
                f"the scramble's {key!r} must be a whole number, at least 0, or null, "
                f"got {number!r:.40}"
            )
    options = data.get("options")
    if options is not None and not isinstance(options, dict):
        raise lacak.InvalidPuzzleError(
            f"the scramble's 'options' must be an object of its generator's options, "
            f"got {options!r:.40}"
        )
    scramble = {key: data[key] for key in ("board", "goal", "size") if data.get(key) is not None}
    moves = {"moves": data["moves"]} if data.get("moves") is not None else {}
    scramble["options"] = _generator_options({**(options or {}), **moves})
    scramble["generator"] = data.get("generator") or ""
    scramble["seed"] = data.get("seed")
    return scramble


def parse(
    text: str,
    *,
    goal: str | Sequence[int] | None = None,
    size: Any = None,
    allow_unsolvable: bool = False,
) -> SlidingPuzzle:
    """The :class:`lacak.PuzzleType` parser: :meth:`SlidingPuzzle.from_string`.

    ``size`` is ``ROWSxCOLS`` (``"2x3"``: 2 rows of 3 tiles) or ``(rows, cols)``.
    """
    return SlidingPuzzle.from_string(text, goal=goal, size=size, allow_unsolvable=allow_unsolvable)


def extras(puzzle: SlidingPuzzle, result: Any) -> dict[str, Any]:
    """The kind's keys of a result's JSON, under ``"sliding"``: the board's size, start,
    goal and notation (see :attr:`lacak.PuzzleType.extras`).

    >>> extras(SlidingPuzzle.from_string("123405", size="2x3"), None)["sliding"]
    {'rows': 2, 'cols': 3, 'start': '123405', 'goal': '123450', 'notation': 'compact'}
    """
    return {
        "sliding": {
            "rows": puzzle.height,
            "cols": puzzle.width,
            "start": puzzle.format_state(puzzle.initial),
            "goal": puzzle.format_state(puzzle.goal),
            "notation": puzzle.notation,
        }
    }

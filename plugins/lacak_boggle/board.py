"""The Boggle board: a grid of tiles, its text forms, and its Puzzle view.

A tile is exactly the letters written on it: ``"A"``, the two-letter dice
face ``"QU"`` (written ``Qu`` on the die), ``"TH"``, ``"IN"`` ... A blank
tile, written ``#`` (the black faces of Super Big Boggle), can never be part
of a word. Cells are addressed ``[row, col]`` from the top-left corner, and a
path is a sequence of such cells.

Text forms (see :meth:`Board.from_string`)::

    AHORJ/QQUOI/SSCPD/MUPSM/AUULI      one character per tile, rows split by "/"
    AHORJ\\nQQUOI\\n...                  rows on separate lines
    A QU E / T H # / ...               tiles split by spaces (needed for "QU")
    A,QU,E/T,H,#                       or by commas
    AQuE/TH#                           compact: a capital letter starts a tile,
                                       lower-case letters continue it
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence, Set
from typing import Any, ClassVar

import attrs
import lacak

from .wordgraph import WordGraph, compile_dictionary

__all__ = [
    "BLANK",
    "BatchBoard",
    "Board",
    "Cell",
    "Path",
    "neighbours",
    "normalise_tile",
    "official_min_length",
    "validate_board",
]

#: How a blank tile is written.
BLANK = "#"

Cell = tuple[int, int]
Path = tuple[Cell, ...]


def normalise_tile(text: str) -> str:
    """A tile's canonical spelling, the same as dictionary words get
    (:func:`lacak.normalize_word`: NFC, upper case, ``ß`` as ``ẞ``).

    >>> normalise_tile(" qu ")
    'QU'
    >>> normalise_tile("ß")
    'ẞ'
    """
    known = _NORMAL.get(text)
    if known is None:
        known = lacak.normalize_word(text)
        if len(_NORMAL) >= _NORMAL_SIZE:
            _NORMAL.clear()
        _NORMAL[text] = known
    return known


#: Tiles normalised so far (a board has few distinct tiles; boards by the million
#: repeat them), and how many are kept before starting over.
_NORMAL: dict[str, str] = {}
_NORMAL_SIZE = 4096


def official_min_length(rows: int, cols: int) -> int:
    """The official shortest word: 3 letters up to 16 tiles (4x4), 4 on larger boards.

    >>> official_min_length(4, 4), official_min_length(5, 5)
    (3, 4)
    """
    return 3 if rows * cols <= 16 else 4


@functools.lru_cache(maxsize=64)
def neighbours(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """For each cell (row-major index), its up to eight neighbours in ascending index order."""
    out = []
    for r in range(rows):
        for c in range(cols):
            out.append(
                tuple(
                    rr * cols + cc
                    for rr in range(r - 1, r + 2)
                    for cc in range(c - 1, c + 2)
                    if 0 <= rr < rows and 0 <= cc < cols and (rr, cc) != (r, c)
                )
            )
    return tuple(out)


def _is_rows(value: Any) -> bool:
    """Whether ``value`` can hold rows (or tiles) in order: a list, tuple or other
    iterable, but not text, bytes, a mapping or a set (which has no order)."""
    return isinstance(value, Iterable) and not isinstance(
        value, (str, bytes, bytearray, memoryview, Mapping, Set)
    )


def _is_tile(tile: str) -> bool:
    return tile == BLANK or (tile != "" and tile.isalpha())


def _convert_tiles(rows: Iterable[Iterable[str]]) -> tuple[tuple[str, ...], ...]:
    if type(rows) in (list, tuple) and all(type(row) in (list, tuple) for row in rows):
        # the usual input (rows of tile strings): the checks below, without ABCs
        normal = _NORMAL.get
        known: list[tuple[str, ...]] = []
        try:
            for row in rows:
                found = [normal(tile) for tile in row]
                if None in found:
                    break
                known.append(tuple(found))  # type: ignore[arg-type]  # (no None in it)
            else:
                return tuple(known)
        except TypeError:  # an unhashable tile: said below
            pass
    if isinstance(rows, str):
        raise lacak.InvalidPuzzleError(
            "tiles must be rows of tiles; parse text with Board.from_string"
        )
    if not _is_rows(rows):
        raise lacak.InvalidPuzzleError(
            f"a board is text or rows of tiles, not {type(rows).__name__}"
        )
    out = []
    for r, row in enumerate(rows):
        if isinstance(row, str):
            raise lacak.InvalidPuzzleError(
                f"row {r} must be a sequence of tiles, not the string {row!r}"
            )
        if not _is_rows(row):
            raise lacak.InvalidPuzzleError(
                f"row {r} of the board must be a sequence of tiles, not {type(row).__name__}"
            )
        cells = []
        for c, tile in enumerate(row):
            if not isinstance(tile, str):
                raise lacak.InvalidPuzzleError(f"the tile at [{r}, {c}] is not text: {tile!r}")
            cells.append(normalise_tile(tile))
        out.append(tuple(cells))
    return tuple(out)


def _validate_tiles(_instance: Any, _attribute: Any, rows: tuple[tuple[str, ...], ...]) -> None:
    if not rows:
        raise lacak.InvalidPuzzleError("the board has no rows")
    width = len(rows[0])
    for r, row in enumerate(rows):
        if not row:
            raise lacak.InvalidPuzzleError(f"row {r} is empty")
        if len(row) != width:
            raise lacak.InvalidPuzzleError(
                f"ragged board: row {r} has {lacak.output.plural(len(row), 'tile')} but row 0 "
                f"has {width}"
            )
        if _GOOD.issuperset(row):
            continue
        for c, tile in enumerate(row):
            if tile == "":
                raise lacak.InvalidPuzzleError(
                    f"empty cell at [{r}, {c}] (write # for a blank tile)"
                )
            if not _is_tile(tile):
                raise lacak.InvalidPuzzleError(
                    f"tile {tile!r} at [{r}, {c}] is not made of letters (write # for a blank tile)"
                )
            if len(_GOOD) < _NORMAL_SIZE:
                _GOOD.add(tile)


#: Tiles found good so far (at most ``_NORMAL_SIZE``).
_GOOD: set[str] = set()


def _validate_min_length(_instance: Any, _attribute: Any, value: int | None) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise lacak.InvalidOptionError(f"min_length must be a positive integer, got {value!r}")


_ROW_SPLIT = re.compile(r"\s*(?:/|\r?\n)\s*")
#: The plainest text form: capital letters A-Z (one a tile) or ``#``, rows split by ``/``.
_PLAIN = re.compile(r"[A-Z#]+(?:/[A-Z#]+)*")


def _split_compact(row: str) -> list[str]:
    """One tile per character, unless the row mixes cases: then ``Qu`` is one tile."""
    letters = [ch for ch in row if ch.isalpha()]
    mixed = any(ch.isupper() for ch in letters) and any(ch.islower() for ch in letters)
    if not mixed:
        return list(row)
    tiles: list[str] = []
    for ch in row:
        if ch.islower() and tiles and tiles[-1][-1].isalpha():
            tiles[-1] += ch
        else:
            tiles.append(ch)
    return tiles


def _generator_options(value: Any) -> tuple[tuple[str, Any], ...]:
    """A board's generator options as it keeps them (:func:`lacak.options.recorded_options`).

    :raises InvalidPuzzleError: not names to numbers, text or true/false.
    """
    return lacak.options.recorded_options(value, what="board")


def _shaken(text: str) -> dict[str, Any]:
    """A shaken board's JSON (``lacak boggle shake --json``): its ``board`` (rows of tile
    strings) as ``tiles``, and what made it: ``dice``, ``seed`` and ``options`` (``""``,
    ``None`` and ``()`` when it says nothing).

    :raises InvalidPuzzleError: not JSON, not an object with rows of tiles under
        ``board``, or a key of what made it of the wrong type.
    """
    try:
        data = json.loads(text)
    except ValueError as error:
        raise lacak.InvalidPuzzleError(
            f"the board starts with '{{' but is not JSON ({error}); a board is written "
            "CATS/DOGE/..., or is a shaken board's JSON"
        ) from None
    if not isinstance(data, dict):
        data = {}
    rows = data.get("board")
    if not isinstance(rows, list) or not all(
        isinstance(row, list) and all(isinstance(tile, str) for tile in row) for row in rows
    ):
        raise lacak.InvalidPuzzleError(
            "a board given as JSON is a shaken board's (lacak boggle shake --json): an "
            'object with rows of tiles under "board"'
        )
    dice, seed, options = data.get("dice"), data.get("seed"), data.get("options")
    if dice is not None and not isinstance(dice, str):
        raise lacak.InvalidPuzzleError(f"the shaken board's 'dice' must be text, got {dice!r:.40}")
    if seed is not None and (type(seed) is not int or seed < 0):
        raise lacak.InvalidPuzzleError(
            f"the shaken board's 'seed' must be a whole number, at least 0, or null, "
            f"got {seed!r:.40}"
        )
    if options is not None and not isinstance(options, dict):
        raise lacak.InvalidPuzzleError(
            f"the shaken board's 'options' must be an object of its generator's options, "
            f"got {options!r:.40}"
        )
    return {"tiles": rows, "dice": dice or "", "seed": seed,
            "options": _generator_options(options or {})}  # fmt: skip


def _split_row(row: str, r: int) -> list[str]:
    if "," in row:
        tiles = [part.strip() for part in row.split(",")]
        for c, tile in enumerate(tiles):
            if not tile:
                raise lacak.InvalidPuzzleError(
                    f"empty cell at [{r}, {c}] (write # for a blank tile)"
                )
        return tiles
    if any(ch.isspace() for ch in row):
        return row.split()
    return _split_compact(row)


@attrs.frozen(kw_only=True)
class Board:
    """A Boggle board of any size (at least 1x1), and a :class:`lacak.Puzzle`.

    As a Puzzle, a state is the path walked so far (a tuple of ``(row, col)``
    cells, ``()`` at the start), an action is the next cell, each step costs 1,
    and the goals are the paths that spell a word of :attr:`dictionary` with at
    least :attr:`min_length` letters. With a dictionary attached, successors
    only extend paths that still spell the start of some word, so any generic
    strategy (``bfs``, ``dfs``, ...) can search a board; the ``boggle``
    strategy finds every word at once.

    Build boards with :meth:`from_string` or :meth:`from_rows`.

    >>> board = Board.from_string("CAT/XQuY")
    >>> board.shape, board.tiles[1]
    ((2, 3), ('X', 'QU', 'Y'))
    >>> str(board)
    'C A T / X Qu Y'
    """

    #: The puzzle kind: the ``boggle`` strategy and generators apply.
    kind: ClassVar[str] = "boggle"
    #: The strategy :func:`lacak.solve` uses when none is named.
    default_strategy: ClassVar[str] = "boggle"
    #: The empty path: where every search starts.
    initial: ClassVar[tuple[Cell, ...]] = ()

    #: The tiles, row by row: upper-case letters (``"QU"`` is one tile) or ``"#"`` for a blank.
    tiles: tuple[tuple[str, ...], ...] = attrs.field(
        converter=_convert_tiles, validator=_validate_tiles
    )
    #: The word list that decides the goals when the board is searched as a Puzzle.
    dictionary: lacak.Dictionary | None = attrs.field(default=None, eq=False, repr=False)
    #: Shortest word that counts; ``None`` means the official rule (:func:`official_min_length`).
    min_length: int | None = attrs.field(
        default=None, eq=False, repr=False, validator=_validate_min_length
    )
    #: The seed the board was shaken with, when it was generated (not part of equality).
    seed: int | None = attrs.field(default=None, eq=False, repr=False)
    #: The generator that made it, when one did: a dice set's name (``"classic4"``) or
    #: ``"random"``; with its size, :attr:`seed` and :attr:`options`, what makes it again
    #: (:func:`lacak_boggle.remake.remake`, ``lacak boggle shake --from FILE``).
    dice: str = attrs.field(default="", eq=False, repr=False)
    #: The options its generator was given (``{"dictionary": "eng"}`` for ``random``),
    #: in name order; read-only (:attr:`options`).
    _options: tuple[tuple[str, Any], ...] = attrs.field(
        default=(), eq=False, repr=False, converter=_generator_options
    )

    # -- building ----------------------------------------------------------------

    @classmethod
    def from_string(cls, text: str) -> Board:
        """Read a board from text (see the module documentation for the forms).

        :raises InvalidPuzzleError: no tiles, an empty row or cell, ragged rows,
            or a tile that is not letters or ``#``.

        >>> Board.from_string("AHORJ/QQUOI/SSCPD/MUPSM/AUULI").shape
        (5, 5)
        >>> Board.from_string("a qu / # e").tiles
        (('A', 'QU'), ('#', 'E'))
        """
        if not isinstance(text, str):
            raise lacak.InvalidPuzzleError(f"a board must be text, not {type(text).__name__}")
        stripped = text.strip()
        if not stripped:
            raise lacak.InvalidPuzzleError("the board is empty")
        if stripped.startswith("{"):  # what lacak boggle shake --json prints
            return cls(**_shaken(stripped))
        if _PLAIN.fullmatch(stripped):  # "CATS/DOGE/...": one capital letter a tile
            return cls(tiles=[list(row) for row in stripped.split("/")])
        rows = []
        for r, row in enumerate(_ROW_SPLIT.split(stripped)):
            if not row:
                raise lacak.InvalidPuzzleError(f"row {r} of the board is empty")
            rows.append(_split_row(row, r))
        return cls(tiles=rows)

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[str]]) -> Board:
        """A board from rows of tile strings, e.g. ``[["A", "Qu"], ["#", "E"]]``.

        :raises InvalidPuzzleError: as :meth:`from_string`.
        """
        return cls(tiles=rows)

    @classmethod
    def parse(cls, value: str | Sequence[Sequence[str]] | Board) -> Board:
        """A board from text, rows of tiles, or a board (returned as is).

        :raises InvalidPuzzleError: anything else (``None``, a number, ``bytes``, ...),
            or text or rows that are not a board.
        """
        if isinstance(value, Board):
            return value
        if isinstance(value, str):
            return cls.from_string(value)
        return cls.from_rows(value)

    def with_dictionary(
        self, dictionary: lacak.Dictionary | None, min_length: int | None = None
    ) -> Board:
        """The same board whose Puzzle goals are the words of ``dictionary``."""
        return attrs.evolve(self, dictionary=dictionary, min_length=min_length)

    # -- shape and text ---------------------------------------------------------------

    @property
    def rows(self) -> int:
        """Number of rows."""
        return len(self.tiles)

    @property
    def cols(self) -> int:
        """Number of columns."""
        return len(self.tiles[0])

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)``."""
        return len(self.tiles), len(self.tiles[0])

    @functools.cached_property
    def flat(self) -> tuple[str, ...]:
        """The tiles in row-major order (cell ``r * cols + c``)."""
        return tuple([tile for row in self.tiles for tile in row])

    def tile(self, cell: Sequence[int]) -> str:
        """The tile at ``(row, col)``."""
        r, c = cell
        return self.tiles[r][c]

    def to_text(self) -> str:
        """The canonical text form, which :meth:`from_string` reads back.

        One character per tile (``"CAT/DOG"``) when every tile is a single
        character; otherwise tiles split by spaces, multi-letter tiles written
        as on the dice (``"C A T / X Qu Y"``), so that a row holding a single
        ``Qu`` tile still reads as one tile.
        """
        if all(len(tile) == 1 for row in self.tiles for tile in row):
            return "/".join("".join(row) for row in self.tiles)
        return " / ".join(
            " ".join(tile if len(tile) == 1 else tile[0] + tile[1:].lower() for tile in row)
            for row in self.tiles
        )

    def __str__(self) -> str:
        return self.to_text()

    def _repr_svg_(self) -> str:
        """The board as a picture in Jupyter: the ``boggle`` kind's SVG (:func:`lacak.picture`,
        found through the registry: the pictures module imports this one, not the other way)."""
        return lacak.picture(self).svg()

    def to_rows(self) -> list[list[str]]:
        """The tiles as a JSON-ready list of rows."""
        return [list(row) for row in self.tiles]

    @property
    def options(self) -> dict[str, Any]:
        """The options its generator (:attr:`dice`) was given (``{"dictionary": "eng"}``
        for ``random``): a new ``dict`` each time (the board is frozen)."""
        return dict(self._options)

    def to_dict(self) -> dict[str, Any]:
        """The board as JSON data, what ``lacak boggle shake --json`` prints (and
        :meth:`from_string` reads back): what makes it again, ``dice`` (its generator),
        ``size`` (``"ROWSxCOLS"``), ``seed`` and ``options`` (``null`` and ``{}`` for a
        board no generator made), then ``board`` (rows of tiles) and ``text``
        (:meth:`to_text`). See ``docs/boggle.md``.

        .. rubric:: Examples

        >>> from lacak_boggle.dice import random_board
        >>> data = random_board((2, 3), seed=5, dictionary="eng").to_dict()
        >>> data["dice"], data["size"], data["seed"], data["options"]
        ('random', '2x3', 5, {'dictionary': 'eng'})
        """
        return {
            "dice": self.dice or None,
            "size": f"{self.rows}x{self.cols}",
            "seed": self.seed,
            "options": self.options,
            "board": self.to_rows(),
            "text": self.to_text(),
        }

    @property
    def effective_min_length(self) -> int:
        """:attr:`min_length`, or the official minimum for this board's size."""
        return self.min_length if self.min_length is not None else official_min_length(*self.shape)

    # -- paths ----------------------------------------------------------------------

    def neighbours(self, cell: Sequence[int]) -> Iterator[Cell]:
        """The up to eight cells around ``cell``, in row-major order."""
        r, c = cell
        cols = self.cols
        for index in neighbours(self.rows, cols)[r * cols + c]:
            yield divmod(index, cols)

    def spell(self, path: Iterable[Sequence[int]]) -> str:
        """The letters the tiles along ``path`` spell (no checks)."""
        tiles = self.tiles
        return "".join([tiles[r][c] for r, c in path])  # (a list: twice as fast for a trace)

    def is_path(self, path: Sequence[Sequence[int]]) -> bool:
        """Whether ``path`` is a legal word path: on the board, adjacent steps,
        no tile used twice, no blank tile."""
        seen: set[tuple[int, int]] = set()
        previous: tuple[int, int] | None = None
        rows, cols = self.shape
        for cell in path:
            if len(cell) != 2:
                return False
            r, c = int(cell[0]), int(cell[1])
            if not (0 <= r < rows and 0 <= c < cols) or (r, c) in seen:
                return False
            if self.tiles[r][c] == BLANK:
                return False
            if previous is not None and max(abs(r - previous[0]), abs(c - previous[1])) != 1:
                return False
            seen.add((r, c))
            previous = (r, c)
        return bool(path)

    # -- the Puzzle protocol ----------------------------------------------------------

    def _graph(self) -> WordGraph:
        if self.dictionary is None:
            raise lacak.InvalidPuzzleError(
                "this board has no dictionary, so it has no goals; "
                "use board.with_dictionary(lacak.dictionary(name)) to search it as a puzzle"
            )

        return compile_dictionary(self.dictionary)

    def is_goal(self, state: Hashable) -> bool:
        """Whether the path ``state`` spells a word of the dictionary that is long enough.

        :raises InvalidPuzzleError: the board has no dictionary.
        """
        graph = self._graph()
        path: tuple[Cell, ...] = state  # type: ignore[assignment]
        if not path:
            return False
        word = self.spell(path)
        return len(word) >= self.effective_min_length and graph.contains(word)

    def successors(self, state: Hashable) -> Iterator[tuple[Cell, tuple[Cell, ...], float]]:
        """``(next cell, longer path, 1.0)`` for every free, non-blank neighbour of the
        path's last cell (every non-blank cell for the empty path). With a
        dictionary, only paths that still spell the start of a word are given."""
        path: tuple[Cell, ...] = state  # type: ignore[assignment]
        graph = self._graph() if self.dictionary is not None else None
        if path:
            used = set(path)
            candidates: Iterable[Cell] = (n for n in self.neighbours(path[-1]) if n not in used)
        else:
            candidates = ((r, c) for r in range(self.rows) for c in range(self.cols))
        prefix = self.spell(path) if graph is not None else ""
        for cell in candidates:
            tile = self.tiles[cell[0]][cell[1]]
            if tile == BLANK:
                continue
            if graph is not None and not graph.has_prefix(prefix + tile):
                continue
            yield cell, (*path, cell), 1.0

    def format_state(self, state: Hashable) -> str:
        """A path as the letters it spells (``"QUE"``), or ``"·"`` for the empty path."""
        path: tuple[Cell, ...] = state  # type: ignore[assignment]
        return self.spell(path) if path else "·"


@attrs.frozen(kw_only=True)
class BatchBoard(Board):
    """A board of one job of ``lacak batch boggle`` (made by the kind's
    ``batch_prepare``): a :class:`Board` that also says which engine walks it
    and whether its record keeps the words. The ``boggle`` strategy walks it with
    :attr:`engine`, and :meth:`BoggleResult.to_dict
    <lacak_boggle.BoggleResult.to_dict>` leaves the words out of the answer when
    :attr:`scores_only` (the record keeps only the counts).
    """

    #: ``"dfs"`` or ``"numba"`` (:func:`~lacak_boggle.engines.engine_for_job` decides).
    engine: str = attrs.field(default="dfs", eq=False, repr=False)
    #: Whether the job's record keeps only the counts, the score and the best word.
    scores_only: bool = attrs.field(default=False, eq=False, repr=False)


def validate_board(board: Any) -> None:
    """Check a generated instance: a :class:`Board` of letters and blanks.

    :raises InvalidPuzzleError: it is not a board, or breaks a board invariant.
    """
    if not isinstance(board, Board):
        raise lacak.InvalidPuzzleError(f"expected a Boggle Board, got {type(board).__name__}")
    _validate_tiles(board, None, board.tiles)

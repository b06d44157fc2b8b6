"""Scores and the results of solving a board or checking a word."""

from __future__ import annotations

import bisect
import functools
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

import attrs
import lacak
from lacak.output import plural

from ._gc import quiet_gc
from .board import BatchBoard, Board, Cell, normalise_tile

if TYPE_CHECKING:
    from .wordgraph import WordGraph

__all__ = [
    "SCORE_TABLE",
    "BoggleResult",
    "Entries",
    "FoundWord",
    "WordCheck",
    "assemble",
    "found_result",
    "make_result",
    "score",
    "total_score",
]

#: A word's paths as row-major cell indices: ``((index, ...), ...)``.
IndexPaths = tuple[tuple[int, ...], ...]
#: One entry: a word and its paths.
Entry = tuple[str, IndexPaths]

#: The most words a result shows in a notebook (:meth:`BoggleResult._repr_html_`).
HTML_WORDS = 300

#: Official points by word length in letters (``QU`` counts two); 8 and more score 11.
SCORE_TABLE: dict[int, int] = {3: 1, 4: 1, 5: 2, 6: 3, 7: 5}


def score(length: int) -> int:
    """Official Boggle points for a word of ``length`` letters.

    3-4 letters 1, 5 letters 2, 6 letters 3, 7 letters 5, 8 or more 11; words
    shorter than 3 letters (allowed with a lower minimum length) score 0.

    >>> [score(n) for n in range(2, 10)]
    [0, 1, 1, 2, 3, 5, 11, 11]
    """
    if length >= 8:
        return 11
    return SCORE_TABLE.get(length, 0)


#: :func:`score` by length up to 8 letters (index 8: 11, and so for every longer word).
_POINTS = tuple(score(n) for n in range(9))


def total_score(words: Sequence[str]) -> int:
    """The official points of ``words`` together (each scored by its length in letters).

    >>> total_score(["CAT", "TAXI", "QUEEN", "ABSOLUTE"])
    15
    """
    points = _POINTS
    return sum([points[n if n < 8 else 8] for n in map(len, words)])


@functools.lru_cache(maxsize=64)
def cells_of(rows: int, cols: int) -> tuple[Cell, ...]:
    """``(row, col)`` of each row-major cell index (shared tuples: paths made of
    them allocate nothing per cell)."""
    return tuple(divmod(i, cols) for i in range(rows * cols))


#: Held while an :class:`Entries` makes its path tuples (so it happens once).
_making = threading.Lock()


class Entries(Sequence[Entry]):
    """The words found on a board with their paths, as ``(word, paths)`` pairs in
    alphabetical order; the paths become Python tuples only when first asked for.

    It is a read-only sequence equal to the tuple of its pairs (``entries ==
    ((word, ((0, 1, 5),)), ...)``), so code may treat it as that tuple. The
    batch engines hand it the words at once and a function that makes every
    word's paths from their arrays: a caller that only wants the word list,
    the count or the score never pays for path tuples.

    :param words: the words, alphabetical.
    :param paths: their paths (one tuple per word), or a function returning
        them, called once, on first use (from any thread).
    :param score: the words' points together, when the caller knows them
        (:func:`total_score` otherwise, on first use).

    >>> e = Entries(("AT", "CAT"), lambda: (((1, 2),), ((0, 1, 2),)))
    >>> e.words, len(e), e[1]
    (('AT', 'CAT'), 2, ('CAT', ((0, 1, 2),)))
    >>> e == (("AT", ((1, 2),)), ("CAT", ((0, 1, 2),)))
    True
    """

    __slots__ = ("_key", "_make", "_pairs", "_score", "words")

    words: tuple[str, ...]

    def __init__(
        self,
        words: Sequence[str] = (),
        paths: Sequence[IndexPaths] | Callable[[], Sequence[IndexPaths]] = (),
        *,
        score: int | None = None,
    ) -> None:
        self.words = tuple(words)
        self._pairs: tuple[Entry, ...] | None = None
        self._make: Callable[..., Sequence[IndexPaths]] | None = None
        self._key: int | None = None
        self._score = score
        if callable(paths):
            self._make = paths
        else:
            self._pairs = self._zip(paths)

    @classmethod
    def later(
        cls,
        words: tuple[str, ...],
        make: Callable[[int], Sequence[IndexPaths]],
        key: int,
        score: int,
    ) -> Entries:
        """``Entries(words, lambda: make(key), score=score)``, made faster (the batch
        engines make one per board)."""
        out = cls.__new__(cls)
        out.words = words
        out._pairs = None
        out._make = make
        out._key = key
        out._score = score
        return out

    @classmethod
    def of(cls, value: Entries | Sequence[Entry]) -> Entries:
        """``value`` itself if it is :class:`Entries`, else its pairs wrapped."""
        if isinstance(value, Entries):
            return value
        pairs = tuple(value)
        out = cls.__new__(cls)
        out.words = tuple([word for word, _ in pairs])
        out._make = None
        out._key = None
        out._score = None
        out._pairs = tuple([(word, tuple([tuple(p) for p in paths])) for word, paths in pairs])
        return out

    def _zip(self, paths: Sequence[IndexPaths]) -> tuple[Entry, ...]:
        if len(paths) != len(self.words):
            raise ValueError(f"{len(self.words)} words but {len(paths)} path groups")
        return tuple(zip(self.words, paths, strict=True))

    @property
    def score(self) -> int:
        """The words' official points together."""
        if self._score is None:
            self._score = total_score(self.words)
        return self._score

    @property
    def pairs(self) -> tuple[Entry, ...]:
        """The ``(word, paths)`` pairs as a tuple (made on first use)."""
        pairs = self._pairs
        if pairs is None:
            with _making, quiet_gc():  # one thread makes them; the others wait and reuse
                if self._pairs is None:
                    assert self._make is not None
                    made = self._make() if self._key is None else self._make(self._key)
                    self._pairs = self._zip(tuple(made))
                    self._make = None
                pairs = self._pairs
        return pairs

    def __len__(self) -> int:
        return len(self.words)

    @overload
    def __getitem__(self, index: int) -> Entry: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Entry, ...]: ...
    def __getitem__(self, index: int | slice) -> Entry | tuple[Entry, ...]:
        return self.pairs[index]

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.pairs)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Entries):
            return self.words == other.words and self.pairs == other.pairs
        if isinstance(other, tuple):
            return self.pairs == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.pairs)

    def __repr__(self) -> str:
        return f"Entries({self.words!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Entries, (self.words, tuple(paths for _, paths in self.pairs)))


def _as_entries(value: Entries | Sequence[Entry]) -> Entries:
    return Entries.of(value)


@attrs.frozen(kw_only=True)
class FoundWord:
    """A word found on a board."""

    #: The word, as the dictionary spells it (upper case).
    word: str
    #: Its first path in row-major depth-first order: ``((row, col), ...)``.
    path: tuple[Cell, ...]
    #: Official points (:func:`score` of the word's length in letters).
    score: int
    #: Every path that spells it when all paths were asked for, else just ``(path,)``.
    paths: tuple[tuple[Cell, ...], ...]

    def to_dict(self, *, all_paths: bool = False) -> dict[str, Any]:
        """``{"word", "path": [[row, col], ...], "score"}`` (plus ``"paths"`` when asked)."""
        out: dict[str, Any] = {
            "word": self.word,
            "path": [list(cell) for cell in self.path],
            "score": self.score,
        }
        if all_paths:
            out["paths"] = [[list(cell) for cell in p] for p in self.paths]
        return out


@attrs.frozen(kw_only=True)
class BoggleResult(lacak.SearchResult):
    """Every word on a board: a :class:`lacak.SearchResult` with more to say.

    As a SearchResult it describes one goal, the *best* word (most points,
    then most letters, then alphabetical first): ``actions`` are that word's
    cells, ``states`` the growing paths, ``cost`` its number of tiles;
    ``found`` is true when the board has any word. The whole answer is in
    :attr:`words` (alphabetical), :attr:`count` and :attr:`score`.

    ``entries`` is the compact form the solvers produce,
    ``(word, ((cell index, ...), ...))`` with row-major cell indices (an
    :class:`Entries` sequence, equal to the tuple of those pairs); the
    :class:`FoundWord` records in :attr:`words` are made from it on first use.
    """

    #: The board that was solved.
    board: Board
    #: The dictionary's name.
    dictionary: str
    #: The shortest word length that counted.
    min_length: int
    #: ``(word, paths)`` pairs in alphabetical order; paths as row-major cell indices.
    entries: Entries = attrs.field(factory=Entries, converter=_as_entries, repr=False)
    #: Whether every path of every word was collected (else one path per word).
    all_paths: bool = False
    #: ``False`` when a limit stopped the search early: the words are those found so far.
    complete: bool = True
    #: Which count stopped the search (``stopped`` is ``memory-limit``): ``"max_words"``
    #: or ``"max_paths"``; else ``None``.
    bound: str | None = None

    @functools.cached_property
    def words(self) -> tuple[FoundWord, ...]:
        """The words found, alphabetical, each with its path and score."""
        at = cells_of(*self.board.shape)
        out = []
        with quiet_gc():
            for word, paths in self.entries:
                cells = tuple([tuple([at[i] for i in p]) for p in paths])
                out.append(FoundWord(word=word, path=cells[0], score=score(len(word)), paths=cells))
        return tuple(out)

    @property
    def word_list(self) -> list[str]:
        """The words alone, alphabetical."""
        return list(self.entries.words)

    @property
    def count(self) -> int:
        """Number of words found."""
        return len(self.entries.words)

    @property
    def score(self) -> int:
        """Total official points of all words found."""
        return self.entries.score

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.get(word) is not None

    def get(self, word: str) -> FoundWord | None:
        """The :class:`FoundWord` for ``word`` (any case), or ``None``."""
        wanted = normalise_tile(word)
        words = self.entries.words
        at = bisect.bisect_left(words, wanted)  # the words are in code-point order
        if at < len(words) and words[at] == wanted:
            return self.words[at]
        return None

    def best(self) -> FoundWord | None:
        """The best word (most points, most letters, alphabetical first), or ``None``."""
        spelled = self.entries.words
        if not spelled:
            return None
        # points never fall as words grow: the best is the first (alphabetical) longest
        longest = max(map(len, spelled))
        at = next(i for i, word in enumerate(spelled) if len(word) == longest)
        cells = cells_of(*self.board.shape)
        word, paths = self.entries[at]
        found = tuple([tuple([cells[i] for i in p]) for p in paths])
        return FoundWord(word=word, path=found[0], score=score(len(word)), paths=found)

    def _repr_svg_(self) -> str:
        """The board with the best word's path, as a picture in Jupyter: the ``boggle``
        kind's picture (:func:`lacak.picture`, found through the registry)."""
        return lacak.picture(self.board, self).svg()

    def _repr_html_(self) -> str:
        """The board with the best word's path, the counts and the words (best first), in
        a notebook; past :data:`HTML_WORDS` words, how many more there are."""
        from html import escape  # (only in a notebook: html.entities is large)

        picture = "\n".join(line for line in self._repr_svg_().splitlines() if line.strip())
        counts = (f"<b>{plural(self.count, 'word')}</b>, <b>{plural(self.score, 'point')}</b> "
                  f"(dictionary {escape(self.dictionary)}, at least "
                  f"{plural(self.min_length, 'letter')})")  # fmt: skip
        if not self.complete:
            counts += f"; the search stopped early ({escape(str(self.stopped))}): words so far"
        ordered = sorted(self.entries.words, key=lambda w: (-score(len(w)), -len(w), w))
        words = " ".join(f"{escape(w)}<sub>{score(len(w))}</sub>" for w in ordered[:HTML_WORDS])
        if len(ordered) > HTML_WORDS:
            words += f" … and {len(ordered) - HTML_WORDS:,} more (<code>result.word_list</code>)"
        return (f'<div class="lacak-boggle">\n{picture}\n<p>{counts}</p>\n'
                + (f"<p>{words}</p>\n" if words else "") + "</div>")  # fmt: skip

    def to_dict(
        self, puzzle: Any = None, *, extras: Any = None, registry: Any = None
    ) -> dict[str, Any]:
        """The documented JSON form (``lacak boggle solve --json``): the common shape of
        every search result, and the whole answer under ``"boggle"``.

        The common keys (:meth:`lacak.SearchResult.to_dict`) describe the best word:
        ``actions`` are its cells ``[row, col]``, ``states`` the letters each growing
        path spells (``"·"``, ``"C"``, ``"CO"``, ...), ``length`` and ``cost`` its
        tiles. ``"boggle"`` is :meth:`answer`.

        A board of a ``lacak batch boggle --scores-only`` job
        (:class:`~lacak_boggle.board.BatchBoard`) gets the answer without its
        ``"words"``, which its record does not keep.

        :param puzzle: the board searched (default: :attr:`board`).
        :param extras: accepted for :meth:`lacak.SearchResult.to_dict`'s signature (the
            ``boggle`` kind's extras give :meth:`answer`, which is written here anyway).
        :param registry: accepted for the same signature; the Boggle keys need no registry.
        """
        board = puzzle if isinstance(puzzle, Board) else self.board
        data = lacak.SearchResult.to_dict(self)  # no puzzle: the common keys alone
        data["states"] = [board.format_state(state) for state in self.states]
        words = not (isinstance(board, BatchBoard) and board.scores_only)
        data["boggle"] = self.answer(words=words)
        return data

    def answer(self, *, words: bool = True) -> dict[str, Any]:
        """The whole answer as JSON data: what ``"boggle"`` holds in :meth:`to_dict`.

        ``{"board": [[tile, ...], ...], "dictionary", "min_length", "complete",
        "count", "score", "best", "words": [{"word", "path": [[row, col], ...],
        "score"}, ...]}``; with ``all_paths`` each word also has ``"paths"``.
        ``complete`` is false when a limit cut the search short (the common
        ``stopped`` says which); ``best`` is the best word, or ``null``.

        :param words: include ``"words"`` (else the paths are not even made).
        """
        spelled = self.entries.words
        best = None
        if spelled:
            longest = max(map(len, spelled))
            best = next(word for word in spelled if len(word) == longest)
        answer = {
            "board": self.board.to_rows(),
            "dictionary": self.dictionary,
            "min_length": self.min_length,
            "complete": self.complete,
            "count": self.count,
            "score": self.score,
            "best": best,
        }
        if not words:
            return answer
        at = [list(cell) for cell in cells_of(*self.board.shape)]
        listed: list[dict[str, Any]] = []
        with quiet_gc():  # straight from the entries: no FoundWord objects on the way
            for word, paths in self.entries:
                entry = {
                    "word": word,
                    "path": [at[i][:] for i in paths[0]],
                    "score": score(len(word)),
                }
                if self.all_paths:
                    entry["paths"] = [[at[i][:] for i in p] for p in paths]
                listed.append(entry)
        answer["words"] = listed
        return answer


@attrs.frozen(kw_only=True)
class WordCheck:
    """Whether a word is on a board and in a dictionary (see :func:`~lacak_boggle.check`)."""

    #: The word as checked (normalised: NFC, upper case).
    word: str
    #: The dictionary's name.
    dictionary: str
    #: The shortest word length that counts on this board.
    min_length: int
    #: Every path spelling the word, in row-major depth-first order (first = the one ``solve`` reports).
    paths: tuple[tuple[Cell, ...], ...]
    #: Whether the dictionary has the word; ``None`` when a time limit passed
    #: while the dictionary was being read, before that was known.
    in_dictionary: bool | None
    #: ``None`` when every path was looked for; else the limit that stopped the
    #: search (:func:`~lacak_boggle.check`'s ``limits`` or ``max_paths``): :attr:`paths`
    #: holds those found so far, and when there is none, whether the word is on
    #: the board is not known.
    stopped: lacak.StopReason | None = None

    @property
    def complete(self) -> bool:
        """Whether every path was looked for (no limit stopped the search)."""
        return self.stopped is None

    @property
    def on_board(self) -> bool:
        """Whether the tiles spell the word along some path."""
        return bool(self.paths)

    @property
    def path(self) -> tuple[Cell, ...] | None:
        """The first path, or ``None``."""
        return self.paths[0] if self.paths else None

    @property
    def long_enough(self) -> bool:
        """Whether it has at least :attr:`min_length` letters."""
        return len(self.word) >= self.min_length

    @property
    def valid(self) -> bool:
        """On the board, in the dictionary and long enough: a word ``solve`` lists."""
        return self.on_board and bool(self.in_dictionary) and self.long_enough

    @property
    def score(self) -> int:
        """Its points if valid, else 0."""
        return score(len(self.word)) if self.valid else 0

    def to_dict(self) -> dict[str, Any]:
        """``{"word", "dictionary", "min_length", "on_board", "in_dictionary",
        "long_enough", "valid", "score", "path", "paths"}``, plus
        ``"complete": false`` and ``"stopped"`` when a limit stopped the search."""
        out = {
            "word": self.word,
            "dictionary": self.dictionary,
            "min_length": self.min_length,
            "on_board": self.on_board,
            "in_dictionary": self.in_dictionary,
            "long_enough": self.long_enough,
            "valid": self.valid,
            "score": self.score,
            "path": None if self.path is None else [list(c) for c in self.path],
            "paths": [[list(c) for c in p] for p in self.paths],
        }
        if self.stopped is not None:
            out["complete"] = False
            out["stopped"] = str(self.stopped)
        return out


# -- building results ------------------------------------------------------------------------


def assemble(
    board: Board,
    name: str,
    graph: WordGraph,
    found: dict[int, Any],
    *,
    min_length: int,
    all_paths: bool,
    stats: lacak.SearchStats,
    stopped: lacak.StopReason | None = None,
    cut: bool = False,
    nested: bool = False,
    bound: str | None = None,
) -> BoggleResult:
    """The result for ``found`` (rank -> first path, or -> paths when ``nested``)."""
    words = graph.words
    if nested:
        lengths = graph.word_lengths
        ranks = [r for r in sorted(found) if lengths[r] >= min_length]
    else:  # the fast walk collected only long enough words
        ranks = sorted(found)
    spelled = [words[r] for r in ranks]
    best = None
    if ranks:
        # Points never fall as words grow, so the best word is the first (alphabetical)
        # of the longest ones.
        longest = max(map(len, spelled))
        top = ranks[next(i for i, w in enumerate(spelled) if len(w) == longest)]
        best = tuple(found[top][0] if nested else found[top])

    def paths() -> list[tuple[tuple[int, ...], ...]]:
        if nested:
            return [tuple([tuple(p) for p in found[r]]) for r in ranks]
        return [(tuple(found[r]),) for r in ranks]

    return make_result(
        board, name, Entries(spelled, paths), min_length=min_length, all_paths=all_paths,
        stats=stats, stopped=stopped, cut=cut, best=best, bound=bound,
    )  # fmt: skip


def make_result(
    board: Board,
    name: str,
    entries: Entries | Sequence[tuple[str, tuple[tuple[int, ...], ...]]],
    *,
    min_length: int,
    all_paths: bool,
    stats: lacak.SearchStats,
    stopped: lacak.StopReason | None = None,
    cut: bool = False,
    strategy: str = "boggle",
    best: tuple[int, ...] | None = None,
    bound: str | None = None,
) -> BoggleResult:
    """Build the :class:`BoggleResult` for ``entries`` (sorted ``(word, paths)`` pairs).

    ``stopped`` is the result's :attr:`~lacak.SearchResult.stopped` whether or
    not words were found: the limit that cut the search short (else
    ``depth-limit`` when ``cut``, ``goal`` with words, ``exhausted`` without).

    :param stopped: the limit that stopped the search, or ``None``.
    :param cut: whether ``max_depth`` cut some path short.
    :param best: the first path of the best word (the first of the longest
        words), when the caller knows it; else it is looked up in ``entries``.
    :param bound: which count stopped the search (``"max_words"``, ``"max_paths"``).
    """
    entries = Entries.of(entries)
    if stopped is not None:
        reason = stopped
    elif cut:
        reason = lacak.StopReason.DEPTH
    elif entries.words:
        reason = lacak.StopReason.GOAL
    else:
        reason = lacak.StopReason.EXHAUSTED
    complete = stopped is None and not cut
    if not entries.words:
        return BoggleResult.not_found(
            (), reason, entries=entries, stats=stats, strategy=strategy, kind="boggle",
            board=board, dictionary=name, min_length=min_length, all_paths=all_paths,
            complete=complete, bound=bound,
        )  # fmt: skip
    if best is None:
        spelled = entries.words
        longest = max(map(len, spelled))
        best = entries[next(i for i, w in enumerate(spelled) if len(w) == longest)][1][0]
    at = cells_of(*board.shape)
    cells = tuple([at[i] for i in best])
    # what BoggleResult.from_states builds, without its checks (this is a hot path)
    return BoggleResult(
        found=True,
        actions=cells,
        states=tuple([cells[:k] for k in range(len(cells) + 1)]),
        cost=float(len(cells)),
        stopped=reason,
        entries=entries,
        stats=stats,
        strategy=strategy,
        kind="boggle",
        board=board,
        dictionary=name,
        min_length=min_length,
        all_paths=all_paths,
        complete=complete,
        bound=bound,
    )


def _slot_setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """The setter of the slot that holds attribute ``name`` of ``cls``'s instances."""
    for klass in cls.__mro__:
        if name in vars(klass):
            return vars(klass)[name].__set__
    raise AttributeError(name)  # pragma: no cover - checked below at import


#: The fields :func:`found_result` sets, in :func:`attrs.fields` order (checked here, so
#: that a field added to :class:`BoggleResult` or :class:`lacak.SearchResult` is not
#: left unset: importing this module fails until :func:`found_result` sets it too).
_FOUND_FIELDS = (
    "found", "actions", "states", "cost", "stopped", "stats", "strategy", "kind", "heuristic",
    "trace", "board", "dictionary", "min_length", "entries", "all_paths", "complete", "bound",
)  # fmt: skip
if tuple(field.name for field in attrs.fields(BoggleResult)) != _FOUND_FIELDS:
    raise ImportError("BoggleResult's fields changed: update found_result")  # pragma: no cover
(
    _set_found, _set_actions, _set_states, _set_cost, _set_stopped, _set_stats,
    _set_strategy, _set_kind, _set_heuristic, _set_trace, _set_board, _set_dictionary,
    _set_min_length, _set_entries, _set_all_paths, _set_complete, _set_bound,
) = [_slot_setter(BoggleResult, name) for name in _FOUND_FIELDS]  # fmt: skip
_GOAL = lacak.StopReason.GOAL


def found_result(
    board: Board,
    name: str,
    entries: Entries,
    cells: tuple[Cell, ...],
    *,
    min_length: int,
    stats: lacak.SearchStats,
    strategy: str,
) -> BoggleResult:
    """:func:`make_result` for a whole search that found words, given the best word's
    first path as cells: the batch engines' hot path.

    It builds the result :meth:`BoggleResult.from_states` would (every field as
    ``BoggleResult(found=True, actions=cells, states=..., ...)`` sets it, the
    tests compare the two), writing the fields' slots directly: a batch makes
    one per board, and this takes about two thirds of the time.
    """
    result = object.__new__(BoggleResult)
    _set_found(result, True)
    _set_actions(result, cells)
    _set_states(result, tuple([cells[:k] for k in range(len(cells) + 1)]))
    _set_cost(result, float(len(cells)))
    _set_stopped(result, _GOAL)
    _set_stats(result, stats)
    _set_strategy(result, strategy)
    _set_kind(result, "boggle")
    _set_heuristic(result, None)
    _set_trace(result, None)
    _set_board(result, board)
    _set_dictionary(result, name)
    _set_min_length(result, min_length)
    _set_entries(result, entries)
    _set_all_paths(result, False)
    _set_complete(result, True)
    _set_bound(result, None)
    return result

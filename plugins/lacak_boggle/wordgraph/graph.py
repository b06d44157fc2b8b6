"""The compiled dictionary's tables (:class:`WordGraph`) and how a walk reads them.

The layout of the tables is described in :mod:`lacak_boggle.wordgraph`; this module
has what every solver needs of a graph already made: the tables, the columns, a
walk along letters or columns (:func:`follow`, :func:`decode`). Building a graph
is :mod:`~lacak_boggle.wordgraph.build`'s, caching it
:mod:`~lacak_boggle.wordgraph.files`' and the package's.
"""

from __future__ import annotations

import array
import functools
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs
import lacak

if TYPE_CHECKING:
    import numpy as np

__all__ = ["DIGRAPHS", "FORMAT", "CompileStopped", "WordGraph", "decode", "follow"]

#: Bump when the on-disk layout or the compilation changes (part of the digest, and
#: the format number of the cache files).
FORMAT = 4
#: Multi-letter faces found on real dice, given their own column when possible.
DIGRAPHS = ("AN", "ER", "HE", "IN", "QU", "TH")
#: Guards the graphs' numpy views here, and the package's caches of graphs.
_lock = threading.RLock()


@attrs.frozen(eq=False, kw_only=True)
class WordGraph:
    """A compiled dictionary (see the module documentation for the layout)."""

    #: SHA-256 of the compiled content (words and alphabet), the cache key.
    digest: str
    #: The dictionary's words; a path's summed rank indexes this tuple.
    words: tuple[str, ...] = attrs.field(repr=False)
    #: The symbol of each column; column 0 (``""``) is the end-of-word flag.
    columns: tuple[str, ...]
    #: Number of rows (states other than the final sink).
    states: int
    #: Flat transition table (see the module documentation).
    transitions: array.array = attrs.field(repr=False)
    #: Flat rank table, same shape.
    ranks: array.array = attrs.field(repr=False)
    #: Seconds spent compiling or loading.
    seconds: float = 0.0
    #: Whether it was read from the disk cache.
    from_cache: bool = False
    _index: dict[str, int] = attrs.field(init=False, repr=False)
    _numpy: list[Any] = attrs.field(init=False, repr=False, factory=list)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_index", {s: i for i, s in enumerate(self.columns) if s})

    @property
    def stride(self) -> int:
        """Columns per row."""
        return len(self.columns)

    @functools.cached_property
    def first_letters(self) -> tuple[int, ...]:
        """Per column, the bit of its (first) letter's column in the column-0 masks."""
        out = []
        for symbol in self.columns:
            col = self._index.get(symbol[:1], 0) if symbol else 0
            # letters past bit 62 (huge alphabets) share bit 63; those graphs store
            # an all-ones mask, so nothing is pruned
            out.append(0 if not col else (1 << col if col <= 62 else 1 << 63))
        return tuple(out)

    @functools.cached_property
    def single_columns(self) -> dict[str, int]:
        """Tile -> column for the tiles that take one column, and ``#`` (a blank) -> 0."""
        return {**self._index, "#": 0}

    @functools.cached_property
    def word_lengths(self) -> tuple[int, ...]:
        """Each word's length in letters, by rank (a tuple, for per-item lookups)."""
        return tuple(map(len, self.words))

    @functools.cached_property
    def longest(self) -> int:
        """The most letters in a word (0 for no words): no path of a walk is longer."""
        return max(self.word_lengths, default=0)

    @property
    def letters(self) -> frozenset[str]:
        """The single letters the words use."""
        return frozenset(s for s in self.columns if len(s) == 1)

    def column(self, symbol: str) -> int:
        """The column of a letter or compiled digraph, or 0 when it has none."""
        return self._index.get(symbol, 0)

    def walk(self, text: str, offset: int = 0, rank: int = 0) -> tuple[int, int, bool] | None:
        """Follow ``text`` letter by letter from the state at ``offset``.

        :returns: ``(offset, rank, final)`` after the last letter, where
            ``final`` says the letters so far end a word and offset ``-1`` is
            the sink (nothing goes on); ``None`` when no word continues that way.
        """
        index = self._index
        columns = [index.get(ch) for ch in text]
        if None in columns:
            return None
        return follow(self.transitions, self.ranks, offset, rank, columns)  # type: ignore[arg-type]

    def has_prefix(self, text: str) -> bool:
        """Whether some word starts with ``text``."""
        return (text != "" or bool(self.words)) and self.walk(text) is not None

    def contains(self, word: str) -> bool:
        """Whether ``word`` is a word of the dictionary."""
        end = self.walk(word)
        return end is not None and end[2]

    def rank(self, word: str) -> int | None:
        """The index of ``word`` in :attr:`words`, or ``None``."""
        end = self.walk(word)
        return end[1] if end is not None and end[2] else None

    def lengths(self) -> np.ndarray:
        """Each word's length in letters, by rank, as a read-only numpy array."""
        return self._views()[2]

    def word_array(self) -> np.ndarray:
        """The words as a numpy object array (rank -> word), for vectorised lookups."""
        return self._views()[3]

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The two tables as read-only numpy arrays (no copy): transitions
        (``int32``, or ``int64`` for large alphabets) and ranks (``int32``)."""
        views = self._views()
        return views[0], views[1]

    def _views(self) -> list[Any]:
        """``[transitions, ranks, lengths, words]`` as numpy arrays, made once.

        Made under a lock and published whole, so threads (the compiled engine
        runs a batch's jobs on threads) never see a half-made list.
        """
        if len(self._numpy) == 4:
            return self._numpy
        with _lock:
            if len(self._numpy) < 4:
                import numpy as np  # (deferred: a graph is read without numpy)

                wide = self.transitions.typecode == "q"
                table = np.frombuffer(self.transitions, dtype=np.int64 if wide else np.int32)
                ranks = np.frombuffer(self.ranks, dtype=np.int32)
                lengths = np.fromiter(map(len, self.words), dtype=np.int32, count=len(self.words))
                words = np.empty(len(self.words), dtype=object)
                words[:] = self.words
                for view in (table, ranks, lengths, words):
                    view.flags.writeable = False
                self._numpy[:] = [table, ranks, lengths, words]
        return self._numpy


def decode(value: int) -> tuple[int, bool]:
    """A non-zero transition value as ``(offset of the next state, ends a word)``;
    offset ``-1`` is the sink."""
    if value > 0:
        return value, False
    if value == -1:
        return -1, True
    return -2 - value, True


def follow(
    table: Sequence[int], ranks: Sequence[int], offset: int, rank: int, columns: Sequence[int]
) -> tuple[int, int, bool] | None:
    """Follow ``columns`` through a transition table from the state at ``offset``.

    :meth:`WordGraph.walk` does it for letters; the solvers, for the columns
    of the board's tiles (``table`` and ``ranks`` are a graph's
    :attr:`~WordGraph.transitions` and :attr:`~WordGraph.ranks`).

    :returns: ``(offset, rank, final)`` as :meth:`WordGraph.walk` does, or
        ``None`` when no word continues that way.
    """
    final = False
    for col in columns:
        if offset < 0:
            return None
        value = table[offset + col]
        if not value:
            return None
        rank += ranks[offset + col]
        offset, final = decode(value)
    return offset, rank, final


class CompileStopped(lacak.LimitReachedError):
    """Compiling a dictionary passed its deadline (nothing is cached).

    Raised by :func:`compile_words` and :func:`compile_dictionary` when given
    a ``deadline``; the solver turns it into a result stopped at the time limit.
    """

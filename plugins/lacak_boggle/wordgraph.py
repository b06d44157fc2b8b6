"""A dictionary compiled for Boggle: a minimal word graph (DAWG) in dense tables.

The words are folded into a minimal deterministic acyclic automaton (Daciuk's
incremental algorithm over the sorted words), so shared prefixes *and*
suffixes are stored once: the 64k-word English list becomes about 23k states.
Each state is one row of two flat tables with one column per symbol:

- ``transitions[row * stride + col]`` (``int32``, or ``int64`` for alphabets
  over 30 letters or huge graphs): where the edge for that
  symbol leads. ``0``: no edge. A positive value: the next state's offset
  (its row premultiplied by ``stride``, so the solver adds a column and
  indexes again); the next state does not end a word. ``-2 - offset``: the
  next state ends a word (and goes on). ``-1``: the edge ends a word and
  nothing goes on (the final sink, where most words end). So a solver learns
  "word here" from the sign of the value it already has. Column 0 holds the
  bitmask of the letter columns that have an edge (bit ``col``), which the
  solver ANDs with the letters around a tile to skip dead ends.
- ``ranks[row * stride + col]`` (``int32``): how many dictionary words sort
  before every word that takes this edge, counted from the state. Summing it
  along a path gives the word's index in ``dictionary.words`` (a minimal
  perfect hash), so the solver needs no strings until the end.

Columns are the letters in code-point order, then the two-letter faces of
real dice (``AN ER HE IN QU TH``) whose letters the dictionary uses, so a
``QU`` tile is one step. Other multi-letter tiles are walked letter by letter.

Compiled graphs are cached in memory (per dictionary object and per content)
and on disk in ``lacak.paths.cache_dir("boggle")``, keyed by a SHA-256 of the
words, so a dictionary is compiled once per machine. The file is a verified
cache file (:mod:`lacak.cache`): the JSON header of the layout (``digest``,
``words``, ``text_bytes``, ``states``, ``typecode``, ``columns``), then the
transition table, the rank table and the words, little-endian. A damaged,
truncated or foreign file is reported once and rebuilt, never used.
"""

from __future__ import annotations

import array
import functools
import hashlib
import sys
import threading
import time
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import lacak

from .results import quiet_gc

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "DIGRAPHS",
    "CompileStopped",
    "WordGraph",
    "compile_dictionary",
    "compile_words",
    "decode",
    "follow",
    "load_graph",
]

#: Bump when the on-disk layout or the compilation changes (part of the digest, and
#: the format number of the cache files).
FORMAT = 4
#: Multi-letter faces found on real dice, given their own column when possible.
DIGRAPHS = ("AN", "ER", "HE", "IN", "QU", "TH")
_FORMAT = lacak.cache.CacheFormat(
    tag="lacak-boggle-dawg", version=FORMAT, what="the compiled Boggle word graph"
)


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
                import numpy as np

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


# -- compiling -------------------------------------------------------------------------


def _symbols(words: Sequence[str], alphabet: str, deadline: float | None = None) -> tuple[str, ...]:
    letters = set(alphabet)
    step = 16 * _CLOCK_EVERY
    for at in range(0, len(words), step):  # in slices, to look at the clock between them
        _check_deadline(deadline, len(words), 0, len(words))
        letters.update("".join(words[at : at + step]))
    ordered = sorted(letters)
    digraphs = [d for d in DIGRAPHS if all(ch in letters for ch in d)]
    return ("", *ordered, *digraphs)


def _digest(words: Sequence[str], columns: Sequence[str]) -> str:
    h = hashlib.sha256()
    h.update(f"lacak-boggle-dawg/{FORMAT}\n".encode())
    h.update("\t".join(columns).encode())
    h.update(b"\n")
    h.update("\n".join(words).encode())
    return h.hexdigest()


class CompileStopped(lacak.LimitReachedError):
    """Compiling a dictionary passed its deadline (nothing is cached).

    Raised by :func:`compile_words` and :func:`compile_dictionary` when given
    a ``deadline``; the solver turns it into a result stopped at the time limit.
    """


#: Words (or states) compiled between two looks at the clock when there is a deadline.
_CLOCK_EVERY = 4096


def _check_deadline(deadline: float | None, size: int, done: int, total: int) -> None:
    if deadline is not None and time.perf_counter() >= deadline:
        raise CompileStopped(
            f"the time limit passed while compiling a dictionary of {size:,} words "
            f"for Boggle ({done:,} of {total:,} steps done); solve once without a time "
            "limit to compile it and keep it in the cache"
        )


def _minimal_automaton(
    words: Sequence[str], index: dict[str, int], deadline: float | None = None
) -> tuple[list[dict[int, int]], list[bool], list[int]]:
    """Daciuk et al.'s incremental construction over sorted, unique words.

    No recursion: a word of any length is fine.

    :returns: ``(edges, final, bottom_up)``: per state its edges (column ->
        state) and whether it ends a word, and the states that remain, each
        after all of its children (the order they were registered in, the
        root last).
    """
    edges: list[dict[int, int]] = [{}]
    final: list[bool] = [False]
    register: dict[tuple[bool, tuple[tuple[int, int], ...]], int] = {}
    unchecked: list[tuple[int, int, int]] = []

    def minimise(down_to: int) -> None:
        # the deepest unchecked state first: its children are registered already
        while len(unchecked) > down_to:
            parent, col, child = unchecked.pop()
            key = (final[child], tuple(sorted(edges[child].items())))
            same = register.get(key)
            if same is None:
                register[key] = child
            else:
                edges[parent][col] = same

    previous = ""
    total = len(words)
    for number, word in enumerate(words):
        if not number % _CLOCK_EVERY:
            _check_deadline(deadline, total, number, total)
        if word <= previous:  # checked here rather than in passes of their own
            if not word:
                raise lacak.DictionaryError("a dictionary word is empty")
            raise lacak.DictionaryError("words must be sorted and unique to be compiled")
        common = 0
        limit = min(len(previous), len(word))
        while common < limit and previous[common] == word[common]:
            common += 1
        minimise(common)
        state = unchecked[-1][2] if unchecked else 0
        for ch in word[common:]:
            new = len(edges)
            edges.append({})
            final.append(False)
            col = index[ch]
            edges[state][col] = new
            unchecked.append((state, col, new))
            state = new
        final[state] = True
        previous = word
    minimise(0)
    # A state is registered only after every state below it (``minimise`` pops the
    # deepest first), so the register's order is bottom-up.
    return edges, final, [*register.values(), 0]


def compile_words(
    words: Sequence[str], alphabet: str = "", *, deadline: float | None = None
) -> WordGraph:
    """Compile sorted, unique, non-empty ``words`` (no caching).

    Words of any length compile: nothing here recurses (a word of 50,000
    letters is 50,000 states in a row), and the process's recursion limit is
    left alone.

    :param alphabet: letters to give columns even if no word uses them.
    :param deadline: a :func:`time.perf_counter` time to stop at; the clock
        is read every few thousand words and states.
    :raises DictionaryError: unsorted, repeated or empty words, or too many.
    :raises CompileStopped: the deadline passed (a :class:`lacak.LimitReachedError`).
    :raises OutOfMemoryError: the graph does not fit in memory.
    """
    with (
        lacak.memory_guard(
            f"the Boggle word graph of {len(words):,} words",
            "use a smaller dictionary, or free memory",
        ),
        quiet_gc(),  # no cycles are made; collections would rescan every state's dict
    ):
        return _compile(words, alphabet, deadline)


def _compile(words: Sequence[str], alphabet: str, deadline: float | None) -> WordGraph:
    started = time.perf_counter()
    columns = _symbols(words, alphabet, deadline)
    stride = len(columns)
    index = {s: i for i, s in enumerate(columns) if len(s) == 1}
    edges, final, bottom_up = _minimal_automaton(words, index, deadline)
    import numpy as np  # (here: importing it the first time takes a few tenths of a second)

    # Number the reachable states breadth-first; the edge-less final state (the
    # sink) gets no row and is written -1.
    order = [0]
    row_of = {0: 0}
    sink = None
    for state in order:
        if not len(order) % _CLOCK_EVERY:
            _check_deadline(deadline, len(words), len(order), len(bottom_up))
        for child in edges[state].values():
            if child in row_of or child == sink:
                continue
            if not edges[child]:
                sink = child
                continue
            row_of[child] = len(order)
            order.append(child)

    # Words below each state, children first (a loop, not recursion: words of
    # any length compile).
    count: dict[int, int] = {}
    for done, state in enumerate(bottom_up):
        if not done % _CLOCK_EVERY:
            _check_deadline(deadline, len(words), done, len(bottom_up))
        count[state] = int(final[state]) + sum([count[c] for c in edges[state].values()])

    rows = len(order)
    table = np.zeros((rows, stride), dtype=np.int64)
    ranks = np.zeros((rows, stride), dtype=np.int64)
    for row, state in enumerate(order):
        if not row % _CLOCK_EVERY:
            _check_deadline(deadline, len(words), row, rows)
        before = int(final[state])
        for col, child in sorted(edges[state].items()):
            table[row, col] = -1 if child == sink else row_of[child] * stride
            ranks[row, col] = before
            before += count[child]

    for j, symbol in enumerate(columns):
        if len(symbol) < 2:
            continue
        first, second = index[symbol[0]], index[symbol[1]]
        via = table[:, first]
        ok = via > 0
        middle = via[ok] // stride
        target = table[middle, second]
        rank = ranks[ok, first] + ranks[middle, second]
        table[ok, j] = target
        ranks[ok, j] = np.where(target != 0, rank, 0)

    # Mark the edges into word-ending states by their sign, then put each row's
    # letter mask in column 0.
    is_final = np.array([final[state] for state in order], dtype=bool)
    inner = table[:, 1:]
    forward = inner > 0
    ends = np.zeros_like(forward)
    ends[forward] = is_final[inner[forward] // stride]
    inner[ends] = -2 - inner[ends]
    letters = [i for i, symbol in enumerate(columns) if len(symbol) == 1]
    if letters and max(letters) <= 62:
        bits = np.zeros(stride, dtype=np.int64)
        bits[letters] = np.left_shift(np.int64(1), np.array(letters, dtype=np.int64))
        table[:, 0] = ((table != 0) * bits).sum(axis=1)
    else:  # too many letters for a 64-bit mask: no pruning
        table[:, 0] = -1
    if ranks.size and ranks.max() >= 2**31:
        raise lacak.DictionaryError("the dictionary is too large to compile for Boggle")
    return WordGraph(
        digest=_digest(words, columns),
        words=tuple(words),
        columns=columns,
        states=rows,
        transitions=_pack(table),
        ranks=array.array("i", ranks.astype("<i4").ravel().tobytes()),
        seconds=time.perf_counter() - started,
    )


def _pack(table: Any) -> array.array:
    """The table as ``int32`` when every value fits (alphabets up to 30 letters and
    graphs up to 2**31 entries), else ``int64``."""

    narrow = not table.size or (table.min() > -(2**31) and table.max() < 2**31)
    if narrow:
        return array.array("i", table.astype("<i4").ravel().tobytes())
    return array.array("q", table.astype("<i8").ravel().tobytes())


# -- caching --------------------------------------------------------------------------

_lock = threading.RLock()
_by_id: dict[int, tuple[Any, WordGraph]] = {}
_by_digest: dict[str, WordGraph] = {}
_MAX_DIGESTS = 8


def _cache_file(digest: str) -> Path | None:
    folder = lacak.cache.folder("boggle", stale=("tmp*.tmp",))
    return folder / f"{digest}.dawg" if folder is not None else None


def _decode(
    artefact: lacak.cache.Artefact, words: tuple[str, ...] | None, digest: str
) -> WordGraph:
    """The graph in a verified cache file; raises ``ValueError`` when its parts disagree."""
    import time

    started = time.perf_counter()
    meta = artefact.meta
    columns = meta.get("columns")
    if not isinstance(columns, list) or not all(isinstance(c, str) for c in columns):
        raise ValueError("'columns' is not a list of strings")
    if len(columns) < 1 or columns[0] != "" or len(set(columns)) != len(columns):
        raise ValueError("'columns' is not a column list")
    rows, count, text_bytes = (_count(meta, k) for k in ("states", "words", "text_bytes"))
    code = meta.get("typecode")
    if code not in ("i", "q"):
        raise ValueError(f"unknown typecode {code!r}")
    if meta.get("digest") != digest:
        raise ValueError("written for another digest")
    if words is not None and count != len(words):
        raise ValueError("another number of words")
    stride = len(columns)
    body = artefact.payload
    size = rows * stride * array.array(code).itemsize
    small = rows * stride * 4
    if len(body) != size + small + text_bytes:
        raise ValueError("the tables have the wrong size")
    if words is None:
        text = bytes(body[size + small :]).decode("utf-8")
        words = tuple(text.split("\n")) if text else ()
        if len(words) != count:
            raise ValueError("another number of words")
    table, ranks = array.array(code), array.array("i")
    table.frombytes(body[:size])
    ranks.frombytes(body[size : size + small])
    if sys.byteorder == "big":  # pragma: no cover - stored little-endian
        table.byteswap()
        ranks.byteswap()
    return WordGraph(
        digest=digest,
        words=words,
        columns=tuple(columns),
        states=rows,
        transitions=table,
        ranks=ranks,
        seconds=time.perf_counter() - started,
        from_cache=True,
    )


def _count(meta: dict[str, Any], name: str) -> int:
    value = meta.get(name)
    if type(value) is not int or value < 0:
        raise ValueError(f"{name!r} is not a count")
    return value


def _read(
    path: Path | None, words: tuple[str, ...] | None, digest: str, *, rebuild: bool = True
) -> WordGraph | None:
    """Load a cached graph; ``words`` (when known) saves decoding the stored ones."""
    return lacak.cache.load(
        path, _FORMAT, digest, lambda artefact: _decode(artefact, words, digest), rebuild=rebuild
    )


def _is_sound(path: Path, digest: str) -> bool:
    """Whether ``path`` holds a sound cached graph of ``digest`` (that a worker can load)."""
    found = lacak.cache.inspect(path, _FORMAT)
    return found.problem is None and found.key == digest


def _write(path: Path | None, graph: WordGraph) -> None:
    text = "\n".join(graph.words).encode("utf-8")
    meta = {
        "digest": graph.digest,
        "words": len(graph.words),
        "text_bytes": len(text),
        "states": graph.states,
        "typecode": graph.transitions.typecode,
        "columns": list(graph.columns),
    }
    table = array.array(graph.transitions.typecode, graph.transitions)
    ranks = array.array("i", graph.ranks)
    if sys.byteorder == "big":  # pragma: no cover
        table.byteswap()
        ranks.byteswap()
    # a read-only or full cache is not an error: we just compile next time (lacak.cache warns once)
    lacak.cache.save(path, _FORMAT, graph.digest, [table, ranks, text], meta=meta)


def _remember(graph: WordGraph) -> None:
    if graph.digest not in _by_digest and len(_by_digest) >= _MAX_DIGESTS:
        _by_digest.pop(next(iter(_by_digest)))
    _by_digest[graph.digest] = graph


def load_graph(digest: str, words: Sequence[str] | None = None, alphabet: str = "") -> WordGraph:
    """The graph with this digest: from memory, the disk cache, or compiled from ``words``.

    Batch workers use it to get the parent's graph without pickling it.

    :raises DictionaryError: not cached and no ``words`` given.
    """
    with _lock:
        graph = _by_digest.get(digest)
        if graph is not None:
            return graph
        path = _cache_file(digest)
        known = tuple(words) if words is not None else None
        graph = _read(path, known, digest, rebuild=known is not None)
        if graph is None:
            if known is None:
                raise lacak.DictionaryError(f"no compiled dictionary {digest[:12]} in the cache")
            graph = compile_words(known, alphabet)
            if graph.digest != digest:
                raise lacak.DictionaryError("the words do not match the compiled dictionary")
            _write(path, graph)
        _remember(graph)
        return graph


def compile_dictionary(
    dictionary: lacak.Dictionary, *, use_cache: bool = True, deadline: float | None = None
) -> WordGraph:
    """The :class:`WordGraph` of ``dictionary``, compiled once and cached.

    Lookups of the same dictionary object are a dict access; a dictionary with
    the same words (and alphabet) is read from the disk cache, which loads the
    64k-word English graph in a few milliseconds.

    :param use_cache: ``False`` compiles afresh and touches no cache.
    :param deadline: a :func:`time.perf_counter` time by which a compilation
        must end (a cached graph is always returned).
    :raises DictionaryError: the words cannot be compiled.
    :raises CompileStopped: compiling passed the deadline (nothing is cached).
    :raises OutOfMemoryError: the graph does not fit in memory.
    """
    if not use_cache:
        return compile_words(dictionary.words, dictionary.alphabet, deadline=deadline)
    with _lock:
        hit = _by_id.get(id(dictionary))
        if hit is not None and hit[0]() is dictionary:
            return hit[1]
        words = tuple(dictionary.words)
        columns = _symbols(words, dictionary.alphabet, deadline)
        digest = _digest(words, columns)
        graph = _by_digest.get(digest)
        if graph is None:
            path = _cache_file(digest)
            graph = _read(path, words, digest)
            if graph is None:
                graph = compile_words(words, dictionary.alphabet, deadline=deadline)
                _write(path, graph)
            _remember(graph)
        try:
            ref: Any = weakref.ref(dictionary)
        except TypeError:
            ref = None
        if ref is not None:
            stale = [k for k, (r, _) in _by_id.items() if r() is None]
            for k in stale:
                del _by_id[k]
            _by_id[id(dictionary)] = (ref, graph)
        return graph

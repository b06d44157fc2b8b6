"""Building a :class:`~lacak_boggle.wordgraph.graph.WordGraph` from sorted words: the
minimal automaton (built with arrays, or by Daciuk's algorithm) packed into dense tables.

:func:`compile_words` compiles without any cache; the package's
:func:`~lacak_boggle.wordgraph.compile_dictionary` caches what it makes. numpy is
imported inside the functions that need it: the plugin registers, and a cached graph
is read, without it.
"""

from __future__ import annotations

import array
import hashlib
import time
from collections.abc import Sequence
from typing import Any

import attrs
import lacak

from .._gc import quiet_gc
from .graph import DIGRAPHS, FORMAT, CompileStopped, WordGraph

__all__ = ["compile_words"]


def _key(
    words: Sequence[str], alphabet: str, deadline: float | None = None
) -> tuple[tuple[str, ...], str]:
    """``(columns, digest)`` of ``words``: the graph's columns (the alphabet's letters
    and the words', then the dice digraphs they spell) and the SHA-256 of the content,
    the cache key. Both are made :data:`_WORDS_EVERY` words at a time, with a look at
    the deadline before each (the digest is that of the words joined by line breaks)."""
    letters: set[str] = set()
    breaks = 0
    for start in range(0, len(words), _WORDS_EVERY):
        _check_deadline(deadline, len(words), start, len(words))
        piece = "\n".join(words[start : start + _WORDS_EVERY])
        letters.update(piece)
        breaks += piece.count("\n")
    if breaks == len(words) - len(range(0, len(words), _WORDS_EVERY)):
        letters.discard("\n")  # no word holds a line break itself
    letters.update(alphabet)
    ordered = sorted(letters)
    digraphs = [d for d in DIGRAPHS if all(ch in letters for ch in d)]
    columns = ("", *ordered, *digraphs)
    h = hashlib.sha256()
    h.update(f"lacak-boggle-dawg/{FORMAT}\n".encode())
    h.update("\t".join(columns).encode())
    h.update(b"\n")
    for start in range(0, len(words), _WORDS_EVERY):
        _check_deadline(deadline, len(words), start, len(words))
        if start:
            h.update(b"\n")
        h.update("\n".join(words[start : start + _WORDS_EVERY]).encode("utf-8", "surrogatepass"))
    return columns, h.hexdigest()


#: Words (or states) compiled between two looks at the clock when there is a deadline.
_CLOCK_EVERY = 4096
#: Words read (joined, hashed, coded as columns) between two looks at the clock.
_WORDS_EVERY = 1 << 16
#: Entries of the dense tables filled between two looks at the clock.
_BLOCK = 1 << 20


def _check_deadline(deadline: float | None, size: int, done: int, total: int) -> None:
    """Raise :class:`CompileStopped` once ``deadline`` (a time of :func:`lacak.limits.now`)
    has passed."""
    if deadline is not None and lacak.limits.now() >= deadline:
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
            if not len(unchecked) % _CLOCK_EVERY:  # (a word of a million letters pops as many)
                _check_deadline(deadline, total, len(edges), total)
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
            if not new % _CLOCK_EVERY:  # by states too: long words make many per word
                _check_deadline(deadline, total, number, total)
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
    return _guarded(words, alphabet, deadline)


def _guarded(
    words: Sequence[str],
    alphabet: str,
    deadline: float | None,
    columns: tuple[str, ...] | None = None,
    digest: str = "",
) -> WordGraph:
    """:func:`_compile` under the memory guard (``columns`` and ``digest``: when known)."""
    with (
        lacak.memory_guard(
            f"the Boggle word graph of {len(words):,} words",
            "use a smaller dictionary, or free memory",
        ),
        quiet_gc(),  # no cycles are made; collections would rescan every state's dict
    ):
        return _compile(words, alphabet, deadline, columns, digest)


#: Longest word the array construction takes: it loops once per letter of the longest
#: word, so a list with longer words (no real one) is built by Daciuk's algorithm.
_ARRAY_LONGEST = 256


class _HashClash(Exception):
    """Two different states got the same 64-bit signature (never seen; the build then
    falls back to Daciuk's algorithm rather than merge them)."""


@attrs.frozen
class _Automaton:
    """A minimal acyclic automaton as arrays: states numbered so that every edge leads
    to a smaller number (the root is the last state), edges sorted by state then column."""

    final: Any  # bool per state
    count: Any  # int64 per state: the words that go through it (its right language)
    src: Any  # int64 per edge
    col: Any  # int64 per edge
    dst: Any  # int64 per edge
    longest: int  # letters of the longest word: no path from the root is longer

    @property
    def states(self) -> int:
        return len(self.final)


def _mix(values: Any) -> Any:
    """SplitMix64's finaliser on uint64 arrays (wrapping): a well-spread signature."""
    import numpy as np  # (deferred: see the module docstring)

    with np.errstate(over="ignore"):
        z = values + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def _array_automaton(
    words: Sequence[str], columns: Sequence[str], deadline: float | None
) -> _Automaton | None:
    """The minimal automaton of sorted, unique, non-empty ``words``, built with numpy.

    A trie is laid out from the words' common prefixes (a word's new letters hang
    below the last node of its shared prefix), then merged level by level of
    height (the longest way down to a word's end), as in Revuz's algorithm: two
    nodes are the same state when they agree on ending a word and on each column's
    state below. Each level groups its nodes by a 64-bit signature of exactly
    that, and checks every grouped node against its group's first, edge by edge,
    so a clash of signatures is found, never merged.

    :returns: ``None`` for what this construction leaves to Daciuk's algorithm
        (no words, an empty word, or a word over :data:`_ARRAY_LONGEST` letters).
    :raises DictionaryError: the words are not sorted and unique.
    :raises _HashClash: two different nodes had one signature.
    """
    import numpy as np  # (deferred: see the module docstring)

    n = len(words)
    if not n:
        return None
    lengths = np.empty(n, dtype=np.int64)
    for start in range(0, n, _WORDS_EVERY):
        _check_deadline(deadline, n, 0, n)
        piece = words[start : start + _WORDS_EVERY]
        lengths[start : start + len(piece)] = np.fromiter(map(len, piece), np.int64, len(piece))
    if lengths.min() == 0 or lengths.max() > _ARRAY_LONGEST:
        return None
    letters = [s for s in columns if len(s) == 1]
    codes = np.array([ord(s) for s in letters], dtype=np.int64)
    # each letter's column (columns 1.., in code-point order), word after word, coded a
    # piece of the words at a time (the whole text as code points would be 4 bytes a
    # letter, and its columns 8 more); 2 bytes a letter unless the alphabet is huge
    starts = np.cumsum(lengths) - lengths
    cols = np.empty(int(lengths.sum()), dtype=np.int16 if len(codes) < 2**15 else np.int32)
    table = None
    if codes[-1] < 1 << 16:  # a look-up table for the usual alphabets
        table = np.zeros(int(codes[-1]) + 1, dtype=cols.dtype)
        table[codes] = np.arange(1, len(codes) + 1)
    for start in range(0, n, _WORDS_EVERY):
        _check_deadline(deadline, n, 0, n)
        text = "".join(words[start : start + _WORDS_EVERY]).encode("utf-32-le", "surrogatepass")
        cps = np.frombuffer(text, dtype=np.uint32)
        offset = int(starts[start])
        if table is not None:
            cols[offset : offset + len(cps)] = table[cps]
        else:
            cols[offset : offset + len(cps)] = np.searchsorted(codes, cps.astype(np.int64)) + 1
    # each word's common prefix with the one before it, a piece of the words at a time
    lcp = np.zeros(n, dtype=np.int64)
    for start in range(1, n, _WORDS_EVERY):
        _check_deadline(deadline, n, 0, n)
        index = np.arange(start, min(start + _WORDS_EVERY, n), dtype=np.int64)
        shared = np.minimum(lengths[index], lengths[index - 1])
        seg = np.repeat(index, shared)
        depth_in = np.arange(int(shared.sum()), dtype=np.int64) - np.repeat(
            np.cumsum(shared) - shared, shared
        )
        same = cols[starts[seg] + depth_in] == cols[starts[seg - 1] + depth_in]
        lcp[index] = shared
        differ = np.flatnonzero(~same)
        if differ.size:
            first_seg, first_at = np.unique(seg[differ], return_index=True)
            lcp[first_seg] = depth_in[differ[first_at]]
    _check_deadline(deadline, n, 0, n)
    # sorted and unique: a word is never a prefix of (or equal to) the one before,
    # and where the two differ, its letter is the larger
    later = lcp[1:]
    bad = later >= lengths[1:]
    inside = ~bad & (later < lengths[:-1])
    at = np.flatnonzero(inside) + 1
    bad[at - 1] |= cols[starts[at] + lcp[at]] < cols[starts[at - 1] + lcp[at]]
    if bad.any():
        raise lacak.DictionaryError("words must be sorted and unique to be compiled")
    _check_deadline(deadline, n, 0, n)

    # the trie: node 0 is the root; node k (k >= 1) is the k-th new letter, word by word
    new = lengths - lcp
    total = int(new.sum())
    nodes = total + 1
    # (one array pass over the letters, or a few, between two looks at the clock)
    word_of = np.repeat(np.arange(n, dtype=np.int64), new)
    _check_deadline(deadline, n, 0, n)
    first_new = np.cumsum(new) - new  # index (node - 1) of each word's first new letter
    depth = np.repeat(lcp - first_new, new)
    depth += np.arange(total, dtype=np.int64)
    _check_deadline(deadline, n, 0, n)
    label = np.empty(nodes, dtype=cols.dtype)
    label[0] = 0
    label[1:] = cols[starts[word_of] + depth]
    del cols
    _check_deadline(deadline, n, 0, n)
    parent = np.empty(nodes, dtype=np.int64)
    parent[0] = -1
    parent[1:] = np.arange(total, dtype=np.int64)  # the node before, in the same word
    # a word's first new letter hangs below the last node at the depth before, made by
    # an earlier word: the end of the prefix it shares
    key = depth * n
    key += word_of
    del word_of
    _check_deadline(deadline, n, 0, n)
    by_key = np.argsort(depth.astype(np.int16), kind="stable")  # by depth, then word: a radix sort
    del depth
    _check_deadline(deadline, n, 0, n)
    sorted_key = key[by_key]
    del key
    joins = np.flatnonzero(lcp > 0)
    query = (lcp[joins] - 1) * n + joins
    parent[1 + first_new[joins]] = 1 + by_key[np.searchsorted(sorted_key, query) - 1]
    parent[1 + first_new[lcp == 0]] = 0
    final = np.zeros(nodes, dtype=bool)
    final[np.cumsum(new)] = True  # each word's last letter
    _check_deadline(deadline, n, 0, n)

    # heights (the longest way down) and word counts, bottom-up by depth
    height = np.zeros(nodes, dtype=np.int16)  # (at most _ARRAY_LONGEST)
    count = final.astype(np.int64)
    longest = int(lengths.max())
    levels = np.searchsorted(sorted_key, np.arange(longest + 1) * n)  # where each depth starts
    for level in range(longest - 1, -1, -1):
        _check_deadline(deadline, n, longest - level, longest)
        members = 1 + by_key[levels[level] : levels[level + 1]]
        above = parent[members]
        np.maximum.at(height, above, height[members] + 1)
        np.add.at(count, above, count[members])

    del by_key, sorted_key
    _check_deadline(deadline, n, 0, n)
    # children in column order: a node's children were made by later and later words
    children = np.argsort(parent[1:], kind="stable") + 1
    _check_deadline(deadline, n, 0, n)
    degree = np.bincount(parent[1:], minlength=nodes)
    del parent
    child_at = np.cumsum(degree) - degree
    _check_deadline(deadline, n, 0, n)

    # merge nodes level by level of height
    by_height = np.argsort(height, kind="stable")
    _check_deadline(deadline, n, 0, n)
    tallest = int(height.max())
    bounds = np.searchsorted(height[by_height], np.arange(tallest + 2))
    del height
    state = np.full(nodes, -1, dtype=np.int64)
    states = 0
    for h in range(tallest + 1):
        members = by_height[bounds[h] : bounds[h + 1]]
        if not members.size:
            continue
        if h == 0:  # the ends of the longest words: final, nothing below
            state[members] = states
            states += 1
            continue
        _check_deadline(deadline, n, h, tallest)
        deg = degree[members]
        begin = np.cumsum(deg) - deg
        picks = children[np.repeat(child_at[members] - begin, deg) + np.arange(int(deg.sum()))]
        edge_col, edge_state = label[picks], state[picks]
        signature = np.add.reduceat(
            _mix((edge_col.astype(np.uint64) << np.uint64(40)) ^ edge_state.astype(np.uint64)),
            begin,
        )
        signature ^= _mix(deg.astype(np.uint64) * np.uint64(2) + final[members])
        _, first, group = np.unique(signature, return_index=True, return_inverse=True)
        group = group.reshape(-1)
        lead = first[group]  # each node's group's first node (positions in members)
        if (deg[lead] != deg).any() or (final[members[lead]] != final[members]).any():
            raise _HashClash
        shift = np.repeat(begin[lead] - begin, deg) + np.arange(int(deg.sum()))
        if (edge_col[shift] != edge_col).any() or (edge_state[shift] != edge_state).any():
            raise _HashClash
        state[members] = states + group
        states += len(first)

    # one representative node per state, and its edges
    _check_deadline(deadline, n, tallest, tallest)
    lead_node = np.empty(states, dtype=np.int64)
    lead_node[state[::-1]] = np.arange(nodes - 1, -1, -1)  # (the first node of each state)
    deg = degree[lead_node]
    begin = np.cumsum(deg) - deg
    picks = children[np.repeat(child_at[lead_node] - begin, deg) + np.arange(int(deg.sum()))]
    return _Automaton(
        final=final[lead_node],
        count=count[lead_node],
        src=np.repeat(np.arange(states, dtype=np.int64), deg),
        col=label[picks],
        dst=state[picks],
        longest=longest,
    )


def _daciuk_automaton(
    words: Sequence[str], index: dict[str, int], deadline: float | None
) -> _Automaton:
    """:func:`_minimal_automaton`'s result in the array layout of :class:`_Automaton`."""
    import numpy as np  # (deferred: see the module docstring)

    edges, final, bottom_up = _minimal_automaton(words, index, deadline)
    number = {old: new for new, old in enumerate(bottom_up)}
    count: list[int] = []
    src: list[int] = []
    col: list[int] = []
    dst: list[int] = []
    for new, old in enumerate(bottom_up):
        if not new % _CLOCK_EVERY:
            _check_deadline(deadline, len(words), new, len(bottom_up))
        below = int(final[old])
        for column, child in sorted(edges[old].items()):
            src.append(new)
            col.append(column)
            dst.append(number[child])
            below += count[number[child]]
        count.append(below)
    return _Automaton(
        final=np.array([final[old] for old in bottom_up], dtype=bool),
        count=np.array(count, dtype=np.int64),
        src=np.array(src, dtype=np.int64),
        col=np.array(col, dtype=np.int64),
        dst=np.array(dst, dtype=np.int64),
        longest=max(map(len, words), default=0),
    )


def _automaton(
    words: Sequence[str], columns: tuple[str, ...], deadline: float | None
) -> _Automaton:
    """The minimal automaton of ``words``: built with arrays when it can be, else (no
    words, words over :data:`_ARRAY_LONGEST` letters, a signature clash) by Daciuk's
    algorithm; both give the same automaton."""
    try:
        built = _array_automaton(words, columns, deadline)
    except _HashClash:  # pragma: no cover - 64-bit signatures have never clashed
        built = None
    if built is not None:
        return built
    index = {s: i for i, s in enumerate(columns) if len(s) == 1}
    return _daciuk_automaton(words, index, deadline)


def _breadth_first(
    automaton: _Automaton, root: int, sink: int, deadline: float | None = None
) -> list[int]:
    """The states in breadth-first order from ``root`` (each level's children in the
    order of their parents, then of their columns), the sink left out: the order of a
    first-in first-out walk, taken a level at a time with arrays."""
    import numpy as np  # (deferred: see the module docstring)

    at = np.searchsorted(automaton.src, np.arange(automaton.states + 1))
    seen = np.zeros(automaton.states, dtype=bool)
    seen[root] = True
    if sink >= 0:
        seen[sink] = True
    level = np.array([root], dtype=np.int64)
    parts = [level]
    while level.size:
        _check_deadline(deadline, automaton.states, len(parts), automaton.longest)
        deg = at[level + 1] - at[level]
        begin = np.cumsum(deg) - deg
        children = automaton.dst[np.repeat(at[level] - begin, deg) + np.arange(int(deg.sum()))]
        children = children[~seen[children]]
        _, first = np.unique(children, return_index=True)
        level = children[np.sort(first)]
        seen[level] = True
        parts.append(level)
    return list(np.concatenate(parts).tolist())


def _compile(
    words: Sequence[str],
    alphabet: str,
    deadline: float | None,
    columns: tuple[str, ...] | None = None,
    digest: str = "",
) -> WordGraph:
    started = time.perf_counter()
    if columns is None:
        columns, digest = _key(words, alphabet, deadline)
    stride = len(columns)
    import numpy as np  # (deferred: importing it the first time takes a few tenths of a second)

    index = {s: i for i, s in enumerate(columns) if len(s) == 1}
    automaton = _automaton(words, columns, deadline)
    _check_deadline(deadline, len(words), 0, automaton.states)
    states = automaton.states
    root = states - 1
    edges_at = np.searchsorted(automaton.src, np.arange(states + 1))
    # The edge-less final state (the sink, where most words end) gets no row and is
    # written -1; a minimal automaton has at most one edge-less state besides an
    # edge-less root (no words).
    edgeless = np.flatnonzero(edges_at[1:] == edges_at[:-1])
    edgeless = edgeless[edgeless != root]
    sink = int(edgeless[0]) if edgeless.size else -1
    # Number the states breadth-first from the root (children in column order).
    if automaton.longest <= _ARRAY_LONGEST:
        order = _breadth_first(automaton, root, sink, deadline)
    else:  # (a level per letter of a very long word: one loop over the edges instead)
        at, targets = edges_at.tolist(), automaton.dst.tolist()
        order = [root]
        seen = {root, sink}
        for state in order:
            if not len(order) % _CLOCK_EVERY:
                _check_deadline(deadline, len(words), len(order), states)
            for child in targets[at[state] : at[state + 1]]:
                if child not in seen:
                    seen.add(child)
                    order.append(child)
    rows = len(order)
    _check_deadline(deadline, len(words), 0, rows)  # (then a few array passes between looks)
    row = np.full(states, -1, dtype=np.int64)
    row[np.array(order, dtype=np.int64)] = np.arange(rows, dtype=np.int64)
    src, col, dst = automaton.src, automaton.col, automaton.dst
    # (the dense tables are filled a block of rows or edges at a time, between looks at
    # the clock: zeroed first, which writes their pages of memory for the first time)
    table = np.empty((rows, stride), dtype=np.int64)
    ranks = np.empty((rows, stride), dtype=np.int64)
    for lo in range(0, rows, _BLOCK // stride + 1):
        _check_deadline(deadline, len(words), lo, rows)
        table[lo : lo + _BLOCK // stride + 1] = 0
        ranks[lo : lo + _BLOCK // stride + 1] = 0
    # an edge's rank: the words that end at its state, and those below the edges
    # before it (in column order, as the words are sorted)
    below = automaton.count[dst]
    before = np.cumsum(below) - below
    before -= before[edges_at[src]] if len(src) else 0
    for lo in range(0, len(src), _BLOCK):
        _check_deadline(deadline, len(words), lo, len(src))
        part = slice(lo, lo + _BLOCK)
        here, there = row[src[part]], dst[part]
        table[here, col[part]] = np.where(there == sink, -1, row[there] * stride)
        ranks[here, col[part]] = automaton.final[src[part]] + before[part]
    del below, before, row

    digraphs = [(j, s) for j, s in enumerate(columns) if len(s) >= 2]
    is_final = automaton.final[np.array(order, dtype=np.int64)]
    letters = [i for i, symbol in enumerate(columns) if len(symbol) == 1]
    bits = None
    if letters and max(letters) <= 62:
        bits = np.zeros(stride, dtype=np.int64)
        bits[letters] = np.left_shift(np.int64(1), np.array(letters, dtype=np.int64))
    for lo in range(0, rows, _BLOCK // stride + 1):
        _check_deadline(deadline, len(words), lo, rows)
        block = slice(lo, lo + _BLOCK // stride + 1)
        rows_here = table[block]
        for j, symbol in digraphs:  # a digraph's edge: its first letter's, then its second's
            first, second = index[symbol[0]], index[symbol[1]]
            via = rows_here[:, first]
            ok = via > 0
            middle = via[ok] // stride
            target = table[middle, second]
            rank = ranks[block][ok, first] + ranks[middle, second]
            rows_here[ok, j] = target
            ranks[block][ok, j] = np.where(target != 0, rank, 0)
    for lo in range(0, rows, _BLOCK // stride + 1):
        _check_deadline(deadline, len(words), lo, rows)
        rows_here = table[lo : lo + _BLOCK // stride + 1]
        # Mark the edges into word-ending states by their sign, then put each row's
        # letter mask in column 0.
        inner = rows_here[:, 1:]
        forward = inner > 0
        ends = np.zeros_like(forward)
        ends[forward] = is_final[inner[forward] // stride]
        inner[ends] = -2 - inner[ends]
        if bits is not None:
            rows_here[:, 0] = ((rows_here != 0) * bits).sum(axis=1)
        else:  # too many letters for a 64-bit mask: no pruning
            rows_here[:, 0] = -1

    def step(done: int, total: int) -> None:
        _check_deadline(deadline, len(words), done, total)

    if ranks.size and _extreme(ranks, step)[1] >= 2**31:
        raise lacak.DictionaryError("the dictionary is too large to compile for Boggle")
    return WordGraph(
        digest=digest,
        words=tuple(words),
        columns=columns,
        states=rows,
        transitions=_pack(table, step),
        ranks=_copied(ranks, "i", step),
        seconds=time.perf_counter() - started,
    )


def _extreme(values: Any, step: Any) -> tuple[int, int]:
    """``(min, max)`` of an array, a block at a time (``step(done, total)`` before each)."""
    flat = values.reshape(-1)
    low = high = 0
    for lo in range(0, flat.size, _BLOCK):
        step(lo, flat.size)
        part = flat[lo : lo + _BLOCK]
        low, high = min(low, int(part.min())), max(high, int(part.max()))
    return low, high


def _copied(values: Any, code: str, step: Any) -> array.array:
    """An array's values as an :class:`array.array` of ``code`` (``"i"``, ``"q"``),
    little-endian, a block at a time (``step(done, total)`` before each)."""
    flat = values.reshape(-1)
    dtype = "<i4" if code == "i" else "<i8"
    out = array.array(code)
    for lo in range(0, flat.size, _BLOCK):
        step(lo, flat.size)
        out.frombytes(flat[lo : lo + _BLOCK].astype(dtype).tobytes())
    return out


def _pack(table: Any, step: Any = lambda done, total: None) -> array.array:
    """The table as ``int32`` when every value fits (alphabets up to 30 letters and
    graphs up to 2**31 entries), else ``int64``."""
    low, high = _extreme(table, step) if table.size else (0, 0)
    return _copied(table, "i" if low > -(2**31) and high < 2**31 else "q", step)

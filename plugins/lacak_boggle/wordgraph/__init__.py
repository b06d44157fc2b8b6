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
and on disk in ``lacak.store.paths.cache_dir("boggle")``, keyed by a SHA-256 of the
words, so a dictionary is compiled once per machine. The file is a verified
cache file (:mod:`lacak.store.cache`): the JSON header of the layout (``digest``,
``words``, ``text_bytes``, ``states``, ``typecode``, ``columns``), then the
transition table, the rank table and the words, little-endian. A damaged,
truncated or foreign file is reported once and rebuilt, never used.

This package's modules, each a concern: :mod:`~lacak_boggle.wordgraph.graph` (the
tables and walks along them), :mod:`~lacak_boggle.wordgraph.build` (compiling
words into them) and :mod:`~lacak_boggle.wordgraph.files` (the disk cache); this
module keeps the graphs made in memory and serves them (:func:`compile_dictionary`,
:func:`load_graph`).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any

import lacak

from .build import _guarded, _key, compile_words
from .files import _cache_file, _read, _write
from .graph import DIGRAPHS, FORMAT, CompileStopped, WordGraph, _lock, decode, follow

__all__ = [
    "DIGRAPHS",
    "FORMAT",
    "CompileStopped",
    "WordGraph",
    "compile_dictionary",
    "compile_words",
    "decode",
    "follow",
    "load_graph",
]

# -- caching --------------------------------------------------------------------------

_by_id: dict[int, tuple[Any, WordGraph]] = {}
_by_digest: dict[str, WordGraph] = {}
_MAX_DIGESTS = 8


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
        columns, digest = _key(words, dictionary.alphabet, deadline)
        graph = _by_digest.get(digest)
        if graph is None:
            path = _cache_file(digest)
            graph = _read(path, words, digest)
            if graph is None:
                graph = _guarded(words, dictionary.alphabet, deadline, columns, digest)
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

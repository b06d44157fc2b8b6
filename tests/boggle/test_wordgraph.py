"""The compiled word graph: ranks, membership, prefixes, the disk cache."""

from __future__ import annotations

import os

import lacak
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak_boggle.wordgraph import (
    _cache_file,
    compile_dictionary,
    compile_words,
    decode,
    load_graph,
)

word_lists = st.lists(st.text(alphabet="ABCDEQUTHIN", min_size=1, max_size=9), max_size=80).map(
    lambda ws: sorted(set(ws))
)


@settings(max_examples=150, deadline=None)
@given(words=word_lists, probes=st.lists(st.text(alphabet="ABCDEQUTHINX", max_size=9), max_size=20))
def test_ranks_membership_and_prefixes(words: list[str], probes: list[str]) -> None:
    graph = compile_words(words)
    for index, word in enumerate(words):
        assert graph.rank(word) == index
        assert graph.contains(word)
    for probe in [*probes, *(w[:k] for w in words for k in range(len(w)))]:
        assert graph.contains(probe) == (probe in words)
        assert graph.has_prefix(probe) == any(w.startswith(probe) for w in words)
        assert graph.rank(probe) == (words.index(probe) if probe in words else None)


@settings(max_examples=100, deadline=None)
@given(words=word_lists)
def test_digraph_columns_equal_two_letter_steps(words: list[str]) -> None:
    graph = compile_words(words, alphabet="ABCDEQUTHIN")
    table, ranks = graph.transitions, graph.ranks
    for digraph in ("QU", "TH", "IN", "HE"):
        col = graph.column(digraph)
        assert col, "the alphabet has the letters, so the digraph has a column"
        for row in range(graph.states):
            offset = row * graph.stride
            two = graph.walk(digraph, offset, 0)
            value = table[offset + col]
            if two is None:
                assert value == 0
            else:
                assert (*decode(value), ranks[offset + col]) == (two[0], two[2], two[1])


def test_the_graph_is_minimal_enough() -> None:
    words = ["BAT", "BATS", "CAT", "CATS", "RAT", "RATS"]
    graph = compile_words(words)
    # root, after C/B/R (shared), after CA/BA/RA (shared), after CAT (final, S) -> sink
    assert graph.states == 4
    assert [graph.rank(w) for w in words] == [0, 1, 2, 3, 4, 5]


def test_compile_rejects_unsorted_or_empty_words() -> None:
    with pytest.raises(lacak.DictionaryError):
        compile_words(["B", "A"])
    with pytest.raises(lacak.DictionaryError):
        compile_words(["", "A"])
    empty = compile_words([])
    assert empty.states == 1 and not empty.contains("A") and not empty.has_prefix("A")


def test_memory_and_disk_cache() -> None:
    words = lacak.Dictionary(name="cache-test", language="", words=["ALPHA", "BETA", "GAMMA"])
    graph = compile_dictionary(words)
    assert compile_dictionary(words) is graph
    path = _cache_file(graph.digest)
    assert path is not None and path.exists()
    assert path.parent == lacak.store.paths.cache_dir("boggle")
    same = lacak.Dictionary(name="other-name", language="", words=["ALPHA", "BETA", "GAMMA"])
    assert compile_dictionary(same).digest == graph.digest

    from lacak_boggle import wordgraph

    wordgraph._by_digest.clear()
    wordgraph._by_id.clear()
    loaded = compile_dictionary(words)
    assert loaded.from_cache and loaded is not graph
    assert (loaded.transitions, loaded.ranks, loaded.columns) == (
        graph.transitions,
        graph.ranks,
        graph.columns,
    )

    wordgraph._by_digest.clear()
    by_digest = load_graph(graph.digest)
    assert by_digest.words == graph.words and by_digest.from_cache


def test_a_corrupt_cache_file_is_rebuilt() -> None:
    from lacak_boggle import wordgraph

    words = lacak.Dictionary(name="corrupt", language="", words=["ONE", "TWO", "THREE"])
    graph = compile_dictionary(words)
    path = _cache_file(graph.digest)
    good = path.read_bytes()
    wrong_format = f'"format":{wordgraph.FORMAT},'.encode()
    assert wrong_format in good  # the format number is in the header (and under its checksum)
    for damage in (
        b"garbage",
        good[:-7],
        good.replace(wrong_format, b'"format":999,'),
    ):
        path.write_bytes(damage)
        wordgraph._by_digest.clear()
        wordgraph._by_id.clear()
        again = compile_dictionary(words)
        assert not again.from_cache
        assert again.transitions == graph.transitions and again.words == graph.words
    assert compile_dictionary(words, use_cache=False).digest == graph.digest


def test_load_graph_without_cache_needs_the_words() -> None:
    from lacak_boggle import wordgraph

    graph = compile_words(["XENON", "XYLEM"], "XENOYLM")
    with pytest.raises(lacak.DictionaryError):
        wordgraph._by_digest.pop(graph.digest, None)
        path = _cache_file(graph.digest)
        if path is not None and path.exists():
            os.unlink(path)
        load_graph(graph.digest)
    assert load_graph(graph.digest, graph.words, "XENOYLM").digest == graph.digest


def test_a_read_only_cache_is_not_an_error(monkeypatch) -> None:
    from lacak_boggle import wordgraph

    def refuse(*_args, **_kwargs):
        raise PermissionError("read-only")

    real_open = os.open

    def refuse_to_create(path, flags, *args, **kwargs):
        if flags & os.O_CREAT:
            raise PermissionError("read-only")
        return real_open(path, flags, *args, **kwargs)

    words = lacak.Dictionary(name="ro", language="", words=["READ", "ONLY"])
    for target in ("create", "replace"):
        with monkeypatch.context() as patch:
            if target == "create":
                patch.setattr(lacak.store.cache.os, "open", refuse_to_create)
            else:
                patch.setattr(lacak.store.cache.os, "replace", refuse)
            wordgraph._by_id.clear()
            wordgraph._by_digest.clear()
            graph = compile_dictionary(words)
            assert graph.contains("READ") and not graph.from_cache
            assert not _cache_file(graph.digest).exists()
    assert not [
        p
        for p in _cache_file(graph.digest).parent.iterdir()
        if p.suffix == ".tmp" or p.name.startswith(lacak.store.cache.TEMP_PREFIX)
    ]


def test_english_graph_is_compact() -> None:
    eng = lacak.dictionary("eng")
    graph = compile_dictionary(eng)
    assert graph.states < len(eng.words)
    assert graph.column("QU") and graph.column("TH")
    sample = eng.words[:: max(1, len(eng.words) // 500)]
    assert all(graph.rank(w) == eng.words.index(w) for w in sample)


def _daciuk_only(words: list[str], alphabet: str = ""):
    """The graph of ``words`` built by Daciuk's algorithm alone (the array build off)."""
    from lacak_boggle import wordgraph

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(wordgraph.build, "_array_automaton", lambda *args: None)
        return compile_words(words, alphabet)


@settings(max_examples=200, deadline=None)
@given(
    words=st.lists(st.text(alphabet="ABẞQUTHINÄ", min_size=1, max_size=12), max_size=120).map(
        lambda ws: sorted(set(ws))
    ),
    alphabet=st.sampled_from(["", "ABQU", "ABCDEFGHIJKLMNOPQRSTUVWXYZÄẞ"]),
)
def test_the_array_build_is_daciuk_s_automaton(words: list[str], alphabet: str) -> None:
    """Issue 13: the word graph is built with numpy (a trie merged level by level of
    height) in a fraction of the time; it is the same minimal automaton, numbered the
    same way, table for table, as Daciuk's incremental algorithm gives."""
    fast, slow = compile_words(words, alphabet), _daciuk_only(words, alphabet)
    assert (fast.states, fast.columns, fast.digest) == (slow.states, slow.columns, slow.digest)
    assert fast.transitions == slow.transitions and fast.ranks == slow.ranks


def test_the_array_build_refuses_what_daciuk_refuses() -> None:
    for bad in (["B", "A"], ["A", "A"], ["AB", "A"], ["A", "", "B"]):
        with pytest.raises(lacak.DictionaryError):
            compile_words(bad)
    # a word longer than the array build takes is built by Daciuk's algorithm
    from lacak_boggle.wordgraph.build import _ARRAY_LONGEST

    long = sorted(["A" * (_ARRAY_LONGEST + 5), "AB", "B"])
    graph = compile_words(long)
    assert [graph.rank(w) for w in long] == [0, 1, 2]
    assert graph.transitions == _daciuk_only(long).transitions

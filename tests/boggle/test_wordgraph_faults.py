"""Fault injection on the Boggle word-graph cache: damage never changes the words found."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import lacak
import pytest
from hypothesis import example, given, settings
from lacak.store import cache
from lacak.testing.strategies import CacheDamage, cache_damage
from lacak_boggle import solve_board, wordgraph
from lacak_boggle.wordgraph import _cache_file, compile_dictionary, load_graph

from .conftest import timeless


@pytest.fixture(scope="module")
def short() -> lacak.Dictionary:
    """English words of at most four letters: a small graph that still finds words."""
    eng = lacak.dictionary("eng")
    words = [w for w in eng.words if len(w) <= 4]
    return lacak.Dictionary.from_words(words, name="short", alphabet=eng.alphabet)


BOARDS = [lacak.generate("boggle", "classic4", (4, 4), seed=seed) for seed in range(4)]


def found(dictionary: lacak.Dictionary) -> list[list[str]]:
    return [[w.word for w in solve_board(board, dictionary).words] for board in BOARDS]


@pytest.fixture(scope="module")
def fresh(short: lacak.Dictionary) -> tuple[wordgraph.WordGraph, list[list[str]]]:
    graph = compile_dictionary(short, use_cache=False)
    forget()
    words = found(short)
    assert sum(map(len, words)) > 50
    return graph, words


def forget() -> None:
    wordgraph._by_digest.clear()
    wordgraph._by_id.clear()


def same_graph(a: wordgraph.WordGraph, b: wordgraph.WordGraph) -> bool:
    return (a.digest, a.words, a.columns, a.states, a.transitions, a.ranks) == (
        b.digest, b.words, b.columns, b.states, b.transitions, b.ranks
    )  # fmt: skip


@settings(max_examples=40)
@given(damage=cache_damage())
@example(damage=CacheDamage("flip", (8 * 5000,)))  # inside the transition table
@example(damage=CacheDamage("replace", data=b'LACAK-BOGGLE-DAWG\n{"format": 3, "columns": 5}\n'))
@example(damage=CacheDamage("folder"))
def test_a_damaged_graph_gives_the_fresh_words_and_is_rebuilt(
    short: lacak.Dictionary, fresh: tuple[wordgraph.WordGraph, list[list[str]]], damage: CacheDamage
) -> None:
    graph, expected = fresh
    cache._forget_reports()
    forget()
    compile_dictionary(short)  # from the cache, or compiled and written
    path = _cache_file(graph.digest)
    assert path is not None and path.is_file()
    changed = damage.apply(path)
    forget()
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        loaded = compile_dictionary(short)
        assert found(short) == expected
    assert same_graph(loaded, graph)
    if changed:
        assert not loaded.from_cache
        (warning,) = [w for w in record if issubclass(w.category, lacak.CacheWarning)]
        assert str(warning.message).startswith(
            f"rebuilding the compiled Boggle word graph {path} ("
        )
        assert cache.inspect(path).problem is None  # replaced by a good file
    forget()
    again = compile_dictionary(short)
    assert again.from_cache and same_graph(again, graph)


@settings(max_examples=20)
@given(damage=cache_damage())
def test_a_worker_without_the_words_never_uses_a_damaged_graph(
    short: lacak.Dictionary, fresh: tuple[wordgraph.WordGraph, list[list[str]]], damage: CacheDamage
) -> None:
    """``load_graph(digest)`` (how batch workers get the graph) cannot rebuild: it refuses."""
    graph, _expected = fresh
    cache._forget_reports()
    forget()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lacak.CacheWarning)  # the last example's damage
        compile_dictionary(short)
    path = _cache_file(graph.digest)
    assert path is not None
    changed = damage.apply(path)
    forget()
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        if not changed:
            assert same_graph(load_graph(graph.digest), graph)
            return
        with pytest.raises(lacak.DictionaryError, match="no compiled dictionary"):
            load_graph(graph.digest)
        assert same_graph(load_graph(graph.digest, short.words, short.alphabet), graph)
    said = [str(w.message) for w in record if issubclass(w.category, lacak.CacheWarning)]
    assert said[0].startswith(f"not using the compiled Boggle word graph {path} (")
    assert cache.inspect(path).problem is None  # rebuilt from the words, and written


def test_a_graph_for_other_words_is_not_used(short: lacak.Dictionary) -> None:
    """A sound file copied under another digest's name is refused by its key."""
    other = lacak.Dictionary(name="other", language="", words=["ZZZ"])
    forget()
    theirs = compile_dictionary(other)
    mine = compile_dictionary(short)
    source, target = _cache_file(theirs.digest), _cache_file(mine.digest)
    assert source is not None and target is not None
    target.write_bytes(source.read_bytes())
    forget()
    cache._forget_reports()
    with pytest.warns(lacak.CacheWarning, match="written for key"):
        assert same_graph(compile_dictionary(short), mine)


def test_the_cli_says_rebuilding_in_one_line(tmp_path: Path, short: lacak.Dictionary) -> None:
    words = tmp_path / "short.json"
    words.write_text(json.dumps({"words": list(short.words)}), "utf-8")
    env = {**os.environ, "LACAK_CACHE_DIR": str(tmp_path / "cache")}
    board = str(BOARDS[2])
    command = [sys.executable, "-m", "lacak", "boggle", "solve", board, "-d", str(words), "--json"]
    first = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert first.returncode == 0 and first.stderr == ""
    (path,) = (tmp_path / "cache" / "boggle").glob("*.dawg")
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x10
    path.write_bytes(bytes(data))
    second = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert timeless(json.loads(second.stdout)) == timeless(json.loads(first.stdout))
    assert second.stderr == (
        f"warning: rebuilding the compiled Boggle word graph {path} (checksum mismatch)\n"
    )


def nested(depth: int) -> list[object]:
    value: list[object] = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    "meta",
    [
        {"columns": 5},
        {"columns": [1, 2]},
        {"columns": nested(500)},
        {"columns": ["", "A"], "states": -1, "words": 1, "text_bytes": 1, "typecode": "i"},
        {"columns": ["", "A"], "states": 10**12, "words": 1, "text_bytes": 1, "typecode": "i"},
        {"columns": ["", "A", "A"], "states": 1, "words": 1, "text_bytes": 1, "typecode": "i"},
        {"columns": ["", "A"], "states": 1, "words": 1, "text_bytes": 1, "typecode": "x"},
    ],
    ids=["columns-5", "columns-ints", "deep", "negative", "huge", "repeated", "typecode"],
)
def test_a_sound_file_with_a_foreign_layout_is_rebuilt(
    short: lacak.Dictionary, fresh: tuple[wordgraph.WordGraph, list[list[str]]], meta: dict
) -> None:
    """Past the checksum, the layout is checked too: a foreign one is rebuilt, never an error."""
    graph, expected = fresh
    path = _cache_file(graph.digest)
    assert path is not None
    meta = {"digest": graph.digest, **meta}
    assert cache.save(path, wordgraph.files._FORMAT, graph.digest, [b"\0" * 64], meta=meta)
    forget()
    cache._forget_reports()
    with pytest.warns(lacak.CacheWarning, match=r"rebuilding .* \(unusable content: "):
        assert same_graph(compile_dictionary(short), graph)
    assert found(short) == expected
    assert cache.inspect(path).meta["columns"] == list(graph.columns)  # type: ignore[index]

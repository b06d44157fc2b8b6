"""The compiled graphs' disk cache: one verified cache file a graph, named by its digest.

The file is a verified cache file (:mod:`lacak.store.cache`): the JSON header of the
layout (``digest``, ``words``, ``text_bytes``, ``states``, ``typecode``,
``columns``), then the transition table, the rank table and the words,
little-endian. A damaged, truncated or foreign file is reported once and rebuilt,
never used.
"""

from __future__ import annotations

import array
import sys
import time
from pathlib import Path
from typing import Any

import lacak

from .graph import FORMAT, WordGraph

_FORMAT = lacak.store.cache.CacheFormat(
    tag="lacak-boggle-dawg", version=FORMAT, what="the compiled Boggle word graph"
)


def _cache_file(digest: str) -> Path | None:
    folder = lacak.store.cache.folder("boggle", stale=("tmp*.tmp",))
    return folder / f"{digest}.dawg" if folder is not None else None


def _decode(
    artefact: lacak.store.cache.Artefact, words: tuple[str, ...] | None, digest: str
) -> WordGraph:
    """The graph in a verified cache file; raises ``ValueError`` when its parts disagree."""
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
    # mapped, not read: the tables are copied out of the mapping once
    return lacak.store.cache.load(
        path,
        _FORMAT,
        digest,
        lambda artefact: _decode(artefact, words, digest),
        rebuild=rebuild,
        mmap=True,
    )


def _is_sound(path: Path, digest: str) -> bool:
    """Whether ``path`` holds a sound cached graph of ``digest`` (that a worker can load)."""
    found = lacak.store.cache.inspect(path, _FORMAT)
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
    # a read-only or full cache is not an error: we just compile next time (lacak.store.cache warns once)
    lacak.store.cache.save(path, _FORMAT, graph.digest, [table, ranks, text], meta=meta)

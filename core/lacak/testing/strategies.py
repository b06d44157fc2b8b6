"""Hypothesis strategies for lacak values.

Each builds valid values directly rather than filtering.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
from hypothesis import strategies as st

from ..api import parse
from ..limits import Limits
from .reference import GraphPuzzle

__all__ = [
    "CacheDamage",
    "anything",
    "cache_damage",
    "graph_puzzles",
    "grid_sizes",
    "limits",
    "names",
    "registered_puzzles",
    "seeds",
]


class _Opaque:
    """An object of a class lacak cannot know: no attributes, not iterable."""

    def __repr__(self) -> str:
        return "<opaque>"


def anything(*, max_leaves: int = 6) -> st.SearchStrategy[Any]:
    """Arbitrary Python values, to feed entry points what a careless caller might.

    ``None``, bools, integers of any size, floats (``nan`` and infinities included),
    complex numbers, bytes, text (lone surrogates included), plain objects, types and
    functions, and lists, tuples, sets and dicts of those, nested. For checking that an
    entry point answers bad input with a :class:`~lacak.LacakError` and nothing else.

    :param max_leaves: about how many scalars one nested value holds at most.
    """
    text = st.text(max_size=12) | st.text(
        st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=3
    )
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(),
        st.complex_numbers(),
        st.binary(max_size=12),
        text,
        st.builds(object),
        st.builds(_Opaque),
        st.sampled_from([Ellipsis, NotImplemented, int, str, object, len, print]),
    )
    hashable = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), text)
    return st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=4),
            st.tuples(children, children),
            st.frozensets(hashable, max_size=3),
            st.dictionaries(hashable, children, max_size=3),
        ),
        max_leaves=max_leaves,
    )


def seeds() -> st.SearchStrategy[int]:
    """Seeds as generators accept them: non-negative 63-bit integers."""
    return st.integers(min_value=0, max_value=2**63 - 1)


def names(min_size: int = 1, max_size: int = 20) -> st.SearchStrategy[str]:
    """Component names: lower-case letters, digits and dashes, starting with a letter."""
    return st.from_regex(rf"\A[a-z][a-z0-9-]{{{min_size - 1},{max_size - 1}}}\Z")


@st.composite
def limits(draw: st.DrawFn, *, allow_none: bool = True) -> Limits:
    """Arbitrary :class:`~lacak.Limits` with small bounds."""

    def opt(strategy: st.SearchStrategy[Any]) -> Any:
        return draw(st.none() | strategy) if allow_none else draw(strategy)

    return Limits(
        max_depth=opt(st.integers(0, 40)),
        max_expanded=opt(st.integers(0, 5000)),
        seconds=opt(st.floats(0.0, 5.0, allow_nan=False)),
        max_frontier=opt(st.integers(0, 5000)),
        max_closed=opt(st.integers(0, 5000)),
    )


@st.composite
def grid_sizes(
    draw: st.DrawFn, *, min_side: int = 1, max_side: int = 12, max_cells: int | None = None
) -> tuple[int, int]:
    """``(rows, cols)`` pairs, optionally with at most ``max_cells`` cells."""
    rows = draw(st.integers(min_side, max_side))
    top = max_side if max_cells is None else max(min_side, min(max_side, max_cells // rows))
    cols = draw(st.integers(min_side, top))
    return rows, cols


@st.composite
def graph_puzzles(
    draw: st.DrawFn,
    *,
    max_states: int = 12,
    unit_costs: bool = False,
) -> GraphPuzzle:
    """Random weighted digraphs as :class:`GraphPuzzle`, with or without a reachable goal."""
    count = draw(st.integers(1, max_states))
    edges: dict[Any, tuple[tuple[Any, Any, float], ...]] = {}
    for state in range(count):
        targets = draw(st.lists(st.integers(0, count - 1), max_size=4, unique=True))
        moves = []
        for target in targets:
            cost = 1.0 if unit_costs else float(draw(st.integers(1, 9)))
            moves.append((f"{state}>{target}", target, cost))
        edges[state] = tuple(moves)
    goals: frozenset[Any] = draw(st.frozensets(st.integers(0, count - 1), max_size=2))
    return GraphPuzzle(edges=edges, initial=0, goals=goals)


def registered_puzzles(kind: str, texts: Sequence[str], **options: Any) -> st.SearchStrategy[Any]:
    """Puzzles of ``kind`` parsed from ``texts`` by the registered puzzle type."""
    return st.sampled_from(list(texts)).map(lambda text: parse(kind, text, **options))


#: Contents that are not lacak cache files, or only look like one: JSON of the
#: shapes older lacak versions read (``[1,2]``, ``"columns": 5``), deep nesting,
#: the magic alone, a header announcing more than there is.
FOREIGN_CONTENTS = (
    b"[1,2]",
    b'{"columns": 5, "states": 1, "typecode": "i"}',
    b"[" * 100_000 + b"]" * 100_000,
    b"LACAK-BOGGLE-DAWG\n" + b'{"format": 3, "columns": 5}\n',
    b"\x93NUMPY\x01\x00v\x00{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }",
    b"\x89LACAK\r\n",
    b"\x89LACAK\r\n" + b"\xff" * 28,
    b"\x89LACAK\r\n@\x00\x00\x00" + b"\x00" * 24 + b"{}" + b" " * 26,
)


@attrs.frozen
class CacheDamage:
    """One way of damaging a cache file, drawn by :func:`cache_damage`.

    ``kind`` is ``flip`` (bits at ``positions``, taken modulo the file's bits),
    ``truncate`` (to ``positions[0]`` modulo its length), ``extend`` (append
    ``data``), ``replace`` (``data`` instead: foreign or random bytes),
    ``empty``, or ``folder`` (an empty folder where the file was).
    """

    kind: str
    positions: tuple[int, ...] = ()
    data: bytes = attrs.field(default=b"", repr=lambda data: f"<{len(data)} bytes>")

    def apply(self, path: Path) -> bool:
        """Damage the file at ``path``; returns whether anything changed."""
        before = path.read_bytes()
        if self.kind == "folder":
            path.unlink()
            path.mkdir()
            return True
        after = before
        if self.kind == "flip":
            flipped = bytearray(before)
            for position in self.positions:
                bit = position % (8 * len(flipped))
                flipped[bit // 8] ^= 1 << (bit % 8)
            after = bytes(flipped)
        elif self.kind == "truncate":
            after = before[: self.positions[0] % len(before)]
        elif self.kind == "extend":
            after = before + self.data
        elif self.kind == "replace":
            after = self.data
        elif self.kind == "empty":
            after = b""
        path.write_bytes(after)
        return after != before


@st.composite
def cache_damage(draw: st.DrawFn) -> CacheDamage:
    """Damage to do to a cache file: bit flips anywhere, truncation at any length,
    bytes appended, foreign or random content, an empty file, a folder in its place.

    Tests of a cache apply it with ``damage.apply(path)`` and check that the
    next load gives the answer a fresh build gives (see :mod:`lacak.store.cache`).
    """
    kind = draw(st.sampled_from(["flip", "flip", "truncate", "extend", "replace", "empty",
                                 "folder"]))  # fmt: skip
    position = st.integers(0, 2**40)
    if kind == "flip":
        return CacheDamage(kind, tuple(draw(st.lists(position, min_size=1, max_size=3))))
    if kind == "truncate":
        return CacheDamage(kind, (draw(position),))
    if kind == "extend":
        return CacheDamage(kind, data=draw(st.binary(min_size=1, max_size=64)))
    if kind == "replace":
        data = draw(st.sampled_from(FOREIGN_CONTENTS) | st.binary(max_size=256))
        return CacheDamage(kind, data=data)
    return CacheDamage(kind)

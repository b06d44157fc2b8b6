"""Hypothesis strategies: boards (with multi-letter and blank tiles) and dictionaries that fit them."""

from __future__ import annotations

from typing import Any

import lacak
from hypothesis import strategies as st

#: Letter sets to build boards from; the last one spells every dice digraph.
ALPHABETS = ("A", "AB", "ABC", "AEST", "AEHINQRTU")
#: Multi-letter tiles: dice digraphs (one column in the word graph) and others (walked letter by letter).
MULTI = ("QU", "TH", "IN", "ER", "HE", "AN", "AB", "ES", "ING", "TAE")


@st.composite
def shapes(draw: st.DrawFn, max_side: int = 6) -> tuple[int, int]:
    """``(rows, cols)`` from 1x1 to ``max_side`` square, biased to small and thin boards."""
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    return rows, cols


@st.composite
def boards(
    draw: st.DrawFn,
    *,
    letters: str | None = None,
    max_side: int = 6,
    multi: bool = True,
    blanks: bool = True,
) -> list[list[str]]:
    """Rows of tiles over ``letters`` (drawn when not given)."""
    letters = letters or draw(st.sampled_from(ALPHABETS))
    rows, cols = draw(shapes(max_side))
    pool = list(letters)
    if multi:
        pool += [t for t in MULTI if set(t) <= set(letters)]
    if blanks:
        pool.append("#")
    flat = draw(st.lists(st.sampled_from(pool), min_size=rows * cols, max_size=rows * cols))
    return [flat[r * cols : (r + 1) * cols] for r in range(rows)]


def _walk(draw: st.DrawFn, tiles: list[list[str]]) -> str:
    """Letters along a random walk of adjacent unused tiles (stops at a blank)."""
    rows, cols = len(tiles), len(tiles[0])
    r, c = draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1))
    used = {(r, c)}
    text = ""
    for _ in range(draw(st.integers(1, 7))):
        if tiles[r][c] == "#":
            break
        text += tiles[r][c]
        options = [
            (r + dr, c + dc)
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if 0 <= r + dr < rows and 0 <= c + dc < cols and (r + dr, c + dc) not in used
        ]
        if not options:
            break
        r, c = draw(st.sampled_from(options))
        used.add((r, c))
    return text


@st.composite
def cases(
    draw: st.DrawFn, *, max_side: int = 6, multi: bool = True, blanks: bool = True
) -> tuple[list[list[str]], lacak.Dictionary]:
    """A board and a dictionary over its letters: random words plus words read off the board."""
    letters = draw(st.sampled_from(ALPHABETS))
    tiles = draw(boards(letters=letters, max_side=max_side, multi=multi, blanks=blanks))
    words = set(draw(st.lists(st.text(alphabet=letters, min_size=1, max_size=7), max_size=25)))
    for _ in range(draw(st.integers(0, 12))):
        walked = _walk(draw, tiles)
        if walked:
            words.add(walked)
            words.add(walked[:-1] or walked)
    words.discard("")
    dictionary = lacak.Dictionary(name="random", language="", words=sorted(words), alphabet=letters)
    return tiles, dictionary


def flat_paths(paths: Any, cols: int) -> list[list[int]]:
    """Paths of ``(row, col)`` as row-major indices, for ordering comparisons."""
    return [[r * cols + c for r, c in p] for p in paths]


#: Alphabets of 30, 45 and 70 letters: up to 30 letters the word graph has 32-bit
#: tables; 31-62, 64-bit tables; more, no letter masks at all.
BIG_ALPHABETS = {
    30: "ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜẞ",
    45: "ABCDEFGHIJKLMNOPQRSTUVWXYZ" + "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤ",
    70: "ABCDEFGHIJKLMNOPQRSTUVWXYZ" + "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ" + "БГДЖЗИЙЛПФЦЧШЩЪЫЬЭЮЯ",
}


#: Board letters for :func:`foreign_cases`: each has letters a dictionary drawn from a
#: part of it never uses (Ñ and Ä outside A-Z too), and multi-letter tiles of them.
FOREIGN = ("ABZ", "AESTXÑ", "AEHINQRTUZÄ")


@st.composite
def foreign_cases(
    draw: st.DrawFn, *, max_side: int = 5
) -> tuple[list[list[str]], lacak.Dictionary]:
    """A board and a dictionary that knows only some of its letters.

    The dictionary's words use a drawn part of the board's letters, and it declares
    that part as its alphabet or declares none; so some tiles (single letters, dice
    digraphs such as ``QU`` or ``IN``, other multi-letter tiles) carry letters no word
    uses, which a solver must treat like blanks.
    """
    letters = draw(st.sampled_from(FOREIGN))
    tiles = draw(boards(letters=letters, max_side=max_side))
    known = "".join(sorted(draw(st.sets(st.sampled_from(letters), min_size=1))))
    words = set(draw(st.lists(st.text(alphabet=known, min_size=1, max_size=6), max_size=20)))
    for _ in range(draw(st.integers(0, 10))):  # words read off the board, when they can be
        walked = _walk(draw, tiles)
        for word in (walked, walked[:-1]):
            if word and set(word) <= set(known):
                words.add(word)
    alphabet = known if draw(st.booleans()) else ""
    dictionary = lacak.Dictionary(name="known", language="", words=sorted(words), alphabet=alphabet)
    return tiles, dictionary
